//! The `hand` item: capture to hand, demotion, drop zones.

use super::*;

pub(super) fn lower_hand(cx: &mut Cx, h: From<ast::Hand>, nkinds: usize) -> HandRules {
    let mut rules = HandRules { capture_to_hand: false, demote_to: None, drop_cells: vec![None; nkinds] };
    let all: Vec<Cell> = cx.geometry.board_cells().collect();
    let mut any: Option<[Vec<Cell>; 2]> = None;
    let mut specific: Vec<Option<[Vec<Cell>; 2]>> = vec![None; nkinds];
    for rule in &h.node.rules {
        match &rule.node {
            ast::HandRule::CaptureToHand => rules.capture_to_hand = true,
            ast::HandRule::DemotePromoted(k) => rules.demote_to = cx.kind(h.file, k),
            ast::HandRule::Drop { piece, only, except } => {
                let mut cells = [all.clone(), all.clone()];
                if let Some(z) = only {
                    if let Some(z) = cx.zone(h.file, z) {
                        cells = z;
                    }
                }
                if let Some(z) = except {
                    if let Some(z) = cx.zone(h.file, z) {
                        for p in 0..2 {
                            cells[p].retain(|c| !z[p].contains(c));
                        }
                    }
                }
                match piece {
                    None => any = Some(cells),
                    Some(name) => {
                        if let Some(k) = cx.kind(h.file, name) {
                            specific[k as usize] = Some(cells);
                        }
                    }
                }
            }
        }
    }
    for (slot, own) in rules.drop_cells.iter_mut().zip(specific) {
        *slot = own.or_else(|| any.clone());
    }
    rules
}
