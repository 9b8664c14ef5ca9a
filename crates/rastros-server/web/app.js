// The page: the game lives in the address (#board=7x7&start=d4&moves=c3,b3&level=perfect&side=1),
// the server answers every question about it, and this module only draws and listens.
//
// One question is in flight at a time: while the page waits (`data-busy`), clicks, keys and
// the game's buttons are ignored, so a double click cannot send a move twice. Each move is a
// history entry: Back and Forward step through the game, and the moves after the one shown
// are kept for Redo and the move list.

import * as api from "./api.js";
import { boardSize, cellName, drawBoard, keyTarget } from "./board.js";

const $ = (id) => document.getElementById(id);
const LEVELS = ["perfect", "strong", "easy"];
const LANGUAGES = ["en", "it", "de", "fr", "es", "el", "pt"];

let texts = {};
let languages = [];
let lang = "en";

/**
 * The text `key` with `{name}` placeholders filled from `args` (a kept message is
 * translated); puzzles.js uses it too.
 */
export function t(key, args = {}) {
  const text = texts[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => {
    const value = args[name];
    if (value && typeof value === "object") return say(value);
    return String(value ?? `{${name}}`);
  });
}

/**
 * A message kept on screen: its key and arguments, not the finished text, so that a change
 * of language translates it again. A list of messages is shown one after the other.
 */
const msg = (key, args = {}) => ({ key, args });

/** The text of a kept message (or list of them), "" for none. */
const say = (m) => (!m ? "" : Array.isArray(m) ? m.map(say).join(" ") : t(m.key, m.args));

/**
 * The game: setup and moves, written to and read from the address. `side` is the person's
 * player (1 or 2) against the computer, or 0 for two players on one device; `position` a
 * pasted start position (one-line text form), else "".
 */
let game = {
  board: "7x7", start: "", position: "", moves: [], level: "perfect", side: 1, analysis: false,
  flip: false,
};

/** The moves after the ones shown (undone, or stepped back over): Redo and Forward replay them. */
let future = [];

function readHash() {
  address = location.hash;
  const params = new URLSearchParams(location.hash.slice(1));
  const position = (params.get("position") || "").trim();
  const board = params.get("board") || (position ? position.split(/\s+/)[0] : "") || "7x7";
  const side = params.get("side");
  const level = params.get("level");
  game = {
    board,
    start: position ? "" : params.get("start") || defaultStart(board),
    position,
    moves: (params.get("moves") || "").split(",").filter(Boolean),
    level: LEVELS.includes(level) ? level : "perfect",
    side: side === "both" ? 0 : side === "2" ? 2 : side === "random" ? randomSide() : 1,
    analysis: params.get("analysis") === "1",
    flip: params.get("flip") === "1",
  };
}

/** The address of `g`. */
function hashOf(g) {
  const params = new URLSearchParams();
  params.set("board", g.board);
  if (g.position) params.set("position", g.position);
  else if (g.start) params.set("start", g.start);
  if (g.moves.length) params.set("moves", g.moves.join(","));
  params.set("level", g.level);
  params.set("side", g.side === 0 ? "both" : String(g.side));
  if (g.analysis) params.set("analysis", "1");
  if (g.flip) params.set("flip", "1");
  return `#${params.toString().replaceAll("%2C", ",")}`;
}

/** Whether the address opens the Puzzles mode (`#puzzle=ID`, puzzles.js), not a game. */
const puzzleOpen = () => location.hash.startsWith("#puzzle=");

/**
 * The address as the page last read or wrote it. When `location.hash` differs, a person has
 * opened another address and its `hashchange` is on its way: that game comes next, and
 * nothing may write over it (a load that ends in between would, and show the old game).
 */
let address = "";

/**
 * Writes the game to the address: a new history entry when `push` (a move), else in place.
 * (pushState and replaceState fire no `hashchange`: that event is Back, Forward or an
 * address typed or opened.)
 */
function writeHash(push) {
  if (puzzleOpen() || location.hash !== address) return;
  const hash = hashOf(game);
  if (location.hash === hash) return;
  if (push) history.pushState(null, "", hash);
  else history.replaceState(null, "", hash);
  address = location.hash;
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
// `note` and `summary` are kept messages (`msg`), or null; `pending` the cell just clicked;
// `computer` the computer's last move ({cell, exact, fresh}) while it is the last move.
const emptyView = (state) => ({
  state, marks: {}, best: [], pv: null, hint: null, note: null, summary: null, pending: null,
  computer: null,
});
let view = emptyView(null);
let generation = 0;

const busy = () => $("game").dataset.busy === "true";
function setBusy(on) {
  $("game").dataset.busy = on ? "true" : "false";
}

/** Who moves by hand: "computer" (one side each), "two" (both sides) or "analysis". */
const mode = () => (game.analysis ? "analysis" : game.side === 0 ? "two" : "computer");

/** Whether the side to move of `state` is the computer's (against the computer only). */
const computerToMove = (state) =>
  mode() === "computer" && !state.outcome && state.side_to_move !== game.side;

/** The server's error about game `g` as a message of the page: its message names the field. */
function errorMessage(error, g = game) {
  const message = String(error.message || "");
  if (error.status === 503) return msg("page-error-busy");
  if (error.status === 408) return msg("page-error-timeout");
  if (error.status === 400) {
    if (message.startsWith("board:")) return msg("page-bad-board", { board: g.board });
    if (message.startsWith("start:")) {
      return msg("page-bad-start", { cell: g.start, example: middleCell(g.board) || "d4" });
    }
    if (message.startsWith("position:")) return msg("page-paste-bad", { text: g.position });
    const move = moveError(error);
    if (move) return msg("page-bad-move", move);
  }
  return msg("page-error", { message });
}

/** The move a 400 answer refuses: its number (from 1) and its text, or null. */
function moveError(error) {
  const move = error.status === 400 && String(error.message).match(/^move (\d+) '([^']*)'/);
  return move ? { n: Number(move[1]), cell: move[2] } : null;
}

function showError(error) {
  setBusy(false);
  view.pending = null;
  view.note = errorMessage(error);
  render();
}

/**
 * The position of `g`, or of its longest legal prefix when a move is refused: returns the
 * game shown, its state and the first move dropped ({n, cell}) or null. Other errors throw.
 */
async function longestLegal(g) {
  let dropped = null;
  for (;;) {
    try {
      return { game: g, state: await api.position(g), dropped };
    } catch (error) {
      const move = moveError(error);
      if (!move || move.n > g.moves.length) throw error;
      dropped = move;
      g = { ...g, moves: g.moves.slice(0, move.n - 1) };
    }
  }
}

/**
 * Shows `g` (its position `state`), written to the address (a history entry when `push`),
 * then asks what follows: the analysis, or the computer's move when `autoplay` and it is the
 * computer's turn. `note` is a kept message to show with it.
 */
function commit(g, state, { push = false, autoplay = false, note = null } = {}) {
  game = g;
  view = emptyView(state);
  view.note = note;
  writeHash(push);
  fillSetup();
  return follow(autoplay);
}

/** After a position is shown: the analysis, or the computer's move, or nothing. */
async function follow(autoplay) {
  const mine = ++generation;
  const state = view.state;
  view.marks = {};
  view.best = [];
  view.pv = null;
  view.summary = null;
  if (!state || state.outcome || !(game.analysis || (autoplay && computerToMove(state)))) {
    setBusy(false);
    render();
    return;
  }
  setBusy(true);
  render();
  const onBusy = () => {
    if (mine === generation) {
      view.note = msg("page-busy");
      render();
    }
  };
  try {
    if (game.analysis) {
      const a = await api.analyze(game, onBusy);
      if (mine !== generation) return;
      for (const m of a.moves) view.marks[m.move] = m;
      view.best = a.best_moves;
      view.pv = { moves: a.pv || [], complete: a.pv_complete !== false };
      view.summary = a.exact
        ? msg(a.value === "win" ? "page-eval-win" : "page-eval-loss", { player: a.side_to_move, n: a.dte })
        : [msg("page-not-certain"), msg("page-not-exact")];
      if (view.note?.key === "page-busy") view.note = null;
    } else {
      const answer = await api.move(game, game.level, onBusy);
      if (mine !== generation) return;
      future = future[0] === answer.move ? future.slice(1) : [];
      game = { ...game, moves: [...game.moves, answer.move] };
      const note = view.note?.key === "page-busy" ? null : view.note;
      view = emptyView(answer);
      view.computer = { cell: answer.move, exact: answer.exact, fresh: true };
      view.note = !answer.exact && game.level !== "strong"
        ? [msg("page-not-certain"), msg("page-not-exact")]
        : note;
      writeHash(true);
    }
  } catch (error) {
    if (mine === generation) showError(error);
    return;
  }
  setBusy(false);
  render();
}

/**
 * Goes to the game `g` after asking the server about it; on a refusal the game on screen
 * stays and `refused` (a kept message) says why, after the server's reason.
 */
async function goTo(g, rest, { push = true, autoplay = false, refused = null, note = null } = {}) {
  if (busy()) return;
  const mine = ++generation;
  setBusy(true);
  render();
  let state;
  try {
    state = await api.position(g);
  } catch (error) {
    if (mine !== generation) return;
    setBusy(false);
    view.pending = null;
    view.note = refused ? [errorMessage(error, g), refused] : errorMessage(error, g);
    render();
    return;
  }
  if (mine !== generation) return;
  future = rest;
  await commit(g, state, { push, autoplay, note });
}

/** The line of the game: the moves shown, then those stepped back over. */
const line = () => [...game.moves, ...future];

function statusText(state) {
  if (state.outcome) {
    const { winner, reason } = state.outcome;
    const how = reason === "goal"
      ? t("win-goal", { player: winner })
      : t("win-no-move", { winner, loser: 3 - winner });
    if (mode() !== "computer") return how;
    return `${t(winner === game.side ? "page-you-win" : "page-you-lose")} ${how}`;
  }
  if (busy() && mode() === "computer" && computerToMove(state)) return t("engine-thinking");
  const played = view.computer ? `${t("page-computer-played", { cell: view.computer.cell })} ` : "";
  if (mode() !== "computer") return t("to-move", { player: state.side_to_move });
  if (computerToMove(state)) return t("page-computer-waits", { player: state.side_to_move });
  return played + t("page-your-turn", { player: game.side });
}

/** Whether the person may move now: their turn (any turn by hand), nothing pending. */
function personToMove(state) {
  if (!state || state.outcome || busy()) return false;
  return mode() !== "computer" || state.side_to_move === game.side;
}

/** The cells the computer's last move went from and to, while it is the last move. */
function computerMove(state) {
  if (!view.computer) return [];
  const n = state.played.length;
  return [n >= 2 ? state.played[n - 2] : state.start, state.played[n - 1]];
}

/** The moves Undo takes back: one, or against the computer back to the person's own turn. */
function undoCount() {
  const n = game.moves.length;
  if (n === 0) return 0;
  if (mode() !== "computer") return 1;
  // Back to the last position where the person is to move, before their own last move.
  for (let k = 1; k <= n; k++) {
    if (sideAfter(n - k) === game.side) return k;
  }
  return 0;
}

/** The moves Redo plays again: one, or against the computer up to the person's next turn. */
function redoCount() {
  if (!future.length) return 0;
  if (mode() !== "computer") return 1;
  const n = game.moves.length;
  for (let k = 1; k <= future.length; k++) {
    if (sideAfter(n + k) === game.side) return k;
  }
  return future.length;
}

function render() {
  const state = view.state;
  const on = busy();
  const root = $("game");
  root.dataset.mode = mode();
  $("note").textContent = say(view.note);
  $("flip").setAttribute("aria-pressed", String(game.flip));
  for (const id of ["level", "side", "analysis", "new"]) $(id).disabled = on;
  for (const b of document.querySelectorAll(".presets button, #paste-load")) b.disabled = on;
  if (!state) {
    $("status").textContent = "";
    $("summary").textContent = "";
    $("board").replaceChildren();
    $("moves").replaceChildren();
    $("end").hidden = true;
    $("pv").hidden = true;
    for (const id of ["undo", "redo", "hint", "computer-here", "copy-position", "to-start"]) $(id).disabled = true;
    return;
  }
  // A redrawn board keeps the keyboard on it: the same cell, or the snail where that cell
  // is gone (the move just played).
  const focused = document.activeElement?.closest?.("#board") ? document.activeElement.dataset.cell : null;
  root.dataset.toMove = String(state.side_to_move);
  root.dataset.outcome = state.outcome ? String(state.outcome.winner) : "";
  $("status").textContent = statusText(state);
  $("summary").textContent = say(view.summary);
  const last = computerMove(state);
  drawBoard($("board"), state, {
    marks: view.marks,
    best: game.analysis ? view.best : [],
    hint: view.hint?.cell,
    hintCertain: view.hint?.exact !== false,
    last,
    yours: personToMove(state),
    pending: view.pending,
    arrived: view.computer?.fresh ? view.computer.cell : null,
    flipped: game.flip,
    t,
    onCell: play,
  });
  if (view.computer) view.computer.fresh = false;
  keepSnailInView();
  if (focused) {
    const board = $("board");
    const same = board.querySelector(`[data-cell="${focused}"][tabindex="0"]`);
    (same || board.querySelector(".snail"))?.focus({ preventScroll: true });
  }
  renderMoves();
  renderPv();
  renderEnd(state);
  $("undo").disabled = on || undoCount() === 0;
  $("redo").disabled = on || redoCount() === 0;
  $("hint").disabled = on || !!state.outcome;
  $("computer-here").disabled = on || !!state.outcome;
  $("copy-position").disabled = false;
  $("to-start").disabled = on || game.moves.length === 0;
}

/** The move list: the moves shown, then those after them (dimmed); each a button to jump. */
function renderMoves() {
  const list = $("moves");
  const all = line();
  list.replaceChildren(
    ...all.map((cell, i) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = cell;
      button.disabled = busy();
      item.append(button);
      item.dataset.ply = String(i + 1);
      item.dataset.player = String(sideAfter(i));
      if (i >= game.moves.length) item.classList.add("future");
      if (i === game.moves.length - 1) item.setAttribute("aria-current", "step");
      return item;
    }),
  );
  const current = list.querySelector('[aria-current="step"]');
  if (current) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
}

/** The side to move after `n` moves of the game: player 1 first, or the pasted position's. */
function sideAfter(n) {
  const first = game.position.trim().split(/\s+/)[2] === "2" ? 2 : 1;
  return ((first - 1 + n) % 2) + 1;
}

/** The best line in analysis: `#pv` with `data-moves`, each move a button stepping to it. */
function renderPv() {
  const box = $("pv");
  const pv = game.analysis && view.pv && view.pv.moves.length ? view.pv : null;
  box.hidden = !pv;
  box.dataset.moves = pv ? pv.moves.join(" ") : "";
  if (!pv) {
    $("pv-moves").replaceChildren();
    return;
  }
  const n = pv.moves.length;
  $("pv-length").textContent = t(pv.complete ? "page-pv-length" : "page-pv-partial", { n });
  const mover = view.state.side_to_move;
  $("pv-moves").replaceChildren(
    ...pv.moves.map((cell, i) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = cell;
      button.dataset.index = String(i);
      button.disabled = busy();
      item.dataset.player = String(((mover - 1 + i) % 2) + 1);
      item.append(button);
      return item;
    }),
  );
}

/** The end of a game: who won and why, with New game and Review. */
function renderEnd(state) {
  $("end").hidden = !state.outcome;
  if (state.outcome) $("end-text").textContent = statusText(state);
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

/**
 * The person moves the snail to `cell` (when it is their turn and the move is legal): the
 * cell is marked at once, and input waits for the server's answer. A refused move leaves
 * the position before it on screen, and says why.
 */
async function play(cell) {
  const state = view.state;
  if (!state || state.outcome || busy()) return;
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
  view.pending = cell;
  view.note = null;
  const rest = future[0] === cell ? future.slice(1) : [];
  await goTo({ ...game, moves: [...game.moves, cell] }, rest, {
    autoplay: true,
    refused: msg("page-move-refused", { cell }),
  });
}

function undo() {
  const k = undoCount();
  if (busy() || k === 0) return;
  const n = game.moves.length;
  goTo({ ...game, moves: game.moves.slice(0, n - k) }, [...game.moves.slice(n - k), ...future]);
}

function redo() {
  const k = redoCount();
  if (busy() || k === 0) return;
  goTo({ ...game, moves: [...game.moves, ...future.slice(0, k)] }, future.slice(k));
}

/** Jumps to ply `n` of the line (0: the start). */
function jump(n) {
  if (busy()) return;
  const all = line();
  goTo({ ...game, moves: all.slice(0, n) }, all.slice(n));
}

/** Steps along the best line to its move `i` (from 0); the rest of the line stays for Redo. */
function stepPv(i) {
  if (busy() || !view.pv) return;
  const moves = view.pv.moves;
  goTo({ ...game, moves: [...game.moves, ...moves.slice(0, i + 1)] }, moves.slice(i + 1));
}

async function hint() {
  if (busy() || !view.state || view.state.outcome) return;
  const mine = generation;
  setBusy(true);
  render();
  try {
    const answer = await api.move(game, "perfect");
    if (mine !== generation) return;
    view.hint = { cell: answer.move, exact: answer.exact };
    view.note = answer.exact
      ? msg("page-hint-is", { cell: answer.move })
      : [msg("page-not-certain"), msg("page-hint-guess", { cell: answer.move })];
  } catch (error) {
    if (mine === generation) showError(error);
    return;
  }
  setBusy(false);
  render();
}

/** The computer takes the side to move from here on, and moves; the person the other side. */
function computerFromHere() {
  const state = view.state;
  if (busy() || !state || state.outcome) return;
  game = { ...game, analysis: false, side: computerToMove(state) ? game.side : 3 - state.side_to_move };
  view.note = msg("page-side-now", { player: game.side });
  writeHash(false);
  fillSetup();
  follow(true);
}

/** The setup form's board, or null (with a message) when it is not "width x height". */
function formBoard() {
  const field = $("board-size");
  const size = field.value.replace(/\s+/g, "").replace("×", "x").toLowerCase() || "7x7";
  if (!/^\d+x\d+$/.test(size)) {
    field.setAttribute("aria-invalid", "true");
    view.note = msg("page-bad-board", { board: field.value.trim() });
    render();
    field.focus();
    return null;
  }
  field.removeAttribute("aria-invalid");
  return size;
}

/**
 * Starts a new game on `board` from `start` ("" for the board's default) with the level and
 * side of the form. A game the server refuses is not started: the game on screen stays, and
 * the page says why.
 */
function newGame(board, start) {
  if (busy()) return;
  const side = $("side").value;
  const g = {
    ...game,
    board,
    start: start || defaultStart(board),
    position: "",
    moves: [],
    level: $("level").value,
    side: side === "both" ? 0 : side === "random" ? randomSide() : Number(side),
  };
  const note = side === "random" ? msg("page-side-drawn", { player: g.side }) : null;
  goTo(g, [], { autoplay: true, refused: msg("page-game-kept"), note });
}

function newGameFromForm() {
  const board = formBoard();
  if (board) newGame(board, $("start").value.trim().toLowerCase());
}

/** The form shows the settings in force: the game's board, start, side and level. */
function fillSetup() {
  $("board-size").value = game.board;
  $("start").value = game.position ? "" : game.start;
  $("level").value = game.level;
  $("side").value = game.side === 0 ? "both" : String(game.side);
  $("analysis").checked = game.analysis;
}

/** A change of level: in force from the computer's next move. */
function changeLevel(level) {
  game = { ...game, level };
  writeHash(false);
  view.note = msg("page-level-next", { level: msg(`page-level-${level}`) });
  render();
}

/** A change of side: in force at once; the computer moves when it is now its turn. */
function changeSide(value) {
  const side = value === "both" ? 0 : value === "random" ? randomSide() : Number(value);
  game = { ...game, side };
  writeHash(false);
  fillSetup();
  view.note = side === 0
    ? msg("page-two-players")
    : msg(value === "random" ? "page-side-drawn" : "page-side-now", { player: side });
  follow(true);
}

/** Copies `text` to the clipboard, and shows it in a field to copy by hand when refused. */
async function share(text) {
  const field = $("share-text");
  field.value = text;
  field.hidden = false;
  field.setAttribute("aria-label", t("page-copy-link"));
  try {
    await navigator.clipboard.writeText(text);
    view.note = msg("page-copied");
  } catch {
    view.note = msg("page-copy-by-hand");
    field.select();
  }
  render();
}

/**
 * Loads pasted text: a position in the one-line text form ("7x7 ......./... 1"), or a list
 * of moves from the current game's start ("c3 b3 b4", commas and move numbers allowed).
 * A move list with an illegal move loads up to it and says which was dropped.
 */
async function paste(text) {
  const clean = text.trim();
  if (!clean || busy()) return;
  let g;
  if (clean.includes("/")) {
    const position = clean.split(/\s+/).join(" ");
    g = { ...game, board: position.split(" ")[0], start: "", position, moves: [], analysis: game.analysis };
  } else {
    const moves = clean.toLowerCase().split(/[\s,;]+/).filter((w) => w && !/^\d+\.+$/.test(w));
    if (!moves.length || !moves.every((m) => /^[a-z]{1,2}\d{1,2}$/.test(m))) {
      view.note = msg("page-paste-bad", { text: clean });
      render();
      return;
    }
    g = { ...game, moves };
  }
  await load(g, { push: true, autoplay: false });
}

/**
 * Shows game `g` from the address or a paste: its longest legal prefix, saying which move
 * was dropped; a game refused for another reason leaves the game on screen (if any).
 */
async function load(g, { push = false, autoplay = false } = {}) {
  const mine = ++generation;
  setBusy(true);
  render();
  let shown;
  try {
    shown = await longestLegal(g);
  } catch (error) {
    if (mine !== generation) return;
    setBusy(false);
    view.note = errorMessage(error, g);
    render();
    return;
  }
  if (mine !== generation) return;
  const old = line();
  const moves = shown.game.moves;
  future = sameSetup(shown.game) && moves.every((m, i) => m === old[i]) ? old.slice(moves.length) : [];
  const { dropped } = shown;
  await commit(shown.game, shown.state, {
    push,
    autoplay: autoplay && !dropped,
    note: dropped ? msg("page-move-dropped", dropped) : null,
  });
}

const sameSetup = (g) => g.board === game.board && g.start === game.start && g.position === game.position;

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
  for (const el of document.querySelectorAll("[data-label]")) {
    el.setAttribute("aria-label", t(el.dataset.label));
  }
  const select = $("lang");
  select.replaceChildren(
    ...languages.map(([value, name]) => new Option(name, value, false, value === lang)),
  );
  if (!$("rules").hidden) await showRules();
  render();
  document.dispatchEvent(new Event("rastros-texts"));
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
  if (event.target.closest("input, select, textarea") || puzzleOpen()) return;
  const state = view.state;
  if (!state) return;
  const target = keyTarget(event, state.snail, boardSize(state.board), game.flip);
  if (target === null) return;
  event.preventDefault();
  if (busy()) return;
  if (target === "") {
    view.note = msg("page-off-board");
    render();
    return;
  }
  play(target);
}

function startLanguage() {
  const saved = localStorage.getItem("rastros-lang");
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = wanted.slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
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
    newGameFromForm();
  });
  for (const preset of document.querySelectorAll(".presets button")) {
    preset.addEventListener("click", () => newGame(preset.dataset.board, preset.dataset.start));
  }
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("hint").addEventListener("click", hint);
  $("computer-here").addEventListener("click", computerFromHere);
  $("flip").addEventListener("click", () => {
    game = { ...game, flip: !game.flip };
    writeHash(false);
    render();
  });
  $("analysis").addEventListener("change", (e) => {
    game = { ...game, analysis: e.target.checked };
    writeHash(false);
    follow(false);
  });
  $("level").addEventListener("change", (e) => changeLevel(e.target.value));
  $("side").addEventListener("change", (e) => changeSide(e.target.value));
  $("moves").addEventListener("click", (e) => {
    const item = e.target.closest("[data-ply]");
    if (item) jump(Number(item.dataset.ply));
  });
  $("to-start").addEventListener("click", () => jump(0));
  $("pv-moves").addEventListener("click", (e) => {
    const button = e.target.closest("[data-index]");
    if (button) stepPv(Number(button.dataset.index));
  });
  $("end-new").addEventListener("click", () => newGame(game.board, game.position ? "" : game.start));
  // Review: the game from its start in analysis, its moves kept to step through.
  $("end-review").addEventListener("click", () => goTo({ ...game, analysis: true, moves: [] }, line()));
  $("copy-link").addEventListener("click", () => share(location.href));
  $("copy-position").addEventListener("click", () => view.state && share(view.state.position));
  $("paste").addEventListener("submit", (e) => {
    e.preventDefault();
    paste($("paste-text").value);
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
  // Back and Forward, or an address typed or pasted: show that game, and let the computer
  // wait (it moves again after the person's move, or with "Computer plays from here").
  window.addEventListener("hashchange", () => {
    if (puzzleOpen()) return;
    setBusy(false);
    generation++;
    const old = game;
    readHash();
    const g = game;
    game = old;
    load(g);
  });
  await setLanguage(startLanguage()).catch(() => setLanguage("en"));
  // An address opened while the texts loaded has been loaded by its `hashchange`.
  if (puzzleOpen() || generation > 0) return;
  const g = game;
  await load(g, { autoplay: true });
}

main().catch(showError);
