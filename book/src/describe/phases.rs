//! The phases before play in plain language ([`Game::phases`]): what each
//! is for, the order of its decisions, where pieces may be placed, what
//! narrows a placement and when the phase ends.

use super::cond::{self, article, kinds, owners_place, plural};
use super::rules::capital;
use super::words::{kind, or_list, player};
use super::Section;
use rulebook_interpreter::model::cond::{Atom, Who};
use rulebook_interpreter::model::flow::{OrderEntry, Phase, Placement};
use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::model::Game;

/// One section per phase, in the order they run.
pub fn phases(game: &Game) -> Vec<Section> {
    game.phases.iter().enumerate().map(|(i, p)| phase(game, i, p)).collect()
}

/// Where phase `p` is written: its file and the byte offset of its start,
/// for [`Section::at`] once the file's text is at hand.
pub fn origin(p: &Phase) -> (&str, usize) {
    (p.file.as_str(), p.span.start)
}

/// The section of phase `p`, the `index`-th of the game's phases.
pub fn phase(game: &Game, index: usize, p: &Phase) -> Section {
    let n = game.phases.len();
    let next = game.phases.get(index + 1).map(|q| format!("the {} phase", q.name));
    let place = match (index, &next) {
        (0, None) => "The game begins in this phase; play follows when it ends.".to_string(),
        (0, Some(q)) => format!("The game begins in this phase, the first of {n}; {q} follows it."),
        (i, q) => format!(
            "This phase follows the {} phase; {} follows it.",
            game.phases[i - 1].name,
            q.clone().unwrap_or_else(|| "play".to_string())
        ),
    };
    let Placement { order, different_colours, safe, castling, only_if } = &p.placement;
    let (file, offset) = origin(p);
    let mut s = Section::new(format!("The {} phase", p.name)).describes(rulebook_interpreter::model::doc::ItemRef::Phase(p.name.clone())).at(file, offset).paragraph(place).paragraph(format!(
        "In it the players place the pieces of their hands on the board, {} first, then in turn, one piece a turn. While a player's hand holds pieces, each of that player's turns is a placement; a player whose hand is empty, or who has no legal placement, moves as in play instead.",
        player(game, 0)
    ));
    s = where_placed(game, s);
    // The order of the placements.
    if order.is_empty() {
        s = s.paragraph("Each player places the pieces of its hand in any order.");
    } else {
        let rows: Vec<Vec<String>> = order.iter().enumerate().map(|(i, e)| entry(game, i, e)).collect();
        s = s
            .paragraph(format!(
                "Each player places its {} pieces in this order (the piece due is the one after those already placed), each on an empty cell that the hand allows and that the row names:",
                order.len()
            ))
            .table(vec!["#".into(), "Piece".into(), "Cells".into(), "Colour".into()], rows);
        if order.iter().any(|e| e.colour.is_some()) {
            s = s.paragraph(format!(
                "A cell's colour is the parity of the sum of its coordinates: {} and {}.",
                colour_name(game, 0),
                colour_name(game, 1)
            ));
        }
    }
    for &k in different_colours {
        let many = plural(kind(game, k));
        s = s.paragraph(format!(
            "A player's {many} must end on cells of different colours: {} may not go on a colour that already holds its share of the player's {many} (half, rounded up), and a placement of another piece must leave, on each colour, enough empty cells where the {many} still in hand may go.",
            article(kind(game, k))
        ));
    }
    if *safe {
        s = s.paragraph("The placed piece may attack no piece of the other side, and no piece of the other side may attack it.");
    }
    if let Some(c) = castling {
        let (k, r) = game.castling.as_ref().map_or(("King", "Rook"), |c| (kind(game, c.king), kind(game, c.rook)));
        let name = |x: Cell| game.geometry.name(x);
        let rooks = |c_: usize| or_list(&c.rook_on[c_].iter().map(|&x| name(x)).collect::<Vec<_>>());
        s = s.paragraph(format!(
            "A player whose {k} stands on {} ({}: {}) and a {r} on {} ({}: {}), the one or the other just placed, gains the right to castle with that {r}.",
            name(c.king_on[0]),
            player(game, 1),
            name(c.king_on[1]),
            rooks(0),
            player(game, 1),
            rooks(1)
        ));
    }
    if !only_if.is_empty() {
        let conds: Vec<String> = only_if.iter().map(|c| cond::cond(game, c)).collect();
        let note = if conds.iter().any(|c| c.contains("the player") || c.contains("the other player")) {
            " (*the player* is the one placing, *the other player* its opponent)"
        } else {
            ""
        };
        s = s.paragraph(format!("A placement is legal only if, after it, each of these holds{note}:")).list(conds);
    }
    if *safe || !only_if.is_empty() {
        let mut kept = vec!["the hand's cells".to_string()];
        if !order.is_empty() {
            kept.push("the order with its cells and colours".to_string());
        }
        if !different_colours.is_empty() {
            kept.push("the different colours".to_string());
        }
        let then = match (only_if.is_empty(), *safe) {
            (false, true) => "the *only if* conditions are dropped, then the rule that the placed piece attacks nothing and is not attacked",
            (false, false) => "the *only if* conditions are dropped",
            (true, _) => "the rule that the placed piece attacks nothing and is not attacked is dropped",
        };
        s = s.paragraph(format!(
            "When no placement meets every condition, {then}; {} {} never dropped.",
            super::words::and_list(&kept),
            if kept.len() == 1 { "is" } else { "are" }
        ));
    }
    // The end.
    let after = match &next {
        Some(q) => format!("{q} begins"),
        None if game.end.fifty_move.is_some() => {
            "play begins, and the count of moves for the move limit starts again from 0 (placements are not moves of play)".to_string()
        }
        None => "play begins".to_string(),
    };
    s = s.paragraph(format!("The phase ends when both hands are empty (tested at the end of every ply); then {after}."));
    let watchers: Vec<String> = game
        .rules
        .iter()
        .filter(|r| r.guard.iter().flat_map(|g| g.any_of.iter().flatten()).any(|l| matches!(l.atom, Atom::PhaseEnds(i) if i == index)))
        .map(|r| format!("\"{}\"", r.name))
        .collect();
    if !watchers.is_empty() {
        s = s.paragraph(format!(
            "The end of this phase is part of the condition of the {} {}.",
            if watchers.len() == 1 { "rule" } else { "rules" },
            super::words::and_list(&watchers)
        ));
    }
    s
}

/// Where the hand allows pieces to be placed, per kind.
fn where_placed(game: &Game, s: Section) -> Section {
    let Some(hand) = &game.hand else {
        return s.paragraph("The variant has no `hand` item, so nothing can be placed.");
    };
    let per_kind: Vec<(usize, Option<&[Vec<Cell>; 2]>)> = hand.drop_cells.iter().enumerate().map(|(k, c)| (k, c.as_ref())).collect();
    let first = per_kind.first().and_then(|(_, c)| *c);
    if !per_kind.is_empty() && per_kind.iter().all(|(_, c)| *c == first) {
        return match first {
            Some(cells) => s.paragraph(format!("A piece may be placed on an empty cell {}.", where_words(game, cells))),
            None => s.paragraph("No piece may be placed: the hand allows no cell."),
        };
    }
    // Kinds that share their cells, with those cells (per player).
    type Group<'a> = (Option<&'a [Vec<Cell>; 2]>, Vec<String>);
    let mut groups: Vec<Group> = Vec::new();
    for &(k, c) in &per_kind {
        let name = kinds(game, Some(k as u8));
        match groups.iter_mut().find(|(g, _)| *g == c) {
            Some((_, names)) => names.push(name),
            None => groups.push((c, vec![name])),
        }
    }
    let items: Vec<String> = groups
        .iter()
        .map(|(c, names)| match c {
            Some(cells) => format!("{}: on an empty cell {}", capital(&super::words::and_list(names)), where_words(game, cells)),
            None => format!("{}: never placed", capital(&super::words::and_list(names))),
        })
        .collect();
    s.paragraph("Where each kind may be placed:").list(items)
}

/// A zone per player in words, the owner's cells (`anywhere on the board`
/// reads `of the board`).
fn where_words(game: &Game, cells: &[Vec<Cell>; 2]) -> String {
    let w = owners_place(game, Who::Own, cells);
    if w == "anywhere on the board" {
        "of the board, anywhere".to_string()
    } else {
        w
    }
}

/// A colour's name: parity 0 is dark (as `a1` in chess), 1 light, each
/// with the first cell of the board that has it.
pub fn colour_name(game: &Game, parity: u8) -> String {
    let geo = &game.geometry;
    let example = geo.board_cells().find(|&c| geo.coords(c).iter().sum::<usize>() % 2 == parity as usize).map(|c| geo.name(c));
    let word = if parity == 0 { "dark" } else { "light" };
    match example {
        Some(e) => format!("{word} as {e}"),
        None => word.to_string(),
    }
}

/// One row of the order's table: number, piece, cells, colour.
fn entry(game: &Game, i: usize, e: &OrderEntry) -> Vec<String> {
    let cells = match &e.cells {
        None => "as the hand allows".to_string(),
        Some(c) => owners_place(game, Who::Own, c).trim_start_matches("on ").to_string(),
    };
    let colour = match e.colour {
        None => "any".to_string(),
        Some([a, b]) if a == b => colour_name(game, a),
        Some([a, b]) => format!("{} for {}, {} for {}", colour_name(game, a), player(game, 0), colour_name(game, b), player(game, 1)),
    };
    vec![(i + 1).to_string(), kind(game, e.kind).to_string(), cells, colour]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::describe::rules::tests::{load_game, rules_files, text};
    use std::path::Path;

    #[test]
    fn four_d_schach_opening() {
        let g = load_game(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/4d-schach.rules")));
        let all = phases(&g);
        assert_eq!(all.len(), 1);
        let t = text(&all[0]);
        // `phase opening {`
        assert!(t.starts_with("The opening phase\nThe game begins in this phase; play follows when it ends."), "{t}");
        // `hand { drop any on empty }`
        assert!(t.contains("A piece may be placed on an empty cell of the board, anywhere."), "{t}");
        // `order { King on level III and file d and rank 4 or … coloured like Ie1 … Pawn coloured like Ie2 }`: 16 entries.
        assert!(t.contains("Each player places its 16 pieces in this order"), "{t}");
        // King on level III/V, files d e, ranks 4 5, coloured like Ie1 (coordinates 4+0+0: dark for White; e8 for Black: 4+7+0, light).
        assert!(t.contains("1 | King | IIId4, IIIe4, IIId5, IIIe5, Vd4, Ve4, Vd5 or Ve5 | dark as Ia1 for White, light as Ib1 for Black"), "{t}");
        // `Pawn coloured like Ia2` (0+1: light; Black's a7: 0+6, dark).
        assert!(t.contains("2 | Pawn | as the hand allows | light as Ib1 for White, dark as Ia1 for Black"), "{t}");
        // `Pawn coloured like Ie2               # the king's pawn, last`
        assert!(t.contains("16 | Pawn |"), "{t}");
        // `placed piece attacks no enemy and is not attacked`
        assert!(t.contains("The placed piece may attack no piece of the other side"), "{t}");
        // `only if not own King on level III or not enemy King on level III;`
        assert!(t.contains("- one of these holds: (1) none of the player's Kings stands on level III; or (2) none of the other player's Kings stands on level III"), "{t}");
        // `only if not line 3 own Pawn along file rank level;`
        assert!(t.contains("- the player has no unbroken line of 3 or more of its Pawns along the file, rank or level axis"), "{t}");
        // `until hands empty`, and `draw after 50 moves without capture or Pawn move`.
        assert!(t.contains("The phase ends when both hands are empty (tested at the end of every ply); then play begins, and the count of moves for the move limit starts again from 0"), "{t}");
        // `if opening ends and fewer than 2 black's pieces on some level` (and White's).
        assert!(t.contains("rules \"entropy correction of Black\" and \"entropy correction of White\""), "{t}");
    }

    #[test]
    fn placement_with_castling_and_colours() {
        let g = load_game(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/fairy/placement.rules")));
        let t = text(&phases(&g)[0]);
        // `Bishop on different colours`
        assert!(t.contains("A player's Bishops must end on cells of different colours"), "{t}");
        // `castling King on e1 with Rook on a1 h1`
        assert!(t.contains("A player whose King stands on e1 (Black: e8) and a Rook on a1 or h1 (Black: a8 or h8)"), "{t}");
        assert!(t.contains("Each player places the pieces of its hand in any order."), "{t}");
    }

    #[test]
    fn every_phase_of_every_file_has_its_text() {
        let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules"));
        let mut seen = 0;
        for path in rules_files(dir) {
            let g = load_game(&path);
            for (s, p) in phases(&g).iter().zip(&g.phases) {
                assert!(s.title.contains(&p.name));
                assert!(s.blocks.len() >= 4, "{}: {}", path.display(), text(s));
                assert!(!text(s).contains('?'), "{}", text(s));
                seen += 1;
            }
            assert_eq!(phases(&g).len(), g.phases.len());
        }
        assert!(seen >= 3, "only {seen} phases in rules/");
    }
}
