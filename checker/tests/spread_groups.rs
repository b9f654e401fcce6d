//! Issue 12: the claim `entangled groups at most N` counts entangled groups
//! (units that entangling formed or joined), not group labels.
//!
//! Before the fix the engine let a piece entangle with a castling split's
//! unit (king and rook, no label) and left the joined unit without a label:
//! a third group while both labels were in use, and a group no label counted
//! when one was free. The claim counted labels, so `check` proved
//! `at_most_two_groups` all the same. Here: the concrete check flags a
//! position with three entangled units; the spread layer refutes the claim,
//! with a line of actions, from a position the old engine reached (a group
//! without a label); from the position the fixed engine reaches instead (the
//! same group with its label) the layer proves it, and it proves it for
//! rules/niels-chess.rules from the setup.

mod support;

use rulebook_checker::concrete::{groups, position_holds};
use rulebook_checker::spread_layer::{LayerVerdict, SpreadLayer};
use rulebook_interpreter::model::Property;
use rulebook_interpreter::Variant;
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::variant;

const AT_MOST_TWO: Property = Property::GroupsAtMost { groups: 2 };

/// Issue 12's position after the old engine's `d1d1&d2~d8`: the white rook
/// d1/d2 joined Black's castling unit (c8/e8, d8/a8), which stayed without a
/// label beside the groups "/" (knights) and "\" (pawns). Three entangled
/// units, two labels.
const THREE_UNITS: &str = r"r1krk3/6pp/6pn/5n2/1P6/1P5N/3R4/1N1R2K1 b - - 1 1 ~ Rd1d2+kc8e8+rd8a8:equal Nb1h3+nh6f5:equal:/ Pb4b3+pg6g7:equal:\";

/// The same position before the move (issue 12): the castling unit is no group.
const BEFORE: &str = r"r1krk3/6pp/6pn/5n2/1P6/1P5N/8/1N1R2K1 w - - 0 1 ~ kc8e8+rd8a8:equal Nb1h3+nh6f5:equal:/ Pb4b3+pg6g7:equal:\";

/// The old engine from `r1krk3/6pp/6pn/5n2/1P6/1P5N/8/1N1R2K1 w - - 0 1 ~
/// kc8e8+rd8a8:equal` (both labels free) after `d1d1&d2~d8`: a group of
/// both sides without a label (`rulebook moves … --play "d1d1&d2~d8"`
/// before the fix wrote this FEN).
const OLD_ENGINE: &str = "r1krk3/6pp/6pn/5n2/1P6/1P5N/3R4/1N1R2K1 b - - 1 1 ~ Rd1d2+kc8e8+rd8a8:equal";

/// The fixed engine's position after the same move: the new group takes "/".
const FIXED_ENGINE: &str = "r1krk3/6pp/6pn/5n2/1P6/1P5N/3R4/1N1R2K1 b - - 1 1 ~ Rd1d2+kc8e8+rd8a8:equal:/";

fn niels() -> Variant {
    variant("niels-chess")
}

/// Niel's Chess with `fen` as its setup.
fn from(fen: &str) -> Variant {
    let mut game = (*niels().game).clone();
    game.setup = fen.into();
    Variant::new(Arc::new(game))
}

fn layer_verdict(v: &Variant, p: &Property) -> LayerVerdict {
    let mut layer = SpreadLayer::new(v, 120_000, Instant::now() + Duration::from_secs(900)).expect("setup");
    let steps = 2 * layer.rules.labels.len() + 4;
    layer.check(std::slice::from_ref(p), steps).remove(0)
}

#[test]
fn the_concrete_check_counts_groups_not_labels() {
    let v = niels();
    let three = v.parse_fen(THREE_UNITS, "<test>").expect("fen");
    assert_eq!(three.spread.as_deref().map(|s| s.groups()), Some(2), "two labels in use");
    assert_eq!(groups(&three), 3, "three entangled units");
    assert!(!position_holds(&v, &three, &AT_MOST_TWO));
    assert!(position_holds(&v, &three, &Property::GroupsAtMost { groups: 3 }));
    // Before the move the castling unit (one side's king and rook) is no group.
    let before = v.parse_fen(BEFORE, "<test>").expect("fen");
    assert_eq!(groups(&before), 2);
    assert!(position_holds(&v, &before, &AT_MOST_TWO));
    // A group without a label counts as one.
    let old = v.parse_fen(OLD_ENGINE, "<test>").expect("fen");
    assert_eq!((groups(&old), old.spread.as_deref().map(|s| s.groups())), (1, Some(0)));
}

/// From the old engine's position (one group without a label, both labels
/// free) two more groups form with the two labels: the claim is refuted by
/// the shortest line, a split and an entangle per group (4 actions).
#[test]
fn a_group_without_a_label_refutes_the_claim() {
    match layer_verdict(&from(OLD_ENGINE), &AT_MOST_TWO) {
        LayerVerdict::Refuted(t) => {
            println!("{}\nthen: {}", t.steps.join("\n"), t.end);
            assert_eq!(t.steps.len(), 4, "{t:?}");
            assert_eq!(t.steps.iter().filter(|s| s.contains(" entangles with ")).count(), 2, "{t:?}");
            assert!(t.end.starts_with("3 entangled groups"), "{t:?}");
            assert!(t.end.contains("one without a label"), "{t:?}");
        }
        other => panic!("not refuted: {other:?}"),
    }
}

/// The fixed engine's position (the same group, labelled "/") and the rules'
/// setup: the claim is proved.
#[test]
fn the_fixed_rules_prove_the_claim() {
    for v in [from(FIXED_ENGINE), niels()] {
        let verdict = layer_verdict(&v, &AT_MOST_TWO);
        assert!(matches!(verdict, LayerVerdict::Proved), "{}: {verdict:?}", v.game.setup);
    }
    // Three entangled units in the setup break it there.
    match layer_verdict(&from(THREE_UNITS), &AT_MOST_TWO) {
        LayerVerdict::Refuted(t) => assert!(t.steps.is_empty() && t.end.starts_with("3 entangled groups"), "{t:?}"),
        other => panic!("not refuted: {other:?}"),
    }
}
