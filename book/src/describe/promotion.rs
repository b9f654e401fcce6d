//! Promotion rules.

use super::words::{kind, or_list, player, zone};
use super::Section;
use rulebook_interpreter::model::Game;

/// The promotion rules, in file order (the last that matches decides).
pub fn promotion(game: &Game) -> Option<Section> {
    if game.promotions.is_empty() {
        return None;
    }
    let items: Vec<String> = game
        .promotions
        .iter()
        .map(|r| {
            // Its own kind among the targets is the choice not to promote.
            let targets: Vec<&str> = r.targets.iter().filter(|&&t| t != r.kind).map(|&t| kind(game, t)).collect();
            let optional = r.targets.contains(&r.kind);
            let (white, black) = (zone(game, &r.zone[0]), zone(game, &r.zone[1]));
            let zones = if white == black { white } else { format!("{white} ({}; {black} for {})", player(game, 0), player(game, 1)) };
            let moving = match (r.from_too, r.capturing) {
                (false, false) => format!("arrives on {zones}"),
                (true, false) => format!("moves into, within or out of {zones}"),
                (false, true) => format!("captures, arriving on {zones}"),
                (true, true) => format!("captures, moving into, within or out of {zones}"),
            };
            let verb = if optional { "may become" } else { "must become" };
            let or_stay = if optional { format!(" or stay a {}", kind(game, r.kind)) } else { String::new() };
            format!("A {} that {moving} {verb} a {}{or_stay}.", kind(game, r.kind), or_list(&targets))
        })
        .collect();
    let mut s = Section::new("Promotion").with_diagram(crate::diagrams::PROMOTION).describes(rulebook_interpreter::model::doc::ItemRef::Promotion).at(&game.promotions[0].file, game.promotions[0].span.start).list(items);
    if game.promotions.len() > 1 {
        s = s.paragraph("Where several rules match one move, the last in this list decides.");
    }
    Some(s)
}
