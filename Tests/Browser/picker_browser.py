#!/usr/bin/env python3
"""Drives `photofs pick` in headless Chromium (selenium), for PickerBrowserTests.

Usage: picker_browser.py URL SCREENSHOT_DIR SCENARIO LIMIT [QUERIES_JSON]
SCENARIO is one of
  add       filter by chip and by a bad search, pick LIMIT with the mouse in order, the next
            one refused, Add, confirm;
  cancel    pick one, Cancel;
  pick      pick LIMIT photos with the mouse in order, Add, confirm;
  keyboard  only keys: Tab into the grid, arrows, Space and Enter pick LIMIT, Shift+Tab to
            Add, Enter, Tab to the confirming button, Enter;
  tour      Chromium's accessibility tree and an audit of it, plain-word searches (the
            queries in QUERIES_JSON), the Folders view, the preview (select, next, Esc),
            scripted grants the server must refuse; ends with Cancel;
  groups    one tile per Live Photo and RAW+JPEG pair: the badges and accessible names, then
            pick every badged tile (at least LIMIT), Add, confirm;
  removeall Add (0) on a page that replaces the app's grants: the question it asks, Back,
            then confirm.
Prints one JSON line with what it saw; exits non-zero with a message when a step fails.
"""
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains
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


def active(driver):
    return driver.switch_to.active_element


def keys(driver, *sequence):
    ActionChains(driver).send_keys(*sequence).perform()


def tab_until(driver, test, back=False, most=30):
    for _ in range(most):
        if test(active(driver)):
            return True
        if back:
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        else:
            keys(driver, Keys.TAB)
    return test(active(driver))


def is_tile(element):
    return "tile" in (element.get_attribute("class") or "").split()


def ax_tree(driver):
    """Chromium's accessibility tree (DevTools protocol), as (role, name, properties, node) tuples."""
    nodes = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    out = []
    for node in nodes:
        if node.get("ignored"):
            continue
        role = node.get("role", {}).get("value", "")
        name = node.get("name", {}).get("value", "")
        props = {p["name"]: p.get("value", {}).get("value") for p in node.get("properties", [])}
        out.append((role, name, props, node))
    return out


NAMED_ROLES = {"button", "option", "listbox", "textbox", "searchbox", "combobox", "dialog", "checkbox", "link", "image", "img", "list"}


def audit(driver):
    """Serious problems in the accessibility tree: a control or image without a name, a
    focusable node hidden from assistive technology, a control inside another (nested
    interactive), a listbox option outside a listbox, a page without a main landmark, a
    language or a title."""
    problems = []
    tree = ax_tree(driver)
    by_id = {node["nodeId"]: (role, name, props, node) for role, name, props, node in tree}
    for role, name, props, node in tree:
        if role in NAMED_ROLES and not name.strip() and not props.get("hidden"):
            problems.append(f"{role} without a name")
        if role == "option":
            parent = by_id.get(node.get("parentId"))
            if not parent or parent[0] not in ("listbox", "MenuListPopup"):
                problems.append(f"option {name!r} outside a listbox")
        if role in ("option", "button"):
            for child in node.get("childIds", []):
                if child in by_id and by_id[child][0] in ("button", "link", "checkbox", "option") and by_id[child][2].get("focusable"):
                    problems.append(f"{role} {name!r} holds the control {by_id[child][1]!r}")
    hidden_focusable = driver.execute_script(
        "return [...document.querySelectorAll('[aria-hidden=\"true\"] [tabindex], [aria-hidden=\"true\"] button, [aria-hidden=\"true\"] input')].length")
    if hidden_focusable:
        problems.append(f"{hidden_focusable} focusable elements hidden from assistive technology")
    if not any(role == "main" for role, *_ in tree):
        problems.append("no main landmark")
    if not driver.execute_script("return document.documentElement.lang"):
        problems.append("no page language")
    if not driver.title:
        problems.append("no title")
    return problems


def tile_names(driver):
    """The grid's options (the month list's options are not tiles)."""
    tree = ax_tree(driver)
    grids = {node["nodeId"] for role, name, _, node in tree if role == "listbox" and name == "Photos, newest first"}
    return [(name, props.get("selected")) for role, name, props, node in tree if role == "option" and node.get("parentId") in grids]


def wait_done(driver, wait):
    return wait.until(EC.visibility_of_element_located((By.ID, "done"))).text


def confirm(driver, wait, seen):
    dialog = wait.until(EC.visibility_of_element_located((By.ID, "confirm")))
    seen["question"] = driver.find_element(By.ID, "confirm-question").text
    seen["confirm_details"] = [li.text for li in dialog.find_elements(By.CSS_SELECTOR, "#confirm-details li")]
    seen["confirm_enabled_at_once"] = driver.find_element(By.ID, "confirm-ok").is_enabled()
    button = wait.until(EC.element_to_be_clickable((By.ID, "confirm-ok")))
    seen["confirm_button"] = button.text
    return button


def search(driver, wait, text):
    box = driver.find_element(By.ID, "search")
    box.clear()
    box.send_keys(text + Keys.ENTER)
    wait.until(lambda d: d.execute_script("return document.getElementById('search').value") == text)
    time.sleep(0.4)
    wait.until(lambda d: d.find_element(By.ID, "count").text != "")
    if driver.find_element(By.ID, "search-error").is_displayed():
        return driver.find_element(By.ID, "search-error").text
    return int(driver.find_element(By.ID, "count").text.split()[0])


def scripted(driver, script):
    return driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        (async () => { %s })().then(done, (e) => done('error: ' + e));
        """ % script)


def main():
    url, shots, scenario, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    queries = json.loads(sys.argv[5]) if len(sys.argv) > 5 else []
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
    driver.set_script_timeout(30)
    wait = WebDriverWait(driver, 20)
    try:
        driver.get(url)
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".tile")))
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tile.filled")) == len(d.find_elements(By.CSS_SELECTOR, ".tile")))
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
            box = driver.find_element(By.ID, "search")
            box.send_keys("taken:20x")
            error = wait.until(EC.visibility_of_element_located((By.ID, "search-error")))
            seen["search_error"] = error.text
            seen["search_error_column"] = int(error.get_attribute("data-column"))
            driver.save_screenshot(f"{shots}/{scenario}-2-search-error.png")
            box.clear()
            box.send_keys("type:image")
            wait.until(EC.invisibility_of_element_located((By.ID, "search-error")))
            time.sleep(0.5)
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
            button = confirm(driver, wait, seen)
            driver.save_screenshot(f"{shots}/{scenario}-4-confirm.png")
            button.click()
        elif scenario == "pick":
            tiles = [t for t in driver.find_elements(By.CSS_SELECTOR, ".tile") if "shared" not in t.get_attribute("class")]
            seen["picked"] = []
            for tile in tiles[:limit]:
                tile.click()
                seen["picked"].append(tile.get_attribute("data-id"))
            driver.save_screenshot(f"{shots}/{scenario}-3-picked.png")
            driver.find_element(By.ID, "add").click()
            confirm(driver, wait, seen).click()
        elif scenario == "keyboard":
            seen["reached_grid"] = tab_until(driver, is_tile)
            first = active(driver).get_attribute("data-id")
            picked = []
            # Skip the tile already shared with the app (Space on it is refused, and said so).
            moves = [Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.ARROW_LEFT, Keys.ARROW_UP]
            step = 0
            while len(picked) < limit and step < 12:
                element = active(driver)
                if is_tile(element) and "shared" not in element.get_attribute("class") and element.get_attribute("data-id") not in picked:
                    keys(driver, Keys.SPACE if len(picked) % 2 == 0 else Keys.ENTER)
                    picked.append(element.get_attribute("data-id"))
                keys(driver, moves[step % len(moves)])
                step += 1
            seen["first_focused"] = first
            seen["picked"] = picked
            # The announcement is written on the next animation frame (so that a repeat is heard).
            WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "status").get_attribute("textContent"))
            seen["status"] = driver.find_element(By.ID, "status").get_attribute("textContent")
            seen["names"] = tile_names(driver)
            seen["focus_visible"] = driver.execute_script(
                "const e = document.activeElement; return e.classList.contains('tile') && getComputedStyle(e, '::after').borderTopWidth === '5px'")
            driver.save_screenshot(f"{shots}/keyboard-2-focus.png")
            seen["reached_add"] = tab_until(driver, lambda e: e.get_attribute("id") == "add", back=True)
            keys(driver, Keys.ENTER)
            confirm(driver, wait, seen)
            seen["focus_in_dialog"] = active(driver).get_attribute("id")
            keys(driver, Keys.TAB)
            seen["confirm_focused"] = active(driver).get_attribute("id")
            keys(driver, Keys.ENTER)
        elif scenario == "tour":
            seen["names"] = tile_names(driver)
            seen["audit"] = audit(driver)
            seen["searches"] = {q: search(driver, wait, q) for q in queries}
            seen["labels"] = [t.get_attribute("aria-label") for t in driver.find_elements(By.CSS_SELECTOR, ".tile")]
            search(driver, wait, "")
            # Folders.
            driver.find_element(By.ID, "view-folders").click()
            wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".folder")))
            wait.until(lambda d: all(d.execute_script("return [...document.querySelectorAll('.folder img')].every(i => i.complete)") for _ in [0]))
            seen["folders"] = [[f.get_attribute("data-path"), f.find_element(By.CSS_SELECTOR, ".folder-count").text] for f in driver.find_elements(By.CSS_SELECTOR, ".folder")]
            seen["folder_covers"] = driver.execute_script("return [...document.querySelectorAll('.folder img')].filter(i => i.naturalWidth > 0).length")
            seen["audit_folders"] = audit(driver)
            driver.save_screenshot(f"{shots}/folders.png")
            driver.find_element(By.CSS_SELECTOR, '.folder[data-path="Camera Roll"]').click()
            wait.until(EC.visibility_of_element_located((By.ID, "grid")))
            time.sleep(0.4)
            seen["folder_search"] = driver.find_element(By.ID, "search").get_attribute("value")
            seen["folder_count"] = driver.find_element(By.ID, "count").text
            search(driver, wait, "")
            # Preview from the keyboard: P opens, Select picks, ArrowRight moves, Esc closes.
            tab_until(driver, is_tile)
            first = active(driver).get_attribute("data-id")
            keys(driver, "p")
            wait.until(EC.visibility_of_element_located((By.ID, "preview")))
            wait.until(lambda d: d.find_element(By.ID, "preview-caption").text != "")
            seen["preview_caption"] = driver.find_element(By.ID, "preview-caption").text
            seen["preview_focus"] = active(driver).get_attribute("id")
            shared = "shared" in driver.find_element(By.CSS_SELECTOR, f'.tile[data-id="{first}"]').get_attribute("class")
            if shared:
                keys(driver, Keys.ARROW_RIGHT)
                wait.until(lambda d: d.find_element(By.ID, "preview-pick").is_enabled())
            driver.find_element(By.ID, "preview-pick").click()
            seen["preview_pick_label"] = driver.find_element(By.ID, "preview-pick").text
            seen["picked_in_preview"] = driver.execute_script("return document.getElementById('add').textContent")
            driver.save_screenshot(f"{shots}/preview.png")
            caption = driver.find_element(By.ID, "preview-caption").text
            keys(driver, Keys.ARROW_RIGHT)
            wait.until(lambda d: d.find_element(By.ID, "preview-caption").text not in ("", caption))
            seen["preview_next_caption"] = driver.find_element(By.ID, "preview-caption").text
            seen["preview_next_pick_label"] = driver.find_element(By.ID, "preview-pick").text
            keys(driver, Keys.ESCAPE)
            wait.until(EC.invisibility_of_element_located((By.ID, "preview")))
            seen["after_escape_focus_is_tile"] = is_tile(active(driver))
            seen["console_errors"] = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            # Scripted grants with the page's own cookie and CSRF value must be refused.
            seen["scripted_add"] = scripted(driver, """
                const s = await (await fetch('/api/session')).json();
                const ids = (await (await fetch('/api/list?chip=all&q=')).json()).ids.match(/.{12}/g).filter(i => !s.preselected.includes(i)).slice(0, 1);
                const post = (path, body) => fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Photofs-CSRF': s.csrf }, body: JSON.stringify(body) });
                const bare = await post('/api/add', { ids });
                const c = await (await post('/api/confirm', { ids })).json();
                const quick = await post('/api/add', { ids, confirmation: c.confirmation });
                const c2 = await (await post('/api/confirm', { ids })).json();
                await new Promise(r => setTimeout(r, 700));
                const other = await post('/api/add', { ids: [], confirmation: c2.confirmation });
                return [bare.status, (await bare.json()).error, quick.status, (await quick.json()).error, other.status, (await other.json()).error];
            """)
            driver.find_element(By.ID, "cancel").click()
        elif scenario == "format":
            # A file the browser cannot show: its tile, its preview.
            seen["search"] = search(driver, wait, queries[0])
            wait.until(lambda d: all("filled" in t.get_attribute("class") for t in d.find_elements(By.CSS_SELECTOR, ".tile")))
            wait.until(lambda d: all("," in (t.get_attribute("aria-label") or "") for t in d.find_elements(By.CSS_SELECTOR, ".tile")))
            seen["tiles"] = [{
                "label": t.get_attribute("aria-label"), "text": t.text, "id": t.get_attribute("data-id"),
                "image": driver.execute_script("const i = arguments[0].querySelector('img'); return i ? i.naturalWidth : 0", t),
            } for t in driver.find_elements(By.CSS_SELECTOR, ".tile")]
            driver.save_screenshot(f"{shots}/format-tile.png")
            tab_until(driver, is_tile)
            keys(driver, "p")
            message = wait.until(EC.visibility_of_element_located((By.ID, "preview-message")))
            seen["preview_message"] = message.text
            driver.save_screenshot(f"{shots}/format-preview.png")
            keys(driver, Keys.ESCAPE)
            wait.until(EC.invisibility_of_element_located((By.ID, "preview")))
            seen["console_errors"] = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE" and "/api/" not in e["message"]]
            driver.find_element(By.ID, "cancel").click()
        elif scenario == "groups":
            # Groups (a Live Photo, a RAW+JPEG pair): one tile each, badged and named so;
            # pick every badged tile, Add, confirm.
            wait.until(lambda d: all("," in (t.get_attribute("aria-label") or "") for t in d.find_elements(By.CSS_SELECTOR, ".tile")))
            wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tile .group-badge")) >= limit)
            seen["tiles"] = [{
                "id": t.get_attribute("data-id"), "label": t.get_attribute("aria-label"),
                "badge": (t.find_elements(By.CSS_SELECTOR, ".group-badge") or [None])[0] and t.find_element(By.CSS_SELECTOR, ".group-badge").text,
            } for t in driver.find_elements(By.CSS_SELECTOR, ".tile")]
            seen["names"] = [name for name, _ in tile_names(driver)]
            driver.save_screenshot(f"{shots}/groups-2-badges.png")
            seen["picked"] = []
            for tile in driver.find_elements(By.CSS_SELECTOR, ".tile"):
                if tile.find_elements(By.CSS_SELECTOR, ".group-badge"):
                    tile.click()
                    seen["picked"].append(tile.get_attribute("data-id"))
            driver.find_element(By.ID, "add").click()
            confirm(driver, wait, seen).click()
        elif scenario == "removeall":
            seen["add_label"] = driver.find_element(By.ID, "add").text
            # Unpick everything the page preselected, then Add (0).
            for tile in driver.find_elements(By.CSS_SELECTOR, ".tile.sel"):
                tile.click()
            seen["add_label_empty"] = driver.find_element(By.ID, "add").text
            driver.find_element(By.ID, "add").click()
            confirm(driver, wait, seen)
            driver.save_screenshot(f"{shots}/removeall-confirm.png")
            driver.find_element(By.ID, "confirm-back").click()
            seen["back_hides"] = not driver.find_element(By.ID, "confirm").is_displayed()
            driver.find_element(By.ID, "add").click()
            confirm(driver, wait, seen).click()
        else:
            driver.find_elements(By.CSS_SELECTOR, ".tile")[0].click()
            driver.find_element(By.ID, "cancel").click()
        seen["done"] = wait_done(driver, wait)
        driver.save_screenshot(f"{shots}/{scenario}-9-done.png")
        seen.setdefault("console_errors", [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"])
    finally:
        driver.quit()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
