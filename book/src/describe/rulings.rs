//! Rulings: how an ambiguous passage of the source rulebook is read.

use super::Section;
use rulebook_interpreter::model::Game;

/// One section per ruling: the passage, its source, the reading, what it settles.
pub fn rulings(game: &Game) -> Vec<Section> {
    game.rulings
        .iter()
        .map(|r| {
            let mut s = Section::new(format!("Ruling “{}”", r.name)).describes(rulebook_interpreter::model::doc::ItemRef::Ruling(r.name.clone())).at(&r.file, r.span.start);
            if let Some(source) = &r.source {
                s = s.paragraph(format!("Source: {source}."));
            }
            s = s.quote(r.quote.clone()).paragraph(format!("Reading: {}", r.reading));
            if !r.settles.is_empty() {
                let items: Vec<String> = r.settles.iter().map(|x| format!("`{x}`")).collect();
                s = s.paragraph(format!("Settles: {}.", items.join(", ")));
            }
            s
        })
        .collect()
}
