//! The spread layer and the spread claims: proofs and refutations on the
//! layer, the check report of a variant with spread pieces, and the claims'
//! concrete definitions on positions with pairs. The variants are chess
//! with a `spread` block set in code, so that these tests do not depend on
//! the rules language.

mod support;

use rulebook_checker::concrete::{groups, position_holds, spread_well_formed};
use rulebook_checker::spread_layer::{LayerVerdict, SpreadLayer};
use rulebook_checker::{check, Options, Verdict};
use rulebook_grammar::ast::Span;
use rulebook_interpreter::model::{Claim, EntangleRules, KindId, Property, SpreadRules, Weight};
use rulebook_interpreter::engine::spread::{Pair, SpreadState};
use rulebook_interpreter::{Position, Variant};
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::variant;

/// Chess with spread pieces: two weights, entangling with `labels` labels
/// (none: no `entangle`), castling splits when asked, and `claims`
/// instead of chess's when given.
fn spread_chess(labels: usize, castling_split: bool, claims: Option<Vec<Claim>>) -> Variant {
    let chess = variant("chess");
    let mut game = (*chess.game).clone();
    let weight = |name: &str, red: Vec<u8>, blue: Vec<u8>, separator| Weight { name: name.into(), die: 0, red_faces: red, blue_faces: blue, separator };
    let names = ["/", "\\", "|", "-"];
    game.spread = Some(SpreadRules {
        squares: 2,
        weights: vec![weight("equal", vec![2, 4, 6], vec![1, 3, 5], '&'), weight("unequal", vec![1, 2, 3, 4], vec![5, 6], '>')],
        red_forward: vec![],
        castling_split,
        entangle: (labels > 0).then(|| EntangleRules { labels: names[..labels].iter().map(|s| s.to_string()).collect(), span: Span::new(0, 0) }),
        span: Span::new(0, 0),
        file: "spread-chess".into(),
    });
    if let Some(claims) = claims {
        game.claims = claims;
    }
    Variant::new(Arc::new(game))
}

fn layer_verdicts(v: &Variant, claims: &[Property]) -> Vec<LayerVerdict> {
    let mut layer = SpreadLayer::new(v, 120_000, Instant::now() + Duration::from_secs(900)).expect("setup");
    let steps = 2 * layer.rules.labels.len() + 4;
    layer.check(claims, steps)
}

/// The number of actions of a refutation.
fn refuted(v: &LayerVerdict) -> usize {
    match v {
        LayerVerdict::Refuted(t) => {
            assert!(!t.steps.is_empty() && !t.end.is_empty(), "{t:?}");
            t.steps.len()
        }
        other => panic!("not refuted: {other:?}"),
    }
}

fn proved(v: &LayerVerdict) -> bool {
    matches!(v, LayerVerdict::Proved)
}

/// With two labels: no piece on three squares and at most two groups are
/// proved, and so is every larger bound; every smaller bound is refuted by
/// the shortest line: one split for a second square, a split and an
/// entangle per group.
#[test]
fn bounds_at_and_below_what_the_rules_allow() {
    let v = spread_chess(2, true, None);
    let claims = [
        Property::SpreadAtMost { squares: 1 },
        Property::SpreadAtMost { squares: 2 },
        Property::SpreadAtMost { squares: 3 },
        Property::GroupsAtMost { groups: 0 },
        Property::GroupsAtMost { groups: 1 },
        Property::GroupsAtMost { groups: 2 },
        Property::GroupsAtMost { groups: 5 },
    ];
    let out = layer_verdicts(&v, &claims);
    assert_eq!(refuted(&out[0]), 1);
    assert!(proved(&out[1]) && proved(&out[2]), "{out:?}");
    assert_eq!(refuted(&out[3]), 2);
    assert_eq!(refuted(&out[4]), 4);
    assert!(proved(&out[5]) && proved(&out[6]), "{out:?}");
    // The traces read as the actions they are, without castling when a
    // line of the same length needs none.
    let LayerVerdict::Refuted(t) = &out[4] else { unreachable!() };
    assert!(t.end.starts_with("2 entangled groups"), "{t:?}");
    assert_eq!(t.steps.iter().filter(|s| s.contains(" entangles with ")).count(), 2, "{t:?}");
    assert!(t.steps.iter().all(|s| !s.contains("castling")), "{t:?}");
}

/// The number of labels comes from the rules: with three, two groups are
/// not the limit (six actions reach three), three are. (A setup of twelve
/// pieces: proving that five actions do not reach three groups takes half a
/// minute with thirty-two.)
#[test]
fn the_labels_bound_the_groups() {
    let mut game = (*spread_chess(3, false, None).game).clone();
    game.setup = "r3k3/pppp4/8/8/8/8/PPPP4/R3K3 w Qq - 0 1".into();
    let v = Variant::new(Arc::new(game));
    let out = layer_verdicts(&v, &[Property::GroupsAtMost { groups: 2 }, Property::GroupsAtMost { groups: 3 }]);
    assert_eq!(refuted(&out[0]), 6);
    assert!(proved(&out[1]), "{out:?}");
    // Without `entangle`, no group ever forms; pieces still split.
    let v = spread_chess(0, true, None);
    let out = layer_verdicts(&v, &[Property::GroupsAtMost { groups: 0 }, Property::SpreadAtMost { squares: 1 }]);
    assert!(proved(&out[0]), "{out:?}");
    assert_eq!(refuted(&out[1]), 1);
}

/// Chess has no spread pieces: every piece stays on one square.
#[test]
fn without_spread_nothing_splits() {
    let v = variant("chess");
    let out = layer_verdicts(&v, &[Property::SpreadAtMost { squares: 1 }, Property::GroupsAtMost { groups: 0 }]);
    assert!(out.iter().all(proved), "{out:?}");
}

fn claim(name: &str, property: Property) -> Claim {
    Claim { name: name.into(), property, file: "spread-chess".into(), span: Span::new(0, 0) }
}

/// The whole check: the scope notice, the spread claims decided on the
/// layer (a refutation with its abstract line), and a claim of chess, which
/// Z3 proves over conventional moves only, held to the search's depth.
#[test]
fn check_report_of_a_spread_variant() {
    let chess = variant("chess");
    // One of chess's claims (each costs induction queries).
    let mut claims: Vec<Claim> = chess.game.claims.iter().filter(|c| c.name == "one_king_each").cloned().collect();
    assert_eq!(claims.len(), 1);
    claims.push(claim("two_squares", Property::SpreadAtMost { squares: 2 }));
    claims.push(claim("two_groups", Property::GroupsAtMost { groups: 2 }));
    claims.push(claim("one_group", Property::GroupsAtMost { groups: 1 }));
    let v = spread_chess(2, true, Some(claims));
    let options = Options { depth: 2, win_depth: 2, ..Options::default() };
    let report = check(&v, &options, &mut |_| {});
    let verdict = |name: &str| report.claims.iter().find(|c| c.name == name).unwrap_or_else(|| panic!("{name}"));
    assert_eq!(verdict("two_squares").verdict, Verdict::Proved, "{:?}", verdict("two_squares"));
    assert!(verdict("two_squares").detail.contains("spread layer"));
    assert_eq!(verdict("two_groups").verdict, Verdict::Proved);
    let one = verdict("one_group");
    assert_eq!(one.verdict, Verdict::Refuted, "{one:?}");
    let cx = one.counterexample.as_ref().expect("a counterexample");
    assert!(cx.spread_layer && cx.fen.is_empty() && cx.line.len() == 4, "{cx:?}");
    let kings = verdict("one_king_each");
    assert_eq!(kings.verdict, Verdict::HoldsToDepth, "{kings:?}");
    assert!(kings.detail.contains("C0240"));
    let codes: Vec<&str> = report.diagnostics.iter().map(|d| d.code).collect();
    assert!(codes.contains(&"C0240") && codes.contains(&"C0201"), "{codes:?}");
    assert!(report.failed());
}

/// A chess position with `pairs` added: each pair's piece (the code on its
/// red cell) put on its blue cell too.
fn with_pairs(v: &Variant, fen: &str, pairs: &[Pair]) -> Position {
    let mut pos = v.parse_fen(fen, "<test>").expect("fen");
    for p in pairs {
        let piece = pos.board[p.red as usize];
        assert_ne!(piece, 0, "no piece on the red cell {}", p.red);
        pos.board[p.blue as usize] = piece;
    }
    pos.spread = Some(Box::new(SpreadState { pairs: pairs.to_vec() }));
    pos
}

fn cell(v: &Variant, name: &str) -> u16 {
    v.game.geometry.board_cells().find(|&c| v.game.geometry.name(c) == name).expect("a cell")
}

/// The concrete definitions, as the search and the random games use them.
#[test]
fn concrete_spread_claims() {
    let v = spread_chess(2, true, None);
    let c = |n: &str| cell(&v, n);
    let pair = |red: &str, blue: &str, unit: u8, label: u8| Pair { red: c(red), blue: c(blue), unit, weight: 0, label };
    let fen = "4k3/8/8/3n4/2B5/8/8/4K3 w - - 0 1";
    let two = Property::SpreadAtMost { squares: 2 };
    let one = Property::SpreadAtMost { squares: 1 };
    let plain = v.parse_fen(fen, "<test>").expect("fen");
    assert!(position_holds(&v, &plain, &one) && spread_well_formed(&v, &plain) && groups(&plain) == 0);
    // A bishop on c4 and e2 and a knight on d5 and f6, entangled in group "/".
    let pos = with_pairs(&v, fen, &[pair("c4", "e2", 0, 1), pair("d5", "f6", 0, 1)]);
    assert!(spread_well_formed(&v, &pos));
    assert!(position_holds(&v, &pos, &two) && !position_holds(&v, &pos, &one));
    assert_eq!(groups(&pos), 1);
    assert!(position_holds(&v, &pos, &Property::GroupsAtMost { groups: 1 }));
    assert!(!position_holds(&v, &pos, &Property::GroupsAtMost { groups: 0 }));
    // A castling split's unit (king and rook) carries no label: no group.
    let castled = with_pairs(&v, "4k3/8/8/8/8/8/8/5RK1 w - - 0 1", &[pair("g1", "e1", 0, 0), pair("f1", "h1", 0, 0)]);
    assert_eq!(groups(&castled), 0);
    // One piece on two squares counts once.
    let kings = Property::AtMost { kind: kind(&v, "King"), count: 1 };
    assert!(position_holds(&v, &castled, &kings));
    // Broken states break the claim: a pair on one cell, a cell in two pairs.
    let same = with_pairs(&v, fen, &[pair("c4", "c4", 0, 0)]);
    assert!(!spread_well_formed(&v, &same) && !position_holds(&v, &same, &two));
    let shared = with_pairs(&v, fen, &[pair("c4", "e2", 0, 0), pair("d5", "e2", 1, 0)]);
    assert!(!spread_well_formed(&v, &shared) && !position_holds(&v, &shared, &two));
    // Two units with one label are two groups.
    let twice = with_pairs(&v, fen, &[pair("c4", "e2", 0, 1), pair("d5", "f6", 1, 1)]);
    assert_eq!(groups(&twice), 2);
}

fn kind(v: &Variant, name: &str) -> KindId {
    v.game.kinds.iter().position(|k| k.name == name).expect("a kind") as KindId
}
