//! The perft table of the setup: the number of leaves at each depth, as
//! deep as the caller's depth and time allow; for a variant with chance,
//! also the chance moves of the first ply with their probabilities.

use rulebook_interpreter::engine::perft::{perft_detail, perft_limited, Budget};
use rulebook_interpreter::text::notation::san;
use rulebook_interpreter::Variant;
use serde::Serialize;
use std::time::{Duration, Instant};

/// The counts from the setup.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PerftTable {
    /// `(depth, leaves)`, from depth 1, each complete.
    pub rows: Vec<(u32, u64)>,
    /// Why the table stops where it does (`depth 5 reached`, `depth 4 did not finish in 10 s`).
    pub stopped: String,
    /// At depth 1 in a variant with chance: leaves that are chance outcomes.
    pub outcomes: Option<u64>,
    /// At depth 1: the first [`LISTED`] moves whose outcome is chance, with their probabilities (SAN, p).
    pub chances: Vec<(String, String)>,
}

/// The most chance moves listed.
pub const LISTED: usize = 12;

/// Counts from the setup of `v`, depth 1 up to `depth`, within `time`.
pub fn setup(v: &Variant, depth: u32, time: Duration) -> PerftTable {
    let mut table = PerftTable::default();
    let Ok(start) = v.start() else {
        table.stopped = "the setup does not load".to_string();
        return table;
    };
    let deadline = Instant::now() + time;
    for d in 1..=depth {
        let budget = Budget::new(None, Some(deadline));
        match perft_limited(v, &start, d, &budget) {
            Some(n) => table.rows.push((d, n)),
            None => {
                table.stopped = format!("depth {d} did not finish within {} s", time.as_secs());
                break;
            }
        }
    }
    if table.stopped.is_empty() {
        table.stopped = format!("to depth {depth}");
    }
    let detail = perft_detail(v, &start, 1);
    if detail.outcomes > 0 {
        table.outcomes = Some(detail.outcomes);
        let moves = v.legal_moves(&start);
        let one = num_rational::Ratio::from_integer(1);
        table.chances = moves
            .iter()
            .map(|m| (m, v.probability(&start, m)))
            .filter(|(_, p)| *p != one)
            .take(LISTED)
            .map(|(m, p)| (san(v, &start, m, &moves), p.to_string()))
            .collect();
    }
    table
}
