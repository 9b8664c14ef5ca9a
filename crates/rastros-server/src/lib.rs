//! `rastros serve`: the web page and JSON API of Rastros (Slime Trail).
//!
//! - [`router`] builds the whole service from a [`Config`]: the page's assets (embedded in
//!   the binary) and the API (`/api/analyze`, `/api/move`, `/api/position`, `/api/rules`,
//!   `/api/texts`), with a body limit and a time limit as layers;
//! - [`serve`] runs it on a listener until Ctrl-C;
//! - [`slots`]: the solver slots, bounded in number and table memory;
//! - [`engine`]: the computer's answers for one request;
//! - [`error`]: every failure as a status code and `{"error":"..."}`.
//!
//! The server keeps no state per game: every request carries the game.
#![deny(missing_docs)]

pub mod api;
pub mod assets;
pub mod engine;
pub mod error;
pub mod slots;
pub mod texts;

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
use rastros_solver::{Book, BookError, SolverConfig};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

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
    pub book: Option<Arc<Book>>,
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
            move_time: Duration::from_millis(2000),
            busy_wait: Duration::from_millis(2000),
            body_limit: 4096,
        }
    }
}

/// Reads an opening book: the named file (any board), or else the default 7x7 book when it
/// exists. `Ok(None)` when no file is named and the default is absent.
pub fn load_book(path: Option<&Path>) -> Result<Option<Book>, BookError> {
    match path {
        Some(p) => Book::open(p).map(Some),
        None if Path::new(DEFAULT_BOOK).exists() => {
            Book::open_for(DEFAULT_BOOK, Board::standard()).map(Some)
        }
        None => Ok(None),
    }
}

/// What every handler shares.
#[derive(Debug)]
pub struct AppState {
    slots: Arc<Slots>,
    move_time: Duration,
    body_limit: usize,
}

/// The whole service: page, API and layers.
pub fn router(config: &Config) -> Router {
    let slots = config.slots.max(1);
    let solver = SolverConfig {
        hash_mb: (config.hash_mb / slots).max(1),
        threads: 1,
        ..SolverConfig::default()
    };
    let state = Arc::new(AppState {
        slots: Arc::new(Slots::new(
            slots,
            solver,
            config.book.clone(),
            config.busy_wait,
        )),
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

/// Binds `listen`, calls `ready` with the address bound (the real port when `listen` asks
/// for port 0), and serves `config`'s router until Ctrl-C, on a runtime of its own.
pub fn run(
    listen: std::net::SocketAddr,
    config: &Config,
    ready: impl FnOnce(std::net::SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(listen).await?;
        ready(listener.local_addr()?);
        serve(listener, router(config)).await
    })
}

/// Time limits of the connections themselves (each request's own limits are layers of
/// the [`router`]).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// How long a client may take to send a request's headers before its connection is
    /// closed (hyper's header read timeout): a client that never finishes them holds no
    /// connection for long.
    pub header_read: Duration,
    /// How long the requests under way may take to finish after the stop signal.
    pub shutdown_grace: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_read: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// Serves `router` on `listener` until Ctrl-C with the default [`Limits`].
pub async fn serve(listener: tokio::net::TcpListener, router: Router) -> std::io::Result<()> {
    serve_until(listener, router, Limits::default(), async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}

/// Serves `router` on `listener` over HTTP/1.1 until `stop` completes, then stops
/// accepting, lets the requests under way finish for at most `limits.shutdown_grace`, and
/// returns. (axum's own `serve` has no header read timeout; this loop is hyper's server
/// with one.)
pub async fn serve_until(
    listener: tokio::net::TcpListener,
    router: Router,
    limits: Limits,
    stop: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let (stopping, stopped) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    tokio::pin!(stop);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(connection) => connection,
                // Out of file descriptors, a connection reset before it was accepted, ...:
                // the next one may do, after a pause that keeps this loop from spinning.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        while connections.try_join_next().is_some() {}
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        let mut stopped = stopped.clone();
        connections.spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_read)
                .serve_connection(TokioIo::new(stream), service);
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stopped.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    let _ = tokio::time::timeout(limits.shutdown_grace, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    Ok(())
}
