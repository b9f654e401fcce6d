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
    assert!(read(&record).starts_with("[Variant \"Chess\"]\n"));
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
