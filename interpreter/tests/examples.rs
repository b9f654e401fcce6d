//! The worked examples for variant authors (examples/*.rules, not
//! examples/errors/) against move lists counted by hand from their rules.
//!
//! Every expected value below comes from reading the rules file and the
//! language reference (docs/LANGUAGE.md §3.3 holes, §3.5 parts and `mirror`,
//! §5 FEN), square by square; the derivation is written next to each test.
//! Coordinates are 0-based (file, rank[, level]) where they help: a1 = (0,0).

use rulebook_interpreter::text::notation::coordinate;
use rulebook_interpreter::{model::load::load, engine::perft::perft, Variant};
use std::collections::BTreeMap;
use std::sync::Arc;

fn example(name: &str) -> Variant {
    let path = format!("{}/../examples/{name}.rules", env!("CARGO_MANIFEST_DIR"));
    match load(std::path::Path::new(&path)) {
        Ok((game, _)) => Variant::new(Arc::new(game)),
        Err((diags, sources)) => {
            let report: Vec<String> = diags
                .iter()
                .map(|d| rulebook_grammar::render(d, sources.get(&d.file).map(String::as_str).unwrap_or(""), false))
                .collect();
            panic!("{name}.rules does not load:\n{}", report.join("\n"));
        }
    }
}

/// The destinations of the legal moves starting on `from`, sorted.
fn targets(v: &Variant, fen: &str, from: &str) -> Vec<String> {
    let pos = v.parse_fen(fen, "<test>").unwrap_or_else(|d| panic!("{fen}: {}", d.message));
    let mut out: Vec<String> = v
        .legal_moves(&pos)
        .iter()
        .filter(|m| v.game.geometry.name(m.from) == from)
        .map(|m| v.game.geometry.name(m.to))
        .collect();
    out.sort();
    out
}

/// The number of legal moves per piece letter.
fn per_piece(v: &Variant, fen: &str) -> BTreeMap<char, usize> {
    let pos = v.parse_fen(fen, "<test>").unwrap_or_else(|d| panic!("{fen}: {}", d.message));
    let mut out = BTreeMap::new();
    for m in v.legal_moves(&pos) {
        *out.entry(v.game.kinds[m.piece as usize].letter).or_default() += 1;
    }
    out
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

// ------------------------------------------------------------------ holes

/// Setup `rn3k/6/2**2/2**2/6/RN3K`, White to move (holes c3 d3 c4 d4):
/// - Ra1: up a2 a3 a4 a5 and takes the rook on a6 (5); right b1 is its own knight (0).
/// - Nb1 = (1,0): (+1,+2) = c3 is a hole, (-1,+2) = a3, (+2,+1) = d2, (-2,+1) is off
///   the board, the four leaps with a negative rank are off: 2.
/// - Kf1: e1, e2, f2 (g is off the board): 3. Black attacks none of them (ra6 covers
///   the a-file and is stopped by its own knight on b6; nb6 reaches a4 and d5 only,
///   c4 being a hole; kf6 is far away).
///
/// Total 10.
#[test]
fn holes_setup_first_ply() {
    let v = example("holes");
    let setup = v.game.setup.clone();
    let expected: BTreeMap<char, usize> = [('R', 5), ('N', 2), ('K', 3)].into_iter().collect();
    assert_eq!(per_piece(&v, &setup), expected);
    assert_eq!(perft(&v, &v.start().unwrap(), 1), 10);
    assert_eq!(targets(&v, &setup, "b1"), sorted(&["a3", "d2"]));
}

/// `k5/6/2**2/1R**2/2N3/5K`: a rook on b3 and a knight on c2, both beside holes.
/// - Rb3 rides: left a3; right c3 is a hole, so the ride ends at once (e3 and f3
///   beyond the holes are NOT reached); up b4 b5 b6; down b2 b1. Six targets.
/// - Nc2 = (2,1) leaps to (3,3) = d4, a hole, so not; (1,3) = b4, (4,2) = e3,
///   (0,2) = a3, (4,0) = e1, (0,0) = a1; the two with rank -1 are off. Five targets.
///   The leap to b4 passes the hole c3 and the leap to e3 passes d3: a leap only
///   looks at where it lands.
#[test]
fn holes_stop_rides_but_not_leaps() {
    let v = example("holes");
    let fen = "k5/6/2**2/1R**2/2N3/5K w - - 0 1";
    assert_eq!(targets(&v, fen, "b3"), sorted(&["a3", "b1", "b2", "b4", "b5", "b6"]));
    assert_eq!(targets(&v, fen, "c2"), sorted(&["a1", "a3", "b4", "e1", "e3"]));
}

/// `k5/6/2**2/2**2/1N4/5K`: a knight on b2 = (1,1). Of its eight leaps, four leave
/// the board ((-2,±1) and (±1,-2) give file or rank -1), (+1,+2) = c4 and (+2,+1)
/// = d3 are holes; a4 and d1 remain.
#[test]
fn knight_never_lands_on_a_hole() {
    let v = example("holes");
    assert_eq!(targets(&v, "k5/6/2**2/2**2/1N4/5K w - - 0 1", "b2"), sorted(&["a4", "d1"]));
}

/// `k5/6/2**2/1T**2/6/5K`: the Threeleaper (`move H`, (3,0)) on b3 = (1,2) lands on
/// (4,2) = e3, straight over the holes c3 and d3, and on (1,5) = b6; (-2,2) and
/// (1,-1) are off the board.
#[test]
fn a_leap_jumps_over_holes() {
    let v = example("holes");
    assert_eq!(targets(&v, "k5/6/2**2/1T**2/6/5K w - - 0 1", "b3"), sorted(&["b6", "e3"]));
}

/// Rank 3 written `2N*2` puts the knight on c3, a hole: the FEN is refused. A hole
/// is always written `*` (docs/LANGUAGE.md §5): rank 3 written `6` counts the holes c3 d3 as empty
/// squares, and rank 2 written `2**2` marks the playable c2 d2 as holes; both are
/// refused. The setup reads back with `*` for every hole.
#[test]
fn holes_in_fen() {
    let v = example("holes");
    assert!(v.parse_fen("k5/6/2**2/2N*2/6/5K w - - 0 1", "<test>").is_err());
    assert!(v.parse_fen("k5/6/2**2/6/6/5K w - - 0 1", "<test>").is_err());
    assert!(v.parse_fen("k5/6/2**2/2**2/2**2/5K w - - 0 1", "<test>").is_err());
    assert!(v.parse_fen("k5/6/2**2/2**2/6/5K w - - 0 1", "<test>").is_ok());
    let pos = v.start().unwrap();
    assert_eq!(v.fen(&pos), v.game.setup);
    assert_eq!(v.game.geometry.parse_square("c3"), None);
    assert_eq!(v.game.geometry.board_cells().count(), 36 - 4);
}

// ------------------------------------------------------------------ big board

/// Setup `s4k3s/10/…/10/S4K3S`, White to move:
/// - Sa1: up a2 a3 a4 (three squares at most; a5 would be the fourth), right b1 c1 d1: 6.
/// - Sj1: up j2 j3 j4, left i1 h1 g1: 6.
/// - Kf1: e1 g1 f2 e2 g2: 5. Black's short rooks reach only three squares from
///   a10 and j10 (ranks 7-10 and files b-d, g-i of rank 10); kf10 is far: all safe.
///
/// Total 17.
#[test]
fn big_board_setup_first_ply() {
    let v = example("big-board");
    let setup = v.game.setup.clone();
    let expected: BTreeMap<char, usize> = [('S', 12), ('K', 5)].into_iter().collect();
    assert_eq!(per_piece(&v, &setup), expected);
    assert_eq!(perft(&v, &v.start().unwrap(), 1), 17);
    assert_eq!(targets(&v, &setup, "a1"), sorted(&["a2", "a3", "a4", "b1", "c1", "d1"]));
    assert_eq!(v.fen(&v.start().unwrap()), setup);
}

/// `k9/10/10/10/10/4S5/10/10/10/9K`: a short rook alone on e5 goes three squares
/// each way: e6 e7 e8, e4 e3 e2, d5 c5 b5, f5 g5 h5. Not e9, e1, a5 or i5 (four away).
#[test]
fn short_rook_from_the_centre() {
    let v = example("big-board");
    let fen = "k9/10/10/10/10/4S5/10/10/10/9K w - - 0 1";
    assert_eq!(
        targets(&v, fen, "e5"),
        sorted(&["e6", "e7", "e8", "e4", "e3", "e2", "d5", "c5", "b5", "f5", "g5", "h5"])
    );
}

/// A short rook on a4 with an enemy short rook three squares up (a7) takes it:
/// a5 a6 xa7, a3 a2 a1, b4 c4 d4. With the enemy four squares up (a8) it stops at a7.
#[test]
fn short_rook_captures_within_its_range_only() {
    let v = example("big-board");
    let three = "9k/10/10/s9/10/10/S9/10/10/9K w - - 0 1";
    assert_eq!(targets(&v, three, "a4"), sorted(&["a5", "a6", "a7", "a3", "a2", "a1", "b4", "c4", "d4"]));
    let four = "9k/10/s9/10/10/10/S9/10/10/9K w - - 0 1";
    assert_eq!(targets(&v, four, "a4"), sorted(&["a5", "a6", "a7", "a3", "a2", "a1", "b4", "c4", "d4"]));
    // Three squares up from a7 is a10: the capture's coordinate notation has a
    // two-digit rank. (a7 a8 a9 xa10, a6 a5 a4, b7 c7 d7.)
    let pos = v.parse_fen("s8k/10/10/S9/10/10/10/10/10/9K w - - 0 1", "<test>").unwrap();
    let mut names: Vec<String> = v
        .legal_moves(&pos)
        .iter()
        .map(|m| coordinate(&v, m))
        .filter(|n| n.starts_with("a7"))
        .collect();
    names.sort();
    assert_eq!(names, sorted(&["a7a8", "a7a9", "a7a10", "a7a6", "a7a5", "a7a4", "a7b7", "a7c7", "a7d7"]));
}

/// The range matters for check too. White: Ka1, Sa2; Black: sa4, kj10.
/// - sa4 is three squares from a1: if Sa2 left the a-file, sa4 would reach a3 a2 a1,
///   so Sa2 is pinned and may only go to a3 or take on a4 (a1 is its own king).
/// - With the black short rook on a5 instead (four squares from a1) there is no pin:
///   Sa2 goes a3 a4 xa5 and b2 c2 d2.
///
/// The king's b1 and b2 are safe in both (the black rook holds only its file and rank).
#[test]
fn short_rook_pins_only_within_its_range() {
    let v = example("big-board");
    let pinned = "9k/10/10/10/10/10/s9/10/S9/K9 w - - 0 1";
    assert_eq!(targets(&v, pinned, "a2"), sorted(&["a3", "a4"]));
    assert_eq!(targets(&v, pinned, "a1"), sorted(&["b1", "b2"]));
    let free = "9k/10/10/10/10/s9/10/10/S9/K9 w - - 0 1";
    assert_eq!(targets(&v, free, "a2"), sorted(&["a3", "a4", "a5", "b2", "c2", "d2"]));
    assert_eq!(targets(&v, free, "a1"), sorted(&["b1", "b2"]));
}

/// j10 is file j (the tenth, index 9) and rank 10 (index 9); a10 is not a1 + "0".
#[test]
fn two_digit_rank_names() {
    let v = example("big-board");
    let geo = &v.game.geometry;
    let j10 = geo.parse_square("j10").expect("j10 is a square");
    assert_eq!(geo.coords(j10), vec![9, 9]);
    assert_eq!(geo.name(j10), "j10");
    let a10 = geo.parse_square("a10").expect("a10 is a square");
    assert_eq!(geo.coords(a10), vec![0, 9]);
    assert_eq!(geo.coords(geo.parse_square("a1").unwrap()), vec![0, 0]);
    assert_eq!(geo.parse_square("k1"), None);
    assert_eq!(geo.parse_square("a11"), None);
    assert_eq!(geo.parse_square("a0"), None);
    assert_eq!(geo.cells(), 100);
}

// ------------------------------------------------------------------ tall 3D

const EMPTY_LEVEL: &str = "8/8/8/8/8/8/8/8";

/// A FEN of the tower from its levels G (top) … A (bottom).
fn tower(levels: [&str; 7], side: &str) -> String {
    format!("{} {side} - - 0 1", levels.join("|"))
}

/// The board has 8 × 8 × 7 = 448 cells, and the setup reads back unchanged.
#[test]
fn tall_tower_shape_and_fen_round_trip() {
    let v = example("tall-3d");
    assert_eq!(v.game.geometry.cells(), 448);
    assert_eq!(v.game.geometry.board_cells().count(), 448);
    let pos = v.start().unwrap();
    assert_eq!(v.fen(&pos), v.game.setup);
    let e = EMPTY_LEVEL;
    assert_eq!(v.game.setup, tower(["l3k2r/8/8/8/8/8/8/8", e, e, e, e, e, "8/8/8/8/8/8/8/L3K2R"], "w"));
}

/// Setup: White La1 Ke1 Rh1 on level A, Black la8 ke8 rh8 on level G. White to move.
/// - La1: `(0,0,1) mirror level` gives (0,0,1) and (0,0,-1): up Ba1 … Ga1 (6), down
///   is off the board. 6.
/// - Rh1 (`ride W`, six directions in 3D): file +1 off; file -1 Ag1 Af1, then its own
///   king (2); rank +1 Ah2 … Ah8 (7); rank -1 off; level +1 Bh1 … Gh1 (6); level -1
///   off. 15.
/// - Ke1 = (4,0,0): W: Ad1 Af1 Ae2 Be1 (4); F (12 vectors, rank and level may not go
///   below 0): Ad2 Af2, Bd1 Bf1, Be2 (5); (1,1,1) with rank and level +1: Bd2 Bf2 (2).
///   11. Black's pieces stay on level G and in the columns a8 and h8: none is attacked.
///
/// Total 32.
#[test]
fn tall_tower_setup_first_ply() {
    let v = example("tall-3d");
    let setup = v.game.setup.clone();
    let expected: BTreeMap<char, usize> = [('L', 6), ('R', 15), ('K', 11)].into_iter().collect();
    assert_eq!(per_piece(&v, &setup), expected);
    assert_eq!(perft(&v, &v.start().unwrap(), 1), 32);
    assert_eq!(targets(&v, &setup, "Aa1"), sorted(&["Ba1", "Ca1", "Da1", "Ea1", "Fa1", "Ga1"]));
    assert_eq!(
        targets(&v, &setup, "Ae1"),
        sorted(&["Ad1", "Af1", "Ae2", "Be1", "Ad2", "Af2", "Bd1", "Bf1", "Be2", "Bd2", "Bf2"])
    );
}

/// The same position with Black to move: Black's `up` is -level, but the mirror makes
/// both vertical directions anyway; la8 on level G goes down Fa8 … Aa8 (6).
#[test]
fn tall_tower_black_lift_goes_down() {
    let v = example("tall-3d");
    let fen = v.game.setup.replace(" w ", " b ");
    assert_eq!(targets(&v, &fen, "Ga8"), sorted(&["Fa8", "Ea8", "Da8", "Ca8", "Ba8", "Aa8"]));
}

/// White La4 on level D, Black rook on Fa4 (the same column, two levels up), kings on
/// Ah1 and Gh8. The lift goes up to Ea4 and takes on Fa4 (Ga4 is behind the rook),
/// and down Ca4 Ba4 Aa4: 5. It never leaves the column: nothing on level D itself.
/// A rook in its place (`ride W`) would have 7 + 4 + 3 + 3 + 3 = 20 targets (files
/// b-h, ranks 5-8, ranks 1-3, levels E-G, levels A-C) with the column free.
#[test]
fn lift_moves_between_levels_only() {
    let v = example("tall-3d");
    let e = EMPTY_LEVEL;
    let lift = tower(["7k/8/8/8/8/8/8/8", "8/8/8/8/r7/8/8/8", e, "8/8/8/8/L7/8/8/8", e, e, "8/8/8/8/8/8/8/7K"], "w");
    assert_eq!(targets(&v, &lift, "Da4"), sorted(&["Ea4", "Fa4", "Ca4", "Ba4", "Aa4"]));
    let rook = tower(["7k/8/8/8/8/8/8/8", e, e, "8/8/8/8/R7/8/8/8", e, e, "8/8/8/8/8/8/8/7K"], "w");
    assert_eq!(targets(&v, &rook, "Da4").len(), 20);
}

// ------------------------------------------------------------------ cannon

/// Setup `r1c1k1cr/8/8/8/8/8/8/R1C1K1CR`, White to move:
/// - Ra1: a2 … a7 and takes the rook on a8 (7); b1 (1). 8.
/// - Cc1: quiet c2 … c7 (6; c8 holds a piece, and the ride cannot capture), b1, d1. 8.
///   Its hops: up, the screen c8 has nothing beyond; left, screen a1, nothing beyond;
///   right, screen e1 (its own king), then f1 empty, then its own cannon g1: no capture.
/// - Ke1: d1 f1 d2 e2 f2 (5); Black's cannons have no screen before any of them, and
///   the rooks hold the a- and h-files only.
/// - Cg1: quiet g2 … g7 (6) and f1: 7. Hops: up screen g8, nothing beyond; left screen
///   e1, then d1, then its own cannon c1; right screen h1, nothing beyond.
/// - Rh1: h2 … h7 and takes on h8: 7.
///
/// Total 35.
#[test]
fn cannon_setup_first_ply() {
    let v = example("cannon");
    let setup = v.game.setup.clone();
    let expected: BTreeMap<char, usize> = [('R', 15), ('C', 15), ('K', 5)].into_iter().collect();
    assert_eq!(per_piece(&v, &setup), expected);
    assert_eq!(perft(&v, &v.start().unwrap(), 1), 35);
    assert_eq!(v.fen(&v.start().unwrap()), setup);
}

/// Cannon on d1, a screen on d4 (White's own rook, or Black's), Black's rook on d7:
/// quiet d2 d3 (then the screen), a1 b1 c1, e1 f1 g1 (then its own king); the hop
/// up jumps d4, passes the empty d5 d6 and takes on d7. Left there is no screen;
/// right the screen h1 has nothing beyond. 9 targets either way.
#[test]
fn cannon_captures_over_one_screen_of_either_side() {
    let v = example("cannon");
    let expected = sorted(&["a1", "b1", "c1", "d2", "d3", "d7", "e1", "f1", "g1"]);
    assert_eq!(targets(&v, "k7/3r4/8/8/3R4/8/8/3C3K w - - 0 1", "d1"), expected);
    assert_eq!(targets(&v, "k7/3r4/8/8/3r4/8/8/3C3K w - - 0 1", "d1"), expected);
}

/// With nothing between d1 and the enemy rook on d7, the cannon moves quietly to
/// d2 … d6 but cannot take d7: d7 itself is the first piece, i.e. a screen, and
/// there is nothing beyond it on d8. Plus a1 b1 c1 e1 f1 g1: 11 targets.
#[test]
fn cannon_cannot_capture_without_a_screen() {
    let v = example("cannon");
    let got = targets(&v, "k7/3r4/8/8/8/8/8/3C3K w - - 0 1", "d1");
    assert_eq!(got, sorted(&["a1", "b1", "c1", "d2", "d3", "d4", "d5", "d6", "e1", "f1", "g1"]));
}

/// Two screens (White rooks on d3 and d5) before Black's rook on d7: the hop jumps
/// d3, passes d4 and stops at d5, which is not an enemy. Targets: d2, a1 b1 c1,
/// e1 f1 g1 (7); no d7.
#[test]
fn cannon_jumps_exactly_one_screen() {
    let v = example("cannon");
    let got = targets(&v, "k7/3r4/8/3R4/8/3R4/8/3C3K w - - 0 1", "d1");
    assert_eq!(got, sorted(&["a1", "b1", "c1", "d2", "e1", "f1", "g1"]));
}

/// Black's rook on d4 is the screen and White's own rook on d7 is the first piece
/// beyond it: no capture of d7 (own piece), and none of d4 (no screen before it).
/// Targets: d2 d3, a1 b1 c1, e1 f1 g1 (8).
#[test]
fn cannon_cannot_capture_its_own_pieces() {
    let v = example("cannon");
    let got = targets(&v, "k7/3R4/8/8/3r4/8/8/3C3K w - - 0 1", "d1");
    assert_eq!(got, sorted(&["a1", "b1", "c1", "d2", "d3", "e1", "f1", "g1"]));
}

/// `4c2k/8/8/8/8/8/4R3/4K3`: Black's cannon on e8 hops over White's rook e2 onto the
/// king e1: check. White's legal moves:
/// - Ke1 to d1 f1 d2 f2 (e2 is its own rook): the cannon's lines are the e-file and
///   rank 8, so all four are safe (after Kd1 the hop over e2 lands on an empty e1). 4.
/// - Re2 up e3 … e7 stays the one screen between e8 and e1: still check, illegal.
///   Re2xe8 removes the cannon: legal. Re2 to a2 b2 c2 d2 f2 g2 h2 leaves the e-file;
///   then e1 is the first piece below e8, a screen with nothing beyond: legal. 8.
///
/// Total 12.
#[test]
fn cannon_checks_through_a_screen() {
    let v = example("cannon");
    let pos = v.parse_fen("4c2k/8/8/8/8/8/4R3/4K3 w - - 0 1", "<test>").unwrap();
    assert!(v.in_check(&pos));
    let mut got: Vec<String> = v.legal_moves(&pos).iter().map(|m| coordinate(&v, m)).collect();
    got.sort();
    let expected = sorted(&[
        "e1d1", "e1f1", "e1d2", "e1f2", "e2e8", "e2a2", "e2b2", "e2c2", "e2d2", "e2f2", "e2g2", "e2h2",
    ]);
    assert_eq!(got, expected);
}

/// examples/spread-knights.rules: the start position's actions, by hand.
/// Chess moves: six pawn steps (a2-a3 … f2-f3) and six knight moves
/// (Nb1-a3/c3, Nc1-b3/d3, Ne1-d3/f3; rank 2 is full, the king is boxed in): 12.
/// Pawn splits: a pawn has one quiet move, so only step-and-stay; red is in
/// front, so one action per weight: 6 × 2 = 12. Knight splits: two targets
/// give three cell sets ({a,b}, {a,stay}, {b,stay}); the `fair` weight is one
/// action per set, the `heavy` one two (red on either cell): 3 × 3 = 9 per
/// knight, 27. In all 51, and nothing is a chance outcome.
#[test]
fn spread_knights_start() {
    let v = example("spread-knights");
    let start = v.start().expect("setup");
    let moves = v.legal_moves(&start);
    assert_eq!(moves.len(), 51);
    assert_eq!(moves.iter().filter(|m| m.spread == 0).count(), 12);
    assert!(moves.iter().all(|m| v.probability(&start, m) == num_rational::Ratio::from_integer(1)));
}
