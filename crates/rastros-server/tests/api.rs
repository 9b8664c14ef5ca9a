//! The JSON API, called through the router without a network: every endpoint, every error,
//! and the answers checked against the exact solver.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use rand::RngExt;
use rastros_core::{Board, Cell, Position};
use rastros_server::{router, Config};
use rastros_solver::{Score, Value};
use rastros_testing::{random_moves, rng, solver};
use serde_json::{json, Value as Json};
use tower::ServiceExt;

fn config() -> Config {
    Config {
        hash_mb: 32,
        slots: 2,
        book: None,
        tables: Default::default(),
        move_time: Duration::from_secs(20),
        busy_wait: Duration::from_secs(20),
        body_limit: 4096,
    }
}

struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Json {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// The error message of an answer that must have `status`.
    fn refused(&self, status: StatusCode) -> String {
        assert_eq!(
            self.status,
            status,
            "{}",
            String::from_utf8_lossy(&self.body)
        );
        self.error()
    }

    fn error(&self) -> String {
        self.json()["error"]
            .as_str()
            .expect("an error message")
            .to_string()
    }
}

async fn send(app: &Router, request: Request<Body>) -> Answer {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    Answer {
        status,
        headers,
        body,
    }
}

async fn post(app: &Router, path: &str, body: impl Into<Body>) -> Answer {
    let request = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.into())
        .unwrap();
    send(app, request).await
}

async fn post_json(app: &Router, path: &str, body: &Json) -> Answer {
    post(app, path, body.to_string()).await
}

async fn get(app: &Router, path: &str) -> Answer {
    send(app, Request::get(path).body(Body::empty()).unwrap()).await
}

/// Games in progress on `board`: a random start cell and up to `plies` random moves.
fn random_games(
    board: &'static Board,
    plies: usize,
    count: usize,
    seed: u64,
) -> Vec<(String, Vec<String>, Position)> {
    let mut rng = rng(seed);
    let starts: Vec<u8> = (board.cells() - board.goals()).iter().collect();
    (0..count)
        .map(|_| {
            let start = board.cell(starts[rng.random_range(0..starts.len())]);
            let plies = rng.random_range(0..=plies);
            let (pos, line) =
                random_moves(&Position::start(board, start).unwrap(), plies, &mut rng);
            let moves = line.iter().map(|&to| board.cell(to).to_string()).collect();
            (start.to_string(), moves, pos)
        })
        .collect()
}

#[tokio::test]
async fn analysis_equals_the_solver_on_random_positions() {
    let app = router(&config());
    let mut checked = 0;
    for (w, h, plies) in [(4, 4, 6), (5, 4, 8), (5, 5, 8), (6, 5, 12), (6, 6, 16)] {
        let board = Board::new(w, h).unwrap();
        let judge = solver(board);
        for (start, moves, pos) in random_games(board, plies, 12, u64::from(w * 10 + h)) {
            let body = json!({"board": board.to_string(), "start": start, "moves": moves});
            let a = ok_json(&app, "/api/analyze", &body).await;
            let score: Score = judge.score(&pos).unwrap();
            assert_eq!(a["position"], pos.to_string());
            assert_eq!(a["side_to_move"], pos.side_to_move().number());
            assert_eq!(a["outcome"], Json::Null);
            assert_eq!(a["exact"], true);
            assert_eq!(a["value"], score.value.as_str(), "{pos}");
            assert_eq!(a["dte"], score.dte, "{pos}");
            let mut best = Vec::new();
            let scores = judge.move_scores(&pos).unwrap();
            let listed = a["moves"].as_array().unwrap();
            assert_eq!(listed.len(), scores.len(), "{pos}: every legal move once");
            for (to, s) in scores {
                let name = to.to_string();
                let m = listed
                    .iter()
                    .find(|m| m["move"] == name.as_str())
                    .unwrap_or_else(|| panic!("{pos}: {name} missing"));
                assert_eq!(m["value"], s.value.as_str(), "{pos} {name}");
                assert_eq!(m["dte"], s.dte, "{pos} {name}");
                if s == score {
                    best.push(name);
                }
            }
            let mut listed_best: Vec<String> = a["best_moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect();
            listed_best.sort();
            best.sort();
            assert_eq!(listed_best, best, "{pos}");
            checked += 1;
        }
    }
    assert_eq!(checked, 60);
}

/// The best line of `/api/analyze` checked against the solver: `dte` legal moves, the first
/// the lowest optimal move, each one keeping the score (the mover's value, one ply less
/// each time), ending the game with the winner the value names.
#[tokio::test]
async fn the_best_line_is_optimal_and_ends_the_game() {
    let app = router(&config());
    let mut checked = 0;
    for (w, h, plies) in [(4, 4, 4), (5, 5, 6), (6, 5, 10)] {
        let board = Board::new(w, h).unwrap();
        let judge = solver(board);
        for (start, moves, pos) in random_games(board, plies, 8, u64::from(w * 7 + h)) {
            let body = json!({"board": board.to_string(), "start": start, "moves": moves});
            let a = post_json(&app, "/api/analyze", &body).await.json();
            let score = judge.score(&pos).unwrap();
            let pv: Vec<&str> = a["pv"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            assert_eq!(a["pv_complete"], true, "{pos}");
            assert_eq!(pv.len() as u32, score.dte, "{pos}: {pv:?}");
            assert_eq!(a["best_moves"][0].as_str(), pv.first().copied(), "{pos}");
            let mut walk = pos;
            let mut expected = score;
            for cell in &pv {
                walk = walk.play(cell.parse::<Cell>().unwrap()).unwrap();
                expected = expected.child();
                if !walk.is_over() {
                    assert_eq!(
                        judge.score(&walk).unwrap(),
                        expected,
                        "{pos}: {pv:?} at {cell}"
                    );
                }
            }
            assert!(walk.is_over(), "{pos}: {pv:?} does not end the game");
            let mover = pos.side_to_move().number();
            let winner = match walk.outcome() {
                rastros_core::Outcome::Won { winner, .. } => winner.number(),
                rastros_core::Outcome::InProgress => unreachable!(),
            };
            assert_eq!(winner == mover, score.value == Value::Win, "{pos}: {pv:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 24);
    // A finished game has no line, and it is complete.
    let done = post_json(
        &app,
        "/api/analyze",
        &json!({"board": "5x5", "moves": ["b2", "a1"]}),
    )
    .await;
    assert_eq!(done.json()["pv"], json!([]));
    assert_eq!(done.json()["pv_complete"], true);
}

/// A game may start from a position in the one-line text form: the same position as the
/// moves that led to it, the same analysis, and its moves checked from there.
#[tokio::test]
async fn a_game_goes_on_from_a_pasted_position() {
    let app = router(&config());
    let moves = json!({"board": "6x5", "start": "c3", "moves": ["b2", "b3", "c4"]});
    let before = post_json(&app, "/api/position", &moves).await.json();
    let text = before["position"].as_str().unwrap();
    let pasted = post_json(
        &app,
        "/api/position",
        &json!({"position": text, "moves": []}),
    )
    .await;
    assert_eq!(pasted.status, StatusCode::OK);
    let pasted = pasted.json();
    for field in [
        "board",
        "position",
        "side_to_move",
        "snail",
        "slime",
        "legal_moves",
    ] {
        assert_eq!(pasted[field], before[field], "{field}");
    }
    assert_eq!(pasted["start"], "c4");
    assert_eq!(pasted["played"], json!([]));
    let a = post_json(&app, "/api/analyze", &moves).await.json();
    let b = post_json(
        &app,
        "/api/analyze",
        &json!({"board": "6x5", "position": text}),
    )
    .await;
    assert_eq!(b.json()["moves"], a["moves"]);
    let next = a["moves"][0]["move"].as_str().unwrap();
    let on = post_json(
        &app,
        "/api/position",
        &json!({"position": text, "moves": [next]}),
    )
    .await;
    assert_eq!(on.json()["snail"], next);
    for (body, error) in [
        (json!({"position": text, "moves": ["c4"]}), "move 1 'c4'"),
        (
            json!({"board": "7x7", "position": text}),
            "position: its board is 6x5, not 7x7",
        ),
        (
            json!({"position": text, "start": "c3"}),
            "start: give a start cell or a position",
        ),
        (json!({"position": "6x5 nonsense 1"}), "position: "),
    ] {
        let a = post_json(&app, "/api/position", &body).await;
        let said = a.refused(StatusCode::BAD_REQUEST);
        assert!(said.starts_with(error), "{body}: {said}");
    }
}

#[tokio::test]
async fn perfect_replies_are_optimal_moves() {
    let app = router(&config());
    for (w, h) in [(4, 4), (5, 4), (5, 5), (6, 5), (6, 6)] {
        let board = Board::new(w, h).unwrap();
        let judge = solver(board);
        for (i, (start, moves, pos)) in random_games(board, 14, 10, u64::from(w * h))
            .into_iter()
            .enumerate()
        {
            let body = json!({"board": board.to_string(), "start": start, "moves": moves,
                "level": "perfect", "seed": i});
            let a = ok_json(&app, "/api/move", &body).await;
            let cell: Cell = a["move"].as_str().unwrap().parse().unwrap();
            let after = pos.play(cell).expect("a legal move");
            let best = judge.score(&pos).unwrap();
            let got = match rastros_solver::terminal_score(&after) {
                Some(s) => s,
                None => judge.score(&after).unwrap(),
            }
            .parent();
            assert_eq!(got, best, "{pos}: {cell} is not optimal");
            assert_eq!(a["exact"], true);
            assert_eq!(a["position"], after.to_string());
            assert_eq!(a["played"].as_array().unwrap().len(), moves.len() + 1);
            assert_eq!(a["side_to_move"], after.side_to_move().number());
        }
    }
}

#[tokio::test]
async fn a_seed_replays_the_same_choice_and_every_level_plays_legally() {
    let app = router(&config());
    let body = |level: &str, seed: u64| json!({"board": "5x5", "level": level, "seed": seed});
    let start = Position::centre(Board::new(5, 5).unwrap()).unwrap();
    for level in ["perfect", "strong", "easy"] {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..12 {
            let a = post_json(&app, "/api/move", &body(level, seed))
                .await
                .json();
            let b = post_json(&app, "/api/move", &body(level, seed))
                .await
                .json();
            assert_eq!(a["move"], b["move"], "{level} seed {seed}");
            assert_eq!(a["level"], level);
            let cell: Cell = a["move"].as_str().unwrap().parse().unwrap();
            assert!(start.play(cell).is_ok());
            seen.insert(a["move"].as_str().unwrap().to_string());
        }
        // Ties are broken by the seed: 5x5 from c3 has several optimal first moves.
        if level == "perfect" {
            assert!(seen.len() > 1, "{seen:?}");
        }
    }
}

#[tokio::test]
async fn position_gives_what_the_page_draws() {
    let app = router(&config());
    let a = post_json(&app, "/api/position", &json!({"moves": ["c3", "b3"]})).await;
    assert_eq!(a.status, StatusCode::OK);
    let a = a.json();
    assert_eq!(a["board"], "7x7");
    assert_eq!(a["start"], "d4");
    assert_eq!(a["played"], json!(["c3", "b3"]));
    assert_eq!(a["snail"], "b3");
    assert_eq!(a["slime"], json!(["c3", "d4"]));
    assert_eq!(a["side_to_move"], 1);
    assert_eq!(a["outcome"], Json::Null);
    assert_eq!(
        a["legal_moves"],
        json!(["a2", "b2", "c2", "a3", "a4", "b4", "c4"])
    );
    // A game won by reaching a goal, and one won because the loser is stuck.
    let won = post_json(
        &app,
        "/api/position",
        &json!({"board": "5x5", "moves": ["b2", "a1"]}),
    )
    .await
    .json();
    assert_eq!(won["outcome"], json!({"winner": 1, "reason": "goal"}));
    assert_eq!(won["legal_moves"], json!([]));
    // 3x3 from b1: after b2 c2 c1 every neighbour of the snail is slimed, player 2 is stuck.
    let stuck = post_json(
        &app,
        "/api/position",
        &json!({"board": "3x3", "start": "b1", "moves": ["b2", "c2", "c1"]}),
    )
    .await
    .json();
    assert_eq!(stuck["outcome"], json!({"winner": 1, "reason": "no_move"}));
    assert_eq!(stuck["side_to_move"], 2);
}

#[tokio::test]
async fn analysis_of_a_finished_game_says_who_won() {
    let app = router(&config());
    let a = post_json(
        &app,
        "/api/analyze",
        &json!({"board": "5x5", "moves": ["b2", "a1"]}),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    let a = a.json();
    assert_eq!(a["outcome"], json!({"winner": 1, "reason": "goal"}));
    // Player 2 moved into player 1's goal: player 1 is to move and has won.
    assert_eq!(a["side_to_move"], 1);
    assert_eq!(a["value"], "win");
    assert_eq!(a["dte"], 0);
    assert_eq!(a["moves"], json!([]));
}

#[tokio::test]
async fn bad_requests_are_answered_400_naming_the_problem() {
    let app = router(&config());
    let cases: &[(&str, &str, &str)] = &[
        ("/api/analyze", "{\"moves\": [", "invalid JSON"),
        ("/api/analyze", "[1, 2]", "the body must be a JSON object"),
        ("/api/analyze", "", "invalid JSON: EOF"),
        ("/api/analyze", "nonsense", "invalid JSON"),
        (
            "/api/analyze",
            "{\"moves\": [\"c3\"], \"colour\": 1}",
            "unknown field `colour`",
        ),
        ("/api/analyze", "{\"moves\": \"c3\"}", "invalid JSON"),
        (
            "/api/analyze",
            "{\"board\": \"12x12\"}",
            "board: unsupported board 12x12",
        ),
        (
            "/api/position",
            "{\"position\": \"3x43 ...\"}",
            "position: unsupported board 3x43",
        ),
        (
            "/api/analyze",
            "{\"board\": \"seven\"}",
            "board: 'seven' is not a board size",
        ),
        (
            "/api/analyze",
            "{\"board\": \"6x6\"}",
            "start: the 6x6 board has no centre cell",
        ),
        (
            "/api/analyze",
            "{\"start\": \"a1\"}",
            "start: the snail cannot start on the goal corner a1",
        ),
        (
            "/api/analyze",
            "{\"start\": \"h9\"}",
            "start: h9 is not on the board",
        ),
        (
            "/api/analyze",
            "{\"moves\": [\"c3\", \"c3\"]}",
            "move 2 'c3': the snail is on c3 already; a move goes to a free cell next to it",
        ),
        ("/api/analyze", "{\"moves\": [\"d4\"]}", "move 1 'd4'"),
        ("/api/analyze", "{\"moves\": [\"zz\"]}", "move 1 'zz'"),
        (
            "/api/move",
            "{\"moves\": [\"c3\"], \"level\": \"godlike\"}",
            "level: unknown level 'godlike'",
        ),
        (
            "/api/move",
            "{\"board\": \"5x5\", \"moves\": [\"b2\", \"a1\"]}",
            "the game is over",
        ),
        ("/api/move", "{\"seed\": -1}", "invalid JSON"),
        (
            "/api/position",
            "{\"board\": \"5x5\", \"moves\": [\"b2\", \"a1\", \"b1\"]}",
            "move 3 'b1': the game is over",
        ),
    ];
    for (path, body, expected) in cases {
        let a = post(&app, path, *body).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{path} {body}");
        let error = a.error();
        assert!(error.contains(expected), "{path} {body}: {error}");
    }
    // JSON that is not an object: an array is not read as the fields in order, and no
    // message names the server's own types.
    for path in ["/api/position", "/api/analyze", "/api/move"] {
        for body in ["[\"5x5\",\"c3\",[\"b2\"]]", " []", "null", "7", "\"7x7\""] {
            let a = post(&app, path, body).await;
            assert_eq!(a.status, StatusCode::BAD_REQUEST, "{path} {body}");
            assert!(
                a.error()
                    .starts_with("the body must be a JSON object, like {"),
                "{path} {body}: {}",
                a.error()
            );
        }
    }
    // Too many moves: more than a board has cells, refused before any is played.
    let moves: Vec<&str> = ["c3", "d4"].repeat(25);
    let a = post_json(
        &app,
        "/api/analyze",
        &json!({"board": "7x7", "moves": moves}),
    )
    .await;
    let said = a.refused(StatusCode::BAD_REQUEST);
    assert!(said.starts_with("too many moves: 50"), "{said}");
    let moves: Vec<&str> = ["b1", "a2"].repeat(2);
    let a = post_json(
        &app,
        "/api/analyze",
        &json!({"board": "2x2", "start": "b1", "moves": moves}),
    )
    .await;
    assert_eq!(a.error(), "too many moves: 4 (a 2x2 game has at most 3)");
    // An unknown language.
    let said = get(&app, "/api/rules?lang=xx")
        .await
        .refused(StatusCode::BAD_REQUEST);
    assert!(said.contains("unknown language code 'xx'"), "{said}");
    let said = get(&app, "/api/texts?lang=klingon")
        .await
        .refused(StatusCode::BAD_REQUEST);
    assert!(said.contains("unknown language code 'klingon'"), "{said}");
}

#[tokio::test]
async fn large_bodies_are_refused_413() {
    let app = router(&config());
    let body = format!("{{\"moves\": [{}]}}", vec!["\"c3\""; 2000].join(","));
    let too_large = "the request body is larger than 4096 bytes";
    let a = post(&app, "/api/analyze", body.clone()).await;
    assert_eq!(a.refused(StatusCode::PAYLOAD_TOO_LARGE), too_large);
    // Also without a Content-Length (a streamed body).
    let stream = futures_stream(body.into_bytes());
    let a = post(&app, "/api/move", stream).await;
    assert_eq!(a.refused(StatusCode::PAYLOAD_TOO_LARGE), too_large);
}

/// A body with no known length, sent in pieces.
fn futures_stream(bytes: Vec<u8>) -> Body {
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        bytes.chunks(1000).map(|c| Ok(c.to_vec())).collect();
    Body::from_stream(futures_util::stream::iter(chunks))
}

#[tokio::test]
async fn unknown_paths_and_methods_get_json_errors() {
    let app = router(&config());
    let a = get(&app, "/api/nothing").await;
    assert_eq!(
        a.refused(StatusCode::NOT_FOUND),
        "no such page: /api/nothing"
    );
    let a = get(&app, "/api/analyze").await;
    assert_eq!(
        a.refused(StatusCode::METHOD_NOT_ALLOWED),
        "method not allowed"
    );
    assert_eq!(a.headers[header::ALLOW], "POST");
    // axum's own rejections keep their reason.
    let said = get(&app, "/api/rules?lang=it&lang=de")
        .await
        .refused(StatusCode::BAD_REQUEST);
    assert!(said.contains("duplicate field `lang`"), "{said}");
    // Every answer, page or API, error or not, carries the security headers.
    for path in ["/", "/app.js", "/api/rules", "/api/nothing"] {
        let a = get(&app, path).await;
        assert_eq!(
            a.headers[header::X_CONTENT_TYPE_OPTIONS],
            "nosniff",
            "{path}"
        );
        let csp = a.headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"));
        assert_eq!(a.headers[header::REFERRER_POLICY], "no-referrer", "{path}");
    }
    let html = String::from_utf8(get(&app, "/").await.body).unwrap();
    // The policy allows no inline script, so the page has none.
    for inline in [
        "<script>",
        "onsubmit=",
        "onclick=",
        "onload=",
        "onchange=",
        "oninput=",
    ] {
        assert!(!html.contains(inline), "{inline}");
    }
}

#[tokio::test]
async fn a_win_in_one_is_answered_exactly_on_any_board() {
    let app = router(&config());
    let game = serde_json::json!({"board":"8x8","start":"d4","moves":["c3","b2"]});
    let a = post_json(&app, "/api/move", &game).await.json();
    assert_eq!(
        (&a["move"], &a["exact"]),
        (&serde_json::json!("a1"), &serde_json::json!(true))
    );
}

#[tokio::test]
async fn every_slot_busy_is_503_with_retry_after_and_the_budget_gives_an_inexact_answer() {
    // One slot, a short wait for it, and a budget of 1.5 s: an 8x8 analysis from the start
    // takes minutes exactly, so it holds the slot for the whole budget.
    let config = Config {
        slots: 1,
        busy_wait: Duration::from_millis(100),
        move_time: Duration::from_millis(1500),
        ..config()
    };
    let app = router(&config);
    let slow = {
        let app = app.clone();
        tokio::spawn(async move {
            let clock = Instant::now();
            let a = post_json(
                &app,
                "/api/analyze",
                &json!({"board": "8x8", "start": "d4"}),
            )
            .await;
            (a, clock.elapsed())
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let busy = post_json(&app, "/api/move", &json!({"board": "5x5"})).await;
    assert_eq!(busy.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(busy.error(), "busy");
    assert_eq!(busy.headers[header::RETRY_AFTER], "1");
    let (a, took) = slow.await.unwrap();
    assert_eq!(a.status, StatusCode::OK);
    let a = a.json();
    assert_eq!(a["exact"], false);
    assert_eq!(a["pv_complete"], false);
    assert_eq!(a["moves"].as_array().unwrap().len(), 8);
    assert!(!a["best_moves"].as_array().unwrap().is_empty());
    assert!(took < Duration::from_millis(1500 + 1000), "{took:?}");
    // The slot is free again, and the move endpoint keeps the budget too.
    let clock = Instant::now();
    let m = post_json(
        &app,
        "/api/move",
        &json!({"board": "8x8", "start": "d4", "level": "perfect"}),
    )
    .await;
    assert_eq!(m.status, StatusCode::OK);
    assert_eq!(m.json()["exact"], false);
    assert!(
        clock.elapsed() < Duration::from_millis(2500),
        "{:?}",
        clock.elapsed()
    );
}

#[tokio::test]
async fn rules_and_texts_come_in_every_language() {
    let app = router(&config());
    for lang in ["en", "it", "de", "fr", "es", "el", "pt"] {
        let a = get(&app, &format!("/api/rules?lang={lang}")).await;
        assert_eq!(a.status, StatusCode::OK);
        let a = a.json();
        assert_eq!(a["lang"], lang);
        // The rules in the language, from the same data files as `rastros rules`, less the
        // words about the terminal's `--board` option.
        let lang_code: rastros_i18n::Lang = lang.parse().unwrap();
        let page_rules = a["rules"].as_str().unwrap();
        let terminal_rules = rastros_i18n::rules(lang_code);
        assert!(terminal_rules.contains("--board"), "{lang}");
        assert!(!page_rules.contains("--board"), "{lang}: {page_rules}");
        // The same words, less the note's; each paragraph on one line.
        let note = rastros_i18n::text(lang_code, "rules-terminal-note", &[]);
        let words = |t: &str| t.split_whitespace().count();
        assert_eq!(
            words(terminal_rules),
            words(page_rules) + words(&note),
            "{lang}"
        );
        assert_eq!(
            page_rules,
            rastros_i18n::rules_for_page(lang_code),
            "{lang}"
        );
        assert!(page_rules.len() + 30 < terminal_rules.len(), "{lang}");
        assert!(a["rules"]
            .as_str()
            .unwrap()
            .starts_with(lang_code.game_name()));
        let t = get(&app, &format!("/api/texts?lang={lang}")).await.json();
        assert_eq!(t["languages"].as_array().unwrap().len(), 7);
        // The page's own texts and the game's name it shares, nothing of the terminal's
        // (which keys are shared: texts.rs's unit tests).
        let texts = t["texts"].as_object().unwrap();
        assert!(texts["game-name"].is_string(), "{lang}");
        assert!(texts["page-language-name"].is_string(), "{lang}");
        assert!(!texts.contains_key("help") && !texts.contains_key("goodbye"));
    }
    let it = get(&app, "/api/texts?lang=it").await.json();
    assert_eq!(it["texts"]["game-name"], "Scia di bava");
    // English when no language is named.
    assert_eq!(get(&app, "/api/rules").await.json()["lang"], "en");
}

#[tokio::test]
async fn the_page_is_served_from_the_binary_and_small() {
    let app = router(&config());
    let mut total = 0;
    for (path, media) in [
        ("/", "text/html"),
        ("/style.css", "text/css"),
        ("/app.js", "text/javascript"),
        ("/board.js", "text/javascript"),
        ("/api.js", "text/javascript"),
        ("/puzzles.js", "text/javascript"),
        ("/icon.svg", "image/svg+xml"),
    ] {
        let a = get(&app, path).await;
        assert_eq!(a.status, StatusCode::OK, "{path}");
        let ct = a.headers[header::CONTENT_TYPE].to_str().unwrap();
        assert!(ct.starts_with(media), "{path}: {ct}");
        total += a.body.len();
    }
    let html = String::from_utf8(get(&app, "/").await.body).unwrap();
    assert!(html.contains("id=\"game\"") && html.contains("id=\"status\""));
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no outside links"
    );
    // The whole first load (page, style, scripts, icon, the texts of one language).
    total += get(&app, "/api/texts?lang=en").await.body.len();
    assert!(total < 200 * 1024, "{total} bytes");
}

#[tokio::test]
async fn page_files_answer_304_to_their_current_tag() {
    let app = router(&config());
    for path in ["/", "/app.js", "/style.css"] {
        let first = get(&app, path).await;
        assert_eq!(first.status, StatusCode::OK);
        let tag = first.headers[header::ETAG].to_str().unwrap().to_string();
        assert!(tag.starts_with('"') && tag.len() == 18, "{tag}");
        let ask = |tag: &str| {
            Request::get(path)
                .header(header::IF_NONE_MATCH, tag)
                .body(Body::empty())
                .unwrap()
        };
        let again = send(&app, ask(&tag)).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{path}");
        assert!(again.body.is_empty());
        assert_eq!(again.headers[header::ETAG], tag.as_str());
        let other = send(&app, ask("\"0000000000000000\"")).await;
        assert_eq!(other.status, StatusCode::OK, "{path}");
        assert_eq!(other.body, first.body);
    }
}

#[tokio::test]
async fn the_puzzles_are_served_apart_and_the_page_can_judge_every_first_move() {
    let app = router(&config());
    let js = get(&app, "/puzzles.js").await;
    assert_eq!(js.status, StatusCode::OK);
    let list = get(&app, "/puzzles.json").await;
    assert_eq!(list.status, StatusCode::OK);
    let committed = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tables/puzzles.json"),
    )
    .unwrap();
    assert_eq!(list.body, committed);
    // What the page asks before the person's first move: every puzzle's position analysed
    // exactly, within the server's time budget, its solution the only winning move.
    let puzzles: Json = serde_json::from_slice(&list.body).unwrap();
    let puzzles = puzzles["puzzles"].as_array().unwrap();
    assert!(puzzles.len() >= 300);
    for p in puzzles {
        let game = json!({"board": p["board"], "start": p["start"], "moves": p["moves"]});
        let a = post_json(&app, "/api/analyze", &game).await.json();
        assert_eq!(a["exact"], true, "{}", p["id"]);
        assert_eq!(
            (&a["value"], &a["dte"]),
            (&json!("win"), &p["dte"]),
            "{}",
            p["id"]
        );
        let wins: Vec<&Json> = a["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["value"] == "win")
            .map(|m| &m["move"])
            .collect();
        assert_eq!(wins, [&p["solution"]], "{}", p["id"]);
    }
}

/// `post_json`, answered 200 with JSON: the JSON.
async fn ok_json(app: &Router, path: &str, body: &Json) -> Json {
    let a = post_json(app, path, body).await;
    let text = String::from_utf8_lossy(&a.body);
    assert_eq!(a.status, StatusCode::OK, "{path} {body}: {text}");
    a.json()
}

/// A position of `board` (one row of each rank, top first) as its text form: the snail at
/// `snail`, a wall of slime across the rank above it, the rest free.
fn walled(width: usize, height: usize, snail: (usize, usize)) -> String {
    // One ply a slimed cell: player 1 moves after an even number.
    let side = if width.is_multiple_of(2) { 1 } else { 2 };
    let rows: Vec<String> = (1..=height)
        .rev()
        .map(|rank| {
            (0..width)
                .map(|file| match (file, rank) {
                    _ if rank == snail.1 + 1 => 'x',
                    (f, r) if (f, r) == snail => 'o',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    format!("{width}x{height} {} {side}", rows.join("/"))
}

/// Boards of 65 to 128 cells: 9x9 (the page's preset, from e5), 11x11 and 2x60 are drawn,
/// played at every level and judged; the answers on 2x60 behind a wall equal the 128-bit
/// solver's, and on 11x11 the time budget gives an inexact answer in time.
///
/// The perfect level solves only behind a wall (a region of at most 62 cells): the
/// search's move ordering checks that bound in debug builds (rastros-search, order.rs).
#[tokio::test]
async fn boards_up_to_128_cells_are_drawn_played_and_judged() {
    let config = Config {
        move_time: Duration::from_millis(800),
        ..config()
    };
    let app = router(&config);
    let nine = ok_json(
        &app,
        "/api/position",
        &json!({"board": "9x9", "start": "e5"}),
    )
    .await;
    assert_eq!(nine["board"], "9x9");
    assert_eq!(nine["snail"], "e5");
    assert_eq!(nine["legal_moves"].as_array().unwrap().len(), 8);
    for (board, start) in [
        ("9x9", "e5"),
        ("11x11", "f6"),
        ("2x60", "a30"),
        ("10x12", "j11"),
    ] {
        let m = ok_json(
            &app,
            "/api/move",
            &json!({"board": board, "start": start, "moves": [], "level": "strong", "seed": 5}),
        )
        .await;
        assert_eq!(m["board"], board);
        assert_eq!(m["played"].as_array().unwrap().len(), 1);
        assert_eq!(m["exact"], true);
    }
    // 2x60 behind a wall: exact, and equal to the solver.
    let text = walled(2, 60, (0, 11));
    let a = ok_json(&app, "/api/analyze", &json!({"position": text})).await;
    assert_eq!(a["exact"], true);
    let pos: Position<u128> = text.parse().unwrap();
    let want: Vec<Json> = solver(pos.board())
        .move_scores(&pos)
        .unwrap()
        .into_iter()
        .map(|(cell, s)| json!({"move": cell.to_string(), "value": s.value.as_str(), "dte": s.dte}))
        .collect();
    assert_eq!(a["moves"].as_array().unwrap(), &want);
    assert_eq!(a["pv_complete"], true);
    // 11x11 behind a wall, far too large to solve: the budget answers, inexact, at every
    // level, each request within the budget and a second.
    let text = walled(11, 11, (5, 5));
    for level in ["perfect", "strong", "easy"] {
        let clock = Instant::now();
        let m = ok_json(
            &app,
            "/api/move",
            &json!({"position": text, "level": level, "seed": 2}),
        )
        .await;
        assert_eq!(m["level"], level);
        assert!(
            clock.elapsed() < Duration::from_millis(1800),
            "{level}: {:?}",
            clock.elapsed()
        );
    }
    let clock = Instant::now();
    let a = ok_json(&app, "/api/analyze", &json!({"position": text})).await;
    assert!(
        clock.elapsed() < Duration::from_millis(1800),
        "{:?}",
        clock.elapsed()
    );
    assert_eq!(a["exact"], false);
    assert_eq!(a["pv"], json!([]));
    assert!(!a["best_moves"].as_array().unwrap().is_empty());
    // Over 128 cells: refused naming the limit.
    for board in ["12x12", "2x65", "11x12"] {
        let a = post_json(&app, "/api/move", &json!({"board": board})).await;
        let said = a.refused(StatusCode::BAD_REQUEST);
        assert!(said.contains("128"), "{board}: {said}");
    }
}
