//! The `rule` items (issue 13): conditions, triggers and effects.

use super::*;
use crate::model::cond::{Atom, Cond, Effect, Lit, PieceSet, Range, Rule, Scope, Trigger, Who};

/// What the lowering of rules needs from the rest of the model: the number
/// of piece kinds, the phases (`PHASE ends`) and the sliding levels
/// (`exile … from activated level`).
pub(super) struct RuleScope<'a> {
    /// The number of piece kinds.
    pub kinds: usize,
    /// The phases, lowered.
    pub phases: &'a [crate::model::flow::Phase],
    /// The `slide` item, lowered.
    pub slide: Option<&'a crate::model::slide::SlideRules>,
}

pub(super) fn lower_rules(cx: &mut Cx, rules: &[From<ast::RuleDef>], scope: &RuleScope) -> Vec<Rule> {
    rules.iter().filter_map(|&r| lower_rule(cx, r, scope)).collect()
}

fn lower_rule(cx: &mut Cx, r: From<ast::RuleDef>, scope: &RuleScope) -> Option<Rule> {

    let file = r.file;
    let d = r.node;
    let trigger = match d.trigger.node {
        ast::Trigger::PlyEnd => Trigger::PlyEnd,
        ast::Trigger::Offer => Trigger::Offer,
    };
    let guard = match &d.guard {
        Some(g) => Some(lower_cond(cx, file, g, scope)?),
        None => None,
    };
    let effect = match &d.effect.node {
        ast::Effect::Forbid(c) => Effect::Forbid(lower_cond(cx, file, c, scope)?),
        ast::Effect::CompelCaptures => Effect::CompelCaptures,
        ast::Effect::NoCapture { by, of } => {
            let (by, of) = (cx.kind(file, by), cx.kind(file, of));
            Effect::NoCapture { by: by?, of: of? }
        }
        ast::Effect::OnlyCaptures { piece, checking } => Effect::OnlyCaptures { kind: cx.kind(file, piece)?, checking: *checking },
        ast::Effect::Wins(p) => Effect::End { player: effect_player(cx, file, p)?, outcome: Outcome::Win },
        ast::Effect::Loses(p) => Effect::End { player: effect_player(cx, file, p)?, outcome: Outcome::Lose },
        ast::Effect::Draw => Effect::End { player: Who::Mover, outcome: Outcome::Draw },
        ast::Effect::Oblige(steps) => Effect::Oblige(lower_oblige(cx, file, d, steps, scope)?),
        ast::Effect::LoseRight(set) => Effect::LoseRight(piece_set(cx, file, set)?),
    };
    // An effect that does not fit the trigger.
    let misfit = match (&effect, trigger) {
        (Effect::Forbid(_), Trigger::PlyEnd) => Some(("`forbid` acts on a move before it is made", "write `on offer` for a rule that forbids moves")),
        (Effect::CompelCaptures, Trigger::PlyEnd) => Some(("compulsory captures act on the moves before they are made", "write `on offer` for a rule that makes captures compulsory")),
        (Effect::NoCapture { .. }, Trigger::PlyEnd) => Some(("`may not capture` acts on the moves before they are made", "write `on offer` for a rule that forbids captures")),
        (Effect::OnlyCaptures { .. }, Trigger::PlyEnd) => Some(("`may only capture` acts on the moves before they are made", "write `on offer` for a rule that limits a piece's moves")),
        (Effect::Oblige(_), Trigger::Offer) => Some(("an `offer` rule looks at a move before it is made and cannot oblige", "write `on ply-end` for a rule that obliges")),
        (Effect::End { .. }, Trigger::Offer) => Some(("an `offer` rule looks at a move before it is made and cannot end the game", "write `on ply-end` for a rule that ends the game")),
        (Effect::LoseRight(_), Trigger::Offer) => Some(("a first-move right is lost after a move, not before it", "write `on ply-end` for a rule that takes first-move rights")),
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
        Effect::End { .. } | Effect::Oblige(_) | Effect::CompelCaptures | Effect::NoCapture { .. } | Effect::OnlyCaptures { .. } | Effect::LoseRight(_) => None,
    }).collect();
    let per_subject = conds.iter().any(|c| c.mentions_subject()) || matches!(&effect, Effect::LoseRight(s) if matches!(s.who, Who::Own | Who::Enemy));
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
/// The steps of an `oblige` effect. A relocation needs a `line` atom in the
/// guard (its inner pieces are the ones relocated): `E0177`; `owner` needs
/// a guard naming `own` or `enemy` (`E0172`). (In a variant without `slide`
/// an `activate` step has no action and is dropped when it comes due.)
fn lower_oblige(cx: &mut Cx, file: &str, d: &ast::RuleDef, steps: &[ast::ObligeStep], scope: &RuleScope) -> Option<Vec<crate::model::cond::ObligeStep>> {
    use crate::model::cond::{ObligeAction, ObligeStep, RelocateWhat, SliceCount};
    let has_line = d.guard.as_ref().is_some_and(|g| g.any_of.iter().flat_map(|c| &c.all_of).any(|l| !l.negated && matches!(l.atom.node, ast::CondAtom::Line { .. })));
    let subject = d.guard.as_ref().is_some_and(|g| g.any_of.iter().flat_map(|c| &c.all_of).any(|l| mentions_own(&l.atom.node)));
    let mut out = Vec::new();
    for step in steps {
        if step.player.node == ast::PlayerRef::Owner && !subject {
            cx.diags.push(
                Diagnostic::error("E0172", file, step.player.span, "`owner` needs a condition that names `own` or `enemy`", "no player to be the owner")
                    .with_help("`owner` is the player the condition held for (`if line 3 own Pawn …  then owner must …`); name `mover`, `opponent` or a player instead"),
            );
            return None;
        }
        let player = effect_player(cx, file, &step.player)?;
        let action = match &step.action {
            ast::ObligeAction::Activate => ObligeAction::Activate,
            ast::ObligeAction::Return => ObligeAction::Return,
            ast::ObligeAction::Exile { own, enemy, axis: a, except, to_owner } => {
                let ax = axis(cx, file, a)?;
                if scope.slide.is_none_or(|sl| sl.stack_axis != ax) {
                    let why = match scope.slide {
                        None => "the variant has no sliding levels (no `slide` item)".to_string(),
                        Some(sl) => format!("the levels that slide are stacked along `{}`", cx.geometry.axes[sl.stack_axis].name),
                    };
                    cx.diags.push(
                        Diagnostic::error("E0178", file, a.span, "`exile … from activated` names a level activated in the ply", why)
                            .with_help("exile takes pieces from the level the ply's activation pulled out: write the stacking axis of the `slide` item (`from activated level`)"),
                    );
                    return None;
                }
                let except = kind_list(cx, file, except)?;
                ObligeAction::Exile { own: *own, enemy: *enemy, except, to_owner: *to_owner }
            }
            ast::ObligeAction::Relocate { what, safe, only_if } => {
                let what = match what {
                    ast::RelocateWhat::Inner { axis: a } => {
                        if !has_line {
                            cx.diags.push(
                                Diagnostic::error("E0177", file, step.span, "`relocate inner pieces` needs a `line` in the rule's condition", "no line to take the inner pieces of")
                                    .with_help("write the line in the guard: `if line 3..4 own Pawn along file rank level  then owner must relocate inner pieces to another level`"),
                            );
                            return None;
                        }
                        RelocateWhat::Inner { axis: axis(cx, file, a)? }
                    }
                    ast::RelocateWhat::Pieces { pieces, except, from, to } => {
                        let slice = |cx: &mut Cx, s: &ast::SliceCount| -> Option<SliceCount> {
                            let (a, c, p) = (axis(cx, file, &s.axis), range(cx, file, &s.compare), piece_set(cx, file, &s.pieces));
                            Some(SliceCount { axis: a?, count: c?, pieces: p? })
                        };
                        let (p, e, f, t) = (piece_set(cx, file, pieces), kind_list(cx, file, except), slice(cx, from), slice(cx, to));
                        RelocateWhat::Pieces { pieces: p?, except: e?, from: f?, to: t? }
                    }
                };
                let only_if = match only_if {
                    Some(c) => Some(lower_cond(cx, file, c, scope)?),
                    None => None,
                };
                ObligeAction::Relocate { what, safe: *safe, only_if }
            }
        };
        out.push(ObligeStep { player, compulsory: step.compulsory, action });
    }
    Some(out)
}

/// The kinds named in a list (`except King`).
fn kind_list(cx: &mut Cx, file: &str, names: &[ast::Ident]) -> Option<Vec<KindId>> {
    let kinds: Vec<Option<KindId>> = names.iter().map(|n| cx.kind(file, n)).collect();
    kinds.into_iter().collect()
}

/// Does an atom name `own` or `enemy`?
fn mentions_own(a: &ast::CondAtom) -> bool {
    let rel = |p: &ast::PieceSet| matches!(p.party.node, ast::PlayerRef::Own | ast::PlayerRef::Enemy);
    let relp = |p: &Spanned<ast::PlayerRef>| matches!(p.node, ast::PlayerRef::Own | ast::PlayerRef::Enemy);
    match a {
        ast::CondAtom::Line { pieces, .. }
        | ast::CondAtom::Count { pieces, .. }
        | ast::CondAtom::CanMove { pieces, .. }
        | ast::CondAtom::Attacked(pieces)
        | ast::CondAtom::Coloured { pieces, .. }
        | ast::CondAtom::On { pieces, .. } => rel(pieces),
        ast::CondAtom::Distance { from, to, .. } => rel(from) || rel(to),
        ast::CondAtom::Attacks { pieces, target } | ast::CondAtom::Faces { pieces, target, .. } => rel(pieces) || rel(target),
        ast::CondAtom::InCheck(p) | ast::CondAtom::ToMove(p) | ast::CondAtom::Passed(p) | ast::CondAtom::HasOnly { player: p, .. } | ast::CondAtom::ChecksGiven { player: p, .. } => relp(p),
        ast::CondAtom::Exiled { pieces, onto } => rel(pieces) || onto.as_ref().is_some_and(rel),
        ast::CondAtom::PhaseEnds(_) | ast::CondAtom::BoardFull => false,
    }
}

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

pub(super) fn lower_cond(cx: &mut Cx, file: &str, c: &ast::Cond, scope: &RuleScope) -> Option<Cond> {
    let mut ok = true;
    let mut any_of = Vec::new();
    for conj in &c.any_of {
        let mut all_of = Vec::new();
        for lit in &conj.all_of {
            match lower_atom(cx, file, &lit.atom, scope) {
                Some(atom) => all_of.push(Lit { negated: lit.negated, atom }),
                None => ok = false,
            }
        }
        any_of.push(all_of);
    }
    ok.then_some(Cond { any_of })
}

fn lower_atom(cx: &mut Cx, file: &str, a: &Spanned<ast::CondAtom>, scope: &RuleScope) -> Option<Atom> {
    let kinds = scope.kinds;
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
        ast::CondAtom::ChecksGiven { player, times } => Atom::ChecksGiven { who: who(cx, file, player)?, times: times.node },
        ast::CondAtom::ToMove(p) => Atom::ToMove(who(cx, file, p)?),
        ast::CondAtom::Passed(p) => Atom::Passed(who(cx, file, p)?),
        ast::CondAtom::BoardFull => Atom::BoardFull,
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
        ast::CondAtom::Faces { pieces, target, axis: a, through } => {
            let (p, t, a) = (piece_set(cx, file, pieces), piece_set(cx, file, target), axis(cx, file, a));
            Atom::Faces { pieces: p?, target: t?, axis: a?, through: *through }
        }
        ast::CondAtom::Coloured { pieces, like } => {
            let (p, c) = (piece_set(cx, file, pieces), cx.square(file, like));
            Atom::Coloured { pieces: p?, like: c? }
        }
        ast::CondAtom::On { pieces, zone } => {
            let (p, z) = (piece_set(cx, file, pieces), zone_cells(cx, file, zone));
            Atom::Count { count: Range { lo: 1, hi: u32::MAX }, pieces: p?, scope: Scope::Zone(z?) }
        }
        ast::CondAtom::Exiled { pieces, onto } => {
            let p = piece_set(cx, file, pieces);
            let o = match onto {
                Some(o) => Some(piece_set(cx, file, o)?),
                None => None,
            };
            Atom::Exiled { pieces: p?, onto: o }
        }
        ast::CondAtom::PhaseEnds(name) => match scope.phases.iter().position(|ph| ph.name == name.node) {
            Some(i) => Atom::PhaseEnds(i),
            None => {
                let names: Vec<&str> = scope.phases.iter().map(|ph| ph.name.as_str()).collect();
                let known = if names.is_empty() { "the variant has no `phase` items".to_string() } else { format!("the phases are {}", names.join(", ")) };
                cx.diags.push(
                    Diagnostic::error("E0179", file, name.span, format!("unknown phase `{}`", name.node), "no phase has this name").with_help(known),
                );
                return None;
            }
        },
    })
}
