//! `rastros serve` as the binary runs it, on loopback: the process's signal dispositions
//! (a client that hangs up, SIGTERM), its start-up checks and its log live in the binary,
//! so these tests start the real `rastros serve` (small servers, each bounded in time).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::{command, scratch, TIME_LIMIT};

/// A running `rastros serve` on a free loopback port; killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
    stderr: Arc<Mutex<String>>,
    _dir: tempfile::TempDir,
}

impl Server {
    /// Starts `rastros serve` with a small table, one slot and `extra` arguments, in an
    /// empty folder (so no default book), and waits for its "listening on" line.
    fn start(extra: &[&str]) -> Server {
        let dir = scratch();
        let mut args = vec![
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--hash-mb",
            "8",
            "--threads",
            "1",
        ];
        args.extend_from_slice(extra);
        Server::spawn(command(&args), dir)
    }

    /// Spawns `cmd` (a `rastros serve`) in `dir` and waits for its "listening on" line.
    fn spawn(mut cmd: std::process::Command, dir: tempfile::TempDir) -> Server {
        let mut child = cmd
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the rastros binary runs");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let addr = match line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|a| a.strip_suffix('/'))
            .and_then(|a| a.parse().ok())
        {
            Some(addr) => addr,
            None => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("no address in {line:?}");
            }
        };
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err = child.stderr.take().unwrap();
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Server {
            child,
            addr,
            stderr,
            _dir: dir,
        }
    }

    /// Fails, with what the server said, if it is no longer running.
    fn assert_running(&mut self, after: &str) {
        if let Some(status) = self.child.try_wait().unwrap() {
            panic!(
                "rastros serve ended after {after}: {status:?}\n{}",
                self.stderr.lock().unwrap()
            );
        }
    }

    /// Sends SIGTERM, as `systemctl stop` does, and waits (at most 10 s) for the end: the
    /// exit code, everything said on standard error, and how long the stop took.
    fn terminate(mut self) -> (Option<i32>, String, Duration) {
        let clock = Instant::now();
        let status = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                clock.elapsed() < Duration::from_secs(10),
                "still running 10 s after SIGTERM\n{}",
                self.stderr.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        let took = clock.elapsed();
        // The standard error reader ends with the process.
        std::thread::sleep(Duration::from_millis(100));
        let stderr = self.stderr.lock().unwrap().clone();
        (status.code(), stderr, took)
    }

    /// One request on a fresh connection, read to the end (`Connection: close`).
    fn request(&self, method: &str, path: &str, body: &str) -> String {
        let mut stream = TcpStream::connect(self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream
            .write_all(raw_request(method, path, body, "close").as_bytes())
            .unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).unwrap();
        String::from_utf8_lossy(&answer).into_owned()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP/1.1 request with `Connection: connection`.
fn raw_request(method: &str, path: &str, body: &str, connection: &str) -> String {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: {connection}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

const ANALYSIS: &str = r#"{"board":"5x5","start":"c3","moves":["c4"]}"#;

#[test]
fn clients_that_pipeline_and_hang_up_end_only_their_own_connection() {
    let mut server = Server::start(&[]);
    let requests = [
        ("GET", "/api/rules", ""),
        ("GET", "/style.css", ""),
        ("POST", "/api/analyze", ANALYSIS),
    ];
    for round in 0..4 {
        for (method, path, body) in requests {
            // Eight requests at once, then: nothing read, a little read, or half closed
            // first; then the connection is dropped with answers still on their way.
            for read in [0, 100, 2000] {
                let mut stream = TcpStream::connect(server.addr).unwrap_or_else(|e| {
                    server.assert_running(&format!("round {round}, {method} {path}"));
                    panic!("{e}")
                });
                let eight = raw_request(method, path, body, "keep-alive").repeat(8);
                stream.write_all(eight.as_bytes()).unwrap();
                if read > 0 {
                    stream
                        .set_read_timeout(Some(Duration::from_secs(10)))
                        .unwrap();
                    let mut buf = vec![0u8; read];
                    let _ = stream.read(&mut buf);
                }
                if read == 2000 {
                    let _ = stream.shutdown(Shutdown::Write);
                }
                drop(stream);
            }
            // Give the server time to write into the closed connections.
            std::thread::sleep(Duration::from_millis(50));
            server.assert_running(&format!("round {round}: pipelined {method} {path}"));
        }
    }
    let answer = server.request("GET", "/api/rules", "");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let answer = server.request("POST", "/api/analyze", ANALYSIS);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    server.assert_running("the normal requests");
}

#[test]
fn printing_commands_still_end_quietly_on_a_closed_pipe() {
    // `rastros perft ... | head`, with the reader gone before the first line (the count
    // takes a fraction of a second, the reader leaves at once): perft is ended by SIGPIPE,
    // as any Unix tool, without a panic or an error message.
    let args = [
        "perft",
        "--board",
        "7x7",
        "--depth",
        "12",
        "--divide",
        "--threads",
        "1",
    ];
    let mut child = command(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let run = crate::common::wait(child, crate::common::TIME_LIMIT);
    assert!(!run.timed_out);
    assert!(!run.panicked(), "{}", run.stderr);
    assert_eq!(run.code, None, "not ended by the signal: {}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn sigterm_finishes_the_request_under_way_and_stops() {
    // No book (an empty folder), so a 7x7 analysis searches until its 1.5 s budget.
    let server = Server::start(&["--move-time-ms", "1500"]);
    let addr = server.addr;
    let slow = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let body = r#"{"board":"7x7","start":"d4","moves":[]}"#;
        stream
            .write_all(raw_request("POST", "/api/analyze", body, "keep-alive").as_bytes())
            .unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    });
    std::thread::sleep(Duration::from_millis(400));
    let (code, stderr, took) = server.terminate();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    let answer = slow.join().unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(r#""exact":false"#), "{answer}");
    // The port is closed.
    assert!(TcpStream::connect(addr).is_err());
}

#[test]
fn one_log_line_per_request_unless_quiet() {
    let server = Server::start(&[]);
    assert!(server
        .request("GET", "/api/rules?lang=de", "")
        .starts_with("HTTP/1.1 200"));
    assert!(server
        .request("GET", "/no/such/file", "")
        .starts_with("HTTP/1.1 404"));
    assert!(server
        .request("POST", "/api/analyze", "{")
        .starts_with("HTTP/1.1 400"));
    let (code, stderr, _) = server.terminate();
    assert_eq!(code, Some(0), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    for (line, (method, path, status)) in lines.iter().zip([
        ("GET", "/api/rules", 200),
        ("GET", "/no/such/file", 404),
        ("POST", "/api/analyze", 400),
    ]) {
        // `2026-01-01T12:00:00.000000Z  INFO request{method=GET path=/x}: answered
        // status=200 ms=3`: a UTC time, the method and path (no query), status, milliseconds.
        let (time, rest) = line.split_once(' ').unwrap();
        assert!(time.ends_with('Z') && time.contains('T'), "{line}");
        let expected =
            format!("INFO request{{method={method} path={path}}}: answered status={status} ms=");
        let ms = rest
            .trim_start()
            .strip_prefix(&expected)
            .unwrap_or_else(|| panic!("{line}"));
        assert!(ms.parse::<u64>().is_ok(), "{line}");
    }

    let quiet = Server::start(&["--quiet"]);
    assert!(quiet
        .request("GET", "/api/rules", "")
        .starts_with("HTTP/1.1 200"));
    let (code, stderr, _) = quiet.terminate();
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stderr, "");
}

/// `rastros serve args` started by a shell after `limits` (`ulimit -v KiB && ...`).
fn serve_under(limits: &str, args: &[&str]) -> std::process::Command {
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg(format!("{limits} && exec \"$0\" serve \"$@\""))
        .arg(env!("CARGO_BIN_EXE_rastros"))
        .args(args)
        .stdin(Stdio::null());
    cmd
}

#[test]
fn limits_the_machine_cannot_give_are_refused_before_listening() {
    // 4 GB of address space: a 64 GiB table cannot be had, so the server does not start
    // (it answered 500 to every analysis when tables were made per request).
    let args = [
        "--listen",
        "127.0.0.1:0",
        "--hash-mb",
        "65536",
        "--threads",
        "1",
    ];
    let run = crate::common::run_command(serve_under("ulimit -v 4000000", &args), TIME_LIMIT);
    assert!(!run.panicked(), "{}", run.stderr);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "rastros: error: --hash-mb 65536: cannot allocate a table of 68719476736 bytes \
         (solver slot 1 of 1)\n"
    );
    assert_eq!(run.stdout, "", "it listened");

    // 100 open files cannot hold 256 connections.
    let args = ["--listen", "127.0.0.1:0"];
    let run = crate::common::run_command(serve_under("ulimit -n 100", &args), TIME_LIMIT);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("rastros: error: --max-connections 256: the open-file limit is 100"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "", "it listened");

    // Under the same limits, a table and a connection cap that fit start as usual.
    let args = [
        "--listen",
        "127.0.0.1:0",
        "--hash-mb",
        "64",
        "--threads",
        "1",
        "--max-connections",
        "30",
    ];
    let cmd = serve_under("ulimit -v 4000000 && ulimit -n 100", &args);
    let server = Server::spawn(cmd, scratch());
    assert!(server
        .request("GET", "/api/rules", "")
        .starts_with("HTTP/1.1 200"));
    let answer = server.request("POST", "/api/analyze", ANALYSIS);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

/// `serve --book` takes a book of a board over 64 cells (format version 2, 128-bit sets):
/// with a 1 ms budget the start of the book's 3x22 game is answered exactly from the book,
/// while the same server without the book can only estimate it in that time.
#[test]
fn serve_answers_from_a_book_of_a_board_over_64_cells() {
    let dir = scratch();
    let book = dir.path().join("3x22.book");
    let build = [
        "book",
        "build",
        "--board",
        "3x22",
        "--start",
        "b15",
        "--depth",
        "2",
        "--threads",
        "1",
        "--out",
    ];
    crate::common::ok(&[&build[..], &[crate::common::s(&book)]].concat());
    let start = r#"{"board":"3x22","start":"b15"}"#;
    let analysis = |extra: &[&str]| {
        let mut args = vec!["--move-time-ms", "1"];
        args.extend_from_slice(extra);
        let mut server = Server::start(&args);
        let answer = server.request("POST", "/api/analyze", start);
        server.assert_running("the analysis");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        let body = &answer[answer.find("\r\n\r\n").expect("a body") + 4..];
        let json: serde_json::Value = serde_json::from_str(body).expect("JSON");
        let (_, stderr, _) = server.terminate();
        (json, stderr)
    };
    let (with, stderr) = analysis(&["--book", crate::common::s(&book)]);
    assert!(
        stderr.contains("opening book: 3x22 from b15, 2 plies deep, 47 entries"),
        "{stderr}"
    );
    assert_eq!(with["exact"], true, "{with}");
    // The book's answer is the solver's (the book's entries are checked at load).
    let solve = crate::common::json(&[
        "solve", "--board", "3x22", "--start", "b15", "--mode", "dte", "--json",
    ]);
    assert_eq!(
        (&with["value"], &with["dte"]),
        (&solve["value"], &solve["dte"])
    );
    assert_eq!(with["best_moves"], solve["best_moves"], "{with}");
    assert_eq!(with["moves"].as_array().map(Vec::len), Some(8), "{with}");
    let (without, _) = analysis(&[]);
    assert_eq!(without["exact"], false, "{without}");
    // A cut version 2 book is refused before the server listens, in one line naming it.
    let cut = dir.path().join("cut.book");
    std::fs::write(&cut, &std::fs::read(&book).unwrap()[..100]).unwrap();
    let cut = crate::common::s(&cut);
    let err = crate::common::fails(&["serve", "--book", cut, "--listen", "127.0.0.1:0"]);
    assert!(
        err.contains(&format!("--book {cut}: truncated book")) && err.lines().count() == 1,
        "{err}"
    );
}
