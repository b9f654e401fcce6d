#![allow(clippy::needless_range_loop)] // per-player loops index several arrays in step
//! The Z3 encoding of a variant: a symbolic [`State`] (board, castling
//! rights, en-passant targets, hands), the legal moves of the side to move as
//! one formula over a symbolic move [`Key`], and the state after the move.
//!
//! Everything is derived from the semantic model: piece movement through
//! [`crate::templates`], promotion zones, castling sides, drop zones and the
//! royal flag. The side to move is a Rust constant of each query (every query
//! is asked once per side), which keeps the formulas small.
//!
//! The legality of a move is the interpreter's definition: a pseudo-legal
//! move (a template whose path is clear, onto an empty cell, an enemy, or an
//! en-passant target), a drop, or a castling (partner and rights in place,
//! the cells between empty, not in check, crossing no attacked cell), after
//! which no royal piece of the mover is attacked.
//!
//! Hidden identities (`hidden { … }`): a Boolean per cell says whether its
//! piece stands face down. A face-down piece moves as its board code (its
//! disguise) without the disguise's promotion; the piece landing is the
//! step's `reveal` term, any kind a face-down piece may turn out to be
//! ([`Encoder::reveal_kinds`]), promoted when that kind promotes there. The
//! pools of identities not yet drawn are not encoded: every such kind may be
//! revealed at every move, an over-approximation of the legal outcomes
//! (sound for proofs: it only adds successors), and a state read back as a
//! position gets the pools the FEN reader gives a board without `{…}` (each
//! player's face-down disguises), which is always a valid pool.

mod cond;
mod placement;
mod ply;

pub use cond::{Reading, Unstated};
pub use placement::PlacementStep;
pub use ply::PlyStep;

use crate::templates::{Template, Templates, MAX_EP};
use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::model::{Color, Game, KindId};
use rulebook_interpreter::engine::position::{code, color_of, kind_of, Move, MoveKind, Position, NO_CELL, NO_PROMOTION, PROMOTED};
use rulebook_interpreter::engine::variant::Variant;
use z3::ast::{Bool, Int};
use z3::Model;

/// The identity of a move, as the interpreter's moves are compared:
/// `(class, from, to, extra)`. Class 0: a move or capture, 1: an en-passant
/// capture, 2: a drop (`extra` is the kind), 3 + i: castling by side `i`.
/// `extra` is the promotion kind or -1.
pub type Key = (i64, i64, i64, i64);

/// The key of an interpreter move.
pub fn key_of(m: &Move) -> Key {
    let promo = if m.promotion == NO_PROMOTION { -1 } else { m.promotion as i64 };
    match m.kind {
        MoveKind::Normal | MoveKind::EnPassantSetter => (0, m.from as i64, m.to as i64, promo),
        MoveKind::EnPassant => (1, m.from as i64, m.to as i64, promo),
        MoveKind::Drop => (2, m.to as i64, m.to as i64, m.piece as i64),
        MoveKind::Castle => (3 + m.side as i64, m.from as i64, m.to as i64, -1),
    }
}

/// Pairs (term of a symbolic state, its value in a position): integer terms, then Boolean ones.
pub type Bindings = (Vec<(Int, Int)>, Vec<(Bool, Bool)>);

/// A position as Z3 terms. The side to move is not part of it (see the module doc).
#[derive(Clone, Debug)]
pub struct State {
    /// Per cell index: the piece code (0 empty, `1 + 2·kind + colour`; the
    /// promoted flag is apart). Cells off the board hold the constant 0.
    pub board: Vec<Int>,
    /// Per cell index: promoted (only for variants that demote promoted pieces going to hand).
    pub promoted: Option<Vec<Bool>>,
    /// Per player and castling slot: the partner's cell, or -1.
    pub rights: [[Int; 2]; 2],
    /// En-passant targets (-1 for none).
    pub ep: [Int; MAX_EP],
    /// The piece an en-passant capture removes (-1 for none).
    pub ep_victim: Int,
    /// Per kind and player: pieces in hand.
    pub hand: Vec<[Int; 2]>,
    /// Per cell index: the piece stands face down (only for variants with
    /// hidden identities). Cells off the board hold the constant `false`.
    pub hidden: Option<Vec<Bool>>,
}

/// One legal move of the side to move from a state, and the state after it.
#[derive(Clone, Debug)]
pub struct Step {
    /// The move's key terms: class, from, to, extra.
    pub key: [Int; 4],
    /// The move is legal (a constraint to assert): `available` and the mover not in check after it.
    pub legal: Bool,
    /// The move is available before the check test (pseudo-legal; castling fully tested).
    pub available: Bool,
    /// The state after the move.
    pub next: State,
    /// The kind that moves (the king for castling; -1 for a drop): the
    /// kind on the board, which for a face-down piece is its disguise.
    pub mover: Int,
    /// The cells where moving pieces start and end: (from, to) pairs, the
    /// second pair for castling's partner (else both -1).
    pub travels: [(Int, Int); 2],
    /// The kind of the second travelling piece (castling's partner, or -1).
    pub mover2: Int,
    /// The kind a face-down piece that moves (the mover, or castling's
    /// partner) is revealed as; -1 when the moving pieces stand face up.
    /// Constant -1 in variants without hidden identities.
    pub reveal: Int,
    /// The kind a captured face-down piece is drawn as, -1 when the victim
    /// stands face up. Only decided where it matters (captures go to hand);
    /// else the constant -1.
    pub unveil: Int,
    /// The finite domains of the move's own terms (key, moving kind,
    /// victim, revealed kinds): part of `available`, and apart so that an
    /// incremental solver can assert them once, unguarded (the
    /// finite-domain solver needs the bounds of its integer constants
    /// asserted at top level).
    pub bounds: Bool,
    /// Per moving kind `k` (at index `k + 1`; -1 for a drop): `available`
    /// with `mover` equal to `k`, stated with that kind's disjuncts only.
    pub by_kind: Vec<Bool>,
    /// No royal piece of the mover is attacked after the move (`legal` is
    /// `available` and `safe`).
    pub safe: Bool,
}

impl Step {
    /// The move is available and moves a piece of kind `k` (-1: a drop):
    /// `available` and `mover = k`, as one smaller formula.
    pub fn available_of(&self, k: i64) -> Bool {
        usize::try_from(k + 1)
            .ok()
            .and_then(|i| self.by_kind.get(i).cloned())
            .unwrap_or_else(|| Bool::and(&[self.available.clone(), self.mover.eq(Int::from_i64(k))]))
    }
}

/// The encoder of one variant.
pub struct Encoder<'a> {
    /// The variant.
    pub variant: &'a Variant,
    game: &'a Game,
    /// The move templates it is built from.
    pub templates: Templates,
    /// Cells on the board.
    cells: Vec<Cell>,
    /// Per attacking player and cell: the capture templates landing there.
    attackers: [Vec<Vec<usize>>; 2],
    /// Per player: every piece move (template, promotion, landing mode).
    piece_moves: [Vec<PieceMove>; 2],
    /// The kinds a face-down piece may show (empty without hidden identities).
    disguises: Vec<KindId>,
    /// The kinds a face-down piece may turn out to be (empty without hidden identities).
    reveals: Vec<KindId>,
    /// Per level of the `slide` item, how far it is pulled out (empty: at rest).
    offsets: Vec<i8>,
}

/// How a template lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Landing {
    Quiet,
    Capture,
    EnPassant,
}

/// A template with a landing mode and a promotion choice.
#[derive(Clone, Copy, Debug)]
struct PieceMove {
    template: usize,
    landing: Landing,
    promotion: Option<KindId>,
}

fn int(v: i64) -> Int {
    Int::from_i64(v)
}

/// Exactly one of `options` holds (a cardinality constraint).
fn exactly_one(options: &[Bool]) -> Bool {
    let weighted: Vec<(&Bool, i32)> = options.iter().map(|o| (o, 1)).collect();
    Bool::pb_eq(&weighted, 1)
}

/// The sum of `terms` (0 for none).
fn sum(terms: &[Int]) -> Int {
    if terms.is_empty() {
        int(0)
    } else {
        Int::add(terms)
    }
}

impl<'a> Encoder<'a> {
    /// Builds the encoder of `variant`.
    pub fn new(variant: &'a Variant) -> Encoder<'a> {
        Encoder::with_templates(variant, Templates::new(&variant.game), Vec::new())
    }

    /// The encoder of `variant` with the levels of its `slide` item pulled
    /// out by `offsets` (per level): the moves of that frame, for the trust
    /// test of positions out of rest.
    pub fn for_frame(variant: &'a Variant, offsets: &[i8]) -> Encoder<'a> {
        Encoder::with_templates(variant, Templates::for_frame(&variant.game, offsets), offsets.to_vec())
    }

    fn with_templates(variant: &'a Variant, templates: Templates, offsets: Vec<i8>) -> Encoder<'a> {
        let game: &Game = &variant.game;
        let ncells = game.geometry.cells();
        let cells: Vec<Cell> = game.geometry.board_cells().collect();
        let mut attackers = [vec![Vec::new(); ncells], vec![Vec::new(); ncells]];
        let mut piece_moves = [Vec::new(), Vec::new()];
        for color in 0..2usize {
            for (i, t) in templates.by_player[color].iter().enumerate() {
                if t.capture {
                    attackers[color][t.to as usize].push(i);
                }
                let mut landings = Vec::new();
                if t.quiet {
                    landings.push(Landing::Quiet);
                }
                if t.capture {
                    landings.push(Landing::Capture);
                }
                if t.takes_ep {
                    landings.push(Landing::EnPassant);
                }
                for landing in landings {
                    let captures = !matches!(landing, Landing::Quiet);
                    match promotion_targets(game, t.kind, color as Color, Some(t.from), t.to, Some(captures)) {
                        None => piece_moves[color].push(PieceMove { template: i, landing, promotion: None }),
                        Some(targets) => {
                            for p in targets {
                                piece_moves[color].push(PieceMove { template: i, landing, promotion: p });
                            }
                        }
                    }
                }
            }
        }
        let (disguises, reveals) = hidden_kinds(variant);
        Encoder { variant, game, templates, cells, attackers, piece_moves, disguises, reveals, offsets }
    }

    /// The kinds an encoded move of a piece of kind `k` (the step's `mover`;
    /// -1: a drop) can put on the board: `k` itself and what its moves
    /// promote to; where `k` is a disguise, every kind a face-down piece may
    /// be revealed as and what those promote to; and castling's partner
    /// (or what it is revealed as) where `k` castles. A game without hands
    /// has no drop, which puts nothing. Every other change such a move makes
    /// to the board takes a piece off it (its victim). `None` for drops from
    /// hand.
    pub fn placed_by(&self, k: i64) -> Option<Vec<KindId>> {
        let Ok(k) = KindId::try_from(k) else {
            return self.game.hand.is_none().then(Vec::new);
        };
        let mut kinds = vec![k];
        for (color, moves) in self.piece_moves.iter().enumerate() {
            let promotions = moves.iter().filter(|m| self.templates.by_player[color][m.template].kind == k).filter_map(|m| m.promotion);
            kinds.extend(promotions);
        }
        let castling_partner = self.game.castling.as_ref().filter(|r| r.king == k).map(|r| r.rook);
        kinds.extend(castling_partner);
        if self.disguises.contains(&k) || castling_partner.is_some_and(|p| self.disguises.contains(&p)) {
            kinds.extend(self.revealed_kinds());
        }
        kinds.sort_unstable();
        kinds.dedup();
        Some(kinds)
    }

    /// The kinds a face-down piece may turn out to be: those the `hidden`
    /// block lists and those in the setup's pools (empty without hidden
    /// identities). Pools only shrink, so no other kind is ever revealed.
    pub fn reveal_kinds(&self) -> &[KindId] {
        &self.reveals
    }

    /// The kinds a face-down piece may show as its disguise: those the
    /// `hidden` block lists and those of the setup's face-down pieces.
    /// Nothing turns face down after the setup, so no other kind ever does.
    pub fn disguise_kinds(&self) -> &[KindId] {
        &self.disguises
    }

    /// Is the piece on the symbolic `cell` face down? (`false` without hidden identities.)
    pub fn hidden_at(&self, s: &State, cell: &Int) -> Bool {
        match &s.hidden {
            Some(h) => Bool::or(&self.cells.iter().map(|&c| Bool::and(&[cell.eq(int(c as i64)), h[c as usize].clone()])).collect::<Vec<_>>()),
            None => Bool::from_bool(false),
        }
    }

    /// Is the piece on `cell` face down? (`false` without hidden identities.)
    pub fn hidden_on(&self, s: &State, cell: Cell) -> Bool {
        s.hidden.as_ref().map_or(Bool::from_bool(false), |h| h[cell as usize].clone())
    }

    /// Fresh symbolic state named `name`.
    pub fn state(&self, name: &str) -> State {
        let on = &self.game.geometry.on_board;
        let board = (0..on.len())
            .map(|c| if on[c] { Int::new_const(format!("{name}.b{c}")) } else { int(0) })
            .collect();
        let promoted = self.demotes().then(|| {
            (0..on.len())
                .map(|c| if on[c] { Bool::new_const(format!("{name}.p{c}")) } else { Bool::from_bool(false) })
                .collect()
        });
        let rights = [0, 1].map(|p| [0, 1].map(|s| Int::new_const(format!("{name}.rights{p}{s}"))));
        let ep = std::array::from_fn(|i| Int::new_const(format!("{name}.ep{i}")));
        let ep_victim = Int::new_const(format!("{name}.epvictim"));
        let hand = (0..self.game.kinds.len())
            .map(|k| [0, 1].map(|p| Int::new_const(format!("{name}.hand{k}_{p}"))))
            .collect();
        let hidden = self.game.hidden.is_some().then(|| {
            (0..on.len())
                .map(|c| if on[c] { Bool::new_const(format!("{name}.h{c}")) } else { Bool::from_bool(false) })
                .collect()
        });
        State { board, promoted, rights, ep, ep_victim, hand, hidden }
    }

    fn demotes(&self) -> bool {
        self.game.hand.as_ref().is_some_and(|h| h.capture_to_hand && h.demote_to.is_some())
    }

    /// The piece code on `cell` (a concrete cell).
    pub fn at(&self, s: &State, cell: Cell) -> Int {
        s.board[cell as usize].clone()
    }

    /// The piece code on a symbolic cell (an if-then-else over the cells).
    pub fn at_term(&self, s: &State, cell: &Int) -> Int {
        let mut out = int(0);
        for &c in &self.cells {
            out = cell.eq(int(c as i64)).ite(&s.board[c as usize], &out);
        }
        out
    }

    fn promoted_at(&self, s: &State, cell: &Int) -> Bool {
        match &s.promoted {
            Some(p) => {
                let mut out = Bool::from_bool(false);
                for &c in &self.cells {
                    out = cell.eq(int(c as i64)).ite(&p[c as usize], &out);
                }
                out
            }
            None => Bool::from_bool(false),
        }
    }

    /// The cells on the board.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The state is a position at all: codes in range, rights and targets on cells, hands not negative.
    pub fn well_formed(&self, s: &State) -> Bool {
        let top = 2 * self.game.kinds.len() as i64;
        let mut parts = Vec::new();
        for &c in &self.cells {
            let v = self.at(s, c);
            parts.push(v.ge(int(0)));
            parts.push(v.le(int(top)));
        }
        let cell_or_none = |x: &Int| {
            let mut options: Vec<Bool> = self.cells.iter().map(|&c| x.eq(int(c as i64))).collect();
            options.push(x.eq(int(-1)));
            Bool::or(&options)
        };
        for p in 0..2 {
            for sl in 0..2 {
                parts.push(cell_or_none(&s.rights[p][sl]));
            }
        }
        for e in &s.ep {
            parts.push(cell_or_none(e));
        }
        parts.push(cell_or_none(&s.ep_victim));
        for h in &s.hand {
            for x in h {
                parts.push(x.ge(int(0)));
                parts.push(x.le(int(64)));
            }
        }
        let n = self.game.geometry.on_board.len() as i64;
        for x in s.rights.iter().flatten().chain(&s.ep).chain([&s.ep_victim]) {
            parts.push(x.ge(int(-1)));
            parts.push(x.le(int(n - 1)));
        }
        // A face-down piece shows one of the disguises (so it is a piece, and never royal).
        if let Some(h) = &s.hidden {
            for &c in &self.cells {
                let v = self.at(s, c);
                let shows: Vec<Bool> =
                    self.disguises.iter().flat_map(|&k| [0, 1].map(|p| v.eq(int(code(k, p) as i64)))).collect();
                parts.push(h[c as usize].implies(Bool::or(&shows)));
            }
        }
        Bool::and(&parts)
    }

    /// The concrete position `pos` as a state of constant terms (queries about
    /// one position simplify to small formulas).
    pub fn concrete(&self, pos: &Position) -> State {
        let n = self.game.geometry.on_board.len();
        let board = (0..n).map(|c| int((pos.board[c] & !PROMOTED) as i64)).collect();
        let promoted = self.demotes().then(|| (0..n).map(|c| Bool::from_bool(pos.board[c] & PROMOTED != 0)).collect());
        let cell = |c: Cell| int(if c == NO_CELL { -1 } else { c as i64 });
        let rights = [0, 1].map(|p| [0, 1].map(|sl| cell(pos.castling[p][sl])));
        let ep = std::array::from_fn(|i| if i < pos.ep_len as usize { cell(pos.ep_targets[i]) } else { int(-1) });
        let ep_victim = if pos.ep_len == 0 { int(-1) } else { cell(pos.ep_victim) };
        let hand = (0..self.game.kinds.len()).map(|k| [0, 1].map(|p| int(pos.hand[p][k] as i64))).collect();
        let on = &self.game.geometry.on_board;
        let hidden = self
            .game
            .hidden
            .is_some()
            .then(|| (0..n).map(|c| Bool::from_bool(on[c] && pos.is_hidden(c as Cell))).collect());
        State { board, promoted, rights, ep, ep_victim, hand, hidden }
    }

    /// Pairs (term of `s`, value in `pos`) for every integer term of a symbolic
    /// state, to substitute a concrete position into formulas built once.
    pub fn bindings(&self, s: &State, pos: &Position) -> Bindings {
        let c = self.concrete(pos);
        let mut ints = Vec::new();
        for &cell in &self.cells {
            ints.push((s.board[cell as usize].clone(), c.board[cell as usize].clone()));
        }
        for p in 0..2 {
            for sl in 0..2 {
                ints.push((s.rights[p][sl].clone(), c.rights[p][sl].clone()));
            }
        }
        for i in 0..MAX_EP {
            ints.push((s.ep[i].clone(), c.ep[i].clone()));
        }
        ints.push((s.ep_victim.clone(), c.ep_victim.clone()));
        for (k, h) in s.hand.iter().enumerate() {
            for p in 0..2 {
                ints.push((h[p].clone(), c.hand[k][p].clone()));
            }
        }
        let mut bools = Vec::new();
        if let (Some(a), Some(b)) = (&s.promoted, &c.promoted) {
            for &cell in &self.cells {
                bools.push((a[cell as usize].clone(), b[cell as usize].clone()));
            }
        }
        if let (Some(a), Some(b)) = (&s.hidden, &c.hidden) {
            for &cell in &self.cells {
                bools.push((a[cell as usize].clone(), b[cell as usize].clone()));
            }
        }
        (ints, bools)
    }

    /// The en-passant victim, when there is one, is a piece of the side that
    /// just moved, of a kind that sets en-passant targets (or one it promotes
    /// to; with hidden identities, also any kind a face-down piece that set
    /// them was revealed as, and its promotions), standing face up. True of
    /// every state a move produces: only such a move sets the victim, to the
    /// cell it lands on, where the piece stands face up.
    pub fn ep_consistent(&self, s: &State, side_to_move: Color) -> Bool {
        let kinds = self.ep_victim_kinds();
        let victim = self.at_term(s, &s.ep_victim);
        let mut ok: Vec<Bool> = kinds.iter().map(|&k| victim.eq(int(code(k, side_to_move ^ 1) as i64))).collect();
        ok.push(s.ep_victim.eq(int(-1)));
        let Some(h) = &s.hidden else { return Bool::or(&ok) };
        let mut parts = vec![Bool::or(&ok)];
        for &c in &self.cells {
            parts.push(s.ep_victim.eq(int(c as i64)).implies(h[c as usize].not()));
        }
        Bool::and(&parts)
    }

    /// The kinds an en-passant victim may be: those whose moves set an
    /// en-passant target, what they promote to, and (face down) what they
    /// may be revealed as.
    fn ep_victim_kinds(&self) -> Vec<KindId> {
        let game = self.game;
        let mut kinds: Vec<KindId> = Vec::new();
        for (k, kind) in game.kinds.iter().enumerate() {
            if kind.parts.iter().any(|p| p.sets_en_passant) {
                kinds.push(k as KindId);
                for rule in game.promotions.iter().filter(|r| r.kind as usize == k) {
                    kinds.extend(rule.targets.iter().copied());
                }
                if self.disguises.contains(&(k as KindId)) {
                    kinds.extend(self.revealed_kinds());
                }
            }
        }
        kinds
    }

    /// What a face-down piece may land as when it moves: every kind it may
    /// be revealed as, and what those promote to (empty without hidden identities).
    fn revealed_kinds(&self) -> Vec<KindId> {
        let mut kinds = Vec::new();
        for &r in &self.reveals {
            kinds.push(r);
            for rule in self.game.promotions.iter().filter(|rule| rule.kind == r) {
                kinds.extend(rule.targets.iter().copied());
            }
        }
        kinds
    }

    /// Does an encoded piece move put a piece of the royal kind `k` in a
    /// hand only by capturing one on the cell a capture template lands on?
    /// Then it does so only from a state where the side that just moved is
    /// in check, by construction: the move's option (`step`) asks
    /// `template_ready(t)` with its victim on `t.to`, and `attacked(t.to)`
    /// is the disjunction of those very formulas over the capture templates
    /// landing there, so `in_check` holds for the victim's owner. Not so
    /// with face-down pieces (a captured one is drawn), where a demotion or
    /// another kind goes to hand as `k`, or where a piece of kind `k` may be
    /// an en-passant victim (not on the cell the capture lands on).
    pub fn hand_gain_needs_check(&self, k: KindId) -> bool {
        let game = self.game;
        let Some(hand) = &game.hand else { return true };
        game.kinds.get(k as usize).is_some_and(|kind| kind.royal)
            && game.hidden.is_none()
            && hand.demote_to != Some(k)
            && hand.hand_kinds.iter().enumerate().all(|(j, &to)| to != k || j == k as usize)
            && !self.ep_victim_kinds().contains(&k)
    }

    /// The state equals the concrete position `pos`.
    pub fn equals(&self, s: &State, pos: &Position) -> Bool {
        let mut parts = Vec::new();
        for &c in &self.cells {
            let v = pos.board[c as usize];
            parts.push(self.at(s, c).eq(int((v & !PROMOTED) as i64)));
            if let Some(p) = &s.promoted {
                parts.push(p[c as usize].eq(Bool::from_bool(v & PROMOTED != 0)));
            }
        }
        for p in 0..2 {
            for sl in 0..2 {
                let r = pos.castling[p][sl];
                parts.push(s.rights[p][sl].eq(int(if r == NO_CELL { -1 } else { r as i64 })));
            }
        }
        for (i, e) in s.ep.iter().enumerate() {
            let v = if i < pos.ep_len as usize { pos.ep_targets[i] as i64 } else { -1 };
            parts.push(e.eq(int(v)));
        }
        let victim = if pos.ep_victim == NO_CELL || pos.ep_len == 0 { -1 } else { pos.ep_victim as i64 };
        parts.push(s.ep_victim.eq(int(victim)));
        for (k, h) in s.hand.iter().enumerate() {
            for p in 0..2 {
                parts.push(h[p].eq(int(pos.hand[p][k] as i64)));
            }
        }
        if let Some(h) = &s.hidden {
            for &c in &self.cells {
                parts.push(h[c as usize].eq(Bool::from_bool(pos.is_hidden(c))));
            }
        }
        Bool::and(&parts)
    }

    fn is_ep_target(&self, s: &State, cell: Cell) -> Bool {
        Bool::or(&s.ep.iter().map(|e| e.eq(int(cell as i64))).collect::<Vec<_>>())
    }

    /// The code `v` is a piece of `them`, of any kind.
    fn is_enemy(&self, v: &Int, them: Color) -> Bool {
        let codes: Vec<Bool> = (0..self.game.kinds.len()).map(|k| v.eq(int(code(k as KindId, them) as i64))).collect();
        Bool::or(&codes)
    }

    fn is_royal(&self, v: &Int, color: Color) -> Bool {
        let codes: Vec<Bool> = self
            .game
            .kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| k.royal)
            .map(|(k, _)| v.eq(int(code(k as KindId, color) as i64)))
            .collect();
        Bool::or(&codes)
    }

    /// The path of template `t` of player `color` is clear and its piece stands on its start.
    fn template_ready(&self, s: &State, t: &Template, color: Color) -> Bool {
        let mut parts = vec![self.at(s, t.from).eq(int(code(t.kind, color) as i64))];
        for &c in &t.empty {
            parts.push(self.at(s, c).eq(int(0)));
        }
        if let Some(screen) = t.screen {
            parts.push(self.at(s, screen).ne(int(0)));
        }
        Bool::and(&parts)
    }

    /// `cell` is attacked by a piece of `by`: some capture template of `by` lands there with its path clear.
    pub fn attacked(&self, s: &State, cell: Cell, by: Color) -> Bool {
        let ts = &self.templates.by_player[by as usize];
        let options: Vec<Bool> = self.attackers[by as usize][cell as usize]
            .iter()
            .map(|&i| self.template_ready(s, &ts[i], by))
            .collect();
        Bool::or(&options)
    }

    /// Some royal piece of `color` is attacked.
    pub fn in_check(&self, s: &State, color: Color) -> Bool {
        if !self.game.kinds.iter().any(|k| k.royal) {
            return Bool::from_bool(false);
        }
        let options: Vec<Bool> = self
            .cells
            .iter()
            .map(|&c| Bool::and(&[self.is_royal(&self.at(s, c), color), self.attacked(s, c, color ^ 1)]))
            .collect();
        Bool::or(&options)
    }

    /// The legal moves of `us` from `s`, and the state after the chosen one.
    pub fn step(&self, s: &State, us: Color, name: &str) -> Step {
        let them = us ^ 1;
        let key = ["class", "from", "to", "extra"].map(|n| Int::new_const(format!("{name}.{n}")));
        let [class, from, to, extra] = key.clone();
        // The moving kind and the captured piece's code, fixed by each option so
        // that the solver need not look them up on a symbolic cell.
        let moving = Int::new_const(format!("{name}.moving"));
        let victim = Int::new_const(format!("{name}.victim"));
        let key_is = |k: Key| Bool::and(&[class.eq(int(k.0)), from.eq(int(k.1)), to.eq(int(k.2)), extra.eq(int(k.3))]);
        let route_is = |c: i64, f: Cell, t: Cell| Bool::and(&[class.eq(int(c)), from.eq(int(f as i64)), to.eq(int(t as i64))]);
        // Hidden identities: what a face-down mover is revealed as (and, when
        // captures go to hand, what a captured face-down piece is drawn as).
        let hiding = s.hidden.is_some();
        let reveal = if hiding { Int::new_const(format!("{name}.reveal")) } else { int(-1) };
        let unveils = hiding && self.game.hand.as_ref().is_some_and(|h| h.capture_to_hand);
        let unveil = if unveils { Int::new_const(format!("{name}.unveil")) } else { int(-1) };
        // (Terms for hidden identities are made only for variants that have
        // them, so that the others' formulas stay exactly as they were.)
        let face_up = if hiding { reveal.eq(int(-1)) } else { Bool::from_bool(true) };
        // Per landing cell: a face-down mover is revealed as some kind, and
        // promotes exactly when that kind promotes there (its disguise's
        // promotion does not apply).
        let mut revealed_on: Vec<Option<Bool>> = vec![None; s.board.len()];
        let mut revealed_on = |to_cell: Cell| -> Bool {
            revealed_on[to_cell as usize]
                .get_or_insert_with(|| {
                    let options: Vec<Bool> = self
                        .reveals
                        .iter()
                        .map(|&r| {
                            let promotes = match promotion_targets(self.game, r, us, None, to_cell, None) {
                                None => extra.eq(int(-1)),
                                Some(targets) => Bool::or(&targets.iter().map(|&p| extra.eq(int(p.map_or(-1, |p| p as i64)))).collect::<Vec<_>>()),
                            };
                            Bool::and(&[reveal.eq(int(r as i64)), promotes])
                        })
                        .collect();
                    Bool::or(&options)
                })
                .clone()
        };
        let unveil_on = |cell: Cell| -> Bool {
            let drawn = Bool::or(&self.reveals.iter().map(|&r| unveil.eq(int(r as i64))).collect::<Vec<_>>());
            self.hidden_on(s, cell).ite(&drawn, &unveil.eq(int(-1)))
        };

        // Which moves are available: one disjunct per piece move, drop and castling side.
        // (Each with the kind that moves: -1 for a drop, the king for castling.)
        let mut options: Vec<(i64, Bool)> = Vec::new();
        let ts = &self.templates.by_player[us as usize];
        for (n, pm) in self.piece_moves[us as usize].iter().enumerate() {
            let t = &ts[pm.template];
            let occ = self.at(s, t.to);
            let landing = match pm.landing {
                Landing::Quiet if t.takes_ep => Bool::and(&[occ.eq(int(0)), self.is_ep_target(s, t.to).not()]),
                Landing::Quiet => occ.eq(int(0)),
                Landing::Capture => self.is_enemy(&occ, them),
                Landing::EnPassant => Bool::and(&[occ.eq(int(0)), self.is_ep_target(s, t.to)]),
            };
            let class_no = if pm.landing == Landing::EnPassant { 1 } else { 0 };
            let promo = pm.promotion.map_or(-1, |p| p as i64);
            let captured = match pm.landing {
                Landing::Quiet => int(0),
                Landing::Capture => occ.clone(),
                Landing::EnPassant => s.ep_victim.lt(int(0)).ite(&int(0), &self.at_term(s, &s.ep_victim)),
            };
            let mut common = vec![moving.eq(int(t.kind as i64)), victim.eq(&captured), self.template_ready(s, t, us), landing];
            if unveils {
                common.push(match pm.landing {
                    Landing::Capture => unveil_on(t.to),
                    _ => unveil.eq(int(-1)),
                });
            }
            if !hiding || !self.disguises.contains(&t.kind) {
                let mut parts = vec![key_is((class_no, t.from as i64, t.to as i64, promo))];
                if hiding {
                    parts.push(face_up.clone());
                }
                parts.extend(common);
                options.push((t.kind as i64, Bool::and(&parts)));
                continue;
            }
            // A kind that may stand face down: face up it moves (and promotes)
            // as itself, face down it is revealed on arrival.
            let down = self.hidden_on(s, t.from);
            match pm.promotion {
                None => {
                    let outcome = down.ite(&revealed_on(t.to), &Bool::and(&[face_up.clone(), extra.eq(int(-1))]));
                    let mut parts = vec![route_is(class_no, t.from, t.to), outcome];
                    parts.extend(common);
                    options.push((t.kind as i64, Bool::and(&parts)));
                }
                Some(_) => {
                    let mut parts = vec![key_is((class_no, t.from as i64, t.to as i64, promo)), down.not(), face_up.clone()];
                    parts.extend(common.iter().cloned());
                    options.push((t.kind as i64, Bool::and(&parts)));
                    // The face-down move once per template and landing (with the first promotion choice).
                    let first = n == 0 || {
                        let prev = &self.piece_moves[us as usize][n - 1];
                        prev.template != pm.template || prev.landing != pm.landing
                    };
                    if first {
                        let mut parts = vec![route_is(class_no, t.from, t.to), down.clone(), revealed_on(t.to)];
                        parts.extend(common);
                        options.push((t.kind as i64, Bool::and(&parts)));
                    }
                }
            }
        }
        if let Some(hand) = &self.game.hand {
            for (k, zone) in hand.drop_cells.iter().enumerate() {
                let Some(zone) = zone else { continue };
                for &c in &zone[us as usize] {
                    let mut parts = vec![
                        key_is((2, c as i64, c as i64, k as i64)),
                        moving.eq(int(-1)),
                        victim.eq(int(0)),
                        s.hand[k][us as usize].ge(int(1)),
                        self.at(s, c).eq(int(0)),
                    ];
                    if hiding {
                        parts.push(face_up.clone());
                    }
                    if unveils {
                        parts.push(unveil.eq(int(-1)));
                    }
                    options.push((-1, Bool::and(&parts)));
                }
            }
        }
        if let Some(rule) = &self.game.castling {
            for (i, side) in rule.sides.iter().enumerate() {
                let mut parts = vec![
                    class.eq(int(3 + i as i64)),
                    extra.eq(int(-1)),
                    to.eq(int(side.king_to[us as usize] as i64)),
                    moving.eq(int(rule.king as i64)),
                    victim.eq(int(0)),
                    self.castling_ok(s, us, i, &from),
                ];
                if hiding {
                    // A face-down partner is revealed on its destination (it never promotes there).
                    let partner = &s.rights[us as usize][side.slot()];
                    let any_reveal = Bool::or(&self.reveals.iter().map(|&r| reveal.eq(int(r as i64))).collect::<Vec<_>>());
                    parts.push(self.hidden_at(s, partner).ite(&any_reveal, &face_up));
                }
                if unveils {
                    parts.push(unveil.eq(int(-1)));
                }
                options.push((rule.king as i64, Bool::and(&parts)));
            }
        }
        // Bounds on the move's terms (finite domains, for solvers that bit-blast).
        let n = self.game.geometry.on_board.len() as i64;
        let kinds = self.game.kinds.len() as i64;
        let sides = self.game.castling.as_ref().map_or(0, |r| r.sides.len()) as i64;
        let within = |x: &Int, lo: i64, hi: i64| Bool::and(&[x.ge(int(lo)), x.le(int(hi))]);
        let mut domains = Vec::new();
        domains.push(within(&class, 0, 3 + sides));
        domains.push(within(&from, 0, n - 1));
        domains.push(within(&to, 0, n - 1));
        domains.push(within(&extra, -1, kinds));
        domains.push(within(&moving, -1, kinds));
        domains.push(within(&victim, 0, 2 * kinds));
        if hiding {
            domains.push(within(&reveal, -1, kinds - 1));
        }
        if unveils {
            domains.push(within(&unveil, -1, kinds - 1));
        }
        let bounds = Bool::and(&domains);
        let mut parts = vec![Bool::or(&options.iter().map(|(_, o)| o.clone()).collect::<Vec<_>>())];
        parts.extend(domains.iter().cloned());
        let available = Bool::and(&parts);
        // The same, per moving kind: only that kind's disjuncts (each of
        // which fixes `moving` to its kind), so that a question about one
        // kind does not carry the others' templates.
        let by_kind: Vec<Bool> = (-1..kinds)
            .map(|k| {
                let mine: Vec<Bool> = options.iter().filter(|(kind, _)| *kind == k).map(|(_, o)| o.clone()).collect();
                Bool::and(&[Bool::or(&mine), moving.eq(int(k)), bounds.clone()])
            })
            .collect();

        // The state after the move, from the key.
        let is_piece_move = Bool::or(&[class.eq(int(0)), class.eq(int(1))]);
        let is_drop = class.eq(int(2));
        let is_castle = class.ge(int(3));
        let none = int(-1);
        let victim_cell = is_piece_move.ite(&class.eq(int(1)).ite(&s.ep_victim, &to), &none);
        let mover_code = int(1 + us as i64) + moving.clone() * int(2);
        let (castle_rook, castle_rook_to, castle_king_to) = self.castle_cells(s, us, &class);
        let king_code = self.game.castling.as_ref().map_or(0, |r| code(r.king, us) as i64);
        let rook_code = self.game.castling.as_ref().map_or(0, |r| code(r.rook, us) as i64);
        let promo_code = int(1 + us as i64) + extra.clone() * int(2);
        // A face-down mover (or partner) lands as what it is revealed to be.
        let revealed = hiding.then(|| (reveal.ge(int(0)), int(1 + us as i64) + reveal.clone() * int(2)));
        let unless_revealed = |code: Int| match &revealed {
            Some((is_revealed, revealed_code)) => is_revealed.ite(revealed_code, &code),
            None => code,
        };
        let landing_code = unless_revealed(mover_code.clone());
        let new_code = is_drop.ite(&promo_code, &extra.lt(int(0)).ite(&landing_code, &promo_code));
        let new_code = is_castle.ite(&int(king_code), &new_code);
        let partner_code = unless_revealed(int(rook_code));
        let clear1 = is_castle.ite(&from, &class.eq(int(1)).ite(&s.ep_victim, &none));
        let clear2 = is_castle.ite(&castle_rook, &is_drop.ite(&none, &from));
        let write2 = is_castle.ite(&castle_rook_to, &none);
        let board: Vec<Int> = (0..s.board.len())
            .map(|c| {
                if !self.game.geometry.on_board[c] {
                    return int(0);
                }
                let ci = int(c as i64);
                let cleared = Bool::or(&[clear1.eq(&ci), clear2.eq(&ci)]);
                let kept = cleared.ite(&int(0), &s.board[c]);
                let kept = write2.eq(&ci).ite(&partner_code, &kept);
                to.eq(&ci).ite(&new_code, &kept)
            })
            .collect();
        let promoted = s.promoted.as_ref().map(|p| {
            let f = Bool::from_bool(false);
            // A revealed piece was never promoted.
            let unless_revealed = |flag: Bool| match &revealed {
                Some((is_revealed, _)) => is_revealed.ite(&f, &flag),
                None => flag,
            };
            let king_flag = self.promoted_at(s, &from);
            let moved = unless_revealed(king_flag.clone());
            let flag = is_drop.ite(&f, &extra.ge(int(0)).ite(&Bool::from_bool(true), &moved));
            let flag = is_castle.ite(&king_flag, &flag);
            let rook_flag = unless_revealed(self.promoted_at(s, &castle_rook));
            (0..p.len())
                .map(|c| {
                    let ci = int(c as i64);
                    let cleared = Bool::or(&[clear1.eq(&ci), clear2.eq(&ci)]);
                    let kept = cleared.ite(&f, &p[c]);
                    let kept = write2.eq(&ci).ite(&rook_flag, &kept);
                    to.eq(&ci).ite(&flag, &kept)
                })
                .collect()
        });

        // En passant: a quiet move along a template that passes cells.
        let mut ep: [Int; MAX_EP] = std::array::from_fn(|_| int(-1));
        let mut ep_victim = int(-1);
        for t in ts.iter().rev().filter(|t| !t.passes.is_empty()) {
            let fires = Bool::and(&[
                class.eq(int(0)),
                from.eq(int(t.from as i64)),
                to.eq(int(t.to as i64)),
                self.template_ready(s, t, us),
                self.at(s, t.to).eq(int(0)),
            ]);
            for (j, e) in ep.iter_mut().enumerate() {
                let v = t.passes.get(j).map_or(-1, |&c| c as i64);
                *e = fires.ite(&int(v), e);
            }
            ep_victim = fires.ite(&int(t.to as i64), &ep_victim);
        }

        // Hands: a drop leaves the hand; a capture joins the captor's hand (demoted if promoted).
        let mut hand = s.hand.clone();
        if let Some(rules) = &self.game.hand {
            let victim_promoted = self.promoted_at(s, &victim_cell);
            // A captured face-down piece joins the hand as what it is drawn as.
            let taken = if unveils { unveil.ge(int(0)).ite(&(int(1 + them as i64) + unveil.clone() * int(2)), &victim) } else { victim.clone() };
            for (k, h) in hand.iter_mut().enumerate() {
                let dropped = Bool::and(&[is_drop.clone(), extra.eq(int(k as i64))]).ite(&int(1), &int(0));
                let mut gained = int(0);
                if rules.capture_to_hand {
                    // Its own kind, or a promoted form (`+P`) of it (LANGUAGE §3.5).
                    let sources: Vec<Bool> = (0..rules.hand_kinds.len()).filter(|&j| rules.hand_kinds[j] as usize == k).map(|j| taken.eq(int(code(j as KindId, them) as i64))).collect();
                    let plain = Bool::and(&[Bool::or(&sources), victim_promoted.not()]);
                    gained = plain.ite(&int(1), &int(0));
                    if rules.demote_to == Some(k as KindId) {
                        let any = Bool::and(&[victim.ne(int(0)), victim_promoted.clone()]);
                        gained += any.ite(&int(1), &int(0));
                    }
                }
                h[us as usize] = h[us as usize].clone() - dropped + gained;
            }
        }

        // Castling rights: lost when the king moves, or when the partner's cell is left or captured on.
        let king_moved = match &self.game.castling {
            Some(_) => Bool::or(&[is_castle.clone(), Bool::and(&[is_piece_move.clone(), mover_code.eq(int(king_code))])]),
            None => Bool::from_bool(false),
        };
        let rights = [0usize, 1].map(|p| {
            [0usize, 1].map(|sl| {
                let r = &s.rights[p][sl];
                let mut lost = vec![r.eq(&from), Bool::and(&[victim.ne(int(0)), r.eq(&victim_cell)])];
                if p == us as usize {
                    lost.push(king_moved.clone());
                }
                Bool::or(&lost).ite(&none, r)
            })
        });
        // Face-down pieces: every cell a move empties or fills ends face up
        // (the mover and the castling partner are revealed, a victim leaves);
        // nothing turns face down.
        let hidden = s.hidden.as_ref().map(|h| {
            (0..h.len())
                .map(|c| {
                    if !self.game.geometry.on_board[c] {
                        return Bool::from_bool(false);
                    }
                    let ci = int(c as i64);
                    let touched = Bool::or(&[clear1.eq(&ci), clear2.eq(&ci), write2.eq(&ci), to.eq(&ci)]);
                    Bool::and(&[h[c].clone(), touched.not()])
                })
                .collect()
        });
        let next = State { board, promoted, rights, ep, ep_victim, hand, hidden };
        let safe = self.in_check(&next, us).not();
        let legal = Bool::and(&[available.clone(), safe.clone()]);

        let mover = moving.clone();
        let rook_kind = self.game.castling.as_ref().map_or(-1, |r| r.rook as i64);
        let travels = [(is_drop.ite(&none, &from), to.clone()), (is_castle.ite(&castle_rook, &none), is_castle.ite(&castle_rook_to, &none))];
        let mover2 = is_castle.ite(&int(rook_kind), &none);
        let _ = castle_king_to;
        Step { key, legal, available, next, mover, travels, mover2, reveal, unveil, bounds, by_kind, safe }
    }


    /// For castling side `class - 3`: the partner's cell, its destination and the king's destination.
    fn castle_cells(&self, s: &State, us: Color, class: &Int) -> (Int, Int, Int) {
        let none = int(-1);
        let (mut rook, mut rook_to, mut king_to) = (none.clone(), none.clone(), none);
        if let Some(rule) = &self.game.castling {
            for (i, side) in rule.sides.iter().enumerate() {
                let this = class.eq(int(3 + i as i64));
                rook = this.ite(&s.rights[us as usize][side.slot()], &rook);
                rook_to = this.ite(&int(side.rook_to[us as usize] as i64), &rook_to);
                king_to = this.ite(&int(side.king_to[us as usize] as i64), &king_to);
            }
        }
        (rook, rook_to, king_to)
    }

    /// Castling by side `i` is available (its destinations are fixed; the king and partner are found).
    fn castling_ok(&self, s: &State, us: Color, i: usize, king: &Int) -> Bool {
        let Some(rule) = &self.game.castling else { return Bool::from_bool(false) };
        let side = &rule.sides[i];
        let u = us as usize;
        let geo = &self.game.geometry;
        let (kt, rt) = (side.king_to[u], side.rook_to[u]);
        let rook = s.rights[u][side.slot()].clone();
        let line: Vec<Cell> = self.cells.iter().copied().filter(|&c| geo.coords(c)[1..] == geo.coords(kt)[1..]).collect();
        let mut parts = vec![
            rook.ne(int(-1)),
            self.at_term(s, &rook).eq(int(code(rule.rook, us) as i64)),
            self.at_term(s, king).eq(int(code(rule.king, us) as i64)),
            Bool::or(&line.iter().map(|&c| king.eq(int(c as i64))).collect::<Vec<_>>()),
        ];
        // A royal castler: exactly one royal piece, the king of this rule, not
        // in check and crossing no attacked cell. Any other: the one piece of
        // its kind, through attacks (LANGUAGE §3.8).
        let royal = self.game.kinds[rule.king as usize].royal;
        // (Counts as cardinality constraints, which the SAT solver reasons
        // about natively, not as sums of integers.)
        if royal {
            let royals: Vec<Bool> = self.cells.iter().map(|&c| self.is_royal(&self.at(s, c), us)).collect();
            parts.push(exactly_one(&royals));
            parts.push(self.in_check(s, us).not());
        } else {
            let king_code = int(code(rule.king, us) as i64);
            let kings: Vec<Bool> = self.cells.iter().map(|&c| self.at(s, c).eq(&king_code)).collect();
            parts.push(exactly_one(&kings));
        }
        for &c in &line {
            let ci = int(c as i64);
            let ends = [king, &rook];
            let above_low = Bool::or(&[ends[0].le(&ci), ends[1].le(&ci), int(kt as i64).le(&ci), int(rt as i64).le(&ci)]);
            let below_high = Bool::or(&[ends[0].ge(&ci), ends[1].ge(&ci), int(kt as i64).ge(&ci), int(rt as i64).ge(&ci)]);
            let between = Bool::and(&[above_low, below_high, king.ne(&ci), rook.ne(&ci)]);
            parts.push(between.implies(self.at(s, c).eq(int(0))));
            if c != kt && royal {
                let crossed = Bool::and(&[
                    Bool::or(&[Bool::and(&[king.le(&ci), ci.le(int(kt as i64))]), Bool::and(&[ci.le(king), int(kt as i64).le(&ci)])]),
                    king.ne(&ci),
                ]);
                parts.push(crossed.implies(self.attacked(s, c, us ^ 1).not()));
            }
        }
        Bool::and(&parts)
    }

    /// Reads the state `s` with `side` to move out of a model, as a position.
    pub fn read(&self, model: &Model, s: &State, side: Color) -> Position {
        let t = &self.variant.tables;
        let value = |x: &Int| model.eval(x, true).and_then(|v| v.as_i64()).unwrap_or(-1);
        let mut pos = Position::empty();
        pos.side = side;
        let top = 2 * self.game.kinds.len() as i64;
        for &c in &self.cells {
            let v = value(&self.at(s, c));
            if v > 0 && v <= top {
                let mut piece = v as u8;
                if let Some(p) = &s.promoted {
                    if model.eval(&p[c as usize], true).and_then(|b| b.as_bool()) == Some(true) {
                        piece |= PROMOTED;
                    }
                }
                pos.put(c, piece, t);
                // A face-down piece; the pools are not encoded, so each
                // player's pool is the multiset of its face-down disguises
                // (what the FEN reader assumes without `{…}`): always a pool
                // a position may have.
                let down = s.hidden.as_ref().is_some_and(|h| model.eval(&h[c as usize], true).and_then(|b| b.as_bool()) == Some(true));
                if down {
                    pos.set_hidden(c, true);
                    pos.pool[color_of(piece) as usize][kind_of(piece) as usize] += 1;
                }
            }
        }
        for p in 0..2 {
            for sl in 0..2 {
                let r = value(&s.rights[p][sl]);
                pos.castling[p][sl] = if r < 0 { NO_CELL } else { r as Cell };
            }
        }
        let mut n = 0;
        for e in &s.ep {
            let v = value(e);
            if v >= 0 && n < MAX_EP {
                pos.ep_targets[n] = v as Cell;
                n += 1;
            }
        }
        let victim = value(&s.ep_victim);
        if victim < 0 {
            // Targets without a victim mean nothing to the interpreter.
            n = 0;
        }
        pos.ep_len = n as u8;
        pos.ep_victim = if victim < 0 || n == 0 { NO_CELL } else { victim as Cell };
        for (k, h) in s.hand.iter().enumerate() {
            for p in 0..2 {
                pos.hand[p][k] = value(&h[p]).clamp(0, 255) as u8;
            }
        }
        pos
    }

    /// Reads a step's revealed kind out of a model (-1: nothing revealed).
    pub fn read_reveal(&self, model: &Model, step: &Step) -> i64 {
        model.eval(&step.reveal, true).and_then(|v| v.as_i64()).unwrap_or(-1)
    }

    /// Reads a step's move key out of a model.
    pub fn read_key(&self, model: &Model, step: &Step) -> Key {
        let v = |x: &Int| model.eval(x, true).and_then(|v| v.as_i64()).unwrap_or(-1);
        (v(&step.key[0]), v(&step.key[1]), v(&step.key[2]), v(&step.key[3]))
    }

    /// The interpreter's legal move with this key in `pos`, if any.
    pub fn find_move(&self, pos: &Position, key: Key) -> Option<Move> {
        self.variant.legal_moves(pos).into_iter().find(|m| key_of(m) == key)
    }

    /// The colour of a cell (parity of its coordinate sum).
    pub fn colour(&self, cell: Cell) -> i64 {
        self.game.geometry.coords(cell).iter().sum::<usize>() as i64 % 2
    }

    /// The colour of a symbolic cell (-1 stays -1).
    pub fn colour_term(&self, cell: &Int) -> Int {
        let mut out = int(-1);
        for &c in &self.cells {
            out = cell.eq(int(c as i64)).ite(&int(self.colour(c)), &out);
        }
        out
    }

    /// Is `code` a piece of `color`? (Helper for claims.)
    pub fn code_of(&self, kind: KindId, color: Color) -> i64 {
        code(kind, color) as i64
    }
}

/// The promotion choices of `kind` of `color` moving from `from` (`None`:
/// the start is not known) to `to`, capturing or not (`None`: either), or
/// `None` when it does not promote: the last rule that applies on arrival,
/// or by its `on or from` zone on leaving, decides, as in the interpreter; a
/// `capturing` rule does not promote a quiet move; a target that is the
/// kind itself is the move without promotion (`None` in the list). Where
/// the start or the capture is not known the list may hold more than the
/// move allows (the move without promotion too), never less.
fn promotion_targets(game: &Game, kind: KindId, color: Color, from: Option<Cell>, to: Cell, captures: Option<bool>) -> Option<Vec<Option<KindId>>> {
    let zone = |r: &rulebook_interpreter::model::PromotionRule, c: Cell| r.zone[color as usize].contains(&c);
    let applies = |r: &&rulebook_interpreter::model::PromotionRule| {
        r.kind == kind && (zone(r, to) || r.from_too && from.is_none_or(|f| zone(r, f)))
    };
    let rule = game.promotions.iter().rev().find(applies)?;
    if rule.capturing && captures == Some(false) {
        return None;
    }
    let mut targets: Vec<Option<KindId>> = rule.targets.iter().map(|&p| (p != kind).then_some(p)).collect();
    let unsure = (rule.capturing && captures.is_none()) || (rule.from_too && from.is_none() && !zone(rule, to));
    if unsure && !targets.contains(&None) {
        targets.push(None);
    }
    Some(targets)
}

/// The kinds a face-down piece may show, and the kinds it may turn out to
/// be (both empty without hidden identities): those the `hidden` block
/// lists, with the disguises of the setup's face-down pieces and the kinds
/// in its pools (a setup FEN may name them itself).
pub fn hidden_kinds(variant: &Variant) -> (Vec<KindId>, Vec<KindId>) {
    let game = &variant.game;
    let Some(hidden) = &game.hidden else { return (Vec::new(), Vec::new()) };
    let mut disguises = hidden.kinds.clone();
    let mut reveals = hidden.kinds.clone();
    if let Ok(start) = variant.start() {
        for c in game.geometry.board_cells() {
            if start.is_hidden(c) && start.board[c as usize] != 0 {
                disguises.push(kind_of(start.board[c as usize]));
            }
        }
        for pool in &start.pool {
            reveals.extend((0..game.kinds.len()).filter(|&k| pool[k] > 0).map(|k| k as KindId));
        }
    }
    for list in [&mut disguises, &mut reveals] {
        list.retain(|&k| !game.kinds[k as usize].royal);
        list.sort_unstable();
        list.dedup();
    }
    (disguises, reveals)
}

/// Splits a code into (kind, colour) for display.
pub fn describe(code_value: u8) -> (KindId, Color) {
    (kind_of(code_value), color_of(code_value))
}
