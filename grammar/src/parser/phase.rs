//! Builds the `phase` item (issue 13).

use super::*;

impl Builder<'_> {
    pub(super) fn phase(&self, pair: Pair<'_, Rule>) -> Res<Phase> {
        let span = span_of(&pair);
        let mut name = None;
        let mut rules = Vec::new();
        for c in pair.into_inner() {
            match c.as_rule() {
                Rule::name => name = Some(ident(&c)),
                Rule::phase_rule => {
                    let rule_span = span_of(&c);
                    let inner = self.need(first_inner(c), rule_span, "empty phase rule")?;
                    rules.push(Spanned::new(self.phase_rule(inner, rule_span)?, rule_span));
                }
                _ => {}
            }
        }
        Ok(Phase { name: self.need(name, span, "missing phase name")?, rules, span })
    }

    fn phase_rule(&self, inner: Pair<'_, Rule>, rule_span: Span) -> Res<PhaseRule> {
        Ok(match inner.as_rule() {
            Rule::phase_place => PhaseRule::PlaceFromHand,
            Rule::phase_safe => PhaseRule::PlacedSafe,
            Rule::phase_until => PhaseRule::UntilHandsEmpty,
            Rule::phase_only => {
                let c = inner.into_inner().find(|p| p.as_rule() == Rule::cond);
                PhaseRule::OnlyIf(self.cond(self.need(c, rule_span, "missing condition")?)?)
            }
            Rule::phase_colours => {
                let n = inner.into_inner().find(|p| p.as_rule() == Rule::name);
                PhaseRule::DifferentColours(ident(&self.need(n, rule_span, "missing piece")?))
            }
            Rule::phase_order => {
                let mut entries = Vec::new();
                for e in inner.into_inner().filter(|p| p.as_rule() == Rule::order_entry) {
                    let e_span = span_of(&e);
                    let mut piece = None;
                    let mut zone = None;
                    let mut like = None;
                    for part in e.into_inner() {
                        match part.as_rule() {
                            Rule::name => piece = Some(ident(&part)),
                            Rule::order_zone => {
                                let z = part.into_inner().find(|p| p.as_rule() == Rule::zone);
                                zone = Some(self.zone(self.need(z, e_span, "missing zone")?)?);
                            }
                            Rule::order_colour => {
                                let sq = part.into_inner().find(|p| p.as_rule() == Rule::square);
                                like = Some(ident(&self.need(sq, e_span, "missing square")?));
                            }
                            _ => {}
                        }
                    }
                    let piece = self.need(piece, e_span, "missing piece")?;
                    entries.push(Spanned::new(OrderEntry { piece, zone, like }, e_span));
                }
                PhaseRule::Order(entries)
            }
            Rule::phase_castling => {
                let mut names = Vec::new();
                let mut squares = Vec::new();
                for p in inner.into_inner() {
                    match p.as_rule() {
                        Rule::name => names.push(ident(&p)),
                        Rule::square => squares.push(ident(&p)),
                        _ => {}
                    }
                }
                let mut names = names.into_iter();
                let king = self.need(names.next(), rule_span, "missing king")?;
                let rook = self.need(names.next(), rule_span, "missing partner")?;
                let mut squares = squares.into_iter();
                let king_on = self.need(squares.next(), rule_span, "missing king square")?;
                PhaseRule::Castling { king, king_on, rook, rook_on: squares.collect() }
            }
            _ => return Err(self.internal(rule_span, "unknown phase rule")),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::ast::*;
    use crate::parser::parse;

    #[test]
    fn a_phase_with_every_rule_parses() {
        let src = "phase placement {\n  place from hand\n  order { King on square e1 or rank 2  Pawn coloured like a2; Rook }\n  Bishop on different colours\n  placed piece attacks no enemy and is not attacked\n  castling King on e1 with Rook on a1 h1\n  until hands empty\n}\n";
        let file = parse("t.rules", src).expect("parses");
        let Some(Item::Phase(p)) = file.items.first() else { panic!("not a phase: {:?}", file.items) };
        assert_eq!(p.name.node, "placement");
        let rules: Vec<&PhaseRule> = p.rules.iter().map(|r| &r.node).collect();
        assert_eq!(rules.len(), 6);
        assert_eq!(rules[0], &PhaseRule::PlaceFromHand);
        let PhaseRule::Order(order) = rules[1] else { panic!("{:?}", rules[1]) };
        let names: Vec<&str> = order.iter().map(|e| e.node.piece.node.as_str()).collect();
        assert_eq!(names, ["King", "Pawn", "Rook"]);
        assert_eq!(order[0].node.zone.as_ref().map(|z| z.any_of.len()), Some(2));
        assert_eq!(order[1].node.like.as_ref().map(|s| s.node.as_str()), Some("a2"));
        assert!(order[2].node.zone.is_none() && order[2].node.like.is_none());
        assert!(matches!(rules[2], PhaseRule::DifferentColours(k) if k.node == "Bishop"));
        assert_eq!(rules[3], &PhaseRule::PlacedSafe);
        let PhaseRule::Castling { king, king_on, rook, rook_on } = rules[4] else { panic!("{:?}", rules[4]) };
        assert_eq!((king.node.as_str(), king_on.node.as_str(), rook.node.as_str()), ("King", "e1", "Rook"));
        assert_eq!(rook_on.iter().map(|s| s.node.as_str()).collect::<Vec<_>>(), ["a1", "h1"]);
        assert_eq!(rules[5], &PhaseRule::UntilHandsEmpty);
    }

    #[test]
    fn a_misspelt_phase_rule_is_reported_in_the_phase_block() {
        let err = parse("t.rules", "phase p {\n  place form hand\n}\n").expect_err("bad");
        // `form` is read as a name: the error is at it, inside the phase block.
        assert_eq!(&"phase p {\n  place form hand\n}\n"[err.span.start..err.span.end], "form");
        assert_eq!(err.message, "unexpected `form` in phase block");
        assert_eq!(err.label, "expected `from`");
    }
}
