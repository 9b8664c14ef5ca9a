// The Puzzles mode: positions where exactly one move wins (tables/puzzles.json, served as
// /puzzles.json and fetched the first time the mode opens). The person plays the winning
// side against the server's perfect level; any winning move is accepted, a slower one is
// told so, a losing one is refuted by playing its line out. The address is #puzzle=ID;
// progress and filters are kept in localStorage.

import * as api from "./api.js";
import { boardSize, drawBoard, keyTarget } from "./board.js";
import { t } from "./app.js";

const $ = (id) => document.getElementById(id);
const PROGRESS = "rastros-puzzles";
const FILTERS = "rastros-puzzle-filters";

/** A message kept on screen: its key and arguments, translated when drawn. */
const msg = (key, args = {}) => ({ key, args });
const say = (m) => (m ? t(m.key, m.args) : "");

let puzzles = null;
let loading = null;
// The puzzle on screen: the puzzle, the moves from its start, the server's position, the
// analysis asked for ahead of the person's move, and what is said about it.
let current = null;
let generation = 0;
let note = null;
let gameHash = "";

const hashId = () =>
  location.hash.startsWith("#puzzle=") ? decodeURIComponent(location.hash.slice(8)) : null;

function stored(key) {
  try {
    return JSON.parse(localStorage.getItem(key)) || {};
  } catch {
    return {};
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // A browser that keeps nothing (private mode, full storage) still plays the puzzles.
  }
}

/** Remembers how a puzzle went: once solved it stays solved. */
function record(id, result) {
  const progress = stored(PROGRESS);
  if (progress[id] !== "solved") progress[id] = result;
  store(PROGRESS, progress);
}

const boardKey = (p) => `${p.board} ${p.start}`;

/** The puzzles the filters let through, in file order. */
function filtered() {
  const { board = "", difficulty = "" } = stored(FILTERS);
  return (puzzles || []).filter(
    (p) => (!board || boardKey(p) === board) && (!difficulty || String(p.difficulty) === difficulty),
  );
}

async function load() {
  if (puzzles) return puzzles;
  loading ||= fetch("/puzzles.json").then(async (response) => {
    if (!response.ok) throw new api.ApiError(response.status, response.statusText);
    return (await response.json()).puzzles;
  });
  try {
    puzzles = await loading;
  } finally {
    loading = null;
  }
  fillFilters();
  return puzzles;
}

/** The filter menus: every board and start, every difficulty, as the list has them. */
function fillFilters() {
  if (!puzzles) return;
  const { board = "", difficulty = "" } = stored(FILTERS);
  const boards = [...new Set(puzzles.map(boardKey))];
  const levels = [...new Set(puzzles.map((p) => p.difficulty))].sort((a, b) => a - b);
  $("puzzle-board-filter").replaceChildren(
    new Option(t("page-puzzle-all-boards"), ""),
    ...boards.map((key) => {
      const [b, s] = key.split(" ");
      return new Option(t("page-puzzle-board-start", { board: b, start: s }), key);
    }),
  );
  $("puzzle-difficulty-filter").replaceChildren(
    new Option(t("page-puzzle-all-difficulties"), ""),
    ...levels.map((level) => new Option(String(level), String(level))),
  );
  // A filter kept from an older list that names nothing in this one is dropped.
  const kept = {
    board: boards.includes(board) ? board : "",
    difficulty: levels.map(String).includes(difficulty) ? difficulty : "",
  };
  store(FILTERS, kept);
  $("puzzle-board-filter").value = kept.board;
  $("puzzle-difficulty-filter").value = kept.difficulty;
}

/** Opens the mode on the puzzle of the address ("" for the first unsolved one). */
async function open(id) {
  $("game").hidden = true;
  $("puzzle").hidden = false;
  const mine = ++generation;
  if (!puzzles) {
    note = msg("page-puzzle-loading");
    render();
  }
  try {
    await load();
  } catch (error) {
    if (mine === generation) {
      note = msg("page-error", { message: error.message });
      render();
    }
    return;
  }
  if (mine !== generation) return;
  note = null;
  if (!id) {
    const list = filtered();
    const progress = stored(PROGRESS);
    const first = list.find((p) => progress[p.id] !== "solved") || list[0] || puzzles[0];
    history.replaceState(null, "", `#puzzle=${encodeURIComponent(first.id)}`);
    id = first.id;
  }
  const puzzle = puzzles.find((p) => p.id === id);
  if (!puzzle) {
    current = null;
    note = msg("page-puzzle-unknown", { id });
    render();
    return;
  }
  await begin(puzzle, mine);
}

function close() {
  generation++;
  current = null;
  $("puzzle").hidden = true;
  $("game").hidden = false;
}

const gameOf = () => ({ board: current.puzzle.board, start: current.puzzle.start, moves: current.moves });

/** Starts (or restarts) `puzzle`: its position, and the analysis for the person's move. */
async function begin(puzzle, mine = ++generation) {
  current = {
    puzzle,
    moves: [...puzzle.moves],
    side: puzzle.side_to_move,
    state: null,
    result: "solving",
    slow: false,
    busy: true,
    analysis: null,
    said: null,
  };
  note = null;
  render();
  try {
    const state = await api.position(gameOf());
    if (mine !== generation) return;
    current.busy = false;
    await shown(state, mine);
  } catch (error) {
    failure(error, mine);
  }
}

/** Draws `state`; on the person's turn asks ahead for the verdict on every move. */
function shown(state, mine) {
  current.state = state;
  current.analysis = null;
  if (!state.outcome && state.side_to_move === current.side) {
    current.analysis = api.analyze(gameOf());
    current.analysis.catch(() => {});
  }
  if (mine === generation) render();
}

function failure(error, mine) {
  if (mine !== generation || !current) return;
  current.busy = false;
  note = msg("page-error", { message: error.message });
  render();
}

const yours = () =>
  current && current.state && !current.busy && current.result === "solving" &&
  !current.state.outcome && current.state.side_to_move === current.side;

/** The person moves to `cell`: judged by the analysis, then answered or refuted. */
async function play(cell) {
  if (!yours()) return;
  const state = current.state;
  if (!state.legal_moves.includes(cell)) {
    note = msg("page-illegal", { cell });
    render();
    return;
  }
  const mine = generation;
  current.busy = true;
  note = null;
  render();
  try {
    const a = await current.analysis;
    if (mine !== generation) return;
    const verdict = a.moves.find((m) => m.move === cell);
    if (!a.exact || !verdict || !verdict.value) {
      current.busy = false;
      note = msg("page-not-exact");
      render();
      return;
    }
    current.moves.push(cell);
    if (verdict.value === "loss") {
      current.result = "failed";
      record(current.puzzle.id, "failed");
      await refute(cell, mine);
      return;
    }
    current.said = verdict.dte > a.dte
      ? msg("page-puzzle-slow", { cell, n: verdict.dte, best: a.dte })
      : msg("page-puzzle-good", { cell });
    if (verdict.dte > a.dte) current.slow = true;
    let after = await api.position(gameOf());
    if (mine !== generation) return;
    if (!after.outcome) {
      current.state = after;
      render();
      after = await api.move(gameOf(), "perfect");
      if (mine !== generation) return;
      current.moves.push(after.move);
    }
    if (after.outcome) {
      current.result = after.outcome.winner === current.side ? "solved" : "failed";
      record(current.puzzle.id, current.result);
    }
    current.busy = false;
    shown(after, mine);
  } catch (error) {
    failure(error, mine);
  }
}

/** Plays the perfect line after the losing move `cell` to the end, showing each move. */
async function refute(cell, mine) {
  const line = [];
  let state = await api.position(gameOf());
  while (!state.outcome && mine === generation) {
    current.state = state;
    current.said = msg("page-puzzle-loses", { cell, line: line.join(" ") || "…" });
    render();
    state = await api.move(gameOf(), "perfect");
    if (mine !== generation) return;
    current.moves.push(state.move);
    line.push(state.move);
  }
  if (mine !== generation) return;
  current.said = line.length
    ? msg("page-puzzle-loses", { cell, line: line.join(" ") })
    : msg("page-puzzle-loses-goal", { cell });
  current.busy = false;
  shown(state, mine);
}

/** Goes `step` puzzles on (1) or back (-1) in the filtered list, round the ends. */
function go(step) {
  const list = filtered();
  if (!list.length) {
    note = msg("page-puzzle-none");
    render();
    return;
  }
  const at = current ? list.findIndex((p) => p.id === current.puzzle.id) : -1;
  const next = at < 0 ? (step > 0 ? 0 : list.length - 1) : (at + step + list.length) % list.length;
  location.hash = `#puzzle=${encodeURIComponent(list[next].id)}`;
}

/** The cells the defender's last move went from and to, to mark on the board. */
function defenderMove() {
  const { moves, puzzle } = current;
  const n = moves.length;
  if (n <= puzzle.moves.length || (n - puzzle.moves.length) % 2 === 1) return [];
  return [moves[n - 2], moves[n - 1]];
}

function render() {
  const root = $("puzzle");
  if (root.hidden) return;
  root.dataset.id = current ? current.puzzle.id : "";
  root.dataset.state = current ? current.result : "";
  root.dataset.busy = current && current.busy ? "true" : "false";
  const list = filtered();
  const progress = stored(PROGRESS);
  $("puzzle-progress").textContent = puzzles
    ? t("page-puzzle-progress", {
      solved: list.filter((p) => progress[p.id] === "solved").length,
      count: list.length,
    })
    : "";
  const board = $("puzzle-board");
  if (!current || !current.state) {
    $("puzzle-heading").textContent = "";
    $("puzzle-task").textContent = "";
    $("puzzle-said").textContent = "";
    $("puzzle-note").textContent = say(note);
    board.replaceChildren();
    $("puzzle-retry").disabled = true;
    return;
  }
  const p = current.puzzle;
  const at = list.findIndex((q) => q.id === p.id);
  const heading = t("page-puzzle-heading", {
    n: at < 0 ? "–" : at + 1,
    count: list.length,
    board: p.board,
    start: p.start,
    difficulty: p.difficulty,
  });
  $("puzzle-heading").textContent =
    progress[p.id] === "solved" ? `${heading} (${t("page-puzzle-done")})` : heading;
  $("puzzle-task").textContent = t("page-puzzle-task", { player: current.side, n: p.dte });
  const end = {
    solved: current.slow ? "page-puzzle-solved-slow" : "page-puzzle-solved",
    failed: "page-puzzle-failed",
  }[current.result];
  $("puzzle-said").textContent = [say(current.said), end ? t(end) : ""].filter(Boolean).join(" ");
  $("puzzle-note").textContent = say(note);
  $("puzzle-retry").disabled = current.busy;
  drawBoard(board, current.state, { last: defenderMove(), yours: yours(), t, onCell: play });
  $("puzzle-moves").replaceChildren(
    ...current.moves.slice(p.moves.length).map((cell, i) => {
      const item = document.createElement("li");
      item.textContent = cell;
      item.dataset.player = String(((p.moves.length + i) % 2) + 1);
      return item;
    }),
  );
}

function onHash() {
  const id = hashId();
  if (id !== null) open(id);
  else if (!$("puzzle").hidden) close();
}

function main() {
  $("puzzles-button").addEventListener("click", () => {
    if (hashId() !== null) return;
    gameHash = location.hash;
    location.hash = "#puzzle=";
  });
  $("puzzle-back").addEventListener("click", () => {
    location.hash = gameHash || "#";
  });
  $("puzzle-previous").addEventListener("click", () => go(-1));
  $("puzzle-next").addEventListener("click", () => go(1));
  $("puzzle-retry").addEventListener("click", () => current && !current.busy && begin(current.puzzle));
  for (const [id, field] of [["puzzle-board-filter", "board"], ["puzzle-difficulty-filter", "difficulty"]]) {
    $(id).addEventListener("change", (e) => {
      store(FILTERS, { ...stored(FILTERS), [field]: e.target.value });
      const list = filtered();
      if (current && !list.some((p) => p.id === current.puzzle.id) && list.length) go(1);
      else render();
    });
  }
  document.addEventListener("keydown", (event) => {
    if ($("puzzle").hidden || !$("rules").hidden || !current || !current.state) return;
    if (event.target.closest("input, select, textarea")) return;
    const target = keyTarget(event, current.state.snail, boardSize(current.state.board));
    if (target === null) return;
    event.preventDefault();
    // A step off the board ("") is no move.
    if (target) play(target);
  });
  document.addEventListener("rastros-texts", () => {
    fillFilters();
    render();
  });
  window.addEventListener("hashchange", onHash);
  onHash();
}

main();
