//! Fairy-Stockfish's perft checks (../shared/fsf-perft-checks.tsv: 155 counts
//! over 86 variants, from its tests/perft.sh), run on the rules files that
//! exist: `rules/fairy/NAME.rules`, else `rules/NAME.rules`, NAME exactly as
//! in the table (issue 17). Every count of a variant with a file must match;
//! the variants without one are listed below, so that a new file moves its
//! rows from that list to the matched ones. Counts up to 5 million nodes run
//! in `cargo test`; the deeper ones in the ignored test (`.ci/run` runs it).

mod support;

use rulebook_interpreter::engine::perft::perft;
use std::path::{Path, PathBuf};

/// One row of the table.
struct Check {
    variant: String,
    fen: String,
    depth: u32,
    nodes: u64,
    chess960: bool,
}

/// The table: Fairy-Stockfish's checks as the shared folder holds them.
fn checks() -> Vec<Check> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fsf-perft-checks.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 5, "a row of five fields: {line}");
            Check {
                variant: f[0].to_string(),
                fen: f[1].to_string(),
                depth: f[2].parse().expect("a depth"),
                nodes: f[3].parse().expect("a count"),
                chess960: f[4] == "true",
            }
        })
        .collect()
}

/// The rules file of a variant of the table, if there is one.
fn rules_file(variant: &str) -> Option<PathBuf> {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules");
    [rules.join("fairy").join(format!("{variant}.rules")), rules.join(format!("{variant}.rules"))].into_iter().find(|p| p.is_file())
}

/// The variants of the table that have no rules file yet: what the
/// language cannot state yet is in issue 17's list (explosions, compulsory
/// capture, gating, check counting, …); these are still to be written.
const NOT_WRITTEN: &[&str] = &[];

/// Rows of variants with a file that are not reached yet, with the reason.
const NOT_REACHED: &[(&str, &str)] = &[];

/// Runs the rows with at most `max_nodes` (`deep`: only those above it) and
/// returns how many matched.
fn run(max_nodes: u64, deep: bool) -> usize {
    let mut matched = 0;
    let mut without: Vec<String> = Vec::new();
    for c in checks() {
        let Some(path) = rules_file(&c.variant) else {
            if !without.contains(&c.variant) {
                without.push(c.variant.clone());
            }
            continue;
        };
        if (c.nodes > max_nodes) != deep {
            continue;
        }
        if let Some((_, why)) = NOT_REACHED.iter().find(|(fen, _)| *fen == c.fen) {
            eprintln!("skipped {} `{}`: {why}", c.variant, c.fen);
            continue;
        }
        // A Chess960 row's castling rights read as X-FEN (`K`, `Q`: the
        // outermost rook) or Shredder-FEN (files), as every FEN here does.
        let _ = c.chess960;
        let v = support::variant_at(&path);
        let pos = if c.fen == "startpos" {
            v.start().expect("the setup")
        } else {
            v.parse_fen(&c.fen, "<fsf>").unwrap_or_else(|d| panic!("{} `{}` does not read: {}", c.variant, c.fen, d.message))
        };
        assert_eq!(perft(&v, &pos, c.depth), c.nodes, "{} `{}` perft {}", c.variant, c.fen, c.depth);
        matched += 1;
    }
    if !deep {
        without.sort();
        let mut listed: Vec<String> = NOT_WRITTEN.iter().map(|s| s.to_string()).collect();
        listed.sort();
        assert_eq!(without, listed, "the variants without a rules file must be those NOT_WRITTEN lists");
    }
    matched
}

#[test]
fn fairy_stockfish_counts_up_to_five_million_nodes() {
    let matched = run(5_000_000, false);
    eprintln!("{matched} of Fairy-Stockfish's checks matched (up to 5,000,000 nodes)");
    // The rows of the variants with a file, up to 5 million nodes (none is NOT_REACHED).
    assert_eq!(matched, 150);
}

#[test]
#[ignore = "about 470 million nodes of chess: run by .ci/run"]
fn fairy_stockfish_counts_above_five_million_nodes() {
    let matched = run(5_000_000, true);
    eprintln!("{matched} deep checks matched");
    // Chess's five deep rows (11, 15.8, 89.9, 164 and 193.7 million nodes).
    assert_eq!(matched, 5);
}
