//! Builds the `observe` item (issue 15).

use super::*;

impl Builder<'_> {
    pub(super) fn observe(&self, pair: Pair<'_, Rule>) -> Res<Observe> {
        let span = span_of(&pair);
        let mut rules = Vec::new();
        for rule in pair.into_inner().filter(|p| p.as_rule() == Rule::observe_rule) {
            let rule_span = span_of(&rule);
            let inner = self.need(first_inner(rule), rule_span, "empty observe rule")?;
            let observe_rule = match inner.as_rule() {
                Rule::observe_slow => {
                    let mut pairs = Vec::new();
                    for p in inner.into_inner().filter(|p| p.as_rule() == Rule::slow_pair) {
                        let pair_span = span_of(&p);
                        let mut names = p.into_inner().filter(|c| c.as_rule() == Rule::name).map(|c| ident(&c));
                        let from = self.need(names.next(), pair_span, "slow without a piece")?;
                        let to = self.need(names.next(), pair_span, "slow without the piece it becomes")?;
                        pairs.push((from, to));
                    }
                    ObserveRule::Slow(pairs)
                }
                Rule::observe_displace => {
                    let from_seen = inner.into_inner().any(|c| c.as_rule() == Rule::kw_seen);
                    ObserveRule::Displace { from_seen }
                }
                _ => return Err(self.internal(rule_span, "unknown observe rule")),
            };
            rules.push(Spanned::new(observe_rule, rule_span));
        }
        Ok(Observe { rules, span })
    }
}

#[cfg(test)]
mod tests {
    use crate::ast::{Item, Modifier, ObserveRule};
    use crate::parse;

    #[test]
    fn an_observe_item_and_a_leap_via_its_step() {
        let src = "observe {\n  slow Queen to Rook, Rook to Bishop\n  displace by observers from departure\n}\npiece Knight N { move N via step }";
        let file = parse("t.rules", src).expect("parses");
        let Some(Item::Observe(o)) = file.items.first() else { panic!("{:?}", file.items) };
        assert_eq!(o.rules.len(), 2);
        let ObserveRule::Slow(pairs) = &o.rules[0].node else { panic!() };
        let names: Vec<(&str, &str)> = pairs.iter().map(|(a, b)| (a.node.as_str(), b.node.as_str())).collect();
        assert_eq!(names, [("Queen", "Rook"), ("Rook", "Bishop")]);
        assert_eq!(o.rules[1].node, ObserveRule::Displace { from_seen: false });
        let Some(Item::Piece(p)) = file.items.get(1) else { panic!() };
        let crate::ast::PieceItem::Part(part) = &p.body[0] else { panic!("{:?}", p.body) };
        assert!(part.modifiers.iter().any(|m| m.node == Modifier::ViaStep));
    }

    #[test]
    fn displacement_from_the_seen_square() {
        let file = parse("t.rules", "observe { displace by observers from seen }").expect("parses");
        let Some(Item::Observe(o)) = file.items.first() else { panic!() };
        assert_eq!(o.rules[0].node, ObserveRule::Displace { from_seen: true });
    }
}
