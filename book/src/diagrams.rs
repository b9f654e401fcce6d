//! The diagrams of a rulebook: the setup, and each piece's movement.

use crate::render::Diagrams;
use crate::svg::{self, Marks};
use rulebook_interpreter::Variant;

/// The name of the diagram of the promotion zones.
pub const PROMOTION: &str = "promotion zones";

/// Draws the setup (`setup`) and every piece's movement (by the piece's name).
pub fn diagrams(v: &Variant) -> Diagrams {
    let mut out = Diagrams::new();
    if let Ok(start) = v.start() {
        out.insert("setup".to_string(), svg::board(v, &start, &Marks::new()));
    }
    // The promotion zones, each player's marked on the empty board.
    if let (Ok(start), false) = (v.start(), v.game.promotions.is_empty()) {
        let mut empty = start.clone();
        for c in v.game.geometry.board_cells() {
            if empty.board[c as usize] != 0 {
                empty.take(c, &v.tables);
            }
        }
        let mut marks = Marks::new();
        for (i, player) in v.game.players.iter().enumerate() {
            let mut cells: Vec<_> = v.game.promotions.iter().flat_map(|r| r.zone[i].iter().copied()).collect();
            cells.sort_unstable();
            cells.dedup();
            marks = marks.add(format!("{}'s promotion zone", player.name), cells);
        }
        out.insert(PROMOTION.to_string(), svg::board(v, &empty, &marks));
    }
    for e in &v.game.examples {
        if let Ok(run) = rulebook_interpreter::engine::example::run_example(v, e) {
            out.insert(crate::describe::examples::diagram_name(&e.name), svg::board(v, &run.end, &Marks::new()));
        }
    }
    for (k, kind) in v.game.kinds.iter().enumerate() {
        if let Some(drawn) = svg::movement(v, k as u8) {
            out.insert(kind.name.clone(), drawn);
        }
    }
    out
}
