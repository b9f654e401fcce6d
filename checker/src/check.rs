//! `check`: runs every analysis on a variant and gathers one [`Report`].
//!
//! Order: the explicit exploration first (bounded model checking of claims,
//! reachable wins, positions the end rules say nothing about), then Z3:
//! claims by induction, consistency (rules that never fire), ambiguities
//! with witnesses, and the well-formedness facts.

use crate::diagram::diagram;
use crate::explore::{explore, Exploration, Limits};
use crate::prove::{Answer, Induction, Prover, Witness};
use rulebook_grammar::ast::Span;
use rulebook_grammar::Diagnostic;
use rulebook_interpreter::geometry::Cell;
use rulebook_interpreter::model::{Claim, EndCondition, Outcome, Property, StepKind};
use rulebook_interpreter::position::code;
use rulebook_interpreter::Variant;
use serde::Serialize;
use std::time::{Duration, Instant};
use z3::ast::{Bool, Int};

/// What to check and within which limits.
#[derive(Clone, Debug)]
pub struct Options {
    /// Per solver query.
    pub query_timeout: Duration,
    /// For the whole check.
    pub total_timeout: Duration,
    /// Plies of bounded model checking from the setup.
    pub depth: u32,
    /// Plies of the search for a reachable win.
    pub win_depth: u32,
    /// Most positions the exploration visits.
    pub max_nodes: u64,
    /// Only this claim (by name); the other analyses still run.
    pub claim: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            query_timeout: Duration::from_secs(20),
            total_timeout: Duration::from_secs(120),
            depth: 4,
            win_depth: 6,
            max_nodes: 3_000_000,
            claim: None,
        }
    }
}

/// The verdict on one claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Verdict {
    /// Holds in the setup and is preserved by every legal move (induction).
    Proved,
    /// Holds in every position up to the depth reached from the setup; not proved beyond.
    HoldsToDepth,
    /// A counterexample exists.
    Refuted,
    /// Nothing could be established within the limits.
    Unknown,
}

impl Verdict {
    /// The verdict as the report prints it.
    pub fn label(&self, depth: u32) -> String {
        match self {
            Verdict::Proved => "PROVED".into(),
            Verdict::HoldsToDepth => format!("HOLDS TO DEPTH {depth}"),
            Verdict::Refuted => "REFUTED".into(),
            Verdict::Unknown => "UNKNOWN".into(),
        }
    }
}

/// A counterexample: a line of moves from the setup, the position it reaches, and the offending move.
#[derive(Clone, Debug, Serialize)]
pub struct Counterexample {
    /// Moves from the setup (coordinate notation; replay with `rulebook moves --play`).
    pub line: Vec<String>,
    /// The position where the claim fails (before `mv` for a move claim).
    pub fen: String,
    /// The move that breaks a move claim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
}

/// What `check` says about one claim.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimResult {
    /// The claim's name.
    pub name: String,
    /// The file it is written in.
    pub file: String,
    /// Where.
    #[serde(skip)]
    pub span: Span,
    /// The verdict.
    pub verdict: Verdict,
    /// Plies from the setup checked exhaustively.
    pub depth: u32,
    /// How the verdict was reached, or why not more.
    pub detail: String,
    /// For a refuted claim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<Counterexample>,
}

/// Counts of the work done.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// Positions visited by the exploration.
    pub positions: u64,
    /// Plies of the exploration completed for claims.
    pub depth: u32,
    /// Plies of the win search completed.
    pub win_depth: u32,
    /// Why the exploration stopped early, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// Z3 queries made.
    pub queries: u32,
    /// Wall-clock time of the whole check.
    pub seconds: f64,
}

/// Everything `check` found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The variant's name.
    pub variant: String,
    /// Per claim (all, or the one asked for).
    pub claims: Vec<ClaimResult>,
    /// Problems found: refuted claims (errors), ambiguities, dead rules and
    /// well-formedness gaps (warnings), each with spans and witnesses.
    pub diagnostics: Vec<Diagnostic>,
    /// Well-formedness facts established (one line each).
    pub facts: Vec<String>,
    /// Counts.
    pub stats: Stats,
}

impl Report {
    /// Some claim is refuted or some diagnostic is an error.
    pub fn failed(&self) -> bool {
        self.claims.iter().any(|c| c.verdict == Verdict::Refuted)
            || self.diagnostics.iter().any(|d| d.severity == rulebook_grammar::Severity::Error)
    }
}

/// Checks `v` (whose rules are in the files its model names) within `opts`.
/// `progress` receives a line before each stage.
pub fn check(v: &Variant, opts: &Options, progress: &mut dyn FnMut(&str)) -> Report {
    let started = Instant::now();
    let deadline = started + opts.total_timeout;
    let game = &v.game;
    let claims: Vec<Claim> =
        game.claims.iter().filter(|c| opts.claim.as_ref().is_none_or(|n| &c.name == n)).cloned().collect();

    progress("exploring the game tree from the setup");
    let limits = Limits {
        depth: opts.depth,
        win_depth: opts.win_depth.max(opts.depth),
        max_nodes: opts.max_nodes,
        deadline: started + opts.total_timeout / 3,
    };
    let found = explore(v, &claims, &limits);

    progress("building the Z3 encoding");
    let mut prover = Prover::new(v, opts.query_timeout.as_millis().min(u32::MAX as u128) as u32, deadline);
    let mut diagnostics = Vec::new();

    progress("proving claims");
    let (results, lemmas) = claims_verdicts(v, &claims, &found, &mut prover, &mut diagnostics);

    progress("looking for rules that never apply");
    dead_rules(v, &mut prover, &lemmas, &mut diagnostics);

    progress("looking for ambiguities");
    ambiguities(v, &mut prover, &lemmas, &found, &mut diagnostics);

    progress("checking well-formedness");
    let facts = well_formedness(v, &found, opts, &mut diagnostics);

    Report {
        variant: game.name.clone(),
        claims: results,
        diagnostics,
        facts,
        stats: Stats {
            positions: found.nodes,
            depth: found.depth_done,
            win_depth: found.win_depth_done,
            stopped: found.stopped.clone(),
            queries: prover.queries,
            seconds: started.elapsed().as_secs_f64(),
        },
    }
}

/// Built-in position facts that hold in every reachable position of any
/// variant and help induction: no royal piece is ever in hand (a royal piece
/// is never captured, since the side to move is never able to take it).
fn builtin_lemmas(v: &Variant) -> Vec<Property> {
    let _ = v;
    Vec::new()
}

fn claims_verdicts(
    v: &Variant,
    claims: &[Claim],
    found: &Exploration,
    prover: &mut Prover,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<ClaimResult>, Vec<Property>) {
    // Position claims not refuted by the exploration are the induction candidates.
    let candidates: Vec<usize> = (0..claims.len())
        .filter(|&i| !claims[i].property.is_move_property() && found.violations.get(i).is_none_or(|x| x.is_none()))
        .collect();
    let mut properties: Vec<Property> = candidates.iter().map(|&i| claims[i].property.clone()).collect();
    properties.extend(builtin_lemmas(v));
    let verdicts = prover.induction(&properties);
    let lemmas: Vec<Property> =
        properties.iter().zip(&verdicts).filter(|(_, v)| matches!(v, Induction::Proved)).map(|(p, _)| p.clone()).collect();

    let mut results = Vec::new();
    for (i, claim) in claims.iter().enumerate() {
        let mut result = ClaimResult {
            name: claim.name.clone(),
            file: claim.file.clone(),
            span: claim.span,
            verdict: Verdict::Unknown,
            depth: found.depth_done,
            detail: String::new(),
            counterexample: None,
        };
        if let Some(Some(violation)) = found.violations.get(i) {
            result.verdict = Verdict::Refuted;
            result.depth = violation.line.moves.len() as u32;
            result.detail = match &violation.mv_text {
                Some(m) => format!("the move {m} after {} breaks it", line_text(&violation.line.text)),
                None => format!("it fails after {}", line_text(&violation.line.text)),
            };
            result.counterexample = Some(Counterexample {
                line: violation.line.text.clone(),
                fen: violation.line.fen.clone(),
                mv: violation.mv_text.clone(),
            });
            diagnostics.push(refuted(v, claim, &result));
            results.push(result);
            continue;
        }
        let induction = if claim.property.is_move_property() {
            prover.move_property(&claim.property, &lemmas)
        } else {
            let at = candidates.iter().position(|&c| c == i).unwrap_or(usize::MAX);
            verdicts.get(at).cloned().unwrap_or(Induction::Unknown("not a candidate".into()))
        };
        let bounded = format!("no counterexample in the {} plies from the setup", found.depth_done);
        match induction {
            Induction::Proved => {
                result.verdict = Verdict::Proved;
                result.detail = if claim.property.is_move_property() {
                    "no legal move from any position breaks it (Z3: unsatisfiable for both sides)".into()
                } else {
                    "holds in the setup; every legal move preserves it (Z3: the induction step is unsatisfiable)".into()
                };
            }
            Induction::NotInductive(w) => {
                result.verdict = if found.depth_done > 0 { Verdict::HoldsToDepth } else { Verdict::Unknown };
                result.detail = format!(
                    "{bounded}; not proved: induction fails from {} with {} (this position may be unreachable)",
                    w.fen, w.mv_text
                );
            }
            Induction::Unknown(why) => {
                result.verdict = if found.depth_done > 0 { Verdict::HoldsToDepth } else { Verdict::Unknown };
                result.detail = format!("{bounded}; induction undecided: {why}");
            }
        }
        results.push(result);
    }
    (results, lemmas)
}

fn line_text(line: &[String]) -> String {
    if line.is_empty() {
        "the setup".into()
    } else {
        line.join(" ")
    }
}

fn refuted(v: &Variant, claim: &Claim, result: &ClaimResult) -> Diagnostic {
    let mut d = Diagnostic::error("C0201", &claim.file, claim.span, format!("claim `{}` is false", claim.name), "refuted")
        .with_help("correct the rules or the claim; replay the counterexample with `rulebook moves RULES --play \"…\"`");
    if let Some(cx) = &result.counterexample {
        let play = if cx.line.is_empty() { "(the setup itself)".to_string() } else { cx.line.join(" ") };
        d = d.with_detail(format!("counterexample from the setup: {play}"));
        if let Some(m) = &cx.mv {
            d = d.with_detail(format!("the move {m} in {}", cx.fen));
        } else {
            d = d.with_detail(format!("position: {}", cx.fen));
        }
        if let Ok(pos) = v.parse_fen(&cx.fen, "<counterexample>") {
            d = d.with_detail(diagram(v, &pos));
        }
    }
    d
}

/// A witness as report text: FEN, move, diagram.
fn witness_details(v: &Variant, d: Diagnostic, w: &Witness) -> Diagnostic {
    d.with_detail(format!("witness: {}", w.fen)).with_detail(format!("move: {}", w.mv_text)).with_detail(diagram(v, &w.position))
}

/// Parts, pieces, promotion rules and castling sides that no position allows.
fn dead_rules(v: &Variant, prover: &mut Prover, lemmas: &[Property], diagnostics: &mut Vec<Diagnostic>) {
    let game = v.game.clone();
    for (k, kind) in game.kinds.iter().enumerate() {
        let mut alive_parts = 0;
        for (pi, part) in kind.parts.iter().enumerate() {
            let mut alive = false;
            for side in 0..2u8 {
                let answer = prover.exists(side, lemmas, |enc, _, step| {
                    let ts = &enc.templates.by_player[side as usize];
                    let uses: Vec<Bool> = ts
                        .iter()
                        .filter(|t| t.kind as usize == k && t.part == pi)
                        .map(|t| Bool::and(&[step.key[1].eq(Int::from_i64(t.from as i64)), step.key[2].eq(Int::from_i64(t.to as i64))]))
                        .collect();
                    Bool::and(&[Bool::or(&uses), step.key[0].le(Int::from_i64(1)), step.mover.eq(Int::from_i64(k as i64))])
                });
                match answer {
                    Answer::Unsat => {}
                    _ => {
                        alive = true;
                        break;
                    }
                }
            }
            if alive {
                alive_parts += 1;
            } else {
                let how = match part.kind {
                    StepKind::Leap => "leap",
                    StepKind::Ride => "ride",
                    StepKind::Hop => "hop",
                };
                diagnostics.push(
                    Diagnostic::error("C0220", &kind.file, part.span, format!("this {how} of {} never moves the piece", kind.name), "never applies")
                        .warning()
                        .with_help("no legal position lets this part move (check its directions, `from` zone and the board's size); delete it or correct it"),
                );
            }
        }
        if alive_parts == 0 && !kind.parts.is_empty() {
            diagnostics.push(
                Diagnostic::error("C0221", &kind.file, kind.span, format!("{} can never move", kind.name), "no legal move from any square")
                    .warning()
                    .with_help("give the piece a part that can move on this board"),
            );
        }
    }
    for rule in &game.promotions {
        if rule.zone.iter().all(|z| z.is_empty()) {
            diagnostics.push(
                Diagnostic::error("C0222", &rule.file, rule.span, "this promotion zone holds no square", "empty zone")
                    .warning()
                    .with_help("name squares of this board in the zone"),
            );
            continue;
        }
        let mut alive = false;
        for side in 0..2u8 {
            let zone: Vec<Cell> = rule.zone[side as usize].clone();
            let answer = prover.exists(side, lemmas, |_, _, step| {
                let lands: Vec<Bool> = zone.iter().map(|&c| step.key[2].eq(Int::from_i64(c as i64))).collect();
                Bool::and(&[Bool::or(&lands), step.key[0].le(Int::from_i64(1)), step.key[3].ge(Int::from_i64(0)), step.mover.eq(Int::from_i64(rule.kind as i64))])
            });
            if !matches!(answer, Answer::Unsat) {
                alive = true;
                break;
            }
        }
        if !alive {
            diagnostics.push(
                Diagnostic::error("C0222", &rule.file, rule.span, format!("no {} ever promotes by this rule", game.kinds[rule.kind as usize].name), "never applies")
                    .warning()
                    .with_help("no legal move brings the piece into this zone (or a later rule takes over the whole zone); move the zone to where the piece arrives"),
            );
        }
    }
}

/// Rules that can both apply to one situation with different results.
fn ambiguities(v: &Variant, prover: &mut Prover, lemmas: &[Property], found: &Exploration, diagnostics: &mut Vec<Diagnostic>) {
    let game = v.game.clone();
    // Two promotion rules for one kind whose zones overlap: the later decides silently.
    for (i, a) in game.promotions.iter().enumerate() {
        for b in &game.promotions[i + 1..] {
            if a.kind != b.kind || a.file != b.file {
                continue;
            }
            let mut targets_a = a.targets.clone();
            let mut targets_b = b.targets.clone();
            targets_a.sort();
            targets_b.sort();
            for side in 0..2u8 {
                let both: Vec<Cell> = a.zone[side as usize].iter().copied().filter(|c| b.zone[side as usize].contains(c)).collect();
                if both.is_empty() || targets_a == targets_b {
                    continue;
                }
                let answer = prover.witness(side, lemmas, |_, _, step| {
                    let lands: Vec<Bool> = both.iter().map(|&c| step.key[2].eq(Int::from_i64(c as i64))).collect();
                    Bool::and(&[Bool::or(&lands), step.key[0].le(Int::from_i64(1)), step.mover.eq(Int::from_i64(a.kind as i64))])
                });
                let names = |ts: &[u8]| ts.iter().map(|&t| game.kinds[t as usize].name.clone()).collect::<Vec<_>>().join(", ");
                let kind = &game.kinds[a.kind as usize].name;
                let d = Diagnostic::error("C0210", &b.file, b.span, format!("two promotion rules apply to one {kind} move"), format!("promotes to {}", names(&b.targets)))
                    .warning()
                    .with_note(a.span, format!("promotes to {}", names(&a.targets)))
                    .with_help("make the zones disjoint, or merge the rules into one with all the targets; today the later rule decides");
                match answer {
                    Answer::Sat(w) => diagnostics.push(witness_details(v, d, &w)),
                    Answer::Unknown(why) => diagnostics.push(d.with_detail(format!("no witness position found within the limits ({why})"))),
                    Answer::Unsat => {}
                }
                break;
            }
        }
    }
    // A castling side written twice.
    if let Some(rule) = &game.castling {
        for (i, a) in rule.sides.iter().enumerate() {
            for (j, b) in rule.sides.iter().enumerate().skip(i + 1) {
                if a.short != b.short {
                    continue;
                }
                let side_name = if a.short { "short" } else { "long" };
                if a.king_to == b.king_to && a.rook_to == b.rook_to {
                    diagnostics.push(
                        Diagnostic::error("C0212", &rule.file, b.span, format!("castling `{side_name}` is written twice"), "the same again")
                            .warning()
                            .with_note(a.span, "first written here")
                            .with_help("delete one of the two lines"),
                    );
                    continue;
                }
                let answer = prover.witness(0, lemmas, |enc, s, step| {
                    let _ = (enc, s);
                    step.key[0].eq(Int::from_i64(3 + i as i64))
                });
                let d = Diagnostic::error("C0211", &rule.file, b.span, format!("castling `{side_name}` is defined twice, with different results"), "second definition")
                    .warning()
                    .with_note(a.span, "first definition")
                    .with_help("keep one definition, or give the second its own side; as written both castlings are offered with one right");
                match answer {
                    Answer::Sat(w) => {
                        let other = w.position.clone();
                        let both = v.legal_moves(&other).iter().filter(|m| m.kind == rulebook_interpreter::position::MoveKind::Castle && (m.side as usize == i || m.side as usize == j)).count();
                        let d = d.with_detail(format!("in the witness the interpreter offers {both} castling moves for this one right"));
                        diagnostics.push(witness_details(v, d, &w));
                    }
                    Answer::Unknown(why) => diagnostics.push(d.with_detail(format!("no witness position found within the limits ({why})"))),
                    Answer::Unsat => diagnostics.push(d.with_detail("neither castling can ever be played, so the conflict never shows")),
                }
            }
        }
    }
    // A win or loss and the move-limit draw at once, with no priority between them.
    let end = &game.end;
    if end.fifty_move.is_some() {
        for (cond, outcome) in [(EndCondition::Checkmate, end.checkmate), (EndCondition::Stalemate, end.stalemate)] {
            let Some(outcome) = outcome else { continue };
            if outcome == Outcome::Draw || end.outranks(cond, EndCondition::MoveLimit) || end.outranks(EndCondition::MoveLimit, cond) {
                continue;
            }
            let span_of = |c: EndCondition| end.spans.iter().find(|(x, _)| *x == c).map(|(_, s)| *s).unwrap_or(Span::new(0, 0));
            let word = if cond == EndCondition::Checkmate { "checkmate" } else { "stalemate" };
            let mut d = Diagnostic::error("C0213", &end.file, span_of(cond), format!("{word} and the move-limit draw can happen at once"), format!("{word}: {}", outcome_word(outcome)))
                .warning()
                .with_note(span_of(EndCondition::MoveLimit), "draw")
                .with_help(format!("say which decides, e.g. `priority {word} over move-limit`"));
            let win = if cond == EndCondition::Checkmate { found.quiet_wins.iter().flatten().next() } else { None };
            if let (Some(line), Some(limit)) = (win, end.fifty_move) {
                if let Some((last, before)) = line.text.split_last() {
                    d = d.with_detail(format!(
                        "witness: after {} the move {last} ends the game by {word}; had the {} half-moves before it been played without capture or {} move, it would also complete the move limit",
                        if before.is_empty() { "the setup".to_string() } else { before.join(" ") },
                        2 * limit - 1,
                        end.fifty_move_piece.map(|k| game.kinds[k as usize].name.clone()).unwrap_or_default(),
                    ));
                    d = d.with_detail(format!("position after it: {}", line.fen));
                }
            }
            diagnostics.push(d);
        }
    }
}

fn outcome_word(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Lose => "lose",
        Outcome::Draw => "draw",
    }
}

/// Playability, termination, and that each side can win.
fn well_formedness(v: &Variant, found: &Exploration, opts: &Options, diagnostics: &mut Vec<Diagnostic>) -> Vec<String> {
    let game = &v.game;
    let end = &game.end;
    let mut facts = Vec::new();
    let span_of = |c: EndCondition| end.spans.iter().find(|(x, _)| *x == c).map(|(_, s)| *s).unwrap_or(Span::new(0, 0));
    // Playability.
    match (end.checkmate, end.stalemate) {
        (Some(_), Some(_)) => facts.push("playable: every position without a legal move is decided (checkmate and stalemate rules)".into()),
        _ => {
            let missing = if end.checkmate.is_none() { "checkmate" } else { "stalemate" };
            let mut d = Diagnostic::error("C0230", if end.file.is_empty() { "" } else { &end.file }, Span::new(0, 0), format!("the rules do not say what {missing} means"), "here")
                .warning()
                .with_help(format!("add `{missing}: lose` (or win, or draw) to the end block; today the interpreter assumes a default"));
            if let Some((line, _)) = &found.undeclared_end {
                d = d.with_detail(format!("reached after {}: {}", line_text(&line.text), line.fen));
            }
            diagnostics.push(d);
        }
    }
    // Termination.
    let progressive = end.fifty_move_piece.is_some_and(|k| {
        let kind = &game.kinds[k as usize];
        let forward = game.players[0].forward();
        let no_drops = game.hand.as_ref().is_none_or(|h| h.drop_cells.get(k as usize).is_none_or(|c| c.is_none()));
        no_drops
            && forward.is_some_and(|(axis, _)| {
                kind.parts.iter().all(|p| (0..2).all(|pl| p.vectors[pl].iter().all(|v| v[axis] * game.players[pl].forward().map_or(0, |f| f.1 as i32) > 0)))
            })
    });
    let captures_return = game.hand.as_ref().is_some_and(|h| h.capture_to_hand);
    if let Some(n) = end.repetition {
        facts.push(format!("terminates: a position can occur at most {n} times and there are finitely many (draw on repetition {n})"));
    } else if end.fifty_move.is_some() && !captures_return && progressive {
        facts.push("terminates: the move limit is reset only by captures and forward moves, and both are finite".into());
    } else {
        diagnostics.push(
            Diagnostic::error("C0231", &end.file, span_of(EndCondition::MoveLimit), "a game can go on forever", "no rule bounds the game")
                .warning()
                .with_help("add `draw on repetition 3`, or a move limit reset only by irreversible moves"),
        );
    }
    // Each side can win.
    for (p, player) in game.players.iter().enumerate() {
        match &found.wins[p] {
            Some(line) => facts.push(format!("{} can win: {} ({} plies)", player.name, line.text.join(" "), line.text.len())),
            None => {
                let mut d = Diagnostic::error("C0232", &end.file, span_of(EndCondition::Checkmate), format!("no win for {} found", player.name), "searched here")
                    .warning()
                    .with_help(format!("searched {} plies from the setup; raise --depth, or check that {} can ever win", found.win_depth_done.max(opts.depth), player.name));
                if let Some(why) = &found.stopped {
                    d = d.with_detail(format!("the search stopped early: {why}"));
                }
                diagnostics.push(d);
            }
        }
    }
    let _ = code;
    facts
}
