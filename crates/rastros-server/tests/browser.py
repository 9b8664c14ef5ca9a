#!/usr/bin/env python3
"""The page in real headless Chromium, driven by Selenium through /usr/bin/chromedriver.

Usage: browser.py PATH/TO/rastros OUT_DIR

Starts `rastros serve --listen 127.0.0.1:0`, loads the page and:
- plays a whole 5x5 game against the perfect engine by clicking legal cells, and checks
  the outcome the page shows;
- moves with the keyboard (numpad End = south-west);
- switches to Italian and checks the page says "Scia di bava"; opens the rules;
- turns the analysis on for a 7x7 position and checks every legal move is marked;
- checks the keyboard: the rules dialog keeps the keys from the game, the focus stays on
  the board after a move, only legal moves are Tab stops;
- answers an illegal click, starts 8x8 (no centre cell) on d4, explains a bad start cell
  in French and leaves no stale board;
- takes screenshots (desktop and a phone-sized window) into OUT_DIR, and checks the phone's
  tap targets and that the rules open at their top.

Exits non-zero on any failure, including a missing Chromium or chromedriver: it never
skips.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

results = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    if condition:
        results["passed"] += 1
        print(f"ok: {name}")
    else:
        results["failed"] += 1
        print(f"FAILED: {name} {detail}")
        raise AssertionError(name)


def start_server(binary):
    server = subprocess.Popen(
        [binary, "serve", "--listen", "127.0.0.1:0", "--hash-mb", "64", "--threads", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = server.stdout.readline()
    match = re.match(r"listening on (http://127\.0\.0\.1:\d+/)$", line.strip())
    if not match:
        server.kill()
        raise SystemExit(f"browser test: the server did not start: {line!r} {server.stderr.read()}")
    return server, match.group(1)


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    binary, out_dir = sys.argv[1], sys.argv[2]
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(path):
            raise SystemExit(f"browser test: {path} is missing (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait

    os.makedirs(out_dir, exist_ok=True)
    server, url = start_server(binary)
    profile = tempfile.mkdtemp(prefix="rastros-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={profile}", "--window-size=1200,900", "--lang=en-US",
    ]:
        options.add_argument(arg)
    # The console, to find anything the page's Content-Security-Policy refused.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    wait = WebDriverWait(driver, 30)
    game = lambda: driver.find_element(By.ID, "game")
    status = lambda: driver.find_element(By.ID, "status").text
    played = lambda: len(driver.find_elements(By.CSS_SELECTOR, "#moves li"))

    def settled(_):
        g = game()
        return g.get_attribute("data-busy") == "false" and (
            g.get_attribute("data-outcome") != "" or g.get_attribute("data-to-move") == "1"
        ) and driver.find_elements(By.CSS_SELECTOR, "[data-cell]")

    try:
        # A whole 5x5 game against the perfect engine, always clicking the first legal cell.
        driver.get(url + "#board=5x5&side=1&level=perfect")
        wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Rastros (Slime Trail)")
        check("the page starts in the browser's language (English)", True)
        clicks = 0
        while clicks < 30:
            wait.until(settled)
            if game().get_attribute("data-outcome"):
                break
            before = played()
            legal = driver.find_elements(By.CSS_SELECTOR, '[data-legal="true"]')
            check(f"legal cells are marked (move {clicks + 1})", len(legal) > 0)
            legal[0].click()
            clicks += 1
            wait.until(
                lambda d: game().get_attribute("data-outcome") != ""
                or (played() >= before + 2 and game().get_attribute("data-busy") == "false")
            )
        winner = game().get_attribute("data-outcome")
        check("the 5x5 game ended", winner in ("1", "2"), f"outcome {winner!r}")
        text = status()
        check("the status says who won", f"player {winner} wins" in text.lower(), repr(text))
        check("no legal cell is left", not driver.find_elements(By.CSS_SELECTOR, '[data-legal="true"]'))
        check("the game is in the address", "moves=" in driver.current_url)
        driver.save_screenshot(os.path.join(out_dir, "browser-5x5-en.png"))

        # Italian.
        Select(driver.find_element(By.ID, "lang")).select_by_value("it")
        wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Scia di bava")
        check("Italian: the page says 'Scia di bava'", "Scia di bava" in driver.page_source)
        check("Italian: the status is translated", f"ince il giocatore {winner}" in status(), status())
        driver.find_element(By.ID, "rules-button").click()
        wait.until(lambda d: d.find_element(By.ID, "rules-text").text.strip() != "")
        check("the rules open in one click", driver.find_element(By.ID, "rules").is_displayed())
        rules_text = driver.find_element(By.ID, "rules-text").text
        check("the page's rules name no terminal option", "--board" not in rules_text, rules_text[:200])
        driver.save_screenshot(os.path.join(out_dir, "browser-rules-it.png"))
        driver.find_element(By.ID, "rules-close").click()
        Select(driver.find_element(By.ID, "lang")).select_by_value("en")
        wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Rastros (Slime Trail)")

        # A reload keeps the game.
        moves_before = played()
        driver.refresh()
        wait.until(lambda d: played() == moves_before and game().get_attribute("data-outcome") == winner)
        check("a reload keeps the game", True)

        # The keyboard: numpad End (south-west) moves the snail from d4 to c3 on 7x7.
        driver.get(url + "#board=7x7&side=1&level=perfect")
        driver.refresh()
        wait.until(settled)
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
        wait.until(lambda d: played() >= 2 and game().get_attribute("data-busy") == "false")
        first = driver.find_element(By.CSS_SELECTOR, "#moves li").text
        check("the keyboard moves the snail (End = south-west)", first == "c3", first)

        # Analysis: every legal move marked win or loss with its DTE; the optimal one outlined.
        driver.get(url + "#board=7x7&moves=c3,b3&level=perfect&side=1&analysis=1")
        driver.refresh()
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".verdict")) == 7)
        verdicts = [v.text for v in driver.find_elements(By.CSS_SELECTOR, ".verdict")]
        check("analysis marks every legal move", all(re.fullmatch(r"[WL]\d+", v) for v in verdicts), str(verdicts))
        best = [b.get_attribute("data-cell") for b in driver.find_elements(By.CSS_SELECTOR, ".cell.best")]
        check("analysis outlines the optimal move", best == ["b4"], str(best))
        label = driver.find_element(By.CSS_SELECTOR, '[data-cell="b4"]').get_attribute("aria-label")
        check("cells are labelled for screen readers", "b4" in label and "wins in 35" in label, label)
        driver.save_screenshot(os.path.join(out_dir, "browser-analysis.png"))

        # The rules are open: the game behind them takes no keys; Escape closes them and gives
        # the focus back to the Rules button.
        driver.get(url + "#board=7x7&side=1&level=perfect")
        driver.refresh()
        wait.until(settled)
        driver.find_element(By.ID, "rules-button").click()
        wait.until(lambda d: d.find_element(By.ID, "rules-text").text.strip() != "")
        active = driver.switch_to.active_element
        for key in (Keys.ARROW_UP, Keys.PAGE_DOWN, Keys.END):
            active.send_keys(key)
        time.sleep(0.5)
        check("keys do not move the snail while the rules are open", played() == 0, str(played()))
        driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        wait.until(lambda d: not d.find_element(By.ID, "rules").is_displayed())
        check(
            "Escape closes the rules and focuses the Rules button",
            driver.switch_to.active_element.get_attribute("id") == "rules-button",
        )

        # The keyboard stays on the board after a move and the computer's answer.
        driver.execute_script("document.querySelector('[data-legal=\"true\"]').focus()")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait.until(lambda d: played() >= 2 and game().get_attribute("data-busy") == "false")
        on_board = driver.execute_script("return !!document.activeElement.closest('#board')")
        check("the focus stays on the board after a move", on_board)
        tab_stops = driver.execute_script(
            "return document.querySelectorAll('#board [tabindex=\"0\"]').length"
        )
        legal = len(driver.find_elements(By.CSS_SELECTOR, '[data-legal="true"]'))
        check("only the legal moves are Tab stops on the board", tab_stops == legal > 0, f"{tab_stops} {legal}")

        # A click on a cell that is not a legal move says so.
        driver.find_element(By.CSS_SELECTOR, ".cell.slime").click()
        note = driver.find_element(By.ID, "note").text
        check("an illegal click is answered", "is not a legal move" in note, repr(note))

        # A board without a centre cell from the setup form: the start is filled in (d4 on 8x8).
        size = driver.find_element(By.ID, "board-size")
        size.clear()
        size.send_keys("8x8")
        driver.find_element(By.ID, "start").clear()
        Select(driver.find_element(By.ID, "level")).select_by_value("easy")
        driver.find_element(By.ID, "new").click()
        wait.until(lambda d: "board=8x8" in d.current_url and settled(d))
        snail = driver.find_element(By.CSS_SELECTOR, ".cell.snail").get_attribute("data-cell")
        check("8x8 starts on d4 without a start cell given", snail == "d4", snail)
        check("8x8 starts without an error", driver.find_element(By.ID, "note").text == "")

        # A start cell off the board: a message in the page's language, and no stale board.
        Select(driver.find_element(By.ID, "lang")).select_by_value("fr")
        wait.until(lambda d: d.find_element(By.ID, "new").text == "Nouvelle partie")
        start = driver.find_element(By.ID, "start")
        start.clear()
        start.send_keys("zz9")
        driver.find_element(By.ID, "new").click()
        wait.until(lambda d: d.find_element(By.ID, "note").text != "")
        note = driver.find_element(By.ID, "note").text
        check("a bad start cell is explained in French", note.startswith("La case de départ zz9"), repr(note))
        check("the example start cell is the board's middle", "comme d4" in note, repr(note))
        check("a bad start cell leaves no board to click", not driver.find_elements(By.CSS_SELECTOR, "[data-cell]"))
        Select(driver.find_element(By.ID, "lang")).select_by_value("en")
        wait.until(lambda d: d.find_element(By.ID, "new").text == "New game")
        driver.get(url + "#board=7x7&moves=c3,b3&level=perfect&side=1")
        driver.refresh()
        wait.until(settled)

        # A phone-sized window: the board fits the width.
        driver.set_window_size(390, 844)
        time.sleep(0.5)
        width = driver.execute_script("return document.documentElement.clientWidth")
        right = driver.execute_script(
            "return document.getElementById('board').getBoundingClientRect().right"
        )
        check("phone: the board fits the screen", right <= width, f"{right} > {width}")
        scroll = driver.execute_script("return document.documentElement.scrollWidth")
        check("phone: nothing scrolls sideways", scroll <= width, f"{scroll} > {width}")
        driver.save_screenshot(os.path.join(out_dir, "browser-phone.png"))
        heights = driver.execute_script(
            "return ['undo', 'hint', 'new', 'lang', 'level'].map("
            "id => document.getElementById(id).getBoundingClientRect().height)"
        )
        check("phone: buttons and menus are at least 44 px tall", min(heights) >= 44, str(heights))
        driver.find_element(By.ID, "rules-button").click()
        wait.until(lambda d: d.find_element(By.ID, "rules-text").text.strip() != "")
        time.sleep(0.3)
        top = driver.execute_script(
            "const s = document.getElementById('rules-sheet');"
            "return [s.scrollTop, document.getElementById('rules-title').getBoundingClientRect().top]"
        )
        check("phone: the rules open at their top", top[0] == 0 and top[1] >= 0, str(top))
        driver.save_screenshot(os.path.join(out_dir, "browser-phone-rules.png"))
        refused = [
            entry["message"]
            for entry in driver.get_log("browser")
            if "Content Security Policy" in entry["message"]
        ]
        check("the page breaks none of its own security policy", not refused, str(refused[:2]))
    finally:
        driver.quit()
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(profile, ignore_errors=True)
    print(f"browser test: {results['passed']} passed, {results['failed']} failed")


if __name__ == "__main__":
    try:
        main()
    except AssertionError:
        print(f"browser test: {results['passed']} passed, {results['failed']} failed")
        sys.exit(1)
