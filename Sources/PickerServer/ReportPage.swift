/// The privacy report page: markup, style and script served as three files (the
/// Content-Security-Policy allows no inline code), with no external resource. The script
/// draws each app's chart itself as SVG: one bar per UTC day, its height the number of
/// distinct assets the app read that day according to the log it was sent.
enum ReportPage {
    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>photofs privacy report</title><link rel="stylesheet" href="/report.css"></head>
        <body>
        <header>
          <div><h1>Privacy report</h1><p id="summary"></p></div>
          <div><button id="close" type="button">Close</button></div>
        </header>
        <div id="notice" hidden></div>
        <main id="apps"></main>
        <div id="done" hidden></div>
        <script src="/report.js"></script>
        </body></html>
        """

    static let style = """
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px system-ui, sans-serif; color: #222; background: #fafafa; }
        header { display: flex; justify-content: space-between; align-items: center; padding: 8px 16px; background: #fff; border-bottom: 1px solid #ddd; }
        h1 { font-size: 18px; margin: 0; } #summary { margin: 2px 0 0; color: #555; }
        h2 { font-size: 16px; margin: 0 0 4px; } h3 { font-size: 13px; margin: 12px 0 6px; color: #444; }
        button { font: inherit; padding: 4px 12px; border-radius: 6px; border: 1px solid #bbb; background: #fff; cursor: pointer; }
        main { padding: 8px 16px; display: flex; flex-direction: column; gap: 12px; }
        .app { background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 12px 16px; }
        .meta { color: #555; margin: 0 0 8px; }
        .chart .bar { fill: #0a62d0; } .chart .axis { stroke: #999; stroke-width: 1; }
        .chart text { font-size: 10px; fill: #555; }
        .recent { display: flex; gap: 8px; flex-wrap: wrap; }
        .recent figure { margin: 0; width: 96px; }
        .thumb { width: 96px; height: 96px; border-radius: 4px; background: #e4e4e4; object-fit: cover; display: block; }
        .recent figcaption { font-size: 10px; color: #444; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
        .grants { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
        .grants li { display: flex; align-items: center; gap: 8px; }
        .grants .thumb { width: 40px; height: 40px; }
        .grants .name { width: 280px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; } .grants .when { color: #666; font-size: 12px; flex: 1; }
        .empty { color: #777; font-style: italic; }
        #notice { color: #8a4b00; background: #fff3dc; padding: 6px 16px; }
        #notice[hidden], #done[hidden] { display: none; }
        #done { position: fixed; inset: 0; background: #fafafa; display: flex; align-items: center; justify-content: center; font-size: 18px; }
        """

    static let script = """
        'use strict';
        const SVG = 'http://www.w3.org/2000/svg';
        const $ = (id) => document.getElementById(id);
        let report = null;
        async function api(path, body) {
          const init = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Photofs-CSRF': report.csrf }, body: JSON.stringify(body) };
          const response = await fetch(path, init);
          return response.json();
        }
        function notice(text) { const n = $('notice'); n.textContent = text; n.hidden = !text; }
        function element(tag, className, text) { const e = document.createElement(tag); if (className) e.className = className; if (text !== undefined) e.textContent = text; return e; }
        function shape(tag, attributes) { const e = document.createElementNS(SVG, tag); for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v); return e; }
        function photos(n) { return n + (n === 1 ? ' photo' : ' photos'); }
        function thumb(id) { const img = element('img', 'thumb'); img.alt = ''; img.decoding = 'async'; img.src = '/api/thumb?id=' + id; img.onerror = () => { img.removeAttribute('src'); }; return img; }
        // Distinct assets read per day: the log has one entry per app, day and asset.
        function perDay(app) {
          const counts = new Map(report.days.map((d) => [d, 0]));
          for (const e of report.log) if (e.app === app && counts.has(e.day)) counts.set(e.day, counts.get(e.day) + 1);
          return counts;
        }
        function chart(app) {
          const counts = perDay(app), days = report.days;
          const W = 640, H = 150, TOP = 14, BOTTOM = 22, LEFT = 34, plot = H - TOP - BOTTOM;
          const max = Math.max(1, ...counts.values());
          const step = (W - LEFT) / days.length, width = Math.max(2, step - 4);
          const svg = shape('svg', { class: 'chart', width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'data-app': app, 'data-max': max });
          const title = shape('title', {}); title.textContent = 'Photos ' + app + ' read per day, ' + days[0] + ' to ' + days[days.length - 1] + ' (UTC)';
          svg.appendChild(title);
          svg.appendChild(shape('line', { class: 'axis', x1: LEFT, y1: H - BOTTOM + 0.5, x2: W, y2: H - BOTTOM + 0.5 }));
          svg.appendChild(shape('line', { class: 'axis', x1: LEFT - 0.5, y1: TOP, x2: LEFT - 0.5, y2: H - BOTTOM }));
          const top = shape('text', { x: LEFT - 4, y: TOP + 4, 'text-anchor': 'end' }); top.textContent = String(max); svg.appendChild(top);
          const zero = shape('text', { x: LEFT - 4, y: H - BOTTOM, 'text-anchor': 'end' }); zero.textContent = '0'; svg.appendChild(zero);
          days.forEach((day, i) => {
            const count = counts.get(day), height = count / max * plot;
            const bar = shape('rect', { class: 'bar', x: LEFT + i * step + 2, y: H - BOTTOM - height, width: width, height: height, 'data-day': day, 'data-count': count });
            const tip = shape('title', {}); tip.textContent = day + ': ' + photos(count); bar.appendChild(tip);
            svg.appendChild(bar);
            if (i === 0 || i === days.length - 1 || (i % 7 === 0 && days.length - 1 - i >= 4)) {
              const last = i === days.length - 1, label = shape('text', { x: last ? W : LEFT + i * step + step / 2, y: H - 6, 'text-anchor': last ? 'end' : 'middle' }); label.textContent = day.slice(5); svg.appendChild(label);
            }
          });
          return svg;
        }
        function recent(app) {
          const seen = new Map();
          for (const e of report.log) if (e.app === app) { const old = seen.get(e.asset); if (!old || old.last_read < e.last_read) seen.set(e.asset, e); }
          const list = [...seen.values()].sort((a, b) => (a.last_read < b.last_read ? 1 : -1)).slice(0, 12);
          const box = element('div', 'recent');
          if (!list.length) box.appendChild(element('p', 'empty', 'Nothing read in these days.'));
          for (const e of list) {
            const f = element('figure'); f.dataset.id = e.asset; f.appendChild(thumb(e.asset));
            const name = e.path === null ? e.asset + ' (gone)' : e.path.split('/').pop();
            const c = element('figcaption', '', name); c.title = (e.path || e.asset) + ' \\u00b7 last read ' + e.last_read.replace('T', ' ').replace('Z', ' UTC');
            f.appendChild(c); box.appendChild(f);
          }
          return box;
        }
        function grants(app) {
          const list = element('ul', 'grants');
          for (const r of app.rules || []) {
            let text = 'Rule: every photo matching ' + r.filter;
            if (r.expires) text += ' \\u00b7 expires ' + r.expires.replace('T', ' ');
            if (r.once) text += ' \\u00b7 for one run';
            list.appendChild(element('li', 'rule', text));
          }
          if (!app.grants.length && !(app.rules || []).length) list.appendChild(element('li', 'empty', 'No grants.'));
          for (const g of app.grants) {
            const li = element('li', 'grant'); li.dataset.id = g.asset;
            li.appendChild(thumb(g.asset));
            li.appendChild(element('span', 'name', g.name === null ? g.asset + ' (not in the library)' : g.name));
            let when = 'granted ' + g.granted.slice(0, 10);
            if (g.expires) when += ' \\u00b7 expires ' + g.expires.replace('T', ' ');
            if (g.once) when += ' \\u00b7 for one run';
            li.appendChild(element('span', 'when', when));
            const b = element('button', 'revoke', 'Revoke'); b.type = 'button';
            b.addEventListener('click', () => revoke(app.name, g.asset));
            li.appendChild(b); list.appendChild(li);
          }
          return list;
        }
        function render() {
          const main = $('apps'); main.textContent = '';
          let total = 0;
          for (const app of report.apps) {
            const s = element('section', 'app'); s.dataset.app = app.name;
            const read = new Set(report.log.filter((e) => e.app === app.name).map((e) => e.asset)).size;
            total += read;
            s.appendChild(element('h2', '', app.name));
            s.appendChild(element('p', 'meta', photos(read) + ' read in the last ' + report.days.length + ' days \\u00b7 ' + app.grants.length + ' granted' + (app.filter ? ' \\u00b7 filter: ' + app.filter : '')));
            s.appendChild(chart(app.name));
            s.appendChild(element('h3', '', 'Last read'));
            s.appendChild(recent(app.name));
            s.appendChild(element('h3', '', 'Grants'));
            s.appendChild(grants(app));
            main.appendChild(s);
          }
          if (!report.apps.length) main.appendChild(element('p', 'empty', 'No apps.'));
          $('summary').textContent = report.apps.length + (report.apps.length === 1 ? ' app' : ' apps') + ' \\u00b7 ' + report.days[0] + ' to ' + report.today + ' (UTC days) \\u00b7 a photo counts as read on a day when its bytes were read through the app\\u2019s view';
          document.body.dataset.loaded = String(Date.now());
        }
        async function load() {
          const next = await api('/api/report');
          if (next.error) { notice(next.error); return; }
          report = next; render();
        }
        async function revoke(app, id) {
          const result = await api('/api/revoke', { app: app, ids: [id] });
          notice(result.error || result.message);
          await load();
        }
        $('close').addEventListener('click', async () => {
          await api('/api/close', {});
          const done = $('done'); done.textContent = 'The report is closed. You can close this tab.'; done.hidden = false;
        });
        load();
        """
}
