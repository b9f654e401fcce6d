//! Observation: moving pieces seen by enemy pieces change speed or position.

use super::words::kind;
use super::Section;
use rulebook_interpreter::model::observe::Anchor;
use rulebook_interpreter::model::Game;

/// The `observe` item, if the variant has one.
pub fn observe(game: &Game) -> Option<Section> {
    let o = game.observe.as_ref()?;
    let mut s = Section::new("Observation").describes(rulebook_interpreter::model::doc::ItemRef::Observe).at(&o.file, o.span.start).paragraph(
        "A moving piece is *seen* at the first cell of its way (the cells it passes and the one it lands on; for a leap `via step`, that cell alone) that some enemy piece could capture on, judged with the moving piece lifted off its square. Its observers are the enemy pieces that could capture there. A seen move is not made; instead the player chooses one of:",
    );
    let slowed: Vec<String> = o
        .slow
        .iter()
        .enumerate()
        .filter_map(|(k, to)| to.map(|t| format!("a {} goes on as a {}", kind(game, k as u8), kind(game, t))))
        .collect();
    let mut choices = Vec::new();
    if !slowed.is_empty() {
        choices.push(format!(
            "*Slowed*: from the cell where it was seen (if empty) the piece makes one move of a slower kind, keeping its own: {}. A kind not named here cannot slow down.",
            slowed.join("; ")
        ));
    }
    if let Some(anchor) = o.displace {
        let from = match anchor {
            Anchor::Departure => "the cell it left",
            Anchor::Seen => "the cell where it was seen",
        };
        choices.push(format!(
            "*Displaced*: the piece goes to any cell as many king steps from {from} as it has observers, empty or holding an enemy piece that is not royal (captured), but not the target of a move seen at that cell; a piece that promotes there is promoted."
        ));
    }
    s = s.list(choices).paragraph(
        "Each choice must leave no royal piece of the mover attacked. Moves seen at the same cell give the same choices, listed once; a seen move with no legal choice is lost. Castling and drops are never seen.",
    );
    Some(s)
}
