//! The `board` and `players` items: axes, labels, holes, and each player's direction words.

use super::*;

pub(super) fn unknown_axis(file: &str, axis: &ast::Ident, geo: &Geometry) -> Diagnostic {
    let names: Vec<&str> = geo.axes.iter().map(|a| a.name.as_str()).collect();
    Diagnostic::error("E0103", file, axis.span, format!("unknown axis `{}`", axis.node), "no axis has this name")
        .with_help(format!("this board's axes are {}", names.join(", ")))
}

pub(super) fn lower_board(file: &str, board: &ast::Board) -> Result<Geometry, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut axes: Vec<AxisInfo> = Vec::new();
    for axis in &board.axes {
        if axes.iter().any(|a| a.name == axis.name.node) {
            diags.push(
                Diagnostic::error("E0102", file, axis.name.span, format!("axis `{}` declared twice", axis.name.node), "declared again")
                    .with_help("declare each axis once"),
            );
            continue;
        }
        let mut labels: Vec<String> = Vec::new();
        for label in &axis.labels {
            match label {
                ast::Label::Single(l) => labels.push(l.node.clone()),
                ast::Label::Range(a, b) => match expand_range(&a.node, &b.node) {
                    Some(r) => labels.extend(r),
                    None => diags.push(
                        Diagnostic::error("E0102", file, Span::new(a.span.start, b.span.end), format!("`{}..{}` is not a range", a.node, b.node), "bad range")
                            .with_help("ranges go from a lower to a higher number (`1..8`) or letter (`a..h`)"),
                    ),
                },
            }
        }
        let mut seen = BTreeSet::new();
        for l in &labels {
            if !seen.insert(l) {
                diags.push(
                    Diagnostic::error("E0102", file, axis.span, format!("label `{l}` appears twice on axis `{}`", axis.name.node), "duplicate label")
                        .with_help("every coordinate needs its own label"),
                );
            }
        }
        if labels.is_empty() {
            diags.push(Diagnostic::error("E0102", file, axis.span, "an axis needs labels", "no labels"));
        }
        axes.push(AxisInfo { name: axis.name.node.clone(), labels });
    }
    for (want, name) in [(0usize, "file"), (1, "rank")] {
        if let Some(at) = axes.iter().position(|a| a.name == name) {
            if at != want {
                diags.push(
                    Diagnostic::error("E0102", file, board.axes[at].name.span, format!("the {name}s must be axis {}", want + 1), "declared out of order")
                        .with_help("declare `files` first and `ranks` second: squares are named file then rank (`e4`), vectors are (file, rank, …)"),
                );
            }
        }
    }
    if axes.len() < 2 {
        diags.push(
            Diagnostic::error("E0102", file, board.span, "a board needs files and ranks", "fewer than two axes")
                .with_help("declare `files …` and `ranks …` (and `levels …` for a 3D board)"),
        );
    }
    let cells: usize = axes.iter().map(|a| a.labels.len().max(1)).product();
    if cells > MAX_CELLS {
        diags.push(
            Diagnostic::error("E0115", file, board.span, format!("a board of {cells} cells is too large"), format!("at most {MAX_CELLS} cells"))
                .with_help("rulebook supports boards of up to 512 cells (8x8x8)"),
        );
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let geo = Geometry::new(axes, &[]);
    let mut holes = Vec::new();
    for h in &board.holes {
        match geo.parse_square(&h.node) {
            Some(c) => holes.push(c),
            None => diags.push(
                Diagnostic::error("E0112", file, h.span, format!("`{}` is not a square of this board", h.node), "no such square")
                    .with_help(format!("squares are named like `{}`", geo.name(0))),
            ),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok(Geometry::new(geo.axes, &holes))
}

pub(super) fn expand_range(a: &str, b: &str) -> Option<Vec<String>> {
    if let (Ok(x), Ok(y)) = (a.parse::<u32>(), b.parse::<u32>()) {
        return (x <= y && y - x < 64).then(|| (x..=y).map(|n| n.to_string()).collect());
    }
    let (mut ca, mut cb) = (a.chars(), b.chars());
    match (ca.next(), ca.next(), cb.next(), cb.next()) {
        (Some(x), None, Some(y), None) if x.is_ascii_alphabetic() && y.is_ascii_alphabetic() && x <= y && x.is_ascii_lowercase() == y.is_ascii_lowercase() => {
            Some((x..=y).map(|c| c.to_string()).collect())
        }
        _ => None,
    }
}

pub(super) fn lower_players(players: Option<From<ast::Players>>, geo: &Geometry, last: &str) -> Result<[Player; 2], Vec<Diagnostic>> {
    let dims = geo.dims();
    let Some(players) = players else {
        // Default: white and black, forward along the rank axis.
        let mk = |name: &str, sign: i8| {
            let mut orientation = vec![1i8; dims];
            orientation[1] = sign;
            Player { name: name.into(), directions: vec![("forward".into(), 1, sign)], orientation, no_royal: false, all_royal: false, wall: None }
        };
        return Ok([mk("white", 1), mk("black", -1)]);
    };
    let file = players.file;
    let mut diags = Vec::new();
    if players.node.players.len() != 2 {
        diags.push(
            Diagnostic::error("E0116", file, players.node.span, format!("{} players declared", players.node.players.len()), "expected two")
                .with_help("rulebook plays two-player games: declare `white` and `black`"),
        );
        return Err(diags);
    }
    let mut out = Vec::new();
    for p in &players.node.players {
        let mut orientation = vec![1i8; dims];
        let mut directions = Vec::new();
        for d in &p.directions {
            match geo.axis_index(&d.axis.node) {
                None => diags.push(unknown_axis(file, &d.axis, geo)),
                Some(a) => {
                    let sign = if d.positive { 1 } else { -1 };
                    orientation[a] = sign;
                    directions.push((d.word.node.clone(), a, sign));
                }
            }
        }
        out.push(Player { name: p.name.node.clone(), directions, orientation, no_royal: p.no_royal.is_some(), all_royal: p.all_royal.is_some(), wall: p.wall.as_ref().map(|w| match w.node {
            ast::WallRule::MovesAnywhere => WallRule::MovesAnywhere,
            ast::WallRule::ShootsFromMoved => WallRule::ShootsFromMoved,
        }) });
    }
    let words = |p: &Player| p.directions.iter().map(|d| d.0.clone()).collect::<BTreeSet<_>>();
    if out.len() == 2 && words(&out[0]) != words(&out[1]) {
        diags.push(
            Diagnostic::error("E0109", file, players.node.span, "the players declare different direction words", "here")
                .with_help("both players must name the same directions (e.g. both `forward`), each pointing its own way"),
        );
    }
    let _ = last;
    if !diags.is_empty() {
        return Err(diags);
    }
    let mut it = out.into_iter();
    match (it.next(), it.next()) {
        (Some(a), Some(b)) => Ok([a, b]),
        _ => Err(diags),
    }
}
