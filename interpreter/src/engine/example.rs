//! Running a worked example (`example` items, LANGUAGE §3.22): its position,
//! its line played decision by decision, and its expectation compared with
//! what the engine finds. `cargo test` (interpreter/tests/rule_examples.rs)
//! and `rulebook doc` share [`run_example`].

use crate::engine::position::Position;
use crate::engine::variant::{Status, Variant};
use crate::flow::Action;
use crate::model::example::{Example, Expectation, ExpectedEnd, ExpectedResult};
use crate::model::{Game, LetterSet, Outcome};
use crate::text::fen::{self, FenSource};
use crate::text::notation;
use rulebook_grammar::ast::Span;
use rulebook_grammar::Diagnostic;
use std::collections::BTreeSet;
use std::fmt;

/// An example that ran and whose expectation held: what a generated rulebook draws.
#[derive(Clone, Debug)]
pub struct ExampleRun {
    /// The example's position (its `position`, or the setup).
    pub start: Position,
    /// The position after the line.
    pub end: Position,
    /// The positions before each decision of the line (for repetition and drawing the line).
    pub earlier: Vec<Position>,
    /// The legal decisions after the line, in SAN as `rulebook moves` writes
    /// them (in the example's letter set), sorted.
    pub decisions: Vec<String>,
    /// How the game stands after the line.
    pub status: Status,
}

/// Why an example failed.
#[derive(Clone, Debug)]
pub enum ExampleFailure {
    /// The position does not parse (lowering reports it as E0181 first).
    Position(Diagnostic),
    /// A move of the line is not a legal decision (lowering reports it as E0182 first).
    Play(Diagnostic),
    /// `moves "…"` / `moves include "…"`: the legal decisions differ.
    Moves {
        /// Expected, not legal.
        missing: Vec<String>,
        /// Legal, not expected (empty for `include`).
        unexpected: Vec<String>,
    },
    /// `moves count N`: another number of legal decisions.
    Count {
        /// The number expected.
        expected: u32,
        /// The number found.
        found: usize,
    },
    /// `result …`: the game stands otherwise.
    Result {
        /// The result expected, in words.
        expected: String,
        /// The result found, in words.
        found: String,
    },
}

impl fmt::Display for ExampleFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExampleFailure::Position(d) => write!(f, "the position is not valid: {}", d.message),
            ExampleFailure::Play(d) => write!(f, "the line cannot be played: {}", d.message),
            ExampleFailure::Moves { missing, unexpected } => {
                write!(f, "the legal moves differ")?;
                if !missing.is_empty() {
                    write!(f, "; expected but not legal: {}", missing.join(" "))?;
                }
                if !unexpected.is_empty() {
                    write!(f, "; legal but not expected: {}", unexpected.join(" "))?;
                }
                Ok(())
            }
            ExampleFailure::Count { expected, found } => write!(f, "expected {expected} legal moves, found {found}"),
            ExampleFailure::Result { expected, found } => write!(f, "expected the result `{expected}`, found `{found}`"),
        }
    }
}

/// The example's letter set, if it names one.
fn letters<'a>(v: &'a Variant, e: &Example) -> Option<&'a LetterSet> {
    e.letters.as_deref().and_then(|n| v.game.letter_set(n))
}

/// The example's position: its `position` parsed (diagnostics point into its
/// file), or the setup.
pub fn start_position(v: &Variant, e: &Example) -> Result<Position, Diagnostic> {
    match &e.position {
        Some(text) => fen::parse(&v.game, &v.tables, text, &FenSource { name: &e.file, offset: e.position_offset() }),
        None => v.start(),
    }
}

/// Plays the example's line from `start`: the position after it and the
/// positions before each decision. A move that is not a legal decision
/// (or leaves a chance outcome open) fails with its index in
/// [`Example::line`] and a diagnostic pointing into the file.
pub fn play_line(v: &Variant, e: &Example, start: Position) -> Result<(Position, Vec<Position>), (usize, Diagnostic)> {
    let set = letters(v, e);
    let mut pos = start;
    let mut earlier = Vec::new();
    for (index, (at, mv)) in e.line().into_iter().enumerate() {
        let action = read_decision(v, &pos, mv, set, &e.file, at).map_err(|d| (index, d))?;
        let next = v.apply(&pos, &action);
        earlier.push(std::mem::replace(&mut pos, next));
    }
    Ok((pos, earlier))
}

/// The one decision `text` names in `pos`, as `--play` reads it (in `set` when given).
fn read_decision(v: &Variant, pos: &Position, text: &str, set: Option<&LetterSet>, file: &str, at: usize) -> Result<Action, Diagnostic> {
    if let Some(read) = notation::action::parse_non_move(v, pos, text, file, at) {
        return read;
    }
    if set.is_none() {
        return notation::parse_move(v, pos, text, file, at).map(Action::Move);
    }
    let found = notation::parse_candidates(v, pos, text, set, file, at)?;
    match found.as_slice() {
        [one] => Ok(Action::Move(*one)),
        _ => {
            let legal = v.legal_moves(pos);
            let all: Vec<String> = found.iter().take(12).map(|m| notation::san_plain_in(v, pos, m, &legal, set)).collect();
            Err(Diagnostic::error("E0403", file, Span::new(at, at + text.len().max(1)), format!("`{text}` leaves the chance outcome open"), "which outcome?")
                .with_help(format!("write the outcome too, one of: {}", all.join(" "))))
        }
    }
}

/// The legal decisions of `pos` in SAN (in `set`), as `rulebook moves` writes them, sorted.
pub fn decisions_san(v: &Variant, pos: &Position, set: Option<&LetterSet>) -> Vec<String> {
    let actions = v.actions(pos);
    let legal: Vec<_> = actions.iter().filter_map(|a| a.as_move().copied()).collect();
    let mut out: Vec<String> = actions
        .iter()
        .map(|a| match a {
            Action::Move(m) => notation::san_in(v, pos, m, &legal, set),
            other => notation::action::action_san(v, pos, other, &legal, set),
        })
        .collect();
    out.sort();
    out
}

/// A result in the words of an example (`checkmate, black wins`), for the
/// side to move `side` and the status found.
pub fn status_words(game: &Game, status: Status, side: u8) -> String {
    let winner = |o: Outcome| match o {
        Outcome::Win => format!("{} wins", game.players[side as usize & 1].name),
        Outcome::Lose => format!("{} wins", game.players[(side as usize & 1) ^ 1].name),
        Outcome::Draw => "draw".to_string(),
    };
    match status {
        Status::Ongoing => "ongoing".into(),
        Status::Checkmate(o) => format!("checkmate, {}", winner(o)),
        Status::Stalemate(o) => format!("stalemate, {}", winner(o)),
        Status::FiftyMoves => "move-limit, draw".into(),
        Status::Repetition => "repetition, draw".into(),
        Status::Rule { rule, outcome } => format!("rule \"{}\", {}", game.rules.get(rule).map_or("", |r| r.name.as_str()), winner(outcome)),
    }
}

/// An expected result in the words of an example.
pub fn expected_words(game: &Game, r: &ExpectedResult) -> String {
    match r {
        ExpectedResult::Ongoing => "ongoing".into(),
        ExpectedResult::Over { end, winner } => {
            let end = match end {
                ExpectedEnd::Checkmate => "checkmate".to_string(),
                ExpectedEnd::Stalemate => "stalemate".to_string(),
                ExpectedEnd::MoveLimit => "move-limit".to_string(),
                ExpectedEnd::Repetition => "repetition".to_string(),
                ExpectedEnd::Rule(i) => format!("rule \"{}\"", game.rules.get(*i).map_or("", |r| r.name.as_str())),
            };
            match winner {
                Some(c) => format!("{end}, {} wins", game.players[*c as usize & 1].name),
                None => format!("{end}, draw"),
            }
        }
    }
}

/// Runs `e` in `v`: parses its position, plays its line, and compares its
/// expectation with the legal decisions (as a set of SAN texts), their
/// number, or the game's status after the line.
pub fn run_example(v: &Variant, e: &Example) -> Result<ExampleRun, ExampleFailure> {
    let start = start_position(v, e).map_err(ExampleFailure::Position)?;
    let (end, earlier) = play_line(v, e, start.clone()).map_err(|(_, d)| ExampleFailure::Play(d))?;
    let decisions = decisions_san(v, &end, letters(v, e));
    let status = v.status_in_game(&end, &earlier);
    match &e.expect {
        Expectation::Moves(want) | Expectation::Includes(want) => {
            let found: BTreeSet<&str> = decisions.iter().map(String::as_str).collect();
            let wanted: BTreeSet<&str> = want.iter().map(String::as_str).collect();
            let missing: Vec<String> = wanted.difference(&found).map(|s| s.to_string()).collect();
            let unexpected: Vec<String> = match &e.expect {
                Expectation::Moves(_) => found.difference(&wanted).map(|s| s.to_string()).collect(),
                _ => Vec::new(),
            };
            if !missing.is_empty() || !unexpected.is_empty() {
                return Err(ExampleFailure::Moves { missing, unexpected });
            }
        }
        Expectation::Count(n) => {
            if decisions.len() != *n as usize {
                return Err(ExampleFailure::Count { expected: *n, found: decisions.len() });
            }
        }
        Expectation::Result(r) => {
            let expected = expected_words(&v.game, r);
            let found = status_words(&v.game, status, v.decider(&end));
            if expected != found {
                return Err(ExampleFailure::Result { expected, found });
            }
        }
    }
    Ok(ExampleRun { start, end, earlier, decisions, status })
}
