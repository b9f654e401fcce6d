//! The Markdown rulebook of every file in rules/ (and some of rules/fairy/), as a
//! reviewed snapshot (snapshots/book/): claims unchecked (the verifier's
//! verdicts are `rulebook check`'s business and its snapshots'), perft to
//! depth 2 so that the run stays short.

use rulebook_book::{build, markdown, Inputs};
use rulebook_interpreter::model::load::load;
use rulebook_interpreter::Variant;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every rules file of rules/ and its subfolders, relative to the root.
fn rules_files() -> Vec<String> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("rules/").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, base, out);
            } else if path.extension().is_some_and(|e| e == "rules") {
                out.push(path.strip_prefix(base).expect("under the root").to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("rules"), &root(), &mut out);
    out.sort();
    out
}

fn variant(file: &str) -> Variant {
    let (game, _) = load(&Path::new("..").join(file)).unwrap_or_else(|(d, _)| panic!("{file} does not load: {:?}", d.first().map(|d| &d.message)));
    Variant::new(Arc::new(game))
}

/// The files of rules/fairy/ whose rulebook is a snapshot too: one per
/// mechanism they add to chess (the others, mostly new pieces on chess's
/// rules, are covered by `every_item_a_file_uses_is_described`).
const FAIRY_SNAPSHOTS: &[&str] = &["atomic", "kingofthehill", "placement", "racingkings", "sittuyin"];

#[test]
fn every_rules_file_has_its_rulebook() {
    let unchecked = |_: &str| None;
    let snapshotted = |file: &String| match file.strip_prefix("rules/fairy/") {
        Some(name) => FAIRY_SNAPSHOTS.contains(&name.trim_end_matches(".rules")),
        None => true,
    };
    for file in rules_files().into_iter().filter(snapshotted) {
        let v = variant(&file);
        let inputs = Inputs {
            file: file.clone(),
            extends: Vec::new(),
            hash: String::new(),
            claim_status: &unchecked,
            source_text: &|name: &str| std::fs::read_to_string(root().join(name)).ok(),
            findings: None,
            perft_depth: 2,
            perft_time: Duration::from_secs(600),
        };
        let book = build(&v, &inputs);
        let text = markdown(&book, &rulebook_book::diagrams(&v)).expect("renders");
        let name = file.trim_start_matches("rules/").trim_end_matches(".rules").replace('/', "-");
        insta::with_settings!({ snapshot_path => root().join("snapshots/book"), prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(name, text);
        });
    }
}

/// Every block of the model that a file uses has its section: the
/// exhaustive destructuring in `book::build` makes a new field fail to
/// compile; this makes a present item fail to appear.
#[test]
fn every_item_a_file_uses_is_described() {
    let unchecked = |_: &str| None;
    for file in rules_files() {
        let v = variant(&file);
        let game = &v.game;
        let inputs =
            Inputs { file: file.clone(), extends: Vec::new(), hash: String::new(), claim_status: &unchecked,
            source_text: &|name: &str| std::fs::read_to_string(root().join(name)).ok(),
            findings: None, perft_depth: 0, perft_time: Duration::from_secs(1) };
        let book = build(&v, &inputs);
        let titles: Vec<&str> = book.chapters.iter().flat_map(|c| &c.sections).map(|s| s.title.as_str()).collect();
        let has = |t: &str| titles.iter().any(|x| x.starts_with(t));
        let expected: [(&str, bool); 15] = [
            ("Board", true),
            ("Players", true),
            ("Setup", true),
            ("Promotion", !game.promotions.is_empty() || !game.promotion_moves.is_empty()),
            ("Castling", game.castling.is_some()),
            ("Hand and drops", game.hand.is_some()),
            ("Dice", !game.dice.is_empty()),
            ("Hidden pieces", game.hidden.is_some()),
            ("Spread pieces", game.spread.is_some()),
            ("Tunnelling", game.tunnel.is_some()),
            ("Observation", game.observe.is_some()),
            ("Explosions", game.explosion.is_some()),
            ("Sliding levels", game.slide.is_some()),
            ("Letters", !game.letter_sets.is_empty()),
            ("End of the game", true),
        ];
        for (title, present) in expected {
            assert_eq!(has(title), present, "{file}: section {title}");
        }
        for k in &game.kinds {
            assert!(has(&k.name), "{file}: piece {}", k.name);
        }
        for r in &game.rules {
            assert!(titles.contains(&r.name.as_str()), "{file}: rule {}", r.name);
        }
        for r in &game.rulings {
            assert!(titles.iter().any(|t| t.contains(&r.name)), "{file}: ruling {}", r.name);
        }
        assert_eq!(book.chapters.iter().any(|c| c.title == "Phases before play"), !game.phases.is_empty(), "{file}: phases");
        assert_eq!(titles.contains(&"Claims"), !game.claims.is_empty(), "{file}: claims");
        assert!(titles.contains(&"Findings of the verifier"), "{file}: findings");
    }
}
