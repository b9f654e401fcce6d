//! The `hand` item: capture to hand, demotion, drop zones.

use super::*;

pub(super) fn lower_hand(cx: &mut Cx, h: From<ast::Hand>, nkinds: usize) -> HandRules {
    let mut rules = HandRules { capture_to_hand: false, demote_to: None, drop_cells: vec![None; nkinds], drop_limits: vec![DropLimit::default(); nkinds], gate_cells: vec![None; nkinds], hand_kinds: (0..nkinds as KindId).collect(), span: h.node.span, file: h.file.to_string() };
    let all: Vec<Cell> = cx.geometry.board_cells().collect();
    let mut any: Option<([Vec<Cell>; 2], DropLimit)> = None;
    let mut specific: Vec<Option<([Vec<Cell>; 2], DropLimit)>> = vec![None; nkinds];
    let mut gate_any: Option<[Vec<Cell>; 2]> = None;
    let mut gate_specific: Vec<Option<[Vec<Cell>; 2]>> = vec![None; nkinds];
    for rule in &h.node.rules {
        match &rule.node {
            ast::HandRule::Gate { piece, only, except } => {
                let cells = cells_of(cx, h.file, &all, only.as_ref(), except.as_ref());
                match piece {
                    None => gate_any = Some(cells),
                    Some(name) => {
                        if let Some(k) = cx.kind(h.file, name) {
                            gate_specific[k as usize] = Some(cells);
                        }
                    }
                }
            }
            ast::HandRule::CaptureToHand => rules.capture_to_hand = true,
            ast::HandRule::DemotePromoted(k) => rules.demote_to = cx.kind(h.file, k),
            ast::HandRule::Drop { piece, only, except, per_line, no_mate, also_promoted, compulsory, unlimited, next_to_own, enclosing, first_filling } => {
                let mut limit = DropLimit {
                    per_line: None,
                    no_mate: no_mate.is_some(),
                    also_promoted: also_promoted.is_some(),
                    compulsory: compulsory.is_some(),
                    unlimited: unlimited.is_some(),
                    next_to_own: next_to_own.is_some(),
                    enclosing: enclosing.is_some(),
                    first_filling: first_filling.as_ref().and_then(|z| cx.zone(h.file, z)),
                };
                if let Some((n, axis)) = per_line {
                    match cx.geometry.axis_index(&axis.node) {
                        Some(a) if n.node >= 1 => limit.per_line = Some((a, n.node)),
                        Some(_) => cx.diags.push(
                            Diagnostic::error("E0186", h.file, n.span, "`at most 0` allows no drop at all", "no drop passes this")
                                .with_help("write at least 1, or leave the kind without a `drop` rule so that it cannot be dropped"),
                        ),
                        None => cx.diags.push(super::board::unknown_axis(h.file, axis, cx.geometry)),
                    }
                }
                let cells = cells_of(cx, h.file, &all, only.as_ref(), except.as_ref());
                match piece {
                    None => any = Some((cells, limit)),
                    Some(name) => {
                        if let Some(k) = cx.kind(h.file, name) {
                            specific[k as usize] = Some((cells, limit));
                        }
                    }
                }
            }
        }
    }
    for (k, own) in specific.into_iter().enumerate() {
        if let Some((cells, limit)) = own.or_else(|| any.clone()) {
            rules.drop_cells[k] = Some(cells);
            rules.drop_limits[k] = limit;
        }
    }
    for (k, own) in gate_specific.into_iter().enumerate() {
        rules.gate_cells[k] = own.or_else(|| gate_any.clone());
    }
    rules
}

/// The cells, per player, of `on ZONE` / `not on ZONE` (every cell without either).
fn cells_of(cx: &mut Cx, file: &str, all: &[Cell], only: Option<&ast::Zone>, except: Option<&ast::Zone>) -> [Vec<Cell>; 2] {
    let mut cells = [all.to_vec(), all.to_vec()];
    if let Some(z) = only.and_then(|z| cx.zone(file, z)) {
        cells = z;
    }
    if let Some(z) = except.and_then(|z| cx.zone(file, z)) {
        for p in 0..2 {
            cells[p].retain(|c| !z[p].contains(c));
        }
    }
    cells
}
