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
//! Below the board: the side to move, the hands (in variants with drops),
//! and, in variants with face-down pieces, what the viewer knows of each
//! player's face-down pieces ([`crate::session::Knowledge`]).

use crate::model::{Color, Game, KindId, LetterSet};
use crate::position::{color_of, kind_of, Position};
use crate::session::{HiddenKnowledge, Knowledge};
use crate::variant::Variant;

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
/// pool, no captured face-down pieces. [`crate::session::Session::knowledge`]
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
/// face-down pieces (from [`crate::session::Session::knowledge`]); without
/// it, what the position alone says. The text ends with a newline.
pub fn render(
    v: &Variant,
    pos: &Position,
    viewer: Option<Color>,
    letters: Option<&LetterSet>,
    knowledge: Option<&Knowledge>,
) -> String {
    let game = &v.game;
    let mut out = board(v, pos, viewer, letters);
    out.push('\n');
    let mover = player_name(game, pos.side);
    if v.in_check(pos) {
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
    out
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
fn board(v: &Variant, pos: &Position, viewer: Option<Color>, letters: Option<&LetterSet>) -> String {
    let game = &v.game;
    let geo = &game.geometry;
    let dims = geo.dims();
    let flipped = viewer == Some(1);
    let files = if dims >= 1 { geo.size(0) } else { 1 };
    let ranks = if dims >= 2 { geo.size(1) } else { 1 };
    let cell_width = if game.hidden.is_some() { 3 } else { 2 };
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
    let file_order: Vec<usize> = if flipped { (0..files).rev().collect() } else { (0..files).collect() };
    let rank_order: Vec<usize> = if flipped { (0..ranks).collect() } else { (0..ranks).rev().collect() };
    let mut out = String::new();
    let footer = {
        let mut s = " ".repeat(label_width + 2);
        for &f in &file_order {
            let l = if dims >= 1 { geo.axes[0].labels[f].as_str() } else { "" };
            s.push_str(&format!("{l:<cell_width$}"));
        }
        s.trim_end().to_string()
    };
    for (i, slice) in slices.iter().enumerate() {
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
            out.push('\n');
        }
        for &r in &rank_order {
            let mut line = format!("{:>label_width$}  ", rank_label(r));
            for &f in &file_order {
                let mut coords: Vec<i64> = Vec::with_capacity(dims);
                if dims >= 1 {
                    coords.push(f as i64);
                }
                if dims >= 2 {
                    coords.push(r as i64);
                }
                coords.extend(slice.iter().map(|&c| c as i64));
                let text = match geo.cell(&coords) {
                    None => String::new(),
                    Some(cell) => {
                        let code = pos.board[cell as usize];
                        if code == 0 {
                            ".".to_string()
                        } else {
                            let l = letter(game, kind_of(code), letters);
                            let mut s: String =
                                if color_of(code) == 0 { l.to_uppercase().collect() } else { l.to_lowercase().collect() };
                            if pos.is_hidden(cell) {
                                s.push('?');
                            }
                            s
                        }
                    }
                };
                line.push_str(&format!("{text:<cell_width$}"));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push_str(&footer);
        out.push('\n');
    }
    out
}
