//! An independent reference for the flow layer (`Variant::actions` /
//! `Variant::apply`, docs/DESIGN.md §2.3), compared along random games, and
//! random playouts with invariants asserted on every decision.
//!
//! The reference is written here, from the rulebooks and LANGUAGE.md, not
//! from `interpreter/src/flow/`:
//!
//! - **Candidates**: every pseudo-legal move and drop of the deciding player
//!   (`movegen::pseudo_moves`, the piece-movement layer that the perft suites
//!   check), every relocation of an own piece to an empty cell, every
//!   activation (each sliding level at rest × ±1..=`out at most`), and a pass
//!   for an optional obligation. Castling is chess's (placement chess only):
//!   its candidates are the engine's castling moves (castling's own legality
//!   is covered by the chess perft suites).
//! - **Legality by brute force over the whole ply**: each candidate is made
//!   on a copy by this file's own `make`, followed — when the ply is complete
//!   — by this file's own end of ply (the swing's tick through the
//!   `frame::tick` primitive, the phase's end when both hands are empty, the
//!   move-limit count reset when play begins); while obligations are still
//!   owed, the candidate is legal iff some continuation is (recursively);
//!   at the ply's end the mover's king must not be capturable by any
//!   pseudo-legal move of the opponent (generated forward, no attack tables).
//! - **The phases' rules**, written out from the rules texts:
//!   4D-Schach's opening (../shared/seeds/003_56f50a1d9a0aa4d0.txt §5 and
//!   the rulings of rules/4d-schach.rules: the order K P R P B P N P Q P B P
//!   N P R P, the colour of each entry's cell in the usual setup, the king
//!   on the centre cells of level III or V, the kings not on one level, the
//!   placed piece attacking nothing and not attacked, no line of three own
//!   pawns) and Fairy-Stockfish's placement (own first rank, bishops on
//!   different colours, castling rights for king and rook placed on e1 and
//!   a1/h1). A player with pieces in hand and no legal placement moves as in
//!   play (LANGUAGE §3.19, Fairy-Stockfish's mustDrop).
//! - **4D-Schach's rules in play**: "dead position" (both sides have only a
//!   king: no decisions) and "no group while in check" (a player in check
//!   who has no line of three own pawns may not make one).
//!
//! - **Groups** (rule "group" of rules/4d-schach.rules, written out from its
//!   rulings): after a decision with nothing owed, a line of three or more
//!   own pawns (the mover's first) obliges its owner to relocate each inner
//!   pawn to another level (not attacked, attacking nothing, no new line;
//!   the guards dropped in turn when no cell meets them) and then to
//!   activate; an obligation that cannot be met when it comes due is dropped.
//!
//! Random activations and relocations in play: at random ply boundaries the
//! test queues an obligation (`Position::flow`, as a position text's
//! `oblige=` would), for the player who just moved, to activate a level or
//! (optionally) to relocate a piece; then the reference and the engine must
//! agree on that decision too.
//!
//! CI runs a sample (`flow_reference_*` and `playouts_sample`); the full
//! 1,000 playouts are ignored:
//! `cargo test --release -p rulebook-interpreter --test flow_reference -- --ignored`.

mod support;

use rulebook_interpreter::engine::frame;
use rulebook_interpreter::engine::movegen;
use rulebook_interpreter::engine::position::{code, color_of, MoveKind};
use rulebook_interpreter::flow::{Action, ActionKind, Obligation};
use rulebook_interpreter::model::Game;
use rulebook_interpreter::{Position, Variant};
use std::collections::HashSet;
use support::{variant, Rng};

/// Which phase rules the reference applies (written out per rules file).
#[derive(Clone, Copy, PartialEq)]
enum Rules {
    FourD,
    Placement,
}

fn kind(game: &Game, name: &str) -> u8 {
    game.kinds.iter().position(|k| k.name == name).unwrap_or_else(|| panic!("no kind {name}")) as u8
}

fn cell(game: &Game, name: &str) -> u16 {
    game.geometry.board_cells().find(|&c| game.geometry.name(c) == name).unwrap_or_else(|| panic!("no cell {name}"))
}

fn coords(game: &Game, c: u16) -> Vec<usize> {
    game.geometry.coords(c).to_vec()
}

/// Colour of a cell as the rulings define it: parity of the sum of its own
/// coordinates (4D-Schach ruling "cell-colours"; chess's a1 dark = 0).
fn parity(game: &Game, c: u16) -> usize {
    coords(game, c).iter().sum::<usize>() % 2
}

fn hand_size(game: &Game, pos: &Position, color: u8) -> usize {
    pos.hand[color as usize][..game.kinds.len()].iter().map(|&n| n as usize).sum()
}

fn pieces(game: &Game, pos: &Position, color: u8) -> usize {
    let on_board = game.geometry.board_cells().filter(|&c| pos.board[c as usize] != 0 && color_of(pos.board[c as usize]) == color).count();
    on_board + hand_size(game, pos, color)
}

fn phase_of(game: &Game, pos: &Position) -> usize {
    pos.flow.as_ref().map_or(game.phases.len(), |f| f.phase as usize)
}

fn queue_len(pos: &Position) -> usize {
    pos.flow.as_ref().map_or(0, |f| f.queue.len())
}

/// Can a pseudo-legal move of `color`'s opponent capture `color`'s king?
/// (Generated forward in the position's own frame: no symmetry assumed.)
fn king_capturable(v: &Variant, pos: &Position, color: u8) -> bool {
    let game = &v.game;
    let king = code(kind(game, "King"), color);
    let mut q = pos.clone();
    q.side = color ^ 1;
    q.flow = None;
    let t = v.tables_for(&q);
    let mut moves = Vec::new();
    movegen::pseudo_moves(game, &t, &q, &mut moves);
    moves.iter().any(|m| m.kind != MoveKind::Drop && q.board[m.to as usize] & 0x7f == king)
}

/// Every maximal straight unbroken run of three or more `color` pawns along
/// a file, a rank or up the levels (4D-Schach ruling "group": up the column
/// is the next level present at that place in the shaft, so the step is the
/// frame's, `frame::step`), ends included, in board order, axes file, rank,
/// level.
fn pawn_runs(game: &Game, pos: &Position, color: u8) -> Vec<Vec<u16>> {
    let pawn = code(kind(game, "Pawn"), color);
    let offsets = frame::offsets_of(pos).unwrap_or_else(|| vec![0; game.slide.as_ref().map_or(0, |s| s.axes.len())]);
    let is_pawn = |c: Option<u16>| c.is_some_and(|c| pos.board[c as usize] & 0x7f == pawn);
    let mut out = Vec::new();
    for axis in 0..3 {
        let mut fwd = [0i32; 3];
        fwd[axis] = 1;
        let back = fwd.map(|x| -x);
        for c in game.geometry.board_cells() {
            if !is_pawn(Some(c)) || is_pawn(frame::step(game, &offsets, c, &back)) {
                continue;
            }
            let mut run = vec![c];
            while let Some(n) = frame::step(game, &offsets, *run.last().unwrap(), &fwd).filter(|&n| is_pawn(Some(n))) {
                if run.contains(&n) {
                    break;
                }
                run.push(n);
            }
            if run.len() >= 3 {
                out.push(run);
            }
        }
    }
    out
}

fn pawn_line3(game: &Game, pos: &Position, color: u8) -> bool {
    !pawn_runs(game, pos, color).is_empty()
}

/// 4D-Schach: the placement the order has due (`idx`) on `to` for `us`.
fn four_d_placement_ok(v: &Variant, pos: &Position, m: &rulebook_interpreter::engine::position::Move) -> bool {
    let game = &v.game;
    let us = pos.side;
    // The order of §5 and the square whose colour each entry takes (White's
    // setup cells; Black's mirrored on the rank, as its orientation is -rank).
    const ORDER: [(&str, &str); 16] = [
        ("King", "Ie1"), ("Pawn", "Ia2"), ("Rook", "Ia1"), ("Pawn", "Ib2"),
        ("Bishop", "Ic1"), ("Pawn", "Ic2"), ("Knight", "Ib1"), ("Pawn", "Id2"),
        ("Queen", "Id1"), ("Pawn", "If2"), ("Bishop", "If1"), ("Pawn", "Ig2"),
        ("Knight", "Ig1"), ("Pawn", "Ih2"), ("Rook", "Ih1"), ("Pawn", "Ie2"),
    ];
    let idx = 16 - hand_size(game, pos, us);
    let (name, like) = ORDER[idx];
    if m.piece != kind(game, name) {
        return false;
    }
    let like = coords(game, cell(game, like));
    // Mirror the rank (axis 1, ranks 1..8) for black.
    let like_parity = if us == 0 { like.iter().sum::<usize>() } else { like[0] + (7 - like[1]) + like[2] } % 2;
    if parity(game, m.to) != like_parity {
        return false;
    }
    let to = coords(game, m.to);
    if name == "King" && !((to[2] == 2 || to[2] == 4) && (to[0] == 3 || to[0] == 4) && (to[1] == 3 || to[1] == 4)) {
        return false;
    }
    let mut after = pos.clone();
    let t = v.tables_for(pos);
    after.make(m, game, &t);
    // Not attacked: no enemy pseudo-move captures it; attacks nothing: none of its own moves captures.
    let mut enemy = after.clone();
    enemy.side = us ^ 1;
    let mut ms = Vec::new();
    movegen::pseudo_moves(game, &t, &enemy, &mut ms);
    if ms.iter().any(|x| x.kind != MoveKind::Drop && x.to == m.to) {
        return false;
    }
    let mut own = after.clone();
    own.side = us;
    ms.clear();
    movegen::pseudo_moves(game, &t, &own, &mut ms);
    if ms.iter().any(|x| x.kind != MoveKind::Drop && x.from == m.to && own.board[x.to as usize] != 0) {
        return false;
    }
    // The kings not on one of the levels III and V.
    let king_level = |c: u8| {
        game.geometry.board_cells().find(|&x| after.board[x as usize] & 0x7f == code(kind(game, "King"), c)).map(|x| coords(game, x)[2])
    };
    if let (Some(a), Some(b)) = (king_level(0), king_level(1)) {
        if a == b {
            return false;
        }
    }
    !pawn_line3(game, &after, us)
}

/// Placement chess: own first rank (the hand item), bishops on different
/// colours (a bishop not on a colour already holding one of its owner's
/// bishops; any other placement leaves an empty first-rank square of each
/// colour a bishop in hand still needs).
fn placement_ok(v: &Variant, pos: &Position, m: &rulebook_interpreter::engine::position::Move) -> bool {
    let game = &v.game;
    let us = pos.side;
    let rank = if us == 0 { 0 } else { 7 };
    if coords(game, m.to)[1] != rank {
        return false;
    }
    let bishop = kind(game, "Bishop");
    let own_b = code(bishop, us);
    let mut on = [0usize; 2];
    for c in game.geometry.board_cells() {
        if pos.board[c as usize] & 0x7f == own_b {
            on[parity(game, c)] += 1;
        }
    }
    if m.piece == bishop {
        return on[parity(game, m.to)] == 0;
    }
    let in_hand = pos.hand[us as usize][bishop as usize] as usize;
    for col in 0..2 {
        let needed = in_hand > 0 && on[col] == 0 && (in_hand == 2 || on[1 - col] > 0);
        if !needed {
            continue;
        }
        let free = game.geometry.board_cells().filter(|&c| coords(game, c)[1] == rank && pos.board[c as usize] == 0 && c != m.to && parity(game, c) == col).count();
        if free == 0 {
            return false;
        }
    }
    true
}

/// This file's end of a complete ply.
fn ply_end(v: &Variant, pos: &mut Position) {
    let game = &v.game;
    frame::tick(game, pos);
    let n = game.phases.len();
    let hands_empty = hand_size(game, pos, 0) == 0 && hand_size(game, pos, 1) == 0;
    if let Some(f) = pos.flow.as_mut() {
        if (f.phase as usize) < n && hands_empty {
            f.phase = n as u8;
            pos.halfmove = 0;
        }
        if f.queue.is_empty() && f.phase as usize >= n {
            pos.flow = None;
        }
    }
}

/// This file's make of one decision.
fn make(v: &Variant, rules: Rules, pos: &Position, a: &Action) -> Position {
    let game = &v.game;
    let t = v.tables_for(pos);
    let mut next = pos.clone();
    let head = pos.flow.as_ref().and_then(|f| f.queue.first().copied());
    match a {
        Action::Move(m) => {
            assert!(head.is_none(), "the test queues no intermediate moves");
            let us = pos.side;
            next.make(m, game, &t);
            if rules == Rules::Placement && m.kind == MoveKind::Drop && phase_of(game, pos) < game.phases.len() {
                placement_castling(v, &mut next, us);
            }
        }
        Action::Relocate { from, to } => {
            let p = next.take(*from, &t);
            next.put(*to, p, &t);
        }
        Action::Activate { level, rows } => {
            assert!(frame::activate(game, &mut next, *level, *rows));
        }
        Action::Pass => {}
        Action::Exile { .. } | Action::Return { .. } => panic!("the reference does not take pieces out of play yet: {a:?}"),
    }
    if head.is_some() {
        next.flow.as_mut().expect("flow").queue.remove(0);
    }
    settle(v, &mut next);
    next
}

/// After a decision: obligations that cannot be met when they come due are
/// dropped (a relocation whose piece is gone or that has no empty cell on
/// another level, an activation with no level at rest); when nothing is owed
/// the group rule is looked at (the mover first, ruling "group"), and when it
/// obliges nothing the ply ends.
fn settle(v: &Variant, pos: &mut Position) {
    loop {
        while let Some(h) = pos.flow.as_ref().and_then(|f| f.queue.first().copied()) {
            if !candidates_for(v, pos, &h).is_empty() || h.kind == ActionKind::Move {
                break;
            }
            pos.flow.as_mut().expect("flow").queue.remove(0);
        }
        if queue_len(pos) > 0 {
            return;
        }
        let owed = group_fires(v, pos);
        if owed.is_empty() {
            ply_end(v, pos);
            return;
        }
        pos.flow.get_or_insert_with(|| Box::new(rulebook_interpreter::flow::Flow { phase: v.game.phases.len() as u8, ..Default::default() })).queue = owed;
    }
}

/// The rule "group" of rules/4d-schach.rules, written out from its rulings
/// ("group", "group-relocation", "group-castling"): when a player (the ply's
/// mover first, then the other) has a line of three or four pawns — a longer
/// line counts as one of four — that player must put each inner pawn (all
/// but the line's two ends) on another level, then pull a level out. Empty
/// when the rules file has no such rule (before issue 13's groups landed).
fn group_fires(v: &Variant, pos: &Position) -> Vec<Obligation> {
    let game = &v.game;
    let Some(rule) = game.rules.iter().position(|r| r.name == "group") else { return Vec::new() };
    let mover = pos.side ^ 1;
    for subject in [mover, mover ^ 1] {
        let runs = pawn_runs(game, pos, subject);
        if runs.is_empty() {
            continue;
        }
        let mut out: Vec<Obligation> = Vec::new();
        for run in &runs {
            for &c in &run[1..run.len() - 1] {
                if !out.iter().any(|o| o.from == Some(c)) {
                    out.push(Obligation { player: subject, kind: ActionKind::Relocate, compulsory: true, from: Some(c), source: Some((rule as u8, 0)), level: None });
                }
            }
        }
        out.push(Obligation { player: subject, kind: ActionKind::Activate, compulsory: true, from: None, source: Some((rule as u8, 1)), level: None });
        return out;
    }
    Vec::new()
}

/// Does the piece just put on `to` by `us` attack no enemy piece and is it
/// attacked by none? (Brute force: the pseudo-moves of both sides.)
fn placed_safe(v: &Variant, after: &Position, to: u16, us: u8) -> bool {
    let game = &v.game;
    let t = v.tables_for(after);
    let mut enemy = after.clone();
    enemy.side = us ^ 1;
    enemy.flow = None;
    let mut ms = Vec::new();
    movegen::pseudo_moves(game, &t, &enemy, &mut ms);
    if ms.iter().any(|x| x.kind != MoveKind::Drop && x.to == to) {
        return false;
    }
    let mut own = after.clone();
    own.side = us;
    own.flow = None;
    ms.clear();
    movegen::pseudo_moves(game, &t, &own, &mut ms);
    !ms.iter().any(|x| x.kind != MoveKind::Drop && x.from == to && own.board[x.to as usize] != 0)
}

/// The candidates an obligation offers, before the whole-ply test.
fn candidates_for(v: &Variant, pos: &Position, head: &Obligation) -> Vec<Action> {
    let game = &v.game;
    let t = v.tables_for(pos);
    let mut cands = Vec::new();
    match head.kind {
        ActionKind::Exile | ActionKind::Return => panic!("the reference does not take pieces out of play yet: {head:?}"),
        ActionKind::Relocate => {
            let froms: Vec<u16> = match head.from {
                Some(c) => vec![c],
                None => game.geometry.board_cells().collect(),
            };
            for from in froms {
                let p = pos.board[from as usize];
                if p == 0 || color_of(p) != head.player {
                    continue;
                }
                let level = coords(game, from)[2];
                let empty = game.geometry.board_cells().filter(|&c| pos.board[c as usize] == 0);
                let targets: Vec<u16> = if head.source.is_some() { empty.filter(|&c| coords(game, c)[2] != level).collect() } else { empty.collect() };
                if head.source.is_none() {
                    cands.extend(targets.into_iter().map(|to| Action::Relocate { from, to }));
                    continue;
                }
                // The guards (not attacked, attacking nothing, no new line of
                // three), dropped in turn when no cell meets them (ruling
                // "opening-no-cell": first the line, then the safety).
                let after = |to: u16| {
                    let mut n = pos.clone();
                    let piece = n.take(from, &t);
                    n.put(to, piece, &t);
                    n
                };
                let full: Vec<u16> = targets.iter().copied().filter(|&to| {
                    let n = after(to);
                    placed_safe(v, &n, to, head.player) && !pawn_line3(game, &n, head.player)
                }).collect();
                let chosen = if !full.is_empty() {
                    full
                } else {
                    let safe: Vec<u16> = targets.iter().copied().filter(|&to| placed_safe(v, &after(to), to, head.player)).collect();
                    if safe.is_empty() { targets } else { safe }
                };
                cands.extend(chosen.into_iter().map(|to| Action::Relocate { from, to }));
            }
        }
        ActionKind::Activate => {
            let slide = game.slide.as_ref().expect("slide");
            for level in 0..slide.axes.len() {
                let rest = pos.frame.as_ref().is_none_or(|f| f.levels[level].offset == 0 && f.levels[level].swing.is_none());
                if slide.axes[level].is_some() && rest {
                    for r in 1..=slide.out_max as i8 {
                        cands.push(Action::Activate { level: level as u8, rows: r });
                        cands.push(Action::Activate { level: level as u8, rows: -r });
                    }
                }
            }
        }
        ActionKind::Move => panic!("the test queues no intermediate moves"),
    }
    if !head.compulsory {
        cands.push(Action::Pass);
    }
    cands
}

/// Castling rights from a placement (Fairy-Stockfish's castlingDroppedPiece):
/// king on e1 with a rook on a1 / h1, either just placed. The rights are
/// written through the position text (K/Q letters), read back.
fn placement_castling(v: &Variant, pos: &mut Position, us: u8) {
    let game = &v.game;
    let rank = if us == 0 { "1" } else { "8" };
    let has = |sq: &str, k: &str| pos.board[cell(game, &format!("{sq}{rank}")) as usize] & 0x7f == code(kind(game, k), us);
    if !has("e", "King") {
        return;
    }
    let text = v.fen(pos);
    let mut fields: Vec<String> = text.split(' ').map(str::to_string).collect();
    let mut rights: String = fields[2].chars().filter(|&c| c != '-').collect();
    for (sq, letter) in [("h", 'K'), ("a", 'Q')] {
        let letter = if us == 0 { letter } else { letter.to_ascii_lowercase() };
        if has(sq, "Rook") && !rights.contains(letter) {
            rights.push(letter);
        }
    }
    let mut sorted: Vec<char> = rights.chars().collect();
    sorted.sort_by_key(|c| "KQkq".find(*c));
    fields[2] = if sorted.is_empty() { "-".into() } else { sorted.into_iter().collect() };
    let flow = pos.flow.clone();
    *pos = v.parse_fen(&fields.join(" "), "<ref>").expect("reference castling text");
    pos.flow = flow;
}

/// The decisions by the reference.
fn ref_actions(v: &Variant, rules: Rules, pos: &Position) -> HashSet<Action> {
    let game = &v.game;
    let t = v.tables_for(pos);
    let mut out = HashSet::new();
    if let Some(head) = pos.flow.as_ref().and_then(|f| f.queue.first().copied()) {
        let cands = candidates_for(v, pos, &head);
        let mover = pos.side ^ 1;
        for a in cands {
            if completable(v, rules, &make(v, rules, pos, &a), mover) {
                out.insert(a);
            }
        }
        return out;
    }
    let us = pos.side;
    if rules == Rules::FourD && game.kinds.len() > 1 {
        let only_king = |c: u8| pieces(game, pos, c) == 1;
        if only_king(0) && only_king(1) {
            return out; // ruling "dead position"
        }
    }
    let mut pseudo = Vec::new();
    movegen::pseudo_moves(game, &t, pos, &mut pseudo);
    let in_phase = phase_of(game, pos) < game.phases.len();
    if in_phase && hand_size(game, pos, us) > 0 {
        for m in pseudo.iter().filter(|m| m.kind == MoveKind::Drop) {
            let ok = match rules {
                Rules::FourD => four_d_placement_ok(v, pos, m),
                Rules::Placement => placement_ok(v, pos, m),
            };
            if ok && completable(v, rules, &make(v, rules, pos, &Action::Move(*m)), us) {
                out.insert(Action::Move(*m));
            }
        }
        if !out.is_empty() {
            return out;
        }
    }
    if rules == Rules::Placement {
        // Castling: the engine's candidates (see the module documentation).
        pseudo.extend(v.legal_moves(pos).into_iter().filter(|m| m.kind == MoveKind::Castle));
    }
    let check = king_on_board(game, pos, us) && king_capturable(v, pos, us);
    let group_filter = rules == Rules::FourD && check && !pawn_line3(game, pos, us);
    for m in pseudo.iter().filter(|m| m.kind != MoveKind::Drop) {
        let after = make(v, rules, pos, &Action::Move(*m));
        if group_filter {
            let mut plain = pos.clone();
            plain.make(m, game, &t);
            if pawn_line3(game, &plain, us) {
                continue;
            }
        }
        if completable(v, rules, &after, us) {
            out.insert(Action::Move(*m));
        }
    }
    out
}

fn king_on_board(game: &Game, pos: &Position, color: u8) -> bool {
    let king = code(kind(game, "King"), color);
    game.geometry.board_cells().any(|c| pos.board[c as usize] & 0x7f == king)
}

/// Can the ply in `pos` (begun by `mover`) be completed with `mover`'s king
/// not capturable?
fn completable(v: &Variant, rules: Rules, pos: &Position, mover: u8) -> bool {
    if let Some(head) = pos.flow.as_ref().and_then(|f| f.queue.first().copied()) {
        return candidates_for(v, pos, &head).iter().any(|a| completable(v, rules, &make(v, rules, pos, a), mover));
    }
    !(king_on_board(&v.game, pos, mover) && king_capturable(v, pos, mover))
}

// ---------------------------------------------------------------- games

/// What a random game checks.
struct Walk {
    rules: Rules,
    /// Compare with the reference on every decision (else invariants only).
    reference: bool,
    /// Decisions at most.
    limit: usize,
    /// One in `inject` complete plies of play queues an obligation (0: never).
    inject: usize,
}

/// What a random game went through.
#[derive(Default, Debug)]
struct Seen {
    /// Decisions made.
    decisions: usize,
    /// Decisions made in play (after the last phase).
    in_play: usize,
    /// Activations and relocations made.
    activations: usize,
    relocations: usize,
    /// Decisions made while some level was out of the shaft or swinging.
    out_of_rest: usize,
}

/// One random game from the start.
fn walk(v: &Variant, w: &Walk, seed: u64) -> Seen {
    walk_from(v, w, seed, v.start().expect("start"))
}

/// One random game from `pos`.
fn walk_from(v: &Variant, w: &Walk, seed: u64, start: Position) -> Seen {
    let mut seen = Seen::default();
    let game = &v.game;
    let slide_max = game.slide.as_ref().map_or(0, |s| s.out_max as i8);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut pos = start;
    // Plies (ticks) since each level was activated, and its amount.
    let mut since: Vec<Option<(usize, i8)>> = vec![None; game.slide.as_ref().map_or(0, |s| s.axes.len())];
    for step in 0..w.limit {
        if w.inject > 0 && pos.flow.is_none() && step > 0 && rng.below(w.inject) == 0 {
            let kind = if rng.below(3) == 0 { ActionKind::Relocate } else { ActionKind::Activate };
            // Through the position text's `oblige=` key (LANGUAGE §5): the
            // player who just moved owes it; the side field stays the next player's.
            let owed = format!("oblige={}:{}", if pos.side == 0 { 'b' } else { 'w' }, if kind == ActionKind::Activate { "activate!" } else { "relocate?" });
            let text = v.fen(&pos);
            let text = match text.strip_suffix('}') {
                Some(open) => format!("{open} {owed}}}"),
                None => format!("{text} {{{owed}}}"),
            };
            pos = v.parse_fen(&text, "<test>").unwrap_or_else(|d| panic!("{text}: {}", d.message));
            assert_eq!(pos.flow.as_ref().map(|f| (f.phase as usize, f.queue.len())), Some((game.phases.len(), 1)), "{text}");
        }
        let actions = v.actions(&pos);
        let text = v.fen(&pos);
        if w.reference {
            let mine = ref_actions(v, w.rules, &pos);
            let theirs: HashSet<Action> = actions.iter().copied().collect();
            assert_eq!(theirs.len(), actions.len(), "duplicate actions at {text}");
            let only_engine: Vec<_> = theirs.difference(&mine).collect();
            let only_ref: Vec<_> = mine.difference(&theirs).collect();
            assert!(
                only_engine.is_empty() && only_ref.is_empty(),
                "seed {seed} decision {step}: actions differ at\n{text}\nonly the engine: {only_engine:?}\nonly the reference: {only_ref:?}"
            );
        }
        if actions.is_empty() {
            return seen;
        }
        let a = actions[rng.below(actions.len())];
        seen.decisions += 1;
        seen.in_play += usize::from(phase_of(game, &pos) == game.phases.len());
        seen.activations += usize::from(matches!(a, Action::Activate { .. }));
        seen.relocations += usize::from(matches!(a, Action::Relocate { .. }));
        seen.out_of_rest += usize::from(pos.frame.is_some());
        let next = v.apply(&pos, &a);
        if w.reference {
            let mine = make(v, w.rules, &pos, &a);
            assert_eq!(v.fen(&next), v.fen(&mine), "seed {seed}: apply({a:?}) differs at\n{text}");
            assert_eq!(next.key(&v.tables_for(&next)), mine.key(&v.tables_for(&mine)), "seed {seed}: keys differ after {a:?} at\n{text}");
        }
        // ---- invariants
        let count = |p: &Position, c: u8| pieces(game, p, c) as i64;
        let (b0, b1) = (count(&pos, 0), count(&pos, 1));
        let (a0, a1) = (count(&next, 0), count(&next, 1));
        let captured = match a {
            Action::Move(m) => m.kind != MoveKind::Drop && (pos.board[m.to as usize] != 0 || m.kind == MoveKind::EnPassant),
            _ => false,
        };
        let mover = match a {
            Action::Move(_) => pos.side,
            _ => pos.side ^ 1,
        };
        let lost = if mover == 0 { (b0 - a0, b1 - a1) } else { (b1 - a1, b0 - a0) };
        assert_eq!(lost, (0, i64::from(captured)), "seed {seed}: pieces not conserved by {a:?} at\n{text}");
        assert!(phase_of(game, &next) >= phase_of(game, &pos), "seed {seed}: the phase went back after {a:?} at\n{text}");
        if let Some(f) = &next.frame {
            for (l, s) in f.levels.iter().enumerate() {
                assert!(s.offset.abs() <= slide_max, "seed {seed}: level {l} beyond `out at most` after {a:?} at\n{text}");
            }
        }
        if let Action::Activate { level, rows } = a {
            since[level as usize] = Some((0, rows));
        }
        let ply_ended = queue_len(&next) == 0;
        if ply_ended {
            assert!(
                next.flow.is_none() || phase_of(game, &next) < game.phases.len(),
                "seed {seed}: flow state left at a ply's end in play after {a:?} at\n{text}"
            );
            for (l, s) in since.iter_mut().enumerate() {
                let Some((ticks, rows)) = s else { continue };
                *ticks += 1;
                let n = rows.unsigned_abs() as usize;
                // Reading A, by hand: one waiting tick, n rows back, then n-1
                // out and back, n-2 …, 1 out and back: 1 + n + 2·(n-1)n/2 = n² + 1.
                let resting = next.frame.as_ref().is_none_or(|f| f.levels[l].offset == 0 && f.levels[l].swing.is_none());
                assert_eq!(resting, *ticks > n * n, "seed {seed}: level {l} pulled {rows} after {ticks} ticks (rest due at {}) at\n{text}", n * n + 1);
                if resting {
                    *s = None;
                }
            }
        }
        pos = next;
    }
    seen
}

#[test]
fn flow_reference_four_d_opening_into_play() {
    let v = variant("4d-schach");
    let mut all = Seen::default();
    for seed in 1..=2 {
        let s = walk(&v, &Walk { rules: Rules::FourD, reference: true, limit: 44, inject: 3 }, seed);
        all.in_play += s.in_play;
        all.activations += s.activations;
        all.relocations += s.relocations;
        all.out_of_rest += s.out_of_rest;
    }
    eprintln!("4D-Schach reference games: {all:?}");
    // The games must have reached what they test: play, levels out of the shaft, both obligations.
    assert!(all.in_play > 0 && all.activations > 0 && all.relocations > 0 && all.out_of_rest > 0, "{all:?}");
}

#[test]
fn flow_reference_placement_chess() {
    let v = variant("fairy/placement");
    let mut in_play = 0;
    for seed in 1..=6 {
        in_play += walk(&v, &Walk { rules: Rules::Placement, reference: true, limit: 40, inject: 0 }, seed).in_play;
    }
    assert!(in_play > 0, "the placement games never reached play");
}

/// A group made in play (4D-Schach rulings "group", "group-relocation"):
/// white pawns on Ib3, Ic3, Ie3 and Id2; Id2-Id3 makes the line
/// Ib3-Ic3-Id3-Ie3 of four on level I, whose inner pawns Ic3 and Id3 white
/// must put on other levels before pulling a level out. The reference and
/// the engine must agree on the move, on each relocation and activation the
/// group obliges, and on the random game that follows.
#[test]
fn flow_reference_four_d_group() {
    let v = variant("4d-schach");
    assert!(v.game.rules.iter().any(|r| r.name == "group"), "rules/4d-schach.rules states rule \"group\"");
    let empty = "8/8/8/8/8/8/8/8";
    let text = format!("7k/8/8/8/8/8/8/8|{empty}|{empty}|{empty}|{empty}|{empty}|8/8/8/8/8/1PP1P3/3P4/K7 w - - 0 1");
    let pos = v.parse_fen(&text, "<test>").unwrap_or_else(|d| panic!("{}", d.message));
    let geo = &v.game.geometry;
    let mine = ref_actions(&v, Rules::FourD, &pos);
    let theirs: HashSet<Action> = v.actions(&pos).into_iter().collect();
    assert_eq!(theirs, mine, "at {text}");
    let push = *theirs
        .iter()
        .find(|a| a.as_move().is_some_and(|m| geo.name(m.from) == "Id2" && geo.name(m.to) == "Id3"))
        .expect("Id2-Id3 is legal");
    let after = v.apply(&pos, &push);
    assert_eq!(v.fen(&after), v.fen(&make(&v, Rules::FourD, &pos, &push)), "after Id2-Id3");
    // By hand: two relocations (Ic3, Id3) and one activation are owed, by white.
    let owed: Vec<(u8, ActionKind)> = after.flow.as_ref().map(|f| f.queue.iter().map(|o| (o.player, o.kind)).collect()).unwrap_or_default();
    assert_eq!(owed, vec![(0, ActionKind::Relocate), (0, ActionKind::Relocate), (0, ActionKind::Activate)], "{}", v.fen(&after));
    let mut seen = Seen::default();
    for seed in 1..=2 {
        let s = walk_from(&v, &Walk { rules: Rules::FourD, reference: true, limit: 6, inject: 0 }, seed, after.clone());
        seen.relocations += s.relocations;
        seen.activations += s.activations;
    }
    assert!(seen.relocations >= 4 && seen.activations >= 2, "{seen:?}");
}

// ---------------------------------------------------------------- playouts

/// Random playouts of 4D-Schach from the start: through the opening into
/// play, with obligations to activate or relocate queued at random, until no
/// decision is left (mate, stalemate, a rule) or `limit` decisions. The
/// invariants of `walk` hold on every decision.
fn playouts(v: &Variant, seeds: std::ops::Range<u64>, limit: usize) -> Seen {
    let mut all = Seen::default();
    for seed in seeds {
        let s = walk(v, &Walk { rules: Rules::FourD, reference: false, limit, inject: 4 }, seed);
        all.decisions += s.decisions;
        all.in_play += s.in_play;
        all.activations += s.activations;
        all.relocations += s.relocations;
        all.out_of_rest += s.out_of_rest;
    }
    all
}

/// CI's sample of the playouts (the full run is `playouts_full`).
#[test]
fn playouts_sample() {
    let v = variant("4d-schach");
    // 2 games of 48 decisions: 32 placements and 16 decisions of play, about
    // 5 s in the test profile (most of it while a level swings: every move is
    // made, ticked and tested in the next frame).
    let all = playouts(&v, 1000..1002, 48);
    eprintln!("4D-Schach playouts (sample): {all:?}");
    assert!(all.in_play > 0 && all.activations > 0 && all.out_of_rest > 0, "{all:?}");
}

/// The full 1,000 playouts of up to 120 decisions (slow: about 10 s a game
/// in the test profile, so hours on one core; run with
/// `cargo test --release -p rulebook-interpreter --test flow_reference -- --ignored playouts_full`;
/// `FLOW_PLAYOUTS=START..END` runs those seeds only, so that several
/// processes can share the 1,000).
#[test]
#[ignore = "slow: 1,000 playouts; run with --ignored"]
fn playouts_full() {
    let v = variant("4d-schach");
    let range = std::env::var("FLOW_PLAYOUTS").ok().and_then(|r| {
        let (a, b) = r.split_once("..")?;
        Some(a.trim().parse().ok()?..b.trim().parse().ok()?)
    });
    let all = playouts(&v, range.unwrap_or(0..1000), 120);
    eprintln!("4D-Schach playouts: {all:?}");
    assert!(all.in_play > 0 && all.activations > 0 && all.out_of_rest > 0, "{all:?}");
}


/// Longer reference games (slow; `cargo test --release -p rulebook-interpreter
/// --test flow_reference -- --ignored flow_reference_long`;
/// `FLOW_REFERENCE=START..END` picks the seeds, default 1..50).
#[test]
#[ignore = "slow: long reference games; run with --ignored"]
fn flow_reference_long() {
    let v = variant("4d-schach");
    let range = std::env::var("FLOW_REFERENCE").ok().and_then(|r| {
        let (a, b) = r.split_once("..")?;
        Some(a.trim().parse().ok()?..b.trim().parse().ok()?)
    });
    let mut all = Seen::default();
    for seed in range.unwrap_or(1..50) {
        let s = walk(&v, &Walk { rules: Rules::FourD, reference: true, limit: 90, inject: 3 }, seed);
        all.decisions += s.decisions;
        all.in_play += s.in_play;
        all.activations += s.activations;
        all.relocations += s.relocations;
        all.out_of_rest += s.out_of_rest;
    }
    eprintln!("4D-Schach long reference games: {all:?}");
    assert!(all.in_play > 0, "{all:?}");
}
