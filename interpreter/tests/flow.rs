//! The flow core (issue 13): obligations owed within a ply, read from the
//! position text's `oblige=` key, legality judged on the whole ply, and perft
//! over complete plies against single decisions. Every count is derived by
//! hand in the comments.

mod support;

use rulebook_interpreter::flow::{perft as flow_perft, Action};
use rulebook_interpreter::{Position, Variant};
use support::variant;

fn at(v: &Variant, fen: &str) -> Position {
    v.parse_fen(fen, "<test>").unwrap_or_else(|d| panic!("{fen}: {}", d.message))
}

fn names(v: &Variant, actions: &[Action]) -> Vec<String> {
    let geo = &v.game.geometry;
    let mut out: Vec<String> = actions
        .iter()
        .map(|a| match a {
            Action::Move(m) => format!("{}{}", geo.name(m.from), geo.name(m.to)),
            Action::Relocate { from, to } => format!("{}>{}", geo.name(*from), geo.name(*to)),
            Action::Activate { level, rows } => format!("A{level}:{rows}"),
            Action::Pass => "pass".into(),
            other => rulebook_interpreter::text::notation::action::action_coordinate(v, other),
        })
        .collect();
    out.sort();
    out
}

/// Black has moved into a position where it stands in check (Ra8 against
/// Kh8) and owes a move before the turn passes: only the moves that end the
/// ply out of check are legal (Kh7, Kg7; g8 is on the rook's rank).
#[test]
fn an_owed_move_must_end_the_ply_out_of_check() {
    let v = variant("chess");
    let pos = at(&v, "R6k/8/8/8/8/8/8/4K3 w - - 0 1 {oblige=b:move!}");
    assert_eq!(v.decider(&pos), 1);
    let actions = v.actions(&pos);
    assert_eq!(names(&v, &actions), ["h8g7", "h8h7"]);
    // The ply ends with the move: white is to move, nothing is owed, and an
    // intermediate move is not a half-move of its own (counters unchanged).
    let g7 = actions.iter().find(|a| names(&v, std::slice::from_ref(a)) == ["h8g7"]).expect("Kg7");
    let after = v.apply(&pos, g7);
    assert!(after.flow.is_none());
    assert_eq!(v.fen(&after), "R7/6k1/8/8/8/8/8/4K3 w - - 0 1");
}

/// An optional obligation may be waived, unless waiving leaves the mover in
/// check at the end of the ply.
#[test]
fn an_optional_obligation_may_be_passed_when_the_ply_ends_safe() {
    let v = variant("chess");
    let checked = at(&v, "R6k/8/8/8/8/8/8/4K3 w - - 0 1 {oblige=b:move?}");
    assert_eq!(names(&v, &v.actions(&checked)), ["h8g7", "h8h7"]);
    // Out of check (the rook on a7 holds rank 7, so g7 and h7 are attacked):
    // Kg8, and `pass`.
    let safe = at(&v, "7k/R7/8/8/8/8/8/4K3 w - - 0 1 {oblige=b:move?}");
    assert_eq!(names(&v, &v.actions(&safe)), ["h8g8", "pass"]);
    let passed = v.apply(&safe, &Action::Pass);
    assert!(passed.flow.is_none());
    assert_eq!(v.fen(&passed), "7k/R7/8/8/8/8/8/4K3 w - - 0 1");
}

/// A relocation owed by black, in check: the king may go to any empty cell
/// that no white piece attacks. Empty: 64 − 3 = 61; attacked: b8..g8 (6, the
/// rook's rank; h8 is the king's own square), a1..a7 (7, the rook's file),
/// d1 f1 d2 e2 f2 (5, the white king): 18. Left: 43.
#[test]
fn an_owed_relocation_is_judged_at_the_end_of_the_ply() {
    let v = variant("chess");
    let pos = at(&v, "R6k/8/8/8/8/8/8/4K3 w - - 0 1 {oblige=b:relocate!}");
    let actions = v.actions(&pos);
    assert_eq!(actions.len(), 43);
    assert!(actions.iter().all(|a| matches!(a, Action::Relocate { .. })));
}

/// Two moves owed by white, then black's turn. White's king on e1 moves
/// twice: first to d1 f1 d2 e2 f2 (5), then on: from d1 c1 e1 c2 d2 e2 (5),
/// from f1 e1 g1 e2 f2 g2 (5), from d2, e2, f2 to any of their 8 neighbours
/// (8 each): 5 + 5 + 24 = 34 complete plies of two decisions. Black's king
/// on e8 then has its 5 moves (d8 f8 d7 e7 f7) after each: 34 × 5 = 170.
#[test]
fn perft_counts_complete_plies_and_decisions_counts_each_decision() {
    let v = variant("chess");
    let pos = at(&v, "4k3/8/8/8/8/8/8/4K3 b - - 0 1 {oblige=w:move!,w:move!}");
    assert_eq!(flow_perft::decisions(&v, &pos, 1), 5);
    assert_eq!(flow_perft::decisions(&v, &pos, 2), 34);
    assert_eq!(flow_perft::decisions(&v, &pos, 3), 170);
    assert_eq!(flow_perft::plies(&v, &pos, 1), 34);
    assert_eq!(flow_perft::plies(&v, &pos, 2), 170);
    // The engine's perft takes the flow path for such a position.
    assert_eq!(rulebook_interpreter::engine::perft::perft(&v, &pos, 2), 170);
}

/// The queue is written back as it was read, and bad entries are errors.
#[test]
fn obligations_round_trip_and_bad_ones_are_refused() {
    let v = variant("chess");
    let text = "4k3/8/8/8/8/8/8/4K3 b - - 0 1 {oblige=w:move!,b:relocate?}";
    assert_eq!(v.fen(&at(&v, text)), text);
    for bad in ["{oblige=x:move!}", "{oblige=w:fly!}", "{oblige=w:move}", "{oblige=w-move!}"] {
        let text = format!("4k3/8/8/8/8/8/8/4K3 b - - 0 1 {bad}");
        let err = v.parse_fen(&text, "<t>").expect_err(bad);
        assert_eq!(err.code, "E0305", "{bad}: {}", err.message);
    }
}

/// Without flow state, the actions are the legal moves and applying one is `play`.
#[test]
fn without_flow_state_actions_are_the_legal_moves() {
    let v = variant("chess");
    let start = v.start().expect("setup");
    assert!(start.flow.is_none());
    let actions = v.actions(&start);
    let moves = v.legal_moves(&start);
    assert_eq!(actions.len(), moves.len());
    for (a, m) in actions.iter().zip(&moves) {
        assert_eq!(a.as_move(), Some(m));
        assert_eq!(v.apply(&start, a).key(&v.tables), v.play(&start, m).key(&v.tables));
    }
}

/// An owed activation (examples/sliding-levels.rules: levels I and III slide
/// along the rank, II along the file, `out at most 3`): every level at rest,
/// pulled 1, 2 or 3 rows either way, 3 × 6 = 18 decisions. None uncovers the
/// white king on b1 of level I to black (whose pieces all stand on level III,
/// two ranks or more away), so all 18 end the ply legally. The ply ends with
/// it: the level stays out, its first jump waiting for the next ply's end.
#[test]
fn an_owed_activation_offers_every_level_and_amount() {
    let v = support::variant_at(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/sliding-levels.rules"));
    let pos = at(&v, "2kr/pppp/4/4|4/4/4/4|4/4/PPPP/RK2 b - - 0 1 {oblige=w:activate!}");
    let actions = v.actions(&pos);
    assert_eq!(actions.len(), 18);
    assert!(actions.iter().all(|a| matches!(a, Action::Activate { rows, .. } if (1..=3).contains(&rows.unsigned_abs()))));
    assert_eq!(flow_perft::plies(&v, &pos, 1), 18);
    let after = v.apply(&pos, &Action::Activate { level: 0, rows: 3 });
    assert!(after.flow.is_none());
    assert_eq!(after.side, 1);
    assert!(after.frame.is_some());
}

/// A ply in progress whose decisions are relocations is not over: its
/// status is ongoing though no move is among them.
#[test]
fn a_ply_in_progress_with_decisions_is_ongoing() {
    let v = variant("chess");
    let pos = at(&v, "R6k/8/8/8/8/8/8/4K3 w - - 0 1 {oblige=b:relocate!}");
    assert!(v.legal_moves(&pos).is_empty());
    assert_eq!(v.status(&pos), rulebook_interpreter::Status::Ongoing);
}
