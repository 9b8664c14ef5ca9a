//! Load test (ignored by default; `.ci/run` runs it): 64 concurrent clients on loopback play
//! 7x7 games against `perfect`, bounded to 25 s of new requests and 400 requests a client.
//!
//! ```text
//! cargo test -p rastros-server --test load -- --ignored --nocapture
//! ```
//!
//! It prints requests per second, latency percentiles and the process's peak memory, and
//! fails on any 5xx other than 503, any 4xx, or memory past the tables, the book and a
//! margin.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rastros_server::{Config, Limits};
use serde_json::{json, Value};

const CLIENTS: usize = 64;
/// The status recorded for a 400 that says the game is over (the client's move ended it).
const OVER: u16 = 1;
const PER_CLIENT: usize = 400;
const RUN_FOR: Duration = Duration::from_secs(25);
const HASH_MB: usize = 256;
/// Allowed above the tables and the book: code, the runtime, 64 client threads, buffers.
const MARGIN_MB: usize = 160;

/// One request over a fresh connection: the status and the body.
fn request(addr: SocketAddr, path: &str, body: &str) -> std::io::Result<(u16, String)> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    let status = answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Ok((status, body))
}

/// What one client saw: (status, latency) of every request.
fn client(addr: SocketAddr, id: u64, stop_at: Instant) -> Vec<(u16, Duration)> {
    let mut seen = Vec::new();
    let mut rng = id.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut random = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    'games: while Instant::now() < stop_at && seen.len() < PER_CLIENT {
        let mut moves: Vec<String> = Vec::new();
        let mut legal: Vec<String> = ["c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"]
            .map(String::from)
            .to_vec();
        loop {
            // The client plays player 1 at random, the server player 2.
            moves.push(legal[random(legal.len())].clone());
            let body = json!({"moves": moves, "level": "perfect", "seed": id}).to_string();
            let answer = loop {
                if Instant::now() >= stop_at || seen.len() >= PER_CLIENT {
                    break 'games;
                }
                let clock = Instant::now();
                let (status, text) =
                    request(addr, "/api/move", &body).unwrap_or((0, String::new()));
                seen.push((status, clock.elapsed()));
                if status == 503 {
                    std::thread::sleep(Duration::from_secs(1));
                    continue;
                }
                break (status, text);
            };
            match answer {
                (200, text) => {
                    let a: Value = serde_json::from_str(&text).expect("JSON");
                    moves.push(a["move"].as_str().unwrap().to_string());
                    if !a["outcome"].is_null() {
                        continue 'games;
                    }
                    legal = a["legal_moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| m.as_str().unwrap().to_string())
                        .collect();
                }
                // The client's own move ended the game (into a goal, or the server stuck):
                // the server says so, and the client starts a new game.
                (400, text) if text.contains("the game is over") => {
                    seen.last_mut().expect("just pushed").0 = OVER;
                    continue 'games;
                }
                _ => continue 'games,
            }
        }
    }
    seen
}

/// Perfect against perfect from the 7x7 start: the moves, the slowest move and the slowest
/// analysis.
fn perfect_line(addr: SocketAddr) -> (Vec<String>, Duration, Duration) {
    let mut moves: Vec<String> = Vec::new();
    let (mut move_max, mut analyze_max) = (Duration::ZERO, Duration::ZERO);
    let mut analyze_ply = 0;
    loop {
        let body = json!({"moves": moves}).to_string();
        let clock = Instant::now();
        let (status, text) = request(addr, "/api/analyze", &body).unwrap();
        if clock.elapsed() > analyze_max {
            analyze_max = clock.elapsed();
            analyze_ply = moves.len();
        }
        assert_eq!(status, 200, "{text}");
        let a: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(a["exact"], true, "{text}");
        if !a["outcome"].is_null() {
            println!("load: the slowest analysis was of the position after {analyze_ply} plies");
            return (moves, move_max, analyze_max);
        }
        let body = json!({"moves": moves, "level": "perfect", "seed": 7}).to_string();
        let clock = Instant::now();
        let (status, text) = request(addr, "/api/move", &body).unwrap();
        move_max = move_max.max(clock.elapsed());
        assert_eq!(status, 200, "{text}");
        let m: Value = serde_json::from_str(&text).unwrap();
        let best: Vec<&str> = a["best_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert!(
            best.contains(&m["move"].as_str().unwrap()),
            "{text} not in {best:?}"
        );
        moves.push(m["move"].as_str().unwrap().to_string());
    }
}

fn peak_memory_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map(|kb| kb / 1024.0)
        .unwrap_or(0.0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

#[test]
#[ignore = "load test: run explicitly (see the module doc)"]
fn sixty_four_clients_play_7x7_against_perfect() {
    let book_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tables/7x7-d4.book");
    let book = rastros_server::load_book(Some(&book_path)).expect("the 7x7 book loads");
    let book_mb = book.as_ref().map_or(0, |b| b.memory_bytes()) as f64 / (1 << 20) as f64;
    let config = Config {
        hash_mb: HASH_MB,
        book,
        ..Config::default()
    };
    let slots = config.slots;
    let (tx, rx) = mpsc::channel();
    // The server as `rastros serve` runs it, on a thread of its own until the test ends.
    let server = std::thread::spawn(move || {
        let listen = SocketAddr::from(([127, 0, 0, 1], 0));
        rastros_server::run(listen, &config, Limits::default(), |addr| {
            tx.send(addr).unwrap()
        })
    });
    let addr = rx
        .recv()
        .unwrap_or_else(|_| panic!("the server did not start: {:?}", server.join()));
    assert!(addr.ip().is_loopback());

    // One client alone first: how long a single answer takes with the book and a warm table.
    let mut alone = Vec::new();
    for id in 0..4 {
        alone.extend(client(
            addr,
            1000 + id,
            Instant::now() + Duration::from_secs(2),
        ));
    }
    alone.sort_by_key(|&(_, d)| d);
    let alone_max = alone.last().unwrap().1;
    let alone_p50 = percentile(&alone.iter().map(|&(_, d)| d).collect::<Vec<_>>(), 0.5);

    // A whole game of perfect against perfect, both sides asked of the server, with the
    // analysis of every position on the way: the slowest single answers.
    let (line, move_max, analyze_max) = perfect_line(addr);

    let clock = Instant::now();
    let stop_at = clock + RUN_FOR;
    let handles: Vec<_> = (0..CLIENTS as u64)
        .map(|id| std::thread::spawn(move || client(addr, id, stop_at)))
        .collect();
    let seen: Vec<(u16, Duration)> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    let took = clock.elapsed();
    // The server thread serves until the test process ends.

    let mut latencies: Vec<Duration> = seen
        .iter()
        .filter(|&&(s, _)| s == 200)
        .map(|&(_, d)| d)
        .collect();
    latencies.sort();
    let count = |f: &dyn Fn(u16) -> bool| seen.iter().filter(|&&(s, _)| f(s)).count();
    let ok = count(&|s| s == 200);
    let busy = count(&|s| s == 503);
    let over = count(&|s| s == OVER);
    let bad = count(&|s| s != 200 && s != 503 && s != OVER);
    let peak = peak_memory_mb();
    println!(
        "load: {CLIENTS} clients, {slots} slots, --hash-mb {HASH_MB}, book {book_mb:.1} MB in memory"
    );
    println!(
        "load: single client: {} answers, p50 {:.1} ms, max {:.1} ms",
        alone.len(),
        alone_p50.as_secs_f64() * 1e3,
        alone_max.as_secs_f64() * 1e3
    );
    println!(
        "load: perfect against perfect, {} plies ({}): slowest move {:.1} ms, slowest analysis {:.1} ms",
        line.len(),
        line.join(" "),
        move_max.as_secs_f64() * 1e3,
        analyze_max.as_secs_f64() * 1e3
    );
    println!(
        "load: {} requests in {:.1} s = {:.1} requests/s; {ok} answered 200, {busy} 503 busy, \
         {over} 400 (the client's move ended the game), {bad} other",
        seen.len(),
        took.as_secs_f64(),
        seen.len() as f64 / took.as_secs_f64()
    );
    println!(
        "load: latency of answered moves p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        latencies.last().unwrap().as_secs_f64() * 1e3
    );
    println!(
        "load: peak memory {peak:.0} MB (limit: tables {HASH_MB} + book {book_mb:.0} + margin \
         {MARGIN_MB} MB)"
    );
    assert!(took < Duration::from_secs(30), "{took:?}");
    assert_eq!(
        bad, 0,
        "no 5xx other than 503, no other 4xx, no failed connection"
    );
    assert!(ok > CLIENTS, "every client got answers: {ok}");
    assert!(
        peak < (HASH_MB + MARGIN_MB) as f64 + book_mb,
        "peak memory {peak:.0} MB"
    );
}
