//! The `explosion` item (issue 17): every capture explodes on its target square.
//!
//! Diagnostics: `E0105` an unknown piece, `E0185` `around` given twice or out
//! of range (0 to 8), a kind both spared and immune or listed twice.

use super::*;
use crate::model::explosion::Explosion;

pub(super) fn lower_explosion(cx: &mut Cx, x: From<ast::Explosion>) -> Option<Explosion> {
    let file = x.file;
    let errors_before = cx.diags.len();
    let mut radius: Option<(u32, Span)> = None;
    let mut spares: Vec<KindId> = Vec::new();
    let mut immune: Vec<KindId> = Vec::new();
    let mut listed: Vec<(KindId, Span)> = Vec::new();
    for rule in &x.node.rules {
        match &rule.node {
            ast::ExplosionRule::Around(n) => {
                if let Some((_, first)) = radius {
                    cx.diags.push(
                        Diagnostic::error("E0185", file, rule.span, "`around` is given twice", "given again here")
                            .with_note(first, "first here")
                            .with_help("an explosion has one reach: keep one `around N`"),
                    );
                    continue;
                }
                if !(0..=8).contains(&n.node) {
                    cx.diags.push(
                        Diagnostic::error("E0185", file, n.span, format!("an explosion around {}", n.node), "from 0 to 8 king steps")
                            .with_help("`around 1` removes the pieces on the cells next to the target; `around 0` only the two pieces of the capture"),
                    );
                    continue;
                }
                radius = Some((n.node as u32, rule.span));
            }
            ast::ExplosionRule::Spares(names) | ast::ExplosionRule::Immune(names) => {
                let into_immune = matches!(rule.node, ast::ExplosionRule::Immune(_));
                for name in names {
                    let Some(k) = cx.kind(file, name) else { continue };
                    if let Some((_, first)) = listed.iter().find(|(q, _)| *q == k) {
                        cx.diags.push(
                            Diagnostic::error("E0185", file, name.span, format!("`{}` is listed twice", name.node), "listed again here")
                                .with_note(*first, "first here")
                                .with_help("a kind is either spared around the target (`spares`) or never removed (`immune`): list it once"),
                        );
                        continue;
                    }
                    listed.push((k, name.span));
                    if into_immune {
                        immune.push(k);
                    } else {
                        spares.push(k);
                    }
                }
            }
        }
    }
    (cx.diags.len() == errors_before).then(|| Explosion { radius: radius.map_or(1, |r| r.0), spares, immune, span: x.node.span, file: file.to_string() })
}
