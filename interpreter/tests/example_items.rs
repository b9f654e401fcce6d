//! `example` items and doc comments in the model (LANGUAGE §2, §3.22): what
//! lowering keeps, what it inherits, and how a failing example is reported.

mod support;

use rulebook_interpreter::engine::example::{run_example, ExampleFailure};
use rulebook_interpreter::model::doc::ItemRef;
use rulebook_interpreter::model::example::{Expectation, ExpectedEnd, ExpectedResult};
use rulebook_interpreter::Status;

const CHESS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/chess.rules");

fn child(body: &str) -> String {
    format!("variant \"Child\"\nextends \"{CHESS}\"\n{body}")
}

#[test]
fn chess_examples_are_lowered_with_their_expectations() {
    let v = support::variant_at(std::path::Path::new(CHESS));
    let names: Vec<&str> = v.game.examples.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["twenty first moves", "fool's mate"]);
    assert_eq!(v.game.examples[0].expect, Expectation::Count(20));
    let mate = &v.game.examples[1];
    assert_eq!(mate.expect, Expectation::Result(ExpectedResult::Over { end: ExpectedEnd::Checkmate, winner: Some(1) }));
    let words: Vec<&str> = mate.line().iter().map(|(_, w)| *w).collect();
    assert_eq!(words, ["f3", "e5", "g4", "Qh4#"]);
    let run = run_example(&v, mate).expect("the example holds");
    assert!(matches!(run.status, Status::Checkmate(_)) && run.decisions.is_empty() && run.earlier.len() == 4);
}

#[test]
fn docs_are_kept_with_their_items_and_files_parents_first() {
    let v = support::variant_from_text("docs", &child("## The child's own knight.\n## Second line.\npiece Knight N { move N }\n"));
    let docs = &v.game.docs;
    assert_eq!(docs.first().map(|d| &d.item), Some(&ItemRef::Board));
    assert!(docs.first().is_some_and(|d| d.file.ends_with("chess.rules") && d.text.starts_with("Article 2: the chessboard.")));
    let last = docs.last().expect("the child's doc");
    assert_eq!((&last.item, last.text.as_str()), (&ItemRef::Piece("Knight".into()), "The child's own knight.\nSecond line."));
    assert!(!last.file.ends_with("chess.rules"));
    // Examples are the variant's own: chess's are not inherited.
    assert!(v.game.examples.is_empty());
}

#[test]
fn a_failing_example_says_what_differs() {
    let v = support::variant_from_text(
        "failing",
        &child("example \"start\" { moves include \"e4 Ke2\" }\nexample \"count\" { play \"e4\" moves count 19 }\nexample \"over\" { result checkmate, white wins }\nexample \"exact\" { position \"7k/8/8/8/8/8/8/K7 w - - 0 1\" moves \"Ka2 Kb1\" }\n"),
    );
    let failures: Vec<String> = v.game.examples.iter().map(|e| run_example(&v, e).map(|_| String::new()).unwrap_or_else(|f| f.to_string())).collect();
    assert_eq!(failures[0], "the legal moves differ; expected but not legal: Ke2");
    assert_eq!(failures[1], "expected 19 legal moves, found 20");
    assert_eq!(failures[2], "expected the result `checkmate, white wins`, found `ongoing`");
    assert_eq!(failures[3], "the legal moves differ; legal but not expected: Kb2");
    let e = &v.game.examples[3];
    assert!(matches!(run_example(&v, e), Err(ExampleFailure::Moves { ref unexpected, .. }) if unexpected == &["Kb2".to_string()]));
}
