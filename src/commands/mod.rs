//! The subcommands, and what they share: loading a variant through the
//! database and reading the position to start from.

pub mod check;
pub mod moves;
pub mod perft;

use crate::db::{compile, Database, Db, SourceFile};
use crate::report::{self, ExtraSources, Failure, EXIT_USAGE};
use rulebook_interpreter::{Position, Variant};
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
        report::render(
            diags,
            |name| {
                self.extra
                    .0
                    .get(name)
                    .cloned()
                    .or_else(|| self.db.source_text(name))
            },
            color,
        )
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
            ))
        }
    }
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
    result.map_err(|d| {
        Failure::reports(
            EXIT_USAGE,
            loaded.render(std::slice::from_ref(&d), cx.color),
        )
    })
}
