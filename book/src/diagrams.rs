//! The diagrams of a rulebook: the setup, and each piece's movement.

use crate::render::Diagrams;
use crate::svg::{self, Marks};
use rulebook_interpreter::Variant;

/// Draws the setup (`setup`) and every piece's movement (by the piece's name).
pub fn diagrams(v: &Variant) -> Diagrams {
    let mut out = Diagrams::new();
    if let Ok(start) = v.start() {
        out.insert("setup".to_string(), svg::board(v, &start, &Marks::new()));
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
