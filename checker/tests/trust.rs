//! Trust: the Z3 encoding admits exactly the interpreter's legal moves.
//!
//! For every variant in rules/, at least 200 positions (the perft-suite
//! positions of the variant, and positions along seeded random games from the
//! setup and from those positions) are asserted into the encoding; the legal
//! moves Z3 admits are enumerated with blocking clauses and compared, as sets
//! of move keys, with the interpreter's legal moves.
//!
//! With hidden identities (Nebelschach) a move is its key and the kind a
//! face-down piece is revealed as (-1 for none). The encoding leaves out the
//! pools (any kind of [`Encoder::reveal_kinds`] may be revealed), so it is
//! compared with the interpreter's moves in the same position with every such
//! kind in both pools: legality never depends on the pools, only which
//! outcomes are listed does. The interpreter's moves with the real pools must
//! be among them. The identity a captured face-down piece is drawn as is not
//! compared: it changes nothing but a hand, and no variant has both.
//!
//! Spread pieces and tunnels (Niel's Chess) are not in the encoding: it
//! states positions without spread pieces and their conventional moves. So
//! for such a variant the positions are taken along random games of
//! conventional moves and tunnels (no split or entangle, so no piece ever
//! stands spread, while a tunnel that passes makes positions chess never
//! reaches), and only the interpreter's conventional moves are compared:
//! there they must be exactly the encoding's.

mod support;

use rulebook_checker::encode::{key_of, Encoder, Key, State, Step};
use rulebook_interpreter::engine::position::NO_KIND;
use rulebook_interpreter::engine::spread::{ACTION, ENTANGLE, SPLIT};
use rulebook_interpreter::engine::frame;
use rulebook_interpreter::{text::epd, Move, Position, Variant};
use support::{root, variant, Rng};
use std::collections::BTreeSet;
use z3::ast::{Ast, Bool, Int};
use z3::{Params, SatResult, Solver};

/// Positions compared per variant by the ignored full test.
const FULL: usize = 200;
/// Positions compared per variant by the quick tests of `cargo test`.
const QUICK: usize = 12;

/// Positions of rare situations that random games seldom reach, compared
/// besides the sample (not played from).
fn rare(name: &str) -> &'static [&'static str] {
    match name {
        "nebelschach" => &[
            // Face-down rooks on open files: captures of face-down pieces on
            // the far rank (revealed as a pawn: promotion), castling with
            // face-down partners on both sides.
            "r?3k2r?/8/8/8/8/8/8/R?3K2R? w KQkq - 0 1",
            "r?3k2r?/8/8/8/8/8/8/R?3K2R? b KQkq - 0 1",
            "3q?k3/8/8/8/8/8/8/3Q?K3 w - - 0 1",
            // A face-down pawn one step from the far rank: its disguise's
            // promotion does not apply, a revealed pawn's does.
            "4k3/1P?6/8/8/8/8/8/4K3 w - - 0 1",
            // En passant by a face-down pawn, of a revealed knight.
            "4k3/8/8/3P?n3/8/8/8/4K3 w - e6 0 1",
            // A face-down bishop pinned by a face-down rook.
            "4k3/4r?3/8/8/8/8/4B?3/4K3 w - - 0 1",
        ],
        _ => &[],
    }
}

/// Does the Z3 encoding leave out some of `v`'s moves (spread pieces, tunnels)?
fn partial(v: &Variant) -> bool {
    v.game.spread.is_some() || v.game.tunnel.is_some()
}

/// Is `m` a conventional move (not a split, an entangle or a tunnel)?
fn conventional(m: &Move) -> bool {
    m.spread & ACTION == 0
}

/// Keeps the moves the encoding states (all of them in a variant it covers).
fn encodable(v: &Variant, moves: Vec<Move>) -> Vec<Move> {
    if partial(v) {
        moves.into_iter().filter(conventional).collect()
    } else {
        moves
    }
}

/// The suite positions of `name`, its rare positions, and positions along
/// random games from the suite positions and the setup. In a variant with
/// spread pieces: only positions without them, along games without splits
/// and entangles.
fn sample(v: &Variant, name: &str, seed: u64, count: usize) -> Vec<Position> {
    let mut starts = vec![v.start().expect("setup")];
    if let Ok(text) = std::fs::read_to_string(root().join("tests/perft").join(format!("{name}.epd"))) {
        let (cases, _) = epd::parse(name, &text);
        for case in cases {
            if let Ok(pos) = v.parse_fen(&case.fen, &case.id) {
                if pos.spread.is_none() {
                    starts.push(pos);
                }
            }
        }
    }
    let mut out: Vec<Position> = starts.iter().take(count).cloned().collect();
    let rare = rare(name);
    for fen in rare {
        out.push(v.parse_fen(fen, "<rare>").unwrap_or_else(|d| panic!("{fen}: {}", d.message)));
    }
    // Room for random games besides the rare positions.
    let count = if rare.is_empty() { count } else { count.max(out.len() + count / 2) };
    let mut rng = Rng(seed);
    let mut game = 0;
    while out.len() < count {
        let mut pos = starts[game % starts.len()].clone();
        game += 1;
        for _ in 0..(20 + rng.below(80)) {
            let mut moves = v.legal_moves(&pos);
            if partial(v) {
                moves.retain(|m| m.spread & ACTION != SPLIT && m.spread & ACTION != ENTANGLE);
            }
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

/// A move as compared: its key and the kind a face-down piece is revealed as (-1 for none).
type Outcome = (Key, i64);

fn outcome_of(m: &Move) -> Outcome {
    (key_of(m), if m.reveal == NO_KIND { -1 } else { m.reveal as i64 })
}

/// The moves the encoding admits in `pos`: the position is substituted
/// into the step formulas built once per side; the available moves are
/// enumerated with blocking clauses, and each is kept when Z3 evaluates the
/// step's legality (no royal piece of the mover attacked after it) to true.
fn admitted(enc: &Encoder, state: &State, step: &Step, pos: &Position) -> BTreeSet<Outcome> {
    let (ints, bools) = enc.bindings(state, pos);
    let pairs: Vec<(&Int, &Int)> = ints.iter().map(|(a, b)| (a, b)).collect();
    let flags: Vec<(&Bool, &Bool)> = bools.iter().map(|(a, b)| (a, b)).collect();
    let concrete = |f: &Bool| f.substitute(&pairs).substitute(&flags).simplify();
    let available = concrete(&step.available);
    let legal = concrete(&step.legal);
    let solver = Solver::new();
    let mut params = Params::new();
    params.set_u32("timeout", 60_000);
    solver.set_params(&params);
    solver.assert(&available);
    let mut moves = BTreeSet::new();
    let mut seen = 0;
    loop {
        match solver.check() {
            SatResult::Sat => {
                let model = solver.get_model().expect("a model");
                let key = enc.read_key(&model, step);
                let reveal = enc.read_reveal(&model, step);
                seen += 1;
                assert!(seen < 5000, "runaway enumeration");
                if model.eval(&legal, true).and_then(|b| b.as_bool()) == Some(true) {
                    moves.insert((key, reveal));
                }
                let k = &step.key;
                let this = [key.0, key.1, key.2, key.3];
                let mut same: Vec<Bool> = k.iter().zip(this).map(|(t, v)| t.eq(Int::from_i64(v))).collect();
                same.push(step.reveal.eq(Int::from_i64(reveal)));
                solver.assert(Bool::and(&same).not());
            }
            SatResult::Unsat => break,
            SatResult::Unknown => panic!("solver gave up: {:?}", solver.get_reason_unknown()),
        }
    }
    moves
}

/// `pos` with every kind the encoding may reveal in both players' pools
/// (the pools' sizes no longer match the face-down pieces: a position for
/// move generation only, which never reads them).
fn with_full_pools(enc: &Encoder, pos: &Position) -> Position {
    let mut full = pos.clone();
    if pos.any_hidden() {
        for pool in &mut full.pool {
            for &k in enc.reveal_kinds() {
                pool[k as usize] = pool[k as usize].max(1);
            }
        }
    }
    full
}

fn compare(name: &str, seed: u64, count: usize) {
    let v = variant(name);
    let enc = Encoder::new(&v);
    let positions = sample(&v, name, seed, count);
    let state = enc.state("s");
    let steps = [0u8, 1].map(|side| enc.step(&state, side, &format!("m{side}")));
    let (mut total, mut hidden) = (0, 0);
    for pos in &positions {
        assert!(pos.spread.is_none(), "{name}: a sampled position has spread pieces: {}", v.fen(pos));
        let got = admitted(&enc, &state, &steps[pos.side as usize], pos);
        let want: BTreeSet<Outcome> = encodable(&v, v.legal_moves(&with_full_pools(&enc, pos))).iter().map(outcome_of).collect();
        total += want.len();
        hidden += usize::from(pos.any_hidden());
        if got != want {
            let extra: Vec<_> = got.difference(&want).collect();
            let missing: Vec<_> = want.difference(&got).collect();
            panic!("{name}: {}\n  admitted by Z3 only: {extra:?}\n  interpreter only: {missing:?}", v.fen(pos));
        }
        for m in encodable(&v, v.legal_moves(pos)) {
            assert!(got.contains(&outcome_of(&m)), "{name}: {}: Z3 does not admit {m:?}", v.fen(pos));
        }
    }
    eprintln!("{name}: {} positions ({hidden} with face-down pieces), {total} moves agree", positions.len());
}

/// The encoding's state after each legal move equals the interpreter's
/// (board, promoted flags, castling rights, en-passant targets, hands and
/// face-down cells; the pools are not encoded): for each position and move,
/// the step with the position substituted and the move's key and revealed
/// kind fixed is unsatisfiable together with a next state that differs.
fn successors(name: &str, seed: u64, count: usize) {
    let v = variant(name);
    let enc = Encoder::new(&v);
    let positions = sample(&v, name, seed, count);
    let state = enc.state("s");
    let steps = [0u8, 1].map(|side| enc.step(&state, side, &format!("m{side}")));
    let mut total = 0;
    for pos in &positions {
        let step = &steps[pos.side as usize];
        let (ints, bools) = enc.bindings(&state, pos);
        let pairs: Vec<(&Int, &Int)> = ints.iter().map(|(a, b)| (a, b)).collect();
        let flags: Vec<(&Bool, &Bool)> = bools.iter().map(|(a, b)| (a, b)).collect();
        let concrete = |f: &Bool| f.substitute(&pairs).substitute(&flags).simplify();
        let legal = concrete(&step.legal);
        for m in encodable(&v, v.legal_moves(pos)) {
            let after = v.play(pos, &m);
            let ((class, from, to, extra), reveal) = outcome_of(&m);
            let solver = Solver::new();
            solver.assert(&legal);
            for (term, value) in step.key.iter().zip([class, from, to, extra]) {
                solver.assert(term.eq(Int::from_i64(value)));
            }
            solver.assert(step.reveal.eq(Int::from_i64(reveal)));
            if m.unveil != NO_KIND {
                // Decided only where captures go to hand (else the constant -1).
                solver.assert(Bool::or(&[step.unveil.eq(Int::from_i64(m.unveil as i64)), step.unveil.eq(Int::from_i64(-1))]));
            }
            solver.assert(concrete(&enc.equals(&step.next, &after)).not());
            match solver.check() {
                SatResult::Unsat => {}
                SatResult::Sat => panic!("{name}: {}: after {m:?} the encoding's state is not the interpreter's {}", v.fen(pos), v.fen(&after)),
                SatResult::Unknown => panic!("solver gave up: {:?}", solver.get_reason_unknown()),
            }
            total += 1;
        }
    }
    eprintln!("{name}: {} positions, the states after {total} moves agree", positions.len());
}

/// Every variant in rules/, with its seed.
const VARIANTS: [(&str, u64); 9] = [
    ("chess", 1),
    ("chess960", 2),
    ("capablanca", 3),
    ("crazyhouse", 4),
    ("losalamos", 5),
    ("raumschach", 6),
    ("grasshopper", 7),
    ("nebelschach", 8),
    ("niels-chess", 9),
];

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

/// Face-down pieces: random games from the setup, so most positions have
/// some, with reveals, promotions by revealed identities and castling with
/// a face-down partner along the way.
#[test]
fn nebelschach() {
    compare("nebelschach", 8, QUICK);
}

/// Niel's Chess: its conventional moves in positions without spread pieces,
/// along games with tunnels (the encoding knows neither spread pieces nor
/// tunnels; see the module doc).
#[test]
fn niels_chess() {
    compare("niels-chess", 9, QUICK);
}

/// The states after the moves of Nebelschach: face-down cells turned face
/// up by moves, captures and castling, revealed identities and their
/// promotions on the board.
#[test]
fn nebelschach_successors() {
    successors("nebelschach", 8, QUICK);
}

/// A position at the end of 4D-Schach's opening, White to move in the middle
/// game: the test position of interpreter/tests/four_d.rs (written out in
/// rules/4d-schach.rules), checked there against the opening's rules.
const FOUR_D_MIDDLE_GAME: &str = "5p2/2P5/8/6p1/8/5P2/4B3/8|4n3/8/8/7q/5P2/8/3R4/5P2|8/8/4p3/3k4/8/8/7R/6N1|8/8/B3P3/8/8/b3p3/8/8|6n1/7r/8/8/3K4/4P3/8/8|5p2/3r4/8/5p2/7Q/8/8/4N3|8/4b3/5p2/8/6P1/8/2p5/5P2 w - - 0 1";

/// Positions of 4D-Schach met along random games by decisions (placements,
/// moves, relocations, activations, exiles, returns, waivers) from the
/// setup or from [`FOUR_D_MIDDLE_GAME`], where nothing is owed: `placements` of them in the placement
/// phase, taken near its end (the side to move has at most 3 pieces in
/// hand: 600 to 1,000 drops, about 35 s of enumeration each, where early in
/// the phase there are 2,000 and more), `framed` in the middle game with
/// some level out of the shaft (swinging), the rest in the middle game with
/// every level at rest (about 200 moves, 3 to 5 s each).
fn four_d_sample(v: &Variant, seed: u64, count: usize, placements: usize, framed: usize) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    let (mut placing, mut swinging, mut resting) = (0, 0, 0);
    let middle = v.parse_fen(FOUR_D_MIDDLE_GAME, "<test>").expect("the middle-game position");
    while out.len() < count {
        // Games from the empty tower until the placements are sampled (the
        // 32 placements cost seconds a game), then from a middle game.
        let mut pos = if placing < placements { v.start().expect("setup") } else { middle.clone() };
        for _ in 0..(40 + rng.below(160)) {
            let actions = v.actions(&pos);
            if actions.is_empty() {
                break;
            }
            pos = v.apply(&pos, &actions[rng.below(actions.len())]);
            let owed = pos.flow.as_ref().is_some_and(|f| !f.queue.is_empty());
            let at_rest = frame::offsets_of(&pos).is_none_or(|o| o.iter().all(|&x| x == 0)) && !frame::swinging(&pos);
            let in_phase = pos.flow.as_ref().is_some_and(|f| (f.phase as usize) < v.game.phases.len());
            let in_hand: u32 = pos.hand[pos.side as usize].iter().map(|&n| u32::from(n)).sum();
            let wanted = if in_phase {
                at_rest && in_hand <= 3 && placing < placements
            } else if at_rest {
                resting < count - placements - framed
            } else {
                swinging < framed && frame::offsets_of(&pos).is_some()
            };
            if !owed && wanted && rng.below(4) == 0 {
                if in_phase {
                    placing += 1;
                } else if at_rest {
                    resting += 1;
                } else {
                    swinging += 1;
                }
                out.push(pos.clone());
                if out.len() >= count {
                    break;
                }
            }
        }
    }
    eprintln!("4d-schach: {placing} positions in the placement phase, {resting} in the middle game at rest, {swinging} with a level out of the shaft");
    out
}

/// The plain core's legal moves: the engine's move generation, which the
/// flow layer chooses among (the phase's order and guards, obligations)
/// and the encoding states.
fn core_moves(v: &Variant, pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    rulebook_interpreter::engine::movegen::legal_moves(&v.game, &v.tables_for(pos), pos, &mut out);
    out
}

/// 4D-Schach on 448 cells: in positions where nothing is owed, the moves
/// the encoding admits are exactly the plain core's (drops in the
/// placement phase, moves in the middle game). A position with levels out
/// of the shaft is compared with the encoding built for its frame
/// ([`Encoder::for_frame`]: templates stepping by LANGUAGE.md §3.18, not by
/// the interpreter's tables). What the flow layer adds (the phase's order,
/// colours and guards, obligations, the jump at the end of a ply, pieces
/// out of play) is not in the encoding; the walk by decisions plays it.
fn compare_four_d(seed: u64, count: usize, placements: usize, framed: usize) {
    let v = variant("4d-schach");
    let positions = four_d_sample(&v, seed, count, placements, framed);
    let mut total = 0;
    for pos in &positions {
        let offsets = frame::offsets_of(pos).unwrap_or_default();
        let enc = Encoder::for_frame(&v, &offsets);
        let state = enc.state("s");
        let step = enc.step(&state, pos.side, "m");
        let got = admitted(&enc, &state, &step, pos);
        let want: BTreeSet<Outcome> = core_moves(&v, pos).iter().map(outcome_of).collect();
        total += want.len();
        if got != want {
            let extra: Vec<_> = got.difference(&want).take(10).collect();
            let missing: Vec<_> = want.difference(&got).take(10).collect();
            panic!("4d-schach: {}\n  admitted by Z3 only: {extra:?}\n  interpreter only: {missing:?}", v.fen(pos));
        }
    }
    eprintln!("4d-schach: {} positions, {total} moves agree", positions.len());
}

/// 4D-Schach in `cargo test`: two positions of the middle game, one of
/// them with a level out of the shaft.
#[test]
fn four_d_schach() {
    compare_four_d(14, 2, 0, 1);
}

/// 4D-Schach in `.ci/run`: 40 positions, 2 in the placement phase and 19
/// with a level out of the shaft (about 5 minutes in release on 2 cores).
#[test]
#[ignore]
fn four_d_schach_40_positions() {
    compare_four_d(14, 40, 2, 19);
}

/// 4D-Schach, 200 positions, 10 in the placement phase and 95 with a level
/// out of the shaft: about 30 minutes in release on 2 cores, too long for
/// CI, so a command of its own (README: `cargo test --release -p
/// rulebook-checker --test trust four_d_schach_200_positions -- --ignored`).
#[test]
#[ignore]
fn four_d_schach_200_positions() {
    compare_four_d(14, FULL, 10, 95);
}

#[test]
#[ignore]
fn every_variant_successors() {
    for (name, seed) in VARIANTS {
        successors(name, seed, QUICK);
    }
}

/// The checker's own stepping through a frame (`templates::frame_step`,
/// written from LANGUAGE.md §3.18) agrees with the interpreter's
/// (`frame::step`) on 4D-Schach: for 60 seeded frames (each sliding level
/// out by -7..7 rows), every cell and every step vector of every piece,
/// pulled-out rows and black holes included.
#[test]
fn frame_steps_agree_with_the_interpreter() {
    let v = variant("4d-schach");
    let game = &v.game;
    let slide = game.slide.as_ref().expect("4D-Schach slides");
    let levels = slide.axes.len();
    let mut vectors: BTreeSet<Vec<i32>> = BTreeSet::new();
    for kind in &game.kinds {
        for part in &kind.parts {
            for color in 0..2 {
                vectors.extend(part.vectors[color].iter().cloned());
            }
        }
    }
    let mut rng = Rng(2026);
    let (mut steps, mut off_rest) = (0u64, 0u64);
    for _ in 0..60 {
        let offsets: Vec<i8> = (0..levels)
            .map(|l| if slide.axes[l].is_some() && rng.below(2) == 0 { rng.below(15) as i8 - 7 } else { 0 })
            .collect();
        for cell in game.geometry.board_cells() {
            for vec in &vectors {
                let ours = rulebook_checker::templates::frame_step(game, &offsets, cell, vec);
                let theirs = frame::step(game, &offsets, cell, vec);
                assert_eq!(ours, theirs, "offsets {offsets:?}, cell {}, vector {vec:?}", game.geometry.name(cell));
                steps += 1;
                off_rest += u64::from(ours != game.geometry.offset(cell, vec));
            }
        }
    }
    // The frames matter: many steps land elsewhere than at rest.
    assert!(off_rest > steps / 50, "{off_rest} of {steps} steps differ from rest");
    eprintln!("{steps} steps agree, {off_rest} of them differ from the tower at rest");
}
