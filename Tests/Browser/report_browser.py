#!/usr/bin/env python3
"""Drives `photofs report` in headless Chromium (selenium), for ReportBrowserTests.

Usage: report_browser.py URL SCREENSHOT_DIR REVOKE_APP
Reads every app's chart (each bar's day, count and drawn height), its last-read photos and
its grants; clicks Revoke on REVOKE_APP's first grant and reads the grants again; keeps the
page's markup and its /api/report answer; clicks Close. Prints one JSON line with what it
saw; exits non-zero with a message when a step fails.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait


def sections(driver):
    """What each app's section shows, by app name."""
    apps = {}
    for section in driver.find_elements(By.CSS_SELECTOR, "section.app"):
        name = section.get_attribute("data-app")
        chart = section.find_element(By.CSS_SELECTOR, "svg.chart")
        bars = []
        for bar in chart.find_elements(By.CSS_SELECTOR, "rect.bar"):
            bars.append({
                "day": bar.get_attribute("data-day"),
                "count": int(bar.get_attribute("data-count")),
                # The height as laid out on the page, not the attribute the script wrote.
                "height": driver.execute_script("return arguments[0].getBoundingClientRect().height;", bar),
            })
        axis = driver.execute_script(
            "const l = arguments[0].querySelectorAll('line.axis')[1]; return l.getBoundingClientRect().height;", chart)
        recent = [f.get_attribute("data-id") for f in section.find_elements(By.CSS_SELECTOR, ".recent figure")]
        loaded = driver.execute_script(
            "return [...arguments[0].querySelectorAll('.recent img')].filter(i => i.complete && i.naturalWidth > 0).length;", section)
        grants = [g.get_attribute("data-id") for g in section.find_elements(By.CSS_SELECTOR, "li.grant")]
        apps[name] = {"bars": bars, "plot": axis, "max": int(chart.get_attribute("data-max")), "recent": recent,
                      "thumbs_loaded": loaded, "grants": grants, "meta": section.find_element(By.CSS_SELECTOR, ".meta").text}
    return apps


def main():
    url, shots, revoke_app = sys.argv[1], sys.argv[2], sys.argv[3]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,1600", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    wait = WebDriverWait(driver, 20)
    seen = {}
    try:
        driver.get(url)
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "section.app svg.chart")))
        wait.until(lambda d: d.execute_script(
            "return [...document.querySelectorAll('.recent img')].every(i => i.complete);"))
        seen["summary"] = driver.find_element(By.ID, "summary").text
        seen["apps"] = sections(driver)
        seen["html"] = driver.page_source
        seen["api"] = driver.execute_async_script(
            "const done = arguments[0]; fetch('/api/report').then(r => r.text()).then(done, e => done(String(e)));")
        driver.save_screenshot(f"{shots}/report-1.png")
        section = driver.find_element(By.CSS_SELECTOR, f'section.app[data-app="{revoke_app}"]')
        first = section.find_element(By.CSS_SELECTOR, "li.grant")
        seen["revoked"] = first.get_attribute("data-id")
        before = driver.find_element(By.TAG_NAME, "body").get_attribute("data-loaded")
        first.find_element(By.CSS_SELECTOR, "button.revoke").click()
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-loaded") != before)
        seen["notice"] = driver.find_element(By.ID, "notice").text
        seen["grants_after"] = sections(driver)[revoke_app]["grants"]
        driver.save_screenshot(f"{shots}/report-2-revoked.png")
        seen["console_errors"] = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        driver.find_element(By.ID, "close").click()
        seen["done"] = wait.until(EC.visibility_of_element_located((By.ID, "done"))).text
    finally:
        driver.quit()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
