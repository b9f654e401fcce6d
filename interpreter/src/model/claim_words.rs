//! A claim's formula in words: what [`Property`] the checker proves or
//! refutes, said plainly, so that a report can show it beside the claim's
//! name and a reader sees whether the formula says what the name says.

use super::geometry::Cell;
use super::{Game, KindId, Property};

/// The most cells of a zone listed by name before the rest are counted.
const LISTED: usize = 12;

impl Property {
    /// What the property says, in words, with the piece names and cells of
    /// `game` (a zone is listed per player).
    pub fn in_words(&self, game: &Game) -> String {
        let kind = |k: &KindId| game.kinds.get(*k as usize).map_or("?", |k| k.name.as_str());
        let reachable = "in every position reachable from the setup";
        match self {
            Property::NeverOn { kind: k, zone } => {
                format!("{reachable}, no {} of either player stands in its owner's zone ({})", kind(k), zones(game, zone))
            }
            Property::NeverAdjacent { kind: k, other } => format!(
                "{reachable}, no {} stands next to a {} of the other player (every coordinate within 1 of it)",
                kind(k),
                kind(other)
            ),
            Property::AtMost { kind: k, count } => format!(
                "{reachable}, neither player has more than {count} {} on the board{}",
                kind(k),
                if game.spread.is_some() { " (a spread piece counts once)" } else { "" }
            ),
            Property::Directions { kind: k, count } => format!(
                "the steps of {}'s moves as defined point in exactly {count} distinct directions (a property of the definition, not of play)",
                kind(k)
            ),
            Property::NeverInHand { kind: k } => format!("{reachable}, no {} is in a hand", kind(k)),
            Property::KeepsColour { kind: k } => format!(
                "{reachable}, every legal move of a {} ends on a cell of the colour it starts on (colour: the parity of the sum of the coordinates)",
                kind(k)
            ),
            Property::KeepsColourAtRest { kind: k } => format!(
                "{reachable}, every legal move of a {} made while every level stands at rest ends on a cell of the colour it starts on (colour: the parity of the sum of the level's own coordinates)",
                kind(k)
            ),
            Property::SpreadAtMost { squares } => {
                format!("{reachable}, no piece stands on more than {squares} squares at once")
            }
            Property::GroupsAtMost { groups } => format!(
                "{reachable}, at most {groups} entangled groups exist at once (a group: pieces that entangling joined, which one roll collapses together; groups are counted, not their labels)"
            ),
            Property::HiddenArrivals { zone, kinds } => {
                let by: Vec<&str> = kinds.iter().map(kind).collect();
                format!(
                    "{reachable}, every legal move of a face-down piece that ends in its owner's zone ({}) moves as a {}",
                    zones(game, zone),
                    by.join(" or a ")
                )
            }
        }
    }
}

/// A zone per player: `white a1 b1 … (N squares); black …`.
fn zones(game: &Game, zone: &[Vec<Cell>; 2]) -> String {
    let parts: Vec<String> = game
        .players
        .iter()
        .zip(zone)
        .map(|(p, cells)| {
            let mut names: Vec<String> = cells.iter().take(LISTED).map(|&c| game.geometry.name(c)).collect();
            if cells.len() > LISTED {
                names.push(format!("… {} squares in all", cells.len()));
            }
            format!("{} {}", p.name, names.join(" "))
        })
        .collect();
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use crate::model::load::load;
    use std::path::Path;

    /// Every claim of chess in words: the zone is each owner's first rank.
    #[test]
    fn chess_claims_in_words() {
        let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/chess.rules"));
        let Ok((game, _)) = load(path) else { panic!("chess loads") };
        let words: Vec<String> = game.claims.iter().map(|c| c.property.in_words(&game)).collect();
        assert!(words[1].contains("no Pawn of either player stands in its owner's zone (white a1 b1 c1 d1 e1 f1 g1 h1; black a8 b8 c8 d8 e8 f8 g8 h8)"), "{}", words[1]);
        assert!(words[2].contains("no King stands next to a King of the other player"), "{}", words[2]);
        assert!(words[3].contains("neither player has more than 1 King on the board"), "{}", words[3]);
    }
}
