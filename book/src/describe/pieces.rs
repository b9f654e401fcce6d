//! The pieces: a table of names and letters, and each piece's movement in
//! words, part by part, from the model's step vectors (never from names).

use super::words::{and_list, or_list, zone};
use super::Section;
use rulebook_interpreter::model::{Game, KindId, Part, PieceKind, StepKind};

/// The table of pieces: name, letter, royal.
pub fn table(game: &Game) -> Section {
    let rows = game
        .kinds
        .iter()
        .map(|k| vec![k.name.clone(), format!("`{}`", k.written(0)), if k.royal { "royal: may not be left attacked".into() } else { String::new() }])
        .collect();
    Section::new("Pieces").table(vec!["Piece".into(), "Letter".into(), "".into()], rows)
}

/// One section per piece: how it moves.
pub fn movements(game: &Game) -> Vec<Section> {
    game.kinds.iter().enumerate().map(|(k, kind)| with_reach(game, k as KindId, movement(game, kind))).collect()
}

/// Adds how many cells the piece reaches alone on the empty board, from
/// the cell its diagram puts it on.
fn with_reach(game: &Game, kind: KindId, section: Section) -> Section {
    let Some(origin) = crate::svg::reach::origin(game, kind) else { return section };
    let reach = crate::svg::reach::reach(game, kind, origin);
    if reach.targets.is_empty() {
        return section;
    }
    let captures = reach.targets.values().filter(|t| t.capture).count();
    section.paragraph(format!(
        "Alone on the empty board, on {}, it reaches {} cells ({} of them where it may capture).",
        game.geometry.name(origin),
        reach.targets.len(),
        captures
    ))
}

/// How one piece moves, a list item per part.
pub fn movement(game: &Game, kind: &PieceKind) -> Section {
    let mut s = Section::new(format!("{} ({})", kind.name, kind.written(0)))
        .with_diagram(kind.name.clone())
        .describes(rulebook_interpreter::model::doc::ItemRef::Piece(kind.name.clone()))
        .at(&kind.file, kind.span.start);
    if kind.passes {
        let when = if kind.pass_when_stuck { ", only when they have no other legal move" } else { "" };
        s = s.paragraph(format!("A player who has a {} may pass{when}: a move that leaves the board as it is (written with its square twice), legal when it leaves no royal piece of the player attacked.", kind.name));
    }
    if let Some(n) = kind.converts_around {
        let steps = if n == 1 { "next to it".to_string() } else { format!("within {n} king steps of it") };
        s = s.paragraph(format!("Where a {} lands, moved or dropped, every enemy piece {steps} changes to its side.", kind.name));
    }
    if kind.converts_enclosed {
        s = s.paragraph(format!("Where a {} lands, moved or dropped, every straight line of enemy pieces from it up to another piece of its side (in any of the king's directions) changes to its side.", kind.name));
    }
    if kind.royal {
        s = s.paragraph(format!("The {} is royal: no move may leave it attacked, and a player whose royal piece is attacked is in check.", kind.name));
    }
    if kind.parts.is_empty() {
        return s.paragraph(format!("The {} has no move of its own.", kind.name));
    }
    s.list(kind.parts.iter().map(|p| part(game, p)).collect())
}

/// One movement part in words: what it may do, how it steps, from where.
pub fn part(game: &Game, p: &Part) -> String {
    let does = match (p.quiet, p.capture) {
        (true, true) => "Moves or captures",
        (true, false) => "Moves (without capturing)",
        (false, true) => "Captures (only)",
        (false, false) => "Neither moves nor captures",
    };
    let dirs = directions(game, &p.vectors[0]);
    let how = match p.kind {
        StepKind::Leap if p.vectors[0].iter().flatten().all(|x| x.abs() <= 1) => format!("one step {dirs}"),
        StepKind::Leap => format!("by leaping {dirs} (over anything between)"),
        StepKind::Ride => match (p.max, p.exact) {
            (Some(1), _) => format!("one step {dirs}"),
            (Some(n), true) => format!("exactly {n} steps {dirs}, the cells before the last empty"),
            (Some(n), false) => format!("up to {n} steps {dirs} over empty cells"),
            (None, _) => format!("any number of steps {dirs} over empty cells"),
        },
        StepKind::Hop => {
            let beyond = match p.max {
                Some(1) => "on the cell just beyond it".to_string(),
                Some(n) => format!("up to {n} cells beyond it"),
                None => "any number of empty cells beyond it".to_string(),
            };
            format!("by riding {dirs} to a screen (the first piece on the line, of either side), jumping it and landing {beyond}")
        }
    };
    let mut extra = Vec::new();
    if let Some(from) = &p.from {
        if p.from_start {
            extra.push("only from a cell where this kind stands in the setup".to_string());
        } else {
            extra.push(format!("only from {} (for {}; mirrored for the other player)", zone(game, &from[0]), game.players[0].name));
        }
    }
    if p.lame {
        // The cells of `lame_path`: one for the knight and the alfil, two for the zebra.
        let passed = p.vectors[0].first().map_or(1, |v| rulebook_interpreter::model::lame_path(v).len());
        extra.push(if passed == 1 {
            "passing the cell one step along its longer leg, and blocked when that cell is occupied".to_string()
        } else {
            format!("passing {passed} cells on its way (one step at a time along its longest remaining components: straight first, then diagonally), and blocked when any of them is occupied")
        });
    } else if p.via_step {
        extra.push("passing the cell one step along its longer leg (where it can be seen, not blocked)".to_string());
    }
    if let Some(within) = &p.within {
        extra.push(format!("landing only on {} (for {}; mirrored for the other player)", zone(game, &within[0]), game.players[0].name));
    }
    if let Some(k) = p.not_over {
        extra.push(format!("never over a {} (a hop whose screen is one goes nowhere)", game.kinds.get(k as usize).map_or("?", |k| k.name.as_str())));
    }
    if p.unmoved {
        extra.push("only while the piece keeps its first-move right (it has not moved; the position's castling field lists it)".to_string());
    }
    if p.not_in_check {
        extra.push("not while its owner is in check".to_string());
    }
    if p.sets_en_passant {
        extra.push("the cells it passes may be taken en passant on the next move".to_string());
    }
    if p.takes_en_passant {
        extra.push("it may capture en passant".to_string());
    }
    let extra = if extra.is_empty() { String::new() } else { format!("; {}", extra.join("; ")) };
    format!("{does} {how}{extra}.")
}

/// The directions of a set of step vectors (the first player's) in words:
/// a whole family of symmetric vectors by its shape (`orthogonally`,
/// `diagonally`, `in all 8 directions of the (2,1) leap`), the half of a
/// family on one side of a player's direction word (`diagonally forward`),
/// else each vector by the player's direction words or its coordinates.
pub fn directions(game: &Game, vectors: &[Vec<i32>]) -> String {
    let dims = game.geometry.dims();
    let mut families: Vec<(Vec<i32>, Vec<&Vec<i32>>)> = Vec::new();
    for v in vectors {
        let shape = shape_of(v);
        match families.iter_mut().find(|(s, _)| *s == shape) {
            Some((_, members)) => members.push(v),
            None => families.push((shape, vec![v])),
        }
    }
    let mut words = Vec::new();
    for (shape, members) in &families {
        let size = family_size(shape);
        if members.len() == size {
            words.push(format!("{} ({size} directions)", family_words(shape, dims)));
            continue;
        }
        // The members on one side of a direction word: all of the family's
        // vectors whose component along that axis has that sign.
        let side = game.players[0].directions.iter().find(|(_, axis, sign)| {
            let on_side = |v: &[i32]| v.get(*axis).is_some_and(|&x| x != 0 && x.signum() as i8 == *sign);
            members.iter().all(|v| on_side(v)) && members.len() * 2 == size && shape.iter().filter(|&&x| x != 0).count() > 1
        });
        match side {
            Some((word, _, _)) => words.push(format!("{} {word} ({} directions)", family_words(shape, dims), members.len())),
            None => words.extend(members.iter().map(|v| vector_words(game, v))),
        }
    }
    if families.iter().all(|(shape, m)| m.len() == family_size(shape)) {
        and_list(&words)
    } else {
        or_list(&words)
    }
}

/// A vector's shape: its absolute components, largest first.
fn shape_of(v: &[i32]) -> Vec<i32> {
    let mut s: Vec<i32> = v.iter().map(|x| x.abs()).collect();
    s.sort_unstable_by(|a, b| b.cmp(a));
    s
}

/// How many distinct vectors have this shape (every
/// arrangement of the components over the axes, every sign of the non-zero ones).
fn family_size(shape: &[i32]) -> usize {
    let mut arrangements = std::collections::BTreeSet::new();
    permutations(shape, &mut Vec::new(), &mut vec![false; shape.len()], &mut arrangements);
    let nonzero = shape.iter().filter(|&&x| x != 0).count() as u32;
    arrangements.len() * 2usize.pow(nonzero)
}

fn permutations(shape: &[i32], current: &mut Vec<i32>, used: &mut Vec<bool>, out: &mut std::collections::BTreeSet<Vec<i32>>) {
    if current.len() == shape.len() {
        out.insert(current.clone());
        return;
    }
    for i in 0..shape.len() {
        if !used[i] {
            used[i] = true;
            current.push(shape[i]);
            permutations(shape, current, used, out);
            current.pop();
            used[i] = false;
        }
    }
}

/// A whole family in words.
fn family_words(shape: &[i32], dims: usize) -> String {
    let nonzero: Vec<i32> = shape.iter().copied().filter(|&x| x != 0).collect();
    if nonzero.iter().all(|&x| x == 1) {
        return match (nonzero.len(), dims) {
            (1, _) => "orthogonally".to_string(),
            (2, 2) => "diagonally".to_string(),
            (2, _) => "diagonally within a plane of two axes".to_string(),
            (3, 3) => "along the space diagonals".to_string(),
            (n, _) => format!("diagonally across {n} axes"),
        };
    }
    let parts: Vec<String> = shape.iter().map(|x| x.to_string()).collect();
    format!("as the ({}) leap", parts.join(","))
}

/// One vector in words: the player's direction words where the vector
/// lies along one (`2 forward`), else its coordinates.
fn vector_words(game: &Game, v: &[i32]) -> String {
    let player = &game.players[0];
    let mut words = Vec::new();
    for (axis, &x) in v.iter().enumerate() {
        if x == 0 {
            continue;
        }
        let sign = x.signum() as i8;
        match player.directions.iter().find(|(_, a, s)| *a == axis && *s == sign) {
            Some((word, _, _)) if x.abs() == 1 => words.push(word.clone()),
            Some((word, _, _)) => words.push(format!("{} {word}", x.abs())),
            None => return format!("({})", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")),
        }
    }
    if words.is_empty() {
        "nowhere".to_string()
    } else {
        words.join(" and ")
    }
}
