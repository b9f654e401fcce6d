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
    pub blocks: [(&'static str, bool); 10],
}

pub(super) fn lower_rulings(cx: &mut Cx, rulings: &[From<ast::Ruling>], present: &Present) -> Vec<Ruling> {
    rulings.iter().map(|&r| lower_ruling(cx, r, present)).collect()
}

fn lower_ruling(cx: &mut Cx, r: From<ast::Ruling>, present: &Present) -> Ruling {
    let mut settles = Vec::new();
    for target in &r.node.settles {
        let (known, what, names): (bool, &str, Vec<String>) = match &target.node {
            ast::Settled::Rule(n) => (present.rules.iter().any(|x| &x.name == n), "rule", present.rules.iter().map(|x| format!("\"{}\"", x.name)).collect()),
            ast::Settled::Piece(n) => (present.kinds.iter().any(|k| &k.name == n), "piece", present.kinds.iter().map(|k| k.name.clone()).collect()),
            ast::Settled::Phase(n) => (present.phases.iter().any(|p| &p.name == n), "phase", present.phases.iter().map(|p| p.name.clone()).collect()),
            ast::Settled::Item(k) => (present.blocks.iter().any(|(b, has)| b == k && *has), "block", Vec::new()),
        };
        let settled = match &target.node {
            ast::Settled::Rule(n) => Settles::Rule(n.clone()),
            ast::Settled::Piece(n) => Settles::Piece(n.clone()),
            ast::Settled::Phase(n) => Settles::Phase(n.clone()),
            ast::Settled::Item(k) => Settles::Item(k.clone()),
        };
        if !known {
            let (message, label, help) = match &target.node {
                ast::Settled::Item(k) => (
                    format!("the ruling settles `{k}`, and the variant has no `{k}` block"),
                    "no such block".to_string(),
                    "name a block the variant has, or a rule, piece or phase".to_string(),
                ),
                _ => (
                    format!("the ruling settles {settled}, and the variant has no {what} of that name"),
                    format!("no {what} of that name"),
                    if names.is_empty() { format!("the variant has no {what} at all") } else { format!("its {what}s: {}", names.join(", ")) },
                ),
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
