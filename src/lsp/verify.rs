//! The verifier on save: `rulebook check`'s slow passes (Z3 proofs of the
//! claims, the search from the setup, ambiguities) on a thread of their own,
//! cancelled when the text changes again.
//!
//! The worker holds the compiled variant, not a database handle: salsa's
//! input setters wait until every other handle is dropped, so a handle held
//! through a long Z3 query would hold up the edit that cancels it. Instead
//! each run has a flag; the edit sets it, and the checker's progress
//! callback, called between its stages, unwinds the run (the way salsa
//! cancels a query: a panic payload of its own, caught here, and never
//! reported). A stage already started finishes first (each Z3 query has
//! the checker's own time limit).

use rulebook_grammar::Diagnostic;
use rulebook_interpreter::{Game, Variant};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What one run of the verifier found.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The file (the database's path) the run was for.
    pub path: PathBuf,
    /// The document version it was asked for.
    pub version: i32,
    /// The verifier's diagnostics.
    pub diagnostics: Vec<Diagnostic>,
    /// Each claim with its verdict in words (`proved`, `refuted`, …).
    pub claims: Vec<(String, String)>,
}

/// A run in progress: setting `cancel` stops it at its next stage.
pub struct Running {
    /// Set by an edit of the file.
    pub cancel: Arc<AtomicBool>,
}

/// The payload the progress callback unwinds with.
struct Cancelled;

/// The options of a run in the editor: the CLI's defaults with a shorter
/// deadline (a minute for the whole check, 10 s per query).
fn options() -> rulebook_checker::Options {
    rulebook_checker::Options {
        query_timeout: Duration::from_secs(10),
        total_timeout: Duration::from_secs(60),
        ..rulebook_checker::Options::default()
    }
}

/// Starts the verifier on `game` on a new thread; `done` receives the
/// result unless the run is cancelled.
pub fn start(game: Arc<Game>, path: PathBuf, version: i32, done: crossbeam_channel::Sender<Verified>) -> Running {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    std::thread::spawn(move || {
        let run = catch_unwind(AssertUnwindSafe(|| {
            let v = Variant::new(game);
            rulebook_checker::check(&v, &options(), &mut |_stage| {
                if flag.load(Ordering::Relaxed) {
                    resume_unwind(Box::new(Cancelled));
                }
            })
        }));
        match run {
            Ok(report) => {
                let claims = report.claims.iter().map(|c| (c.name.clone(), format!("{} — {}", c.verdict.label(c.depth), c.detail))).collect();
                let _ = done.send(Verified { path, version, diagnostics: report.diagnostics, claims });
            }
            Err(payload) if payload.is::<Cancelled>() => {}
            // A bug in the checker: the editor keeps working without its findings.
            Err(_) => {}
        }
    });
    Running { cancel }
}
