//! Replays the fuzzers' findings and seeds without libFuzzer: every file
//! under `fuzz/regressions/<target>/` (a minimised input that once crashed,
//! hung or broke an invariant) and under `fuzz/seeds/<target>/` goes through
//! the same code as the fuzz target `<target>` (`fuzz/src/lib.rs`, included
//! here), so CI checks them on every run even where cargo-fuzz is not
//! installed. See README.md, "Fuzzing".

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod fuzz_support;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A fuzz target's body.
type Target = fn(&[u8]);

/// The targets, by directory name.
const TARGETS: &[(&str, Target)] = &[
    ("rules", fuzz_support::rules),
    ("fen", fuzz_support::fen),
    ("record", fuzz_support::record),
    ("move_text", fuzz_support::move_text),
];

/// What an input may take in this (optimised) test build: the fuzzers run
/// with `-timeout=10`, so this is generous.
const SLOW: Duration = Duration::from_secs(10);

/// The files in `dir`, sorted (none when it does not exist).
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect(),
        Err(_) => Vec::new(),
    };
    out.sort();
    out
}

/// Runs every input under `fuzz/<kind>/<target>/` through its target and
/// fails with the list of inputs that panicked or took longer than [`SLOW`].
fn replay(kind: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz").join(kind);
    let mut failures = Vec::new();
    let mut count = 0;
    for (target, run) in TARGETS {
        for path in files(&root.join(target)) {
            let data = std::fs::read(&path).expect("readable input");
            count += 1;
            let started = Instant::now();
            if std::env::var_os("FUZZ_TRACE").is_some() {
                eprintln!("{}", path.display());
            }
            if catch_unwind(AssertUnwindSafe(|| run(&data))).is_err() {
                failures.push(format!("{} panicked", path.display()));
            } else if started.elapsed() > SLOW {
                failures.push(format!("{} took {:.1} s", path.display(), started.elapsed().as_secs_f64()));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {count} inputs failed:\n{}", failures.len(), failures.join("\n"));
    count
}

/// Every minimised finding replays without a panic, a broken invariant or a hang.
#[test]
fn findings_stay_fixed() {
    replay("regressions");
}

/// The seed corpora run cleanly (the fuzzers would report them at once
/// otherwise), and there are seeds for every target.
#[test]
fn seeds_run_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    for (target, _) in TARGETS {
        assert!(!files(&root.join(target)).is_empty(), "no seeds for the fuzz target `{target}`");
    }
    replay("seeds");
}

/// Writes the seed corpora under `fuzz/seeds/` (run by `scripts/fuzz
/// --seeds`): the rules files of `rules/` and `examples/`; FENs of every
/// library variant (its setup, positions along random games, the perft
/// suites' positions); records of random games of every variant; the moves
/// of every position the `move_text` target reads in.
#[test]
#[ignore = "writes fuzz/seeds; run by scripts/fuzz --seeds"]
fn write_seeds() {
    use rulebook_interpreter::text::notation;
    use rulebook_interpreter::play::session::Session;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let seeds = root.join("fuzz/seeds");
    let write = |target: &str, name: &str, data: &[u8]| {
        let dir = seeds.join(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), data).unwrap();
    };
    let _ = std::fs::remove_dir_all(&seeds);

    // rules: every rules file of rules/ and examples/ (with errors/ and ambiguous/).
    for dir in ["rules", "examples", "examples/errors", "examples/ambiguous"] {
        for path in files(&root.join(dir)) {
            if path.extension().is_some_and(|e| e == "rules") {
                let name = format!("{}", path.strip_prefix(root).unwrap().display()).replace('/', "_");
                write("rules", &name, &std::fs::read(&path).unwrap());
            }
        }
    }

    let variants = fuzz_support::variants();
    let index = |stem: &str| variants.iter().position(|(n, _)| n.strip_suffix(".rules") == Some(stem));
    let with_byte = |b: usize, text: &str| {
        let mut data = vec![b as u8];
        data.extend_from_slice(text.as_bytes());
        data
    };

    // fen: the setup and positions along random games of each variant, the perft suites.
    for (i, (name, v)) in variants.iter().enumerate() {
        let stem = name.trim_end_matches(".rules");
        write("fen", &format!("{stem}-setup"), &with_byte(i, &v.game.setup));
        let start = v.start().unwrap();
        let mut s = Session::new(v.clone(), start, 7, None);
        for ply in 1..=40 {
            let Some(m) = s.random_move() else { break };
            if s.play(m).is_err() {
                break;
            }
            if ply % 10 == 0 {
                write("fen", &format!("{stem}-ply{ply}"), &with_byte(i, &v.fen(s.position())));
            }
        }
    }
    for path in files(&root.join("tests/perft")) {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let Some(i) = index(&stem) else { continue };
        let text = std::fs::read_to_string(&path).unwrap();
        for (k, line) in text.lines().filter_map(|l| l.strip_prefix("epd ")).enumerate().take(12) {
            let fen = line.split(';').next().unwrap().trim();
            write("fen", &format!("{stem}-epd{k}"), &with_byte(i, fen));
        }
    }
    if let Some(i) = index("niels-chess") {
        let issue = "r1krk3/6pp/6pn/5n2/1P6/1P5N/8/1N1R2K1 w - - 0 1 ~ kc8e8+rd8a8:equal Nb1h3+nh6f5:equal:/ Pb4b3+pg6g7:equal:\\";
        write("fen", "niels-chess-issue12", &with_byte(i, issue));
    }

    // record: random games of each variant, in the FEN letters and in every letter set.
    for (name, v) in variants {
        let stem = name.trim_end_matches(".rules");
        let mut sets: Vec<Option<&str>> = vec![None];
        sets.extend(v.game.letter_sets.iter().map(|s| Some(s.name.as_str())));
        for (k, set) in sets.into_iter().enumerate() {
            let seed = 11 + k as u64;
            let letters = set.map(|n| v.game.letter_set(n).unwrap().clone());
            let mut s = Session::new(v.clone(), v.start().unwrap(), seed, letters);
            for _ in 0..60 {
                let Some(m) = s.random_move() else { break };
                if s.play(m).is_err() {
                    break;
                }
            }
            let mut text = format!("[Variant \"{}\"]\n[Rules \"{name}\"]\n[Seed \"{seed}\"]\n", v.game.name);
            if let Some(set) = set {
                text.push_str(&format!("[Letters \"{set}\"]\n"));
            }
            text.push_str("[Result \"*\"]\n\n");
            text.push_str(&rulebook_interpreter::text::record::movetext(&s.recorded(), rulebook_interpreter::text::record::GameResult::Unfinished));
            write("record", &format!("{stem}-{}", set.unwrap_or("fen")), text.as_bytes());
        }
    }

    // move_text: some legal moves of every position, in SAN and coordinates.
    for (p, (i, pos)) in fuzz_support::positions().iter().enumerate() {
        let v = &variants[*i].1;
        let stem = variants[*i].0.trim_end_matches(".rules");
        for set in 0..=v.game.letter_sets.len() {
            write("move_text", &format!("{stem}-p{p}-all{set}"), &[p as u8, set as u8]);
        }
        let legal = v.legal_moves(pos);
        let step = (legal.len() / 3).max(1);
        for (k, m) in legal.iter().step_by(step).take(3).enumerate() {
            let mut san = vec![p as u8, 0];
            san.extend_from_slice(notation::san(v, pos, m, &legal).as_bytes());
            write("move_text", &format!("{stem}-p{p}-san{k}"), &san);
            let mut coord = vec![p as u8, 0];
            coord.extend_from_slice(notation::coordinate(v, m).as_bytes());
            write("move_text", &format!("{stem}-p{p}-coord{k}"), &coord);
        }
    }
}
