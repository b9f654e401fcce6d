//! A position drawn as text for one viewer.
//!
//! The board is drawn from the viewer's side: white (and the arbiter, who
//! sees everything) has the first rank at the bottom, black at the top (the
//! board turned round, so the files run backwards too). Pieces are letters
//! of the chosen letter set, upper case for the first player and lower case
//! for the second; a face-down piece is its disguise's letter followed by `?`
//! (`R?`); an empty cell is `.` and a hole is blank. A board of more than two
//! dimensions is drawn as one two-dimensional slice per level, the highest
//! level first (for black the lowest first).
//!
//! A half of a spread piece is its letter followed by its colour (`r` red,
//! `b` blue), its weight's separator (`&` equal, `>` red likelier, `<` red
//! less likely) and, in an entangled group, the group's label: `Nr>`,
//! `nb&/`. With colour (a terminal) the half is also painted red or blue.
//!
//! Below the board: the side to move, the hands (in variants with drops),
//! in variants with face-down pieces, what the viewer knows of each
//! player's face-down pieces ([`crate::play::session::Knowledge`]), and in
//! variants with spread pieces a legend: every unit, its members' red and
//! blue cells, its weight with the probabilities of red and blue, its label.

use crate::model::geometry::Cell;
use crate::model::{Color, Game, KindId, LetterSet, Weight};
use crate::engine::position::{color_of, kind_of, Position};
use crate::play::session::{HiddenKnowledge, Knowledge};
use crate::engine::spread::{Branch, Pair};
use crate::engine::variant::Variant;
use num_rational::Ratio;

/// ANSI escape that paints a red half.
const RED: &str = "\x1b[31m";
/// ANSI escape that paints a blue half.
const BLUE: &str = "\x1b[34m";
/// ANSI escape that ends a painted half.
const RESET: &str = "\x1b[0m";

/// The letter of `kind` in `letters` (`None`: the FEN letter), upper case.
fn letter(game: &Game, kind: KindId, letters: Option<&LetterSet>) -> char {
    match letters {
        Some(set) => set.letter(game, kind),
        None => game.kinds[kind as usize].letter,
    }
}

/// A player's name with a capital letter (`White`).
pub fn player_name(game: &Game, color: Color) -> String {
    let name = &game.players[color as usize & 1].name;
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Kinds as letters separated by spaces (`Q R R B`), or `—` for none.
fn letters_list(game: &Game, kinds: &[KindId], letters: Option<&LetterSet>) -> String {
    if kinds.is_empty() {
        return "—".to_string();
    }
    let parts: Vec<String> = kinds.iter().map(|&k| letter(game, k, letters).to_string()).collect();
    parts.join(" ")
}

/// What `viewer` knows from the position alone (no history): each player's
/// pool, no captured face-down pieces. [`crate::play::session::Session::knowledge`]
/// adds what the moves played tell.
pub fn knowledge_of_position(v: &Variant, pos: &Position) -> Knowledge {
    let mut out = Knowledge::default();
    for color in 0..2u8 {
        let k = &mut out.players[color as usize];
        k.on_board = pos.cells_of(color, v.tables.nwords).filter(|&c| pos.is_hidden(c)).count() as u32;
        for (kind, &n) in pos.pool[color as usize].iter().enumerate() {
            k.undrawn.extend(std::iter::repeat_n(kind as KindId, n as usize));
        }
    }
    out
}

/// Draws `pos` for `viewer` (`None`: the arbiter) with pieces in `letters`
/// (`None`: the FEN letters). `knowledge` is what the viewer knows of the
/// face-down pieces (from [`crate::play::session::Session::knowledge`]); without
/// it, what the position alone says. The text ends with a newline.
pub fn render(
    v: &Variant,
    pos: &Position,
    viewer: Option<Color>,
    letters: Option<&LetterSet>,
    knowledge: Option<&Knowledge>,
) -> String {
    render_styled(v, pos, viewer, letters, knowledge, false)
}

/// [`render`], with the halves of spread pieces painted red and blue
/// (ANSI escapes) when `colour` is set: for a terminal.
pub fn render_styled(
    v: &Variant,
    pos: &Position,
    viewer: Option<Color>,
    letters: Option<&LetterSet>,
    knowledge: Option<&Knowledge>,
    colour: bool,
) -> String {
    let game = &v.game;
    let mut out = board(v, pos, viewer, letters, colour);
    out.push('\n');
    let mover = player_name(game, pos.side);
    if let Some(o) = pos.flow.as_ref().and_then(|f| f.queue.first()) {
        // A ply in progress: the obligation's player decides first.
        let what = match o.kind {
            crate::flow::ActionKind::Move => "a move",
            crate::flow::ActionKind::Relocate => "a relocation",
            crate::flow::ActionKind::Activate => "an activation",
            crate::flow::ActionKind::Exile => "an exile",
            crate::flow::ActionKind::Return => "a return",
        };
        out.push_str(&format!("{} owes {what}, then {mover} moves\n", player_name(game, o.player)));
    } else if v.in_check(pos) {
        out.push_str(&format!("{mover} to move, in check\n"));
    } else {
        out.push_str(&format!("{mover} to move\n"));
    }
    if game.hand.is_some() {
        for color in 0..2u8 {
            let mut kinds = Vec::new();
            for (kind, &n) in pos.hand[color as usize].iter().enumerate().take(game.kinds.len()) {
                kinds.extend(std::iter::repeat_n(kind as KindId, n as usize));
            }
            out.push_str(&format!("{}'s hand: {}\n", player_name(game, color), letters_list(game, &kinds, letters)));
        }
    }
    if game.hidden.is_some() {
        let own;
        let known = match knowledge {
            Some(k) => k,
            None => {
                own = knowledge_of_position(v, pos);
                &own
            }
        };
        for color in 0..2u8 {
            hidden_lines(game, color, &known.players[color as usize], letters, &mut out);
        }
    }
    spread_legend(game, pos, letters, &mut out);
    out_of_play_lines(game, pos, letters, &mut out);
    out
}

/// One line per piece out of play: the piece, the cell it left, who may
/// return it and onto which cells, and until when.
fn out_of_play_lines(game: &Game, pos: &Position, letters: Option<&LetterSet>, out: &mut String) {
    let Some(flow) = &pos.flow else { return };
    for e in &flow.out {
        let piece = format!("{} {}", player_name(game, crate::engine::position::color_of(e.piece)), letters_list(game, &[crate::engine::position::kind_of(e.piece)], letters));
        let cells: Vec<String> = e.cells.iter().map(|&c| game.geometry.name(c)).collect();
        let who = match e.holder {
            Some(h) => format!("{} may return it onto {}", player_name(game, h), cells.join(" ")),
            None => "it stays out for good".to_string(),
        };
        let until = e.level.map_or(String::new(), |l| format!(", until level {} rests", crate::engine::frame::level_label(game, l)));
        let fresh = if e.fresh { " (taken in this ply)" } else { "" };
        out.push_str(&format!("out of play: {piece} from {}{fresh}: {who}{until}\n", game.geometry.name(e.origin)));
    }
}

/// The weight of `pair` in `game` (`None` when the rules declare no such weight).
fn weight_of<'a>(game: &'a Game, pair: &Pair) -> Option<&'a Weight> {
    game.spread.as_ref().and_then(|s| s.weights.get(pair.weight as usize))
}

/// The label of `pair`'s group (empty for none).
fn label_of(game: &Game, pair: &Pair) -> String {
    if pair.label == 0 {
        return String::new();
    }
    game.spread
        .as_ref()
        .and_then(|s| s.entangle.as_ref())
        .and_then(|e| e.labels.get(pair.label as usize - 1))
        .map_or_else(|| pair.label.to_string(), Clone::clone)
}

/// The probabilities of red and blue under `w`.
fn odds(w: &Weight) -> (Ratio<u64>, Ratio<u64>) {
    let red = w.red_faces.len() as u64;
    let total = (w.red_faces.len() + w.blue_faces.len()) as u64;
    if total == 0 {
        return (Ratio::from_integer(0), Ratio::from_integer(0));
    }
    (Ratio::new(red, total), Ratio::new(total - red, total))
}

/// The piece on `cell` as a letter of `letters`, upper case for the first player.
fn piece_text(game: &Game, pos: &Position, cell: Cell, letters: Option<&LetterSet>) -> String {
    let code = pos.board[cell as usize];
    if code == 0 {
        return "?".to_string();
    }
    if code == crate::engine::position::WALL {
        return "*".to_string(); // a wall (duck chess, amazons)
    }
    let l = letter(game, kind_of(code), letters);
    // A promoted form (`+P`) keeps its `+`.
    let plus = if game.kinds[kind_of(code) as usize].plus { "+" } else { "" };
    if color_of(code) == 0 {
        format!("{plus}{}", l.to_uppercase())
    } else {
        format!("{plus}{}", l.to_lowercase())
    }
}

/// The marks after a half's letter: its colour, its weight's separator, its group's label (`r&/`).
fn half_marks(game: &Game, pair: &Pair, branch: Branch) -> String {
    let mut s = String::from(match branch {
        Branch::Red => 'r',
        Branch::Blue => 'b',
    });
    s.push(weight_of(game, pair).map_or('?', |w| w.separator));
    s.push_str(&label_of(game, pair));
    s
}

/// The legend of the spread pieces: one line per unit, in canonical order.
fn spread_legend(game: &Game, pos: &Position, letters: Option<&LetterSet>, out: &mut String) {
    let (Some(rules), Some(state)) = (&game.spread, pos.spread.as_deref()) else { return };
    if state.pairs.is_empty() {
        return;
    }
    let weights: Vec<String> = rules.weights.iter().map(|w| format!("{} {}", w.separator, w.name)).collect();
    out.push_str(&format!("Spread pieces (halves marked r red or b blue, then {}, then the group):\n", weights.join(" or ")));
    let mut units: Vec<u8> = Vec::new();
    for p in &state.pairs {
        if !units.contains(&p.unit) {
            units.push(p.unit);
        }
    }
    for unit in units {
        let members: Vec<&Pair> = state.unit(unit).collect();
        let Some(first) = members.first() else { continue };
        let label = label_of(game, first);
        let prefix = if !label.is_empty() {
            format!("group {label}: ")
        } else if members.len() > 1 {
            "together: ".to_string()
        } else {
            String::new()
        };
        let pieces: Vec<String> = members
            .iter()
            .map(|p| {
                format!(
                    "{} on {} (red) or {} (blue)",
                    piece_text(game, pos, p.red, letters),
                    game.geometry.name(p.red),
                    game.geometry.name(p.blue)
                )
            })
            .collect();
        let weight = match weight_of(game, first) {
            Some(w) => {
                let (red, blue) = odds(w);
                format!("{}, red {red}, blue {blue}", w.name)
            }
            None => format!("weight {}", first.weight),
        };
        out.push_str(&format!("  {prefix}{}: {weight}\n", pieces.join(", ")));
    }
}

/// The lines about one player's face-down pieces.
fn hidden_lines(game: &Game, color: Color, k: &HiddenKnowledge, letters: Option<&LetterSet>, out: &mut String) {
    let who = player_name(game, color);
    let mut undrawn = k.undrawn.clone();
    undrawn.sort_unstable();
    if k.on_board == 0 && k.captured_unseen == 0 {
        out.push_str(&format!("{who}'s face-down pieces: none\n"));
    } else if k.captured_unseen == 0 {
        out.push_str(&format!("{who}'s face-down pieces: {} — {}\n", k.on_board, letters_list(game, &undrawn, letters)));
    } else {
        out.push_str(&format!(
            "{who}'s face-down pieces: {} of {} ({} captured unseen)\n",
            k.on_board,
            letters_list(game, &undrawn, letters),
            k.captured_unseen
        ));
    }
    if !k.captured_seen.is_empty() || k.captured_unseen > 0 {
        let mut parts = Vec::new();
        if !k.captured_seen.is_empty() {
            parts.push(letters_list(game, &k.captured_seen, letters));
        }
        if k.captured_unseen > 0 {
            parts.push(format!("{} unseen", k.captured_unseen));
        }
        out.push_str(&format!("{who}'s captured face-down pieces: {}\n", parts.join(", ")));
    }
}

/// The board alone: one slice per combination of the axes beyond the second.
/// How the level `slice` (coordinates of the axes beyond the second) stands
/// in the shaft: its offset along the file and the rank axis (0, 0 at rest
/// and in a game without `slide`), and a caption for its heading (`, pulled
/// 2 towards a, swinging`).
fn level_shift(game: &Game, pos: &Position, slice: &[usize]) -> ([i64; 2], String) {
    let (Some(slide), Some(frame)) = (&game.slide, &pos.frame) else { return ([0, 0], String::new()) };
    let Some(&level) = slice.get(slide.stack_axis.wrapping_sub(2)) else { return ([0, 0], String::new()) };
    let (Some(state), Some(Some(axis))) = (frame.levels.get(level), slide.axes.get(level)) else { return ([0, 0], String::new()) };
    if state.at_rest() {
        return ([0, 0], String::new());
    }
    let mut shift = [0i64; 2];
    if *axis < 2 {
        shift[*axis] = i64::from(state.offset);
    }
    let labels = &game.geometry.axes[*axis].labels;
    let towards = if state.offset < 0 { labels.first() } else { labels.last() };
    let mut caption = if state.offset == 0 {
        ", in the shaft".to_string()
    } else {
        format!(", pulled {} towards {} {}", state.offset.unsigned_abs(), game.geometry.axes[*axis].name, towards.map_or("", |l| l.as_str()))
    };
    if let Some(sw) = state.swing {
        caption.push_str(if sw.wait { ", swings from the next ply" } else { ", swinging" });
    }
    (shift, caption)
}

fn board(v: &Variant, pos: &Position, viewer: Option<Color>, letters: Option<&LetterSet>, colour: bool) -> String {
    let game = &v.game;
    let geo = &game.geometry;
    let dims = geo.dims();
    let flipped = viewer == Some(1);
    let files = if dims >= 1 { geo.size(0) } else { 1 };
    let ranks = if dims >= 2 { geo.size(1) } else { 1 };
    let spread = pos.spread.as_deref();
    // Room for a `?` after a face-down piece, or a `+` before a promoted form.
    let mut cell_width = if game.hidden.is_some() || game.kinds.iter().any(|k| k.plus) { 3 } else { 2 };
    if let Some(state) = spread {
        // A letter, the colour, the separator, the longest label in use, a space.
        let label = state.pairs.iter().map(|p| label_of(game, p).chars().count()).max().unwrap_or(0);
        cell_width = cell_width.max(4 + label);
    }
    let rank_label = |r: usize| if dims >= 2 { geo.axes[1].labels[r].clone() } else { String::new() };
    let label_width = (0..ranks).map(|r| rank_label(r).chars().count()).max().unwrap_or(0);
    // The coordinates of the higher axes, one entry per slice, highest first.
    let higher: Vec<usize> = (2..dims).map(|a| geo.size(a)).collect();
    let mut slices: Vec<Vec<usize>> = vec![Vec::new()];
    for &n in &higher {
        slices = slices.into_iter().flat_map(|s| (0..n).map(move |c| [s.clone(), vec![c]].concat())).collect();
    }
    // Sort so that the last axis varies slowest and the highest slice comes first.
    slices.sort_by(|a, b| b.iter().rev().cmp(a.iter().rev()));
    if flipped {
        slices.reverse();
    }
    let mut out = String::new();
    // A level pulled out of the shaft (`slide`) is drawn where it stands:
    // shifted by its offset along its axis, its pulled-out rows beyond the
    // shaft's edge (where the other levels have none), and `~` where the
    // shaft has no cell of it (a hole). Every level is drawn over the files
    // of all, so the shaft's files stand one above the other.
    let shifts: Vec<([i64; 2], String)> = slices.iter().map(|slice| level_shift(game, pos, slice)).collect();
    let flo = shifts.iter().map(|(s, _)| s[0].min(0)).min().unwrap_or(0);
    let fhi = shifts.iter().map(|(s, _)| files as i64 - 1 + s[0].max(0)).max().unwrap_or(files as i64 - 1);
    for (i, slice) in slices.iter().enumerate() {
        let (shift, caption) = &shifts[i];
        let (fo, ro) = (shift[0], shift[1]);
        let (rlo, rhi) = (ro.min(0), ranks as i64 - 1 + ro.max(0));
        let file_order: Vec<i64> = if flipped { (flo..=fhi).rev().collect() } else { (flo..=fhi).collect() };
        let rank_order: Vec<i64> = if flipped { (rlo..=rhi).collect() } else { (rlo..=rhi).rev().collect() };
        let local = |a: i64, o: i64, n: usize| -> Option<usize> { usize::try_from(a - o).ok().filter(|&l| l < n) };
        let footer = {
            let mut s = " ".repeat(label_width + 2);
            for &f in &file_order {
                let l = match local(f, fo, files) {
                    Some(f) if dims >= 1 => geo.axes[0].labels[f].as_str(),
                    _ => "",
                };
                s.push_str(&format!("{l:<cell_width$}"));
            }
            s.trim_end().to_string()
        };
        if !slice.is_empty() {
            if i > 0 {
                out.push('\n');
            }
            let names: Vec<String> = slice
                .iter()
                .enumerate()
                .map(|(k, &c)| format!("{} {}", geo.axes[k + 2].name, geo.axes[k + 2].labels[c]))
                .collect();
            out.push_str(&names.join(", "));
            out.push_str(caption);
            out.push('\n');
        }
        for &ar in &rank_order {
            let r = local(ar, ro, ranks);
            let mut line = format!("{:>label_width$}  ", r.map(rank_label).unwrap_or_default());
            for &af in &file_order {
                let f = local(af, fo, files);
                let in_shaft = (0..files as i64).contains(&af) && (0..ranks as i64).contains(&ar);
                let mut coords: Vec<i64> = Vec::with_capacity(dims);
                if dims >= 1 {
                    coords.push(f.map_or(-1, |f| f as i64));
                }
                if dims >= 2 {
                    coords.push(r.map_or(-1, |r| r as i64));
                }
                coords.extend(slice.iter().map(|&c| c as i64));
                let mut paint = None;
                let cell = if (dims >= 1 && f.is_none()) || (dims >= 2 && r.is_none()) { None } else { geo.cell(&coords) };
                let text = match cell {
                    None if in_shaft && (fo != 0 || ro != 0) => "~".to_string(),
                    None => String::new(),
                    Some(cell) => {
                        let code = pos.board[cell as usize];
                        if code == 0 {
                            ".".to_string()
                        } else {
                            let mut s = piece_text(game, pos, cell, letters);
                            if pos.is_hidden(cell) {
                                s.push('?');
                            }
                            let half = spread.and_then(|st| st.pair_at(cell)).and_then(|p| p.branch_at(cell).map(|b| (p, b)));
                            if let Some((pair, branch)) = half {
                                s.push_str(&half_marks(game, pair, branch));
                                paint = Some(if branch == Branch::Red { RED } else { BLUE });
                            }
                            s
                        }
                    }
                };
                match paint {
                    Some(ansi) if colour => {
                        let pad = cell_width.saturating_sub(text.chars().count());
                        line.push_str(&format!("{ansi}{text}{RESET}{}", " ".repeat(pad)));
                    }
                    _ => line.push_str(&format!("{text:<cell_width$}")),
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push_str(&footer);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::fen::niels_for_tests;

    const GROUP: &str = "r1bqk2r/pp1p1ppp/5n2/3n2N1/2BN4/8/PPPPBPPP/RN1QK2R w KQkq - 0 1 ~ Bc4e2+nd5f6:equal:/ Nd4g5:unequal";

    #[test]
    fn halves_are_marked_and_listed() {
        let v = niels_for_tests();
        let pos = v.parse_fen(GROUP, "<test>").expect("parses");
        let text = render(&v, &pos, None, None, None);
        assert!(text.contains("\n4  .    .    Br&/ Nr>  .    .    .    .\n"), "{text}");
        assert!(text.contains("\n5  .    .    .    nr&/ .    .    Nb>  .\n"), "{text}");
        assert!(text.contains("  group /: B on c4 (red) or e2 (blue), n on d5 (red) or f6 (blue): equal, red 1/2, blue 1/2\n"), "{text}");
        assert!(text.contains("  N on d4 (red) or g5 (blue): unequal, red 2/3, blue 1/3\n"), "{text}");
        assert!(!text.contains('\x1b'));
        // Painted for a terminal: the same text once the escapes are taken out.
        let painted = render_styled(&v, &pos, None, None, None, true);
        assert!(painted.contains(&format!("{RED}Br&/{RESET} {RED}Nr>{RESET}")), "{painted}");
        assert!(painted.contains(&format!("{BLUE}Nb>{RESET}")), "{painted}");
        let plain = painted.replace(RED, "").replace(BLUE, "").replace(RESET, "");
        assert_eq!(plain, text);
    }

    #[test]
    fn a_pulled_level_is_drawn_where_it_stands_with_its_holes() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/sliding-levels.rules");
        let Ok((game, _)) = crate::model::load::load(&path) else { panic!("examples/sliding-levels.rules does not load") };
        let v = Variant::new(std::sync::Arc::new(game));
        // Level II (files a..d) pulled 2 files towards a: its files a, b stand
        // left of the shaft, the shaft's files c, d have no cell of it (~).
        // Level I (ranks 1..4) pulled 1 rank towards 4: its rank 4 stands
        // above the shaft, the shaft's rank 1 has no cell of it (~). Level III
        // at rest, drawn over the same files as the others.
        let pos = v.parse_fen("2kr/pppp/4/4|4/4/4/4|4/4/PPPP/RK2 b - - 0 1 {frame=I:+1<+1,II:-2<-2}", "<test>").expect("position");
        let text = render(&v, &pos, None, None, None);
        let expected = "\
level III
4      . . k r
3      p p p p
2      . . . .
1      . . . .
       a b c d

level II, pulled 2 towards file a, swinging
4  . . . . ~ ~
3  . . . . ~ ~
2  . . . . ~ ~
1  . . . . ~ ~
   a b c d

level I, pulled 1 towards rank 4, swinging
4      . . . .
3      . . . .
2      P P P P
1      R K . .
       ~ ~ ~ ~
       a b c d
";
        assert!(text.starts_with(expected), "{text}");
    }

    #[test]
    fn boards_without_spread_pieces_keep_their_width() {
        let v = niels_for_tests();
        let pos = v.start().expect("setup");
        let text = render(&v, &pos, None, None, None);
        assert!(text.starts_with("8  r n b q k b n r\n"), "{text}");
        assert!(!text.contains("Spread pieces"), "{text}");
    }
}
