//! The walk by decisions on the examples of `examples/ambiguous/` that it
//! is for, within small limits (every line of two decisions, no random
//! line), and the rulings that settle its findings. Each expectation is
//! read off the example's own text, as its header comment says.

mod support;

use rulebook_checker::flow_walk::{walk, Walk, WalkLimits};
use rulebook_checker::gaps;
use rulebook_checker::settled::{items_of, settle};
use rulebook_grammar::Severity;
use rulebook_interpreter::flow::Action;
use rulebook_interpreter::model::load::load;
use rulebook_interpreter::model::Settles;
use rulebook_interpreter::Variant;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn example(name: &str) -> Variant {
    let path = support::root().join("examples/ambiguous").join(name);
    match load(&path) {
        Ok((game, _)) => Variant::new(Arc::new(game)),
        Err((diags, _)) => panic!("{name} does not load: {diags:#?}"),
    }
}

/// Every line of two decisions from the setup.
fn two_deep(v: &Variant) -> Walk {
    let limits = WalkLimits { exhaustive: 2, line_length: 0, lines: 0, max_nodes: 1_000_000, deadline: Instant::now() + Duration::from_secs(600), seed: 1 };
    let w = walk(v, &[], &limits);
    assert_eq!(w.stopped, None);
    assert_eq!(w.exhaustive_done, 2);
    w
}

fn rule_index(v: &Variant, name: &str) -> usize {
    v.game.rules.iter().position(|r| r.name == name).unwrap_or_else(|| panic!("no rule {name}"))
}

/// rules-at-once.rules: both rules look at "more than 0 own Rook on level
/// II", so a rook's move onto level II (White's rook Ia1 straight up to
/// IIa1, the first decision) makes both hold; the first in the file acts.
#[test]
fn two_rules_that_hold_at_once_are_found_after_the_rook_move() {
    let v = example("rules-at-once.rules");
    let w = two_deep(&v);
    let owner = rule_index(&v, "the owner moves a rook off level II");
    let opponent = rule_index(&v, "the opponent moves a rook off level II");
    let pair = w.simultaneous.iter().find(|s| s.acted.0 == owner && s.other.0 == opponent).expect("the two rules met");
    assert_eq!(pair.witness.decisions.len(), 1, "one move puts a rook on level II: {:?}", pair.witness);
    assert_eq!(pair.witness.decisions[0], "Ia1IIa1", "{:?}", pair.witness);
    assert_eq!(pair.acted.1, 0, "white moved, so white is the subject");
    let mut diags = Vec::new();
    gaps::diagnostics(&v, &w, &mut diags);
    assert!(diags.iter().any(|d| d.code == "C0215" && d.message.contains("the file's order decides")), "{diags:#?}");
}

/// dropped-obligation.rules: no level of 16 cells ever holds more than 5
/// of one side's pawns (each side has 4), so the relocation the rule asks
/// for has no target, and it is dropped after the first rook move to level II.
#[test]
fn an_obligation_that_nothing_can_meet_is_dropped() {
    let v = example("dropped-obligation.rules");
    let w = two_deep(&v);
    let rule = rule_index(&v, "a rook on level II moves a pawn");
    let d = w.dropped.iter().find(|d| d.obligation.source.map(|s| s.0 as usize) == Some(rule)).expect("the obligation was dropped");
    assert!(d.obligation.compulsory);
    assert_eq!(d.witness.decisions.len(), 1, "{:?}", d.witness);
    assert!(w.blocked.is_empty(), "dropping it leaves the move legal: {:?}", w.blocked);
}

/// endless-obligation.rules: while the rook stands on level II its owner
/// must move the king, which leaves the rook where it is, so the rule
/// obliges again for ever: the rook's move to level II is not offered
/// (blocked), and the chain of king relocations comes back to a state.
#[test]
fn an_obligation_without_end_blocks_its_move_and_shows_a_cycle() {
    let v = example("endless-obligation.rules");
    let start = v.start().expect("the setup");
    // The interpreter's own test of the whole ply ends (bounded) and refuses the move.
    let offered: Vec<String> =
        v.successors(&start).iter().map(|(a, _)| rulebook_interpreter::text::notation::action::action_coordinate(&v, a)).collect();
    assert!(!offered.iter().any(|m| m == "Ia1IIa1"), "{offered:?}");
    assert!(offered.iter().any(|m| m == "Ia1IIIa1"), "the rook may still ride past level II: {offered:?}");
    assert!(v.successors(&start).iter().all(|(a, _)| matches!(a, Action::Move(_))));
    let w = two_deep(&v);
    let rule = rule_index(&v, "a rook on level II moves the king");
    let blocked = w.blocked.iter().find(|b| b.rule == rule).expect("a blocked move");
    assert!(blocked.witness.decisions.is_empty(), "the rook can go up from the setup: {:?}", blocked.witness);
    let cycle = w.cycle.as_ref().expect("a cycle of relocations");
    assert!(cycle.rules.iter().all(|&r| r == rule));
    assert!(cycle.length >= 2, "{cycle:?}");
    let mut diags = Vec::new();
    gaps::diagnostics(&v, &w, &mut diags);
    let codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
    assert!(codes.contains(&"C0217") && codes.contains(&"C0234"), "{codes:?}");
}

/// A ruling that names both rules of rules-at-once.rules settles the
/// finding (a note), one that names only one of them does not.
#[test]
fn a_ruling_settles_a_finding_only_when_it_names_every_item() {
    let v = example("rules-at-once.rules");
    let w = two_deep(&v);
    let mut diags = Vec::new();
    gaps::diagnostics(&v, &w, &mut diags);
    let finding = diags.iter().find(|d| d.code == "C0215").expect("the finding").clone();
    let items = items_of(&v, &finding);
    assert_eq!(
        items,
        vec![Settles::Rule("the owner moves a rook off level II".into()), Settles::Rule("the opponent moves a rook off level II".into())]
    );
    let with = |settles: Vec<Settles>| {
        let mut game = (*v.game).clone();
        game.rulings.push(rulebook_interpreter::model::Ruling {
            name: "owner-first".into(),
            source: None,
            quote: "…".into(),
            reading: "The owner acts first.".into(),
            settles,
            file: finding.file.clone(),
            span: finding.span,
        });
        let v2 = Variant::new(Arc::new(game));
        let mut ds = vec![finding.clone()];
        settle(&v2, &mut ds);
        ds.remove(0)
    };
    let half = with(vec![items[0].clone()]);
    assert_eq!(half.severity, Severity::Warning);
    let both = with(items.clone());
    assert_eq!(both.severity, Severity::Note);
    assert!(both.details.iter().any(|d| d.contains("settled by ruling \"owner-first\": The owner acts first.")), "{:?}", both.details);
}
