#!/usr/bin/env python3
"""Drives `photofs pick` in headless Chromium (selenium), for PickerBrowserTests.

Usage: picker_browser.py URL SCREENSHOT_DIR SCENARIO LIMIT
SCENARIO is `add` (filter by chip and by a bad search, pick LIMIT in order, the next one
refused, Add), `pick` (pick LIMIT photos in order, Add) or `cancel` (pick one, Cancel). Prints one JSON line with what it saw; exits
non-zero with a message when a step fails.
"""
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait


def status(url, host=None):
    request = urllib.request.Request(url)
    if host:
        request.add_header("Host", host)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def main():
    url, shots, scenario, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    parts = urllib.parse.urlsplit(url)
    seen = {
        "no_token": status(f"{parts.scheme}://{parts.netloc}/"),
        "foreign_host": status(url, host=f"evil.example:{parts.port}"),
    }
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    wait = WebDriverWait(driver, 20)
    try:
        driver.get(url)
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".tile")))
        seen["header"] = driver.find_element(By.ID, "receives").text
        seen["title"] = driver.find_element(By.ID, "title").text
        seen["total"] = len(driver.find_elements(By.CSS_SELECTOR, ".tile"))
        driver.save_screenshot(f"{shots}/{scenario}-1-grid.png")
        if scenario == "add":
            driver.find_element(By.CSS_SELECTOR, '.chip[data-chip="videos"]').click()
            wait.until(lambda d: d.find_element(By.ID, "count").text.startswith("0 "))
            seen["videos"] = len(driver.find_elements(By.CSS_SELECTOR, ".tile"))
            driver.find_element(By.CSS_SELECTOR, '.chip[data-chip="photos"]').click()
            wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tile")) > 0)
            search = driver.find_element(By.ID, "search")
            search.send_keys("taken:20x")
            error = wait.until(EC.visibility_of_element_located((By.ID, "search-error")))
            seen["search_error"] = error.text
            seen["search_error_column"] = int(error.get_attribute("data-column"))
            driver.save_screenshot(f"{shots}/{scenario}-2-search-error.png")
            search.clear()
            search.send_keys("type:image")
            wait.until(EC.invisibility_of_element_located((By.ID, "search-error")))
            tiles = [t for t in driver.find_elements(By.CSS_SELECTOR, ".tile") if "shared" not in t.get_attribute("class")]
            picked = []
            for tile in tiles[: limit + 1]:
                tile.click()
                picked.append(tile.get_attribute("data-id"))
            badges = {}
            for tile in driver.find_elements(By.CSS_SELECTOR, ".tile"):
                badge = tile.find_elements(By.CSS_SELECTOR, ".badge")
                if badge:
                    badges[tile.get_attribute("data-id")] = badge[0].text
            seen["picked"] = picked[:limit]
            seen["refused"] = picked[limit]
            seen["badges"] = [badges.get(i) for i in picked]
            seen["notice"] = driver.find_element(By.ID, "notice").text
            seen["add_label"] = driver.find_element(By.ID, "add").text
            driver.save_screenshot(f"{shots}/{scenario}-3-picked.png")
            driver.find_element(By.ID, "add").click()
        elif scenario == "pick":
            tiles = [t for t in driver.find_elements(By.CSS_SELECTOR, ".tile") if "shared" not in t.get_attribute("class")]
            seen["picked"] = []
            for tile in tiles[:limit]:
                tile.click()
                seen["picked"].append(tile.get_attribute("data-id"))
            driver.save_screenshot(f"{shots}/{scenario}-3-picked.png")
            driver.find_element(By.ID, "add").click()
        else:
            driver.find_elements(By.CSS_SELECTOR, ".tile")[0].click()
            driver.find_element(By.ID, "cancel").click()
        done = wait.until(EC.visibility_of_element_located((By.ID, "done")))
        seen["done"] = done.text
        driver.save_screenshot(f"{shots}/{scenario}-4-done.png")
        seen["console_errors"] = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.quit()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
