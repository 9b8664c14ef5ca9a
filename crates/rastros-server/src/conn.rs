//! The connections: the loop that serves them within the [`Limits`], the stop signal, and
//! a connection whose writes give up when the client stops reading.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Sleep;

use axum::Router;
use std::sync::Arc;

use crate::Limits;

/// Completes on Ctrl-C (SIGINT) or SIGTERM (what `systemctl stop` and container runtimes
/// send), both caught from the moment this is called. Must be called inside a tokio runtime.
pub(crate) fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
    }
}

/// Serves `router` on `listener` over HTTP/1.1 until `stop` completes, then stops
/// accepting, lets the requests under way finish for at most `limits.shutdown_grace`, and
/// returns. (axum's own `serve` has no header read timeout, write stall limit or connection
/// cap; this loop is hyper's server with them.)
pub(crate) async fn serve_until(
    listener: tokio::net::TcpListener,
    router: Router,
    limits: Limits,
    stop: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let (stopping, stopped) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let places = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    tokio::pin!(stop);
    loop {
        // At the cap, wait for a connection to end before accepting the next.
        let place = tokio::select! {
            place = Arc::clone(&places).acquire_owned() => match place {
                Ok(place) => place,
                Err(_) => break,
            },
            () = &mut stop => break,
        };
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
            let _place = place;
            let stream = StallLimit::new(stream, limits.write_stall);
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

/// A TCP stream whose writes (and flushes and shutdown) fail with `TimedOut` once they have
/// waited `limit` without the socket taking a byte. hyper then ends the connection, so a
/// client that never reads holds it for at most `limit` after its buffers fill.
#[derive(Debug)]
pub(crate) struct StallLimit {
    stream: TcpStream,
    limit: Duration,
    /// Started when a write first waits; dropped as soon as one goes through.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl StallLimit {
    pub(crate) fn new(stream: TcpStream, limit: Duration) -> StallLimit {
        StallLimit {
            stream,
            limit,
            stalled: None,
        }
    }

    /// `poll`, a write's outcome, with the stall clock applied: progress stops the clock,
    /// a wait starts it (or keeps it running), and a wait past the limit is an error.
    fn bounded<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let limit = self.limit;
        let clock = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match clock.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing for the write stall limit",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for StallLimit {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for StallLimit {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.bounded(cx, poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.bounded(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_flush(cx);
        this.bounded(cx, poll)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_shutdown(cx);
        this.bounded(cx, poll)
    }
}

/// The server's connections on loopback: a request is answered, a client that never
/// finishes its headers is cut off after the header read timeout, a client that never
/// reads its answers is cut off after the write stall limit, connections past the cap wait
/// for a place, and the stop signal ends the server within its grace however long a client
/// dawdles. Few connections, each bounded in time.
#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::net::{SocketAddr, TcpStream};
    use std::time::{Duration, Instant};

    use super::serve_until;
    use crate::{router, Config, Limits};

    /// A server of the tests, on a free loopback port.
    struct TestServer {
        /// The runtime it runs on.
        runtime: tokio::runtime::Runtime,
        /// Its address.
        addr: SocketAddr,
        /// Its task, which ends when the server has stopped.
        task: tokio::task::JoinHandle<()>,
        /// Stops it (within its grace).
        stop: tokio::sync::oneshot::Sender<()>,
    }

    /// A server with `limits` on a free loopback port.
    fn start(limits: Limits) -> TestServer {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel();
        let (tx, rx) = std::sync::mpsc::channel();
        let config = Config {
            hash_mb: 8,
            slots: 1,
            ..Config::default()
        };
        let task = runtime.spawn(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let stop = async {
                let _ = stopped.await;
            };
            serve_until(listener, router(&config), limits, stop)
                .await
                .unwrap();
        });
        let addr = rx.recv().unwrap();
        assert!(addr.ip().is_loopback());
        TestServer {
            runtime,
            addr,
            task,
            stop,
        }
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
        let server = start(Limits {
            header_read: Duration::from_millis(300),
            ..Limits::default()
        });
        let addr = server.addr;

        // A whole request is answered.
        let (answer, _) = get(&mut TcpStream::connect(addr).unwrap(), "/api/rules?lang=de");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.contains("Schleimspur"), "{answer}");

        // Half a request: the connection ends after the header read timeout, not never.
        let mut slow = TcpStream::connect(addr).unwrap();
        write!(slow, "GET /api/rules HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
        let (_, took) = until_closed(&mut slow);
        assert!(took >= Duration::from_millis(250), "{took:?}");
        let _ = server.stop.send(());
    }

    #[test]
    fn the_stop_signal_ends_the_server_within_its_grace() {
        let limits = Limits {
            header_read: Duration::from_secs(60),
            shutdown_grace: Duration::from_millis(300),
            ..Limits::default()
        };
        let TestServer {
            runtime,
            addr,
            task,
            stop,
        } = start(limits);
        let mut slow = TcpStream::connect(addr).unwrap();
        write!(slow, "GET /api/rules HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
        // Let the server take the connection in before the stop.
        std::thread::sleep(Duration::from_millis(200));
        let clock = Instant::now();
        stop.send(()).unwrap();
        runtime
            .block_on(async { tokio::time::timeout(Duration::from_secs(10), task).await })
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
        let server = start(Limits {
            write_stall: Duration::from_millis(300),
            ..Limits::default()
        });
        let addr = server.addr;

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
        let _ = server.stop.send(());
    }

    #[test]
    fn connections_past_the_cap_wait_for_one_to_end() {
        let server = start(Limits {
            header_read: Duration::from_millis(600),
            max_connections: 2,
            ..Limits::default()
        });
        let addr = server.addr;

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
        let _ = server.stop.send(());
    }
}
