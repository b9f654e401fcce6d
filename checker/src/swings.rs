//! Swings of sliding levels: a process that must end (issue 14, kind 5).
//!
//! A level pulled out of the shaft swings back by `frame::tick` alone: its
//! state is its own offset and swing, and neither the pieces nor the other
//! levels play a part. So running the swing of every pull (1 to `out at
//! most` rows, either way) until it rests is a proof of the bound, for every
//! position and every frame the other levels stand in. All levels swing by
//! the one `swing` rule of the `slide` item, so one level stands for all.

use rulebook_interpreter::engine::frame;
use rulebook_interpreter::Variant;

/// The most half-moves a swing is run for before it counts as endless.
pub const LIMIT: u32 = 100_000;

/// The half-moves after the one that pulls `level` out by `rows` until it
/// rests again (`None`: it still swings after [`LIMIT`]; `Some(0)`: the level
/// cannot be pulled so far).
pub fn half_moves_to_rest(v: &Variant, level: u8, rows: i8) -> Option<u32> {
    let Ok(mut pos) = v.start() else { return Some(0) };
    pos.frame = None;
    if !frame::activate(&v.game, &mut pos, level, rows) {
        return Some(0);
    }
    // The end of the pulling ply: the level waits through it.
    frame::tick(&v.game, &mut pos);
    let mut n = 0;
    while frame::swinging(&pos) {
        if n >= LIMIT {
            return None;
        }
        frame::tick(&v.game, &mut pos);
        n += 1;
    }
    Some(n)
}

/// The longest swing of `level` over every pull, with the pull's rows (the
/// first endless one, if any, as `None`); `None` without a `slide` item.
pub fn longest(v: &Variant, level: u8) -> Option<(Option<u32>, i8)> {
    let slide = v.game.slide.as_ref()?;
    let pulls = (1..=slide.out_max as i8).flat_map(|r| [r, -r]);
    let mut best: Option<(Option<u32>, i8)> = None;
    for rows in pulls {
        let n = half_moves_to_rest(v, level, rows);
        // The first of equally long swings (the pull towards the axis's end first).
        if best.is_none_or(|(b, _)| n.unwrap_or(u32::MAX) > b.unwrap_or(u32::MAX)) {
            best = Some((n, rows));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn load(path: &str) -> Variant {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
        match rulebook_interpreter::model::load::load(&file) {
            Ok((game, _)) => Variant::new(std::sync::Arc::new(game)),
            Err((diags, _)) => panic!("{path}: {diags:?}"),
        }
    }

    /// examples/sliding-levels.rules: `out at most 3`, `swing 1 row per ply,
    /// overshoot 1 less each pass`. A pull of 3 rows, by hand: back to rest
    /// in 3 jumps (2, 1, 0), out to -2 and back (4), out to +1 and back (2):
    /// 9 half-moves after the pulling one. A pull of 1: back in 1, and an
    /// overshoot of 0 rows is none: 1.
    #[test]
    fn the_example_tower_rests_within_nine_half_moves() {
        let v = load("examples/sliding-levels.rules");
        assert_eq!(half_moves_to_rest(&v, 0, 3), Some(9));
        assert_eq!(half_moves_to_rest(&v, 0, -3), Some(9));
        assert_eq!(half_moves_to_rest(&v, 0, 1), Some(1));
        assert_eq!(longest(&v, 0), Some((Some(9), 3)));
    }

    /// rules/4d-schach.rules, ruling "swing-damping": from 7 rows, 7 jumps
    /// back to rest, then overshoots of 6, 5, …, 1 rows, each out and back:
    /// 7 + 2 × (6 + 5 + 4 + 3 + 2 + 1) = 49 half-moves, the ruling's count.
    #[test]
    fn four_d_schach_swings_rest_within_49_half_moves() {
        let v = load("rules/4d-schach.rules");
        assert_eq!(longest(&v, 0), Some((Some(49), 7)));
    }
}
