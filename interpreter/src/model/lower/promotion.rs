//! The `promotion` item.

use super::*;

pub(super) fn lower_promotions(cx: &mut Cx, p: From<ast::Promotion>) -> Vec<PromotionRule> {
    let mut out = Vec::new();
    for rule in &p.node.rules {
        let kind = cx.kind(p.file, &rule.piece);
        let zone = cx.zone(p.file, &rule.zone);
        let targets: Vec<Option<KindId>> = rule.targets.iter().map(|t| cx.kind(p.file, t)).collect();
        if let (Some(kind), Some(zone)) = (kind, zone) {
            if targets.iter().all(|t| t.is_some()) {
                out.push(PromotionRule { kind, zone, from_too: rule.from_too, capturing: rule.capturing, targets: targets.into_iter().flatten().collect(), span: rule.span, file: p.file.to_string() });
            }
        }
    }
    out
}
