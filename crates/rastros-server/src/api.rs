//! The JSON API: request and answer types and the handlers.
//!
//! Every request carries the whole game (board, start cell, moves), so the server keeps no
//! state between requests.

use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Query, State};
use axum::Json;
use rastros_core::{
    parse_board_with, AnyBoardSize, Board, Cell, EndReason, Outcome, Position, Word,
};
use rastros_solver::player::{EngineError, Level, PositionAnalysis};
use rastros_solver::terminal_score;
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::texts::{self, Lang};
use crate::AppState;

/// The game of a request: `{"board":"7x7","start":"d4","moves":["c3","b3"]}`, board and start
/// optional (7x7, the centre).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    /// Board size `WxH`.
    pub board: Option<String>,
    /// Start cell of the snail.
    pub start: Option<String>,
    /// A position in the one-line text form to start from instead of `start` (with its
    /// slime and side to move), e.g. `"5x5 ...../...../..x../.o.../..... 2"`.
    pub position: Option<String>,
    /// Moves played from the start, as cell names.
    #[serde(default)]
    pub moves: Vec<String>,
}

impl GameRequest {
    /// The game of the request, checked ([`Game::parse_from`]), in the word its board fits:
    /// boards of at most 64 cells on `u64`, of 65 to 128 on `u128`.
    pub fn game(&self) -> Result<AnyGame, ApiError> {
        let (board, start, position) = (
            self.board.as_deref(),
            self.start.as_deref(),
            self.position.as_deref(),
        );
        Ok(if is_wide(board, position)? {
            AnyGame::Wide(Game::parse_from(board, start, position, &self.moves)?)
        } else {
            AnyGame::Narrow(Game::parse_from(board, start, position, &self.moves)?)
        })
    }
}

/// Whether the request's board (named, or else the position's) has more than 64 cells; a
/// board over 128 cells is refused here, naming the limit.
fn is_wide(board: Option<&str>, position: Option<&str>) -> Result<bool, ApiError> {
    let (field, size) = match (board, position) {
        (Some(text), _) => ("board", text),
        (None, Some(text)) => ("position", text.split_whitespace().next().unwrap_or("")),
        (None, None) => return Ok(false),
    };
    match size.parse::<AnyBoardSize>() {
        Ok(size) => Ok(matches!(size, AnyBoardSize::Wide(_))),
        // A position's other mistakes get the position parser's own message.
        Err(_) if field == "position" && !size.contains('x') => Ok(false),
        Err(e) => Err(ApiError::BadRequest(format!("{field}: {e}"))),
    }
}

/// A checked game in the word of its board.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// A board of at most 64 cells.
    Narrow(Game<u64>),
    /// A board of 65 to 128 cells.
    Wide(Game<u128>),
}

impl AnyGame {
    /// The position's state for drawing.
    pub fn state(&self) -> PositionState {
        match self {
            AnyGame::Narrow(g) => g.state(),
            AnyGame::Wide(g) => g.state(),
        }
    }
}

/// A game and the computer's level: `/api/move`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// Board size `WxH`.
    pub board: Option<String>,
    /// Start cell of the snail.
    pub start: Option<String>,
    /// A position in the one-line text form to start from instead of `start` (with its
    /// slime and side to move), e.g. `"5x5 ...../...../..x../.o.../..... 2"`.
    pub position: Option<String>,
    /// Moves played from the start, as cell names.
    #[serde(default)]
    pub moves: Vec<String>,
    /// `perfect` (default), `strong` or `easy`.
    pub level: Option<String>,
    /// Seed of the computer's random choices (default: from the clock).
    pub seed: Option<u64>,
}

/// A game checked move by move, on a board of the word `W`.
#[derive(Clone, Debug)]
pub struct Game<W: Word = u64> {
    /// The start position.
    pub start: Position<W>,
    /// The moves played, as cell indices.
    pub moves: Vec<u8>,
    /// The position after the moves.
    pub pos: Position<W>,
}

impl<W: Word> Game<W> {
    /// Checks a game: board, start cell (or a start `position` in the one-line text form:
    /// the game then goes on from it; its board must be `board` when both are given, and
    /// `start` must be absent) and every move, naming the first problem.
    pub fn parse_from(
        board: Option<&str>,
        start: Option<&str>,
        position: Option<&str>,
        moves: &[String],
    ) -> Result<Game<W>, ApiError> {
        let bad = ApiError::BadRequest;
        let named = board.is_some();
        let standard = Board::standard().to_string();
        let board: &'static Board<W> =
            parse_board_with(board.unwrap_or(&standard)).map_err(|e| bad(format!("board: {e}")))?;
        let start = match (start, position) {
            (Some(_), Some(_)) => {
                return Err(bad(
                    "start: give a start cell or a position, not both".into()
                ))
            }
            (_, Some(text)) => {
                let pos: Position<W> = text.parse().map_err(|e| bad(format!("position: {e}")))?;
                if named && pos.board() != board {
                    return Err(bad(format!(
                        "position: its board is {}, not {board}",
                        pos.board()
                    )));
                }
                pos
            }
            (None, None) => Position::centre(board).map_err(|e| bad(format!("start: {e}")))?,
            (Some(text), None) => {
                let cell: Cell = text.parse().map_err(|e| bad(format!("start: {e}")))?;
                Position::start(board, cell).map_err(|e| bad(format!("start: {e}")))?
            }
        };
        let board = start.board();
        let most = start.free().len() as usize;
        if moves.len() > most {
            return Err(bad(format!(
                "too many moves: {} (a {board} game has at most {most})",
                moves.len()
            )));
        }
        let mut pos = start;
        let mut played = Vec::with_capacity(moves.len());
        for (i, token) in moves.iter().enumerate() {
            let problem = |e: String| bad(format!("move {} '{token}': {e}", i + 1));
            let cell: Cell = token.parse().map_err(|e| problem(format!("{e}")))?;
            pos = pos.play(cell).map_err(|e| problem(format!("{e}")))?;
            played.push(pos.snail());
        }
        Ok(Game {
            start,
            moves: played,
            pos,
        })
    }

    fn name(&self, cell: u8) -> String {
        self.pos.board().cell(cell).to_string()
    }

    fn names(&self, cells: impl IntoIterator<Item = u8>) -> Vec<String> {
        cells.into_iter().map(|c| self.name(c)).collect()
    }

    /// The position's state for drawing.
    pub fn state(&self) -> PositionState {
        let pos = &self.pos;
        PositionState {
            board: pos.board().to_string(),
            start: self.name(self.start.snail()),
            played: self.names(self.moves.iter().copied()),
            position: pos.to_string(),
            side_to_move: pos.side_to_move().number(),
            outcome: OutcomeJson::of(pos.outcome()),
            snail: self.name(pos.snail()),
            slime: self.names(pos.slime()),
            legal_moves: self.names(pos.legal_moves()),
        }
    }
}

/// Who won and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeJson {
    /// 1 or 2.
    pub winner: u8,
    /// `"goal"` (the snail reached the winner's goal) or `"no_move"` (the loser was stuck).
    pub reason: String,
}

impl OutcomeJson {
    fn of(outcome: Outcome) -> Option<OutcomeJson> {
        match outcome {
            Outcome::InProgress => None,
            Outcome::Won { winner, reason } => Some(OutcomeJson {
                winner: winner.number(),
                reason: match reason {
                    EndReason::GoalReached => "goal",
                    EndReason::NoMove => "no_move",
                }
                .into(),
            }),
        }
    }
}

/// A position as the page draws it: `/api/position`, and part of the other answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionState {
    /// Board size `WxH`.
    pub board: String,
    /// The start cell.
    pub start: String,
    /// The moves played.
    pub played: Vec<String>,
    /// The one-line text form of the position.
    pub position: String,
    /// 1 or 2.
    pub side_to_move: u8,
    /// `null` while the game goes on.
    pub outcome: Option<OutcomeJson>,
    /// The snail's cell.
    pub snail: String,
    /// The slimed cells.
    pub slime: Vec<String>,
    /// Where the snail may move (empty when the game is over).
    pub legal_moves: Vec<String>,
}

/// One legal move judged, for the side that plays it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveJson {
    /// The cell moved to.
    #[serde(rename = "move")]
    pub cell: String,
    /// `"win"` or `"loss"`; `null` when not exact.
    pub value: Option<String>,
    /// Plies to the end, this move included; `null` when not exact.
    pub dte: Option<u32>,
}

/// The answer of `/api/analyze`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalyzeResponse {
    /// The one-line text form of the position.
    pub position: String,
    /// 1 or 2.
    pub side_to_move: u8,
    /// `null` while the game goes on.
    pub outcome: Option<OutcomeJson>,
    /// `"win"` or `"loss"` for the side to move; `null` when not exact.
    pub value: Option<String>,
    /// Plies to the end under best play; `null` when not exact.
    pub dte: Option<u32>,
    /// Whether the values are exact.
    pub exact: bool,
    /// The optimal moves (or the strong search's best ones when not exact).
    pub best_moves: Vec<String>,
    /// Every legal move judged.
    pub moves: Vec<MoveJson>,
    /// The principal variation: the lowest optimal move, then the principal variation of
    /// the position it reaches, to the end of the game (`dte` moves when complete); empty
    /// for a finished game or an answer that is not exact.
    pub pv: Vec<String>,
    /// Whether `pv` reaches the end of the game: `false` when the time budget ran out on
    /// the way (the line then stops at the last position answered exactly).
    pub pv_complete: bool,
}

/// The answer of `/api/move`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveResponse {
    /// The computer's move.
    #[serde(rename = "move")]
    pub cell: String,
    /// The level that chose it.
    pub level: String,
    /// Whether the choice rests on exact values (false: the time budget ran out).
    pub exact: bool,
    /// The position after the move.
    #[serde(flatten)]
    pub after: PositionState,
}

/// The answer of `/api/rules`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesResponse {
    /// The language code.
    pub lang: String,
    /// The rules, several lines.
    pub rules: String,
}

/// `?lang=xx`.
#[derive(Debug, Deserialize)]
pub struct LangQuery {
    lang: Option<String>,
}

fn parse_json<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
    limit: usize,
) -> Result<T, ApiError> {
    let body = body.map_err(|e| {
        if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(limit)
        } else {
            ApiError::BadRequest(format!("cannot read the request body: {e}"))
        }
    })?;
    let invalid = |e: serde_json::Error| ApiError::BadRequest(format!("invalid JSON: {e}"));
    // serde reads a struct from an array too (`["5x5","c3",[]]`), and names the struct in
    // its error for `null` or a number: a body that is JSON but not an object gets its own
    // message.
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        serde_json::from_slice::<serde::de::IgnoredAny>(&body).map_err(invalid)?;
        return Err(ApiError::BadRequest(NOT_AN_OBJECT.into()));
    }
    serde_json::from_slice(&body).map_err(invalid)
}

/// The answer to a body that is JSON but not an object.
const NOT_AN_OBJECT: &str =
    "the body must be a JSON object, like {\"board\":\"7x7\",\"start\":\"d4\",\"moves\":[\"c3\"]}";

/// `POST /api/position`: the position of a game, its legal moves and outcome (no solving).
pub async fn position(
    State(state): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<PositionState>, ApiError> {
    let req: GameRequest = parse_json(body, state.body_limit)?;
    let game = req.game()?;
    Ok(Json(game.state()))
}

/// `POST /api/analyze`: the value and DTE of the position and of every legal move.
pub async fn analyze(
    State(state): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<AnalyzeResponse>, ApiError> {
    let deadline = Instant::now() + state.move_time;
    let req: GameRequest = parse_json(body, state.body_limit)?;
    match req.game()? {
        AnyGame::Narrow(game) => analyze_game(&state, game, deadline).await,
        AnyGame::Wide(game) => analyze_game(&state, game, deadline).await,
    }
}

/// [`analyze`] of a game in the word of its board.
async fn analyze_game<W: Word>(
    state: &Arc<AppState>,
    game: Game<W>,
    deadline: Instant,
) -> Result<Json<AnalyzeResponse>, ApiError> {
    let pos = game.pos;
    let (a, (pv, pv_complete)): (PositionAnalysis, (Vec<u8>, bool)) = match terminal_score(&pos) {
        // A finished game: the side to move has won or lost, and there is no move.
        Some(score) => (
            PositionAnalysis {
                value: Some(score.value),
                dte: Some(0),
                exact: true,
                best_moves: Vec::new(),
                moves: Vec::new(),
            },
            (Vec::new(), true),
        ),
        None => state
            .slots
            .run(pos.board(), move |engine| {
                let a = engine.analyze(&pos, Some(deadline))?;
                let line = if a.exact {
                    engine.principal_variation(&pos, Some(deadline))?
                } else {
                    (Vec::new(), false)
                };
                Ok((a, line))
            })
            .await?
            .map_err(engine_error)?,
    };
    Ok(Json(AnalyzeResponse {
        position: pos.to_string(),
        side_to_move: pos.side_to_move().number(),
        outcome: OutcomeJson::of(pos.outcome()),
        value: a.value.map(|v| v.as_str().to_string()),
        dte: a.dte,
        exact: a.exact,
        best_moves: a.best_moves.iter().map(|c| c.to_string()).collect(),
        moves: a
            .moves
            .iter()
            .map(|m| MoveJson {
                cell: m.cell.to_string(),
                value: m.value.map(|v| v.as_str().to_string()),
                dte: m.dte,
            })
            .collect(),
        pv: game.names(pv),
        pv_complete,
    }))
}

/// `POST /api/move`: the computer's move at a level, and the position after it.
pub async fn play(
    State(state): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<MoveResponse>, ApiError> {
    let deadline = Instant::now() + state.move_time;
    let MoveRequest {
        board,
        start,
        position,
        moves,
        level,
        seed,
    } = parse_json(body, state.body_limit)?;
    let level: Level = match level.as_deref() {
        None => Level::Perfect,
        Some(text) => text
            .parse()
            .map_err(|e| ApiError::BadRequest(format!("level: {e}")))?,
    };
    let game = GameRequest {
        board,
        start,
        position,
        moves,
    }
    .game()?;
    let seed = seed.unwrap_or_else(clock_seed);
    match game {
        AnyGame::Narrow(game) => play_game(&state, game, level, seed, deadline).await,
        AnyGame::Wide(game) => play_game(&state, game, level, seed, deadline).await,
    }
}

/// [`play`] in a game in the word of its board.
async fn play_game<W: Word>(
    state: &Arc<AppState>,
    game: Game<W>,
    level: Level,
    seed: u64,
    deadline: Instant,
) -> Result<Json<MoveResponse>, ApiError> {
    if let outcome @ Outcome::Won { .. } = game.pos.outcome() {
        return Err(ApiError::BadRequest(format!("the game is over: {outcome}")));
    }
    let pos = game.pos;
    let choice = state
        .slots
        .run(pos.board(), move |engine| {
            engine.choose(&pos, level, seed, Some(deadline))
        })
        .await?
        .map_err(engine_error)?;
    let mut after = game.clone();
    after.pos = pos
        .play(choice.cell)
        .map_err(|e| ApiError::Internal(format!("the engine chose an illegal move: {e}")))?;
    after.moves.push(after.pos.snail());
    Ok(Json(MoveResponse {
        cell: choice.cell.to_string(),
        level: level.to_string(),
        exact: choice.exact,
        after: after.state(),
    }))
}

/// `GET /api/rules?lang=it`: the rules in a language (default English).
pub async fn rules(Query(q): Query<LangQuery>) -> Result<Json<RulesResponse>, ApiError> {
    let lang = parse_lang(q.lang.as_deref())?;
    Ok(Json(RulesResponse {
        lang: lang.to_string(),
        rules: texts::rules(lang),
    }))
}

/// `GET /api/texts?lang=it`: every text of the page in a language (default English).
pub async fn page_texts(Query(q): Query<LangQuery>) -> Result<Json<serde_json::Value>, ApiError> {
    let lang = parse_lang(q.lang.as_deref())?;
    Ok(Json(serde_json::json!({
        "lang": lang.to_string(),
        "languages": texts::languages(),
        "texts": texts::page(lang),
    })))
}

/// A player's failure: a finished game is the client's mistake, the rest the server's.
fn engine_error(e: EngineError) -> ApiError {
    match e {
        EngineError::GameOver(outcome) => {
            ApiError::BadRequest(format!("the game is over: {outcome}"))
        }
        e => ApiError::Internal(e.to_string()),
    }
}

fn parse_lang(text: Option<&str>) -> Result<Lang, ApiError> {
    match text {
        None => Ok(Lang::En),
        Some(t) => t
            .parse()
            .map_err(|e| ApiError::BadRequest(format!("lang: {e}"))),
    }
}

/// A seed from the clock, for requests that name none.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}
