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
- sturdy play (issue 50): a double click under 150 ms of emulated latency sends one move
  and marks the cell at once, a failed move keeps the position, an address with an
  illegal or unknown move loads its legal part, Back / Forward (also both at once), the
  move list's jump, Undo and Redo, a refused 12x12 keeps the game, level and side changes,
  an arrow off the board;
- the analysis board: the best line (#pv, data-moves) and stepping along it, the legend,
  the goal tooltip, copy link / position and paste, an address opened while another loads
  (not written over), flip, two players, "Computer plays from here", the end of a game and
  Review; the 8x8 e5 preset and "Not certain" on an inexact hint in seven languages;
  Portuguese texts and rules, and Portuguese for browsers set to pt, pt-PT and pt-BR;
- measures the first load (under 200 KB) and times 74 answers on 7x7 (`measure:` lines);
- opens a puzzle from its address and solves it, fails another with a losing first move
  (refuted with its line), steps with Next and Previous, filters by board, opens the mode
  from the header and goes back to the game (`check_puzzles`);
- takes screenshots (desktop and a phone-sized window) into OUT_DIR, and checks the phone's
  tap targets and that the rules open at their top.

With --base-url (the page behind a proxy, see .ci/nginx-smoke) it starts no server and
runs only the smoke subset: the whole 5x5 game.

Exits non-zero on any failure, including a missing Chromium or chromedriver: it never
skips.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

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
        # BROWSER_KEEP_GOING=1 goes on after a failure, to list what an older page fails
        # (the exit status is still non-zero).
        if not os.environ.get("BROWSER_KEEP_GOING"):
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


def post_json(url, body):
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def check_puzzles(driver, url, wait, out_dir):
    """The Puzzles mode through its hooks, #puzzle with data-id, data-state and data-busy.

    A 5x5 puzzle of several moves is solved: the solution first, then at each turn a best move
    of the server's analysis, until the page says solved (and keeps it in localStorage). A 7x7
    puzzle is failed with a move other than the solution: the page refutes it by playing the
    line out and says failed.
    """
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with urllib.request.urlopen(url + "puzzles.json", timeout=30) as answer:
        puzzles = json.load(answer)["puzzles"]
    solve = next(p for p in puzzles if p["board"] == "5x5" and p["dte"] >= 5)
    fail = next(p for p in puzzles if p["board"] == "7x7" and p["dte"] >= 3)
    puzzle = lambda: driver.find_element(By.ID, "puzzle")
    played = lambda: [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#puzzle-moves li")]

    def ready(_):
        p = puzzle()
        if p.get_attribute("data-busy") != "false" or not p.get_attribute("data-id"):
            return False
        return p.get_attribute("data-state") != "solving" or driver.find_elements(
            By.CSS_SELECTOR, '#puzzle-board [data-legal="true"]'
        )

    driver.get(url + "#puzzle=" + solve["id"])
    driver.refresh()
    wait.until(ready)
    check("puzzle: the address opens it", puzzle().get_attribute("data-id") == solve["id"])
    check("puzzle: it starts solving", puzzle().get_attribute("data-state") == "solving")
    check("puzzle: the game is hidden", not driver.find_element(By.ID, "game").is_displayed())
    task = driver.find_element(By.ID, "puzzle-task").text
    check("puzzle: the task names the distance", f"wins in {solve['dte']} plies" in task, task)
    for step in range(solve["dte"]):
        if step == 0:
            cell = solve["solution"]
        else:
            game = {"board": solve["board"], "start": solve["start"], "moves": solve["moves"] + played()}
            cell = post_json(url + "api/analyze", game)["best_moves"][0]
        driver.find_element(By.CSS_SELECTOR, f'#puzzle-board [data-cell="{cell}"]').click()
        wait.until(ready)
        if puzzle().get_attribute("data-state") != "solving":
            break
    said = driver.find_element(By.ID, "puzzle-said").text
    check("puzzle: solved along a fastest line", puzzle().get_attribute("data-state") == "solved", said)
    check("puzzle: the page says solved", "Solved!" in said, said)
    stored = driver.execute_script("return JSON.parse(localStorage.getItem('rastros-puzzles'))")
    check("puzzle: the progress is kept", stored.get(solve["id"]) == "solved", str(stored))
    progress = driver.find_element(By.ID, "puzzle-progress").text
    check("puzzle: the progress is shown", progress.startswith("Solved: 1 of"), progress)
    driver.save_screenshot(os.path.join(out_dir, "browser-puzzle-solved.png"))

    driver.get(url + "#puzzle=" + fail["id"])
    wait.until(lambda d: puzzle().get_attribute("data-id") == fail["id"] and ready(d))
    legal = [
        c.get_attribute("data-cell")
        for c in driver.find_elements(By.CSS_SELECTOR, '#puzzle-board [data-legal="true"]')
    ]
    # A move that loses after a refutation, not at once by entering player 2's goal.
    loser = next(c for c in legal if c not in (fail["solution"], "g7"))
    driver.find_element(By.CSS_SELECTOR, f'#puzzle-board [data-cell="{loser}"]').click()
    wait.until(ready)
    said = driver.find_element(By.ID, "puzzle-said").text
    check("puzzle: a losing move fails it", puzzle().get_attribute("data-state") == "failed", said)
    line = played()
    check(
        "puzzle: the losing move is refuted with its line",
        said.startswith(f"{loser} loses. The refutation: {' '.join(line[1:])}.") and len(line) >= 2,
        f"{said} / {line}",
    )
    driver.save_screenshot(os.path.join(out_dir, "browser-puzzle-failed.png"))
    driver.find_element(By.ID, "puzzle-retry").click()
    wait.until(ready)
    check("puzzle: Try again starts it over", puzzle().get_attribute("data-state") == "solving" and not played())

    driver.find_element(By.ID, "puzzle-next").click()
    wait.until(lambda d: puzzle().get_attribute("data-id") != fail["id"] and ready(d))
    driver.find_element(By.ID, "puzzle-previous").click()
    wait.until(lambda d: puzzle().get_attribute("data-id") == fail["id"] and ready(d))
    check("puzzle: Next then Previous come back", True)
    Select(driver.find_element(By.ID, "puzzle-board-filter")).select_by_value("8x8 e5")
    wait.until(lambda d: puzzle().get_attribute("data-id").startswith("8x8-e5-") and ready(d))
    check("puzzle: the board filter shows 8x8 from e5", True)
    Select(driver.find_element(By.ID, "puzzle-board-filter")).select_by_value("")
    driver.find_element(By.ID, "puzzle-back").click()
    wait.until(lambda d: d.find_element(By.ID, "game").is_displayed())
    check("puzzle: Back returns to the game", not puzzle().is_displayed())
    driver.find_element(By.ID, "puzzles-button").click()
    wait.until(ready)
    check("puzzle: the header button opens the mode", puzzle().is_displayed())
    driver.find_element(By.ID, "puzzle-back").click()
    wait.until(lambda d: d.find_element(By.ID, "game").is_displayed())


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
    profiles = []

    def start_browser(language):
        """A headless Chromium with its own profile whose preferred language is `language`."""
        profile = tempfile.mkdtemp(prefix="rastros-chromium-")
        profiles.append(profile)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            f"--user-data-dir={profile}", "--window-size=1200,900", f"--lang={language}",
        ]:
            options.add_argument(arg)
        options.add_experimental_option("prefs", {"intl.accept_languages": language})
        # The console, to find anything the page's Content-Security-Policy refused.
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)

    def texts_of(code):
        """The page's texts in a language, as the server sends them."""
        with urllib.request.urlopen(f"{url}api/texts?lang={code}", timeout=10) as answer:
            return json.load(answer)["texts"]

    driver = start_browser("en-US")
    wait = WebDriverWait(driver, 30)
    game = lambda: driver.find_element(By.ID, "game")
    status = lambda: driver.find_element(By.ID, "status").text
    played = lambda: len(driver.find_elements(By.CSS_SELECTOR, "#moves li:not(.future)"))

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
        check(
            "a bad start cell keeps the game on screen",
            "board=8x8" in driver.current_url and driver.find_elements(By.CSS_SELECTOR, "[data-legal]"),
            driver.current_url,
        )
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

        def no_sideways_scroll(name):
            """Checks that the page is no wider than the window."""
            width = driver.execute_script("return document.documentElement.clientWidth")
            scroll = driver.execute_script("return document.documentElement.scrollWidth")
            check(name, scroll <= width, f"{scroll} > {width}")
            return width

        # ---- Sturdy play (issue 50). `calm`: nothing pending and a board drawn.
        def calm(_):
            return game().get_attribute("data-busy") == "false" and driver.find_elements(By.CSS_SELECTOR, "[data-cell]")

        def fresh(address):
            """Loads `address` as a new page: from a blank one, so that no answer of the page
            before can be taken for the new page's (a hash change alone would not reload)."""
            driver.get("about:blank")
            driver.get(url + address)
            wait.until(calm)

        moves_now = lambda: [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#moves li:not(.future)")]
        note = lambda: driver.find_element(By.ID, "note").text
        snail_cell = lambda: driver.find_element(By.CSS_SELECTOR, ".cell.snail").get_attribute("data-cell")
        # Every request body the page sends, recorded in the page (api.js calls the global fetch).
        record = (
            "window.sent = []; const f = window.fetch;"
            "window.fetch = (u, o) => { window.sent.push([String(u), o && o.body ? JSON.parse(o.body) : null]); return f(u, o); };"
        )
        sent = lambda: driver.execute_script("return window.sent")

        # A double click with 150 ms between page and server: one request, the cell marked at
        # once, the second click ignored, and the game intact.
        fresh("#board=7x7&side=1&level=perfect")
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": 150, "downloadThroughput": -1, "uploadThroughput": -1},
        )
        driver.execute_script(record + "performance.clearResourceTimings();")
        ActionChains(driver).double_click(driver.find_element(By.CSS_SELECTOR, '[data-cell="c3"]')).perform()
        at_once = driver.execute_script(
            "return [document.querySelector('[data-cell=\"c3\"]').dataset.pending || '',"
            " document.getElementById('game').dataset.busy]"
        )
        check("double click: the clicked cell is marked at once and input waits", at_once == ["true", "true"], str(at_once))
        driver.execute_script("document.querySelector('[data-cell=\"c4\"]').click()")
        wait.until(lambda d: played() >= 2 and calm(d))
        bodies = [b for u, b in sent() if u.endswith("/api/position")]
        check("double click: one move sent, once", bodies == [{"board": "7x7", "moves": ["c3"]}], str(sent()))
        check("double click: the game is intact", moves_now()[0] == "c3" and len(moves_now()) == 2 and note() == "", f"{moves_now()} {note()!r}")
        slow = driver.execute_script(
            "return performance.getEntriesByType('resource').filter(e => e.name.endsWith('/api/position')).map(e => e.duration)"
        )
        check("double click: the latency was emulated", slow and min(slow) >= 150, str(slow))
        driver.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
        )

        # A move the server does not take (the request fails): the last legal position stays
        # and the page says why.
        before = (moves_now(), snail_cell(), driver.current_url)
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/position"]})
        driver.find_element(By.CSS_SELECTOR, '[data-legal="true"]').click()
        wait.until(lambda d: note() != "" and calm(d))
        check("a refused move says why", "was not played" in note(), repr(note()))
        check(
            "a refused move keeps the last legal position",
            (moves_now(), snail_cell(), driver.current_url) == before
            and driver.find_elements(By.CSS_SELECTOR, '[data-legal="true"]')
            and not driver.find_elements(By.CSS_SELECTOR, ".cell.pending"),
            f"{before} {moves_now()} {snail_cell()}",
        )
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})

        # An address holding an illegal or unknown move: the longest legal prefix, and which
        # move was dropped.
        for address, shown, dropped in [
            ("#board=7x7&moves=c3,c3,b2&side=both", ["c3"], "Move 2 of the address (c3)"),
            ("#board=7x7&moves=c3,b3,zz&side=both", ["c3", "b3"], "Move 3 of the address (zz)"),
        ]:
            fresh(address)
            check(f"an address with a bad move loads its legal part ({address})", moves_now() == shown, str(moves_now()))
            check(f"the page says which move was dropped ({address})", note().startswith(dropped), repr(note()))
            check("the address drops it too", f"moves={','.join(shown)}&" in driver.current_url, driver.current_url)

        # Back and Forward step through the game, one move each, without the computer moving
        # again; the move list jumps; Undo and Redo.
        fresh("#board=7x7&side=1&level=perfect")
        driver.find_element(By.CSS_SELECTOR, '[data-cell="c3"]').click()
        wait.until(lambda d: played() == 2 and calm(d))
        driver.find_element(By.CSS_SELECTOR, '[data-legal="true"]').click()
        wait.until(lambda d: played() == 4 and calm(d))
        game_line = moves_now()
        driver.back()
        wait.until(lambda d: played() == 3 and calm(d))
        time.sleep(1)
        check("Back steps one move back, and the computer waits", moves_now() == game_line[:3], str(moves_now()))
        check("Back stays in the page", driver.current_url.startswith(url) and "moves=" in driver.current_url, driver.current_url)
        check("the status says the computer waits", "the computer) to move" in status(), status())
        driver.back()
        wait.until(lambda d: played() == 2 and calm(d))
        driver.forward()
        wait.until(lambda d: played() == 3 and calm(d))
        driver.forward()
        wait.until(lambda d: played() == 4 and calm(d))
        check("Forward steps through the game again", moves_now() == game_line, str(moves_now()))
        # Back then Forward at once, under latency: the page ends where the address is.
        driver.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": 150, "downloadThroughput": -1, "uploadThroughput": -1},
        )
        driver.back()
        driver.forward()
        time.sleep(0.2)
        wait.until(calm)
        driver.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
        )
        check(
            "Back then Forward at once shows the game of the address",
            moves_now() == game_line and f"moves={','.join(game_line)}&" in driver.current_url,
            f"{moves_now()} {driver.current_url}",
        )
        driver.find_element(By.CSS_SELECTOR, '#moves li[data-ply="1"] button').click()
        wait.until(lambda d: played() == 1 and calm(d))
        future_moves = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#moves li.future")]
        check("the move list jumps to a ply and keeps the rest", future_moves == game_line[1:], str(future_moves))
        driver.find_element(By.ID, "redo").click()
        wait.until(lambda d: played() == 2 and calm(d))
        check("Redo replays the next move", moves_now() == game_line[:2], str(moves_now()))
        driver.find_element(By.ID, "undo").click()
        wait.until(lambda d: played() == 0 and calm(d))
        driver.find_element(By.ID, "redo").click()
        wait.until(lambda d: played() == 2 and calm(d))
        check("Redo after Undo brings the moves back", moves_now() == game_line[:2], str(moves_now()))
        driver.find_element(By.ID, "to-start").click()
        wait.until(lambda d: played() == 0 and calm(d))
        check("the Start item jumps to the start position", snail_cell() == "d4", snail_cell())

        # A board the server refuses keeps the game on screen and says why.
        fresh("#board=7x7&moves=c3,b3&level=perfect&side=1")
        url_before = driver.current_url
        size = driver.find_element(By.ID, "board-size")
        size.clear()
        size.send_keys("12x12")
        driver.find_element(By.ID, "new").click()
        wait.until(lambda d: note() != "" and calm(d))
        check("a refused board says why", note().startswith("There is no 12x12 board") and "at most 128 cells" in note()
              and "goes on" in note(), repr(note()))
        check(
            "a refused board keeps the game",
            driver.current_url == url_before and moves_now() == ["c3", "b3"] and snail_cell() == "b3",
            f"{driver.current_url} {moves_now()}",
        )

        # Level and side: in force at once, and the menus show what is in force.
        fresh("#board=7x7&level=perfect&side=1")
        driver.execute_script(record)
        Select(driver.find_element(By.ID, "level")).select_by_value("easy")
        check("a new level is in the address at once", "level=easy" in driver.current_url, driver.current_url)
        check("a new level says when it applies", "next move" in note(), repr(note()))
        driver.find_element(By.CSS_SELECTOR, '[data-cell="c3"]').click()
        wait.until(lambda d: played() == 2 and calm(d))
        levels = [b["level"] for u, b in sent() if u.endswith("/api/move")]
        check("the computer's next move is at the new level", levels == ["easy"], str(sent()))
        # (From a known position: the easy reply above is random, and may leave a1 next to
        # the snail.)
        fresh("#board=7x7&moves=c3,b3&level=perfect&side=1")
        Select(driver.find_element(By.ID, "side")).select_by_value("2")
        wait.until(lambda d: played() == 3 and calm(d))
        check(
            "switching to player 2 lets the computer take player 1 at once",
            "side=2" in driver.current_url and status().endswith("Your move (player 2)"),
            f"{driver.current_url} {status()}",
        )
        Select(driver.find_element(By.ID, "side")).select_by_value("random")
        wait.until(calm)
        shown_side = Select(driver.find_element(By.ID, "side")).first_selected_option.get_attribute("value")
        check("'Random' shows the side drawn", shown_side in ("1", "2") and f"side={shown_side}" in driver.current_url, shown_side)

        # Arrow keys never name a cell off the board.
        fresh("#board=5x5&start=c3&moves=c4,c5&side=both")
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_UP)
        time.sleep(0.3)
        check(
            "an arrow off the board names no cell",
            played() == 2 and note().startswith("There is no cell of the board") and "c6" not in note(),
            repr(note()),
        )

        # ---- The analysis board. The best line: `#pv` with `data-moves`, as long as the DTE,
        # each move a step to it.
        fresh("#board=7x7&moves=c3,b3&level=perfect&side=1&analysis=1")
        wait.until(lambda d: d.find_element(By.ID, "pv").get_attribute("data-moves"))
        pv = driver.find_element(By.ID, "pv").get_attribute("data-moves").split(" ")
        check("the best line is shown in analysis", driver.find_element(By.ID, "pv").is_displayed())
        check("the best line is as long as the value says (35)", len(pv) == 35 and pv[0] == "b4", str(pv))
        check("its length is written", "35 plies" in driver.find_element(By.ID, "pv-length").text)
        check("the value in words", "wins in 35" in driver.find_element(By.ID, "summary").text)
        driver.find_elements(By.CSS_SELECTOR, "#pv-moves button")[2].click()
        wait.until(lambda d: played() == 5 and d.find_element(By.ID, "pv").get_attribute("data-moves"))
        check("a move of the best line steps to it", moves_now() == ["c3", "b3"] + pv[:3], str(moves_now()))
        rest = driver.find_element(By.ID, "pv").get_attribute("data-moves").split(" ")
        check("the best line from there is the rest of the line", rest == pv[3:], str(rest))
        check("the legend explains the marks in words", "W 5" in driver.execute_script(
            "return document.getElementById('legend').textContent"))
        best_star = driver.find_elements(By.CSS_SELECTOR, ".cell.best .star")
        check("optimal moves carry a star, not only a colour", len(best_star) >= 1)
        goal_tip = driver.find_element(By.CSS_SELECTOR, '[data-cell="a1"]').get_attribute("title")
        check("the goal corners explain themselves", "Goal of player 1" in goal_tip, goal_tip)
        driver.save_screenshot(os.path.join(out_dir, "browser-analysis-pv.png"))

        # Copy link (a round trip), copy position, paste a position and a move list.
        driver.find_element(By.ID, "copy-link").click()
        wait.until(lambda d: d.find_element(By.ID, "share-text").get_attribute("value"))
        link = driver.find_element(By.ID, "share-text").get_attribute("value")
        check("Copy link gives the address", link == driver.current_url, f"{link} {driver.current_url}")
        shown_moves = moves_now()
        driver.get(url + "#board=5x5")
        driver.get(link)
        driver.refresh()
        wait.until(lambda d: calm(d) and played() == 5)
        check("the copied link opens the same game", moves_now() == shown_moves and "analysis=1" in driver.current_url)
        # An address opened while another one loads is the game shown: the load that ends in
        # between does not write its address over it. (Opened here when the first load's answer
        # is read, so that the race seen once in CI happens every time.)
        driver.execute_script(
            """
            const target = arguments[0];
            const json = Response.prototype.json;
            Response.prototype.json = async function () {
              const value = await json.call(this);
              Response.prototype.json = json;
              location.hash = target;
              return value;
            };
            location.hash = "#board=5x5";
            """,
            "#" + link.split("#", 1)[1],
        )
        wait.until(lambda d: calm(d) and played() == 5 and d.current_url == link)
        check("an address opened during a load is not written over", moves_now() == shown_moves, str(moves_now()))
        driver.find_element(By.ID, "copy-position").click()
        wait.until(lambda d: "/" in d.find_element(By.ID, "share-text").get_attribute("value"))
        text_form = driver.find_element(By.ID, "share-text").get_attribute("value")
        slime = sorted(c.get_attribute("data-cell") for c in driver.find_elements(By.CSS_SELECTOR, ".cell.slime"))
        snail = snail_cell()
        check("Copy position gives the one-line text form", re.fullmatch(r"7x7 [.xo/]+ [12]", text_form), text_form)
        fresh("#board=5x5&side=both")
        paste = driver.find_element(By.ID, "paste-text")
        paste.send_keys(text_form)
        driver.find_element(By.ID, "paste-load").click()
        wait.until(lambda d: calm(d) and "position=" in d.current_url)
        pasted_slime = sorted(c.get_attribute("data-cell") for c in driver.find_elements(By.CSS_SELECTOR, ".cell.slime"))
        check("a pasted position is shown", (snail_cell(), pasted_slime) == (snail, slime), f"{snail_cell()} {pasted_slime}")
        fresh("#board=7x7&side=both")
        driver.find_element(By.ID, "paste-text").send_keys("1. c3 b3 2. b4")
        driver.find_element(By.ID, "paste-load").click()
        wait.until(lambda d: calm(d) and played() == 3)
        check("a pasted move list is played", moves_now() == ["c3", "b3", "b4"], str(moves_now()))

        # Flip: the board upside down, and the arrows follow the screen.
        driver.find_element(By.ID, "flip").click()
        ranks = [r.text for r in driver.find_elements(By.CSS_SELECTOR, ".coord.rank")]
        files = [f.text for f in driver.find_elements(By.CSS_SELECTOR, ".coord.file")]
        check("Flip board puts rank 1 on top and file g on the left", ranks[0] == "1" and files[0] == "g", f"{ranks} {files}")
        check("the flip is in the address", "flip=1" in driver.current_url)
        driver.save_screenshot(os.path.join(out_dir, "browser-flipped.png"))
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_DOWN)
        wait.until(lambda d: played() == 4 and calm(d))
        check("on the flipped board Down moves towards rank 5", moves_now()[-1] == "b5", str(moves_now()))
        driver.find_element(By.ID, "flip").click()

        # Two players on one device: both sides by hand, no computer; analysis on demand.
        check("two-player mode from the address", game().get_attribute("data-mode") == "two")
        for n in (5, 6):
            driver.find_element(By.CSS_SELECTOR, '[data-legal="true"]').click()
            wait.until(lambda d, n=n: played() == n and calm(d))
        time.sleep(0.8)
        check("two players: no computer move", played() == 6, str(played()))
        driver.find_element(By.ID, "analysis").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".verdict") and calm(d))
        check("two players: the analysis is available", game().get_attribute("data-mode") == "analysis")
        # "Computer plays from here": the computer takes the side to move.
        to_move = game().get_attribute("data-to-move")
        driver.find_element(By.ID, "computer-here").click()
        wait.until(lambda d: played() == 7 and calm(d))
        side_shown = Select(driver.find_element(By.ID, "side")).first_selected_option.get_attribute("value")
        check(
            "Computer plays from here: it moves for the side to move, the person takes the other",
            side_shown == str(3 - int(to_move)) and game().get_attribute("data-mode") == "computer",
            f"{to_move} {side_shown}",
        )
        reply = moves_now()[-1]
        check("the computer's move is in the status line", f"The computer played {reply}." in status(), status())
        last = driver.find_elements(By.CSS_SELECTOR, ".cell.last")
        check("the computer's move is marked on the board", len(last) == 2, str(len(last)))

        # A visible end of game: the winner and why, New game and Review.
        fresh("#board=5x5&moves=b2,a1&side=2")
        end = driver.find_element(By.ID, "end")
        check("the end of a game is shown", end.is_displayed() and "Player 1 wins" in end.text, end.text)
        check("the end offers New game and Review", driver.find_element(By.ID, "end-new").is_displayed()
              and driver.find_element(By.ID, "end-review").is_displayed())
        driver.save_screenshot(os.path.join(out_dir, "browser-end.png"))
        driver.find_element(By.ID, "end-review").click()
        wait.until(lambda d: played() == 0 and calm(d))
        future_moves = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#moves li.future")]
        check("Review goes to the start in analysis with the game to step through",
              future_moves == ["b2", "a1"] and "analysis=1" in driver.current_url, str(future_moves))

        # Presets: 8x8 from e5 in one click (player 1 owns a1, player 2 h8). Its start is exact
        # from the server's tables (the solved start and the winner's book); from d5, which no
        # table holds, the exact answer takes longer than the budget: the hint says it is not
        # certain, in every language.
        driver.find_element(By.CSS_SELECTOR, '.presets [data-board="8x8"][data-start="e5"]').click()
        wait.until(lambda d: "board=8x8" in d.current_url and calm(d))
        check("the 8x8 e5 preset starts on e5", snail_cell() == "e5" and "start=e5" in driver.current_url, snail_cell())
        goals = [driver.find_element(By.CSS_SELECTOR, f'[data-cell="{c}"]').get_attribute("class") for c in ("a1", "h8")]
        check("8x8: the goals are a1 (player 1) and h8 (player 2)", "goal1" in goals[0] and "goal2" in goals[1], str(goals))
        check("the preset keeps the analysis of the game before (Review)", "analysis=1" in driver.current_url)
        summary_text = driver.find_element(By.ID, "summary").text
        check("the 8x8 e5 start is exact from the tables", "loses in" in summary_text
              and not summary_text.startswith("Not certain"), summary_text)
        driver.save_screenshot(os.path.join(out_dir, "browser-8x8-e5.png"))
        fresh("#board=8x8&start=d5&analysis=1")
        summary_text = driver.find_element(By.ID, "summary").text
        check("an inexact analysis says 'not certain'", summary_text.startswith("Not certain: time ran out"), summary_text)
        driver.find_element(By.ID, "hint").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".cell.hint") and calm(d))
        check("an inexact hint is marked on the board", driver.find_elements(By.CSS_SELECTOR, ".cell.hint .unsure"))
        for code in ["en", "it", "de", "fr", "es", "el", "pt"]:
            Select(driver.find_element(By.ID, "lang")).select_by_value(code)
            wait.until(lambda d, code=code: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == code)
            words = texts_of(code)["page-not-certain"]
            check(f"an inexact hint says 'not certain' ({code})", note().startswith(words), repr(note()))
        Select(driver.find_element(By.ID, "lang")).select_by_value("en")
        wait.until(lambda d: d.find_element(By.ID, "new").text == "New game")
        driver.save_screenshot(os.path.join(out_dir, "browser-8x8-d5-not-certain.png"))

        # 9x9 from e5 (the preset, on the 128-bit word): a game of six clicks against the
        # strong level, then the analysis of the open board, inexact within the budget.
        driver.find_element(By.CSS_SELECTOR, '.presets [data-board="9x9"][data-start="e5"]').click()
        wait.until(lambda d: "board=9x9" in d.current_url and calm(d))
        check("the 9x9 e5 preset starts on e5", snail_cell() == "e5", snail_cell())
        fresh("#board=9x9&start=e5&level=strong&side=1")
        for _ in range(6):
            if driver.find_elements(By.ID, "end") and driver.find_element(By.ID, "end").is_displayed():
                break
            before = played()
            legal = driver.find_elements(By.CSS_SELECTOR, "#board .cell.legal")
            if not legal:
                break
            legal[-1].click()
            wait.until(lambda d, before=before: played() >= before + 2 and calm(d))
        check("9x9: six moves of each side played", len(moves_now()) >= 12, str(moves_now()))
        cells = driver.find_elements(By.CSS_SELECTOR, "#board .cell")
        check("9x9: 81 cells drawn", len(cells) == 81, str(len(cells)))
        driver.save_screenshot(os.path.join(out_dir, "browser-9x9.png"))

        # Portuguese: every text of the page, and the rules.
        fresh("#board=7x7&moves=c3,b3&side=1&level=perfect")
        Select(driver.find_element(By.ID, "lang")).select_by_value("pt")
        wait.until(lambda d: d.find_element(By.ID, "new").text == "Novo jogo")
        check("Portuguese: the game is called Rastros", driver.find_element(By.TAG_NAME, "h1").text == "Rastros")
        english = texts_of("en")
        portuguese = texts_of("pt")
        shown = driver.execute_script(
            "return [...document.querySelectorAll('[data-text]')].map(e => [e.dataset.text, e.textContent])"
        )
        untranslated = [k for k, v in shown if v != portuguese[k] or (v == english[k] and k not in ("page-analysis",))]
        check("Portuguese: every labelled text of the page is in Portuguese", not untranslated, str(untranslated))
        check("Portuguese: the status", status().startswith("A tua vez"), status())
        driver.find_element(By.ID, "rules-button").click()
        wait.until(lambda d: d.find_element(By.ID, "rules-text").text.strip() != "")
        rules_pt = driver.find_element(By.ID, "rules-text").text
        check("Portuguese: the rules", rules_pt.startswith("Rastros") and "lesma" in rules_pt, rules_pt[:120])
        driver.save_screenshot(os.path.join(out_dir, "browser-rules-pt.png"))
        driver.find_element(By.ID, "rules-close").click()
        driver.save_screenshot(os.path.join(out_dir, "browser-pt.png"))
        Select(driver.find_element(By.ID, "lang")).select_by_value("en")
        wait.until(lambda d: d.find_element(By.ID, "new").text == "New game")

        # ---- Measures. The first load: every byte the browser fetched for a fresh page (the
        # HTML, style, scripts, icon and one language's texts), from its resource timing.
        driver.get(url + "#board=7x7&side=1&level=perfect")
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        driver.execute_script("localStorage.clear(); location.reload()")
        wait.until(calm)
        time.sleep(0.5)
        loaded = driver.execute_script(
            "const all = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];"
            "return all.map(e => [e.name, e.decodedBodySize || 0]);"
        )
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
        first_load = sum(size for _, size in loaded)
        print(f"measure: first load {first_load} bytes in {len(loaded)} files (uncompressed bodies): {loaded}")
        check("the first load is under 200 KB", 0 < first_load < 200 * 1024, str(loaded))
        # Every 7x7 answer the page asks for along a whole game (the analysis and the perfect
        # move of each position of the start's best line), timed by the browser.
        timings = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "const post = (path, body) => { const t = performance.now();"
            " return fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json'},"
            " body: JSON.stringify(body)}).then(r => r.json()).then(a => [a, performance.now() - t]); };"
            "(async () => { const [root] = await post('/api/analyze', {board: '7x7', moves: []});"
            " const out = [];"
            " for (let i = 0; i < root.pv.length; i++) { const moves = root.pv.slice(0, i);"
            "  out.push((await post('/api/analyze', {board: '7x7', moves}))[1]);"
            "  out.push((await post('/api/move', {board: '7x7', moves, level: 'perfect', seed: 1}))[1]); }"
            " return out; })().then(done, e => done(String(e)));"
        )
        check("every 7x7 position of a whole game was answered", isinstance(timings, list) and len(timings) == 74, str(timings)[:200])
        ordered = sorted(timings)
        slowest = sorted(range(len(timings)), key=lambda i: -timings[i])[:3]
        print("measure: slowest 7x7 answers (ply, endpoint, ms):",
              [(i // 2, "move" if i % 2 else "analyze", round(timings[i])) for i in slowest])
        print(
            f"measure: {len(timings)} answers on 7x7 (analyze and move, the start's best line): "
            f"median {ordered[len(ordered) // 2]:.0f} ms, max {ordered[-1]:.0f} ms"
        )
        # A generous bound (a debug build on a busy machine): the figure is the report.
        check("every 7x7 answer comes within the 2 s budget", ordered[-1] < 2500, str(ordered[-5:]))

        # Portuguese: a browser set to pt, pt-PT or pt-BR gets the page in Portuguese.
        for accept in ["pt", "pt-PT", "pt-BR"]:
            other = start_browser(accept)
            try:
                other.get(url + "#board=7x7&side=1")
                WebDriverWait(other, 30).until(lambda d: d.find_element(By.ID, "new").text == "Novo jogo")
                check(f"a browser set to {accept} gets Portuguese", other.find_element(By.TAG_NAME, "html").get_attribute("lang") == "pt")
            finally:
                other.quit()

        check_puzzles(driver, url, wait, out_dir)

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
        # The analysis board on the phone: the best line, the legend open, the end of a game;
        # nothing scrolls sideways and the move buttons are tappable.
        fresh("#board=7x7&moves=c3,b3&level=perfect&side=1&analysis=1")
        wait.until(lambda d: d.find_element(By.ID, "pv").get_attribute("data-moves") and calm(d))
        driver.execute_script("document.getElementById('legend').open = true")
        no_sideways_scroll("phone analysis: nothing scrolls sideways")
        tap = driver.execute_script(
            "return Math.min(...[...document.querySelectorAll('#pv-moves button, #moves button')]"
            ".map(b => b.getBoundingClientRect().height))"
        )
        check("phone analysis: the moves are at least 44 px tall", tap >= 44, str(tap))
        driver.execute_script("document.getElementById('pv').scrollIntoView()")
        driver.save_screenshot(os.path.join(out_dir, "browser-phone-analysis.png"))
        fresh("#board=5x5&moves=b2,a1&side=1")
        driver.execute_script("document.getElementById('end').scrollIntoView({block: 'center'})")
        driver.save_screenshot(os.path.join(out_dir, "browser-phone-end.png"))
        # 32x2 on the phone: the board scrolls sideways in its box, not the page, the cells
        # stay tappable, and the snail far right is in view.
        driver.get(url + "#board=32x2&start=ae1&level=easy&side=1")
        driver.refresh()
        wait.until(settled)
        width = no_sideways_scroll("phone 32x2: the page does not scroll sideways")
        box = driver.execute_script(
            "const r = document.querySelector('.cell.snail').getBoundingClientRect();"
            "return [r.left, r.right, r.width]"
        )
        check("phone 32x2: the snail is in view", box[0] >= 0 and box[1] <= width, str(box))
        check("phone 32x2: cells are at least 25 px wide", box[2] >= 25, str(box))
        driver.save_screenshot(os.path.join(out_dir, "browser-phone-32x2.png"))
        # 11x11 on the phone (the 128-bit word): the whole board in view, no sideways scroll,
        # cells of at least 28 px, and a few moves played against the strong level.
        fresh("#board=11x11&start=f6&level=strong&side=1")
        width = no_sideways_scroll("phone 11x11: nothing scrolls sideways")
        box = driver.execute_script(
            "const r = document.getElementById('board').getBoundingClientRect();"
            "const c = document.querySelector('.cell').getBoundingClientRect();"
            "return [r.left, r.right, c.width, c.height]"
        )
        check("phone 11x11: the board fits the screen", box[0] >= 0 and box[1] <= width, str(box))
        check("phone 11x11: cells are at least 28 px", min(box[2], box[3]) >= 28, str(box))
        for _ in range(4):
            before = played()
            legal = driver.find_elements(By.CSS_SELECTOR, "#board .cell.legal")
            legal[0].click()
            wait.until(lambda d, before=before: played() >= before + 2 and calm(d))
        check("phone 11x11: four moves of each side played", len(moves_now()) >= 8, str(moves_now()))
        driver.save_screenshot(os.path.join(out_dir, "browser-phone-11x11.png"))
        refused = [
            entry["message"]
            for entry in driver.get_log("browser")
            if "Content Security Policy" in entry["message"]
        ]
        check("the page breaks none of its own security policy", not refused, str(refused[:2]))
    except TimeoutException:
        # What the page showed when a wait ran out: its address, state and messages.
        driver.save_screenshot(os.path.join(out_dir, "browser-timeout.png"))
        shown = driver.execute_script(
            "const g = document.getElementById('game');"
            "return [location.hash, g.dataset.busy, g.dataset.mode, document.getElementById('status').textContent,"
            " document.getElementById('note').textContent, document.querySelectorAll('#moves li').length]"
        )
        results["failed"] += 1
        print(f"FAILED: a wait ran out; the page showed {shown}")
        raise AssertionError("timeout")
    finally:
        driver.quit()
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        for profile in profiles:
            shutil.rmtree(profile, ignore_errors=True)
        print(f"browser test: {results['passed']} passed, {results['failed']} failed")
    # With BROWSER_KEEP_GOING=1 failed checks do not stop the run: it still fails.
    if results["failed"]:
        sys.exit(1)


if __name__ == "__main__":
    try:
        main()
    except AssertionError:
        sys.exit(1)
