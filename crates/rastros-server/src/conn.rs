//! A connection whose writes give up when the client stops reading.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Sleep;

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
