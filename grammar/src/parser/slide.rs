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
                _ => return Err(self.internal(rule_span, "unknown slide rule")),
            };
            rules.push(Spanned::new(slide_rule, rule_span));
        }
        Ok(Slide { rules, span })
    }
}
