//! Worked examples (`example "NAME" { … }`, LANGUAGE §3.22): a position, a
//! line of moves and what must hold after it. Lowering checks that the
//! position is valid and every move of the line legal (E0181, E0182);
//! [`crate::engine::example::run_example`] checks the expectation.

use crate::model::Color;
use rulebook_grammar::ast::Span;

/// One `example` item of the variant's own file (examples are not inherited:
/// a parent's example speaks of the parent's rules).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Example {
    /// Its name.
    pub name: String,
    /// `position "FEN"`: where it starts; `None`: the setup.
    pub position: Option<String>,
    /// Where the position's string was written (quotes included).
    pub position_span: Option<Span>,
    /// `letters NAME`: the letter set its move texts are written in (`None`: any set, as `--play` reads).
    pub letters: Option<String>,
    /// `play "…"`: the line of moves, as written.
    pub play: Option<String>,
    /// Where the line's string was written (quotes included).
    pub play_span: Option<Span>,
    /// What must hold after the line.
    pub expect: Expectation,
    /// Where the expectation was written.
    pub expect_span: Span,
    /// The whole item.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}

/// What an example expects after its line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expectation {
    /// `moves "…"`: the legal decisions, in SAN as `rulebook moves` writes them, are exactly these.
    Moves(Vec<String>),
    /// `moves include "…"`: each of these is a legal decision.
    Includes(Vec<String>),
    /// `moves count N`: the number of legal decisions (each chance outcome counted).
    Count(u32),
    /// `result …`: how the game stands.
    Result(ExpectedResult),
}

/// An expected result (`result checkmate, black wins`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExpectedResult {
    /// `ongoing`: the game is not over.
    Ongoing,
    /// The game is over by `end`; `winner`: the player who won (`None`: drawn).
    Over {
        /// How it ended.
        end: ExpectedEnd,
        /// Who won; `None` for a draw.
        winner: Option<Color>,
    },
}

/// How an example's game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExpectedEnd {
    /// `checkmate`.
    Checkmate,
    /// `stalemate`.
    Stalemate,
    /// `move-limit`: the fifty-move-style draw rule.
    MoveLimit,
    /// `repetition`.
    Repetition,
    /// `rule "NAME"`: the `rule` item with this index in [`crate::model::Game::rules`].
    Rule(usize),
}

impl Example {
    /// The moves of the `play` line with their byte offsets in the file
    /// (move numbers such as `1.` and `1...` dropped, as `--play` reads them).
    pub fn line(&self) -> Vec<(usize, &str)> {
        let (Some(text), Some(span)) = (&self.play, self.play_span) else { return Vec::new() };
        let base = span.start + 1;
        let mut out = Vec::new();
        let mut at = 0;
        for word in text.split(' ') {
            let word_at = at;
            at += word.len() + 1;
            let mv = word.rsplit('.').next().unwrap_or(word);
            if !mv.is_empty() {
                out.push((base + word_at + word.len() - mv.len(), mv));
            }
        }
        out
    }

    /// The offset in the file of the position text's first character.
    pub fn position_offset(&self) -> usize {
        self.position_span.map_or(self.span.start, |s| s.start + 1)
    }
}
