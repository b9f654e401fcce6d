//! The flow state in the position text: the keys `phase=` and `oblige=` of
//! the trailing extension field `{key=value …}`.
//!
//! - `phase=NAME`: the current phase (`phase=play` once play has begun).
//!   Without the key the phase is derived: the first phase not yet over (a
//!   placement phase is over when both hands are empty). It is written only
//!   where it differs from the derived one.
//! - `oblige=w:relocate!,b:move?`: the obligations of the ply in progress,
//!   the head first: the player (`w` first player, `b` second), the action
//!   kind (`move`, `relocate`, `activate`), `!` compulsory or `?` optional;
//!   a relocation of one piece adds `@SQUARE` (`w:relocate@IIc2/1.0!`), and
//!   an obligation a rule queued adds `/RULE.STEP` (the rule's number among
//!   the variant's rules and the step's within its effect, from 0), whose
//!   guards it must meet.
//!   While a ply is in progress the side field names the player whose turn
//!   comes next (the ply's mover is the other one).

use super::phase;
use super::state::{ActionKind, Obligation};
use crate::engine::position::Position;
use crate::model::Game;

/// A problem with one key's value: the byte range within the value and a message.
#[derive(Debug)]
pub struct KeyError {
    /// Start of the bad part, within the value.
    pub start: usize,
    /// End of the bad part, within the value.
    pub end: usize,
    /// What is wrong.
    pub message: String,
}

/// The keys this module reads.
pub const KEYS: [&str; 2] = ["phase", "oblige"];

/// Reads `key=value` into `pos` when `key` is one of [`KEYS`] (`None` for another key).
pub fn read_key(game: &Game, pos: &mut Position, key: &str, value: &str) -> Option<Result<(), KeyError>> {
    match key {
        "phase" => Some(read_phase(game, pos, value)),
        "oblige" => Some(read_oblige(game, pos, value)),
        _ => None,
    }
}

fn read_phase(game: &Game, pos: &mut Position, value: &str) -> Result<(), KeyError> {
    let index = if value == "play" {
        game.phases.len()
    } else {
        game.phases.iter().position(|p| p.name == value).ok_or_else(|| {
            let names: Vec<&str> = game.phases.iter().map(|p| p.name.as_str()).chain(["play"]).collect();
            KeyError { start: 0, end: value.len(), message: format!("no phase `{value}` (the phases are {})", names.join(", ")) }
        })?
    };
    pos.flow.get_or_insert_with(Box::default).phase = index as u8;
    Ok(())
}

fn read_oblige(game: &Game, pos: &mut Position, value: &str) -> Result<(), KeyError> {
    let mut queue = Vec::new();
    let mut at = 0;
    for item in value.split(',') {
        let bad = |message: String| KeyError { start: at, end: at + item.len(), message };
        let (who, rest) = item.split_once(':').ok_or_else(|| bad(format!("`{item}` is not `PLAYER:KIND!` or `PLAYER:KIND?`")))?;
        let player = match who {
            "w" => 0,
            "b" => 1,
            _ => return Err(bad(format!("`{who}` is not a player (`w` or `b`)"))),
        };
        let (word, compulsory) = match (rest.strip_suffix('!'), rest.strip_suffix('?')) {
            (Some(w), _) => (w, true),
            (_, Some(w)) => (w, false),
            _ => return Err(bad(format!("`{item}` must end in `!` (compulsory) or `?` (optional)"))),
        };
        let (word, source) = match word.split_once('/') {
            None => (word, None),
            Some((w, src)) => {
                let parsed = src.split_once('.').and_then(|(r, s)| Some((r.parse::<u8>().ok()?, s.parse::<u8>().ok()?)));
                let source = parsed.filter(|&(r, _)| (r as usize) < game.rules.len()).ok_or_else(|| bad(format!("`{src}` is not RULE.STEP (a rule's number and its step's, from 0)")))?;
                (w, Some(source))
            }
        };
        let (word, from) = match word.split_once('@') {
            None => (word, None),
            Some((w, sq)) => (w, Some(game.geometry.parse_square(sq).ok_or_else(|| bad(format!("`{sq}` is not a square")))?)),
        };
        let kind = ActionKind::from_word(word).ok_or_else(|| bad(format!("`{word}` is not an action kind (`move`, `relocate`, `activate`)")))?;
        queue.push(Obligation { player, kind, compulsory, from, source });
        at += item.len() + 1;
    }
    pos.flow.get_or_insert_with(Box::default).queue = queue;
    Ok(())
}

/// Completes the flow state after the text is read: the derived phase when
/// `phase=` was not given (`had_phase` false), and no state at all when it
/// holds nothing (play, no obligation).
pub fn finish(game: &Game, pos: &mut Position, had_phase: bool) {
    let derived = phase::derive(game, pos) as u8;
    if !had_phase && (derived as usize) < game.phases.len() {
        pos.flow.get_or_insert_with(Box::default).phase = derived;
    } else if !had_phase {
        if let Some(f) = pos.flow.as_mut() {
            f.phase = derived;
        }
    }
    if pos.flow.as_ref().is_some_and(|f| f.queue.is_empty() && f.phase as usize >= game.phases.len()) {
        pos.flow = None;
    }
}

/// The flow keys of `pos` to write, in order (none for a position whose
/// phase is the derived one and that owes nothing).
pub fn write_keys(game: &Game, pos: &Position) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let phase = phase::current(game, pos);
    if phase != phase::derive(game, pos) {
        let name = game.phases.get(phase).map_or("play", |p| p.name.as_str());
        out.push(("phase", name.to_string()));
    }
    if let Some(flow) = pos.flow.as_ref().filter(|f| !f.queue.is_empty()) {
        let items: Vec<String> = flow
            .queue
            .iter()
            .map(|o| {
                let at = o.from.map_or(String::new(), |c| format!("@{}", game.geometry.name(c)));
                let src = o.source.map_or(String::new(), |(r, s)| format!("/{r}.{s}"));
                format!("{}:{}{at}{src}{}", if o.player == 0 { 'w' } else { 'b' }, o.kind.word(), if o.compulsory { '!' } else { '?' })
            })
            .collect();
        out.push(("oblige", items.join(",")));
    }
    out
}
