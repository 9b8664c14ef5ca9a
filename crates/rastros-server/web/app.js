// The page: the game lives in the address (#board=7x7&start=d4&moves=c3,b3&level=perfect&side=1),
// the server answers every question about it, and this module only draws and listens.

import * as api from "./api.js";
import { boardSize, cellName, drawBoard, keyTarget } from "./board.js";

const $ = (id) => document.getElementById(id);
const LEVELS = ["perfect", "strong", "easy"];

let texts = {};
let languages = [];
let lang = "en";

/** The text `key` with `{name}` placeholders filled from `args`. */
function t(key, args = {}) {
  const text = texts[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(args[name] ?? `{${name}}`));
}

/**
 * A message kept on screen: its key and arguments, not the finished text, so that a change
 * of language translates it again.
 */
const msg = (key, args = {}) => ({ key, args });

/** The text of a kept message, "" for none. */
const say = (m) => (m ? t(m.key, m.args) : "");

/** The game: setup and moves; written to and read from the address. */
const game = { board: "7x7", start: "", moves: [], level: "perfect", side: 1, analysis: false };

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  game.board = params.get("board") || "7x7";
  game.start = params.get("start") || "";
  game.moves = (params.get("moves") || "").split(",").filter(Boolean);
  game.level = LEVELS.includes(params.get("level")) ? params.get("level") : "perfect";
  const side = params.get("side");
  game.side = side === "2" ? 2 : side === "random" ? randomSide() : 1;
  game.analysis = params.get("analysis") === "1";
  if (!game.start) game.start = defaultStart(game.board);
}

function writeHash() {
  const params = new URLSearchParams();
  params.set("board", game.board);
  if (game.start) params.set("start", game.start);
  if (game.moves.length) params.set("moves", game.moves.join(","));
  params.set("level", game.level);
  params.set("side", String(game.side));
  if (game.analysis) params.set("analysis", "1");
  const hash = `#${params.toString().replaceAll("%2C", ",")}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

const randomSide = () => (Math.random() < 0.5 ? 1 : 2);

/**
 * The centre cell of a board, or the lower left of its central cells (d4 on 8x8), never a
 * goal: on 2x2 that cell is a1, player 1's goal, so b1 (the cell the CLI suggests).
 */
function middleCell(board) {
  const { width, height } = boardSize(board);
  if (!(width >= 2 && height >= 2)) return "";
  const file = Math.floor((width - 1) / 2);
  const rank = Math.floor((height - 1) / 2);
  return file === 0 && rank === 0 ? cellName(1, 0) : cellName(file, rank);
}

/**
 * The start cell of a board that has no centre cell (an even side): its middle cell; ""
 * where the centre exists (the server then uses it).
 */
function defaultStart(board) {
  const { width, height } = boardSize(board);
  return width % 2 === 1 && height % 2 === 1 ? "" : middleCell(board);
}

// What is drawn now, and a counter that makes late answers to old questions harmless.
// `note` and `summary` are kept messages (`msg`), or null.
let view = { state: null, marks: {}, best: [], hint: null, note: null, summary: null };
let generation = 0;

function setBusy(busy) {
  $("game").dataset.busy = busy ? "true" : "false";
}

/** The server's error as a message of the page: its message names the field at fault. */
function errorMessage(error) {
  const message = String(error.message || "");
  if (error.status === 503) return msg("page-error-busy");
  if (error.status === 408) return msg("page-error-timeout");
  if (error.status === 400) {
    if (message.startsWith("board:")) return msg("page-bad-board", { board: game.board });
    if (message.startsWith("start:")) {
      return msg("page-bad-start", { cell: game.start, example: middleCell(game.board) || "d4" });
    }
    const move = message.match(/^move (\d+) '([^']*)'/);
    if (move) return msg("page-bad-move", { n: move[1], cell: move[2] });
  }
  return msg("page-error", { message });
}

function showError(error) {
  view.note = errorMessage(error);
  render();
}

/** Asks the server about the game, draws it, and lets the computer move when it is its turn. */
async function update() {
  const mine = ++generation;
  writeHash();
  view = { state: view.state, marks: {}, best: [], hint: null, note: null, summary: null };
  let state;
  try {
    state = await api.position(game);
  } catch (error) {
    if (mine === generation) {
      // No game to show: the board of the game before must not stay playable.
      view.state = null;
      setBusy(false);
      showError(error);
    }
    return;
  }
  if (mine !== generation) return;
  view.state = state;
  render();
  if (state.outcome) return;
  const onBusy = () => {
    if (mine === generation) {
      view.note = msg("page-busy");
      render();
    }
  };
  try {
    if (game.analysis) {
      setBusy(true);
      render();
      const a = await api.analyze(game, onBusy);
      if (mine !== generation) return;
      for (const m of a.moves) view.marks[m.move] = m;
      view.best = a.best_moves;
      view.summary = a.exact
        ? msg(a.value === "win" ? "page-eval-win" : "page-eval-loss", { player: a.side_to_move, n: a.dte })
        : null;
      view.note = a.exact ? null : msg("page-not-exact");
      setBusy(false);
      render();
    } else if (state.side_to_move !== game.side) {
      setBusy(true);
      render();
      const answer = await api.move(game, game.level, onBusy);
      if (mine !== generation) return;
      game.moves.push(answer.move);
      setBusy(false);
      await update();
      if (!answer.exact && game.level !== "strong") {
        view.note = msg("page-not-exact");
        render();
      }
    }
  } catch (error) {
    if (mine === generation) {
      setBusy(false);
      showError(error);
    }
  }
}

function statusText(state) {
  if (state.outcome) {
    const { winner, reason } = state.outcome;
    const how = reason === "goal"
      ? t("win-goal", { player: winner })
      : t("win-no-move", { winner, loser: 3 - winner });
    if (game.analysis) return how;
    return `${t(winner === game.side ? "page-you-win" : "page-you-lose")} ${how}`;
  }
  if ($("game").dataset.busy === "true" && !game.analysis) return t("engine-thinking");
  if (game.analysis) return t("to-move", { player: state.side_to_move });
  return state.side_to_move === game.side
    ? t("page-your-turn", { player: game.side })
    : t("to-move", { player: state.side_to_move });
}

/** Whether the person may move now: their turn (any turn in analysis), nothing pending. */
function personToMove(state) {
  if (!state || state.outcome || $("game").dataset.busy === "true") return false;
  return game.analysis || state.side_to_move === game.side;
}

/**
 * The cells the computer's last move went from and to, when the last move is the computer's
 * (none in analysis, where the person plays both sides).
 */
function computerMove(state) {
  const n = state.played.length;
  if (game.analysis || n === 0 || ((n - 1) % 2) + 1 === game.side) return [];
  return [n >= 2 ? state.played[n - 2] : state.start, state.played[n - 1]];
}

/** Whether a move of the person's own is among the moves played (what Undo takes back). */
function personHasMoved(state) {
  const played = state.played.length;
  return game.analysis ? played > 0 : played >= game.side;
}

function render() {
  const state = view.state;
  const busy = $("game").dataset.busy === "true";
  if (!state) {
    $("status").textContent = "";
    $("summary").textContent = "";
    $("note").textContent = say(view.note);
    $("board").replaceChildren();
    $("moves").replaceChildren();
    $("undo").disabled = true;
    $("hint").disabled = true;
    return;
  }
  // A redrawn board keeps the keyboard on it: the same cell, or the snail where that cell
  // is gone (the move just played).
  const focused = document.activeElement?.closest?.("#board") ? document.activeElement.dataset.cell : null;
  const root = $("game");
  root.dataset.toMove = String(state.side_to_move);
  root.dataset.outcome = state.outcome ? String(state.outcome.winner) : "";
  $("status").textContent = statusText(state);
  $("summary").textContent = say(view.summary);
  $("note").textContent = say(view.note);
  drawBoard($("board"), state, {
    marks: view.marks,
    best: game.analysis ? view.best : [],
    hint: view.hint,
    last: computerMove(state),
    yours: personToMove(state),
    t,
    onCell: play,
  });
  keepSnailInView();
  if (focused) {
    const board = $("board");
    const same = board.querySelector(`[data-cell="${focused}"][tabindex="0"]`);
    (same || board.querySelector(".snail"))?.focus({ preventScroll: true });
  }
  const list = $("moves");
  list.replaceChildren(
    ...state.played.map((cell, i) => {
      const item = document.createElement("li");
      item.textContent = cell;
      item.dataset.player = String((i % 2) + 1);
      return item;
    }),
  );
  list.scrollTop = list.scrollHeight;
  $("undo").disabled = busy || !personHasMoved(state);
  $("hint").disabled = busy || !!state.outcome;
}

/** A wide board scrolled sideways (on a phone): scrolls the snail into view when it is not. */
function keepSnailInView() {
  const board = $("board");
  const snail = board.querySelector(".snail");
  if (!snail || board.scrollWidth <= board.clientWidth) return;
  const box = board.getBoundingClientRect();
  const cell = snail.getBoundingClientRect();
  if (cell.left >= box.left && cell.right <= box.right) return;
  board.scrollLeft += cell.left - box.left - (box.width - cell.width) / 2;
}

/** The person moves the snail to `cell` (when it is their turn and the move is legal). */
function play(cell) {
  const state = view.state;
  if (!state || state.outcome) return;
  if (!personToMove(state)) {
    view.note = msg("page-wait");
    render();
    return;
  }
  if (!state.legal_moves.includes(cell)) {
    view.note = msg("page-illegal", { cell });
    render();
    return;
  }
  game.moves.push(cell);
  update();
}

function undo() {
  if (!view.state || !personHasMoved(view.state) || $("game").dataset.busy === "true") return;
  game.moves.pop();
  // Against the computer, go back to the person's own turn.
  const sideToMove = (game.moves.length % 2) + 1;
  if (!game.analysis && sideToMove !== game.side && game.moves.length) game.moves.pop();
  setBusy(false);
  update();
}

async function hint() {
  if ($("game").dataset.busy === "true" || !view.state || view.state.outcome) return;
  const mine = generation;
  try {
    setBusy(true);
    render();
    const answer = await api.move(game, "perfect");
    if (mine !== generation) return;
    view.hint = answer.move;
  } catch (error) {
    showError(error);
  } finally {
    if (mine === generation) setBusy(false);
    render();
  }
}

/**
 * Starts the game of the setup form. A board that is not "width x height" (spaces and
 * case aside; empty is 7x7) is refused with a message, and the game on screen stays.
 */
function newGame() {
  const field = $("board-size");
  const size = field.value.replace(/\s+/g, "").replace("×", "x").toLowerCase() || "7x7";
  if (!/^\d+x\d+$/.test(size)) {
    field.setAttribute("aria-invalid", "true");
    view.note = msg("page-bad-board", { board: field.value.trim() });
    render();
    field.focus();
    return;
  }
  field.removeAttribute("aria-invalid");
  game.board = size;
  game.start = $("start").value.trim().toLowerCase() || defaultStart(game.board);
  game.level = $("level").value;
  const side = $("side").value;
  game.side = side === "random" ? randomSide() : Number(side);
  game.moves = [];
  // The form shows the game that starts: the board as read, the start cell chosen (d4 on
  // 8x8). The side menu keeps "Random" for the next game.
  field.value = game.board;
  $("start").value = game.start;
  setBusy(false);
  update();
}

function fillSetup() {
  $("board-size").value = game.board;
  $("start").value = game.start;
  $("level").value = game.level;
  $("side").value = String(game.side);
  $("analysis").checked = game.analysis;
}

/** Puts every text of the page in the chosen language. */
async function setLanguage(code) {
  const answer = await api.texts(code);
  texts = answer.texts;
  languages = answer.languages;
  lang = answer.lang;
  localStorage.setItem("rastros-lang", lang);
  document.documentElement.lang = lang;
  document.title = t("game-name");
  for (const el of document.querySelectorAll("[data-text]")) el.textContent = t(el.dataset.text);
  for (const el of document.querySelectorAll("[data-placeholder]")) {
    el.placeholder = t(el.dataset.placeholder);
  }
  const select = $("lang");
  select.replaceChildren(
    ...languages.map(([value, name]) => new Option(name, value, false, value === lang)),
  );
  if (!$("rules").hidden) await showRules();
  render();
}

async function showRules() {
  const answer = await api.rules(lang);
  // The rules come wrapped for a terminal: one paragraph a block, lines joined.
  $("rules-text").replaceChildren(
    ...answer.rules.split(/\n\s*\n/).map((block) => {
      const p = document.createElement("p");
      p.textContent = block.replace(/\s*\n\s*/g, " ");
      return p;
    }),
  );
  $("rules").hidden = false;
  // The sheet itself takes the focus, at its top: on a phone, focusing Close would scroll
  // the rules to their end.
  const sheet = $("rules-sheet");
  sheet.scrollTop = 0;
  sheet.focus({ preventScroll: true });
}

function closeRules() {
  $("rules").hidden = true;
  $("rules-button").focus();
}

/** Keys while the rules are open: Escape closes them, Tab stays inside; the game sleeps. */
function onRulesKey(event) {
  if (event.key === "Escape") {
    event.preventDefault();
    closeRules();
  } else if (event.key === "Tab") {
    event.preventDefault();
    const close = $("rules-close");
    (document.activeElement === close ? $("rules-sheet") : close).focus();
  }
}

function onKey(event) {
  if (!$("rules").hidden) {
    onRulesKey(event);
    return;
  }
  if (event.target.closest("input, select, textarea")) return;
  const state = view.state;
  if (!state) return;
  const target = keyTarget(event, state.snail);
  if (target === null) return;
  event.preventDefault();
  play(target);
}

function startLanguage() {
  const saved = localStorage.getItem("rastros-lang");
  if (saved) return saved;
  const codes = ["en", "it", "de", "fr", "es", "el"];
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = wanted.slice(0, 2).toLowerCase();
    if (codes.includes(code)) return code;
  }
  return "en";
}

async function main() {
  readHash();
  fillSetup();
  // A start cell filled in for the board before is not meant for the next one.
  $("board-size").addEventListener("change", () => {
    const start = $("start");
    if (start.value.trim().toLowerCase() === defaultStart(game.board)) start.value = "";
  });
  // The settings form is never sent: New game, or Enter in the Board or Start field, starts
  // the game it describes.
  $("setup").addEventListener("submit", (e) => {
    e.preventDefault();
    newGame();
  });
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("analysis").addEventListener("change", (e) => {
    game.analysis = e.target.checked;
    update();
  });
  $("lang").addEventListener("change", (e) => setLanguage(e.target.value).catch(showError));
  $("rules-button").addEventListener("click", () => showRules().catch(showError));
  $("rules-close").addEventListener("click", closeRules);
  // A click on the backdrop around the sheet closes the rules too: pressed and released
  // there, so that a text selection or a scrollbar drag that ends outside the sheet does not.
  let pressedOnBackdrop = false;
  $("rules").addEventListener("pointerdown", (e) => {
    pressedOnBackdrop = e.target === e.currentTarget;
  });
  $("rules").addEventListener("click", (e) => {
    if (pressedOnBackdrop && e.target === e.currentTarget) closeRules();
    pressedOnBackdrop = false;
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => {
    readHash();
    fillSetup();
    update();
  });
  await setLanguage(startLanguage()).catch(() => setLanguage("en"));
  await update();
}

main().catch(showError);
