//! [`ApiError`]: every way a request fails, answered as a status code and `{"error":"..."}`.

use std::fmt;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Seconds a client refused as busy is asked to wait before it tries again.
pub const RETRY_AFTER_SECS: u32 = 1;

/// Why a request was not answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// The request is wrong (malformed JSON, unknown field, board, cell, level or language,
    /// illegal or too many moves, a finished game): 400, the message names the problem.
    BadRequest(String),
    /// The body is larger than the limit: 413.
    TooLarge(usize),
    /// No path here: 404.
    NotFound(String),
    /// Every solver slot stayed busy for the whole wait: 503 with `Retry-After`.
    Busy,
    /// The request took longer than the server's time limit: 408.
    Timeout,
    /// Something failed on the server's side: 500.
    Internal(String),
}

impl ApiError {
    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Busy => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Timeout => StatusCode::REQUEST_TIMEOUT,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::BadRequest(m) | ApiError::Internal(m) => f.write_str(m),
            ApiError::TooLarge(limit) => {
                write!(f, "the request body is larger than {limit} bytes")
            }
            ApiError::NotFound(path) => write!(f, "no such page: {path}"),
            ApiError::Busy => f.write_str("busy"),
            ApiError::Timeout => f.write_str("the request took too long"),
        }
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Json(serde_json::json!({ "error": self.to_string() }));
        let mut response = (self.status(), body).into_response();
        if self == ApiError::Busy {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
        }
        response
    }
}
