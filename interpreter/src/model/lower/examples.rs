//! Lowering `example` items (LANGUAGE §3.22): names, letter sets, players
//! and rules resolved (E0183, E0184); then, once the game is built, each
//! example's position parsed and its line played (E0181, E0182).

use super::*;
use crate::engine::example::{play_line, start_position};
use crate::engine::variant::Variant;
use crate::model::example::{Example, Expectation, ExpectedEnd, ExpectedResult};
use rulebook_grammar::ast::{Expect as AstExpect, ExampleEnd as AstEnd, ExampleResult as AstResult};
use std::sync::Arc;

/// The examples of the variant's own file (the last of the chain); an
/// ancestor's examples speak of the ancestor and are not inherited.
pub(super) fn lower_examples(cx: &mut Cx, chain: &[SourceTree], rules: &[cond::Rule], letter_sets: &[LetterSet]) -> Vec<Example> {
    let Some(src) = chain.last() else { return Vec::new() };
    let file = src.name;
    let mut out: Vec<Example> = Vec::new();
    for item in &src.tree.items {
        let ast::Item::Example(e) = item else { continue };
        if let Some(prev) = out.iter().find(|x| x.name == e.name.node) {
            cx.diags.push(
                Diagnostic::error("E0184", file, e.name.span, format!("example \"{}\" is given twice in this file", e.name.node), "given again here")
                    .with_note(prev.span, "first given here")
                    .with_help("give each example its own name: tests and the generated rulebook name examples by it"),
            );
            continue;
        }
        if let Some(l) = &e.letters {
            if !letter_sets.iter().any(|s| s.name == l.node) {
                let known: Vec<&str> = letter_sets.iter().map(|s| s.name.as_str()).collect();
                let help = if known.is_empty() { "the variant has no `letters` set: leave `letters` out".to_string() } else { format!("the letter sets are: {}", known.join(", ")) };
                cx.diags.push(Diagnostic::error("E0183", file, l.span, format!("no letter set `{}`", l.node), "not a `letters` set of this variant").with_help(help));
                continue;
            }
        }
        let Some(expect) = expectation(cx, file, &e.expect.node, rules) else { continue };
        out.push(Example {
            name: e.name.node.clone(),
            position: e.position.as_ref().map(|p| p.node.clone()),
            position_span: e.position.as_ref().map(|p| p.span),
            letters: e.letters.as_ref().map(|l| l.node.clone()),
            play: e.play.as_ref().map(|p| p.node.clone()),
            play_span: e.play.as_ref().map(|p| p.span),
            expect,
            expect_span: e.expect.span,
            span: e.span,
            file: file.to_string(),
        });
    }
    out
}

/// The expectation with names resolved, or `None` after reporting one that names nothing.
fn expectation(cx: &mut Cx, file: &str, expect: &AstExpect, rules: &[cond::Rule]) -> Option<Expectation> {
    let words = |s: &str| s.split_whitespace().map(str::to_string).collect();
    Some(match expect {
        AstExpect::Moves(s) => Expectation::Moves(words(&s.node)),
        AstExpect::Includes(s) => Expectation::Includes(words(&s.node)),
        AstExpect::Count(n) => Expectation::Count(n.node),
        AstExpect::Result(AstResult::Ongoing) => Expectation::Result(ExpectedResult::Ongoing),
        AstExpect::Result(AstResult::Over { end, winner }) => {
            let end = match &end.node {
                AstEnd::Checkmate => ExpectedEnd::Checkmate,
                AstEnd::Stalemate => ExpectedEnd::Stalemate,
                AstEnd::MoveLimit => ExpectedEnd::MoveLimit,
                AstEnd::Repetition => ExpectedEnd::Repetition,
                AstEnd::Rule(name) => match rules.iter().position(|r| r.name == name.node) {
                    Some(i) => ExpectedEnd::Rule(i),
                    None => {
                        let known: Vec<String> = rules.iter().map(|r| format!("\"{}\"", r.name)).collect();
                        let help = if known.is_empty() { "the variant has no `rule` items".to_string() } else { format!("the rules are: {}", known.join(", ")) };
                        cx.diags.push(Diagnostic::error("E0183", file, name.span, format!("no rule \"{}\"", name.node), "not a `rule` of this variant").with_help(help));
                        return None;
                    }
                },
            };
            let winner = match winner {
                None => None,
                Some(name) => match cx.players.iter().position(|p| p.name == name.node) {
                    Some(c) => Some(c as Color),
                    None => {
                        let known: Vec<&str> = cx.players.iter().map(|p| p.name.as_str()).collect();
                        cx.diags.push(
                            Diagnostic::error("E0183", file, name.span, format!("no player `{}`", name.node), "not a player of this variant")
                                .with_help(format!("the winner is one of the players ({}), or write `draw`", known.join(", "))),
                        );
                        return None;
                    }
                },
            };
            Expectation::Result(ExpectedResult::Over { end, winner })
        }
    })
}

/// Checks every example's position and line against the finished game
/// (`tables`: its resting tables, built to parse the setup): a position
/// that does not parse is `E0181`, a move of the line that is not a legal
/// decision where it is played `E0182`.
pub(super) fn check_examples(game: &Game, tables: crate::engine::tables::Tables) -> Vec<Diagnostic> {
    if game.examples.is_empty() {
        return Vec::new();
    }
    let v = Variant::with_tables(Arc::new(game.clone()), tables);
    let mut diags = Vec::new();
    for e in &game.examples {
        let start = match start_position(&v, e) {
            Ok(p) => p,
            Err(d) => {
                diags.push(
                    Diagnostic::error("E0181", &e.file, d.span, format!("example \"{}\": the position is not valid: {}", e.name, d.message), d.label)
                        .with_help(d.help.unwrap_or_else(|| "write the position as FEN (LANGUAGE §5), or leave `position` out to start from the setup".into())),
                );
                continue;
            }
        };
        if let Err((index, d)) = play_line(&v, e, start) {
            let mut diag = Diagnostic::error("E0182", &e.file, d.span, format!("example \"{}\", move {} of `play`: {}", e.name, index + 1, d.message), d.label);
            if let Some(h) = d.help {
                diag = diag.with_help(h);
            }
            diags.push(diag);
        }
    }
    diags
}
