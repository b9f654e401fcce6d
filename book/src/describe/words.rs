//! Small pieces of plain language shared by the describers: lists, zones,
//! piece names, players.

use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::model::{Game, KindId};

/// The most cells of a zone listed by name; beyond, the count is given.
const LISTED: usize = 16;

/// `a`, `a and b`, `a, b and c`.
pub fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    join(items, "and")
}

/// `a`, `a or b`, `a, b or c`.
pub fn or_list<S: AsRef<str>>(items: &[S]) -> String {
    join(items, "or")
}

fn join<S: AsRef<str>>(items: &[S], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(|s| s.as_ref()).collect();
            format!("{} {word} {}", init.join(", "), last.as_ref())
        }
    }
}

/// The name of a kind (`?` for an index out of range).
pub fn kind(game: &Game, k: KindId) -> &str {
    game.kinds.get(k as usize).map_or("?", |k| k.name.as_str())
}

/// A player's name, capitalised (`White`).
pub fn player(game: &Game, color: usize) -> String {
    let name = game.players.get(color).map_or("?", |p| p.name.as_str());
    let mut chars = name.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// A set of cells in words: whole slices of the board (`rank 8`, `ranks 7
/// and 8`, `level VII`) when the cells are exactly those, else the cells by
/// name (at most 16, then how many more).
pub fn zone(game: &Game, cells: &[Cell]) -> String {
    let geo = &game.geometry;
    if cells.is_empty() {
        return "no cell".to_string();
    }
    let board: Vec<Cell> = geo.board_cells().collect();
    if cells.len() == board.len() && board.iter().all(|c| cells.contains(c)) {
        return "any cell".to_string();
    }
    // Whole slices across one axis.
    for (a, axis) in geo.axes.iter().enumerate() {
        let mut values: Vec<usize> = cells.iter().map(|&c| geo.coords(c)[a]).collect();
        values.sort_unstable();
        values.dedup();
        let slice: Vec<Cell> = board.iter().copied().filter(|&c| values.contains(&geo.coords(c)[a])).collect();
        if slice.len() == cells.len() && slice.iter().all(|c| cells.contains(c)) && values.len() < axis.labels.len() {
            let labels: Vec<&str> = values.iter().map(|&v| axis.labels.get(v).map_or("?", |s| s.as_str())).collect();
            let noun = if labels.len() == 1 { axis.name.clone() } else { plural(&axis.name) };
            let consecutive = values.windows(2).all(|w| w[1] == w[0] + 1);
            if consecutive && labels.len() > 2 {
                return format!("{noun} {} to {}", labels[0], labels[labels.len() - 1]);
            }
            return format!("{noun} {}", and_list(&labels));
        }
    }
    let mut names: Vec<String> = cells.iter().take(LISTED).map(|&c| geo.name(c)).collect();
    if cells.len() > LISTED {
        names.push(format!("{} more", cells.len() - LISTED));
    }
    names.join(" ")
}

/// The plural of a noun (`Pawn` → `Pawns`, `Fers` → `Ferses`).
pub fn plural(word: &str) -> String {
    if word.ends_with("man") || word.ends_with("Man") {
        format!("{}en", &word[..word.len() - 2])
    } else if ["s", "x", "z", "ch", "sh"].iter().any(|e| word.ends_with(e)) {
        format!("{word}es")
    } else {
        format!("{word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_english() {
        assert_eq!(and_list(&["a"]), "a");
        assert_eq!(and_list(&["a", "b"]), "a and b");
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
    }
}
