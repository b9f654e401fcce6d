//! Integration tests of `rulebook play` and `rulebook replay`: scripted and
//! piped games, records written and replayed, invalid records, atomic
//! writes, reproducible seeds (snapshots in `snapshots/cli/`).

use sha2::{Digest, Sha256};
use std::path::Path;

mod support;
use support::*;

/// `sha256:` and the hash of the concatenated files (under the root).
fn hash_of(files: &[&str]) -> String {
    let mut h = Sha256::new();
    for f in files {
        h.update(std::fs::read(root().join(f)).expect("rules file"));
    }
    let hex: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// A temporary directory holding `game.pgn` with `record` and a copy of
/// `rules/chess.rules` as `chess.rules`.
fn record_dir(record: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("game.pgn"), record).expect("write record");
    std::fs::copy(root().join("rules/chess.rules"), dir.path().join("chess.rules")).expect("copy rules");
    dir
}


// ---------------------------------------------------------------- play

#[test]
fn a_scripted_line_prints_each_move_then_the_board() {
    let out = run(&["play", "rules/chess.rules", "--moves", "1. e4 e5 2. Nf3", "--seed", "1"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "a given seed is not printed");
    let text = stdout(&out);
    assert!(text.starts_with("1. e4\n1... e5\n2. Nf3\n\n"), "{text}");
    assert!(!text.contains("face-down"), "no hidden information in chess: {text}");
    snapshots().bind(|| insta::assert_snapshot!("game-scripted-chess", text));
}

#[test]
fn a_scripted_game_that_ends_says_how() {
    let out = run(&["play", "rules/chess.rules", "--moves", "f3 e5 g4 Qh4", "--seed", "1", "--as", "black"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    // Black's view: rank 1 at the top, the files backwards.
    snapshots().bind(|| insta::assert_snapshot!("game-mate-black-view", text));
}

#[test]
fn a_bad_scripted_move_is_a_report_with_status_2() {
    let out = run(&["play", "rules/chess.rules", "--moves", "e4 e5 Ke3", "--seed", "1"]);
    assert_eq!(code(&out), 2);
    let report = stderr(&out);
    assert!(report.contains("<--moves>"), "{report}");
    snapshots().bind(|| insta::assert_snapshot!("game-illegal-scripted-move", report));
}

#[test]
fn a_move_after_mate_is_refused() {
    let out = run(&["play", "rules/chess.rules", "--moves", "f3 e5 g4 Qh4 a3", "--seed", "1"]);
    assert_eq!(code(&out), 2);
    let report = stderr(&out);
    assert!(report.contains("[E0517]"), "{report}");
    snapshots().bind(|| insta::assert_snapshot!("game-move-after-mate", report));
}

#[test]
fn without_a_seed_one_is_chosen_and_printed() {
    let out = run(&["play", "rules/chess.rules", "--moves", "e4"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let err = stderr(&out);
    let seed = err
        .strip_prefix("seed: ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse::<u64>().ok());
    assert!(seed.is_some(), "{err}");
}

#[test]
fn unknown_letter_sets_are_usage_errors() {
    let out = run(&["play", "rules/chess.rules", "--moves", "e4", "--letters", "de"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: no letter set `de`: Chess declares no letter sets (its moves use the FEN letters)\n"
    );
}

#[test]
fn piped_moves_play_against_the_random_side() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("game.pgn");
    let record_arg = record.display().to_string();
    let input = "help\nmoves\nKe2\ne4\nboard\nNf3\nresign\n";
    let args = ["play", "rules/chess.rules", "--seed", "5", "--record", &record_arg];
    let out = run_with(None, &args, Some(input));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    // The illegal move is reported and the game goes on.
    let report = stderr(&out);
    assert!(report.contains("[E0401] Error: `Ke2` is not a legal move here"), "{report}");
    assert!(report.contains("<input>:1:1"), "{report}");
    assert!(text.contains("1. e4\n1... "), "{text}");
    assert!(text.contains("White resigns; Black wins (0-1)"), "{text}");
    let written = read(&record);
    assert!(written.contains("[Result \"0-1\"]"), "{written}");
    assert!(written.contains("[Seed \"5\"]"), "{written}");
    snapshots().bind(|| insta::assert_snapshot!("game-piped", text));
    // The same seed and input play the same game.
    let again = run_with(None, &args, Some(input));
    assert_eq!(stdout(&again), text);
    assert_eq!(read(&record), written);
}

#[test]
fn the_end_of_the_input_stops_the_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("game.pgn");
    let record_arg = record.display().to_string();
    let out = run_with(None, &["play", "rules/chess.rules", "--seed", "5", "--as", "black", "--record", &record_arg], Some(""));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("1. "), "the random side moved first: {text}");
    assert!(text.contains("The input ended: the game stops."), "{text}");
    let written = read(&record);
    assert!(written.contains("[Result \"*\"]"), "{written}");
}

#[test]
fn hot_seat_reads_both_sides() {
    let out = run_with(None, &["play", "rules/chess.rules", "--seed", "5", "--as", "both"], Some("f3\ne5\ng4\nQh4\n"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("1. f3\n"), "{text}");
    assert!(text.contains("2... Qh4#\n"), "{text}");
    assert!(text.ends_with("Game over: checkmate; Black wins (0-1)\n"), "{text}");
    // Black's board is drawn from Black's side before its moves.
    assert!(text.contains("1  R N B K Q B N R"), "{text}");
}

// ---------------------------------------------------------------- records

#[test]
fn a_record_is_written_and_replays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("game.pgn");
    let record_arg = record.display().to_string();
    let out = run(&["play", "rules/chess.rules", "--moves", "e4 e5 Nf3", "--seed", "42", "--record", &record_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let written = read(&record);
    let hash = hash_of(&["rules/chess.rules"]);
    assert!(written.contains(&format!("[RulesHash \"{hash}\"]")), "{written}");
    let shown = written.replace(&hash, "sha256:<the hash of rules/chess.rules>");
    snapshots().bind(|| insta::assert_snapshot!("game-record-chess", shown));
    // The Rules tag is relative to the directory play ran in: replay finds it there.
    let out = run(&["replay", &record_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let text = stdout(&out);
    assert!(text.starts_with("1. e4\n1... e5\n2. Nf3\n\n"), "{text}");
    assert!(text.ends_with("The record is valid: 3 moves.\n"), "{text}");
    snapshots().bind(|| insta::assert_snapshot!("replay-chess", text));
}

#[test]
fn a_record_from_a_position_keeps_its_fen() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("game.pgn");
    let record_arg = record.display().to_string();
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7";
    let out = run(&["play", "rules/chess.rules", "--fen", fen, "--moves", "Kd7 e4", "--seed", "1", "--record", &record_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let written = read(&record);
    assert!(written.contains(&format!("[FEN \"{fen}\"]")), "{written}");
    assert!(written.ends_with("\n7... Kd7 8. e4 *\n"), "{written}");
    let out = run(&["replay", &record_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn an_illegal_record_is_invalid() {
    let dir = record_dir("[Variant \"Chess\"]\n[Rules \"chess.rules\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc7 *\n");
    let out = run_in(Some(dir.path()), &["replay", "game.pgn"]);
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "");
    let report = stderr(&out);
    assert!(report.contains("game.pgn:5:17"), "{report}");
    snapshots().bind(|| insta::assert_snapshot!("replay-illegal-move", report));
}

#[test]
fn a_wrong_result_is_invalid() {
    let dir = record_dir("[Variant \"Chess\"]\n[Rules \"chess.rules\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
    let out = run_in(Some(dir.path()), &["replay", "game.pgn"]);
    assert_eq!(code(&out), 1);
    let report = stderr(&out);
    assert!(report.contains("[E0519]"), "{report}");
    snapshots().bind(|| insta::assert_snapshot!("replay-wrong-result", report));
    // An unfinished result for a game that ended is wrong too.
    let dir = record_dir("[Rules \"chess.rules\"]\n\n1. f3 e5 2. g4 Qh4# *\n");
    let out = run_in(Some(dir.path()), &["replay", "game.pgn"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    // Any result may end a game that did not end by rule (a resignation).
    let dir = record_dir("[Rules \"chess.rules\"]\n[Result \"0-1\"]\n\n1. f3 e5 0-1\n");
    let out = run_in(Some(dir.path()), &["replay", "game.pgn"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("Result: 0-1 (Black wins; the game did not end by rule)"), "{}", stdout(&out));
    // A draw by repetition ends the game too.
    let line = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8";
    let dir = record_dir(&format!("[Rules \"chess.rules\"]\n[Result \"1/2-1/2\"]\n\n{line} 1/2-1/2\n"));
    let out = run_in(Some(dir.path()), &["replay", "game.pgn"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("Game over: draw by repetition; drawn (1/2-1/2)\n"), "{}", stdout(&out));
    let dir = record_dir(&format!("[Rules \"chess.rules\"]\n[Result \"1-0\"]\n\n{line} 1-0\n"));
    let out = run_in(Some(dir.path()), &["replay", "game.pgn"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("(draw by repetition: drawn): write 1/2-1/2"), "{}", stderr(&out));
}

#[test]
fn moves_after_the_end_make_a_record_invalid() {
    let dir = record_dir("[Rules \"chess.rules\"]\n\n1. f3 e5 2. g4 Qh4# 3. a3 *\n");
    let out = run_in(Some(dir.path()), &["replay", "game.pgn"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("[E0517]"), "{}", stderr(&out));
}

#[test]
fn a_malformed_record_cannot_be_used() {
    let dir = record_dir("[Variant \"Chess\"]\n[Rules chess.rules]\n[Seed \"x\"]\n[Result \"1-0\"]\n\n1. e4 (1. d4) e5 0-1\n");
    let out = run_in(Some(dir.path()), &["replay", "game.pgn"]);
    assert_eq!(code(&out), 2);
    let report = stderr(&out);
    snapshots().bind(|| insta::assert_snapshot!("replay-malformed", report));
}

#[test]
fn the_rules_are_found_or_named() {
    // Not next to the record, not in the current directory.
    let dir = record_dir("[Rules \"elsewhere/chess.rules\"]\n\n1. e4 *\n");
    let out = run_in(Some(dir.path()), &["replay", "game.pgn"]);
    assert_eq!(code(&out), 2);
    let report = stderr(&out);
    assert!(report.contains("[E0515]"), "{report}");
    snapshots().bind(|| insta::assert_snapshot!("replay-rules-not-found", report));
    // --rules overrides the tag.
    let out = run_in(Some(dir.path()), &["replay", "game.pgn", "--rules", "chess.rules"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The record's directory comes first: run from elsewhere.
    let dir = record_dir("[Rules \"chess.rules\"]\n\n1. e4 *\n");
    let path = dir.path().join("game.pgn").display().to_string();
    let out = run(&["replay", &path]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // An unreadable record.
    let out = run(&["replay", "no/such/game.pgn"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).starts_with("error: cannot read the record `no/such/game.pgn`"), "{}", stderr(&out));
}

#[test]
fn a_changed_rules_file_is_a_warning() {
    let dir = record_dir("[Variant \"Chess\"]\n[Rules \"chess.rules\"]\n[RulesHash \"sha256:0000\"]\n\n1. e4 *\n");
    let out = run_in(Some(dir.path()), &["replay", "game.pgn"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = stderr(&out);
    assert!(report.contains("[E0520] Warning"), "{report}");
    assert!(report.contains(&hash_of(&["rules/chess.rules"])), "{report}");
}

// ---------------------------------------------------------------- atomic writes

#[test]
fn a_game_that_fails_writes_no_record() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("game.pgn");
    let record_arg = record.display().to_string();
    // Absent before: still absent.
    let out = run(&["play", "rules/chess.rules", "--moves", "e4 e5 Ke3", "--seed", "1", "--record", &record_arg]);
    assert_eq!(code(&out), 2);
    assert!(!record.exists());
    // Present before: unchanged.
    std::fs::write(&record, "an older game\n").expect("write");
    let out = run(&["play", "rules/chess.rules", "--moves", "e4 e5 Ke3", "--seed", "1", "--record", &record_arg]);
    assert_eq!(code(&out), 2);
    assert_eq!(read(&record), "an older game\n");
    // A game that succeeds replaces it, and leaves no temporary file behind.
    let out = run(&["play", "rules/chess.rules", "--moves", "e4", "--seed", "1", "--record", &record_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(read(&record).starts_with("[Event \"?\"]\n"));
    assert!(read(&record).contains("\n[Variant \"Chess\"]\n"));
    let files: Vec<String> = std::fs::read_dir(dir.path())
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files, ["game.pgn"]);
    // A record in a directory that does not exist: refused before playing.
    let missing = dir.path().join("no/such/dir/game.pgn").display().to_string();
    let out = run(&["play", "rules/chess.rules", "--moves", "e4", "--seed", "1", "--record", &missing]);
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "");
}

// ---------------------------------------------------------------- seeds

#[test]
fn the_same_seed_plays_the_same_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let play = |seed: &str, file: &str| {
        let path = dir.path().join(file);
        let arg = path.display().to_string();
        // Black plays at random; the piped moves are White's.
        let out = run_with(None, &["play", "rules/chess.rules", "--seed", seed, "--record", &arg], Some("e4\nd4\nNf3\nquit\n"));
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        read(&path)
    };
    let a = play("1234", "a.pgn");
    assert_eq!(a, play("1234", "b.pgn"));
    let moves = |record: &str| record.lines().last().map(str::to_string);
    let others: Vec<Option<String>> = ["1", "2", "3"].iter().map(|s| moves(&play(s, "c.pgn"))).collect();
    assert!(others.iter().any(|m| *m != moves(&a)), "other seeds play other games: {others:?}");
}

// ---------------------------------------------------------------- boards

#[test]
fn boards_of_three_dimensions_are_drawn_level_by_level() {
    let out = run(&["play", "rules/raumschach.rules", "--moves", "", "--seed", "1"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    snapshots().bind(|| insta::assert_snapshot!("game-raumschach-board", stdout(&out)));
}

#[test]
fn hands_are_shown_in_drop_variants() {
    let out = run(&["play", "rules/crazyhouse.rules", "--moves", "e4 d5 exd5", "--seed", "1", "--as", "white"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("White's hand: P\nBlack's hand: —\n"), "{text}");
}

#[test]
fn help_is_available() {
    for args in [vec!["play", "--help"], vec!["replay", "--help"]] {
        let out = run(&args);
        assert_eq!(code(&out), 0, "{args:?}");
        assert!(stdout(&out).contains("Usage: rulebook"), "{args:?}");
    }
}

// ---------------------------------------------------------------- Nebelschach

#[test]
fn a_nebelschach_line_in_german_letters_replays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("fog.pgn");
    let record_arg = record.display().to_string();
    let line = "h4D e6S De4 h6B d4L Sc6T";
    let out = run(&["play", "rules/nebelschach.rules", "--moves", line, "--letters", "de", "--seed", "3", "--record", &record_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let written = read(&record);
    assert!(written.contains("[Letters \"de\"]"), "{written}");
    assert!(written.ends_with("\n1. h4D e6S 2. De4 h6B 3. d4L Sc6T *\n"), "{written}");
    let hash = hash_of(&["rules/nebelschach.rules", "rules/chess.rules"]);
    assert!(written.contains(&hash), "{written}");
    let out = run(&["replay", &record_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).ends_with("The record is valid: 6 moves.\n"), "{}", stdout(&out));
}

#[test]
fn nebelschach_views_hide_what_the_viewer_did_not_see() {
    // White's knight (revealed as a knight) takes the face-down c7 pawn
    // (drawn as a rook, seen by White only); Black's queen takes it back.
    let line = "Sc3S a6B Sd5 a5 Sxc7[T] Dxc7B";
    let view = |side: &str| {
        let out = run(&["play", "rules/nebelschach.rules", "--moves", line, "--letters", "de", "--seed", "3", "--as", side]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        stdout(&out)
    };
    let white = view("white");
    assert!(white.contains("Black's captured face-down pieces: T\n"), "{white}");
    let black = view("black");
    assert!(black.contains("Black's captured face-down pieces: 1 unseen\n"), "{black}");
    assert!(black.contains("Black's face-down pieces: 12 of D T T L L S S B B B B B B (1 captured unseen)\n"), "{black}");
    snapshots().bind(|| insta::assert_snapshot!("game-nebelschach-black-view", black));
}

#[test]
fn nebelschach_outcomes_left_open_are_drawn_and_recorded() {
    let dir = tempfile::tempdir().expect("temp dir");
    let play = |file: &str| {
        let path = dir.path().join(file);
        let arg = path.display().to_string();
        let out = run(&["play", "rules/nebelschach.rules", "--moves", "h4 e6 e4 h6 a3", "--seed", "42", "--record", &arg]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        read(&path)
    };
    let a = play("a.pgn");
    assert_eq!(a, play("b.pgn"), "same seed, same draws");
    // Every move of the record names its outcome, so it replays as it is.
    let out = run(&["replay", &dir.path().join("a.pgn").display().to_string()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn a_nebelschach_record_must_name_every_outcome() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("fog.pgn"), "[Variant \"Nebelschach\"]\n[Letters \"de\"]\n\n1. h4D e6 *\n").expect("write");
    let rules = root().join("rules/nebelschach.rules").display().to_string();
    let out = run_in(Some(dir.path()), &["replay", "fog.pgn", "--rules", &rules]);
    assert_eq!(code(&out), 1);
    let report = stderr(&out);
    assert!(report.contains("[E0518]"), "{report}");
    snapshots().bind(|| insta::assert_snapshot!("replay-open-outcome", report));
}

// ---------------------------------------------------------------- issue 12: where records go

/// Runs the binary in the repository root with raw bytes on standard input.
fn run_bytes(args: &[&str], input: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run rulebook");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input).expect("write stdin");
    }
    child.wait_with_output().expect("rulebook finishes")
}

/// The moves of a record: its last non-empty line.
fn movetext_of(record: &str) -> String {
    record.lines().rev().find(|l| !l.is_empty()).unwrap_or("").to_string()
}

#[cfg(unix)]
#[test]
fn a_record_into_a_fifo_is_written_into_the_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("game.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let (tx, rx) = std::sync::mpsc::channel();
    let reader_path = fifo.clone();
    std::thread::spawn(move || {
        let _ = tx.send(std::fs::read_to_string(&reader_path));
    });
    let arg = fifo.display().to_string();
    let out = run(&["play", "rules/chess.rules", "--moves", "e4", "--seed", "1", "--record", &arg]);
    let kind = std::fs::symlink_metadata(&fifo).expect("still there").file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced by {kind:?}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got = rx.recv_timeout(std::time::Duration::from_secs(20)).expect("the reader got the record").expect("read");
    assert!(got.contains("[Variant \"Chess\"]"), "{got}");
    assert!(got.ends_with("1. e4 *\n"), "{got}");
}

#[cfg(unix)]
#[test]
fn a_record_through_a_symlink_replaces_the_file_it_points_to() {
    let dir = tempfile::tempdir().expect("temp dir");
    let real = dir.path().join("real.pgn");
    let link = dir.path().join("link.pgn");
    std::fs::write(&real, "an older game\n").expect("write");
    std::os::unix::fs::symlink("real.pgn", &link).expect("symlink");
    let arg = link.display().to_string();
    let out = run(&["play", "rules/chess.rules", "--moves", "e4", "--seed", "1", "--record", &arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink(), "the link is still a link");
    assert!(read(&real).ends_with("1. e4 *\n"), "{}", read(&real));
    let files: Vec<String> = std::fs::read_dir(dir.path())
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files.len(), 2, "no temporary file left: {files:?}");
}

#[cfg(unix)]
#[test]
fn a_record_that_cannot_be_written_is_an_error_with_status_2() {
    use std::os::unix::fs::FileTypeExt;
    // /dev/full refuses every write (ENOSPC); it stays the device it is.
    let out = run(&["play", "rules/chess.rules", "--moves", "e4", "--seed", "1", "--record", "/dev/full"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("cannot write the record `/dev/full`"), "{err}");
    assert!(std::fs::metadata("/dev/full").expect("/dev/full").file_type().is_char_device());
    // /dev/null takes it, and stays a device.
    let out = run(&["play", "rules/chess.rules", "--moves", "e4", "--seed", "1", "--record", "/dev/null"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(std::fs::metadata("/dev/null").expect("/dev/null").file_type().is_char_device());
    // A directory is refused before the game.
    let dir = tempfile::tempdir().expect("temp dir");
    let arg = dir.path().display().to_string();
    let out = run(&["play", "rules/chess.rules", "--moves", "e4", "--seed", "1", "--record", &arg]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains("is a directory"), "{}", stderr(&out));
}

#[cfg(unix)]
#[test]
fn a_new_record_follows_the_umask_and_an_old_one_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let mode_after = |umask: &str, file: &str| {
        let path = dir.path().join(file);
        let script = format!(
            "umask {umask}; exec \"$0\" play rules/chess.rules --moves e4 --seed 1 --record \"$1\""
        );
        let out = std::process::Command::new("sh")
            .args(["-c", &script, env!("CARGO_BIN_EXE_rulebook"), &path.display().to_string()])
            .current_dir(root())
            .output()
            .expect("sh runs");
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        std::fs::metadata(&path).expect("written").permissions().mode() & 0o777
    };
    assert_eq!(mode_after("022", "a.pgn"), 0o644);
    assert_eq!(mode_after("077", "b.pgn"), 0o600);
    assert_eq!(mode_after("002", "c.pgn"), 0o664);
    // An existing record keeps its mode when it is replaced.
    let old = dir.path().join("d.pgn");
    std::fs::write(&old, "old\n").expect("write");
    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    assert_eq!(mode_after("077", "d.pgn"), 0o640);
}

#[test]
fn the_rules_played_and_the_files_they_extend_are_never_overwritten() {
    let dir = tempfile::tempdir().expect("temp dir");
    for f in ["nebelschach.rules", "chess.rules"] {
        std::fs::copy(root().join("rules").join(f), dir.path().join(f)).expect("copy");
    }
    let rules = dir.path().join("nebelschach.rules").display().to_string();
    let mut targets = vec![rules.clone(), dir.path().join("chess.rules").display().to_string()];
    // Through a symlink, and through another spelling of the path.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("chess.rules", dir.path().join("link.rules")).expect("symlink");
        targets.push(dir.path().join("link.rules").display().to_string());
    }
    targets.push(dir.path().join(".").join("chess.rules").display().to_string());
    for target in &targets {
        let out = run(&["play", &rules, "--moves", "e4", "--seed", "1", "--record", target]);
        assert_eq!(code(&out), 2, "{target}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "refused before the game");
        let err = stderr(&out);
        assert!(err.contains(&format!("cannot write the record `{target}`")), "{err}");
        assert!(err.contains("rules"), "{err}");
    }
    assert_eq!(read(&dir.path().join("chess.rules")), read(&root().join("rules/chess.rules")));
    assert_eq!(read(&dir.path().join("nebelschach.rules")), read(&root().join("rules/nebelschach.rules")));
}

// ---------------------------------------------------------------- issue 12: input

#[test]
fn a_line_that_is_not_utf8_is_an_error_and_the_game_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("game.pgn");
    let arg = record.display().to_string();
    let out = run_bytes(
        &["play", "rules/chess.rules", "--seed", "5", "--record", &arg],
        b"e4\n\xff\xfe\nd4\nquit\n",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("not UTF-8"), "{err}");
    let text = stdout(&out);
    assert!(text.contains("2. d4\n"), "the game went on: {text}");
    let written = read(&record);
    assert!(movetext_of(&written).starts_with("1. e4 "), "{written}");
    assert!(movetext_of(&written).contains(" 2. d4 "), "{written}");
}

#[cfg(unix)]
#[test]
fn an_interrupt_saves_the_record() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("game.pgn");
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args(["play", "rules/chess.rules", "--seed", "5", "--record", &record.display().to_string()])
        .env("NO_COLOR", "1")
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run rulebook");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"e4\n").expect("write");
    stdin.flush().expect("flush");
    // Wait for the random reply, then interrupt while play waits for input.
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let reply = loop {
        let line = lines.next().expect("a line").expect("text");
        if line.starts_with("1... ") {
            break line;
        }
    };
    std::thread::sleep(std::time::Duration::from_millis(200));
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(killed.success());
    let status = child.wait().expect("exits");
    drop(stdin);
    assert_eq!(status.code(), Some(130), "{status:?}");
    let written = read(&record);
    assert!(written.contains("[Result \"*\"]"), "{written}");
    assert_eq!(movetext_of(&written), format!("1. e4 {} *", &reply["1... ".len()..]), "{written}");
}

#[test]
fn a_typed_chance_outcome_is_refused_and_the_game_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("fog.pgn");
    let arg = record.display().to_string();
    let out = run_with(
        None,
        &["play", "rules/nebelschach.rules", "--seed", "3", "--letters", "de", "--as", "both", "--record", &arg],
        Some("h4T\nh4\nquit\n"),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("`h4T` names its chance outcome"), "{err}");
    assert!(err.contains("drawn, never chosen"), "{err}");
    assert!(err.contains("type `h4`"), "{err}");
    let written = read(&record);
    assert!(movetext_of(&written).starts_with("1. h4"), "{written}");
    assert_eq!(movetext_of(&written).split(' ').count(), 3, "one move: {written}");
    // A collision's outcome in Niel's Chess likewise.
    let fen = "4k3/8/8/3p4/8/2N5/8/N3K3 w - - 0 1 ~ Nc3a1:unequal";
    let out = run_with(None, &["play", "rules/niels-chess.rules", "--fen", fen, "--seed", "3", "--as", "both"], Some("Nc3xd5/blue\nquit\n"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("`Nc3xd5/blue` names its chance outcome"), "{}", stderr(&out));
    assert!(!stdout(&out).contains("1. Nc3xd5"), "{}", stdout(&out));
}

#[test]
fn undo_takes_back_the_last_own_move_and_the_reply() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("game.pgn");
    let arg = record.display().to_string();
    let out = run_with(None, &["play", "rules/chess.rules", "--seed", "5", "--record", &arg], Some("undo\ne4\nundo\nd4\nquit\n"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("nothing to take back"), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Taken back: 1. e4"), "{text}");
    let moves = movetext_of(&read(&record));
    // White's d4 and Black's reply: two moves and the result.
    assert!(moves.starts_with("1. d4 "), "{moves}");
    assert_eq!(moves.split(' ').count(), 4, "{moves}");
    // In hot-seat, one move is taken back; with chance, its outcome goes
    // with it, and the same move draws the same outcome again.
    let out = run_with(
        None,
        &["play", "rules/nebelschach.rules", "--seed", "8", "--letters", "de", "--as", "both", "--record", &arg],
        Some("h4\nundo\nh4\nquit\n"),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let played: Vec<&str> = text.lines().filter(|l| l.starts_with("1. h4")).collect();
    assert_eq!(played.len(), 2, "{text}");
    assert_eq!(played[0], played[1], "undo cannot re-draw an outcome: {text}");
    let moves = movetext_of(&read(&record));
    assert_eq!(moves, format!("{} *", played[0]), "{moves}");
}

// ---------------------------------------------------------------- issue 12: what a record says

#[test]
fn a_record_starts_with_the_seven_tag_roster_and_names_its_letters() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("game.pgn");
    let arg = record.display().to_string();
    let out = run(&["play", "rules/chess.rules", "--moves", "e4", "--seed", "1", "--record", &arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let written = read(&record);
    let names: Vec<&str> = written
        .lines()
        .take_while(|l| l.starts_with('['))
        .map(|l| l[1..].split(' ').next().unwrap_or(""))
        .collect();
    assert_eq!(names[..7], ["Event", "Site", "Date", "Round", "White", "Black", "Result"], "{written}");
    assert!(names.contains(&"Letters"), "{written}");
    assert!(written.contains("[Date \"????.??.??\"]"), "{written}");
    let out = run(&["replay", &arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn an_interactive_nebelschach_record_without_letters_replays() {
    // Issue 12, defect 3: written in the FEN letters (`e4B`: revealed as a
    // bishop), read back in any letter set (`B`: the German pawn) it was ambiguous.
    let dir = tempfile::tempdir().expect("temp dir");
    let rules = root().join("rules/nebelschach.rules").display().to_string();
    // A record from before the Letters tag was always written: the FEN letters.
    std::fs::write(dir.path().join("old.pgn"), "[Variant \"Nebelschach\"]\n[Result \"*\"]\n\n1. e4B *\n").expect("write");
    let out = run_in(Some(dir.path()), &["replay", "old.pgn", "--rules", &rules]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("\n4  .  .  .  .  B  .  .  .\n"), "a white bishop on e4: {text}");
    // A hand-written record in the German letters without the tag still reads.
    std::fs::write(dir.path().join("de.pgn"), "[Variant \"Nebelschach\"]\n\n1. h4D *\n").expect("write");
    let out = run_in(Some(dir.path()), &["replay", "de.pgn", "--rules", &rules]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // What interactive play writes now says its letters.
    let record = dir.path().join("new.pgn");
    let arg = record.display().to_string();
    let out = run_with(None, &["play", "rules/nebelschach.rules", "--seed", "2", "--as", "both", "--record", &arg], Some("e4\ne5\nd4\nquit\n"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let written = read(&record);
    assert!(written.contains("[Letters \"en\"]"), "{written}");
    let out = run(&["replay", &arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}
