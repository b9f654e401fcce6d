//! Positions as text: FEN, X-FEN and Shredder-FEN castling rights, pockets of
//! pieces in hand (`[QRp]`, promoted pieces marked `~`), face-down pieces
//! (a `?` after the letter, which is the piece's disguise) with the pools of
//! identities not yet drawn (`{QRRBBNNPPPPPPPPqrrbbnnpppppppp}` after the
//! board; without it, the pools are the face-down pieces' disguises), and the
//! extension for boards of more than two dimensions (levels separated by `|`,
//! last level first).
//!
//! Errors are [`Diagnostic`]s whose spans point into the FEN text.

use crate::geometry::{Cell, MAX_CELLS};
use crate::model::{CastlingSide, Color, Game};
use crate::movegen;
use crate::position::{code, color_of, kind_of, Position, NO_CELL, PROMOTED};
use crate::tables::Tables;
use rulebook_grammar::ast::Span;
use rulebook_grammar::Diagnostic;

/// Where a FEN came from, for diagnostics (e.g. `<--fen>` or a rules file's setup).
pub struct FenSource<'a> {
    /// The name shown in the report.
    pub name: &'a str,
    /// Byte offset of the FEN inside that source (0 for a stand-alone FEN).
    pub offset: usize,
}

fn err(src: &FenSource, start: usize, end: usize, msg: impl Into<String>, label: impl Into<String>) -> Diagnostic {
    Diagnostic::error(
        "E0301",
        src.name,
        Span::new(src.offset + start, src.offset + end.max(start + 1)),
        msg,
        label,
    )
}

/// The separator between slices of axis `a` (a ≥ 1): `/` for ranks, `|` for levels, `||` …
fn separator(a: usize) -> String {
    if a == 1 {
        "/".to_string()
    } else {
        "|".repeat(a - 1)
    }
}

/// Parses `text` as a position of `game`.
pub fn parse(game: &Game, t: &Tables, text: &str, src: &FenSource) -> Result<Position, Diagnostic> {
    let geo = &game.geometry;
    let mut pos = Position::empty();
    // Split into whitespace-separated fields, remembering offsets.
    let mut fields: Vec<(usize, &str)> = Vec::new();
    let mut i = 0;
    for part in text.split(' ') {
        if !part.is_empty() {
            fields.push((i, part));
        }
        i += part.len() + 1;
    }
    let Some(&(board_at, board_field)) = fields.first() else {
        return Err(err(src, 0, text.len(), "empty FEN", "expected a board here")
            .with_help("a FEN looks like `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`"));
    };
    // The pools of face-down identities: `{…}` at the very end of the board field.
    let (board_field, pool) = match board_field.find('{') {
        Some(open) => {
            let inner = board_field[open + 1..].strip_suffix('}');
            if inner.is_none_or(|i| i.contains(['{', '}'])) {
                return Err(err(src, board_at + open, board_at + board_field.len(), "bad pool of face-down identities", "expected `{` letters `}` at the end of the board")
                    .with_help("write the identities not yet drawn in braces after the board (and pocket), e.g. `{QRRBBNNPPPPPPPPqrrbbnnpppppppp}`"));
            }
            (&board_field[..open], Some((board_at + open + 1, &board_field[open + 1..board_field.len() - 1])))
        }
        None => (board_field, None),
    };
    // Pockets.
    let (placement, pocket) = match board_field.find('[') {
        Some(open) => {
            let Some(close) = board_field.rfind(']') else {
                return Err(err(src, board_at + open, board_at + open + 1, "unclosed pocket", "this `[` has no `]`")
                    .with_help("write the pieces in hand in brackets after the board, e.g. `[QNp]`"));
            };
            if close + 1 != board_field.len() {
                return Err(err(src, board_at + close + 1, board_at + board_field.len(), "text after the pocket", "nothing may follow `]`")
                    .with_help("the pocket ends the board field; leave a space before the side to move"));
            }
            if close < open {
                return Err(err(src, board_at + close, board_at + close + 1, "unmatched `]`", "before the `[`"));
            }
            (&board_field[..open], Some((board_at + open + 1, &board_field[open + 1..close])))
        }
        None => (board_field, None),
    };
    let dims = geo.dims();
    let mut coords = vec![0usize; dims];
    parse_slice(game, t, &mut pos, placement, board_at, dims - 1, &mut coords, src)?;
    if let Some((at, pocket)) = pocket {
        if game.hand.is_none() && !pocket.is_empty() {
            return Err(err(src, at, at + pocket.len(), "this variant has no pieces in hand", "pocket given here")
                .with_help("remove the bracketed pocket"));
        }
        for (j, ch) in pocket.char_indices() {
            let Some(kind) = game.kind_by_letter(ch) else {
                return Err(unknown_letter(game, src, at + j, ch));
            };
            let color: Color = if ch.is_ascii_uppercase() { 0 } else { 1 };
            let slot = &mut pos.hand[color as usize][kind as usize];
            *slot = slot.saturating_add(1);
        }
    }

    read_pools(game, &mut pos, pool, src, board_at, board_field.len())?;

    // Side to move.
    pos.side = match fields.get(1) {
        None => 0,
        Some(&(_, "w")) => 0,
        Some(&(_, "b")) => 1,
        Some(&(at, s)) => {
            return Err(err(src, at, at + s.len(), format!("`{s}` is not a side to move"), "expected `w` or `b`")
                .with_help("the second field says who moves: `w` (first player) or `b` (second)"))
        }
    };

    // Castling rights.
    if let Some(&(at, s)) = fields.get(2) {
        if s != "-" {
            for (j, ch) in s.char_indices() {
                set_castling_right(game, &mut pos, ch, src, at + j)?;
            }
        }
    }

    // En passant.
    if let Some(&(at, s)) = fields.get(3) {
        if s != "-" {
            let bad = |why: &str| {
                err(src, at, at + s.len(), format!("bad en-passant square `{s}`"), why.to_string())
                    .with_help("the fourth field is `-` or the square a pawn passed over, e.g. `e3`")
            };
            let mover = pos.side ^ 1;
            let (axis, sign) = game.players[mover as usize]
                .forward()
                .ok_or_else(|| bad("this variant has no forward direction, so no en passant"))?;
            let mut step = vec![0i32; dims];
            step[axis] = sign as i32;
            // One square, or (extension) several passed squares in the mover's
            // direction separated by commas, e.g. `e3,e4` after a triple step.
            let names: Vec<&str> = s.split(',').collect();
            if names.len() > pos.ep_targets.len() {
                return Err(bad("at most four passed squares"));
            }
            let mut previous: Option<Cell> = None;
            for (i, name) in names.iter().enumerate() {
                let target = geo.parse_square(name).ok_or_else(|| bad("not a square of this board"))?;
                if previous.is_some_and(|p| geo.offset(p, &step) != Some(target)) {
                    return Err(bad("passed squares must follow each other in the mover's direction"));
                }
                if pos.board[target as usize] != 0 {
                    return Err(bad("a passed square must be empty"));
                }
                pos.ep_targets[i] = target;
                previous = Some(target);
            }
            let last = previous.ok_or_else(|| bad("no square given"))?;
            let victim = geo.offset(last, &step).ok_or_else(|| bad("no square beyond it"))?;
            let vcode = pos.board[victim as usize];
            if vcode == 0 || color_of(vcode) != mover {
                return Err(bad("no piece that just passed over this square"));
            }
            pos.ep_len = names.len() as u8;
            pos.ep_victim = victim;
        }
    }

    // Counters.
    for (n, slot) in [(4usize, &mut pos.halfmove), (5, &mut pos.fullmove)] {
        if let Some(&(at, s)) = fields.get(n) {
            *slot = s.parse::<u32>().map_err(|_| {
                err(src, at, at + s.len(), format!("`{s}` is not a move counter"), "expected a number")
                    .with_help("the last two fields are the half-move clock and the move number")
            })?;
        }
    }
    if let Some(&(at, s)) = fields.get(6) {
        return Err(err(src, at, at + s.len(), "unexpected text after the FEN", "nothing may follow the move number"));
    }

    validate(game, t, &pos, src, board_at, board_field.len())?;
    Ok(pos)
}

#[allow(clippy::too_many_arguments)]
fn parse_slice(
    game: &Game,
    t: &Tables,
    pos: &mut Position,
    text: &str,
    at: usize,
    axis: usize,
    coords: &mut Vec<usize>,
    src: &FenSource,
) -> Result<(), Diagnostic> {
    let geo = &game.geometry;
    if axis == 0 {
        // One rank: letters and digit runs.
        let n = geo.size(0);
        let mut x = 0usize;
        let bytes = text.as_bytes();
        let mut j = 0;
        while j < bytes.len() {
            let ch = bytes[j] as char;
            if ch.is_ascii_digit() {
                let start = j;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                let run: usize = text[start..j].parse().unwrap_or(usize::MAX);
                if x.saturating_add(run) > n {
                    return Err(err(src, at + start, at + j, "rank too long", format!("this run goes past the {n} files"))
                        .with_help(format!("each rank describes exactly {n} squares")));
                }
                for step in 0..run {
                    coords[0] = x + step;
                    if cell_at(geo, coords).is_none() {
                        return Err(err(src, at + start, at + j, "empty squares run over a hole", format!("{} is a hole", square_name(geo, coords)))
                            .with_help("write `*` for each hole and count only real squares with digits"));
                    }
                }
                x += run;
                continue;
            }
            if ch == '*' {
                coords[0] = x;
                if x >= n || cell_at(geo, coords).is_some() {
                    return Err(err(src, at + j, at + j + 1, "`*` on a square that is not a hole", "not a hole")
                        .with_help("`*` marks a hole of the board; count empty squares with digits"));
                }
                x += 1;
                j += 1;
                continue;
            }
            let Some(kind) = game.kind_by_letter(ch) else {
                return Err(unknown_letter(game, src, at + j, ch));
            };
            if x >= n {
                return Err(err(src, at + j, at + j + 1, "rank too long", format!("this piece is beyond the {n} files"))
                    .with_help(format!("each rank describes exactly {n} squares")));
            }
            coords[0] = x;
            let cs: Vec<i64> = coords.iter().map(|&c| c as i64).collect();
            let Some(cell) = geo.cell(&cs) else {
                return Err(err(src, at + j, at + j + 1, "piece on a hole", "this square is not part of the board")
                    .with_help("write `*` for a hole"));
            };
            let color: Color = if ch.is_ascii_uppercase() { 0 } else { 1 };
            let mut c = code(kind, color);
            if bytes.get(j + 1) == Some(&b'~') {
                c |= PROMOTED;
                j += 1;
            }
            pos.put(cell, c, t);
            if bytes.get(j + 1) == Some(&b'?') {
                if game.hidden.is_none() {
                    return Err(err(src, at + j + 1, at + j + 2, "this variant has no face-down pieces", "`?` marks a face-down piece")
                        .with_help("remove the `?`; only variants with a `hidden` block have face-down pieces"));
                }
                if game.kinds[kind as usize].royal {
                    return Err(err(src, at + j, at + j + 2, "a royal piece cannot stand face down", "face-down royal piece")
                        .with_help("royal pieces stand open: remove the `?`"));
                }
                pos.set_hidden(cell, true);
                j += 1;
            }
            x += 1;
            j += 1;
        }
        if x != n {
            return Err(err(src, at, at + text.len(), "rank too short", format!("describes {x} of {n} squares"))
                .with_help(format!("each rank describes exactly {n} squares; count empty squares with digits")));
        }
        return Ok(());
    }
    let sep = separator(axis);
    let n = geo.size(axis);
    let slices: Vec<&str> = text.split(sep.as_str()).collect();
    if slices.len() != n {
        let what = &geo.axes[axis].name;
        return Err(err(src, at, at + text.len(), format!("expected {n} {what}s, found {}", slices.len()), format!("{} {what}s here", slices.len()))
            .with_help(format!("separate the {what}s with `{sep}`, the last {what} first")));
    }
    let mut off = at;
    for (i, slice) in slices.iter().enumerate() {
        coords[axis] = n - 1 - i;
        parse_slice(game, t, pos, slice, off, axis - 1, coords, src)?;
        off += slice.len() + sep.len();
    }
    Ok(())
}

fn cell_at(geo: &crate::geometry::Geometry, coords: &[usize]) -> Option<Cell> {
    let cs: Vec<i64> = coords.iter().map(|&c| c as i64).collect();
    geo.cell(&cs)
}

/// The label of a grid point, hole or not (for messages).
fn square_name(geo: &crate::geometry::Geometry, coords: &[usize]) -> String {
    geo.name_order().into_iter().map(|a| geo.axes[a].labels[coords[a]].as_str()).collect()
}

fn unknown_letter(game: &Game, src: &FenSource, at: usize, ch: char) -> Diagnostic {
    let letters: String = game.kinds.iter().map(|k| k.letter).collect();
    err(src, at, at + ch.len_utf8(), format!("unknown piece letter `{ch}`"), "no piece of this variant has this letter")
        .with_help(format!("this variant's pieces are {letters} (white upper case, black lower case)"))
}

fn set_castling_right(game: &Game, pos: &mut Position, ch: char, src: &FenSource, at: usize) -> Result<(), Diagnostic> {
    let bad = |why: String| {
        err(src, at, at + ch.len_utf8(), format!("bad castling right `{ch}`"), why)
            .with_help("castling rights are `-`, or K Q k q (X-FEN), or the rook files such as HAha (Shredder-FEN)")
    };
    let Some(rule) = &game.castling else {
        return Err(bad("this variant has no castling".into()));
    };
    let geo = &game.geometry;
    let color: Color = if ch.is_ascii_uppercase() { 0 } else { 1 };
    let king = pos.royal[color as usize];
    if pos.royal_count[color as usize] != 1 || kind_of(pos.board[king as usize]) != rule.king {
        return Err(bad("there is no single castling king of that side".into()));
    }
    let kc = geo.coords(king);
    let rook_code = code(rule.rook, color);
    let up = ch.to_ascii_uppercase();
    let rook = match up {
        'K' | 'Q' => {
            let short = up == 'K';
            // The outermost partner on that side of the king, on its rank.
            let files: Vec<usize> = if short {
                (kc[0] + 1..geo.size(0)).rev().collect()
            } else {
                (0..kc[0]).collect()
            };
            files.into_iter().find_map(|f| {
                let mut p: Vec<i64> = kc.iter().map(|&c| c as i64).collect();
                p[0] = f as i64;
                geo.cell(&p).filter(|&c| pos.board[c as usize] == rook_code)
            })
        }
        _ => {
            let file = geo.axes[0].labels.iter().position(|l| l.eq_ignore_ascii_case(&ch.to_string()));
            file.and_then(|f| {
                let mut p: Vec<i64> = kc.iter().map(|&c| c as i64).collect();
                p[0] = f as i64;
                geo.cell(&p).filter(|&c| pos.board[c as usize] == rook_code)
            })
        }
    };
    let Some(rook) = rook else {
        return Err(bad(format!("no {} of that side stands there on the king's rank", game.kinds[rule.rook as usize].name)));
    };
    let short = geo.coords(rook)[0] > kc[0];
    // Every side written for this direction shares its right (slot 0 short, 1 long).
    let sides: Vec<&CastlingSide> = rule.sides.iter().filter(|s| s.short == short).collect();
    let Some(side) = sides.first() else {
        return Err(bad("this variant has no castling to that side".into()));
    };
    // The destinations must be on the king's rank for this right to make sense.
    if !sides.iter().any(|s| geo.coords(s.king_to[color as usize])[1..] == kc[1..]) {
        return Err(bad("the king is not on its castling rank".into()));
    }
    pos.castling[color as usize][side.slot()] = rook;
    Ok(())
}

/// Fills the pools from the `{…}` field, or, without one, with the
/// disguises of the face-down pieces (nothing drawn yet). Each player's pool
/// must hold exactly as many identities as that player has face-down pieces.
fn read_pools(game: &Game, pos: &mut Position, pool: Option<(usize, &str)>, src: &FenSource, at: usize, len: usize) -> Result<(), Diagnostic> {
    let mut hidden_count = [0u32; 2];
    for cell in 0..MAX_CELLS as Cell {
        if pos.is_hidden(cell) {
            let code = pos.board[cell as usize];
            hidden_count[color_of(code) as usize] += 1;
            if pool.is_none() {
                pos.pool[color_of(code) as usize][kind_of(code) as usize] += 1;
            }
        }
    }
    let Some((pool_at, text)) = pool else { return Ok(()) };
    if game.hidden.is_none() && !text.is_empty() {
        return Err(err(src, pool_at, pool_at + text.len(), "this variant has no face-down pieces", "pool given here")
            .with_help("remove the braced pool"));
    }
    for (j, ch) in text.char_indices() {
        let Some(kind) = game.kind_by_letter(ch) else {
            return Err(unknown_letter(game, src, pool_at + j, ch));
        };
        if game.kinds[kind as usize].royal {
            return Err(err(src, pool_at + j, pool_at + j + 1, "a royal piece cannot be a face-down identity", "royal piece in a pool")
                .with_help("royal pieces stand open; remove it from the pool"));
        }
        let color: Color = if ch.is_ascii_uppercase() { 0 } else { 1 };
        let slot = &mut pos.pool[color as usize][kind as usize];
        *slot = slot.saturating_add(1);
    }
    for color in 0..2u8 {
        if pos.pool_size(color) != hidden_count[color as usize] {
            let who = &game.players[color as usize].name;
            return Err(err(src, at, at + len,
                format!("{who} has {} face-down pieces but {} identities in the pool", hidden_count[color as usize], pos.pool_size(color)),
                "in this board")
                .with_help("each face-down piece has one identity not yet drawn: the pool holds as many as there are face-down pieces"));
        }
    }
    Ok(())
}

/// Turns face down every face-up piece of the kinds `hidden { pieces … }`
/// lists (the setup's face-down pieces), adding each one's disguise to its
/// owner's pool.
pub fn hide_setup(game: &Game, t: &Tables, pos: &mut Position) {
    let Some(hidden) = &game.hidden else { return };
    for color in 0..2u8 {
        let cells: Vec<Cell> = pos.cells_of(color, t.nwords).collect();
        for cell in cells {
            let kind = kind_of(pos.board[cell as usize]);
            if !pos.is_hidden(cell) && hidden.kinds.contains(&kind) && !game.kinds[kind as usize].royal {
                pos.set_hidden(cell, true);
                pos.pool[color as usize][kind as usize] += 1;
            }
        }
    }
}

fn validate(game: &Game, t: &Tables, pos: &Position, src: &FenSource, at: usize, len: usize) -> Result<(), Diagnostic> {
    let has_royal = game.kinds.iter().any(|k| k.royal);
    for color in 0..2u8 {
        if has_royal && pos.royal_count[color as usize] == 0 {
            let who = &game.players[color as usize].name;
            return Err(err(src, at, at + len, format!("{who} has no royal piece"), "in this board")
                .with_help("every side needs its king (a `royal` piece)"));
        }
    }
    for color in 0..2u8 {
        for c in pos.cells_of(color, t.nwords) {
            let kind = kind_of(pos.board[c as usize]);
            let kc = kind as usize * 2 + color as usize;
            if t.promo_zone[kc * t.ncells + c as usize] != 0 {
                return Err(err(src, at, at + len,
                    format!("{} on {} stands where it must have promoted", game.kinds[kind as usize].name, game.geometry.name(c)),
                    "in this board")
                    .with_help("a piece that promotes cannot stand in its promotion zone"));
            }
        }
    }
    if movegen::royal_attacked(game, t, pos, pos.side ^ 1) {
        let who = &game.players[(pos.side ^ 1) as usize].name;
        return Err(err(src, at, at + len, format!("{who} is in check but it is not their move"), "in this board")
            .with_help("the side that just moved cannot have left its king attacked; check the side to move"));
    }
    Ok(())
}

/// Writes `pos` as FEN (X-FEN castling rights where unambiguous, else rook files).
pub fn write(game: &Game, pos: &Position) -> String {
    let geo = &game.geometry;
    let mut out = String::new();
    let mut coords = vec![0usize; geo.dims()];
    write_slice(game, pos, geo.dims() - 1, &mut coords, &mut out);
    if game.hand.is_some() {
        out.push('[');
        for color in 0..2 {
            for (k, kind) in game.kinds.iter().enumerate() {
                for _ in 0..pos.hand[color][k] {
                    out.push(if color == 0 { kind.letter } else { kind.letter.to_ascii_lowercase() });
                }
            }
        }
        out.push(']');
    }
    if pos.any_hidden() {
        out.push('{');
        for color in 0..2 {
            for (k, kind) in game.kinds.iter().enumerate() {
                for _ in 0..pos.pool[color][k] {
                    out.push(if color == 0 { kind.letter } else { kind.letter.to_ascii_lowercase() });
                }
            }
        }
        out.push('}');
    }
    out.push_str(if pos.side == 0 { " w " } else { " b " });
    let mut rights = String::new();
    if let Some(rule) = &game.castling {
        for color in 0..2u8 {
            // Slot 0 is the short right, slot 1 the long one: short first.
            for (slot, &r) in pos.castling[color as usize].iter().enumerate() {
                if r == NO_CELL || !rule.sides.iter().any(|s| s.slot() == slot) {
                    continue;
                }
                let short = slot == 0;
                let letter = if outermost(game, pos, r, color, short) {
                    if short { 'K' } else { 'Q' }
                } else {
                    geo.axes[0].labels[geo.coords(r)[0]].chars().next().unwrap_or('?').to_ascii_uppercase()
                };
                rights.push(if color == 0 { letter } else { letter.to_ascii_lowercase() });
            }
        }
    }
    out.push_str(if rights.is_empty() { "-" } else { &rights });
    out.push(' ');
    if pos.ep_len > 0 {
        let names: Vec<String> = pos.ep_targets[..pos.ep_len as usize].iter().map(|&c| geo.name(c)).collect();
        out.push_str(&names.join(","));
    } else {
        out.push('-');
    }
    out.push_str(&format!(" {} {}", pos.halfmove, pos.fullmove));
    out
}

fn outermost(game: &Game, pos: &Position, rook: Cell, color: Color, short: bool) -> bool {
    let geo = &game.geometry;
    let rc = geo.coords(rook);
    let Some(rule) = &game.castling else { return false };
    let rook_code = code(rule.rook, color);
    let files: Vec<usize> = if short { (rc[0] + 1..geo.size(0)).collect() } else { (0..rc[0]).collect() };
    !files.into_iter().any(|f| {
        let mut p: Vec<i64> = rc.iter().map(|&c| c as i64).collect();
        p[0] = f as i64;
        geo.cell(&p).is_some_and(|c| pos.board[c as usize] == rook_code)
    })
}

fn write_slice(game: &Game, pos: &Position, axis: usize, coords: &mut Vec<usize>, out: &mut String) {
    let geo = &game.geometry;
    if axis == 0 {
        let mut empty = 0;
        for x in 0..geo.size(0) {
            coords[0] = x;
            let cs: Vec<i64> = coords.iter().map(|&c| c as i64).collect();
            match geo.cell(&cs) {
                None => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push('*');
                }
                Some(cell) => {
                    let c = pos.board[cell as usize];
                    if c == 0 {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let letter = game.kinds[kind_of(c) as usize].letter;
                        out.push(if color_of(c) == 0 { letter } else { letter.to_ascii_lowercase() });
                        if c & PROMOTED != 0 && game.hand.is_some() {
                            out.push('~');
                        }
                        if pos.is_hidden(cell) {
                            out.push('?');
                        }
                    }
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        return;
    }
    let n = geo.size(axis);
    for i in 0..n {
        if i > 0 {
            out.push_str(&separator(axis));
        }
        coords[axis] = n - 1 - i;
        write_slice(game, pos, axis - 1, coords, out);
    }
}
