//! The standing harness: every subcommand run with families of hostile input (odd numbers,
//! odd files, an output that is the input, a full standard output, a failing standard error,
//! concurrent runs on the same files). Whatever the input, `rastros` never panics, never runs
//! past a time limit, fails with exit code 2 and a message naming the argument or the file,
//! and leaves the files it was given as they were.
//!
//! A new subcommand joins the harness by adding one line to [`COMMANDS`] (and, for its
//! numeric arguments and input files, one line to [`NUMBERS`] and [`FILES`]).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common::{
    assert_clean_failure, build_book, command, dev_full, fails, fails_with, ok, rng, run_command,
    s, scratch, wait, Run, TIME_LIMIT,
};
use rand::RngExt;

/// Every subcommand as a quick run that succeeds on the fixture. Placeholders: `{book}`,
/// `{jsonl}` (its export), `{unit}` (a unit file), `{split}` (a solved split directory),
/// `{ckpt}` (a finished solve checkpoint), `{survey}` (a directory with a survey), `{out}` (a
/// path that does not exist yet).
const COMMANDS: &[(&str, &[&str])] = &[
    ("perft", &["perft", "--board", "5x5", "--depth", "3"]),
    (
        "solve",
        &[
            "solve",
            "--board",
            "5x5",
            "--threads",
            "1",
            "--hash-mb",
            "8",
        ],
    ),
    (
        "solve --checkpoint",
        &[
            "solve",
            "--board",
            "5x5",
            "--hash-mb",
            "8",
            "--checkpoint",
            "{out}",
        ],
    ),
    (
        "solve --resume",
        &[
            "solve",
            "--board",
            "5x5",
            "--hash-mb",
            "8",
            "--resume",
            "{ckpt}",
        ],
    ),
    ("analyze", &["analyze", "--board", "5x5", "--hash-mb", "8"]),
    (
        "book build",
        &[
            "book",
            "build",
            "--board",
            "5x5",
            "--depth",
            "2",
            "--out",
            "{out}",
            "--hash-mb",
            "8",
        ],
    ),
    ("book probe", &["book", "probe", "{book}", "--moves", "b2"]),
    ("book info", &["book", "info", "{book}"]),
    ("book export", &["book", "export", "{book}"]),
    (
        "book export --out",
        &[
            "book", "export", "{book}", "--format", "csv", "--out", "{out}",
        ],
    ),
    (
        "book import",
        &["book", "import", "{jsonl}", "--out", "{out}"],
    ),
    (
        "survey",
        &[
            "survey",
            "--boards",
            "3x3",
            "--out",
            "{out}",
            "--hash-mb",
            "8",
        ],
    ),
    (
        "survey --merge",
        &[
            "survey",
            "--boards",
            "3x4",
            "--merge",
            "--out",
            "{survey}",
            "--hash-mb",
            "8",
        ],
    ),
    (
        "split",
        &["split", "--board", "5x5", "--depth", "1", "--out", "{out}"],
    ),
    ("solve-unit", &["solve-unit", "{unit}", "--hash-mb", "8"]),
    ("merge", &["merge", "{split}"]),
    ("merge --verify", &["merge", "{split}", "--verify"]),
    (
        "merge --recheck",
        &[
            "merge",
            "{split}",
            "--recheck",
            "3",
            "--seed",
            "1",
            "--hash-mb",
            "8",
        ],
    ),
    ("rules", &["rules"]),
    ("play", &["play", "--board", "5x5"]),
];

/// Numeric arguments: the command (a name in [`COMMANDS`]) and the argument.
const NUMBERS: &[(&str, &str)] = &[
    ("perft", "--depth"),
    ("solve", "--threads"),
    ("solve", "--hash-mb"),
    ("analyze", "--threads"),
    ("book build", "--depth"),
    ("book build", "--threads"),
    ("book export", "--max-ply"),
    ("survey", "--time-limit"),
    ("survey", "--dte-time-limit"),
    ("survey", "--max-cells"),
    ("survey", "--min-side"),
    ("survey", "--max-side"),
    ("split", "--depth"),
    ("split", "--max-units"),
    ("solve-unit", "--threads"),
    ("merge --recheck", "--recheck"),
    ("merge --recheck", "--seed"),
    ("play", "--threads"),
];

/// The odd numbers every numeric argument gets.
const ODD_NUMBERS: &[&str] = &[
    "NaN",
    "inf",
    "-inf",
    "-1",
    "0",
    "1e20",
    "4294967295",
    "18446744073709551616",
    "0x10",
    "",
];

/// Input files: the command, the placeholder whose file is made hostile (for a directory
/// placeholder, the file inside it), whether every flipped byte must be detected (files with
/// a checksum) rather than possibly read as other valid content, and whether the file may be
/// missing (`survey --merge` into a new directory).
const FILES: &[(&str, &str, bool, bool)] = &[
    ("solve --resume", "{ckpt}", true, false),
    ("book probe", "{book}", true, false),
    ("book info", "{book}", true, false),
    ("book export", "{book}", true, false),
    ("book import", "{jsonl}", false, false),
    ("survey --merge", "{survey}/survey.csv", false, true),
    ("solve-unit", "{unit}", false, false),
    ("merge", "{split}/unit-000003.pos.result", true, false),
    ("merge", "{split}/split.txt", false, false),
    ("merge", "{split}/unit-000003.pos", false, false),
    (
        "merge --verify",
        "{split}/unit-000003.pos.cert",
        true,
        false,
    ),
];

/// The fixture: one file or directory of every kind, made by the commands themselves (the
/// split, the checkpoint and the survey by their rows of [`COMMANDS`]).
fn fixture(dir: &Path) {
    let p = |name: &str| s(&dir.join(name)).to_string();
    build_book(&dir.join("b.book"), 3);
    ok(&["book", "export", &p("b.book"), "--out", &p("b.jsonl")]);
    let make = |name: &str, out: &str| {
        let out = p(out);
        let args: Vec<&str> = row(name)
            .iter()
            .map(|a| if *a == "{out}" { out.as_str() } else { a })
            .collect();
        ok(&args);
    };
    make("split", "split");
    for i in 0..8 {
        ok(&[
            "solve-unit",
            &p(&format!("split/unit-{i:06}.pos")),
            "--hash-mb",
            "8",
            "--certify",
        ]);
    }
    fs::create_dir(dir.join("unit")).unwrap();
    fs::copy(dir.join("split/unit-000002.pos"), dir.join("unit/u.pos")).unwrap();
    make("solve --checkpoint", "cp.json");
    make("survey", "survey");
}

/// A case's own copy of the fixture, and the command's arguments with placeholders filled.
struct Case {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
}

impl Case {
    fn new(fixture: &Path) -> Case {
        let tmp = scratch();
        let dir = tmp.path().to_path_buf();
        copy_tree(fixture, &dir);
        Case { _tmp: tmp, dir }
    }

    fn path(&self, placeholder: &str) -> PathBuf {
        let name = match placeholder.split_once('/') {
            Some((p, rest)) => return self.path(p).join(rest),
            None => placeholder,
        };
        self.dir.join(match name {
            "{book}" => "b.book",
            "{jsonl}" => "b.jsonl",
            "{unit}" => "unit/u.pos",
            "{split}" => "split",
            "{ckpt}" => "cp.json",
            "{survey}" => "survey",
            "{out}" => "new-output",
            other => panic!("unknown placeholder {other}"),
        })
    }

    fn args(&self, args: &[&str]) -> Vec<String> {
        args.iter()
            .map(|a| {
                if a.starts_with('{') {
                    s(&self.path(a)).to_string()
                } else {
                    a.to_string()
                }
            })
            .collect()
    }

    /// `rastros args` with the placeholders filled.
    fn command(&self, args: &[&str]) -> std::process::Command {
        let args = self.args(args);
        command(&args.iter().map(String::as_str).collect::<Vec<_>>())
    }

    /// Every file under the case directory and a hash of its bytes.
    fn snapshot(&self) -> BTreeMap<PathBuf, u64> {
        let mut out = BTreeMap::new();
        snapshot_into(&self.dir, &mut out);
        out
    }
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn snapshot_into(dir: &Path, out: &mut BTreeMap<PathBuf, u64>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            snapshot_into(&path, out);
        } else {
            out.insert(
                path.clone(),
                rastros_solver::fsio::fnv1a64(&fs::read(&path).unwrap()),
            );
        }
    }
}

fn row(name: &str) -> &'static [&'static str] {
    COMMANDS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no command {name} in COMMANDS"))
        .1
}

fn run_args(args: &[String]) -> Run {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    run_command(command(&refs), TIME_LIMIT)
}

#[test]
fn every_command_runs_on_the_fixture() {
    let tmp = scratch();
    fixture(tmp.path());
    for (name, args) in COMMANDS {
        let case = Case::new(tmp.path());
        let run = run_args(&case.args(args));
        assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);
    }
}

#[test]
fn odd_numbers_are_refused_by_name_or_run_in_time() {
    let tmp = scratch();
    fixture(tmp.path());
    for (name, flag) in NUMBERS {
        let case = Case::new(tmp.path());
        for value in ODD_NUMBERS {
            let before = case.snapshot();
            let mut args = case.args(row(name));
            if let Some(i) = args.iter().position(|a| a == flag) {
                args.drain(i..i + 2);
            }
            // `--flag=VALUE` keeps "-1" a value, not a flag.
            args.push(format!("{flag}={value}"));
            let what = format!("{name} {flag}={value}");
            let run = run_args(&args);
            assert!(!run.timed_out, "{what}: still running after {TIME_LIMIT:?}");
            assert!(!run.panicked(), "{what}: panicked\n{}", run.stderr);
            if run.code != Some(0) {
                assert_clean_failure(&what, &run, flag);
                assert_eq!(case.snapshot(), before, "{what} changed its input files");
            }
            // A success may have written its output: start the next value afresh.
            let _ = fs::remove_dir_all(case.path("{out}"));
            let _ = fs::remove_file(case.path("{out}"));
        }
    }
}

/// The hostile versions of a file whose good bytes are `good`.
fn hostile_versions(good: &[u8], seed: u64) -> Vec<(String, Option<Vec<u8>>)> {
    let mut rng = rng(seed);
    let mut out: Vec<(String, Option<Vec<u8>>)> = vec![
        ("empty".into(), Some(Vec::new())),
        ("a directory".into(), None),
        ("truncated".into(), Some(good[..good.len() / 2].to_vec())),
        ("cut short".into(), Some(good[..good.len() - 3].to_vec())),
        ("doubled".into(), Some([good, good].concat())),
        ("invalid UTF-8".into(), Some([good, b"\xff\xfe\n"].concat())),
    ];
    let random: Vec<u8> = (0..700).map(|_| rng.random::<u8>()).collect();
    out.push(("random bytes".into(), Some(random)));
    for _ in 0..6 {
        let mut flipped = good.to_vec();
        let at = rng.random_range(0..flipped.len());
        flipped[at] ^= 1 << rng.random_range(0..8);
        out.push((format!("byte {at} flipped"), Some(flipped)));
    }
    out
}

#[test]
fn odd_files_are_refused_by_name_and_left_as_they_were() {
    let tmp = scratch();
    fixture(tmp.path());
    for (n, (name, placeholder, checksummed, missing_ok)) in FILES.iter().enumerate() {
        let good = fs::read(Case::new(tmp.path()).path(placeholder)).unwrap();
        for (kind, bytes) in hostile_versions(&good, n as u64) {
            let case = Case::new(tmp.path());
            let file = case.path(placeholder);
            fs::remove_file(&file).unwrap();
            match &bytes {
                Some(b) => fs::write(&file, b).unwrap(),
                None => fs::create_dir(&file).unwrap(),
            }
            let before = case.snapshot();
            let what = format!("{name} with {placeholder} {kind}");
            let run = run_args(&case.args(row(name)));
            let name_of_file = file.file_name().unwrap().to_str().unwrap();
            let flipped = kind.starts_with("byte ");
            if run.code == Some(0) && flipped && !checksummed {
                // Another valid file (say a digit of a DTE changed): read as such.
                continue;
            }
            if run.code == Some(0) && kind == "doubled" && !checksummed {
                // Text formats may read a repeated header or line as valid.
                continue;
            }
            assert_clean_failure(&what, &run, name_of_file);
            assert_eq!(case.snapshot(), before, "{what} changed its input files");
        }
        // A file that is not there.
        let case = Case::new(tmp.path());
        let file = case.path(placeholder);
        fs::remove_file(&file).unwrap();
        let run = run_args(&case.args(row(name)));
        let what = format!("{name} with {placeholder} missing");
        if *missing_ok {
            assert_eq!(run.code, Some(0), "{what}: {}", run.stderr);
        } else {
            assert_clean_failure(&what, &run, file.file_name().unwrap().to_str().unwrap());
        }
    }
}

#[test]
fn an_output_that_is_the_input_is_refused() {
    let tmp = scratch();
    fixture(tmp.path());
    let case = Case::new(tmp.path());
    let book = case.path("{book}");
    let jsonl = case.path("{jsonl}");
    let linked = case.dir.join("hard-link.book");
    fs::hard_link(&book, &linked).unwrap();
    let dotted = case.dir.join(".").join("b.book");
    let before = case.snapshot();
    for (args, input) in [
        (vec!["book", "export", s(&book), "--out", s(&book)], &book),
        (vec!["book", "export", s(&book), "--out", s(&dotted)], &book),
        (
            vec![
                "book",
                "export",
                s(&book),
                "--format",
                "csv",
                "--out",
                s(&linked),
            ],
            &book,
        ),
        (
            vec!["book", "import", s(&jsonl), "--out", s(&jsonl)],
            &jsonl,
        ),
    ] {
        let run = run_args(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>());
        assert_clean_failure(&format!("{args:?}"), &run, "is the input file");
        assert!(run.stderr.contains(s(input)), "{}", run.stderr);
        assert_eq!(case.snapshot(), before, "{args:?} changed its input");
    }
    // Outputs that exist already and must not be overwritten.
    let ckpt = case.path("{ckpt}");
    let run = run_args(&case.args(&["solve", "--board", "5x5", "--checkpoint", "{ckpt}"]));
    assert_clean_failure("solve --checkpoint over a file", &run, s(&ckpt));
    let run = run_args(&case.args(&[
        "split", "--board", "5x5", "--depth", "1", "--out", "{split}",
    ]));
    assert_clean_failure("split into a split", &run, "already holds a split");
    assert_eq!(case.snapshot(), before);
}

#[test]
fn a_full_standard_output_is_an_error_and_a_failing_standard_error_stops_nothing() {
    let tmp = scratch();
    fixture(tmp.path());
    for (name, args) in COMMANDS {
        let case = Case::new(tmp.path());
        let mut cmd = case.command(args);
        cmd.stdout(dev_full());
        cmd.stderr(Stdio::piped());
        let run = wait(cmd.spawn().unwrap(), TIME_LIMIT);
        assert_clean_failure(&format!("{name} > /dev/full"), &run, "standard output");

        // Progress and notes on a full standard error never stop the work.
        let case = Case::new(tmp.path());
        let mut cmd = case.command(args);
        cmd.stderr(dev_full());
        cmd.stdout(Stdio::piped());
        let run = wait(cmd.spawn().unwrap(), TIME_LIMIT);
        assert_eq!(run.code, Some(0), "{name} 2> /dev/full");
        if args.contains(&"{out}") {
            assert!(
                case.path("{out}").exists(),
                "{name} 2> /dev/full wrote nothing"
            );
        }
    }
}

#[test]
fn concurrent_runs_on_the_same_files_lose_nothing_and_say_who_is_in_the_way() {
    let tmp = scratch();
    fixture(tmp.path());
    let case = Case::new(tmp.path());
    let spawn = |args: &[&str]| {
        let mut cmd = case.command(args);
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        cmd.spawn().unwrap()
    };
    for _ in 0..3 {
        // Two jobs on one unit: both finish, and the result is whole.
        let (a, b) = (spawn(row("solve-unit")), spawn(row("solve-unit")));
        for r in [wait(a, TIME_LIMIT), wait(b, TIME_LIMIT)] {
            assert_eq!(r.code, Some(0), "{}", r.stderr);
        }
        rastros_solver::UnitResult::<u64>::load(&case.dir.join("unit/u.pos.result")).unwrap();
        // Two resumes of one checkpoint: the same answer.
        let (a, b) = (spawn(row("solve --resume")), spawn(row("solve --resume")));
        let (a, b) = (wait(a, TIME_LIMIT), wait(b, TIME_LIMIT));
        assert_eq!(
            (a.code, b.code),
            (Some(0), Some(0)),
            "{}{}",
            a.stderr,
            b.stderr
        );
        assert_eq!(a.stdout.lines().nth(7), b.stdout.lines().nth(7));
    }
    // Two builds of one book: the second is refused while the first holds the checkpoint,
    // or runs after it; either way the book is whole.
    let book = case.dir.join("twice.book");
    let build = [
        "book",
        "build",
        "--board",
        "6x6",
        "--start",
        "c3",
        "--depth",
        "4",
        "--hash-mb",
        "8",
        "--threads",
        "1",
        "--out",
    ];
    let mut refused = 0;
    for _ in 0..6 {
        let _ = fs::remove_file(&book);
        let args: Vec<&str> = build.iter().copied().chain([s(&book)]).collect();
        let (a, b) = (spawn(&args), spawn(&args));
        let runs = [wait(a, TIME_LIMIT), wait(b, TIME_LIMIT)];
        assert!(runs.iter().any(|r| r.code == Some(0)));
        for r in &runs {
            if r.code != Some(0) {
                assert_clean_failure("a second build of one book", r, "another rastros build");
                refused += 1;
            }
        }
        ok(&["book", "info", s(&book)]);
        if refused > 0 {
            break;
        }
    }
    // At least once the second build must have met the first one.
    assert!(refused > 0, "the builds never overlapped");
}

/// Outputs that cannot take a file are refused before the work, not after it (an 8x8
/// certificate or survey would run far past the time limit), and nothing but a regular file
/// is replaced or read: not a folder, a symbolic link or a device.
#[cfg(unix)]
#[test]
fn outputs_are_checked_before_the_work_and_only_regular_files_are_used() {
    let tmp = scratch();
    let p = |name: &str| s(&tmp.path().join(name)).to_string();
    fs::create_dir(tmp.path().join("folder")).unwrap();
    fs::write(tmp.path().join("target"), b"kept").unwrap();
    std::os::unix::fs::symlink(tmp.path().join("target"), tmp.path().join("link")).unwrap();
    let eight = ["--board", "8x8", "--start", "d4"];

    fn certify<'a>(eight: &[&'a str], out: &'a str) -> Vec<&'a str> {
        [&["certify"][..], eight, &["--out", out]].concat()
    }
    fails_with(
        &certify(&eight, &format!("{}/", p("folder"))),
        "names a folder, not a file",
    );
    fails_with(&certify(&eight, &p("folder")), "it is a folder");
    fails_with(&certify(&eight, &p("link")), "symbolic link");
    fails_with(
        &certify(&eight, &p("gone/cert")),
        "its folder does not exist",
    );
    // A folder that takes no new file (procfs, even for root) is found before the work, and
    // the error names the output, not the temporary file the check made.
    let err = fails(&certify(&eight, "/proc/rastros.cert"));
    assert!(
        err.contains("cannot write certificate /proc/rastros.cert: No such file or directory")
            && !err.contains(".tmp"),
        "{err}"
    );
    fails_with(
        &["survey", "--boards", "8x8", "--out", "/proc"],
        "cannot write survey /proc/survey.csv",
    );
    let book = |out: &str| {
        let args = [
            "book", "build", "--board", "8x8", "--start", "d4", "--depth", "12", "--out", out,
        ];
        fails_with(&args, "cannot write book");
        assert!(!tmp.path().join(".ckpt").exists());
    };
    book(&format!("{}/", p("folder")));
    book(&p("link"));
    assert!(fs::symlink_metadata(tmp.path().join("link"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read(tmp.path().join("target")).unwrap(), b"kept");

    fails_with(
        &["survey", "--boards", "8x8", "--out", &p("target")],
        "not a folder",
    );
    fails_with(
        &["solve", "--resume", "/dev/zero", "--board", "5x5"],
        "cannot read checkpoint /dev/zero: not a regular file",
    );
    fails_with(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--threads",
            "20",
            "--hash-mb",
            "16",
        ],
        "--threads 20: every slot needs at least 1 MiB of --hash-mb",
    );

    // A survey file with two rows for one start, or cut off mid-row, is refused by name.
    let survey = tmp.path().join("survey");
    fs::create_dir(&survey).unwrap();
    let csv = survey.join("survey.csv");
    for (text, why) in [
        (
            "width,height,start,value,dte\n3,3,b3,win,3\n3,3,b3,loss,4\n",
            "second row for b3",
        ),
        (
            "width,height,start,value,dte\n3,3,b3,win,3\n3,3,c3,lo",
            "cut off",
        ),
    ] {
        fs::write(&csv, text).unwrap();
        let args = ["survey", "--boards", "3x3", "--merge", "--out", s(&survey)];
        let stderr = crate::common::fails(&args);
        assert!(stderr.contains(s(&csv)) && stderr.contains(why), "{stderr}");
        assert_eq!(fs::read_to_string(&csv).unwrap(), text);
    }
}

#[test]
fn huge_checkpoints_and_survey_files_are_refused_unread() {
    let tmp = scratch();
    // Sparse files: their size costs no disk, and reading one would cost its size in memory.
    let ckpt = tmp.path().join("ck.json");
    fs::File::create(&ckpt).unwrap().set_len(300 << 20).unwrap();
    let stderr = fails(&[
        "solve",
        "--board",
        "4x4",
        "--start",
        "b2",
        "--resume",
        s(&ckpt),
    ]);
    assert!(
        stderr.contains(s(&ckpt)) && stderr.contains("it is over 1 MiB"),
        "{stderr}"
    );
    let survey = tmp.path().join("survey");
    fs::create_dir(&survey).unwrap();
    let csv = survey.join("survey.csv");
    fs::File::create(&csv).unwrap().set_len(65 << 20).unwrap();
    let stderr = fails(&["survey", "--boards", "3x3", "--merge", "--out", s(&survey)]);
    assert!(
        stderr.contains(s(&csv)) && stderr.contains("it is over 64 MiB"),
        "{stderr}"
    );
    assert_eq!(
        fs::metadata(&csv).unwrap().len(),
        65 << 20,
        "left as it was"
    );
}
