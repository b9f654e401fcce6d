//! Worked examples (`example` items): each is run as the tests run it, and
//! the rulebook shows its position after the line, the line, what it
//! expects and that it holds.

use super::Section;
use rulebook_interpreter::engine::example::{expected_words, run_example};
use rulebook_interpreter::engine::perft::{perft_limited, Budget};
use rulebook_interpreter::model::doc::ItemRef;
use rulebook_interpreter::model::example::Expectation;
use rulebook_interpreter::Variant;

/// The deepest perft given from an example's position.
const PERFT_DEPTH: u32 = 3;
/// The most leaves that perft may count from an example's position.
const PERFT_NODES: u64 = 300_000;

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
                    // Perft from there, within a node budget (so the text does not depend on the clock).
                    let counts: Vec<String> = (1..=PERFT_DEPTH)
                        .map_while(|d| {
                            let budget = Budget::new(Some(PERFT_NODES), None);
                            perft_limited(v, &run.end, d, &budget).map(|n| format!("{n} at depth {d}"))
                        })
                        .collect();
                    let perft = if counts.is_empty() || run.decisions.is_empty() { String::new() } else { format!(" Perft from there: {}.", counts.join(", ")) };
                    s = s.paragraph(format!(
                        "Checked by the interpreter when this rulebook was written (and by `cargo test`): it holds; {} legal moves there.{perft}",
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
