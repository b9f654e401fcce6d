//! `forbid` conditions with `faces` and `in check` tests judged for a move
//! without making it ([`Sight`]): xiangqi's flying general and racing
//! kings' ban on checks are tested after every move, and a move of a piece
//! the test does not name changes only two cells, whose effect on a line
//! between two pieces, or on the attacks on a royal piece, is worked out
//! from the lines found once.

use super::{piece_read, Cx};
use crate::engine::movegen::{self, changes_two_cells, MoveLines};
use crate::engine::position::{color_of, kind_of, Move, Position, WORDS};
use crate::engine::tables::Tables;
use crate::model::cond::{Atom, Cond};
use crate::model::geometry::Cell;
use crate::model::{Color, Game, KindId};

/// The `forbid` conditions of one position, where each test is a `line` or
/// `count` of a named kind ([`super::piece_read`]), whether a player
/// passed, a `faces` between two sets of named kinds, or whether the
/// mover's opponent is in check: judged after a move that changes two
/// cells and touches no piece of a named kind, without making it. The
/// `line` and `count` tests keep their value, a judged move is no pass; a
/// `faces` test holds after the move where two of its pieces face each
/// other with the move's target cell not between them and no piece
/// between them but the one that moves away; the opponent is in check
/// where the moved piece attacks its royal piece from its new cell or
/// another piece does with the move made ([`MoveLines::hit_by_others_after`]).
pub(crate) struct Sight {
    /// Per player, the kinds the tests name (a bit per kind): a move that
    /// touches a piece of one of them is made and judged.
    read: [u64; 2],
    /// The alternatives (`or`) of literals (`and`): each test and whether it is negated.
    alternatives: Vec<Vec<(Test, bool)>>,
    /// The conditions' value after every judged move, where no test
    /// depends on the move (no pair of pieces that a move may leave facing
    /// each other, no `in check` test): xiangqi's generals on different
    /// files, most of the time.
    fixed: Option<bool>,
}

/// One test of a [`Sight`].
enum Test {
    /// Its value now, which a move of no named piece leaves as it is.
    Now(bool),
    /// A `faces` test: the pairs of its pieces on one line along its axis
    /// with at most one piece between them.
    Faces(Vec<Facing>),
    /// `in check` of the mover's opponent, who has one royal piece: the
    /// mover's attacks on it ([`movegen::move_lines`]), and its cell.
    Checks(MoveLines, Cell),
}

/// Two pieces on one line, the board's cells between them.
struct Facing {
    /// The cells between them.
    between: [u64; WORDS],
    /// The one piece between them, if any.
    blocker: Option<Cell>,
}

impl Facing {
    /// Do the two pieces face each other after a move from `from` to `to`
    /// that moves neither of them?
    fn after(&self, from: Cell, to: Cell) -> bool {
        self.between[to as usize / 64] >> (to % 64) & 1 == 0 && self.blocker.is_none_or(|b| b == from)
    }
}

impl Sight {
    /// `forbid` judged after the moves of the side to move of `pos` (the
    /// mover and the subject); `None` where some test is none of those
    /// [`Sight`] judges.
    pub(crate) fn new(game: &Game, t: &Tables, pos: &Position, forbid: &[&Cond]) -> Option<Sight> {
        let mover = pos.side;
        let cx = Cx { game, t, pos, mover, subject: mover, memo: None };
        let mut read = [0u64; 2];
        let mut name = |(owner, kind): (Color, KindId)| (kind < 64).then(|| read[owner as usize] |= 1 << kind);
        let mut alternatives = Vec::new();
        for cond in forbid {
            for conj in &cond.any_of {
                let mut tests = Vec::new();
                for lit in conj {
                    let test = match &lit.atom {
                        Atom::Faces { pieces, target, axis, through } => {
                            let (Some(a), Some(b)) = (pieces.kind, target.kind) else { return None };
                            name((pieces.who.player(mover, mover), a))?;
                            name((target.who.player(mover, mover), b))?;
                            if *through {
                                // Whatever stands between: only where the pieces are.
                                Test::Now(cx.atom(&lit.atom))
                            } else {
                                Test::Faces(facings(game, pos, &cx.cells(*pieces).1, &cx.cells(*target).1, *axis))
                            }
                        }
                        Atom::InCheck(who) if who.player(mover, mover) != mover => {
                            // The opponent's royal kinds are named: a move that takes one is made.
                            let them = mover ^ 1;
                            if pos.royal_count[them as usize] != 1 {
                                return None;
                            }
                            (0..64).filter(|k| t.royal_mask >> k & 1 != 0).try_for_each(|k| name((them, k)))?;
                            let king = pos.royal[them as usize];
                            Test::Checks(movegen::move_lines(t, pos, king, mover)?, king)
                        }
                        Atom::Passed(who) => {
                            // A judged move is no pass: the mover's flag is
                            // cleared where passes are kept, the other's stays.
                            let player = who.player(mover, mover);
                            Test::Now(pos.passed[player as usize] && (player != mover || !t.passing))
                        }
                        atom => {
                            name(piece_read(atom, mover, mover)?.piece)?;
                            Test::Now(cx.atom(atom))
                        }
                    };
                    tests.push((test, lit.negated));
                }
                alternatives.push(tests);
            }
        }
        let varies = |test: &Test| match test {
            Test::Now(_) => false,
            Test::Faces(pairs) => !pairs.is_empty(),
            Test::Checks(..) => true,
        };
        let fixed = (!alternatives.iter().flatten().any(|(test, _)| varies(test))).then(|| {
            let value = |test: &Test| matches!(test, Test::Now(true));
            alternatives.iter().any(|conj| conj.iter().all(|(test, negated)| value(test) != *negated))
        });
        Some(Sight { read, alternatives, fixed })
    }

    /// Does [`Sight::holds_after`] judge `m`, a move of `pos`? It changes
    /// two cells ([`changes_two_cells`]), and neither the piece it moves,
    /// what that piece turns into nor the piece it takes is of a kind the
    /// tests name.
    pub(crate) fn judges(&self, pos: &Position, m: &Move) -> bool {
        let named = |owner: Color, kind: KindId| kind >= 64 || self.read[owner as usize] >> kind & 1 != 0;
        let us = pos.side;
        let victim = pos.board[m.to as usize];
        changes_two_cells(m) && !named(us, m.piece) && !(m.is_promotion() && named(us, m.promotion)) && (victim == 0 || !named(color_of(victim), kind_of(victim)))
    }

    /// Does a condition hold after `m`, a move of `pos` [`Sight::judges`]?
    #[inline]
    pub(crate) fn holds_after(&self, t: &Tables, pos: &Position, m: &Move) -> bool {
        if let Some(fixed) = self.fixed {
            return fixed;
        }
        let value = |test: &Test| match test {
            Test::Now(v) => *v,
            Test::Faces(pairs) => pairs.iter().any(|p| p.after(m.from, m.to)),
            Test::Checks(lines, king) => {
                let kind = if m.is_promotion() { m.promotion } else { m.piece };
                lines.hit_by_others_after(m.from, m.to) || movegen::attacks_after_move(t, pos, kind, pos.side, m.to, m.from, *king)
            }
        };
        self.alternatives.iter().any(|conj| conj.iter().all(|(test, negated)| value(test) != *negated))
    }
}

/// The pairs of a cell of `xs` and one of `ys` on one line along `axis`
/// with every cell between them on the board and at most one piece between
/// them (a move changes at most one of those cells from full to empty).
fn facings(game: &Game, pos: &Position, xs: &[Cell], ys: &[Cell], axis: usize) -> Vec<Facing> {
    let geo = &game.geometry;
    let stride = geo.stride(axis);
    let size = geo.size(axis);
    let mut pairs = Vec::new();
    for &x in xs {
        let kx = geo.coord(x, axis);
        let base = x as usize - kx * stride;
        for &y in ys {
            // `y` on the line through `x`: only its coordinate along `axis` differs.
            let Some(off) = (y as usize).checked_sub(base).filter(|off| off % stride == 0 && off / stride < size && y != x) else { continue };
            let ky = off / stride;
            let mut between = [0u64; WORDS];
            let mut pieces = Vec::new();
            let mut on_board = true;
            for k in kx.min(ky) + 1..kx.max(ky) {
                let c = base + k * stride;
                on_board &= geo.on_board[c];
                between[c / 64] |= 1 << (c % 64);
                if pos.board[c] != 0 {
                    pieces.push(c as Cell);
                }
            }
            if on_board && pieces.len() <= 1 {
                pairs.push(Facing { between, blocker: pieces.first().copied() });
            }
        }
    }
    pairs
}
