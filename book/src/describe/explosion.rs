//! Explosions: every capture removes the pieces around its target square.

use super::words::{and_list, kind};
use super::Section;
use rulebook_interpreter::model::doc::ItemRef;
use rulebook_interpreter::model::Game;

/// The `explosion` item, if the variant has one.
pub fn explosion(game: &Game) -> Option<Section> {
    let x = game.explosion.as_ref()?;
    let reach = match x.radius {
        0 => "Nothing around the target square is touched.".to_string(),
        1 => "Every piece on the cells next to the target square (one king step away, diagonally included) goes too.".to_string(),
        r => format!("Every piece within {r} king steps of the target square goes too."),
    };
    let names = |kinds: &[u8]| -> Vec<String> { kinds.iter().map(|&k| kind(game, k).to_string()).collect() };
    let mut s = Section::new("Explosions")
        .describes(ItemRef::Explosion)
        .at(&x.file, x.span.start)
        .paragraph(format!("Every capture is an explosion on the target square: the captured piece and the capturing piece leave the board. {reach}"));
    let mut notes = Vec::new();
    if !x.spares.is_empty() && x.radius > 0 {
        notes.push(format!("Spared around the target: {} (a capturing or captured one still goes).", and_list(&names(&x.spares))));
    }
    if !x.immune.is_empty() {
        notes.push(format!("Never removed by an explosion, not even when capturing: {}.", and_list(&names(&x.immune))));
    }
    if game.kinds.iter().any(|k| k.royal) {
        notes.push(
            "A move may not blow up a royal piece of its own. A move that blows up a royal piece of the opponent is legal even if it leaves the mover's own royal piece attacked. A royal piece next to an enemy royal piece is not attacked: capturing it would blow up the capturer's own.".to_string(),
        );
    }
    s = s.list(notes);
    Some(s)
}
