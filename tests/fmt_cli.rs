//! `rulebook fmt`: in place and `--check`, folders, exit statuses, files that
//! do not parse. The layout rules themselves are tested in
//! `grammar/src/format.rs` and on every repository file in
//! `interpreter/tests/format.rs`.

use std::path::{Path, PathBuf};

mod support;
use support::*;

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-fmt-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Writes `text` to `dir/name` and returns the path as a string.
fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("folder");
    }
    std::fs::write(&path, text).expect("write");
    path.display().to_string()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).expect("read")
}

/// A small variant, laid out as the formatter lays it out (by hand).
const TIDY: &str = "\
variant \"Mini\"

board {
  files a b c d
  ranks 1 2 3 4
}
players {
  white: forward +rank
  black: forward -rank
}
piece King K {
  royal   # the king
  move W  # one step
  move F
}
setup \"k3/4/4/3K w - - 0 1\"
";

/// The same variant, badly laid out.
const MESSY: &str = "\
variant \"Mini\"   \n\n\n\nboard {\nfiles a b c d\n      ranks 1 2 3 4\n}\nplayers {\n\twhite: forward +rank\n  black: forward -rank\n}\npiece King K {\n    royal   # the king\n  move W # one step\n move F\n    }\nsetup \"k3/4/4/3K w - - 0 1\"\n\n";

#[test]
fn check_passes_a_formatted_file() {
    let dir = scratch("tidy");
    let path = write(&dir, "mini.rules", TIDY);
    let out = run(&["fmt", "--check", &path]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(read(&path), TIDY);
}

#[test]
fn check_fails_an_unformatted_file_and_leaves_it_unchanged() {
    let dir = scratch("messy-check");
    let path = write(&dir, "mini.rules", MESSY);
    let out = run(&["fmt", "--check", &path]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    // The first differing line is the one with trailing spaces.
    assert_eq!(stdout(&out), format!("{path}: line 1 differs\n  -variant \"Mini\"   \n  +variant \"Mini\"\n"));
    assert_eq!(read(&path), MESSY);
}

#[test]
fn fmt_rewrites_the_file_in_place() {
    let dir = scratch("messy-write");
    let path = write(&dir, "mini.rules", MESSY);
    let out = run(&["fmt", &path]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("formatted {path}\n"));
    assert_eq!(read(&path), TIDY);
    // Formatted once, it is left alone.
    let again = run(&["fmt", &path]);
    assert_eq!(code(&again), 0);
    assert_eq!(stdout(&again), "");
    let check = run(&["fmt", "--check", &path]);
    assert_eq!(code(&check), 0, "{}", stdout(&check));
}

#[test]
fn a_missing_file_is_an_error_with_its_path() {
    let dir = scratch("missing");
    let missing = dir.join("nowhere.rules").display().to_string();
    let tidy = write(&dir, "mini.rules", MESSY);
    let out = run(&["fmt", "--check", &missing, &tidy]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains(&missing), "{}", stderr(&out));
    // The other file is still checked (and reported).
    assert!(stdout(&out).contains(&tidy), "{}", stdout(&out));
}

#[test]
fn a_folder_means_every_rules_file_below_it_sorted() {
    let dir = scratch("folder");
    let b = write(&dir, "b.rules", MESSY);
    let a = write(&dir, "sub/a.rules", MESSY);
    let other = write(&dir, "notes.txt", "  not rules  \n");
    let out = run(&["fmt", "--check", &dir.display().to_string()]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let named: Vec<&str> = text.lines().filter(|l| !l.starts_with("  ")).filter_map(|l| l.split(": line").next()).collect();
    assert_eq!(named, vec![b.as_str(), a.as_str()]);
    let out = run(&["fmt", &dir.display().to_string()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(read(&a), TIDY);
    assert_eq!(read(&b), TIDY);
    assert_eq!(read(&other), "  not rules  \n");
}

#[test]
fn a_file_that_does_not_parse_gets_the_line_rules_and_a_note() {
    let dir = scratch("broken");
    // The piece has no letter: E0001. Its odd indentation is kept; the
    // trailing spaces and the extra blank lines go.
    let path = write(&dir, "broken.rules", "piece King {   \n      royal\n\n\n\n  move W\n}");
    let out = run(&["fmt", &path]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains(&format!("note: `{path}` does not parse (E0001 at 1:12")), "{}", stderr(&out));
    assert_eq!(read(&path), "piece King {\n      royal\n\n  move W\n}\n");
    let check = run(&["fmt", "--check", &path]);
    assert_eq!(code(&check), 0, "{}", stdout(&check));
}

#[test]
fn a_file_the_formatter_refuses_is_an_error_with_its_location() {
    let dir = scratch("refused");
    let path = write(&dir, "cr.rules", "variant \"V\" # old Mac\rsetup \"k7/8/8/8/8/8/8/7K w - - 0 1\"\n");
    let out = run(&["fmt", &path]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("E0007"), "{}", stderr(&out));
    assert!(stderr(&out).contains(&path), "{}", stderr(&out));
}

#[test]
fn the_repository_rules_and_examples_are_formatted() {
    let out = run_in(Some(&root()), &["fmt", "--check", "rules", "examples"]);
    assert_eq!(code(&out), 0, "files not formatted (run `rulebook fmt rules examples`):\n{}", stdout(&out));
}
