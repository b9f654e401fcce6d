//! Claims evaluated on concrete positions and moves of the interpreter.
//!
//! These are the definitions the exploration ([`crate::explore`]) checks on
//! every position it reaches; the symbolic encoding states the same
//! properties for Z3.

use rulebook_interpreter::geometry::{Cell, Geometry};
use rulebook_interpreter::model::{Color, KindId, Property};
use rulebook_interpreter::position::{color_of, kind_of, MoveKind};
use rulebook_interpreter::{Move, Position, Variant};

/// Does the position property `p` hold in `pos`? (Move properties: `true`.)
///
/// * `NeverOn { kind, zone }`: no piece of `kind` owned by player `c` stands
///   on a cell of `zone[c]`.
/// * `NeverAdjacent { kind, other }`: no piece of `kind` of player `c` stands
///   one king step away (every coordinate differs by at most 1, not all equal)
///   from a piece of `other` of player `1 - c`.
/// * `AtMost { kind, count }`: neither player has more than `count` pieces of
///   `kind` on the board (pieces in hand do not count).
pub fn position_holds(v: &Variant, pos: &Position, p: &Property) -> bool {
    let nwords = v.tables.nwords;
    match p {
        Property::NeverOn { kind, zone } => (0..2u8).all(|c| {
            zone[c as usize]
                .iter()
                .all(|&cell| !is_piece(pos.board.get(cell as usize).copied().unwrap_or(0), *kind, c))
        }),
        Property::NeverAdjacent { kind, other } => {
            let geo = &v.game.geometry;
            (0..2u8).all(|c| {
                pos.cells_of(c, nwords).filter(|&a| is_piece(pos.board[a as usize], *kind, c)).all(|a| {
                    pos.cells_of(1 - c, nwords)
                        .filter(|&b| is_piece(pos.board[b as usize], *other, 1 - c))
                        .all(|b| !king_step(geo, a, b))
                })
            })
        }
        Property::AtMost { kind, count } => (0..2u8).all(|c| {
            let n = pos.cells_of(c, nwords).filter(|&a| is_piece(pos.board[a as usize], *kind, c)).count();
            n as u64 <= u64::from(*count)
        }),
        Property::NeverInHand { kind } => (0..2).all(|c| pos.hand[c][*kind as usize] == 0),
        Property::KeepsColour { .. } => true,
    }
}

/// Does the move property `p` hold of the move `m` played in `pos`?
/// (Position properties: `true`.)
///
/// * `KeepsColour { kind }`: every piece of `kind` the move displaces ends on
///   a cell of the colour it started on (colour: the parity of the coordinate
///   sum). A drop moves nothing. Castling moves two pieces: the king from
///   `m.from` to its castling destination and the partner from `m.aux` to its
///   own; each one of `kind` is checked. A promoting piece is the kind it was
///   before the move (`m.piece`).
pub fn move_holds(v: &Variant, pos: &Position, m: &Move, p: &Property) -> bool {
    let Property::KeepsColour { kind } = p else {
        return true;
    };
    let geo = &v.game.geometry;
    let us = pos.side as usize;
    match m.kind {
        MoveKind::Drop => true,
        MoveKind::Castle => {
            let Some(rule) = &v.game.castling else {
                // No castling rule: the move cannot happen; judge the king step alone.
                return m.piece != *kind || same_colour(geo, m.from, m.to);
            };
            let Some(side) = rule.sides.get(m.side as usize) else {
                return m.piece != *kind || same_colour(geo, m.from, m.to);
            };
            let king_ok = rule.king != *kind || same_colour(geo, m.from, side.king_to[us]);
            let rook_ok = rule.rook != *kind || same_colour(geo, m.aux as Cell, side.rook_to[us]);
            king_ok && rook_ok
        }
        _ => m.piece != *kind || same_colour(geo, m.from, m.to),
    }
}

/// Is `c` a piece of `kind` owned by `color`?
#[inline]
fn is_piece(c: u8, kind: KindId, color: Color) -> bool {
    c != 0 && kind_of(c) == kind && color_of(c) == color
}

/// Calls `f` with each coordinate of `cell`, axis by axis (no allocation).
#[inline]
fn for_coords(geo: &Geometry, cell: Cell, mut f: impl FnMut(usize, usize)) {
    let mut rest = cell as usize;
    for (a, axis) in geo.axes.iter().enumerate() {
        let n = axis.labels.len().max(1);
        f(a, rest % n);
        rest /= n;
    }
}

/// The parity of the coordinate sum of `cell` (its colour).
#[inline]
pub fn colour(geo: &Geometry, cell: Cell) -> usize {
    let mut sum = 0;
    for_coords(geo, cell, |_, x| sum += x);
    sum % 2
}

/// Do `a` and `b` have the same colour?
#[inline]
fn same_colour(geo: &Geometry, a: Cell, b: Cell) -> bool {
    colour(geo, a) == colour(geo, b)
}

/// Are `a` and `b` one king step apart: every coordinate differs by at most
/// one, and they are different cells?
pub fn king_step(geo: &Geometry, a: Cell, b: Cell) -> bool {
    if a == b {
        return false;
    }
    let (mut ra, mut rb) = (a as usize, b as usize);
    for axis in &geo.axes {
        let n = axis.labels.len().max(1);
        if (ra % n).abs_diff(rb % n) > 1 {
            return false;
        }
        ra /= n;
        rb /= n;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulebook_interpreter::load::load;
    use rulebook_interpreter::position::NO_PROMOTION;
    use std::path::Path;
    use std::sync::Arc;

    fn variant(name: &str) -> Variant {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("rules").join(format!("{name}.rules"));
        let (game, _) = load(&path).unwrap_or_else(|_| panic!("{} does not load", path.display()));
        Variant::new(Arc::new(game))
    }

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
            p.put(sq(v, &item[1..]), rulebook_interpreter::position::code(k, color), &v.tables);
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
            .find(|m| rulebook_interpreter::notation::coordinate(v, m) == text)
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
}
