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

/// The promotions made as moves of their own; `scope` lowers their conditions.
pub(super) fn lower_promotion_moves(cx: &mut Cx, p: From<ast::Promotion>, scope: &RuleScope) -> Vec<PromotionMove> {
    let mut out = Vec::new();
    for m in &p.node.moves {
        let kind = cx.kind(p.file, &m.piece);
        let zone = m.zone.as_ref().map(|z| cx.zone(p.file, z));
        let targets: Vec<Option<KindId>> = m.targets.iter().map(|t| cx.kind(p.file, t)).collect();
        let guard = m.guard.as_ref().map(|c| lower_cond(cx, p.file, c, scope));
        let (Some(kind), Some(zone), Some(guard)) = (kind, zone.map_or(Some(None), |z| z.map(Some)), guard.map_or(Some(None), |g| g.map(Some))) else {
            continue;
        };
        if targets.iter().all(|t| t.is_some()) {
            out.push(PromotionMove {
                kind,
                zone,
                targets: targets.into_iter().flatten().collect(),
                quiet_move: m.quiet_move,
                guard,
                no_check: m.no_check,
                no_attack: m.no_attack,
                span: m.span,
                file: p.file.to_string(),
            });
        }
    }
    out
}
