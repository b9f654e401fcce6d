//! Notation of every decision (LANGUAGE §6.5): each decision written in its
//! SAN-like and its coordinate form, in every letter set, reads back as the
//! same decision. Along random games of rules/4d-schach.rules from the start
//! (its placement phase) into play, and in positions where obligations to
//! activate (optional: with a pass) and to relocate are owed.

use rulebook_interpreter::flow::{Action, ActionKind, Flow, Obligation};
use rulebook_interpreter::model::load::load;
use rulebook_interpreter::model::LetterSet;
use rulebook_interpreter::play::session::fen_letters;
use rulebook_interpreter::text::notation::action::{action_coordinate, action_san, parse_action};
use rulebook_interpreter::{Position, Variant};
use std::path::Path;
use std::sync::Arc;

fn four_d() -> Variant {
    let path = format!("{}/../rules/4d-schach.rules", env!("CARGO_MANIFEST_DIR"));
    match load(Path::new(&path)) {
        Ok((game, _)) => Variant::new(Arc::new(game)),
        Err((diags, _)) => panic!("4d-schach.rules does not load: {diags:#?}"),
    }
}

/// A small deterministic generator (the test needs no crate for it).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Kinds of decision seen: activations, relocations, passes, moves.
#[derive(Default)]
struct Seen {
    activations: usize,
    relocations: usize,
    passes: usize,
    moves: usize,
}

/// Writes `a` in both forms (and in letter set `set`) and reads each back.
fn round_trip(v: &Variant, pos: &Position, a: &Action, legal: &[rulebook_interpreter::Move], set: Option<&LetterSet>, seen: &mut Seen) {
    // The FEN letters as a set: without one a text may read differently in
    // two sets (`BVg7`: a bishop in the FEN letters, a pawn in German ones),
    // which is E0402 by design. The coordinate form is read without a set
    // (a fixed set reads SAN only).
    let fen = fen_letters();
    let set = set.or(Some(&fen));
    let texts = [(action_san(v, pos, a, legal, set), set), (action_coordinate(v, a), None)];
    for (text, set) in &texts {
        let back = parse_action(v, pos, text, *set, "<test>", 0).unwrap_or_else(|d| panic!("`{text}` in {}: {} {:?}", v.fen(pos), d.message, d.help));
        assert_eq!(back, *a, "`{text}` in {}", v.fen(pos));
    }
    match a {
        Action::Activate { .. } => seen.activations += 1,
        Action::Relocate { .. } => seen.relocations += 1,
        Action::Pass => seen.passes += 1,
        Action::Move(_) => seen.moves += 1,
    }
}

/// Round-trips a sample of `sample` of the non-move decisions of `pos` (a
/// pass always) and two of its moves, in the FEN letters and in every
/// declared letter set.
fn check_position(v: &Variant, pos: &Position, rng: &mut Lcg, sample: usize, seen: &mut Seen) {
    let actions = v.actions(pos);
    let legal: Vec<_> = actions.iter().filter_map(|a| a.as_move().copied()).collect();
    let sets: Vec<Option<&LetterSet>> = std::iter::once(None).chain(v.game.letter_sets.iter().map(Some)).collect();
    let others: Vec<&Action> = actions.iter().filter(|a| a.as_move().is_none()).collect();
    let mut picked: Vec<&Action> = if others.len() > sample {
        (0..sample).map(|_| others[rng.below(others.len())]).collect()
    } else {
        others.clone()
    };
    // A pass, when one is offered, every time.
    picked.extend(others.iter().filter(|a| ***a == Action::Pass));
    for a in picked {
        round_trip(v, pos, a, &legal, None, seen);
    }
    // Moves: two a position (each read parses against every decision again).
    for _ in 0..2.min(legal.len()) {
        let m = legal[rng.below(legal.len())];
        for &set in &sets {
            round_trip(v, pos, &Action::Move(m), &legal, set, seen);
        }
    }
}

#[test]
fn every_decision_reads_back_along_random_four_d_games() {
    let v = four_d();
    assert!(!v.game.letter_sets.is_empty(), "4D-Schach declares its German letters");
    let mut seen = Seen::default();
    let mut rng = Lcg(13);
    for _game in 0..2 {
        let mut pos = v.start().expect("the start");
        for _ply in 0..40 {
            check_position(&v, &pos, &mut rng, 6, &mut seen);
            let actions = v.actions(&pos);
            if actions.is_empty() {
                break;
            }
            let a = actions[rng.below(actions.len())];
            pos = v.apply(&pos, &a);
        }
        // In play (after the 32 placements): obligations owed by the side
        // that just moved, queued by hand: an optional activation (every
        // level at rest × 1..7 rows either way, and a pass), a relocation of
        // one own piece (the first of the player's pieces) to any empty cell.
        if pos.flow.is_none() {
            let player = pos.side ^ 1;
            let piece = pos.cells_of(player, v.tables.nwords).next();
            for kind in [ActionKind::Activate, ActionKind::Relocate] {
                let mut owed = pos.clone();
                owed.side ^= 1;
                let from = if kind == ActionKind::Relocate { piece } else { None };
                owed.flow = Some(Box::new(Flow {
                    phase: v.game.phases.len() as u8,
                    queue: vec![Obligation { player, kind, compulsory: kind == ActionKind::Relocate, from, source: None }],
                }));
                check_position(&v, &owed, &mut rng, 12, &mut seen);
            }
        }
    }
    assert!(seen.activations > 0 && seen.relocations > 0 && seen.passes > 0 && seen.moves > 0, "activations {}, relocations {}, passes {}, moves {}", seen.activations, seen.relocations, seen.passes, seen.moves);
}

#[test]
fn the_rulebooks_example_activation_is_written_with_its_direction() {
    // Rulebook §7: "„A-IV-7-Ost“ bezeichnet z.B. den Zwischenzug, der die
    // Ebene IV um 7 Reihen in Ostrichtung aktiviert hat." Level IV slides
    // along the files; East is file a (ruling "tower"), the negative
    // direction: level IV at -7 rows. Written with the axis's end label a.
    let v = four_d();
    let a = Action::Activate { level: 3, rows: -7 };
    let pos = v.start().expect("the start");
    assert_eq!(action_san(&v, &pos, &a, &[], None), "A-IV-7-a");
    assert_eq!(action_coordinate(&v, &a), "IV:-7");
    assert_eq!(action_san(&v, &pos, &Action::Pass, &[], None), "--");
}
