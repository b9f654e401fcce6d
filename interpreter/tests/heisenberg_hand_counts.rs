//! Heisenberg Chess (rules/heisenberg.rules, issue 15): hand-counted move
//! lists, one position for each of rook seen by one and by three pieces,
//! bishop by two and by three, queen by one and by two, pawn by three (the
//! other cases are in heisenberg.rs).
//!
//! Each count follows the rulings "seen", "slowed-move" and "displacement":
//! a moving piece is seen at the first square S of its way (the squares it
//! passes and lands on) that an enemy piece could capture on, judged with
//! the mover lifted off its square; N is the number of those enemy pieces.
//! A seen move is replaced by (a) if S is empty and the kind has one below
//! it, one move of that kind from S (not back to the departure square), and
//! (b) a displacement to any empty or enemy non-king square N squares (king
//! steps) from the departure square, except the targets of the moves seen at
//! S; the moves seen at one S give one set of choices. A black pawn captures
//! diagonally towards rank 1.
//!
//! In every position the kings stand where they are not on any line or
//! ring of squares the count uses, and where no black piece can ever attack
//! the white king, so that no move is lost for the king's safety (said for
//! each position below).

mod support;
mod observed;

use observed::*;

use rulebook_interpreter::engine::position::{DISPLACED, SLOWED};



/// A rook seen by one piece, counted by hand. White: Rd4, Ka1; Black: Pg5,
/// Kh8. The kings: a1 is on neither the d-file nor rank 4, nor one square
/// from d4, nor on a diagonal through f4; h8 sees g7, g8, h7, none of them
/// on the rook's lines; the pawn and the black king never attack a1.
/// - Capturing ranges: the pawn on g5 sees f4 and h4; the black king g7, g8,
///   h7.
/// - Rd5 … Rd8, Rd3 … Rd1, Rc4 … Ra4 and Re4 pass no seen square: 11
///   unseen moves.
/// - Rf4, Rg4, Rh4 are seen first at f4 (h4 is seen too, but later), by the
///   pawn alone: N = 1.
/// - Slowed to a bishop from f4 (empty): g5 (capturing the pawn, which ends
///   the line), e5, d6, c7, b8, g3, h2, e3, d2, c1: 10 (d4, the departure
///   square, is on no diagonal of f4).
/// - Displaced one square from d4: c3, c4, c5, d3, d5, e3, e4, e5, all
///   empty: 8 (f4, g4, h4, the targets seen at f4, are farther anyway).
///
/// The rook has 11 + 10 + 8 = 29 moves.
#[test]
fn a_rook_seen_by_one_piece() {
    let v = heisenberg();
    let pos = at(&v, "7k/8/8/6p1/3R4/8/8/K7 w - - 0 1");
    let moves = v.legal_moves(&pos);
    assert_eq!(
        unseen(&v, &moves, "d4"),
        set(&["d5", "d6", "d7", "d8", "d3", "d2", "d1", "c4", "b4", "a4", "e4"])
    );
    assert_eq!(seen_squares(&v, &moves, "d4"), set(&["f4"]));
    assert_eq!(
        targets(&v, &moves, "d4", "f4", SLOWED),
        set(&["g5", "e5", "d6", "c7", "b8", "g3", "h2", "e3", "d2", "c1"])
    );
    assert_eq!(
        targets(&v, &moves, "d4", "f4", DISPLACED),
        set(&["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"])
    );
    assert_eq!(count(&v, &moves, "d4"), 29);
}

/// A rook seen by three pieces, counted by hand. White: Rd4, Kh1; Black:
/// Pc7, Pe7, Nf7, Kh8. The kings: h1 is on neither the d-file nor rank 4,
/// four squares from d4 (not on the ring of three), on no diagonal of d6
/// (h2 is), and no black piece here attacks it; h8 sees g7, g8, h7, none on
/// the rook's lines.
/// - Capturing ranges: the pawn on c7 sees b6 and d6; the pawn on e7 d6 and
///   f6; the knight on f7 d6, d8, e5, g5, h6, h8.
/// - Rd5 (d5 is seen by nobody), Rd3, Rd2, Rd1, Rc4, Rb4, Ra4, Re4 … Rh4
///   pass no seen square: 11 unseen moves.
/// - Rd6, Rd7, Rd8 are seen first at d6, by both pawns and the knight:
///   N = 3.
/// - Slowed to a bishop from d6 (empty): c7 and e7 (capturing the pawns,
///   which ends both lines north), e5, f4, g3, h2, c5, b4, a3: 9.
/// - Displaced three squares from d4: a1 … g1 (7), a7 … g7 (7), a2 … a6
///   (5), g2 … g6 (5), 24 squares, less d7, a target seen at d6: 23,
///   among them the captures on c7, e7 and f7 (g7 is empty), and d1, which
///   is also an ordinary move of the rook (only the targets seen at d6 are
///   left out).
///
/// The rook has 11 + 9 + 23 = 43 moves.
#[test]
fn a_rook_seen_by_three_pieces() {
    let v = heisenberg();
    let pos = at(&v, "7k/2p1pn2/8/8/3R4/8/8/7K w - - 0 1");
    let moves = v.legal_moves(&pos);
    assert_eq!(
        unseen(&v, &moves, "d4"),
        set(&["d5", "d3", "d2", "d1", "c4", "b4", "a4", "e4", "f4", "g4", "h4"])
    );
    assert_eq!(seen_squares(&v, &moves, "d4"), set(&["d6"]));
    assert_eq!(
        targets(&v, &moves, "d4", "d6", SLOWED),
        set(&["c7", "e7", "e5", "f4", "g3", "h2", "c5", "b4", "a3"])
    );
    let displaced = without(ring("d4", 3), &["d7"]);
    assert_eq!(displaced.len(), 23);
    assert!(
        displaced.contains("c7")
            && displaced.contains("e7")
            && displaced.contains("f7")
            && displaced.contains("d1")
    );
    assert_eq!(targets(&v, &moves, "d4", "d6", DISPLACED), displaced);
    assert_eq!(count(&v, &moves, "d4"), 43);
}

/// A bishop seen by two pieces, counted by hand. White: Bd4, Kh1; Black:
/// Pe7, Pg7, Kc8. The kings: h1 is on no diagonal of d4 (g1 is), nor two
/// squares from it, and no black piece here attacks it; c8 sees b7, b8, c7,
/// d7, d8, none on the bishop's diagonals (a7 and b6 are not among them),
/// and stands on no knight square of f6.
/// - Capturing ranges: the pawn on e7 sees d6 and f6; the pawn on g7 f6 and
///   h6.
/// - Be5, Bc5, Bb6, Ba7, Be3, Bf2, Bg1, Bc3, Bb2, Ba1 pass no seen square:
///   10 unseen moves.
/// - Bf6 and Bxg7 are seen first at f6, by both pawns: N = 2.
/// - Slowed to a knight from f6 (empty): d5, d7, e4, e8, g4, g8, h5, h7, all
///   empty: 8 (d4 is no knight's move from f6).
/// - Displaced two squares from d4: b2 … f2 (5), b6 … f6 (5), b3, b4, b5,
///   f3, f4, f5 (6), 16 squares, less f6, a target seen there: 15, all empty;
///   b2, f2 and b6 are also ordinary moves, and stay in (only the targets
///   seen at f6 are left out).
///
/// The bishop has 10 + 8 + 15 = 33 moves.
#[test]
fn a_bishop_seen_by_two_pieces() {
    let v = heisenberg();
    let pos = at(&v, "2k5/4p1p1/8/8/3B4/8/8/7K w - - 0 1");
    let moves = v.legal_moves(&pos);
    assert_eq!(
        unseen(&v, &moves, "d4"),
        set(&["e5", "c5", "b6", "a7", "e3", "f2", "g1", "c3", "b2", "a1"])
    );
    assert_eq!(seen_squares(&v, &moves, "d4"), set(&["f6"]));
    assert_eq!(
        targets(&v, &moves, "d4", "f6", SLOWED),
        set(&["d5", "d7", "e4", "e8", "g4", "g8", "h5", "h7"])
    );
    assert_eq!(
        targets(&v, &moves, "d4", "f6", DISPLACED),
        set(&[
            "b2", "c2", "d2", "e2", "f2", "b6", "c6", "d6", "e6", "b3", "b4", "b5", "f3", "f4",
            "f5"
        ])
    );
    assert_eq!(count(&v, &moves, "d4"), 33);
}

/// A bishop seen by three pieces, counted by hand. White: Bc1, Kh1; Black:
/// Pd4, Pf4, Ng4, Kh8. The kings: h1 is on no diagonal of c1, not three
/// squares from it, and none of the black pieces attacks it (the knight
/// attacks h2 and f2, the pawn on f4 g3); h8 sees g7, g8, h7, off every line
/// here.
/// - Capturing ranges: the pawn on d4 sees c3 and e3; the pawn on f4 e3 and
///   g3; the knight on g4 e3, e5, f2, f6, h2, h6.
/// - Bd2, Bb2, Ba3 pass no seen square: 3 unseen moves.
/// - Be3 and Bxf4 are seen first at e3, by both pawns and the knight: N = 3.
/// - Slowed to a knight from e3 (empty): c2, c4, d1, d5, f1, f5, g2, and g4
///   capturing the knight: 8 (c1 is no knight's move from e3).
/// - Displaced three squares from c1: a4, b4, c4, d4 (capturing the pawn),
///   e4, f4, f1, f2, f3 (the ring is cut by the a-file's edge), less f4, a
///   target seen at e3: 8.
///
/// The bishop has 3 + 8 + 8 = 19 moves.
#[test]
fn a_bishop_seen_by_three_pieces() {
    let v = heisenberg();
    let pos = at(&v, "7k/8/8/8/3p1pn1/8/8/2B4K w - - 0 1");
    let moves = v.legal_moves(&pos);
    assert_eq!(unseen(&v, &moves, "c1"), set(&["d2", "b2", "a3"]));
    assert_eq!(seen_squares(&v, &moves, "c1"), set(&["e3"]));
    assert_eq!(
        targets(&v, &moves, "c1", "e3", SLOWED),
        set(&["c2", "c4", "d1", "d5", "f1", "f5", "g2", "g4"])
    );
    assert_eq!(
        ring("c1", 3),
        set(&["a4", "b4", "c4", "d4", "e4", "f4", "f1", "f2", "f3"])
    );
    assert_eq!(
        targets(&v, &moves, "c1", "e3", DISPLACED),
        set(&["a4", "b4", "c4", "d4", "e4", "f1", "f2", "f3"])
    );
    assert_eq!(count(&v, &moves, "c1"), 19);
}

/// A queen seen by one piece, counted by hand. White: Qd1, Kh3; Black: Pe6,
/// Kh8. The kings: h3 is on none of the queen's lines (its diagonal ends
/// e2, f3, g4, h5), not one square from d1, and on neither rank 5 nor the
/// d-file; the pawn and the black king never attack it; h8 sees g7, g8, h7,
/// off every line here.
/// - Capturing ranges: the pawn on e6 sees d5 and f5.
/// - The queen's FIDE moves: a1, b1, c1, e1 … h1 (7), d2 … d8 (7), e2, f3,
///   g4, h5 (4), c2, b3, a4 (3): 21. Qd5, Qd6, Qd7, Qd8 are seen first at
///   d5, by the pawn alone: N = 1 (f5 is on none of the queen's lines). The
///   other 17 are unseen.
/// - Slowed to a rook from d5 (empty, the queen lifted off d1): d6, d7, d8,
///   d4, d3, d2 (not d1, the departure square), a5, b5, c5, e5, f5, g5, h5:
///   13.
/// - Displaced one square from d1: c1, c2, d2, e2, e1: 5.
///
/// The queen has 17 + 13 + 5 = 35 moves.
#[test]
fn a_queen_seen_by_one_piece() {
    let v = heisenberg();
    let pos = at(&v, "7k/8/4p3/8/8/7K/8/3Q4 w - - 0 1");
    let moves = v.legal_moves(&pos);
    assert_eq!(
        unseen(&v, &moves, "d1"),
        set(&[
            "a1", "b1", "c1", "e1", "f1", "g1", "h1", "d2", "d3", "d4", "e2", "f3", "g4", "h5",
            "c2", "b3", "a4"
        ])
    );
    assert_eq!(seen_squares(&v, &moves, "d1"), set(&["d5"]));
    assert_eq!(
        targets(&v, &moves, "d1", "d5", SLOWED),
        set(&["d6", "d7", "d8", "d4", "d3", "d2", "a5", "b5", "c5", "e5", "f5", "g5", "h5"])
    );
    assert_eq!(
        targets(&v, &moves, "d1", "d5", DISPLACED),
        set(&["c1", "c2", "d2", "e2", "e1"])
    );
    assert_eq!(count(&v, &moves, "d1"), 35);
}

/// A queen seen by two pieces, on a diagonal, counted by hand. White: Qd1,
/// Ka6; Black: Pg4, Nh4, Kh8. The kings: a6 is on none of the queen's
/// lines, not two squares from d1, on neither rank 3 nor the f-file, and no
/// black piece attacks it; h8 sees g7, g8, h7, off every line here.
/// - Capturing ranges: the pawn on g4 sees f3 and h3; the knight on h4 f3,
///   f5, g2, g6.
/// - The queen's FIDE moves: a1, b1, c1, e1 … h1 (7), d2 … d8 (7), e2, f3,
///   xg4 (3), c2, b3, a4 (3): 20. Qf3 and Qxg4 are seen first at f3 (e2 is
///   seen by nobody), by the pawn and the knight: N = 2. The other 18 are
///   unseen.
/// - Slowed to a rook from f3 (empty): f4 … f8 (5), f2, f1, e3, d3, c3, b3,
///   a3, g3, h3: 14 (d1 is on no line of f3).
/// - Displaced two squares from d1: b1, b2, b3, c3, d3, e3, f3, f2, f1 (the
///   ring is cut by the first rank), less f3, a target seen there: 8 (b3 is
///   also an ordinary move, and stays in).
///
/// The queen has 18 + 14 + 8 = 40 moves.
#[test]
fn a_queen_seen_by_two_pieces() {
    let v = heisenberg();
    let pos = at(&v, "7k/8/K7/8/6pn/8/8/3Q4 w - - 0 1");
    let moves = v.legal_moves(&pos);
    assert_eq!(
        unseen(&v, &moves, "d1"),
        set(&[
            "a1", "b1", "c1", "e1", "f1", "g1", "h1", "d2", "d3", "d4", "d5", "d6", "d7", "d8",
            "e2", "c2", "b3", "a4"
        ])
    );
    assert_eq!(seen_squares(&v, &moves, "d1"), set(&["f3"]));
    assert_eq!(
        targets(&v, &moves, "d1", "f3", SLOWED),
        set(&["f4", "f5", "f6", "f7", "f8", "f2", "f1", "e3", "d3", "c3", "b3", "a3", "g3", "h3"])
    );
    assert_eq!(
        ring("d1", 2),
        set(&["b1", "b2", "b3", "c3", "d3", "e3", "f3", "f2", "f1"])
    );
    assert_eq!(
        targets(&v, &moves, "d1", "f3", DISPLACED),
        set(&["b1", "b2", "b3", "c3", "d3", "e3", "f2", "f1"])
    );
    assert_eq!(count(&v, &moves, "d1"), 40);
}

/// A pawn seen by three pieces, counted by hand. White: Pe2, Ka1; Black:
/// Nc4, Pd4, Pf4, Kh8. The kings: a1 is not three squares from e2 (it is
/// four), and no black piece attacks it (the knight attacks a3 and b2, not
/// a1); h8 sees g7, g8, h7, far from e3.
/// - Capturing ranges: the pawn on d4 sees c3 and e3; the pawn on f4 e3 and
///   g3; the knight on c4 a3, a5, b2, b6, d2, d6, e3, e5.
/// - The pawn's FIDE moves: e3, and e4 (its path is e3, e4); d3 and f3
///   hold nothing to capture. Both are seen first at e3, by the two pawns
///   and the knight: N = 3; one set of choices for the two moves.
/// - A pawn has no slower kind: no slowed move.
/// - Displaced three squares from e2: b1 … b5 (5), h1 … h5 (5), c5, d5, e5,
///   f5, g5 (5), all empty: 15 (e3 and e4, the targets, are nearer anyway;
///   b1 and h1, the pawn's own first rank, are allowed by the ruling).
///
/// The pawn has 15 moves, none unseen.
#[test]
fn a_pawn_seen_by_three_pieces() {
    let v = heisenberg();
    let pos = at(&v, "7k/8/8/8/2np1p2/8/4P3/K7 w - - 0 1");
    let moves = v.legal_moves(&pos);
    assert!(unseen(&v, &moves, "e2").is_empty());
    assert_eq!(seen_squares(&v, &moves, "e2"), set(&["e3"]));
    assert!(targets(&v, &moves, "e2", "e3", SLOWED).is_empty());
    assert_eq!(
        targets(&v, &moves, "e2", "e3", DISPLACED),
        set(&[
            "b1", "b2", "b3", "b4", "b5", "h1", "h2", "h3", "h4", "h5", "c5", "d5", "e5", "f5",
            "g5"
        ])
    );
    assert_eq!(count(&v, &moves, "e2"), 15);
}
