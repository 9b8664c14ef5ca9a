// Drawing the board as a grid of buttons, and the keyboard's directions.

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/**
 * The name of file `file` (from 0): "a" to "z", then "aa", "ab", ... like spreadsheet
 * columns, as `rastros_core::Cell` names them (boards are at most 64 wide: "bl").
 */
export const fileName = (file) =>
  (file >= 26 ? LETTERS[Math.floor(file / 26) - 1] : "") + LETTERS[file % 26];

/** The name of the cell at `file`, `rank` (both from 0): "c3", "ab2". */
export const cellName = (file, rank) => `${fileName(file)}${rank + 1}`;

/** Width and height of a board "WxH". */
export function boardSize(board) {
  const [w, h] = board.toLowerCase().split("x").map(Number);
  return { width: w, height: h };
}

/** File and rank (from 0) of a cell name ("c3", "ab2"); -1 for a part that is not one. */
export function cellPos(name) {
  const match = /^([a-z]{1,2})(\d+)$/.exec(name);
  if (!match) return { file: -1, rank: -1 };
  const [, letters, digits] = match;
  const last = LETTERS.indexOf(letters[letters.length - 1]);
  const file = letters.length === 1 ? last : (LETTERS.indexOf(letters[0]) + 1) * 26 + last;
  return { file, rank: Number(digits) - 1 };
}

// Keys to directions (file step, rank step): the arrows, and the numpad's keys by their
// physical code, so in both Num Lock states (its 1 is "End" with Num Lock off, "1" with it
// on). Home, End, Page Up and Page Down elsewhere keep their usual meaning (scrolling).
const ARROWS = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
const NUMPAD = {
  Numpad8: [0, 1], Numpad2: [0, -1], Numpad4: [-1, 0], Numpad6: [1, 0],
  Numpad7: [-1, 1], Numpad9: [1, 1], Numpad1: [-1, -1], Numpad3: [1, -1],
};

/**
 * The cell one king step from the snail in the direction of a key event on a board of
 * `width` x `height` (seen upside down when `flipped`): null when the key is no direction or
 * is held with Ctrl, Alt or Meta (the browser's and the system's shortcuts, like Alt+Right),
 * and "" when the step leaves the board.
 */
export function keyTarget(event, snail, { width, height }, flipped = false) {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  const step = NUMPAD[event.code] || ARROWS[event.key];
  if (!step) return null;
  const { file, rank } = cellPos(snail);
  const sign = flipped ? -1 : 1;
  const f = file + sign * step[0];
  const r = rank + sign * step[1];
  if (f < 0 || r < 0 || f >= width || r >= height) return "";
  return cellName(f, r);
}

/**
 * Draws `state` (an /api/position answer) into `root`: coordinates, goals with their owner,
 * slime, snail, legal moves; `marks` maps cells to analysis verdicts, `best` lists the
 * optimal moves, `hint` is a cell to point at (`hintCertain` false marks it "?"), `last` the cells the computer's last move went
 * from and to. `yours` says whether the person may move now: only then are the legal moves
 * marked and reachable with Tab (the other cells are still focusable by the page, to keep the
 * keyboard on the board). `pending` is the cell just clicked, waiting for the server;
 * `arrived` the cell to animate (the computer's move, once); `flipped` draws the board upside
 * down (player 2's view). `t` gives the page's texts.
 */
export function drawBoard(root, state, {
  marks = {}, best = [], hint = null, hintCertain = true, last = [], yours = true, pending = null, arrived = null,
  flipped = false, t, onCell,
}) {
  const { width, height } = boardSize(state.board);
  const legal = new Set(state.legal_moves);
  const slime = new Set(state.slime);
  const goal1 = cellName(0, 0);
  const goal2 = cellName(width - 1, height - 1);
  root.style.setProperty("--files", width);
  root.style.setProperty("--ranks", height);
  root.classList.toggle("wide", width > 16);
  root.replaceChildren();
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", t("page-board"));
  const label = (text, cls) => {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = text;
    span.setAttribute("aria-hidden", "true");
    root.append(span);
  };
  const order = (n, down) => [...Array(n).keys()].map((i) => (down ? n - 1 - i : i));
  const files = order(width, flipped);
  for (const rank of order(height, !flipped)) {
    label(String(rank + 1), "coord rank");
    for (const file of files) {
      const name = cellName(file, rank);
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "cell";
      cell.dataset.cell = name;
      cell.tabIndex = -1;
      const words = [name];
      if (name === state.snail) {
        cell.classList.add("snail");
        words.push(t("page-cell-snail"));
      } else if (slime.has(name)) {
        cell.classList.add("slime");
        words.push(t("page-cell-slime"));
      }
      if (name === goal1 || name === goal2) {
        const owner = name === goal1 ? 1 : 2;
        cell.classList.add(`goal${owner}`);
        words.push(t("goal-label", { player: owner }));
        cell.title = t("page-goal-help", { player: owner });
        if (name !== state.snail) {
          const mark = document.createElement("span");
          mark.className = "owner";
          mark.textContent = String(owner);
          cell.append(mark);
        }
      }
      if (name === state.snail) {
        const snail = document.createElement("span");
        snail.className = "shell";
        cell.append(snail);
      }
      if (legal.has(name) && yours) {
        cell.dataset.legal = "true";
        cell.classList.add("legal");
        cell.tabIndex = 0;
        words.push(t("page-cell-legal"));
      }
      if (legal.has(name)) {
        const verdict = marks[name];
        if (verdict) {
          const tag = document.createElement("span");
          tag.className = `verdict ${verdict.value || "unknown"}`;
          if (verdict.value) {
            tag.textContent = `${t(verdict.value === "win" ? "page-short-win" : "page-short-loss")}${verdict.dte}`;
            words.push(t(verdict.value === "win" ? "page-win-in" : "page-loss-in", { n: verdict.dte }));
          }
          cell.append(tag);
        }
        if (best.includes(name)) {
          cell.classList.add("best");
          const star = document.createElement("span");
          star.className = "star";
          star.textContent = "★";
          cell.append(star);
          words.push(t("page-cell-best"));
        }
      }
      if (last.includes(name)) {
        cell.classList.add("last");
        words.push(t("page-cell-last-move"));
      }
      if (cell.tabIndex !== 0) cell.setAttribute("aria-disabled", "true");
      if (hint === name) {
        cell.classList.add("hint");
        words.push(t("page-hint"));
        if (!hintCertain) {
          const unsure = document.createElement("span");
          unsure.className = "unsure";
          unsure.textContent = "?";
          cell.append(unsure);
          words.push(t("page-not-certain"));
        }
      }
      if (pending === name) {
        cell.classList.add("pending");
        cell.dataset.pending = "true";
      }
      if (arrived === name) cell.classList.add("arrived");
      cell.setAttribute("aria-label", words.join(", "));
      cell.addEventListener("click", () => onCell(name));
      root.append(cell);
    }
  }
  label("", "coord corner");
  for (const file of files) label(fileName(file), "coord file");
}
