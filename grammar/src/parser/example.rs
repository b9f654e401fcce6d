//! Builds the `example` item (issue 16): its optional fields and its one
//! expectation (a missing or repeated field is `E0006`).

use super::*;

/// The fields of an example seen so far: each with the span of its keyword.
#[derive(Default)]
struct Fields {
    position: Option<(Span, Spanned<String>)>,
    letters: Option<(Span, Ident)>,
    play: Option<(Span, Spanned<String>)>,
    expect: Option<(Span, Spanned<Expect>)>,
}

impl Builder<'_> {
    pub(super) fn example(&self, pair: Pair<'_, Rule>) -> Res<Example> {
        let span = span_of(&pair);
        let mut name = None;
        let mut fields = Fields::default();
        for c in pair.into_inner() {
            match c.as_rule() {
                Rule::string => name = Some(self.string(c)?),
                Rule::example_field => {
                    let c_span = span_of(&c);
                    let field = self.need(first_inner(c), c_span, "empty example field")?;
                    self.example_field(field, &mut fields)?;
                }
                _ => {}
            }
        }
        let name = self.need(name, span, "example without a name")?;
        let Some((_, expect)) = fields.expect else {
            return Err(errors::missing_expectation(self.file, name.span, span));
        };
        Ok(Example {
            name,
            position: fields.position.map(|f| f.1),
            letters: fields.letters.map(|f| f.1),
            play: fields.play.map(|f| f.1),
            expect,
            span,
        })
    }

    fn example_field(&self, field: Pair<'_, Rule>, fields: &mut Fields) -> Res<()> {
        let span = span_of(&field);
        let rule = field.as_rule();
        let mut inner = field.into_inner();
        let keyword = self.need(inner.next(), span, "example field without keyword")?;
        let kw_span = span_of(&keyword);
        let word = keyword.as_str().to_string();
        let value = inner.next();
        // A field given twice: `E0006` with a note at the first.
        let twice = |first: Span, what: &str| errors::duplicate_example_field(self.file, kw_span, first, what);
        match rule {
            Rule::example_position | Rule::example_play => {
                let value = self.string(self.need(value, span, "example field without a string")?)?;
                let slot = if rule == Rule::example_position { &mut fields.position } else { &mut fields.play };
                if let Some((first, _)) = slot {
                    return Err(twice(*first, &format!("`{word}`")));
                }
                *slot = Some((kw_span, value));
            }
            Rule::example_letters => {
                let value = self.need(value, span, "`letters` without a name")?;
                if let Some((first, _)) = &fields.letters {
                    return Err(twice(*first, "`letters`"));
                }
                fields.letters = Some((kw_span, ident(&value)));
            }
            Rule::example_moves | Rule::example_result => {
                if let Some((first, _)) = &fields.expect {
                    return Err(twice(*first, "an expectation (`moves` or `result`)"));
                }
                let value = self.need(value, span, "expectation without a value")?;
                let node = if rule == Rule::example_moves {
                    self.moves_expectation(value)?
                } else {
                    let verdict = inner.find(|p| p.as_rule() == Rule::result_verdict);
                    Expect::Result(self.example_result(value, verdict)?)
                };
                fields.expect = Some((kw_span, Spanned::new(node, span)));
            }
            _ => return Err(self.internal(span, "unknown example field")),
        }
        Ok(())
    }

    /// `"a3 a4 …"`, `count N` or `include "…"` after `moves`.
    fn moves_expectation(&self, value: Pair<'_, Rule>) -> Res<Expect> {
        let span = span_of(&value);
        Ok(match value.as_rule() {
            Rule::string => Expect::Moves(self.string(value)?),
            Rule::moves_count => {
                let n = value.into_inner().find(|p| p.as_rule() == Rule::number);
                Expect::Count(self.number(&self.need(n, span, "`count` without a number")?)?)
            }
            Rule::moves_include => {
                let s = value.into_inner().find(|p| p.as_rule() == Rule::string);
                Expect::Includes(self.string(self.need(s, span, "`include` without a string")?)?)
            }
            _ => return Err(self.internal(span, "unknown moves expectation")),
        })
    }

    /// What follows `result`: `ongoing`, or how the game ended and its verdict.
    fn example_result(&self, first: Pair<'_, Rule>, verdict: Option<Pair<'_, Rule>>) -> Res<ExampleResult> {
        if first.as_rule() == Rule::word_ongoing {
            return Ok(ExampleResult::Ongoing);
        }
        let end_span = span_of(&first);
        let end_pair = self.need(first_inner(first), end_span, "empty result")?;
        let end = match end_pair.as_rule() {
            Rule::kw_checkmate => ExampleEnd::Checkmate,
            Rule::kw_stalemate => ExampleEnd::Stalemate,
            Rule::kw_move_limit => ExampleEnd::MoveLimit,
            Rule::kw_repetition => ExampleEnd::Repetition,
            Rule::result_rule => ExampleEnd::Rule(self.string_child(end_pair)?),
            _ => return Err(self.internal(end_span, "unknown end of a game")),
        };
        let verdict = self.need(verdict, end_span, "result without a verdict")?;
        // `draw`, or `NAME wins`.
        let winner = verdict.into_inner().find(|p| p.as_rule() == Rule::name).map(|p| ident(&p));
        Ok(ExampleResult::Over { end: Spanned::new(end, end_span), winner })
    }
}

#[cfg(test)]
mod tests {
    use crate::ast::*;
    use crate::parse;

    fn example(src: &str) -> Example {
        let file = parse("t.rules", src).unwrap_or_else(|d| panic!("{}", crate::render(&d, src, false)));
        match file.items.into_iter().next() {
            Some(Item::Example(e)) => e,
            other => panic!("{other:?}"),
        }
    }

    fn error(src: &str) -> crate::Diagnostic {
        parse("t.rules", src).expect_err("an error")
    }

    #[test]
    fn every_field_and_expectation_parses() {
        let e = example("example \"x\" { position \"8/8 w - - 0 1\"  letters de  play \"1. e4 e5\"  moves \"a3 a4\" }");
        assert_eq!(e.name.node, "x");
        assert_eq!(e.position.map(|p| p.node).as_deref(), Some("8/8 w - - 0 1"));
        assert_eq!(e.letters.map(|l| l.node).as_deref(), Some("de"));
        assert_eq!(e.play.map(|p| p.node).as_deref(), Some("1. e4 e5"));
        assert!(matches!(e.expect.node, Expect::Moves(ref s) if s.node == "a3 a4"));
        assert!(matches!(example("example \"x\" { moves count 20 }").expect.node, Expect::Count(ref n) if n.node == 20));
        assert!(matches!(example("example \"x\" { moves include \"e4\" }").expect.node, Expect::Includes(_)));
        assert!(matches!(example("example \"x\" { result ongoing }").expect.node, Expect::Result(ExampleResult::Ongoing)));
        let Expect::Result(ExampleResult::Over { end, winner }) = example("example \"x\" { result checkmate, black wins }").expect.node else { panic!() };
        assert_eq!((end.node, winner.map(|w| w.node)), (ExampleEnd::Checkmate, Some("black".to_string())));
        let Expect::Result(ExampleResult::Over { end, winner }) = example("example \"x\" { result rule \"hill\" draw }").expect.node else { panic!() };
        assert!(matches!(end.node, ExampleEnd::Rule(ref n) if n.node == "hill") && winner.is_none());
    }

    #[test]
    fn a_missing_or_second_expectation_is_e0006() {
        let d = error("example \"x\" { play \"e4\" }");
        assert_eq!((d.code, d.message.as_str()), ("E0006", "this example expects nothing"));
        let d = error("example \"x\" { moves count 1  result ongoing }");
        assert_eq!(d.code, "E0006");
        assert!(d.message.contains("expectation") && d.notes.len() == 1, "{d:?}");
        assert_eq!(error("example \"x\" { play \"e4\" play \"d4\" moves count 1 }").code, "E0006");
    }

    #[test]
    fn syntax_errors_say_how_an_example_is_written() {
        let d = error("example \"x\" { moves twenty }");
        assert_eq!(d.code, "E0001");
        assert!(d.help.as_deref().is_some_and(|h| h.contains("moves count N")), "{d:?}");
    }
}
