//! `check`: runs every analysis on a variant and gathers one [`Report`].
//!
//! Order: the explicit exploration first (bounded model checking of claims,
//! reachable wins, positions the end rules say nothing about), then Z3:
//! claims by induction, consistency (rules that never fire), ambiguities
//! with witnesses, and the well-formedness facts.
//!
//! Spread pieces and tunnelling (`spread`, `tunnel`) are not in the Z3 move
//! encoding: for such a variant the encoding covers the conventional moves
//! of positions without spread pieces, the report says so (C0240), claims
//! proved only over those moves are reported as holding to the search's
//! depth, and the spread claims are decided on the spread layer
//! ([`crate::spread_layer`]).

use crate::diagram::diagram;
use crate::explore::{explore, Exploration, Limits};
use crate::flow_walk::{walk, WalkLimits};
use crate::live::PromotionSought;
use crate::encode::{Encoder, State};
use crate::prove::{Answer, Induction, Lemma, Prover, Witness, BUDGET_SPENT};
use crate::spread_layer::{is_spread_property, LayerVerdict, SpreadLayer};
use rulebook_grammar::ast::Span;
use rulebook_grammar::Diagnostic;
use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::model::{Claim, EndCondition, KindId, Outcome, Property, StepKind};
use rulebook_interpreter::text::notation::coordinate;
use rulebook_interpreter::engine::position::{code, Move, MoveKind, NO_CELL, PROMOTED};
use rulebook_interpreter::{Position, Variant};
use serde::Serialize;
use std::time::{Duration, Instant};
use z3::ast::{Bool, Int};

/// What to check and within which limits.
#[derive(Clone, Debug)]
pub struct Options {
    /// Per solver query (at most the time left of `total_timeout`).
    pub query_timeout: Duration,
    /// For the whole check: a deadline that every solver query and the
    /// search respect; what is not decided by then is reported as such.
    pub total_timeout: Duration,
    /// Plies of bounded model checking from the setup.
    pub depth: u32,
    /// Plies of the search for a reachable win.
    pub win_depth: u32,
    /// Most positions the exploration visits.
    pub max_nodes: u64,
    /// Only this claim (by name); the other analyses still run.
    pub claim: Option<String>,
    /// Show each finding a ruling settles as a note with the ruling
    /// (`false`: every finding stays open, as the rulebook alone leaves it).
    pub rulings: bool,
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
            rulings: true,
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

/// A counterexample: a line of moves from the setup, the position it
/// reaches, and the offending move; or a line of abstract actions of the
/// spread layer.
#[derive(Clone, Debug, Serialize)]
pub struct Counterexample {
    /// Moves from the setup (coordinate notation; replay with `rulebook
    /// moves --play`), or, on the spread layer, its actions as sentences.
    pub line: Vec<String>,
    /// The position where the claim fails (before `mv` for a move claim);
    /// empty on the spread layer, which abstracts positions.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub fen: String,
    /// The move that breaks a move claim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    /// The line is one of abstract actions on the spread layer, not played
    /// on a board.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub spread_layer: bool,
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
    /// What its formula says, in words ([`Property::in_words`]): a reader
    /// compares it with the name.
    pub says: String,
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
    /// The whole check's time budget ran out: some questions were not
    /// asked (claims "not decided: time budget spent").
    pub budget_spent: bool,
    /// The whole check's time budget, in seconds.
    pub budget_seconds: f64,
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
    /// Constructs of the rules that the Z3 encoding does not cover yet, by
    /// name (one line each): proofs treat them as absent, searches run them
    /// in the interpreter.
    pub uncovered: Vec<String>,
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
    // A budget too large for the clock means no limit in practice.
    let deadline = started.checked_add(opts.total_timeout).unwrap_or_else(|| started + Duration::from_secs(1 << 32));
    let game = &v.game;
    let claims: Vec<Claim> =
        game.claims.iter().filter(|c| opts.claim.as_ref().is_none_or(|n| &c.name == n)).cloned().collect();

    progress("exploring the game tree from the setup");
    let limits = Limits {
        depth: opts.depth,
        win_depth: opts.win_depth.max(opts.depth),
        // With phases or obligations the walk by decisions below does the
        // deep work; the search of moves gets a small budget.
        max_nodes: if flows(v) { opts.max_nodes.min(FLOW_SEARCH_NODES) } else { opts.max_nodes },
        deadline: started.checked_add(opts.total_timeout / 3).unwrap_or(deadline),
        // Variants whose moves the Z3 encoding leaves out have slow move
        // generation (legality tried over every outcome), and games with
        // phases or obligations slow decisions (and the walk below plays
        // them): an iteration that cannot finish would take minutes and add
        // nothing.
        skip_hopeless: beyond_encoding(v) || flows(v),
    };
    let mut found = explore(v, &claims, &limits);

    // Games with phases or obligations: a walk by decisions (the search
    // above plays moves, and a line stops where a rule obliges).
    let walked = flows(v).then(|| {
        progress("walking the game by decisions");
        let now = Instant::now();
        let walk_limits = WalkLimits {
            exhaustive: 3,
            line_length: 300,
            lines: 40,
            max_nodes: 200_000,
            deadline: now.checked_add(opts.total_timeout / 3).unwrap_or(deadline).min(deadline),
            seed: WALK_SEED,
        };
        walk(v, &claims, &walk_limits)
    });
    if let Some(w) = &walked {
        // A claim the walk broke is refuted, with its line of decisions.
        for (i, broken) in w.broken.iter().enumerate() {
            if let (Some(None), Some(b)) = (found.violations.get(i), broken) {
                found.violations[i] = Some(crate::explore::Violation { line: b.witness.line(), mv: None, mv_text: b.mv.clone() });
            }
        }
        // A win the walk found counts as one the search found.
        for (p, win) in w.wins.iter().enumerate() {
            if let (None, Some(line)) = (&found.wins[p], win) {
                found.wins[p] = Some(line.line());
            }
        }
    }

    progress("building the Z3 encoding");
    let timeout_ms = opts.query_timeout.as_millis().min(u32::MAX as u128) as u32;
    let mut prover = Prover::new(v, timeout_ms, deadline);
    let mut diagnostics = Vec::new();
    if let Some(d) = encoding_scope(v) {
        diagnostics.push(d);
    }

    progress("proving claims");
    let mut layer_queries = 0;
    let (results, lemmas) = claims_verdicts(v, &claims, &found, &mut prover, &mut diagnostics, (timeout_ms, deadline, &mut layer_queries));

    progress("looking for rules that never apply");
    dead_rules(v, &mut prover, &lemmas, &mut diagnostics);

    progress("looking for ambiguities");
    ambiguities(v, &mut prover, &lemmas, &found, &mut diagnostics);

    progress("checking well-formedness");
    let mut facts = well_formedness(v, &found, &mut diagnostics);
    if let Some(w) = &walked {
        crate::gaps::diagnostics(v, w, &mut diagnostics);
        crate::gaps::implied_pairs(v, w, &mut diagnostics);
        facts.push(walk_fact(v, w));
        if let Some(fact) = out_of_play_fact(v, w) {
            facts.push(fact);
        }
    }
    if game.observe.is_some() {
        progress("looking for what observation leaves open");
        let looked = crate::observation::gaps(v, Instant::now().checked_add(opts.total_timeout / 6).unwrap_or(deadline).min(deadline));
        facts.push(format!(
            "observation: {} positions searched to ply {} for what the `observe` item leaves open ({} found)",
            looked.positions,
            looked.depth,
            looked.diagnostics.len()
        ));
        let mut found = looked.diagnostics;
        found.sort_by(|a, b| a.code.cmp(b.code));
        diagnostics.extend(found);
    }

    // `rule` items that end games and forbid moves: an invariant proved over
    // every move still holds, and the searches play them. Rules that oblige
    // add decisions neither the encoding nor the searches make yet.
    let mut uncovered: Vec<String> = game
        .rules
        .iter()
        .map(|r| match &r.effect {
            rulebook_interpreter::model::cond::Effect::Oblige(steps) => {
                use rulebook_interpreter::model::cond::ObligeAction;
                let words: Vec<&str> = steps
                    .iter()
                    .map(|s| match s.action {
                        ObligeAction::Relocate { .. } => "relocations",
                        ObligeAction::Activate => "activations",
                        ObligeAction::Exile { .. } => "exiles (pieces out of play)",
                        ObligeAction::Return => "returns of pieces out of play",
                    })
                    .collect();
                format!(
                    "rule \"{}\": it obliges further decisions in the ply ({}) that the encoding does not model, so a proof covers plies of one move only; the walk by decisions plays them",
                    r.name,
                    words.join(", ")
                )
            }
            rulebook_interpreter::model::cond::Effect::LoseRight(_) => {
                format!("rule \"{}\": it takes first-move rights, which the encoding does not model (see C0240); the searches play it", r.name)
            }
            _ => format!("rule \"{}\": the proofs leave it out (it only forbids moves and ends games, so what they prove still holds); the searches play it", r.name),
        })
        .collect();
    if game.hand.as_ref().is_some_and(|h| h.drop_limits.iter().any(|l| l.per_line.is_some() || l.no_mate || l.compulsory)) {
        // Shogi's drop limits only forbid drops: an invariant proved over more drops still holds.
        uncovered.push("hand: `at most N per AXIS`, `no mate` and `compulsory` on drops: the proofs leave them out (they only forbid drops, so what they prove still holds); the searches play them".to_string());
    }
    if game.slide.is_some() {
        // Sliding levels (issue 13): no frame in the encoding, no activation in the searches.
        uncovered.push("slide: the proofs take every level at rest; the search of moves pulls no level out of the shaft, the walk by decisions does".to_string());
    }
    for phase in &game.phases {
        // Phases before play (issue 13): the encoding has no phase.
        uncovered.push(format!(
            "phase `{}`: the proofs take its placements as ordinary drops (more moves than the phase allows; the castling rights a placement gives are left out); the searches play the phase",
            phase.name
        ));
    }
    if opts.rulings {
        crate::settled::settle(v, &mut diagnostics);
    }
    Report {
        variant: game.name.clone(),
        claims: results,
        diagnostics,
        facts,
        uncovered,
        stats: Stats {
            positions: found.nodes,
            depth: found.depth_done,
            win_depth: found.win_depth_done,
            stopped: found.stopped.clone(),
            queries: prover.queries + layer_queries,
            budget_spent: prover.budget_spent || Instant::now() >= deadline,
            budget_seconds: opts.total_timeout.as_secs_f64(),
            seconds: started.elapsed().as_secs_f64(),
        },
    }
}

/// Most positions the search of moves visits in a game with phases or
/// obligations (the walk by decisions goes deeper there).
const FLOW_SEARCH_NODES: u64 = 20_000;

/// Most cells of a board on which counts proved by conservation are given
/// to the solver as lemmas.
const LEMMA_CELLS: usize = 128;

/// The seed of the walk's random lines (fixed, so that reports repeat).
const WALK_SEED: u64 = 14;

/// Does `v` have phases or rules that oblige (decisions beyond moves)?
fn flows(v: &Variant) -> bool {
    !v.game.phases.is_empty() || rulebook_interpreter::flow::oblige::any(&v.game)
}

/// What the walk by decisions covered, as a line of the report.
fn walk_fact(v: &Variant, w: &crate::flow_walk::Walk) -> String {
    let mut text = format!(
        "walked by decisions: every line of {} decisions from the setup, then {} random lines (seed {WALK_SEED}, {} decisions); {} decision nodes",
        w.exhaustive_done, w.lines_done, w.line_decisions, w.nodes
    );
    if let Some((n, line)) = &w.longest_ply {
        text.push_str(&format!("; the longest ply seen has {n} decisions (after {} decisions from the setup)", line.decisions.len()));
    }
    if !w.directed.is_empty() {
        let parts: Vec<String> = w
            .directed
            .iter()
            .map(|d| {
                let name = v.game.rules.get(d.rule).map_or("?", |r| r.name.as_str());
                match &d.reached {
                    Some(n) if d.lines == 0 => format!("rule \"{name}\" acted after {n} decisions of a line steered towards an earlier one"),
                    Some(n) => format!("rule \"{name}\" acted after {n} decisions of directed line {}", d.lines),
                    None => format!("rule \"{name}\" never acted in {} directed lines", d.lines),
                }
            })
            .collect();
        text.push_str(&format!(
            "; then {} decisions along lines steered towards the rules no other line saw act: {}",
            w.directed_decisions,
            parts.join(", ")
        ));
    }
    if let Some(why) = &w.stopped {
        text.push_str(&format!("; stopped early: {why}"));
    }
    text
}

/// In a game whose rules take pieces out of play (`exile`): the deadline,
/// as the walk by decisions saw it kept (a piece is held against it only
/// while its level swings); `None` without an `exile` step.
fn out_of_play_fact(v: &Variant, w: &crate::flow_walk::Walk) -> Option<String> {
    use rulebook_interpreter::model::cond::{Effect, ObligeAction};
    let exiles = v.game.rules.iter().any(|r| matches!(&r.effect, Effect::Oblige(steps) if steps.iter().any(|s| matches!(s.action, ObligeAction::Exile { .. }))));
    if !exiles {
        return None;
    }
    let seen = &w.out_of_play;
    Some(match &seen.overdue {
        Some(line) => format!(
            "out of play: a piece is still held after the level whose swing is its deadline came to rest, after {} ({} decisions)",
            line.decisions.join(" "),
            line.decisions.len()
        ),
        None if seen.nodes == 0 => "out of play: the walk by decisions met no piece out of play, so the deadline (the swing of the level it was taken from) was not tested along its lines".to_string(),
        None => format!(
            "out of play: no piece stays held beyond its deadline: at the {} nodes of the walk with a piece out of play ({} with one held against a deadline), every deadline's level was still swinging",
            seen.nodes, seen.held
        ),
    })
}

/// Built-in position facts that should hold in every reachable position and
/// help the other questions: no royal piece is ever in hand (it is never
/// captured); no piece of a promoting kind stands in its own promotion zone
/// (it promotes on arrival, and the FEN reader refuses one there); with
/// hidden identities, every face-down piece stands where it stood in the
/// setup, as the piece it was there (it is revealed when it moves). They
/// are induction candidates like the claims, so one that a variant breaks
/// (a drop into the zone, say) is simply not used.
fn builtin_lemmas(v: &Variant) -> Vec<Lemma> {
    let game = &v.game;
    let mut out = Vec::new();
    if game.hand.is_some() {
        for (k, kind) in game.kinds.iter().enumerate() {
            if kind.royal {
                out.push(Property::NeverInHand { kind: k as KindId }.into());
            }
        }
    }
    for k in 0..game.kinds.len() {
        let mut zone: [Vec<Cell>; 2] = [Vec::new(), Vec::new()];
        for rule in game.promotions.iter().filter(|r| r.kind as usize == k) {
            for (side, cells) in zone.iter_mut().enumerate() {
                for &c in &rule.zone[side] {
                    if !cells.contains(&c) {
                        cells.push(c);
                    }
                }
            }
        }
        if zone.iter().any(|z| !z.is_empty()) {
            out.push(Property::NeverOn { kind: k as KindId, zone }.into());
        }
    }
    // Induction proves the step only: each must hold in the setup too.
    match v.start() {
        Ok(start) => {
            if game.hidden.is_some() {
                out.push(Lemma::face_down_at(v, &start));
            }
            out.retain(|l| l.holds_in(v, &start));
        }
        Err(_) => out.clear(),
    }
    out
}

/// Does the Z3 move encoding leave out moves of `v`: spread pieces (splits,
/// entangles, moves of halves, collisions), tunnels, or the moves
/// observation makes (slowed and displaced)?
pub fn beyond_encoding(v: &Variant) -> bool {
    v.game.spread.is_some() || v.game.tunnel.is_some() || v.game.observe.is_some() || v.game.explosion.is_some() || !move_gaps(v).is_empty()
}

/// One kind of move the Z3 encoding leaves out, where the moves are
/// otherwise plain: its C0240 notice and its words in the proofs' caveat.
struct MoveGap {
    /// Where the notice points.
    at: (String, Span),
    /// What is left out, ending in "is" or "are" (see [`not_encoded`]).
    what: &'static str,
    /// What the consistency results still cover.
    covered: &'static str,
    /// What the encoding states instead.
    detail: &'static str,
    /// Its name in "proved over moves leaving out …".
    left_out: &'static str,
}

/// The moves of `v` the Z3 encoding leaves out beyond spread pieces,
/// tunnels, observation and explosions, in the order their notices are
/// chosen (the first is the one `check` shows).
fn move_gaps(v: &Variant) -> Vec<MoveGap> {
    let game = &v.game;
    let mut out = Vec::new();
    let mut gap = |at: (String, Span), what, covered, detail, left_out| out.push(MoveGap { at, what, covered, detail, left_out });
    if let (true, Some(k)) = (game.players.iter().any(|p| p.all_royal), game.kinds.iter().find(|k| k.royal)) {
        gap(
            (k.file.clone(), k.span),
            "a player in check only when all royal pieces are attacked is",
            "the moves that leave no royal piece attacked",
            "the Z3 encoding makes a move legal when it leaves none of the mover's royal pieces attacked; such a player may also leave some of them attacked, which the encoding does not state",
            "moves that leave some, not all, royal pieces attacked",
        );
    }
    if let Some(c) = game.castling.as_ref().filter(|c| c.partners.len() > 1) {
        gap(
            (c.file.clone(), c.span),
            "castling with several partner kinds is",
            "castling with the first partner kind",
            "the Z3 encoding castles with the first partner kind written; castling with the others is not stated",
            "castling with partners of the later kinds",
        );
    }
    if let Some(k) = game.kinds.iter().find(|k| k.parts.iter().any(|p| p.unmoved || p.not_in_check || p.not_over.is_some())) {
        let p = k.parts.iter().find(|p| p.unmoved || p.not_in_check || p.not_over.is_some()).map_or(k.span, |p| p.span);
        gap(
            (k.file.clone(), p),
            "movement parts that apply only while a piece is unmoved or its owner not in check, or hops that may not jump a kind, are",
            "the other moves",
            "the Z3 encoding states a part's moves in every position and a hop over any screen; `if unmoved` needs the first-move rights (the FEN castling field's letters), `if not in check` the check and `not over` the screen's kind, which the encoding does not state for a part",
            "moves of parts that apply only while unmoved or not in check, and hops that may not jump a kind",
        );
    }
    if game.players.iter().any(|p| p.wall.is_some()) {
        gap(
            game.kinds.first().map_or((String::new(), Span::new(0, 0)), |k| (k.file.clone(), k.span)),
            "walls are",
            "the moves without their walls",
            "the Z3 encoding states moves of the players' pieces; the wall every move also puts (`then moves the wall anywhere`, `then shoots a wall from the moved piece`) is not stated",
            "walls",
        );
    }
    let converts = game.kinds.iter().find(|k| k.converts_around.is_some() || k.converts_enclosed).map(|k| (k.file.clone(), k.span)).or_else(|| {
        game.hand
            .as_ref()
            .filter(|h| h.drop_limits.iter().any(|l| l.unlimited || l.next_to_own || l.enclosing || l.first_filling.is_some()))
            .map(|h| (h.file.clone(), h.span))
    });
    if let Some(at) = converts {
        gap(
            at,
            "conversions and drops that depend on the pieces around them are",
            "the other moves",
            "the Z3 encoding states a move or drop as one piece arriving; pieces that change side where it lands (`converts …`), drops from an endless supply and drops limited by the pieces around the cell are not stated",
            "conversions and drops that depend on the pieces around them",
        );
    }
    if let Some(k) = game.kinds.iter().find(|k| k.passes) {
        gap(
            (k.file.clone(), k.span),
            "passing is",
            "the moves that are not passes",
            "the Z3 encoding states moves that change the board; a pass (`pass`) and the record of who passed last are not stated",
            "passes",
        );
    }
    if let Some(h) = game.hand.as_ref().filter(|h| h.gate_cells.iter().any(|c| c.is_some())) {
        gap(
            (h.file.clone(), h.span),
            "gating is",
            "the moves without gating",
            "the Z3 encoding states moves and drops; a move that also puts a piece from hand on the square it leaves (`gate`), and the first-move rights it needs, are not stated",
            "gating",
        );
    }
    if let Some(m) = game.promotion_moves.first() {
        gap(
            (m.file.clone(), m.span),
            "promotions made as moves of their own are",
            "the other moves",
            "the Z3 encoding promotes a piece only as part of a move that arrives in a zone; `becomes … in place` promotes instead of moving, which the encoding does not state",
            "promotions made as moves of their own",
        );
    }
    if let Some(h) = game.hand.as_ref().filter(|h| h.drop_limits.iter().any(|l| l.also_promoted)) {
        gap(
            (h.file.clone(), h.span),
            "drops of promoted forms are",
            "the other moves",
            "the Z3 encoding drops a piece from a hand as its own kind; `also promoted` drops it as its promoted form too, which the encoding does not state",
            "drops of promoted forms",
        );
    }
    out
}

/// A C0240 notice at `at`: `what` (ending in "is" or "are") is not in the
/// Z3 move encoding; `covered`, what the consistency results still cover;
/// `detail`, what the encoding states instead.
fn not_encoded(at: (&str, Span), what: &str, covered: &str, detail: &str) -> Diagnostic {
    Diagnostic::error("C0240", at.0, at.1, format!("{what} not in the Z3 move encoding"), "not in the Z3 move encoding")
        .warning()
        .with_help(format!("consistency and ambiguity results cover {covered}; other claims hold to the search's depth, which plays every move"))
        .with_detail(detail)
        .with_detail("claims that Z3 proves by induction over the encoded moves are reported as HOLDS TO DEPTH: only the search from the setup checks them on the others")
}

/// The notice that the Z3 move encoding leaves out spread pieces and
/// tunnelling (C0240), for a variant that has them.
fn encoding_scope(v: &Variant) -> Option<Diagnostic> {
    let game = &v.game;
    if let Some(x) = &game.explosion {
        return Some(
            Diagnostic::error("C0240", &x.file, x.span, "explosions are not in the Z3 move encoding", "not in the Z3 move encoding")
                .warning()
                .with_help("consistency and ambiguity results cover the moves as plain captures; other claims hold to the search's depth, which plays every explosion")
                .with_detail(
                    "the Z3 encoding states a capture as the capturing piece taking the target's place; the pieces an explosion also removes, and the safety of royal pieces next to each other, are not stated",
                )
                .with_detail("claims that Z3 proves by induction over the plain moves are reported as HOLDS TO DEPTH: only the search from the setup checks them on the others"),
        );
    }
    if let Some(g) = move_gaps(v).into_iter().next() {
        return Some(not_encoded((&g.at.0, g.at.1), g.what, g.covered, g.detail));
    }
    if let (Some(o), None, None) = (&game.observe, &game.spread, &game.tunnel) {
        return Some(
            Diagnostic::error("C0240", &o.file, o.span, "observation (slowed and displaced moves) is not in the Z3 move encoding", "not in the Z3 move encoding")
                .warning()
                .with_help("consistency and ambiguity results cover the moves of the plain rules; other claims hold to the search's depth, which plays every move")
                .with_detail(
                    "the Z3 encoding states the moves of the pieces as their parts give them; a move that an enemy piece sees is replaced, in play, by slowed and displaced moves that the encoding does not state",
                )
                .with_detail("claims that Z3 proves by induction over the plain moves are reported as HOLDS TO DEPTH: only the search from the setup checks them on the others"),
        );
    }
    let (file, span) = match (&game.spread, &game.tunnel) {
        (Some(s), _) => (s.file.clone(), s.span),
        (None, Some(t)) => (t.file.clone(), t.span),
        (None, None) => return None,
    };
    let left_out = match (game.spread.is_some(), game.tunnel.is_some()) {
        (true, true) => "spread pieces, collisions and tunnelling",
        (true, false) => "spread pieces and collisions",
        _ => "tunnelling",
    };
    let mut d = Diagnostic::error("C0240", &file, span, format!("{left_out} are not in the Z3 move encoding"), "not in the Z3 move encoding")
        .warning()
        .with_help(
            "consistency and ambiguity results cover the conventional moves; other claims hold to the search's depth; spread claims are decided on the spread layer",
        );
    if let (Some(t), Some(_)) = (&game.tunnel, &game.spread) {
        if t.file == file {
            d = d.with_note(t.span, "not in the Z3 move encoding either");
        }
    }
    Some(
        d.with_detail(
            "the Z3 encoding states positions without spread pieces and the conventional moves from them (where the trust test compares it with the interpreter); rules that never apply (C0220-C0222) and ambiguities (C0210-C0213) are looked for among those moves",
        )
        .with_detail(
            "claims that Z3 proves by induction over those moves alone are reported as HOLDS TO DEPTH: only the search from the setup, which plays every action, checks them on the others",
        )
        .with_detail(
            "`spread pieces on at most N squares` and `entangled groups at most N` are decided on the spread layer: it follows each piece's number of squares and its unit, not where it stands, and allows every move of the game (and more), so its proofs hold for the game",
        ),
    )
}

fn claims_verdicts(
    v: &Variant,
    claims: &[Claim],
    found: &Exploration,
    prover: &mut Prover,
    diagnostics: &mut Vec<Diagnostic>,
    (timeout_ms, deadline, layer_queries): (u32, Instant, &mut u32),
) -> (Vec<ClaimResult>, Vec<Lemma>) {
    // Position claims not refuted by the exploration are the induction
    // candidates (the spread claims go to the spread layer).
    // Counts proved without a board (no solver time spent on them).
    let conserved: Vec<Option<String>> = claims.iter().map(|c| crate::model_claims::count_by_conservation(v, &c.property)).collect();
    let candidates: Vec<usize> = (0..claims.len())
        .filter(|&i| {
            let p = &claims[i].property;
            !p.is_move_property()
                && !p.is_model_property()
                && !is_spread_property(p)
                && found.violations.get(i).is_none_or(|x| x.is_none())
                && conserved[i].is_none()
        })
        .collect();
    let spread_verdicts = spread_claims(v, claims, found, timeout_ms, deadline, layer_queries);
    // What the Z3 encoding leaves out: a proof over the rest covers only part of the game.
    let mut left_out = Vec::new();
    match (v.game.spread.is_some(), v.game.tunnel.is_some()) {
        (true, true) => left_out.push("spread actions and tunnels"),
        (true, false) => left_out.push("spread actions"),
        (false, true) => left_out.push("tunnels"),
        (false, false) => {}
    }
    if v.game.slide.is_some() {
        left_out.push("moves while a level stands out of the shaft");
    }
    if v.game.observe.is_some() {
        left_out.push("the moves observation makes (slowed and displaced)");
    }
    if v.game.explosion.is_some() {
        left_out.push("explosions");
    }
    left_out.extend(move_gaps(v).iter().map(|g| g.left_out));
    if rulebook_interpreter::flow::oblige::any(&v.game) {
        left_out.push("the decisions rules oblige");
    }
    let partial = !left_out.is_empty();
    let others = left_out.join(" and ");
    let mut properties: Vec<Lemma> = candidates.iter().map(|&i| claims[i].property.clone().into()).collect();
    properties.extend(builtin_lemmas(v));
    let verdicts = prover.induction(&properties);
    let mut lemmas: Vec<Lemma> =
        properties.iter().zip(&verdicts).filter(|(_, v)| matches!(v, Induction::Proved)).map(|(p, _)| p.clone()).collect();
    // Counts proved by conservation hold in every reachable position: they
    // help the other questions, on boards small enough that their pairwise
    // clauses (the square of the cells) cost less than they save (on 4D-Schach's
    // 448 cells one made each query six times slower).
    if v.game.geometry.board_cells().count() <= LEMMA_CELLS {
        lemmas.extend(claims.iter().zip(&conserved).filter(|(_, proof)| proof.is_some()).map(|(c, _)| c.property.clone().into()));
    }

    let mut results = Vec::new();
    for (i, claim) in claims.iter().enumerate() {
        let mut result = ClaimResult {
            name: claim.name.clone(),
            file: claim.file.clone(),
            span: claim.span,
            says: claim.property.in_words(&v.game),
            verdict: Verdict::Unknown,
            depth: found.depth_done,
            detail: String::new(),
            counterexample: None,
        };
        if let Some(Some(violation)) = found.violations.get(i) {
            result.verdict = Verdict::Refuted;
            result.depth = violation.line.text.len() as u32;
            let after = if violation.line.text.is_empty() {
                "in the setup".to_string()
            } else {
                format!("after {}", violation.line.text.join(" "))
            };
            result.detail = match &violation.mv_text {
                Some(m) => format!("the move {m} {after} breaks it"),
                None if violation.line.text.is_empty() => "the setup itself breaks it".into(),
                None => format!("it fails {after}"),
            };
            result.counterexample = Some(Counterexample {
                line: violation.line.text.clone(),
                fen: violation.line.fen.clone(),
                mv: violation.mv_text.clone(),
                spread_layer: false,
            });
            diagnostics.push(refuted(v, claim, &result));
            results.push(result);
            continue;
        }
        if let Some((verdict, layer)) = spread_verdicts.iter().find(|(at, _)| *at == i).map(|(_, x)| x) {
            let bounded = format!("no counterexample in the {} plies from the setup", found.depth_done);
            match verdict {
                LayerVerdict::Proved => {
                    result.verdict = Verdict::Proved;
                    result.detail = format!(
                        "holds in the setup; no action of the spread layer breaks it (Z3: the induction step is unsatisfiable). The layer follows {layer}, each piece's number of squares and its unit, not where it stands; it allows every move of the game, so the proof holds for the game"
                    );
                }
                LayerVerdict::Refuted(trace) => {
                    result.verdict = Verdict::Refuted;
                    result.depth = trace.steps.len() as u32;
                    result.detail = format!(
                        "{} actions of the spread layer from the setup reach {} (abstract actions: the layer does not know where pieces stand, and the line was not played on a board)",
                        trace.steps.len(),
                        trace.end
                    );
                    result.counterexample = Some(Counterexample { line: trace.steps.clone(), fen: String::new(), mv: None, spread_layer: true });
                    let steps = trace.steps.join("\n");
                    diagnostics.push(
                        Diagnostic::error("C0201", &claim.file, claim.span, format!("claim `{}` is false", claim.name), "refuted")
                            .with_detail(format!(
                                "counterexample on the spread layer, which follows {layer}, each piece's number of squares and its unit, not where it stands:\n{steps}\nthen: {}",
                                trace.end
                            ))
                            .with_detail("the layer allows every move of the game and more (any piece may attack any other, every square is free): its line is checked on the layer only, not played on a board")
                            .with_help("correct the rules or the claim; `rulebook moves RULES --play \"…\"` shows whether the line can be played"),
                    );
                }
                LayerVerdict::Open(why) => {
                    result.verdict = if found.depth_done > 0 { Verdict::HoldsToDepth } else { Verdict::Unknown };
                    result.detail = format!("{bounded}; not proved on the spread layer ({layer}): {why}");
                }
            }
            results.push(result);
            continue;
        }
        if let Property::Directions { kind, count } = &claim.property {
            let (found_n, list) = crate::model_claims::directions(v, *kind);
            let name = v.game.kinds.get(*kind as usize).map_or("?", |k| k.name.as_str());
            result.depth = 0;
            if found_n == *count as usize {
                result.verdict = Verdict::Proved;
                result.detail = format!("{name}'s parts step in {found_n} directions (counted from the templates): {list}");
            } else {
                result.verdict = Verdict::Refuted;
                result.detail = format!("{name}'s parts step in {found_n} directions, not {count}: {list}");
                diagnostics.push(
                    Diagnostic::error("C0201", &claim.file, claim.span, format!("claim `{}` is false", claim.name), "refuted")
                        .with_detail(format!("counted from the templates: {found_n} directions: {list}"))
                        .with_help("correct the piece's movement or the claim"),
                );
            }
            results.push(result);
            continue;
        }
        if let Some(detail) = crate::model_claims::colour_by_templates(v, &claim.property).or_else(|| conserved[i].clone()) {
            result.verdict = Verdict::Proved;
            result.detail = detail;
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
            // Proved over the conventional moves only: the search from the
            // setup, which plays every action, is what covers the rest.
            Induction::Proved if partial => {
                result.verdict = if found.depth_done > 0 { Verdict::HoldsToDepth } else { Verdict::Unknown };
                result.detail = if v.game.spread.is_some() || v.game.tunnel.is_some() {
                    format!("{bounded}, {others} included; Z3 proves it only over positions without spread pieces and their conventional moves (C0240)")
                } else {
                    format!("{bounded}; Z3 proves it over the moves of the encoding, which leaves out {others}")
                };
            }
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
                let why = match v.parse_fen(&w.fen, "<induction>") {
                    Ok(_) => "this position may be unreachable".to_string(),
                    Err(e) => format!("not a position of the game: {}", e.message),
                };
                result.detail = format!(
                    "{bounded}; not proved: induction fails from {} with {} ({why})",
                    w.fen,
                    move_text(v, &w)
                );
            }
            Induction::Unknown(why) if why == BUDGET_SPENT => {
                result.verdict = if found.depth_done > 0 { Verdict::HoldsToDepth } else { Verdict::Unknown };
                result.detail = format!("{bounded}; not decided: {BUDGET_SPENT}");
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

/// Decides the spread claims that the search did not refute on the spread
/// layer: per claim index, the verdict and the layer's description.
fn spread_claims(
    v: &Variant,
    claims: &[Claim],
    found: &Exploration,
    timeout_ms: u32,
    deadline: Instant,
    queries: &mut u32,
) -> Vec<(usize, (LayerVerdict, String))> {
    let asked: Vec<usize> = (0..claims.len())
        .filter(|&i| is_spread_property(&claims[i].property) && found.violations.get(i).is_none_or(|x| x.is_none()))
        .collect();
    if asked.is_empty() {
        return Vec::new();
    }
    let mut layer = match SpreadLayer::new(v, timeout_ms, deadline) {
        Ok(layer) => layer,
        Err(why) => return asked.into_iter().map(|i| (i, (LayerVerdict::Open(why.clone()), String::new()))).collect(),
    };
    let properties: Vec<Property> = asked.iter().map(|&i| claims[i].property.clone()).collect();
    // Long enough to form one group more than the labels allow (a split
    // and an entangle per group), and a few actions more.
    let steps = 2 * layer.rules.labels.len() + 4;
    let verdicts = layer.check(&properties, steps);
    *queries += layer.queries;
    let description = layer.describe();
    asked.into_iter().zip(verdicts).map(|(i, verdict)| (i, (verdict, description.clone()))).collect()
}

fn line_text(line: &[String]) -> String {
    if line.is_empty() {
        "the setup".into()
    } else {
        line.join(" ")
    }
}

fn refuted(v: &Variant, claim: &Claim, result: &ClaimResult) -> Diagnostic {
    let mut d = Diagnostic::error("C0201", &claim.file, claim.span, format!("claim `{}` is false", claim.name), "refuted");
    let Some(cx) = &result.counterexample else {
        return d.with_help("correct the rules or the claim");
    };
    let after = if cx.line.is_empty() { "in the setup".to_string() } else { format!("after {}", cx.line.join(" ")) };
    d = match &cx.mv {
        Some(m) => d.with_detail(format!("counterexample: the move {m} {after} breaks it")),
        None if cx.line.is_empty() => d.with_detail("counterexample: the setup itself breaks it"),
        None => d.with_detail(format!("counterexample: the position {after} breaks it")),
    };
    d = d.with_detail(format!("position: {}", cx.fen));
    if let Ok(pos) = v.parse_fen(&cx.fen, "<counterexample>") {
        d = d.with_detail(diagram(v, &pos));
    }
    d.with_help(match (cx.line.is_empty(), &cx.mv) {
        (true, _) => "correct the rules or the claim; `rulebook moves RULES` lists the moves of the setup".to_string(),
        (false, Some(_)) => format!("correct the rules or the claim; `rulebook moves RULES --play \"{}\"` lists the moves of that position", cx.line.join(" ")),
        (false, None) => format!("correct the rules or the claim; replay the line with `rulebook moves RULES --play \"{}\"`", cx.line.join(" ")),
    })
}

/// A witness's move: in coordinate notation when the interpreter has it,
/// else read from its key (`K@b8`, `a7a8q`, `e5d6 e.p.`, `castling 2`).
fn move_text(v: &Variant, w: &Witness) -> String {
    if w.mv.is_some() {
        return w.mv_text.clone();
    }
    let game = &v.game;
    let geo = &game.geometry;
    let cell = |c: i64| if c >= 0 && (c as usize) < geo.cells() { geo.name(c as Cell) } else { format!("#{c}") };
    let kind = |k: i64| game.kinds.get(k as usize).filter(|_| k >= 0).map(|k| k.letter);
    let (class, from, to, extra) = w.key;
    match class {
        0 | 1 => {
            let promo = kind(extra).map(|l| l.to_ascii_lowercase().to_string()).unwrap_or_default();
            let ep = if class == 1 { " e.p." } else { "" };
            format!("{}{}{promo}{ep}", cell(from), cell(to))
        }
        2 => format!("{}@{}", kind(extra).unwrap_or('?'), cell(to)),
        _ => format!("castling from {} to {}", cell(from), cell(to)),
    }
}

/// Facts that make a witness a position the FEN reader accepts, and one
/// that looks like a game (the solver's states are looser than that): every
/// castling right names a partner of its player on the rank of that side's
/// king destination, on that side of a king of the castling kind, both on
/// squares where such pieces stand in the setup (pieces that have never
/// moved); no en-passant target. Added to the condition of witness queries
/// (never to questions of existence, where they would only narrow what is
/// asked).
fn plausible(v: &Variant, enc: &Encoder, s: &State) -> Bool {
    let game = &v.game;
    let geo = &game.geometry;
    let int = Int::from_i64;
    let start = v.start().ok();
    // In the setup, a piece of this code stands on `c` (any cell without a setup).
    let at_start = |c: Cell, piece: u8| start.as_ref().is_none_or(|p| p.board[c as usize] & !PROMOTED == piece);
    let mut parts: Vec<Bool> = s.ep.iter().map(|e| e.eq(int(-1))).collect();
    parts.push(s.ep_victim.eq(int(-1)));
    for p in 0..2usize {
        for slot in 0..2usize {
            let right = &s.rights[p][slot];
            let none = right.eq(int(-1));
            let Some((rule, side)) = game.castling.as_ref().and_then(|r| r.sides.iter().find(|x| x.slot() == slot).map(|x| (r, x))) else {
                parts.push(none);
                continue;
            };
            let rank = geo.coords(side.king_to[p]);
            let line: Vec<Cell> = enc.cells().iter().copied().filter(|&c| geo.coords(c)[1..] == rank[1..]).collect();
            let (king_code, rook_code) = (code(rule.king, p as u8), code(rule.rook, p as u8));
            let king = int(king_code as i64);
            let rook = int(rook_code as i64);
            let mut options = vec![none];
            for &k in line.iter().filter(|&&k| at_start(k, king_code)) {
                for &r in line.iter().filter(|&&r| at_start(r, rook_code)) {
                    let (fk, fr) = (geo.coords(k)[0], geo.coords(r)[0]);
                    if (slot == 0 && fr > fk) || (slot == 1 && fr < fk) {
                        options.push(Bool::and(&[right.eq(int(r as i64)), enc.at(s, k).eq(&king), enc.at(s, r).eq(&rook)]));
                    }
                }
            }
            parts.push(Bool::or(&options));
        }
    }
    Bool::and(&parts)
}

/// A witness as report text: the move and the position, whether the FEN
/// reader accepts it, and a diagram.
fn witness_details(v: &Variant, d: Diagnostic, w: &Witness, meaning: Option<String>) -> Diagnostic {
    let d = match &w.mv {
        Some(_) => d.with_detail(format!("witness: the move {} in {}", w.mv_text, w.fen)),
        None => d.with_detail(format!(
            "witness (not confirmed: the interpreter has no move {} here): {}",
            move_text(v, w),
            w.fen
        )),
    };
    let d = match v.parse_fen(&w.fen, "<witness>") {
        Ok(_) => d,
        Err(e) => d.with_detail(format!("the FEN reader refuses this position: {}", e.message)),
    };
    let d = match meaning {
        Some(text) => d.with_detail(text),
        None => d,
    };
    d.with_detail(diagram(v, &w.position))
}

/// Parts, pieces, promotion rules and castling sides that no position allows.
///
/// A part or promotion rule that some legal move along the lines of play of
/// [`crate::live`] used is alive without a query; Z3 is asked about the rest.
fn dead_rules(v: &Variant, prover: &mut Prover, lemmas: &[Lemma], diagnostics: &mut Vec<Diagnostic>) {
    let game = v.game.clone();
    let sought = PromotionSought::of(&game);
    let seen = crate::live::look(v, &prover.enc.templates, &sought, &crate::live::LINES);
    for (k, kind) in game.kinds.iter().enumerate() {
        let mut alive_parts = 0;
        for (pi, part) in kind.parts.iter().enumerate() {
            let mut alive = seen.part_moves(k as KindId, pi);
            for side in 0..2u8 {
                if alive {
                    break;
                }
                alive = !matches!(prover.part_moves(side, lemmas, k as KindId, pi), Answer::Unsat);
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
    for (r, rule) in game.promotions.iter().enumerate() {
        if rule.zone.iter().all(|z| z.is_empty()) {
            diagnostics.push(
                Diagnostic::error("C0222", &rule.file, rule.span, "this promotion zone holds no square", "empty zone")
                    .warning()
                    .with_help("name squares of this board in the zone"),
            );
            continue;
        }
        let own = &sought[r].zone;
        let kind = &game.kinds[rule.kind as usize].name;
        if own.iter().all(|z| z.is_empty()) {
            let later = game.promotions[r + 1..].iter().filter(|l| l.kind == rule.kind);
            let mut d = Diagnostic::error(
                "C0222",
                &rule.file,
                rule.span,
                format!("no {kind} ever promotes by this rule"),
                "never applies",
            )
            .warning()
            .with_help("where the zones of two rules overlap, the later rule decides; delete this rule, or merge its targets into the later one");
            for l in later.filter(|l| (0..2).any(|side| l.zone[side].iter().any(|c| rule.zone[side].contains(c)))) {
                d = d.with_note(l.span, "this later rule covers its zone");
            }
            diagnostics.push(d);
            continue;
        }
        let mut alive = seen.promotes(r);
        for side in 0..2u8 {
            let zone = &own[side as usize];
            if alive {
                break;
            }
            if zone.is_empty() {
                continue;
            }
            let answer = prover.exists(side, lemmas, |_, _, step| {
                let lands: Vec<Bool> = zone.iter().map(|&c| step.key[2].eq(Int::from_i64(c as i64))).collect();
                Bool::and(&[Bool::or(&lands), step.key[0].le(Int::from_i64(1)), step.key[3].ge(Int::from_i64(0)), step.mover.eq(Int::from_i64(rule.kind as i64))])
            });
            alive = !matches!(answer, Answer::Unsat);
        }
        if !alive {
            diagnostics.push(
                Diagnostic::error("C0222", &rule.file, rule.span, format!("no {kind} ever promotes by this rule"), "never applies")
                    .warning()
                    .with_help("no legal move brings the piece into this zone; move the zone to where the piece arrives"),
            );
        }
    }
}

/// Rules that can both apply to one situation with different results.
fn ambiguities(v: &Variant, prover: &mut Prover, lemmas: &[Lemma], found: &Exploration, diagnostics: &mut Vec<Diagnostic>) {
    let game = v.game.clone();
    // Two promotion rules for one kind whose zones overlap: the later decides silently.
    let names = |ts: &[u8]| ts.iter().map(|&t| game.kinds[t as usize].name.clone()).collect::<Vec<_>>().join(", ");
    for (i, a) in game.promotions.iter().enumerate() {
        // Where `a` still decides; a rule that decides nowhere is reported by `dead_rules`.
        let later = &game.promotions[i + 1..];
        let shadowed = (0..2).all(|side| a.zone[side].iter().all(|c| later.iter().any(|l| l.kind == a.kind && l.zone[side].contains(c))));
        if shadowed {
            continue;
        }
        for (j, b) in later.iter().enumerate() {
            if a.kind != b.kind || a.file != b.file {
                continue;
            }
            let mut targets_a = a.targets.clone();
            let mut targets_b = b.targets.clone();
            targets_a.sort();
            targets_b.sort();
            if targets_a == targets_b {
                continue;
            }
            let kind = &game.kinds[a.kind as usize].name;
            let d = Diagnostic::error("C0210", &b.file, b.span, format!("two promotion rules apply to one {kind} move"), format!("promotes to {}", names(&b.targets)))
                .warning()
                .with_note(a.span, format!("promotes to {}", names(&a.targets)))
                .with_help("make the zones disjoint, or merge the rules into one with all the targets; where the zones overlap, the later rule decides");
            // The cells both zones hold where `b` decides (no rule after it takes them).
            let both = |side: usize| -> Vec<Cell> {
                a.zone[side]
                    .iter()
                    .copied()
                    .filter(|c| b.zone[side].contains(c) && !later[j + 1..].iter().any(|l| l.kind == a.kind && l.zone[side].contains(c)))
                    .collect()
            };
            let mut outcome = None;
            for side in 0..2u8 {
                let both = both(side as usize);
                if both.is_empty() {
                    continue;
                }
                let answer = prover.witness(side, lemmas, |enc, s, step| {
                    let lands: Vec<Bool> = both.iter().map(|&c| step.key[2].eq(Int::from_i64(c as i64))).collect();
                    Bool::and(&[
                        Bool::or(&lands),
                        step.key[0].le(Int::from_i64(1)),
                        step.mover.eq(Int::from_i64(a.kind as i64)),
                        plausible(v, enc, s),
                    ])
                });
                match answer {
                    Answer::Unsat => {
                        if outcome.is_none() {
                            outcome = Some(Answer::Unsat);
                        }
                    }
                    other => {
                        outcome = Some(other);
                        break;
                    }
                }
            }
            match outcome {
                Some(Answer::Sat(w)) => {
                    let meaning = w.mv.as_ref().map(|m| {
                        let offered: Vec<String> = v
                            .legal_moves(&w.position)
                            .iter()
                            .filter(|x| x.from == m.from && x.to == m.to && x.kind == m.kind)
                            .map(|x| coordinate(v, x))
                            .collect();
                        let lost: Vec<u8> = a.targets.iter().copied().filter(|t| !b.targets.contains(t)).collect();
                        let mut text = format!(
                            "on {} the interpreter offers {}: the later rule decides",
                            game.geometry.name(m.to),
                            offered.join(" ")
                        );
                        if !lost.is_empty() {
                            let verb = if lost.len() == 1 { "is" } else { "are" };
                            text.push_str(&format!(", and the earlier rule's {} {verb} never offered there", names(&lost)));
                        }
                        text
                    });
                    diagnostics.push(witness_details(v, d, &w, meaning));
                }
                Some(Answer::Unknown(why)) => diagnostics.push(d.with_detail(format!("no witness position found within the limits ({why})"))),
                // The zones overlap only where the piece never arrives.
                Some(Answer::Unsat) | None => {}
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
                let d = Diagnostic::error("C0211", &rule.file, b.span, format!("castling `{side_name}` is defined twice, with different results"), "second definition")
                    .warning()
                    .with_note(a.span, "first definition")
                    .with_help("keep one definition, or give the second its own side; as written both castlings are offered under one right, and coordinate notation cannot tell them apart");
                // A position where White may castle by one definition, the one
                // where the interpreter offers both preferred.
                let castles = |pos: &Position| -> Vec<Move> {
                    v.legal_moves(pos).into_iter().filter(|m| m.kind == MoveKind::Castle && (m.side as usize == i || m.side as usize == j)).collect()
                };
                let mut best: Option<(Box<Witness>, Vec<Move>)> = None;
                let mut unknown = None;
                for k in [i, j] {
                    let answer = prover.witness(0, lemmas, |enc, s, step| Bool::and(&[step.key[0].eq(Int::from_i64(3 + k as i64)), plausible(v, enc, s)]));
                    match answer {
                        Answer::Sat(w) => {
                            let offered = castles(&w.position);
                            let both = offered.len() >= 2;
                            if best.is_none() || both {
                                best = Some((w, offered));
                            }
                            if both {
                                break;
                            }
                        }
                        Answer::Unknown(why) => unknown = Some(why),
                        Answer::Unsat => {}
                    }
                }
                let geo = &game.geometry;
                let describe = |m: &Move| {
                    let s = &rule.sides[m.side as usize];
                    format!("king to {} and rook to {}", geo.name(s.king_to[0]), geo.name(s.rook_to[0]))
                };
                match (best, unknown) {
                    (Some((w, offered)), _) => {
                        let meaning = match offered.as_slice() {
                            [x, y, ..] => format!(
                                "here both are legal under the one {side_name} castling right: {}, or {}; `rulebook moves` lists {} twice",
                                describe(x),
                                describe(y),
                                coordinate(v, x)
                            ),
                            [x] => format!("here only one of them is legal ({}); no position where both are was found", describe(x)),
                            [] => "the interpreter offers neither castling here: the solver and the interpreter disagree".to_string(),
                        };
                        diagnostics.push(witness_details(v, d, &w, Some(meaning)));
                    }
                    (None, Some(why)) => diagnostics.push(d.with_detail(format!("no witness position found within the limits ({why})"))),
                    (None, None) => diagnostics.push(d.with_detail("neither definition can ever be played, so the conflict never shows")),
                }
            }
        }
    }
    // Two `rule` items that end one reached position with different results:
    // the first in file order decides, which the file may not mean.
    if let Some((line, first, other)) = &found.rule_conflict {
        if let (Some(a), Some(b)) = (game.rules.get(*first), game.rules.get(*other)) {
            let mut d = Diagnostic::error(
                "C0214",
                &b.file,
                b.span,
                format!("rules \"{}\" and \"{}\" end one position with different results", a.name, b.name),
                "ends the game here too",
            )
            .warning();
            if a.file == b.file {
                d = d.with_note(a.span, "decides, being first in file order");
            }
            let moves = if line.text.is_empty() { "the setup".to_string() } else { line.text.join(" ") };
            diagnostics.push(
                d.with_detail(format!("after {moves}: {}", line.fen))
                    .with_help("make the conditions exclusive (`and not …`), or put the rule that should decide first and say so in a ruling"),
            );
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
            let mate = cond == EndCondition::Checkmate;
            let word = if mate { "checkmate" } else { "stalemate" };
            let result = format!("{} for the side {}", if outcome == Outcome::Win { "a win" } else { "a loss" }, if mate { "mated" } else { "stalemated" });
            let mut d = Diagnostic::error("C0213", &end.file, span_of(cond), format!("{word} and the move-limit draw can happen at once"), result)
                .warning()
                .with_note(span_of(EndCondition::MoveLimit), "a draw when the count completes, even on that move")
                .with_help(format!(
                    "say which decides, e.g. `priority {word} over move-limit`; without a `priority` line the default order lets {word} decide"
                ));
            // A line from the exploration whose last move ends the game this
            // way without resetting the count, replayed with the count one short.
            // A limit whose count does not fit the half-move clock has no witness.
            let clock = end.fifty_move.and_then(|limit| Some((limit, u32::try_from(2 * u64::from(limit) - 1).ok()?)));
            if let (Some((limit, one_short)), Ok(start)) = (clock, v.start()) {
                let reset = match end.fifty_move_piece {
                    Some(k) => format!("capture or {} move", game.kinds[k as usize].name),
                    None => "capture".to_string(),
                };
                for line in found.quiet_wins.iter().flatten() {
                    let Some((last, before)) = line.moves.split_last() else { continue };
                    let mut pos = start.clone();
                    for m in before {
                        pos = v.play(&pos, m);
                    }
                    pos.halfmove = one_short;
                    pos.ep_len = 0;
                    pos.ep_victim = NO_CELL;
                    pos.fullmove = pos.fullmove.saturating_add(limit);
                    let after = v.play(&pos, last);
                    let ends = v.legal_moves(&after).is_empty() && v.in_check(&after) == mate;
                    if !ends || u64::from(after.halfmove) < 2 * u64::from(limit) {
                        continue;
                    }
                    let fen = v.fen(&pos);
                    let mv = coordinate(v, last);
                    d = d
                        .with_detail(format!(
                            "witness: in {fen}, after {} half-moves without {reset}, the move {mv} is {word} and completes the count of {}",
                            one_short,
                            u64::from(one_short) + 1
                        ))
                        .with_detail(diagram(v, &pos))
                        .with_detail(format!("replay it with `rulebook moves RULES --fen \"{fen}\" --play {mv}`"));
                    break;
                }
            }
            diagnostics.push(d);
        }
    }
}

/// Playability, termination, and that each side can win.
fn well_formedness(v: &Variant, found: &Exploration, diagnostics: &mut Vec<Diagnostic>) -> Vec<String> {
    let game = &v.game;
    let end = &game.end;
    let mut facts = Vec::new();
    // Where to point when the end block says nothing of a condition: the
    // block's first rule, or (no block in the chain) the start of the file
    // that defines the first piece.
    let (end_file, end_span, no_block) = if end.file.is_empty() {
        (game.kinds.first().map(|k| k.file.clone()).unwrap_or_default(), Span::new(0, 0), true)
    } else {
        (end.file.clone(), end.spans.first().map(|(_, s)| *s).unwrap_or(Span::new(0, 0)), false)
    };
    let span_of = |c: EndCondition| end.spans.iter().find(|(x, _)| *x == c).map(|(_, s)| *s).unwrap_or(end_span);
    // Playability.
    match (end.checkmate, end.stalemate) {
        (Some(_), Some(_)) => facts.push("playable: every position without a legal move is decided (checkmate and stalemate rules)".into()),
        _ => {
            let missing = if end.checkmate.is_none() { "checkmate" } else { "stalemate" };
            let label = if no_block {
                "no file of the chain has an `end` block".to_string()
            } else {
                format!("this `end` block has no `{missing}:` line")
            };
            let mut d = Diagnostic::error("C0230", &end_file, end_span, format!("the rules do not say what {missing} means"), label)
                .warning()
                .with_help(format!(
                    "add `{missing}: lose` (or win, or draw) to the end block; today the interpreter assumes `{}`",
                    if missing == "checkmate" { "checkmate: lose" } else { "stalemate: draw" }
                ));
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
            Diagnostic::error(
                "C0231",
                &end_file,
                span_of(EndCondition::MoveLimit),
                "a game can go on forever",
                if no_block {
                    "no file of the chain has an `end` block"
                } else if end.fifty_move.is_some() {
                    "this move limit can be reset forever"
                } else {
                    "this `end` block has neither a move limit nor a repetition rule"
                },
            )
                .warning()
                .with_help("add `draw on repetition 3`, or a move limit reset only by irreversible moves"),
        );
    }
    // Swings: a process that must end. A swinging level's state moves by
    // `frame::tick` alone (the pieces and the other levels play no part), so
    // running the swing of every pull to rest is a proof of the bound.
    if let Some(slide) = &game.slide {
        if let Some(level) = slide.axes.iter().position(Option::is_some) {
            match crate::swings::longest(v, level as u8) {
                Some((Some(n), rows)) => facts.push(format!(
                    "swings end: a level pulled out comes back to rest within {n} half-moves after the one that pulls it (the longest swing: {} rows; every pull of 1 to {} rows either way was run to rest)",
                    rows.unsigned_abs(),
                    slide.out_max
                )),
                Some((None, rows)) => diagnostics.push(
                    Diagnostic::error("C0233", &slide.file, slide.span, "a swing does not come to rest", "this level's swing")
                        .warning()
                        .with_help(format!("a level pulled out {rows} rows still swings after {} half-moves; make each overshoot shorter (`overshoot 1 less each pass`)", crate::swings::LIMIT)),
                ),
                None => {}
            }
        }
    }
    // Each side can win.
    for (p, player) in game.players.iter().enumerate() {
        match &found.wins[p] {
            Some(line) => facts.push(format!("{} can win: {} ({} plies)", player.name, line.text.join(" "), line.text.len())),
            None => {
                let searched = found.win_depth_done.max(found.depth_done);
                let help = match &found.stopped {
                    Some(why) => format!(
                        "the search from the setup stopped early ({why}) and only every line of {searched} plies was searched: a limit of the search, not necessarily of the rules; check that {} can ever win",
                        player.name
                    ),
                    None => format!("every line of {searched} plies from the setup was searched; raise --depth, or check that {} can ever win", player.name),
                };
                let d = Diagnostic::error(
                    "C0232",
                    &end_file,
                    span_of(EndCondition::Checkmate),
                    format!("no win for {} found", player.name),
                    format!("no line of play found that ends in a win for {}", player.name),
                )
                .warning()
                .with_help(help);
                diagnostics.push(d);
            }
        }
    }
    let _ = code;
    facts
}
