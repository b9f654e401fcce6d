//! Chance and hidden information: dice, face-down pieces, tunnelling.

use super::words::{and_list, kind};
use super::Section;
use rulebook_interpreter::model::{Game, SeenBy};

/// The dice, if any.
pub fn dice(game: &Game) -> Option<Section> {
    if game.dice.is_empty() {
        return None;
    }
    let items = game.dice.iter().map(|d| format!("`{}`: {} faces, numbered 1 to {}, each equally likely (1/{}).", d.name, d.faces, d.faces, d.faces)).collect();
    Some(Section::new("Dice").paragraph("Chance events roll these dice:").list(items))
}

/// Face-down pieces, if the variant has them.
pub fn hidden(game: &Game) -> Option<Section> {
    let h = game.hidden.as_ref()?;
    let kinds: Vec<&str> = h.kinds.iter().map(|&k| kind(game, k)).collect();
    let seen = match h.seen_by {
        SeenBy::Capturer => "only the player who captured it learns what it was",
        SeenBy::Both => "both players learn what it was",
        SeenBy::Nobody => "nobody learns what it was: it leaves the game unseen",
    };
    Some(Section::new("Hidden pieces").describes(rulebook_interpreter::model::doc::ItemRef::Hidden).at(&h.file, h.span.start).paragraph(format!(
        "In the setup every {} stands face down. A face-down piece moves as the piece the setup has on its square (its disguise). When it moves it is turned face up on arrival: what it is is drawn from its owner's pool (the pieces of that player still face down), each kind with probability count / total. A captured face-down piece is drawn from its owner's pool the same way; {seen}.",
        and_list(&kinds)
    )))
}

/// Tunnelling, if the variant has it.
pub fn tunnel(game: &Game) -> Option<Section> {
    let t = game.tunnel.as_ref()?;
    let die = game.dice.get(t.die);
    let faces: Vec<String> = t.through_faces.iter().map(|f| f.to_string()).collect();
    let odds = die.map(|d| format!(" (probability {}/{})", t.through_faces.len(), d.faces)).unwrap_or_default();
    Some(Section::new("Tunnelling").describes(rulebook_interpreter::model::doc::ItemRef::Tunnel).at(&t.file, t.span.start).paragraph(format!(
        "A conventional piece may ride to the empty cell directly behind one enemy conventional piece on its line. The die `{}` is rolled: on {}{odds} it passes through; otherwise it bounces back (the position stays as it was and the turn passes).",
        die.map_or("?", |d| d.name.as_str()),
        and_list(&faces)
    )))
}
