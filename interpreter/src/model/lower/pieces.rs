//! Pieces: letters, movement atoms and their symmetries, move parts with their modifiers, start zones.

use super::*;

/// A piece's letter, upper case, and whether it is written `+LETTER` (a promoted form).
pub(super) fn lower_piece_letter(cx: &mut Cx, file: &str, letter: &ast::Ident) -> (char, bool) {
    match letter.node.strip_prefix('+') {
        Some(rest) => (lower_letter(cx, file, &ast::Ident { node: rest.to_string(), span: letter.span }), true),
        None => (lower_letter(cx, file, letter), false),
    }
}

pub(super) fn lower_letter(cx: &mut Cx, file: &str, letter: &ast::Ident) -> char {
    let mut chars = letter.node.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
        _ => {
            cx.diags.push(
                Diagnostic::error("E0120", file, letter.span, format!("`{}` is not a piece letter", letter.node), "expected one letter")
                    .with_help("a piece's letter is one ASCII letter, written upper case, e.g. `piece Knight N`"),
            );
            '?'
        }
    }
}

/// The vector of a Betza atom letter, in two dimensions.
pub(super) fn atom_vector(letter: &str) -> Option<[i32; 2]> {
    Some(match letter {
        "W" => [1, 0],
        "F" => [1, 1],
        "D" => [2, 0],
        "N" => [2, 1],
        "A" => [2, 2],
        "H" => [3, 0],
        "C" => [3, 1],
        "Z" => [3, 2],
        "G" => [3, 3],
        _ => return None,
    })
}

/// The most directions one part may generate from its atom: the rotations and
/// reflections of the atom (every permutation of its components with every
/// sign), or the reflections `mirror` asks for (LANGUAGE.md §9).
pub const MAX_DIRECTIONS: u64 = 4096;

/// How many distinct vectors [`symmetries`] makes of `v`, computed without
/// making them, saturating at `cap`: the arrangements of the components'
/// absolute values (a multinomial coefficient) times two signs for each
/// non-zero component.
pub(super) fn symmetry_count(v: &[i32], cap: u64) -> u64 {
    let mut multiplicity: BTreeMap<u32, u64> = BTreeMap::new();
    for x in v {
        *multiplicity.entry(x.unsigned_abs()).or_default() += 1;
    }
    let cap = u128::from(cap);
    let mut total: u128 = 1;
    let mut placed: u128 = 0;
    for &m in multiplicity.values() {
        // total × C(placed + m, m), one factor at a time (each step is exact).
        for i in 1..=u128::from(m) {
            total = total * (placed + i) / i;
            if total >= cap {
                return cap as u64;
            }
        }
        placed += u128::from(m);
    }
    for _ in v.iter().filter(|&&x| x != 0) {
        total *= 2;
        if total >= cap {
            return cap as u64;
        }
    }
    total as u64
}

/// The error for a part whose atom makes more than [`MAX_DIRECTIONS`] directions.
pub(super) fn too_many_directions(file: &str, span: Span, count: u64, how: &str, cap: u64, help: &str) -> Diagnostic {
    let count = if count >= cap { format!("more than {cap}") } else { count.to_string() };
    Diagnostic::error(
        "E0115",
        file,
        span,
        format!("this part makes {count} directions ({how}), more than the limit of {MAX_DIRECTIONS}"),
        format!("at most {MAX_DIRECTIONS} directions a part"),
    )
    .with_help(help)
}

/// All rotations and reflections of `v`: every permutation of its components with every sign.
/// Only distinct arrangements are made (the components' absolute values as a
/// multiset), so the work is proportional to the result: `W` on a board of
/// nine axes is 18 vectors, not 9! × 2^9 permutations to deduplicate.
pub(super) fn symmetries(v: &[i32]) -> BTreeSet<Vec<i32>> {
    let mut pool: BTreeMap<u32, usize> = BTreeMap::new();
    for x in v {
        *pool.entry(x.unsigned_abs()).or_default() += 1;
    }
    let mut out = BTreeSet::new();
    let mut arrangement = Vec::with_capacity(v.len());
    arrange(&mut pool, v.len(), &mut arrangement, &mut out);
    out
}

/// Extends `arrangement` with every distinct arrangement of what is left in
/// `pool` (absolute values and how many of each), then adds each complete
/// arrangement to `out` with every sign of its non-zero components.
pub(super) fn arrange(pool: &mut BTreeMap<u32, usize>, n: usize, arrangement: &mut Vec<u32>, out: &mut BTreeSet<Vec<i32>>) {
    if arrangement.len() == n {
        let nonzero: Vec<usize> = (0..n).filter(|&i| arrangement[i] != 0).collect();
        for signs in 0..(1u64 << nonzero.len()) {
            let mut w: Vec<i32> = arrangement.iter().map(|&x| x as i32).collect();
            for (bit, &i) in nonzero.iter().enumerate() {
                if signs >> bit & 1 == 1 {
                    w[i] = -w[i];
                }
            }
            out.insert(w);
        }
        return;
    }
    let values: Vec<u32> = pool.iter().filter(|(_, &left)| left > 0).map(|(&x, _)| x).collect();
    for x in values {
        if let Some(left) = pool.get_mut(&x) {
            *left -= 1;
        }
        arrangement.push(x);
        arrange(pool, n, arrangement, out);
        arrangement.pop();
        if let Some(left) = pool.get_mut(&x) {
            *left += 1;
        }
    }
}

pub(super) fn lower_part(cx: &mut Cx, file: &str, part: &ast::MovePart) -> Option<Part> {
    let dims = cx.geometry.dims();
    let base: Vec<i32> = match &part.atom.node {
        ast::Atom::Letter(l) => {
            let Some(v) = atom_vector(l) else {
                cx.diags.push(
                    Diagnostic::error("E0107", file, part.atom.span, format!("unknown atom `{l}`"), "not a Betza atom")
                        .with_help("atoms are W F D N A H C Z G, or write a vector such as `(1,2)`"),
                );
                return None;
            };
            let mut full = vec![0; dims];
            full[0] = v[0];
            full[1] = v[1];
            full
        }
        ast::Atom::Vector(v) => {
            if v.len() != dims {
                cx.diags.push(
                    Diagnostic::error("E0108", file, part.atom.span, format!("a vector of {} components on a {dims}-dimensional board", v.len()), "wrong length")
                        .with_help(format!("write one component per axis ({})", cx.geometry.axes.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", "))),
                );
                return None;
            }
            if v.iter().all(|&x| x == 0) {
                cx.diags.push(
                    Diagnostic::error("E0108", file, part.atom.span, "the zero vector goes nowhere", "zero vector")
                        .with_help("a movement vector needs a non-zero component"),
                );
                return None;
            }
            v.clone()
        }
    };
    let kind = match part.kind.node {
        ast::PatternKind::Leap => StepKind::Leap,
        ast::PatternKind::Ride => StepKind::Ride,
        ast::PatternKind::Hop => StepKind::Hop,
    };
    // `mirror` replaces the rotations and reflections: do not make them then.
    let mirrored = part.modifiers.iter().any(|m| matches!(m.node, ast::Modifier::Mirror(_)));
    let mut relative: BTreeSet<Vec<i32>> = BTreeSet::new();
    if !mirrored {
        // Counted first: nine distinct components would make 185,794,560 vectors.
        const CAP: u64 = 1_000_000_000_000;
        let count = symmetry_count(&base, CAP);
        if count > MAX_DIRECTIONS {
            cx.diags.push(too_many_directions(file, part.atom.span, count, "every permutation of the atom's components, with every sign", CAP, "name the directions you mean with `mirror AXIS…` (reflections only) or direction words, or split the part into several"));
            return None;
        }
        relative = symmetries(&base);
    }
    let mut filters: Vec<(String, Span)> = Vec::new();
    let mut max = None;
    let mut exact = false;
    let mut from = None;
    let mut sets_ep = false;
    let mut takes_ep = false;
    let mut via_step = false;
    let mut lame = false;
    let mut within = None;
    let (mut unmoved, mut not_in_check) = (false, false);
    let mut not_over: Option<KindId> = None;
    let mut from_start = false;
    let mut ok = true;
    for m in &part.modifiers {
        match &m.node {
            ast::Modifier::Direction(w) => filters.push((w.clone(), m.span)),
            ast::Modifier::Mirror(axes) => {
                // Each listed axis along which the atom moves doubles the set: count first.
                let flipped: BTreeSet<usize> = axes
                    .iter()
                    .filter_map(|axis| cx.geometry.axis_index(&axis.node))
                    .filter(|&a| base[a] != 0)
                    .collect();
                const CAP: u64 = 1 << 40;
                let count = if flipped.len() >= 40 { CAP } else { 1u64 << flipped.len() };
                if count > MAX_DIRECTIONS {
                    cx.diags.push(too_many_directions(file, m.span, count, "every combination of reflections over the listed axes", CAP, "mirror fewer axes, or split the part into several"));
                    return None;
                }
                let mut set = BTreeSet::new();
                set.insert(base.clone());
                for axis in axes {
                    match cx.geometry.axis_index(&axis.node) {
                        None => {
                            ok = false;
                            cx.diags.push(unknown_axis(file, axis, cx.geometry));
                        }
                        Some(a) => {
                            let more: Vec<Vec<i32>> = set
                                .iter()
                                .map(|v| {
                                    let mut w = v.clone();
                                    w[a] = -w[a];
                                    w
                                })
                                .collect();
                            set.extend(more);
                        }
                    }
                }
                relative = set;
            }
            ast::Modifier::Max(n) | ast::Modifier::Exactly(n) => {
                if *n == 0 || kind == StepKind::Leap {
                    ok = false;
                    let why = if *n == 0 { "a range of zero steps" } else { "a leap has no range" };
                    cx.diags.push(
                        Diagnostic::error("E0111", file, m.span, why, "not allowed here")
                            .with_help("ranges belong to `ride` or `hop` parts, e.g. `move ride W max 2`"),
                    );
                }
                max = Some(*n);
                exact = matches!(m.node, ast::Modifier::Exactly(_));
                if exact && kind == StepKind::Hop {
                    ok = false;
                    cx.diags.push(
                        Diagnostic::error("E0111", file, m.span, "`exactly` does not apply to a hop", "not allowed here")
                            .with_help("use `max N` to limit how far a hop lands beyond its screen"),
                    );
                }
            }
            ast::Modifier::From(zone) if is_start(zone) => {
                // Filled in from the setup once the whole game is lowered.
                from = Some([Vec::new(), Vec::new()]);
                from_start = true;
            }
            ast::Modifier::From(zone) => match cx.zone(file, zone) {
                Some(z) => from = Some(z),
                None => ok = false,
            },
            ast::Modifier::SetsEnPassant => {
                if part.mode.node == ast::Mode::Capture || kind != StepKind::Ride {
                    ok = false;
                    cx.diags.push(
                        Diagnostic::error("E0111", file, m.span, "`sets en-passant` needs a ride that may move to an empty square", "`sets en-passant` here")
                            .with_help("write it on a part like `quiet ride W forward exactly 2`"),
                    );
                }
                sets_ep = true;
            }
            ast::Modifier::ViaStep | ast::Modifier::Lame => {
                // Both name the cell a leap passes; `lame` also blocks it there.
                let blocks = matches!(m.node, ast::Modifier::Lame);
                if kind != StepKind::Leap {
                    ok = false;
                    let (message, help) = if blocks {
                        ("`lame` blocks a leap at the cell it passes", "rides and hops are blocked already; write `lame` on a leap, e.g. `move N lame` (a knight's leap blocked next to its start)")
                    } else {
                        ("`via step` names the cell a leap passes", "rides and hops pass their cells already; write `via step` on a leap, e.g. `move N via step`")
                    };
                    cx.diags.push(Diagnostic::error("E0111", file, m.span, message, "not allowed here").with_help(help));
                }
                lame |= blocks;
                via_step = true;
            }
            ast::Modifier::NotOver(name) => {
                if kind != StepKind::Hop {
                    ok = false;
                    cx.diags.push(
                        Diagnostic::error("E0111", file, m.span, "`not over` names what a hop may not jump", "not allowed here")
                            .with_help("write it on a hop, e.g. `move hop W not over Cannon`"),
                    );
                }
                match cx.kind(file, name) {
                    Some(k) => not_over = Some(k),
                    None => ok = false,
                }
            }
            ast::Modifier::When { unmoved: u, not_in_check: c } => {
                if part.mode.node != ast::Mode::Quiet {
                    ok = false;
                    cx.diags.push(
                        Diagnostic::error("E0111", file, m.span, "`if unmoved` and `if not in check` limit only `quiet` parts", "not allowed here")
                            .with_help("write the part as `quiet …` (its moves capture nothing, so the attacks of the piece do not depend on them), e.g. `quiet (2,1) mirror file if unmoved and not in check`"),
                    );
                }
                unmoved |= *u;
                not_in_check |= *c;
            }
            ast::Modifier::Within(zone) => match cx.zone(file, zone) {
                Some(z) => within = Some(z),
                None => ok = false,
            },
            ast::Modifier::TakesEnPassant => {
                if part.mode.node == ast::Mode::Quiet {
                    ok = false;
                    cx.diags.push(
                        Diagnostic::error("E0111", file, m.span, "a quiet part cannot capture en passant", "`takes en-passant` here")
                            .with_help("write it on a `capture` or `move` part"),
                    );
                }
                takes_ep = true;
            }
        }
    }
    let mut vectors: [Vec<Vec<i32>>; 2] = [Vec::new(), Vec::new()];
    for (p, out) in vectors.iter_mut().enumerate() {
        let player = &cx.players[p];
        let mut keep: Vec<Vec<i32>> = relative.iter().cloned().collect();
        for (word, span) in &filters {
            let test = direction_test(player, word);
            match test {
                Some((axis, want)) => keep.retain(|v| v[axis].signum() == want),
                None => {
                    if p == 0 {
                        ok = false;
                        let words: Vec<&str> = player.directions.iter().map(|d| d.0.as_str()).collect();
                        cx.diags.push(
                            Diagnostic::error("E0109", file, *span, format!("unknown direction `{word}`"), "not a direction of this board")
                                .with_help(format!(
                                    "the players declare {}; `backward`, `down`, `left` and `sideways` are derived from `forward`, `up` and `right`",
                                    words.join(", ")
                                )),
                        );
                    }
                }
            }
        }
        *out = keep.iter().map(|v| player.absolute(v)).collect();
    }
    if ok && vectors[0].is_empty() {
        cx.diags.push(
            Diagnostic::error("E0108", file, part.span, "no direction is left", "this part never moves")
                .with_help("the direction words exclude every rotation of the atom"),
        );
        ok = false;
    }
    if !ok {
        return None;
    }
    Some(Part {
        quiet: part.mode.node != ast::Mode::Capture,
        capture: part.mode.node != ast::Mode::Quiet,
        kind,
        vectors,
        max: if kind == StepKind::Leap { Some(1) } else { max },
        exact,
        from,
        from_start,
        sets_en_passant: sets_ep,
        takes_en_passant: takes_ep,
        via_step,
        lame,
        within,
        unmoved,
        not_in_check,
        not_over,
        span: part.span,
    })
}

/// Is the zone exactly `start`?
pub(super) fn is_start(zone: &ast::Zone) -> bool {
    matches!(zone.any_of.as_slice(), [conj] if matches!(conj.all_of.as_slice(), [ast::ZoneAtom::Start(_)]))
}

/// Fills the `from start` zones of `game` with the cells its setup gives each
/// kind and player; the setup must already parse.
pub(super) fn fill_start_zones(game: &mut Game, setup: &crate::engine::position::Position) {
    let t_cells = game.geometry.cells();
    for (k, kind) in game.kinds.iter_mut().enumerate() {
        for part in kind.parts.iter_mut().filter(|p| p.from_start) {
            let mut zones: [Vec<Cell>; 2] = [Vec::new(), Vec::new()];
            for cell in 0..t_cells {
                let code = setup.board[cell];
                if code != 0 && crate::engine::position::kind_of(code) as usize == k {
                    zones[crate::engine::position::color_of(code) as usize].push(cell as Cell);
                }
            }
            part.from = Some(zones);
        }
    }
}

/// What a direction word requires of a relative vector: `(axis, sign)` of its component.
pub(super) fn direction_test(player: &Player, word: &str) -> Option<(usize, i32)> {
    let declared = |w: &str| player.directions.iter().find(|d| d.0 == w).map(|d| d.1);
    if let Some(a) = declared(word) {
        return Some((a, 1));
    }
    match word {
        "backward" => declared("forward").map(|a| (a, -1)),
        "down" => declared("up").map(|a| (a, -1)),
        "left" => declared("right").map(|a| (a, -1)),
        "sideways" => declared("forward").map(|a| (a, 0)),
        _ => None,
    }
}
