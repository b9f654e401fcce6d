//! What an `observe` item (§3.21) leaves for a reading to decide, found in
//! positions reached from the setup, each with its witness (the line from
//! the setup, the position, the move) and what each reading would do there:
//!
//! - C0236: a displaced piece's squares depend on where the distance is
//!   counted from (the square it leaves, or the one where it was seen);
//! - C0237: a seen piece cannot change its speed (its kind has no slower
//!   kind, or it is seen on a square where it captures);
//! - C0238: a seen move has no alternative at all: it is not made, and
//!   nothing replaces it;
//! - C0239: a moving piece is seen at more than one square of its path.
//!
//! Each points at the `observe` item, so a ruling that `settles observe`
//! settles it ([`crate::settled`]). The search is breadth first, so each
//! witness comes with one of the shortest lines; it stops when every kind
//! of finding has a witness, at [`MAX_DEPTH`] plies, [`MAX_POSITIONS`]
//! positions or the deadline.

use crate::diagram::diagram;
use rulebook_grammar::Diagnostic;
use rulebook_interpreter::engine::movegen::observe::{displacement_cells, sightings, Sighting};
use rulebook_interpreter::engine::position::UNSEEN;
use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::model::observe::{Anchor, Observation};
use rulebook_interpreter::text::notation::san;
use rulebook_interpreter::{Position, Variant};
use std::time::Instant;

/// The deepest ply the search looks at.
pub const MAX_DEPTH: usize = 4;
/// The most positions the search looks at.
pub const MAX_POSITIONS: usize = 20_000;

/// The kinds of finding, one witness each.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gap {
    Anchor,
    NoSlowerKind,
    SeenWhereItCaptures,
    NoAlternative,
    SeenTwice,
}

const GAPS: [Gap; 5] = [Gap::Anchor, Gap::NoSlowerKind, Gap::SeenWhereItCaptures, Gap::NoAlternative, Gap::SeenTwice];

/// What the search found: the diagnostics, and how far it looked.
pub struct Findings {
    /// One diagnostic per kind of finding witnessed.
    pub diagnostics: Vec<Diagnostic>,
    /// Positions looked at.
    pub positions: usize,
    /// The deepest ply looked at.
    pub depth: usize,
}

/// Looks for what `v`'s `observe` item leaves open, until `deadline`.
/// Nothing for a variant without one.
pub fn gaps(v: &Variant, deadline: Instant) -> Findings {
    let mut findings = Findings { diagnostics: Vec::new(), positions: 0, depth: 0 };
    let (Some(obs), Ok(start)) = (&v.game.observe, v.start()) else { return findings };
    let mut found: Vec<Gap> = Vec::new();
    let mut level: Vec<(Position, Vec<String>)> = vec![(start, Vec::new())];
    for depth in 0..=MAX_DEPTH {
        findings.depth = depth;
        let mut next = Vec::new();
        for (pos, line) in &level {
            if findings.positions >= MAX_POSITIONS || Instant::now() >= deadline || found.len() == GAPS.len() {
                return findings;
            }
            findings.positions += 1;
            let legal = v.legal_moves(pos);
            for s in sightings(&v.game, &v.tables_for(pos), pos) {
                for gap in GAPS {
                    if found.contains(&gap) || !applies(v, obs, pos, &legal, &s, gap) {
                        continue;
                    }
                    found.push(gap);
                    findings.diagnostics.push(report(v, obs, pos, line, &s, gap));
                }
            }
            if depth < MAX_DEPTH {
                for m in &legal {
                    let mut longer = line.clone();
                    longer.push(san(v, pos, m, &legal));
                    next.push((v.play(pos, m), longer));
                }
            }
        }
        level = next;
    }
    findings
}

/// Does the sighting `s` in `pos` witness `gap`?
fn applies(v: &Variant, obs: &Observation, pos: &Position, legal: &[rulebook_interpreter::engine::position::Move], s: &Sighting, gap: Gap) -> bool {
    let slower = obs.slow[kind(pos, s.from)];
    match gap {
        Gap::Anchor => obs.displace.is_some() && displacement_cells(&v.game, pos, s, Anchor::Departure) != displacement_cells(&v.game, pos, s, Anchor::Seen),
        Gap::NoSlowerKind => slower.is_none(),
        Gap::SeenWhereItCaptures => slower.is_some() && pos.board[s.at as usize] != 0,
        Gap::NoAlternative => !legal.iter().any(|m| m.from == s.from && m.second == s.at && m.observed != UNSEEN),
        Gap::SeenTwice => !s.again.is_empty(),
    }
}

/// The kind (its index) of the piece on `cell`.
fn kind(pos: &Position, cell: Cell) -> usize {
    rulebook_interpreter::engine::position::kind_of(pos.board[cell as usize]) as usize
}

/// The diagnostic for `gap`, witnessed by `s` in `pos` after `line`.
fn report(v: &Variant, obs: &Observation, pos: &Position, line: &[String], s: &Sighting, gap: Gap) -> Diagnostic {
    let game = &v.game;
    let geo = &game.geometry;
    let names = |cells: &[Cell]| -> String {
        if cells.is_empty() {
            return "nowhere".to_string();
        }
        cells.iter().map(|&c| geo.name(c)).collect::<Vec<_>>().join(" ")
    };
    let piece = &game.kinds[kind(pos, s.from)].name;
    let pieces = |n: u8| if n == 1 { "1 enemy piece".to_string() } else { format!("{n} enemy pieces") };
    let seen = format!(
        "the {piece} on {} is seen at {} by {} when it moves to {}",
        geo.name(s.from),
        geo.name(s.at),
        pieces(s.observers),
        names(&s.targets)
    );
    let (code, message, label, meaning, help) = match gap {
        Gap::Anchor => {
            let from_departure = displacement_cells(game, pos, s, Anchor::Departure);
            let from_seen = displacement_cells(game, pos, s, Anchor::Seen);
            let written = match obs.displace {
                Some(Anchor::Seen) => "`from seen`",
                _ => "`from departure`",
            };
            (
                "C0236",
                "where a displaced piece may go depends on where its distance is counted from".to_string(),
                format!("counts the distance {written}"),
                format!(
                    "{seen}; counted from {}, the square it leaves, it may be displaced to {}; counted from {}, where it is seen, to {} (before the test of the own king; the file says {written})",
                    geo.name(s.from),
                    names(&from_departure),
                    geo.name(s.at),
                    names(&from_seen)
                ),
                "say in a ruling which square the distance is counted from (`from departure` or `from seen`)".to_string(),
            )
        }
        Gap::NoSlowerKind => (
            "C0237",
            format!("a seen {piece} cannot change its speed: `slow` names no kind for it"),
            "names no slower kind for it".to_string(),
            format!(
                "{seen}; as written it can only be displaced{}; read otherwise, it would go on from {} as some other kind, or its move would stand",
                if obs.displace.is_some() { "" } else { " (and there is no displacement: its moves there are lost)" },
                geo.name(s.at)
            ),
            format!("say in a ruling what a seen {piece} does, or name a slower kind for it in `slow`"),
        ),
        Gap::SeenWhereItCaptures => (
            "C0237",
            format!("a {piece} is seen on a square where it captures, so it cannot go on from there"),
            "goes on from the square where the piece is seen".to_string(),
            format!(
                "{seen}, where it captures; as written it cannot change its speed there (it cannot stand on the enemy piece without capturing it); read otherwise, it would capture there and go on, or go on without capturing"
            ),
            "say in a ruling whether a piece seen where it captures can change its speed".to_string(),
        ),
        Gap::NoAlternative => (
            "C0238",
            format!("a seen {piece} has no alternative: its move is not made, and nothing replaces it"),
            "replaces a seen move".to_string(),
            format!(
                "{seen}; no change of speed or position is legal there, so as written those moves are lost; read otherwise, they would stand as ordinary moves"
            ),
            "say in a ruling whether a seen move without an alternative is lost or made as usual".to_string(),
        ),
        Gap::SeenTwice => {
            let again: Vec<String> = s.again.iter().map(|&(c, n)| format!("{} (by {})", geo.name(c), pieces(n))).collect();
            (
                "C0239",
                format!("a moving {piece} is seen at more than one square of its path"),
                "is seen at the first square only".to_string(),
                format!(
                    "{seen}, and again further on at {}; as written it is seen at the first, where its alternatives start; read otherwise, at each, with the alternatives each gives",
                    again.join(", ")
                ),
                "say in a ruling at which square a piece seen more than once is seen".to_string(),
            )
        }
    };
    let moves = if line.is_empty() { "in the setup".to_string() } else { format!("after {}", line.join(" ")) };
    Diagnostic::error(code, &obs.file, obs.span, message, label)
        .warning()
        .with_detail(format!("witness {moves}: {}", v.fen(pos)))
        .with_detail(meaning)
        .with_detail(diagram(v, pos))
        .with_help(help)
}
