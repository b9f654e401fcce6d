//! The `slide` item: levels that slide out of the shaft during play.
//!
//! Diagnostics: `E0150` a level label that is not a label of the board,
//! `E0151` levels of different axes (the stacking axis is one), `E0152` a
//! slide axis that is not an axis of the board or is the stacking axis,
//! `E0153` a level named twice, `E0154` `out at most` of 0 or of every row of
//! a sliding level's axis, `E0155` a statement missing, `E0156` a swing that
//! never moves or never ends (0 rows, 0 less), `E0157` a number out of range,
//! `E0158` `slide` together with `spread` or `tunnel`, `E0159` a compass word
//! that is empty, has a space or `-`, or names both directions; a statement given twice
//! is `E0137`.

use super::*;
use crate::model::slide::{SlideRules, SwingRule};

pub(super) fn lower_slide(cx: &mut Cx, s: From<ast::Slide>) -> Option<SlideRules> {
    let geo = cx.geometry;
    let file = s.file;
    let errors_before = cx.diags.len();
    let mut stack: Option<(usize, Span)> = None;
    let mut axes: Vec<Option<usize>> = Vec::new();
    let mut named: Vec<(usize, Span)> = Vec::new();
    let mut out: Option<(u8, Span)> = None;
    let mut swing: Option<(u8, Span)> = None;
    let mut overshoot: Option<(u8, bool, Span)> = None;
    let mut seen_levels = false;
    let mut compass: Vec<Option<(String, String)>> = vec![None; geo.dims()];
    let mut compass_at: Vec<Option<Span>> = vec![None; geo.dims()];
    let small = |cx: &mut Cx, n: &Spanned<u32>, what: &str| -> Option<u8> {
        match u8::try_from(n.node).ok().filter(|&v| v <= 127) {
            Some(v) => Some(v),
            None => {
                cx.diags.push(
                    Diagnostic::error("E0157", file, n.span, format!("{} rows {what}", n.node), "at most 127")
                        .with_help("a level moves by at most 127 rows; a board's axes are far shorter"),
                );
                None
            }
        }
    };
    for rule in &s.node.rules {
        match &rule.node {
            ast::SlideRule::Levels { levels, axis } => {
                seen_levels = true;
                let mut line_ok = true;
                let mut coords = Vec::new();
                for label in levels {
                    // The label's axis, the last axes first (`1` is more likely a level than a rank there).
                    let found = geo.axes.iter().enumerate().rev().find_map(|(a, info)| info.labels.iter().position(|l| *l == label.node).map(|i| (a, i)));
                    let Some((a, i)) = found.filter(|_| geo.dims() >= 3) else {
                        let help = match geo.axes.get(2) {
                            Some(info) if geo.dims() >= 3 => format!("the levels are the labels of the stacking axis `{}`: {}", info.name, info.labels.join(" ")),
                            _ => "levels slide only on a board of three or more axes (`levels A..C` in the board)".to_string(),
                        };
                        cx.diags.push(
                            Diagnostic::error("E0150", file, label.span, format!("`{}` is not a level of the board", label.node), "not a label of the board").with_help(help),
                        );
                        line_ok = false;
                        continue;
                    };
                    match stack {
                        None => stack = Some((a, label.span)),
                        Some((sa, first)) if sa != a => {
                            cx.diags.push(
                                Diagnostic::error("E0151", file, label.span, format!("`{}` is a label of axis `{}`, not of the stacking axis `{}`", label.node, geo.axes[a].name, geo.axes[sa].name), "another axis")
                                    .with_note(first, "this label makes the stacking axis")
                                    .with_help("every level named in a `slide` item is a label of one axis, the stacking axis"),
                            );
                            line_ok = false;
                            continue;
                        }
                        _ => {}
                    }
                    if let Some(&(_, first)) = named.iter().find(|&&(c, _)| c == i) {
                        cx.diags.push(
                            Diagnostic::error("E0153", file, label.span, format!("level `{}` is named twice", label.node), "named again here")
                                .with_note(first, "first named here")
                                .with_help("each level slides along one axis: name it in one `levels` line only"),
                        );
                        line_ok = false;
                        continue;
                    }
                    named.push((i, label.span));
                    coords.push(i);
                }
                let slide_axis = match geo.axis_index(&axis.node) {
                    Some(a) if stack.is_some_and(|(sa, _)| sa == a) => {
                        cx.diags.push(
                            Diagnostic::error("E0152", file, axis.span, format!("levels cannot slide along `{}`, the axis they are stacked on", axis.node), "the stacking axis")
                                .with_help("a level slides along one of its own axes, e.g. `along rank` or `along file`"),
                        );
                        None
                    }
                    Some(a) => Some(a),
                    None => {
                        let names: Vec<&str> = geo.axes.iter().map(|a| a.name.as_str()).collect();
                        cx.diags.push(
                            Diagnostic::error("E0152", file, axis.span, format!("`{}` is not an axis of the board", axis.node), "unknown axis")
                                .with_help(format!("the board's axes are {}", names.join(", "))),
                        );
                        None
                    }
                };
                if let (true, Some(a), Some((sa, _))) = (line_ok, slide_axis, stack) {
                    axes.resize(geo.size(sa), None);
                    for c in coords {
                        axes[c] = Some(a);
                    }
                }
            }
            ast::SlideRule::OutAtMost(n) => {
                if let Some((_, first)) = out {
                    given_twice(cx, file, rule.span, first, "out at most", "slide");
                } else if let Some(v) = small(cx, n, "out") {
                    out = Some((v, rule.span));
                }
            }
            ast::SlideRule::Swing(n) => {
                if let Some((_, first)) = swing {
                    given_twice(cx, file, rule.span, first, "swing", "slide");
                } else if let Some(v) = small(cx, n, "per ply") {
                    if v == 0 {
                        cx.diags.push(
                            Diagnostic::error("E0156", file, n.span, "a swing of 0 rows per ply never comes back", "0 rows")
                                .with_help("write `swing 1 row per ply`"),
                        );
                    }
                    swing = Some((v, rule.span));
                }
            }
            ast::SlideRule::Compass { first, last, axis } => {
                let Some(a) = geo.axis_index(&axis.node) else {
                    let names: Vec<&str> = geo.axes.iter().map(|x| x.name.as_str()).collect();
                    cx.diags.push(
                        Diagnostic::error("E0152", file, axis.span, format!("`{}` is not an axis of the board", axis.node), "no such axis")
                            .with_help(format!("the axes are {}", names.join(", "))),
                    );
                    continue;
                };
                if let Some(first_at) = compass_at[a] {
                    given_twice(cx, file, rule.span, first_at, "compass", "slide");
                    continue;
                }
                // The words are written inside `A-IV-7-WORD`: one word each, without `-`.
                let mut ok = true;
                for w in [first, last] {
                    if w.node.is_empty() || w.node.contains(|c: char| c == '-' || c.is_whitespace()) {
                        cx.diags.push(
                            Diagnostic::error("E0159", file, w.span, format!("`{}` cannot be a compass word", w.node), "empty, or with a space or `-`")
                                .with_help("a compass word is written inside an activation (`A-IV-7-Ost`): one word, without `-` or spaces"),
                        );
                        ok = false;
                    }
                }
                if ok && first.node == last.node {
                    cx.diags.push(
                        Diagnostic::error("E0159", file, last.span, format!("both directions are called `{}`", last.node), "the same word")
                            .with_help("the first word names the direction towards the axis's first label, the second towards its last"),
                    );
                    ok = false;
                }
                compass_at[a] = Some(rule.span);
                if ok {
                    compass[a] = Some((first.node.clone(), last.node.clone()));
                }
            }
            ast::SlideRule::Overshoot { less, once } => {
                if let Some((_, _, first)) = overshoot {
                    given_twice(cx, file, rule.span, first, "overshoot", "slide");
                } else if let Some(v) = small(cx, less, "less") {
                    if v == 0 && !once {
                        cx.diags.push(
                            Diagnostic::error("E0156", file, less.span, "overshooting 0 rows less each pass never comes to rest", "0 less each pass")
                                .with_help("write `overshoot 1 less each pass`, or `overshoot 0 less once` for one full overshoot"),
                        );
                    }
                    overshoot = Some((v, *once, rule.span));
                }
            }
        }
    }
    let head = keyword_span(s.node.span, "slide");
    let mut missing = |what: &str, example: &str| {
        cx.diags.push(
            Diagnostic::error("E0155", file, head, format!("the `slide` item does not say {what}"), "in this item").with_help(format!("add `{example}`")),
        );
    };
    if !seen_levels {
        missing("which levels slide", "levels LABEL … along AXIS");
    }
    if out.is_none() {
        missing("how far a level may be pulled out", "out at most N");
    }
    if swing.is_none() {
        missing("how fast a level swings back", "swing 1 row per ply");
    }
    if overshoot.is_none() {
        missing("how a level overshoots rest", "overshoot 1 less each pass");
    }
    if let (Some((n, span)), Some((sa, _))) = (out, stack) {
        let shortest = axes.iter().flatten().map(|&a| (geo.size(a), a)).min();
        if n == 0 {
            cx.diags.push(
                Diagnostic::error("E0154", file, span, "`out at most 0`: no level could ever be pulled out", "0 rows").with_help("allow at least 1 row"),
            );
        } else if let Some((rows, a)) = shortest.filter(|&(rows, _)| usize::from(n) >= rows) {
            let _ = sa;
            cx.diags.push(
                Diagnostic::error("E0154", file, span, format!("a level pulled out {n} rows along `{}` would leave the shaft: it has {rows} rows", geo.axes[a].name), format!("at most {}", rows - 1))
                    .with_help("at least one row of a level always stays in the shaft"),
            );
        }
    }
    if cx.diags.len() > errors_before {
        return None;
    }
    let (Some((stack_axis, _)), Some((out_max, _)), Some((rows, _)), Some((shrink, once, _))) = (stack, out, swing, overshoot) else {
        return None;
    };
    Some(SlideRules {
        stack_axis,
        axes,
        out_max,
        swing: SwingRule { rows, shrink, once },
        compass,
        span: s.node.span,
        file: file.to_string(),
    })
}
