//! The `ruling` items: a reading of an ambiguous passage, and what it settles.

use super::*;
use crate::model::cond::Rule;
use crate::model::flow::Phase;

/// What a ruling's `settles` may name: the variant's pieces, rules and
/// phases, and which blocks it has.
pub(super) struct Present<'a> {
    pub kinds: &'a [PieceKind],
    pub rules: &'a [Rule],
    pub phases: &'a [Phase],
    pub blocks: [(&'static str, bool); 12],
}

pub(super) fn lower_rulings(cx: &mut Cx, rulings: &[From<ast::Ruling>], present: &Present) -> Vec<Ruling> {
    rulings.iter().map(|&r| lower_ruling(cx, r, present)).collect()
}

fn lower_ruling(cx: &mut Cx, r: From<ast::Ruling>, present: &Present) -> Ruling {
    let mut settles = Vec::new();
    for target in &r.node.settles {
        // The item, the word for its kind, and the names the variant has of that kind.
        let (settled, what, names): (Settles, &str, Vec<&str>) = match &target.node {
            ast::Settled::Rule(n) => (Settles::Rule(n.clone()), "rule", present.rules.iter().map(|x| x.name.as_str()).collect()),
            ast::Settled::Piece(n) => (Settles::Piece(n.clone()), "piece", present.kinds.iter().map(|k| k.name.as_str()).collect()),
            ast::Settled::Phase(n) => (Settles::Phase(n.clone()), "phase", present.phases.iter().map(|p| p.name.as_str()).collect()),
            ast::Settled::Item(k) => (Settles::Item(k.clone()), "block", present.blocks.iter().filter(|(_, has)| *has).map(|(b, _)| *b).collect()),
            ast::Settled::Finding(c) => (Settles::Finding(c.clone()), "finding", GAP_CODES.to_vec()),
        };
        let (ast::Settled::Rule(name) | ast::Settled::Piece(name) | ast::Settled::Phase(name) | ast::Settled::Item(name) | ast::Settled::Finding(name)) =
            &target.node;
        if !names.contains(&name.as_str()) {
            let (message, label, help) = match &settled {
                Settles::Item(k) => (
                    format!("the ruling settles `{k}`, and the variant has no `{k}` block"),
                    "no such block".to_string(),
                    "name a block the variant has, or a rule, piece or phase".to_string(),
                ),
                Settles::Finding(c) => (
                    format!("the ruling settles findings {c}, and no finding about a gap has that code"),
                    "not a gap's code".to_string(),
                    format!("the codes a ruling can settle: {}", GAP_CODES.join(", ")),
                ),
                _ => {
                    let quoted: Vec<String> = names.iter().map(|n| if what == "rule" { format!("\"{n}\"") } else { n.to_string() }).collect();
                    (
                        format!("the ruling settles {settled}, and the variant has no {what} of that name"),
                        format!("no {what} of that name"),
                        if quoted.is_empty() { format!("the variant has no {what} at all") } else { format!("its {what}s: {}", quoted.join(", ")) },
                    )
                }
            };
            cx.diags.push(Diagnostic::error("E0180", r.file, target.span, message, label).with_help(help));
            continue;
        }
        if !settles.contains(&settled) {
            settles.push(settled);
        }
    }
    Ruling {
        name: r.node.name.node.clone(),
        source: r.node.source.as_ref().map(|s| s.node.clone()),
        quote: r.node.quote.node.clone(),
        reading: r.node.reading.node.clone(),
        settles,
        file: r.file.to_string(),
        span: r.node.span,
    }
}
