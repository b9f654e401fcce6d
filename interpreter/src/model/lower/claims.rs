//! Claims: what a rules file asserts about its game, for the checker to prove.

use super::*;

/// Adds a `claim` to those of the chain, unless one of that name is already
/// there (`E0125`).
pub(super) fn add_claim<'a>(claims: &mut Vec<From<'a, ast::Claim>>, c: From<'a, ast::Claim>, diags: &mut Vec<Diagnostic>) {
    let name = &c.node.name;
    let Some(prev) = claims.iter().find(|p| p.node.name.node == name.node) else {
        claims.push(c);
        return;
    };
    let help = "give each claim its own name; to restate an inherited claim, remove it first with `without claim NAME`";
    let d = if prev.file == c.file {
        Diagnostic::error("E0125", c.file, name.span, format!("claim `{}` is made twice", name.node), "claimed again here")
            .with_note(prev.node.name.span, "first claimed here")
    } else {
        Diagnostic::error("E0125", c.file, name.span, format!("claim `{}` is made twice", name.node), format!("already claimed in {}", prev.file))
    };
    diags.push(d.with_help(help));
}

/// `without claim NAME`: removes an inherited claim (`E0128` if there is none of that name).
pub(super) fn remove_claim(claims: &mut Vec<From<ast::Claim>>, name: From<ast::Ident>, diags: &mut Vec<Diagnostic>) {
    let before = claims.len();
    claims.retain(|c| c.node.name.node != name.node.node);
    if claims.len() == before {
        let names: Vec<&str> = claims.iter().map(|c| c.node.name.node.as_str()).collect();
        let help = if names.is_empty() {
            "no claim is made so far".to_string()
        } else {
            format!("the claims made so far are: {}", names.join(", "))
        };
        diags.push(
            Diagnostic::error("E0128", name.file, name.node.span, format!("no claim `{}` to remove", name.node.node), "not claimed so far")
                .with_help(help),
        );
    }
}

/// Which optional blocks the final variant has (claims about them need them).
#[derive(Clone, Copy)]
pub(super) struct Has {
    pub(super) hidden: bool,
    pub(super) spread: bool,
    pub(super) entangle: bool,
}

/// A claim of the chain in the model. Unknown pieces, and pieces a `without
/// piece` removed, are `E0105`; zones resolve like promotion zones. A claim
/// about face-down pieces in a game without them is `E0133`; one about spread
/// pieces or entangled groups in a game without them `E0140`, and its bound
/// must fit (`E0141`).
pub(super) fn lower_claim(cx: &mut Cx, c: From<ast::Claim>, removed: &[(&str, &str)], has: Has) -> Option<Claim> {
    let has_hidden = has.hidden;
    let property = match &c.node.body.node {
        ast::ClaimBody::KeepsColour { piece, at_rest: false } => Property::KeepsColour { kind: claim_kind(cx, c, piece, removed)? },
        ast::ClaimBody::KeepsColour { piece, at_rest: true } => Property::KeepsColourAtRest { kind: claim_kind(cx, c, piece, removed)? },
        ast::ClaimBody::NeverAdjacent { piece, other } => {
            let kind = claim_kind(cx, c, piece, removed);
            let other = claim_kind(cx, c, other, removed);
            Property::NeverAdjacent { kind: kind?, other: other? }
        }
        ast::ClaimBody::NeverOn { piece, zone } => {
            let kind = claim_kind(cx, c, piece, removed);
            let zone = cx.zone(c.file, zone);
            Property::NeverOn { kind: kind?, zone: zone? }
        }
        ast::ClaimBody::Directions { piece, count } => Property::Directions { kind: claim_kind(cx, c, piece, removed)?, count: count.node },
        ast::ClaimBody::AtMost { count, piece } => {
            Property::AtMost { kind: claim_kind(cx, c, piece, removed)?, count: count.node }
        }
        ast::ClaimBody::HiddenArrivals { zone, pieces } => {
            if !has_hidden {
                let claim = &c.node.name.node;
                cx.diags.push(
                    Diagnostic::error("E0133", c.file, c.node.body.span, format!("claim `{claim}` is about face-down pieces, but the variant has none"), "no `hidden` block in the variant")
                        .with_help(format!("a claim about face-down pieces needs a `hidden {{ pieces … }}` block; if `without hidden` removed it, remove the claim too with `without claim {claim}`")),
                );
            }
            let zone = cx.zone(c.file, zone);
            let mut kinds = Vec::new();
            let mut ok = true;
            for piece in pieces {
                match claim_kind(cx, c, piece, removed) {
                    Some(k) if !kinds.contains(&k) => kinds.push(k),
                    Some(_) => {}
                    None => ok = false,
                }
            }
            if !has_hidden || !ok {
                return None;
            }
            Property::HiddenArrivals { zone: zone?, kinds }
        }
        ast::ClaimBody::SpreadAtMost { squares } => {
            let needs = (!has.spread).then_some(("spread pieces", "spread", "spread { … }"));
            let bound = claim_bound(cx, c, squares, 1);
            if claim_needs(cx, c, needs) {
                return None;
            }
            Property::SpreadAtMost { squares: bound? }
        }
        ast::ClaimBody::GroupsAtMost { groups } => {
            let needs = match (has.spread, has.entangle) {
                (false, _) => Some(("entangled groups", "spread", "spread { … }")),
                (true, false) => Some(("entangled groups", "entangle", "entangle { groups \"/\" \"\\\\\" }")),
                (true, true) => None,
            };
            let bound = claim_bound(cx, c, groups, 0);
            if claim_needs(cx, c, needs) {
                return None;
            }
            Property::GroupsAtMost { groups: bound? }
        }
    };
    Some(Claim { name: c.node.name.node.clone(), property, file: c.file.to_string(), span: c.node.span })
}

/// `E0140` when a claim is about something the variant does not have:
/// `needs` is (what the claim is about, the block it needs, an example of
/// that block). Returns whether it reported one.
pub(super) fn claim_needs(cx: &mut Cx, c: From<ast::Claim>, needs: Option<(&str, &str, &str)>) -> bool {
    let Some((about, block, example)) = needs else { return false };
    let claim = &c.node.name.node;
    cx.diags.push(
        Diagnostic::error("E0140", c.file, c.node.body.span, format!("claim `{claim}` is about {about}, but the variant has no `{block}` block"), format!("no `{block}` block in the variant"))
            .with_help(format!("a claim about {about} needs a block such as `{example}`; if `without {block}` removed it, remove the claim too with `without claim {claim}`")),
    );
    true
}

/// The bound of a spread or groups claim: at least `least` and at most 255 (`E0141`).
pub(super) fn claim_bound(cx: &mut Cx, c: From<ast::Claim>, bound: &Spanned<u32>, least: u32) -> Option<u8> {
    let claim = &c.node.name.node;
    let fits = u8::try_from(bound.node).ok().filter(|_| bound.node >= least);
    if fits.is_none() {
        let (label, help) = if bound.node < least {
            (format!("at least {least}"), "a piece always stands on at least one square: write a bound of 1 or more, e.g. `spread pieces on at most 2 squares`")
        } else {
            ("at most 255".to_string(), "the bound of this claim is a number from 0 to 255")
        };
        cx.diags.push(
            Diagnostic::error("E0141", c.file, bound.span, format!("the bound {} of claim `{claim}` is too {}", bound.node, if bound.node < least { "small" } else { "large" }), label)
                .with_help(help),
        );
    }
    fits
}

/// The kind a claim names: `E0105` if there is none, saying so when a
/// `without piece` removed it.
pub(super) fn claim_kind(cx: &mut Cx, c: From<ast::Claim>, piece: &ast::Ident, removed: &[(&str, &str)]) -> Option<KindId> {
    let defined = cx.pieces.iter().any(|p| p.node.name.node == piece.node);
    match removed.iter().rev().find(|(name, _)| *name == piece.node) {
        Some((_, by)) if !defined => {
            let claim = &c.node.name.node;
            cx.diags.push(
                Diagnostic::error("E0105", c.file, piece.span, format!("claim `{claim}` is about `{}`, which is removed", piece.node), format!("removed by `without piece {}` in {by}", piece.node))
                    .with_help(format!("a claim about a removed piece cannot be checked: write `without claim {claim}` next to `without piece {}`", piece.node)),
            );
            None
        }
        _ => cx.kind(c.file, piece),
    }
}
