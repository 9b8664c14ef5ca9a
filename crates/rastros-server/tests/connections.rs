//! The server's connections on loopback: a request is answered, a client that never
//! finishes its headers is cut off after the header read timeout, a client that never
//! reads its answers is cut off after the write stall limit, connections past the cap wait
//! for a place, and the stop signal ends the server within its grace however long a client
//! dawdles. Few connections, each bounded in time.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use rastros_server::{router, serve_until, Config, Limits};

/// A server on a free loopback port with `limits`, stopped when `stop` receives; the
/// runtime it runs on, and its address.
fn start(
    limits: Limits,
    stop: tokio::sync::oneshot::Receiver<()>,
) -> (
    tokio::runtime::Runtime,
    SocketAddr,
    tokio::task::JoinHandle<()>,
) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let config = Config {
        hash_mb: 8,
        slots: 1,
        ..Config::default()
    };
    let server = runtime.spawn(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        tx.send(listener.local_addr().unwrap()).unwrap();
        let stop = async {
            let _ = stop.await;
        };
        serve_until(listener, router(&config), limits, stop)
            .await
            .unwrap();
    });
    let addr = rx.recv().unwrap();
    assert!(addr.ip().is_loopback());
    (runtime, addr, server)
}

/// Everything the server sends on `stream` until it closes the connection, and how long
/// that took; fails if it is still open after 10 s.
fn until_closed(stream: &mut TcpStream) -> (String, Duration) {
    let clock = Instant::now();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!("still open after {:?}: {e}", clock.elapsed()),
        }
    }
    (String::from_utf8_lossy(&got).into_owned(), clock.elapsed())
}

/// `GET path` with `Connection: close` on `stream`: the answer, and how long it took from
/// the request sent to the connection closed.
fn get(stream: &mut TcpStream, path: &str) -> (String, Duration) {
    let addr = stream.peer_addr().unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    until_closed(stream)
}

#[test]
fn a_client_that_never_finishes_its_headers_is_cut_off() {
    let limits = Limits {
        header_read: Duration::from_millis(300),
        ..Limits::default()
    };
    let (stop, stopped) = tokio::sync::oneshot::channel();
    let (_runtime, addr, _server) = start(limits, stopped);

    // A whole request is answered.
    let (answer, _) = get(&mut TcpStream::connect(addr).unwrap(), "/api/rules?lang=de");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("Schleimspur"), "{answer}");

    // Half a request: the connection ends after the header read timeout, not never.
    let mut slow = TcpStream::connect(addr).unwrap();
    write!(slow, "GET /api/rules HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
    let (_, took) = until_closed(&mut slow);
    assert!(took >= Duration::from_millis(250), "{took:?}");
    let _ = stop.send(());
}

#[test]
fn the_stop_signal_ends_the_server_within_its_grace() {
    let limits = Limits {
        header_read: Duration::from_secs(60),
        shutdown_grace: Duration::from_millis(300),
        ..Limits::default()
    };
    let (stop, stopped) = tokio::sync::oneshot::channel();
    let (runtime, addr, server) = start(limits, stopped);
    let mut slow = TcpStream::connect(addr).unwrap();
    write!(slow, "GET /api/rules HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
    // Let the server take the connection in before the stop.
    std::thread::sleep(Duration::from_millis(200));
    let clock = Instant::now();
    stop.send(()).unwrap();
    runtime
        .block_on(async { tokio::time::timeout(Duration::from_secs(10), server).await })
        .expect("the server stopped")
        .unwrap();
    assert!(
        clock.elapsed() < Duration::from_secs(5),
        "{:?}",
        clock.elapsed()
    );
    // And the dawdling client's connection is gone with it.
    let (_, _) = until_closed(&mut slow);
    // The port is closed: no new connection is taken.
    assert!(TcpStream::connect(addr).is_err());
}

#[test]
fn a_client_that_pipelines_and_never_reads_is_cut_off_after_the_write_stall_limit() {
    let limits = Limits {
        write_stall: Duration::from_millis(300),
        ..Limits::default()
    };
    let (stop, stopped) = tokio::sync::oneshot::channel();
    let (_runtime, addr, _server) = start(limits, stopped);

    // Requests pipelined without end (at most 64 MiB of them), answers never read: the
    // socket buffers fill, the server's writes wait, and past the limit it closes the
    // connection, which ends this writer with a reset instead of its own 20 s timeout.
    let mut greedy = TcpStream::connect(addr).unwrap();
    greedy
        .set_write_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let request = format!("GET /style.css HTTP/1.1\r\nHost: {addr}\r\n\r\n").repeat(64);
    let clock = Instant::now();
    let mut sent = 0;
    let error = loop {
        match greedy.write_all(request.as_bytes()) {
            Ok(()) => sent += request.len(),
            Err(e) => break Some(e),
        }
        if sent > 64 << 20 {
            break None;
        }
    };
    let took = clock.elapsed();
    let error = error.expect("the server read 64 MiB of requests without its answers read");
    assert!(
        matches!(
            error.kind(),
            std::io::ErrorKind::ConnectionReset
                | std::io::ErrorKind::BrokenPipe
                | std::io::ErrorKind::ConnectionAborted
        ),
        "not closed by the server after {took:?} and {sent} bytes: {error}"
    );
    assert!(took < Duration::from_secs(15), "{took:?}");

    // The server itself is fine.
    let (answer, _) = get(&mut TcpStream::connect(addr).unwrap(), "/api/rules");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let _ = stop.send(());
}

#[test]
fn connections_past_the_cap_wait_for_one_to_end() {
    let limits = Limits {
        header_read: Duration::from_millis(600),
        max_connections: 2,
        ..Limits::default()
    };
    let (stop, stopped) = tokio::sync::oneshot::channel();
    let (_runtime, addr, _server) = start(limits, stopped);

    // Two clients that send nothing hold both places until the header read timeout.
    let mut idle: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(addr).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(100));
    // A third is answered, but only once one of them is cut off.
    let (answer, waited) = get(&mut TcpStream::connect(addr).unwrap(), "/api/rules");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(waited >= Duration::from_millis(400), "{waited:?}");
    for client in &mut idle {
        let (_, _) = until_closed(client);
    }
    let _ = stop.send(());
}
