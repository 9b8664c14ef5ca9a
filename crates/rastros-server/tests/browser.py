#!/usr/bin/env python3
"""The page in real headless Chromium, driven by Selenium through /usr/bin/chromedriver.

Usage: browser.py PATH/TO/rastros OUT_DIR
       browser.py --base-url URL OUT_DIR   (the smoke subset, against a running server)

Starts `rastros serve --listen 127.0.0.1:0`, loads the page and:
- plays a whole 5x5 game against the perfect engine by clicking legal cells, and checks
  the outcome the page shows;
- moves with the keyboard (numpad 1 = south-west), and not with Ctrl, Alt or Meta held
  nor with Home, End, Page Up or Page Down outside the numpad;
- switches to Italian and checks the page says "Scia di bava"; opens the rules, closes
  them with a click on the backdrop;
- turns the analysis on for a 7x7 position and checks every legal move is marked, and that
  the analysis line and a note change language with the page;
- checks the keyboard: the rules dialog keeps the keys from the game, the focus stays on
  the board after a move, only legal moves are Tab stops, the focus ring is not player 1's
  blue; the legal moves' border has at least 3:1 contrast; the computer's last move is
  marked;
- answers an illegal click, starts 8x8 (no centre cell) on d4 and shows d4 in the Start
  field, starts 2x2 on b1, refuses a board that is not WxH with a message, starts a game
  with Enter in the Board field, explains a bad start cell in French and leaves no stale
  board;
- names the files of a 32x2 board a to z, then aa to af, and plays on them; on a phone
  the wide board scrolls in its own box with the snail in view;
- takes screenshots (desktop and a phone-sized window) into OUT_DIR, and checks the phone's
  tap targets and that the rules open at their top.

With --base-url (the page behind a proxy, see .ci/nginx-smoke) it starts no server and
runs only the smoke subset: the whole 5x5 game.

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
FILES = [chr(ord("a") + i) for i in range(26)] + ["a" + chr(ord("a") + i) for i in range(6)]
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


def contrast(a, b):
    """WCAG contrast ratio of two CSS colours given as "rgb(r, g, b)"."""

    def luminance(css):
        channels = [int(x) / 255 for x in re.findall(r"\d+", css)[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def start_server(binary):
    server = subprocess.Popen(
        # --quiet: nothing reads the server's standard error until the end, and a full
        # pipe would stop its log, and so the server.
        [binary, "serve", "--listen", "127.0.0.1:0", "--hash-mb", "64", "--threads", "2", "--quiet"],
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
    if len(sys.argv) == 4 and sys.argv[1] == "--base-url":
        binary, base_url, out_dir = None, sys.argv[2], sys.argv[3]
    elif len(sys.argv) == 3:
        binary, base_url, out_dir = sys.argv[1], None, sys.argv[2]
    else:
        raise SystemExit(__doc__)
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(path):
            raise SystemExit(f"browser test: {path} is missing (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
    from selenium.common.exceptions import TimeoutException

    os.makedirs(out_dir, exist_ok=True)
    server, url = start_server(binary) if binary else (None, base_url)
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
        if server is None:
            return

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
        # A click in the sheet leaves the rules open, a click on the backdrop closes them.
        driver.find_element(By.ID, "rules-title").click()
        check("a click in the rules leaves them open", driver.find_element(By.ID, "rules").is_displayed())
        backdrop = driver.find_element(By.ID, "rules")
        size = backdrop.size
        corner = (-size["width"] // 2 + 3, -size["height"] // 2 + 3)
        # A press in the sheet released on the backdrop (a selection dragged out) keeps them.
        ActionChains(driver).click_and_hold(driver.find_element(By.ID, "rules-title")).move_to_element_with_offset(
            backdrop, *corner
        ).release().perform()
        time.sleep(0.3)
        check("a drag from the rules to the backdrop leaves them open", backdrop.is_displayed())
        ActionChains(driver).move_to_element_with_offset(backdrop, *corner).click().perform()
        try:
            WebDriverWait(driver, 5).until(lambda d: not d.find_element(By.ID, "rules").is_displayed())
        except TimeoutException:
            pass
        check("a click on the backdrop closes the rules", not backdrop.is_displayed())
        Select(driver.find_element(By.ID, "lang")).select_by_value("en")
        wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Rastros (Slime Trail)")

        # A reload keeps the game.
        moves_before = played()
        driver.refresh()
        wait.until(lambda d: played() == moves_before and game().get_attribute("data-outcome") == winner)
        check("a reload keeps the game", True)

        # The keyboard: shortcuts with Ctrl, Alt or Meta, and Home / End / Page Up / Down off
        # the numpad, move nothing; numpad 1 (south-west) moves the snail from d4 to c3 on 7x7.
        driver.get(url + "#board=7x7&side=1&level=perfect")
        driver.refresh()
        wait.until(settled)
        body = driver.find_element(By.TAG_NAME, "body")
        for modifier in (Keys.CONTROL, Keys.ALT, Keys.META):
            ActionChains(driver).key_down(modifier).send_keys(Keys.ARROW_RIGHT).key_up(modifier).perform()
        for key in (Keys.HOME, Keys.END, Keys.PAGE_UP, Keys.PAGE_DOWN):
            body.send_keys(key)
        time.sleep(0.5)
        check(
            "Ctrl/Alt/Meta+arrow, Home, End, Page Up and Down move nothing",
            played() == 0 and "board=7x7" in driver.current_url,
            f"{played()} {driver.current_url}",
        )
        body.send_keys(Keys.NUMPAD1)
        wait.until(lambda d: played() >= 2 and game().get_attribute("data-busy") == "false")
        first = driver.find_element(By.CSS_SELECTOR, "#moves li").text
        check("the keyboard moves the snail (numpad 1 = south-west)", first == "c3", first)
        # The computer's answer is marked: the cell it left (c3) and the one it reached.
        reply = driver.find_elements(By.CSS_SELECTOR, "#moves li")[1].text
        last = sorted(c.get_attribute("data-cell") for c in driver.find_elements(By.CSS_SELECTOR, ".cell.last"))
        check("the computer's last move is marked", last == sorted(["c3", reply]), f"{last} {reply}")
        label = driver.find_element(By.CSS_SELECTOR, f'[data-cell="{reply}"]').get_attribute("aria-label")
        check("the computer's last move is named for screen readers", "computer's last move" in label, label)

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
        # The analysis line follows a change of language.
        summary = lambda: driver.find_element(By.ID, "summary").text
        check("the analysis line is in English", summary().startswith("Player 1 to move wins in 35"), summary())
        Select(driver.find_element(By.ID, "lang")).select_by_value("it")
        wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Scia di bava")
        check("the analysis line changes language", "35" in summary() and "Player" not in summary(), summary())
        Select(driver.find_element(By.ID, "lang")).select_by_value("en")
        wait.until(lambda d: summary().startswith("Player 1 to move wins in 35"))

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

        # The focus ring is not player 1's blue (goal, hint).
        ring = driver.execute_script(
            "const el = document.activeElement, after = getComputedStyle(el, '::after');"
            "return [el.matches('.cell:focus-visible'), after.content, after.borderTopWidth, after.borderTopColor]"
        )
        check(
            "the focus ring on the board is drawn, and not in player 1's blue",
            ring[:3] == [True, '""', "3px"] and ring[3] != "rgb(31, 111, 178)",
            str(ring),
        )
        # The legal moves' border stands out from a plain cell and the page (WCAG 1.4.11).
        colours = driver.execute_script(
            "const legal = getComputedStyle(document.querySelector('.cell.legal'));"
            "const plain = document.querySelector('.cell:not(.legal):not(.slime):not(.snail):not(.goal1):not(.goal2)');"
            "return [legal.borderTopColor, getComputedStyle(plain).backgroundColor,"
            " getComputedStyle(document.documentElement).backgroundColor, legal.backgroundColor]"
        )
        ratios = [contrast(colours[0], c) for c in colours[1:]]
        check("the legal moves' border has 3:1 contrast", min(ratios) >= 3, f"{colours} {ratios}")

        # A click on a cell that is not a legal move says so, and in the page's new language
        # when it changes.
        driver.find_element(By.CSS_SELECTOR, ".cell.slime").click()
        note = driver.find_element(By.ID, "note").text
        check("an illegal click is answered", "is not a legal move" in note, repr(note))
        Select(driver.find_element(By.ID, "lang")).select_by_value("de")
        wait.until(lambda d: d.find_element(By.ID, "new").text == "Neues Spiel")
        note = driver.find_element(By.ID, "note").text
        check("the note changes language", "kein gültiger Zug" in note, repr(note))
        Select(driver.find_element(By.ID, "lang")).select_by_value("en")
        wait.until(lambda d: d.find_element(By.ID, "new").text == "New game")

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
        start = driver.find_element(By.ID, "start").get_attribute("value")
        check("the Start field shows d4", start == "d4", repr(start))

        # 2x2: the lower left central cell is a goal, so the game starts on b1.
        size = driver.find_element(By.ID, "board-size")
        size.clear()
        size.send_keys("2x2")
        driver.find_element(By.ID, "start").clear()
        driver.find_element(By.ID, "new").click()
        wait.until(lambda d: "board=2x2" in d.current_url and settled(d))
        snail = driver.find_element(By.CSS_SELECTOR, ".cell.snail").get_attribute("data-cell")
        check("2x2 starts on b1", snail == "b1", snail)
        check("2x2 starts without an error", driver.find_element(By.ID, "note").text == "")

        # Board text that is not WxH: a message naming it, and the game on screen stays.
        def refused(field, text):
            """Types `text` into the setup field `field`, presses New game, and returns the
            field and the message the page shows."""
            element = driver.find_element(By.ID, field)
            element.clear()
            element.send_keys(text)
            driver.find_element(By.ID, "new").click()
            wait.until(lambda d: d.find_element(By.ID, "note").text != "")
            return element, driver.find_element(By.ID, "note").text

        url_before = driver.current_url
        size, note = refused("board-size", "abc")
        check("a board that is not WxH is refused with a message", note.startswith("There is no abc board"), repr(note))
        check(
            "a refused board starts no game",
            driver.current_url == url_before and driver.find_elements(By.CSS_SELECTOR, "[data-cell]"),
            driver.current_url,
        )
        # Enter in the Board field starts the game; spaces around the x are allowed.
        size.clear()
        size.send_keys("5 x 5", Keys.ENTER)
        wait.until(lambda d: "board=5x5" in d.current_url and settled(d))
        check("Enter in the Board field starts the game", size.get_attribute("value") == "5x5", size.get_attribute("value"))
        check("the message of the refused board is gone", driver.find_element(By.ID, "note").text == "")
        size.clear()
        size.send_keys("8x8")
        Select(driver.find_element(By.ID, "level")).select_by_value("perfect")
        driver.find_element(By.ID, "new").click()
        wait.until(lambda d: "board=8x8" in d.current_url and settled(d))

        # A start cell off the board: a message in the page's language, and no stale board.
        Select(driver.find_element(By.ID, "lang")).select_by_value("fr")
        wait.until(lambda d: d.find_element(By.ID, "new").text == "Nouvelle partie")
        _, note = refused("start", "zz9")
        check("a bad start cell is explained in French", note.startswith("La case de départ zz9"), repr(note))
        check("the example start cell is the board's middle", "comme d4" in note, repr(note))
        check("a bad start cell leaves no board to click", not driver.find_elements(By.CSS_SELECTOR, "[data-cell]"))
        Select(driver.find_element(By.ID, "lang")).select_by_value("en")
        wait.until(lambda d: d.find_element(By.ID, "new").text == "New game")
        driver.get(url + "#board=7x7&moves=c3,b3&level=perfect&side=1")
        driver.refresh()
        wait.until(settled)

        # A board wider than 26 files: aa to af after z, and moves on them.
        driver.get(url + "#board=32x2&start=ab1&side=1&level=easy")
        driver.refresh()
        wait.until(settled)
        labels = [f.text for f in driver.find_elements(By.CSS_SELECTOR, ".coord.file")]
        check("32x2: the files are a to z, then aa to af", labels == FILES, str(labels))
        cells = {c.get_attribute("data-cell") for c in driver.find_elements(By.CSS_SELECTOR, "[data-cell]")}
        check("32x2: every cell is named", cells == {f + r for f in FILES for r in "12"}, str(sorted(cells)))
        legal = sorted(c.get_attribute("data-cell") for c in driver.find_elements(By.CSS_SELECTOR, '[data-legal="true"]'))
        check("32x2: the legal moves from ab1", legal == ["aa1", "aa2", "ab2", "ac1", "ac2"], str(legal))
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        wait.until(lambda d: played() >= 2 and game().get_attribute("data-busy") == "false")
        first = driver.find_element(By.CSS_SELECTOR, "#moves li").text
        check("32x2: the arrow key moves from ab1 to ac1", first == "ac1", first)
        names = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "import('/board.js').then(b => done([...Array(32).keys()].map(f => {"
            " const p = b.cellPos(b.cellName(f, 1)); return [b.cellName(f, 1), p.file, p.rank]; })))"
        )
        check(
            "32x2: cell names and positions match the core's",
            names == [[f + "2", i, 1] for i, f in enumerate(FILES)],
            str(names),
        )
        driver.save_screenshot(os.path.join(out_dir, "browser-32x2.png"))
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
        # 32x2 on the phone: the board scrolls sideways in its box, not the page, the cells
        # stay tappable, and the snail far right is in view.
        driver.get(url + "#board=32x2&start=ae1&level=easy&side=1")
        driver.refresh()
        wait.until(settled)
        width = driver.execute_script("return document.documentElement.clientWidth")
        scroll = driver.execute_script("return document.documentElement.scrollWidth")
        check("phone 32x2: the page does not scroll sideways", scroll <= width, f"{scroll} > {width}")
        box = driver.execute_script(
            "const r = document.querySelector('.cell.snail').getBoundingClientRect();"
            "return [r.left, r.right, r.width]"
        )
        check("phone 32x2: the snail is in view", box[0] >= 0 and box[1] <= width, str(box))
        check("phone 32x2: cells are at least 25 px wide", box[2] >= 25, str(box))
        driver.save_screenshot(os.path.join(out_dir, "browser-phone-32x2.png"))
        refused = [
            entry["message"]
            for entry in driver.get_log("browser")
            if "Content Security Policy" in entry["message"]
        ]
        check("the page breaks none of its own security policy", not refused, str(refused[:2]))
    finally:
        driver.quit()
        if server is not None:
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
        sys.exit(1)
