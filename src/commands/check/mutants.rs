//! `check --mutants DIR`: does each claim of the file say something?
//!
//! A claim that the rules prove may still be vacuous: its formula may say
//! less than its name (a count of labels where groups were meant). A
//! *mutant* is a variant that extends the checked file and weakens the rule
//! a claim depends on (a bishop that may also step aside, a king that is
//! not royal). Every `.rules` file of DIR that `extends` the checked file
//! (directly) is one; each is verified as the file is, and a claim of the
//! file that no mutant refutes is reported as vacuous (`C0241`).

use crate::db::{chain, compile, Database, Db, SourceFile};
use rulebook_grammar::Diagnostic;
use rulebook_interpreter::{Game, Variant};
use rulebook_checker::{Report, Verdict};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One mutant as verified.
#[derive(Debug, Serialize)]
pub struct Mutant {
    /// Its file.
    pub file: String,
    /// Its variant's name (empty when it does not compile).
    pub variant: String,
    /// Why it could not be verified (it does not compile).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A claim of the checked file and the mutants that refute it.
#[derive(Debug, Serialize)]
pub struct Strength {
    /// The claim's name.
    pub claim: String,
    /// Per refuting mutant: its index in [`Mutants::mutants`] and the
    /// refutation (the line that breaks the claim there).
    pub refuted_by: Vec<(usize, String)>,
}

/// What `--mutants` found.
#[derive(Debug, Serialize)]
pub struct Mutants {
    /// The folder searched.
    pub dir: String,
    /// The mutants of the checked file, in file-name order.
    pub mutants: Vec<Mutant>,
    /// Per claim stated in the checked file.
    pub claims: Vec<Strength>,
}

/// The `.rules` files of `dir`, sorted (an unreadable folder: none).
fn rules_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "rules")).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// Verifies every mutant of `file` (compiled as `game`) in `dir` with
/// `verify`, and says per claim stated in `file` which of them refute it.
pub fn run(db: &Database, file: SourceFile, game: &Game, dir: &Path, mut verify: impl FnMut(&Variant) -> Report) -> Mutants {
    let name = file.name(db);
    let target = std::fs::canonicalize(&name).ok();
    let mut claims: Vec<Strength> =
        game.claims.iter().filter(|c| c.file == name).map(|c| Strength { claim: c.name.clone(), refuted_by: Vec::new() }).collect();
    let mut mutants = Vec::new();
    for path in rules_files(dir) {
        let candidate = db.file(&path);
        // A mutant extends the checked file directly: a file extending one
        // of its mutants or descendants is a variant of its own.
        let extends = chain(db, candidate).get(1).is_some_and(|f| target.is_some() && std::fs::canonicalize(f.name(db)).ok() == target);
        if !extends {
            continue;
        }
        let index = mutants.len();
        match compile(db, candidate) {
            Ok(g) => {
                let report = verify(&Variant::new(g.clone()));
                for c in report.claims.iter().filter(|c| c.verdict == Verdict::Refuted) {
                    if let Some(s) = claims.iter_mut().find(|s| s.claim == c.name) {
                        s.refuted_by.push((index, c.detail.clone()));
                    }
                }
                mutants.push(Mutant { file: path.display().to_string(), variant: g.name.clone(), error: None });
            }
            Err(diags) => {
                let first = diags.first().map_or_else(String::new, |d| format!("{}: {}", d.code, d.message));
                mutants.push(Mutant { file: path.display().to_string(), variant: String::new(), error: Some(format!("it does not compile ({first})")) });
            }
        }
    }
    Mutants { dir: dir.display().to_string(), mutants, claims }
}

impl Mutants {
    /// `C0241` for each claim of `game` that no mutant refutes, at the claim.
    pub fn diagnostics(&self, game: &Game) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for s in self.claims.iter().filter(|s| s.refuted_by.is_empty()) {
            let Some(claim) = game.claims.iter().find(|c| c.name == s.claim) else { continue };
            let tried = match self.mutants.len() {
                0 => format!("no file in {} extends this one", self.dir),
                n => format!("none of the {n} mutants in {} refutes it", self.dir),
            };
            out.push(
                Diagnostic::error("C0241", claim.file.clone(), claim.span, format!("claim `{}` may be vacuous", s.claim), "no mutant refutes this claim")
                    .warning()
                    .with_detail(format!("{tried}: a claim that still holds when the rule it depends on is weakened may say less than its name"))
                    .with_help(format!("add a file to {} that extends this one and weakens the rule the claim depends on; the checker must refute the claim there", self.dir)),
            );
        }
        out
    }

    /// The report's section: per claim, the mutants that refute it.
    pub fn text(&self) -> String {
        let mut out = format!("mutants  {} in {}\n", crate::report::plural(self.mutants.len(), "file"), self.dir);
        let width = self.claims.iter().map(|s| s.claim.len()).max().unwrap_or(0);
        for s in &self.claims {
            if s.refuted_by.is_empty() {
                out.push_str(&format!("  {:<width$}  VACUOUS? no mutant refutes it (C0241)\n", s.claim));
            }
            for (i, (m, detail)) in s.refuted_by.iter().enumerate() {
                let head = if i == 0 { s.claim.as_str() } else { "" };
                let mutant = &self.mutants[*m];
                out.push_str(&format!("  {head:<width$}  refuted by \"{}\" ({}): {detail}\n", mutant.variant, mutant.file));
            }
        }
        for m in self.mutants.iter().filter(|m| m.error.is_some()) {
            out.push_str(&format!("  {}: not verified, {}\n", m.file, m.error.as_deref().unwrap_or_default()));
        }
        out
    }
}
