//! The `phase` items (issue 13): placement phases before play.

use super::*;
use crate::model::flow::{OrderEntry, Phase, Placement, PlacedCastling};

/// `cell` as the second player sees it: mirrored on every axis that player's orientation flips.
fn mirrored(cx: &Cx, cell: Cell) -> Cell {
    let geo = cx.geometry;
    let coords: Vec<i64> = geo
        .coords(cell)
        .iter()
        .enumerate()
        .map(|(a, &x)| if cx.players[1].orientation[a] < 0 { (geo.size(a) - 1 - x) as i64 } else { x as i64 })
        .collect();
    geo.cell(&coords).unwrap_or(cell)
}

/// The colour of a cell: the parity of the sum of its coordinates.
fn parity(cx: &Cx, cell: Cell) -> u8 {
    (cx.geometry.coords(cell).iter().sum::<usize>() % 2) as u8
}

pub(super) fn lower_phases(cx: &mut Cx, phases: &[From<ast::Phase>], hand: Option<&HandRules>, castling: Option<&CastlingRule>) -> Vec<Phase> {
    phases.iter().map(|&p| lower_phase(cx, p, hand, castling)).collect()
}

fn lower_phase(cx: &mut Cx, p: From<ast::Phase>, hand: Option<&HandRules>, castling: Option<&CastlingRule>) -> Phase {
    let mut placement = Placement::default();
    let mut places = false;
    let mut order_seen: Option<Span> = None;
    for rule in &p.node.rules {
        match &rule.node {
            ast::PhaseRule::PlaceFromHand => {
                places = true;
                if hand.is_none() {
                    cx.diags.push(
                        Diagnostic::error("E0161", p.file, rule.span, "`place from hand` in a variant without a hand", "no `hand` item")
                            .with_help("the `hand` item says where each piece may be dropped: add e.g. `hand { drop any on rank 1 }`"),
                    );
                }
            }
            ast::PhaseRule::Order(entries) => {
                if let Some(prev) = order_seen.replace(rule.span) {
                    cx.diags.push(
                        Diagnostic::error("E0164", p.file, rule.span, "`order` is given twice in this phase", "given again here")
                            .with_note(prev, "first given here")
                            .with_help("a phase has one placement order: merge the two lists"),
                    );
                    continue;
                }
                for e in entries {
                    let kind = cx.kind(p.file, &e.node.piece);
                    let cells = e.node.zone.as_ref().and_then(|z| cx.zone(p.file, z));
                    let colour = e.node.like.as_ref().and_then(|sq| cx.square(p.file, sq)).map(|c| [parity(cx, c), parity(cx, mirrored(cx, c))]);
                    if let Some(kind) = kind {
                        placement.order.push(OrderEntry { kind, cells, colour });
                    }
                }
            }
            ast::PhaseRule::DifferentColours(name) => {
                if let Some(k) = cx.kind(p.file, name) {
                    placement.different_colours.push(k);
                }
            }
            ast::PhaseRule::PlacedSafe => placement.safe = true,
            ast::PhaseRule::Castling { king, king_on, rook, rook_on } => {
                let k = cx.kind(p.file, king);
                let r = cx.kind(p.file, rook);
                let k_cell = cx.square(p.file, king_on);
                let r_cells: Vec<Option<Cell>> = rook_on.iter().map(|s| cx.square(p.file, s)).collect();
                let Some(rule_c) = castling else {
                    cx.diags.push(
                        Diagnostic::error("E0162", p.file, rule.span, "castling rights by placement in a variant without castling", "no `castling` item")
                            .with_help("add a `castling King with Rook { … }` item, or remove this line"),
                    );
                    continue;
                };
                if let (Some(k), Some(r)) = (k, r) {
                    if k != rule_c.king || !rule_c.partners.contains(&r) {
                        cx.diags.push(
                            Diagnostic::error("E0162", p.file, rule.span, "these are not the pieces that castle", "not the castling king and partner")
                                .with_help(format!(
                                    "the `castling` item castles {} with {}: name those here",
                                    cx.pieces[rule_c.king as usize].node.name.node, cx.pieces[rule_c.rook as usize].node.name.node
                                )),
                        );
                        continue;
                    }
                }
                if let (Some(kc), true) = (k_cell, r_cells.iter().all(Option::is_some)) {
                    let rooks: Vec<Cell> = r_cells.into_iter().flatten().collect();
                    let theirs = rooks.iter().map(|&c| mirrored(cx, c)).collect();
                    placement.castling = Some(PlacedCastling { king_on: [kc, mirrored(cx, kc)], rook_on: [rooks, theirs] });
                }
            }
            ast::PhaseRule::UntilHandsEmpty => {}
            ast::PhaseRule::OnlyIf(c) => {
                if let Some(c) = rules::lower_cond(cx, p.file, c, &rules::RuleScope { kinds: cx.pieces.len(), phases: &[], slide: None }) {
                    placement.only_if.push(c);
                }
            }
        }
    }
    if !places {
        cx.diags.push(
            Diagnostic::error("E0160", p.file, p.node.name.span, format!("phase `{}` has no decisions", p.node.name.node), "no `place from hand`")
                .with_help("a phase says what its players do: write `place from hand` in it"),
        );
    }
    Phase { name: p.node.name.node.clone(), placement, span: p.node.span, file: p.file.to_string() }
}
