//! The page's files, embedded in the binary: no file is read at run time.

use std::sync::Arc;

use axum::http::{header, HeaderMap, StatusCode};
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

impl Asset {
    const fn new(path: &'static str, media_type: &'static str, body: &'static [u8]) -> Asset {
        Asset {
            path,
            media_type,
            body,
        }
    }
}

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";

const ASSETS: &[Asset] = &[
    Asset::new("/", HTML, include_bytes!("../web/index.html")),
    Asset::new("/style.css", CSS, include_bytes!("../web/style.css")),
    Asset::new("/app.js", JS, include_bytes!("../web/app.js")),
    Asset::new("/board.js", JS, include_bytes!("../web/board.js")),
    Asset::new("/api.js", JS, include_bytes!("../web/api.js")),
    Asset::new("/puzzles.js", JS, include_bytes!("../web/puzzles.js")),
    Asset::new("/icon.svg", SVG, include_bytes!("../web/icon.svg")),
];

/// The puzzles of the Puzzles mode, `tables/puzzles.json` of the repository: served like
/// the page's files, but fetched only when the mode opens, so not part of the first load.
const PUZZLES: Asset = Asset::new(
    "/puzzles.json",
    "application/json",
    include_bytes!("../../../tables/puzzles.json"),
);

/// A route for every embedded file. Each answer has an `ETag` (the file's FNV-1a 64
/// checksum) and `Cache-Control: no-cache`: a browser asks again every time, and a request
/// whose `If-None-Match` names the current tag gets `304 Not Modified` without the body.
pub fn routes() -> Router<Arc<AppState>> {
    ASSETS
        .iter()
        .chain([&PUZZLES])
        .fold(Router::new(), |router, asset| {
            let (media_type, body) = (asset.media_type, asset.body);
            let tag = format!("\"{:016x}\"", rastros_solver::fsio::fnv1a64(body));
            router.route(
                asset.path,
                get(move |headers: HeaderMap| async move {
                    let cached = headers
                        .get_all(header::IF_NONE_MATCH)
                        .iter()
                        .filter_map(|v| v.to_str().ok())
                        .flat_map(|v| v.split(','))
                        .any(|t| t.trim() == tag || t.trim() == "*");
                    let headers = [
                        (header::CONTENT_TYPE, media_type.to_string()),
                        (header::CACHE_CONTROL, "no-cache".to_string()),
                        (header::ETAG, tag),
                    ];
                    if cached {
                        (StatusCode::NOT_MODIFIED, headers).into_response()
                    } else {
                        (headers, body).into_response()
                    }
                }),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's first load (its files and the texts of one language, at most a few KiB)
    /// stays under 200 KiB before compression, with room for half the puzzle list besides.
    #[test]
    fn the_page_is_small() {
        let page: usize = ASSETS.iter().map(|a| a.body.len()).sum();
        let texts = serde_json::to_vec(&crate::texts::page(crate::texts::Lang::En))
            .unwrap()
            .len();
        assert!(page + texts < 200 * 1024, "{page} + {texts} bytes");
        assert!(page < 200 * 1024 - PUZZLES.body.len() / 2, "{page} bytes");
    }

    /// Every file has its own path and a media type the browser will not have to guess.
    #[test]
    fn every_file_has_its_path_and_media_type() {
        let mut paths: Vec<&str> = ASSETS.iter().chain([&PUZZLES]).map(|a| a.path).collect();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), ASSETS.len() + 1);
        for a in ASSETS.iter().chain([&PUZZLES]) {
            assert!(a.path.starts_with('/'), "{}", a.path);
            assert!(!a.media_type.is_empty() && !a.body.is_empty(), "{}", a.path);
        }
    }
}
