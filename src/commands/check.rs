//! `rulebook check`: every problem in a rules file, or a summary of the variant.

use super::{open, Context};
use crate::cli::CheckArgs;
use crate::db::{chain, compile, parse, Database, Db, SourceFile};
use crate::report::{self, emit, emit_json, Failure, JsonDiagnostic, EXIT_FAILED};
use rulebook_grammar::ast::{self, Span};
use rulebook_grammar::Diagnostic;
use rulebook_interpreter::model::EndCondition;
use rulebook_interpreter::{Game, Position, Status, Variant};
use serde::Serialize;
use indicatif::ProgressBar;
use std::io::IsTerminal;
use std::time::Duration;

mod mutants;

/// The `--json` output.
#[derive(Debug, Serialize)]
struct CheckJson {
    file: String,
    ok: bool,
    errors: usize,
    warnings: usize,
    /// Findings a ruling of the file settles (diagnostics of severity `note`).
    settled: usize,
    diagnostics: Vec<JsonDiagnostic>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<Summary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verifier: Option<VerifierJson>,
    /// `--mutants`: per claim, the mutants that refute it.
    #[serde(skip_serializing_if = "Option::is_none")]
    mutants: Option<mutants::Mutants>,
}

/// What a valid variant looks like, for the summary.
#[derive(Debug, Serialize)]
struct Summary {
    name: String,
    /// The file and the files it extends, the file itself first.
    files: Vec<String>,
    board: BoardSummary,
    players: Vec<String>,
    pieces: Vec<PieceSummary>,
    setup: String,
    setup_moves: usize,
    rulings: Vec<RulingSummary>,
}

#[derive(Debug, Serialize)]
struct BoardSummary {
    axes: Vec<AxisSummary>,
    squares: usize,
    holes: usize,
}

#[derive(Debug, Serialize)]
struct AxisSummary {
    name: String,
    labels: Vec<String>,
}

#[derive(Debug, Serialize)]
struct PieceSummary {
    name: String,
    letter: String,
    royal: bool,
}

#[derive(Debug, Serialize)]
struct RulingSummary {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    quote: String,
    reading: String,
    /// What it settles (`rule "group"`, `piece Pawn`, `slide`, …).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    settles: Vec<String>,
    file: String,
}

/// Where the setup that counts is written: the last `setup` of the nearest
/// file in the chain that has one.
fn setup_location(db: &dyn Db, files: &[SourceFile]) -> Option<(String, Span)> {
    files.iter().find_map(|f| {
        let tree = parse(db, *f).as_ref().ok()?;
        tree.items
            .iter()
            .rev()
            .find_map(|i| match i {
                ast::Item::Setup(s) => Some(s.span),
                _ => None,
            })
            .map(|span| (f.name(db), span))
    })
}

/// Checks the setup position beyond what lowering does: it must parse (it
/// does, lowering checked), and a game that is over before it starts is
/// probably a mistake.
pub(crate) fn check_setup(db: &dyn Db, files: &[SourceFile], v: &Variant) -> (Vec<Diagnostic>, usize) {
    let (file, span) = setup_location(db, files).unwrap_or_else(|| {
        (
            files.first().map(|f| f.name(db)).unwrap_or_default(),
            Span::default(),
        )
    });
    let pos = match v.start() {
        Ok(pos) => pos,
        Err(d) => return (vec![d], 0),
    };
    let moves = v.legal_moves(&pos).len();
    let over = match v.status(&pos) {
        Status::Ongoing => None,
        Status::Checkmate(_) => Some(("the setup is checkmate".to_string(), "no legal move for the side to move")),
        Status::Stalemate(_) => Some(("the setup is stalemate".to_string(), "no legal move for the side to move")),
        Status::Rule { rule, .. } => {
            let name = v.game.rules.get(rule).map_or("", |r| r.name.as_str());
            Some((format!("rule \"{name}\" ends the game in the setup"), "the rule's condition holds here"))
        }
        Status::FiftyMoves | Status::Repetition => None,
    };
    let mut diags = match over {
        Some((what, label)) => vec![Diagnostic::error(
            "E0190",
            file.clone(),
            span,
            format!("the game is over before it starts: {what}"),
            label,
        )
        .warning()
        .with_help("check the setup FEN: the side to move and the pieces' placement")],
        None => Vec::new(),
    };
    diags.extend(draws_at_setup(v, &pos, &file));
    (diags, moves)
}

/// `E0191`: the draw rules that already hold in the setup, each at its
/// `end` rule: a move limit whose count the setup's half-move clock has
/// reached, or a repetition count of 1 or less (the setup is the first
/// occurrence of its position). The game would be drawn before any move.
/// (Lowering refuses the counts that hold in every setup, `E0143`; this
/// catches a setup FEN's clock, and a model built without lowering.)
fn draws_at_setup(v: &Variant, pos: &Position, setup_file: &str) -> Vec<Diagnostic> {
    let end = &v.game.end;
    let span_of = |c: EndCondition| end.spans.iter().find(|(x, _)| *x == c).map(|(_, s)| *s).unwrap_or_default();
    let mut out = Vec::new();
    // The conditions as `Variant::status_in_game` applies them, with no
    // earlier position: a clock of at least 2·N, a position seen N times.
    if let Some(n) = end.fifty_move.filter(|&n| u64::from(pos.halfmove) >= 2 * u64::from(n)) {
        out.push(
            Diagnostic::error(
                "E0191",
                end.file.clone(),
                span_of(EndCondition::MoveLimit),
                "this move limit ends the game at the setup",
                format!("a draw when the half-move clock reaches {}", 2 * u64::from(n)),
            )
            .warning()
            .with_detail(format!("the setup's half-move clock (the fifth field of its FEN, in {setup_file}) is {}", pos.halfmove))
            .with_help(format!("set the setup's half-move clock below {}, or raise the limit", 2 * u64::from(n))),
        );
    }
    if let Some(n) = end.repetition.filter(|&n| n <= 1) {
        out.push(
            Diagnostic::error(
                "E0191",
                end.file.clone(),
                span_of(EndCondition::Repetition),
                "this repetition rule ends the game at the setup",
                format!("a draw when a position occurs {n} times"),
            )
            .warning()
            .with_help("the setup is the first occurrence of its position: count at least 2"),
        );
    }
    out
}

/// The summary of `game`.
fn summarize(db: &Database, files: &[SourceFile], game: &Game, setup_moves: usize) -> Summary {
    let geo = &game.geometry;
    let squares = geo.board_cells().count();
    Summary {
        name: game.name.clone(),
        files: files.iter().map(|f| f.name(db)).collect(),
        board: BoardSummary {
            axes: geo
                .axes
                .iter()
                .map(|a| AxisSummary {
                    name: a.name.clone(),
                    labels: a.labels.clone(),
                })
                .collect(),
            squares,
            holes: geo.cells() - squares,
        },
        players: game.players.iter().map(|p| p.name.clone()).collect(),
        pieces: game
            .kinds
            .iter()
            .map(|k| PieceSummary {
                name: k.name.clone(),
                letter: k.written(0),
                royal: k.royal,
            })
            .collect(),
        setup: game.setup.clone(),
        setup_moves,
        rulings: game
            .rulings
            .iter()
            .map(|r| RulingSummary {
                name: r.name.clone(),
                source: r.source.clone(),
                quote: r.quote.clone(),
                reading: r.reading.clone(),
                settles: r.settles.iter().map(|x| x.to_string()).collect(),
                file: r.file.clone(),
            })
            .collect(),
    }
}

/// The summary as text.
fn summary_text(s: &Summary) -> String {
    let mut out = String::new();
    let root = s.files.first().cloned().unwrap_or_default();
    out.push_str(&format!("variant  {}\n", s.name));
    if s.files.len() > 1 {
        out.push_str(&format!("extends  {}\n", s.files[1..].join(" → ")));
    }
    let sizes: Vec<String> = s
        .board
        .axes
        .iter()
        .map(|a| a.labels.len().to_string())
        .collect();
    let axes: Vec<String> = s
        .board
        .axes
        .iter()
        .map(|a| {
            let plural = if a.name.ends_with('s') {
                a.name.clone()
            } else {
                format!("{}s", a.name)
            };
            match (a.labels.first(), a.labels.last()) {
                (Some(first), Some(last)) if a.labels.len() > 1 => {
                    format!("{plural} {first}–{last}")
                }
                (Some(only), _) => format!("{plural} {only}"),
                _ => plural,
            }
        })
        .collect();
    let holes = if s.board.holes > 0 {
        format!(", {} holes", s.board.holes)
    } else {
        String::new()
    };
    out.push_str(&format!(
        "board    {}: {} ({} squares{holes})\n",
        sizes.join("×"),
        axes.join(", "),
        s.board.squares
    ));
    out.push_str(&format!("players  {}\n", s.players.join(", ")));
    let pieces: Vec<String> = s
        .pieces
        .iter()
        .map(|p| {
            if p.royal {
                format!("{} {} (royal)", p.name, p.letter)
            } else {
                format!("{} {}", p.name, p.letter)
            }
        })
        .collect();
    out.push_str(&format!(
        "pieces   {}: {}\n",
        s.pieces.len(),
        pieces.join(", ")
    ));
    out.push_str(&format!(
        "setup    {} ({})\n",
        s.setup,
        report::plural(s.setup_moves, "legal move")
    ));
    out.push_str(&format!("rulings  {}\n", s.rulings.len()));
    for r in &s.rulings {
        let mut head = format!("  {}", r.name);
        if let Some(source) = &r.source {
            head.push_str(&format!(" ({source})"));
        }
        if r.file != root {
            head.push_str(&format!(" [from {}]", r.file));
        }
        out.push_str(&format!(
            "{head}\n    quote:   \"{}\"\n    reading: {}\n",
            r.quote, r.reading
        ));
        if !r.settles.is_empty() {
            out.push_str(&format!("    settles: {}\n", r.settles.join(", ")));
        }
    }
    out
}

/// The report's first line: what was found, in the counts of the `--json`
/// output (errors, warnings, the claims by verdict, whether the time budget
/// ran out). "no problems found" only when there is nothing to report.
fn verdict_line(name: &str, errors: usize, warnings: usize, notes: usize, verified: Option<&rulebook_checker::Report>) -> String {
    use rulebook_checker::Verdict;
    let count = |n: usize, what: &str| if n == 0 { format!("no {what}s") } else { report::plural(n, what) };
    let claims = verified.map(|r| r.claims.as_slice()).unwrap_or_default();
    let with = |v: Verdict| claims.iter().filter(|c| c.verdict == v).count();
    let spent = verified.is_some_and(|r| r.stats.budget_spent);
    let clean = errors == 0 && warnings == 0 && with(Verdict::Unknown) == 0 && !spent;
    let mut line = if clean {
        format!("{name}: no problems found")
    } else {
        format!("{name}: {}, {}", count(errors, "error"), count(warnings, "warning"))
    };
    if notes > 0 {
        line.push_str(&format!(", {} settled by rulings", report::plural(notes, "finding")));
    }
    if !claims.is_empty() {
        let depth = verified.map_or(0, |r| r.stats.depth);
        let parts: Vec<String> = [
            (with(Verdict::Proved), "proved".to_string()),
            (with(Verdict::HoldsToDepth), format!("holding to depth {depth}")),
            (with(Verdict::Refuted), "refuted".to_string()),
            (with(Verdict::Unknown), "unknown".to_string()),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        line.push_str(&format!("; {}: {}", report::plural(claims.len(), "claim"), parts.join(", ")));
    }
    if let Some(r) = verified.filter(|r| r.stats.budget_spent) {
        line.push_str(&format!("; time budget spent ({} s): not everything was decided", r.stats.budget_seconds));
    }
    line.push('\n');
    line
}

/// The verifier's report in the `--json` output.
#[derive(Debug, Serialize)]
struct VerifierJson {
    claims: Vec<rulebook_checker::ClaimResult>,
    facts: Vec<String>,
    /// Constructs the Z3 encoding does not cover yet (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    uncovered: Vec<String>,
    stats: rulebook_checker::Stats,
}

/// Runs the verifier on `v`, with a spinner on a terminal.
fn verify(v: &Variant, args: &CheckArgs) -> rulebook_checker::Report {
    let options = rulebook_checker::Options {
        query_timeout: Duration::from_secs(args.timeout),
        total_timeout: Duration::from_secs(args.timeout * 6),
        depth: args.depth,
        win_depth: args.depth.max(6),
        claim: args.claim.clone(),
        rulings: !args.without_rulings,
        ..rulebook_checker::Options::default()
    };
    let spinner = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    } else {
        ProgressBar::hidden()
    };
    // RULEBOOK_TIMINGS=1 prints when each stage starts (for tuning).
    let timings = std::env::var_os("RULEBOOK_TIMINGS").is_some();
    let start = std::time::Instant::now();
    let report = rulebook_checker::check(v, &options, &mut |stage| {
        if timings {
            eprintln!("{:>8.2} s  {stage}", start.elapsed().as_secs_f64());
        }
        spinner.set_message(stage.to_string())
    });
    spinner.finish_and_clear();
    report
}

/// The verifier's report as text: one line per claim, then the facts.
fn verifier_text(report: &rulebook_checker::Report) -> String {
    let mut out = String::new();
    if !report.claims.is_empty() {
        out.push_str("claims\n");
        let width = report.claims.iter().map(|c| c.name.len()).max().unwrap_or(0);
        for c in &report.claims {
            out.push_str(&format!("  {:<width$}  {}\n", c.name, c.verdict.label(c.depth)));
            out.push_str(&format!("  {:<width$}  says: {}\n", "", c.says));
            out.push_str(&format!("  {:<width$}  {}\n", "", c.detail));
        }
    }
    if !report.facts.is_empty() {
        out.push_str("well-formed\n");
        for f in &report.facts {
            out.push_str(&format!("  {f}\n"));
        }
    }
    if !report.uncovered.is_empty() {
        out.push_str("not encoded in Z3 yet\n");
        for u in &report.uncovered {
            out.push_str(&format!("  {u}\n"));
        }
    }
    let s = &report.stats;
    let mut searched = format!("searched {} positions ({} plies for claims, {} for wins)", s.positions, s.depth, s.win_depth);
    if let Some(why) = &s.stopped {
        searched.push_str(&format!(", stopped early: {why}"));
    }
    out.push_str(&format!("verifier {searched}; {} Z3 queries", s.queries));
    if s.budget_spent {
        out.push_str(&format!("; time budget spent ({} s, six times --timeout)", s.budget_seconds));
    }
    out.push('\n');
    out
}

/// Runs `rulebook check`.
pub fn run(args: &CheckArgs, cx: Context) -> Result<u8, Failure> {
    let db = Database::default();
    let file = open(&db, &args.rules)?;
    if let Some(name) = &args.claim {
        if let Ok(game) = compile(&db, file) {
            if !game.claims.iter().any(|c| &c.name == name) {
                let known: Vec<&str> = game.claims.iter().map(|c| c.name.as_str()).collect();
                let list = if known.is_empty() { "it has none".to_string() } else { format!("it has: {}", known.join(", ")) };
                return Err(Failure::usage(format!("`{}` has no claim `{name}` ({list})", args.rules.display())));
            }
        }
    }
    if let Some(dir) = args.mutants.as_ref().filter(|d| !d.is_dir()) {
        return Err(Failure::usage(format!("--mutants: `{}` is not a folder", dir.display())));
    }
    let (mut diags, summary, verified, mutated) = match compile(&db, file) {
        Ok(game) => {
            let files = chain(&db, file);
            let v = Variant::new(game.clone());
            let (mut diags, moves) = check_setup(&db, &files, &v);
            let ok = report::error_count(&diags) == 0;
            let summary = ok.then(|| summarize(&db, &files, game, moves));
            let verified = (ok && !args.quick).then(|| verify(&v, args));
            if let Some(r) = &verified {
                diags.extend(r.diagnostics.iter().cloned());
            }
            let mutated = match &args.mutants {
                Some(dir) if ok => Some(mutants::run(&db, file, game, dir, |m| verify(m, args))),
                _ => None,
            };
            if let Some(m) = &mutated {
                diags.extend(m.diagnostics(game));
            }
            (diags, summary, verified, mutated)
        }
        Err(diags) => (diags.clone(), None, None, None),
    };
    diags.sort_by(|a, b| (&a.file, a.span.start).cmp(&(&b.file, b.span.start)));
    let errors = report::error_count(&diags);
    let notes = diags.iter().filter(|d| d.severity == rulebook_grammar::Severity::Note).count();
    let warnings = diags.len() - errors - notes;
    let code = if errors > 0 || verified.as_ref().is_some_and(|r| r.failed()) { EXIT_FAILED } else { 0 };
    let name = args.rules.display().to_string();
    if args.json {
        let diagnostics = diags
            .iter()
            .map(|d| JsonDiagnostic::new(d, db.source_text(&d.file).as_deref()))
            .collect();
        emit_json(&CheckJson {
            file: name,
            ok: code == 0,
            errors,
            warnings,
            settled: notes,
            diagnostics,
            variant: summary,
            verifier: verified.map(|r| VerifierJson { claims: r.claims, facts: r.facts, uncovered: r.uncovered, stats: r.stats }),
            mutants: mutated,
        })?;
        return Ok(code);
    }
    // The summary first, opened by what was found, then the diagnostics
    // (which end with the counts when there are errors).
    let written = match &summary {
        Some(summary) => {
            let mut text = verdict_line(&name, errors, warnings, notes, verified.as_ref());
            text.push_str(&summary_text(summary));
            if let Some(r) = &verified {
                text.push_str(&verifier_text(r));
            }
            if let Some(m) = &mutated {
                text.push_str(&m.text());
            }
            emit(&text)
        }
        None => Ok(()),
    };
    if !diags.is_empty() {
        let mut text = report::render(&diags, |n| db.source_text(n), cx.color);
        if errors > 0 {
            let mut counts = report::plural(errors, "error");
            if warnings > 0 {
                counts.push_str(&format!(" and {}", report::plural(warnings, "warning")));
            }
            text.push_str(&format!("error: `{name}`: {counts} found\n"));
        }
        eprint!("{text}");
    }
    written?;
    Ok(code)
}
