//! Notation of the decisions that are not piece moves (issue 13):
//! activations, relocations and passes, written and read in a SAN-like and
//! a coordinate form (LANGUAGE §6.5).
//!
//! | action     | SAN-like        | coordinate   |
//! |------------|-----------------|--------------|
//! | activate   | `A-IV-7-Ost`    | `IV:-7`      |
//! | relocate   | `R-IVd4-IIb2`   | `IVd4>IIb2`  |
//! | exile      | `X-IVd4-IVe5`   | `out:IVd4+IVe5` |
//! | return     | `Z-IVd4-IVc5`   | `in:IVd4>IVc5`  |
//! | pass       | `--`            | `pass`       |
//!
//! An exile names the cells of the pieces taken out of play (the deciding
//! player's own first); a return names the cell the piece left and the cell
//! it comes back to.
//!
//! An activation is written as the rulebook writes it: `A`, the level's
//! label, the number of rows, and the direction's word: the slide item's
//! compass word for the level's axis (`compass "Ost" "West" along file`:
//! towards the axis's first label, towards its last), else the label at the
//! end of the axis it moves towards (`A-IV-7-a`: seven files towards file
//! a). Either word reads, and so do the rows with their sign (`A-IV--7`).
//! The coordinate form is the signed offset as the position text's
//! `frame=` writes it.

use super::{coordinate, parse_among, san_in};
use crate::engine::position::{Move, Position};
use crate::engine::variant::Variant;
use crate::flow::Action;
use crate::model::LetterSet;
use rulebook_grammar::ast::Span;
use crate::engine::frame::level_label;
use rulebook_grammar::Diagnostic;


/// The word for moving level `level` in the direction of `sign` (negative:
/// towards the first label of its axis): the slide item's compass word, else
/// the axis's end label the level moves towards.
pub fn direction_word(v: &Variant, level: u8, negative: bool) -> String {
    let Some(slide) = &v.game.slide else { return if negative { "-".into() } else { "+".into() } };
    let Some(Some(axis)) = slide.axes.get(level as usize) else { return if negative { "-".into() } else { "+".into() } };
    if let Some(Some((first, last))) = slide.compass.get(*axis) {
        return if negative { first.clone() } else { last.clone() };
    }
    let labels = &v.game.geometry.axes[*axis].labels;
    let end = if negative { labels.first() } else { labels.last() };
    end.cloned().unwrap_or_default()
}

/// The coordinate notation of `a`: a move as [`coordinate`] writes it,
/// `IV:-7`, `IVd4>IIb2`, `out:IVd4+IVe5`, `in:IVd4>IVc5`, `pass`.
pub fn action_coordinate(v: &Variant, a: &Action) -> String {
    let geo = &v.game.geometry;
    match a {
        Action::Move(m) => coordinate(v, m),
        Action::Activate { level, rows } => format!("{}:{:+}", level_label(&v.game, *level), rows),
        Action::Relocate { from, to } => format!("{}>{}", geo.name(*from), geo.name(*to)),
        Action::Exile { own, enemy } => format!("out:{}", exiled_cells(v, own, enemy).join("+")),
        Action::Return { from, to, .. } => format!("in:{}>{}", geo.name(*from), geo.name(*to)),
        Action::Pass => "pass".into(),
    }
}

/// The SAN-like notation of `a` in `pos` (a move as [`san_in`] writes it,
/// among `legal`, the moves among the decisions of `pos`): `A-IV-7-Ost`,
/// `R-IVd4-IIb2`, `X-IVd4-IVe5`, `Z-IVd4-IVc5`, `--`.
pub fn action_san(v: &Variant, pos: &Position, a: &Action, legal: &[Move], letters: Option<&LetterSet>) -> String {
    let geo = &v.game.geometry;
    match a {
        Action::Move(m) => san_in(v, pos, m, legal, letters),
        Action::Activate { level, rows } => {
            format!("A-{}-{}-{}", level_label(&v.game, *level), rows.unsigned_abs(), direction_word(v, *level, *rows < 0))
        }
        Action::Relocate { from, to } => format!("R-{}-{}", geo.name(*from), geo.name(*to)),
        Action::Exile { own, enemy } => format!("X-{}", exiled_cells(v, own, enemy).join("-")),
        Action::Return { from, to, .. } => format!("Z-{}-{}", geo.name(*from), geo.name(*to)),
        Action::Pass => "--".into(),
    }
}

/// Every text that names the non-move action `a`.
fn forms(v: &Variant, pos: &Position, a: &Action) -> Vec<String> {
    let mut out = vec![action_coordinate(v, a), action_san(v, pos, a, &[], None)];
    match a {
        Action::Pass => out.extend(["pass".to_string(), "--".to_string()]),
        Action::Activate { level, rows } => {
            // The rows with their sign, as the coordinate form writes them.
            out.push(format!("A-{}-{:+}", level_label(&v.game, *level), rows));
            // The axis's end label, also where compass words are declared.
            if let Some(Some(axis)) = v.game.slide.as_ref().and_then(|s| s.axes.get(*level as usize)) {
                let labels = &v.game.geometry.axes[*axis].labels;
                if let Some(end) = if *rows < 0 { labels.first() } else { labels.last() } {
                    out.push(format!("A-{}-{}-{}", level_label(&v.game, *level), rows.unsigned_abs(), end));
                }
            }
        }
        Action::Move(_) | Action::Relocate { .. } | Action::Exile { .. } | Action::Return { .. } => {}
    }
    out
}

/// The names of the cells an exile empties, the deciding player's own first.
fn exiled_cells(v: &Variant, own: &Option<crate::model::geometry::Cell>, enemy: &Option<crate::model::geometry::Cell>) -> Vec<String> {
    [own, enemy].into_iter().flatten().map(|&c| v.game.geometry.name(c)).collect()
}

/// Finds the one decision of `pos` written as `text`: an activation,
/// relocation or pass in either form, or a move as [`super::parse_move`]
/// reads it (among the moves of the decisions). `letters` fixes the letter
/// set for moves. A text that names no decision is `E0401` (the help lists
/// the decisions); `name` and `offset` say where the text came from.
pub fn parse_action(
    v: &Variant,
    pos: &Position,
    text: &str,
    letters: Option<&LetterSet>,
    name: &str,
    offset: usize,
) -> Result<Action, Diagnostic> {
    let actions = v.actions(pos);
    let word = text.trim().trim_end_matches(['+', '#']);
    let others: Vec<Action> = actions.iter().filter(|a| a.as_move().is_none()).copied().collect();
    let found: Vec<Action> = others.iter().filter(|a| forms(v, pos, a).iter().any(|f| f == word)).copied().collect();
    if let [one] = found.as_slice() {
        return Ok(*one);
    }
    let span = Span::new(offset, offset + text.len().max(1));
    let legal: Vec<Move> = actions.iter().filter_map(|a| a.as_move().copied()).collect();
    if legal.is_empty() || looks_like_action(word) {
        let sample: Vec<String> = actions.iter().take(40).map(|a| action_san(v, pos, a, &legal, letters)).collect();
        let more = if actions.len() > 40 { " …" } else { "" };
        let help = if actions.is_empty() {
            "the game is over: there are no legal decisions".to_string()
        } else {
            format!("the decisions here: {}{more}", sample.join(" "))
        };
        return Err(Diagnostic::error("E0523", name, span, format!("`{}` is not a legal decision here", text.trim()), "no activation, relocation, exile, return, pass or move of this position is written so")
            .with_help(help));
    }
    let moves = parse_among(v, pos, &legal, text, letters, name, offset)?;
    Ok(Action::Move(moves[0]))
}

/// Is `word` written in one of the action forms (so that it is not read as a move)?
fn looks_like_action(word: &str) -> bool {
    word == "--" || word == "pass" || ["A-", "R-", "X-", "Z-", "out:", "in:"].iter().any(|p| word.starts_with(p))
}

/// The decision `text` names among `actions` when it is written in one of
/// the action forms, `None` for any other text (a move, read as before).
pub fn parse_non_move(v: &Variant, pos: &Position, text: &str, name: &str, offset: usize) -> Option<Result<Action, Diagnostic>> {
    let word = text.trim().trim_end_matches(['+', '#']);
    let others: Vec<Action> = v.actions(pos).into_iter().filter(|a| a.as_move().is_none()).collect();
    if others.iter().any(|a| forms(v, pos, a).iter().any(|f| f == word)) || looks_like_action(word) {
        return Some(parse_action(v, pos, text, None, name, offset));
    }
    None
}
