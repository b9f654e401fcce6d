//! The bodies of the fuzz targets, shared by the libFuzzer binaries in
//! `fuzz/fuzz_targets/` and by the regression test `tests/fuzz_regressions.rs`
//! (which includes this file with `#[path]` and replays every input saved
//! under `fuzz/regressions/` through the same code, without libFuzzer).
//!
//! Each function takes the raw fuzz input and runs one pipeline of the
//! library crates (the CLI crate is binary-only, so its commands are
//! reproduced here from their library calls). A panic, a hang or a memory
//! blow-up is a finding; so is a broken invariant, checked with `assert!`:
//! a candidate move that is not legal, a FEN written by us that does not read
//! back. Inputs the code rightly rejects (a diagnostic) are not findings.
//!
//! Nothing here touches the disk: `extends` targets resolve by file name
//! against a fixed in-memory map of the rules files in `rules/` and
//! `examples/` (compiled into the binary), and a record's `Rules` tag picks a
//! variant from the same map.

use rulebook_grammar::ast;
use rulebook_interpreter::text::fen::{self, FenSource};
use rulebook_interpreter::model::load::extends_of;
use rulebook_interpreter::model::lower::{lower, SourceTree};
use rulebook_interpreter::text::record::Record;
use rulebook_interpreter::play::session::{fen_letters, letter_set_named, Session};
use rulebook_interpreter::{text::notation, engine::perft, Game, Position, Variant};
use std::sync::{Arc, OnceLock};

/// The rules files a fuzz input may extend (by file name) or name in a
/// record's `Rules` tag, with their texts.
pub const LIBRARY: &[(&str, &str)] = &[
    ("chess.rules", include_str!("../../rules/chess.rules")),
    ("capablanca.rules", include_str!("../../rules/capablanca.rules")),
    ("chess960.rules", include_str!("../../rules/chess960.rules")),
    ("crazyhouse.rules", include_str!("../../rules/crazyhouse.rules")),
    ("grasshopper.rules", include_str!("../../rules/grasshopper.rules")),
    ("losalamos.rules", include_str!("../../rules/losalamos.rules")),
    ("nebelschach.rules", include_str!("../../rules/nebelschach.rules")),
    ("niels-chess.rules", include_str!("../../rules/niels-chess.rules")),
    ("raumschach.rules", include_str!("../../rules/raumschach.rules")),
    ("big-board.rules", include_str!("../../examples/big-board.rules")),
    ("cannon.rules", include_str!("../../examples/cannon.rules")),
    ("holes.rules", include_str!("../../examples/holes.rules")),
    ("spread-knights.rules", include_str!("../../examples/spread-knights.rules")),
    ("tall-3d.rules", include_str!("../../examples/tall-3d.rules")),
];

/// The name the fuzz input's rules text goes by (so `extends "fuzz.rules"`
/// is a circle, as on disk).
const INPUT_NAME: &str = "fuzz.rules";

/// The longest `extends` chain followed (the library's longest is 2).
const MAX_CHAIN: usize = 8;

/// Perft 2 runs only from positions with at most this many legal moves, on
/// boards with at most [`PERFT_MAX_CELLS`] cells, so that one execution stays
/// well under libFuzzer's `-timeout`.
const PERFT_MAX_MOVES: usize = 400;

/// See [`PERFT_MAX_MOVES`].
const PERFT_MAX_CELLS: usize = 4096;

/// The text of the library file a path names: its last component.
fn library_text(path: &str) -> Option<&'static str> {
    let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
    LIBRARY.iter().find(|(name, _)| *name == file).map(|(_, text)| *text)
}

/// Parses `text` (named `name`), follows its `extends` chain through the
/// in-memory library, and lowers the chain: what `rulebook check --quick`
/// compiles. `None` when the rules are rejected with diagnostics.
pub fn compile(name: &str, text: &str) -> Option<Game> {
    let mut trees: Vec<(String, ast::File)> = Vec::new();
    let (mut name, mut text) = (name.to_string(), text.to_string());
    loop {
        if trees.iter().any(|(n, _)| *n == name) || trees.len() >= MAX_CHAIN {
            return None;
        }
        let tree = rulebook_grammar::parse_all(&name, &text).ok()?;
        let next = extends_of(&tree).map(|e| e.node.clone());
        trees.push((name, tree));
        match next {
            Some(target) => {
                let file = target.rsplit(['/', '\\']).next().unwrap_or(&target).to_string();
                text = if file == INPUT_NAME { String::new() } else { library_text(&file)?.to_string() };
                name = file;
            }
            None => break,
        }
    }
    trees.reverse();
    let chain: Vec<SourceTree> = trees.iter().map(|(n, t)| SourceTree { name: n, tree: t }).collect();
    lower(&chain).ok()
}

/// The library's variants, compiled once, by file name.
pub fn variants() -> &'static [(&'static str, Variant)] {
    static VARIANTS: OnceLock<Vec<(&'static str, Variant)>> = OnceLock::new();
    VARIANTS.get_or_init(|| {
        LIBRARY
            .iter()
            .map(|(name, text)| {
                let game = compile(name, text).unwrap_or_else(|| panic!("{name} does not compile"));
                (*name, Variant::new(Arc::new(game)))
            })
            .collect()
    })
}

/// The FEN written for `pos` reads back, and reads back as the same FEN
/// (positions with face-down pieces are skipped: their FEN shows what the
/// arbiter knows, not the drawn identities).
fn round_trip(v: &Variant, pos: &Position) {
    if pos.any_hidden() {
        return;
    }
    let written = v.fen(pos);
    let again = v
        .parse_fen(&written, "<written>")
        .unwrap_or_else(|d| panic!("the FEN we wrote, `{written}`, does not read back: {}", d.message));
    assert_eq!(v.fen(&again), written, "the FEN we wrote changes when read back");
}

/// Checks what can be checked of a position without input: the status, the
/// FEN written for it and for the positions after its first moves reads
/// back to the same FEN, every legal move plays,
/// and perft 2 when it is small enough.
fn exercise(v: &Variant, pos: &Position, perft_depth: u32) {
    let legal = v.legal_moves(pos);
    let _ = v.status(pos);
    let _ = v.in_check(pos);
    round_trip(v, pos);
    for (k, m) in legal.iter().take(64).enumerate() {
        let _ = notation::san(v, pos, m, &legal);
        let _ = notation::coordinate(v, m);
        if k < 16 {
            round_trip(v, &v.play(pos, m));
        }
    }
    if perft_depth > 0 && legal.len() <= PERFT_MAX_MOVES && v.game.geometry.cells() <= PERFT_MAX_CELLS {
        let n = perft::perft(v, pos, perft_depth);
        if perft_depth == 1 {
            assert_eq!(n, legal.len() as u64, "perft 1 is not the number of legal moves");
        }
    }
}

/// Plays up to `plies` random moves from `pos` (the session's generator
/// seeded with `seed`), with the game's status, notation and record after
/// each: what `play` against the random opponent does.
fn playout(v: &Variant, pos: &Position, seed: u64, plies: usize) {
    let mut s = Session::new(v.clone(), pos.clone(), seed, None);
    for _ in 0..plies {
        if s.result_by_rule().is_some() {
            break;
        }
        let Some(m) = s.random_move() else { break };
        assert!(s.play(m).is_ok(), "a random legal move cannot be played");
        let _ = s.san(s.moves().len() - 1);
        round_trip(v, s.position());
    }
    let _ = s.recorded();
}

/// Target `rules`: rules text → parse → `extends` (in memory) → lower →
/// the setup as `check --quick` checks it → perft 2 from the setup → a
/// short game of random moves.
pub fn rules(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Some(game) = compile(INPUT_NAME, text) else { return };
    let v = Variant::new(Arc::new(game));
    let Ok(pos) = v.start() else { return };
    exercise(&v, &pos, 2);
    playout(&v, &pos, data.len() as u64, 12);
}

/// Target `fen`: the first byte picks a library variant, the rest is a FEN
/// read in it; a position read is exercised (perft 1, a short random game).
pub fn fen(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let all = variants();
    let (_, v) = &all[pick as usize % all.len()];
    let Ok(pos) = v.parse_fen(text, "<fen>") else { return };
    exercise(v, &pos, 1);
    playout(v, &pos, data.len() as u64, 8);
}

/// Target `record`: a game record replayed as `rulebook replay` does, with
/// the rules its `Rules` tag names in the library (chess when it names
/// none): tags, the `FEN` tag, the `Letters` tag, every move resolved to
/// one legal move and played, the result compared with the rules'.
pub fn record(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(record) = Record::parse("<record>", text) else { return };
    let wanted = record.tag("Rules").map_or("chess.rules", |t| t.value.as_str());
    let file = wanted.rsplit(['/', '\\']).next().unwrap_or(wanted);
    let Some((_, v)) = variants().iter().find(|(name, _)| *name == file) else { return };
    let letters = match record.tag("Letters") {
        None => None,
        Some(tag) => match letter_set_named(&v.game, &tag.value) {
            Some(set) => Some(set),
            None => return,
        },
    };
    let untagged = record.tag("Letters").is_none();
    let start = match record.tag("FEN") {
        Some(tag) => fen::parse(&v.game, &v.tables, &tag.value, &FenSource { name: "<record>", offset: tag.value_span.start }),
        None => v.start(),
    };
    let Ok(start) = start else { return };
    let mut session = Session::new(v.clone(), start, record.seed().unwrap_or(0), letters);
    for mv in &record.moves {
        if session.result_by_rule().is_some() {
            return;
        }
        let Ok(candidates) = session.record_candidates(&mv.text, untagged, "<record>", mv.span.start) else { return };
        match candidates.as_slice() {
            [m] => {
                assert!(session.play(*m).is_ok(), "the one candidate for `{}` cannot be played", mv.text);
            }
            _ => return,
        }
    }
    let _ = session.result_by_rule();
    for ply in 0..session.moves().len() {
        let _ = session.san(ply);
    }
    let _ = record.result();
}

/// The positions the `move_text` target reads moves in: for every library
/// variant, its setup and the positions after 6, 14 and 30 plies of a game
/// of random moves (fixed seeds), so that hidden pieces, spread units,
/// hands and promotions are on the board. Each is given with its variant's
/// index in [`variants`].
pub fn positions() -> &'static [(usize, Position)] {
    static POSITIONS: OnceLock<Vec<(usize, Position)>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let mut out = Vec::new();
        for (i, (_, v)) in variants().iter().enumerate() {
            let Ok(start) = v.start() else { continue };
            out.push((i, start.clone()));
            for (seed, plies) in [(1u64, 6usize), (2, 14), (3, 30)] {
                let mut s = Session::new(v.clone(), start.clone(), seed, None);
                for _ in 0..plies {
                    let Some(m) = s.random_move() else { break };
                    if s.play(m).is_err() {
                        break;
                    }
                }
                out.push((i, s.position().clone()));
            }
        }
        out
    })
}

/// Target `move_text`: the first byte picks a position (of any library
/// variant, setup or mid-game), the second a letter set (none, or one the
/// variant declares), the rest is move text. Every candidate the text is
/// read as must be a legal move, and plays. With no text, every legal move
/// written as a record writes it (in that letter set, or in the FEN letters
/// `Letters "en"` where the variant declares sets and none is named) must
/// read back as that one move.
pub fn move_text(data: &[u8]) {
    let [pick, set, rest @ ..] = data else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let all = positions();
    let (i, pos) = &all[*pick as usize % all.len()];
    let v = &variants()[*i].1;
    let sets = &v.game.letter_sets;
    let letters = match *set as usize % (sets.len() + 1) {
        0 => None,
        k => Some(&sets[k - 1]),
    };
    let legal = v.legal_moves(pos);
    // With no letter set given, the FEN letters and every declared set are
    // read at once, and a text they read differently is ambiguous by design
    // (E0402); a record then names the FEN letters (`Letters "en"`), and so
    // does the round trip.
    let fen_set = fen_letters();
    let written_in = letters.or((!sets.is_empty()).then_some(&fen_set));
    if text.is_empty() {
        // No text: every legal move, written as a record writes it, reads back as itself.
        for m in &legal {
            let written = notation::san_in(v, pos, m, &legal, written_in);
            let read = notation::parse_candidates(v, pos, &written, written_in, "<move>", 0)
                .unwrap_or_else(|d| panic!("`{written}`, written for a legal move, does not read back: {}", d.message));
            assert!(
                read.len() == 1 && notation::is_listed(v, &legal, &read[0]) && read[0].decision() == m.decision(),
                "`{written}` reads back as {} moves, not as the move it was written for",
                read.len()
            );
        }
        return;
    }
    if let Ok(candidates) = notation::parse_candidates(v, pos, text, letters, "<move>", 0) {
        for m in &candidates {
            assert!(notation::is_listed(v, &legal, m), "`{text}` read as a move that is not legal");
            let next = v.play(pos, m);
            let _ = v.legal_moves(&next);
        }
    }
    let _ = notation::parse_move(v, pos, text, "<move>", 0);
}
