//! A piece as its FEN letter in a circle: the first player's pieces white
//! with a dark outline, the second player's dark with a white letter.

use super::writer::{Anchor, Svg};
use rulebook_interpreter::model::{Color, Game, KindId};

/// Fill of the first player's pieces and letter of the second's.
pub const WHITE: &str = "#fff";
/// Fill of the second player's pieces and outline of both.
pub const BLACK: &str = "#222";

/// Outline of a face-down piece.
pub const HIDDEN: &str = "#999";

/// The FEN letter of `kind` for `color` (upper case for the first player;
/// `+P` for a promoted form).
pub fn letter(game: &Game, kind: KindId, color: Color) -> String {
    game.kinds.get(kind as usize).map_or_else(|| "?".to_string(), |k| k.written(color))
}

/// `white` or `black`: the class of `color`'s pieces.
pub fn colour_class(color: Color) -> &'static str {
    if color == 0 {
        "white"
    } else {
        "black"
    }
}

/// What a drawn piece shows.
pub struct Face<'a> {
    /// Its owner.
    pub color: Color,
    /// Its FEN letter.
    pub letter: &'a str,
    /// Face down: its outline is dashed.
    pub dashed: bool,
}

/// Draws `face` centred on `at` with radius `r`; `class` names what it is
/// (`piece`, `hand`) and `extra` adds attributes to its circle.
pub fn draw(svg: &mut Svg, class: &str, at: (f64, f64), r: f64, face: Face<'_>, extra: &str) {
    let Face { color, letter, dashed } = face;
    let (x, y) = at;
    let (fill, ink) = if color == 0 { (WHITE, BLACK) } else { (BLACK, WHITE) };
    // A face-down piece's outline is dashed, in a grey both fills show.
    let outline = if dashed {
        format!(" stroke=\"{HIDDEN}\" stroke-width=\"2\" stroke-dasharray=\"3 2\"{extra}")
    } else {
        format!(" stroke=\"{BLACK}\" stroke-width=\"1.5\"{extra}")
    };
    svg.circle(&format!("{class} {}", colour_class(color)), (x, y), r, fill, &outline);
    svg.text("letter", (x, y + r * 0.42), r * 1.2, Anchor::Middle, ink, letter);
}
