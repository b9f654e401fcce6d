//! The worked examples of the shipped rulebooks (`example` items in rules/
//! and rules/fairy/, LANGUAGE §3.22) run as tests, like doctests: each
//! position is set up, its line played and its expectation (the legal
//! moves as a set of SAN texts, their number, or the result) compared with
//! what the engine finds. A failure names the file, the example and the
//! difference.

mod support;

use rulebook_interpreter::engine::example::run_example;
use std::path::{Path, PathBuf};

/// The `.rules` files of `dir`, sorted.
fn rules_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_example_in_the_shipped_rules_holds() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules"));
    let mut failures = Vec::new();
    let mut ran = 0;
    for path in rules_files(root).into_iter().chain(rules_files(&root.join("fairy"))) {
        let v = support::variant_at(&path);
        for e in &v.game.examples {
            ran += 1;
            if let Err(why) = run_example(&v, e) {
                failures.push(format!("{}: example \"{}\": {why}", path.display(), e.name));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {ran} examples fail:\n{}", failures.len(), failures.join("\n"));
    // chess (2), heisenberg (2), nebelschach (1) at least.
    assert!(ran >= 5, "only {ran} examples found");
}
