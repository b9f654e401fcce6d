//! Builds the `explosion` item (issue 17).

use super::*;

impl Builder<'_> {
    pub(super) fn explosion(&self, pair: Pair<'_, Rule>) -> Res<Explosion> {
        let span = span_of(&pair);
        let mut rules = Vec::new();
        for rule in pair.into_inner().filter(|p| p.as_rule() == Rule::explosion_rule) {
            let rule_span = span_of(&rule);
            let inner = self.need(first_inner(rule), rule_span, "empty explosion statement")?;
            let kinds = |p: Pair<'_, Rule>| -> Vec<Ident> {
                p.into_inner()
                    .filter(|c| c.as_rule() == Rule::explosion_kinds)
                    .flat_map(|c| c.into_inner().filter(|n| n.as_rule() == Rule::name).map(|n| ident(&n)).collect::<Vec<_>>())
                    .collect()
            };
            let explosion_rule = match inner.as_rule() {
                Rule::explosion_around => {
                    let n = self.need(inner.into_inner().find(|c| c.as_rule() == Rule::integer), rule_span, "`around` without a number")?;
                    let value = self.integer(&n)?;
                    ExplosionRule::Around(Spanned::new(i64::from(value), span_of(&n)))
                }
                Rule::explosion_spares => ExplosionRule::Spares(kinds(inner)),
                Rule::explosion_immune => ExplosionRule::Immune(kinds(inner)),
                _ => return Err(self.internal(rule_span, "unknown explosion statement")),
            };
            rules.push(Spanned::new(explosion_rule, rule_span));
        }
        Ok(Explosion { rules, span })
    }
}

#[cfg(test)]
mod tests {
    use crate::ast::{ExplosionRule, Item, Without};
    use crate::parse;

    #[test]
    fn an_explosion_item() {
        let src = "explosion {\n  around 1\n  spares Pawn, Knight\n  immune King\n}\nwithout explosion";
        let file = parse("t.rules", src).expect("parses");
        let Some(Item::Explosion(x)) = file.items.first() else { panic!("{:?}", file.items) };
        assert_eq!(x.rules.len(), 3);
        let ExplosionRule::Around(n) = &x.rules[0].node else { panic!() };
        assert_eq!(n.node, 1);
        let ExplosionRule::Spares(kinds) = &x.rules[1].node else { panic!() };
        assert_eq!(kinds.iter().map(|k| k.node.as_str()).collect::<Vec<_>>(), ["Pawn", "Knight"]);
        let ExplosionRule::Immune(kinds) = &x.rules[2].node else { panic!() };
        assert_eq!(kinds.iter().map(|k| k.node.as_str()).collect::<Vec<_>>(), ["King"]);
        let Some(Item::Without(w)) = file.items.get(1) else { panic!() };
        assert_eq!(w.node, Without::Explosion);
    }

    #[test]
    fn a_list_of_kinds_ends_at_the_next_statement() {
        let file = parse("t.rules", "explosion { spares Pawn Knight immune King around 2 }").expect("parses");
        let Some(Item::Explosion(x)) = file.items.first() else { panic!() };
        assert_eq!(x.rules.len(), 3);
        let ExplosionRule::Spares(kinds) = &x.rules[0].node else { panic!() };
        assert_eq!(kinds.len(), 2);
    }
}
