//! Castling.

use super::words::{kind, player};
use super::Section;
use rulebook_interpreter::model::Game;

/// Castling, if the variant has it.
pub fn castling(game: &Game) -> Option<Section> {
    let c = game.castling.as_ref()?;
    // The partner: its kind, or each of its kinds (`with Rook or Chancellor`).
    let partners: Vec<&str> = c.partners.iter().map(|&k| kind(game, k)).collect();
    let (king, rook) = (kind(game, c.king), partners.join(" or "));
    let geo = &game.geometry;
    let sides: Vec<String> = c
        .sides
        .iter()
        .map(|s| {
            let name = if s.short { "Short castling (towards the higher files)" } else { "Long castling (towards the lower files)" };
            format!(
                "{name}: the {king} goes to {} and the {rook} to {} ({}); {} and {} for {}.",
                geo.name(s.king_to[0]),
                geo.name(s.rook_to[0]),
                player(game, 0),
                geo.name(s.king_to[1]),
                geo.name(s.rook_to[1]),
                player(game, 1)
            )
        })
        .collect();
    Some(
        Section::new("Castling")
            .describes(rulebook_interpreter::model::doc::ItemRef::Castling)
            .at(&c.file, c.span.start)
            .paragraph(format!(
                "The {king} may castle with a {rook} of its own: both must not have moved (the castling rights of the position), every cell between them and their destinations must be empty, and the {king} may not be in check, nor pass or land on an attacked cell."
            ))
            .list(sides),
    )
}
