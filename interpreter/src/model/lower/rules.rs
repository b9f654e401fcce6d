//! The `rule` items (issue 13): conditions, triggers and effects.

use super::*;
use crate::model::cond::{Atom, Cond, Effect, Lit, PieceSet, Range, Rule, Scope, Trigger, Who};

pub(super) fn lower_rules(cx: &mut Cx, rules: &[From<ast::RuleDef>], kinds: usize) -> Vec<Rule> {
    rules.iter().filter_map(|&r| lower_rule(cx, r, kinds)).collect()
}

fn lower_rule(cx: &mut Cx, r: From<ast::RuleDef>, kinds: usize) -> Option<Rule> {
    let file = r.file;
    let d = r.node;
    let trigger = match d.trigger.node {
        ast::Trigger::PlyEnd => Trigger::PlyEnd,
        ast::Trigger::Offer => Trigger::Offer,
    };
    let guard = match &d.guard {
        Some(g) => Some(lower_cond(cx, file, g, kinds)?),
        None => None,
    };
    let effect = match &d.effect.node {
        ast::Effect::Forbid(c) => Effect::Forbid(lower_cond(cx, file, c, kinds)?),
        ast::Effect::Wins(p) => Effect::End { player: effect_player(cx, file, p)?, outcome: Outcome::Win },
        ast::Effect::Loses(p) => Effect::End { player: effect_player(cx, file, p)?, outcome: Outcome::Lose },
        ast::Effect::Draw => Effect::End { player: Who::Mover, outcome: Outcome::Draw },
    };
    // An effect that does not fit the trigger.
    let misfit = match (&effect, trigger) {
        (Effect::Forbid(_), Trigger::PlyEnd) => Some(("`forbid` acts on a move before it is made", "write `on offer` for a rule that forbids moves")),
        (Effect::End { .. }, Trigger::Offer) => Some(("an `offer` rule looks at a move before it is made and cannot end the game", "write `on ply-end` for a rule that ends the game")),
        _ => None,
    };
    if let Some((why, help)) = misfit {
        cx.diags.push(
            Diagnostic::error("E0171", file, d.effect.span, "this effect does not fit the rule's trigger", why)
                .with_note(d.trigger.span, "the trigger")
                .with_help(help),
        );
        return None;
    }
    let conds: Vec<&Cond> = guard.iter().chain(match &effect {
        Effect::Forbid(c) => Some(c),
        Effect::End { .. } => None,
    }).collect();
    let per_subject = conds.iter().any(|c| c.mentions_subject());
    if let (Effect::End { player: Who::Own, .. }, false) = (&effect, per_subject) {
        let at = match &d.effect.node {
            ast::Effect::Wins(p) | ast::Effect::Loses(p) => p.span,
            _ => d.effect.span,
        };
        cx.diags.push(
            Diagnostic::error("E0172", file, at, "`owner` needs a condition that names `own` or `enemy`", "no player to be the owner")
                .with_help("`owner` is the player the condition held for (`if own King on …  then owner wins`); name `mover`, `opponent` or a player instead"),
        );
        return None;
    }
    if trigger == Trigger::Offer && conds.iter().any(|c| c.lists_moves()) {
        let forbid = match &d.effect.node {
            ast::Effect::Forbid(c) => Some(c),
            _ => None,
        };
        let at = d.guard.iter().chain(forbid).find_map(can_move_span).unwrap_or(d.span);
        cx.diags.push(
            Diagnostic::error("E0173", file, at, "`can move` in an `offer` rule", "asks for the legal moves")
                .with_note(d.trigger.span, "an offer rule decides which moves are legal")
                .with_help("`can move` asks for the legal moves, which this rule decides: it would ask itself; use `can move` in `ply-end` rules only"),
        );
        return None;
    }
    Some(Rule {
        name: d.name.node.clone(),
        trigger,
        guard,
        effect,
        per_subject,
        span: d.span,
        file: file.to_string(),
    })
}

/// Where the first `can move` atom of `c` is written.
fn can_move_span(c: &ast::Cond) -> Option<Span> {
    c.any_of.iter().flat_map(|conj| &conj.all_of).find(|lit| matches!(lit.atom.node, ast::CondAtom::CanMove { .. })).map(|lit| lit.atom.span)
}

/// The player of a `wins`/`loses` effect (`owner` is the subject, [`Who::Own`]).
fn effect_player(cx: &mut Cx, file: &str, p: &Spanned<ast::PlayerRef>) -> Option<Who> {
    match &p.node {
        ast::PlayerRef::Own | ast::PlayerRef::Enemy => {
            cx.diags.push(
                Diagnostic::error("E0170", file, p.span, "`own` and `enemy` name pieces in a condition, not the player of a result", "not a result's player")
                    .with_help("write `owner wins` (the player the condition held for), `mover wins`, `opponent wins` or a player's name"),
            );
            None
        }
        _ => who(cx, file, p),
    }
}

fn who(cx: &mut Cx, file: &str, p: &Spanned<ast::PlayerRef>) -> Option<Who> {
    Some(match &p.node {
        // `owner` in a condition is the subject, as `own` is.
        ast::PlayerRef::Own | ast::PlayerRef::Owner => Who::Own,
        ast::PlayerRef::Enemy => Who::Enemy,
        ast::PlayerRef::Mover => Who::Mover,
        ast::PlayerRef::Opponent => Who::Opponent,
        ast::PlayerRef::Named(name) => match cx.players.iter().position(|pl| pl.name == *name) {
            Some(i) => Who::Player(i as Color),
            None => {
                let names: Vec<&str> = cx.players.iter().map(|pl| pl.name.as_str()).collect();
                cx.diags.push(
                    Diagnostic::error("E0170", file, p.span, format!("unknown player `{name}`"), "no player has this name")
                        .with_help(format!("the players are {}; or write `own`, `enemy`, `mover`, `opponent`", names.join(" and "))),
                );
                return None;
            }
        },
    })
}

fn piece_set(cx: &mut Cx, file: &str, s: &ast::PieceSet) -> Option<PieceSet> {
    let who = who(cx, file, &s.party);
    let kind = match &s.kind {
        Some(k) => Some(cx.kind(file, k)?),
        None => None,
    };
    Some(PieceSet { who: who?, kind })
}

/// The counts a comparison accepts; `E0174` when none.
fn range(cx: &mut Cx, file: &str, c: &Spanned<ast::Compare>) -> Option<Range> {
    let r = match c.node {
        ast::Compare::Fewer(0) => None,
        ast::Compare::Fewer(n) => Some(Range { lo: 0, hi: n - 1 }),
        ast::Compare::More(n) => n.checked_add(1).map(|lo| Range { lo, hi: u32::MAX }),
        ast::Compare::AtLeast(n) => Some(Range { lo: n, hi: u32::MAX }),
        ast::Compare::AtMost(n) => Some(Range { lo: 0, hi: n }),
        ast::Compare::Exactly(n) => Some(Range { lo: n, hi: n }),
        ast::Compare::No => Some(Range { lo: 0, hi: 0 }),
    };
    if r.is_none() {
        cx.diags.push(
            Diagnostic::error("E0174", file, c.span, "this comparison never holds", "no number passes it")
                .with_help("`fewer than 0` and `more than 4294967295` accept no count; write `no` for none"),
        );
    }
    r
}

fn axis(cx: &mut Cx, file: &str, a: &ast::Ident) -> Option<usize> {
    let i = cx.geometry.axis_index(&a.node);
    if i.is_none() {
        cx.diags.push(unknown_axis(file, a, cx.geometry));
    }
    i
}

/// A zone's cells per player, sorted (for binary search).
fn zone_cells(cx: &mut Cx, file: &str, z: &ast::Zone) -> Option<[Vec<Cell>; 2]> {
    let mut cells = cx.zone(file, z)?;
    for c in &mut cells {
        c.sort_unstable();
    }
    Some(cells)
}

pub(super) fn lower_cond(cx: &mut Cx, file: &str, c: &ast::Cond, kinds: usize) -> Option<Cond> {
    let mut ok = true;
    let mut any_of = Vec::new();
    for conj in &c.any_of {
        let mut all_of = Vec::new();
        for lit in &conj.all_of {
            match lower_atom(cx, file, &lit.atom, kinds) {
                Some(atom) => all_of.push(Lit { negated: lit.negated, atom }),
                None => ok = false,
            }
        }
        any_of.push(all_of);
    }
    ok.then_some(Cond { any_of })
}

fn lower_atom(cx: &mut Cx, file: &str, a: &Spanned<ast::CondAtom>, kinds: usize) -> Option<Atom> {
    Some(match &a.node {
        ast::CondAtom::Line { min, max, pieces, axes } => {
            let pieces = piece_set(cx, file, pieces);
            let axes: Vec<Option<usize>> = axes.iter().map(|x| axis(cx, file, x)).collect();
            let bad = match max {
                _ if min.node < 2 => Some((min.span, "a line has at least 2 pieces".to_string())),
                Some(m) if m.node < min.node => Some((m.span, format!("the longest line allowed is shorter than {}", min.node))),
                _ => None,
            };
            if let Some((span, label)) = bad {
                cx.diags.push(
                    Diagnostic::error("E0175", file, span, "this line length is never met", label)
                        .with_help("write `line N` (N or more pieces in a row, N at least 2) or `line N..M` (a longest line of N to M pieces)"),
                );
                return None;
            }
            Atom::Line {
                length: Range { lo: min.node, hi: max.as_ref().map_or(u32::MAX, |m| m.node) },
                pieces: pieces?,
                axes: axes.into_iter().collect::<Option<Vec<usize>>>()?,
            }
        }
        ast::CondAtom::Count { compare, pieces, scope } => {
            let count = range(cx, file, compare);
            let pieces = piece_set(cx, file, pieces);
            let scope = match scope {
                None => Some(Scope::Board),
                Some(ast::Scope::Some(x)) => axis(cx, file, x).map(Scope::Some),
                Some(ast::Scope::Every(x)) => axis(cx, file, x).map(Scope::Every),
                Some(ast::Scope::Zone(z)) => zone_cells(cx, file, z).map(Scope::Zone),
            };
            Atom::Count { count: count?, pieces: pieces?, scope: scope? }
        }
        ast::CondAtom::Distance { from, to, compare } => {
            let (f, t, d) = (piece_set(cx, file, from), piece_set(cx, file, to), range(cx, file, compare));
            Atom::Distance { from: f?, to: t?, distance: d? }
        }
        ast::CondAtom::InCheck(p) => Atom::InCheck(who(cx, file, p)?),
        ast::CondAtom::ToMove(p) => Atom::ToMove(who(cx, file, p)?),
        ast::CondAtom::HasOnly { player, kinds: names } => {
            let w = who(cx, file, player);
            let mut counts = vec![0u8; kinds];
            let mut ok = true;
            for n in names {
                match cx.kind(file, n) {
                    Some(k) => counts[k as usize] = counts[k as usize].saturating_add(1),
                    None => ok = false,
                }
            }
            if !ok {
                return None;
            }
            Atom::HasOnly { who: w?, counts }
        }
        ast::CondAtom::CanMove { pieces, onto } => {
            let (p, z) = (piece_set(cx, file, pieces), zone_cells(cx, file, onto));
            Atom::CanMove { pieces: p?, onto: z? }
        }
        ast::CondAtom::Attacks { pieces, target } => {
            let (p, t) = (piece_set(cx, file, pieces), piece_set(cx, file, target));
            Atom::Attacks { pieces: p?, target: t? }
        }
        ast::CondAtom::Attacked(p) => Atom::Attacked(piece_set(cx, file, p)?),
        ast::CondAtom::Coloured { pieces, like } => {
            let (p, c) = (piece_set(cx, file, pieces), cx.square(file, like));
            Atom::Coloured { pieces: p?, like: c? }
        }
        ast::CondAtom::On { pieces, zone } => {
            let (p, z) = (piece_set(cx, file, pieces), zone_cells(cx, file, zone));
            Atom::Count { count: Range { lo: 1, hi: u32::MAX }, pieces: p?, scope: Scope::Zone(z?) }
        }
    })
}
