//! `rulebook perft`: node counts, divide, and perft suites.

use super::{load, play_line, position, Context, Loaded};
use crate::cli::PerftArgs;
use rulebook_interpreter::text::epd::{self, Case};
use crate::report::{self, emit, emit_json, Failure, EXIT_FAILED, EXIT_STOPPED, EXIT_USAGE};
use indicatif::{HumanCount, ProgressBar, ProgressState, ProgressStyle};
use rulebook_interpreter::engine::perft::{Budget, Stop};
use std::sync::Arc;
use rulebook_interpreter::text::fen::{self, FenSource};
use rulebook_interpreter::text::notation;
use rulebook_interpreter::engine::perft as count;
use rulebook_interpreter::flow::Action;
use rulebook_interpreter::{Move, Position, Variant};
use serde::Serialize;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Runs `rulebook perft`.
pub fn run(args: &PerftArgs, cx: Context) -> Result<u8, Failure> {
    let mut loaded = load(&args.rules, cx)?;
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n.get(),
    );
    // One pool for the whole command (a suite counts many positions); none
    // for one job, or where the system cannot start one (one thread counts).
    let pool = if jobs > 1 { rayon::ThreadPoolBuilder::new().num_threads(jobs).build().ok() } else { None };
    let pool = pool.as_ref();
    match (&args.epd, args.depth) {
        (Some(suite), _) => run_suite(&mut loaded, args, suite, pool, cx),
        (None, Some(depth)) => run_one(&mut loaded, args, depth, pool, cx),
        // clap requires DEPTH without --epd; say so anyway rather than panic.
        (None, None) => Err(Failure::usage("give a DEPTH, or a suite with --epd FILE")),
    }
}

/// The budget of `--max-nodes` and `--time`, its clock started now.
fn budget(args: &PerftArgs) -> Arc<Budget> {
    let deadline = args.time.map(|d| Instant::now() + d);
    let budget = Budget::new(args.max_nodes, deadline);
    Arc::new(match args.hash {
        Some(mb) => budget.with_hash(mb as usize),
        None => budget,
    })
}

/// The report of a count stopped by `--max-nodes` or `--time` (exit 3).
fn stopped(args: &PerftArgs, budget: &Budget, why: Stop) -> Failure {
    let limit = match why {
        Stop::Nodes => format!("--max-nodes {}", args.max_nodes.unwrap_or_default()),
        Stop::Time => format!("--time {}", args.time.map_or(0.0, |d| d.as_secs_f64())),
    };
    Failure::reports(
        EXIT_STOPPED,
        format!(
            "error: perft stopped by {limit} after counting {} leaves: the count is incomplete, so none is given\n",
            budget.counted()
        ),
    )
}

/// The count below each root move of `pos`, `depth` plies deep (`depth` ≥ 1),
/// in generation order, or `None` if `budget` stopped it. With a `pool`
/// the tree is split among its threads ([`count::perft_split`]);
/// `tick` is called after each root move.
pub fn divide(
    v: &Variant,
    pos: &Position,
    depth: u32,
    pool: Option<&rayon::ThreadPool>,
    budget: &Budget,
    tick: &(dyn Fn() + Sync),
) -> Option<Vec<(Move, u64)>> {
    match splitting(pool, depth, pos) {
        Some(pool) => pool.install(|| count::divide_split(v, pos, depth, count::SPLIT_DEPTH, budget, tick)),
        None => count::divide(v, pos, depth, budget, |_, _| tick()),
    }
}

/// The number of leaves `depth` plies below `pos`, or `None` if `budget`
/// stopped the count; on the `pool`'s threads as in [`divide`].
pub fn total(
    v: &Variant,
    pos: &Position,
    depth: u32,
    pool: Option<&rayon::ThreadPool>,
    budget: &Budget,
    tick: &(dyn Fn() + Sync),
) -> Option<u64> {
    let n = match splitting(pool, depth, pos) {
        Some(pool) => pool.install(|| count::perft_split(v, pos, depth, count::SPLIT_DEPTH, budget)),
        None => count::perft_limited(v, pos, depth, budget),
    }?;
    tick();
    Some(n)
}

/// The pool a count `depth` plies below `pos` splits among, or `None` where
/// one thread counts: no pool, a count too shallow to split
/// ([`count::SPLIT_DEPTH`]), or a ply in progress at the root (the flow
/// layer's decisions).
fn splitting<'p>(pool: Option<&'p rayon::ThreadPool>, depth: u32, pos: &Position) -> Option<&'p rayon::ThreadPool> {
    pool.filter(|_| depth >= count::SPLIT_DEPTH && pos.flow.is_none())
}

/// The count below each decision of `pos` (`depth` ≥ 1), for `--divide`
/// where the flow layer decides (a phase, a ply in progress, a swinging
/// level) or with `--decisions`: every action of [`Variant::actions`] with
/// the leaves below it, or `None` if `budget` stopped the count.
///
/// Counting complete plies, a decision that leaves the ply in progress is
/// still within the root's ply: its row counts `depth` complete plies from
/// there (the one in progress first); a decision that completes it counts
/// `depth - 1`. With `decisions`, every row counts `depth - 1` decisions.
fn divide_actions(v: &Variant, pos: &Position, depth: u32, decisions: bool, budget: &Budget) -> Option<Vec<(Action, u64)>> {
    use rulebook_interpreter::flow::{perft as plies, ply::in_ply};
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut rows = Vec::new();
    for a in v.actions(pos) {
        let child = v.apply(pos, &a);
        let n = if decisions {
            plies::decisions_limited(v, &child, depth - 1, budget)?
        } else if in_ply(&child) {
            plies::plies_limited(v, &child, depth, budget)?
        } else {
            plies::plies_limited(v, &child, depth - 1, budget)?
        };
        rows.push((a, n));
    }
    Some(rows)
}

/// A progress bar on stderr, only on a terminal: `len` steps of `what`, with
/// the leaves `budget` has counted so far and their rate.
fn progress_bar(len: usize, what: &str, budget: &Arc<Budget>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let template = format!("{{spinner}} {{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what}, {{leaves}}");
    let counted = Arc::clone(budget);
    let leaves = move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
        let n = counted.counted();
        let secs = state.elapsed().as_secs_f64();
        let rate = if secs > 0.0 { (n as f64 / secs) as u64 } else { 0 };
        let _ = write!(w, "{} leaves ({}/s)", HumanCount(n), HumanCount(rate));
    };
    let style = ProgressStyle::with_template(&template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key("leaves", leaves)
        .progress_chars("=> ");
    let bar = ProgressBar::new(len as u64).with_style(style);
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// Milliseconds, with microsecond precision.
fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// One root move in `--divide --json`.
#[derive(Debug, Serialize)]
struct DivideEntry {
    /// Coordinate notation.
    #[serde(rename = "move")]
    coordinate: String,
    /// SAN with check marks.
    san: String,
    /// Leaves below it.
    nodes: u64,
    /// For a chance outcome (a reveal, a captured face-down piece): its exact
    /// probability once the move is chosen, as `n/d`.
    #[serde(skip_serializing_if = "Option::is_none")]
    probability: Option<String>,
}

/// The `--json` output of a single count.
#[derive(Debug, Serialize)]
struct PerftJson {
    variant: String,
    rules: String,
    fen: String,
    depth: u32,
    nodes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<DivideEntry>>,
    elapsed_ms: f64,
}

/// `rulebook perft RULES DEPTH`.
fn run_one(
    loaded: &mut Loaded,
    args: &PerftArgs,
    depth: u32,
    pool: Option<&rayon::ThreadPool>,
    cx: Context,
) -> Result<u8, Failure> {
    let start = position(loaded, args.fen.as_deref(), cx)?;
    let (pos, _) = play_line(loaded, start, args.play.as_deref(), cx)?;
    let v = &loaded.variant;
    let budget = budget(args);
    let started = Instant::now();
    // On a terminal, progress by root move (and the leaves so far), whatever the depth.
    let show = depth > 0 && std::io::stderr().is_terminal();
    // A phase, a ply in progress, a swinging level or a move after which a rule
    // obliges (`Variant::needs_flow`): the flow layer's decisions (placements, activations, relocations, passes) are the rows.
    let flow = v.needs_flow(&pos);
    let (nodes, entries) = if args.divide && (flow || args.decisions) {
        let Some(rows) = divide_actions(v, &pos, depth, args.decisions, &budget) else {
            return Err(stopped(args, &budget, budget.stopped().unwrap_or(Stop::Nodes)));
        };
        let legal: Vec<Move> = rows.iter().filter_map(|(a, _)| a.as_move().copied()).collect();
        let mut entries: Vec<DivideEntry> = rows
            .iter()
            .map(|(a, n)| DivideEntry {
                coordinate: notation::action::action_coordinate(v, a),
                san: notation::action::action_san(v, &pos, a, &legal, None),
                nodes: *n,
                probability: a.as_move().filter(|m| m.is_chance()).map(|m| v.probability(&pos, m).to_string()),
            })
            .collect();
        entries.sort_by(|a, b| a.coordinate.cmp(&b.coordinate));
        let nodes = if depth == 0 { 1 } else { rows.iter().map(|(_, n)| n).sum() };
        (nodes, Some(entries))
    } else if (args.divide || show) && !args.decisions && !flow {
        let bar = if show {
            progress_bar(v.legal_moves(&pos).len(), "root moves", &budget)
        } else {
            ProgressBar::hidden()
        };
        let rows = if depth == 0 {
            Some(Vec::new())
        } else {
            divide(v, &pos, depth, pool, &budget, &|| bar.inc(1))
        };
        bar.finish_and_clear();
        let Some(rows) = rows else {
            return Err(stopped(args, &budget, budget.stopped().unwrap_or(Stop::Nodes)));
        };
        let nodes = if depth == 0 {
            1
        } else {
            rows.iter().map(|(_, n)| n).sum()
        };
        let entries = args.divide.then(|| {
            let legal: Vec<Move> = rows.iter().map(|(m, _)| *m).collect();
            let mut entries: Vec<DivideEntry> = rows
                .iter()
                .map(|(m, n)| DivideEntry {
                    coordinate: notation::coordinate(v, m),
                    san: notation::san(v, &pos, m, &legal),
                    nodes: *n,
                    probability: m.is_chance().then(|| v.probability(&pos, m).to_string()),
                })
                .collect();
            entries.sort_by(|a, b| a.coordinate.cmp(&b.coordinate));
            entries
        });
        (nodes, entries)
    } else if args.decisions {
        match rulebook_interpreter::flow::perft::decisions_limited(v, &pos, depth, &budget) {
            Some(n) => (n, None),
            None => return Err(stopped(args, &budget, budget.stopped().unwrap_or(Stop::Nodes))),
        }
    } else {
        match total(v, &pos, depth, pool, &budget, &|| ()) {
            Some(n) => (n, None),
            None => return Err(stopped(args, &budget, budget.stopped().unwrap_or(Stop::Nodes))),
        }
    };
    let elapsed = started.elapsed();
    if args.json {
        emit_json(&PerftJson {
            variant: v.game.name.clone(),
            rules: args.rules.display().to_string(),
            fen: v.fen(&pos),
            depth,
            nodes,
            divide: entries,
            elapsed_ms: millis(elapsed),
        })?;
        return Ok(0);
    }
    let mut out = String::new();
    if let Some(entries) = entries {
        let cw = entries
            .iter()
            .map(|e| e.coordinate.chars().count())
            .max()
            .unwrap_or(0);
        let sw = entries
            .iter()
            .map(|e| e.san.chars().count())
            .max()
            .unwrap_or(0);
        // With chance outcomes, each row is one outcome and a column gives its probability.
        let pw = entries
            .iter()
            .filter_map(|e| e.probability.as_ref().map(|p| p.chars().count()))
            .max();
        for e in &entries {
            match pw {
                Some(pw) => out.push_str(&format!(
                    "{:<cw$}  {:<sw$}  {:>pw$}  {}\n",
                    e.coordinate,
                    e.san,
                    e.probability.as_deref().unwrap_or("1"),
                    e.nodes
                )),
                None => out.push_str(&format!(
                    "{:<cw$}  {:<sw$}  {}\n",
                    e.coordinate, e.san, e.nodes
                )),
            }
        }
    }
    out.push_str(&format!("{nodes}\n"));
    emit(&out)?;
    Ok(0)
}

/// One check of a suite in `--json`.
#[derive(Debug, Serialize)]
struct CheckJson {
    id: String,
    fen: String,
    depth: u32,
    expected: u64,
    nodes: u64,
    ok: bool,
}

/// The `--json` output of a suite.
#[derive(Debug, Serialize)]
struct SuiteJson {
    variant: String,
    rules: String,
    suite: String,
    max_depth: Option<u32>,
    checks: Vec<CheckJson>,
    passed: usize,
    failed: usize,
    skipped: usize,
    elapsed_ms: f64,
}

/// `rulebook perft RULES --epd FILE`.
fn run_suite(
    loaded: &mut Loaded,
    args: &PerftArgs,
    path: &std::path::Path,
    pool: Option<&rayon::ThreadPool>,
    cx: Context,
) -> Result<u8, Failure> {
    let name = path.display().to_string();
    let text = rulebook_interpreter::model::load::read_input(path)
        .map_err(|e| Failure::usage(format!("cannot read the perft suite `{name}`: {e}")))?;
    let (cases, mut diags) = epd::parse(&name, &text);
    loaded.extra.insert(name.clone(), text);
    // Every position is read before anything runs, so a bad one is reported at once.
    let mut positions: Vec<(&Case, Position)> = Vec::new();
    for case in &cases {
        let src = FenSource {
            name: &name,
            offset: case.fen_offset,
        };
        match fen::parse(
            &loaded.variant.game,
            &loaded.variant.tables,
            &case.fen,
            &src,
        ) {
            Ok(pos) => positions.push((case, pos)),
            Err(d) => diags.push(d),
        }
    }
    diags.sort_by_key(|d| d.span.start);
    let errors = report::error_count(&diags);
    if errors > 0 {
        let text = loaded.render(&diags, cx.color);
        return Err(Failure::reports(
            EXIT_USAGE,
            format!(
                "{text}error: the perft suite `{name}` has {}; nothing was run\n",
                report::plural(errors, "error")
            ),
        )
        .with_diagnostics(&diags, |n| loaded.source(n)));
    }
    if !diags.is_empty() {
        eprint!("{}", loaded.render(&diags, cx.color));
    }

    let v = &loaded.variant;
    let max = args.max_depth.unwrap_or(u32::MAX);
    let runnable: Vec<(&Case, &Position, u32, u64)> = positions
        .iter()
        .flat_map(|(case, pos)| {
            case.checks
                .iter()
                .filter(|c| c.depth <= max)
                .map(move |c| (*case, pos, c.depth, c.expected))
        })
        .collect();
    let skipped = positions.iter().map(|(c, _)| c.checks.len()).sum::<usize>() - runnable.len();
    let budget = budget(args);
    let bar = progress_bar(runnable.len(), "checks", &budget);
    let started = Instant::now();
    let mut results = Vec::with_capacity(runnable.len());
    let mut failed = 0;
    for (case, pos, depth, expected) in runnable {
        let Some(nodes) = total(v, pos, depth, pool, &budget, &|| ()) else {
            bar.finish_and_clear();
            return Err(stopped(args, &budget, budget.stopped().unwrap_or(Stop::Nodes)));
        };
        let ok = nodes == expected;
        if !ok {
            failed += 1;
        }
        if !args.json {
            let line = if ok {
                format!("ok   {} {depth} {nodes}\n", case.id)
            } else {
                format!("FAIL {} {depth} expected {expected} got {nodes}\n", case.id)
            };
            bar.suspend(|| emit(&line))?;
        }
        bar.inc(1);
        results.push(CheckJson {
            id: case.id.clone(),
            fen: case.fen.clone(),
            depth,
            expected,
            nodes,
            ok,
        });
    }
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let passed = results.len() - failed;
    if args.json {
        emit_json(&SuiteJson {
            variant: v.game.name.clone(),
            rules: args.rules.display().to_string(),
            suite: name,
            max_depth: args.max_depth,
            checks: results,
            passed,
            failed,
            skipped,
            elapsed_ms: millis(elapsed),
        })?;
    } else {
        let checks = report::plural(passed + failed, "check");
        let mut line = if passed + failed == 0 {
            "no checks run".to_string()
        } else if failed == 0 {
            format!("all {checks} passed")
        } else {
            format!("FAILED: {failed} of {checks} did not match")
        };
        line.push_str(&format!(
            " ({}",
            report::plural(positions.len(), "position")
        ));
        if skipped > 0 {
            line.push_str(&format!(", {skipped} deeper than {max} skipped"));
        }
        line.push_str(&format!(") in {:.3} s\n", elapsed.as_secs_f64()));
        emit(&line)?;
    }
    Ok(if failed == 0 { 0 } else { EXIT_FAILED })
}
