//! Perft suites (tests/perft/<variant>.epd, counts from published tables) run
//! against the matching rules file (rules/<variant>.rules).
//!
//! The default tests run every count up to `FAST_NODES`; `cargo test -- --ignored`
//! runs the deep ones (up to 2·10^8 nodes; minutes in release mode).

use rulebook_interpreter::text::epd;
use rulebook_interpreter::text::fen::{self, FenSource};
use rulebook_interpreter::engine::perft::perft;
use std::path::Path;

mod support;
use support::variant;

/// Counts above this many nodes run only in the ignored deep test.
const FAST_NODES: u64 = 1_000_000;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}


/// Runs the suite of `name` for counts within `[min, max]` nodes; returns how many were checked.
fn run_suite(name: &str, min: u64, max: u64) -> usize {
    let v = variant(name);
    let suite_path = root().join("tests/perft").join(format!("{name}.epd"));
    let text = std::fs::read_to_string(&suite_path).expect("suite file exists");
    let (suite, diags) = epd::parse(&suite_path.display().to_string(), &text);
    assert!(diags.is_empty(), "{name}: suite problems: {diags:?}");
    let mut checked = 0;
    let mut failures = Vec::new();
    for entry in &suite {
        let src = FenSource { name: "suite", offset: entry.fen_offset };
        let pos = fen::parse(&v.game, &v.tables, &entry.fen, &src)
            .unwrap_or_else(|d| panic!("{}: bad FEN: {}", entry.id, d.message));
        for check in &entry.checks {
            let (depth, expected) = (check.depth, check.expected);
            if expected < min || expected > max {
                continue;
            }
            let got = perft(&v, &pos, depth);
            checked += 1;
            if got != expected {
                failures.push(format!("{} depth {depth}: expected {expected}, got {got}", entry.id));
            }
        }
    }
    assert!(failures.is_empty(), "{name}: {}", failures.join("; "));
    checked
}

#[test]
fn chess() {
    assert!(run_suite("chess", 0, FAST_NODES) >= 20);
}

#[test]
fn chess960() {
    assert!(run_suite("chess960", 0, FAST_NODES) >= 15);
}

#[test]
fn capablanca() {
    assert_eq!(run_suite("capablanca", 0, FAST_NODES), 4);
}

#[test]
fn crazyhouse() {
    assert_eq!(run_suite("crazyhouse", 0, FAST_NODES), 5);
}

#[test]
fn losalamos() {
    assert_eq!(run_suite("losalamos", 0, FAST_NODES), 1);
}

#[test]
#[ignore = "deep perft: minutes in release mode (cargo test --release -- --ignored)"]
fn deep_counts() {
    let mut n = 0;
    for name in ["chess", "chess960", "capablanca", "crazyhouse", "losalamos"] {
        n += run_suite(name, FAST_NODES + 1, u64::MAX);
    }
    assert!(n >= 10);
}
