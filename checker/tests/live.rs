//! Rules seen to apply along lines of play (`rulebook_checker::live`), which
//! spare the search for rules that never apply its Z3 questions: the lines
//! must show what the Laws say moves, never what cannot, and nothing the
//! solver would deny.

mod support;

use rulebook_checker::live::{look, PromotionSought, Seen, LINES};
use rulebook_checker::prove::{Answer, Prover};
use rulebook_checker::templates::Templates;
use rulebook_interpreter::model::load::load;
use rulebook_interpreter::Variant;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Loads a rules file by its path from the repository root.
fn load_file(path: &str) -> Variant {
    match load(&support::root().join(path)) {
        Ok((game, _)) => Variant::new(Arc::new(game)),
        Err((diags, _)) => panic!("{path} does not load: {diags:?}"),
    }
}

/// What the check's lines show in `v`.
fn seen(v: &Variant) -> Seen {
    look(v, &Templates::new(&v.game), &PromotionSought::of(&v.game), &LINES)
}

/// The (kind name, part index) pairs the lines did not show.
fn unseen_parts(v: &Variant, seen: &Seen) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (k, kind) in v.game.kinds.iter().enumerate() {
        for p in 0..kind.parts.len() {
            if !seen.part_moves(k as u8, p) {
                out.push((kind.name.clone(), p));
            }
        }
    }
    out
}

/// FIDE Laws 3.2–3.8: in a game every piece moves along each of its ways
/// (the king one square in any direction, the pawn one or two squares forward
/// and diagonally to capture, …), and 3.7(e): a pawn reaching the eighth rank
/// promotes. The lines show all of them, and stop as soon as they have.
#[test]
fn every_part_and_the_promotion_of_chess_are_seen() {
    let v = support::variant("chess");
    let seen = seen(&v);
    assert_eq!(unseen_parts(&v, &seen), Vec::<(String, usize)>::new());
    assert_eq!(v.game.promotions.len(), 1);
    assert!(seen.promotes(0), "no pawn promoted along {} lines ({} decisions)", seen.lines, seen.decisions);
    assert!(seen.decisions < LINES.max_decisions, "the lines should stop once everything is seen: {} decisions", seen.decisions);
}

/// examples/ambiguous/dead-parts.rules says in its header which rules never
/// apply: the Pawn's `move F backward from rank 8` (a Pawn never stands on
/// rank 8), the Sentry's only part (forward from rank 8, off the board), the
/// promotion on rank 1 (Pawns only move forward) and the one whose zone is
/// rank 8 and rank 1 at once (no square). No line may show any of them; the
/// chess parts and the rank-8 promotion are seen.
#[test]
fn no_line_shows_a_rule_that_never_applies() {
    let v = load_file("examples/ambiguous/dead-parts.rules");
    let seen = seen(&v);
    let pawn = v.game.kinds.iter().position(|k| k.name == "Pawn").expect("Pawn");
    let backward = v.game.kinds[pawn].parts.len() - 1; // the fourth part, written last
    assert_eq!(unseen_parts(&v, &seen), vec![("Pawn".to_string(), backward), ("Sentry".to_string(), 0)]);
    let promotes: Vec<bool> = (0..v.game.promotions.len()).map(|i| seen.promotes(i)).collect();
    assert_eq!(promotes, vec![true, false, false]);
    // Something is always missing, so every line is walked (to its end:
    // 300 decisions, or a game over; the budget of decisions is not reached).
    assert_eq!(seen.lines, LINES.lines);
    assert!(seen.decisions > u64::from(LINES.lines) * 100 && seen.decisions <= u64::from(LINES.lines * LINES.line_length), "{}", seen.decisions);
}

/// What a line shows, the solver must allow: for every part seen to move,
/// the question `check` no longer asks (a position satisfying the background
/// facts where a move of the kind follows one of the part's templates) is
/// satisfiable for some side. Asked here on chess and on the dead-parts
/// example, whose seen parts are chess's.
#[test]
fn the_solver_allows_every_part_a_line_shows() {
    for v in [support::variant("chess"), load_file("examples/ambiguous/dead-parts.rules")] {
        let seen = seen(&v);
        let mut prover = Prover::new(&v, 60_000, Instant::now() + Duration::from_secs(600));
        for (k, kind) in v.game.kinds.iter().enumerate() {
            for p in (0..kind.parts.len()).filter(|&p| seen.part_moves(k as u8, p)) {
                let allowed = (0..2u8).any(|side| {
                    let answer = prover.part_moves(side, &[], k as u8, p);
                    matches!(answer, Answer::Sat(_))
                });
                assert!(allowed, "{}: part {p} of {} was seen to move, but Z3 finds no position for it", v.game.name, kind.name);
            }
        }
    }
}

/// The lines are seeded and bounded by decisions: the same file shows the
/// same, run after run.
#[test]
fn the_lines_show_the_same_every_time() {
    let v = load_file("examples/ambiguous/dead-parts.rules");
    let (a, b) = (seen(&v), seen(&v));
    assert_eq!((a.lines, a.decisions), (b.lines, b.decisions));
    assert_eq!(unseen_parts(&v, &a), unseen_parts(&v, &b));
}
