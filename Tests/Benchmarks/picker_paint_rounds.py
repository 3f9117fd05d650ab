#!/usr/bin/env python3
"""Paired rounds of the picker's start, for picker-ui-bench.sh: two builds of photofs, in
alternating order each round, each started as `photofs pick APP --no-open` on the same
catalog and opened in the same headless Chromium (started once, as a desktop's browser
already runs). Per start: the ms from launching the command to its printed link
(`link`; a build that reads the catalog before it serves the page pays the read here),
from navigation to the page's `grid-shown` mark (`paint`: two animation frames after the
first screen of tiles was laid out; a build that serves the page while it reads the
catalog pays the rest of the read here), and their sum (`total`: the page is asked for as
soon as the link is out), the one to compare.

Usage: picker_paint_rounds.py CATALOG APP ROUNDS BASELINE_BIN CURRENT_BIN [BASELINE_CATALOG]
(a baseline from before a catalog schema change needs its own copy of the catalog).
Prints a JSON line per start, then a Markdown table: medians and the median of the
per-round ratios (baseline ÷ current: above 1 is faster).
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

catalog, app, rounds, baseline, current = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
catalogs = {baseline: sys.argv[6] if len(sys.argv) > 6 else catalog, current: catalog}
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--disable-dev-shm-usage"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.get("about:blank")


def start(binary):
    """One picker start, measured; the picker is ended (SIGTERM) after the paint."""
    began = time.monotonic()
    process = subprocess.Popen([binary, "pick", app, "--no-open", "--catalog", catalogs[binary]],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = None
        for line in process.stdout:
            found = re.search(r"http://\S+", line)
            if found:
                url = found.group(0)
                break
        if url is None:
            raise SystemExit(f"{binary} printed no link")
        linked = time.monotonic()
        driver.get(url)
        WebDriverWait(driver, 60).until(lambda d: d.execute_script("return performance.getEntriesByName('grid-shown').length > 0"))
        paint = driver.execute_script("return performance.getEntriesByName('grid-shown')[0].startTime")
        # The page is asked for as soon as the link is printed, so the whole wait is the two.
        return {"link": (linked - began) * 1000, "paint": paint, "total": (linked - began) * 1000 + paint}
    finally:
        process.terminate()
        process.wait()


results = {"baseline": [], "current": []}
try:
    for k in range(rounds):
        order = [("baseline", baseline), ("current", current)]
        if k % 2:
            order.reverse()
        for name, binary in order:
            measured = start(binary)
            results[name].append(measured)
            print(json.dumps({"round": k + 1, "build": name, **{key: round(value, 1) for key, value in measured.items()}}), flush=True)
finally:
    driver.quit()

with open("/proc/loadavg") as f:
    load = f.read().split()[0]
print()
print(f"Paired rounds: {rounds}; load average at the end: {load}.")
print()
print("| step | baseline, median | current, median | ratio (median of rounds) |")
print("|---|---:|---:|---:|")
for key, label in (("link", "command to printed link"), ("paint", "navigation to first grid paint"), ("total", "command to first grid paint")):
    b = [r[key] for r in results["baseline"]]
    c = [r[key] for r in results["current"]]
    ratio = statistics.median(x / y for x, y in zip(b, c) if y > 0)
    print(f"| {label} | {statistics.median(b):.0f} ms | {statistics.median(c):.0f} ms | {ratio:.2f}× |")
