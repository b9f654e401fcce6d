//! Integration tests of the command line with spread pieces (Niel's Chess,
//! `rules/niels-chess.rules`): `moves` and `perft --divide` on a spread FEN
//! with the outcomes' probabilities, scripted games with splits and
//! collisions that a seed makes reproducible, records that replay, and
//! located errors for bad spread FENs (snapshots in `snapshots/cli/`).

use std::path::Path;

mod support;
use support::*;

const RULES: &str = "rules/niels-chess.rules";

/// An unequal knight pair (red c3 2/3, blue a1 1/3) that may capture d5.
const PAIR: &str = "4k3/8/8/3p4/8/2N5/8/N3K3 w - - 0 1 ~ Nc3a1:unequal";

/// A group (bishop c4/e2 with the black knight d5/f6) and an unequal knight pair.
const GROUP: &str = "r1bqk2r/pp1p1ppp/5n2/3n2N1/2BN4/8/PPPPBPPP/RN1QK2R w KQkq - 0 1 ~ Bc4e2+nd5f6:equal:/ Nd4g5:unequal";

/// A line with splits (equal and unequal), a collision whose outcome is
/// drawn, an entangle, and a collision whose outcome is stated.
const LINE: &str = "1. Nh3&f3 e5 2. Nc3>a3 Nf6&h6 3. g3 e4&e5~f3 4. Nf3xe5 Bxa3/blue";

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The record with its `RulesHash` value replaced (it changes with the rules file).
fn without_hash(record: &str) -> String {
    record
        .lines()
        .map(|l| if l.starts_with("[RulesHash ") { "[RulesHash \"sha256:<the rules' hash>\"]" } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

// ---------------------------------------------------------------- moves, perft

#[test]
fn moves_lists_collisions_with_their_probabilities() {
    let out = run(&["moves", RULES, "--fen", PAIR]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("c3d5/red   Nc3xd5/red   2/3\n"), "{text}");
    assert!(text.contains("c3d5/blue  Nc3xd5/blue  1/3\n"), "{text}");
    // The half's moves write their origin; the conventional knight splits.
    assert!(text.contains("Nc3e4\n"), "{text}");
    assert!(text.contains("Na1b3\n"), "{text}");
    snapshots().bind(|| insta::assert_snapshot!("niels-moves-pair", text));
}

#[test]
fn moves_json_gives_each_outcome_its_probability() {
    let out = run(&["moves", RULES, "--fen", PAIR, "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(json["fen"], PAIR, "the FEN is written back with its spread field");
    let moves = json["moves"].as_array().expect("moves");
    let red = moves.iter().find(|m| m["san"] == "Nc3xd5/red").expect("the red outcome");
    assert_eq!(red["move"], "c3d5/red");
    assert_eq!(red["probability"], "2/3");
}

#[test]
fn divide_lists_each_outcome_with_its_probability() {
    let out = run(&["perft", RULES, "1", "--fen", GROUP, "--divide"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    // The group's bishop captures its own group's knight: one roll, one suffix.
    assert!(text.contains("c4d5/red "), "{text}");
    assert!(text.contains("Ng5xh7/blue"), "{text}");
    assert!(text.contains("1/3"), "{text}");
    let total: u64 = text.lines().last().and_then(|l| l.trim().parse().ok()).expect("the count last");
    let rows = text.lines().filter(|l| l.contains("  ")).count() as u64;
    assert!(rows >= total, "one row per action and outcome: {text}");
}

#[test]
fn the_start_has_86_actions() {
    let out = run(&["perft", RULES, "1"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("86"));
}

/// Issue 12: Black's castling split (king c8/e8, rook d8/a8, no label) and
/// both labels in use ("/" the knights, "\" the pawns).
const CASTLED_TWO_GROUPS: &str =
    r"r1krk3/6pp/6pn/5n2/1P6/1P5N/8/1N1R2K1 w - - 0 1 ~ kc8e8+rd8a8:equal Nb1h3+nh6f5:equal:/ Pb4b3+pg6g7:equal:\";

#[test]
fn no_entangle_with_a_castling_unit_when_no_label_is_free() {
    // The hand count (interpreter/tests/niels_chess.rs, `i12_…`) and the
    // independent implementation of issue 12: 211 moves, the rook's capture
    // of the d8 half two outcomes of one choice. The rook may join "/" and
    // "\", not the castling unit (`d1d1&d2~d8` was offered: a third group).
    let out = run(&["moves", RULES, "--fen", CASTLED_TWO_GROUPS]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().last(), Some("211 legal moves: 210 choices, counted with each chance outcome"), "{text}");
    assert!(!text.contains("~d8") && !text.contains("~c8") && !text.contains("~e8"), "{text}");
    assert_eq!(text.lines().filter(|l| l.contains('~')).count(), 8, "{text}");
    let refused = run(&["moves", RULES, "--fen", CASTLED_TWO_GROUPS, "--play", "d1d1&d2~d8"]);
    assert_eq!(code(&refused), 2, "{}", stdout(&refused));
    assert!(stderr(&refused).contains("`d1d1&d2~d8` is not a legal move here"), "{}", stderr(&refused));
    let out = run(&["perft", RULES, "1", "--fen", CASTLED_TWO_GROUPS]);
    assert_eq!(stdout(&out).lines().last(), Some("211"));
}

// ---------------------------------------------------------------- play

#[test]
fn a_scripted_game_with_splits_and_collisions_is_reproducible() {
    let args = ["play", RULES, "--moves", LINE, "--seed", "7"];
    let first = run(&args);
    assert_eq!(code(&first), 0, "{}", stderr(&first));
    assert_eq!(stderr(&first), "");
    let text = stdout(&first);
    assert_eq!(stdout(&run(&args)), text, "one seed, one game");
    assert!(text.starts_with("1. Nh3&f3\n1... e5\n2. Nc3>a3\n2... Nf6&h6\n3. g3\n3... e4&e5~f3\n"), "{text}");
    // The drawn outcome is shown with its probability; the stated one is taken as written.
    assert!(text.contains("4. Nf3xe5/"), "{text}");
    assert!(text.contains("(chance 1/2)"), "{text}");
    assert!(text.contains("4... Bxa3/blue (chance 1/3)\n"), "{text}");
    snapshots().bind(|| insta::assert_snapshot!("niels-game-scripted", text));
}

#[test]
fn the_board_marks_halves_and_lists_the_units() {
    let out = run(&["play", RULES, "--moves", "Nh3&f3 e5 Nc3>a3 Nf6&h6 g3 e4&e5~f3", "--seed", "1"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    for line in [
        "6  .    .    .    .    .    nr&  .    nb&",
        "3  Nb>  .    Nr>  .    .    Nb&/ P    Nr&/",
        "  N on c3 (red) or a3 (blue): unequal, red 2/3, blue 1/3",
        "  group /: N on h3 (red) or f3 (blue), p on e4 (red) or e5 (blue): equal, red 1/2, blue 1/2",
    ] {
        assert!(text.contains(line), "no `{line}` in\n{text}");
    }
    assert!(!text.contains('\x1b'), "no colours when the output is not a terminal");
    // Black sees the same pieces, from its side.
    let out = run(&["play", RULES, "--moves", "Nh3&f3 e5 Nc3>a3 Nf6&h6 g3 e4&e5~f3", "--seed", "1", "--as", "black"]);
    let text = stdout(&out);
    assert!(text.contains("3  Nr&/ P    Nb&/ .    .    Nr>  .    Nb>"), "{text}");
    snapshots().bind(|| insta::assert_snapshot!("niels-board-black", text));
}

#[test]
fn a_collision_without_its_outcome_in_play_is_an_open_chance_node() {
    let out = run(&["moves", RULES, "--play", "Nh3&f3 e5 Nf3xe5"]);
    assert_eq!(code(&out), 2);
    let report = stderr(&out);
    assert!(report.contains("[E0403]") && report.contains("how did the roll go?"), "{report}");
    assert!(report.contains("Nf3xe5/red Nf3xe5/blue"), "{report}");
    // Stated, as a word or as the die's face, it is one move.
    for line in ["Nh3&f3 e5 Nf3xe5/blue", "Nh3&f3 e5 Nf3xe5/3", "g1h3&f3 e7e5 f3e5/blue"] {
        let out = run(&["moves", RULES, "--play", line, "--json"]);
        assert_eq!(code(&out), 0, "{line}: {}", stderr(&out));
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        assert_eq!(json["fen"], "rnbqkbnr/pppp1ppp/8/4N3/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 2", "{line}");
    }
}

#[test]
fn a_bad_outcome_in_a_script_is_located() {
    let out = run(&["play", RULES, "--fen", PAIR, "--moves", "Nc3xd5/through", "--seed", "1"]);
    assert_eq!(code(&out), 2);
    let report = stderr(&out);
    assert!(report.contains("[E0401]") && report.contains("<--moves>"), "{report}");
}

// ---------------------------------------------------------------- records

#[test]
fn a_record_with_splits_and_collisions_replays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("game.pgn");
    let record_arg = record.display().to_string();
    let out = run(&["play", RULES, "--moves", LINE, "--seed", "7", "--record", &record_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let written = read(&record);
    assert!(written.contains("[Variant \"Niel's Chess\"]"), "{written}");
    assert!(written.contains("4. Nf3xe5/"), "every outcome is written: {written}");
    snapshots().bind(|| insta::assert_snapshot!("niels-record", without_hash(&written)));
    let out = run(&["replay", &record_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.ends_with("The record is valid: 8 moves.\n"), "{text}");
    // The replay shows the moves as played.
    let played = stdout(&run(&["play", RULES, "--moves", LINE, "--seed", "7"]));
    let moves_played: Vec<&str> = played.lines().take(8).collect();
    let moves_replayed: Vec<&str> = text.lines().take(8).collect();
    assert_eq!(moves_played, moves_replayed);
}

/// A temporary directory holding `game.pgn` with `record` and a copy of the rules.
fn record_dir(record: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("game.pgn"), record).expect("write record");
    std::fs::copy(root().join(RULES), dir.path().join("niels-chess.rules")).expect("copy rules");
    std::fs::copy(root().join("rules/chess.rules"), dir.path().join("chess.rules")).expect("copy rules");
    dir
}

#[test]
fn a_written_record_may_give_die_faces_and_tunnels() {
    // 3. Qh5^d5 tunnels through the e5 pawn; the die's faces say the outcomes:
    // 6 is through; 5 and 1 are blue and bounce. Equal splits in either order.
    let dir = record_dir(
        "[Variant \"Niel's Chess\"]\n[Rules \"niels-chess.rules\"]\n[Result \"*\"]\n\n\
         1. e4 e5 2. Qh5 Nc6 3. Qh5^d5/1 Nh6&f6 4. Qh5^d5/6 Nf6xd5/5 5. Nf3&h3 *\n",
    );
    let out = run_in(Some(dir.path()), &["replay", "game.pgn"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("3. Qh5^d5/bounce (chance 5/6)\n"), "{text}");
    assert!(text.contains("3... Nh6&f6\n"), "the order written fixes red: {text}");
    assert!(text.contains("4. Qh5^d5/through (chance 1/6)\n"), "{text}");
    assert!(text.contains("4... Nf6xd5/blue (chance 1/2)\n"), "{text}");
    snapshots().bind(|| insta::assert_snapshot!("niels-replay-faces", text));
}

#[test]
fn a_record_that_leaves_a_roll_open_is_invalid() {
    let dir = record_dir(
        "[Variant \"Niel's Chess\"]\n[Rules \"niels-chess.rules\"]\n[Result \"*\"]\n\n1. Nf3&h3 e5 2. Nf3xe5 *\n",
    );
    let out = run_in(Some(dir.path()), &["replay", "game.pgn"]);
    assert_eq!(code(&out), 1);
    let report = stderr(&out);
    assert!(report.contains("[E0518]"), "{report}");
    assert!(report.contains("Nf3xe5/red Nf3xe5/blue"), "{report}");
}

// ---------------------------------------------------------------- FEN errors

#[test]
fn bad_spread_fens_are_located_errors() {
    let cases = [
        ("unknown-weight", GROUP.replace("Nd4g5:unequal", "Nd4g5:heavy"), "[E0302]"),
        ("wrong-cell", GROUP.replace("Nd4g5:unequal", "Nd4g4:unequal"), "[E0303]"),
        ("label-on-a-pair", GROUP.replace("Nd4g5:unequal", "Nd4g5:unequal:\\"), "[E0304]"),
    ];
    for (name, fen, code_text) in cases {
        let out = run(&["moves", RULES, "--fen", &fen]);
        assert_eq!(code(&out), 2, "{name}");
        assert_eq!(stdout(&out), "", "{name}");
        let report = stderr(&out);
        assert!(report.contains(code_text), "{name}: {report}");
        assert!(report.contains("<--fen>:1:"), "{name}: {report}");
        assert!(report.contains("Help:"), "{name}: {report}");
        snapshots().bind(|| insta::assert_snapshot!(format!("niels-fen-{name}"), report));
    }
    // A spread field in a variant without spread pieces.
    let out = run(&["moves", "rules/chess.rules", "--fen", PAIR]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("[E0302]"), "{}", stderr(&out));
}
