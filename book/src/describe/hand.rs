//! Pieces in hand and drops.

use super::words::{kind, zone};
use super::Section;
use rulebook_interpreter::model::Game;

/// The hand, if the variant has one.
pub fn hand(game: &Game) -> Option<Section> {
    let h = game.hand.as_ref()?;
    let mut s = Section::new("Hand and drops").describes(rulebook_interpreter::model::doc::ItemRef::Hand);
    if h.capture_to_hand {
        s = s.paragraph("A captured piece changes side and goes to the hand of the player who captured it.");
    }
    if let Some(d) = h.demote_to {
        s = s.paragraph(format!("A promoted piece goes to the hand as a {}.", kind(game, d)));
    }
    // Promoted forms (`+P`) go to the hand as the kind they promote from.
    let forms: Vec<String> = (0..h.hand_kinds.len())
        .filter(|&k| h.hand_kinds[k] as usize != k)
        .map(|k| format!("a {} as a {}", kind(game, k as u8), kind(game, h.hand_kinds[k])))
        .collect();
    if h.capture_to_hand && !forms.is_empty() {
        s = s.paragraph(format!("A captured promoted piece goes to the hand as the piece it promoted from: {}.", forms.join(", ")));
    }
    let drops: Vec<String> = h
        .drop_cells
        .iter()
        .enumerate()
        .filter_map(|(k, cells)| {
            let c = cells.as_ref()?;
            // Never in a hand: a promoted form (it joins as its base kind), a
            // royal piece (never captured; only a placement phase holds one).
            if h.hand_kinds[k] as usize != k || (game.kinds[k].royal && game.phases.is_empty()) {
                return None;
            }
            let limit = &h.drop_limits[k];
            let mut extra = Vec::new();
            if let Some((axis, n)) = limit.per_line {
                let axis = &game.geometry.axes[axis].name;
                extra.push(format!("only where its owner then has at most {n} on that {axis}"));
            }
            if limit.also_promoted {
                if let Some(face) = game.promoted_form(k as u8) {
                    extra.push(format!("also as a {}", kind(game, face)));
                }
            }
            if limit.no_mate {
                extra.push("never to give checkmate".to_string());
            }
            if limit.unlimited {
                extra.push("from an endless supply (a drop takes nothing from the hand)".to_string());
            }
            if limit.next_to_own {
                extra.push("only next to a piece of the dropper's".to_string());
            }
            if limit.enclosing {
                extra.push("only where it turns over at least one enemy piece".to_string());
            }
            if let Some(first) = &limit.first_filling {
                extra.push(format!("but while any of {} is empty, only there (and free of these limits)", zone(game, &first[0])));
            }
            if limit.compulsory {
                extra.push("and while its owner holds one it must be dropped: no other drop is legal, and no other move while this drop is".to_string());
            }
            let extra = if extra.is_empty() { String::new() } else { format!(", {}", extra.join(", ")) };
            Some(format!("A {} may be dropped on {}{extra}.", kind(game, k as u8), zone(game, &c[0])))
        })
        .collect();
    if drops.is_empty() {
        s = s.paragraph("No piece may be dropped.");
    } else {
        s = s.paragraph("Instead of moving, a player may drop a piece from their hand onto an empty cell:").list(drops);
    }
    let gates: Vec<String> = h
        .gate_cells
        .iter()
        .enumerate()
        .filter_map(|(k, cells)| {
            let c = cells.as_ref()?;
            if h.hand_kinds[k] as usize != k || game.kinds[k].royal {
                return None;
            }
            Some(if c[0].is_empty() { format!("A {} is never gated.", kind(game, k as u8)) } else { format!("A {} may be gated on {}.", kind(game, k as u8), zone(game, &c[0])) })
        })
        .collect();
    if !gates.is_empty() {
        s = s
            .paragraph(
                "Gating: when a piece leaves a square for the first time (its first-move right, listed in the position's castling field), its owner may put a piece from their hand on the square it left, as part of the same move; castling may put it on the king's or the rook's square. Such a move is legal exactly when the same move without the gated piece is.",
            )
            .list(gates);
    }
    Some(s)
}
