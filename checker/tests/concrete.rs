//! Claims evaluated on concrete positions (`checker/src/concrete.rs`): true
//! and false cases of every property, on hand-made positions.

mod support;

use rulebook_checker::concrete::{colour, king_step, move_holds, position_holds};
use rulebook_interpreter::model::{KindId, Property};
use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::engine::position::{Move, MoveKind};
use rulebook_interpreter::{Position, Variant};
use support::variant;
use rulebook_interpreter::model::load::load;
use rulebook_interpreter::engine::position::NO_PROMOTION;
use std::path::Path;
use std::sync::Arc;

fn pos(v: &Variant, fen: &str) -> Position {
    v.parse_fen(fen, "<test>").unwrap_or_else(|d| panic!("bad FEN {fen}: {}", d.message))
}

/// A position the FEN reader would refuse (kings touching, pawns on
/// their last rank): pieces placed one by one, written `Ke4 kd5`.
fn placed(v: &Variant, pieces: &str) -> Position {
    let mut p = Position::empty();
    for item in pieces.split_whitespace() {
        let letter = item.chars().next().unwrap();
        let k = v.game.kind_by_letter(letter).unwrap();
        let color = if letter.is_ascii_uppercase() { 0 } else { 1 };
        p.put(sq(v, &item[1..]), rulebook_interpreter::engine::position::code(k, color), &v.tables);
    }
    p
}

fn kind(v: &Variant, name: &str) -> KindId {
    v.game.kind_by_name(name).unwrap()
}

fn sq(v: &Variant, name: &str) -> Cell {
    v.game.geometry.parse_square(name).unwrap()
}

/// The cells of one rank (0-based), from the geometry.
fn rank(v: &Variant, r: usize) -> Vec<Cell> {
    let geo = &v.game.geometry;
    geo.board_cells().filter(|&c| geo.coords(c)[1] == r).collect()
}

/// The move written `text` (coordinate notation) among the legal moves.
fn legal(v: &Variant, p: &Position, text: &str) -> Move {
    *v.legal_moves(p)
        .iter()
        .find(|m| rulebook_interpreter::text::notation::coordinate(v, m) == text)
        .unwrap_or_else(|| panic!("{text} is not legal"))
}

#[test]
fn never_on_own_zone() {
    let v = variant("chess");
    let pawn = kind(&v, "Pawn");
    let claim = Property::NeverOn { kind: pawn, zone: [rank(&v, 0), rank(&v, 7)] };
    assert!(position_holds(&v, &v.start().unwrap(), &claim));
    // A white pawn on rank 8 is in Black's zone, not White's: holds.
    assert!(position_holds(&v, &placed(&v, "Pa8 ke8 Ke1"), &claim));
    // A black pawn on rank 1 is in White's zone, not Black's: holds.
    assert!(position_holds(&v, &placed(&v, "pa1 ke8 Ke1"), &claim));
    // A white pawn on rank 1 fails, and so does a black pawn on rank 8.
    assert!(!position_holds(&v, &placed(&v, "Pa1 ke8 Ke1"), &claim));
    assert!(!position_holds(&v, &placed(&v, "pa8 ke8 Ke1"), &claim));
    // Other kinds on the zone do not matter.
    assert!(position_holds(&v, &pos(&v, "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1"), &claim));
    // Move properties are not position properties.
    assert!(position_holds(&v, &placed(&v, "Pa1 ke8 Ke1"), &Property::KeepsColour { kind: pawn }));
}

#[test]
fn never_adjacent_to_enemy() {
    let v = variant("chess");
    let king = kind(&v, "King");
    let knight = kind(&v, "Knight");
    let kings = Property::NeverAdjacent { kind: king, other: king };
    assert!(position_holds(&v, &v.start().unwrap(), &kings));
    assert!(position_holds(&v, &pos(&v, "8/8/8/3k4/8/3K4/8/8 w - - 0 1"), &kings));
    // Diagonal and orthogonal touching both fail.
    assert!(!position_holds(&v, &placed(&v, "kd5 Ke4"), &kings));
    assert!(!position_holds(&v, &placed(&v, "kd5 Kd4"), &kings));
    assert!(!position_holds(&v, &placed(&v, "kd5 Kc6"), &kings));
    // No wrapping across the board's edge: h4 and a5 are far apart.
    assert!(position_holds(&v, &pos(&v, "8/8/8/k7/7K/8/8/8 w - - 0 1"), &kings));
    // King next to an enemy knight: only the enemy's knights count.
    let king_knight = Property::NeverAdjacent { kind: king, other: knight };
    assert!(!position_holds(&v, &pos(&v, "8/8/8/3n4/4K3/8/8/7k w - - 0 1"), &king_knight));
    assert!(position_holds(&v, &pos(&v, "8/8/8/3N4/4K3/8/8/7k w - - 0 1"), &king_knight));
    // A black king next to a white knight fails too (the claim is per player).
    assert!(!position_holds(&v, &pos(&v, "8/8/8/3N4/4k3/8/8/7K w - - 0 1"), &king_knight));
}

#[test]
fn at_most_per_player() {
    let v = variant("chess");
    let queen = kind(&v, "Queen");
    let one = Property::AtMost { kind: queen, count: 1 };
    assert!(position_holds(&v, &v.start().unwrap(), &one));
    assert!(!position_holds(&v, &pos(&v, "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1"), &one));
    assert!(!position_holds(&v, &pos(&v, "qq2k3/8/8/8/8/8/8/4K3 w - - 0 1"), &one));
    // One each is fine: the bound is per player.
    assert!(position_holds(&v, &pos(&v, "q3k3/8/8/8/8/8/8/Q3K3 w - - 0 1"), &one));
    assert!(position_holds(&v, &pos(&v, "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1"), &Property::AtMost { kind: queen, count: 2 }));
    assert!(!position_holds(&v, &v.start().unwrap(), &Property::AtMost { kind: queen, count: 0 }));
}

#[test]
fn at_most_ignores_hands() {
    let v = variant("crazyhouse");
    let queen = kind(&v, "Queen");
    let one = Property::AtMost { kind: queen, count: 1 };
    assert!(position_holds(&v, &pos(&v, "4k3/8/8/8/8/8/8/Q3K3[QQ] w - - 0 1"), &one));
    assert!(!position_holds(&v, &pos(&v, "4k3/8/8/8/8/8/8/Q2QK3[] w - - 0 1"), &one));
}

#[test]
fn keeps_colour_plain_moves() {
    let v = variant("chess");
    let start = v.start().unwrap();
    let knight = Property::KeepsColour { kind: kind(&v, "Knight") };
    let bishop = Property::KeepsColour { kind: kind(&v, "Bishop") };
    let nf3 = legal(&v, &start, "g1f3");
    assert!(!move_holds(&v, &start, &nf3, &knight));
    assert!(move_holds(&v, &start, &nf3, &bishop), "not a bishop move");
    let e4 = legal(&v, &start, "e2e4");
    assert!(move_holds(&v, &start, &e4, &knight));
    let p = pos(&v, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert!(move_holds(&v, &p, &legal(&v, &p, "c1h6"), &bishop));
    assert!(move_holds(&v, &p, &legal(&v, &p, "c1a3"), &bishop));
    // A hand-made bishop "move" to the other colour fails.
    let odd = Move::normal(kind(&v, "Bishop"), sq(&v, "c1"), sq(&v, "c2"));
    assert!(!move_holds(&v, &p, &odd, &bishop));
    // Position properties hold of any move.
    assert!(move_holds(&v, &start, &nf3, &Property::AtMost { kind: 0, count: 0 }));
}

#[test]
fn keeps_colour_promotion_is_the_pawn_moving() {
    let v = variant("chess");
    let p = pos(&v, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let pawn = Property::KeepsColour { kind: kind(&v, "Pawn") };
    let bishop = Property::KeepsColour { kind: kind(&v, "Bishop") };
    let b8b = legal(&v, &p, "b7b8b");
    assert!(!move_holds(&v, &p, &b8b, &pawn), "b7 and b8 differ in colour");
    assert!(move_holds(&v, &p, &b8b, &bishop), "the bishop appears, it does not move");
    assert_ne!(b8b.promotion, NO_PROMOTION);
}

#[test]
fn keeps_colour_castling_moves_both_pieces() {
    let v = variant("chess");
    let p = pos(&v, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let king = Property::KeepsColour { kind: kind(&v, "King") };
    let rook = Property::KeepsColour { kind: kind(&v, "Rook") };
    let short = legal(&v, &p, "e1h1");
    let long = legal(&v, &p, "e1a1");
    assert_eq!(short.kind, MoveKind::Castle);
    // e1 -> g1 keeps colour, h1 -> f1 keeps colour.
    assert!(move_holds(&v, &p, &short, &king));
    assert!(move_holds(&v, &p, &short, &rook));
    // e1 -> c1 keeps colour, a1 -> d1 does not.
    assert!(move_holds(&v, &p, &long, &king));
    assert!(!move_holds(&v, &p, &long, &rook));
    // Black's long castling: a8 -> d8 changes colour too.
    let b = pos(&v, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert!(!move_holds(&v, &b, &legal(&v, &b, "e8a8"), &rook));
    assert!(move_holds(&v, &b, &legal(&v, &b, "e8h8"), &rook));
}

#[test]
fn keeps_colour_drops_move_nothing() {
    let v = variant("crazyhouse");
    let p = pos(&v, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    let knight = Property::KeepsColour { kind: kind(&v, "Knight") };
    let drop = legal(&v, &p, "N@e4");
    assert!(move_holds(&v, &p, &drop, &knight));
}

#[test]
fn colours_on_three_dimensions() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/raumschach.rules");
    let (game, _) = load(&path).ok().unwrap();
    let v = Variant::new(Arc::new(game));
    let geo = &v.game.geometry;
    let a = geo.parse_square("Aa1").unwrap();
    let b = geo.parse_square("Ba1").unwrap();
    let c = geo.parse_square("Bb2").unwrap();
    assert_ne!(colour(geo, a), colour(geo, b));
    assert!(king_step(geo, a, c), "one step on every axis");
    assert!(!king_step(geo, a, geo.parse_square("Ca1").unwrap()));
}

/// `hidden moves onto rank 8 only by Rook Queen` (Nebelschach's claim),
/// relative ranks: White's rank 8 and Black's rank 1.
fn far_rank_by_rook_or_queen(v: &Variant) -> Property {
    Property::HiddenArrivals { zone: [rank(v, 7), rank(v, 0)], kinds: vec![kind(v, "Rook"), kind(v, "Queen")] }
}

#[test]
fn hidden_arrivals_by_the_disguise_whatever_the_reveal() {
    let v = variant("nebelschach");
    let claim = far_rank_by_rook_or_queen(&v);
    // A face-down rook takes a face-down rook on a8: allowed, whatever either is drawn as.
    let p = pos(&v, "r?3k3/8/8/8/8/8/8/R?3K3 w - - 0 1");
    let to_a8: Vec<Move> = v.legal_moves(&p).into_iter().filter(|m| m.to == sq(&v, "a8")).collect();
    assert!(!to_a8.is_empty());
    assert!(to_a8.iter().all(|m| move_holds(&v, &p, m, &claim)));
    // A face-down bishop (b7, off its setup square) reaching a8 breaks it,
    // for every identity it is revealed as.
    let p = pos(&v, "4k3/1B?6/8/8/8/8/8/4K3 w - - 0 1");
    let b7a8: Vec<Move> = v.legal_moves(&p).into_iter().filter(|m| m.from == sq(&v, "b7") && m.to == sq(&v, "a8")).collect();
    assert!(!b7a8.is_empty());
    assert!(b7a8.iter().all(|m| !move_holds(&v, &p, m, &claim)));
    // The same bishop face up may go there: the claim is about face-down pieces.
    let p = pos(&v, "4k3/1B6/8/8/8/8/8/4K3 w - - 0 1");
    assert!(move_holds(&v, &p, &legal(&v, &p, "b7a8"), &claim));
    // Moves of face-down pieces elsewhere, and Black's far rank is rank 1.
    let p = pos(&v, "4k3/8/8/8/8/8/1b?6/4K3 b - - 0 1");
    assert!(v.legal_moves(&p).iter().filter(|m| m.to == sq(&v, "a1")).all(|m| !move_holds(&v, &p, m, &claim)));
    assert!(v.legal_moves(&p).iter().filter(|m| m.to == sq(&v, "c3")).all(|m| move_holds(&v, &p, m, &claim)));
}

#[test]
fn hidden_arrivals_count_castling_partners() {
    let v = variant("nebelschach");
    // Castling moves the face-down partner to f1 or d1: with rank 1 as the
    // zone, a claim naming only the Queen is broken by castling; one naming
    // the Rook is not. Castling with a face-up rook moves no face-down piece.
    let zone = [rank(&v, 0), rank(&v, 7)];
    let queen = Property::HiddenArrivals { zone: zone.clone(), kinds: vec![kind(&v, "Queen")] };
    let rook = Property::HiddenArrivals { zone, kinds: vec![kind(&v, "Rook")] };
    let p = pos(&v, "4k3/8/8/8/8/8/P?7/R?3K2R{RP} w KQ - 0 1");
    let long: Vec<Move> = v.legal_moves(&p).into_iter().filter(|m| m.kind == MoveKind::Castle && m.aux as Cell == sq(&v, "a1")).collect();
    let short: Vec<Move> = v.legal_moves(&p).into_iter().filter(|m| m.kind == MoveKind::Castle && m.aux as Cell == sq(&v, "h1")).collect();
    assert!(long.len() > 1, "one castling per revealed identity");
    assert_eq!(short.len(), 1);
    assert!(long.iter().all(|m| !move_holds(&v, &p, m, &queen) && move_holds(&v, &p, m, &rook)));
    assert!(move_holds(&v, &p, &short[0], &queen));
}

#[test]
fn face_down_pieces_stay_where_the_setup_put_them() {
    use rulebook_checker::prove::Lemma;
    let v = variant("nebelschach");
    let start = v.start().unwrap();
    let lemma = Lemma::face_down_at(&v, &start);
    let Lemma::FaceDownAtSetup { cells } = &lemma else { panic!("{lemma:?}") };
    assert_eq!(cells.len(), 30, "15 face-down pieces a side");
    assert!(lemma.holds_in(&v, &start));
    let mut p = start.clone();
    for text in ["e2e4/N", "d7d5/P", "g1f3/Q"] {
        p = v.play(&p, &legal(&v, &p, text));
        assert!(lemma.holds_in(&v, &p), "after {text}");
    }
    // A face-down piece off its setup square, or not its setup piece there.
    assert!(!lemma.holds_in(&v, &pos(&v, "4k3/1B?6/8/8/8/8/8/4K3 w - - 0 1")));
    assert!(!lemma.holds_in(&v, &pos(&v, "4k3/8/8/8/8/8/8/N?3K3 w - - 0 1")));
    assert!(lemma.holds_in(&v, &pos(&v, "4k3/8/8/8/8/8/8/R?3K3 w - - 0 1")));
}
