//! Every claim the checker PROVES is also tested against the interpreter:
//! along seeded random games from the setup, each proved position claim holds
//! in every position reached, and each proved move claim holds for every legal
//! move played or available.

mod support;

use rulebook_checker::concrete::{move_holds, position_holds};
use rulebook_checker::{check, Options, Verdict};
use support::{variant, Rng};
use std::time::Duration;

/// Checks `name`, then plays `games` random games of up to 200 plies and
/// tests every proved claim on the way. Returns how many claims were proved.
fn playouts(name: &str, games: usize) -> usize {
    let v = variant(name);
    let options = Options { query_timeout: Duration::from_secs(300), total_timeout: Duration::from_secs(3600), depth: 2, win_depth: 2, ..Options::default() };
    let report = check(&v, &options, &mut |_| {});
    let proved: Vec<_> = v
        .game
        .claims
        .iter()
        .filter(|c| report.claims.iter().any(|r| r.name == c.name && r.verdict == Verdict::Proved))
        .collect();
    let mut rng = Rng(0x5eed ^ name.len() as u64);
    for game in 0..games {
        let mut pos = v.start().expect("setup");
        for ply in 0..200 {
            for claim in &proved {
                assert!(position_holds(&v, &pos, &claim.property), "{name}: `{}` fails in game {game} ply {ply}: {}", claim.name, v.fen(&pos));
            }
            let moves = v.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            for m in &moves {
                for claim in &proved {
                    assert!(move_holds(&v, &pos, m, &claim.property), "{name}: `{}` fails for a move in game {game} ply {ply}: {}", claim.name, v.fen(&pos));
                }
            }
            pos = v.play(&pos, &moves[rng.below(moves.len())]);
        }
    }
    proved.len()
}

#[test]
fn chess_proved_claims_hold_in_random_games() {
    // rules/chess.rules claims four properties; all four must be proved.
    assert_eq!(playouts("chess", 200), 4);
}

/// Every variant in rules/ (minutes: `.ci/run` runs it in release).
#[test]
#[ignore]
fn every_variant_proved_claims_hold_in_random_games() {
    for name in ["chess960", "capablanca", "crazyhouse", "losalamos", "raumschach", "grasshopper"] {
        let n = playouts(name, 100);
        eprintln!("{name}: {n} proved claims held in 100 random games");
    }
}
