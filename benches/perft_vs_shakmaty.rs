//! Speed benchmark: rulebook's perft against shakmaty's on the same positions,
//! in the same run, single-threaded. Prints both times and the ratio, then the
//! speed of Capablanca, Raumschach, Nebelschach, Niel's Chess and 4D-Schach
//! in nodes per second beside chess's (no peer in this benchmark), then the
//! time of the verifier (`rulebook check`, default options) on
//! rules/chess.rules and rules/4d-schach.rules, stage by stage.
//!
//! Before all that, the peak resident memory of `rulebook perft rules/chess.rules 7`
//! from the start, one thread, without and with `--hash 64` (the CLI run as
//! a child process, its peak read from `wait4`), with each run's time. 64 MB
//! holds the count's ~0.9 M positions two or more plies above the leaves
//! four times over; a larger table counts no faster, and on a virtual
//! machine its first touch costs system time (256 MB: about 0.5 s here). It
//! runs before anything else: Linux counts the resident memory of the
//! process that starts a child in the child's peak, and this process is
//! then a few megabytes.
//!
//! Each time is the best of [`RUNS`] runs ([`CLI_RUNS`] for the memory
//! runs), on both sides alike: on a shared virtual machine one run of the
//! same count varies by up to a quarter (chess perft 6 from the start took
//! 0.65 to 0.90 s in a row here), and the best is the run least disturbed.
//! The variants without a peer are loaded afresh for each run, so that every
//! run builds the tables of the frames it meets (4D-Schach) as the first did.
//! One row runs once: 4D-Schach's swinging count one ply deeper (perft 4,
//! about ten seconds), beside the best of three at perft 3.
//!
//! Run: `cargo bench --bench perft_vs_shakmaty` (add `-- --quick` for smaller
//! perft depths, 6 for the memory runs; the check runs once either way).

use rulebook_checker::Verdict;
use rulebook_interpreter::{model::load::load, engine::perft::perft, Variant};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How many times each perft runs (the best time is kept).
const RUNS: usize = 3;

/// How many times each memory run of the CLI runs (perft 7: about 17 s
/// without the table).
const CLI_RUNS: usize = 2;

fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed())
}

/// `f` run [`RUNS`] times: its last result and its least time.
fn best_of<T>(mut f: impl FnMut() -> T) -> (T, Duration) {
    let (mut r, mut best) = time(&mut f);
    for _ in 1..RUNS {
        let (again, t) = time(&mut f);
        r = again;
        best = best.min(t);
    }
    (r, best)
}

/// The variant of `file` (relative to the repository root); exits 2 if it does not load.
fn variant(file: &str) -> Variant {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    match load(&path) {
        Ok((g, _)) => Variant::new(Arc::new(g)),
        Err((d, _)) => {
            eprintln!("cannot load {}: {:?}", path.display(), d);
            std::process::exit(2);
        }
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    // First, while this process is small: Linux counts the memory of the
    // process that starts a child in the child's peak.
    memory(if quick { 6 } else { 7 });
    let v = variant("rules/chess.rules");
    let cases = [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", if quick { 5 } else { 6 }),
        ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", if quick { 4 } else { 5 }),
    ];
    let mut total = (Duration::ZERO, Duration::ZERO);
    let mut cases_nodes = Vec::new();
    println!("{:<10} {:>5} {:>12} {:>12} {:>12} {:>7}", "position", "depth", "nodes", "rulebook", "shakmaty", "ratio");
    for (name, fen, depth) in cases {
        let pos = match v.parse_fen(fen, name) {
            Ok(p) => p,
            Err(d) => {
                eprintln!("bad FEN {fen}: {}", d.message);
                std::process::exit(2);
            }
        };
        let peer: Chess = match fen.parse::<Fen>().ok().and_then(|f| f.into_position(CastlingMode::Standard).ok()) {
            Some(p) => p,
            None => {
                eprintln!("shakmaty rejects {fen}");
                std::process::exit(2);
            }
        };
        let (ours, t_ours) = best_of(|| perft(&v, &pos, depth));
        let (theirs, t_theirs) = best_of(|| shakmaty::perft(&peer, depth));
        if ours != theirs {
            eprintln!("MISMATCH {name} depth {depth}: rulebook {ours}, shakmaty {theirs}");
            std::process::exit(1);
        }
        cases_nodes.push(ours);
        total.0 += t_ours;
        total.1 += t_theirs;
        println!(
            "{:<10} {:>5} {:>12} {:>10.3} s {:>10.3} s {:>6.2}x",
            name,
            depth,
            ours,
            t_ours.as_secs_f64(),
            t_theirs.as_secs_f64(),
            t_ours.as_secs_f64() / t_theirs.as_secs_f64()
        );
    }
    println!(
        "{:<10} {:>5} {:>12} {:>10.3} s {:>10.3} s {:>6.2}x",
        "total",
        "",
        "",
        total.0.as_secs_f64(),
        total.1.as_secs_f64(),
        total.0.as_secs_f64() / total.1.as_secs_f64()
    );

    // Variants without a peer engine in this benchmark: their speed is given
    // as nodes per second beside chess's from the table above (issue 18
    // asks for Capablanca, Raumschach and 4D-Schach within 2x of chess's
    // rate, Niel's Chess within 5x). 4D-Schach's start is the placement
    // phase; the post-opening position is the test position of
    // interpreter/tests/four_d.rs, at rest and with level IV just pulled
    // out 3 rows east (A-IV-3-Ost), whose swing the plies below move.
    let chess_nps = {
        let nodes: u64 = cases_nodes.iter().sum();
        nodes as f64 / total.0.as_secs_f64()
    };
    println!("chess: {:.2} M nodes/s (the rulebook column above)", chess_nps / 1e6);
    const POST_OPENING: &str = "5p2/2P5/8/6p1/8/5P2/4B3/8|4n3/8/8/7q/5P2/8/3R4/5P2|8/8/4p3/3k4/8/8/7R/6N1|8/8/B3P3/8/8/b3p3/8/8|6n1/7r/8/8/3K4/4P3/8/8|5p2/3r4/8/5p2/7Q/8/8/4N3|8/4b3/5p2/8/6P1/8/2p5/5P2 w - - 0 1";
    let swinging = format!("{POST_OPENING} {{frame=IV:-3<-3*}}");
    // (name, file, position, depth, depth with --quick, runs). The
    // swinging count one ply deeper (245 M nodes, about 10 s) runs once:
    // at perft 3 the frames' tables, built on first use, are a larger part
    // of a count of 1.5 M nodes.
    let others: [(&str, &str, Option<String>, u32, u32, usize); 8] = [
        ("Capablanca", "rules/capablanca.rules", None, 5, 4, RUNS),
        ("Raumschach", "rules/raumschach.rules", None, 4, 3, RUNS),
        ("Nebelschach", "rules/nebelschach.rules", None, 4, 3, RUNS),
        ("Niel's Chess", "rules/niels-chess.rules", None, 4, 3, RUNS),
        ("4D-Schach start (placing)", "rules/4d-schach.rules", None, 5, 3, RUNS),
        ("4D post-opening, at rest", "rules/4d-schach.rules", Some(POST_OPENING.to_string()), 3, 2, RUNS),
        ("4D post-opening, swinging", "rules/4d-schach.rules", Some(swinging.clone()), 3, 2, RUNS),
        ("4D swinging, one run", "rules/4d-schach.rules", Some(swinging), 4, 3, 1),
    ];
    println!("{:<26} {:>5} {:>12} {:>10} {:>12} {:>9}", "no peer (one thread)", "depth", "nodes", "time", "nodes/s", "vs chess");
    for (name, file, fen, depth, quick_depth, runs) in others {
        let depth = if quick { quick_depth } else { depth };
        // Each run on a variant loaded afresh (its frames' tables not yet built), the load not timed.
        let (mut nodes, mut t) = (0, Duration::MAX);
        for _ in 0..runs {
            let v = variant(file);
            let pos = match fen.as_ref().map_or_else(|| v.start(), |f| v.parse_fen(f, name)) {
                Ok(p) => p,
                Err(d) => {
                    eprintln!("bad position for {name}: {}", d.message);
                    std::process::exit(2);
                }
            };
            let (n, run) = time(|| perft(&v, &pos, depth));
            (nodes, t) = (n, t.min(run));
        }
        let nps = nodes as f64 / t.as_secs_f64();
        println!("{:<26} {:>5} {:>12} {:>8.3} s {:>10.2} M {:>8.3}x", name, depth, nodes, t.as_secs_f64(), nps / 1e6, nps / chess_nps);
    }

    // The verifier, once per file, with the defaults of `rulebook check`.
    verify("rules/chess.rules", &v);
    verify("rules/4d-schach.rules", &variant("rules/4d-schach.rules"));
}

/// Runs `rulebook check`'s verifier on `v` (from `file`) with the default
/// options and prints its time, the time of each stage and the claims'
/// verdicts; exits 1 if a claim is refuted.
fn verify(file: &str, v: &Variant) {
    let started = Instant::now();
    let mut stages: Vec<(String, Duration)> = Vec::new();
    let report = rulebook_checker::check(v, &rulebook_checker::Options::default(), &mut |stage| stages.push((stage.to_string(), started.elapsed())));
    let mut verdicts: Vec<(String, usize)> = Vec::new();
    for c in &report.claims {
        let label = c.verdict.label(c.depth);
        match verdicts.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => *n += 1,
            None => verdicts.push((label, 1)),
        }
    }
    let verdicts: Vec<String> = verdicts
        .iter()
        .map(|(l, n)| format!("{n} claim{} {l}", if *n == 1 { "" } else { "s" }))
        .collect();
    println!(
        "check {file}: {:.1} s ({}; {} Z3 queries)",
        report.stats.seconds,
        if verdicts.is_empty() { "no claims".to_string() } else { verdicts.join(", ") },
        report.stats.queries
    );
    let total = started.elapsed();
    for (k, (stage, at)) in stages.iter().enumerate() {
        let end = stages.get(k + 1).map_or(total, |(_, next)| *next);
        println!("  {:>6.1} s  {stage}", (end - *at).as_secs_f64());
    }
    if report.claims.iter().any(|c| c.verdict == Verdict::Refuted) {
        eprintln!("the verifier refutes a claim of {file}");
        std::process::exit(1);
    }
}

/// Runs `rulebook perft rules/chess.rules DEPTH -j 1` as a child process
/// without and with `--hash 64` ([`CLI_RUNS`] times each) and prints each
/// one's count, best time and peak resident memory (the child's own, from
/// `wait4`'s resource usage; the largest of the runs).
fn memory(depth: u32) {
    println!("{:<26} {:>5} {:>12} {:>10} {:>12}", "chess memory (CLI, -j 1)", "depth", "nodes", "time", "peak RSS");
    for hash in [None, Some(64)] {
        let (mut nodes, mut best, mut peak) = (String::new(), Duration::MAX, 0);
        for _ in 0..CLI_RUNS {
            let (n, t, rss) = perft_child(depth, hash);
            (nodes, best, peak) = (n, best.min(t), peak.max(rss));
        }
        let label = match hash {
            None => "without --hash".to_string(),
            Some(mb) => format!("with --hash {mb}"),
        };
        // ru_maxrss is in kilobytes on Linux.
        println!("{:<26} {:>5} {:>12} {:>8.3} s {:>9.1} MB", label, depth, nodes, best.as_secs_f64(), peak as f64 / 1024.0);
    }
}

/// One run of `rulebook perft rules/chess.rules DEPTH -j 1` (with `--hash
/// MB` where given) as a child process: its count, its time and its peak
/// resident memory in kilobytes. Exits 2 if it cannot run or fails.
fn perft_child(depth: u32, hash: Option<u32>) -> (String, Duration, i64) {
    let bin = env!("CARGO_BIN_EXE_rulebook");
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/chess.rules");
    let mut cmd = std::process::Command::new(bin);
    cmd.arg("perft").arg(&rules).arg(depth.to_string()).args(["-j", "1"]).stdout(std::process::Stdio::piped());
    if let Some(mb) = hash {
        cmd.args(["--hash", &mb.to_string()]);
    }
    let started = Instant::now();
    let Ok(mut child) = cmd.spawn() else {
        eprintln!("cannot run {bin}");
        std::process::exit(2);
    };
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        let _ = std::io::Read::read_to_string(&mut stdout, &mut out);
    }
    // SAFETY: `rusage` is plain data that wait4 fills; the pid is our own
    // child, not yet waited for.
    let (status, usage) = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        let mut status = 0;
        let pid = libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage);
        (if pid > 0 { status } else { -1 }, usage)
    };
    let t = started.elapsed();
    if status != 0 {
        eprintln!("rulebook perft failed (status {status}): {out}");
        std::process::exit(2);
    }
    (out.lines().last().unwrap_or("").trim().to_string(), t, usage.ru_maxrss)
}
