//! `rastros serve` as the binary runs it, under hostile clients on loopback: the process's
//! signal dispositions, start-up checks and connection limits live in the binary, so these
//! tests start the real `rastros serve` (one small server per test, bounded in time).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{command, scratch};

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
        let mut child = command(&args)
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the rastros binary runs");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .parse()
            .unwrap();
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
    let run = common::wait(child, common::TIME_LIMIT);
    assert!(!run.timed_out);
    assert!(!run.panicked(), "{}", run.stderr);
    assert_eq!(run.code, None, "not ended by the signal: {}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}
