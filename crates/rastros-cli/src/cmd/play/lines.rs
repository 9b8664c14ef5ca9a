//! Where the lines typed come from: standard input, read on a thread of its own so that
//! the game notices Ctrl-C while it waits for a line, or, in the tests, any reader.

use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// What waiting for a line gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, with its newline if it had one (invalid UTF-8 replaced).
    Text(String),
    /// The end of the input (or a read error).
    End,
    /// Ctrl-C came first.
    Interrupted,
}

/// A source of typed lines.
pub trait Lines {
    /// The next line, waiting for it.
    fn next_line(&mut self) -> Line;
}

/// The lines of a reader, read on the calling thread (never [`Line::Interrupted`]): the
/// tests' scripts.
#[cfg(test)]
#[derive(Debug)]
pub struct Reader<R>(pub R);

#[cfg(test)]
impl<R: BufRead> Lines for Reader<R> {
    fn next_line(&mut self) -> Line {
        match read_line(&mut self.0) {
            Some(bytes) => Line::Text(String::from_utf8_lossy(&bytes).into_owned()),
            None => Line::End,
        }
    }
}

/// The next line of `input` as bytes, `None` at its end (or on a read error).
fn read_line(input: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    loop {
        match input.read_until(b'\n', &mut buf) {
            Ok(0) if buf.is_empty() => return None,
            Ok(_) => return Some(buf),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        }
    }
}

/// How often the wait for a line looks at the Ctrl-C flag.
const POLL: Duration = Duration::from_millis(25);

/// Standard input, read line by line on a thread of its own; the wait for a line ends
/// with [`Line::Interrupted`] as soon as `ctrl_c` is set.
#[derive(Debug)]
pub struct Stdin {
    lines: Receiver<Vec<u8>>,
    ctrl_c: Arc<AtomicBool>,
}

impl Stdin {
    /// Starts the reading thread. It reads ahead of the game (lines are answered in order
    /// all the same) and stops at the end of the input; the program may end while it waits.
    pub fn spawn(ctrl_c: Arc<AtomicBool>) -> io::Result<Stdin> {
        let (send, lines) = mpsc::channel();
        std::thread::Builder::new()
            .name("rastros-stdin".into())
            .spawn(move || {
                let mut input = io::stdin().lock();
                while let Some(line) = read_line(&mut input) {
                    if send.send(line).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Stdin { lines, ctrl_c })
    }
}

impl Lines for Stdin {
    fn next_line(&mut self) -> Line {
        loop {
            if self.ctrl_c.load(Relaxed) {
                return Line::Interrupted;
            }
            match self.lines.recv_timeout(POLL) {
                Ok(bytes) => return Line::Text(String::from_utf8_lossy(&bytes).into_owned()),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Line::End,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_gives_its_lines_then_the_end() {
        let mut r = Reader(&b"one\ntwo\r\n\xffend"[..]);
        assert_eq!(r.next_line(), Line::Text("one\n".into()));
        assert_eq!(r.next_line(), Line::Text("two\r\n".into()));
        assert_eq!(r.next_line(), Line::Text("\u{fffd}end".into()));
        assert_eq!(r.next_line(), Line::End);
        assert_eq!(r.next_line(), Line::End);
    }

    #[test]
    fn waiting_stops_at_ctrl_c_and_at_the_end() {
        let ctrl_c = Arc::new(AtomicBool::new(false));
        let (send, lines) = mpsc::channel();
        let mut stdin = Stdin {
            lines,
            ctrl_c: Arc::clone(&ctrl_c),
        };
        send.send(b"c3\n".to_vec()).unwrap();
        assert_eq!(stdin.next_line(), Line::Text("c3\n".into()));
        // Nothing typed: Ctrl-C from another thread ends the wait.
        let setter = {
            let ctrl_c = Arc::clone(&ctrl_c);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                ctrl_c.store(true, Relaxed);
            })
        };
        assert_eq!(stdin.next_line(), Line::Interrupted);
        setter.join().unwrap();
        // Ctrl-C wins over a line typed before it was noticed.
        send.send(b"quit\n".to_vec()).unwrap();
        assert_eq!(stdin.next_line(), Line::Interrupted);
        ctrl_c.store(false, Relaxed);
        assert_eq!(stdin.next_line(), Line::Text("quit\n".into()));
        drop(send);
        assert_eq!(stdin.next_line(), Line::End);
    }
}
