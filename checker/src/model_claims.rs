//! Claims decided from the model's templates alone, without a board: how
//! many directions a piece steps in (`PIECE has N directions`), colour
//! claims proved per move template (`PIECE moves keep colour [at rest]`),
//! and counts proved by conservation (`at most N PIECE`), which scale to
//! any board (448 cells as well as 64).

use rulebook_interpreter::model::{KindId, Property};
use rulebook_interpreter::Variant;

/// The distinct directions of `kind`'s steps (the first player's vectors,
/// each divided by the greatest common divisor of its components), and
/// them as a list (`(1,0,0) (0,1,0) …`).
pub fn directions(v: &Variant, kind: KindId) -> (usize, String) {
    fn gcd(a: i32, b: i32) -> i32 {
        if b == 0 { a.abs() } else { gcd(b, a % b) }
    }
    let mut dirs: Vec<Vec<i32>> = Vec::new();
    for part in v.game.kinds.get(kind as usize).map(|k| k.parts.as_slice()).unwrap_or_default() {
        for vec in &part.vectors[0] {
            let g = vec.iter().fold(0, |g, &x| gcd(g, x)).max(1);
            let d: Vec<i32> = vec.iter().map(|x| x / g).collect();
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
    }
    dirs.sort();
    let list = dirs.iter().map(|d| format!("({})", d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(","))).collect::<Vec<_>>().join(" ");
    (dirs.len(), list)
}

/// A proof of a colour claim per move template, without a board: every
/// step vector of the kind's parts (both players) has an even coordinate
/// sum, so every move of the kind (a leap, a ride or a hop lands a whole
/// number of steps away) keeps the parity of the coordinate sum, which is
/// the cell's colour. It holds for every move of a game without a `slide`
/// item, and for the moves made at rest (`at rest`) of one with; not for
/// spread pieces or tunnels (their moves are not only templates), nor for a
/// kind that castles (its castling destination is not a step).
pub fn colour_by_templates(v: &Variant, p: &Property) -> Option<String> {
    let game = &v.game;
    let (kind, at_rest) = match p {
        Property::KeepsColour { kind } if game.slide.is_none() => (*kind, false),
        Property::KeepsColourAtRest { kind } => (*kind, true),
        _ => return None,
    };
    if crate::check::beyond_encoding(v) || game.castling.as_ref().is_some_and(|c| c.king == kind || c.partners.contains(&kind)) {
        return None;
    }
    let piece = game.kinds.get(kind as usize)?;
    let even = piece.parts.iter().all(|part| part.vectors.iter().flatten().all(|vec| vec.iter().sum::<i32>() % 2 == 0));
    if !even || piece.parts.is_empty() {
        return None;
    }
    let n: usize = piece.parts.iter().map(|part| part.vectors[0].len()).sum();
    let when = if at_rest && game.slide.is_some() { " while every level stands at rest" } else { "" };
    Some(format!(
        "per move template: each of the {n} step vectors of {}'s parts has an even coordinate sum, so every move it makes{when} lands a whole number of steps away, on a cell of its colour (no board needed)",
        piece.name
    ))
}

/// A proof of `at most N K` by conservation, without a board: no rule
/// makes a piece of kind `K` (no promotion to it, no demotion to it, no
/// capture that sends one to the capturer's hand, no face-down piece that
/// could turn out to be one, no spread or tunnelling piece), and the other actions
/// only carry pieces between the board, the hand and the out-of-play area
/// (drops, relocations, exiles, returns). So each player's pieces of `K` on
/// the board, in hand and out of play together never exceed their number in
/// the setup, and if that is at most N, so is the board's. `None` when a
/// condition fails (the claim then goes to the other provers).
pub fn count_by_conservation(v: &Variant, p: &Property) -> Option<String> {
    let Property::AtMost { kind, count } = p else { return None };
    let game = &v.game;
    let piece = game.kinds.get(*kind as usize)?;
    if game.spread.is_some() || game.tunnel.is_some() {
        return None;
    }
    if game.promotions.iter().any(|r| r.targets.contains(kind)) {
        return None;
    }
    if let Some(hand) = &game.hand {
        if hand.demote_to == Some(*kind) || (hand.capture_to_hand && !piece.royal) {
            return None;
        }
    }
    let start = v.start().ok()?;
    // A face-down piece shown as `K` that turns out otherwise only lowers the count.
    if crate::encode::hidden_kinds(v).1.contains(kind) {
        return None;
    }
    let kind_at = |code: u8| -> Option<u8> { (code != 0).then(|| rulebook_interpreter::engine::position::kind_of(code)) };
    let mut most = 0u64;
    for side in 0..2u8 {
        let on_board = game.geometry.board_cells().filter(|&c| {
            let code = start.board[c as usize];
            kind_at(code) == Some(*kind) && rulebook_interpreter::engine::position::color_of(code) == side
        });
        let n = on_board.count() as u64 + u64::from(start.hand[side as usize][*kind as usize]);
        most = most.max(n);
    }
    if most > u64::from(*count) {
        return None;
    }
    let fog = if game.hidden.is_some() { ", no face-down piece turns out to be one" } else { "" };
    let why = if piece.royal { "it is royal, so never captured" } else { "a captured one leaves the game" };
    Some(format!(
        "by conservation: no rule makes a {} (no promotion or demotion to it{fog}, {why}), and drops, relocations, exiles and returns only carry pieces between the board, the hand and the out-of-play area; each player has {most} on the board and in hand in the setup (no board needed)",
        piece.name
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulebook_interpreter::model::load::load;
    use std::path::Path;
    use std::sync::Arc;

    fn variant(path: &str) -> Variant {
        let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
        match load(&full) {
            Ok((game, _)) => Variant::new(Arc::new(game)),
            Err((d, _)) => panic!("{path}: {d:#?}"),
        }
    }

    fn kind(v: &Variant, name: &str) -> KindId {
        v.game.kind_by_name(name).expect("the kind")
    }

    /// Chess: a king steps in 8 directions, a knight leaps in 8, a rook
    /// rides in 4 (counted on a board: 4 orthogonal and 4 diagonal, the 8
    /// knight leaps, the 4 files and ranks).
    #[test]
    fn directions_of_chess_pieces() {
        let v = variant("rules/chess.rules");
        assert_eq!(directions(&v, kind(&v, "King")).0, 8);
        assert_eq!(directions(&v, kind(&v, "Knight")).0, 8);
        assert_eq!(directions(&v, kind(&v, "Rook")).0, 4);
    }

    /// 4D-Schach (ruling "diagonals"): the king has the 6 rook and the 12
    /// bishop directions, 18; the space diagonals (1,1,1) would add 8 more.
    #[test]
    fn the_4d_king_has_18_directions_and_no_space_diagonal() {
        let v = variant("rules/4d-schach.rules");
        let (n, list) = directions(&v, kind(&v, "King"));
        assert_eq!(n, 18, "{list}");
        assert!(!list.contains("(1,1,1)"), "{list}");
        assert_eq!(directions(&v, kind(&v, "Bishop")).0, 12);
        assert_eq!(directions(&v, kind(&v, "Rook")).0, 6);
    }

    /// The colour proof per template: a chess bishop's (1,1) steps keep the
    /// colour, a knight's (1,2) leaps do not, and the king castles (its
    /// castling destination is not a step), so no template proof is given.
    /// In 4D-Schach only the claim `at rest` is proved so.
    #[test]
    fn colour_by_templates_proves_only_what_the_templates_show() {
        let v = variant("rules/chess.rules");
        assert!(colour_by_templates(&v, &Property::KeepsColour { kind: kind(&v, "Bishop") }).is_some());
        assert!(colour_by_templates(&v, &Property::KeepsColour { kind: kind(&v, "Knight") }).is_none());
        assert!(colour_by_templates(&v, &Property::KeepsColour { kind: kind(&v, "King") }).is_none());
        let d = variant("rules/4d-schach.rules");
        let bishop = kind(&d, "Bishop");
        assert!(colour_by_templates(&d, &Property::KeepsColour { kind: bishop }).is_none(), "levels slide: not every move is a template step");
        let proof = colour_by_templates(&d, &Property::KeepsColourAtRest { kind: bishop }).expect("proved at rest");
        assert!(proof.contains("12 step vectors"), "{proof}");
    }

    /// `at most 1 King`: in chess and 4D-Schach (kings in hand, placed in
    /// the opening, never exiled) by conservation; not `at most 1 Queen` in
    /// chess (pawns promote to queens), nor in crazyhouse for a non-royal
    /// piece (captures go to the capturer's hand); in Nebelschach for its
    /// kings, not for a kind a face-down piece may turn out to be.
    #[test]
    fn counts_by_conservation() {
        let chess = variant("rules/chess.rules");
        assert!(count_by_conservation(&chess, &Property::AtMost { kind: kind(&chess, "King"), count: 1 }).is_some());
        assert!(count_by_conservation(&chess, &Property::AtMost { kind: kind(&chess, "Queen"), count: 1 }).is_none());
        assert!(count_by_conservation(&chess, &Property::AtMost { kind: kind(&chess, "King"), count: 0 }).is_none(), "one king each in the setup");
        let d = variant("rules/4d-schach.rules");
        let proof = count_by_conservation(&d, &Property::AtMost { kind: kind(&d, "King"), count: 1 }).expect("4D kings");
        assert!(proof.contains("each player has 1"), "{proof}");
        let zh = variant("rules/crazyhouse.rules");
        assert!(count_by_conservation(&zh, &Property::AtMost { kind: kind(&zh, "Knight"), count: 2 }).is_none());
        // Nebelschach: the kings stand open and no face-down piece turns out
        // to be one; its eight face-down pawns, though, may become more
        // (any of the 15 face-down pieces may turn out a pawn), where
        // chess's eight may not.
        let fog = variant("rules/nebelschach.rules");
        let proof = count_by_conservation(&fog, &Property::AtMost { kind: kind(&fog, "King"), count: 1 }).expect("fog kings");
        assert!(proof.contains("no face-down piece turns out to be one"), "{proof}");
        assert!(count_by_conservation(&chess, &Property::AtMost { kind: kind(&chess, "Pawn"), count: 8 }).is_some());
        assert!(count_by_conservation(&fog, &Property::AtMost { kind: kind(&fog, "Pawn"), count: 8 }).is_none());
    }
}
