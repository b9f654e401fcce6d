//! The subcommands, and what they share: loading a variant through the
//! database and reading the position to start from.

pub mod check;
pub mod doc;
pub mod fmt;
pub mod moves;
pub mod perft;
pub mod play;
pub mod replay;

use crate::db::{compile, Database, Db, SourceFile};
use crate::report::{self, ExtraSources, Failure, EXIT_USAGE};
use rulebook_interpreter::{text::notation, Position, Variant};
use std::path::Path;

/// What every command needs to know about how to report.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// Colour the reports on stderr.
    pub color: bool,
}

/// A variant loaded from its rules file, with the database that holds its
/// sources (to render later diagnostics against them).
pub struct Loaded {
    /// The database.
    pub db: Database,
    /// The compiled variant.
    pub variant: Variant,
    /// Sources that are not rules files (`<--fen>`, a suite).
    pub extra: ExtraSources,
}

impl Loaded {
    /// Renders `diags` against the loaded sources.
    pub fn render(&self, diags: &[rulebook_grammar::Diagnostic], color: bool) -> String {
        report::render(diags, |name| self.source(name), color)
    }

    /// The text of the source diagnostics call `name`.
    pub fn source(&self, name: &str) -> Option<String> {
        self.extra.0.get(name).cloned().or_else(|| self.db.source_text(name))
    }

    /// A usage failure (exit 2) reporting `d`, rendered and for `--json`.
    pub fn failure(&self, d: &rulebook_grammar::Diagnostic, cx: Context) -> Failure {
        let mut failure = Failure::reports(EXIT_USAGE, self.render(std::slice::from_ref(d), cx.color))
            .with_diagnostics(std::slice::from_ref(d), |name| self.source(name));
        failure.message = d.message.clone();
        failure
    }
}

/// Registers the rules file at `path`; an unreadable file is a usage error.
pub fn open(db: &Database, path: &Path) -> Result<SourceFile, Failure> {
    let file = db.file(path);
    match file.read_error(db) {
        Some(e) => Err(Failure::usage(format!(
            "cannot read the rules file `{}`: {e}",
            path.display()
        ))),
        None => Ok(file),
    }
}

/// Reads and compiles the rules file at `path`. Problems in the rules are
/// rendered and end the command with status 2 (the input cannot be used).
pub fn load(path: &Path, cx: Context) -> Result<Loaded, Failure> {
    let db = Database::default();
    let file = open(&db, path)?;
    match compile(&db, file) {
        Ok(game) => {
            let variant = Variant::new(game.clone());
            Ok(Loaded {
                db,
                variant,
                extra: ExtraSources::default(),
            })
        }
        Err(diags) => {
            let text = report::render(diags, |name| db.source_text(name), cx.color);
            let n = report::error_count(diags);
            Err(Failure::reports(
                EXIT_USAGE,
                format!(
                    "{text}error: cannot use `{}`: {} found\n",
                    path.display(),
                    report::plural(n, "error")
                ),
            )
            .with_diagnostics(diags, |name| db.source_text(name)))
        }
    }
}

/// Plays the decisions of `--play` (moves, activations, relocations, passes; whitespace-separated; move numbers such as
/// `1.` or `12...` are skipped) from `pos`. Returns the final position and the
/// positions before it, oldest first (for repetition). A bad move is a report
/// pointing into the `<--play>` text.
pub fn play_line(
    loaded: &mut Loaded,
    mut pos: Position,
    line: Option<&str>,
    cx: Context,
) -> Result<(Position, Vec<Position>), Failure> {
    let mut earlier = Vec::new();
    let Some(line) = line else { return Ok((pos, earlier)) };
    loaded.extra.insert("<--play>", line);
    let mut at = 0;
    for word in line.split(' ') {
        let word_at = at;
        at += word.len() + 1;
        // `1.e4` and `1...e5` carry the move number in front of the move.
        let mv = word.rsplit('.').next().unwrap_or(word);
        if mv.is_empty() {
            continue;
        }
        let mv_at = word_at + word.len() - mv.len();
        // An activation, relocation or pass (LANGUAGE §6.5), else a move; in
        // a phase the legal moves parsed against are the phase's decisions.
        let action = match notation::action::parse_non_move(&loaded.variant, &pos, mv, "<--play>", mv_at) {
            Some(read) => read.map_err(|d| loaded.failure(&d, cx))?,
            None => rulebook_interpreter::flow::Action::Move(
                notation::parse_move(&loaded.variant, &pos, mv, "<--play>", mv_at).map_err(|d| loaded.failure(&d, cx))?,
            ),
        };
        let next = loaded.variant.apply(&pos, &action);
        earlier.push(std::mem::replace(&mut pos, next));
    }
    Ok((pos, earlier))
}

/// The position given by `--fen` (reported as `<--fen>`), or the setup.
pub fn position(loaded: &mut Loaded, fen: Option<&str>, cx: Context) -> Result<Position, Failure> {
    let result = match fen {
        Some(text) => {
            loaded.extra.insert("<--fen>", text);
            loaded.variant.parse_fen(text, "<--fen>")
        }
        None => loaded.variant.start(),
    };
    result.map_err(|d| loaded.failure(&d, cx))
}
