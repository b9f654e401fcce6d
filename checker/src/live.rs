//! Rules seen to apply in play: seeded random lines from the setup, every
//! legal decision at every node along them looked at, for evidence that a
//! movement part moves its piece and that a promotion rule promotes.
//!
//! The search for rules that never apply (C0220–C0222, `check::dead_rules`)
//! asks Z3, per part and side, whether some position allows a move along the
//! part's templates. A legal move the interpreter offers in a position
//! reached from the setup answers that question at once: the position is
//! reachable, so it satisfies every proved lemma, and the move is legal, so
//! the query's condition holds of it. Only what no line showed goes to the
//! solver (on chess 11 queries of about 0.3 s each, on 4D-Schach 9 of 2–4 s).
//!
//! What counts is what the query states, evaluated on a concrete move: an
//! ordinary move or capture (not a drop or castling, and no split, collision,
//! entangle, tunnel or observed move, which the encoding has none of) by a
//! piece of the kind on its start cell, whose start and landing cells are
//! those of one of the part's templates, in a position whose levels all rest
//! (the templates are those of the tower at rest). A promotion counts when a
//! piece of the rule's kind promotes on a cell where that rule decides.
//!
//! The lines are bounded by decisions, not by time, so what they show (and
//! so the number of queries asked) does not depend on the machine.

use crate::templates::Templates;
use rulebook_interpreter::engine::position::{color_of, kind_of, MoveKind, UNSEEN};
use rulebook_interpreter::flow::Action;
use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::model::{Color, Game, KindId};
use rulebook_interpreter::{Move, Position, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// How much play to look at.
#[derive(Clone, Copy, Debug)]
pub struct LineLimits {
    /// Lines from the setup, at most.
    pub lines: u32,
    /// Decisions per line, at most.
    pub line_length: u32,
    /// Decisions along all lines together, at most.
    pub max_decisions: u64,
    /// The seed of the random choices.
    pub seed: u64,
}

/// The lines `check` looks along: 64 of at most 300 decisions, 20,000
/// decisions in all (a few milliseconds on chess, where every part has
/// moved after a few lines; on 4D-Schach a 32-piece placement phase comes
/// first).
pub const LINES: LineLimits = LineLimits { lines: 64, line_length: 300, max_decisions: 20_000, seed: 0x11fe };

/// A promotion rule to look for: where it decides, per side.
#[derive(Clone, Debug)]
pub struct PromotionSought {
    /// The kind that promotes.
    pub kind: KindId,
    /// Per side, the cells where this rule decides (its zone less those of
    /// later rules for the same kind).
    pub zone: [Vec<Cell>; 2],
}

impl PromotionSought {
    /// The promotion rules of `game`, each where it decides: its zone less
    /// the zones of the later rules for the same kind (the last rule whose
    /// zone holds a cell decides).
    pub fn of(game: &Game) -> Vec<PromotionSought> {
        let rules = &game.promotions;
        rules
            .iter()
            .enumerate()
            .map(|(r, rule)| {
                let later: Vec<_> = rules[r + 1..].iter().filter(|l| l.kind == rule.kind).collect();
                let zone = [0, 1].map(|side| rule.zone[side].iter().copied().filter(|c| !later.iter().any(|l| l.zone[side].contains(c))).collect());
                PromotionSought { kind: rule.kind, zone }
            })
            .collect()
    }
}

/// What the lines showed.
#[derive(Clone, Debug)]
pub struct Seen {
    /// Per kind, per movement part: some legal move followed one of its templates.
    parts: Vec<Vec<bool>>,
    /// Per promotion rule sought: some legal move promoted by it.
    promotions: Vec<bool>,
    /// Decisions made along the lines.
    pub decisions: u64,
    /// Lines walked (the last possibly cut short).
    pub lines: u32,
}

impl Seen {
    /// Some legal move seen moved a piece of `kind` along a template of its part `part`.
    pub fn part_moves(&self, kind: KindId, part: usize) -> bool {
        self.parts.get(kind as usize).and_then(|p| p.get(part)).copied().unwrap_or(false)
    }

    /// Some legal move seen promoted by the `i`-th rule sought.
    pub fn promotes(&self, i: usize) -> bool {
        self.promotions.get(i).copied().unwrap_or(false)
    }
}

/// What one concrete move is evidence of: the parts whose templates it follows.
struct Sought<'a> {
    /// Per (side, kind, from, to) of a template: the parts it belongs to.
    routes: HashMap<(Color, KindId, Cell, Cell), Vec<usize>>,
    promotions: &'a [PromotionSought],
    /// Evidence still missing (parts and promotions).
    missing: usize,
}

/// Looks along lines of play from the setup of `v` within `limits` for moves
/// along the parts' `templates` and for the promotions `sought`.
pub fn look(v: &Variant, templates: &Templates, sought: &[PromotionSought], limits: &LineLimits) -> Seen {
    let game = &v.game;
    let mut seen = Seen {
        parts: game.kinds.iter().map(|k| vec![false; k.parts.len()]).collect(),
        promotions: vec![false; sought.len()],
        decisions: 0,
        lines: 0,
    };
    let mut routes: HashMap<(Color, KindId, Cell, Cell), Vec<usize>> = HashMap::new();
    for (side, ts) in templates.by_player.iter().enumerate() {
        for t in ts {
            let parts = routes.entry((side as Color, t.kind, t.from, t.to)).or_default();
            if !parts.contains(&t.part) {
                parts.push(t.part);
            }
        }
    }
    // What a line can show: a part with templates, a rule with cells where it
    // decides (the rest never shows, and would keep the lines going to their budget).
    let mut with_templates: Vec<(KindId, usize)> = routes.iter().flat_map(|(&(_, k, _, _), parts)| parts.iter().map(move |&p| (k, p))).collect();
    with_templates.sort_unstable();
    with_templates.dedup();
    let missing = with_templates.len() + sought.iter().filter(|s| s.zone.iter().any(|z| !z.is_empty())).count();
    let mut looking = Sought { routes, promotions: sought, missing };
    let Ok(start) = v.start() else { return seen };
    let mut rng = ChaCha8Rng::seed_from_u64(limits.seed);
    'lines: while seen.lines < limits.lines && looking.missing > 0 {
        seen.lines += 1;
        let mut pos = start.clone();
        for _ in 0..limits.line_length {
            if seen.decisions >= limits.max_decisions {
                break 'lines;
            }
            let actions = v.actions(&pos);
            if actions.is_empty() {
                break;
            }
            seen.decisions += 1;
            if pos.frame.as_ref().is_none_or(|f| f.at_rest()) {
                for a in &actions {
                    if let Action::Move(m) = a {
                        looking.note(&mut seen, &pos, m);
                    }
                }
                if looking.missing == 0 {
                    break 'lines;
                }
            }
            let a = actions[rng.random_range(0..actions.len())];
            pos = v.apply(&pos, &a);
        }
    }
    seen
}

impl Sought<'_> {
    /// Notes what the legal move `m` in `pos` (whose levels rest) shows.
    fn note(&mut self, seen: &mut Seen, pos: &Position, m: &Move) {
        let ordinary = matches!(m.kind, MoveKind::Normal | MoveKind::EnPassantSetter | MoveKind::EnPassant);
        if !ordinary || m.spread != 0 || m.observed != UNSEEN {
            return;
        }
        let Some(&code) = pos.board.get(m.from as usize).filter(|&&c| c != 0) else { return };
        let (kind, side) = (kind_of(code), color_of(code));
        if let Some(parts) = self.routes.get(&(side, kind, m.from, m.to)) {
            for &p in parts {
                if let Some(flag) = seen.parts.get_mut(kind as usize).and_then(|k| k.get_mut(p)) {
                    if !*flag {
                        *flag = true;
                        self.missing -= 1;
                    }
                }
            }
        }
        if m.is_promotion() {
            for (i, rule) in self.promotions.iter().enumerate() {
                if !seen.promotions[i] && rule.kind == kind && rule.zone[side as usize].contains(&m.to) {
                    seen.promotions[i] = true;
                    self.missing -= 1;
                }
            }
        }
    }
}
