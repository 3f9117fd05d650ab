#!/usr/bin/env python3
"""Opens a picker URL in headless Chromium and prints its timings as JSON (picker-ui-bench.sh).

first_paint: ms from navigation start to the page's `grid-shown` mark: two animation frames
after the grid of the whole library was laid out and its first screen of tiles put in the
document. jumps: ms from choosing a month in the month list to two animation frames later,
for JUMPS months spread over the library.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

url, jumps = sys.argv[1], int(sys.argv[2])
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--disable-dev-shm-usage"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_script_timeout(60)
try:
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
    print(json.dumps({"first_paint": first, "jumps": timings, "months": months, "tiles": tiles}))
finally:
    driver.quit()
