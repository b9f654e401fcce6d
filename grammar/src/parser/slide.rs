//! Builds the `slide` item (issue 13).

use super::*;

impl Builder<'_> {
    pub(super) fn slide(&self, pair: Pair<'_, Rule>) -> Res<Slide> {
        let span = span_of(&pair);
        let mut rules = Vec::new();
        for rule in pair.into_inner().filter(|p| p.as_rule() == Rule::slide_rule) {
            let rule_span = span_of(&rule);
            let inner = self.need(first_inner(rule), rule_span, "empty slide rule")?;
            let slide_rule = match inner.as_rule() {
                Rule::slide_levels => {
                    let mut levels = Vec::new();
                    let mut axis = None;
                    for c in inner.into_inner() {
                        match c.as_rule() {
                            Rule::label => levels.push(ident(&c)),
                            Rule::axis_name => axis = Some(ident(&c)),
                            _ => {}
                        }
                    }
                    SlideRule::Levels { levels, axis: self.need(axis, rule_span, "slide levels without an axis")? }
                }
                Rule::slide_out => {
                    let n = inner.into_inner().find(|p| p.as_rule() == Rule::number);
                    SlideRule::OutAtMost(self.number(&self.need(n, rule_span, "`out at most` without a number")?)?)
                }
                Rule::slide_swing => {
                    let n = inner.into_inner().find(|p| p.as_rule() == Rule::number);
                    SlideRule::Swing(self.number(&self.need(n, rule_span, "`swing` without a number")?)?)
                }
                Rule::slide_overshoot => {
                    let mut less = None;
                    let mut once = false;
                    for c in inner.into_inner() {
                        match c.as_rule() {
                            Rule::number => less = Some(self.number(&c)?),
                            Rule::word_once => once = true,
                            _ => {}
                        }
                    }
                    SlideRule::Overshoot { less: self.need(less, rule_span, "`overshoot` without a number")?, once }
                }
                Rule::slide_compass => {
                    let mut words = Vec::new();
                    let mut axis = None;
                    for c in inner.into_inner() {
                        match c.as_rule() {
                            Rule::string => words.push(self.string(c)?),
                            Rule::axis_name => axis = Some(ident(&c)),
                            _ => {}
                        }
                    }
                    let axis = self.need(axis, rule_span, "compass without an axis")?;
                    let mut words = words.into_iter();
                    let first = self.need(words.next(), rule_span, "compass without words")?;
                    let last = self.need(words.next(), rule_span, "compass with one word")?;
                    SlideRule::Compass { first, last, axis }
                }
                _ => return Err(self.internal(rule_span, "unknown slide rule")),
            };
            rules.push(Spanned::new(slide_rule, rule_span));
        }
        Ok(Slide { rules, span })
    }
}

#[cfg(test)]
mod tests {
    use crate::ast::*;
    use crate::parse;

    const SLIDE: &str = "slide {\n  levels I III V VII along rank\n  levels II IV VI along file\n  out at most 7\n  swing 1 row per ply, overshoot 1 less each pass\n}\n";

    fn text(src: &str, span: Span) -> &str {
        &src[span.start..span.end]
    }

    #[test]
    fn a_slide_item_parses_with_spans() {
        let file = parse("t.rules", SLIDE).unwrap_or_else(|d| panic!("{}", d.message));
        let Some(Item::Slide(slide)) = file.items.first() else { panic!("{:?}", file.items) };
        assert_eq!(text(SLIDE, slide.span), SLIDE.trim_end());
        assert_eq!(slide.rules.len(), 5);
        let SlideRule::Levels { levels, axis } = &slide.rules[0].node else { panic!() };
        let names: Vec<&str> = levels.iter().map(|l| l.node.as_str()).collect();
        assert_eq!(names, ["I", "III", "V", "VII"]);
        assert_eq!((axis.node.as_str(), text(SLIDE, axis.span)), ("rank", "rank"));
        assert_eq!(text(SLIDE, slide.rules[1].span), "levels II IV VI along file");
        let SlideRule::OutAtMost(n) = &slide.rules[2].node else { panic!() };
        assert_eq!((n.node, text(SLIDE, n.span)), (7, "7"));
        let SlideRule::Swing(n) = &slide.rules[3].node else { panic!() };
        assert_eq!(n.node, 1);
        assert_eq!(text(SLIDE, slide.rules[3].span), "swing 1 row per ply");
        let SlideRule::Overshoot { less, once } = &slide.rules[4].node else { panic!() };
        assert_eq!((less.node, *once), (1, false));
        assert_eq!(text(SLIDE, slide.rules[4].span), "overshoot 1 less each pass");
    }

    #[test]
    fn overshoot_once_and_plural_rows() {
        let src = "slide { swing 2 rows per ply  overshoot 1 less once }";
        let file = parse("t.rules", src).unwrap_or_else(|d| panic!("{}", d.message));
        let Some(Item::Slide(slide)) = file.items.first() else { panic!() };
        assert!(matches!(slide.rules[0].node, SlideRule::Swing(Spanned { node: 2, .. })));
        assert!(matches!(slide.rules[1].node, SlideRule::Overshoot { once: true, .. }));
    }

    #[test]
    fn the_words_of_a_slide_item_other_than_its_keywords_are_not_reserved() {
        // `out`, `row`, `per`, `ply`, `less`, `each`, `pass`, `once` stay usable as names.
        let src = "piece Once O { move W }\npiece Pass P { move F }\nplayers { white: out +rank  black: out -rank }";
        assert!(parse("t.rules", src).is_ok());
        // `slide`, `along`, `swing` and `overshoot` are keywords.
        assert!(parse("t.rules", "piece Swing S { move W }").is_ok(), "capitalised names are not keywords");
        assert!(parse("t.rules", "players { white: along +rank }").is_err());
    }

    #[test]
    fn a_bad_slide_item_is_a_located_syntax_error() {
        let src = "slide {\n  levels I along\n}\n";
        let d = parse("t.rules", src).expect_err("no axis");
        assert_eq!(d.code, "E0001");
        assert_eq!(text(src, d.span), "}");
        assert!(d.help.as_deref().is_some_and(|h| h.contains("levels LABEL")), "{:?}", d.help);
    }
}
