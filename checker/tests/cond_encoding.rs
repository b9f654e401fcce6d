//! The Z3 encoding of rule conditions (`Encoder::cond`) reads every
//! condition as the interpreter does (`engine::cond::holds`): for each
//! condition of tests/data/conditions.rules (one rule per kind of test the
//! encoding states, negations, `and` and `or` among them), each subject and
//! each of 300 positions along seeded random chess games, the formula over
//! the position's constant state simplifies to the interpreter's answer.

mod support;

use rulebook_checker::encode::{Encoder, Reading};
use rulebook_interpreter::engine::cond::holds;
use rulebook_interpreter::{model::load::load, Variant};
use std::sync::Arc;
use support::{root, variant, Rng};
use z3::ast::Ast;

#[test]
fn conditions_read_as_the_interpreter_reads_them() {
    let path = root().join("checker/tests/data/conditions.rules");
    let (game, _) = load(&path).unwrap_or_else(|(d, _)| panic!("conditions.rules does not load: {d:?}"));
    let with_rules = Variant::new(Arc::new(game));
    let chess = variant("chess");
    let enc = Encoder::new(&with_rules);
    let game = &with_rules.game;
    let mut rng = Rng(7);
    let (mut positions, mut held, mut readings) = (0, 0, 0);
    while positions < 300 {
        let mut pos = chess.start().expect("setup");
        for _ in 0..rng.below(120) {
            let moves = chess.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos = chess.play(&pos, &moves[rng.below(moves.len())]);
        }
        positions += 1;
        let t = with_rules.tables_for(&pos);
        let state = enc.concrete(&pos);
        let mover = pos.side ^ 1;
        for rule in &game.rules {
            let guard = rule.guard.as_ref().expect("every rule has a condition");
            for subject in [mover, mover ^ 1] {
                let reading = Reading { mover, subject, to_move: pos.side, phase: game.phases.len(), out: &[] };
                let formula = enc.cond(&state, guard, reading).unwrap_or_else(|u| panic!("rule {:?}: {:?} is not stated", rule.name, u));
                let ours = formula.simplify().as_bool().unwrap_or_else(|| panic!("rule {:?} does not simplify to a constant", rule.name));
                let theirs = holds(game, &t, &pos, guard, mover, subject);
                assert_eq!(ours, theirs, "rule {:?}, subject {subject}: {}", rule.name, chess.fen(&pos));
                readings += 1;
                held += usize::from(theirs);
            }
        }
    }
    // Both answers occur often enough for the comparison to mean something.
    assert!(held > readings / 10 && held < readings * 9 / 10, "{held} of {readings} readings hold");
    eprintln!("{positions} positions, {readings} readings agree, {held} of them hold");
}
