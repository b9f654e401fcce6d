//! The `rulebook` binary with phases and obligations (issue 13): perft of
//! complete plies and of single decisions, `moves` in a phase, and moves the
//! phase does not allow. Counts from Fairy-Stockfish (placement) or derived
//! by hand in interpreter/tests/flow.rs.

mod support;
use support::*;

fn rules(name: &str) -> String {
    root().join("rules").join(name).display().to_string()
}

/// Two king moves owed by white, then black's turn (interpreter/tests/flow.rs).
const OWED: &str = "4k3/8/8/8/8/8/8/4K3 b - - 0 1 {oblige=w:move!,w:move!}";

#[test]
fn perft_counts_placements_as_plies() {
    // Fairy-Stockfish: placement startpos 3 = 50,560.
    let out = run(&["perft", &rules("fairy/placement.rules"), "3"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("50560"));
    let out = run(&["perft", &rules("fairy/placement.rules"), "1", "--divide"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("K@e1"), "{}", stdout(&out));
    assert_eq!(stdout(&out).lines().last(), Some("40"));
}

#[test]
fn perft_counts_complete_plies_and_decisions_counts_each_decision() {
    let plies = run(&["perft", &rules("chess.rules"), "2", "--fen", OWED]);
    assert_eq!(code(&plies), 0, "{}", stderr(&plies));
    assert_eq!(stdout(&plies).lines().last(), Some("170"));
    let one = run(&["perft", &rules("chess.rules"), "1", "--fen", OWED, "--decisions"]);
    assert_eq!(stdout(&one).lines().last(), Some("5"));
    let three = run(&["perft", &rules("chess.rules"), "3", "--fen", OWED, "--decisions"]);
    assert_eq!(stdout(&three).lines().last(), Some("170"));
    // --divide mid-ply: each first king move leaves the ply in progress, so its
    // row counts the ways to complete it (the second king move), by hand:
    // from d1 c1 c2 d2 e2 e1 = 5, from d2 8, e2 8, f2 8, f1 5: 34 in all.
    let divide = run(&["perft", &rules("chess.rules"), "1", "--fen", OWED, "--divide"]);
    assert_eq!(code(&divide), 0, "{}", stderr(&divide));
    let rows: Vec<String> = stdout(&divide).lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
    assert_eq!(rows, ["e1d1 Kd1 5", "e1d2 Kd2 8", "e1e2 Ke2 8", "e1f1 Kf1 5", "e1f2 Kf2 8", "34"]);
}

#[test]
fn moves_in_a_phase_are_its_placements_and_others_are_refused() {
    let out = run(&["moves", &rules("fairy/placement.rules")]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("40 legal moves"));
    let out = run(&["moves", &rules("fairy/placement.rules"), "--play", "e4"]);
    assert_eq!(code(&out), 2);
    // The phase's decisions are the legal moves: `e4` is not one, and the help lists them.
    assert!(stderr(&out).contains("E0401") && stderr(&out).contains("K@e1"), "{}", stderr(&out));
    // A king and a rook placed on their squares give the castling right.
    let out = run(&["moves", &rules("fairy/placement.rules"), "--play", "K@e1 K@e8 R@h1 R@a8", "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("r3k3/pppppppp/8/8/8/8/PPPPPPPP/4K2R[QRBBNNqrbbnn] w Kq - 4 3"), "{}", stdout(&out));
}
