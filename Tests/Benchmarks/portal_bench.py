#!/usr/bin/python3
"""Desktop portal benchmark driver (run by portal-bench.sh inside a private session bus):
from an app's org.freedesktop.portal.FileChooser.OpenFile (image filter, through the real
xdg-desktop-portal) to the picker page's first painted grid (its `grid-shown` mark).

The browser is started first (headless Chromium, selenium) and kept: a stand-in `chromium`
on photofs portal's PATH hands the picker window's page to it, so the time is photofs's
(portal, daemon channel, `photofs pick --window` loading the catalog, the page) and not a
browser's cold start. Usage: portal_bench.py PHOTOFS MOUNTPOINT CATALOG WORKDIR RUNS
Prints one JSON line per run and a summary line."""
import json
import os
import subprocess
import sys
import time

from gi.repository import Gio, GLib
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def wait_for(path_or_test, timeout, what):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if path_or_test():
            return
        time.sleep(0.005)
    raise SystemExit(f"portal-bench: timed out waiting for {what}")


def main():
    photofs, mountpoint, catalog, work, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    portals, tools = f"{work}/portals", f"{work}/fakebin"
    os.makedirs(portals, exist_ok=True)
    os.makedirs(tools, exist_ok=True)
    with open(f"{root}/mount-scripts/photofs.portal") as source, open(f"{portals}/photofs.portal", "w") as target:
        target.write(source.read())
    handoff = f"{work}/handoff"
    with open(f"{tools}/chromium", "w") as script:
        script.write(f'#!/bin/sh\necho "$1" > {handoff}.tmp && mv {handoff}.tmp {handoff}\n')
    os.chmod(f"{tools}/chromium", 0o755)

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    environment = dict(os.environ, XDG_DESKTOP_PORTAL_DIR=portals, XDG_CURRENT_DESKTOP="photofs:GNOME")
    frontend = subprocess.Popen(["/usr/libexec/xdg-desktop-portal", "--replace"], env=environment,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    backend_log = open(f"{work}/backend.log", "w")
    backend = subprocess.Popen(
        [photofs, "portal", "--mountpoint", mountpoint, "--catalog", catalog, "--desktop", "gtk"],
        env=dict(environment, DISPLAY=":99", PATH=tools + ":" + os.environ.get("PATH", "/usr/bin:/bin")),
        stdout=backend_log, stderr=subprocess.STDOUT)
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    try:
        wait_for(lambda: "serving" in open(f"{work}/backend.log").read(), 30, "photofs portal")
        wait_for(lambda: bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "NameHasOwner", GLib.Variant("(s)", ("org.freedesktop.portal.Desktop",)),
                                       None, 0, 1000, None).unpack()[0], 30, "xdg-desktop-portal")
        results = []
        for run in range(runs):
            if os.path.exists(handoff):
                os.unlink(handoff)
            filters = GLib.Variant("a(sa(us))", [("Images", [(1, "image/*")])])
            start = time.time()
            bus.call_sync("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                          "org.freedesktop.portal.FileChooser", "OpenFile",
                          GLib.Variant("(ssa{sv})", ("", "Benchmark", {"filters": filters, "multiple": GLib.Variant("b", True),
                                                                      "handle_token": GLib.Variant("s", f"bench{run}")})),
                          GLib.VariantType("(o)"), Gio.DBusCallFlags.NONE, 30000, None)
            wait_for(lambda: os.path.exists(handoff), 60, "the picker window")
            opened = time.time()
            page = open(handoff).read().strip()[len("--app=file://"):]
            url = open(page).read().split("url=")[1].split('"')[0]
            driver.get(url)
            WebDriverWait(driver, 60).until(
                lambda d: d.execute_script("return performance.getEntriesByName('grid-shown').length > 0"))
            painted = driver.execute_script(
                "return performance.timeOrigin + performance.getEntriesByName('grid-shown')[0].startTime") / 1000
            tiles = len(driver.find_elements(By.CSS_SELECTOR, ".tile"))
            total = driver.execute_script("return session.total")
            driver.find_element(By.ID, "cancel").click()
            WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "done").is_displayed())
            row = {"run": run + 1, "open_file_to_window_ms": round((opened - start) * 1000, 1),
                   "open_file_to_grid_ms": round((painted - start) * 1000, 1), "assets": total, "tiles_painted": tiles}
            results.append(row)
            print(json.dumps(row), flush=True)
            time.sleep(1)
        grids = sorted(r["open_file_to_grid_ms"] for r in results)
        print(json.dumps({"runs": runs, "open_file_to_grid_ms_median": grids[len(grids) // 2],
                          "open_file_to_grid_ms_max": grids[-1]}), flush=True)
    finally:
        driver.quit()
        backend.terminate()
        backend.wait(20)
        frontend.terminate()
        frontend.wait(20)


if __name__ == "__main__":
    main()
