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
    out_of_play: usize,
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
        Action::Exile { .. } | Action::Return { .. } => seen.out_of_play += 1,
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
    for _game in 0..1 {
        let mut pos = v.start().expect("the start");
        // The 32 placements, the entropy correction after them (as many
        // decisions as it takes), then four plies of play.
        for decision in 0..120 {
            if decision >= 36 && pos.flow.is_none() {
                break;
            }
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
                    queue: vec![Obligation { player, kind, compulsory: kind == ActionKind::Relocate, from, source: None, level: None }],
                    ..Default::default()
                }));
                // Each read lists the decisions again: a relocation's (one
                // piece × every empty cell, each judged on the whole ply) cost most.
                let sample = if kind == ActionKind::Relocate { 3 } else { 12 };
                check_position(&v, &owed, &mut rng, sample, &mut seen);
            }
        }
    }
    assert!(seen.activations > 0 && seen.relocations > 0 && seen.passes > 0 && seen.moves > 0, "activations {}, relocations {}, passes {}, moves {}", seen.activations, seen.relocations, seen.passes, seen.moves);
}

#[test]
fn the_rulebooks_example_activation_is_written_with_its_compass_word() {
    // Rulebook §7: "„A-IV-7-Ost“ bezeichnet z.B. den Zwischenzug, der die
    // Ebene IV um 7 Reihen in Ostrichtung aktiviert hat." Level IV slides
    // along the files; East is file a (ruling "tower"), the negative
    // direction: level IV at -7. rules/4d-schach.rules names the directions
    // with `compass "Ost" "West" along file`.
    let v = four_d();
    let a = Action::Activate { level: 3, rows: -7 };
    let start = v.start().expect("the start");
    assert_eq!(action_san(&v, &start, &a, &[], None), "A-IV-7-Ost");
    assert_eq!(action_coordinate(&v, &a), "IV:-7");
    // Level I slides along the ranks; rank 1 is North: +3 is towards the South.
    assert_eq!(action_san(&v, &start, &Action::Activate { level: 0, rows: 3 }, &[], None), "A-I-3-Süd");
    assert_eq!(action_san(&v, &start, &Action::Pass, &[], None), "--");
    // Owed in play, the rulebook's text reads, and so do the end label and the signed rows.
    let mut pos = start;
    for _ in 0..200 {
        if pos.flow.is_none() {
            break;
        }
        let first = v.actions(&pos)[0];
        pos = v.apply(&pos, &first);
    }
    assert!(pos.flow.is_none(), "the opening is over");
    let player = pos.side ^ 1;
    pos.side ^= 1;
    pos.flow = Some(Box::new(Flow {
        phase: v.game.phases.len() as u8,
        queue: vec![Obligation { player, kind: ActionKind::Activate, compulsory: true, from: None, source: None, level: None }],
        ..Default::default()
    }));
    // Level IV 7 rows East where that is legal here, else another level
    // sliding along the files (II, IV, VI) 7 rows East.
    let owed = v.actions(&pos);
    let (a, label) = [(3u8, "IV"), (1, "II"), (5, "VI")]
        .into_iter()
        .map(|(level, label)| (Action::Activate { level, rows: -7 }, label))
        .find(|(a, _)| owed.contains(a))
        .expect("some level along the files can be pulled 7 rows East");
    for text in [format!("A-{label}-7-Ost"), format!("A-{label}-7-a"), format!("A-{label}--7"), format!("{label}:-7")] {
        let back = parse_action(&v, &pos, &text, None, "<test>", 0).unwrap_or_else(|d| panic!("{text}: {} {:?}", d.message, d.help));
        assert_eq!(back, a, "{text}");
        if text.ends_with("Ost") {
            assert_eq!(action_san(&v, &pos, &a, &[], None), text);
        }
    }
    let d = parse_action(&v, &pos, "A-IV-8-Ost", None, "<test>", 0).expect_err("8 rows is beyond `out at most 7`");
    assert_eq!(d.code, "E0523");
}

#[test]
fn a_bad_compass_word_is_e0159() {
    let path = format!("{}/../examples/sliding-levels.rules", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the example");
    let dir = std::env::temp_dir().join(format!("rulebook-compass-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    for (line, code) in [("compass \"North-East\" \"South\" along rank", "E0159"), ("compass \"Up\" \"Up\" along rank", "E0159"), ("compass \"N\" \"S\" along depth", "E0152")] {
        let bad = text.replace("  out at most 3", &format!("  {line}\n  out at most 3"));
        assert_ne!(bad, text);
        let file = dir.join("bad.rules");
        std::fs::write(&file, bad).expect("written");
        let Err((diags, _)) = load(&file) else { panic!("`{line}` loads") };
        assert!(diags.iter().any(|d| d.code == code), "{line}: {diags:#?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
