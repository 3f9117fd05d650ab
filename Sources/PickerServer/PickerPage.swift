/// The picker page: markup, style and script served as three files (the Content-Security-
/// Policy allows no inline code), with no external resource of any kind.
///
/// The grid is virtualized: the script lays out month headers and rows of tiles as plain
/// numbers, and only the rows near the viewport exist in the document, so 100,000 assets
/// cost what a screenful costs. Thumbnails are asked for only once scrolling pauses, and a
/// tile scrolled away cancels its request.
///
/// For keyboards and screen readers the grid is a multi-select list box: one tile is in the
/// Tab order, arrows move, Space or Enter picks, P previews; each tile's name says its date,
/// camera or file name, a video's length and its pick position, and a live region announces
/// the count and refusals.
enum PickerPage {
    static let html = #"""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>photofs picker</title><link rel="stylesheet" href="/app.css">
        <link rel="preload" href="/api/session" as="fetch" crossorigin="anonymous">
        <link rel="preload" href="/api/list?chip=all&amp;q=" as="fetch" crossorigin="anonymous"></head>
        <body>
        <header>
          <div id="who"><h1 id="title">photofs</h1><p id="receives"></p></div>
          <div id="actions"><button id="cancel" type="button">Cancel</button><button id="add" type="button" disabled>Add</button></div>
        </header>
        <nav aria-label="What to show">
          <div class="group" role="group" aria-label="View">
            <button id="view-dates" class="chip view" type="button" aria-pressed="true">Dates</button>
            <button id="view-folders" class="chip view" type="button" aria-pressed="false">Folders</button>
          </div>
          <div id="chips" class="group" role="group" aria-label="Kind">
            <button class="chip on" data-chip="all" type="button" aria-pressed="true">All</button>
            <button class="chip" data-chip="photos" type="button" aria-pressed="false">Photos</button>
            <button class="chip" data-chip="videos" type="button" aria-pressed="false">Videos</button>
            <button class="chip" data-chip="screenshots" type="button" aria-pressed="false">Screenshots</button>
            <button class="chip" data-chip="panoramas" type="button" aria-pressed="false">Panoramas</button>
          </div>
          <input id="search" type="search" aria-label="Search" aria-describedby="search-help search-error" placeholder="Search: beach, nokia, june 2023, or camera:canon taken:2024-06" autocomplete="off" spellcheck="false">
          <select id="months" aria-label="Jump to month"></select>
          <span id="count"></span>
        </nav>
        <p id="search-help" class="help">Words match names, folders, cameras, dates and months; filter terms like type:video work too. In the grid: arrows move, Space or Enter picks, P previews.</p>
        <div id="search-error" hidden></div>
        <div id="notice" hidden></div>
        <main id="main">
          <div id="grid" role="listbox" aria-multiselectable="true" aria-label="Photos, newest first" aria-describedby="search-help"><div id="spacer" aria-hidden="true"></div></div>
          <div id="folders" role="list" aria-label="Folders" hidden></div>
        </main>
        <div id="status" class="visually-hidden" role="status" aria-live="polite"></div>
        <div id="preview" role="dialog" aria-modal="true" aria-label="Preview" hidden>
          <figure><img id="preview-image" alt=""><p id="preview-message" hidden></p><figcaption id="preview-caption"></figcaption></figure>
          <div class="bar"><button id="preview-prev" type="button">Previous</button><button id="preview-pick" type="button" aria-pressed="false">Select</button><button id="preview-next" type="button">Next</button><button id="preview-close" type="button">Close</button></div>
        </div>
        <div id="confirm" role="dialog" aria-modal="true" aria-labelledby="confirm-question" aria-describedby="confirm-details" hidden>
          <div class="card"><h2 id="confirm-question"></h2><ul id="confirm-details"></ul><div id="confirm-photos"></div>
            <div class="bar"><button id="confirm-back" type="button">Back</button><button id="confirm-ok" type="button" disabled>Confirm</button></div></div>
        </div>
        <div id="done" role="status" hidden></div>
        <script src="/app.js"></script>
        </body></html>
        """#

    static let style = #"""
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px system-ui, sans-serif; color: #222; background: #fafafa; display: flex; flex-direction: column; height: 100vh; }
        header { display: flex; justify-content: space-between; align-items: center; padding: 8px 16px; background: #fff; border-bottom: 1px solid #ddd; }
        h1 { font-size: 18px; margin: 0; } #receives { margin: 2px 0 0; color: #555; }
        button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid #767676; background: #fff; color: #222; cursor: pointer; }
        button:disabled { opacity: .55; cursor: default; }
        button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #e07000; outline-offset: 2px; }
        #add { background: #0a56b8; color: #fff; border-color: #0a56b8; margin-left: 8px; }
        nav { display: flex; gap: 8px; align-items: center; padding: 8px 16px 0; flex-wrap: wrap; }
        .group { display: flex; gap: 4px; }
        .chip { border-radius: 16px; padding: 4px 12px; } .chip.on, .chip[aria-pressed="true"] { background: #222; color: #fff; border-color: #222; }
        #search { flex: 1; min-width: 220px; padding: 6px 8px; border: 1px solid #767676; border-radius: 6px; font: 13px ui-monospace, monospace; }
        #search.bad { border-color: #c00; background: #fff4f4; }
        .help { margin: 4px 16px 6px; color: #555; font-size: 12px; }
        #search-error { color: #b00; padding: 0 16px 6px; font: 12px ui-monospace, monospace; white-space: pre; }
        #notice { color: #7a4200; background: #fff3dc; padding: 6px 16px; }
        #main { flex: 1; display: flex; min-height: 0; }
        #grid { flex: 1; overflow-y: auto; position: relative; }
        #spacer { width: 1px; }
        .month { position: absolute; left: 16px; font-weight: 600; height: 36px; line-height: 36px; }
        .tile { position: absolute; width: 120px; height: 120px; border-radius: 4px; overflow: hidden; background: #e4e4e4; cursor: pointer; }
        .tile img { width: 100%; height: 100%; object-fit: cover; display: block; }
        .tile:focus { outline: none; }
        .tile:focus::after { content: ""; position: absolute; inset: 0; border: 5px solid #e07000; box-shadow: inset 0 0 0 2px #fff; border-radius: 4px; z-index: 3; pointer-events: none; }
        .tile.sel { outline: 3px solid #0a56b8; outline-offset: -3px; }
        .tile.shared img, .tile.shared .placeholder { opacity: .5; }
        .placeholder { position: absolute; inset: 0; display: flex; flex-direction: column; justify-content: center; align-items: center; padding: 6px; background: #d8dde6; color: #222; text-align: center; }
        .placeholder .kind { font-weight: 700; font-size: 16px; letter-spacing: .05em; }
        .placeholder .file { font-size: 11px; word-break: break-all; max-height: 3.6em; overflow: hidden; }
        .badge { position: absolute; top: 4px; right: 4px; min-width: 22px; height: 22px; border-radius: 11px; background: #0a56b8; color: #fff; font-size: 12px; line-height: 22px; text-align: center; padding: 0 5px; z-index: 2; }
        .zoom { position: absolute; bottom: 4px; right: 4px; width: 22px; height: 22px; border-radius: 11px; font-size: 13px; line-height: 21px; text-align: center; background: #fff; border: 1px solid #767676; z-index: 2; }
        .group-badge { position: absolute; top: 4px; left: 4px; font-size: 11px; font-weight: 700; background: #000c; color: #fff; padding: 1px 5px; border-radius: 3px; z-index: 2; }
        .length { position: absolute; bottom: 4px; left: 4px; font-size: 11px; background: #000c; color: #fff; padding: 1px 5px; border-radius: 3px; z-index: 2; }
        #folders { flex: 1; overflow-y: auto; padding: 12px 16px; display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 12px; align-content: start; }
        .folder { display: flex; flex-direction: column; width: 100%; padding: 6px; text-align: left; gap: 4px; }
        .folder img, .folder .cover { width: 100%; height: 130px; object-fit: cover; border-radius: 4px; background: #e4e4e4; display: flex; align-items: center; justify-content: center; font-size: 40px; }
        .folder-name { font-weight: 600; word-break: break-word; } .folder-count { color: #555; font-size: 12px; }
        #preview, #confirm { position: fixed; inset: 0; z-index: 10; background: #000d; display: flex; flex-direction: column; align-items: center; justify-content: center; }
        #preview[hidden], #confirm[hidden], #done[hidden], #notice[hidden], #search-error[hidden], #folders[hidden], #grid[hidden], #preview-message[hidden], #preview-image[hidden] { display: none; }
        #preview img { max-width: 90vw; max-height: 75vh; } #preview figcaption { color: #eee; text-align: center; margin-top: 8px; }
        #preview figure { margin: 0; display: flex; flex-direction: column; align-items: center; }
        #preview-message { color: #fff; background: #333; padding: 24px; border-radius: 6px; max-width: 60vw; }
        .bar { display: flex; gap: 8px; justify-content: center; margin-top: 12px; }
        #confirm .card { background: #fff; border-radius: 8px; padding: 20px 24px; max-width: 640px; }
        #confirm h2 { margin: 0 0 8px; font-size: 18px; } #confirm ul { margin: 0 0 10px; padding-left: 20px; }
        #confirm-photos { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; } #confirm-photos img { width: 64px; height: 64px; object-fit: cover; border-radius: 3px; background: #e4e4e4; }
        #confirm-ok { background: #0a56b8; color: #fff; border-color: #0a56b8; }
        #done { position: fixed; inset: 0; z-index: 11; background: #fafafa; display: flex; align-items: center; justify-content: center; font-size: 18px; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        """#

    static let script = #"""
        'use strict';
        const TILE = 120, GAP = 8, HEAD = 36, PAD = 16, MARGIN = 400;
        const $ = (id) => document.getElementById(id);
        const grid = $('grid'), spacer = $('spacer');
        let session = null, idText = '', count = 0, days = new Int32Array(0), rows = [], months = [], tileRow = new Int32Array(0), cols = 1, chip = 'all';
        let selected = [], shared = new Set(), rendered = new Map(), labels = new Map(), cursor = 0, previewIndex = -1;
        let loadTimer = 0, monthShown = -1, confirmation = null;
        // Counted for the benchmark: thumbnails asked for, and those cancelled by scrolling on.
        const thumbStats = { requested: 0, cancelled: 0 };
        window.photofsThumbStats = thumbStats;

        function say(text) { const s = $('status'); s.textContent = ''; requestAnimationFrame(() => { s.textContent = text; }); }
        function notice(text) { const n = $('notice'); n.textContent = text; n.hidden = !text; if (text) say(text); }
        async function api(path, body) {
          const init = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Photofs-CSRF': session.csrf }, body: JSON.stringify(body) };
          const response = await fetch(path, init);
          return response.json();
        }
        // The list comes compact: ids as one string of 12-digit ids, days as (day, run) pairs.
        function idAt(i) { return idText.slice(i * 12, i * 12 + 12); }
        function expandDays(pairs, n) {
          const out = new Int32Array(n); let k = 0;
          for (let p = 0; p < pairs.length; p += 2) { out.fill(pairs[p], k, k + pairs[p + 1]); k += pairs[p + 1]; }
          return out;
        }
        const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
        // "June 2023" from YYYYMMDD, without Intl: a formatter per month was a large part of laying out 400 months.
        function monthName(day) { return MONTHS[Math.floor(day / 100) % 100 - 1] + ' ' + Math.floor(day / 10000); }
        // "14 June 2023", as the server writes the date in a tile's label.
        function dayName(day) { return (day % 100) + ' ' + MONTHS[Math.floor(day / 100) % 100 - 1] + ' ' + Math.floor(day / 10000); }
        function photos(n) { return n === 1 ? '1 photo' : n + ' photos'; }

        // Layout: month headers and rows of tiles as numbers; only rows near the viewport are in the document.
        function layout() {
          cols = Math.max(1, Math.floor((grid.clientWidth - 2 * PAD + GAP) / (TILE + GAP)));
          rows = []; months = []; tileRow = new Int32Array(count);
          let y = 0, i = 0;
          while (i < count) {
            const month = Math.floor(days[i] / 100);
            let end = i; while (end < count && Math.floor(days[end] / 100) === month) end++;
            months.push({ month, y, count: end - i, day: days[i] });
            rows.push({ y, head: days[i] }); y += HEAD;
            for (let s = i; s < end; s += cols) {
              const e = Math.min(end, s + cols);
              for (let k = s; k < e; k++) tileRow[k] = rows.length;
              rows.push({ y, start: s, end: e }); y += TILE + GAP;
            }
            i = end;
          }
          spacer.style.height = (y + PAD) + 'px';
          const select = $('months'), options = document.createDocumentFragment(); select.textContent = '';
          for (const m of months) { const o = document.createElement('option'); o.value = m.y; o.textContent = monthName(m.day) + ' (' + m.count + ')'; options.appendChild(o); }
          select.appendChild(options);
          monthShown = -1;
          $('count').textContent = count + (count === 1 ? ' item' : ' items');
          for (const element of rendered.values()) drop(element);
          rendered.clear();
          cursor = Math.min(cursor, Math.max(0, count - 1));
          paint();
        }
        function firstRow(y) { let lo = 0, hi = rows.length - 1; while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (rows[mid].y <= y) lo = mid; else hi = mid - 1; } return lo; }
        function drop(element) {
          if (element.abort) { element.abort.abort(); thumbStats.cancelled++; }
          if (element.blob) URL.revokeObjectURL(element.blob);
          element.remove();
        }
        function paint() {
          const top = grid.scrollTop - MARGIN, bottom = grid.scrollTop + grid.clientHeight + MARGIN;
          const keep = new Set();
          for (let r = rows.length ? firstRow(Math.max(0, top)) : 0; r < rows.length && rows[r].y < bottom; r++) {
            const row = rows[r];
            if (row.head !== undefined) {
              const key = 'h' + r; keep.add(key);
              if (!rendered.has(key)) { const h = document.createElement('div'); h.className = 'month'; h.setAttribute('aria-hidden', 'true'); h.style.top = row.y + 'px'; h.textContent = monthName(row.head); grid.appendChild(h); rendered.set(key, h); }
              continue;
            }
            for (let i = row.start; i < row.end; i++) {
              const id = idAt(i); keep.add(id);
              if (rendered.has(id)) continue;
              const t = document.createElement('div'); t.className = 'tile'; t.dataset.id = id; t.dataset.index = i;
              t.setAttribute('role', 'option'); t.tabIndex = -1;
              t.style.top = row.y + 'px'; t.style.left = (PAD + (i - row.start) * (TILE + GAP)) + 'px';
              const z = document.createElement('span'); z.className = 'zoom'; z.textContent = '+'; z.title = 'Preview (P)'; z.setAttribute('aria-hidden', 'true');
              z.addEventListener('click', (e) => { e.stopPropagation(); preview(Number(t.dataset.index)); });
              t.appendChild(z);
              t.addEventListener('click', () => { cursor = Number(t.dataset.index); toggle(id); focusCursor(false); });
              grid.appendChild(t); rendered.set(id, t); decorate(t);
            }
          }
          for (const [key, element] of rendered) if (!keep.has(key)) { drop(element); rendered.delete(key); }
          // The tile that takes focus when Tab enters the grid stays one the person can see.
          if (count && !inView(cursor)) { const v = firstVisible(); if (v >= 0) cursor = v; }
          for (const t of rendered.values()) if (t.dataset.index !== undefined) t.tabIndex = Number(t.dataset.index) === cursor ? 0 : -1;
          followMonth();
          clearTimeout(loadTimer); loadTimer = setTimeout(fill, 60);
        }
        function inView(i) { if (i >= count) return false; const y = rows[tileRow[i]].y; return y + TILE > grid.scrollTop && y < grid.scrollTop + grid.clientHeight; }
        function firstVisible() { for (let r = firstRow(grid.scrollTop); r < rows.length; r++) if (rows[r].start !== undefined && rows[r].y + TILE > grid.scrollTop) return rows[r].start; return -1; }
        function followMonth() {
          if (!months.length) return;
          let lo = 0, hi = months.length - 1; const y = grid.scrollTop + 1;
          while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (months[mid].y <= y) lo = mid; else hi = mid - 1; }
          if (lo !== monthShown) { monthShown = lo; $('months').selectedIndex = lo; }
        }
        // Thumbnails and labels for the tiles still in the document once scrolling pauses; a tile
        // scrolled away cancels its request (AbortController), so a fast scroll asks for nothing it passed.
        function fill() {
          const want = [];
          for (const t of rendered.values()) {
            if (t.dataset.index === undefined) continue;
            const id = t.dataset.id;
            if (!labels.has(id)) want.push(id);
            if (t.abort || t.blob || t.failed) continue;
            const controller = new AbortController(); t.abort = controller; thumbStats.requested++;
            fetch('/api/thumb?id=' + id, { signal: controller.signal }).then((r) => { if (!r.ok) throw new Error('no thumbnail'); return r.blob(); }).then((blob) => {
              t.abort = null; t.blob = URL.createObjectURL(blob);
              const img = document.createElement('img'); img.alt = ''; img.src = t.blob; img.decoding = 'async';
              img.onerror = () => { img.remove(); t.failed = true; placeholder(t); };
              t.prepend(img); t.classList.add('filled');
            }).catch((error) => { t.abort = null; if (error.name !== 'AbortError') { t.failed = true; placeholder(t); } });
          }
          if (want.length) fetchLabels(want);
        }
        async function fetchLabels(want) {
          for (let k = 0; k < want.length; k += 200) {
            const list = await api('/api/labels?ids=' + want.slice(k, k + 200).join(','));
            for (const label of list) labels.set(label.id, label);
          }
          for (const id of want) { const t = rendered.get(id); if (t) decorate(t); }
        }
        // A picture the server cannot make: the file's type and name, never its id.
        function placeholder(t) {
          if (t.querySelector('.placeholder')) return;
          const label = labels.get(t.dataset.id);
          const p = document.createElement('div'); p.className = 'placeholder'; p.setAttribute('aria-hidden', 'true');
          const kind = document.createElement('div'); kind.className = 'kind'; kind.textContent = label ? label.format : '';
          const name = document.createElement('div'); name.className = 'file'; name.textContent = label ? label.name : '';
          p.append(kind, name); t.prepend(p); t.classList.add('filled');
        }
        function describe(i) {
          const id = idAt(i), label = labels.get(id), parts = [];
          parts.push(label ? label.date : dayName(days[i]));
          if (label) parts.push(label.camera || label.name);
          if (label && label.kind === 'video') parts.push(label.duration ? 'video, ' + label.duration : 'video');
          if (label && label.group) parts.push(label.group);
          const n = selected.indexOf(id);
          if (n >= 0) parts.push('picked ' + (n + 1) + ' of ' + selected.length);
          if (shared.has(id)) parts.push('already shared');
          return parts.join(', ');
        }
        function decorate(t) {
          const id = t.dataset.id, n = selected.indexOf(id), label = labels.get(id);
          t.classList.toggle('sel', n >= 0); t.classList.toggle('shared', shared.has(id));
          t.setAttribute('aria-selected', n >= 0 ? 'true' : 'false');
          t.setAttribute('aria-label', describe(Number(t.dataset.index)));
          if (label && label.kind === 'video' && !t.querySelector('.length')) {
            const l = document.createElement('span'); l.className = 'length'; l.setAttribute('aria-hidden', 'true');
            l.textContent = label.duration ? '\u25b6 ' + label.duration : '\u25b6 video'; t.appendChild(l);
          }
          if (label && label.badge && !t.querySelector('.group-badge')) {
            const g = document.createElement('span'); g.className = 'group-badge'; g.setAttribute('aria-hidden', 'true'); g.textContent = label.badge; t.appendChild(g);
          }
          if (t.failed) { const p = t.querySelector('.placeholder'); if (p) p.remove(); placeholder(t); }
          let b = t.querySelector('.badge');
          if (n >= 0) { if (!b) { b = document.createElement('span'); b.className = 'badge'; b.setAttribute('aria-hidden', 'true'); t.appendChild(b); } b.textContent = session.ordered ? String(n + 1) : '\u2713'; }
          else if (b) b.remove();
        }
        function refresh() {
          for (const t of rendered.values()) if (t.dataset.index !== undefined) decorate(t);
          const add = $('add'); add.textContent = 'Add (' + selected.length + ')';
          add.disabled = selected.length === 0 && (session.mode === 'add' || session.preselected.length === 0);
          if (!$('preview').hidden) previewState();
        }
        function toggle(id) {
          if (shared.has(id)) { notice('Already shared with ' + session.app + '.'); return; }
          const n = selected.indexOf(id);
          if (n >= 0) { selected.splice(n, 1); notice(''); refresh(); say('Unpicked. ' + photos(selected.length) + ' picked.'); return; }
          if (session.limit !== null && selected.length >= session.limit) { notice('Select up to ' + session.limit + '.'); return; }
          selected.push(id);
          notice(''); refresh(); say('Picked ' + selected.length + (session.limit !== null ? ' of up to ' + session.limit : '') + '.');
        }

        // Keyboard: arrows move through the grid, Home/End, Page Up/Down, Space or Enter picks, P previews.
        function rowBelow(i, step) {
          let r = tileRow[i] + step;
          while (r >= 0 && r < rows.length && rows[r].start === undefined) r += step;
          if (r < 0 || r >= rows.length) return i;
          return Math.min(rows[r].start + (i - rows[tileRow[i]].start), rows[r].end - 1);
        }
        function scrollToTile(i) {
          const y = rows[tileRow[i]].y;
          if (y < grid.scrollTop) grid.scrollTop = Math.max(0, y - HEAD);
          else if (y + TILE > grid.scrollTop + grid.clientHeight) grid.scrollTop = y + TILE + GAP - grid.clientHeight;
        }
        function focusCursor(scroll) {
          if (!count) return;
          if (scroll) { scrollToTile(cursor); paint(); }
          for (const t of rendered.values()) if (t.dataset.index !== undefined) t.tabIndex = Number(t.dataset.index) === cursor ? 0 : -1;
          const t = rendered.get(idAt(cursor)); if (t && document.activeElement !== t) t.focus({ preventScroll: true });
        }
        function gridKey(e) {
          if (!e.target.classList.contains('tile') || !count) return;
          let next = cursor;
          switch (e.key) {
            case 'ArrowRight': next = Math.min(count - 1, cursor + 1); break;
            case 'ArrowLeft': next = Math.max(0, cursor - 1); break;
            case 'ArrowDown': next = rowBelow(cursor, 1); break;
            case 'ArrowUp': next = rowBelow(cursor, -1); break;
            case 'PageDown': for (let k = 0; k < 4; k++) next = rowBelow(next, 1); break;
            case 'PageUp': for (let k = 0; k < 4; k++) next = rowBelow(next, -1); break;
            case 'Home': next = 0; break;
            case 'End': next = count - 1; break;
            case ' ': case 'Enter': e.preventDefault(); toggle(idAt(cursor)); return;
            case 'p': case 'P': e.preventDefault(); preview(cursor); return;
            default: return;
          }
          e.preventDefault(); cursor = next; focusCursor(true);
        }

        // Preview: a dialog with the larger picture, Select/Unselect, Previous/Next (arrows), Esc closes.
        function previewState() {
          const id = idAt(previewIndex), picked = selected.includes(id), pick = $('preview-pick');
          pick.textContent = shared.has(id) ? 'Already shared' : picked ? 'Unselect' : 'Select';
          pick.disabled = shared.has(id); pick.setAttribute('aria-pressed', picked ? 'true' : 'false');
          $('preview-prev').disabled = previewIndex <= 0; $('preview-next').disabled = previewIndex >= count - 1;
        }
        async function preview(i) {
          if (i < 0 || i >= count) return;
          previewIndex = i; cursor = i;
          const id = idAt(i), image = $('preview-image'), message = $('preview-message');
          const wasHidden = $('preview').hidden;
          $('preview').hidden = false; previewState();
          if (wasHidden) $('preview-pick').focus();
          message.hidden = true; image.hidden = false; image.alt = describe(i);
          image.onerror = () => { image.hidden = true; const label = labels.get(id); message.textContent = 'This browser cannot show ' + (label ? label.format + ' files like ' + label.name : 'this file') + '. You can still pick it.'; message.hidden = false; };
          image.src = '/api/preview?id=' + id;
          const info = await api('/api/info?id=' + id);
          if (previewIndex !== i) return;
          $('preview-caption').textContent = [info.name, info.date, info.camera].filter(Boolean).join(' \u00b7 ');
        }
        function closePreview() {
          $('preview').hidden = true; $('preview-image').removeAttribute('src'); previewIndex = -1; focusCursor(true);
        }
        function previewKey(e) {
          if (e.key === 'Escape') { e.preventDefault(); closePreview(); }
          else if (e.key === 'ArrowRight') { e.preventDefault(); preview(previewIndex + 1); }
          else if (e.key === 'ArrowLeft') { e.preventDefault(); preview(previewIndex - 1); }
          else if (e.key === 'Tab') trap(e, $('preview'));
        }
        function trap(e, box) {
          const items = [...box.querySelectorAll('button:not([disabled])')];
          if (!items.length) return;
          const first = items[0], last = items[items.length - 1];
          if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
          else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
        }

        // Folders: each folder of the library with its cover and count; opening one searches it.
        async function showFolders(on) {
          $('view-dates').setAttribute('aria-pressed', on ? 'false' : 'true');
          $('view-folders').setAttribute('aria-pressed', on ? 'true' : 'false');
          grid.hidden = on; $('folders').hidden = !on; $('months').disabled = on;
          if (!on) { focusCursor(false); return; }
          const box = $('folders');
          if (!box.childElementCount) {
            const list = await api('/api/folders');
            if (!list.folders.length) { const p = document.createElement('p'); p.textContent = 'No folders: every photo is at the top of the library.'; box.appendChild(p); }
            for (const f of list.folders) {
              const item = document.createElement('div'); item.setAttribute('role', 'listitem');
              const b = document.createElement('button'); b.type = 'button'; b.className = 'folder'; b.dataset.path = f.path;
              const img = document.createElement('img'); img.alt = ''; img.loading = 'lazy'; img.src = '/api/thumb?id=' + f.cover;
              img.onerror = () => { img.replaceWith(Object.assign(document.createElement('span'), { className: 'cover', textContent: '\ud83d\udcc1' })); };
              const name = document.createElement('span'); name.className = 'folder-name'; name.textContent = f.path;
              const count = document.createElement('span'); count.className = 'folder-count'; count.textContent = photos(f.count);
              b.append(img, name, count);
              b.setAttribute('aria-label', f.path + ', ' + photos(f.count));
              b.addEventListener('click', () => { $('search').value = f.term; showFolders(false); load().then(() => { cursor = 0; focusCursor(true); }); });
              item.appendChild(b); box.appendChild(item);
            }
          }
          const first = box.querySelector('button'); if (first) first.focus();
        }

        async function load(first) {
          const q = $('search').value;
          const list = await (first || api('/api/list?chip=' + chip + '&q=' + encodeURIComponent(q)));
          const error = $('search-error');
          if (list.error) {
            $('search').classList.add('bad'); $('search').setAttribute('aria-invalid', 'true');
            error.textContent = q + '\n' + ' '.repeat(Math.max(0, list.column - 1)) + '^ ' + list.error; error.hidden = false;
            error.dataset.column = list.column; return;
          }
          $('search').classList.remove('bad'); $('search').removeAttribute('aria-invalid'); error.hidden = true;
          idText = list.ids; count = list.count; days = expandDays(list.days, count); grid.scrollTop = 0; cursor = 0; layout(); refresh();
          say(count === 1 ? '1 item shown.' : count + ' items shown.');
          if (!performance.getEntriesByName('grid-shown').length) {
            performance.mark('grid-painted');
            requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('grid-shown')));
          }
        }

        // Add asks the server what it will do and shows it; only the person's Confirm, after the
        // question has been on screen, grants.
        async function askAdd() {
          const result = await api('/api/confirm', { ids: selected });
          if (result.error) { notice(result.error); return; }
          confirmation = result;
          $('confirm-question').textContent = result.question;
          const details = $('confirm-details'); details.textContent = '';
          for (const line of result.details) { const li = document.createElement('li'); li.textContent = line; details.appendChild(li); }
          const strip = $('confirm-photos'); strip.textContent = '';
          result.ids.slice(0, 8).forEach((id, k) => { const img = document.createElement('img'); img.src = '/api/thumb?id=' + id; img.alt = result.names[k] || ''; strip.appendChild(img); });
          if (result.ids.length > 8) { const more = document.createElement('span'); more.textContent = '+' + (result.ids.length - 8); strip.appendChild(more); }
          const ok = $('confirm-ok'); ok.textContent = result.button; ok.disabled = true;
          $('confirm').hidden = false; $('confirm-back').focus();
          setTimeout(() => { ok.disabled = false; }, Math.ceil(result.wait * 1000) + 150);
        }
        async function confirmAdd() {
          if (!confirmation) return;
          const body = { ids: confirmation.ids, confirmation: confirmation.confirmation };
          confirmation = null; $('confirm').hidden = true;
          await finish('/api/add', body);
        }
        function closeConfirm() { confirmation = null; $('confirm').hidden = true; $('add').focus(); }
        async function finish(path, body) {
          const result = await api(path, body);
          if (result.error) { notice(result.error); return; }
          const done = $('done'); done.textContent = result.message + ' You can close this tab.'; done.hidden = false;
        }

        async function start() {
          // The first list is asked for together with the session: one round trip less before the grid.
          const firstList = fetch('/api/list?chip=all&q=').then((r) => r.json());
          session = await api('/api/session');
          // The picker could not read what it offers: say why, in place of the grid.
          if (session.error) { const done = $('done'); done.textContent = session.error; done.hidden = false; return; }
          document.title = session.app + ' \u2013 photofs picker';
          $('title').textContent = 'Choose photos for ' + session.app + (session.title ? ' \u2014 ' + session.title : '');
          const parts = [session.limit === null ? 'any number of photos' : 'up to ' + session.limit + (session.limit === 1 ? ' photo' : ' photos')];
          parts.push(session.receives);
          if (session.filter) parts.push('filter: ' + session.filter);
          if (session.media) parts.push('asks for: ' + session.media);
          parts.push(session.mode === 'add' ? 'added to what it has' : 'replaces what it has');
          $('receives').textContent = session.app + ' receives ' + parts.join(' \u00b7 ')
            + (session.new_app ? '. ' + session.app + ' is new to photofs: it was added with the safe defaults (location removed).' : '');
          if (session.mode === 'add') shared = new Set(session.preselected); else selected = session.preselected.slice();
          for (const c of document.querySelectorAll('#chips .chip')) c.addEventListener('click', () => {
            for (const o of document.querySelectorAll('#chips .chip')) { o.classList.toggle('on', o === c); o.setAttribute('aria-pressed', o === c ? 'true' : 'false'); }
            chip = c.dataset.chip; load();
          });
          let timer = 0;
          $('search').addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(load, 250); });
          $('search').addEventListener('keydown', (e) => { if (e.key === 'Enter') { clearTimeout(timer); load(); } });
          $('months').addEventListener('change', (e) => { performance.mark('jump-start'); grid.scrollTop = Number(e.target.value); paint(); monthShown = e.target.selectedIndex; performance.mark('jump-end'); });
          grid.addEventListener('scroll', () => requestAnimationFrame(paint));
          grid.addEventListener('keydown', gridKey);
          grid.addEventListener('focusin', (e) => { if (e.target.classList.contains('tile')) cursor = Number(e.target.dataset.index); });
          window.addEventListener('resize', layout);
          $('view-dates').addEventListener('click', () => showFolders(false));
          $('view-folders').addEventListener('click', () => showFolders(true));
          $('preview').addEventListener('keydown', previewKey);
          $('preview-close').addEventListener('click', closePreview);
          $('preview-prev').addEventListener('click', () => preview(previewIndex - 1));
          $('preview-next').addEventListener('click', () => preview(previewIndex + 1));
          $('preview-pick').addEventListener('click', () => { toggle(idAt(previewIndex)); previewState(); });
          $('confirm').addEventListener('keydown', (e) => { if (e.key === 'Escape') closeConfirm(); else if (e.key === 'Tab') trap(e, $('confirm')); });
          $('confirm-back').addEventListener('click', closeConfirm);
          $('confirm-ok').addEventListener('click', confirmAdd);
          $('cancel').addEventListener('click', () => finish('/api/cancel', {}));
          $('add').addEventListener('click', askAdd);
          await load(firstList);
        }
        start();
        """#
}
