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
//!   comes next (the ply's mover is the other one). An exile names the level
//!   it takes pieces from once the activation before it is made
//!   (`w:exile@IV/1.2?`).
//! - `out=PIVd4>w~IV@-3:IVd4+IVe4*^,…`: the pieces out of play: the piece's
//!   letter (upper case: the first player's) and the cell it left; `>` and
//!   who may return it (`w`, `b`, `-` nobody); `~LEVEL@OFFSET` the level
//!   whose swing is its deadline and that level's offset when it left (no
//!   deadline without it); `:` its return cells joined by `+`; `*` taken in
//!   the ply in progress; `^` an enemy piece passes to its owner when the
//!   deadline is missed.
//! - `waived=2w,3b`: in a ply in progress, the rules (by number) whose
//!   optional step a player waived.

use super::out_of_play::OutOfPlay;
use crate::engine::frame::{level_index, level_label};
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
pub const KEYS: [&str; 4] = ["phase", "oblige", "out", "waived"];

/// Reads `key=value` into `pos` when `key` is one of [`KEYS`] (`None` for another key).
pub fn read_key(game: &Game, pos: &mut Position, key: &str, value: &str) -> Option<Result<(), KeyError>> {
    match key {
        "phase" => Some(read_phase(game, pos, value)),
        "oblige" => Some(read_oblige(game, pos, value)),
        "out" => Some(read_out(game, pos, value)),
        "waived" => Some(read_waived(game, pos, value)),
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
        let (word, at_text) = match word.split_once('@') {
            None => (word, None),
            Some((w, sq)) => (w, Some(sq)),
        };
        let kind = ActionKind::from_word(word).ok_or_else(|| bad(format!("`{word}` is not an action kind (`move`, `relocate`, `activate`, `exile`, `return`)")))?;
        let (mut from, mut level) = (None, None);
        match (kind, at_text) {
            (_, None) => {}
            (ActionKind::Exile, Some(l)) => level = Some(level_index(game, l).ok_or_else(|| bad(format!("`{l}` is not a level that slides")))?),
            (_, Some(sq)) => from = Some(game.geometry.parse_square(sq).ok_or_else(|| bad(format!("`{sq}` is not a square")))?),
        }
        queue.push(Obligation { player, kind, compulsory, from, source, level });
        at += item.len() + 1;
    }
    pos.flow.get_or_insert_with(Box::default).queue = queue;
    Ok(())
}

fn player_letter(c: Option<crate::model::Color>) -> char {
    match c {
        Some(0) => 'w',
        Some(_) => 'b',
        None => '-',
    }
}

fn read_out(game: &Game, pos: &mut Position, value: &str) -> Result<(), KeyError> {
    let mut out = Vec::new();
    let mut at = 0;
    for item in value.split(',') {
        let bad = |message: String| KeyError { start: at, end: at + item.len().max(1), message };
        let shape = "`LETTER CELL>HOLDER[~LEVEL@OFFSET]:CELL+CELL…[*][^]`, e.g. `PIVd4>w~IV@-3:IVd4*`";
        let mut chars = item.chars();
        let letter = chars.next().ok_or_else(|| bad(format!("an empty entry: write {shape}")))?;
        let kind = game.kinds.iter().position(|k| k.letter == letter.to_ascii_uppercase()).ok_or_else(|| bad(format!("`{letter}` is not a piece letter")))?;
        let piece = crate::engine::position::code(kind as u8, u8::from(letter.is_ascii_lowercase()));
        let rest = chars.as_str();
        let (origin, rest) = rest.split_once('>').ok_or_else(|| bad(format!("no `>HOLDER`: write {shape}")))?;
        let origin = game.geometry.parse_square(origin).ok_or_else(|| bad(format!("`{origin}` is not a square")))?;
        let mut rest = rest;
        let flag = |c: char, rest: &mut &str| -> bool {
            match rest.strip_suffix(c) {
                Some(r) => {
                    *rest = r;
                    true
                }
                None => false,
            }
        };
        let to_owner = flag('^', &mut rest);
        let fresh = flag('*', &mut rest);
        let (head, cells) = rest.split_once(':').ok_or_else(|| bad(format!("no `:` and return cells: write {shape}")))?;
        let holder = match head.chars().next() {
            Some('w') => Some(0),
            Some('b') => Some(1),
            Some('-') => None,
            _ => return Err(bad(format!("`{head}` does not start with a holder (`w`, `b` or `-`)"))),
        };
        let (level, anchor) = match head[1..].strip_prefix('~') {
            None if head.len() == 1 => (None, 0),
            None => return Err(bad(format!("unexpected `{}` after the holder", &head[1..]))),
            Some(l) => {
                let (label, off) = l.split_once('@').ok_or_else(|| bad("a deadline is `~LEVEL@OFFSET`".into()))?;
                let level = level_index(game, label).ok_or_else(|| bad(format!("`{label}` is not a level that slides")))?;
                let anchor = off.parse::<i8>().map_err(|_| bad(format!("`{off}` is not a signed number of rows")))?;
                (Some(level), anchor)
            }
        };
        let cells = cells
            .split('+')
            .map(|c| game.geometry.parse_square(c).ok_or_else(|| bad(format!("`{c}` is not a square"))))
            .collect::<Result<Vec<_>, _>>()?;
        out.push(OutOfPlay { piece, origin, holder, level, anchor, cells, fresh, to_owner });
        at += item.len() + 1;
    }
    pos.flow.get_or_insert_with(Box::default).out = out;
    Ok(())
}

fn read_waived(game: &Game, pos: &mut Position, value: &str) -> Result<(), KeyError> {
    let mut waived = Vec::new();
    let mut at = 0;
    for item in value.split(',') {
        let bad = |message: String| KeyError { start: at, end: at + item.len().max(1), message };
        let cut = item.char_indices().last().map_or(0, |(i, _)| i);
        let (rule, who) = item.split_at(cut);
        let rule = rule.parse::<u8>().ok().filter(|&r| (r as usize) < game.rules.len()).ok_or_else(|| bad(format!("`{item}` is not RULE PLAYER (a rule's number from 0, then `w` or `b`)")))?;
        let player = match who {
            "w" => 0,
            "b" => 1,
            _ => return Err(bad(format!("`{who}` is not a player (`w` or `b`)"))),
        };
        waived.push((rule, player));
        at += item.len() + 1;
    }
    pos.flow.get_or_insert_with(Box::default).waived = waived;
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
    if pos.flow.as_ref().is_some_and(|f| f.is_empty(game)) {
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
                let at = match (o.from, o.level) {
                    (Some(c), _) => format!("@{}", game.geometry.name(c)),
                    (None, Some(l)) => format!("@{}", level_label(game, l)),
                    (None, None) => String::new(),
                };
                let src = o.source.map_or(String::new(), |(r, s)| format!("/{r}.{s}"));
                format!("{}:{}{at}{src}{}", if o.player == 0 { 'w' } else { 'b' }, o.kind.word(), if o.compulsory { '!' } else { '?' })
            })
            .collect();
        out.push(("oblige", items.join(",")));
    }
    if let Some(flow) = pos.flow.as_ref().filter(|f| !f.out.is_empty()) {
        let items: Vec<String> = flow
            .out
            .iter()
            .map(|e| {
                let k = &game.kinds[crate::engine::position::kind_of(e.piece) as usize];
                let letter = if crate::engine::position::color_of(e.piece) == 0 { k.letter } else { k.letter.to_ascii_lowercase() };
                let deadline = e.level.map_or(String::new(), |l| format!("~{}@{:+}", level_label(game, l), e.anchor));
                let cells: Vec<String> = e.cells.iter().map(|&c| game.geometry.name(c)).collect();
                format!(
                    "{letter}{}>{}{deadline}:{}{}{}",
                    game.geometry.name(e.origin),
                    player_letter(e.holder),
                    cells.join("+"),
                    if e.fresh { "*" } else { "" },
                    if e.to_owner { "^" } else { "" }
                )
            })
            .collect();
        out.push(("out", items.join(",")));
    }
    if let Some(flow) = pos.flow.as_ref().filter(|f| !f.waived.is_empty()) {
        let items: Vec<String> = flow.waived.iter().map(|&(r, p)| format!("{r}{}", player_letter(Some(p)))).collect();
        out.push(("waived", items.join(",")));
    }
    out
}
