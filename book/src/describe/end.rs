//! How the game ends.

use super::words::{and_list, kind};
use super::Section;
use rulebook_interpreter::model::{EndCondition, Game, Outcome};

/// The result words for the side to move.
fn result(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "wins",
        Outcome::Lose => "loses",
        Outcome::Draw => "the game is drawn",
    }
}

/// The end conditions and their priority.
pub fn end(game: &Game) -> Section {
    let e = &game.end;
    let mut items = Vec::new();
    let checkmate = e.checkmate.unwrap_or(Outcome::Lose);
    let stalemate = e.stalemate.unwrap_or(Outcome::Draw);
    items.push(format!("Checkmate (no legal move, in check): the side to move {}.", result(checkmate)).replace("the side to move the game", "the game"));
    items.push(format!("Stalemate (no legal move, not in check): the side to move {}.", result(stalemate)).replace("the side to move the game", "the game"));
    if let Some(n) = e.fifty_move {
        let piece = e.fifty_move_piece.map(|k| format!(" or {} move", kind(game, k))).unwrap_or_default();
        let reveal = if e.fifty_move_reveal { " or reveal" } else { "" };
        items.push(format!("Move limit: the game is drawn after {n} moves by each side without a capture{piece}{reveal}."));
    }
    if let Some(n) = e.repetition {
        items.push(format!("Repetition: the game is drawn when one position occurs for the {} time.", ordinal(n)));
    }
    let mut s = Section::new("End of the game").describes(rulebook_interpreter::model::doc::ItemRef::End);
    if let Some((_, span)) = e.spans.first() {
        s = s.at(&e.file, span.start);
    }
    s = s.list(items);
    if !e.priority.is_empty() {
        let pairs: Vec<String> = e.priority.iter().map(|(a, b)| format!("{} over {}", a.keyword(), b.keyword())).collect();
        s = s.paragraph(format!(
            "When several hold on one move, the one with priority decides: {}. Otherwise the order is {}.",
            and_list(&pairs),
            and_list(&EndCondition::ALL.iter().map(|c| c.keyword()).collect::<Vec<_>>())
        ));
    }
    s
}

/// `3rd`.
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
