/// The picker page: markup, style and script served as three files (the Content-Security-
/// Policy allows no inline code), with no external resource of any kind.
///
/// The grid is virtualized: the script lays out month headers and rows of tiles as plain
/// numbers, and only the rows near the viewport exist in the document, so 100,000 assets
/// cost what a screenful costs.
enum PickerPage {
    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>photofs picker</title><link rel="stylesheet" href="/app.css"></head>
        <body>
        <header>
          <div id="who"><h1 id="title">photofs</h1><p id="receives"></p></div>
          <div id="actions"><button id="cancel" type="button">Cancel</button><button id="add" type="button" disabled>Add</button></div>
        </header>
        <nav>
          <div id="chips">
            <button class="chip on" data-chip="all" type="button">All</button>
            <button class="chip" data-chip="photos" type="button">Photos</button>
            <button class="chip" data-chip="videos" type="button">Videos</button>
            <button class="chip" data-chip="screenshots" type="button">Screenshots</button>
            <button class="chip" data-chip="panoramas" type="button">Panoramas</button>
          </div>
          <input id="search" type="search" placeholder="Filter, e.g. camera:canon taken:2024-06" autocomplete="off" spellcheck="false">
          <select id="months"></select>
          <span id="count"></span>
        </nav>
        <div id="search-error" hidden></div>
        <div id="notice" hidden></div>
        <main id="grid"><div id="spacer"></div></main>
        <div id="preview" hidden><figure><img id="preview-image" alt=""><figcaption id="preview-caption"></figcaption></figure>
          <button id="preview-close" type="button">Close</button></div>
        <div id="done" hidden></div>
        <script src="/app.js"></script>
        </body></html>
        """

    static let style = """
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px system-ui, sans-serif; color: #222; background: #fafafa; display: flex; flex-direction: column; height: 100vh; }
        header { display: flex; justify-content: space-between; align-items: center; padding: 8px 16px; background: #fff; border-bottom: 1px solid #ddd; }
        h1 { font-size: 18px; margin: 0; } #receives { margin: 2px 0 0; color: #555; }
        button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid #bbb; background: #fff; cursor: pointer; }
        #add { background: #0a62d0; color: #fff; border-color: #0a62d0; margin-left: 8px; } #add:disabled { opacity: .5; cursor: default; }
        nav { display: flex; gap: 8px; align-items: center; padding: 8px 16px; flex-wrap: wrap; }
        .chip { border-radius: 16px; padding: 4px 12px; } .chip.on { background: #222; color: #fff; border-color: #222; }
        #search { flex: 1; min-width: 200px; padding: 6px 8px; border: 1px solid #bbb; border-radius: 6px; font: 13px ui-monospace, monospace; }
        #search.bad { border-color: #c00; background: #fff4f4; }
        #search-error { color: #c00; padding: 0 16px 6px; font: 12px ui-monospace, monospace; white-space: pre; }
        #notice { color: #8a4b00; background: #fff3dc; padding: 6px 16px; }
        #grid { flex: 1; overflow-y: auto; position: relative; }
        #spacer { width: 1px; }
        .month { position: absolute; left: 16px; font-weight: 600; height: 36px; line-height: 36px; }
        .tile { position: absolute; width: 120px; height: 120px; border-radius: 4px; overflow: hidden; background: #e4e4e4; cursor: pointer; }
        .tile img { width: 100%; height: 100%; object-fit: cover; display: block; }
        .tile .name { position: absolute; inset: auto 0 0 0; font-size: 10px; padding: 2px 4px; background: rgba(255,255,255,.8); overflow: hidden; white-space: nowrap; }
        .tile.sel { outline: 3px solid #0a62d0; outline-offset: -3px; }
        .tile.shared { opacity: .55; }
        .badge { position: absolute; top: 4px; right: 4px; min-width: 22px; height: 22px; border-radius: 11px; background: #0a62d0; color: #fff; font-size: 12px; line-height: 22px; text-align: center; padding: 0 5px; }
        .zoom { position: absolute; bottom: 4px; right: 4px; width: 22px; height: 22px; padding: 0; border-radius: 11px; font-size: 12px; line-height: 20px; }
        .video::after { content: "video"; position: absolute; top: 4px; left: 4px; font-size: 10px; background: #000a; color: #fff; padding: 1px 4px; border-radius: 3px; }
        #preview { position: fixed; inset: 0; background: #000d; display: flex; flex-direction: column; align-items: center; justify-content: center; }
        #preview[hidden], #done[hidden], #notice[hidden], #search-error[hidden] { display: none; }
        #preview img { max-width: 90vw; max-height: 80vh; } #preview figcaption { color: #eee; text-align: center; margin-top: 8px; }
        #done { position: fixed; inset: 0; background: #fafafa; display: flex; align-items: center; justify-content: center; font-size: 18px; }
        """

    static let script = """
        'use strict';
        const TILE = 120, GAP = 8, HEAD = 36, PAD = 16;
        const grid = document.getElementById('grid'), spacer = document.getElementById('spacer');
        let session = null, ids = [], days = [], rows = [], months = [], cols = 1, chip = 'all';
        let selected = [], shared = new Set(), rendered = new Map();
        const $ = (id) => document.getElementById(id);
        function notice(text) { const n = $('notice'); n.textContent = text; n.hidden = !text; }
        async function api(path, body) {
          const init = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Photofs-CSRF': session.csrf }, body: JSON.stringify(body) };
          const response = await fetch(path, init);
          return response.json();
        }
        function monthName(day) { const m = Math.floor(day / 100); return new Date(Date.UTC(Math.floor(m / 100), m % 100 - 1, 1)).toLocaleString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' }); }
        function layout() {
          cols = Math.max(1, Math.floor((grid.clientWidth - 2 * PAD + GAP) / (TILE + GAP)));
          rows = []; months = [];
          let y = 0, i = 0;
          while (i < ids.length) {
            const month = Math.floor(days[i] / 100);
            let end = i; while (end < ids.length && Math.floor(days[end] / 100) === month) end++;
            months.push({ month, y, count: end - i, day: days[i] });
            rows.push({ y, head: days[i] }); y += HEAD;
            for (let s = i; s < end; s += cols) { rows.push({ y, start: s, end: Math.min(end, s + cols) }); y += TILE + GAP; }
            i = end;
          }
          spacer.style.height = (y + PAD) + 'px';
          const select = $('months'); select.textContent = '';
          for (const m of months) { const o = document.createElement('option'); o.value = m.y; o.textContent = monthName(m.day) + ' (' + m.count + ')'; select.appendChild(o); }
          $('count').textContent = ids.length + (ids.length === 1 ? ' item' : ' items');
          for (const element of rendered.values()) element.remove();
          rendered.clear();
          paint();
        }
        function firstRow(y) { let lo = 0, hi = rows.length - 1; while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (rows[mid].y <= y) lo = mid; else hi = mid - 1; } return lo; }
        function paint() {
          const top = grid.scrollTop - 400, bottom = grid.scrollTop + grid.clientHeight + 400;
          const keep = new Set();
          for (let r = rows.length ? firstRow(Math.max(0, top)) : 0; r < rows.length && rows[r].y < bottom; r++) {
            const row = rows[r];
            if (row.head !== undefined) {
              const key = 'h' + r; keep.add(key);
              if (!rendered.has(key)) { const h = document.createElement('div'); h.className = 'month'; h.style.top = row.y + 'px'; h.textContent = monthName(row.head); grid.appendChild(h); rendered.set(key, h); }
              continue;
            }
            for (let i = row.start; i < row.end; i++) {
              const id = ids[i]; keep.add(id);
              if (rendered.has(id)) continue;
              const t = document.createElement('div'); t.className = 'tile'; t.dataset.id = id;
              t.style.top = row.y + 'px'; t.style.left = (PAD + (i - row.start) * (TILE + GAP)) + 'px';
              const img = document.createElement('img'); img.alt = ''; img.decoding = 'async'; img.src = '/api/thumb?id=' + id;
              img.onerror = () => { img.remove(); const n = document.createElement('div'); n.className = 'name'; n.textContent = id; t.prepend(n); };
              t.appendChild(img);
              const z = document.createElement('button'); z.className = 'zoom'; z.type = 'button'; z.textContent = '+'; z.title = 'Preview';
              z.addEventListener('click', (e) => { e.stopPropagation(); preview(id); });
              t.appendChild(z);
              t.addEventListener('click', () => toggle(id));
              grid.appendChild(t); rendered.set(id, t); decorate(t);
            }
          }
          for (const [key, element] of rendered) if (!keep.has(key)) { element.remove(); rendered.delete(key); }
        }
        function decorate(t) {
          const id = t.dataset.id, n = selected.indexOf(id);
          t.classList.toggle('sel', n >= 0); t.classList.toggle('shared', shared.has(id));
          let b = t.querySelector('.badge');
          if (n >= 0) { if (!b) { b = document.createElement('span'); b.className = 'badge'; t.appendChild(b); } b.textContent = session.ordered ? String(n + 1) : '\\u2713'; }
          else if (b) b.remove();
        }
        function refresh() {
          for (const t of rendered.values()) if (t.classList.contains('tile')) decorate(t);
          const add = $('add'); add.textContent = 'Add (' + selected.length + ')';
          add.disabled = selected.length === 0 && session.mode === 'add';
        }
        function toggle(id) {
          if (shared.has(id)) { notice('Already shared with ' + session.app + '.'); return; }
          const n = selected.indexOf(id);
          if (n >= 0) selected.splice(n, 1);
          else if (session.limit !== null && selected.length >= session.limit) { notice('Select up to ' + session.limit + '.'); return; }
          else selected.push(id);
          notice(''); refresh();
        }
        async function preview(id) {
          const info = await api('/api/info?id=' + id);
          $('preview-image').src = '/api/preview?id=' + id;
          $('preview-caption').textContent = [info.name, info.date, info.camera].filter(Boolean).join(' \\u00b7 ');
          $('preview').hidden = false;
        }
        async function load() {
          const q = $('search').value;
          const list = await api('/api/list?chip=' + chip + '&q=' + encodeURIComponent(q));
          const error = $('search-error');
          if (list.error) {
            $('search').classList.add('bad');
            error.textContent = q + '\\n' + ' '.repeat(Math.max(0, list.column - 1)) + '^ ' + list.error; error.hidden = false;
            error.dataset.column = list.column; return;
          }
          $('search').classList.remove('bad'); error.hidden = true;
          ids = list.ids; days = list.days; grid.scrollTop = 0; layout(); refresh();
          if (!performance.getEntriesByName('grid-shown').length) {
            performance.mark('grid-painted');
            requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('grid-shown')));
          }
        }
        async function finish(path, body) {
          const result = await api(path, body);
          if (result.error) { notice(result.error); return; }
          const done = $('done'); done.textContent = result.message + ' You can close this tab.'; done.hidden = false;
        }
        async function start() {
          session = await api('/api/session');
          document.title = session.app + ' \\u2013 photofs picker';
          $('title').textContent = 'Choose photos for ' + session.app + (session.title ? ' \\u2014 ' + session.title : '');
          const parts = [session.limit === null ? 'any number of photos' : 'up to ' + session.limit + (session.limit === 1 ? ' photo' : ' photos')];
          parts.push(session.receives);
          if (session.filter) parts.push('filter: ' + session.filter);
          if (session.media) parts.push('asks for: ' + session.media);
          parts.push(session.mode === 'add' ? 'added to what it has' : 'replaces what it has');
          $('receives').textContent = session.app + ' receives ' + parts.join(' \\u00b7 ')
            + (session.new_app ? '. ' + session.app + ' is new to photofs: it was added with the safe defaults (location removed).' : '');
          if (session.mode === 'add') shared = new Set(session.preselected); else selected = session.preselected.slice();
          for (const c of document.querySelectorAll('.chip')) c.addEventListener('click', () => {
            for (const o of document.querySelectorAll('.chip')) o.classList.toggle('on', o === c);
            chip = c.dataset.chip; load();
          });
          let timer = 0;
          $('search').addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(load, 250); });
          $('search').addEventListener('keydown', (e) => { if (e.key === 'Enter') { clearTimeout(timer); load(); } });
          $('months').addEventListener('change', (e) => { performance.mark('jump-start'); grid.scrollTop = Number(e.target.value); paint(); performance.mark('jump-end'); });
          grid.addEventListener('scroll', () => requestAnimationFrame(paint));
          window.addEventListener('resize', layout);
          $('preview-close').addEventListener('click', () => { $('preview').hidden = true; $('preview-image').removeAttribute('src'); });
          $('cancel').addEventListener('click', () => finish('/api/cancel', {}));
          $('add').addEventListener('click', () => finish('/api/add', { ids: selected }));
          await load();
        }
        start();
        """
}
