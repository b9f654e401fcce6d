//! The board, the players and the setup.

use super::words::{and_list, player, plural};
use super::Section;
use rulebook_interpreter::model::Game;

/// The board: its axes with their labels, its cells and holes.
pub fn board(game: &Game) -> Section {
    let geo = &game.geometry;
    let axes: Vec<String> = geo
        .axes
        .iter()
        .map(|a| {
            let first = a.labels.first().map_or("", |s| s.as_str());
            let last = a.labels.last().map_or("", |s| s.as_str());
            format!("{} {} ({first}–{last})", a.labels.len(), if a.labels.len() == 1 { a.name.clone() } else { plural(&a.name) })
        })
        .collect();
    let cells = geo.board_cells().count();
    let holes = geo.cells() - cells;
    let sizes: Vec<String> = geo.axes.iter().map(|a| a.labels.len().to_string()).collect();
    let mut text = format!("The board has {}: {} cells.", and_list(&axes), cells);
    if holes > 0 {
        text.push_str(&format!(" {holes} cells of the {} are holes: no piece may stand on them or pass them.", sizes.join("×")));
    }
    text.push_str(" A cell is named by its labels in order, e.g. `");
    text.push_str(&geo.board_cells().next().map(|c| geo.name(c)).unwrap_or_default());
    text.push_str("`.");
    Section::new("Board").describes(rulebook_interpreter::model::doc::ItemRef::Board).paragraph(text)
}


/// The players, in turn order, and what each one's directions mean.
pub fn players(game: &Game) -> Section {
    let items: Vec<String> = game
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let dirs: Vec<String> = p
                .directions
                .iter()
                .map(|(word, axis, sign)| {
                    let axis = game.geometry.axes.get(*axis).map_or("?", |a| a.name.as_str());
                    format!("*{word}* is towards the {} {axis}", if *sign > 0 { "higher" } else { "lower" })
                })
                .collect();
            let order = if i == 0 { "moves first" } else { "moves second" };
            let royal = if p.no_royal { " This player has no royal piece: never in check, never checkmated." } else { "" };
            let wall = match p.wall {
                None => "",
                Some(rulebook_interpreter::model::WallRule::MovesAnywhere) => " After each move this player moves the wall (a blocker nobody owns, written `*`) to any empty square it did not stand on, as part of the move.",
                Some(rulebook_interpreter::model::WallRule::ShootsFromMoved) => " After each move this player adds a wall (a blocker nobody owns, written `*`) on a square the moved piece could move to from where it landed, as part of the move; walls stay.",
            };
            let royal = format!("{royal}{wall}");
            if dirs.is_empty() {
                format!("{} {order}.{royal}", player(game, i))
            } else {
                format!("{} {order}; {}.{royal}", player(game, i), and_list(&dirs))
            }
        })
        .collect();
    Section::new("Players").describes(rulebook_interpreter::model::doc::ItemRef::Players).paragraph("The players move in turn.").list(items)
}

/// The setup position as FEN.
pub fn setup(game: &Game) -> Section {
    Section::new("Setup").describes(rulebook_interpreter::model::doc::ItemRef::Setup).paragraph(format!(
        "The game starts from this position (FEN, as `rulebook moves --fen` reads it): `{}`.",
        game.setup
    ))
}

/// The other letter sets for move notation.
pub fn letters(game: &Game) -> Section {
    let items = game
        .letter_sets
        .iter()
        .map(|set| {
            let letters: Vec<String> = game.kinds.iter().enumerate().map(|(k, kind)| format!("{} `{}`", kind.name, set.letter(game, k as u8))).collect();
            format!("`{}` (`--letters {}`): {}.", set.name, set.name, letters.join(", "))
        })
        .collect();
    Section::new("Letters").paragraph("Besides the FEN letters, moves may be written and read with these letters:").list(items)
}
