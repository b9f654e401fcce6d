//! Sliding levels in plain language ([`Game::slide`]): which levels slide
//! along which axis, how far they can be pulled out, how they swing back
//! (with the offsets of a full swing, worked out from the model's numbers),
//! and the words of the notation.

use super::cond::{axis, plural};
use super::rules::capital;
use super::words::and_list;
use super::Section;
use rulebook_interpreter::model::cond::{Effect, ObligeAction};
use rulebook_interpreter::model::slide::SlideRules;
use rulebook_interpreter::model::Game;

/// The section of the `slide` item, if the variant has one.
pub fn slide(game: &Game) -> Option<Section> {
    let sl = game.slide.as_ref()?;
    let geo = &game.geometry;
    let SlideRules { stack_axis, axes, out_max, swing, compass, span: _, file: _ } = sl;
    let level = axis(game, *stack_axis);
    let levels = plural(&level);
    let label = |l: usize| geo.axes.get(*stack_axis).and_then(|a| a.labels.get(l)).map_or("?", |s| s.as_str()).to_string();
    let (file, offset) = origin(sl);
    let mut s = Section::new(format!("Sliding {levels}")).describes(rulebook_interpreter::model::doc::ItemRef::Slide).at(file, offset).paragraph(format!(
        "The {levels} of the board can be pulled out of the shaft (the board's extent on its other axes) along an axis of their own, and then swing back to rest, a few rows each ply."
    ));
    // Which levels slide along which axis.
    let mut items = Vec::new();
    for (a, info) in geo.axes.iter().enumerate() {
        let these: Vec<String> = (0..axes.len()).filter(|&l| axes[l] == Some(a)).map(label).collect();
        if these.is_empty() {
            continue;
        }
        let ends = (info.labels.first().cloned().unwrap_or_default(), info.labels.last().cloned().unwrap_or_default());
        items.push(format!(
            "{} {} {} along the {} axis, towards {} {} or {} {}",
            capital(if these.len() == 1 { &level } else { &levels }),
            and_list(&these),
            if these.len() == 1 { "slides" } else { "slide" },
            info.name,
            info.name,
            ends.0,
            info.name,
            ends.1
        ));
    }
    let still: Vec<String> = (0..geo.axes.get(*stack_axis).map_or(0, |a| a.labels.len())).filter(|&l| !sl.slides(l)).map(label).collect();
    if !still.is_empty() {
        items.push(format!(
            "{} {} never {}",
            capital(if still.len() == 1 { &level } else { &levels }),
            and_list(&still),
            if still.len() == 1 { "moves" } else { "move" }
        ));
    }
    s = s.list(items);
    // How far, and who pulls.
    let pullers: Vec<String> = game
        .rules
        .iter()
        .filter(|r| match &r.effect {
            Effect::Oblige(steps) => steps.iter().any(|st| match st.action {
                ObligeAction::Activate => true,
                ObligeAction::Relocate { .. } | ObligeAction::Exile { .. } | ObligeAction::Return => false,
            }),
            Effect::End { .. } | Effect::Forbid(_) | Effect::CompelCaptures | Effect::NoCapture { .. } | Effect::OnlyCaptures { .. } | Effect::LoseRight(_) => false,
        })
        .map(|r| format!("\"{}\"", r.name))
        .collect();
    let who = match pullers.len() {
        0 => "No rule of this variant obliges a player to pull one out.".to_string(),
        1 => format!("The rule {} obliges a player to pull one out.", pullers[0]),
        _ => format!("The rules {} oblige a player to pull one out.", and_list(&pullers)),
    };
    s = s.paragraph(format!(
        "A {level} at rest can be pulled out by 1 to {out_max} {} in either direction along its axis; at least one row always stays in the shaft. {who}",
        rows(*out_max)
    ));
    // The swing.
    let repeat = if swing.once {
        "after this one overshoot has come back, it rests".to_string()
    } else {
        format!(
            "this repeats, every overshoot {} {} shorter than the one before, until an overshoot would be no row at all",
            swing.shrink,
            rows(swing.shrink)
        )
    };
    s = s.paragraph(format!(
        "A pulled-out {level} stands at its full offset at once and waits one complete ply; then, at the end of every complete ply, it moves {} {} back towards rest. On reaching rest it overshoots to the other side, {} {} less far than the extreme it came from, and comes back; {repeat}.",
        swing.rows,
        rows(swing.rows),
        swing.shrink,
        rows(swing.shrink)
    ));
    let offsets = swing_offsets(sl, *out_max);
    s = s.paragraph(format!(
        "So a {level} pulled out {out_max} {} stands, at the end of each ply, at {}: it comes to rest {} plies after the one it was pulled out in (an offset counts rows towards the axis's last label).",
        rows(*out_max),
        runs(&offsets),
        offsets.len().saturating_sub(1)
    ));
    // The notation's words.
    let words: Vec<String> = compass
        .iter()
        .enumerate()
        .filter_map(|(a, c)| {
            let (first, last) = c.as_ref()?;
            let info = geo.axes.get(a)?;
            Some(format!(
                "along the {} axis, \"{first}\" is towards {} {} and \"{last}\" towards {} {}",
                info.name,
                info.name,
                info.labels.first()?,
                info.name,
                info.labels.last()?
            ))
        })
        .collect();
    if !words.is_empty() {
        s = s.paragraph(format!("In the notation of activations: {}.", words.join("; ")));
    }
    s = s.paragraph(format!(
        "A cell keeps its name and its colour when its {level} slides. A step that stays in its {level} is made as usual, on pulled-out rows too. A step to another {level} is taken in the shaft: it must start and end there, and it counts only the {levels} that have a cell where it lands, so a {level} slid away there (a black hole) is skipped. A move is legal when the mover's royal piece is not attacked after the swing at the end of its ply."
    ));
    Some(s)
}

/// Where the `slide` item is written: its file and the byte offset of its
/// start, for [`Section::at`] once the file's text is at hand.
pub fn origin(sl: &SlideRules) -> (&str, usize) {
    (sl.file.as_str(), sl.span.start)
}

/// `row` or `rows`.
fn rows(n: u8) -> &'static str {
    if n == 1 {
        "row"
    } else {
        "rows"
    }
}

/// The offsets of a level pulled out by `out` rows at the end of each ply
/// from the one it was pulled out in (the first: the wait) until it rests
/// (the last: 0), as the swing rule moves it.
pub fn swing_offsets(sl: &SlideRules, out: u8) -> Vec<i8> {
    let rule = sl.swing;
    let step = i16::from(rule.rows.max(1));
    let mut offset = i16::from(out.min(127));
    let mut peak = offset;
    let mut outward = false;
    let mut pass = 0u32;
    let mut seen = vec![offset as i8];
    if out == 0 {
        return seen;
    }
    // Every half-swing ends; the bound keeps a malformed rule finite.
    for _ in 0..10_000 {
        let target = if outward { peak } else { 0 };
        offset += (target - offset).clamp(-step, step);
        seen.push(offset as i8);
        if offset != target {
            continue;
        }
        if outward {
            outward = false;
            continue;
        }
        let next = (peak.unsigned_abs()).saturating_sub(u16::from(rule.shrink));
        if next == 0 || (rule.once && pass >= 1) {
            break;
        }
        peak = -peak.signum() * next as i16;
        outward = true;
        pass += 1;
    }
    seen
}

/// A signed offset with a true minus sign.
fn signed(n: i8) -> String {
    if n < 0 {
        format!("−{}", n.unsigned_abs())
    } else {
        n.to_string()
    }
}

/// The offsets in runs: `7 (the wait), 6 … 0, −1 … −6, −5 … 0, …, 1, 0`: a
/// run goes one way and ends at rest; three or more offsets read `a … b`.
fn runs(offsets: &[i8]) -> String {
    let Some((&first, rest)) = offsets.split_first() else { return String::new() };
    let mut parts = vec![format!("{} (the wait)", signed(first))];
    let mut run: Vec<i8> = Vec::new();
    let flush = |run: &mut Vec<i8>, parts: &mut Vec<String>| {
        match run.as_slice() {
            [] => {}
            [a, .., b] if run.len() >= 3 => parts.push(format!("{} … {}", signed(*a), signed(*b))),
            r => parts.extend(r.iter().map(|&x| signed(x))),
        }
        run.clear();
    };
    let mut prev = first;
    for &x in rest {
        let dir = (x - prev).signum();
        let same = run.len() < 2 || (run[run.len() - 1] - run[run.len() - 2]).signum() == dir;
        if !same || run.last() == Some(&0) {
            flush(&mut run, &mut parts);
        }
        run.push(x);
        prev = x;
    }
    flush(&mut run, &mut parts);
    format!("{} and rest", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::describe::rules::tests::{load_game, text};
    use rulebook_interpreter::engine::frame;
    use rulebook_interpreter::Variant;
    use std::path::Path;
    use std::sync::Arc;

    fn four_d() -> Game {
        load_game(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/4d-schach.rules")))
    }

    #[test]
    fn four_d_schach_slide() {
        let g = four_d();
        let t = text(&slide(&g).expect("4D-Schach slides"));
        assert!(t.starts_with("Sliding levels\n"), "{t}");
        // `levels I III V VII along rank          # Nord-Süd-Achse`
        assert!(t.contains("- Levels I, III, V and VII slide along the rank axis, towards rank 1 or rank 8"), "{t}");
        // `levels II IV VI along file             # Ost-West-Achse`
        assert!(t.contains("- Levels II, IV and VI slide along the file axis, towards file a or file h"), "{t}");
        assert!(!t.contains("never move"), "{t}");
        // `out at most 7                          # "Die letzte Reihe verbleibt immer im Spiel"`
        assert!(t.contains("can be pulled out by 1 to 7 rows in either direction along its axis; at least one row always stays in the shaft"), "{t}");
        // `then owner must activate` in rules "big castling" and "group".
        assert!(t.contains("The rules \"big castling\" and \"group\" oblige a player to pull one out."), "{t}");
        // `swing 1 row per ply, overshoot 1 less each pass   # reading A`
        assert!(t.contains("it moves 1 row back towards rest. On reaching rest it overshoots to the other side, 1 row less far"), "{t}");
        assert!(t.contains("every overshoot 1 row shorter than the one before"), "{t}");
        // LANGUAGE.md §3.18: "7 (the wait), 6 … 0, −1 … −6, −5 … 0, 1 … 5, …, −1, 0, 1, 0 and rest".
        assert!(t.contains("stands, at the end of each ply, at 7 (the wait), 6 … 0, −1 … −6, −5 … 0, 1 … 5, 4 … 0, "), "{t}");
        assert!(t.contains(", −1, 0, 1, 0 and rest: it comes to rest 49 plies after the one it was pulled out in"), "{t}");
        // `compass "Ost" "West" along file        # file a is East`
        assert!(t.contains("In the notation of activations: along the file axis, \"Ost\" is towards file a and \"West\" towards file h; along the rank axis"), "{t}");
        // `compass "Nord" "Süd" along rank        # rank 1 is North`
        assert!(t.contains("along the rank axis, \"Nord\" is towards rank 1 and \"Süd\" towards rank 8"), "{t}");
        let (file, start) = origin(g.slide.as_ref().expect("slide"));
        let src = std::fs::read_to_string(file).expect("reads");
        assert!(src[start..].starts_with("slide {"));
    }

    /// The offsets worked out here are the engine's: a level of 4D-Schach
    /// pulled out by each amount, ticked until it rests.
    #[test]
    fn swing_offsets_are_the_engines() {
        let g = Arc::new(four_d());
        let v = Variant::new(g.clone());
        let sl = g.slide.as_ref().expect("slide");
        for out in 1..=sl.out_max {
            let mut pos = v.start().expect("the setup");
            assert!(frame::activate(&g, &mut pos, 3, out as i8));
            let mut engine = vec![pos.frame.as_ref().map_or(0, |f| f.levels[3].offset)];
            while pos.frame.is_some() {
                frame::tick(&g, &mut pos);
                engine.push(pos.frame.as_ref().map_or(0, |f| f.levels[3].offset));
            }
            // The engine's first tick is the wait (no move): drop its repeat.
            engine.remove(1);
            assert_eq!(swing_offsets(sl, out), engine, "pulled out {out}");
        }
        let mut once = sl.clone();
        once.swing.once = true;
        // `overshoot 1 less once`: 7, 6 … 0, −1 … −6, −5 … 0 and rest (LANGUAGE.md §3.18).
        let expect: Vec<i8> = [7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -5, -4, -3, -2, -1, 0].to_vec();
        assert_eq!(swing_offsets(&once, 7), expect);
        assert_eq!(runs(&expect), "7 (the wait), 6 … 0, −1 … −6, −5 … 0 and rest");
    }

    #[test]
    fn no_slide_no_section() {
        let g = load_game(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/chess.rules")));
        assert!(slide(&g).is_none());
        let g = load_game(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/sliding-levels.rules")));
        let t = text(&slide(&g).expect("slides"));
        // `levels I III along rank`, `levels II along file`, `out at most 3`.
        assert!(t.contains("- Levels I and III slide along the rank axis"), "{t}");
        assert!(t.contains("- Level II slides along the file axis"), "{t}");
        assert!(t.contains("by 1 to 3 rows"), "{t}");
        assert!(t.contains("No rule of this variant obliges"), "{t}");
    }
}
