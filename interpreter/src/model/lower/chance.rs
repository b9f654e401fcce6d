//! Dice, and the spread, entangle and tunnel items built on them.

use super::*;

// ---------------------------------------------------------------- dice, spread, entangle, tunnel

/// The first word of a block (its keyword), for errors about the whole block.
pub(super) fn keyword_span(block: Span, keyword: &str) -> Span {
    Span::new(block.start, (block.start + keyword.len()).min(block.end))
}

/// `E0137`: a statement given twice in one block.
pub(super) fn given_twice(cx: &mut Cx, file: &str, span: Span, first: Span, what: &str, block: &str) {
    cx.diags.push(
        Diagnostic::error("E0137", file, span, format!("`{what}` is given twice in this `{block}` block"), "given again here")
            .with_note(first, "first given here")
            .with_help(format!("say `{what}` once in a `{block}` block")),
    );
}

/// The dice of the chain: the model's list, and which of them are broken
/// (already reported, so that rolls of them report nothing more).
pub(super) struct Dice {
    pub(super) dice: Vec<Die>,
    broken: Vec<bool>,
}

/// The dice: each is written `1..N` with 2 ≤ N ≤ 255 (`E0134`).
pub(super) fn lower_dice(cx: &mut Cx, defs: &[From<ast::DieDef>]) -> Dice {
    let mut out = Dice { dice: Vec::new(), broken: Vec::new() };
    for d in defs {
        let (low, high) = (&d.node.low, &d.node.high);
        let name = &d.node.name.node;
        let problem = if low.node != 1 {
            Some((low.span, format!("the faces of die `{name}` start at {}", low.node), "the first face is 1"))
        } else if high.node < 2 {
            Some((high.span, format!("die `{name}` has fewer than two faces"), "at least 2"))
        } else if high.node > u32::from(u8::MAX) {
            Some((high.span, format!("die `{name}` has {} faces", high.node), "at most 255"))
        } else {
            None
        };
        let broken = problem.is_some();
        if let Some((span, message, label)) = problem {
            cx.diags.push(
                Diagnostic::error("E0134", d.file, span, message, label)
                    .with_help("a die is written `die NAME 1..N`: its faces are numbered from 1, and it has 2 to 255 of them, e.g. `die d6 1..6`"),
            );
        }
        out.dice.push(Die { name: name.clone(), faces: u8::try_from(high.node).unwrap_or(u8::MAX) });
        out.broken.push(broken);
    }
    out
}

/// The die a roll names, as an index into `Game::dice` (`E0135` if no die
/// has that name); `None` also when that die is broken (already reported).
pub(super) fn roll_die(cx: &mut Cx, file: &str, dice: &Dice, roll: &ast::Roll) -> Option<usize> {
    match dice.dice.iter().position(|d| d.name == roll.die.node) {
        Some(i) if dice.broken.get(i).copied().unwrap_or(true) => None,
        Some(i) => Some(i),
        None => {
            let help = if dice.dice.is_empty() {
                format!("no die is declared: declare it, e.g. `die {} 1..6`", roll.die.node)
            } else {
                let names: Vec<&str> = dice.dice.iter().map(|d| d.name.as_str()).collect();
                format!("the dice declared are: {}; declare another with `die NAME 1..N`", names.join(", "))
            };
            cx.diags.push(
                Diagnostic::error("E0135", file, roll.die.span, format!("unknown die `{}`", roll.die.node), "no die has this name")
                    .with_help(help),
            );
            None
        }
    }
}

/// The faces of each of the two `outcomes` in a roll of `die`, sorted: each
/// outcome is given once, and every face of the die means exactly one
/// outcome (`E0136`).
pub(super) fn roll_faces(cx: &mut Cx, file: &str, roll: &ast::Roll, die: &Die, outcomes: [ast::RollOutcome; 2]) -> Option<[Vec<u8>; 2]> {
    let n = u32::from(die.faces);
    let name = &die.name;
    let example = match outcomes[0] {
        ast::RollOutcome::Red | ast::RollOutcome::Blue => "`roll d6 { red 2 4 6  blue 1 3 5 }`",
        _ => "`roll d6 { through 6  bounce 1..5 }`",
    };
    let mut faces: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    let mut given: [Option<Span>; 2] = [None, None];
    let mut listed: BTreeMap<u32, Span> = BTreeMap::new();
    let mut ok = true;
    for side in &roll.sides {
        let Some(k) = outcomes.iter().position(|o| *o == side.outcome.node) else { continue };
        let word = side.outcome.node.keyword();
        if let Some(first) = given[k] {
            cx.diags.push(
                Diagnostic::error("E0136", file, side.outcome.span, format!("`{word}` is given twice in this roll"), "given again here")
                    .with_note(first, "first given here")
                    .with_help(format!("list all the faces of `{word}` on one line, as in {example}")),
            );
            ok = false;
            continue;
        }
        given[k] = Some(side.outcome.span);
        for entry in &side.faces {
            let span = entry.span();
            let (low, high) = match entry {
                ast::Faces::One(f) => (f.node, f.node),
                ast::Faces::Range(a, b) => (a.node, b.node),
            };
            let problem = if low > high {
                Some((format!("`{low}..{high}` is not a range of faces"), "the first face is larger than the last".to_string()))
            } else if low < 1 || high > n {
                let what = if low == high { format!("face {low} is") } else { format!("`{low}..{high}` goes") };
                let what = if low == high { format!("{what} not a face of die `{name}`") } else { format!("{what} beyond the faces of die `{name}`") };
                Some((what, format!("`{name}` has the faces 1 to {n}")))
            } else {
                None
            };
            if let Some((message, label)) = problem {
                cx.diags.push(
                    Diagnostic::error("E0136", file, span, message, label)
                        .with_help(format!("faces are numbers from 1 to {n} or ranges of them written from the smaller up, such as `1..4`")),
                );
                ok = false;
                continue;
            }
            for f in low..=high {
                if let Some(&first) = listed.get(&f) {
                    cx.diags.push(
                        Diagnostic::error("E0136", file, span, format!("face {f} is listed twice in this roll"), "listed again here")
                            .with_note(first, "first listed here")
                            .with_help(format!("each face of the die means one outcome, as in {example}")),
                    );
                    ok = false;
                    break;
                }
                listed.insert(f, span);
                faces[k].push(u8::try_from(f).unwrap_or(u8::MAX));
            }
        }
    }
    let head = Span::new(roll.span.start, roll.die.span.end);
    for (k, outcome) in outcomes.iter().enumerate() {
        if given[k].is_none() {
            let word = outcome.keyword();
            cx.diags.push(
                Diagnostic::error("E0136", file, head, format!("this roll gives no `{word}` faces"), format!("no `{word}` line in this roll"))
                    .with_help(format!("a roll gives the faces of each outcome, as in {example}")),
            );
            ok = false;
        }
    }
    if ok {
        let missing: Vec<String> = (1..=n).filter(|f| !listed.contains_key(f)).map(|f| f.to_string()).collect();
        if !missing.is_empty() {
            let (faces_are, mean) = if missing.len() == 1 { ("face", "means") } else { ("faces", "mean") };
            cx.diags.push(
                Diagnostic::error("E0136", file, head, format!("{faces_are} {} of die `{name}` {mean} nothing in this roll", missing.join(", ")), "not every face is given")
                    .with_help(format!("every face of the die must mean one outcome, as in {example}")),
            );
            ok = false;
        }
    }
    for list in &mut faces {
        list.sort_unstable();
    }
    ok.then_some(faces)
}

/// The `spread` block: `squares at most 2` (the default; any other bound is
/// `E0138`); at least one weight, each statement once and each `red forward`
/// kind once (`E0137`); weights with distinct names and separators
/// (`E0139`); `red forward` kinds that exist (`E0105`) in a variant whose
/// players declare `forward` (`E0109`). Rolls are checked against their
/// dice (`E0135`, `E0136`). Kinds a later `without piece` removed are left out.
pub(super) fn lower_spread(cx: &mut Cx, s: &Dropping<ast::Spread>, dice: &Dice) -> SpreadRules {
    let file = s.item.file;
    let block = s.item.node;
    let mut squares: Option<Span> = None;
    let mut names: Vec<&ast::Ident> = Vec::new();
    let mut weights: Vec<(Weight, &ast::Ident)> = Vec::new();
    let mut red_forward: Vec<(KindId, Span)> = Vec::new();
    let mut castling: Option<Span> = None;
    for rule in &block.rules {
        match &rule.node {
            ast::SpreadRule::SquaresAtMost(n) => {
                if let Some(first) = squares {
                    given_twice(cx, file, rule.span, first, "squares at most", "spread");
                    continue;
                }
                squares = Some(rule.span);
                if n.node != 2 {
                    cx.diags.push(
                        Diagnostic::error("E0138", file, n.span, format!("a spread piece on at most {} squares is not supported", n.node), "the engine keeps two halves per piece")
                            .with_help("write `squares at most 2` (or leave the line out): a split puts a conventional piece on two squares, and only a conventional piece splits"),
                    );
                }
            }
            ast::SpreadRule::Weight(w) => {
                if let Some(first) = names.iter().find(|n| n.node == w.name.node) {
                    cx.diags.push(
                        Diagnostic::error("E0139", file, w.name.span, format!("weight `{}` is defined twice", w.name.node), "defined again here")
                            .with_note(first.span, "first defined here")
                            .with_help("give each weight its own name: positions (FEN) write it after a spread piece (`Nd4g5:equal`)"),
                    );
                    continue;
                }
                names.push(&w.name);
                let Some(die) = roll_die(cx, file, dice, &w.roll) else { continue };
                let Some([red, blue]) = roll_faces(cx, file, &w.roll, &dice.dice[die], [ast::RollOutcome::Red, ast::RollOutcome::Blue]) else {
                    continue;
                };
                let separator = match red.len().cmp(&blue.len()) {
                    std::cmp::Ordering::Equal => '&',
                    std::cmp::Ordering::Greater => '>',
                    std::cmp::Ordering::Less => '<',
                };
                if let Some((other, other_name)) = weights.iter().find(|(o, _)| o.separator == separator) {
                    cx.diags.push(
                        Diagnostic::error("E0139", file, w.name.span, format!("weights `{}` and `{}` are both written `{separator}`", other.name, w.name.node), format!("written `{separator}` in a split"))
                            .with_note(other_name.span, format!("`{}` is written `{separator}` too", other.name))
                            .with_help("a split writes its weight between its two squares (`Nd4&g5`): `&` when red and blue are equally likely, `>` when red is likelier, `<` when blue is; each weight needs its own sign, so a block has at most three"),
                    );
                    continue;
                }
                weights.push((Weight { name: w.name.node.clone(), die, red_faces: red, blue_faces: blue, separator }, &w.name));
            }
            ast::SpreadRule::RedForward { forward, kinds } => {
                if cx.players.iter().any(|p| direction_test(p, "forward").is_none()) {
                    cx.diags.push(
                        Diagnostic::error("E0109", file, *forward, "`forward` is not a direction of this board", "not declared by the players")
                            .with_help("the red half stands the farther forward: the players must declare `forward`, as in `players { white: forward +rank  black: forward -rank }`"),
                    );
                }
                for name in kinds {
                    if is_dropped(cx, s, &name.node) {
                        continue;
                    }
                    let Some(k) = cx.kind(file, name) else { continue };
                    if let Some(&(_, first)) = red_forward.iter().find(|(q, _)| *q == k) {
                        cx.diags.push(
                            Diagnostic::error("E0137", file, name.span, format!("`{}` is listed twice after `red forward`", name.node), "listed again here")
                                .with_note(first, "first listed here")
                                .with_help("list each kind whose red half stands in front once"),
                        );
                        continue;
                    }
                    red_forward.push((k, name.span));
                }
            }
            ast::SpreadRule::CastlingSplits => match castling {
                Some(first) => given_twice(cx, file, rule.span, first, "castling splits", "spread"),
                None => castling = Some(rule.span),
            },
        }
    }
    if names.is_empty() {
        cx.diags.push(
            Diagnostic::error("E0137", file, keyword_span(block.span, "spread"), "this `spread` block has no weight", "no `weight` line in this block")
                .with_help("a split chooses one of the block's weights: add one, e.g. `weight equal roll d6 { red 2 4 6  blue 1 3 5 }`"),
        );
    }
    SpreadRules {
        squares: 2,
        weights: weights.into_iter().map(|(w, _)| w).collect(),
        red_forward: red_forward.into_iter().map(|(k, _)| k).collect(),
        castling_split: castling.is_some(),
        entangle: None,
        span: block.span,
        file: file.to_string(),
    }
}

/// The `entangle` block: one `groups` line (`E0137`) whose labels are
/// distinct, at most 255, not empty and without spaces, `:`, `+` or `~`
/// (positions write them; `E0139`).
pub(super) fn lower_entangle(cx: &mut Cx, e: From<ast::Entangle>) -> EntangleRules {
    let file = e.file;
    let mut line: Option<Span> = None;
    let mut labels: Vec<&Spanned<String>> = Vec::new();
    for rule in &e.node.rules {
        let ast::EntangleRule::Groups(written) = &rule.node;
        if let Some(first) = line {
            given_twice(cx, file, rule.span, first, "groups", "entangle");
            continue;
        }
        line = Some(rule.span);
        for label in written {
            if label.node.is_empty() || label.node.chars().any(|c| c.is_whitespace() || matches!(c, ':' | '+' | '~')) {
                cx.diags.push(
                    Diagnostic::error("E0139", file, label.span, format!("{label:?} cannot label a group", label = label.node), "empty, or with a space, `:`, `+` or `~`")
                        .with_help("positions (FEN) write a group's label after its weight (`Bc4e2+nd5f6:equal:/`); use a short mark such as \"/\" or \"\\\\\""),
                );
                continue;
            }
            if let Some(first) = labels.iter().find(|l| l.node == label.node) {
                cx.diags.push(
                    Diagnostic::error("E0139", file, label.span, format!("label {:?} is given twice", label.node), "given again here")
                        .with_note(first.span, "first given here")
                        .with_help("each entangled group needs its own label"),
                );
                continue;
            }
            labels.push(label);
        }
    }
    if labels.len() > usize::from(u8::MAX) {
        if let Some(l) = labels.get(usize::from(u8::MAX)) {
            cx.diags.push(
                Diagnostic::error("E0139", file, l.span, format!("{} group labels", labels.len()), "the 256th label")
                    .with_help("an `entangle` block has at most 255 labels"),
            );
        }
    }
    if line.is_none() {
        cx.diags.push(
            Diagnostic::error("E0137", file, keyword_span(e.node.span, "entangle"), "this `entangle` block has no `groups` line", "no `groups` line in this block")
                .with_help("list the labels of the entangled groups, e.g. `entangle { groups \"/\" \"\\\\\" }`: their number is the most groups that may exist at once"),
        );
    }
    EntangleRules { labels: labels.into_iter().map(|l| l.node.clone()).collect(), span: e.node.span }
}

/// The `tunnel` block: one `roll` line (`E0137`) of a declared die
/// (`E0135`) whose faces each mean `through` or `bounce` (`E0136`).
pub(super) fn lower_tunnel(cx: &mut Cx, t: From<ast::Tunnel>, dice: &Dice) -> Option<TunnelRules> {
    let file = t.file;
    let mut first: Option<Span> = None;
    let mut out = None;
    for rule in &t.node.rules {
        let ast::TunnelRule::Roll(roll) = &rule.node;
        if let Some(first) = first {
            given_twice(cx, file, rule.span, first, "roll", "tunnel");
            continue;
        }
        first = Some(rule.span);
        let Some(die) = roll_die(cx, file, dice, roll) else { continue };
        let Some([through, _]) = roll_faces(cx, file, roll, &dice.dice[die], [ast::RollOutcome::Through, ast::RollOutcome::Bounce]) else {
            continue;
        };
        out = Some(TunnelRules { die, through_faces: through, span: t.node.span, file: file.to_string() });
    }
    if first.is_none() {
        cx.diags.push(
            Diagnostic::error("E0137", file, keyword_span(t.node.span, "tunnel"), "this `tunnel` block has no `roll` line", "no `roll` line in this block")
                .with_help("say which faces let the piece through, e.g. `tunnel { roll d6 { through 6  bounce 1..5 } }`"),
        );
    }
    out
}
