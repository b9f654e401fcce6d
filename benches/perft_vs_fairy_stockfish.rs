//! Speed benchmark: rulebook's perft against Fairy-Stockfish's (`go perft`)
//! on the start positions of several variants, in the same run, one thread
//! each. Fairy-Stockfish runs as a separate process (Debian's
//! `fairy-stockfish` package, installed by scripts/setup-fairy-stockfish)
//! spoken to over UCI; start-up is excluded on both sides: rulebook's clock
//! runs around `perft` alone (the rules file is loaded and the position built
//! before it), Fairy-Stockfish's from the moment `go perft N` is sent until
//! its `Nodes searched: N` line is read (the process, the variant and the
//! position are set up, and confirmed with `isready`, before it). Both sides
//! first run a perft(1) untimed, so that nothing lazy lands in the timed run.
//!
//! Prints, per variant, both times, the ratio (rulebook / Fairy-Stockfish)
//! and each side's nodes per second. A variant whose rules file is not written
//! yet is skipped with a line; one that the installed Fairy-Stockfish does not
//! know (11.1 has no atomic, for example, and would silently play chess) is
//! timed on rulebook's side only.
//!
//! Run: `cargo bench --bench perft_vs_fairy_stockfish` (add `-- --quick` for
//! smaller depths, or `-- --depth N` for depth N everywhere). With
//! `-- --survey [MIN MAX]` it runs Fairy-Stockfish's own perft checks
//! instead (../shared/fsf-perft-checks.tsv, the table tests/fsf_perft.rs
//! holds rulebook to) whose counts lie between MIN and MAX nodes (default
//! 200,000 and 20,000,000), every variant with a rules file, and lists the
//! five slowest ratios at the end; a row the installed Fairy-Stockfish
//! counts otherwise than the table (11.1 predates some of its variants'
//! rules) is timed on rulebook's side only. Exit codes: 2 for a setup
//! problem (no Fairy-Stockfish, a rules file that does not load,
//! Fairy-Stockfish not answering), 1 when the node counts of a compared
//! variant differ (in the survey: when rulebook's differ from the table).

use rulebook_interpreter::{model::load::load, engine::perft::perft, Variant};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One comparison: Fairy-Stockfish's `UCI_Variant` name, our rules file
/// (relative to the repository root), the position (`None`: the start
/// position on both sides; `Some(fen)`: a FEN both sides read), the depth and
/// the depth under `--quick`. The defaults keep the whole run under about two
/// minutes on a 2-core machine; raise them here (or pass `--depth N`) for
/// deeper ratios.
struct Case {
    variant: &'static str,
    rules: &'static str,
    fen: Option<&'static str>,
    depth: u32,
    quick_depth: u32,
}

const CASES: &[Case] = &[
    Case { variant: "chess", rules: "rules/chess.rules", fen: None, depth: 5, quick_depth: 4 },
    Case { variant: "capablanca", rules: "rules/capablanca.rules", fen: None, depth: 4, quick_depth: 3 },
    Case { variant: "crazyhouse", rules: "rules/crazyhouse.rules", fen: None, depth: 4, quick_depth: 3 },
    Case { variant: "atomic", rules: "rules/fairy/atomic.rules", fen: None, depth: 4, quick_depth: 3 },
    Case { variant: "shogi", rules: "rules/fairy/shogi.rules", fen: None, depth: 4, quick_depth: 3 },
    Case { variant: "xiangqi", rules: "rules/fairy/xiangqi.rules", fen: None, depth: 4, quick_depth: 3 },
    // The variants a survey of Fairy-Stockfish's perft checks found slower
    // than the peer before issue 18's twenty-sixth session (see README).
    Case { variant: "janggi", rules: "rules/fairy/janggi.rules", fen: None, depth: 4, quick_depth: 3 },
    Case { variant: "grand", rules: "rules/fairy/grand.rules", fen: None, depth: 3, quick_depth: 2 },
    Case { variant: "racingkings", rules: "rules/fairy/racingkings.rules", fen: None, depth: 4, quick_depth: 3 },
    Case { variant: "breakthrough", rules: "rules/fairy/breakthrough.rules", fen: None, depth: 4, quick_depth: 3 },
];

/// Where Debian puts the engine; `fairy-stockfish` on PATH is tried next.
const FSF_PATH: &str = "/usr/games/fairy-stockfish";

fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed())
}

fn setup_error(msg: &str) -> ! {
    eprintln!("{msg}");
    std::process::exit(2);
}

fn find_fsf() -> Option<PathBuf> {
    let debian = Path::new(FSF_PATH);
    if debian.is_file() {
        return Some(debian.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join("fairy-stockfish")).find(|p| p.is_file())
}

/// A running Fairy-Stockfish, after `uci`.
struct Fsf {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// Its `id name` line's value.
    name: String,
    /// The values of its `UCI_Variant` combo option.
    variants: Vec<String>,
}

impl Fsf {
    fn start(exe: &Path) -> Result<Fsf, String> {
        let mut child = Command::new(exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut fsf = Fsf { child, stdin, stdout, name: String::new(), variants: Vec::new() };
        fsf.send("uci")?;
        loop {
            let line = fsf.line()?;
            if line == "uciok" {
                break;
            } else if let Some(name) = line.strip_prefix("id name ") {
                fsf.name = name.to_string();
            } else if line.starts_with("option name UCI_Variant ") {
                let words: Vec<&str> = line.split_whitespace().collect();
                fsf.variants = words.windows(2).filter(|w| w[0] == "var").map(|w| w[1].to_string()).collect();
            }
        }
        Ok(fsf)
    }

    fn send(&mut self, cmd: &str) -> Result<(), String> {
        writeln!(self.stdin, "{cmd}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("fairy-stockfish: cannot send '{cmd}': {e}"))
    }

    /// The next line of output, without its line end; an error at end of
    /// output (the process ended).
    fn line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(0) => Err("fairy-stockfish ended its output unexpectedly".to_string()),
            Ok(_) => Ok(line.trim_end().to_string()),
            Err(e) => Err(format!("fairy-stockfish: cannot read its output: {e}")),
        }
    }

    /// Sets the variant, one thread and the position, and waits until the
    /// engine has taken them (`isready`).
    fn prepare(&mut self, variant: &str, fen: Option<&str>) -> Result<(), String> {
        self.send(&format!("setoption name UCI_Variant value {variant}"))?;
        self.send("setoption name Threads value 1")?;
        match fen {
            None => self.send("position startpos")?,
            Some(fen) => self.send(&format!("position fen {fen}"))?,
        }
        self.send("isready")?;
        while self.line()? != "readyok" {}
        Ok(())
    }

    /// `go perft depth`: the per-move lines (`e2e4: 123`) are skipped, the
    /// total is read from `Nodes searched: N`.
    fn perft(&mut self, depth: u32) -> Result<u64, String> {
        self.send(&format!("go perft {depth}"))?;
        loop {
            let line = self.line()?;
            if let Some(n) = line.strip_prefix("Nodes searched:") {
                return n.trim().parse().map_err(|_| format!("fairy-stockfish: cannot read the node count in '{line}'"));
            }
        }
    }

    fn quit(mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// One timed comparison: a case of [`CASES`] at its depth, or a row of
/// the survey's table with the count it must give.
struct Job {
    variant: String,
    rules: String,
    fen: Option<String>,
    depth: u32,
    /// The table's count (survey rows): Fairy-Stockfish is compared only
    /// where it counts the same.
    expected: Option<u64>,
}

/// The survey's jobs: the rows of Fairy-Stockfish's perft table with
/// `min..=max` nodes whose variant has a rules file (`rules/fairy/NAME.rules`,
/// else `rules/NAME.rules`), Chess960 rows left out (they need the peer's
/// `UCI_Chess960`).
fn survey_jobs(root: &Path, min: u64, max: u64) -> Vec<Job> {
    let path = root.join("../shared/fsf-perft-checks.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| setup_error(&format!("{}: {e}", path.display())));
    let mut jobs = Vec::new();
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let [variant, fen, depth, nodes, chess960] = f[..] else { setup_error(&format!("{}: not a row of five fields: {line}", path.display())) };
        let (Ok(depth), Ok(nodes)) = (depth.parse::<u32>(), nodes.parse::<u64>()) else { setup_error(&format!("{}: bad depth or count: {line}", path.display())) };
        if chess960 == "true" || !(min..=max).contains(&nodes) {
            continue;
        }
        let Some(rules) = [format!("rules/fairy/{variant}.rules"), format!("rules/{variant}.rules")].into_iter().find(|r| root.join(r).is_file()) else { continue };
        let fen = (fen != "startpos").then(|| fen.to_string());
        jobs.push(Job { variant: variant.to_string(), rules, fen, depth, expected: Some(nodes) });
    }
    jobs
}

/// A row timed on rulebook's side only (the peer does not know the
/// variant, or counts it otherwise than the table).
fn print_ours_only(variant: &str, depth: u32, nodes: u64, time: Duration) {
    let mnps = nodes as f64 / time.as_secs_f64() / 1e6;
    println!("{:<12} {:>5} {:>11} {:>10.3} s {:>12} {:>7} {:>10.2} {:>10}", variant, depth, nodes, time.as_secs_f64(), "-", "-", mnps, "-");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let survey: Option<(u64, u64)> = args.iter().position(|a| a == "--survey").map(|k| {
        let number = |i: usize, default: u64| args.get(k + i).filter(|a| !a.starts_with("--")).map_or(default, |a| a.replace('_', "").parse().unwrap_or_else(|_| setup_error("--survey takes two node counts, e.g. --survey 200000 20000000")));
        (number(1, 200_000), number(2, 20_000_000))
    });
    let depth_override: Option<u32> = args.iter().position(|a| a == "--depth").map(|k| {
        args.get(k + 1)
            .and_then(|d| d.parse().ok())
            .unwrap_or_else(|| setup_error("--depth needs a number, e.g. --depth 6"))
    });
    let exe = find_fsf().unwrap_or_else(|| {
        setup_error(&format!(
            "fairy-stockfish is not installed ({FSF_PATH} is missing and no fairy-stockfish is on PATH);\n\
             install it with scripts/setup-fairy-stockfish (Debian's fairy-stockfish package), then run this again"
        ))
    });
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));

    let jobs: Vec<Job> = match survey {
        Some((min, max)) => survey_jobs(root, min, max),
        None => CASES
            .iter()
            .map(|c| Job { variant: c.variant.to_string(), rules: c.rules.to_string(), fen: c.fen.map(str::to_string), depth: depth_override.unwrap_or(if quick { c.quick_depth } else { c.depth }), expected: None })
            .collect(),
    };
    let mut header_done = false;
    let mut total = (0u64, Duration::ZERO, Duration::ZERO);
    let mut mismatches = Vec::new();
    let mut notes = Vec::new();
    let mut ratios: Vec<(f64, String)> = Vec::new();
    for case in &jobs {
        let depth = case.depth;
        let rules = root.join(&case.rules);
        if !rules.exists() {
            notes.push(format!("{}: {} is not written yet; skipped", case.variant, case.rules));
            continue;
        }
        let v = match load(&rules) {
            Ok((g, _)) => Variant::new(Arc::new(g)),
            Err((d, _)) => setup_error(&format!("cannot load {}: {:?}", rules.display(), d)),
        };
        let pos = match &case.fen {
            None => v.start(),
            Some(fen) => v.parse_fen(fen, &case.variant),
        }
        .unwrap_or_else(|d| setup_error(&format!("{}: bad position: {}", case.rules, d.message)));

        let mut fsf = Fsf::start(&exe).unwrap_or_else(|e| setup_error(&e));
        if !header_done {
            println!("peer: {} ({}), one thread; rulebook: perft, one thread", fsf.name, exe.display());
            println!(
                "{:<12} {:>5} {:>11} {:>12} {:>12} {:>7} {:>10} {:>10}",
                "variant", "depth", "nodes", "rulebook", "fairy-sf", "ratio", "rb Mn/s", "fsf Mn/s"
            );
            header_done = true;
        }
        let known = fsf.variants.contains(&case.variant);
        // "Fairy-Stockfish 11.1 LB 64" -> "fairy-stockfish 11.1"
        let peer = fsf.name.split_whitespace().take(2).collect::<Vec<_>>().join(" ").to_lowercase();

        // Untimed perft(1) on both sides, then the timed run.
        let _ = perft(&v, &pos, 1);
        let (ours, t_ours) = time(|| perft(&v, &pos, depth));
        let ours_mnps = ours as f64 / t_ours.as_secs_f64() / 1e6;
        if let Some(expected) = case.expected.filter(|&e| e != ours) {
            println!("{:<12} {:>5} {:>11}  MISMATCH: the table counts {expected}", case.variant, depth, ours);
            mismatches.push(format!("MISMATCH {} depth {depth} {}: rulebook {ours}, the table {expected}", case.variant, case.fen.as_deref().unwrap_or("startpos")));
            fsf.quit();
            continue;
        }
        if !known {
            fsf.quit();
            print_ours_only(&case.variant, depth, ours, t_ours);
            notes.push(format!("{peer} does not know {}: not compared", case.variant));
            continue;
        }
        fsf.prepare(&case.variant, case.fen.as_deref()).unwrap_or_else(|e| setup_error(&e));
        fsf.perft(1).unwrap_or_else(|e| setup_error(&e));
        let (theirs, t_theirs) = time(|| fsf.perft(depth));
        let theirs = theirs.unwrap_or_else(|e| setup_error(&e));
        fsf.quit();
        if case.expected.is_some() && ours != theirs {
            // The table and rulebook agree: the installed peer's rules differ.
            print_ours_only(&case.variant, depth, ours, t_ours);
            notes.push(format!("{peer} counts {theirs} for {} depth {depth} (the table {ours}): not compared", case.variant));
            continue;
        }
        if ours != theirs {
            println!(
                "{:<12} {:>5} {:>11} {:>10.3} s {:>10.3} s  MISMATCH: fairy-stockfish counts {theirs}",
                case.variant, depth, ours, t_ours.as_secs_f64(), t_theirs.as_secs_f64()
            );
            mismatches.push(format!("MISMATCH {} depth {depth}: rulebook {ours}, fairy-stockfish {theirs}", case.variant));
            continue;
        }
        total.0 += ours;
        total.1 += t_ours;
        total.2 += t_theirs;
        ratios.push((t_ours.as_secs_f64() / t_theirs.as_secs_f64(), format!("{} depth {depth} {}", case.variant, case.fen.as_deref().unwrap_or("startpos"))));
        println!(
            "{:<12} {:>5} {:>11} {:>10.3} s {:>10.3} s {:>6.2}x {:>10.2} {:>10.2}",
            case.variant,
            depth,
            ours,
            t_ours.as_secs_f64(),
            t_theirs.as_secs_f64(),
            t_ours.as_secs_f64() / t_theirs.as_secs_f64(),
            ours_mnps,
            theirs as f64 / t_theirs.as_secs_f64() / 1e6
        );
    }
    if total.0 > 0 {
        println!(
            "{:<12} {:>5} {:>11} {:>10.3} s {:>10.3} s {:>6.2}x {:>10.2} {:>10.2}",
            "compared",
            "",
            total.0,
            total.1.as_secs_f64(),
            total.2.as_secs_f64(),
            total.1.as_secs_f64() / total.2.as_secs_f64(),
            total.0 as f64 / total.1.as_secs_f64() / 1e6,
            total.0 as f64 / total.2.as_secs_f64() / 1e6
        );
    }
    for note in &notes {
        println!("{note}");
    }
    if survey.is_some() {
        ratios.sort_by(|a, b| b.0.total_cmp(&a.0));
        println!("slowest against the peer:");
        for (ratio, what) in ratios.iter().take(5) {
            println!("  {ratio:>6.2}x  {what}");
        }
    }
    if !mismatches.is_empty() {
        for m in &mismatches {
            eprintln!("{m}");
        }
        std::process::exit(1);
    }
}
