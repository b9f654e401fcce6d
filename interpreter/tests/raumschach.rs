//! Raumschach has no published perft table, so its first ply is checked
//! against a count made by hand from the rules (the chessvariants.com description, as
//! stated in rules/raumschach.rules), piece by piece:
//!
//! - Pawns: the five on level A step forward to rank 3 (up is blocked by the
//!   level-B pawns); the five on level B step forward to rank 3 or up to level C: 15.
//! - Knights Ab1, Ad1: each reaches its level's a3/c3 (or c3/e3), level C's
//!   a1/c1 (c1/e1) and b2 (d2), and level B's b3 (d3): 6 each, 12.
//! - Bishops Ba1, Be1: along (file, level) to Cb1 Dc1 Ed1 (Cd1 Dc1 Eb1) and
//!   along (rank, level) to Ca2 Da3 and the capture on Ea4 (Ce2 De3 xEe4): 6 each, 12.
//! - Unicorns Bb1, Bd1: Cc2 Dd3 xEe4 and Ca2 (Cc2 Db3 xEa4 and Ce2): 4 each, 8.
//! - Queen Bc1: up the column Cc1 Dc1 Ec1 (3); diagonals Cd1 De1, Cb1 Da1,
//!   Cc2 Dc3 xEc4 (7); space diagonals Cd2 De3, Cb2 Da3 (4): 14.
//! - King Ac1 and rooks Aa1, Ae1: boxed in by their own pieces: 0.
//!
//! Total 61.

use rulebook_interpreter::text::notation::coordinate;
use rulebook_interpreter::{engine::perft::perft, Variant};

mod support;
use std::collections::BTreeMap;

fn raumschach() -> Variant {
    support::variant("raumschach")
}

#[test]
fn first_ply_matches_the_hand_count() {
    let v = raumschach();
    let pos = v.start().expect("setup parses");
    let moves = v.legal_moves(&pos);
    let mut per_piece: BTreeMap<char, usize> = BTreeMap::new();
    for m in &moves {
        *per_piece.entry(v.game.kinds[m.piece as usize].letter).or_default() += 1;
    }
    let expected: BTreeMap<char, usize> =
        [('P', 15), ('N', 12), ('B', 12), ('U', 8), ('Q', 14)].into_iter().collect();
    assert_eq!(per_piece, expected);
    assert_eq!(perft(&v, &pos, 1), 61);
}

#[test]
fn knight_targets_match_the_hand_count() {
    let v = raumschach();
    let pos = v.start().expect("setup parses");
    let mut from_b1: Vec<String> = v
        .legal_moves(&pos)
        .iter()
        .map(|m| coordinate(&v, m))
        .filter(|c| c.starts_with("Ab1"))
        .collect();
    from_b1.sort();
    assert_eq!(from_b1, ["Ab1Aa3", "Ab1Ac3", "Ab1Bb3", "Ab1Ca1", "Ab1Cb2", "Ab1Cc1"]);
}

#[test]
fn setup_round_trips_through_fen() {
    let v = raumschach();
    let pos = v.start().expect("setup parses");
    assert_eq!(v.fen(&pos), v.game.setup);
}
