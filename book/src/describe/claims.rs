//! Claims: properties the rules are said to imply, with the verifier's status.

use super::Section;
use crate::book::Findings;
use rulebook_interpreter::model::doc::ItemRef;
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
    // The author's words on each claim (`##` lines above it).
    let notes: Vec<String> = game
        .claims
        .iter()
        .flat_map(|c| {
            let item = ItemRef::Claim(c.name.clone());
            game.docs.iter().filter(move |d| d.item == item).map(move |d| format!("`{}`: {}", c.name, d.text.replace('\n', " ")))
        })
        .collect();
    Some(
        Section::new("Claims")
            .paragraph("What the rules are said to imply; they change nothing in play. `rulebook check` proves each, establishes it to a depth, or refutes it with a line.")
            .table(vec!["Claim".into(), "Says".into(), "Status".into()], rows)
            .list(notes),
    )
}

/// The verifier's findings: what the rulebook leaves open, and what its rulings settle.
pub fn findings(found: Option<&Findings>) -> Section {
    let s = Section::new("Findings of the verifier");
    let Some(found) = found else {
        return s.paragraph("Not checked: `rulebook check` lists what the rules leave open (ambiguities with witnesses, rules that never apply, gaps).");
    };
    let s = if found.open.is_empty() {
        s.paragraph("`rulebook check` leaves no finding open.")
    } else {
        s.paragraph("Open (`rulebook check` gives each with its witness):").list(found.open.clone())
    };
    if found.settled.is_empty() {
        s
    } else {
        s.paragraph("Settled by the rulings above:").list(found.settled.clone())
    }
}
