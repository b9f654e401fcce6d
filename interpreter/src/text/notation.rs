//! Move notation: coordinate notation (`e2e4`, `e7e8q`, `P@e4`, castling as
//! king-takes-rook `e1h1`) and SAN-style notation (`Nf3`, `exd5`, `e8=Q+`,
//! `O-O`, `N@f3`), generated for any variant and parsed back against the legal
//! moves of a position. Chance outcomes are part of a move's text: the
//! identity a face-down piece is revealed as after the destination (`h4Q`,
//! German letters `h4D`), a captured face-down piece's identity in brackets.
//!
//! Spread pieces (`spread { … }`): a split writes its two cells red first
//! with the weight's separator between them (`Nd4&g5`, `Nd4>g5`, coordinate
//! `f3d4&g5`), an entangle adds `~` and the attacked half's cell
//! (`Be2&c4~d5`), a castling split writes the castling in one of the two
//! places (`O-O-O&f7`, `Kf7&O-O-O`), a move of a half always writes its whole
//! origin (`Nd5c7`, `d7d8=Q`), and a tunnel is `^` between origin and
//! destination (`Re7^e4`). The chance outcome of a collision or a tunnel
//! follows as `/red`, `/blue` (the attacker's unit first, then the victim's),
//! `/through` or `/bounce`; a text may give the die's face instead (`/5`).

pub mod action;

use crate::model::geometry::Cell;
use crate::model::{KindId, LetterSet, Weight};
use crate::engine::position::{kind_of, Move, MoveKind, Position, DISPLACED, NO_KIND, UNSEEN};
use crate::engine::spread::{self, Branch};
use crate::engine::variant::Variant;
use rulebook_grammar::ast::Span;
use rulebook_grammar::Diagnostic;

/// The letter of `kind` in the letter set `letters` (`None`: the FEN letters).
pub fn letter_of(v: &Variant, kind: KindId, letters: Option<&LetterSet>) -> char {
    match letters {
        Some(set) => set.letter(&v.game, kind),
        None => v.game.kinds[kind as usize].letter,
    }
}

/// How `kind` is written in SAN in the letter set `letters`: its letter,
/// after `+` for a promoted form (`+P`, a tokin).
pub fn written_of(v: &Variant, kind: KindId, letters: Option<&LetterSet>) -> String {
    let l = letter_of(v, kind, letters);
    if v.game.kinds[kind as usize].plus {
        format!("+{l}")
    } else {
        l.to_string()
    }
}

/// The suffix coordinate notation gives a promotion of `piece` to `target`:
/// the target's letter in lower case, `+` for the promoted form of the
/// piece's own letter (Fairy-Stockfish's `b3b4+`), `-` for a promoted form
/// turning back into its base kind (`a1a2-`).
fn promotion_suffix(v: &Variant, piece: KindId, target: KindId) -> String {
    let t = &v.game.kinds[target as usize];
    match v.game.kinds.get(piece as usize) {
        Some(p) if t.plus && p.letter == t.letter => "+".to_string(),
        Some(p) if p.plus && !t.plus && p.letter == t.letter => "-".to_string(),
        _ => t.written(1),
    }
}

/// The coordinate notation of `m`. A chance outcome is written after the
/// move: `/Q` for the identity a face-down piece is revealed as, `/xR` for
/// the identity of a captured face-down piece (`h2h4/Q`, `a1a8q/P/xR`).
///
/// Spread actions: a split is the origin, then its red and its blue cell
/// with the weight's separator between them (`f3d4&g5`, stay and move
/// `e2e2&c4`; a castling split writes the castling cell as the partner's
/// square, `e8a8&f7`); an entangle adds `~` and the attacked half's cell
/// (`e2e2&c4~d5`); a tunnel is `e7^e4`. A collision's or tunnel's outcome
/// follows: `/red`, `/blue` (the attacker's unit first, then the victim's),
/// `/through`, `/bounce`.
pub fn coordinate(v: &Variant, m: &Move) -> String {
    let mut s = coordinate_decision(v, m, false);
    if let Some(kind) = m.gated() {
        // Gating (Fairy-Stockfish's form): the gated piece's letter in lower
        // case; castling that gates on the partner's cell is written from it.
        if m.kind == MoveKind::Castle && m.second == m.aux as Cell {
            let geo = &v.game.geometry;
            s = format!("{}{}", geo.name(m.aux as Cell), geo.name(m.from));
        }
        s.push(v.game.kinds[kind as usize].letter.to_ascii_lowercase());
    }
    if let Some(cell) = m.wall() {
        // A wall (Fairy-Stockfish's form): `,` then the destination and the wall's square.
        let geo = &v.game.geometry;
        s = format!("{s},{}{}", geo.name(m.to), geo.name(cell));
    }
    s.push_str(&outcome_suffix(m));
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

/// The coordinate notation of `m` without any chance outcome; `king_to`
/// writes castling (also in a split) as the king's own destination (`e1g1`)
/// rather than the partner's square.
fn coordinate_decision(v: &Variant, m: &Move, king_to: bool) -> String {
    let geo = &v.game.geometry;
    let letter = v.game.kinds[m.piece as usize].letter;
    match action(m) {
        spread::SPLIT | spread::ENTANGLE => {
            let (red, blue) = split_cells(m);
            let cell = |c: Cell| {
                if m.kind == MoveKind::Castle && c == m.to && !king_to {
                    geo.name(partner(m))
                } else {
                    geo.name(c)
                }
            };
            let mut s = format!("{}{}{}{}", geo.name(m.from), cell(red), separator(v, m), cell(blue));
            if action(m) == spread::ENTANGLE {
                s.push('~');
                s.push_str(&geo.name(entangled(m)));
            }
            return s;
        }
        spread::TUNNEL => return format!("{}^{}", geo.name(m.from), geo.name(m.to)),
        _ => {}
    }
    if m.observed != UNSEEN {
        let mut s = format!("{}{}{}{}", geo.name(m.from), geo.name(m.second), observed_mark(m), geo.name(m.to));
        if m.is_promotion() {
            s.push_str(&promotion_suffix(v, m.piece, m.promotion));
        }
        return s;
    }
    match m.kind {
        // A drop as the promoted form names that form (`+P@a3`).
        MoveKind::Drop if m.is_promotion() => format!("{}@{}", v.game.kinds[m.promotion as usize].written(0), geo.name(m.to)),
        MoveKind::Drop => format!("{letter}@{}", geo.name(m.to)),
        MoveKind::Castle if king_to => format!("{}{}", geo.name(m.from), geo.name(m.to)),
        MoveKind::Castle => format!("{}{}", geo.name(m.from), geo.name(m.aux as u16)),
        _ => {
            let mut s = format!("{}{}", geo.name(m.from), geo.name(m.to));
            if m.is_promotion() {
                s.push_str(&promotion_suffix(v, m.piece, m.promotion));
            }
            s
        }
    }
}

/// The mark between the seen cell and the target of an observed move:
/// `>` slowed (it went on), `*` displaced.
fn observed_mark(m: &Move) -> char {
    if m.observed == DISPLACED {
        '*'
    } else {
        '>'
    }
}

// --- Spread actions ---------------------------------------------------------------

/// The spread action of `m` (`spread::SPLIT`, `ENTANGLE`, `TUNNEL`; 0 for an ordinary move).
fn action(m: &Move) -> u8 {
    m.spread & spread::ACTION
}

/// Is `m` a split or an entangle (the piece ends on two cells)?
fn is_split(m: &Move) -> bool {
    matches!(action(m), spread::SPLIT | spread::ENTANGLE)
}

/// The red and the blue cell of a split or entangle.
fn split_cells(m: &Move) -> (Cell, Cell) {
    if m.spread & spread::RED_SECOND != 0 {
        (m.second, m.to)
    } else {
        (m.to, m.second)
    }
}

/// The partner's cell of a castling split.
fn partner(m: &Move) -> Cell {
    (m.aux & 0xFFFF) as Cell
}

/// The cell of the enemy half an entangle attacks.
fn entangled(m: &Move) -> Cell {
    (m.aux >> 16) as Cell
}

/// The weight a split or entangle gives its piece.
fn weight_of<'a>(v: &'a Variant, m: &Move) -> Option<&'a Weight> {
    let index = (m.spread >> spread::WEIGHT_SHIFT) & spread::WEIGHT_MASK;
    v.game.spread.as_ref().and_then(|s| s.weights.get(index as usize))
}

/// The separator written between the two cells of a split (`&` without a
/// declared weight).
fn separator(v: &Variant, m: &Move) -> char {
    weight_of(v, m).map_or('&', |w| w.separator)
}

/// Are red and blue equally likely under `w`?
fn is_equal(w: &Weight) -> bool {
    w.red_faces.len() == w.blue_faces.len()
}

/// The same split with its colours the other way round, when the written
/// order of the cells may choose them: an equal split (one action whatever
/// cell is red) of a kind that is not `red forward`. `None` for any other
/// move. The generator lists such a split once; a text that writes its
/// cells the other way round means this move (the first cell written is red).
pub fn swapped(v: &Variant, m: &Move) -> Option<Move> {
    let rules = v.game.spread.as_ref()?;
    if action(m) != spread::SPLIT || rules.red_forward.contains(&m.piece) || !weight_of(v, m).is_some_and(is_equal) {
        return None;
    }
    Some(Move { spread: m.spread ^ spread::RED_SECOND, ..*m })
}

/// Is `m` one of `legal`, or an equal split that one of them writes the other way round ([`swapped`])?
pub fn is_listed(v: &Variant, legal: &[Move], m: &Move) -> bool {
    legal.contains(m) || swapped(v, m).is_some_and(|s| legal.contains(&s))
}

/// The outcome of a collision or a tunnel as written after the move:
/// `/red`, `/blue` for the attacker's unit, then for the victim's;
/// `/through`, `/bounce`. Empty for a move without such an outcome.
fn outcome_suffix(m: &Move) -> String {
    let word = |b: Branch| match b {
        Branch::Red => "/red",
        Branch::Blue => "/blue",
    };
    let mut s = String::new();
    if let Some(b) = spread::attacker_branch(m.outcome) {
        s.push_str(word(b));
    }
    if let Some(b) = spread::victim_branch(m.outcome) {
        s.push_str(word(b));
    }
    if m.outcome & spread::THROUGH != 0 {
        s.push_str("/through");
    }
    if m.outcome & spread::BOUNCE != 0 {
        s.push_str("/bounce");
    }
    s
}

/// The words that may end a move's text to state a chance outcome.
fn is_outcome_token(t: &str) -> bool {
    ["red", "blue", "through", "bounce"].iter().any(|w| t.eq_ignore_ascii_case(w))
        || (!t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit()))
}

/// Splits the outcome suffixes off a move's text (`Rd7xd4/blue/2` →
/// `Rd7xd4`, `["blue", "2"]`), in variants with spread pieces or tunnels.
fn split_outcome<'a>(v: &Variant, text: &'a str) -> (&'a str, Vec<&'a str>) {
    let mut rest = text;
    let mut tokens = Vec::new();
    if v.game.spread.is_none() && v.game.tunnel.is_none() {
        return (rest, tokens);
    }
    while let Some((head, tail)) = rest.rsplit_once('/') {
        if !is_outcome_token(tail) {
            break;
        }
        tokens.insert(0, tail);
        rest = head;
    }
    (rest, tokens)
}

/// The faces of a die, 1 to `faces`, that are not in `these`.
fn other_faces(faces: u8, these: &[u8]) -> Vec<u8> {
    (1..=faces).filter(|f| !these.contains(f)).collect()
}

/// Does the written outcome `tokens` (words or die faces) state `m`'s
/// chance outcome? An empty list states none and matches every outcome.
fn outcome_matches(v: &Variant, pos: &Position, m: &Move, tokens: &[&str]) -> bool {
    if tokens.is_empty() {
        return true;
    }
    // What the move's outcome says, in order: (word, faces that mean it).
    let mut parts: Vec<(&str, Vec<u8>)> = Vec::new();
    let state = pos.spread.as_deref();
    let weight = |cell: Cell| {
        state
            .and_then(|s| s.pair_at(cell))
            .and_then(|p| v.game.spread.as_ref().and_then(|r| r.weights.get(p.weight as usize)))
    };
    let branch_part = |b: Branch, w: Option<&Weight>| match b {
        Branch::Red => ("red", w.map_or_else(Vec::new, |w| w.red_faces.clone())),
        Branch::Blue => ("blue", w.map_or_else(Vec::new, |w| w.blue_faces.clone())),
    };
    if let Some(b) = spread::attacker_branch(m.outcome) {
        parts.push(branch_part(b, weight(m.from)));
    }
    if let Some(b) = spread::victim_branch(m.outcome) {
        let victim = if m.kind == MoveKind::EnPassant { partner(m) } else { m.to };
        parts.push(branch_part(b, weight(victim)));
    }
    if m.outcome & (spread::THROUGH | spread::BOUNCE) != 0 {
        let tunnel = v.game.tunnel.as_ref();
        let through = tunnel.map_or_else(Vec::new, |t| t.through_faces.clone());
        if m.outcome & spread::THROUGH != 0 {
            parts.push(("through", through));
        } else {
            let faces = tunnel.and_then(|t| v.game.dice.get(t.die)).map_or(0, |d| d.faces);
            parts.push(("bounce", other_faces(faces, &through)));
        }
    }
    parts.len() == tokens.len()
        && parts.iter().zip(tokens).all(|((word, faces), t)| {
            t.eq_ignore_ascii_case(word) || t.parse::<u8>().is_ok_and(|f| faces.contains(&f))
        })
}

/// The disambiguation of a piece moving from `from` when pieces of its kind
/// on `rivals` could make the same move: the origin's file label if that
/// tells them apart, else (in 2D) its rank label, else the whole square.
fn disambiguation(v: &Variant, from: Cell, rivals: &[Cell]) -> String {
    let geo = &v.game.geometry;
    if rivals.is_empty() {
        return String::new();
    }
    let from_coords = geo.coords(from);
    let file_unique = rivals.iter().all(|&o| geo.coords(o)[0] != from_coords[0]);
    let rank_unique = rivals.iter().all(|&o| geo.coords(o)[1] != from_coords[1]);
    if file_unique {
        geo.axes[0].labels[from_coords[0]].clone()
    } else if rank_unique && geo.dims() == 2 {
        geo.axes[1].labels[from_coords[1]].clone()
    } else {
        geo.name(from)
    }
}

/// SAN of a split or entangle: the piece (no letter for pawn-like kinds), a
/// disambiguation when another piece of its kind could split onto the same
/// two cells, the red cell, the weight's separator, the blue cell (`Nd4&g5`,
/// `e5&e7`); castling in place of its cell (`O-O-O&f7`, `Kf7&O-O-O`); for an
/// entangle `~` and the attacked half's cell. `loose` leaves out the disambiguation.
fn split_san(v: &Variant, m: &Move, legal: &[Move], letters: Option<&LetterSet>, loose: bool) -> String {
    let game = &v.game;
    let geo = &game.geometry;
    let letter = letter_of(v, m.piece, letters);
    let (red, blue) = split_cells(m);
    let sep = separator(v, m);
    let mut s = if m.kind == MoveKind::Castle {
        let short = game.castling.as_ref().and_then(|c| c.sides.get(m.side as usize)).is_some_and(|side| side.short);
        let castle = if short { "O-O" } else { "O-O-O" };
        if red == m.to {
            format!("{castle}{sep}{}", geo.name(blue))
        } else {
            format!("{letter}{}{sep}{castle}", geo.name(red))
        }
    } else {
        let cells = |o: &Move| {
            let (a, b) = (o.to.min(o.second), o.to.max(o.second));
            (a, b)
        };
        let rivals: Vec<Cell> = legal
            .iter()
            .filter(|o| is_split(o) && o.kind != MoveKind::Castle && o.piece == m.piece && o.from != m.from && cells(o) == cells(m))
            .map(|o| o.from)
            .collect();
        let mut s = String::new();
        if game.is_pawn_like(m.piece) {
            if !rivals.is_empty() && !loose {
                s.push_str(&geo.name(m.from));
            }
        } else {
            s.push(letter);
            if !loose {
                s.push_str(&disambiguation(v, m.from, &rivals));
            }
        }
        s.push_str(&geo.name(red));
        s.push(sep);
        s.push_str(&geo.name(blue));
        s
    };
    if action(m) == spread::ENTANGLE {
        s.push('~');
        s.push_str(&geo.name(entangled(m)));
    }
    s
}

/// Is `m` a capture?
pub fn is_capture(pos: &Position, m: &Move) -> bool {
    match m.kind {
        MoveKind::EnPassant => true,
        MoveKind::Castle | MoveKind::Drop => false,
        // A promotion in place (`becomes … in place`) captures nothing.
        _ => m.from != m.to && pos.board[m.to as usize] != 0,
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
/// identity of a captured face-down piece in brackets (`Nxd5[B]`), then the
/// outcome of a collision or tunnel (`Ng5xh7/blue`, `Re7^e4/through`).
pub fn san_plain_in(v: &Variant, pos: &Position, m: &Move, legal: &[Move], letters: Option<&LetterSet>) -> String {
    let mut s = san_decision(v, pos, m, legal, letters, false);
    if m.reveal != NO_KIND {
        s.push(letter_of(v, m.reveal, letters));
    }
    if m.is_promotion() && m.kind != MoveKind::Drop {
        s.push('=');
        s.push_str(&written_of(v, m.promotion, letters));
    }
    if m.unveil != NO_KIND {
        s.push('[');
        s.push(letter_of(v, m.unveil, letters));
        s.push(']');
    }
    s.push_str(&gate_suffix(v, m, letters));
    s.push_str(&outcome_suffix(m));
    s
}

/// A gating move's SAN suffix: `/H` (castling also names the cell: `/He1`);
/// empty for other moves.
fn gate_suffix(v: &Variant, m: &Move, letters: Option<&LetterSet>) -> String {
    if let Some(cell) = m.wall() {
        return format!(",{}", v.game.geometry.name(cell));
    }
    let Some(kind) = m.gated() else {
        return String::new();
    };
    let mut s = format!("/{}", written_of(v, kind, letters));
    if m.kind == MoveKind::Castle {
        s.push_str(&v.game.geometry.name(m.second));
    }
    s
}

/// SAN up to the destination (no reveal, promotion or captured identity);
/// `loose` leaves out the capture mark and disambiguation.
fn san_decision(v: &Variant, pos: &Position, m: &Move, legal: &[Move], letters: Option<&LetterSet>, loose: bool) -> String {
    let game = &v.game;
    let geo = &game.geometry;
    let letter = written_of(v, m.piece, letters);
    let pawn_like = game.is_pawn_like(m.piece);
    match action(m) {
        spread::SPLIT | spread::ENTANGLE => return split_san(v, m, legal, letters, loose),
        spread::TUNNEL => {
            let piece = if pawn_like { String::new() } else { letter.clone() };
            return format!("{piece}{}^{}", geo.name(m.from), geo.name(m.to));
        }
        _ => {}
    }
    if m.is_pass() {
        return "pass".to_string();
    }
    match m.kind {
        MoveKind::Drop if m.is_promotion() => return format!("{}@{}", written_of(v, m.promotion, letters), geo.name(m.to)),
        MoveKind::Drop => return format!("{letter}@{}", geo.name(m.to)),
        MoveKind::Castle => {
            let short = game.castling.as_ref().is_some_and(|c| c.sides[m.side as usize].short);
            return if short { "O-O".into() } else { "O-O-O".into() };
        }
        _ => {}
    }
    let capture = is_capture(pos, m);
    if m.observed != UNSEEN {
        // Observed: always the departure and the seen cell (`Rc3c4>xf7`, `Nc3c4*e1`).
        let piece = if pawn_like { String::new() } else { letter.clone() };
        let x = if capture { "x" } else { "" };
        return format!("{piece}{}{}{}{x}{}", geo.name(m.from), geo.name(m.second), observed_mark(m), geo.name(m.to));
    }
    if loose {
        let mut s = String::new();
        if !game.is_pawn_like(m.piece) {
            s.push_str(&letter);
        }
        s.push_str(&geo.name(m.to));
        return s;
    }
    if pos.spread.as_ref().is_some_and(|s| s.pair_at(m.from).is_some()) {
        // A half: its whole origin, always (the piece stands on two squares).
        let piece = if pawn_like { String::new() } else { letter.clone() };
        let x = if capture { "x" } else { "" };
        return format!("{piece}{}{x}{}", geo.name(m.from), geo.name(m.to));
    }
    let from_coords = geo.coords(m.from);
    let label = |axis: usize| geo.axes[axis].labels[from_coords[axis]].clone();
    let rivals: Vec<&Move> = legal
        .iter()
        .filter(|o| {
            o.piece == m.piece
                && o.to == m.to
                && o.from != m.from
                && o.spread == 0
                && !matches!(o.kind, MoveKind::Drop | MoveKind::Castle)
        })
        .collect();
    let mut s = String::new();
    if pawn_like {
        if capture {
            let same_file = rivals.iter().any(|o| geo.coords(o.from)[0] == from_coords[0] && is_capture(pos, o));
            s.push_str(&if same_file { geo.name(m.from) } else { label(0) });
        } else if !rivals.is_empty() {
            // Two pawn-like pieces step to one cell (possible on boards of 3+ dimensions).
            s.push_str(&geo.name(m.from));
        }
    } else {
        s.push_str(&letter);
        let froms: Vec<Cell> = rivals.iter().map(|o| o.from).collect();
        s.push_str(&disambiguation(v, m.from, &froms));
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
        // A `rule` item can end the game where the side in check has escapes: not mate.
        let mate = if v.game.rules.is_empty() {
            v.legal_moves(&next).is_empty()
        } else {
            matches!(v.status(&next), crate::engine::variant::Status::Checkmate(_))
        };
        s.push(if mate { '#' } else { '+' });
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
    let question = if found.iter().any(|m| m.outcome != 0) { "how did the roll go?" } else { "which piece is revealed?" };
    Err(Diagnostic::error("E0403", name, span, format!("`{}` leaves the chance outcome open", text.trim()), question)
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
///
/// A collision or tunnel written without its outcome (`Ng5xh7`) is the
/// whole chance node too; with it (`Ng5xh7/blue`, or the die's face
/// `Ng5xh7/5`) it is one move. An equal split written with its cells the
/// other way round than the legal move lists them is that move with its
/// colours swapped ([`swapped`]): the first cell written is red.
pub fn parse_candidates(
    v: &Variant,
    pos: &Position,
    text: &str,
    letters: Option<&LetterSet>,
    name: &str,
    offset: usize,
) -> Result<Vec<Move>, Diagnostic> {
    parse_among(v, pos, &v.legal_moves(pos), text, letters, name, offset)
}

/// [`parse_candidates`] among the moves `legal` (the legal moves of `pos`).
fn parse_among(
    v: &Variant,
    pos: &Position,
    legal: &[Move],
    text: &str,
    letters: Option<&LetterSet>,
    name: &str,
    offset: usize,
) -> Result<Vec<Move>, Diagnostic> {
    let legal = legal.to_vec();
    let span = Span::new(offset, offset + text.len().max(1));
    // A trailing `+` is a check mark, or (coordinate notation) a promotion to
    // a promoted form (`b2h8+`, §3.5): the text with it is tried first.
    let marked = text.trim().trim_end_matches(['#', '!', '?']);
    let base = marked.trim_end_matches(['+', '#', '!', '?']);
    // `0-0` is a common spelling of `O-O`.
    let cleaned = if base.starts_with("0-0") { base.replace('0', "O") } else { base.to_string() };
    let plus_form = (marked != base && v.game.kinds.iter().any(|k| k.plus)).then(|| format!("{base}+"));
    let sets: Vec<Option<&LetterSet>> = match letters {
        Some(set) => vec![Some(set)],
        None => std::iter::once(None).chain(v.game.letter_sets.iter().map(Some)).collect(),
    };
    // Per letter set, the moves the text matches (strictly, else loosely).
    let mut readings: Vec<(Option<&LetterSet>, Vec<Move>)> = Vec::new();
    // A loose reading that names several pieces in one set is an error only
    // when no set reads the text as one move (`BIb6`: a bishop move in the
    // FEN letters, either of two pawns in German ones).
    let mut loose_ambiguity = None;
    for &set in &sets {
        let mut found = plus_form.as_ref().map(|t| matching(v, pos, &legal, t, set, false)).unwrap_or_default();
        if found.is_empty() {
            found = matching(v, pos, &legal, &cleaned, set, false);
        }
        if found.is_empty() {
            found = matching(v, pos, &legal, &cleaned.replace('x', ""), set, true);
            let decisions = distinct_decisions(&found);
            if decisions.len() > 1 {
                let all: Vec<String> = decisions.iter().map(|m| san_decision(v, pos, m, &legal, set, false)).collect();
                loose_ambiguity.get_or_insert_with(|| {
                    Diagnostic::error("E0402", name, span, format!("`{}` is ambiguous", text.trim()), "several pieces can make this move")
                        .with_help(format!("write one of: {}", all.join(" ")))
                });
                continue;
            }
        }
        if !found.is_empty() {
            readings.push((set, found));
        }
    }
    if let (true, Some(d)) = (readings.is_empty(), loose_ambiguity) {
        return Err(d);
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
            .with_help(format!("{}; {}; write the coordinate move you mean", describe(&first_set, &first), describe(other_set, other))));
    }
    let decisions = distinct_decisions(&first);
    if decisions.len() > 1 {
        let all: Vec<String> = first.iter().map(|m| coordinate(v, m)).collect();
        return Err(Diagnostic::error("E0402", name, span, format!("`{}` is ambiguous", text.trim()), "matches several moves")
            .with_help(format!("write one of: {}", all.join(" "))));
    }
    Ok(first)
}

/// The moves among `legal` that `text` names in letter set `set` (an equal
/// split written the other way round: that split with its colours swapped).
fn matching(v: &Variant, pos: &Position, legal: &[Move], text: &str, set: Option<&LetterSet>, loose: bool) -> Vec<Move> {
    // The outcome of a collision or tunnel: `/red`, `/blue/2`, `/through` at the end.
    let (text, outcome) = split_outcome(v, text);
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
        for c in std::iter::once(*m).chain(swapped(v, m)) {
            if outcome_matches(v, pos, &c, &outcome)
                && forms(v, pos, &c, legal, set, loose).iter().any(|f| f == text)
                && !found.contains(&c)
            {
                found.push(c);
            }
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
        if m.is_promotion() && m.kind != MoveKind::Drop {
            let p = written_of(v, m.promotion, set);
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
    if m.gate != NO_KIND {
        // Every SAN form names the gated piece (`Nf3/H`, `O-O/Hh1`) or the wall (`e4,e5`).
        let gate = gate_suffix(v, m, set);
        for f in &mut out {
            f.push_str(&gate);
        }
    }
    if !loose && set.is_none() {
        let coord = coordinate(v, &m.decision());
        out.push(coord.clone());
        out.push(coordinate(v, &Move { unveil: NO_KIND, outcome: 0, ..*m }));
        if m.kind == MoveKind::Castle && m.wall().is_none() && (m.gate == NO_KIND || m.second == m.from) {
            // The king's own destination also names castling (e1g1, e8c8&f7;
            // gating on the king's cell e1g1h, as Fairy-Stockfish writes it).
            let mut s = coordinate_decision(v, m, true);
            if let Some(kind) = m.gated() {
                s.push(v.game.kinds[kind as usize].letter.to_ascii_lowercase());
            }
            out.push(s);
        }
        if m.is_promotion() && m.reveal == NO_KIND && !v.game.kinds[m.promotion as usize].plus {
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
    if crate::engine::position::color_of(code) == 0 {
        k.letter
    } else {
        k.letter.to_ascii_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::fen::niels_for_tests;
    use crate::engine::position::NO_CELL;
    use crate::engine::spread::{ATTACKER_BLUE, ATTACKER_RED, BOUNCE, ENTANGLE, RED_SECOND, SPLIT, THROUGH, TUNNEL, VICTIM_RED, WEIGHT_SHIFT};

    const EQUAL: u8 = 0;
    const UNEQUAL: u8 = 1 << WEIGHT_SHIFT;

    struct Board {
        v: Variant,
        pos: Position,
    }

    impl Board {
        fn new(fen: &str) -> Board {
            let v = niels_for_tests();
            let pos = v.parse_fen(fen, "<test>").unwrap_or_else(|d| panic!("{fen}: {}", d.message));
            Board { v, pos }
        }

        fn sq(&self, name: &str) -> Cell {
            self.v.game.geometry.parse_square(name).unwrap_or_else(|| panic!("{name} is no square"))
        }

        fn kind(&self, name: &str) -> KindId {
            self.v.game.kind_by_name(name).unwrap_or_else(|| panic!("no {name}"))
        }

        /// A move of `kind` from `from` to `to`.
        fn mv(&self, kind: &str, from: &str, to: &str) -> Move {
            Move::normal(self.kind(kind), self.sq(from), self.sq(to))
        }

        /// A split of `kind` from `from` onto `to` and `second`, with `spread` bits.
        fn split(&self, kind: &str, from: &str, to: &str, second: &str, spread: u8) -> Move {
            Move { second: self.sq(second), spread, ..self.mv(kind, from, to) }
        }

        fn san(&self, m: &Move, legal: &[Move]) -> String {
            san_plain_in(&self.v, &self.pos, m, legal, None)
        }

        fn coord(&self, m: &Move) -> String {
            coordinate(&self.v, m)
        }

        /// What `text` means among `legal`.
        fn read(&self, text: &str, legal: &[Move]) -> Result<Vec<Move>, Diagnostic> {
            parse_among(&self.v, &self.pos, legal, text, None, "<test>", 0)
        }

        fn one(&self, text: &str, legal: &[Move]) -> Move {
            match self.read(text, legal) {
                Ok(found) if found.len() == 1 => found[0],
                Ok(found) => panic!("{text}: {} moves", found.len()),
                Err(d) => panic!("{text}: {} ({:?})", d.message, d.help),
            }
        }
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn splits_are_written_red_first_with_the_weights_separator() {
        let b = Board::new(START);
        let equal = b.split("Knight", "g1", "f3", "h3", SPLIT | EQUAL);
        let unequal_h3 = b.split("Knight", "g1", "f3", "h3", SPLIT | UNEQUAL | RED_SECOND);
        let pawn = b.split("Pawn", "e2", "e4", "e3", SPLIT | EQUAL);
        let stay = b.split("Pawn", "e2", "e3", "e2", SPLIT | UNEQUAL);
        let legal = [equal, unequal_h3, pawn, stay];
        assert_eq!((b.san(&equal, &legal), b.coord(&equal)), ("Nf3&h3".into(), "g1f3&h3".into()));
        assert_eq!((b.san(&unequal_h3, &legal), b.coord(&unequal_h3)), ("Nh3>f3".into(), "g1h3>f3".into()));
        assert_eq!((b.san(&pawn, &legal), b.coord(&pawn)), ("e4&e3".into(), "e2e4&e3".into()));
        assert_eq!((b.san(&stay, &legal), b.coord(&stay)), ("e3>e2".into(), "e2e3>e2".into()));
        for m in legal {
            assert_eq!(b.one(&b.san(&m, &legal), &legal), m);
            assert_eq!(b.one(&b.coord(&m), &legal), m);
        }
    }

    #[test]
    fn an_equal_split_written_the_other_way_round_swaps_its_colours() {
        let b = Board::new(START);
        let equal = b.split("Knight", "g1", "f3", "h3", SPLIT | EQUAL);
        let pawn = b.split("Pawn", "e2", "e4", "e3", SPLIT | EQUAL);
        let legal = [equal, pawn];
        let swapped = b.one("Nh3&f3", &legal);
        assert_eq!(swapped, Move { spread: SPLIT | RED_SECOND, ..equal });
        assert_eq!(b.san(&swapped, &legal), "Nh3&f3");
        assert_eq!(b.one("g1h3&f3", &legal), swapped);
        assert!(is_listed(&b.v, &legal, &swapped));
        // A pawn's red half is the front one: the order is not free.
        assert!(b.read("e3&e4", &legal).is_err());
        // An unequal split is two actions: the other order is not this one.
        let unequal = b.split("Knight", "g1", "f3", "h3", SPLIT | UNEQUAL);
        assert!(b.read("Nh3>f3", &[unequal]).is_err());
        assert_eq!(swapped_of(&b, &unequal), None);
    }

    fn swapped_of(b: &Board, m: &Move) -> Option<Move> {
        swapped(&b.v, m)
    }

    #[test]
    fn entangles_name_the_attacked_half() {
        let b = Board::new("r1bqk2r/pp1p1ppp/5n2/3n4/8/8/PPPPBPPP/RN1QK2R w KQkq - 0 1 ~ nd5f6:equal");
        let aux = (b.sq("d5") as u32) << 16;
        let stay_red = Move { aux, ..b.split("Bishop", "e2", "c4", "e2", ENTANGLE | EQUAL | RED_SECOND) };
        let move_red = Move { aux, ..b.split("Bishop", "e2", "c4", "e2", ENTANGLE | EQUAL) };
        let legal = [stay_red, move_red];
        assert_eq!((b.san(&stay_red, &legal), b.coord(&stay_red)), ("Be2&c4~d5".into(), "e2e2&c4~d5".into()));
        assert_eq!((b.san(&move_red, &legal), b.coord(&move_red)), ("Bc4&e2~d5".into(), "e2c4&e2~d5".into()));
        assert_eq!(b.one("Be2&c4~d5", &legal), stay_red);
        assert_eq!(b.one("e2c4&e2~d5", &legal), move_red);
        assert!(b.read("Be2&c4", &legal).is_err(), "a plain split is another action");
    }

    #[test]
    fn castling_splits_write_the_castling_in_its_place() {
        let b = Board::new("r3k3/8/8/8/8/8/8/4K3 b q - 0 1");
        let rule = b.v.game.castling.as_ref().expect("castling");
        let long = rule.sides.iter().position(|s| !s.short).expect("long castling") as u8;
        let castle = Move {
            kind: MoveKind::Castle,
            aux: b.sq("a8") as u32,
            side: long,
            ..b.split("King", "e8", "c8", "f7", SPLIT | EQUAL)
        };
        let legal = [castle];
        assert_eq!((b.san(&castle, &legal), b.coord(&castle)), ("O-O-O&f7".into(), "e8a8&f7".into()));
        let other = Move { spread: castle.spread | RED_SECOND, ..castle };
        assert_eq!((b.san(&other, &legal), b.coord(&other)), ("Kf7&O-O-O".into(), "e8f7&a8".into()));
        assert_eq!(b.one("O-O-O&f7", &legal), castle);
        assert_eq!(b.one("0-0-0&f7", &legal), castle);
        assert_eq!(b.one("e8c8&f7", &legal), castle);
        assert_eq!(b.one("Kf7&O-O-O", &legal), other, "an equal split: the order written fixes red");
    }

    #[test]
    fn a_half_always_writes_its_origin() {
        let b = Board::new("k7/3P4/4P3/8/2N5/8/1N6/4K3 w - - 0 1 ~ Pd7e6:equal Nb2c4:unequal");
        let queen = b.kind("Queen");
        let promote = Move { promotion: queen, ..b.mv("Pawn", "d7", "d8") };
        let knight = b.mv("Knight", "c4", "d6");
        let legal = [promote, knight];
        assert_eq!((b.san(&promote, &legal), b.coord(&promote)), ("d7d8=Q".into(), "d7d8q".into()));
        assert_eq!(b.san(&knight, &legal), "Nc4d6");
        for text in ["d7d8=Q", "d7d8Q", "d7d8q", "Nc4d6", "c4d6"] {
            b.one(text, &legal);
        }
    }

    #[test]
    fn collisions_state_each_units_branch_attacker_first() {
        let b = Board::new("4k3/R2R4/8/8/3r3r/8/8/4K1Q1 w - - 0 1 ~ Ra7d7:equal rd4h4:unequal");
        let rook = |outcome| Move { outcome, ..b.mv("Rook", "d7", "d4") };
        let queen = |outcome| Move { outcome, ..b.mv("Queen", "g1", "d4") };
        let mut legal = Vec::new();
        for a in [ATTACKER_RED, ATTACKER_BLUE] {
            for v in [VICTIM_RED, crate::engine::spread::VICTIM_BLUE] {
                legal.push(rook(a | v));
            }
        }
        legal.push(queen(VICTIM_RED));
        legal.push(queen(crate::engine::spread::VICTIM_BLUE));
        let blue_red = rook(ATTACKER_BLUE | VICTIM_RED);
        assert_eq!(b.san(&blue_red, &legal), "Rd7xd4/blue/red");
        assert_eq!(b.coord(&blue_red), "d7d4/blue/red");
        assert_eq!(b.san(&queen(VICTIM_RED), &legal), "Qxd4/red");
        assert_eq!(b.one("Rd7xd4/blue/red", &legal), blue_red);
        assert_eq!(b.one("d7d4/blue/red", &legal), blue_red);
        // Die faces: the attacker's unit is equal (blue 1 3 5), the victim's unequal (red 1–4).
        assert_eq!(b.one("Rd7xd4/5/2", &legal), blue_red);
        assert_eq!(b.one("Rd7xd4/blue/4", &legal), blue_red);
        assert_eq!(b.one("Rd7xd4/6/5", &legal), rook(ATTACKER_RED | crate::engine::spread::VICTIM_BLUE));
        assert_eq!(b.one("Qxd4/3", &legal), queen(VICTIM_RED));
        assert_eq!(b.one("Qxd4/Red", &legal), queen(VICTIM_RED));
        // Without the outcome: the whole chance node.
        assert_eq!(b.read("Rd7xd4", &legal).map(|f| f.len()).ok(), Some(4));
        assert_eq!(b.read("Qxd4+", &legal).map(|f| f.len()).ok(), Some(2));
        // Outcomes that do not fit are not moves.
        for text in ["Rd7xd4/blue", "Rd7xd4/blue/red/red", "Qxd4/red/red", "Qxd4/7", "Rd7xd4/through/red"] {
            assert!(b.read(text, &legal).is_err(), "{text}");
        }
    }

    #[test]
    fn one_unit_one_suffix() {
        let b = Board::new("r1bqk2r/pp1p1ppp/5n2/3n2N1/2BN4/8/PPPPBPPP/RN1QK2R w KQkq - 0 1 ~ Bc4e2+nd5f6:equal:/ Nd4g5:unequal");
        let inside = Move { outcome: ATTACKER_RED, ..b.mv("Bishop", "c4", "d5") };
        let knight = |outcome| Move { outcome, ..b.mv("Knight", "g5", "h7") };
        let legal = [inside, knight(ATTACKER_RED), knight(ATTACKER_BLUE)];
        assert_eq!(b.san(&inside, &legal), "Bc4xd5/red");
        assert_eq!(b.san(&knight(ATTACKER_BLUE), &legal), "Ng5xh7/blue");
        assert_eq!(b.one("Ng5xh7/5", &legal), knight(ATTACKER_BLUE), "unequal: 5 and 6 are blue");
        assert_eq!(b.one("Ng5xh7/4", &legal), knight(ATTACKER_RED));
        assert_eq!(b.one("Bc4xd5/2", &legal), inside);
        assert!(b.read("Bc4xd5/1", &legal).is_err(), "1 is blue for an equal unit");
    }

    #[test]
    fn tunnels_pass_or_bounce() {
        let b = Board::new("4k3/R7/8/p7/8/4n3/4P3/4K3 w - - 0 1");
        let rook = |outcome| Move { spread: TUNNEL, outcome, ..b.mv("Rook", "a7", "a4") };
        let pawn = |outcome| Move { spread: TUNNEL, outcome, ..b.mv("Pawn", "e2", "e4") };
        let legal = [rook(THROUGH), rook(BOUNCE), pawn(THROUGH), pawn(BOUNCE)];
        assert_eq!((b.san(&rook(THROUGH), &legal), b.coord(&rook(THROUGH))), ("Ra7^a4/through".into(), "a7^a4/through".into()));
        assert_eq!(b.san(&pawn(BOUNCE), &legal), "e2^e4/bounce");
        assert_eq!(b.one("Ra7^a4/6", &legal), rook(THROUGH));
        assert_eq!(b.one("e2^e4/1", &legal), pawn(BOUNCE));
        assert_eq!(b.one("a7^a4/bounce", &legal), rook(BOUNCE));
        assert_eq!(b.read("Ra7^a4", &legal).map(|f| f.len()).ok(), Some(2));
        assert!(b.read("Ra7^a4/7", &legal).is_err());
        assert!(b.read("Ra7^a4/red", &legal).is_err());
    }

    #[test]
    fn ordinary_moves_keep_their_notation() {
        let b = Board::new(START);
        let legal = b.v.legal_moves(&b.pos);
        let plain: Vec<&Move> = legal.iter().filter(|m| m.spread == 0).collect();
        assert_eq!(plain.len(), 20);
        for m in plain {
            assert_eq!(m.second, NO_CELL);
            let san = b.san(m, &legal);
            assert!(!san.contains(['&', '/', '^', '~']), "{san}");
            assert_eq!(b.one(&san, &legal), *m);
        }
    }
}
