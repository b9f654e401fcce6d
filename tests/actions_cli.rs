//! The `rulebook` binary with decisions that are not piece moves (issue 13,
//! LANGUAGE §6.5): activations, relocations and passes listed by `moves`,
//! divided by `perft --divide`, played by `play --moves` and replayed from
//! a record. Every count is derived by hand in the comments.

mod support;
use support::*;

fn example(name: &str) -> String {
    root().join("examples").join(name).display().to_string()
}

fn rules(name: &str) -> String {
    root().join("rules").join(name).display().to_string()
}

/// examples/sliding-levels.rules (4×4×3; levels I and III slide along the
/// ranks, II along the files, out at most 3) in its start position, with
/// White owing an activation: the ply is in progress, Black's turn comes next.
const OWE_ACTIVATION: &str = "2kr/pppp/4/4|4/4/4/4|4/4/PPPP/RK2 b - - 0 1 {oblige=w:activate!}";

/// Each row's words joined by one space.
fn rows(text: &str) -> Vec<String> {
    text.lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect()
}

#[test]
fn moves_lists_every_activation_in_both_forms() {
    // Every level is at rest; each slides by 1, 2 or 3 rows either way:
    // 3 levels × 6 amounts = 18. Levels I and III slide along the ranks
    // (1..4: towards 1 is negative), level II along the files (a..d).
    let out = run(&["moves", &example("sliding-levels.rules"), "--fen", OWE_ACTIVATION]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let rows = rows(&stdout(&out));
    assert_eq!(rows.len(), 19, "{rows:?}");
    for (coordinate, san) in [("I:+1", "A-I-1-4"), ("I:-3", "A-I-3-1"), ("II:+3", "A-II-3-d"), ("II:-2", "A-II-2-a"), ("III:-1", "A-III-1-1")] {
        assert!(rows.contains(&format!("{coordinate} {san}")), "{coordinate} {san} in {rows:?}");
    }
    assert_eq!(rows.last().map(String::as_str), Some("18 legal decisions"));
}

#[test]
fn perft_divides_by_activation() {
    // Each activation completes White's ply: one leaf per row at depth 1.
    let out = run(&["perft", &example("sliding-levels.rules"), "1", "--divide", "--fen", OWE_ACTIVATION]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let rows = rows(&stdout(&out));
    assert_eq!(rows.len(), 19);
    assert!(rows.contains(&"II:-3 A-II-3-a 1".to_string()), "{rows:?}");
    assert_eq!(rows.last().map(String::as_str), Some("18"));
}

#[test]
fn a_relocation_is_read_in_both_forms_and_an_unknown_decision_is_e0523() {
    // White owes a relocation: any own piece to any empty cell. The pawn on
    // Ia2 (rank 2 of level I) goes to IIb3 on the empty level II.
    let fen = "2kr/pppp/4/4|4/4/4/4|4/4/PPPP/RK2 b - - 0 1 {oblige=w:relocate!}";
    for text in ["R-Ia2-IIb3", "Ia2>IIb3"] {
        let out = run(&["moves", &example("sliding-levels.rules"), "--fen", fen, "--play", text, "--json"]);
        assert_eq!(code(&out), 0, "{text}: {}", stderr(&out));
        // The ply is complete: Black moves, with its first legal moves listed.
        assert!(stdout(&out).contains("\"side\": \"black\"") || stdout(&out).contains("\"side\":\"black\""), "{}", stdout(&out));
    }
    let out = run(&["moves", &example("sliding-levels.rules"), "--fen", fen, "--play", "A-II-1-a"]);
    assert_ne!(code(&out), 0);
    assert!(stderr(&out).contains("E0523"), "{}", stderr(&out));
}

#[test]
fn moves_in_a_position_with_a_swing_agree_with_perft() {
    // Level II of the sliding example stands 3 files towards d and swings
    // back (`<`); its first jump is due (no `*`). The moves are judged after
    // the jump; `moves` lists as many as perft 1 counts.
    let fen = "2kr/pppp/4/4|4/4/4/4|4/4/PPPP/RK2 w - - 0 1 {frame=II:+3<+3}";
    let moves = run(&["moves", &example("sliding-levels.rules"), "--fen", fen]);
    assert_eq!(code(&moves), 0, "{}", stderr(&moves));
    let perft = run(&["perft", &example("sliding-levels.rules"), "1", "--fen", fen]);
    assert_eq!(code(&perft), 0, "{}", stderr(&perft));
    let n: usize = stdout(&perft).trim().parse().expect("a count");
    assert_eq!(stdout(&moves).lines().count(), n + 1, "{}", stdout(&moves));
    // The king on Ib1 has moves among them (Ic1 at least: empty, unattacked).
    assert!(stdout(&moves).lines().any(|l| l.starts_with("Ib1")), "{}", stdout(&moves));
}

#[test]
fn four_d_schach_placement_lines_read_with_moves() {
    // The opening's first placements: White's king, then Black's (rulebook
    // order K, P, R, …); `moves` reads them as drops.
    let out = run(&["moves", &rules("4d-schach.rules"), "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("K@"), "{}", stdout(&out));
}

#[test]
fn a_scripted_four_d_schach_line_is_recorded_and_replayed() {
    // The opening's first six placements in the rulebook's order (kings,
    // then pawn, rook, …: §4), each a legal choice listed by `moves`: White's
    // king on IIId4, Black's on Vd5, White's first pawn on IIIa2, Black's on
    // IIIa1, White's first rook on IIIa3, Black's on IIIb5.
    let line = "K@IIId4 K@Vd5 P@IIIa2 P@IIIa1 R@IIIa3 R@IIIb5";
    let dir = std::env::temp_dir().join(format!("rulebook-actions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let record = dir.join("opening.pgn");
    let record_arg = record.display().to_string();
    let out = run(&["play", &rules("4d-schach.rules"), "--moves", line, "--seed", "1", "--record", &record_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let written = std::fs::read_to_string(&record).expect("the record");
    assert!(written.contains("1. K@IIId4 K@Vd5 2. P@IIIa2 P@IIIa1 3. R@IIIa3 R@IIIb5 *"), "{written}");
    let out = run(&["replay", &record_arg, "--rules", &rules("4d-schach.rules")]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).ends_with("The record is valid: 6 moves.\n"), "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn activations_are_played_recorded_and_replayed() {
    // White owes two activations (the sliding example): level II 2 files
    // towards a (SAN-like form), level I 1 rank towards 4 (coordinate form
    // `I:+1`). The record writes White's two decisions in one numbered unit,
    // in the SAN-like form, and replay reads them back.
    let fen = "2kr/pppp/4/4|4/4/4/4|4/4/PPPP/RK2 b - - 0 1 {oblige=w:activate!,w:activate!}";
    let dir = std::env::temp_dir().join(format!("rulebook-activations-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let record = dir.join("pulled.pgn");
    let record_arg = record.display().to_string();
    let out = run(&["play", &example("sliding-levels.rules"), "--fen", fen, "--moves", "A-II-2-a I:+1", "--seed", "1", "--record", &record_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The board shows level II pulled out and level I's hole row.
    assert!(stdout(&out).contains("level II, pulled 2 towards file a"), "{}", stdout(&out));
    let written = std::fs::read_to_string(&record).expect("the record");
    assert!(written.contains("1. A-II-2-a A-I-1-4 *"), "{written}");
    let out = run(&["replay", &record_arg, "--rules", &example("sliding-levels.rules")]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).ends_with("The record is valid: 2 moves.\n"), "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_waived_obligation_is_recorded_as_a_pass_and_replayed() {
    // White may activate (`?`: optional) and passes (`pass`, written `--`);
    // then Black's king steps from IIIc4 down to IIc4.
    let fen = "2kr/pppp/4/4|4/4/4/4|4/4/PPPP/RK2 b - - 0 1 {oblige=w:activate?}";
    let dir = std::env::temp_dir().join(format!("rulebook-pass-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let record = dir.join("pass.pgn");
    let record_arg = record.display().to_string();
    let out = run(&["play", &example("sliding-levels.rules"), "--fen", fen, "--moves", "pass KIIc4", "--seed", "1", "--record", &record_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let written = std::fs::read_to_string(&record).expect("the record");
    assert!(written.contains("1. -- KIIc4 *"), "{written}");
    let out = run(&["replay", &record_arg, "--rules", &example("sliding-levels.rules")]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).ends_with("The record is valid: 2 moves.\n"), "{}", stdout(&out));
    // 18 activations (3 levels × 6 amounts) and the pass.
    let out = run(&["moves", &example("sliding-levels.rules"), "--fen", fen]);
    assert_eq!(stdout(&out).lines().last(), Some("19 legal decisions"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn interactive_play_takes_an_activation_and_refuses_one_beyond_the_limit() {
    // White owes an activation and plays White (Black is the random side).
    // `moves` lists the 18 activations; `A-II-9-a` is beyond `out at most 3`
    // (E0523, the game goes on); `A-II-2-a` is played, then Black replies.
    // (The sliding example has no compass words: the directions are written
    // with the files' end labels.)
    let out = run_with(
        None,
        &["play", &example("sliding-levels.rules"), "--fen", OWE_ACTIVATION, "--seed", "1", "--as", "white"],
        Some("moves\nA-II-9-a\nA-II-2-a\nquit\n"),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("White owes an activation, then Black moves"), "{text}");
    assert!(text.contains("18 legal decisions"), "{text}");
    assert!(stderr(&out).contains("E0523"), "{}", stderr(&out));
    assert!(text.contains("1. A-II-2-a\n1... "), "{text}");
    // At White's next turn level II has made its first jump, at the end of
    // Black's ply (§3.18: -2, then -1).
    assert!(text.contains("level II, pulled 1 towards file a, swinging"), "{text}");
}
