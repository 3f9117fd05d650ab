#!/usr/bin/env python3
"""Opens a picker URL in headless Chromium and prints its timings as JSON (picker-ui-bench.sh).

Usage: picker_ui_bench.py URL JUMPS [POSITIONS]

first_paint: ms from navigation start to the page's `grid-shown` mark (in a browser that has
started already: it shows about:blank first): two animation frames
after the grid of the whole library was laid out and its first screen of tiles put in the
document. jumps: ms from choosing a month in the month list to two animation frames later,
for JUMPS months spread over the library.

Scrolling: a fast scroll through the whole grid (top to bottom in 120 animation frames),
then fast scrolls (30 frames each) to POSITIONS spread over the grid; after each, the ms
until every tile in the viewport shows its thumbnail or its typed placeholder (`fill`),
how many thumbnails the page asked for and cancelled on the way, and whether the month
list names the month at the top of the viewport.
"""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

SCROLL = """
const [target, frames, done] = arguments;
const grid = document.getElementById('grid');
const stats = window.photofsThumbStats;
const start = grid.scrollTop, asked = stats.requested, cancelled = stats.cancelled;
let k = 0;
function visible() {
  const top = grid.scrollTop, bottom = top + grid.clientHeight;
  return [...grid.querySelectorAll('.tile')].filter(t => { const y = parseFloat(t.style.top); return y + 120 > top && y < bottom; });
}
function month() {
  // The month of the first tile at the top (from its accessible name) against the month list.
  const first = visible().sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top) || parseFloat(a.style.left) - parseFloat(b.style.left))[0];
  const label = first && first.getAttribute('aria-label');
  const top = label ? label.split(',')[0].split(' ').slice(1).join(' ') : null;
  const shown = document.getElementById('months');
  const list = shown.options[shown.selectedIndex].textContent;
  return { top, list, follows: top ? list.startsWith(top) : null };
}
function wait(t0) {
  const tiles = visible();
  if (tiles.length && tiles.every(t => t.classList.contains('filled'))) {
    done({ fill: performance.now() - t0, tiles: tiles.length, requested: stats.requested - asked, cancelled: stats.cancelled - cancelled,
           placeholders: tiles.filter(t => t.querySelector('.placeholder')).length, month: month() });
  } else if (performance.now() - t0 > 30000) {
    done({ fill: -1, tiles: tiles.length, filled: tiles.filter(t => t.classList.contains('filled')).length });
  } else {
    requestAnimationFrame(() => wait(t0));
  }
}
function step() {
  k++;
  grid.scrollTop = start + (target - start) * k / frames;
  if (k < frames) requestAnimationFrame(step); else { const t0 = performance.now(); requestAnimationFrame(() => wait(t0)); }
}
requestAnimationFrame(step);
"""

url, jumps = sys.argv[1], int(sys.argv[2])
positions = int(sys.argv[3]) if len(sys.argv) > 3 else 5
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--disable-dev-shm-usage"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_script_timeout(120)
try:
    # The browser runs already, as a person's does: its own start (and the work it does in
    # its first seconds) is not the page's.
    driver.get("about:blank")
    time.sleep(3)
    driver.get(url)
    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return performance.getEntriesByName('grid-shown').length > 0"))
    first = driver.execute_script("return performance.getEntriesByName('grid-shown')[0].startTime")
    months = driver.execute_script("return document.getElementById('months').options.length")
    timings = []
    for k in range(jumps):
        index = (k * 7919) % months
        timings.append(driver.execute_async_script(
            """
            const [index, done] = arguments;
            const select = document.getElementById('months');
            const t0 = performance.now();
            select.selectedIndex = index;
            select.dispatchEvent(new Event('change'));
            requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0)));
            """, index))
    tiles = len(driver.find_elements(By.CSS_SELECTOR, ".tile"))
    height = driver.execute_script("const g = document.getElementById('grid'); g.scrollTop = 0; return g.scrollHeight - g.clientHeight")
    passed = driver.execute_script("return document.getElementById('count').textContent")
    scrolls = [dict(driver.execute_async_script(SCROLL, height, 120), to="bottom (whole grid)")]
    for k in range(positions):
        target = int(height * ((k * 0.381966 + 0.2) % 1.0))
        scrolls.append(dict(driver.execute_async_script(SCROLL, target, 30), to=target))
    print(json.dumps({"first_paint": first, "jumps": timings, "months": months, "tiles": tiles, "items": passed, "scrolls": scrolls}))
finally:
    driver.quit()
