//! The `end` item: outcomes, move limits, repetition, and the priority between end conditions.

use super::*;

pub(super) fn lower_end(cx: &mut Cx, e: From<ast::End>) -> EndRules {
    let outcome = |o: &ast::Outcome| match o {
        ast::Outcome::Win => Outcome::Win,
        ast::Outcome::Lose => Outcome::Lose,
        ast::Outcome::Draw => Outcome::Draw,
    };
    let mut end = EndRules { file: e.file.to_string(), ..EndRules::default() };
    let mut priorities = Vec::new();
    for rule in &e.node.rules {
        let condition = match &rule.node {
            ast::EndRule::Checkmate(o) => {
                end.checkmate = Some(outcome(&o.node));
                EndCondition::Checkmate
            }
            ast::EndRule::Stalemate(o) => {
                end.stalemate = Some(outcome(&o.node));
                EndCondition::Stalemate
            }
            ast::EndRule::FiftyMove { moves, piece, reveal } => {
                if moves.node == 0 {
                    cx.diags.push(senseless_count(e.file, moves.span, "a move limit of 0 moves", "1 move", "the half-move clock starts at 0, which has already reached 2 × 0"));
                }
                end.fifty_move = Some(moves.node);
                end.fifty_move_piece = cx.kind(e.file, piece);
                end.fifty_move_reveal = reveal.is_some();
                EndCondition::MoveLimit
            }
            ast::EndRule::Repetition(n) => {
                if n.node < 2 {
                    let what = format!("a repetition count of {}", n.node);
                    cx.diags.push(senseless_count(e.file, n.span, &what, "2", "the setup is already the first occurrence of its position"));
                }
                end.repetition = Some(n.node);
                EndCondition::Repetition
            }
            ast::EndRule::Priority { higher, lower } => {
                priorities.push((rule.span, higher, lower));
                continue;
            }
        };
        end.spans.push((condition, rule.span));
    }
    // Lines that fixed a pair, to point at when a later line contradicts them.
    let mut lines: Vec<((EndCondition, EndCondition), Span)> = Vec::new();
    for (span, higher, lower) in priorities {
        lower_priority(cx, e.file, &mut end, &mut lines, higher, lower);
        end.spans.push((condition(higher.node), span));
    }
    end
}

/// `E0143`: a count in an `end` rule that ends every game at the setup
/// (`draw on repetition 0` or `1`, `draw after 0 moves …`).
pub(super) fn senseless_count(file: &str, span: Span, what: &str, least: &str, why: &str) -> Diagnostic {
    Diagnostic::error("E0143", file, span, format!("{what} ends every game before its first move"), format!("at least {least}"))
        .with_help(format!("{why}; write at least {least} (FIDE chess: `draw on repetition 3`, `draw after 50 moves without capture or Pawn move`)"))
}

/// The model's name for a condition written in a `priority` line.
pub(super) fn condition(c: ast::EndCondition) -> EndCondition {
    match c {
        ast::EndCondition::Checkmate => EndCondition::Checkmate,
        ast::EndCondition::Stalemate => EndCondition::Stalemate,
        ast::EndCondition::MoveLimit => EndCondition::MoveLimit,
        ast::EndCondition::Repetition => EndCondition::Repetition,
    }
}

/// One `priority A over B, C` line: adds its pairs to `end.priority`, or
/// reports a condition the block does not define (`E0127`) or a pair that
/// makes priority go round (`E0126`).
pub(super) fn lower_priority(
    cx: &mut Cx,
    file: &str,
    end: &mut EndRules,
    lines: &mut Vec<((EndCondition, EndCondition), Span)>,
    higher: &Spanned<ast::EndCondition>,
    lower: &[Spanned<ast::EndCondition>],
) {
    let h = condition(higher.node);
    if !end.defines(h) {
        cx.diags.push(undefined_condition(file, h, higher.span));
        return;
    }
    for l in lower {
        let lc = condition(l.node);
        if !end.defines(lc) {
            cx.diags.push(undefined_condition(file, lc, l.span));
        } else if lc == h {
            cx.diags.push(
                Diagnostic::error("E0126", file, l.span, format!("`{}` has priority over itself", h.keyword()), "the same condition on both sides")
                    .with_note(higher.span, "the condition with priority")
                    .with_help(format!("name another condition after `over`, e.g. `priority {} over …`, or remove this one", h.keyword())),
            );
        } else if end.outranks(lc, h) {
            cx.diags.push(priority_cycle(file, h, lc, Span::new(higher.span.start, l.span.end), lines));
        } else if !end.priority.contains(&(h, lc)) {
            end.priority.push((h, lc));
            lines.push(((h, lc), Span::new(higher.span.start, l.span.end)));
        }
    }
}

/// `E0127`: a `priority` line names a condition that ends nothing in this block.
pub(super) fn undefined_condition(file: &str, c: EndCondition, span: Span) -> Diagnostic {
    let rule = match c {
        EndCondition::MoveLimit => "`draw after 50 moves without capture or Pawn move`",
        EndCondition::Repetition => "`draw on repetition 3`",
        // Always defined (defaults); listed to keep the match exhaustive.
        EndCondition::Checkmate => "`checkmate: lose`",
        EndCondition::Stalemate => "`stalemate: draw`",
    };
    Diagnostic::error("E0127", file, span, format!("`{}` is not a rule of this end block", c.keyword()), "no rule of the block ends the game this way")
        .with_help(format!("add the rule to the block, e.g. {rule}, or leave `{}` out of the priority line", c.keyword()))
}

/// `E0126`: `higher` over `lower` although `lower` already has priority over
/// `higher` (through the pairs in `lines`).
pub(super) fn priority_cycle(
    file: &str,
    higher: EndCondition,
    lower: EndCondition,
    span: Span,
    lines: &[((EndCondition, EndCondition), Span)],
) -> Diagnostic {
    let mut d = Diagnostic::error(
        "E0126",
        file,
        span,
        format!("priority goes round in a circle: `{}` over `{}` over `{}`", higher.keyword(), lower.keyword(), higher.keyword()),
        format!("`{}` over `{}` here", higher.keyword(), lower.keyword()),
    );
    for ((a, b), at) in priority_path(lower, higher, lines) {
        d = d.with_note(at, format!("`{}` over `{}` here", a.keyword(), b.keyword()));
    }
    d.with_help("priority goes one way only: keep one of the contradicting lines")
}

/// The pairs of `lines` that lead from `from` to `to` (from over … over to).
pub(super) fn priority_path(
    from: EndCondition,
    to: EndCondition,
    lines: &[((EndCondition, EndCondition), Span)],
) -> Vec<((EndCondition, EndCondition), Span)> {
    // Breadth first over at most four conditions: remember how each was reached.
    let mut how: Vec<(EndCondition, Option<usize>)> = vec![(from, None)];
    let mut next = 0;
    while let Some(&(at, _)) = how.get(next) {
        if at == to {
            break;
        }
        for (i, &((a, b), _)) in lines.iter().enumerate() {
            if a == at && !how.iter().any(|&(c, _)| c == b) {
                how.push((b, Some(i)));
            }
        }
        next += 1;
    }
    let mut path = Vec::new();
    let mut at = to;
    while let Some(&(_, Some(i))) = how.iter().find(|&&(c, _)| c == at) {
        path.push(lines[i]);
        at = lines[i].0 .0;
    }
    path.reverse();
    path
}
