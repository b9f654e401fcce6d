//! Helpers shared by the command-line integration tests (`cli.rs`, `play.rs`):
//! running the `rulebook` binary and reading what it printed.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root (where `rules/` is).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary in `dir` (default: the repository root) with `input` on
/// standard input (closed at once when `None`).
pub fn run_with(dir: Option<&Path>, args: &[&str], input: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rulebook"));
    cmd.args(args)
        .env("NO_COLOR", "1")
        .current_dir(dir.unwrap_or(&root()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) => panic!("cannot run rulebook: {e}"),
    };
    if let Some(mut stdin) = child.stdin.take() {
        if let Some(text) = input {
            stdin.write_all(text.as_bytes()).expect("write stdin");
        }
    }
    match child.wait_with_output() {
        Ok(out) => out,
        Err(e) => panic!("rulebook did not finish: {e}"),
    }
}

/// Runs the binary in `dir` (default: the repository root), standard input closed.
pub fn run_in(dir: Option<&Path>, args: &[&str]) -> Output {
    run_with(dir, args, None)
}

/// Runs the binary in the repository root.
pub fn run(args: &[&str]) -> Output {
    run_in(None, args)
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The exit status (-1 when killed by a signal).
pub fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

/// Insta settings that keep the snapshots in `snapshots/cli/`.
pub fn snapshots() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots/cli");
    s.set_prepend_module_to_snapshot(false);
    s
}
