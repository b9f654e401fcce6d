//! Trust: the Z3 encoding admits exactly the interpreter's legal moves.
//!
//! For every variant in rules/, at least 200 positions (the perft-suite
//! positions of the variant, and positions along seeded random games from the
//! setup and from those positions) are asserted into the encoding; the legal
//! moves Z3 admits are enumerated with blocking clauses and compared, as sets
//! of move keys, with the interpreter's legal moves.

mod support;

use rulebook_checker::encode::{key_of, Encoder, Key, State, Step};
use rulebook_interpreter::{epd, Position, Variant};
use support::{root, variant, Rng};
use std::collections::BTreeSet;
use z3::ast::{Ast, Bool, Int};
use z3::{Params, SatResult, Solver};

/// Positions compared per variant by the ignored full test.
const FULL: usize = 200;
/// Positions compared per variant by the quick tests of `cargo test`.
const QUICK: usize = 12;

/// The suite positions of `name`, and positions along random games from them and the setup.
fn sample(v: &Variant, name: &str, seed: u64, count: usize) -> Vec<Position> {
    let mut starts = vec![v.start().expect("setup")];
    if let Ok(text) = std::fs::read_to_string(root().join("tests/perft").join(format!("{name}.epd"))) {
        let (cases, _) = epd::parse(name, &text);
        for case in cases {
            if let Ok(pos) = v.parse_fen(&case.fen, &case.id) {
                starts.push(pos);
            }
        }
    }
    let mut out: Vec<Position> = starts.iter().take(count).cloned().collect();
    let mut rng = Rng(seed);
    let mut game = 0;
    while out.len() < count {
        let mut pos = starts[game % starts.len()].clone();
        game += 1;
        for _ in 0..(20 + rng.below(80)) {
            let moves = v.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            // Prefer captures, promotions and special moves now and then, so that they are sampled.
            let m = moves[rng.below(moves.len())];
            pos = v.play(&pos, &m);
            if rng.below(6) == 0 {
                out.push(pos.clone());
                if out.len() >= count {
                    break;
                }
            }
        }
    }
    out
}

/// The move keys the encoding admits in `pos`: the position is substituted
/// into the step formulas built once per side; the available moves are
/// enumerated with blocking clauses, and each is kept when Z3 evaluates the
/// step's legality (no royal piece of the mover attacked after it) to true.
fn admitted(enc: &Encoder, state: &State, step: &Step, pos: &Position) -> BTreeSet<Key> {
    let (ints, _) = enc.bindings(state, pos);
    let pairs: Vec<(&Int, &Int)> = ints.iter().map(|(a, b)| (a, b)).collect();
    let available = step.available.substitute(&pairs).simplify();
    let legal = step.legal.substitute(&pairs).simplify();
    let solver = Solver::new();
    let mut params = Params::new();
    params.set_u32("timeout", 60_000);
    solver.set_params(&params);
    solver.assert(&available);
    let mut keys = BTreeSet::new();
    let mut seen = 0;
    loop {
        match solver.check() {
            SatResult::Sat => {
                let model = solver.get_model().expect("a model");
                let key = enc.read_key(&model, step);
                seen += 1;
                assert!(seen < 5000, "runaway enumeration");
                if model.eval(&legal, true).and_then(|b| b.as_bool()) == Some(true) {
                    keys.insert(key);
                }
                let k = &step.key;
                let this = [key.0, key.1, key.2, key.3];
                solver.assert(Bool::and(&k.iter().zip(this).map(|(t, v)| t.eq(Int::from_i64(v))).collect::<Vec<_>>()).not());
            }
            SatResult::Unsat => break,
            SatResult::Unknown => panic!("solver gave up: {:?}", solver.get_reason_unknown()),
        }
    }
    keys
}

fn compare(name: &str, seed: u64, count: usize) {
    let v = variant(name);
    let enc = Encoder::new(&v);
    let positions = sample(&v, name, seed, count);
    let state = enc.state("s");
    let steps = [0u8, 1].map(|side| enc.step(&state, side, &format!("m{side}")));
    let mut total = 0;
    for pos in &positions {
        let got = admitted(&enc, &state, &steps[pos.side as usize], pos);
        let want: BTreeSet<Key> = v.legal_moves(pos).iter().map(key_of).collect();
        total += want.len();
        if got != want {
            let extra: Vec<_> = got.difference(&want).collect();
            let missing: Vec<_> = want.difference(&got).collect();
            panic!("{name}: {}\n  admitted by Z3 only: {extra:?}\n  interpreter only: {missing:?}", v.fen(pos));
        }
    }
    eprintln!("{name}: {} positions, {total} moves agree", positions.len());
}

/// Every variant in rules/, with its seed.
const VARIANTS: [(&str, u64); 7] =
    [("chess", 1), ("chess960", 2), ("capablanca", 3), ("crazyhouse", 4), ("losalamos", 5), ("raumschach", 6), ("grasshopper", 7)];

/// The full comparison the issue asks for: 200 positions of every variant
/// (several minutes; `.ci/run` runs it in release).
#[test]
#[ignore]
fn every_variant_200_positions() {
    for (name, seed) in VARIANTS {
        compare(name, seed, FULL);
    }
}

#[test]
fn chess() {
    compare("chess", 1, QUICK);
}

#[test]
fn chess960() {
    compare("chess960", 2, QUICK);
}

#[test]
fn capablanca() {
    compare("capablanca", 3, QUICK);
}

#[test]
fn crazyhouse() {
    compare("crazyhouse", 4, QUICK);
}

#[test]
fn losalamos() {
    compare("losalamos", 5, QUICK);
}

#[test]
fn raumschach() {
    compare("raumschach", 6, QUICK);
}

#[test]
fn grasshopper() {
    compare("grasshopper", 7, QUICK);
}
