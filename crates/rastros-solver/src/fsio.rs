//! Files written whole or not at all, files read with their path in every error, and the
//! advisory lock that keeps two runs off one piece of work.
//!
//! Every writer of whole files in the crate (books, root checkpoints, work units, unit
//! results, survey files) goes through [`write_atomic`] (a book build's checkpoint is
//! appended to, record by checksummed record, under the lock instead): the bytes go to a temporary
//! file with a unique name in the target's folder, are synced to disk, and the temporary
//! file is renamed over the target. A reader, a second writer or a crash therefore sees the
//! old file or the new one, never a part, and two runs writing the same target never share a
//! temporary name.
//!
//! ```
//! use rastros_solver::fsio;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("notes.txt");
//! fsio::write_atomic(&path, "notes", b"whole\n").unwrap();
//! assert_eq!(fsio::read_to_string(&path, "notes").unwrap(), "whole\n");
//! let missing = fsio::read(&dir.path().join("gone"), "book").unwrap_err();
//! assert!(missing.to_string().starts_with("cannot read book "));
//! ```

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A failed file operation: what was being done, to which path, and why.
///
/// Displayed as `cannot ACTION PATH: REASON`, the one style of every I/O message of the
/// workspace (for example `cannot read book /x/y.book: No such file or directory`).
#[derive(Debug)]
pub struct IoError {
    action: String,
    path: PathBuf,
    source: io::Error,
}

impl IoError {
    /// The error of `action` (like `"read book"`) on `path`.
    pub fn new(action: impl Into<String>, path: impl Into<PathBuf>, source: io::Error) -> Self {
        IoError {
            action: action.into(),
            path: path.into(),
            source,
        }
    }

    /// The path the operation was on.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What was being done, like `"read book"`.
    pub fn action(&self) -> &str {
        &self.action
    }

    /// The kind of the underlying error.
    pub fn kind(&self) -> io::ErrorKind {
        self.source.kind()
    }
}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot {} {}: {}",
            self.action,
            self.path.display(),
            self.source
        )
    }
}

impl std::error::Error for IoError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Refuses to read anything but a regular file (or a link to one): a device such as
/// `/dev/zero` or a pipe has no end to read to. Every reader of the workspace's files asks
/// it first; `what` names the file in errors (`cannot read WHAT PATH: ...`).
pub fn check_input(path: &Path, what: &str) -> Result<(), IoError> {
    let err = |e: io::Error| IoError::new(format!("read {what}"), path, e);
    let meta = fs::metadata(path).map_err(err)?;
    if meta.is_file() {
        Ok(())
    } else if meta.is_dir() {
        Err(err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is a folder",
        )))
    } else {
        Err(err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        )))
    }
}

/// Reads the whole file `path`; `what` names it in errors (`cannot read WHAT PATH: ...`).
/// Only regular files are read (not devices or pipes).
pub fn read(path: &Path, what: &str) -> Result<Vec<u8>, IoError> {
    check_input(path, what)?;
    fs::read(path).map_err(|e| IoError::new(format!("read {what}"), path, e))
}

/// Reads the whole text file `path`; `what` names it in errors. Invalid UTF-8 is an error
/// of kind [`io::ErrorKind::InvalidData`]. Only regular files are read.
pub fn read_to_string(path: &Path, what: &str) -> Result<String, IoError> {
    check_input(path, what)?;
    fs::read_to_string(path).map_err(|e| IoError::new(format!("read {what}"), path, e))
}

/// [`read_to_string`] for a file whose kind never holds more than `max` bytes: a bigger
/// one is refused unread, saying `it is over MAX: a WHAT file holds HOLDS` (`holds` as
/// "a few hundred bytes"), so a stray huge file costs no memory.
pub fn read_to_string_at_most(
    path: &Path,
    what: &str,
    max: u64,
    holds: &str,
) -> Result<String, IoError> {
    use io::{Error, ErrorKind, Read};
    check_input(path, what)?;
    let action = format!("read {what}");
    let too_big = || {
        let size = if max.is_multiple_of(1 << 20) {
            format!("{} MiB", max >> 20)
        } else {
            format!("{max} bytes")
        };
        let why = format!("it is over {size}: a {what} file holds {holds}");
        IoError::new(
            action.clone(),
            path,
            Error::new(ErrorKind::InvalidData, why),
        )
    };
    if fs::metadata(path).is_ok_and(|m| m.len() > max) {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(max + 1).read_to_end(&mut bytes))
        .map_err(|e| IoError::new(action.clone(), path, e))?;
    if bytes.len() as u64 > max {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|_| {
        let why = Error::new(ErrorKind::InvalidData, "stream did not contain valid UTF-8");
        IoError::new(action.clone(), path, why)
    })
}

/// Checks that `path` can take a file written by [`write_atomic`], before any work is
/// done for it: it names a file (not `/` or a path ending in a separator), its folder
/// exists and takes a new file (one is made there and removed), and nothing but a regular
/// file is there already. A folder, a device (such as `/dev/null`), a pipe or a symbolic
/// link is refused rather than replaced by the rename. `what` names the file in errors
/// (`cannot write WHAT PATH: ...`).
pub fn check_output(path: &Path, what: &str) -> Result<(), IoError> {
    check_target(path, what)?;
    // The temporary file a write would make, made and removed at once.
    temporary_beside(path)
        .map(drop)
        .map_err(|e| IoError::new(format!("write {what}"), path, e))
}

/// The checks of [`check_output`] but its probe of the folder: a write makes its
/// temporary file there anyway.
fn check_target(path: &Path, what: &str) -> Result<(), IoError> {
    let refuse = |why: &str| {
        Err(IoError::new(
            format!("write {what}"),
            path,
            io::Error::new(io::ErrorKind::InvalidInput, why.to_string()),
        ))
    };
    let text = path.as_os_str().to_string_lossy();
    if path.file_name().is_none()
        || text.ends_with('/')
        || text.ends_with(std::path::MAIN_SEPARATOR)
    {
        return refuse("it names a folder, not a file");
    }
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return refuse("it is a symbolic link; name the file itself");
        }
        Ok(meta) if meta.is_dir() => return refuse("it is a folder"),
        Ok(meta) if !meta.is_file() => {
            return refuse("it is not a regular file (a device or a pipe), so it is not replaced");
        }
        _ => {}
    }
    match fs::metadata(folder(path)) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => refuse("its folder is not a folder"),
        Err(e) if e.kind() == io::ErrorKind::NotFound => refuse("its folder does not exist"),
        Err(e) => Err(IoError::new(format!("write {what}"), path, e)),
    }
}

/// A new temporary file `.NAME.XXXXXX.tmp` in `path`'s folder. Its errors do not name the
/// temporary file (`tempfile` adds its path), only what went wrong.
fn temporary_beside(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // A temporary file is private (0600) by default; the file it becomes gets the mode any
    // new file gets (0666 less the umask), like `fs::write`.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(folder(path)).map_err(|e| {
        // `tempfile` words its errors "{error} at path {temporary path:?}" and keeps no
        // other way to the first part.
        match e.to_string().rsplit_once(" at path \"") {
            Some((error, _)) => io::Error::new(e.kind(), error.to_string()),
            None => e,
        }
    })
}

/// The folder a file `path` lives in (`.` for a bare file name).
fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Writes `bytes` to `path` whole or not at all: see [`write_atomic_with`].
pub fn write_atomic(path: &Path, what: &str, bytes: &[u8]) -> Result<(), IoError> {
    write_atomic_with(path, what, |w| w.write_all(bytes))
}

/// Writes the file `path` whole or not at all: `write` fills a temporary file with a unique
/// name (`.NAME.XXXXXX.tmp`) in `path`'s folder, which is then synced and renamed over
/// `path`, and the rename synced where the platform allows. If `write` or any step fails the
/// temporary file is removed and `path` is left as it was; `what` names the file in errors
/// (`cannot write WHAT PATH: ...`). A target that is not a regular file is refused first
/// ([`check_output`]).
pub fn write_atomic_with(
    path: &Path,
    what: &str,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), IoError> {
    check_target(path, what)?;
    let err = |e: io::Error| IoError::new(format!("write {what}"), path, e);
    let dir = folder(path);
    let tmp = temporary_beside(path).map_err(err)?;
    {
        let mut out = io::BufWriter::new(tmp.as_file());
        write(&mut out).map_err(err)?;
        out.flush().map_err(err)?;
    }
    tmp.as_file().sync_all().map_err(err)?;
    tmp.persist(path).map_err(|e| err(e.error))?;
    // Make the rename itself durable where a folder can be synced.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Whether `a` and `b` name the same existing file (the same device and inode on Unix, the
/// same canonical path elsewhere), however they are spelled.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        match (fs::canonicalize(a), fs::canonicalize(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

/// An advisory lock held on a file for as long as the value lives: two runs that must not
/// share a piece of work (say two builds of one book) each take it, and the second is refused
/// at once instead of corrupting the first one's files.
#[derive(Debug)]
pub struct FileLock {
    file: File,
    path: PathBuf,
}

/// Why a [`FileLock`] was not taken.
#[derive(Debug)]
pub enum LockError {
    /// Another process holds the lock.
    Held(PathBuf),
    /// The file could not be opened or locked.
    Io(IoError),
}

impl fmt::Display for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LockError::Held(path) => write!(
                f,
                "{} is in use by another running rastros process; wait for it to finish or \
                 stop it",
                path.display()
            ),
            LockError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LockError {}

impl FileLock {
    /// Opens `path` for reading and writing (creating it empty if needed, never truncating
    /// it) and takes an exclusive advisory lock on it without waiting.
    pub fn acquire(path: &Path) -> Result<FileLock, LockError> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| LockError::Io(IoError::new("open", path, e)))?;
        // fs4's lock (flock on Unix, LockFileEx on Windows): std's `File::try_lock` needs
        // Rust 1.89, past the workspace's rust-version.
        match fs4::fs_std::FileExt::try_lock_exclusive(&file) {
            Ok(true) => Ok(FileLock {
                file,
                path: path.to_path_buf(),
            }),
            Ok(false) => Err(LockError::Held(path.to_path_buf())),
            Err(e) => Err(LockError::Io(IoError::new("lock", path, e))),
        }
    }

    /// The locked file.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// The locked file, mutably.
    pub fn file_mut(&mut self) -> &mut File {
        &mut self.file
    }

    /// The path of the locked file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// FNV-1a, 64 bits, of `bytes`: the checksum of book files, checkpoint records and unit
/// results. Any change of a single byte changes it (every step is a bijection).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// `text` with control characters escaped (`\u{1b}`) and cut after `max` characters with
/// `…`: what a file holds, fit to be printed in a one-line error. The characters that
/// reorder, hide or break a line of text on screen (bidirectional controls, zero-width
/// ones, line and paragraph separators, the byte order mark) are escaped too. Every echo of
/// untrusted text (file errors, `play`'s answer to unknown input) goes through it.
pub fn printable(text: &str, max: usize) -> String {
    let hidden = |c: char| {
        matches!(
            c,
            '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}'
        )
    };
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        if c.is_control() || hidden(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` from a file quoted for an error: in single quotes, [`printable`], at most 60
/// characters.
pub(crate) fn quote(text: &str) -> String {
    format!("'{}'", printable(text, 60))
}

/// The reason a file is refused for, [`printable`] and at most 300 characters (the
/// position and cell parsers quote what the file holds).
pub(crate) fn tame(reason: &str) -> String {
    printable(reason, 300)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_escapes_what_would_change_the_line_on_screen_and_cuts_by_characters() {
        assert_eq!(printable("a\x1b[2Jb", 60), "a\\u{1b}[2Jb");
        // Right-to-left override, zero-width space, line separator, byte order mark.
        assert_eq!(
            printable("x\u{202E}y\u{200B}z\u{2028}w\u{FEFF}", 60),
            "x\\u{202e}y\\u{200b}z\\u{2028}w\\u{feff}"
        );
        // Cut after a number of characters, never inside one.
        assert_eq!(printable("ééééé", 3), "ééé…");
        assert_eq!(printable("plain", 60), "plain");
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book");
        write_atomic(&path, "book", b"old").unwrap();
        let err = write_atomic_with(&path, "book", |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("disk on fire"))
        })
        .unwrap_err();
        assert!(err.to_string().starts_with("cannot write book "), "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_replaced_and_read() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        fs::write(&target, b"kept").unwrap();
        // A link to a file, a socket (like a device, not a regular file), a folder, a
        // path ending in a separator and a missing folder are all refused, untouched.
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let socket = dir.path().join("socket");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        let folder = dir.path().join("folder");
        fs::create_dir(&folder).unwrap();
        let slash = PathBuf::from(format!("{}/", folder.display()));
        let missing = dir.path().join("gone").join("file");
        for (path, why) in [
            (&link, "symbolic link"),
            (&socket, "not a regular file"),
            (&folder, "it is a folder"),
            (&slash, "names a folder"),
            (&missing, "folder does not exist"),
        ] {
            let err = write_atomic(path, "book", b"new").unwrap_err().to_string();
            assert!(err.starts_with("cannot write book "), "{err}");
            assert!(err.contains(why), "{err}");
        }
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&target).unwrap(), b"kept");
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::symlink_metadata(&socket)
            .unwrap()
            .file_type()
            .is_socket());
        assert_eq!(fs::read_dir(&folder).unwrap().count(), 0);
        // Reading: a link to a file is read; a device or a folder is refused at once.
        assert_eq!(read(&link, "book").unwrap(), b"kept");
        let zero = read(Path::new("/dev/zero"), "book")
            .unwrap_err()
            .to_string();
        assert_eq!(zero, "cannot read book /dev/zero: not a regular file");
        let err = read_to_string(&folder, "survey").unwrap_err().to_string();
        assert!(err.ends_with("it is a folder"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_written_file_gets_the_mode_of_any_new_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        fs::write(&plain, b"x").unwrap();
        let atomic = dir.path().join("atomic");
        write_atomic(&atomic, "survey", b"x").unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&atomic), mode(&plain));
    }

    #[test]
    fn two_writers_of_one_file_never_share_a_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("result");
        std::thread::scope(|s| {
            for t in 0..8u8 {
                let path = &path;
                s.spawn(move || {
                    for _ in 0..50 {
                        write_atomic(path, "result", &[t; 4096]).unwrap();
                        let back = fs::read(path).unwrap();
                        assert_eq!(back.len(), 4096);
                        assert!(back.iter().all(|&b| b == back[0]));
                    }
                });
            }
        });
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_lock_is_refused_while_held_and_free_once_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ckpt");
        let first = FileLock::acquire(&path).unwrap();
        assert!(matches!(FileLock::acquire(&path), Err(LockError::Held(_))));
        drop(first);
        FileLock::acquire(&path).unwrap();
    }

    #[test]
    fn the_same_file_is_known_by_metadata_not_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        fs::write(&a, b"x").unwrap();
        let dotted = dir.path().join(".").join("a");
        assert!(same_file(&a, &dotted));
        let b = dir.path().join("b");
        fs::write(&b, b"x").unwrap();
        assert!(!same_file(&a, &b));
        assert!(!same_file(&a, &dir.path().join("missing")));
    }
}
