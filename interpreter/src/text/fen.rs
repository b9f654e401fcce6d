//! Positions as text: FEN, X-FEN and Shredder-FEN castling rights, pockets of
//! pieces in hand (`[QRp]`, or as one more rank after the last: `…/4K3/Qn`;
//! promoted pieces marked `~`), face-down pieces
//! (a `?` after the letter, which is the piece's disguise) with the pools of
//! identities not yet drawn (`{QRRBBNNPPPPPPPPqrrbbnnpppppppp}` after the
//! board; without it, the pools are the face-down pieces' disguises), and the
//! extension for boards of more than two dimensions (levels separated by `|`,
//! last level first), and one trailing extension field `{key=value …}` for
//! the state beyond a board (`frame=`: sliding levels; see [`EXTENSION`]).
//!
//! Errors are [`Diagnostic`]s whose spans point into the FEN text.

use crate::model::geometry::{Cell, MAX_CELLS};
use crate::model::{CastlingSide, Color, Game};
use crate::engine::movegen;
use crate::engine::position::{code, color_of, kind_of, Position, NO_CELL, PROMOTED, WALL};
use crate::engine::spread::{Pair, SpreadState};
use crate::engine::tables::Tables;
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

/// Diagnostic code: the spread field (` ~ ` and its units) is malformed or
/// names something the variant does not have (a piece letter, a square, a
/// weight, a group label), or the variant has no spread pieces.
pub const SPREAD_SYNTAX: &str = "E0302";
/// Diagnostic code: a spread piece's cells do not match the board (a half's
/// cell does not hold the piece's letter, both halves on one cell, a cell in
/// two pairs, a face-down half).
pub const SPREAD_CELLS: &str = "E0303";
/// Diagnostic code: the spread units are inconsistent (a group label on a
/// single pair, one label on two units).
pub const SPREAD_UNITS: &str = "E0304";

/// Diagnostic code: the trailing extension field (`{key=value …}`) is
/// malformed (not closed, an entry without `=`, an unknown or repeated key)
/// or one of its values is wrong for the variant (e.g. `frame=` naming a
/// level that does not slide).
pub const EXTENSION: &str = "E0305";

/// A FEN error with the code `code` (rather than `E0301`).
fn err_code(src: &FenSource, code: &'static str, start: usize, end: usize, msg: impl Into<String>, label: impl Into<String>) -> Diagnostic {
    let mut d = err(src, start, end, msg, label);
    d.code = code;
    d
}

fn spread_err(src: &FenSource, start: usize, end: usize, msg: impl Into<String>, label: impl Into<String>) -> Diagnostic {
    err_code(src, SPREAD_SYNTAX, start, end, msg, label)
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
    // The extension field: `{key=value …}`, the last thing in the text.
    let extension = match fields.iter().skip(1).position(|(_, f)| f.starts_with('{')) {
        Some(i) => {
            let (at, _) = fields[i + 1];
            fields.truncate(i + 1);
            Some(split_extension(&text[at..], at, src)?)
        }
        None => None,
    };
    // The spread pieces: ` ~ ` and one field per unit, after the usual fields.
    let spread_fields = match fields.iter().position(|&(_, f)| f == "~") {
        Some(tilde) if tilde > 0 => fields.split_off(tilde),
        _ => Vec::new(),
    };
    // Checks given, where a rule counts them (issue 17), in either of
    // Fairy-Stockfish's forms: the checks still needed (`2+3`) after the
    // en-passant field, or the checks given (`+1+0`) at the end.
    let checks = match game.check_count_limit() {
        Some(limit) => match fields.iter().enumerate().skip(4).find_map(|(k, (_, f))| check_counts(f).map(|c| (k, c))) {
            Some((k, (white, black, given))) => {
                let (at, f) = fields.remove(k);
                let to_given = |n: u32| if given { n } else { limit.saturating_sub(n) };
                let (white, black) = (to_given(white), to_given(black));
                if white > 255 || black > 255 {
                    return Err(err(src, at, at + f.len(), format!("bad check counts `{f}`"), "at most 255 checks each"));
                }
                [white as u8, black as u8]
            }
            None => [0, 0],
        },
        None => [0, 0],
    };
    // Fairy-Stockfish's short form for variants without castling or en
    // passant (shogi): `w 0 1`, the clocks straight after the side to move.
    let number = |f: &str| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit());
    if fields.len() == 4 && number(fields[2].1) && number(fields[3].1) {
        let at = fields[2].0;
        fields.splice(2..2, [(at, "-"), (at, "-")]);
    }
    if let Some(&(at, f)) = fields.iter().skip(1).find(|(_, f)| f.starts_with('~')) {
        return Err(spread_err(src, at, at + f.len(), "the spread field needs spaces around `~`", "`~` glued to what follows")
            .with_help("write the spread pieces after the move number as ` ~ ` and one field per unit, e.g. `… 0 1 ~ Nd4g5:equal`"));
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
        // Fairy-Stockfish's other form: on a 2D board of a variant with
        // hands, the pocket as one more rank after the last (`…/4K3/Qn`).
        None if game.hand.is_some() && geo.dims() == 2 && board_field.matches('/').count() == geo.size(geo.dims() - 1) => {
            let cut = board_field.rfind('/').unwrap_or(0);
            (&board_field[..cut], Some((board_at + cut + 1, &board_field[cut + 1..])))
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
        // Fairy-Stockfish writes an empty pocket `[-]`.
        let pocket = if pocket == "-" { "" } else { pocket };
        for (j, ch) in pocket.char_indices() {
            let Some(kind) = game.kind_by_letter(ch) else {
                if ch == '+' {
                    return Err(err(src, at + j, at + j + 1, "a promoted piece cannot be in hand", "`+` in the pocket")
                        .with_help("a captured promoted piece joins the hand as its unpromoted kind: write its letter without `+`"));
                }
                return Err(unknown_letter(game, src, at + j, ch));
            };
            // A phase placing from the hand may place the royal piece too.
            if game.kinds[kind as usize].royal && game.phases.is_empty() {
                return Err(err(src, at + j, at + j + ch.len_utf8(), "a royal piece cannot be in hand", "royal piece in the pocket")
                    .with_help("royal pieces are never captured, so never in hand: remove it from the brackets"));
            }
            let color: Color = if ch.is_ascii_uppercase() { 0 } else { 1 };
            let slot = &mut pos.hand[color as usize][kind as usize];
            *slot = slot.saturating_add(1);
        }
    }

    read_pools(game, &mut pos, pool, src, board_at, board_field.len())?;
    read_spread(game, &mut pos, &spread_fields, src)?;

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

    // Castling rights, and first-move rights where the rules use them.
    if let Some(&(at, s)) = fields.get(2) {
        if s != "-" {
            for (j, ch) in s.char_indices() {
                if t.first_move_rights {
                    set_first_move_right(game, t, &mut pos, ch, src, at + j)?;
                } else {
                    set_castling_right(game, t, &mut pos, ch, src, at + j)?;
                }
            }
            if t.first_move_rights {
                castling_from_first_move_rights(game, t, &mut pos);
            }
        }
    }

    // En passant. Fairy-Stockfish writes a counting-rule limit here in the
    // makruk family (`DEe 0 0 5`): a number, no square, read as none.
    if let Some(&(at, s)) = fields.get(3) {
        if s != "-" && !(fields.len() == 6 && s.bytes().all(|b| b.is_ascii_digit())) {
            let bad = |why: &str| {
                err(src, at, at + s.len(), format!("bad en-passant square `{s}`"), why.to_string())
                    .with_help("the fourth field is `-` or the square a pawn passed over, e.g. `e3`")
            };
            let mover = pos.side ^ 1;
            // One square, or (extension) several passed squares separated by
            // commas, e.g. `e3,e4` after a triple step; Fairy-Stockfish writes
            // them back to back (`c5d6`) and may add the square of the piece
            // that passed over them (its "marked" piece), which settles which
            // piece an en-passant capture takes.
            let mut squares = Vec::new();
            for name in s.split(',') {
                squares.extend(split_squares(geo, name).ok_or_else(|| bad("not a square of this board"))?);
            }
            let (marked, passed): (Vec<Cell>, Vec<Cell>) = squares.into_iter().partition(|&c| pos.board[c as usize] != 0);
            if passed.is_empty() || passed.len() > pos.ep_targets.len() {
                return Err(bad("one to four passed squares, which must be empty"));
            }
            let marked = match marked[..] {
                [] => None,
                [c] if color_of(pos.board[c as usize]) == mover => Some(c),
                _ => return Err(bad("a passed square must be empty")),
            };
            let victim = ep_victims(game, &pos, &passed, mover)
                .find(|&v| marked.is_none_or(|m| m == v))
                .ok_or_else(|| bad("no piece that just passed over this square"))?;
            for (slot, &target) in pos.ep_targets.iter_mut().zip(&passed) {
                *slot = target;
            }
            pos.ep_len = passed.len() as u8;
            pos.ep_victim = victim;
        }
    }

    pos.checks = checks;

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

    if let Some(entries) = &extension {
        read_extension(game, &mut pos, entries, src)?;
    }
    // The flow state (phase, obligations): derived where the text does not give it.
    let had_phase = extension.as_ref().is_some_and(|es| es.iter().any(|e| e.key == "phase"));
    crate::flow::text::finish(game, &mut pos, had_phase);
    if let Some(msg) = crate::flow::phase::hand_mismatch(game, &pos) {
        let (at, len) = pocket.map_or((board_at, board_field.len()), |(a, p)| (a, p.len()));
        return Err(err(src, at, at + len.max(1), msg, "in the pocket")
            .with_help("in a phase with a placement order, each hand holds exactly the pieces the order has still to place: its last entries"));
    }
    // A frame out of rest has tables of its own (the check test follows the frame).
    // (Built for this test alone: a frame's tables keep the game they build their rays from.)
    let framed = crate::engine::frame::offsets_of(&pos).map(|o| Tables::for_frame(&std::sync::Arc::new(game.clone()), &o, t));
    validate(game, framed.as_ref().unwrap_or(t), &pos, src, board_at, board_field.len())?;
    Ok(pos)
}

/// One `key=value` entry of the extension field, with the offsets (in the
/// whole text) of the key and of the value.
pub struct ExtensionEntry<'a> {
    /// The key (`frame`).
    pub key: &'a str,
    /// Where the key starts.
    pub key_at: usize,
    /// The value (`IV:+7<+7*`).
    pub value: &'a str,
    /// Where the value starts.
    pub value_at: usize,
}

/// Splits the extension field `{key=value key=value}` (starting at byte
/// `at` of the text, and running to its end) into its entries.
fn split_extension<'a>(field: &'a str, at: usize, src: &FenSource) -> Result<Vec<ExtensionEntry<'a>>, Diagnostic> {
    let ext = |s: usize, e: usize, msg: String, label: &str| {
        err_code(src, EXTENSION, s, e, msg, label.to_string())
            .with_help("the extension field is the last field: `{` then `key=value` entries separated by spaces, then `}`, e.g. `{frame=IV:+7<+7*}`")
    };
    let trimmed = field.trim_end();
    let Some(inner) = trimmed.strip_prefix('{').and_then(|f| f.strip_suffix('}')) else {
        return Err(ext(at, at + field.len(), "the extension field is not closed".into(), "expected `}` at the end of the text"));
    };
    if let Some(j) = inner.find(['{', '}']) {
        return Err(ext(at + 1 + j, at + 2 + j, "a brace inside the extension field".into(), "unexpected brace"));
    }
    let mut entries: Vec<ExtensionEntry> = Vec::new();
    let mut off = at + 1;
    for word in inner.split(' ') {
        let here = off;
        off += word.len() + 1;
        if word.is_empty() {
            continue;
        }
        let Some((key, value)) = word.split_once('=') else {
            return Err(ext(here, here + word.len(), format!("`{word}` is not `key=value`"), "expected `key=value`"));
        };
        if let Some(first) = entries.iter().find(|e| e.key == key) {
            return Err(ext(here, here + key.len(), format!("`{key}` is given twice"), "given again here")
                .with_note(Span::new(src.offset + first.key_at, src.offset + first.key_at + key.len()), "first given here"));
        }
        entries.push(ExtensionEntry { key, key_at: here, value, value_at: here + key.len() + 1 });
    }
    Ok(entries)
}

/// Reads the entries of the extension field into `pos` (after every other field).
fn read_extension(game: &Game, pos: &mut Position, entries: &[ExtensionEntry], src: &FenSource) -> Result<(), Diagnostic> {
    for e in entries {
        match e.key {
            "frame" => {
                pos.frame = crate::engine::frame::parse(game, e.value)
                    .map_err(|x| {
                        err_code(src, EXTENSION, e.value_at + x.start, e.value_at + x.end, format!("bad frame: {}", x.message), "in this level's state")
                            .with_help("`frame=` lists the levels out of rest: `LEVEL:OFFSET`, then for a swinging level `<PEAK` or `>PEAK`, `/N` overshoots begun, `*` while it waits, e.g. `frame=IV:+7<+7*,I:-2>-6/1`")
                    })?
                    .map(Box::new);
            }
            "passed" => {
                // The players whose last move was a pass: `w`, `b` or `wb`.
                for (i, ch) in e.value.char_indices() {
                    match ch {
                        'w' => pos.passed[0] = true,
                        'b' => pos.passed[1] = true,
                        _ => {
                            return Err(err_code(src, EXTENSION, e.value_at + i, e.value_at + i + ch.len_utf8(), format!("bad `passed`: `{ch}`"), "not a player")
                                .with_help("`passed=` lists the players whose last move was a pass: `w`, `b` or `wb`"))
                        }
                    }
                }
            }
            key if crate::flow::text::KEYS.contains(&key) => {
                if let Some(Err(x)) = crate::flow::text::read_key(game, pos, key, e.value) {
                    return Err(err_code(src, EXTENSION, e.value_at + x.start, e.value_at + x.end, format!("bad `{key}`: {}", x.message), "here")
                        .with_help("`phase=` names a phase of the variant or `play`; `oblige=` lists obligations such as `w:relocate!,b:move?` (player, action kind, `!` compulsory or `?` optional); `out=` the pieces out of play such as `PIVd4>w~IV@-3:IVd4+IVe4`; `waived=` rules waived in the ply such as `2w`"));
                }
            }
            _ => {
                return Err(err_code(src, EXTENSION, e.key_at, e.key_at + e.key.len(), format!("unknown key `{}` in the extension field", e.key), "not a key of the position text")
                    .with_help("the extension field's keys are: `frame`, `phase`, `oblige`, `out`, `waived`, `passed`"));
            }
        }
    }
    Ok(())
}

/// Writes the extension field (` {key=value …}`) of `pos`, or nothing when
/// every entry would be empty (a position of a classical game has none).
fn write_extension(game: &Game, pos: &Position, out: &mut String) {
    let mut entries: Vec<(&str, String)> = Vec::new();
    if let Some(frame) = &pos.frame {
        entries.push(("frame", crate::engine::frame::write(game, frame)));
    }
    entries.extend(crate::flow::text::write_keys(game, pos));
    if pos.passed.iter().any(|&p| p) {
        // Who passed last (`pass` in a piece): rules may ask (`mover passed`).
        let who: String = pos.passed.iter().zip(['w', 'b']).filter(|(p, _)| **p).map(|(_, c)| c).collect();
        entries.push(("passed", who));
    }
    if entries.is_empty() {
        return;
    }
    out.push_str(" {");
    for (i, (key, value)) in entries.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(key);
        out.push('=');
        out.push_str(value);
    }
    out.push('}');
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
                if let (true, Some(cell)) = (game.players.iter().any(|p| p.wall.is_some()), cell_at(geo, coords).filter(|_| x < n)) {
                    // A wall (duck chess, amazons) on a square of the board.
                    pos.set_wall(cell);
                    x += 1;
                    j += 1;
                    continue;
                }
                if x >= n || cell_at(geo, coords).is_some() {
                    return Err(err(src, at + j, at + j + 1, "`*` on a square that is not a hole", "not a hole")
                        .with_help("`*` marks a hole of the board; count empty squares with digits"));
                }
                x += 1;
                j += 1;
                continue;
            }
            // `+P`: the promoted form of `P` (a kind written `+P`).
            let plus = ch == '+';
            let start = j;
            let ch = if plus {
                j += 1;
                match bytes.get(j) {
                    Some(b) if b.is_ascii_alphabetic() => *b as char,
                    _ => {
                        return Err(err(src, at + start, at + start + 1, "`+` without a piece letter", "expected a letter after `+`")
                            .with_help("`+P` is the promoted form of the piece lettered `P`"))
                    }
                }
            } else {
                ch
            };
            let found = if plus { game.kind_by_plus_letter(ch) } else { game.kind_by_letter(ch) };
            let Some(kind) = found else {
                if plus {
                    return Err(err(src, at + start, at + j + 1, format!("unknown promoted piece `+{ch}`"), "no piece of this variant is written so")
                        .with_help("only a piece defined with a `+` letter (`piece Tokin +P`) is written with `+` in FEN"));
                }
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

fn cell_at(geo: &crate::model::geometry::Geometry, coords: &[usize]) -> Option<Cell> {
    let cs: Vec<i64> = coords.iter().map(|&c| c as i64).collect();
    geo.cell(&cs)
}

/// The label of a grid point, hole or not (for messages).
fn square_name(geo: &crate::model::geometry::Geometry, coords: &[usize]) -> String {
    geo.name_order().into_iter().map(|a| geo.axes[a].labels[coords[a]].as_str()).collect()
}

fn unknown_letter(game: &Game, src: &FenSource, at: usize, ch: char) -> Diagnostic {
    let letters: String = game.kinds.iter().map(|k| k.letter).collect();
    err(src, at, at + ch.len_utf8(), format!("unknown piece letter `{ch}`"), "no piece of this variant has this letter")
        .with_help(format!("this variant's pieces are {letters} (white upper case, black lower case)"))
}

fn set_castling_right(game: &Game, t: &Tables, pos: &mut Position, ch: char, src: &FenSource, at: usize) -> Result<(), Diagnostic> {
    let bad = |why: String| {
        err(src, at, at + ch.len_utf8(), format!("bad castling right `{ch}`"), why)
            .with_help("castling rights are `-`, or K Q k q (X-FEN), or the rook files such as HAha (Shredder-FEN)")
    };
    let Some(rule) = &game.castling else {
        return Err(bad("this variant has no castling".into()));
    };
    let geo = &game.geometry;
    let color: Color = if ch.is_ascii_uppercase() { 0 } else { 1 };
    let king_code = code(rule.king, color);
    if let Some(pair) = pos.spread.as_ref().and_then(|s| s.pairs.iter().find(|p| pos.board[p.red as usize] & !PROMOTED == king_code)) {
        return Err(bad(format!(
            "the {} stands on two squares ({} and {}): a piece that split has lost its castling rights",
            game.kinds[rule.king as usize].name,
            geo.name(pair.red),
            geo.name(pair.blue)
        )));
    }
    let Some(king) = movegen::castler(t, pos, rule, color) else {
        return Err(bad("there is no single castling king of that side".into()));
    };
    let kc = geo.coords(king);
    let up = ch.to_ascii_uppercase();
    let rook = match up {
        'K' | 'Q' => xfen_partner(game, pos, king, color, up == 'K', false),
        _ => {
            let file = geo.axes[0].labels.iter().position(|l| l.eq_ignore_ascii_case(&ch.to_string()));
            file.and_then(|f| {
                let mut p: Vec<i64> = kc.iter().map(|&c| c as i64).collect();
                p[0] = f as i64;
                geo.cell(&p).filter(|&c| movegen::is_partner(rule, pos.board[c as usize], color))
            })
        }
    };
    let Some(rook) = rook else {
        return Err(bad(format!("no {} of that side stands there on the king's rank", game.kinds[rule.rook as usize].name)));
    };
    if pos.spread.as_ref().is_some_and(|s| s.pair_at(rook).is_some()) {
        return Err(bad(format!(
            "the {} on {} stands on two squares: a piece that split has lost its castling right",
            game.kinds[rule.rook as usize].name,
            geo.name(rook)
        )));
    }
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

/// One letter of the castling field in a variant with first-move rights
/// (`gate` in `hand`; Fairy-Stockfish's gates): `K`/`Q` are castling rights
/// and give the castler and its partner their rights; a file letter gives
/// the right to the player's piece on that file of its first rank.
fn set_first_move_right(game: &Game, t: &Tables, pos: &mut Position, ch: char, src: &FenSource, at: usize) -> Result<(), Diagnostic> {
    let color: Color = if ch.is_ascii_uppercase() { 0 } else { 1 };
    if matches!(ch.to_ascii_uppercase(), 'K' | 'Q') && game.castling.is_some() {
        set_castling_right(game, t, pos, ch, src, at)?;
        if let Some(rule) = &game.castling {
            if let Some(king) = movegen::castler(t, pos, rule, color) {
                pos.set_first_move_right(king, true);
            }
        }
        let rights = pos.castling[color as usize];
        for &r in &rights {
            if r != NO_CELL {
                pos.set_first_move_right(r, true);
            }
        }
        return Ok(());
    }
    let Some(cell) = first_rank_cell(game, color, ch) else {
        return Err(err(src, at, at + ch.len_utf8(), format!("bad castling right `{ch}`"), "not a file of this board")
            .with_help("castling rights are `-`, K Q k q, or files: a file letter gives the piece on that file of its owner's first rank its first-move right"));
    };
    let piece = pos.board[cell as usize];
    if piece == 0 || color_of(piece) != color {
        return Err(err(src, at, at + ch.len_utf8(), format!("bad castling right `{ch}`"), format!("no piece of that side on {}", game.geometry.name(cell)))
            .with_help("a file letter gives the piece on that file of its owner's first rank its first-move right; remove the letter"));
    }
    pos.set_first_move_right(cell, true);
    Ok(())
}

/// The cell of file `letter` on `color`'s first rank: the rank castling
/// puts the king on where the variant castles, else the rank where the player's forward
/// axis starts.
fn first_rank_cell(game: &Game, color: Color, letter: char) -> Option<Cell> {
    let geo = &game.geometry;
    let file = geo.axes[0].labels.iter().position(|l| l.eq_ignore_ascii_case(&letter.to_string()))?;
    // The castling rank: where castling puts the king.
    let castling_cell = game.castling.as_ref().and_then(|rule| rule.sides.first()).map(|s| s.king_to[color as usize]);
    let mut p: Vec<i64> = match castling_cell {
        Some(k) => geo.coords(k).iter().map(|&c| c as i64).collect(),
        None => {
            let player = &game.players[color as usize];
            let (_, axis, sign) = player.directions.iter().find(|(n, _, _)| n == "forward").cloned().unwrap_or((String::new(), 1, 1));
            let mut p = vec![0i64; geo.axes.len()];
            p[axis] = if sign > 0 { 0 } else { geo.size(axis) as i64 - 1 };
            p
        }
    };
    p[0] = file as i64;
    geo.cell(&p)
}

/// Where a player has no castling right but its castler keeps its
/// first-move right, each partner that keeps its right may castle (how
/// Fairy-Stockfish reads the file letters of a Chess960 position with gates).
fn castling_from_first_move_rights(game: &Game, t: &Tables, pos: &mut Position) {
    let Some(rule) = &game.castling else { return };
    for color in 0..2u8 {
        if pos.castling[color as usize].iter().any(|&r| r != NO_CELL) {
            continue;
        }
        let Some(king) = movegen::castler(t, pos, rule, color) else { continue };
        if !pos.has_first_move_right(king) {
            continue;
        }
        let kc = game.geometry.coords(king);
        for c in game.geometry.board_cells() {
            let cc = game.geometry.coords(c);
            if c == king || cc[1..] != kc[1..] || !pos.has_first_move_right(c) || !movegen::is_partner(rule, pos.board[c as usize], color) {
                continue;
            }
            let short = cc[0] > kc[0];
            if let Some(side) = rule.sides.iter().find(|s| s.short == short) {
                let slot = &mut pos.castling[color as usize][side.slot()];
                // The outermost partner on each side, as X-FEN reads `K`/`Q`.
                let outer = |r: Cell| if short { game.geometry.coords(r)[0] > cc[0] } else { game.geometry.coords(r)[0] < cc[0] };
                if *slot == NO_CELL || !outer(*slot) {
                    *slot = c;
                }
            }
        }
    }
}

/// The file letters of `color`'s first-move rights that its castling
/// rights do not already give (the castler's and the partners' cells), in
/// file order (Fairy-Stockfish's `KQBCDFG`).
fn first_move_letters(game: &Game, pos: &Position, color: Color) -> String {
    let geo = &game.geometry;
    let rights = &pos.castling[color as usize];
    let castles = rights.iter().any(|&r| r != NO_CELL);
    let castler = game.castling.as_ref().map(|rule| code(rule.king, color));
    let mut cells: Vec<Cell> = geo
        .board_cells()
        .filter(|&c| pos.has_first_move_right(c))
        .filter(|&c| pos.board[c as usize] != 0 && color_of(pos.board[c as usize]) == color)
        .filter(|&c| !rights.contains(&c) && (!castles || Some(pos.board[c as usize]) != castler))
        .collect();
    cells.sort_by_key(|&c| geo.coords(c)[0]);
    cells
        .iter()
        .map(|&c| {
            let l = geo.axes[0].labels[geo.coords(c)[0]].chars().next().unwrap_or('?');
            if color == 0 { l.to_ascii_uppercase() } else { l.to_ascii_lowercase() }
        })
        .collect()
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

/// Reads the spread field: `fields` is the `~` field and one field per unit
/// after it (`Bc4e2+nd5f6:equal:/`): members joined by `+`, each a piece
/// letter, its red cell and its blue cell; then `:` and the unit's weight;
/// then, for a group, `:` and its label. Both halves must already stand on
/// the board with the member's letter. Units are numbered in the order
/// written, then the state is put in canonical order.
fn read_spread(game: &Game, pos: &mut Position, fields: &[(usize, &str)], src: &FenSource) -> Result<(), Diagnostic> {
    let Some(&(tilde_at, _)) = fields.first() else { return Ok(()) };
    let Some(rules) = &game.spread else {
        let end = fields.last().map_or(tilde_at + 1, |&(at, f)| at + f.len());
        return Err(spread_err(src, tilde_at, end, "this variant has no spread pieces", "the spread field")
            .with_help("remove the ` ~ …` field; only variants with a `spread` block have pieces on two squares"));
    };
    let geo = &game.geometry;
    let labels: &[String] = rules.entangle.as_ref().map_or(&[], |e| &e.labels);
    let weight_names = || rules.weights.iter().map(|w| format!("`{}`", w.name)).collect::<Vec<_>>().join(", ");
    let mut state = SpreadState::default();
    // Where each cell and label was first used (for the notes of errors).
    let mut used_cells: Vec<(Cell, usize, usize)> = Vec::new();
    let mut used_labels: Vec<(u8, usize, usize)> = Vec::new();
    let example = "a unit is written like `Nd4g5:equal` (letter, red cell, blue cell, weight) or `Bc4e2+nd5f6:equal:/` (a group: members joined by `+`, then its label)";
    for (unit, &(at, field)) in fields[1..].iter().enumerate() {
        let unit = u8::try_from(unit).map_err(|_| spread_err(src, at, at + field.len(), "too many spread units", "this unit").with_help("a position has at most 255 spread units"))?;
        let Some((members, rest)) = field.split_once(':') else {
            return Err(spread_err(src, at, at + field.len(), format!("`{field}` has no weight"), "expected `:` and a weight after the members")
                .with_help(format!("{example}; this variant's weights are {}", weight_names())));
        };
        let weight_at = at + members.len() + 1;
        let (weight_text, label_text) = match rest.split_once(':') {
            Some((w, l)) => (w, Some((weight_at + w.len() + 1, l))),
            None => (rest, None),
        };
        let Some(weight) = rules.weights.iter().position(|w| w.name == weight_text) else {
            return Err(spread_err(src, weight_at, weight_at + weight_text.len(), format!("unknown weight `{weight_text}`"), "not a weight of this variant")
                .with_help(format!("this variant's weights are {}", weight_names())));
        };
        let weight = u8::try_from(weight).unwrap_or(u8::MAX);
        let mut member_count = 0usize;
        let mut member_at = at;
        for member in members.split('+') {
            let here = member_at;
            member_at += member.len() + 1;
            let mut chars = member.chars();
            let Some(letter) = chars.next() else {
                return Err(spread_err(src, here, here + 1, "empty member", "expected a piece letter and two cells")
                    .with_help(example));
            };
            let Some(kind) = game.kind_by_letter(letter) else {
                let mut d = unknown_letter(game, src, here, letter);
                d.code = SPREAD_SYNTAX;
                return Err(d);
            };
            let cells_text = chars.as_str();
            let cells_at = here + letter.len_utf8();
            let Some((red, blue)) = two_squares(geo, cells_text) else {
                return Err(spread_err(src, cells_at, cells_at + cells_text.len(), format!("`{cells_text}` is not two squares"), "expected the red cell, then the blue cell")
                    .with_help(format!("write the two cells one after the other, red first: `{letter}d4g5`")));
            };
            let span_end = here + member.len();
            if red == blue {
                return Err(err_code(src, SPREAD_CELLS, here, span_end, "both halves on one cell", "the red and the blue cell are the same")
                    .with_help("a spread piece stands on two different cells"));
            }
            let color: Color = if letter.is_ascii_uppercase() { 0 } else { 1 };
            let want = code(kind, color);
            for cell in [red, blue] {
                let there = pos.board[cell as usize];
                if there & !PROMOTED != want {
                    let holds = if there == 0 {
                        "it is empty".to_string()
                    } else {
                        let k = &game.kinds[kind_of(there) as usize];
                        let l = if color_of(there) == 0 { k.letter } else { k.letter.to_ascii_lowercase() };
                        format!("it holds `{l}`")
                    };
                    return Err(err_code(src, SPREAD_CELLS, here, span_end, format!("{} does not hold `{letter}`", geo.name(cell)), holds)
                        .with_help("both halves of a spread piece stand on the board with the piece's letter: write the letter on both cells in the board"));
                }
                if pos.is_hidden(cell) {
                    return Err(err_code(src, SPREAD_CELLS, here, span_end, format!("the piece on {} is face down", geo.name(cell)), "a face-down half")
                        .with_help("a face-down piece cannot stand on two squares"));
                }
                if let Some(&(_, s, e)) = used_cells.iter().find(|(c, _, _)| *c == cell) {
                    return Err(err_code(src, SPREAD_CELLS, here, span_end, format!("{} is in two pairs", geo.name(cell)), "used again here")
                        .with_note(Span::new(src.offset + s, src.offset + e), "first used here")
                        .with_help("each cell holds at most one half"));
                }
                used_cells.push((cell, here, span_end));
            }
            state.pairs.push(Pair { red, blue, unit, weight, label: 0 });
            member_count += 1;
        }
        if let Some((label_at, text)) = label_text {
            let end = label_at + text.len();
            let Some(index) = labels.iter().position(|l| l == text) else {
                let help = if labels.is_empty() {
                    "this variant has no entangled groups (no `entangle` block): remove the label".to_string()
                } else {
                    let all: Vec<String> = labels.iter().map(|l| format!("`{l}`")).collect();
                    format!("this variant's group labels are {}", all.join(", "))
                };
                return Err(spread_err(src, label_at, end.max(label_at + 1), format!("unknown group label `{text}`"), "not a group label").with_help(help));
            };
            let label = u8::try_from(index + 1).unwrap_or(u8::MAX);
            if member_count < 2 {
                return Err(err_code(src, SPREAD_UNITS, label_at, end, "a label on a single pair", "only a group (two or more members) has a label")
                    .with_help("remove the label, or join the members of the group with `+`"));
            }
            if let Some(&(_, s, e)) = used_labels.iter().find(|(l, _, _)| *l == label) {
                return Err(err_code(src, SPREAD_UNITS, label_at, end, format!("two groups labelled `{text}`"), "used again here")
                    .with_note(Span::new(src.offset + s, src.offset + e), "first used here")
                    .with_help("each group has its own label; members of one group are written in one unit, joined by `+`"));
            }
            used_labels.push((label, label_at, end));
            for p in state.pairs.iter_mut().filter(|p| p.unit == unit) {
                p.label = label;
            }
        }
    }
    if !state.pairs.is_empty() {
        state.normalize();
        pos.spread = Some(Box::new(state));
    }
    Ok(())
}

/// Splits `text` into two square names (`d4g5`, `a10a1`); `None` unless
/// exactly one split names two cells.
fn two_squares(geo: &crate::model::geometry::Geometry, text: &str) -> Option<(Cell, Cell)> {
    let mut found = None;
    for (i, _) in text.char_indices().skip(1) {
        if let (Some(a), Some(b)) = (geo.parse_square(&text[..i]), geo.parse_square(&text[i..])) {
            if found.is_some() {
                return None;
            }
            found = Some((a, b));
        }
    }
    found
}

/// The spread field of `pos` (` ~ ` and one field per unit), or nothing when
/// no piece stands spread. Units in canonical order (by their first pair),
/// members in pair order.
fn write_spread(game: &Game, pos: &Position, out: &mut String) {
    let Some(state) = pos.spread.as_ref().filter(|s| !s.pairs.is_empty()) else { return };
    let geo = &game.geometry;
    let mut units: Vec<u8> = Vec::new();
    for p in &state.pairs {
        if !units.contains(&p.unit) {
            units.push(p.unit);
        }
    }
    out.push_str(" ~");
    for unit in units {
        out.push(' ');
        let mut first = None;
        for (i, p) in state.unit(unit).enumerate() {
            if i > 0 {
                out.push('+');
            }
            let c = pos.board[p.red as usize];
            if c != 0 {
                let letter = game.kinds[kind_of(c) as usize].letter;
                out.push(if color_of(c) == 0 { letter } else { letter.to_ascii_lowercase() });
            } else {
                out.push('?');
            }
            out.push_str(&geo.name(p.red));
            out.push_str(&geo.name(p.blue));
            first.get_or_insert(*p);
        }
        let Some(p) = first else { continue };
        let rules = game.spread.as_ref();
        let weight = rules.and_then(|r| r.weights.get(p.weight as usize)).map_or_else(|| p.weight.to_string(), |w| w.name.clone());
        out.push(':');
        out.push_str(&weight);
        if p.label != 0 {
            let label = rules
                .and_then(|r| r.entangle.as_ref())
                .and_then(|e| e.labels.get(p.label as usize - 1))
                .map_or_else(|| p.label.to_string(), Clone::clone);
            out.push(':');
            out.push_str(&label);
        }
    }
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

/// A field of check counts: `W+B` (the checks each side still needs) or
/// `+W+B` (the checks each side has given; then the flag is `true`).
fn check_counts(field: &str) -> Option<(u32, u32, bool)> {
    let (given, rest) = match field.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (false, field),
    };
    let (w, b) = rest.split_once('+')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    (digits(w) && digits(b)).then(|| Some((w.parse().ok()?, b.parse().ok()?, given))).flatten()
}

/// A field of squares written back to back (`c5d6`), split into cells; a
/// single square name as it is. `None` when some part is not a square.
/// Greedy: the longest square name at each point.
fn split_squares(geo: &crate::model::geometry::Geometry, text: &str) -> Option<Vec<Cell>> {
    if text.len() > 64 {
        return None; // at most four passed squares and a piece
    }
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (cell, len) = (1..=rest.len()).rev().filter(|&i| rest.is_char_boundary(i)).find_map(|i| geo.parse_square(&rest[..i]).map(|c| (c, i)))?;
        out.push(cell);
        rest = &rest[len..];
    }
    Some(out)
}

/// The pieces of `mover` that could just have passed over `passed`: one
/// step beyond the last of them along a step of a part that sets en-passant
/// squares (the pawn's forward step, a Berolina pawn's diagonal ones), the
/// squares following each other along it. Of any kind: a face-down piece
/// moving as a pawn is revealed on arrival.
fn ep_victims<'a>(game: &'a Game, pos: &'a Position, passed: &'a [Cell], mover: Color) -> impl Iterator<Item = Cell> + 'a {
    let geo = &game.geometry;
    game.kinds
        .iter()
        .flat_map(move |kind| kind.parts.iter().filter(|p| p.sets_en_passant).flat_map(move |p| p.vectors[mover as usize].iter()))
        .filter_map(move |v| {
            let follows = passed.windows(2).all(|w| geo.offset(w[0], v) == Some(w[1]));
            let victim = geo.offset(*passed.last()?, v)?;
            let vcode = pos.board[victim as usize];
            (follows && vcode != 0 && color_of(vcode) == mover).then_some(victim)
        })
}

fn validate(game: &Game, t: &Tables, pos: &Position, src: &FenSource, at: usize, len: usize) -> Result<(), Diagnostic> {
    let has_royal = game.kinds.iter().any(|k| k.royal);
    for color in 0..2u8 {
        let royal_in_hand = game.kinds.iter().enumerate().any(|(k, kind)| kind.royal && pos.hand[color as usize][k] > 0);
        // Where explosions can remove royal pieces, a side may have lost its
        // last one: the position is over (a `rule` decides it), not invalid.
        let player = &game.players[color as usize];
        if player.no_royal && (pos.royal_count[color as usize] > 0 || royal_in_hand) {
            return Err(err(src, at, at + len, format!("{} has a royal piece", player.name), "in this board")
                .with_help(format!("the players block says `{}: … no royal piece`: remove it from the position, or the words from the block", player.name)));
        }
        if has_royal && pos.royal_count[color as usize] == 0 && !royal_in_hand && game.explosion.is_none() && !player.no_royal {
            let who = &player.name;
            return Err(err(src, at, at + len, format!("{who} has no royal piece"), "in this board")
                .with_help("every side needs its king (a `royal` piece)"));
        }
    }
    for color in 0..2u8 {
        for c in pos.cells_of(color, t.nwords) {
            let kind = kind_of(pos.board[c as usize]);
            let kc = kind as usize * 2 + color as usize;
            if t.promo_forced[kc * t.ncells + c as usize] {
                return Err(err(src, at, at + len,
                    format!("{} on {} stands where it must have promoted", game.kinds[kind as usize].name, game.geometry.name(c)),
                    "in this board")
                    .with_help("a piece that promotes cannot stand in its promotion zone"));
            }
        }
    }
    // With spread pieces, check is a possibility: the spread engine's test (halves block, R2).
    let attacked = if pos.spread.is_some() {
        movegen::spread_in_check(game, t, pos, pos.side ^ 1)
    } else {
        movegen::royal_attacked(game, t, pos, pos.side ^ 1)
    };
    // Mid-ply (obligations owed), the mover may stand in check until the ply
    // ends; a move that blew up the side to move's last royal piece may leave
    // the mover's own attacked (§3.23: it ends the game).
    let exploded = game.explosion.is_some() && has_royal && pos.royal_count[pos.side as usize] == 0;
    if attacked && !crate::flow::ply::in_ply(pos) && !exploded {
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
                let letter = if xfen_partner(game, pos, r, color, short, true) == Some(r) {
                    if short { 'K' } else { 'Q' }
                } else {
                    geo.axes[0].labels[geo.coords(r)[0]].chars().next().unwrap_or('?').to_ascii_uppercase()
                };
                rights.push(if color == 0 { letter } else { letter.to_ascii_lowercase() });
            }
            // First-move rights that castling does not imply, by file.
            rights.push_str(&first_move_letters(game, pos, color));
        }
    } else {
        for color in 0..2u8 {
            rights.push_str(&first_move_letters(game, pos, color));
        }
    }
    out.push_str(if rights.is_empty() { "-" } else { &rights });
    out.push(' ');
    if pos.ep_len > 0 {
        let passed = &pos.ep_targets[..pos.ep_len as usize];
        let mut names: Vec<String> = passed.iter().map(|&c| geo.name(c)).collect();
        // The piece that passed, where the squares alone would name another first.
        let victim = pos.ep_victim;
        let marked = victim != NO_CELL && pos.board[victim as usize] != 0 && !passed.contains(&victim);
        if marked && ep_victims(game, pos, passed, pos.side ^ 1).next() != Some(victim) {
            names.push(geo.name(victim));
        }
        out.push_str(&names.join(","));
    } else {
        out.push('-');
    }
    out.push_str(&format!(" {} {}", pos.halfmove, pos.fullmove));
    if game.check_count_limit().is_some() {
        // The checks given, as lichess and Fairy-Stockfish write them last.
        out.push_str(&format!(" +{}+{}", pos.checks[0], pos.checks[1]));
    }
    write_spread(game, pos, &mut out);
    write_extension(game, pos, &mut out);
    out
}

/// The partner X-FEN's `K` (`short`) or `Q` names for `color` on the rank
/// of `on`: the first one met going from the far end (the board's edge, or
/// the side's `rook from` file, §3.8) towards `on`'s file, which counts only
/// when `inclusive`. The reader asks from the king; the writer asks from a
/// right's partner whether it is the one named.
fn xfen_partner(game: &Game, pos: &Position, on: Cell, color: Color, short: bool, inclusive: bool) -> Option<Cell> {
    let geo = &game.geometry;
    let rule = game.castling.as_ref()?;
    let here: Vec<i64> = geo.coords(on).iter().map(|&c| c as i64).collect();
    let edge = if short { geo.size(0) as i64 - 1 } else { 0 };
    let far = rule.sides.iter().find(|s| s.short == short).and_then(|s| s.rook_from).map_or(edge, |f| geo.coords(f[color as usize])[0] as i64);
    let near = here[0] + if inclusive { 0 } else if short { 1 } else { -1 };
    let files: Vec<i64> = if short { (near..=far.min(edge)).rev().collect() } else { (far.max(edge)..=near).collect() };
    files.into_iter().find_map(|f| {
        let mut p = here.clone();
        p[0] = f;
        geo.cell(&p).filter(|&c| movegen::is_partner(rule, pos.board[c as usize], color))
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
                    } else if c == WALL {
                        // A wall: `*`, as a hole (the board tells them apart).
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push('*');
                    } else {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push_str(&game.kinds[kind_of(c) as usize].written(color_of(c)));
                        // A promoted piece is marked where it matters: it demotes
                        // into a hand, or is of the castling kind (and never castles).
                        if c & PROMOTED != 0 && (game.hand.is_some() || game.castling.as_ref().is_some_and(|r| r.king == kind_of(c))) {
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

/// A variant with spread pieces for the tests of this crate:
/// `rules/niels-chess.rules` (chess with the rulebook's die, spread,
/// entangle and tunnel blocks).
#[cfg(test)]
pub(crate) fn niels_for_tests() -> crate::Variant {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/niels-chess.rules");
    let Ok((game, _)) = crate::model::load::load(&path) else { panic!("rules/niels-chess.rules does not load") };
    crate::Variant::new(std::sync::Arc::new(game))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A group (bishop c4/e2 with the knight d5/f6) and an unequal knight pair.
    const GROUP: &str = "r1bqk2r/pp1p1ppp/5n2/3n2N1/2BN4/8/PPPPBPPP/RN1QK2R w KQkq - 0 1 ~ Bc4e2+nd5f6:equal:/ Nd4g5:unequal";

    fn fail(fen: &str) -> Diagnostic {
        match niels_for_tests().parse_fen(fen, "<test>") {
            Ok(_) => panic!("{fen} parses"),
            Err(d) => d,
        }
    }

    /// The text the diagnostic's span covers.
    fn pointed<'a>(fen: &'a str, d: &Diagnostic) -> &'a str {
        &fen[d.span.start..d.span.end.min(fen.len())]
    }

    #[test]
    fn spread_pieces_read_and_write_back() {
        let v = niels_for_tests();
        let pos = v.parse_fen(GROUP, "<test>").expect("parses");
        let state = pos.spread.as_deref().expect("spread pieces");
        assert_eq!(state.pairs.len(), 3);
        let geo = &v.game.geometry;
        let sq = |s: &str| geo.parse_square(s).expect("square");
        let bishop = state.pair_at(sq("e2")).expect("the bishop pair");
        let knight = state.pair_at(sq("f6")).expect("the knight pair");
        let pair = state.pair_at(sq("g5")).expect("the white knight pair");
        assert_eq!((bishop.red, bishop.blue, bishop.weight, bishop.label), (sq("c4"), sq("e2"), 0, 1));
        assert_eq!((knight.red, knight.blue, knight.unit), (sq("d5"), sq("f6"), bishop.unit));
        assert_eq!((pair.red, pair.blue, pair.weight, pair.label), (sq("d4"), sq("g5"), 1, 0));
        assert_ne!(pair.unit, bishop.unit);
        assert_eq!(state.groups(), 1);
        assert_eq!(v.fen(&pos), GROUP);
    }

    #[test]
    fn units_are_written_in_canonical_order() {
        let v = niels_for_tests();
        let shuffled = GROUP.replace("~ Bc4e2+nd5f6:equal:/ Nd4g5:unequal", "~ Nd4g5:unequal  nd5f6+Bc4e2:equal:/");
        let pos = v.parse_fen(&shuffled, "<test>").expect("parses");
        assert_eq!(v.fen(&pos), GROUP);
        let again = v.parse_fen(&v.fen(&pos), "<test>").expect("parses");
        assert_eq!(again.spread, pos.spread);
    }

    #[test]
    fn without_spread_pieces_nothing_is_written() {
        let v = niels_for_tests();
        let start = v.start().expect("setup");
        assert!(start.spread.is_none());
        assert_eq!(v.fen(&start), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        // A spread field without units is no spread piece.
        let pos = v.parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ~", "<test>").expect("parses");
        assert!(pos.spread.is_none());
    }

    #[test]
    fn a_king_on_two_squares_is_the_sides_royal_piece() {
        let v = niels_for_tests();
        let fen = "4k3/8/8/8/8/8/8/3K1K2 b - - 3 20 ~ Kd1f1:equal";
        let pos = v.parse_fen(fen, "<test>").expect("a spread king counts as the king");
        assert_eq!(pos.royal_count[0], 2);
        assert_eq!(v.fen(&pos), fen);
        // A king that split has no castling rights.
        let bad = "4k3/8/8/8/8/8/8/R2K1K1R w K - 0 1 ~ Kd1f1:equal";
        let d = fail(bad);
        assert_eq!(d.code, "E0301");
        assert!(d.message.contains("castling"), "{}", d.message);
        assert_eq!(pointed(bad, &d), "K");
        // Nor a rook that split.
        let bad = "4k3/8/8/8/8/8/8/R3K1RR w K - 0 1 ~ Rg1h1:equal";
        let d = fail(bad);
        assert!(d.label.contains("two squares"), "{}", d.label);
    }

    #[test]
    fn a_unit_of_two_members_without_a_label() {
        let v = niels_for_tests();
        // A castling split's unit (king and rook) has two members and no label.
        let fen = "4k3/8/8/8/8/8/8/2KR1K1R b - - 1 1 ~ Kc1f1+Rd1h1:equal";
        let pos = v.parse_fen(fen, "<test>").expect("parses");
        assert_eq!(v.fen(&pos), fen);
        let state = pos.spread.as_deref().expect("spread pieces");
        assert_eq!(state.pairs.len(), 2);
        assert_eq!(state.pairs[0].unit, state.pairs[1].unit, "one unit");
        assert_eq!(state.groups(), 0, "not an entangled group (R16)");
    }

    #[test]
    fn bad_spread_fields_are_located_errors() {
        let cases: &[(&str, &str, &str)] = &[
            // (FEN, code, the text the error points at)
            (&GROUP.replace("Nd4g5:unequal", "Nd4g5:heavy"), SPREAD_SYNTAX, "heavy"),
            (&GROUP.replace("Nd4g5:unequal", "Nd4g5"), SPREAD_SYNTAX, "Nd4g5"),
            (&GROUP.replace("Nd4g5:unequal", "Nd4:unequal"), SPREAD_SYNTAX, "d4"),
            (&GROUP.replace("Nd4g5:unequal", "Xd4g5:unequal"), SPREAD_SYNTAX, "X"),
            (&GROUP.replace("Nd4g5:unequal", "Nd4g5:unequal:|"), SPREAD_SYNTAX, "|"),
            (&GROUP.replace("Nd4g5:unequal", "Nd4g4:unequal"), SPREAD_CELLS, "Nd4g4"),
            (&GROUP.replace("Nd4g5:unequal", "Bd4g5:unequal"), SPREAD_CELLS, "Bd4g5"),
            (&GROUP.replace("Nd4g5:unequal", "Nd4d4:unequal"), SPREAD_CELLS, "Nd4d4"),
            (&GROUP.replace("Nd4g5:unequal", "Nd4c4:unequal"), SPREAD_CELLS, "Nd4c4"),
            (&GROUP.replace("Nd4g5:unequal", "Nd4g5:unequal:\\"), SPREAD_UNITS, "\\"),
            (&GROUP.replace("Nd4g5:unequal", "Nd4g5+Pa2b2:unequal:/"), SPREAD_UNITS, "/"),
            (&GROUP.replace(" ~ ", " ~"), SPREAD_SYNTAX, "~Bc4e2+nd5f6:equal:/"),
        ];
        for (fen, code, at) in cases {
            let d = fail(fen);
            assert_eq!(d.code, *code, "{fen}: {}", d.message);
            assert_eq!(pointed(fen, &d), *at, "{fen}: {}", d.message);
            assert!(d.help.is_some(), "{fen}: a help line");
        }
        // The second use of a cell points back at the first.
        let twice = GROUP.replace("Nd4g5:unequal", "Nd4g5:unequal Nd4g5:equal");
        let d = fail(&twice);
        assert_eq!(d.code, SPREAD_CELLS);
        assert_eq!(d.notes.len(), 1);
    }

    #[test]
    fn a_variant_without_spread_pieces_refuses_the_field() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/chess.rules");
        let Ok((game, _)) = crate::model::load::load(&path) else { panic!("chess loads") };
        let v = crate::Variant::new(std::sync::Arc::new(game));
        let fen = "4k3/8/8/8/8/8/8/3K1K2 w - - 0 1 ~ Kd1f1:equal";
        let d = v.parse_fen(fen, "<test>").expect_err("an error");
        assert_eq!(d.code, SPREAD_SYNTAX);
        assert_eq!(pointed(fen, &d), "~ Kd1f1:equal");
    }

    #[test]
    fn nothing_panics_on_odd_spread_fields() {
        let v = niels_for_tests();
        for tail in ["~ :", "~ +:", "~ N:equal", "~ Né4:equal", "~ N:", "~ ::::", "~ Nd4g5:equal:", "~ ~", "~ Kd1f1:equal:/:\\"] {
            let _ = v.parse_fen(&format!("4k3/8/8/8/8/8/8/3K1K2 w - - 0 1 {tail}"), "<test>");
        }
    }
}
