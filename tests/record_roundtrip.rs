//! Issue 12, defect 3: a record must always replay. Random games of every
//! rules file in `rules/` are played through interactive `play` (hot-seat,
//! the moves piped in as decisions, chance drawn by `play` itself) with
//! `--record`, then `replay`ed: it must accept the record and reach the
//! position the game reached.
//!
//! The test knows the game independently of the record: it plays the same
//! game with the interpreter's `Session` (the same seed, so the same draws
//! for the same decisions), and checks the record's moves and the final FEN
//! that `replay` reaches against it.

use rulebook_interpreter::model::load::load;
use rulebook_interpreter::text::notation;
use rulebook_interpreter::play::session::Session;
use rulebook_interpreter::{Move, Variant};
use std::path::Path;
use std::sync::Arc;

mod support;
use support::*;

/// Plies per game at most (keeps the test fast; games that end sooner stop).
const MAX_PLIES: usize = 24;
/// Games per rules file.
const GAMES: u64 = 3;

/// A small generator for the test's own choices (SplitMix64), apart from the
/// session's, so that the session draws exactly what `play` draws.
struct Choices(u64);

impl Choices {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// What `play` does with a typed decision: draw among its branches.
fn play_decision(session: &mut Session, decision: Move) -> Move {
    let branches: Vec<Move> = session.legal().into_iter().filter(|m| m.decision() == decision).collect();
    let m = session.resolve(&branches).expect("an outcome");
    session.play(m).expect("legal");
    m
}

/// Plays a random game of `variant` with `seed`: the decisions typed (in
/// coordinate notation, without outcome) and the session afterwards.
fn random_game(variant: &Variant, seed: u64) -> (Vec<String>, Session) {
    let start = variant.start().expect("setup");
    let mut session = Session::new(variant.clone(), start, seed, None);
    let mut choices = Choices(seed ^ 0x5eed);
    let mut typed = Vec::new();
    while typed.len() < MAX_PLIES && session.result_by_rule().is_none() {
        let decisions = session.decisions();
        if decisions.is_empty() {
            break;
        }
        let d = decisions[choices.below(decisions.len())];
        typed.push(notation::coordinate(variant, &d));
        play_decision(&mut session, d);
    }
    (typed, session)
}

#[test]
fn random_games_of_every_rules_file_replay_from_their_records() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files: Vec<_> = std::fs::read_dir(root().join("rules"))
        .expect("rules/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .collect();
    files.sort();
    assert!(files.len() >= 9, "{files:?}");
    let mut played = 0;
    for path in &files {
        let (game, _) = load(path).unwrap_or_else(|_| panic!("{} loads", path.display()));
        let variant = Variant::new(Arc::new(game));
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("x").to_string();
        for seed in 0..GAMES {
            let (typed, session) = random_game(&variant, seed);
            let record = dir.path().join(format!("{stem}-{seed}.pgn"));
            let record_arg = record.display().to_string();
            let rules = path.display().to_string();
            let mut input = typed.join("\n");
            input.push_str("\nquit\n");
            let args = ["play", &rules, "--seed", &seed.to_string(), "--as", "both", "--record", &record_arg];
            let out = run_with(None, &args, Some(&input));
            let context = format!("{stem}, seed {seed}, typed {typed:?}");
            assert_eq!(code(&out), 0, "{context}: {}", stderr(&out));
            assert!(!stderr(&out).contains("error"), "{context}: every typed move was taken: {}", stderr(&out));
            // The record holds the game's moves, as the session writes them.
            let written = std::fs::read_to_string(&record).expect("the record");
            let expected: Vec<String> = session.recorded().iter().map(|m| m.text.clone()).collect();
            let parsed = rulebook_interpreter::text::record::Record::parse("r", &written).expect("the record parses");
            let got: Vec<String> = parsed.moves.iter().map(|m| m.text.clone()).collect();
            assert_eq!(got, expected, "{context}");
            // replay accepts it and reaches the same position.
            let out = run(&["replay", &record_arg, "--rules", &rules]);
            assert_eq!(code(&out), 0, "{context}: {written}\n{}", stderr(&out));
            let text = stdout(&out);
            let n = session.moves().len();
            let valid = if n == 1 { "1 move".to_string() } else { format!("{n} moves") };
            assert!(text.ends_with(&format!("The record is valid: {valid}.\n")), "{context}: {text}");
            let final_fen = variant.fen(session.position());
            let replayed = replay_fen(&variant, &written);
            assert_eq!(replayed, final_fen, "{context}");
            played += 1;
        }
    }
    assert_eq!(played, files.len() * GAMES as usize);
}

/// The FEN the record's moves reach, read the way `replay` reads them: in
/// the `Letters` tag's set (`en`: the FEN letters).
fn replay_fen(variant: &Variant, record: &str) -> String {
    let parsed = rulebook_interpreter::text::record::Record::parse("r", record).expect("parses");
    // Without the tag (records written before it was always written): the FEN letters.
    let letters = parsed.tag("Letters").map_or_else(|| "en".to_string(), |t| t.value.clone());
    let set = if letters == "en" {
        rulebook_interpreter::play::session::fen_letters()
    } else {
        variant.game.letter_set(&letters).cloned().expect("a declared set")
    };
    let mut s = Session::new(variant.clone(), variant.start().expect("setup"), 0, Some(set));
    for m in &parsed.moves {
        let c = s.candidates(&m.text, "r", 0).unwrap_or_else(|d| panic!("{}: {}", m.text, d.message));
        assert_eq!(c.len(), 1, "{} names one move", m.text);
        s.play(c[0]).expect("plays");
    }
    variant.fen(s.position())
}

#[test]
fn a_scripted_nebelschach_game_in_every_letter_set_replays() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/nebelschach.rules");
    let (game, _) = load(&path).expect("loads");
    let variant = Variant::new(Arc::new(game));
    let dir = tempfile::tempdir().expect("temp dir");
    for letters in ["en", "de"] {
        let (_, mut session) = random_game(&variant, 11);
        // The whole game, outcomes included, in SAN in that letter set.
        session.letters = Some(if letters == "en" {
            rulebook_interpreter::play::session::fen_letters()
        } else {
            variant.game.letter_set(letters).cloned().expect("declared")
        });
        let line: Vec<String> = (0..session.moves().len()).map(|ply| session.san(ply)).collect();
        let record = dir.path().join(format!("{letters}.pgn"));
        let arg = record.display().to_string();
        let rules = path.display().to_string();
        let out = run(&["play", &rules, "--moves", &line.join(" "), "--letters", letters, "--seed", "1", "--record", &arg]);
        assert_eq!(code(&out), 0, "{letters}: {}", stderr(&out));
        let written = std::fs::read_to_string(&record).expect("record");
        assert!(written.contains(&format!("[Letters \"{letters}\"]")), "{written}");
        assert_eq!(replay_fen(&variant, &written), variant.fen(session.position()), "{letters}");
        let out = run(&["replay", &arg, "--rules", &rules]);
        assert_eq!(code(&out), 0, "{letters}: {}", stderr(&out));
    }
}
