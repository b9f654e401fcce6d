//! A position of a variant (mailbox board, occupancy bitsets, side to move,
//! castling rights, en-passant targets, counters, hands) and how a move changes it.

use crate::model::geometry::{Cell, MAX_CELLS};
use crate::model::{Color, Game, KindId};
use crate::engine::tables::Tables;

/// No cell (an unset castling right or en-passant victim).
pub const NO_CELL: Cell = Cell::MAX;
/// Set on a piece code when the piece was promoted (it demotes when captured to hand).
pub const PROMOTED: u8 = 0x80;
/// Words of an occupancy bitset (enough for [`MAX_CELLS`]).
pub const WORDS: usize = MAX_CELLS / 64;

/// The code of a piece on the board: `1 + kind * 2 + color`, plus [`PROMOTED`].
#[inline]
pub fn code(kind: KindId, color: Color) -> u8 {
    1 + kind * 2 + color
}

/// The kind of a non-empty piece code.
#[inline]
pub fn kind_of(code: u8) -> KindId {
    ((code & !PROMOTED) - 1) >> 1
}

/// The owner of a non-empty piece code.
#[inline]
pub fn color_of(code: u8) -> Color {
    ((code & !PROMOTED) - 1) & 1
}

/// What a move does, beyond moving a piece from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// An ordinary move or capture.
    Normal,
    /// A move that leaves en-passant targets on the cells it passed.
    EnPassantSetter,
    /// A capture on an en-passant target: the victim stands elsewhere.
    EnPassant,
    /// Castling; `aux` is the partner's cell and `side` the castling side.
    Castle,
    /// A drop from hand onto `to`.
    Drop,
}

/// A move. Small and `Copy`; the meaning of `aux` depends on `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece starts (for a drop: the target cell).
    pub from: Cell,
    /// Where it lands (for castling: the king's destination).
    pub to: Cell,
    /// Castle: partner cell; en-passant setter: the ray's start in `Tables::cells`.
    pub aux: u32,
    /// What kind of move.
    pub kind: MoveKind,
    /// The moving (or dropped) piece kind.
    pub piece: KindId,
    /// The kind promoted to, or `NO_PROMOTION`.
    pub promotion: KindId,
    /// Castling side index.
    pub side: u8,
    /// A face-down piece moves (or castles as the partner): the identity it
    /// is revealed as on arrival, a chance outcome. [`NO_KIND`] otherwise.
    pub reveal: KindId,
    /// A face-down piece is captured: the identity drawn for it from its
    /// owner's pool, a chance outcome. [`NO_KIND`] otherwise.
    pub unveil: KindId,
    /// A split or entangle: the second cell the piece stands on ([`NO_CELL`] otherwise).
    pub second: Cell,
    /// The spread action (`crate::engine::spread::SPLIT`, `ENTANGLE`, `TUNNEL`, with its
    /// weight and `RED_SECOND`); 0 for an ordinary move.
    pub spread: u8,
    /// The chance outcome of a collision or tunnel (`crate::engine::spread::ATTACKER_RED` …); 0: none.
    pub outcome: u8,
    /// How observation changed the move (`observe`, issue 15): [`UNSEEN`],
    /// [`SLOWED`] or [`DISPLACED`]; for the last two `second` is the cell
    /// where the piece was seen.
    pub observed: u8,
    /// A gating move (`gate` in `hand`): the kind put from the mover's hand
    /// on the cell `second` (the cell the piece left, or castling's partner
    /// cell); [`WALL_GATE`]: a wall goes on `second` (duck chess, amazons);
    /// [`NO_KIND`] otherwise. Read it through [`Move::gated`] and [`Move::wall`].
    pub gate: KindId,
}

/// A move that no enemy piece saw (or in a variant without `observe`).
pub const UNSEEN: u8 = 0;
/// A seen piece went on from the seen cell moving as its `slow` kind.
pub const SLOWED: u8 = 1;
/// A seen piece was displaced to a cell at the distance its observers give.
pub const DISPLACED: u8 = 2;

/// Marks a move without promotion.
pub const NO_PROMOTION: KindId = KindId::MAX;
/// Marks a move without a reveal or unveiled capture.
pub const NO_KIND: KindId = KindId::MAX;
/// [`Move::gate`] of a move that also puts a wall on [`Move::second`].
pub const WALL_GATE: KindId = KindId::MAX - 1;
/// The board code of a wall: a blocker nobody owns (no kind has this code:
/// kinds are at most 63, and kind 63 would be code 127 for white only).
pub const WALL: u8 = 0x7F;

impl Move {
    /// A plain move of `piece` from `from` to `to`.
    pub fn normal(piece: KindId, from: Cell, to: Cell) -> Move {
        Move { from, to, aux: 0, kind: MoveKind::Normal, piece, promotion: NO_PROMOTION, side: 0, reveal: NO_KIND, unveil: NO_KIND, second: NO_CELL, spread: 0, outcome: 0, observed: UNSEEN, gate: NO_KIND }
    }

    /// A drop of `piece` from the mover's hand onto `cell`.
    pub fn drop(piece: KindId, cell: Cell) -> Move {
        Move { kind: MoveKind::Drop, ..Move::normal(piece, cell, cell) }
    }

    /// The player's decision in `self`, without its chance outcome: moves
    /// with equal decisions are the branches of one chance node.
    /// A revealed identity's promotion is chosen after the draw, so it is
    /// not part of the decision either.
    pub fn decision(&self) -> Move {
        let promotion = if self.reveal != NO_KIND { NO_PROMOTION } else { self.promotion };
        Move { reveal: NO_KIND, unveil: NO_KIND, outcome: 0, promotion, ..*self }
    }

    /// Does this move have a chance outcome (a reveal or an unveiled capture)?
    pub fn is_chance(&self) -> bool {
        self.reveal != NO_KIND || self.unveil != NO_KIND || self.outcome != 0
    }

    /// The kind a gating move puts from hand on `second`, if it is one.
    #[inline]
    pub fn gated(&self) -> Option<KindId> {
        (self.gate != NO_KIND && self.gate != WALL_GATE).then_some(self.gate)
    }

    /// The cell where this move puts a wall (duck chess, amazons), if any.
    #[inline]
    pub fn wall(&self) -> Option<Cell> {
        (self.gate == WALL_GATE).then_some(self.second)
    }

    /// Is this a pass (`pass` in a piece): a move of a piece to its own
    /// cell that promotes it to nothing?
    pub fn is_pass(&self) -> bool {
        self.from == self.to && self.promotion == NO_PROMOTION && matches!(self.kind, MoveKind::Normal)
    }

    /// Is this a promotion?
    pub fn is_promotion(&self) -> bool {
        self.promotion != NO_PROMOTION
    }
}

/// A position: everything that decides the legal moves from here.
#[derive(Clone)]
pub struct Position {
    /// Piece code per cell (0: empty).
    pub board: [u8; MAX_CELLS],
    /// Cells occupied by each player.
    pub occupied: [[u64; WORDS]; 2],
    /// The side to move.
    pub side: Color,
    /// Per player and castling side: the partner's cell while the right exists.
    pub castling: [[Cell; 2]; 2],
    /// En-passant target cells (empty cells a capture may land on).
    pub ep_targets: [Cell; 4],
    /// How many of `ep_targets` are set.
    pub ep_len: u8,
    /// The piece captured by an en-passant capture.
    pub ep_victim: Cell,
    /// Half-moves since the last capture or move of the fifty-move piece.
    pub halfmove: u32,
    /// Full-move number, starting at 1.
    pub fullmove: u32,
    /// Pieces in hand: per player, per kind.
    pub hand: [[u8; 64]; 2],
    /// Number of royal pieces per player.
    pub royal_count: [u8; 2],
    /// The royal piece's cell per player (valid when `royal_count` is 1).
    pub royal: [Cell; 2],
    /// Cells whose piece stands face down (it moves as the kind on the board,
    /// its disguise, and is revealed when it moves).
    pub hidden: [u64; WORDS],
    /// Per player, per kind: the identities of that player's face-down pieces
    /// not yet drawn. Their total equals the player's face-down pieces on the board.
    pub pool: [[u8; 64]; 2],
    /// Pieces standing on two cells (`spread { … }`); `None` when there are none.
    pub spread: Option<Box<crate::engine::spread::SpreadState>>,
    /// Sliding levels (`slide { … }`) not at rest; `None` when every level rests.
    pub frame: Option<Box<crate::engine::frame::Frame>>,
    /// The phase before play and the obligations of the current ply
    /// (`phase { … }`, issue 13); `None` in play with nothing owed.
    pub flow: Option<Box<crate::flow::Flow>>,
    /// Per player: how many of its moves gave check, counted only where a
    /// rule asks (`PLAYER gave check N times`, issue 17); else 0.
    pub checks: [u8; 2],
    /// Cells whose piece keeps its first-move right (the FEN castling field's
    /// file letters): it has not moved and was not captured there. Kept only
    /// where the rules use the right (`gate` in `hand`, a part `if unmoved`:
    /// `Tables::first_move_rights`); else empty.
    pub unmoved: [u64; WORDS],
    /// Cells holding a wall (board code [`WALL`]): a blocker nobody owns.
    pub walls: [u64; WORDS],
    /// The Zobrist key of the pieces on the board (walls left out), kept by
    /// [`Position::put`] and [`Position::take`] so that [`Position::key`]
    /// does not walk the pieces.
    board_key: u64,
    /// Per player: its last move was a pass (`pass` in a piece); not
    /// written in FEN (a position given as text follows no pass).
    pub passed: [bool; 2],
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position").field("side", &self.side).finish_non_exhaustive()
    }
}

impl Position {
    /// An empty position with white to move.
    pub fn empty() -> Position {
        Position {
            board: [0; MAX_CELLS],
            occupied: [[0; WORDS]; 2],
            side: 0,
            castling: [[NO_CELL; 2]; 2],
            ep_targets: [NO_CELL; 4],
            ep_len: 0,
            ep_victim: NO_CELL,
            halfmove: 0,
            fullmove: 1,
            hand: [[0; 64]; 2],
            royal_count: [0; 2],
            royal: [NO_CELL; 2],
            hidden: [0; WORDS],
            pool: [[0; 64]; 2],
            spread: None,
            frame: None,
            flow: None,
            checks: [0; 2],
            unmoved: [0; WORDS],
            passed: [false; 2],
            walls: [0; WORDS],
            board_key: 0,
        }
    }

    /// Is the piece on `cell` face down?
    #[inline]
    pub fn is_hidden(&self, cell: Cell) -> bool {
        self.hidden[cell as usize / 64] >> (cell % 64) & 1 != 0
    }

    /// Does the piece on `cell` keep its first-move right ([`Position::unmoved`])?
    #[inline]
    pub fn has_first_move_right(&self, cell: Cell) -> bool {
        self.unmoved[cell as usize / 64] >> (cell % 64) & 1 != 0
    }

    /// Gives the piece on `cell` its first-move right (`true`) or takes it.
    #[inline]
    pub fn set_first_move_right(&mut self, cell: Cell, right: bool) {
        let bit = 1u64 << (cell % 64);
        if right {
            self.unmoved[cell as usize / 64] |= bit;
        } else {
            self.unmoved[cell as usize / 64] &= !bit;
        }
    }

    /// Turns the piece on `cell` face down (`true`) or face up.
    #[inline]
    pub fn set_hidden(&mut self, cell: Cell, hidden: bool) {
        let bit = 1u64 << (cell % 64);
        if hidden {
            self.hidden[cell as usize / 64] |= bit;
        } else {
            self.hidden[cell as usize / 64] &= !bit;
        }
    }

    /// Does any piece stand face down?
    #[inline]
    pub fn any_hidden(&self) -> bool {
        self.hidden.iter().any(|&w| w != 0)
    }

    /// The number of identities in `color`'s pool.
    pub fn pool_size(&self, color: Color) -> u32 {
        self.pool[color as usize].iter().map(|&n| n as u32).sum()
    }

    /// Makes `self` equal to `src`, copying only the cells and bitset words the
    /// board has (cheaper than a clone on small boards). `self` must come from
    /// a position of the same game, so its unused cells are already empty.
    #[inline]
    pub fn copy_from(&mut self, src: &Position, t: &Tables) {
        if t.ncells <= 64 {
            // A fixed length: a few vector moves instead of a call to memcpy.
            self.board[..64].copy_from_slice(&src.board[..64]);
        } else {
            self.board[..t.ncells].copy_from_slice(&src.board[..t.ncells]);
        }
        self.board_key = src.board_key;
        // The cell sets: one word on a board of at most 64 cells, else the
        // whole arrays (fixed lengths: a few vector moves instead of a call
        // to memcpy per set).
        let n = t.nwords;
        // Pools are empty without face-down pieces: skip the copy then.
        let pools = (0..n).any(|w| src.hidden[w] | self.hidden[w] != 0);
        if n == 1 {
            self.occupied[0][0] = src.occupied[0][0];
            self.occupied[1][0] = src.occupied[1][0];
            self.hidden[0] = src.hidden[0];
            self.unmoved[0] = src.unmoved[0];
            self.walls[0] = src.walls[0];
        } else {
            self.occupied = src.occupied;
            self.hidden = src.hidden;
            self.unmoved = src.unmoved;
            self.walls = src.walls;
        }
        self.side = src.side;
        self.castling = src.castling;
        self.ep_targets = src.ep_targets;
        self.ep_len = src.ep_len;
        self.ep_victim = src.ep_victim;
        self.halfmove = src.halfmove;
        self.fullmove = src.fullmove;
        if t.hands {
            self.hand = src.hand;
        }
        self.royal_count = src.royal_count;
        self.royal = src.royal;
        self.checks = src.checks;
        if pools {
            self.pool = src.pool;
        }
        self.passed = src.passed;
        if self.spread.is_some() || src.spread.is_some() {
            self.spread.clone_from(&src.spread);
        }
        if self.frame.is_some() || src.frame.is_some() {
            self.frame.clone_from(&src.frame);
        }
        if self.flow.is_some() || src.flow.is_some() {
            self.flow.clone_from(&src.flow);
        }
    }

    /// Puts a piece code on an empty cell.
    #[inline]
    pub fn put(&mut self, cell: Cell, code: u8, t: &Tables) {
        let color = color_of(code);
        self.board[cell as usize] = code;
        self.board_key ^= piece_key(t, code, cell);
        self.occupied[color as usize][cell as usize / 64] |= 1 << (cell % 64);
        if t.royal_mask >> kind_of(code) & 1 != 0 {
            self.royal_count[color as usize] += 1;
            self.royal[color as usize] = cell;
        }
    }

    /// Removes and returns the piece on a cell (0 if empty).
    #[inline]
    pub fn take(&mut self, cell: Cell, t: &Tables) -> u8 {
        let code = self.board[cell as usize];
        if code != 0 {
            let color = color_of(code);
            self.board[cell as usize] = 0;
            if code != WALL {
                self.board_key ^= piece_key(t, code, cell);
            }
            self.occupied[color as usize][cell as usize / 64] &= !(1 << (cell % 64));
            if t.royal_mask >> kind_of(code) & 1 != 0 {
                self.royal_count[color as usize] -= 1;
                if self.royal_count[color as usize] == 1 {
                    self.royal[color as usize] = self.find_royal(color, t);
                }
            }
        }
        code
    }

    fn find_royal(&self, color: Color, t: &Tables) -> Cell {
        self.cells_of(color, t.nwords)
            .find(|&c| t.royal_mask >> kind_of(self.board[c as usize]) & 1 != 0)
            .unwrap_or(NO_CELL)
    }

    /// Iterates over the cells occupied by `color`.
    #[inline]
    pub fn cells_of(&self, color: Color, nwords: usize) -> impl Iterator<Item = Cell> + '_ {
        cells_in(&self.occupied[color as usize][..nwords])
    }

    /// Is `cell` an en-passant target now?
    #[inline]
    pub fn is_ep_target(&self, cell: Cell) -> bool {
        self.ep_targets[..self.ep_len as usize].contains(&cell)
    }

    /// The piece code `m` captures here (before it is made), if any: en
    /// passant takes its victim; drops and castling capture nothing.
    #[inline]
    pub fn captured(&self, m: &Move) -> Option<u8> {
        self.captured_at(m).map(|c| self.board[c as usize])
    }

    /// The cell of the piece `m` captures here (before it is made), if any.
    pub fn captured_at(&self, m: &Move) -> Option<Cell> {
        let cell = match m.kind {
            MoveKind::EnPassant => m.aux as Cell,
            MoveKind::Drop | MoveKind::Castle => return None,
            // A promotion in place (`becomes … in place`) captures nothing.
            MoveKind::Normal | MoveKind::EnPassantSetter if m.to == m.from => return None,
            MoveKind::Normal | MoveKind::EnPassantSetter => m.to,
        };
        (self.board[cell as usize] != 0).then_some(cell)
    }

    /// Puts a wall on the empty `cell`.
    pub fn set_wall(&mut self, cell: Cell) {
        self.board[cell as usize] = WALL;
        self.walls[cell as usize / 64] |= 1u64 << (cell % 64);
    }

    /// Takes every wall away.
    pub fn clear_walls(&mut self, t: &Tables) {
        for w in 0..t.nwords {
            let mut bits = self.walls[w];
            while bits != 0 {
                let c = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.board[c] = 0;
            }
            self.walls[w] = 0;
        }
    }

    /// Does `m` capture here (before it is made)?
    #[inline]
    pub fn is_capture(&self, m: &Move) -> bool {
        self.captured(m).is_some()
    }

    /// Plays `m` (which must be pseudo-legal here) and passes the turn.
    #[inline]
    pub fn make(&mut self, m: &Move, game: &Game, t: &Tables) {
        if crate::engine::spread::needs_spread_make(self, m) {
            crate::engine::spread::make(self, m, game, t);
        } else if game.explosion.is_some() && self.is_capture(m) {
            crate::engine::explosion::make_capture(self, m, game, t);
        } else {
            self.make_plain(m, game, t);
        }
        if t.after_make {
            self.after_make(m, game, t);
        }
    }

    /// What some rules keep after a move ([`Tables::after_make`]): who
    /// passed, first-move rights that rules take, checks given.
    #[cold]
    fn after_make(&mut self, m: &Move, game: &Game, t: &Tables) {
        let mover = (self.side ^ 1) as usize;
        if t.passing {
            // A pass: a move that leaves the piece where it is (no promotion).
            self.passed[mover] = m.is_pass();
        }
        // First-move rights that rules take (`… loses its first-move right`).
        if t.loses_rights {
            crate::engine::cond::lose_rights(game, t, self);
        }
        // Checks given, where a rule counts them: the mover's move gave check
        // when a royal piece of the side now to move is attacked.
        if t.counts_checks && crate::engine::movegen::royal_attacked(game, t, self, self.side) {
            self.checks[mover] = self.checks[mover].saturating_add(1);
        }
    }

    /// Plays `m` as a move of conventional pieces (no spread state involved).
    pub(crate) fn make_plain(&mut self, m: &Move, game: &Game, t: &Tables) {
        let us = self.side;
        self.ep_len = 0;
        self.ep_victim = NO_CELL;
        // Captures and moves of the fifty-move piece reset the count; drops do not.
        let mut resets = m.kind != MoveKind::Drop && game.end.fifty_move_piece == Some(m.piece);
        let mut revealed = false;
        match m.kind {
            MoveKind::Drop => {
                // `also promoted`: the piece goes down as its promoted form;
                // an `unlimited` drop takes nothing from the hand.
                if !game.hand.as_ref().is_some_and(|h| h.drop_limits.get(m.piece as usize).is_some_and(|l| l.unlimited)) {
                    self.hand[us as usize][m.piece as usize] -= 1;
                }
                let placed = if m.is_promotion() { m.promotion } else { m.piece };
                self.put(m.to, code(placed, us), t);
            }
            MoveKind::Castle => {
                let king = self.take(m.from, t);
                let mut rook = self.take(m.aux as Cell, t);
                if self.is_hidden(m.aux as Cell) {
                    // A face-down partner is revealed on arrival.
                    self.set_hidden(m.aux as Cell, false);
                    if m.reveal != NO_KIND {
                        self.pool[us as usize][m.reveal as usize] -= 1;
                        rook = code(m.reveal, us);
                        revealed = true;
                    }
                }
                if let Some(rule) = &game.castling {
                    let side = &rule.sides[m.side as usize];
                    self.put(side.king_to[us as usize], king, t);
                    self.put(side.rook_to[us as usize], rook, t);
                }
            }
            _ => {
                let victim_cell = if m.kind == MoveKind::EnPassant {
                    m.aux as Cell
                } else {
                    m.to
                };
                // A promotion in place (from = to) captures nothing.
                let mut victim = if m.from == m.to { 0 } else { self.take(victim_cell, t) };
                if victim != 0 && self.is_hidden(victim_cell) {
                    // A captured face-down piece: its identity is drawn from its owner's pool.
                    self.set_hidden(victim_cell, false);
                    if m.unveil != NO_KIND {
                        self.pool[(us ^ 1) as usize][m.unveil as usize] -= 1;
                        victim = code(m.unveil, us ^ 1);
                    }
                }
                if victim != 0 {
                    resets = true;
                    self.capture_to_hand(victim, game);
                    self.lose_right_at(victim_cell);
                    self.lose_rights_of_castler(victim, game);
                }
                let mut mover = self.take(m.from, t);
                if self.is_hidden(m.from) {
                    // A face-down piece is revealed on arrival.
                    self.set_hidden(m.from, false);
                    if m.reveal != NO_KIND {
                        self.pool[us as usize][m.reveal as usize] -= 1;
                        mover = code(m.reveal, us);
                        revealed = true;
                    }
                }
                if m.is_promotion() {
                    // A promoted form (`+P`) is its own mark, and one turning
                    // back into its base kind carries none.
                    let plus = |k: KindId| game.kinds.get(k as usize).is_some_and(|k| k.plus);
                    mover = code(m.promotion, us) | if plus(m.promotion) || plus(kind_of(mover)) { 0 } else { PROMOTED };
                }
                self.put(m.to, mover, t);
                if m.kind == MoveKind::EnPassantSetter {
                    // `aux`: where the ray's cells start among the piece's rays'.
                    let start = m.aux as usize;
                    let passed = t.rays_of(m.piece, us, m.from).cells.get(start..).unwrap_or(&[]);
                    let mut n = 0;
                    for &c in passed.iter().take(4) {
                        if c == m.to {
                            break;
                        }
                        self.ep_targets[n] = c;
                        n += 1;
                    }
                    self.ep_len = n as u8;
                    self.ep_victim = m.to;
                }
            }
        }
        if let Some(rule) = &game.castling {
            if m.piece == rule.king && m.kind != MoveKind::Drop {
                self.castling[us as usize] = [NO_CELL; 2];
            }
            self.lose_right_at(m.from);
        }
        if t.first_move_rights {
            // First-move rights: lost by the pieces that leave or are taken.
            if m.kind != MoveKind::Drop {
                self.set_first_move_right(m.from, false);
                self.set_first_move_right(m.to, false);
            }
            if matches!(m.kind, MoveKind::Castle | MoveKind::EnPassant) {
                // The partner, or the pawn taken en passant.
                self.set_first_move_right(m.aux as Cell, false);
            }
        }
        if t.converting && m.kind != MoveKind::Castle && !m.is_pass() {
            // `converts …`: enemy pieces near or closed off by the arrival change side.
            crate::engine::convert::after_landing(game, t, self, m.to, us);
        }
        if m.gate != NO_KIND {
            self.gate_or_wall(m, game, t);
        }
        if revealed && game.end.fifty_move_reveal {
            resets = true;
        }
        self.halfmove = if resets { 0 } else { self.halfmove.saturating_add(1) };
        if us == 1 {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side ^= 1;
    }

    /// The second part of a gating move (a piece from hand on the cell the
    /// move left) or of a walled one (the duck moved, an arrow added).
    #[cold]
    fn gate_or_wall(&mut self, m: &Move, game: &Game, t: &Tables) {
        let us = self.side;
        if let Some(kind) = m.gated() {
            // Gating: the gated piece keeps no first-move right.
            self.hand[us as usize][kind as usize] -= 1;
            self.put(m.second, code(kind, us), t);
        }
        if let Some(cell) = m.wall() {
            if game.players[us as usize].wall == Some(crate::model::WallRule::MovesAnywhere) {
                self.clear_walls(t);
            }
            self.set_wall(cell);
            // A wall on a square a pawn just passed: no capture can land there.
            let n = self.ep_len as usize;
            if let Some(i) = self.ep_targets[..n].iter().position(|&c| c == cell) {
                self.ep_targets.copy_within(i + 1..n, i);
                self.ep_len -= 1;
                if self.ep_len == 0 {
                    self.ep_victim = NO_CELL;
                }
            }
        }
    }

    /// A captured (or exploded) piece of the castling kind, unless promoted,
    /// takes its owner's castling rights with it (a royal one is never taken).
    pub(crate) fn lose_rights_of_castler(&mut self, piece: u8, game: &Game) {
        if let Some(rule) = &game.castling {
            if piece & PROMOTED == 0 && kind_of(piece) == rule.king {
                self.castling[color_of(piece) as usize] = [NO_CELL; 2];
            }
        }
    }

    pub(crate) fn lose_right_at(&mut self, cell: Cell) {
        for rights in &mut self.castling {
            for r in rights.iter_mut() {
                if *r == cell {
                    *r = NO_CELL;
                }
            }
        }
    }

    fn capture_to_hand(&mut self, victim: u8, game: &Game) {
        if let Some(hand) = &game.hand {
            if hand.capture_to_hand {
                let kind = match hand.demote_to {
                    Some(k) if victim & PROMOTED != 0 => k,
                    _ => hand.hand_kinds[kind_of(victim) as usize],
                };
                let slot = &mut self.hand[self.side as usize][kind as usize];
                *slot = slot.saturating_add(1);
            }
        }
    }

    /// A hash of everything that decides the legal moves (for repetition).
    pub fn key(&self, t: &Tables) -> u64 {
        let h = self.board_key;
        debug_assert_eq!(h, self.board_key_walked(t), "the board key kept by put and take");
        let mut extra = self.side as u64;
        for rights in &self.castling {
            for &r in rights {
                extra = extra.wrapping_mul(0x100000001B3).wrapping_add(r as u64);
            }
        }
        for &e in &self.ep_targets[..self.ep_len as usize] {
            if self.ep_takeable(t, e) {
                extra = extra.wrapping_mul(0x100000001B3).wrapping_add(e as u64 + 7);
            }
        }
        for &w in &self.unmoved[..t.nwords] {
            extra = extra.wrapping_mul(0x100000001B3).wrapping_add(w);
        }
        extra = extra.wrapping_mul(0x100000001B3).wrapping_add(u64::from(self.passed[0]) + 2 * u64::from(self.passed[1]));
        for &w in &self.walls[..t.nwords] {
            extra = extra.wrapping_mul(0x100000001B3).wrapping_add(w ^ 0x5A5A);
        }
        for hand in &self.hand {
            extra = mix_counts(extra, hand);
        }
        if self.any_hidden() {
            for &w in &self.hidden[..t.nwords] {
                extra = extra.wrapping_mul(0x100000001B3).wrapping_add(w);
            }
            for pool in &self.pool {
                extra = mix_counts(extra, pool);
            }
        }
        if let Some(spread) = &self.spread {
            for p in &spread.pairs {
                for v in [p.red as u64, p.blue as u64, p.unit as u64, p.weight as u64, p.label as u64] {
                    extra = extra.wrapping_mul(0x100000001B3).wrapping_add(v + 11);
                }
            }
        }
        if let Some(frame) = &self.frame {
            for l in &frame.levels {
                let (peak, outward, pass, wait) = l.swing.map_or((0, 2, 0, 0), |s| (s.peak, u64::from(s.outward), s.pass, u64::from(s.wait)));
                for v in [l.offset as u8 as u64, peak as u8 as u64, outward, pass as u64, wait] {
                    extra = extra.wrapping_mul(0x100000001B3).wrapping_add(v + 13);
                }
            }
        }
        if let Some(flow) = &self.flow {
            extra = extra.wrapping_mul(0x100000001B3).wrapping_add(flow.key());
        }
        if self.checks != [0; 2] {
            extra = extra.wrapping_mul(0x100000001B3).wrapping_add(u64::from(self.checks[0]) << 8 | u64::from(self.checks[1]));
        }
        h ^ extra.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// May a piece of the side to move capture en passant on target `e`?
    /// (A part that takes en passant reaches it from the piece's cell; pins
    /// and checks aside.) A target nothing can take on is left out of the
    /// key: the moves are those of the position without it, so perft's
    /// table and the checker's search treat the two as one. (Repetition asks
    /// more, a legal capture: [`crate::Variant::repetition_key`].) Where the
    /// tables cannot tell (large boards, spread or face-down pieces) the
    /// target counts.
    fn ep_takeable(&self, t: &Tables, e: Cell) -> bool {
        if !t.small || self.spread.is_some() || self.any_hidden() {
            return true;
        }
        let us = self.side as usize;
        let mut takers = t.ep_takers[us * t.ncells + e as usize] & self.occupied[us][0];
        while takers != 0 {
            let from = takers.trailing_zeros() as usize;
            takers &= takers - 1;
            let kc = kind_of(self.board[from]) as usize * 2 + us;
            if t.bits.ep_reach[kc * t.ncells + from] >> e & 1 != 0 {
                return true;
            }
        }
        false
    }

    /// The key of the pieces on the board, worked out from the board (what
    /// `board_key` must equal; debug builds check it at every [`Position::key`]).
    fn board_key_walked(&self, t: &Tables) -> u64 {
        (0..2).flat_map(|color| self.cells_of(color, t.nwords)).fold(0, |h, c| h ^ piece_key(t, self.board[c as usize], c))
    }
}

/// The Zobrist key of piece `code` on `cell` (the same in every frame).
#[inline]
fn piece_key(t: &Tables, code: u8, cell: Cell) -> u64 {
    t.zobrist[code as usize * t.ncells + cell as usize]
}

/// `h` with 64 per-kind counts (a hand or a pool) mixed in, eight to a word
/// (an empty one only marks its place: most games have no hands).
fn mix_counts(h: u64, counts: &[u8; 64]) -> u64 {
    if counts == &[0; 64] {
        return h.wrapping_mul(0x100000001B3).wrapping_add(0x77);
    }
    counts.chunks_exact(8).fold(h, |h, c| h.wrapping_mul(0x100000001B3).wrapping_add(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])))
}

/// Iterates over the set bits of a word.
/// The cells of a bitset (cell `c` being bit `c` of word `c / 64`), in order.
pub fn cells_in(set: &[u64]) -> impl Iterator<Item = Cell> + '_ {
    set.iter().enumerate().flat_map(|(w, &bits)| BitIter(bits).map(move |b| (w * 64 + b) as Cell))
}

struct BitIter(u64);

impl Iterator for BitIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(b)
        }
    }
}
