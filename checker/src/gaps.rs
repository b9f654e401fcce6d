//! The walk's findings ([`crate::flow_walk`]) as diagnostics, each with its
//! witness line and the spans of the rules involved, and what each reading
//! would do there:
//!
//! - C0215: rules that hold at once, where the file's order decides;
//! - C0216: a compulsory obligation dropped because nothing could meet it;
//! - C0217: a move made illegal by what a rule obliges after it;
//! - C0234: a chain of obligations that need not end;
//! - C0235: a phase in which a player can have no decision.

use crate::flow_walk::{Walk, Witness};
use rulebook_grammar::Diagnostic;
use rulebook_interpreter::flow::ActionKind;
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
                effect_words(game, a, s.acted.1),
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
                effect_words(game, a, s.acted.1),
                b.name,
                effect_words(game, b, s.other.1)
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
                effect_words(game, a, s.acted.1),
                b.name,
                b.name,
                effect_words(game, b, s.other.1)
            ))
            .with_help("make the conditions exclusive (`and not …`), or keep the order and say so in a ruling that settles both rules")
        };
        out.push(witnessed(d, &s.witness, "both hold after"));
    }
    for dr in &walk.dropped {
        let Some((r, st)) = dr.obligation.source else { continue };
        let Some(rule) = game.rules.get(r as usize) else { continue };
        let what = kind_word(dr.obligation.kind);
        let d = Diagnostic::error(
            "C0216",
            &rule.file,
            rule.span,
            format!("rule \"{}\" obliges {} to {what}, and nothing can meet it", rule.name, player(dr.obligation.player)),
            format!("step {} ({} must {what}) has no legal way here", st + 1, player(dr.obligation.player)),
        )
        .warning()
        .with_detail(format!(
            "as built, an obligation that nothing can meet is dropped (as if waived) and the ply goes on; other readings: the move that led here is illegal, or the game ends"
        ))
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
        out.push(witnessed(d, &b.witness, "the move is made after"));
    }
    if let Some(c) = &walk.cycle {
        if let Some(rule) = c.rules.first().and_then(|&r| game.rules.get(r)) {
            let names: Vec<String> = {
                let mut seen = Vec::new();
                for &r in &c.rules {
                    if let Some(x) = game.rules.get(r) {
                        if !seen.contains(&format!("\"{}\"", x.name)) {
                            seen.push(format!("\"{}\"", x.name));
                        }
                    }
                }
                seen
            };
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
    d.with_detail(format!("witness: {what} {line} ({} decisions from the setup)", w.decisions.len()))
        .with_detail(format!("position: {}", w.position))
}

fn kind_word(k: ActionKind) -> &'static str {
    k.word()
}

/// What `rule` does for `subject`, in words (`the owner must relocate, then must activate`).
fn effect_words(game: &rulebook_interpreter::Game, rule: &Rule, subject: Color) -> String {
    let name = |c: Color| game.players[c as usize].name.clone();
    let who = |w: Who| match w {
        Who::Own => name(subject),
        Who::Enemy => name(subject ^ 1),
        Who::Mover => "the mover".to_string(),
        Who::Opponent => "the mover's opponent".to_string(),
        Who::Player(c) => name(c),
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
    }
}
