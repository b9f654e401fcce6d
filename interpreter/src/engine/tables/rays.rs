//! The rays of one piece on one cell: what [`super::Tables::build`] does
//! for every piece and cell of the resting board, and what a frame's
//! tables ([`super::lazy`]) do for the pieces and cells they are asked for.

use super::{Ray, CAPTURE, EXACT, HOP, QUIET, SCATTER, SETS_EP, TAKES_EP, WHEN_UNCHECKED, WHEN_UNMOVED};
use crate::model::geometry::Cell;
use crate::model::{Game, StepKind};
use std::collections::HashMap;

/// The movement vectors of a game's parts, each distinct vector numbered
/// once: a step is worked out once per (vector, cell) and looked up after
/// (a ride repeats one step, and every kind and colour with that vector
/// walks the same cells).
#[derive(Clone, Debug)]
pub(super) struct Vectors {
    /// Per kind, part and player: the numbers of the part's vectors.
    pub ids: Vec<Vec<[Vec<usize>; 2]>>,
    /// The vectors, by number.
    pub list: Vec<Vec<i32>>,
}

impl Vectors {
    /// Numbers the vectors of `game`'s parts.
    pub fn new(game: &Game) -> Vectors {
        let mut numbers: HashMap<&[i32], usize> = HashMap::new();
        let ids = game
            .kinds
            .iter()
            .map(|kind| {
                kind.parts
                    .iter()
                    .map(|part| {
                        [0, 1].map(|c| {
                            part.vectors[c]
                                .iter()
                                .map(|v| {
                                    let next = numbers.len();
                                    *numbers.entry(v.as_slice()).or_insert(next)
                                })
                                .collect()
                        })
                    })
                    .collect()
            })
            .collect();
        let mut list: Vec<Vec<i32>> = vec![Vec::new(); numbers.len()];
        for (v, &i) in &numbers {
            list[i] = v.to_vec();
        }
        Vectors { ids, list }
    }
}

/// Does kind `k` move alike for both players (the same vectors and zones
/// in every part: every piece of a game without a forward direction)?
/// Its second player's rays are then the first's.
pub(super) fn alike(game: &Game, k: usize) -> bool {
    game.kinds[k]
        .parts
        .iter()
        .all(|p| p.vectors[0] == p.vectors[1] && p.from.as_ref().is_none_or(|z| z[0] == z[1]) && p.within.as_ref().is_none_or(|z| z[0] == z[1]))
}

/// How one origin's rays are walked: `offset` takes a numbered vector's
/// step from a cell, `step` any vector's (a lame leap's passed cells).
pub(super) struct Walker<'a, O, S> {
    /// The game.
    pub game: &'a Game,
    /// Its vectors.
    pub vectors: &'a Vectors,
    /// The longest ride (the board's longest axis).
    pub max_len: u32,
    /// The step of vector number `vi` from a cell.
    pub offset: O,
    /// The step of any vector from a cell.
    pub step: S,
}

impl<O: FnMut(Cell, usize) -> Option<Cell>, S: Fn(Cell, &[i32]) -> Option<Cell>> Walker<'_, O, S> {
    /// Appends to `rays` and `cells` the rays of a piece of kind `k` and
    /// player `color` standing on `from` (a cell on the board), part by
    /// part, in the order of the rules.
    pub fn origin(&mut self, k: usize, color: usize, from: Cell, rays: &mut Vec<Ray>, cells: &mut Vec<Cell>) {
        let game = self.game;
        let max_len = self.max_len;
        for (part, part_ids) in game.kinds[k].parts.iter().zip(&self.vectors.ids[k]) {
            if let Some(zone) = &part.from {
                if !zone[color].contains(&from) {
                    continue;
                }
            }
            let mut flags = 0;
            if part.quiet {
                flags |= QUIET;
            }
            if part.capture {
                flags |= CAPTURE;
            }
            if part.kind == StepKind::Hop {
                flags |= HOP;
            }
            if part.exact {
                flags |= EXACT;
            }
            if part.sets_en_passant {
                flags |= SETS_EP;
            }
            if part.takes_en_passant {
                flags |= TAKES_EP;
            }
            let screen_not = part.not_over.map_or(0, |k| k + 1);
            let when = if part.unmoved { WHEN_UNMOVED } else { 0 } | if part.not_in_check { WHEN_UNCHECKED } else { 0 };
            let limit = match part.kind {
                StepKind::Leap => 1,
                _ => part.max.unwrap_or(max_len).min(max_len),
            };
            // `within ZONE`: only landings on the zone.
            let lands = |c: Cell| part.within.as_ref().is_none_or(|z| z[color].binary_search(&c).is_ok());
            if part.lame {
                // A lame leap: an exact ray, the passed cells
                // (`crate::model::lame_path`) then the target.
                for &vi in &part_ids[color] {
                    let v = &self.vectors.list[vi];
                    let passed: Option<Vec<Cell>> = crate::model::lame_path(v).iter().map(|p| (self.step)(from, p)).collect();
                    if let (Some(passed), Some(to)) = (passed, (self.offset)(from, vi)) {
                        if lands(to) {
                            let start = cells.len() as u32;
                            cells.extend(&passed);
                            cells.push(to);
                            let len = passed.len() as u16 + 1;
                            rays.push(Ray { start, len, flags: flags | EXACT, hop_limit: len, when, screen_not });
                        }
                    }
                }
                continue;
            }
            if part.kind == StepKind::Leap {
                // All targets of a leap in one scatter list.
                let start = cells.len() as u32;
                for &vi in &part_ids[color] {
                    if let Some(to) = (self.offset)(from, vi).filter(|&to| lands(to)) {
                        cells.push(to);
                    }
                }
                let n = cells.len() as u32 - start;
                if n > 0 {
                    rays.push(Ray { start, len: n as u16, flags: flags | SCATTER, hop_limit: 1, when, screen_not });
                }
                continue;
            }
            for &vi in &part_ids[color] {
                let start = cells.len() as u32;
                let mut at = from;
                let mut n = 0;
                // A hop's limit counts landing steps beyond the screen, so
                // its ray runs to the edge and the walker applies the limit.
                let steps = if part.kind == StepKind::Hop { max_len } else { limit };
                while n < steps {
                    // A ride `within` a zone stops at its edge.
                    match (self.offset)(at, vi).filter(|&next| lands(next)) {
                        Some(next) => {
                            cells.push(next);
                            at = next;
                            n += 1;
                        }
                        None => break,
                    }
                }
                if part.exact && n < limit {
                    cells.truncate(start as usize);
                    continue;
                }
                if n > 0 {
                    rays.push(Ray { start, len: n as u16, flags, hop_limit: limit as u16, when, screen_not });
                }
            }
        }
    }
}

/// For one origin's `rays` (their cells in `cells`): sets in `reach` (a
/// bitset of the board's words) every cell a capture may land on, in
/// `moves` every cell any move may land on (both supersets: a hop's or an
/// exact ride's cells include those it passes), and tells whether two
/// parts reach one cell alike (the moves must then be deduplicated),
/// unless `repeats` is already known (then `true` at once). `seen` (one
/// slot per cell) is stamped with `stamp`, a number no other
/// origin uses with the same `seen`, so that nothing is cleared between
/// origins.
pub(super) fn reach_and_repeats(rays: &[Ray], cells: &[Cell], reach: &mut [u64], moves: &mut [u64], seen: &mut [(u32, u8)], stamp: u32, mut repeats: bool) -> bool {
    for ray in rays {
        let all = &cells[ray.start as usize..ray.start as usize + ray.len as usize];
        for &c in all {
            let bit = 1 << (c % 64);
            if ray.flags & CAPTURE != 0 {
                reach[c as usize / 64] |= bit;
            }
            if ray.flags & (QUIET | CAPTURE) != 0 {
                moves[c as usize / 64] |= bit;
            }
        }
        if repeats {
            continue;
        }
        let modes = ray.flags & (QUIET | CAPTURE);
        // An `exactly` ride lands only on its last cell.
        let landings = if ray.flags & EXACT != 0 { &all[all.len() - 1..] } else { all };
        for &c in landings {
            let slot = &mut seen[c as usize];
            if slot.0 != stamp {
                *slot = (stamp, 0);
            }
            if slot.1 & modes != 0 {
                repeats = true;
            }
            slot.1 |= modes;
        }
    }
    repeats
}
