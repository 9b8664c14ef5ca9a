//! The page's files, embedded in the binary: no file is read at run time.

use std::sync::Arc;

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use crate::AppState;

/// One embedded file: its path, media type and bytes.
struct Asset {
    path: &'static str,
    media_type: &'static str,
    body: &'static [u8],
}

const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        media_type: "text/html; charset=utf-8",
        body: include_bytes!("../web/index.html"),
    },
    Asset {
        path: "/style.css",
        media_type: "text/css; charset=utf-8",
        body: include_bytes!("../web/style.css"),
    },
    Asset {
        path: "/app.js",
        media_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/app.js"),
    },
    Asset {
        path: "/board.js",
        media_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/board.js"),
    },
    Asset {
        path: "/api.js",
        media_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/api.js"),
    },
    Asset {
        path: "/icon.svg",
        media_type: "image/svg+xml",
        body: include_bytes!("../web/icon.svg"),
    },
];

/// The total size of the page's files in bytes (the whole first load, before compression).
pub fn total_bytes() -> usize {
    ASSETS.iter().map(|a| a.body.len()).sum()
}

/// A route for every embedded file.
pub fn routes() -> Router<Arc<AppState>> {
    ASSETS.iter().fold(Router::new(), |router, asset| {
        let (media_type, body) = (asset.media_type, asset.body);
        router.route(
            asset.path,
            get(move || async move {
                (
                    [
                        (header::CONTENT_TYPE, media_type),
                        (header::CACHE_CONTROL, "no-cache"),
                    ],
                    body,
                )
                    .into_response()
            }),
        )
    })
}
