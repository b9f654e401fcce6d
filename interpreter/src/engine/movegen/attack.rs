//! The attack test: is a cell attacked, is the royal piece in check, which
//! pieces are pinned. Walking versions for any board, bitset versions for
//! boards of at most 128 cells (generic over the [`CellSet`] of the board's width).

use super::*;
use crate::engine::tables::CellSet;
use crate::model::geometry::MAX_CELLS;

/// Is `cell` attacked by a piece of `by`?
///
/// With plain leaps and rides only, the look-back rays answer
/// ([`attacked_simple`]); a piece of `by` on `cell` is then attacked when
/// another of `by`'s defends it. Otherwise (hops, exact and lame leaps,
/// `from` and `within` zones, and out of rest, where a step and its reverse
/// can differ), and where `by` has few pieces ([`few_attackers`]) and
/// `cell` holds none of them, the test walks the attacker's capturing rays
/// forward ([`attacked_forward`]).
pub fn attacked(game: &Game, t: &Tables, pos: &Position, cell: Cell, by: Color) -> bool {
    debug_assert!(crate::engine::frame::tables_match(t, pos), "attack test with another frame's tables");
    let _ = game;
    // A cell of `by`'s own is defended when a capture could land there
    // were it the other side's: the look-back test says so, the forward
    // one (which no own piece's capture lands on) does not.
    let own = pos.board[cell as usize] != 0 && color_of(pos.board[cell as usize]) == by;
    if t.simple_attacks && (own || !few_attackers(t, pos, by)) {
        attacked_simple(t, pos, cell, by)
    } else {
        attacked_forward(t, pos, cell, by)
    }
}

/// Has `by` fewer pieces than a third of the cells a look-back test walks
/// on an empty board ([`Tables::look_back`])? Then walking forward from
/// each piece whose captures may reach the cell ([`attacked_forward`],
/// most pieces ruled out by one bit) costs less than looking back along
/// every direction from the cell (4D-Schach's 42 directions look back over
/// 60 cells on average, Raumschach's 50 over 44, chess's 16 over 28; a
/// half instead of a third made Raumschach's perft 4 take 0.7% more
/// instructions).
#[inline]
fn few_attackers(t: &Tables, pos: &Position, by: Color) -> bool {
    let pieces: u32 = pos.occupied[by as usize][..t.nwords].iter().map(|w| w.count_ones()).sum();
    pieces * 3 < t.look_back[by as usize]
}

/// Every cell [`attacked`] holds attacked by `by` in `pos`, found at once
/// (for testing many cells of one position: where a piece may be placed):
/// each capturing ray of each piece of `by` walked once, as
/// the forward attack test walks it for one cell. A cell of `by`'s own is
/// never attacked. An empty cell is attacked exactly when it is in a
/// position that differs only by a piece on that cell (the piece blocks
/// no ray to its own cell).
pub fn attacked_cells(t: &Tables, pos: &Position, by: Color) -> [u64; WORDS] {
    let mut hit = capture_cells(t, pos, by, NO_CELL);
    for (h, own) in hit.iter_mut().zip(&pos.occupied[by as usize]) {
        *h &= !own;
    }
    hit
}

/// The empty cells from which a piece of `kind` of the side to move could
/// capture an enemy piece in `pos` ([`super::would_capture`] of every
/// cell at once), found by looking back from each enemy piece along the
/// attack directions that `kind` captures along, as far as it reaches,
/// up to the first piece. `None` where the look-back rays are not exact
/// (`simple_attacks` off) or a move of `kind` has a condition (`if
/// unmoved`, `if not in check`).
pub fn capturing_cells(game: &Game, t: &Tables, pos: &Position, kind: KindId) -> Option<[u64; WORDS]> {
    let conditional = game.kinds.get(kind as usize)?.parts.iter().any(|p| p.unmoved || p.not_in_check);
    if !t.simple_attacks || conditional || kind >= 64 {
        return None;
    }
    let us = pos.side;
    let dirs = &t.attack_dirs[us as usize];
    let mut hit = [0u64; WORDS];
    // Each enemy piece's look-back rays, cell by cell (`Tables::look_back_from`).
    for enemy in pos.cells_of(us ^ 1, t.nwords) {
        for (dir, &(start, len)) in dirs.iter().zip(t.look_back_from(us, enemy)) {
            if dir.kinds >> kind & 1 == 0 {
                continue;
            }
            let ray = t.look_back_cells.get(start as usize..start as usize + len as usize).unwrap_or(&[]);
            for (&c, reach) in ray.iter().zip(&dir.reach) {
                if pos.board[c as usize] != 0 {
                    break;
                }
                if reach >> kind & 1 != 0 {
                    hit[c as usize / 64] |= 1 << (c % 64);
                }
            }
        }
    }
    Some(hit)
}

/// Every cell a capture by `by` could land on in `pos` were a piece of the
/// other side there, `through` (a cell, or [`NO_CELL`]) taken as empty: a
/// royal piece's start cell, when its steps are judged. Unlike
/// [`attacked_cells`], a cell of `by`'s own is held when another piece of
/// `by` reaches it (it is defended).
pub(super) fn capture_cells(t: &Tables, pos: &Position, by: Color, through: Cell) -> [u64; WORDS] {
    capture_cells_onto(t, pos, by, through, None)
}

/// [`capture_cells`], exact on the cells of `zone` only where it is given
/// (a royal piece's landing cells): a piece none of whose captures may
/// land there, whatever stands between ([`Tables::reach_of`]), is not
/// walked. Outside `zone` a cell may be missing.
pub(super) fn capture_cells_onto(t: &Tables, pos: &Position, by: Color, through: Cell, zone: Option<&[u64; WORDS]>) -> [u64; WORDS] {
    capture_walk::<false>(t, pos, by, through, zone, &mut [0; WORDS])
}

/// [`capture_cells_onto`] for a royal piece's landings (`zone`), with the
/// cells whose contents its answer read added to `read`: the cells of the
/// pieces walked, and each cell a walk tested for a piece. Where none of
/// those changes and no piece of `by` comes to reach the zone, the answer
/// on the zone stays ([`super::RoyalZone`]).
pub(super) fn capture_cells_reading(t: &Tables, pos: &Position, by: Color, through: Cell, zone: &[u64; WORDS], read: &mut [u64; WORDS]) -> [u64; WORDS] {
    capture_walk::<true>(t, pos, by, through, Some(zone), read)
}

/// The walk of [`capture_cells_onto`], adding to `read` what it reads where `READS`.
#[inline(always)]
fn capture_walk<const READS: bool>(t: &Tables, pos: &Position, by: Color, through: Cell, zone: Option<&[u64; WORDS]>, read: &mut [u64; WORDS]) -> [u64; WORDS] {
    let mut hit = [0u64; WORDS];
    // Cells index the board and the sets masked to their size (they are
    // all below it), so that no step of the walks checks a bound.
    let mut mark = |c: Cell| hit[(c as usize / 64) % WORDS] |= 1 << (c % 64);
    let mut note = |c: Cell| {
        if READS {
            read[(c as usize / 64) % WORDS] |= 1 << (c % 64);
        }
    };
    let board = &pos.board;
    let occupied = |c: &Cell| *c != through && board[*c as usize % MAX_CELLS] != 0;
    // A piece whose reach misses the zone marks none of its cells: only
    // the zone's words from its first to its last set one (of the board's)
    // are compared.
    let zone = zone.map(|z| {
        let board = z.get(..t.nwords).unwrap_or(z);
        (z, board.iter().position(|&w| w != 0).unwrap_or(0)..board.iter().rposition(|&w| w != 0).map_or(0, |w| w + 1))
    });
    for from in pos.cells_of(by, t.nwords) {
        let kind = kind_of(board[from as usize % MAX_CELLS]);
        if let Some((z, words)) = &zone {
            let reach = t.reach_of(kind, by, from);
            if reach.get(words.clone()).unwrap_or(&[]).iter().zip(&z[words.clone()]).all(|(r, z)| r & z == 0) {
                continue;
            }
        }
        note(from);
        let piece = t.rays_of(kind, by, from);
        for ray in piece.rays {
            let f = ray.flags;
            if f & CAPTURE == 0 {
                continue;
            }
            let cells = piece.cells_of(ray);
            if f & (SCATTER | HOP | EXACT) == 0 {
                // A plain ride or leap: up to and including the first piece.
                for &c in cells {
                    mark(c);
                    note(c);
                    if occupied(&c) {
                        break;
                    }
                }
            } else if f & SCATTER != 0 {
                cells.iter().for_each(|&c| mark(c));
            } else if f & HOP != 0 {
                // Beyond the first piece (the screen), up to and including the next one, within the limit.
                let Some(screen) = cells.iter().position(occupied) else {
                    cells.iter().for_each(|&c| note(c));
                    continue;
                };
                cells[..=screen].iter().for_each(|&c| note(c));
                let piece = pos.board[cells[screen] as usize];
                if ray.screen_not != 0 && kind_of(piece) == ray.screen_not - 1 {
                    continue;
                }
                let beyond = &cells[screen + 1..];
                for &c in &beyond[..beyond.len().min(ray.hop_limit as usize)] {
                    mark(c);
                    note(c);
                    if occupied(&c) {
                        break;
                    }
                }
            } else if let Some((&last, before)) = cells.split_last() {
                // An exact leap: its last cell, past empty ones.
                before.iter().for_each(|&c| note(c));
                if !before.iter().any(occupied) {
                    mark(last);
                }
            }
        }
    }
    hit
}

/// [`attacked_general`] without a copy of the position or a move list: walks
/// every capturing ray of every piece of `by` forward, `cell` counting as
/// occupied by an enemy (so a capture could land there). Used with the
/// tables of a frame out of rest, where no look-back rays exist.
pub(super) fn attacked_forward(t: &Tables, pos: &Position, cell: Cell, by: Color) -> bool {
    let here = pos.board[cell as usize];
    if here != 0 && color_of(here) == by {
        return false; // nobody captures their own piece
    }
    let occupied = |c: Cell| c == cell || pos.board[c as usize] != 0;
    for from in pos.cells_of(by, t.nwords) {
        let kind = kind_of(pos.board[from as usize]);
        if !t.may_capture_on(kind, by, from, cell) {
            continue; // no capture of this piece lands on `cell`, whatever stands between
        }
        if captures_onto(t, pos, kind, by, from, cell, occupied) {
            return true;
        }
    }
    false
}

/// Does a capture of a piece of `kind` and `by` standing on `from` land on
/// `cell`, with the cells `occupied` says full (`cell` among them)? The
/// forward walk of one piece's capturing rays.
#[inline(always)]
fn captures_onto(t: &Tables, pos: &Position, kind: KindId, by: Color, from: Cell, cell: Cell, occupied: impl Fn(Cell) -> bool) -> bool {
    for (ray, cells) in t.rays_of(kind, by, from).iter() {
        let f = ray.flags;
        if f & CAPTURE == 0 {
            continue;
        }
        let hit = if f & SCATTER != 0 {
            cells.contains(&cell)
        } else if f & HOP != 0 {
            // Ride to the screen, then to the first occupied cell beyond it, within the limit.
            cells.iter().position(|&c| occupied(c)).is_some_and(|screen| {
                let piece = pos.board[cells[screen] as usize];
                if ray.screen_not != 0 && piece != 0 && kind_of(piece) == ray.screen_not - 1 {
                    return false; // `not over`: this screen may not be jumped
                }
                let beyond = &cells[screen + 1..];
                beyond[..beyond.len().min(ray.hop_limit as usize)].iter().find(|&&c| occupied(c)) == Some(&cell)
            })
        } else if f & EXACT != 0 {
            cells.split_last().is_some_and(|(&last, before)| last == cell && !before.iter().any(|&c| occupied(c)))
        } else {
            cells.iter().find(|&&c| occupied(c)) == Some(&cell)
        };
        if hit {
            return true;
        }
    }
    false
}

/// Does a piece of `kind` and `by`, just moved to `at` from `vacated`,
/// attack `cell` (a piece of the other side), nothing else on the board
/// changed? ([`attacked_forward`] for the one piece; with
/// [`MoveLines::hit_by_others_after`], whether a move gives check.)
pub fn attacks_after_move(t: &Tables, pos: &Position, kind: KindId, by: Color, at: Cell, vacated: Cell, cell: Cell) -> bool {
    let occupied = |c: Cell| c == cell || c != vacated && pos.board[c as usize] != 0;
    t.may_capture_on(kind, by, at, cell) && captures_onto(t, pos, kind, by, at, cell, occupied)
}

/// What one more piece, not of the attacking side, put on an empty cell
/// does to the attacks on a cell ([`AttackLines::shield`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shield {
    /// The cell is not attacked, wherever the piece is put.
    Unattacked,
    /// The cell is attacked, and stops being attacked exactly when the
    /// piece is put on one of these cells (none: it stays attacked).
    Blockers([u64; WORDS]),
}

impl Shield {
    /// Is the cell unattacked once the piece stands on `placed` (empty now)?
    #[inline]
    pub fn keeps(&self, placed: Cell) -> bool {
        match self {
            Shield::Unattacked => true,
            Shield::Blockers(cells) => cells[placed as usize / 64] >> (placed % 64) & 1 != 0,
        }
    }

    /// The shield against two sets of attacks together (the piece must
    /// block both).
    pub fn and(self, other: Shield) -> Shield {
        match (self, other) {
            (Shield::Unattacked, s) | (s, Shield::Unattacked) => s,
            (Shield::Blockers(a), Shield::Blockers(b)) => Shield::Blockers(std::array::from_fn(|w| a[w] & b[w])),
        }
    }

    /// The cells of `cells` (empty now) that keep the cell unattacked with
    /// the piece on them ([`Self::keeps`] over a bitset).
    pub fn kept_cells(&self, cells: &[u64; WORDS]) -> [u64; WORDS] {
        match self {
            Shield::Unattacked => *cells,
            Shield::Blockers(keep) => std::array::from_fn(|w| cells[w] & keep[w]),
        }
    }

    /// How many of `cells` (empty now) keep the cell unattacked with the
    /// piece on them ([`Self::keeps`] counted over a bitset).
    pub fn kept_among(&self, cells: &[u64; WORDS]) -> u64 {
        self.kept_cells(cells).iter().map(|w| u64::from(w.count_ones())).sum()
    }
}

/// The attacks of one side on a cell, as a move of the other side that
/// leaves the cell's piece where it is can change them ([`attack_lines`]):
/// the attacks that hit it now, each with the cells a piece would block it
/// on, and the attacks held off by one piece alone (a pin), with the
/// cells it may move to and keep holding them off.
#[derive(Clone, Debug, Default)]
pub struct AttackLines {
    /// Attacks that hit the cell now: the attacker's cell and the cells
    /// before the attacked one (none for a leap to independent cells).
    checks: Vec<(Cell, Vec<Cell>)>,
    /// Attacks blocked by one piece alone: the attacker's cell, the
    /// blocking piece's cell, and the cells before the attacked one.
    pins: Vec<(Cell, Cell, Vec<Cell>)>,
}

impl AttackLines {
    /// What one more piece of the defending side, put on an empty cell,
    /// does to the attacks ([`Shield`]): a ride or an exact leap is
    /// blocked by a piece before the cell, a leap to independent cells by
    /// none, and a piece put on the board frees no pinned piece.
    pub fn shield(&self) -> Shield {
        self.shield_from(|_| true)
    }

    /// [`Self::shield`] against the attacks of the attackers on the cells
    /// `from` keeps only.
    pub fn shield_from(&self, from: impl Fn(Cell) -> bool) -> Shield {
        let mut checks = self.checks.iter().filter(|(attacker, _)| from(*attacker)).peekable();
        if checks.peek().is_none() {
            return Shield::Unattacked;
        }
        let mut cells = [!0u64; WORDS];
        for (_, path) in checks {
            let mut on = [0u64; WORDS];
            for &c in path {
                on[c as usize / 64] |= 1 << (c % 64);
            }
            cells.iter_mut().zip(on).for_each(|(a, b)| *a &= b);
        }
        Shield::Blockers(cells)
    }

    /// The cells a piece of the defending side other than the attacked one,
    /// pinned by none of these attacks, may move to and leave the cell
    /// unattacked: on every attack that hits it now, the attacker's cell or
    /// one before the attacked cell (every cell where none hits it).
    pub fn evasions(&self) -> [u64; WORDS] {
        let mut cells = [!0u64; WORDS];
        for (attacker, path) in &self.checks {
            let mut on = [0u64; WORDS];
            for &c in path.iter().chain(std::iter::once(attacker)) {
                on[c as usize / 64] |= 1 << (c % 64);
            }
            cells.iter_mut().zip(on).for_each(|(a, b)| *a &= b);
        }
        cells
    }

    /// The cells a piece of the defending side on `from` (not the attacked
    /// cell) may move to and leave the cell unattacked, capturing what
    /// stands there and changing no other cell: [`Self::safe_after`] for
    /// every `to` at once (the cells ending every attack that hits it now,
    /// on the line of each attack `from` alone holds off).
    pub fn safe_targets(&self, from: Cell) -> [u64; WORDS] {
        let mut cells = self.evasions();
        for (attacker, _, path) in self.pins.iter().filter(|(_, pinned, _)| *pinned == from) {
            let mut on = [0u64; WORDS];
            for &c in path.iter().chain(std::iter::once(attacker)) {
                on[c as usize / 64] |= 1 << (c % 64);
            }
            cells.iter_mut().zip(on).for_each(|(a, b)| *a &= b);
        }
        cells
    }

    /// Is the cell unattacked, and held off by no piece alone? Then every
    /// move of another defending piece that changes only its two cells
    /// leaves it unattacked.
    pub fn clear(&self) -> bool {
        self.checks.is_empty() && self.pins.is_empty()
    }

    /// Is the cell unattacked after a move that takes a piece of the
    /// defending side from `from` (not the attacked cell) to `to`,
    /// capturing what stands there and changing no other cell?
    pub fn safe_after(&self, from: Cell, to: Cell) -> bool {
        let holds = |attacker: Cell, path: &[Cell]| to == attacker || path.contains(&to);
        self.checks.iter().all(|(attacker, path)| holds(*attacker, path))
            && self.pins.iter().all(|(attacker, pinned, path)| *pinned != from || holds(*attacker, path))
    }
}

/// Does `m`, in a game whose moves touch only their own pieces
/// ([`crate::engine::cond::moves_touch_only_their_pieces`]), take a piece
/// from one cell to another, capturing what stands there, and change no
/// other cell (not castling, en passant, a drop or a pass)? Such a move of
/// a piece other than the royal one is judged by [`AttackLines::safe_after`].
pub fn changes_two_cells(m: &Move) -> bool {
    matches!(m.kind, MoveKind::Normal | MoveKind::EnPassantSetter) && m.from != m.to
}

/// The attacks of `by` on `cell` in `pos` as [`AttackLines`], from one walk
/// over `by`'s capturing rays (the board's own pieces, the tables'
/// frame): a ride or an exact leap hits `cell` when no cell before it is
/// occupied, and a move can only empty one cell and fill another, so a
/// ray with two pieces or more before `cell` stays blocked. `None` where
/// a hop of `by` could land on `cell` (a move can make or take its screen:
/// [`move_lines`] judges those too).
pub fn attack_lines(t: &Tables, pos: &Position, cell: Cell, by: Color) -> Option<AttackLines> {
    attack_lines_from(t, pos, cell, by, |_| true)
}

/// [`attack_lines`] of the attackers on the cells `from` keeps only.
pub fn attack_lines_from(t: &Tables, pos: &Position, cell: Cell, by: Color, from: impl Fn(Cell) -> bool) -> Option<AttackLines> {
    walk_lines(t, pos, cell, by, from, None)
}

/// The attacks of `by` on `cell` in `pos` as a move of the other side
/// that leaves the cell's piece where it is can change them, hops
/// included ([`MoveLines`]); `None` where a hop that could land on `cell`
/// may not jump some kind (`not over`: the screen a move puts there
/// matters) or its path is longer than 64 cells.
pub fn move_lines(t: &Tables, pos: &Position, cell: Cell, by: Color) -> Option<MoveLines> {
    let mut hops = Vec::new();
    let lines = walk_lines(t, pos, cell, by, |_| true, Some(&mut hops))?;
    Some(MoveLines { lines, hops })
}

/// [`attack_lines_from`], each hop that could land on `cell` kept in
/// `hops` where they are given (else `None` at the first).
fn walk_lines(t: &Tables, pos: &Position, cell: Cell, by: Color, from: impl Fn(Cell) -> bool, mut hops: Option<&mut Vec<HopLine>>) -> Option<AttackLines> {
    let mut lines = AttackLines::default();
    for from in pos.cells_of(by, t.nwords).filter(|&c| from(c)) {
        let kind = kind_of(pos.board[from as usize]);
        if !t.may_capture_on(kind, by, from, cell) {
            continue;
        }
        for (ray, cells) in t.rays_of(kind, by, from).iter() {
            let f = ray.flags;
            if f & CAPTURE == 0 {
                continue;
            }
            let path: &[Cell] = if f & SCATTER != 0 {
                if !cells.contains(&cell) {
                    continue;
                }
                &[]
            } else if f & HOP != 0 {
                let Some(at) = cells.iter().position(|&c| c == cell) else { continue };
                let hops = hops.as_deref_mut()?;
                let path = &cells[..at];
                if ray.screen_not != 0 || path.len() > 64 {
                    return None;
                }
                let occupied = path.iter().enumerate().fold(0u64, |o, (i, &c)| o | u64::from(pos.board[c as usize] != 0) << i);
                // A move empties at most one cell of the path and fills
                // at most one: with three pieces or more on it, never one.
                if occupied.count_ones() <= 2 {
                    hops.push(HopLine { attacker: from, path: path.to_vec(), occupied, limit: u32::from(ray.hop_limit) });
                }
                continue;
            } else if f & EXACT != 0 {
                match cells.split_last() {
                    Some((&last, before)) if last == cell => before,
                    _ => continue,
                }
            } else {
                match cells.iter().position(|&c| c == cell) {
                    Some(i) => &cells[..i],
                    None => continue,
                }
            };
            let mut blockers = path.iter().filter(|&&c| pos.board[c as usize] != 0);
            match (blockers.next(), blockers.next()) {
                (None, _) => lines.checks.push((from, path.to_vec())),
                (Some(&pinned), None) => lines.pins.push((from, pinned, path.to_vec())),
                _ => {}
            }
        }
    }
    Some(lines)
}

/// A hop of the attacking side whose ray passes the attacked cell, with
/// at most two pieces between ([`move_lines`]): it lands on the cell when
/// exactly one piece stands on `path` (its screen), no more than `limit`
/// cells before the cell.
#[derive(Clone, Debug)]
pub struct HopLine {
    /// The hopping piece's cell.
    attacker: Cell,
    /// The ray's cells from the attacker to the attacked one, both left out.
    path: Vec<Cell>,
    /// Which cells of `path` are occupied now (bit `i`: `path[i]`).
    occupied: u64,
    /// The most landing steps beyond the screen ([`crate::engine::tables::Ray::hop_limit`]).
    limit: u32,
}

impl HopLine {
    /// Does the hop miss the cell after a move of the defending side from
    /// `from` to `to` (as [`AttackLines::safe_after`])?
    fn misses_after(&self, from: Cell, to: Cell) -> bool {
        if to == self.attacker {
            return true; // taken
        }
        let mut occupied = self.occupied;
        for (i, &c) in self.path.iter().enumerate() {
            if c == from {
                occupied &= !(1 << i);
            } else if c == to {
                occupied |= 1 << i;
            }
        }
        // One screen, and the cell within the limit beyond it.
        occupied.count_ones() != 1 || self.path.len() as u32 - occupied.trailing_zeros() > self.limit
    }
}

/// [`AttackLines`] and the hops that pass the cell ([`move_lines`]): what
/// a move of the defending side that changes only two cells does to the
/// attacks on it, where hops attack too (a move can make or take away a
/// hop's screen).
#[derive(Clone, Debug, Default)]
pub struct MoveLines {
    lines: AttackLines,
    hops: Vec<HopLine>,
}

impl MoveLines {
    /// Is the cell unattacked after a move that takes a piece of the
    /// defending side from `from` (not the attacked cell) to `to`,
    /// capturing what stands there and changing no other cell?
    pub fn safe_after(&self, from: Cell, to: Cell) -> bool {
        self.lines.safe_after(from, to) && self.hops.iter().all(|h| h.misses_after(from, to))
    }

    /// Is the cell attacked, after a move of an attacking piece from `from`
    /// to `to` (empty, or holding a piece of the defending side it takes)
    /// that changes no other cell, by another attacking piece? An attack
    /// that hits it now goes on unless the moved piece steps into its
    /// path; one held off by the moved piece alone opens unless it stays
    /// on the path; a hop gains or loses its screen. (The moved piece's
    /// own attack is [`attacks_after_move`]'s.)
    pub fn hit_by_others_after(&self, from: Cell, to: Cell) -> bool {
        self.lines.checks.iter().any(|(attacker, path)| *attacker != from && !path.contains(&to))
            || self.lines.pins.iter().any(|(attacker, held, path)| *attacker != from && *held == from && !path.contains(&to))
            || self.hops.iter().any(|h| h.attacker != from && !h.misses_after(from, to))
    }
}

#[inline]
pub(super) fn attacked_simple(t: &Tables, pos: &Position, cell: Cell, by: Color) -> bool {
    for (dir, &(start, len)) in t.attack_dirs[by as usize].iter().zip(t.look_back_from(by, cell)) {
        let ray = &t.look_back_cells[start as usize..start as usize + len as usize];
        for (d, &c) in ray.iter().enumerate() {
            let occ = pos.board[c as usize];
            if occ != 0 {
                if color_of(occ) == by && dir.reach[d] >> kind_of(occ) & 1 != 0 {
                    return true;
                }
                break;
            }
        }
    }
    false
}

/// The attack test for any pattern by move generation: would a capture by
/// `by` land on `cell`? (The reference [`attacked_forward`] is tested against.)
#[cfg(test)]
pub(super) fn attacked_general(game: &Game, t: &Tables, pos: &Position, cell: Cell, by: Color) -> bool {
    let mut probe = pos.clone();
    probe.side = by;
    probe.ep_len = 0;
    if probe.board[cell as usize] == 0 {
        // Something to capture: a stand-in piece of the other side.
        probe.board[cell as usize] = code(0, by ^ 1);
    }
    let mut moves = Vec::new();
    for from in probe.cells_of(by, t.nwords) {
        piece_moves(&probe, t, from, &mut moves);
    }
    let _ = game;
    moves.iter().any(|m| m.to == cell)
}

/// Is the side to move in check (some royal piece of it attacked)?
pub fn in_check(game: &Game, t: &Tables, pos: &Position) -> bool {
    if pos.spread.is_some() {
        return super::spread_in_check(game, t, pos, pos.side);
    }
    royal_attacked(game, t, pos, pos.side)
}

/// Is some royal piece of `color` attacked (every one, for a player `in
/// check only when all royal pieces are attacked`)?
pub fn royal_attacked(game: &Game, t: &Tables, pos: &Position, color: Color) -> bool {
    if game.explosion.is_some() {
        return crate::engine::explosion::royal_attacked(game, t, pos, color);
    }
    match pos.royal_count[color as usize] {
        0 => false,
        1 => attacked(game, t, pos, pos.royal[color as usize], color ^ 1),
        _ => {
            let mut royal = pos.cells_of(color, t.nwords).filter(|&c| t.royal_mask >> kind_of(pos.board[c as usize]) & 1 != 0);
            if game.players[color as usize].all_royal {
                royal.all(|c| attacked(game, t, pos, c, color ^ 1))
            } else {
                royal.any(|c| attacked(game, t, pos, c, color ^ 1))
            }
        }
    }
}

// ---- Bitset shortcuts for boards of at most 128 cells ------------------------
//
// Cell indices change monotonically along any ray, so the nearest occupied cell
// on a ray is the lowest or highest set bit of `ray & occupied`, and the cells
// before it are the ray's bits below or above it.

/// The nearest set bit of `hits` along a ray.
#[inline(always)]
pub(super) fn nearest<S: CellSet>(hits: S, ascending: bool) -> u32 {
    if ascending {
        hits.first()
    } else {
        hits.last()
    }
}

/// The bits of `ray` before cell `b` along the ray.
#[inline(always)]
pub(super) fn before<S: CellSet>(ray: S, b: u32, ascending: bool) -> S {
    if ascending {
        ray & S::below(b)
    } else {
        ray & !S::through(b)
    }
}

/// [`attacked_simple`] with bitsets; `occ` is every occupied cell (as the
/// board is, or as a move being tested leaves it: it holds every piece of `by`).
#[inline]
pub(super) fn attacked_small<S: CellSet>(t: &Tables, pos: &Position, cell: Cell, by: Color, occ: S) -> bool {
    if leaping_attackers(t, pos, cell, by, occ) != S::EMPTY {
        return true;
    }
    let theirs = S::from_words(&pos.occupied[by as usize]);
    for dir in &t.attack_dirs[by as usize][S::tables(t).leap_groups[by as usize].leaps..] {
        let ray = S::dir_masks(dir)[cell as usize];
        let hits = ray & occ;
        if ray & theirs == S::EMPTY {
            continue; // no piece of `by` on the ray
        }
        let b = nearest(hits, dir.ascending);
        let code = pos.board[b as usize];
        // `occ` may differ from the board (a move being tested): a cell occupied
        // in `occ` but empty on the board holds one of the mover's pieces.
        if code != 0 && color_of(code) == by {
            let d = before(ray, b, dir.ascending).count() as usize;
            if dir.reach[d] >> kind_of(code) & 1 != 0 {
                return true;
            }
        }
    }
    false
}

/// The cells of `by`'s pieces that attack `cell` by a leap
/// ([`crate::engine::tables::BitTables::leap_groups`]), on a board of at
/// most 128 cells; `occ` is every occupied cell.
#[inline]
fn leaping_attackers<S: CellSet>(t: &Tables, pos: &Position, cell: Cell, by: Color, occ: S) -> S {
    let theirs = S::from_words(&pos.occupied[by as usize]);
    let mut found = S::EMPTY;
    for (kinds, masks) in &S::tables(t).leap_groups[by as usize].groups {
        let mut hits = masks[cell as usize] & occ & theirs;
        while hits != S::EMPTY {
            let b = hits.first();
            hits = hits.rest();
            if kinds >> kind_of(pos.board[b as usize]) & 1 != 0 {
                found |= S::bit(b as usize);
            }
        }
    }
    found
}

/// What the royal piece's safety allows, on a board of at most 128 cells.
pub(super) struct Safety<S> {
    /// How many enemy pieces attack the royal piece.
    pub(super) checkers: u32,
    /// Cells a move of another piece must land on to answer the check (the
    /// checker and the cells between); every cell when not in check.
    pub(super) resolve: S,
    /// Pinned pieces of the side to move.
    pub(super) pinned: S,
}

/// [`king_safety`] with bitsets, also finding the checkers.
#[inline]
pub(super) fn king_safety_small<S: CellSet>(t: &Tables, pos: &Position, king: Cell, us: Color, occ: S) -> Safety<S> {
    let mut s = Safety { checkers: 0, resolve: S::EMPTY, pinned: S::EMPTY };
    let leapers = leaping_attackers(t, pos, king, us ^ 1, occ);
    s.checkers = leapers.count();
    s.resolve = leapers;
    let theirs = S::from_words(&pos.occupied[(us ^ 1) as usize]);
    for dir in &t.attack_dirs[(us ^ 1) as usize][S::tables(t).leap_groups[(us ^ 1) as usize].leaps..] {
        let ray = S::dir_masks(dir)[king as usize];
        if ray & theirs == S::EMPTY {
            continue; // no enemy piece on the ray: no check, no pin
        }
        let hits = ray & occ;
        let b = nearest(hits, dir.ascending);
        let code = pos.board[b as usize];
        if color_of(code) != us {
            let between = before(ray, b, dir.ascending);
            if dir.reach[between.count() as usize] >> kind_of(code) & 1 != 0 {
                s.checkers += 1;
                s.resolve |= between | S::bit(b as usize);
            }
            continue;
        }
        let rest = hits & !S::bit(b as usize);
        if !dir.slides || rest == S::EMPTY {
            continue;
        }
        let b2 = nearest(rest, dir.ascending);
        let code2 = pos.board[b2 as usize];
        if color_of(code2) != us {
            let d = before(ray, b2, dir.ascending).count() as usize;
            if dir.reach[d] >> kind_of(code2) & 1 != 0 {
                s.pinned |= S::bit(b as usize);
            }
        }
    }
    if s.checkers == 0 {
        s.resolve = S::FULL;
    }
    s
}

/// Is the royal piece's destination safe, looking through its own start cell?
#[inline]
pub(super) fn king_step_safe(t: &Tables, pos: &Position, m: &Move, us: Color) -> bool {
    let by = us ^ 1;
    for (dir, &(start, len)) in t.attack_dirs[by as usize].iter().zip(t.look_back_from(by, m.to)) {
        let ray = &t.look_back_cells[start as usize..start as usize + len as usize];
        for (d, &c) in ray.iter().enumerate() {
            let occ = pos.board[c as usize];
            if occ != 0 && c != m.from {
                if color_of(occ) == by && dir.reach[d] >> kind_of(occ) & 1 != 0 {
                    return false;
                }
                break;
            }
        }
    }
    true
}

/// Whether the royal piece on `king` is attacked, and the cells of `us`'s
/// pieces that stand between it and an enemy rider (pinned), in one pass.
#[inline]
pub(super) fn king_safety(t: &Tables, pos: &Position, king: Cell, us: Color) -> (bool, [u64; WORDS]) {
    let mut pinned = [0u64; WORDS];
    let mut checked = false;
    for (dir, &(start, len)) in t.attack_dirs[(us ^ 1) as usize].iter().zip(t.look_back_from(us ^ 1, king)) {
        let ray = &t.look_back_cells[start as usize..start as usize + len as usize];
        let mut own: Cell = NO_CELL;
        for (d, &c) in ray.iter().enumerate() {
            let occ = pos.board[c as usize];
            if occ == 0 {
                continue;
            }
            if color_of(occ) == us {
                if own != NO_CELL || !dir.slides {
                    break;
                }
                own = c;
                continue;
            }
            if dir.reach[d] >> kind_of(occ) & 1 != 0 {
                if own == NO_CELL {
                    checked = true;
                } else {
                    pinned[own as usize / 64] |= 1 << (own % 64);
                }
            }
            break;
        }
    }
    (checked, pinned)
}


#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::frame;

    /// Random positions of `examples/sliding-levels.rules` (`games` lines
    /// of 30 plies from the seed), after each ply a level pulled out at
    /// random one time in `pull`: `look` sees each with its tables and a
    /// draw of the same generator (`look`'s second argument: a number below
    /// the one it is given).
    fn random_frames(seed: u64, games: usize, pull: usize, mut look: impl FnMut(&crate::Variant, &Position, &Tables, &mut dyn FnMut(usize) -> usize)) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/sliding-levels.rules");
        let Ok((game, _)) = crate::model::load::load(&path) else { panic!("the example does not load") };
        let v = crate::Variant::new(std::sync::Arc::new(game));
        let mut seed = seed;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..games {
            let mut pos = v.start().expect("setup");
            for _ in 0..30 {
                let moves = v.legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos = v.play(&pos, &moves[next(moves.len())]);
                let acts = frame::activations(&v.game, &pos);
                if !acts.is_empty() && next(pull) == 0 {
                    let (level, rows) = acts[next(acts.len())];
                    frame::activate(&v.game, &mut pos, level, rows);
                }
                let t = v.tables_for(&pos);
                look(&v, &pos, &t, &mut next);
            }
        }
    }

    /// On random positions of `examples/sliding-levels.rules` in random frames,
    /// walking the rays forward agrees with generating every capture on a copy,
    /// for every cell and both players.
    #[test]
    fn the_forward_walk_agrees_with_move_generation_out_of_rest() {
        let mut compared = 0;
        random_frames(0x9E37_79B9_7F4A_7C15, 30, 3, |v, pos, t, _| {
            if t.frame.is_empty() {
                return;
            }
            for cell in v.game.geometry.board_cells() {
                for by in 0..2 {
                    assert_eq!(
                        attacked_forward(t, pos, cell, by),
                        attacked_general(&v.game, t, pos, cell, by),
                        "{} {} by {by}",
                        v.fen(pos),
                        v.game.geometry.name(cell)
                    );
                    compared += 1;
                }
            }
        });
        assert!(compared > 10_000, "{compared} comparisons");
    }

    /// [`attacked_cells`] holds the cells [`attacked`] holds attacked (of
    /// those not the attacker's own), and an empty cell exactly when a piece of the other side put there
    /// would be attacked: on random positions of games with hops (the
    /// cannons of janggi and xiangqi, the grasshopper), `not over`
    /// screens, lame and exact leaps, and of `examples/sliding-levels.rules`
    /// in random frames. Looking through a royal piece's cell
    /// ([`capture_cells`]), the cells its steps may not go to are those
    /// the look-back test holds attacked.
    #[test]
    fn attacked_cells_agree_with_the_attack_test() {
        let (mut compared, mut attacked_empty) = (0, 0);
        let mut check = |v: &crate::Variant, pos: &Position, t: &Tables| {
            for by in 0..2 {
                let all = attacked_cells(t, pos, by);
                for cell in v.game.geometry.board_cells() {
                    let held = all[cell as usize / 64] >> (cell % 64) & 1 != 0;
                    let here = pos.board[cell as usize];
                    if here != 0 && color_of(here) == by {
                        // Never held; the attack test is not asked about a player's own pieces.
                        assert!(!held, "{} {} by {by}", v.fen(pos), v.game.geometry.name(cell));
                        continue;
                    }
                    assert_eq!(held, attacked(&v.game, t, pos, cell, by), "{} {} by {by}", v.fen(pos), v.game.geometry.name(cell));
                    if pos.board[cell as usize] == 0 {
                        let mut with = pos.clone();
                        with.put(cell, code(0, by ^ 1), t);
                        assert_eq!(held, attacked(&v.game, t, &with, cell, by), "{} {} by {by}, a piece put there", v.fen(pos), v.game.geometry.name(cell));
                        attacked_empty += usize::from(held);
                    }
                    compared += 1;
                }
                // Looking through the other side's royal piece (a king's
                // steps, judged by `count_legal_walking`): the look-back test.
                let king = pos.royal[(by ^ 1) as usize];
                if t.simple_attacks && pos.royal_count[(by ^ 1) as usize] == 1 {
                    let through = capture_cells(t, pos, by, king);
                    // On a zone (every third cell), the walk that skips the
                    // pieces that cannot reach it agrees there.
                    let zone: [u64; WORDS] = std::array::from_fn(|w| 0x9249_2492_4924_9249u64.rotate_left(w as u32));
                    let onto = capture_cells_onto(t, pos, by, king, Some(&zone));
                    for w in 0..WORDS {
                        assert_eq!(onto[w] & zone[w], through[w] & zone[w], "{} by {by}, through the king, on a zone", v.fen(pos));
                    }
                    for cell in v.game.geometry.board_cells() {
                        let here = pos.board[cell as usize];
                        if cell == king || (here != 0 && color_of(here) == by ^ 1) {
                            continue;
                        }
                        let step = Move::normal(kind_of(pos.board[king as usize]), king, cell);
                        let held = through[cell as usize / 64] >> (cell % 64) & 1 != 0;
                        assert_eq!(held, !king_step_safe(t, pos, &step, by ^ 1), "{} {} by {by}, through the king", v.fen(pos), v.game.geometry.name(cell));
                        compared += 1;
                    }
                }
            }
        };
        random_frames(0x0DDB_1A5E_5BAD_5EED, 10, 2, |v, pos, t, _| check(v, pos, t));
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for file in ["rules/fairy/janggi.rules", "rules/fairy/xiangqi.rules", "rules/grasshopper.rules", "rules/chess.rules", "rules/raumschach.rules"] {
            let Ok((game, _)) = crate::model::load::load(&root.join(file)) else { panic!("{file} does not load") };
            let v = crate::Variant::new(std::sync::Arc::new(game));
            let mut seed = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..6 {
                let mut pos = v.start().expect("setup");
                for _ in 0..40 {
                    let moves = v.legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos = v.play(&pos, &moves[(seed % moves.len() as u64) as usize]);
                    check(&v, &pos, &v.tables);
                }
            }
        }
        assert!(compared > 50_000 && attacked_empty > 5_000, "{compared} cells compared, {attacked_empty} empty ones attacked");
    }

    /// On random positions of `examples/sliding-levels.rules` in random
    /// frames, a cell's shield ([`AttackLines::shield`]) answers the attack
    /// test after a piece of the other side is put on any empty cell: the
    /// same answer as the forward walk on the board with that piece, one
    /// cell at a time and counted over them all ([`Shield::kept_among`]).
    #[test]
    fn a_shield_answers_the_attack_test_for_every_placed_piece() {
        let (mut compared, mut attacked_then_blocked) = (0, 0);
        random_frames(0x2545_F491_4F6C_DD1D, 30, 2, |v, pos, t, next| {
            let cells: Vec<Cell> = v.game.geometry.board_cells().collect();
            let empty: Vec<Cell> = cells.iter().copied().filter(|&c| pos.board[c as usize] == 0).collect();
            for _ in 0..4 {
                let cell = cells[next(cells.len())];
                let by = next(2) as Color;
                if pos.board[cell as usize] != 0 && color_of(pos.board[cell as usize]) == by {
                    continue;
                }
                let shield = attack_lines(t, pos, cell, by).expect("no hops in the example").shield();
                let before = attacked_forward(t, pos, cell, by);
                assert_eq!(shield == Shield::Unattacked, !before, "{}", v.fen(pos));
                let (mut unattacked_after, mut places) = (0, [0u64; WORDS]);
                for &placed in empty.iter().filter(|&&c| c != cell) {
                    places[placed as usize / 64] |= 1 << (placed % 64);
                    let mut with = pos.clone();
                    with.put(placed, code(0, by ^ 1), t);
                    let after = attacked_forward(t, &with, cell, by);
                    assert_eq!(shield.keeps(placed), !after, "{} {} placed on {}", v.fen(pos), v.game.geometry.name(cell), v.game.geometry.name(placed));
                    attacked_then_blocked += usize::from(before && !after);
                    unattacked_after += u64::from(!after);
                    compared += 1;
                }
                // Counted over all the empty cells at once, the same.
                assert_eq!(shield.kept_among(&places), unattacked_after, "{}", v.fen(pos));
            }
        });
        assert!(compared > 10_000 && attacked_then_blocked > 100, "{compared} comparisons, {attacked_then_blocked} blocked");
    }

    /// On random positions of `examples/sliding-levels.rules` in random
    /// frames, [`attack_lines`] of the side to move's king answers the
    /// attack test after each of its pseudo-legal moves by another piece
    /// that changes two cells: the same answer as the forward walk after
    /// the move is made.
    #[test]
    fn attack_lines_answer_the_attack_test_after_a_move() {
        let (mut compared, mut unsafe_after) = (0, 0);
        random_frames(0x1234_5678_9ABC_DEF1, 30, 2, |v, pos, t, _| {
            let us = pos.side;
            if pos.royal_count[us as usize] != 1 {
                return;
            }
            let king = pos.royal[us as usize];
            let lines = attack_lines(t, pos, king, us ^ 1).expect("no hops in the example");
            let mut pseudo = Vec::new();
            super::pseudo_moves(&v.game, t, pos, &mut pseudo);
            for m in pseudo.iter().filter(|m| m.from != king && m.kind == MoveKind::Normal) {
                let mut after = pos.clone();
                after.make(m, &v.game, t);
                let attacked = attacked_forward(t, &after, king, us ^ 1);
                assert_eq!(lines.safe_after(m.from, m.to), !attacked, "{} {}-{}", v.fen(pos), v.game.geometry.name(m.from), v.game.geometry.name(m.to));
                unsafe_after += usize::from(attacked);
                compared += 1;
            }
        });
        assert!(compared > 5_000 && unsafe_after > 100, "{compared} moves compared, {unsafe_after} leave the king attacked");
    }

    /// Along random games of xiangqi (cannons: hops of any length), janggi
    /// (cannons that may not jump a cannon: no lines, `None`) and
    /// grasshopper chess (hops that land just beyond the screen),
    /// [`move_lines`] of the side to move's royal piece answers the attack
    /// test after each pseudo-legal move of another piece that changes two
    /// cells as the forward walk does after the move is made, hops making
    /// and losing their screens among them.
    #[test]
    fn move_lines_answer_the_attack_test_after_a_move_with_hops() {
        let (mut compared, mut by_hops, mut unsafe_after, mut refused) = (0, 0, 0, 0);
        for (file, games) in [("rules/fairy/xiangqi.rules", 12), ("rules/fairy/janggi.rules", 4), ("rules/grasshopper.rules", 12)] {
            let v = crate::test_support::variant(file);
            let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ file.len() as u64;
            for _ in 0..games {
                let mut pos = v.start().expect("the setup");
                for _ in 0..60 {
                    let us = pos.side;
                    let t = v.tables_for(&pos);
                    if pos.royal_count[us as usize] == 1 {
                        let king = pos.royal[us as usize];
                        match move_lines(&t, &pos, king, us ^ 1) {
                            None => refused += 1,
                            Some(lines) => {
                                let mut pseudo = Vec::new();
                                super::pseudo_moves(&v.game, &t, &pos, &mut pseudo);
                                for m in pseudo.iter().filter(|m| m.from != king && changes_two_cells(m)) {
                                    let mut after = pos.clone();
                                    after.make(m, &v.game, &t);
                                    let attacked = attacked_forward(&t, &after, king, us ^ 1);
                                    let name = |c: Cell| v.game.geometry.name(c);
                                    assert_eq!(lines.safe_after(m.from, m.to), !attacked, "{file}: {} {}-{}", v.fen(&pos), name(m.from), name(m.to));
                                    by_hops += usize::from(attacked && lines.lines.safe_after(m.from, m.to));
                                    unsafe_after += usize::from(attacked);
                                    compared += 1;
                                }
                            }
                        }
                    }
                    let moves = v.legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    pos = v.play(&pos, &moves[(seed >> 33) as usize % moves.len()]);
                }
            }
        }
        assert!(compared > 30_000 && unsafe_after > 1_000 && by_hops > 500 && refused > 10, "{compared} moves compared, {unsafe_after} unsafe, {by_hops} by hops alone, {refused} positions refused");
    }

    /// On random positions of `examples/sliding-levels.rules` in random
    /// frames, each activation offered there: a cell's shield in the
    /// activation's frame is the same when only the attackers whose levels
    /// bracket a moved level ([`frame::unchanged_between`]) are looked at
    /// there, and the others' attacks are taken from the frame before (as
    /// the count of a relocation's activations does).
    #[test]
    fn attacks_between_unmoved_levels_survive_an_activation() {
        let (mut compared, mut reused, mut attacked) = (0, 0, 0);
        random_frames(0x0BAD_5EED_1234_5678, 20, 2, |v, pos, t, next| {
            let geo = &v.game.geometry;
            let Some(stack) = v.game.slide.as_ref().map(|s| s.stack_axis) else { panic!("the example slides") };
            let cells: Vec<Cell> = geo.board_cells().collect();
            for (level, rows) in frame::activations(&v.game, pos) {
                let mut moved = pos.clone();
                frame::activate(&v.game, &mut moved, level, rows);
                let t_now = v.tables_for(&moved);
                let changed = frame::changed_levels(&t.frame, &t_now.frame);
                assert_eq!(changed, 1 << level, "only level {level} moved");
                let cell = cells[next(cells.len())];
                let by = next(2) as Color;
                if pos.board[cell as usize] != 0 && color_of(pos.board[cell as usize]) == by {
                    continue;
                }
                let at = geo.coord(cell, stack);
                let same = |a: Cell| frame::unchanged_between(changed, geo.coord(a, stack), at);
                let whole = attack_lines(&t_now, &moved, cell, by).expect("no hops").shield();
                let before = attack_lines(t, pos, cell, by).expect("no hops");
                let split = attack_lines_from(&t_now, &moved, cell, by, |a| !same(a)).expect("no hops").shield().and(before.shield_from(same));
                assert_eq!(split, whole, "{} {} by {by}, level {level} by {rows}", v.fen(&moved), geo.name(cell));
                compared += 1;
                reused += usize::from(pos.cells_of(by, t.nwords).any(same));
                attacked += usize::from(whole != Shield::Unattacked);
            }
        });
        assert!(compared > 1_000 && reused > 500 && attacked > 100, "{compared} compared, {reused} reusing, {attacked} attacked");
    }

    /// The levels a path from one level to another reads: both ends and
    /// those between, by hand.
    #[test]
    fn a_path_reads_the_levels_from_its_origin_to_its_end() {
        let changed = frame::changed_levels(&[0, 0, 3, 0], &[0, 0, 0, 0, 0]);
        assert_eq!(changed, 0b100);
        assert_eq!(frame::changed_levels(&[], &[0, -2, 0, 1]), 0b1010);
        assert!(frame::unchanged_between(changed, 0, 1));
        assert!(frame::unchanged_between(changed, 3, 3));
        assert!(frame::unchanged_between(changed, 4, 3));
        assert!(!frame::unchanged_between(changed, 2, 2));
        assert!(!frame::unchanged_between(changed, 0, 3));
        assert!(!frame::unchanged_between(changed, 4, 1));
        assert!(!frame::unchanged_between(!0, 0, 0));
        assert!(frame::unchanged_between(0, 0, 200));
    }
}
