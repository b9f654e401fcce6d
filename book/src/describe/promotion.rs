//! Promotion rules.

use super::words::{kind, or_list, player, zone};
use super::Section;
use rulebook_interpreter::model::{Game, PromotionMove};

/// The promotion rules, in file order (the last that matches decides).
pub fn promotion(game: &Game) -> Option<Section> {
    if game.promotions.is_empty() && game.promotion_moves.is_empty() {
        return None;
    }
    let mut items: Vec<String> = game
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
    items.extend(game.promotion_moves.iter().map(|m| promotion_move(game, m)));
    let (file, start) = match (game.promotions.first(), game.promotion_moves.first()) {
        (Some(r), _) => (&r.file, r.span.start),
        (None, Some(m)) => (&m.file, m.span.start),
        (None, None) => return None,
    };
    let mut s = Section::new("Promotion").with_diagram(crate::diagrams::PROMOTION).describes(rulebook_interpreter::model::doc::ItemRef::Promotion).at(file, start).list(items);
    if game.promotions.len() > 1 {
        s = s.paragraph("Where several rules match one move, the last in this list decides.");
    }
    Some(s)
}

/// A promotion made as a move of its own (`… becomes Fers in place`).
fn promotion_move(game: &Game, m: &PromotionMove) -> String {
    let targets: Vec<&str> = m.targets.iter().map(|&t| kind(game, t)).collect();
    let standing = match &m.zone {
        None => String::new(),
        Some(z) => {
            let (white, black) = (zone(game, &z[0]), zone(game, &z[1]));
            if white == black { format!(" standing on {white}") } else { format!(" standing on {white} ({}; {black} for {})", player(game, 0), player(game, 1)) }
        }
    };
    let whither = if m.quiet_move { " where it stands or on an empty cell the new piece could move to from there" } else { " where it stands" };
    let mut text = format!("Instead of moving, a {}{standing} may become a {}{whither}", kind(game, m.kind), or_list(&targets));
    if let Some(g) = &m.guard {
        text += &format!(", only when {}", super::cond::cond(game, g));
    }
    match (m.no_check, m.no_attack) {
        (true, true) => text += "; such a promotion may not give check, and the new piece may not attack an enemy piece",
        (true, false) => text += "; such a promotion may not give check",
        (false, true) => text += "; the new piece may not attack an enemy piece",
        (false, false) => {}
    }
    text + "."
}
