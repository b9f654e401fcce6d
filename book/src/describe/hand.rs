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
    let drops: Vec<String> = h
        .drop_cells
        .iter()
        .enumerate()
        .filter_map(|(k, cells)| cells.as_ref().map(|c| format!("A {} may be dropped on {}.", kind(game, k as u8), zone(game, &c[0]))))
        .collect();
    if drops.is_empty() {
        s = s.paragraph("No piece may be dropped.");
    } else {
        s = s.paragraph("Instead of moving, a player may drop a piece from their hand onto an empty cell:").list(drops);
    }
    Some(s)
}
