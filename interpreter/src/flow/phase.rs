//! Phases before play: the placement phase's decisions, castling rights
//! gained by placement, and the move to the next phase.

use crate::engine::cond::AfterPlacing;
use crate::engine::movegen;
use crate::engine::position::{code, color_of, kind_of, Move, MoveKind, Position, WORDS};
use crate::engine::tables::Tables;
use crate::model::flow::Placement;
use crate::model::geometry::Cell;
use crate::model::{Color, Game, KindId};

/// The colour of a cell (0 or 1): the parity of the sum of its coordinates
/// ([`crate::model::geometry::Geometry::colour`]).
pub fn colour(game: &Game, cell: Cell) -> u8 {
    game.geometry.colour(cell)
}

/// The number of pieces in `color`'s hand.
pub fn hand_size(game: &Game, pos: &Position, color: Color) -> u32 {
    pos.hand[color as usize][..game.kinds.len()].iter().map(|&n| u32::from(n)).sum()
}

/// The current phase's index in `Game::phases` (`phases.len()`: play).
pub fn current(game: &Game, pos: &Position) -> usize {
    pos.flow.as_ref().map_or(game.phases.len(), |f| f.phase as usize)
}

/// Does the phase that ends when both hands are empty end here?
pub fn over(game: &Game, pos: &Position) -> bool {
    hand_size(game, pos, 0) == 0 && hand_size(game, pos, 1) == 0
}

/// The first phase not yet over in `pos` (`phases.len()` when every one is):
/// the phase of a position text without `phase=`.
pub fn derive(game: &Game, pos: &Position) -> usize {
    if game.phases.is_empty() || over(game, pos) {
        game.phases.len()
    } else {
        0
    }
}

/// In a phase with a placement order, a hand must hold exactly the pieces
/// the order has still to place (its last entries): what is wrong, if not.
pub fn hand_mismatch(game: &Game, pos: &Position) -> Option<String> {
    let phase = game.phases.get(current(game, pos))?;
    let order = &phase.placement.order;
    if order.is_empty() {
        return None;
    }
    for color in 0..2u8 {
        let k = hand_size(game, pos, color) as usize;
        let who = &game.players[color as usize].name;
        if k > order.len() {
            return Some(format!("{who}'s hand holds {k} pieces, more than the {} of phase `{}`'s order", order.len(), phase.name));
        }
        let mut due = [0u32; 64];
        for e in &order[order.len() - k..] {
            due[e.kind as usize] += 1;
        }
        for (kind, &n) in pos.hand[color as usize][..game.kinds.len()].iter().enumerate() {
            if u32::from(n) != due[kind] {
                return Some(format!(
                    "{who}'s hand is not the rest of phase `{}`'s order: {} {} in hand, {} still to place",
                    phase.name, n, game.kinds[kind].name, due[kind]
                ));
            }
        }
    }
    None
}

/// The kind a placement order has the side to move place next (`None`
/// without an order, or with an empty hand): its placements are drops of
/// that kind alone.
pub fn order_kind(game: &Game, placement: &Placement, pos: &Position) -> Option<KindId> {
    let in_hand = hand_size(game, pos, pos.side) as usize;
    let placed = placement.order.len().checked_sub(in_hand).filter(|_| in_hand > 0)?;
    placement.order.get(placed).map(|e| e.kind)
}

/// The placements of the side to move in placement phase `placement`
/// among its legal moves `moves` (only the drops are looked at): those
/// that meet every guard, where one does. Empty when none is legal or its
/// hand is empty; the side's decisions are then its moves other than
/// drops.
///
/// When no placement meets every guard, the phase's `only if` conditions are
/// dropped, then `placed piece attacks no enemy and is not attacked` (as a
/// relocation's guards are, LANGUAGE §3.19); the order, its cells and
/// colours and `on different colours` are never dropped.
pub fn placements(game: &Game, t: &Tables, placement: &Placement, pos: &Position, moves: &[Move]) -> Vec<Move> {
    let us = pos.side;
    let in_hand = hand_size(game, pos, us);
    if in_hand == 0 {
        return Vec::new();
    }
    let stages = [(placement.safe, true), (placement.safe, false), (false, false)];
    let mut attacked = None;
    // The `only if` conditions judged for each kind placed, once.
    let mut judged: Vec<(KindId, Vec<Option<AfterPlacing>>)> = Vec::new();
    for (i, &(safe, only_if)) in stages.iter().enumerate() {
        if i > 0 && (stages[i - 1] == (safe, only_if) || (i == 1 && placement.only_if.is_empty())) {
            continue;
        }
        let mut after = None;
        // The cells the other side attacks, found once for every placement tested.
        if safe && attacked.is_none() && !pos.any_hidden() && pos.spread.is_none() && game.explosion.is_none() {
            attacked = Some(movegen::attacked_cells(t, pos, us ^ 1));
        }
        let attacked = attacked.as_ref().filter(|_| safe);
        let placed: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| {
                if m.kind != MoveKind::Drop {
                    return false;
                }
                if !only_if {
                    return allowed_with(game, t, placement, pos, m, in_hand, safe, false, &[], attacked, &mut after);
                }
                let i = match judged.iter().position(|(k, _)| *k == m.piece) {
                    Some(i) => i,
                    None => {
                        let each = placement.only_if.iter().map(|c| AfterPlacing::new(game, t, pos, c, us, m.piece)).collect();
                        judged.push((m.piece, each));
                        judged.len() - 1
                    }
                };
                allowed_with(game, t, placement, pos, m, in_hand, safe, true, &judged[i].1, attacked, &mut after)
            })
            .collect();
        if !placed.is_empty() {
            return placed;
        }
    }
    Vec::new()
}

/// The cells where the side to move may place the next piece of
/// placement phase `placement`'s order, every guard met, found as cell
/// sets without making a placement: the kind due and the cells
/// [`placements`] keeps, in cell order.
///
/// The drops are the plain ones ([`movegen::drop_cells`]); the order's
/// cells and colour are masks; the `only if` conditions are judged for
/// every cell at once ([`AfterPlacing`]); `placed piece attacks no enemy
/// and is not attacked` takes away the cells the other side attacks
/// ([`movegen::attacked_cells`]) and those from which the piece could
/// capture ([`movegen::capturing_cells`]).
/// `None` where some guard cannot be judged so (no order, a royal piece
/// due, `on different colours`, a condition or a capture that needs the
/// placement made, chance or explosions), or where no cell is left (the
/// guards are then dropped one by one, as [`placements`] does): the caller
/// lists the placements.
pub fn placement_cells(game: &Game, t: &Tables, placement: &Placement, pos: &Position) -> Option<(KindId, [u64; WORDS])> {
    let us = pos.side;
    let in_hand = hand_size(game, pos, us) as usize;
    let entry = placement.order.len().checked_sub(in_hand).filter(|_| in_hand > 0).and_then(|i| placement.order.get(i))?;
    let kind = entry.kind;
    if !placement.different_colours.is_empty() || game.kinds.get(kind as usize)?.royal {
        return None;
    }
    let mut cells = movegen::drop_cells(game, t, pos, kind)?;
    if let Some(colour) = entry.colour.map(|c| &t.colour_cells[usize::from(c[us as usize] & 1)]) {
        cells.iter_mut().zip(colour).for_each(|(c, k)| *c &= k);
    }
    if let Some(listed) = &entry.cells {
        let mut only = [0u64; WORDS];
        for &c in listed[us as usize].iter().filter(|&&c| (c as usize) < WORDS * 64) {
            only[c as usize / 64] |= 1 << (c % 64);
        }
        cells.iter_mut().zip(&only).for_each(|(c, o)| *c &= o);
    }
    for cond in &placement.only_if {
        AfterPlacing::retain_new(game, t, pos, cond, us, kind, &mut cells)?;
    }
    if placement.safe {
        if pos.spread.is_some() || game.explosion.is_some() {
            return None;
        }
        let attacked = movegen::attacked_cells(t, pos, us ^ 1);
        let capturing = movegen::capturing_cells(game, t, pos, kind)?;
        cells.iter_mut().zip(attacked.iter().zip(&capturing)).for_each(|(c, (a, k))| *c &= !(a | k));
    }
    cells.iter().any(|&w| w != 0).then_some((kind, cells))
}

/// May the side to move make placement `m` (a legal drop) in this phase, every guard met?
pub fn allowed(game: &Game, t: &Tables, placement: &Placement, pos: &Position, m: &Move) -> bool {
    allowed_with(game, t, placement, pos, m, hand_size(game, pos, pos.side), placement.safe, true, &[], None, &mut None)
}

/// [`allowed`], with the safety guard only when `with_safe` and the `only
/// if` conditions only when `with_only_if`; `in_hand`: the pieces in the
/// mover's hand ([`hand_size`]); `judged`: the conditions judged for the
/// placed kind without making the placement, where they can be
/// ([`AfterPlacing`]; empty or `None`: made and tested); `attacked`: the cells the other side attacks in `pos`
/// ([`movegen::attacked_cells`]), where the safety guard may be judged
/// without making the placement; `after` is a position to make the
/// placement on for the rest (a copy of `pos` made on first use and reused
/// for the next placement tested).
#[allow(clippy::too_many_arguments)]
fn allowed_with(
    game: &Game,
    t: &Tables,
    placement: &Placement,
    pos: &Position,
    m: &Move,
    in_hand: u32,
    with_safe: bool,
    with_only_if: bool,
    judged: &[Option<AfterPlacing>],
    attacked: Option<&[u64; WORDS]>,
    after: &mut Option<Position>,
) -> bool {
    let us = pos.side;
    if !placement.order.is_empty() {
        let placed = placement.order.len().checked_sub(in_hand as usize);
        let Some(entry) = placed.and_then(|i| placement.order.get(i)) else { return false };
        if entry.kind != m.piece {
            return false;
        }
        if entry.cells.as_ref().is_some_and(|cells| !cells[us as usize].contains(&m.to)) {
            return false;
        }
        if entry.colour.is_some_and(|c| c[us as usize] != colour(game, m.to)) {
            return false;
        }
    }
    for &kind in &placement.different_colours {
        if !leaves_colours(game, t, pos, m, kind) {
            return false;
        }
    }
    // A royal piece dropped (its side had none on the board, so movegen did
    // not test it): it may not land attacked.
    if game.kinds[m.piece as usize].royal && !movegen::legal_by_trial(game, t, pos, m) {
        return false;
    }
    let judged_at = |i: usize| judged.get(i).and_then(|j| j.as_ref());
    if with_only_if && (0..placement.only_if.len()).any(|i| judged_at(i).is_some_and(|j| !j.holds(t, m.to))) {
        return false;
    }
    // The safety guard judged on `pos`: the placed piece blocks no ray to
    // its own cell, and its own rays start beyond it.
    let mut with_safe = with_safe;
    if let Some(attacked) = attacked.filter(|_| with_safe) {
        if attacked[m.to as usize / 64] >> (m.to % 64) & 1 != 0 {
            return false;
        }
        let placed = if m.is_promotion() { m.promotion } else { m.piece };
        match movegen::would_capture(pos, t, m.to, placed) {
            Some(true) => return false,
            Some(false) => with_safe = false,
            None => {}
        }
    }
    // The conditions the placement may change, tested after it.
    let only_if = with_only_if && (0..placement.only_if.len()).any(|i| judged_at(i).is_none());
    if !with_safe && !only_if {
        return true;
    }
    // The placement made once, on the reused copy, for both tests.
    let after = match after {
        Some(after) => {
            after.copy_from(pos, t);
            after
        }
        None => after.insert(pos.clone()),
    };
    after.make(m, game, t);
    if with_safe && !safe(game, t, after, m, us) {
        return false;
    }
    !only_if || placement.only_if.iter().enumerate().all(|(i, c)| judged_at(i).is_some() || crate::engine::cond::holds(game, t, after, c, us, us))
}

/// `KIND on different colours`: after `m`, can the mover's pieces of `kind`
/// still end on cells of different colours? A piece of `kind` may not go on
/// a colour that already holds its share (half of the player's pieces of
/// that kind, rounded up); a placement of another kind must leave, for each
/// colour, enough empty cells where `kind` may be dropped.
fn leaves_colours(game: &Game, t: &Tables, pos: &Position, m: &Move, kind: KindId) -> bool {
    let us = pos.side;
    let own = code(kind, us);
    let mut on = [0u32; 2];
    for c in pos.cells_of(us, t.nwords) {
        if pos.board[c as usize] & 0x7f == own {
            on[colour(game, c) as usize] += 1;
        }
    }
    let total = on[0] + on[1] + u32::from(pos.hand[us as usize][kind as usize]);
    if m.piece == kind {
        return on[colour(game, m.to) as usize] < total.div_ceil(2);
    }
    let zone = &t.drop_zone[(kind as usize * 2 + us as usize) * t.ncells..][..t.ncells];
    let mut free = [0u32; 2];
    for (cell, &ok) in zone.iter().enumerate() {
        if ok && pos.board[cell] == 0 && cell != m.to as usize {
            free[colour(game, cell as Cell) as usize] += 1;
        }
    }
    (0..2).all(|c| on[c] + free[c] >= total / 2)
}

/// `placed piece attacks no enemy and is not attacked`: in `after`, the
/// position after `m` by `us`, the placed piece could capture no enemy piece
/// and no enemy piece could capture it.
fn safe(game: &Game, t: &Tables, after: &mut Position, m: &Move, us: Color) -> bool {
    if movegen::attacked(game, t, after, m.to, us ^ 1) {
        return false;
    }
    // Its moves, as if it were its owner's turn: none may capture (only the
    // placed piece's moves are made, not every piece's and every drop).
    let side = std::mem::replace(&mut after.side, us);
    let mut moves = Vec::new();
    movegen::piece_moves_once(after, t, m.to, &mut moves);
    after.side = side;
    !moves.iter().any(|x| x.kind != MoveKind::Drop && after.board[x.to as usize] != 0 && color_of(after.board[x.to as usize]) != us)
}

/// After placement `m` by `us`: the castling rights the phase gives when the
/// castling king stands on its cell and a partner on one of its cells.
pub fn castling_rights(game: &Game, placement: &Placement, pos: &mut Position, m: &Move, us: Color) {
    let (Some(pc), Some(rule)) = (&placement.castling, &game.castling) else { return };
    if m.kind != MoveKind::Drop || (m.piece != rule.king && !rule.partners.contains(&m.piece)) {
        return;
    }
    let u = us as usize;
    let king = pc.king_on[u];
    if pos.board[king as usize] & 0x7f != code(rule.king, us) || kind_of(pos.board[king as usize]) != rule.king {
        return;
    }
    let geo = &game.geometry;
    let kf = geo.coords(king)[0];
    for &rook in &pc.rook_on[u] {
        if !crate::engine::movegen::is_partner(rule, pos.board[rook as usize] & 0x7f, us) {
            continue;
        }
        // The placed piece must be the king or this partner.
        if m.to != king && m.to != rook {
            continue;
        }
        let short = geo.coords(rook)[0] > kf;
        if let Some(side) = rule.sides.iter().find(|s| s.short == short) {
            pos.castling[u][side.slot()] = rook;
        }
    }
}
