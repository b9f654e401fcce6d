//! Claims: properties the rules are said to imply, with the verifier's status.

use super::Section;
use rulebook_interpreter::model::Game;

/// The claims as a table: name, what it says, status (from `status`, by claim name).
pub fn claims(game: &Game, status: &dyn Fn(&str) -> Option<String>) -> Option<Section> {
    if game.claims.is_empty() {
        return None;
    }
    let rows = game
        .claims
        .iter()
        .map(|c| vec![format!("`{}`", c.name), c.property.in_words(game), status(&c.name).unwrap_or_else(|| "not checked (run `rulebook check`)".to_string())])
        .collect();
    Some(
        Section::new("Claims")
            .paragraph("What the rules are said to imply; they change nothing in play. `rulebook check` proves each, establishes it to a depth, or refutes it with a line.")
            .table(vec!["Claim".into(), "Says".into(), "Status".into()], rows),
    )
}
