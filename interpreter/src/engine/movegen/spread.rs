//! Legal actions in a game with spread pieces or tunnelling (`spread { … }`,
//! `tunnel { … }`): ordinary moves (of conventional pieces and of halves),
//! splits, entangles and tunnels, each capture attempt that involves a half
//! and each tunnel split into its chance outcomes.
//!
//! Legality is one rule (docs/LANGUAGE.md): an action is legal when every
//! outcome with p > 0 leaves the mover not in check, and check is a
//! possibility: some enemy piece, conventional or a half, attacks a cell of
//! the royal piece, halves blocking in every world — unless attacker and
//! royal half are halves of one unit in different branches, which never
//! stand together.

use super::*;
use crate::engine::spread::{
    Branch, SpreadState, ATTACKER_BLUE, ATTACKER_RED, BOUNCE, ENTANGLE, RED_SECOND, SPLIT, THROUGH, TUNNEL,
    VICTIM_BLUE, VICTIM_RED, WEIGHT_SHIFT,
};

/// Is `color` in check (a possibility, see the module docs)?
pub fn spread_in_check(game: &Game, t: &Tables, pos: &Position, color: Color) -> bool {
    let Some(state) = pos.spread.as_deref() else {
        return royal_attacked(game, t, pos, color);
    };
    let them = color ^ 1;
    let royal = pos.cells_of(color, t.nwords).filter(|&c| t.royal_mask >> kind_of(pos.board[c as usize]) & 1 != 0);
    for k in royal {
        if !attacked(game, t, pos, k, them) {
            continue;
        }
        let Some(mine) = state.pair_at(k).copied() else { return true };
        let Some(branch) = mine.branch_at(k) else { return true };
        // Enemy halves of the king's unit in the other branch never stand
        // with this king half: they block, but do not attack it.
        let apart: Vec<Cell> = state
            .unit(mine.unit)
            .map(|p| p.cell(other(branch)))
            .filter(|&c| pos.board[c as usize] != 0 && color_of(pos.board[c as usize]) == them)
            .collect();
        if apart.is_empty() {
            return true;
        }
        let mut world = pos.clone();
        for c in apart {
            let piece = world.take(c, t);
            world.put(c, code(kind_of(piece), color), t);
        }
        if attacked(game, t, &world, k, them) {
            return true;
        }
    }
    false
}

fn other(b: Branch) -> Branch {
    match b {
        Branch::Red => Branch::Blue,
        Branch::Blue => Branch::Red,
    }
}

/// Appends the legal actions of the side to move, one move per chance outcome.
pub fn legal_moves(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    generate(game, t, pos, out);
}

/// The number of [`legal_moves`], counted as they are generated (nothing stored).
pub fn count_legal(game: &Game, t: &Tables, pos: &Position) -> u64 {
    let mut count = Counter(0);
    generate(game, t, pos, &mut count);
    count.0
}

/// [`legal_moves`] into any [`Sink`].
fn generate(game: &Game, t: &Tables, pos: &Position, out: &mut impl Sink) {
    let us = pos.side;
    let empty = SpreadState::default();
    let state = pos.spread.as_deref().unwrap_or(&empty);
    let half = |c: Cell| state.pair_at(c).is_some();
    let checked = spread_in_check(game, t, pos, us);
    let unpinned = unpinned_movers(game, t, pos, checked);
    let enemy_halves = halves_of(pos, state, us ^ 1);
    let ctx = &Ctx { game, t, pos, state, checked, unpinned, enemy_halves, probe: Default::default(), world: Default::default(), attacks: Default::default() };
    // Where only counted, the pieces whose moves and splits are counted
    // from the bitset tables, not listed.
    let bulk = if out.count_only().is_some() { ctx.bulk_pieces() } else { Bulk::none() };
    let mut buffers = BUFFERS.with(|b| b.take());
    buffers.clear();
    let Buffers { pseudo, castles, scratch, ordinary, parts, sets } = &mut buffers;
    for from in pos.cells_of(us, t.nwords) {
        if !bulk.counts(from) {
            piece_moves_once(pos, t, from, pseudo);
        }
    }
    drops(game, t, pos, pseudo);
    if state.pairs.is_empty() && !pos.any_hidden() {
        // No halves: the ordinary moves are chess's, found by the fast path.
        super::legal::legal_decisions(game, t, pos, ordinary);
        castles.extend(ordinary.iter().filter(|m| m.kind == MoveKind::Castle));
        for m in ordinary.iter() {
            out.add(*m);
        }
    } else {
        if !checked {
            castling_moves_with(game, t, pos, castles, false);
            castles.retain(|m| !half(m.from) && !half(m.aux as Cell));
        }
        for m in pseudo.iter().chain(castles.iter()) {
            // A move with one outcome (no half involved in a capture) that
            // lands on its target and only empties a cell no royal piece is
            // shielded by: legal without a trial.
            let plain = matches!(m.kind, MoveKind::Normal | MoveKind::EnPassantSetter) && m.spread == 0;
            let known = plain && unpinned.is_some_and(|u| u >> m.from & 1 != 0) && outcomes(pos, state, m).count() == 1;
            with_outcomes(ctx, *m, known, out, scratch);
        }
        if let Some(count) = out.count_only() {
            // Each move of a piece counted in bulk has one outcome and is
            // legal without a trial.
            *count += bulk.landings.iter().map(|l| u64::from(l.count_ones())).sum::<u64>();
        }
    }
    if let Some(rules) = &game.spread {
        splits(ctx, rules, Listed { pseudo, castles, bulk: &bulk }, (parts, sets), out, scratch);
    }
    if game.tunnel.is_some() {
        tunnels(ctx, out, scratch);
    }
    BUFFERS.with(|b| b.replace(buffers));
}

/// The lists [`generate`] fills at each position, kept by each thread from
/// one position to the next (taken while in use).
#[derive(Default)]
struct Buffers {
    /// The pseudo-legal moves of the pieces not counted in bulk, and the drops.
    pseudo: Vec<Move>,
    /// The castlings.
    castles: Vec<Move>,
    /// The outcomes of one action, while they are tried.
    scratch: Vec<Move>,
    /// The ordinary moves, where no piece is spread.
    ordinary: Vec<Move>,
    /// One piece's parts ([`splits`]).
    parts: Vec<Move>,
    /// One piece's cell sets ([`splits`]).
    sets: Vec<(Move, Cell)>,
}

impl Buffers {
    /// Empties every list, keeping their room.
    fn clear(&mut self) {
        for list in [&mut self.pseudo, &mut self.castles, &mut self.scratch, &mut self.ordinary, &mut self.parts] {
            list.clear();
        }
        self.sets.clear();
    }
}

thread_local! {
    /// Each thread's [`Buffers`].
    static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::new(Buffers::default());
}

/// The moves [`splits`] reads: the pseudo-legal moves listed, the
/// castlings, and the pieces counted in bulk instead.
struct Listed<'a> {
    /// The pseudo-legal moves of the pieces not counted in bulk, piece by piece, then the drops.
    pseudo: &'a [Move],
    /// The castlings offered.
    castles: &'a [Move],
    /// The pieces counted in bulk, with their landings.
    bulk: &'a Bulk,
}

/// The cells (of a board of at most 64 cells) whose piece may leave them
/// without exposing a royal piece of the side to move, where the side is
/// not in check and has one royal piece: every cell but the royal one and
/// those of pinned pieces, halves blocking like any piece (check, below, is
/// a possibility that only some pieces' halves escape, so a move that
/// exposes no royal piece to any attacker leaves the mover out of check).
/// `None` where that cannot be told this way.
fn unpinned_movers(game: &Game, t: &Tables, pos: &Position, checked: bool) -> Option<u64> {
    let us = pos.side;
    if checked || !t.small || !super::legal::pins_found_once(game, t, pos) {
        return None;
    }
    let king = pos.royal[us as usize];
    let occ = pos.occupied[0][0] | pos.occupied[1][0] | pos.walls[0];
    let safety = king_safety_small(t, pos, king, us, occ);
    if safety.checkers > 0 {
        return None;
    }
    Some(pos.occupied[us as usize][0] & !safety.pinned & !(1u64 << king))
}

/// The cells of `color`'s halves.
fn halves_of(pos: &Position, state: &SpreadState, color: Color) -> [u64; WORDS] {
    let mut halves = [0u64; WORDS];
    for p in &state.pairs {
        for c in [p.red, p.blue] {
            let code = pos.board[c as usize];
            if code != 0 && color_of(code) == color {
                halves[c as usize / 64] |= 1 << (c % 64);
            }
        }
    }
    halves
}

/// The pieces counted from the bitset tables ([`Ctx::bulk_pieces`]).
struct Bulk {
    /// Their cells.
    pieces: u64,
    /// Per cell: where its piece may move (empty but for the pieces).
    landings: [u64; 64],
}

impl Bulk {
    /// No piece counted in bulk.
    fn none() -> Bulk {
        Bulk { pieces: 0, landings: [0; 64] }
    }

    /// Is the piece on `cell` counted in bulk? (Never on a cell past the
    /// 64th: only boards of at most 64 cells count so.)
    fn counts(&self, cell: Cell) -> bool {
        cell < 64 && self.pieces >> cell & 1 != 0
    }
}

/// What the split generators share.
struct Ctx<'a> {
    game: &'a Game,
    t: &'a Tables,
    pos: &'a Position,
    state: &'a SpreadState,
    /// Is the side to move in check?
    checked: bool,
    /// The cells a piece may leave without exposing a royal piece, where
    /// known ([`unpinned_movers`]).
    unpinned: Option<u64>,
    /// The cells of the opponent's halves (what an entangle may attack).
    enemy_halves: [u64; WORDS],
    /// The copy each outcome is tried on (cloned once, then overwritten).
    probe: std::cell::RefCell<Option<Position>>,
    /// The copy an entangle's piece stands on both its cells in (cloned
    /// once, then overwritten), and the buffer of its moves from there.
    world: std::cell::RefCell<Option<Position>>,
    attacks: std::cell::RefCell<Vec<Move>>,
}

impl Ctx<'_> {
    /// The side to move's pieces whose every move and split is legal
    /// without a trial and has one outcome, so that a count may take their
    /// numbers from the bitset tables: on a board of at most 64 cells,
    /// conventional pieces that may leave their cells without exposing a
    /// royal piece ([`unpinned_movers`]), whose moves the tables hold as
    /// plain moves ([`SmallMoves::plain`]), none of which promotes, takes
    /// en passant or attacks a half.
    fn bulk_pieces(&self) -> Bulk {
        let (t, pos) = (self.t, self.pos);
        let mut bulk = Bulk::none();
        let Some(unpinned) = self.unpinned.filter(|_| t.small) else { return bulk };
        let occ = pos.occupied[0][0] | pos.occupied[1][0] | pos.walls[0];
        let enemy = pos.occupied[pos.side as usize ^ 1][0];
        let mut cells = unpinned & !halves_of(pos, self.state, pos.side)[0];
        while cells != 0 {
            let from = cells.trailing_zeros() as Cell;
            cells &= cells - 1;
            let Some((_, landings, _)) = super::legal::plain_landings_small(t, pos, from, occ, enemy) else { continue };
            if landings & self.enemy_halves[0] == 0 {
                bulk.pieces |= 1u64 << from;
                bulk.landings[from as usize] = landings;
            }
        }
        bulk
    }

    /// Is every split of the piece on `from` legal without a trial? A split
    /// only adds blockers, so it is when the mover is not in check, the
    /// piece is not royal, and either it stays on `from` or emptying `from`
    /// exposes no royal piece.
    fn split_safe(&self, from: Cell, stay: bool, exposed: &mut Option<bool>) -> bool {
        let (t, pos) = (self.t, self.pos);
        if self.checked || t.royal_mask >> kind_of(pos.board[from as usize]) & 1 != 0 {
            return false;
        }
        if stay {
            return true;
        }
        if let Some(unpinned) = self.unpinned {
            // Not known to be safe: the trial decides.
            return unpinned >> from & 1 != 0;
        }
        !*exposed.get_or_insert_with(|| {
            let mut world = pos.clone();
            world.take(from, t);
            spread_in_check(self.game, t, &world, pos.side)
        })
    }
}

/// The outcomes of the decision `m`: one per branch combination of the
/// units a capture attempt collapses; a single outcome (0) otherwise.
fn outcomes(pos: &Position, state: &SpreadState, m: &Move) -> impl Iterator<Item = u8> {
    // At most four: two branches of the attacker times two of the victim.
    let list = |all: &[u8]| {
        let mut a = [0u8; 4];
        a[..all.len()].copy_from_slice(all);
        a.into_iter().take(all.len())
    };
    if m.spread & crate::engine::spread::ACTION == TUNNEL {
        return list(&[THROUGH, BOUNCE]);
    }
    if m.spread != 0 || matches!(m.kind, MoveKind::Castle | MoveKind::Drop) {
        return list(&[0]);
    }
    let vcell = crate::engine::spread::victim_cell(m);
    if pos.board[vcell as usize] == 0 {
        return list(&[0]);
    }
    let attacker = state.pair_at(m.from);
    let victim = state.pair_at(vcell).filter(|v| attacker.is_none_or(|a| a.unit != v.unit));
    match (attacker.is_some(), victim.is_some()) {
        (true, true) => list(&[ATTACKER_RED | VICTIM_RED, ATTACKER_RED | VICTIM_BLUE, ATTACKER_BLUE | VICTIM_RED, ATTACKER_BLUE | VICTIM_BLUE]),
        (true, false) => list(&[ATTACKER_RED, ATTACKER_BLUE]),
        (false, true) => list(&[VICTIM_RED, VICTIM_BLUE]),
        (false, false) => list(&[0]),
    }
}

/// Pushes every outcome of the decision `m` if every one leaves the mover out of check.
fn with_outcomes(ctx: &Ctx, m: Move, known_legal: bool, out: &mut impl Sink, scratch: &mut Vec<Move>) {
    let (game, t, pos, state) = (ctx.game, ctx.t, ctx.pos, ctx.state);
    if known_legal {
        for o in outcomes(pos, state, &m) {
            let mv = Move { outcome: o, ..m };
            if o == 0 || !game_probability_zero(game, pos, &mv) {
                out.add(mv);
            }
        }
        return;
    }
    scratch.clear();
    for o in outcomes(pos, state, &m) {
        let mv = Move { outcome: o, ..m };
        if o != 0 && game_probability_zero(game, pos, &mv) {
            continue;
        }
        let mut probe = ctx.probe.borrow_mut();
        let next = probe.get_or_insert_with(|| pos.clone());
        next.copy_from(pos, t);
        next.make(&mv, game, t);
        if spread_in_check(game, t, next, pos.side) {
            return;
        }
        scratch.push(mv);
    }
    for m in scratch.drain(..) {
        out.add(m);
    }
}

/// Is the outcome of `m` impossible (a branch whose weight has no face)?
fn game_probability_zero(game: &Game, pos: &Position, m: &Move) -> bool {
    crate::engine::spread::outcome_probability(game, pos, m) == num_rational::Ratio::from_integer(0)
}

fn splits(
    ctx: &Ctx,
    rules: &crate::model::SpreadRules,
    Listed { pseudo, castles, bulk }: Listed,
    (parts, sets): (&mut Vec<Move>, &mut Vec<(Move, Cell)>),
    out: &mut impl Sink,
    scratch: &mut Vec<Move>,
) {
    let (game, t, pos, state) = (ctx.game, ctx.t, ctx.pos, ctx.state);
    let us = pos.side;
    let geo = &game.geometry;
    let free_labels = rules.entangle.as_ref().map_or(0, |e| e.labels.len())
        - (1..=rules.entangle.as_ref().map_or(0, |e| e.labels.len()) as u8)
            .filter(|l| state.pairs.iter().any(|p| p.label == *l))
            .count();
    // `pseudo` lists each piece's moves together, piece by piece in this
    // loop's order (drops after them): each piece's are the run at `next`.
    let mut next = 0;
    for from in pos.cells_of(us, t.nwords) {
        if bulk.counts(from) {
            bulk_splits(ctx, rules, from, bulk.landings[from as usize], free_labels, out, scratch);
            continue;
        }
        let run = pseudo[next..].iter().take_while(|m| m.from == from && m.kind != MoveKind::Drop).count();
        let own = &pseudo[next..next + run];
        next += run;
        if state.pair_at(from).is_some() {
            continue; // only a conventional piece splits
        }
        let piece = kind_of(pos.board[from as usize]);
        // Its quiet moves: distinct empty targets, no promotion.
        parts.clear();
        for m in own {
            if matches!(m.kind, MoveKind::Normal | MoveKind::EnPassantSetter)
                && pos.board[m.to as usize] == 0
                && !m.is_promotion()
                && !parts.iter().any(|p| p.to == m.to)
            {
                parts.push(*m);
            }
        }
        let rook_to = |m: &Move| -> Cell {
            game.castling.as_ref().map_or(NO_CELL, |r| r.sides[m.side as usize].rook_to[us as usize])
        };
        if rules.castling_split {
            // A castling split needs four cells, the king's and the rook's
            // from and to: where a FEN puts the king or the rook on a
            // castling square already, one cell would hold two halves.
            let four = |m: &Move| {
                let cells = [m.from, m.to, m.aux as Cell, rook_to(m)];
                (0..4).all(|i| (i + 1..4).all(|j| cells[i] != cells[j]))
            };
            parts.extend(castles.iter().filter(|m| m.from == from && four(m)));
        }
        let forward = rules.red_forward.contains(&piece);
        // The actions of one cell set: one per weight, two where a weight's
        // colours differ in number and the piece is not `red forward`.
        let per_set = rules.weights.iter().map(|w| colourings_of(forward, w) as u64).sum::<u64>();
        let mut exposed = None;
        if parts.iter().all(|m| m.kind != MoveKind::Castle) && ctx.split_safe(from, false, &mut exposed) {
            if let Some(count) = out.count_only() {
                // Every split of the piece legal without a trial, and no
                // castling part: its cell sets counted, not listed.
                let e = parts.iter().filter(|m| m.kind == MoveKind::EnPassantSetter).count() as u64;
                *count += cell_sets(parts.len() as u64, e) * per_set;
                if rules.entangle.is_some() {
                    for a in parts.iter() {
                        entangles(ctx, Move { second: from, ..*a }, forward, free_labels, true, out, scratch);
                    }
                }
                continue;
            }
        }
        let dist = |c: Cell| -> usize { (0..geo.dims()).map(|a| geo.coord(from, a).abs_diff(geo.coord(c, a))).sum() };
        // Cell sets: two parts, or one part and stay.
        sets.clear();
        for (i, a) in parts.iter().enumerate() {
            for b in &parts[i + 1..] {
                if a.to == b.to {
                    continue;
                }
                let (main, second) = if b.kind != MoveKind::Normal && a.kind == MoveKind::Normal { (*b, *a) } else { (*a, *b) };
                if second.kind == MoveKind::Castle
                    || (main.kind == MoveKind::Castle && (second.to == rook_to(&main)))
                    || (main.kind == MoveKind::EnPassantSetter && second.kind == MoveKind::EnPassantSetter)
                {
                    continue;
                }
                sets.push((main, second.to));
            }
            sets.push((*a, from));
        }
        for &(main, second) in sets.iter() {
            let base = Move { second, ..main };
            let stay = second == from;
            let safe = ctx.split_safe(from, stay, &mut exposed);
            if let (true, Some(count)) = (safe, out.count_only()) {
                // Legal without a trial, each of one outcome: counted, not made.
                *count += per_set;
            } else {
                for (w, weight) in rules.weights.iter().enumerate() {
                    let flags = SPLIT | (w as u8) << WEIGHT_SHIFT;
                    let one = |c: u8| ([c, 0], 1);
                    let (colourings, n) = if colourings_of(forward, weight) == 2 {
                        ([0, RED_SECOND], 2)
                    } else if forward {
                        // Red is the front cell.
                        one(if dist(base.to) >= dist(base.second) { 0 } else { RED_SECOND })
                    } else {
                        // One action; its red cell: the moved one (move and stay),
                        // the castling one, else the first in board order.
                        let special = stay || base.kind == MoveKind::Castle;
                        one(if special || base.to < base.second { 0 } else { RED_SECOND })
                    };
                    for &c in &colourings[..n] {
                        with_outcomes(ctx, Move { spread: flags | c, ..base }, safe, out, scratch);
                    }
                }
            }
            if stay && rules.entangle.is_some() {
                entangles(ctx, base, forward, free_labels, safe, out, scratch);
            }
        }
    }
}

/// [`splits`] of the piece on `from`, one of [`Ctx::bulk_pieces`] (the
/// moves only counted), which may land on `landings`: its parts are its
/// quiet moves, every split is legal without a trial, and its cell sets
/// are counted as `splits` counts those of a piece whose splits are all
/// safe; its entangles are counted one part at a time.
fn bulk_splits(ctx: &Ctx, rules: &crate::model::SpreadRules, from: Cell, landings: u64, free_labels: usize, out: &mut impl Sink, scratch: &mut Vec<Move>) {
    let (t, pos) = (ctx.t, ctx.pos);
    let kind = kind_of(pos.board[from as usize]);
    let kc = kind as usize * 2 + pos.side as usize;
    let entry = &t.bits.moves[kc * t.ncells + from as usize];
    let enemy = pos.occupied[pos.side as usize ^ 1][0];
    // The landings that take nothing (the piece's own are never among them).
    let quiet = landings & !enemy;
    let forward = rules.red_forward.contains(&kind);
    let per_set = rules.weights.iter().map(|w| colourings_of(forward, w) as u64).sum::<u64>();
    let e = if entry.exact_sets_ep { u64::from((quiet & entry.exact_cell).count_ones()) } else { 0 };
    if let Some(count) = out.count_only() {
        *count += cell_sets(u64::from(quiet.count_ones()), e) * per_set;
    }
    let halves = ctx.enemy_halves[0];
    if rules.entangle.is_none() || halves == 0 {
        return;
    }
    // A part from whose two cells the piece reaches no enemy half,
    // whatever stands between, entangles nothing ([`entangles`]' own test,
    // made here once for `from`).
    let reaches = |cell: Cell| t.reach_of(kind, pos.side, cell).first().is_some_and(|r| r & halves != 0);
    let from_reaches = reaches(from);
    let mut cells = quiet;
    while cells != 0 {
        let to = cells.trailing_zeros() as Cell;
        cells &= cells - 1;
        if !from_reaches && !reaches(to) {
            continue;
        }
        let part = super::legal::plain_small_move(entry, kind, from, to, enemy);
        entangles(ctx, Move { second: from, ..part }, forward, free_labels, true, out, scratch);
    }
}

/// How many cell sets a piece with `parts` quiet moves (distinct targets),
/// `setters` of which set en-passant targets, splits onto: two parts make
/// a set unless both set targets, and each part makes one with staying.
fn cell_sets(parts: u64, setters: u64) -> u64 {
    parts * parts.saturating_sub(1) / 2 - setters * setters.saturating_sub(1) / 2 + parts
}

/// How many split actions one cell set makes under `weight`: one colouring
/// where the piece is `red forward` (red is the front cell) or the weight's
/// colours have as many faces each (the two colourings are one action),
/// else both.
fn colourings_of(forward: bool, weight: &crate::model::Weight) -> usize {
    if forward || weight.red_faces.len() == weight.blue_faces.len() {
        1
    } else {
        2
    }
}

/// The entangles of the stay-and-move split `base`: one per attacked enemy
/// unit and pairing (a `red forward` kind's front cell goes with red).
fn entangles(
    ctx: &Ctx,
    base: Move,
    forward: bool,
    free_labels: usize,
    safe: bool,
    out: &mut impl Sink,
    scratch: &mut Vec<Move>,
) {
    let (t, pos, state) = (ctx.t, ctx.pos, ctx.state);
    // No enemy half the piece could capture on from either of its cells,
    // whatever stands between (`Tables::reach_of`): no entangle.
    let kind = kind_of(pos.board[base.from as usize]);
    let reaches = |cell: Cell| t.reach_of(kind, pos.side, cell).iter().zip(&ctx.enemy_halves).any(|(r, h)| r & h != 0);
    if !reaches(base.from) && !reaches(base.to) {
        return;
    }
    let colourings: &[u8] = if forward { &[0] } else { &[0, RED_SECOND] };
    if safe {
        if let Some(count) = out.count_only() {
            // Legal without a trial and only counted: the units the piece
            // attacks from its two cells, found from the bitset tables.
            if let Some(units) = entangled_units_small(ctx, base, kind, free_labels) {
                *count += units * colourings.len() as u64;
                return;
            }
        }
    }
    // The piece on both of its cells (the mover still to move), to see what it attacks.
    let mut world = ctx.world.borrow_mut();
    let world = world.get_or_insert_with(|| pos.clone());
    world.copy_from(pos, t);
    let piece = world.take(base.from, t);
    world.put(base.from, piece, t);
    world.put(base.to, piece, t);
    let mut attacks = ctx.attacks.borrow_mut();
    attacks.clear();
    for cell in [base.from, base.to] {
        piece_moves_once(world, t, cell, &mut attacks);
    }
    let mut seen: Vec<u8> = Vec::new();
    for a in attacks.iter() {
        if a.kind == MoveKind::EnPassant || world.board[a.to as usize] == 0 {
            continue;
        }
        let Some(target) = state.pair_at(a.to) else { continue };
        if seen.contains(&target.unit) {
            continue;
        }
        seen.push(target.unit);
        // A unit without a label (a single pair, or a castling split's king
        // and partner) becomes a new group: it needs a free label.
        if target.label == 0 && free_labels == 0 {
            continue;
        }
        let flags = ENTANGLE | target.weight << WEIGHT_SHIFT;
        let aux = (base.aux & 0xFFFF) | (a.to as u32) << 16;
        // `to` is the moved cell, `second` the origin.
        for &c in colourings {
            with_outcomes(ctx, Move { spread: flags | c, aux, ..base }, safe, out, scratch);
        }
    }
}

/// How many entangles the stay-and-move split `base` of a piece of `kind`
/// makes per colouring ([`entangles`]): the enemy units with a half the
/// piece could capture from either of its cells (it stands on both), each
/// counted once, less those without a label where no label is free. Found
/// from the bitset tables on boards of at most 64 cells; `None` where the
/// piece's moves need the walker.
fn entangled_units_small(ctx: &Ctx, base: Move, kind: crate::model::KindId, free_labels: usize) -> Option<u64> {
    let (t, pos, state) = (ctx.t, ctx.pos, ctx.state);
    if !t.small {
        return None;
    }
    let us = pos.side as usize;
    let kc = kind as usize * 2 + us;
    let occ = pos.occupied[0][0] | pos.occupied[1][0] | pos.walls[0] | 1u64 << base.to;
    let enemy = pos.occupied[us ^ 1][0];
    let (from_here, _) = super::legal::landing_small::<u64>(t, kc, base.from, occ, enemy)?;
    let (from_there, _) = super::legal::landing_small::<u64>(t, kc, base.to, occ, enemy)?;
    let hit = (from_here | from_there) & enemy & ctx.enemy_halves[0];
    if hit == 0 {
        return Some(0);
    }
    // Units are numbered below 256 (a `u8`).
    let mut seen = [0u64; 4];
    let mut units = 0;
    for p in &state.pairs {
        if (1u64 << p.red | 1u64 << p.blue) & hit == 0 {
            continue;
        }
        let (word, bit) = (p.unit as usize / 64, 1u64 << (p.unit % 64));
        if seen[word] & bit != 0 {
            continue;
        }
        seen[word] |= bit;
        // A unit without a label becomes a new group: it needs a free label.
        if p.label != 0 || free_labels != 0 {
            units += 1;
        }
    }
    Some(units)
}

/// The tunnels: a conventional piece rides through the one enemy
/// conventional piece directly before an empty cell within the ride's range.
fn tunnels(ctx: &Ctx, out: &mut impl Sink, scratch: &mut Vec<Move>) {
    let (t, pos, state) = (ctx.t, ctx.pos, ctx.state);
    let us = pos.side;
    for from in pos.cells_of(us, t.nwords) {
        if state.pair_at(from).is_some() {
            continue;
        }
        let piece = kind_of(pos.board[from as usize]);
        let kc = piece as usize * 2 + us as usize;
        let mut found: Vec<Cell> = Vec::new();
        for (ray, cells) in t.rays_of(piece, us, from).iter() {
            let f = ray.flags;
            if f & (SCATTER | HOP) != 0 || f & QUIET == 0 {
                continue;
            }
            let Some(i) = cells.iter().position(|&c| pos.board[c as usize] != 0) else { continue };
            let barrier = cells[i];
            let code_b = pos.board[barrier as usize];
            if color_of(code_b) == us || state.pair_at(barrier).is_some() {
                continue;
            }
            let Some(&to) = cells.get(i + 1) else { continue };
            if pos.board[to as usize] != 0 || (f & EXACT != 0 && i + 2 != cells.len()) || found.contains(&to) {
                continue;
            }
            found.push(to);
            let m = Move { spread: TUNNEL, ..Move::normal(piece, from, to) };
            let rule = t.promotion_rule(kc, from, to, false); // a tunnel lands on an empty cell
            if rule == 0 {
                with_outcomes(ctx, m, false, out, scratch);
            } else {
                for &target in &t.promo_targets[rule as usize - 1] {
                    let promotion = if target == piece { NO_PROMOTION } else { target };
                    with_outcomes(ctx, Move { promotion, ..m }, false, out, scratch);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! Engine checks on the spread rules of `rules/niels-chess.rules` (the
    //! rulebook's worked examples are in tests/niels_chess.rs).
    use crate::engine::position::Move;
    use crate::{Position, Variant};

    /// Niel's Chess (`rules/niels-chess.rules`).
    pub(crate) fn quantum_chess() -> Variant {
        crate::text::fen::niels_for_tests()
    }

    fn decisions(moves: &[Move]) -> usize {
        let mut d: Vec<Move> = moves.iter().map(|m| m.decision()).collect();
        d.dedup();
        d.len()
    }

    #[test]
    fn start_has_the_hand_counted_actions() {
        // spec R5: 20 chess moves + 8 pawns × 3 cell sets × 2 weights + 2 knights × 3 sets × 3.
        let v = quantum_chess();
        let start = v.start().expect("setup");
        let moves = v.legal_moves(&start);
        assert_eq!(moves.len(), 86);
        assert_eq!(decisions(&moves), 86);
        // Black has its 86 actions after each of White's 86, plus entangles
        // (R9): a White pawn half on rank 4 (4 White actions per file: the
        // sets {3,4} and {2,4}, two weights each) can be attacked by a Black
        // stay-and-move split — a pawn's double step beside it (1 pairing,
        // red forward) or a knight (2 pairings): on a4 1 (b7-b5), b4 2 + Nb8
        // to a6 or c6 ×2 = 6, c4 2, d4 2 + Nc6 ×2 = 4, e4 2 + Nf6 ×2 = 4,
        // f4 2, g4 2 + Nf6/Nh6 ×2 = 6, h4 1: 26 per set, 4 × 26 = 104.
        assert_eq!(crate::engine::perft::perft(&v, &start, 2), 86 * 86 + 104);
    }

    #[test]
    fn a_split_puts_one_piece_on_two_cells() {
        let v = quantum_chess();
        let start = v.start().expect("setup");
        let g1 = v.game.geometry.parse_square("g1").expect("g1");
        let f3 = v.game.geometry.parse_square("f3").expect("f3");
        let h3 = v.game.geometry.parse_square("h3").expect("h3");
        let m = v
            .legal_moves(&start)
            .into_iter()
            .find(|m| m.from == g1 && m.spread != 0 && [m.to, m.second] == [f3, h3])
            .expect("Ng1 splits to f3 and h3");
        let next: Position = v.play(&start, &m);
        let state = next.spread.as_deref().expect("a pair");
        assert_eq!(state.pairs.len(), 1);
        assert_ne!(next.board[f3 as usize], 0);
        assert_ne!(next.board[h3 as usize], 0);
        assert_eq!(next.board[g1 as usize], 0);
    }
}

#[cfg(test)]
mod playouts {
    //! Random games in chess with the spread rules: the spread state stays
    //! consistent with the board after every action, every kind of action
    //! and outcome occurs, and each chance node's probabilities sum to 1.
    use super::tests::quantum_chess;
    use crate::engine::position::{Move, Position};
    use crate::engine::spread::{ACTION, ENTANGLE, SPLIT, TUNNEL};
    use num_rational::Ratio;

    fn consistent(pos: &Position) -> Result<(), String> {
        let Some(state) = pos.spread.as_deref() else { return Ok(()) };
        let mut cells = Vec::new();
        for p in &state.pairs {
            if p.red == p.blue {
                return Err(format!("pair on one cell: {p:?}"));
            }
            let (a, b) = (pos.board[p.red as usize], pos.board[p.blue as usize]);
            if a == 0 || a != b {
                return Err(format!("pair {p:?} with codes {a} and {b}"));
            }
            cells.extend([p.red, p.blue]);
            let unit: Vec<_> = state.unit(p.unit).collect();
            if unit.iter().any(|q| q.weight != p.weight || q.label != p.label) {
                return Err(format!("unit {} mixes weights or labels", p.unit));
            }
            if p.label != 0 && state.pairs.iter().any(|q| q.label == p.label && q.unit != p.unit) {
                return Err(format!("label {} on two units", p.label));
            }
        }
        let n = cells.len();
        cells.sort_unstable();
        cells.dedup();
        if cells.len() != n {
            return Err("a cell in two pairs".into());
        }
        if state.groups() > 2 {
            return Err("more than two groups".into());
        }
        // Every group carries its label (R8, R16): a unit of both sides
        // without one would be a group the labels do not count.
        if crate::engine::spread::entangled_groups(pos) != state.groups() {
            return Err(format!("{} groups but {} labels in use", crate::engine::spread::entangled_groups(pos), state.groups()));
        }
        Ok(())
    }

    #[test]
    fn random_games_keep_the_state_consistent() {
        let v = quantum_chess();
        let start = v.start().expect("setup");
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: usize| {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
        };
        let mut seen = [0usize; 6]; // split, entangle, tunnel, collision, half move, mate
        for _ in 0..60 {
            let mut pos = start.clone();
            for _ in 0..60 {
                let moves = v.legal_moves(&pos);
                if moves.is_empty() {
                    if v.in_check(&pos) {
                        seen[5] += 1;
                    }
                    break;
                }
                // Each chance node's outcomes sum to 1.
                let mut decisions: Vec<Move> = moves.iter().map(|m| m.decision()).collect();
                decisions.dedup();
                for d in &decisions {
                    let total: Ratio<u64> =
                        moves.iter().filter(|m| m.decision() == *d).map(|m| v.probability(&pos, m)).sum();
                    assert_eq!(total, Ratio::from_integer(1), "outcomes of {d:?} in {}", v.fen(&pos));
                }
                let m = moves[next(moves.len())];
                match m.spread & ACTION {
                    SPLIT => seen[0] += 1,
                    ENTANGLE => seen[1] += 1,
                    TUNNEL => seen[2] += 1,
                    _ if m.outcome != 0 => seen[3] += 1,
                    _ if pos.spread.as_deref().is_some_and(|s| s.pair_at(m.from).is_some()) => seen[4] += 1,
                    _ => {}
                }
                pos = v.play(&pos, &m);
                if let Err(e) = consistent(&pos) {
                    panic!("{e} after {m:?} in {}", v.fen(&pos));
                }
            }
        }
        assert!(seen[..5].iter().all(|&n| n > 0), "every kind of action occurs: {seen:?}");
    }

    /// Plays `games` random games of `v` of up to `plies` plies (drawn from
    /// `seed`), and at every position asserts that the count of the legal
    /// actions is the number listed, then shows `visit` the list.
    fn counts_as_listed(v: &crate::Variant, games: usize, plies: usize, seed: u64, mut visit: impl FnMut(&[Move])) {
        let start = v.start().expect("setup");
        let mut below = crate::flow::ply::below_from(seed);
        for _ in 0..games {
            let mut pos = start.clone();
            for _ in 0..plies {
                let moves = v.legal_moves(&pos);
                let counted = super::count_legal(&v.game, &v.tables_for(&pos), &pos);
                assert_eq!(counted, moves.len() as u64, "{}", v.fen(&pos));
                visit(&moves);
                if moves.is_empty() {
                    break;
                }
                pos = v.play(&pos, &moves[below(moves.len())]);
            }
        }
    }

    /// Along random games (long enough for pawns to reach the last rank),
    /// at every position, the count of the legal actions (perft's leaves:
    /// the moves and splits of the pieces that need no trial counted from
    /// the bitset tables, [`super::Ctx::bulk_pieces`], their entangles by
    /// unit, [`super::entangled_units_small`]) is the number listed. Many
    /// positions must offer entangles. Mutations caught: a piece that
    /// attacks a half, may take en passant or promote counted in bulk; a
    /// unit counted twice; the label test left out.
    #[test]
    fn counted_actions_are_the_listed_ones() {
        let (mut with_entangles, mut entangles) = (0, 0);
        counts_as_listed(&quantum_chess(), 60, 120, 0x51_7CC1_B727_220A, |moves| {
            let n = moves.iter().filter(|m| m.spread & ACTION == ENTANGLE).count();
            with_entangles += usize::from(n > 0);
            entangles += n;
        });
        assert!(with_entangles >= 500 && entangles >= 3000, "{with_entangles} positions with {entangles} entangles");
    }

    /// Niel's Chess on a board of 80 cells (ten files), where nothing is
    /// counted from the bitset tables (they cover 64 cells): along random
    /// games, the count of the legal actions is the number listed, and no
    /// piece past the 64th cell is taken for one counted in bulk.
    #[test]
    fn a_board_past_64_cells_counts_as_it_lists() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let niels = root.join("rules/niels-chess.rules");
        let text = format!(
            "variant \"Wide Niel's Chess\"\nextends \"{}\"\nboard {{ files a..j  ranks 1..8 }}\nsetup \"rnbqkbnrnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBNRNR w KQkq - 0 1\"\n",
            niels.display()
        );
        let path = std::env::temp_dir().join(format!("wide-niels-{}.rules", std::process::id()));
        std::fs::write(&path, text).expect("a temporary rules file");
        let loaded = crate::model::load::load(&path);
        let _ = std::fs::remove_file(&path);
        let Ok((game, _)) = loaded else { panic!("the wide variant loads: {:?}", loaded.err().map(|e| e.0)) };
        let v = crate::Variant::new(std::sync::Arc::new(game));
        assert_eq!(v.tables.ncells, 80);
        let mut positions = 0;
        counts_as_listed(&v, 6, 30, 0x2545_F491_4F6C_DD1D, |_| positions += 1);
        assert!(positions >= 100, "{positions} positions");
    }
}
