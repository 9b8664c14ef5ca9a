//! `rastros serve`: the web page and JSON API of Rastros (Slime Trail).
//!
//! What a user of the crate calls:
//!
//! - [`router`] builds the whole service from a [`Config`]: the page's assets (embedded in
//!   the binary) and the API (`/api/analyze`, `/api/move`, `/api/position`, `/api/rules`,
//!   `/api/texts`), with a body limit, a time limit and a log line per request (`tracing`)
//!   as layers;
//! - [`run`] makes every solver slot's table first, then serves on a listener until Ctrl-C
//!   or SIGTERM, within the connection [`Limits`];
//! - [`load_book`] reads the opening book the slots share, an [`OpeningBook`] of either
//!   word: a board of at most 64 cells (format version 1) or of 65 to 128 (version 2).
//!
//! Inside, private: the handlers (`api`), the page's files (`assets`) and texts (`texts`),
//! the solver slots, bounded in number and table memory (`slots`), the computer's answers
//! for one request (`engine`), every failure as a status code and `{"error":"..."}`
//! (`error`), and the connections (`conn`).
//!
//! The server keeps no state per game: every request carries the game.
#![deny(missing_docs)]

mod api;
mod assets;
mod conn;
mod engine;
mod error;
mod slots;
mod texts;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use rastros_core::Board;
use rastros_solver::book::word_bits;
use rastros_solver::player::Tables;
use rastros_solver::{Book, BookError, SolverConfig};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::error::ApiError;
use crate::slots::Slots;

/// Where the server looks for the 7x7 opening book when none is named.
pub const DEFAULT_BOOK: &str = "tables/7x7-d4.book";

/// How the server is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// Table memory of all solver slots together, in MiB.
    pub hash_mb: usize,
    /// Solver slots: requests solved at once (each on one thread).
    pub slots: usize,
    /// The opening book, shared by every slot.
    pub book: Option<OpeningBook>,
    /// Winner's books and solved starts ([`Tables`]), shared by every slot.
    pub tables: Arc<Tables>,
    /// Time budget of one answer; past it the strong search answers, not exact.
    pub move_time: Duration,
    /// How long a request waits for a free slot before it is refused as busy.
    pub busy_wait: Duration,
    /// Largest request body in bytes.
    pub body_limit: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            hash_mb: 256,
            slots: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            book: None,
            tables: Arc::default(),
            move_time: Duration::from_millis(2000),
            busy_wait: Duration::from_millis(2000),
            body_limit: 4096,
        }
    }
}

/// An opening book of either word, shared by every slot: the slots answer from it the
/// positions of its board, and solve those of every other board.
#[derive(Clone, Debug)]
pub enum OpeningBook {
    /// A book of a board of at most 64 cells (format version 1, 64-bit sets).
    Narrow(Arc<Book<u64>>),
    /// A book of a board of 65 to 128 cells (format version 2, 128-bit sets).
    Wide(Arc<Book<u128>>),
}

impl OpeningBook {
    /// The book's board, `WxH`.
    pub fn board_name(&self) -> String {
        match self {
            OpeningBook::Narrow(b) => b.board().to_string(),
            OpeningBook::Wide(b) => b.board().to_string(),
        }
    }

    /// The cell of the book's start position, like `d4`.
    pub fn start_name(&self) -> String {
        match self {
            OpeningBook::Narrow(b) => b.board().cell(b.start().snail()).to_string(),
            OpeningBook::Wide(b) => b.board().cell(b.start().snail()).to_string(),
        }
    }

    /// How many plies from the start the book holds every position of.
    pub fn depth(&self) -> u32 {
        match self {
            OpeningBook::Narrow(b) => b.depth(),
            OpeningBook::Wide(b) => b.depth(),
        }
    }

    /// How many positions the book holds.
    pub fn len(&self) -> usize {
        match self {
            OpeningBook::Narrow(b) => b.len(),
            OpeningBook::Wide(b) => b.len(),
        }
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the book's entries take in memory.
    pub fn memory_bytes(&self) -> usize {
        match self {
            OpeningBook::Narrow(b) => std::mem::size_of_val(b.entries()),
            OpeningBook::Wide(b) => std::mem::size_of_val(b.entries()),
        }
    }

    /// The book, when it is of the word `W` (the word of the board a request is on).
    pub(crate) fn of_word<W: rastros_core::Word>(&self) -> Option<&Arc<Book<W>>> {
        match self {
            OpeningBook::Narrow(b) => (b as &dyn std::any::Any).downcast_ref(),
            OpeningBook::Wide(b) => (b as &dyn std::any::Any).downcast_ref(),
        }
    }
}

impl From<Book<u64>> for OpeningBook {
    fn from(book: Book<u64>) -> OpeningBook {
        OpeningBook::Narrow(Arc::new(book))
    }
}

impl From<Book<u128>> for OpeningBook {
    fn from(book: Book<u128>) -> OpeningBook {
        OpeningBook::Wide(Arc::new(book))
    }
}

/// Reads an opening book: the named file (any board up to 128 cells, on the word its
/// format version names), or else the default 7x7 book when it exists. `Ok(None)` when no
/// file is named and the default is absent.
pub fn load_book(path: Option<&Path>) -> Result<Option<OpeningBook>, BookError> {
    match path {
        // A file whose word cannot be told is read as version 1, which names its error.
        Some(p) if word_bits(p).ok() == Some(128) => {
            Book::<u128>::open_with_word(p).map(|b| Some(b.into()))
        }
        Some(p) => Book::open(p).map(|b| Some(b.into())),
        None if Path::new(DEFAULT_BOOK).exists() => {
            Book::open_for(DEFAULT_BOOK, Board::standard()).map(|b| Some(b.into()))
        }
        None => Ok(None),
    }
}

/// What every handler shares.
#[derive(Debug)]
pub(crate) struct AppState {
    slots: Arc<Slots>,
    move_time: Duration,
    body_limit: usize,
}

/// A server that cannot start: its one-line message names what to change.
#[derive(Debug)]
pub enum StartError {
    /// A slot's table (or player) could not be made: `--hash-mb` is more than the machine
    /// gives.
    Tables {
        /// The slot, from 1.
        slot: usize,
        /// How many slots there are.
        slots: usize,
        /// Why.
        error: rastros_solver::player::EngineError,
    },
    /// The address could not be bound, or the runtime not started.
    Listen(std::io::Error),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Tables { slot, slots, error } => {
                write!(f, "{error} (solver slot {slot} of {slots})")
            }
            StartError::Listen(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StartError {}

/// The whole service: page, API and layers. Each slot makes its table on its first
/// request ([`run`] makes them all before it listens).
pub fn router(config: &Config) -> Router {
    router_with(config, slots(config))
}

/// [`router`], with every slot's player for the standard board made first, its table
/// allocated: a table the machine cannot give is refused here, before the server listens,
/// rather than answered 500 on every request.
fn try_router(config: &Config) -> Result<Router, StartError> {
    let slots = slots(config);
    slots
        .prepare(Board::standard())
        .map_err(|(i, error)| StartError::Tables {
            slot: i + 1,
            slots: config.slots.max(1),
            error,
        })?;
    Ok(router_with(config, slots))
}

/// The solver slots `config` asks for (each table made on first use).
fn slots(config: &Config) -> Slots {
    let slots = config.slots.max(1);
    let solver = SolverConfig {
        hash_mb: (config.hash_mb / slots).max(1),
        threads: 1,
        ..SolverConfig::default()
    };
    Slots::new(
        slots,
        solver,
        config.book.clone(),
        Arc::clone(&config.tables),
        config.busy_wait,
    )
}

fn router_with(config: &Config, slots: Slots) -> Router {
    let state = Arc::new(AppState {
        slots: Arc::new(slots),
        move_time: config.move_time,
        body_limit: config.body_limit,
    });
    // Enough for the longest wait for a slot, the budget and the strong search after it.
    let limit = config.busy_wait + config.move_time + Duration::from_secs(10);
    let body_limit = config.body_limit;
    Router::new()
        .route("/api/analyze", post(api::analyze))
        .route("/api/move", post(api::play))
        .route("/api/position", post(api::position))
        .route("/api/rules", get(api::rules))
        .route("/api/texts", get(api::page_texts))
        .merge(assets::routes())
        .fallback(not_found)
        .with_state(state)
        .layer(RequestBodyLimitLayer::new(config.body_limit))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limit,
        ))
        .layer(middleware::from_fn(move |req, next| {
            json_errors(req, next, body_limit)
        }))
        .layer(middleware::from_fn(security_headers))
        // One log line per request; failures are not logged twice (the status says them).
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(request_span)
                .on_request(())
                .on_response(request_answered)
                .on_body_chunk(())
                .on_eos(())
                .on_failure(()),
        )
}

/// The span of one request for the log: its method and path (not the query string).
fn request_span(req: &Request) -> tracing::Span {
    tracing::info_span!("request", method = %req.method(), path = %req.uri().path())
}

/// The log's line for one request, at INFO when the answer's head is ready, inside
/// [`request_span`]: `request{method=GET path=/api/rules}: answered status=200 ms=3`.
fn request_answered(res: &Response, took: Duration, _: &tracing::Span) {
    tracing::info!(
        status = res.status().as_u16(),
        ms = took.as_millis(),
        "answered"
    );
}

/// Headers for every answer: media types are not guessed, the page runs only its own files
/// (no inline script, no other origin) and is not framed, and no referrer leaves it.
async fn security_headers(req: Request, next: Next) -> Response {
    let mut response = next.run(req).await;
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        header::HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        header::HeaderValue::from_static(
            "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ),
    );
    headers.insert(
        header::REFERRER_POLICY,
        header::HeaderValue::from_static("no-referrer"),
    );
    response
}

async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::NotFound(uri.path().to_string())
}

/// Answers that the layers or axum make (413, 408, 405, ...) get the API's JSON error body.
async fn json_errors(req: Request, next: Next, body_limit: usize) -> Response {
    let response = next.run(req).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let error = match status {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge(body_limit),
        StatusCode::REQUEST_TIMEOUT => ApiError::Timeout,
        _ => {
            // axum's own rejections (a bad query string, say) say why in a short text body.
            let reason = status.canonical_reason().unwrap_or("error").to_lowercase();
            let (parts, body) = response.into_parts();
            let why = axum::body::to_bytes(body, 1024).await.unwrap_or_default();
            let why = String::from_utf8_lossy(&why);
            let why = why.lines().next().unwrap_or("").trim();
            let message = if why.is_empty() {
                reason
            } else {
                format!("{reason}: {why}")
            };
            let mut answer =
                (status, axum::Json(serde_json::json!({ "error": message }))).into_response();
            // Keep what the rejection said besides (`Allow` on a 405, say).
            for (name, value) in parts.headers.iter() {
                if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
                    answer.headers_mut().insert(name, value.clone());
                }
            }
            return answer;
        }
    };
    error.into_response()
}

/// Makes the service (every slot's table allocated first), binds `listen`, calls
/// `ready` with the address bound (the real port when `listen` asks for port 0), and serves
/// until Ctrl-C or SIGTERM within `limits`, on a runtime of its own. Nothing listens
/// unless every table could be made.
pub fn run(
    listen: std::net::SocketAddr,
    config: &Config,
    limits: Limits,
    ready: impl FnOnce(std::net::SocketAddr),
) -> Result<(), StartError> {
    let router = try_router(config)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(StartError::Listen)?;
    runtime.block_on(async {
        // The signals are caught from before the first client can connect.
        let stop = conn::stop_signal().map_err(StartError::Listen)?;
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(StartError::Listen)?;
        ready(listener.local_addr().map_err(StartError::Listen)?);
        conn::serve_until(listener, router, limits, stop)
            .await
            .map_err(StartError::Listen)
    })
}

/// Limits of the connections themselves (each request's own limits are layers of the
/// [`router`]).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// How long a client may take to send a request's headers, or to start the next
    /// request on a kept-alive connection, before its connection is closed (hyper's header
    /// read timeout): a client that never finishes them holds no connection for long.
    pub header_read: Duration,
    /// How long writing an answer may make no progress before the connection is closed: a
    /// client that sends requests (pipelined, say) and never reads the answers holds its
    /// connection no longer than this once the socket's buffers are full.
    pub write_stall: Duration,
    /// Connections served at once. At the cap the server accepts no more until one ends;
    /// new clients wait in the system's listen queue. Each connection is one file
    /// descriptor and at most a few hundred KiB of buffers.
    pub max_connections: usize,
    /// How long the requests under way may take to finish after the stop signal.
    pub shutdown_grace: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_read: Duration::from_secs(10),
            write_stall: Duration::from_secs(10),
            max_connections: 256,
            shutdown_grace: Duration::from_secs(10),
        }
    }
}
