//! Move notation: coordinate notation (`e2e4`, `e7e8q`, `P@e4`, castling as
//! king-takes-rook `e1h1`) and SAN-style notation (`Nf3`, `exd5`, `e8=Q+`,
//! `O-O`, `N@f3`), generated for any variant and parsed back against the legal
//! moves of a position. Chance outcomes are part of a move's text: the
//! identity a face-down piece is revealed as after the destination (`h4Q`,
//! German letters `h4D`), a captured face-down piece's identity in brackets.

use crate::model::{KindId, LetterSet};
use crate::position::{kind_of, Move, MoveKind, Position, NO_KIND};
use crate::variant::Variant;
use rulebook_grammar::ast::Span;
use rulebook_grammar::Diagnostic;

/// The letter of `kind` in the letter set `letters` (`None`: the FEN letters).
pub fn letter_of(v: &Variant, kind: KindId, letters: Option<&LetterSet>) -> char {
    match letters {
        Some(set) => set.letter(&v.game, kind),
        None => v.game.kinds[kind as usize].letter,
    }
}

/// The coordinate notation of `m`. A chance outcome is written after the
/// move: `/Q` for the identity a face-down piece is revealed as, `/xR` for
/// the identity of a captured face-down piece (`h2h4/Q`, `a1a8q/P/xR`).
pub fn coordinate(v: &Variant, m: &Move) -> String {
    let geo = &v.game.geometry;
    let letter = v.game.kinds[m.piece as usize].letter;
    let mut s = match m.kind {
        MoveKind::Drop => format!("{letter}@{}", geo.name(m.to)),
        MoveKind::Castle => format!("{}{}", geo.name(m.from), geo.name(m.aux as u16)),
        _ => {
            let mut s = format!("{}{}", geo.name(m.from), geo.name(m.to));
            if m.is_promotion() {
                s.push(v.game.kinds[m.promotion as usize].letter.to_ascii_lowercase());
            }
            s
        }
    };
    if m.reveal != NO_KIND {
        s.push('/');
        s.push(v.game.kinds[m.reveal as usize].letter);
    }
    if m.unveil != NO_KIND {
        s.push_str("/x");
        s.push(v.game.kinds[m.unveil as usize].letter);
    }
    s
}

/// Is `m` a capture?
pub fn is_capture(pos: &Position, m: &Move) -> bool {
    match m.kind {
        MoveKind::EnPassant => true,
        MoveKind::Castle | MoveKind::Drop => false,
        _ => pos.board[m.to as usize] != 0,
    }
}

/// The SAN-style notation of `m` in `pos`, without a check suffix, in the FEN letters.
pub fn san_plain(v: &Variant, pos: &Position, m: &Move, legal: &[Move]) -> String {
    san_plain_in(v, pos, m, legal, None)
}

/// The SAN-style notation of `m` in `pos` in the letter set `letters`
/// (`None`: the FEN letters), without a check suffix. A face-down piece is
/// named by its disguise; the identity it is revealed as follows the
/// destination (`h4Q`, `O-ON`), then the promotion (`Rxa8P=Q`), then the
/// identity of a captured face-down piece in brackets (`Nxd5[B]`).
pub fn san_plain_in(v: &Variant, pos: &Position, m: &Move, legal: &[Move], letters: Option<&LetterSet>) -> String {
    let mut s = san_decision(v, pos, m, legal, letters, false);
    if m.reveal != NO_KIND {
        s.push(letter_of(v, m.reveal, letters));
    }
    if m.is_promotion() {
        s.push('=');
        s.push(letter_of(v, m.promotion, letters));
    }
    if m.unveil != NO_KIND {
        s.push('[');
        s.push(letter_of(v, m.unveil, letters));
        s.push(']');
    }
    s
}

/// SAN up to the destination (no reveal, promotion or captured identity);
/// `loose` leaves out the capture mark and disambiguation.
fn san_decision(v: &Variant, pos: &Position, m: &Move, legal: &[Move], letters: Option<&LetterSet>, loose: bool) -> String {
    let game = &v.game;
    let geo = &game.geometry;
    let letter = letter_of(v, m.piece, letters);
    match m.kind {
        MoveKind::Drop => return format!("{letter}@{}", geo.name(m.to)),
        MoveKind::Castle => {
            let short = game.castling.as_ref().is_some_and(|c| c.sides[m.side as usize].short);
            return if short { "O-O".into() } else { "O-O-O".into() };
        }
        _ => {}
    }
    let capture = is_capture(pos, m);
    if loose {
        let mut s = String::new();
        if !game.is_pawn_like(m.piece) {
            s.push(letter);
        }
        s.push_str(&geo.name(m.to));
        return s;
    }
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
    s
}

/// The SAN-style notation of `m` in `pos`, with `+` for check and `#` for mate.
pub fn san(v: &Variant, pos: &Position, m: &Move, legal: &[Move]) -> String {
    san_in(v, pos, m, legal, None)
}

/// [`san_plain_in`] with `+` for check and `#` for mate.
pub fn san_in(v: &Variant, pos: &Position, m: &Move, legal: &[Move], letters: Option<&LetterSet>) -> String {
    let mut s = san_plain_in(v, pos, m, legal, letters);
    let next = v.play(pos, m);
    if v.in_check(&next) {
        s.push(if v.legal_moves(&next).is_empty() { '#' } else { '+' });
    }
    s
}

/// Finds the one legal move written as `text` (SAN-style or coordinate
/// notation, any declared letter set). A text that leaves a chance outcome
/// open (`h4` for a face-down pawn, without the revealed letter) is an error
/// here; [`parse_candidates`] accepts it. `name` and `offset` say where the
/// text came from, for the diagnostic.
pub fn parse_move(v: &Variant, pos: &Position, text: &str, name: &str, offset: usize) -> Result<Move, Diagnostic> {
    let found = parse_candidates(v, pos, text, None, name, offset)?;
    if found.len() == 1 {
        return Ok(found[0]);
    }
    let legal = v.legal_moves(pos);
    let span = Span::new(offset, offset + text.len().max(1));
    let all: Vec<String> = found.iter().take(12).map(|m| san_plain_in(v, pos, m, &legal, None)).collect();
    Err(Diagnostic::error("E0403", name, span, format!("`{}` leaves the chance outcome open", text.trim()), "which piece is revealed?")
        .with_help(format!("write the outcome too, one of: {}", all.join(" "))))
}

/// The legal moves `text` may mean, all with one decision: one move when the
/// text names the chance outcome (or the move has none), several when it
/// leaves it open (`h4` for a face-down pawn: every identity it may be
/// revealed as; a captured face-down piece's identity left out likewise).
/// A revealed identity that must promote takes the first promotion target
/// unless the text names one. `letters` fixes the letter set; with `None`
/// the FEN letters and every declared set are tried, and readings that
/// disagree are an error (E0402).
pub fn parse_candidates(
    v: &Variant,
    pos: &Position,
    text: &str,
    letters: Option<&LetterSet>,
    name: &str,
    offset: usize,
) -> Result<Vec<Move>, Diagnostic> {
    let legal = v.legal_moves(pos);
    let span = Span::new(offset, offset + text.len().max(1));
    let base = text.trim().trim_end_matches(['+', '#', '!', '?']);
    // `0-0` is a common spelling of `O-O`.
    let cleaned = if base.starts_with("0-0") { base.replace('0', "O") } else { base.to_string() };
    let sets: Vec<Option<&LetterSet>> = match letters {
        Some(set) => vec![Some(set)],
        None => std::iter::once(None).chain(v.game.letter_sets.iter().map(Some)).collect(),
    };
    // Per letter set, the moves the text matches (strictly, else loosely).
    let mut readings: Vec<(Option<&LetterSet>, Vec<Move>)> = Vec::new();
    for &set in &sets {
        let mut found = matching(v, pos, &legal, &cleaned, set, false);
        if found.is_empty() {
            found = matching(v, pos, &legal, &cleaned.replace('x', ""), set, true);
            let decisions = distinct_decisions(&found);
            if decisions.len() > 1 {
                let all: Vec<String> = decisions.iter().map(|m| san_decision(v, pos, m, &legal, set, false)).collect();
                return Err(Diagnostic::error("E0402", name, span, format!("`{}` is ambiguous", text.trim()), "several pieces can make this move")
                    .with_help(format!("write one of: {}", all.join(" "))));
            }
        }
        if !found.is_empty() {
            readings.push((set, found));
        }
    }
    let Some((first_set, first)) = readings.first().cloned() else {
        let mut sample: Vec<String> = Vec::new();
        for d in distinct_decisions(&legal).iter().take(60) {
            sample.push(san_decision(v, pos, d, &legal, letters, false));
        }
        if distinct_decisions(&legal).len() > 60 {
            sample.push("…".into());
        }
        let side = &v.game.players[pos.side as usize].name;
        let help = if legal.is_empty() {
            "the game is over: there are no legal moves".to_string()
        } else {
            format!("legal moves for {side}: {}", sample.join(" "))
        };
        return Err(Diagnostic::error("E0401", name, span, format!("`{}` is not a legal move here", text.trim()), "illegal or unknown move")
            .with_help(help));
    };
    if let Some((other_set, other)) = readings.iter().find(|(_, found)| *found != first) {
        let describe = |set: &Option<&LetterSet>, found: &[Move]| {
            let set_name = set.map_or("en".to_string(), |s| s.name.clone());
            let moves: Vec<String> = found.iter().take(3).map(|m| coordinate(v, m)).collect();
            format!("in the `{set_name}` letters: {}", moves.join(" "))
        };
        return Err(Diagnostic::error("E0402", name, span, format!("`{}` is ambiguous", text.trim()), "it reads differently in two letter sets")
            .with_help(format!("{}; {}; choose the letter set (`--letters`, or a record's `Letters` tag)", describe(&first_set, &first), describe(other_set, other))));
    }
    let decisions = distinct_decisions(&first);
    if decisions.len() > 1 {
        let all: Vec<String> = first.iter().map(|m| coordinate(v, m)).collect();
        return Err(Diagnostic::error("E0402", name, span, format!("`{}` is ambiguous", text.trim()), "matches several moves")
            .with_help(format!("write one of: {}", all.join(" "))));
    }
    Ok(first)
}

/// The moves among `legal` that `text` names in letter set `set`.
fn matching(v: &Variant, pos: &Position, legal: &[Move], text: &str, set: Option<&LetterSet>, loose: bool) -> Vec<Move> {
    // A captured face-down piece's identity: `[R]` at the end.
    let (text, unveil) = match text.strip_suffix(']').and_then(|t| t.rsplit_once('[')) {
        Some((t, u)) => (t, Some(u)),
        None => (text, None),
    };
    let mut found = Vec::new();
    for m in legal {
        if let Some(u) = unveil {
            if m.unveil == NO_KIND || u.len() != 1 || !u.starts_with(letter_of(v, m.unveil, set)) {
                continue;
            }
        }
        if forms(v, pos, m, legal, set, loose).iter().any(|f| f == text) && !found.contains(m) {
            found.push(*m);
        }
    }
    found
}

/// Every way of writing `m` (without the captured identity): SAN with and
/// without the reveal letter and with or without `=`, and coordinate notation.
///
/// Without the reveal letter a text names the whole chance node, so its
/// promotion suffix is conditional: `Rxa8=Q` means "promote to a queen if a
/// piece that promotes is revealed" and matches every outcome; `Rxa8` takes
/// the first target. A promotion letter without `=` is read as one only after
/// a reveal letter (`Txa8BD`): `Rxa8R` is the reveal of a rook, never a pawn
/// promoted to one.
fn forms(v: &Variant, pos: &Position, m: &Move, legal: &[Move], set: Option<&LetterSet>, loose: bool) -> Vec<String> {
    let decision = san_decision(v, pos, m, legal, set, loose);
    let mut out = Vec::new();
    if m.reveal == NO_KIND {
        out.push(decision.clone());
        if m.is_promotion() {
            let p = letter_of(v, m.promotion, set);
            out = vec![format!("{decision}={p}"), format!("{decision}{p}")];
        }
    } else {
        let r = letter_of(v, m.reveal, set);
        if m.is_promotion() {
            let p = letter_of(v, m.promotion, set);
            out.push(format!("{decision}{r}={p}"));
            out.push(format!("{decision}{r}{p}"));
            out.push(format!("{decision}={p}"));
            if first_target(v, m) == Some(m.promotion) {
                out.push(format!("{decision}{r}"));
                out.push(decision.clone());
            }
        } else {
            out.push(format!("{decision}{r}"));
            out.push(decision.clone());
            // A conditional promotion suffix written without the reveal letter.
            for rule in v.game.promotions.iter().filter(|rule| rule.zone[pos.side as usize].contains(&m.to)) {
                for &target in &rule.targets {
                    let p = format!("{decision}={}", letter_of(v, target, set));
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
    }
    if !loose && set.is_none() {
        let coord = coordinate(v, &m.decision());
        out.push(coord.clone());
        out.push(coordinate(v, &Move { unveil: NO_KIND, ..*m }));
        if m.kind == MoveKind::Castle {
            // The king's own destination also names castling (e1g1).
            out.push(format!("{}{}", v.game.geometry.name(m.from), v.game.geometry.name(m.to)));
        }
        if m.is_promotion() && m.reveal == NO_KIND {
            // Promotion letter in either case.
            out.push(format!("{}{}", &coord[..coord.len() - 1], v.game.kinds[m.promotion as usize].letter));
        }
    }
    out
}

/// The first target of the promotion rule that applies to a revealed identity at `m.to`.
fn first_target(v: &Variant, m: &Move) -> Option<KindId> {
    v.game.promotions.iter().find(|r| r.kind == m.reveal).and_then(|r| r.targets.first().copied())
}

/// The distinct decisions among `moves`, in order.
fn distinct_decisions(moves: &[Move]) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::new();
    for m in moves {
        let d = m.decision();
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
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
