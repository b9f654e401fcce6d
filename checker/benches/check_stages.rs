//! Speed benchmark of the verifier (issue 18, goal 6): `check` on chess and
//! on the heaviest files of `rules/`, with the time of each stage.
//!
//! Per file it prints the time to load the rules (parse and model, through
//! `model::load`), then each stage `check` announces through its progress
//! callback (the search of moves from the setup, the walk by decisions where
//! the game has one, building the Z3 encoding, proving claims, rules that
//! never apply, ambiguities, well-formedness, observation), the number of Z3
//! queries, and the whole. The options are `rulebook check`'s defaults
//! (`--timeout 20`: 20 s per query, 120 s in all), one file after the other,
//! one process.
//!
//! Run: `cargo bench -p rulebook-checker --bench check_stages` (the default
//! files), or name files relative to the repository root:
//! `cargo bench -p rulebook-checker --bench check_stages -- rules/fairy/shogi.rules`.
//! `--all` checks every file of `rules/` and `rules/fairy/`.
//!
//! Measured on the 2-core development machine (shared with another build at
//! the time, so the numbers are high): before the change to one incremental
//! solver per side, `check rules/chess.rules` took 6.0–9.0 s, nearly all of it
//! 37 fresh QF_FD solvers (0.1–0.3 s each, most of it bit-blasting the
//! transition again); shogi 87–120 s (five witness queries with "at most 4
//! pieces" as a sum of integers ran into their 20 s limit), grand, shako and
//! opulent 52–106 s (the search spent its 40 s on a ply it could not finish).
//! The figures after are in the closing note of issue 18 and in DESIGN.md §5.

use rulebook_checker::{check, Options};
use rulebook_interpreter::{model::load::load, Variant};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The files checked without arguments (one path from the repository root
/// per line of `check_stages.files`, `#` starting a comment): chess (goal:
/// under 3 s) and the files that took longest (goal: each under 30 s). A
/// list of data, kept beside the benchmark rather than in its code.
const DEFAULT_FILES: &str = include_str!("check_stages.files");

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.rules` file of `rules/` and `rules/fairy/`, relative to the root.
fn all_files() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["rules", "rules/fairy"] {
        let Ok(entries) = std::fs::read_dir(root().join(dir)) else { continue };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".rules"))
            .collect();
        names.sort();
        out.extend(names.into_iter().map(|n| format!("{dir}/{n}")));
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--") || a == "--all").collect();
    let files: Vec<String> = if args.iter().any(|a| a == "--all") {
        all_files()
    } else if args.is_empty() {
        DEFAULT_FILES.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty()).map(str::to_string).collect()
    } else {
        args
    };
    let mut total = 0.0;
    let mut over = Vec::new();
    for file in &files {
        let began = Instant::now();
        let game = match load(&root().join(file)) {
            Ok((game, _)) => game,
            Err((diagnostics, _)) => {
                println!("{file}: does not load ({} diagnostics), skipped", diagnostics.len());
                continue;
            }
        };
        let v = Variant::new(Arc::new(game));
        let loaded = began.elapsed().as_secs_f64();
        let mut stages: Vec<(String, Instant)> = Vec::new();
        let checked = Instant::now();
        let report = check(&v, &Options::default(), &mut |stage| stages.push((stage.to_string(), Instant::now())));
        let end = Instant::now();
        let whole = began.elapsed().as_secs_f64();
        total += whole;
        if whole > 30.0 {
            over.push(file.clone());
        }
        println!("{file}: {whole:.2} s ({} Z3 queries, {} positions searched)", report.stats.queries, report.stats.positions);
        println!("  {:>8.2} s  load (parse and model)", loaded);
        let mut from = checked;
        let mut name = "start".to_string();
        for (next, at) in stages.iter().chain(std::iter::once(&("end".to_string(), end))) {
            let spent = at.duration_since(from).as_secs_f64();
            if name != "start" || spent >= 0.005 {
                println!("  {spent:>8.2} s  {name}");
            }
            from = *at;
            name = next.clone();
        }
    }
    println!("{} files, {total:.1} s in all; over 30 s: {}", files.len(), if over.is_empty() { "none".to_string() } else { over.join(", ") });
}
