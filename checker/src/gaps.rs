//! The walk's findings ([`crate::flow_walk`]) as diagnostics, each with its
//! witness line and the spans of the rules involved, and what each reading
//! would do there:
//!
//! - C0215: rules that hold at once, where the file's order decides (met
//!   by the walk, or read off the conditions: one implies the other);
//! - C0216: a compulsory obligation dropped because nothing could meet it;
//! - C0217: a move made illegal by what a rule obliges after it;
//! - C0234: a chain of obligations that need not end;
//! - C0235: a phase in which a player can have no decision.

use crate::flow_walk::{Walk, Witness};
use rulebook_grammar::Diagnostic;
use rulebook_interpreter::model::cond::{Effect, ObligeAction, Rule, Who};
use rulebook_interpreter::model::{Color, Outcome};
use rulebook_interpreter::Variant;

/// The diagnostics of `walk` on `v`, appended to `out`.
pub fn diagnostics(v: &Variant, walk: &Walk, out: &mut Vec<Diagnostic>) {
    let game = &v.game;
    let player = |c: Color| game.players[c as usize].name.clone();
    for s in &walk.simultaneous {
        let (Some(a), Some(b)) = (game.rules.get(s.acted.0), game.rules.get(s.other.0)) else { continue };
        let d = if s.acted.0 == s.other.0 {
            Diagnostic::error(
                "C0215",
                &a.file,
                a.span,
                format!("rule \"{}\" holds for both players at once", a.name),
                format!("holds for {} and for {}", player(s.acted.1), player(s.other.1)),
            )
            .warning()
            .with_detail(format!(
                "as written, the mover comes first: {} acts ({}), and the rule is evaluated again for {} when that is done; read the other way, {} would act first",
                player(s.acted.1),
                effect_words(game, a, Some(s.acted.1)),
                player(s.other.1),
                player(s.other.1)
            ))
            .with_help("say which player acts first, in a ruling that settles this rule")
        } else if matches!(b.effect, Effect::End { .. }) {
            same_file_note(
                Diagnostic::error(
                    "C0215",
                    &b.file,
                    b.span,
                    format!("rules \"{}\" and \"{}\" hold at once: one obliges, the other ends the game", a.name, b.name),
                    "would end the game here",
                )
                .warning(),
                a,
                &b.file,
                "obliges first: the ply goes on",
            )
            .with_detail(format!(
                "as written, \"{}\" acts ({}) and \"{}\" is judged when the ply ends (it may no longer hold then); read the other way, the game ends at once: {}",
                a.name,
                effect_words(game, a, Some(s.acted.1)),
                b.name,
                effect_words(game, b, Some(s.other.1))
            ))
            .with_help("say whether the game ends before the obligation is met, in a ruling that settles both rules")
        } else {
            let order = if s.acted.0 < s.other.0 { "being first in the file" } else { "for the mover, who comes first" };
            same_file_note(
                Diagnostic::error(
                    "C0215",
                    &b.file,
                    b.span,
                    format!("rules \"{}\" and \"{}\" hold at once; the file's order decides which acts", a.name, b.name),
                    "holds here too, and waits",
                )
                .warning(),
                a,
                &b.file,
                &format!("acts first, {order}"),
            )
            .with_detail(format!(
                "as written, \"{}\" acts ({}) and \"{}\" is evaluated again when that is done; read the other way, \"{}\" would act first ({})",
                a.name,
                effect_words(game, a, Some(s.acted.1)),
                b.name,
                b.name,
                effect_words(game, b, Some(s.other.1))
            ))
            .with_help("make the conditions exclusive (`and not …`), or keep the order and say so in a ruling that settles both rules")
        };
        out.push(witnessed(d, &s.witness, "both hold after"));
    }
    for dr in &walk.dropped {
        let Some((r, st)) = dr.obligation.source else { continue };
        let Some(rule) = game.rules.get(r as usize) else { continue };
        let what = dr.obligation.kind.word();
        let d = Diagnostic::error(
            "C0216",
            &rule.file,
            rule.span,
            format!("rule \"{}\" obliges {} to {what}, and nothing can meet it", rule.name, player(dr.obligation.player)),
            format!("step {} ({} must {what}) has no legal way here", st + 1, player(dr.obligation.player)),
        )
        .warning()
        .with_detail(
            "as built, an obligation that nothing can meet is dropped (as if waived) and the ply goes on; other readings: the move that led here is illegal, or the game ends",
        )
        .with_help("say what happens when the obligation cannot be met, in a ruling that settles this rule");
        out.push(witnessed(d, &dr.witness, "dropped after"));
    }
    for b in &walk.blocked {
        let Some(rule) = game.rules.get(b.rule) else { continue };
        let d = Diagnostic::error(
            "C0217",
            &rule.file,
            rule.span,
            format!("what rule \"{}\" obliges makes a move illegal", rule.name),
            "no legal way to meet this rule",
        )
        .warning()
        .with_detail(format!(
            "the move {} is legal by itself, but every way of meeting what the rule then obliges is forbidden (a royal piece left attacked, or a condition of the step), so the move is not offered; another reading: the move is legal and the obligation is dropped",
            b.mv
        ))
        .with_help("say whether such a move is legal, in a ruling that settles this rule");
        out.push(witnessed(d, &b.witness, &format!("{} is refused after", b.mv)));
    }
    if let Some(c) = &walk.cycle {
        if let Some(rule) = c.rules.first().and_then(|&r| game.rules.get(r)) {
            // The rules along the chain, each once, in the order they fired.
            let mut names: Vec<String> = Vec::new();
            for name in c.rules.iter().filter_map(|&r| game.rules.get(r)).map(|x| format!("\"{}\"", x.name)) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            let d = Diagnostic::error("C0234", &rule.file, rule.span, "a chain of obligations need not end", "obliges again and again")
                .warning()
                .with_detail(format!(
                    "the rules {} oblige decisions that come back to a state of the same ply after {} of them, so a ply can go on forever; the interpreter does not follow a decision that comes back to a state of its ply, so such a ply never completes and the move that starts it is not offered",
                    names.join(", "),
                    c.length
                ))
                .with_help("make each obligation change what its rule's condition looks at (a relocation that breaks the line), or bound it in a ruling");
            out.push(witnessed(d, &c.witness, "the state repeats after"));
        }
    }
    if let Some(s) = &walk.stuck {
        if let Some(phase) = game.phases.get(s.phase) {
            let d = Diagnostic::error(
                "C0235",
                &phase.file,
                phase.span,
                format!("in phase `{}`, {} can have no legal decision", phase.name, player(s.player)),
                "no placement or move is allowed here",
            )
            .warning()
            .with_detail(format!(
                "the rules do not say what happens; as built, the game ends as a position without a legal move does ({})",
                match v.game.end.stalemate.unwrap_or(Outcome::Draw) {
                    Outcome::Draw => "stalemate: draw",
                    Outcome::Win => "stalemate: win",
                    Outcome::Lose => "stalemate: lose",
                }
            ))
            .with_help("say what happens when no placement is possible, in a ruling that settles this phase");
            out.push(witnessed(d, &s.witness, "reached after"));
        }
    }
}

/// A note on `a` when it is in `file` (notes live in the diagnostic's file).
fn same_file_note(d: Diagnostic, a: &Rule, file: &str, text: &str) -> Diagnostic {
    if a.file == file {
        d.with_note(a.span, text)
    } else {
        d.with_detail(format!("rule \"{}\" ({}): {text}", a.name, a.file))
    }
}

/// `d` with its witness line and position.
fn witnessed(d: Diagnostic, w: &Witness, what: &str) -> Diagnostic {
    let line = if w.decisions.is_empty() { "the setup".to_string() } else { w.decisions.join(" ") };
    let n = w.decisions.len();
    d.with_detail(format!("witness: {what} {line} ({n} decision{} from the setup)", if n == 1 { "" } else { "s" }))
        .with_detail(format!("position: {}", w.position))
}

/// What `rule` does for `subject`, in words (`the owner must relocate, then must activate`).
fn effect_words(game: &rulebook_interpreter::Game, rule: &Rule, subject: Option<Color>) -> String {
    let name = |c: Color| game.players[c as usize].name.clone();
    let who = |w: Who| match (w, subject) {
        (Who::Own, Some(subject)) => name(subject),
        (Who::Enemy, Some(subject)) => name(subject ^ 1),
        // Read off the conditions, for no position: the player the rule holds for.
        (Who::Own, None) => "the player it holds for".to_string(),
        (Who::Enemy, None) => "that player's opponent".to_string(),
        (Who::Mover, _) => "the mover".to_string(),
        (Who::Opponent, _) => "the mover's opponent".to_string(),
        (Who::Player(c), _) => name(c),
    };
    match &rule.effect {
        Effect::End { player, outcome } => match outcome {
            Outcome::Draw => "the game is drawn".to_string(),
            Outcome::Win => format!("{} wins", who(*player)),
            Outcome::Lose => format!("{} loses", who(*player)),
        },
        Effect::Oblige(steps) => steps
            .iter()
            .map(|s| {
                let verb = match s.action {
                    ObligeAction::Relocate { .. } => "relocate",
                    ObligeAction::Activate => "activate a level",
                    ObligeAction::Exile { .. } => "exile pieces",
                    ObligeAction::Return => "return a piece",
                };
                format!("{} {} {verb}", who(s.player), if s.compulsory { "must" } else { "may" })
            })
            .collect::<Vec<_>>()
            .join(", then "),
        Effect::Forbid(_) => "a move is forbidden".to_string(),
        Effect::CompelCaptures => "captures are compulsory".to_string(),
        Effect::NoCapture { .. } => "a capture is forbidden".to_string(),
        Effect::OnlyCaptures { .. } => "a move that captures nothing is forbidden".to_string(),
        Effect::LoseRight(_) => "pieces lose their first-move rights".to_string(),
    }
}

/// Pairs of `ply-end` rules where the condition of one implies the other's
/// (read off the conditions: the same test with a narrower count or
/// length, fewer axes, or the same literal), so that wherever the first
/// holds both do and the file's order decides which acts (C0215): reported
/// for the pairs the walk did not meet, without a witness line.
pub fn implied_pairs(v: &Variant, walk: &Walk, out: &mut Vec<Diagnostic>) {
    let game = &v.game;
    let rules: Vec<(usize, &Rule)> = game
        .rules
        .iter()
        .enumerate()
        .filter(|(_, r)| r.trigger == rulebook_interpreter::model::cond::Trigger::PlyEnd && matches!(r.effect, Effect::Oblige(_) | Effect::End { .. }))
        .collect();
    for (i, &(ai, a)) in rules.iter().enumerate() {
        for &(bi, b) in &rules[i + 1..] {
            if a.effect == b.effect || !matches!(a.effect, Effect::Oblige(_)) && !matches!(b.effect, Effect::Oblige(_)) {
                // The same result, or two ends of the game (C0214's business).
                continue;
            }
            let met = walk.simultaneous.iter().any(|s| (s.acted.0, s.other.0) == (ai, bi) || (s.acted.0, s.other.0) == (bi, ai));
            if met {
                continue;
            }
            let (wide, narrow) = if cond_implies(a.guard.as_ref(), b.guard.as_ref()) {
                (b, a)
            } else if cond_implies(b.guard.as_ref(), a.guard.as_ref()) {
                (a, b)
            } else {
                continue;
            };
            let d = same_file_note(
                Diagnostic::error(
                    "C0215",
                    &b.file,
                    b.span,
                    format!("rules \"{}\" and \"{}\" hold at once wherever \"{}\" holds; the file's order decides which acts", a.name, b.name, narrow.name),
                    "holds whenever the other does, and waits",
                )
                .warning(),
                a,
                &b.file,
                "acts first, being first in the file",
            )
            .with_detail(format!(
                "the condition of \"{}\" implies the condition of \"{}\" (read off the two conditions), so both hold in every position where the first does; as written \"{}\" acts ({}), and \"{}\" is evaluated again when that is done; read the other way, \"{}\" would act first ({})",
                narrow.name,
                wide.name,
                a.name,
                effect_words(game, a, None),
                b.name,
                b.name,
                effect_words(game, b, None)
            ))
            .with_detail("no line to such a position was met by the walk by decisions within its limits")
            .with_help("make the conditions exclusive (`and not …`), or keep the order and say so in a ruling that settles both rules");
            out.push(d);
        }
    }
}

/// Does condition `a` imply `b` (`None`: always true), judged literal by
/// literal: every alternative of `a` has an alternative of `b` each of
/// whose literals follows from one literal of it?
fn cond_implies(a: Option<&rulebook_interpreter::model::cond::Cond>, b: Option<&rulebook_interpreter::model::cond::Cond>) -> bool {
    let (a, b) = match (a, b) {
        (_, None) => return true,
        (None, Some(_)) => return false,
        (Some(a), Some(b)) => (a, b),
    };
    a.any_of.iter().all(|conj| b.any_of.iter().any(|other| other.iter().all(|l| conj.iter().any(|k| lit_implies(k, l)))))
}

/// Does literal `a` imply literal `b`?
fn lit_implies(a: &rulebook_interpreter::model::cond::Lit, b: &rulebook_interpreter::model::cond::Lit) -> bool {
    match (a.negated, b.negated) {
        (false, false) => atom_implies(&a.atom, &b.atom),
        (true, true) => atom_implies(&b.atom, &a.atom),
        _ => false,
    }
}

/// Does atom `a` imply atom `b`?
fn atom_implies(a: &rulebook_interpreter::model::cond::Atom, b: &rulebook_interpreter::model::cond::Atom) -> bool {
    use rulebook_interpreter::model::cond::Atom;
    if a == b {
        return true;
    }
    let within = |x: rulebook_interpreter::model::cond::Range, y: rulebook_interpreter::model::cond::Range| y.lo <= x.lo && x.hi <= y.hi;
    match (a, b) {
        (Atom::Line { length: la, pieces: pa, axes: xa }, Atom::Line { length: lb, pieces: pb, axes: xb }) => {
            // A longest line in `la` along fewer axes is one in `lb` along more,
            // when `la` only asks for lengths at least `lb`'s least and `lb` has no most.
            pa == pb && ((xa == xb && within(*la, *lb)) || (xa.iter().all(|x| xb.contains(x)) && la.lo >= lb.lo && lb.hi == u32::MAX))
        }
        (Atom::Count { count: ca, pieces: pa, scope: sa }, Atom::Count { count: cb, pieces: pb, scope: sb }) => pa == pb && sa == sb && within(*ca, *cb),
        _ => false,
    }
}
