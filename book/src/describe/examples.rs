//! Worked examples (`example` items): each is run as the tests run it, and
//! the rulebook shows its position after the line, the line, what it
//! expects and that it holds.

use super::Section;
use rulebook_interpreter::engine::example::{expected_words, run_example};
use rulebook_interpreter::model::doc::ItemRef;
use rulebook_interpreter::model::example::Expectation;
use rulebook_interpreter::Variant;

/// The diagram name of an example (its position after the line).
pub fn diagram_name(name: &str) -> String {
    format!("example {name}")
}

/// One section per `example` item of the variant's own file.
pub fn examples(v: &Variant) -> Vec<Section> {
    let game = &v.game;
    game.examples
        .iter()
        .map(|e| {
            let mut s = Section::new(format!("Example “{}”", e.name)).describes(ItemRef::Example(e.name.clone())).at(&e.file, e.span.start);
            let from = match &e.position {
                Some(fen) => format!("From the position `{fen}`"),
                None => "From the setup".to_string(),
            };
            let line = match &e.play {
                Some(line) => format!("{from}, after `{line}`"),
                None => from,
            };
            let letters = e.letters.as_ref().map(|l| format!(" (moves written with the letters `{l}`)")).unwrap_or_default();
            let expect = match &e.expect {
                Expectation::Moves(moves) => format!("the legal moves are exactly these {}: {}.", moves.len(), code_list(moves)),
                Expectation::Includes(moves) if moves.len() == 1 => format!("this is a legal move: {}.", code_list(moves)),
                Expectation::Includes(moves) => format!("these {} are among the legal moves: {}.", moves.len(), code_list(moves)),
                Expectation::Count(n) => format!("there are {n} legal moves."),
                Expectation::Result(r) => format!("the game stands: {}.", expected_words(game, r)),
            };
            s = s.paragraph(format!("{line}{letters}, {expect}"));
            match run_example(v, e) {
                Ok(run) => {
                    s = s.paragraph(format!(
                        "Checked by the interpreter when this rulebook was written (and by `cargo test`): it holds; {} legal moves there.",
                        run.decisions.len()
                    ));
                    s.with_diagram(diagram_name(&e.name))
                }
                Err(failure) => s.paragraph(format!("**This example does not hold:** {failure}.")),
            }
        })
        .collect()
}

/// `` `a`, `b` `` for a list of moves.
fn code_list(moves: &[String]) -> String {
    moves.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ")
}
