//! The incremental pipeline: a salsa database holding the rules files as
//! inputs, with tracked queries that parse each file and compile a variant by
//! following its `extends` chain.
//!
//! Files are read from disk lazily, the first time a query asks for them
//! (the pattern of salsa's `lazy-input` example): the CLI registers the file
//! named on the command line, and [`compile`] pulls in every ancestor it
//! extends. Each file becomes one [`SourceFile`] input; editing one through its
//! setter re-runs only the queries that read it (a parent file that did not
//! change is not parsed again).
//!
//! Diagnostics are returned inside query results, as rust-analyzer and ruff
//! do, rather than through accumulators.

use rulebook_grammar::ast::{self, Span};
use rulebook_grammar::Diagnostic;
use rulebook_interpreter::model::load::{extends_of, read_input, resolve};
use rulebook_interpreter::model::lower::{lower, SourceTree};
use rulebook_interpreter::Game;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// One rules file: the path it was reached by and its text.
///
/// `path` is also the name diagnostics use for the file. A file that could not
/// be read has empty `text` and the reason in `read_error`, so that a later
/// successful read (through the setters) is an ordinary input change.
#[salsa::input(debug)]
pub struct SourceFile {
    /// The path as first given or resolved (relative paths stay relative).
    #[returns(ref)]
    pub path: PathBuf,
    /// The file's contents.
    #[returns(ref)]
    pub text: String,
    /// Why the file could not be read, if it could not.
    #[returns(ref)]
    pub read_error: Option<String>,
}

impl SourceFile {
    /// The name diagnostics about this file use.
    pub fn name(self, db: &dyn Db) -> String {
        self.path(db).display().to_string()
    }
}

/// The database interface the queries need: a way to get the input for a path.
#[salsa::db]
pub trait Db: salsa::Database {
    /// The input for `path`, reading it from disk the first time it is asked for.
    fn file(&self, path: &Path) -> SourceFile;
}

/// The database the CLI uses.
#[salsa::db]
#[derive(Clone, Default)]
pub struct Database {
    storage: salsa::Storage<Self>,
    /// Inputs created so far, by canonical path (or the path as given when it
    /// cannot be canonicalised, e.g. because the file does not exist).
    files: Arc<Mutex<HashMap<PathBuf, SourceFile>>>,
    /// Which queries ran, when logging is on (for tests).
    #[cfg_attr(not(test), allow(dead_code))]
    log: Option<Arc<Mutex<Vec<String>>>>,
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl Db for Database {
    fn file(&self, path: &Path) -> SourceFile {
        let key = key_of(path);
        let mut files = self.files.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(file) = files.get(&key) {
            return *file;
        }
        let (text, error) = match read_input(path) {
            Ok(text) => (text, None),
            Err(e) => (String::new(), Some(e.to_string())),
        };
        let file = SourceFile::new(self, path.to_path_buf(), text, error);
        files.insert(key, file);
        file
    }
}

/// The key a path is remembered under: the canonical path when there is one,
/// so that `rules/chess.rules` and `./rules/../rules/chess.rules` are one file.
fn key_of(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

// The logging and in-memory inputs serve the tests (and future editors or a
// watch mode); the CLI itself reads every file from disk.
#[cfg_attr(not(test), allow(dead_code))]
impl Database {
    /// A database that records the name of every query execution, for tests
    /// and diagnostics of the incremental behaviour. Read it with [`Database::take_log`].
    pub fn with_log() -> Self {
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        let sink = Arc::clone(&log);
        let storage = salsa::Storage::new(Some(Box::new(move |event: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                sink.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(format!("{database_key:?}"));
            }
        })));
        Database {
            storage,
            files: Arc::default(),
            log: Some(log),
        }
    }

    /// The log [`Database::take_log`] reads, shared (for a test that hands
    /// the database to another thread and reads the log from its own).
    pub fn log_handle(&self) -> Option<Arc<Mutex<Vec<String>>>> {
        self.log.clone()
    }

    /// The query executions recorded since the last call (empty without logging).
    pub fn take_log(&self) -> Vec<String> {
        match &self.log {
            Some(log) => std::mem::take(&mut *log.lock().unwrap_or_else(PoisonError::into_inner)),
            None => Vec::new(),
        }
    }

    /// Registers `text` as the contents of `path` without touching the disk
    /// (for tests, editors, and stdin). An existing input is updated in place.
    pub fn set_file(&mut self, path: &Path, text: String) -> SourceFile {
        use salsa::Setter;
        let key = key_of(path);
        let existing = self
            .files
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
            .copied();
        match existing {
            Some(file) => {
                if file.read_error(self).is_some() {
                    file.set_read_error(self).to(None);
                }
                file.set_text(self).to(text);
                file
            }
            None => {
                let file = SourceFile::new(self, path.to_path_buf(), text, None);
                self.files
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(key, file);
                file
            }
        }
    }

    /// The text of the file diagnostics call `name`, if it was loaded.
    pub fn source_text(&self, name: &str) -> Option<String> {
        let files: Vec<SourceFile> = self
            .files
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .copied()
            .collect();
        files
            .into_iter()
            .find(|f| f.name(self) == name)
            .map(|f| f.text(self).clone())
    }
}

/// Parses one file, reporting every syntax error found. An unreadable file is
/// an error at its start (`E0010`).
#[salsa::tracked(returns(ref))]
pub fn parse(db: &dyn Db, file: SourceFile) -> Result<ast::File, Vec<Diagnostic>> {
    let name = file.name(db);
    if let Some(e) = file.read_error(db) {
        return Err(vec![Diagnostic::error(
            "E0010",
            name.clone(),
            Span::default(),
            format!("cannot read `{name}`: {e}"),
            "",
        )]);
    }
    rulebook_grammar::parse_all(&name, file.text(db))
}

/// Compiles the variant `file` describes: follows its `extends` chain (reading
/// ancestors from disk on first use), then lowers the chain root first.
///
/// A chain that goes round in a circle, or names a file that cannot be read,
/// is `E0117` at the `extends` that says so, as in
/// [`rulebook_interpreter::model::load::load`].
#[salsa::tracked(returns(ref))]
pub fn compile(db: &dyn Db, file: SourceFile) -> Result<Arc<Game>, Vec<Diagnostic>> {
    let mut chain: Vec<SourceFile> = Vec::new();
    let mut current = file;
    // The file and span of the `extends` that led to `current`.
    let mut from: Option<(String, Span)> = None;
    loop {
        if chain.contains(&current) {
            let (name, span) = from.unwrap_or_default();
            return Err(vec![Diagnostic::error(
                "E0117",
                name,
                span,
                "`extends` goes round in a circle",
                "this file is already being loaded",
            )
            .with_help(
                "a variant cannot extend itself, directly or through others",
            )]);
        }
        if let (Some(e), Some((name, span))) = (current.read_error(db), &from) {
            let target = current.name(db);
            return Err(vec![Diagnostic::error(
                "E0117",
                name.clone(),
                *span,
                format!("cannot read `{target}`: {e}"),
                "extended here",
            )
            .with_help("the path is relative to the file that says `extends`")]);
        }
        let tree = match parse(db, current) {
            Ok(tree) => tree,
            Err(d) => return Err(d.clone()),
        };
        chain.push(current);
        match extends_of(tree) {
            Some(target) => {
                let next = db.file(&resolve(current.path(db), &target.node));
                from = Some((current.name(db), target.span));
                current = next;
            }
            None => break,
        }
    }
    chain.reverse();
    // Every file in the chain parsed above; the memoised trees are borrowed here.
    let names: Vec<String> = chain.iter().map(|f| f.name(db)).collect();
    let mut trees: Vec<SourceTree> = Vec::with_capacity(chain.len());
    for (f, name) in chain.iter().zip(&names) {
        if let Ok(tree) = parse(db, *f) {
            trees.push(SourceTree { name, tree });
        }
    }
    lower(&trees).map(Arc::new)
}

/// The chain of files `file` extends, the file itself first and the root
/// ancestor last, as far as it can be followed (it stops at a file that does
/// not parse, cannot be read, or was seen already).
pub fn chain(db: &dyn Db, file: SourceFile) -> Vec<SourceFile> {
    let mut out = vec![file];
    let mut current = file;
    while let Ok(tree) = parse(db, current) {
        let Some(target) = extends_of(tree) else {
            break;
        };
        let next = db.file(&resolve(current.path(db), &target.node));
        if out.contains(&next) || next.read_error(db).is_some() {
            break;
        }
        out.push(next);
        current = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use salsa::Setter;

    const CHESS: &str = include_str!("../rules/chess.rules");

    fn count(log: &[String], query: &str) -> usize {
        log.iter()
            .filter(|l| l.starts_with(&format!("{query}(")))
            .count()
    }

    /// Did `query` run on `file`? (The log holds e.g. `parse(Id(1))`.)
    fn ran(log: &[String], query: &str, file: SourceFile) -> bool {
        let id = salsa::plumbing::AsId::as_id(&file);
        log.iter().any(|l| *l == format!("{query}({id:?})"))
    }

    #[test]
    fn compiles_a_chain_from_memory() {
        let mut db = Database::with_log();
        db.set_file(Path::new("mem/chess.rules"), CHESS.to_string());
        let child = db.set_file(
            Path::new("mem/mini.rules"),
            "extends \"chess.rules\"\nvariant \"Mini\"\n".into(),
        );
        let game = compile(&db, child).as_ref().expect("compiles");
        assert_eq!(game.name, "Mini");
        assert_eq!(game.kinds.len(), 6);
    }

    #[test]
    fn editing_the_child_does_not_reparse_the_parent() {
        let mut db = Database::with_log();
        let parent = db.set_file(Path::new("mem/chess.rules"), CHESS.to_string());
        let child = db.set_file(
            Path::new("mem/mini.rules"),
            "extends \"chess.rules\"\nvariant \"Mini\"\n".into(),
        );
        assert!(compile(&db, child).is_ok());
        let first = db.take_log();
        assert_eq!(count(&first, "parse"), 2, "{first:?}");
        assert_eq!(count(&first, "compile"), 1, "{first:?}");

        // Nothing changed: nothing runs.
        assert!(compile(&db, child).is_ok());
        assert_eq!(db.take_log(), Vec::<String>::new());

        // Edit the child: it is parsed again and the variant recompiled, the parent is not touched.
        child
            .set_text(&mut db)
            .to("extends \"chess.rules\"\nvariant \"Mini 2\"\n".into());
        let game = compile(&db, child).as_ref().expect("compiles");
        assert_eq!(game.name, "Mini 2");
        let second = db.take_log();
        assert_eq!(count(&second, "parse"), 1, "{second:?}");
        assert!(ran(&second, "parse", child), "{second:?}");
        assert!(!ran(&second, "parse", parent), "{second:?}");
        assert_eq!(count(&second, "compile"), 1, "{second:?}");

        // Edit the parent: it is parsed again, the child is not.
        parent
            .set_text(&mut db)
            .to(CHESS.replace("variant \"Chess\"", "variant \"Chess!\""));
        assert!(compile(&db, child).is_ok());
        let third = db.take_log();
        assert_eq!(count(&third, "parse"), 1, "{third:?}");
        assert!(ran(&third, "parse", parent), "{third:?}");
        assert!(!ran(&third, "parse", child), "{third:?}");
        assert!(ran(&third, "compile", child), "{third:?}");
    }

    #[test]
    fn an_edit_that_changes_nothing_stops_early() {
        let mut db = Database::with_log();
        db.set_file(Path::new("mem/chess.rules"), CHESS.to_string());
        let child = db.set_file(
            Path::new("mem/mini.rules"),
            "extends \"chess.rules\"\nvariant \"Mini\"\n".into(),
        );
        assert!(compile(&db, child).is_ok());
        db.take_log();
        // The same text again: the input changes revision, parse re-runs and
        // yields an equal tree, so compile is not re-executed (backdating).
        child
            .set_text(&mut db)
            .to("extends \"chess.rules\"\nvariant \"Mini\"\n".into());
        assert!(compile(&db, child).is_ok());
        let log = db.take_log();
        assert_eq!(count(&log, "compile"), 0, "{log:?}");
    }

    #[test]
    fn cycles_and_missing_parents_are_diagnostics() {
        let mut db = Database::default();
        let a = db.set_file(Path::new("mem/a.rules"), "extends \"b.rules\"\n".into());
        db.set_file(Path::new("mem/b.rules"), "extends \"a.rules\"\n".into());
        let diags = compile(&db, a).as_ref().expect_err("cycle");
        assert_eq!(diags[0].code, "E0117");
        assert!(diags[0].message.contains("circle"), "{diags:?}");

        let c = db.set_file(
            Path::new("mem/c.rules"),
            "extends \"nowhere/none.rules\"\n".into(),
        );
        let diags = compile(&db, c).as_ref().expect_err("missing");
        assert_eq!(diags[0].code, "E0117");
        assert_eq!(diags[0].file, "mem/c.rules");
        assert!(diags[0].message.contains("cannot read"), "{diags:?}");

        // The missing file appears: the error goes away.
        db.set_file(Path::new("mem/nowhere/none.rules"), CHESS.to_string());
        assert!(compile(&db, c).is_ok());
    }

    #[test]
    fn reads_ancestors_from_disk() {
        let db = Database::default();
        let root = env!("CARGO_MANIFEST_DIR");
        let dir = Path::new(root).join("rules");
        for entry in std::fs::read_dir(&dir).expect("rules dir") {
            let path = entry.expect("entry").path();
            if path.extension().is_none_or(|x| x != "rules") {
                continue; // rules/fairy/
            }
            let file = db.file(&path);
            let result = compile(&db, file);
            assert!(
                result.is_ok(),
                "{}: {:?}",
                path.display(),
                result.as_ref().err()
            );
        }
    }
}
