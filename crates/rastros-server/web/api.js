// The JSON API of `rastros serve`. Every call carries the whole game.

/** An answer of the server that is an error: its status and message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** POSTs `body` as JSON to `path`; retries a few times while the server says it is busy. */
async function post(path, body, onBusy) {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({ error: response.statusText }));
    if (response.ok) return answer;
    if (response.status === 503 && attempt < 5) {
      if (onBusy) onBusy();
      const wait = Number(response.headers.get("Retry-After") || "1");
      await sleep(1000 * Math.min(Math.max(wait, 1), 10));
      continue;
    }
    throw new ApiError(response.status, answer.error || response.statusText);
  }
}

async function get(path) {
  const response = await fetch(path);
  const answer = await response.json();
  if (!response.ok) throw new ApiError(response.status, answer.error);
  return answer;
}

/** The game as the API takes it: from a start cell, or from a pasted position. */
const gameBody = (game) => ({
  board: game.board,
  start: game.position ? undefined : game.start || undefined,
  position: game.position || undefined,
  moves: game.moves,
});

/** The position of a game: snail, slime, legal moves, side to move and outcome. */
export const position = (game) => post("/api/position", gameBody(game));

/** Every legal move judged: value and distance to the end, and the best line (`pv`). */
export const analyze = (game, onBusy) => post("/api/analyze", gameBody(game), onBusy);

/** The computer's move at `level`. */
export const move = (game, level, onBusy) =>
  post("/api/move", { ...gameBody(game), level }, onBusy);

/** The rules in a language. */
export const rules = (lang) => get(`/api/rules?lang=${encodeURIComponent(lang)}`);

/** The page's texts in a language, and the list of languages. */
export const texts = (lang) => get(`/api/texts?lang=${encodeURIComponent(lang)}`);
