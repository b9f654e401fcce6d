//! Move notation: coordinate notation (`e2e4`, `e7e8q`, `P@e4`, castling as
//! king-takes-rook `e1h1`) and SAN-style notation (`Nf3`, `exd5`, `e8=Q+`,
//! `O-O`, `N@f3`), generated for any variant and parsed back against the legal
//! moves of a position.

use crate::position::{kind_of, Move, MoveKind, Position};
use crate::variant::Variant;
use rulebook_grammar::ast::Span;
use rulebook_grammar::Diagnostic;

/// The coordinate notation of `m`.
pub fn coordinate(v: &Variant, m: &Move) -> String {
    let geo = &v.game.geometry;
    let letter = v.game.kinds[m.piece as usize].letter;
    match m.kind {
        MoveKind::Drop => format!("{letter}@{}", geo.name(m.to)),
        MoveKind::Castle => format!("{}{}", geo.name(m.from), geo.name(m.aux as u16)),
        _ => {
            let mut s = format!("{}{}", geo.name(m.from), geo.name(m.to));
            if m.is_promotion() {
                s.push(v.game.kinds[m.promotion as usize].letter.to_ascii_lowercase());
            }
            s
        }
    }
}

/// Is `m` a capture?
pub fn is_capture(pos: &Position, m: &Move) -> bool {
    match m.kind {
        MoveKind::EnPassant => true,
        MoveKind::Castle | MoveKind::Drop => false,
        _ => pos.board[m.to as usize] != 0,
    }
}

/// The SAN-style notation of `m` in `pos`, without a check suffix.
pub fn san_plain(v: &Variant, pos: &Position, m: &Move, legal: &[Move]) -> String {
    let game = &v.game;
    let geo = &game.geometry;
    let letter = game.kinds[m.piece as usize].letter;
    match m.kind {
        MoveKind::Drop => return format!("{letter}@{}", geo.name(m.to)),
        MoveKind::Castle => {
            let short = game.castling.as_ref().is_some_and(|c| c.sides[m.side as usize].short);
            return if short { "O-O".into() } else { "O-O-O".into() };
        }
        _ => {}
    }
    let capture = is_capture(pos, m);
    let from_coords = geo.coords(m.from);
    let label = |axis: usize| geo.axes[axis].labels[from_coords[axis]].clone();
    let rivals: Vec<&Move> = legal
        .iter()
        .filter(|o| {
            o.piece == m.piece
                && o.to == m.to
                && o.from != m.from
                && !matches!(o.kind, MoveKind::Drop | MoveKind::Castle)
        })
        .collect();
    let mut s = String::new();
    if game.is_pawn_like(m.piece) {
        if capture {
            let same_file = rivals.iter().any(|o| geo.coords(o.from)[0] == from_coords[0] && is_capture(pos, o));
            s.push_str(&if same_file { geo.name(m.from) } else { label(0) });
        } else if !rivals.is_empty() {
            // Two pawn-like pieces step to one cell (possible on boards of 3+ dimensions).
            s.push_str(&geo.name(m.from));
        }
    } else {
        s.push(letter);
        if !rivals.is_empty() {
            let file_unique = rivals.iter().all(|o| geo.coords(o.from)[0] != from_coords[0]);
            let rank_unique = rivals.iter().all(|o| geo.coords(o.from)[1] != from_coords[1]);
            if file_unique {
                s.push_str(&label(0));
            } else if rank_unique && geo.dims() == 2 {
                s.push_str(&label(1));
            } else {
                s.push_str(&geo.name(m.from));
            }
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&geo.name(m.to));
    if m.is_promotion() {
        s.push('=');
        s.push(game.kinds[m.promotion as usize].letter);
    }
    s
}

/// The SAN-style notation of `m` in `pos`, with `+` for check and `#` for mate.
pub fn san(v: &Variant, pos: &Position, m: &Move, legal: &[Move]) -> String {
    let mut s = san_plain(v, pos, m, legal);
    let next = v.play(pos, m);
    if v.in_check(&next) {
        s.push(if v.legal_moves(&next).is_empty() { '#' } else { '+' });
    }
    s
}

/// Finds the legal move written as `text` (SAN-style or coordinate notation).
/// `name` and `offset` say where the text came from, for the diagnostic.
pub fn parse_move(v: &Variant, pos: &Position, text: &str, name: &str, offset: usize) -> Result<Move, Diagnostic> {
    let legal = v.legal_moves(pos);
    let span = Span::new(offset, offset + text.len().max(1));
    let base = text.trim().trim_end_matches(['+', '#', '!', '?']);
    // `0-0` is a common spelling of `O-O`.
    let cleaned = if base.starts_with("0-0") { base.replace('0', "O") } else { base.to_string() };
    let mut found: Vec<Move> = Vec::new();
    for m in &legal {
        let san = san_plain(v, pos, m, &legal);
        let coord = coordinate(v, m);
        let mut forms = vec![san.clone(), san.replace('=', ""), coord.clone()];
        if m.kind == MoveKind::Castle {
            // The king's own destination also names castling (e1g1).
            forms.push(format!("{}{}", v.game.geometry.name(m.from), v.game.geometry.name(m.to)));
        }
        if m.is_promotion() {
            // Promotion letter in either case.
            forms.push(format!("{}{}", &coord[..coord.len() - 1], v.game.kinds[m.promotion as usize].letter));
        }
        if forms.contains(&cleaned) && !found.contains(m) {
            found.push(*m);
        }
    }
    if found.is_empty() {
        // A looser reading: without the capture mark and without disambiguation.
        let loose_input = cleaned.replace('x', "");
        for m in &legal {
            if loose_san(v, pos, m, &legal) == loose_input {
                found.push(*m);
            }
        }
        if found.len() > 1 {
            let all: Vec<String> = found.iter().map(|m| san_plain(v, pos, m, &legal)).collect();
            return Err(Diagnostic::error("E0402", name, span, format!("`{}` is ambiguous", text.trim()), "several pieces can make this move")
                .with_help(format!("write one of: {}", all.join(" "))));
        }
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => {
            let mut sample: Vec<String> = legal.iter().take(60).map(|m| san_plain(v, pos, m, &legal)).collect();
            if legal.len() > 60 {
                sample.push("…".into());
            }
            let side = &v.game.players[pos.side as usize].name;
            let help = if legal.is_empty() {
                "the game is over: there are no legal moves".to_string()
            } else {
                format!("legal moves for {side}: {}", sample.join(" "))
            };
            Err(Diagnostic::error("E0401", name, span, format!("`{}` is not a legal move here", text.trim()), "illegal or unknown move")
                .with_help(help))
        }
        _ => {
            let all: Vec<String> = found.iter().map(|m| coordinate(v, m)).collect();
            Err(Diagnostic::error("E0402", name, span, format!("`{}` is ambiguous", text.trim()), "matches several moves")
                .with_help(format!("write one of: {}", all.join(" "))))
        }
    }
}

/// SAN without capture mark and disambiguation (`Nf3`, `e4`, `e8=Q`), for lenient reading.
fn loose_san(v: &Variant, pos: &Position, m: &Move, legal: &[Move]) -> String {
    let full = san_plain(v, pos, m, legal);
    if matches!(m.kind, MoveKind::Drop | MoveKind::Castle) || v.game.is_pawn_like(m.piece) {
        return full.replace('x', "");
    }
    let game = &v.game;
    let mut s = String::new();
    s.push(game.kinds[m.piece as usize].letter);
    s.push_str(&game.geometry.name(m.to));
    if m.is_promotion() {
        s.push('=');
        s.push(game.kinds[m.promotion as usize].letter);
    }
    s
}

/// The kind letter of a piece code, for display.
pub fn piece_letter(v: &Variant, code: u8) -> char {
    let k = &v.game.kinds[kind_of(code) as usize];
    if crate::position::color_of(code) == 0 {
        k.letter
    } else {
        k.letter.to_ascii_lowercase()
    }
}
