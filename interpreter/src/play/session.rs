//! A game in progress: the variant, the position it started from, the moves
//! played and the positions they led to, and a seeded random number generator
//! that decides chance outcomes left open and the moves of a random player.
//!
//! Runs are reproducible across platforms: the generator is ChaCha8 seeded
//! with [`ChaCha8Rng::seed_from_u64`], and every draw is an integer below a
//! bound taken from its 64-bit output by rejection ([`Session::below`]), so
//! one seed gives one game whatever the machine.
//!
//! The session also says what each player knows ([`Session::knowledge`]):
//! which identities of face-down pieces a viewer can still expect, and which
//! captured face-down pieces the viewer saw.

use crate::flow::Action;
use crate::model::{Color, Game, KindId, LetterSet, Outcome, SeenBy};
use crate::text::notation;
use crate::engine::position::{Move, Position, NO_KIND};
use crate::text::record::{GameResult, RecordedMove};
use crate::engine::variant::{Status, Variant};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulebook_grammar::Diagnostic;

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Session {
    /// The variant being played.
    pub variant: Variant,
    /// The letter set moves are written in (`None`: the FEN letters).
    pub letters: Option<LetterSet>,
    /// The seed of the random number generator.
    pub seed: u64,
    rng: ChaCha8Rng,
    /// The generator as it was at the start, then after each move (what
    /// [`Session::undo`] goes back to).
    rngs: Vec<ChaCha8Rng>,
    /// The start position, then the position after each move.
    positions: Vec<Position>,
    /// The decisions played (moves with their chance outcomes, placements,
    /// activations, relocations, passes), one per position after the start.
    moves: Vec<Action>,
}

/// What one viewer knows about one player's face-down pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HiddenKnowledge {
    /// The player's face-down pieces on the board.
    pub on_board: u32,
    /// The identities those pieces may have, as a multiset (kind ids in
    /// ascending order, repeated): the player's undrawn identities plus the
    /// identities of the player's captured face-down pieces the viewer did not
    /// see. It has `on_board + captured_unseen` entries.
    pub undrawn: Vec<KindId>,
    /// The identities of the player's captured face-down pieces the viewer
    /// saw, in the order they were captured.
    pub captured_seen: Vec<KindId>,
    /// How many of the player's face-down pieces were captured out of the viewer's sight.
    pub captured_unseen: u32,
}

/// What one viewer knows about the face-down pieces of both players.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Knowledge {
    /// Per player (by colour).
    pub players: [HiddenKnowledge; 2],
}

/// Why a move could not be played in a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The move is not among the legal moves of the position.
    Illegal,
    /// The game has already ended by rule.
    GameOver(Status),
}

impl Session {
    /// A new game of `variant` from `start`, with the random number generator
    /// seeded with `seed`; moves are written in the letter set `letters`.
    pub fn new(variant: Variant, start: Position, seed: u64, letters: Option<LetterSet>) -> Session {
        let rng = ChaCha8Rng::seed_from_u64(seed);
        Session {
            variant,
            letters,
            seed,
            rngs: vec![rng.clone()],
            rng,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        // `positions` always holds at least the start.
        &self.positions[self.positions.len() - 1]
    }

    /// The positions before the current one, oldest first (for repetition).
    pub fn earlier(&self) -> &[Position] {
        &self.positions[..self.positions.len() - 1]
    }

    /// Every position of the game: the start, then one after each move.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The decisions played, moves with their chance outcomes: one per
    /// position after the start (a ply of several decisions is several).
    pub fn moves(&self) -> &[Action] {
        &self.moves
    }

    /// How the game stands now.
    pub fn status(&self) -> Status {
        self.variant.status_in_game(self.position(), self.earlier())
    }

    /// The result when the game has ended by rule (mate, stalemate, a draw
    /// rule), `None` while it goes on.
    pub fn result_by_rule(&self) -> Option<GameResult> {
        result_of(self.status(), self.position().side)
    }

    /// The legal moves now, each chance outcome its own move.
    pub fn legal(&self) -> Vec<Move> {
        self.variant.legal_moves(self.position())
    }

    /// The distinct decisions among the legal moves ([`Move::decision`]), in
    /// the order the moves are generated.
    pub fn decisions(&self) -> Vec<Move> {
        let mut out: Vec<Move> = Vec::new();
        for m in self.legal() {
            let d = m.decision();
            if !out.contains(&d) {
                out.push(d);
            }
        }
        out
    }

    /// The legal moves `text` may mean (one decision; several moves when the
    /// text leaves the chance outcome open), read in the session's letter set.
    /// `name` and `offset` say where the text came from, for the diagnostic.
    pub fn candidates(&self, text: &str, name: &str, offset: usize) -> Result<Vec<Move>, Diagnostic> {
        notation::parse_candidates(&self.variant, self.position(), text, self.letters.as_ref(), name, offset)
    }

    /// The moves `text`, a move of a record, may mean. A record without a
    /// `Letters` tag (`untagged`) was written in the FEN letters (before the
    /// tag was always written): they are tried first, then the session's
    /// letters (every letter set, for a record written by hand).
    pub fn record_candidates(&self, text: &str, untagged: bool, name: &str, offset: usize) -> Result<Vec<Move>, Diagnostic> {
        if untagged {
            let in_fen_letters = notation::parse_candidates(&self.variant, self.position(), text, Some(&fen_letters()), name, offset);
            if let Ok(found) = in_fen_letters {
                return Ok(found);
            }
        }
        self.candidates(text, name, offset)
    }

    /// A uniform integer below `bound` (0 when `bound` is 0), by rejection
    /// from the generator's 64-bit outputs: the same on every platform.
    pub fn below(&mut self, bound: u64) -> u64 {
        if bound <= 1 {
            return 0;
        }
        // 2^64 mod bound: outputs from 2^64 - that value on would favour the low results.
        let excess = (u64::MAX % bound + 1) % bound;
        loop {
            let x = self.rng.next_u64();
            if x <= u64::MAX - excess {
                return x % bound;
            }
        }
    }

    /// One of `candidates` (branches of one chance node in the current
    /// position), drawn with the probability of its outcome
    /// ([`Variant::probability`]): an integer below the sum of the
    /// probabilities over their common denominator picks the outcome (the
    /// revealed and the captured identity), so the draw is exact. Candidates
    /// that share an outcome differ only in a promotion chosen after it; each
    /// outcome is weighted once and its first candidate returned. The same
    /// holds for the outcomes of collisions and tunnels (their units' rolls,
    /// whose probabilities [`Variant::probability`] gives). A single
    /// outcome is returned without drawing. `None` when there is no
    /// candidate, every one is impossible, or the weights do not fit in 64 bits.
    pub fn resolve(&mut self, candidates: &[Move]) -> Option<Move> {
        let mut outcomes: Vec<Move> = Vec::new();
        for m in candidates {
            if !outcomes.iter().any(|o| same_outcome(o, m)) {
                outcomes.push(*m);
            }
        }
        match outcomes.as_slice() {
            [] => return None,
            [only] => return Some(*only),
            _ => {}
        }
        let pos = self.position();
        let ratios: Vec<_> = outcomes.iter().map(|m| self.variant.probability(pos, m)).collect();
        let mut denominator: u64 = 1;
        for r in &ratios {
            denominator = lcm(denominator, *r.denom())?;
        }
        let mut weights = Vec::with_capacity(ratios.len());
        let mut total: u64 = 0;
        for r in &ratios {
            let w = r.numer().checked_mul(denominator / r.denom())?;
            total = total.checked_add(w)?;
            weights.push(w);
        }
        if total == 0 {
            return None;
        }
        let mut x = self.below(total);
        for (m, w) in outcomes.iter().zip(weights) {
            if x < w {
                return Some(*m);
            }
            x -= w;
        }
        None
    }

    /// A random legal move for the side to move: a decision drawn uniformly
    /// among the distinct decisions, then its chance outcome drawn by
    /// [`Session::resolve`], then (when the outcome must promote) a
    /// promotion target drawn uniformly. `None` when there is no legal move.
    pub fn random_move(&mut self) -> Option<Move> {
        let legal = self.legal();
        let decisions = self.decisions();
        if decisions.is_empty() {
            return None;
        }
        let pick = decisions[self.below(decisions.len() as u64) as usize];
        let branches: Vec<Move> = legal.into_iter().filter(|m| m.decision() == pick).collect();
        let drawn = self.resolve(&branches)?;
        let choices: Vec<Move> = branches.into_iter().filter(|m| same_outcome(m, &drawn)).collect();
        choices.get(self.below(choices.len() as u64) as usize).copied()
    }

    /// One of the decisions of the current position drawn at random: where
    /// they are all moves, [`Session::random_move`]; else each decision
    /// (activation, relocation, pass, move) is equally likely. `None` when
    /// there is none.
    pub fn random_action(&mut self) -> Option<Action> {
        let actions = self.variant.actions(self.position());
        if actions.iter().all(|a| a.as_move().is_some()) {
            return self.random_move().map(Action::Move);
        }
        if actions.is_empty() {
            return None;
        }
        Some(actions[self.below(actions.len() as u64) as usize])
    }

    /// The decision `text` names in the current position when it is written
    /// as an activation, relocation or pass (LANGUAGE §6.5), `None` for any
    /// other text (a move: [`Session::candidates`]).
    pub fn non_move(&self, text: &str, name: &str, offset: usize) -> Option<Result<Action, Diagnostic>> {
        notation::action::parse_non_move(&self.variant, self.position(), text, name, offset)
    }

    /// Plays `m`, which must be a legal move (with its chance outcome) of the
    /// current position, in a game that has not ended by rule.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        self.play_action(Action::Move(m))
    }

    /// Plays `a`, one of the decisions of the current position (a move with
    /// its chance outcome, an activation, a relocation, a pass), in a game
    /// that has not ended by rule.
    pub fn play_action(&mut self, a: Action) -> Result<(), PlayError> {
        let status = self.status();
        if status != Status::Ongoing {
            return Err(PlayError::GameOver(status));
        }
        let listed = match &a {
            // An equal split may be written with its colours the other way
            // round from the legal move (the first cell written is red).
            Action::Move(m) => notation::is_listed(&self.variant, &self.legal(), m),
            other => self.variant.actions(self.position()).contains(other),
        };
        if !listed {
            return Err(PlayError::Illegal);
        }
        let next = match &a {
            Action::Move(m) => self.variant.play(self.position(), m),
            other => self.variant.apply(self.position(), other),
        };
        self.moves.push(a);
        self.positions.push(next);
        self.rngs.push(self.rng.clone());
        Ok(())
    }

    /// Takes back the last move, its chance outcome with it: the position
    /// and the random number generator go back to where they were before
    /// it, so the same move played again draws the same outcome (taking a
    /// move back cannot draw its chance again). Returns the move taken
    /// back, `None` when no move was played.
    pub fn undo(&mut self) -> Option<Action> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.rngs.pop();
        if let Some(rng) = self.rngs.last() {
            self.rng = rng.clone();
        }
        Some(m)
    }

    /// Decision `ply` (0-based) as a record writes it: SAN in the session's
    /// letter set, fully specified (the revealed identity, a captured
    /// face-down piece's identity in brackets), with its check mark; an
    /// activation, relocation or pass as LANGUAGE §6.5 writes it.
    pub fn san(&self, ply: usize) -> String {
        let (Some(pos), Some(a)) = (self.positions.get(ply), self.moves.get(ply)) else {
            return String::new();
        };
        let legal = self.variant.legal_moves(pos);
        notation::action::action_san(&self.variant, pos, a, &legal, self.letters.as_ref())
    }

    /// Did `viewer` (`None`: the arbiter, who sees everything) see the
    /// identity of the face-down piece captured by move `ply`? (`true` when
    /// the move captured none.)
    pub fn saw_capture(&self, ply: usize, viewer: Option<Color>) -> bool {
        let (Some(pos), Some(Action::Move(m))) = (self.positions.get(ply), self.moves.get(ply)) else {
            return true;
        };
        m.unveil == NO_KIND || sees(self.seen_by(), pos.side, viewer)
    }

    /// Move `ply` as `viewer` knows it: [`Session::san`], with a captured
    /// face-down piece's identity shown as `[?]` when the viewer did not see it.
    pub fn san_for(&self, ply: usize, viewer: Option<Color>) -> String {
        let san = self.san(ply);
        if self.saw_capture(ply, viewer) {
            return san;
        }
        match (san.rfind('['), san.rfind(']')) {
            (Some(open), Some(close)) if open < close => format!("{}[?]{}", &san[..open], &san[close + 1..]),
            _ => san,
        }
    }

    /// Every move with its number and the side that made it, as [`Session::san`] writes it.
    pub fn recorded(&self) -> Vec<RecordedMove> {
        (0..self.moves.len())
            .map(|ply| RecordedMove {
                number: self.positions[ply].fullmove,
                // A decision belongs to its ply: mid-ply, whoever makes it
                // (the obligation's player), it continues the mover's unit.
                side: crate::flow::ply::mover(&self.positions[ply]),
                text: self.san(ply),
            })
            .collect()
    }

    /// Who sees captured face-down pieces (everybody when the game has none).
    fn seen_by(&self) -> SeenBy {
        self.variant.game.hidden.as_ref().map_or(SeenBy::Both, |h| h.seen_by)
    }

    /// What `viewer` (`None`: the arbiter) knows now about each player's
    /// face-down pieces.
    pub fn knowledge(&self, viewer: Option<Color>) -> Knowledge {
        let pos = self.position();
        let nwords = self.variant.tables.nwords;
        let mut out = Knowledge::default();
        let mut unseen_kinds: [Vec<KindId>; 2] = [Vec::new(), Vec::new()];
        for (ply, a) in self.moves.iter().enumerate() {
            let Action::Move(m) = a else { continue };
            if m.unveil == NO_KIND {
                continue;
            }
            let mover = self.positions[ply].side;
            let owner = (mover ^ 1) as usize;
            if sees(self.seen_by(), mover, viewer) {
                out.players[owner].captured_seen.push(m.unveil);
            } else {
                out.players[owner].captured_unseen += 1;
                unseen_kinds[owner].push(m.unveil);
            }
        }
        for color in 0..2u8 {
            let k = &mut out.players[color as usize];
            k.on_board = pos.cells_of(color, nwords).filter(|&c| pos.is_hidden(c)).count() as u32;
            let mut counts = pos.pool[color as usize];
            for &kind in &unseen_kinds[color as usize] {
                counts[kind as usize] = counts[kind as usize].saturating_add(1);
            }
            for (kind, &n) in counts.iter().enumerate() {
                k.undrawn.extend(std::iter::repeat_n(kind as KindId, n as usize));
            }
        }
        out
    }
}

/// The FEN letters as a letter set, named `en` (the name the rules language
/// reserves for them): every kind keeps the letter of its `piece`
/// definition. A session in this set reads moves in the FEN letters only
/// (a session without a set reads any set the variant declares).
pub fn fen_letters() -> LetterSet {
    LetterSet { name: FEN_LETTERS.to_string(), letters: Vec::new(), span: Default::default(), file: String::new() }
}

/// The name of the FEN letters as a letter set (`--letters en`, `[Letters "en"]`).
pub const FEN_LETTERS: &str = "en";

/// The letter set `name` names in `game` (`--letters`, a record's `Letters`
/// tag): [`FEN_LETTERS`] for the FEN letters, else one the variant declares;
/// `None` when it declares none of that name.
pub fn letter_set_named(game: &Game, name: &str) -> Option<LetterSet> {
    if name == FEN_LETTERS {
        return Some(fen_letters());
    }
    game.letter_set(name).cloned()
}

/// Does `viewer` see the identity of a face-down piece captured by `capturer`?
fn sees(seen_by: SeenBy, capturer: Color, viewer: Option<Color>) -> bool {
    match viewer {
        None => true,
        Some(v) => match seen_by {
            SeenBy::Both => true,
            SeenBy::Capturer => v == capturer,
            SeenBy::Nobody => false,
        },
    }
}

/// The result a status means with `side` to move (`None` while the game goes on).
pub fn result_of(status: Status, side: Color) -> Option<GameResult> {
    let outcome = match status {
        Status::Ongoing => return None,
        Status::Checkmate(o) | Status::Stalemate(o) | Status::Rule { outcome: o, .. } => o,
        Status::FiftyMoves | Status::Repetition => Outcome::Draw,
    };
    Some(match outcome {
        Outcome::Draw => GameResult::Draw,
        Outcome::Win => GameResult::win_for(side),
        Outcome::Lose => GameResult::win_for(side ^ 1),
    })
}

/// The least common multiple, `None` on overflow.
fn lcm(a: u64, b: u64) -> Option<u64> {
    if a == 0 || b == 0 {
        return Some(0);
    }
    let mut x = a;
    let mut y = b;
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x).checked_mul(b)
}

/// Do `a` and `b` have the same chance outcome (revealed and captured
/// identity, the branches of a collision, a tunnel's pass or bounce)?
fn same_outcome(a: &Move, b: &Move) -> bool {
    a.reveal == b.reveal && a.unveil == b.unveil && a.outcome == b.outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::sync::Arc;

    /// A session of the rules file `rules/NAME` (`None` when it is not there yet).
    /// A session of `rules/NAME` from its setup (panics when the file does not load).
    fn session(name: &str, seed: u64) -> Session {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules").join(name);
        let (game, _) = crate::model::load::load(&path).unwrap_or_else(|_| panic!("{} does not load", path.display()));
        let variant = Variant::new(Arc::new(game));
        let start = variant.start().expect("the setup parses");
        Session::new(variant, start, seed, None)
    }

    #[test]
    fn draws_below_a_bound_are_in_range_and_reproducible() {
        let mut a = session("chess.rules", 9);
        let mut b = session("chess.rules", 9);
        for bound in [1u64, 2, 3, 15, 1 << 40, u64::MAX] {
            for _ in 0..50 {
                let x = a.below(bound);
                assert!(x < bound);
                assert_eq!(x, b.below(bound));
            }
        }
        assert_eq!(a.below(0), 0);
    }

    #[test]
    fn a_game_of_random_moves_is_the_same_for_the_same_seed() {
        let play = |seed: u64| {
            let mut s = session("chess.rules", seed);
            for _ in 0..40 {
                let Some(m) = s.random_move() else { break };
                s.play(m).expect("a random move is legal");
            }
            s.recorded()
        };
        assert_eq!(play(3), play(3));
        assert_ne!(play(3), play(4));
    }

    #[test]
    fn open_outcomes_are_drawn_in_proportion() {
        let mut s = session("nebelschach.rules", 1);
        let candidates = s.candidates("h4", "<test>", 0).expect("h4 is legal");
        assert_eq!(candidates.len(), 5, "queen, rook, bishop, knight or pawn");
        let mut counts = std::collections::HashMap::new();
        let n = 15_000;
        for _ in 0..n {
            let m = s.resolve(&candidates).expect("a candidate");
            *counts.entry(m.reveal).or_insert(0u32) += 1;
        }
        let game = &s.variant.game;
        let pawn = game.kind_by_name("Pawn").expect("pawn");
        let queen = game.kind_by_name("Queen").expect("queen");
        // 8 of 15 pawns and 1 of 15 queens: 8000 and 1000 expected.
        let pawns = counts.get(&pawn).copied().unwrap_or(0);
        let queens = counts.get(&queen).copied().unwrap_or(0);
        assert!((7600..8400).contains(&pawns), "{counts:?}");
        assert!((850..1150).contains(&queens), "{counts:?}");
    }

    #[test]
    fn what_each_side_knows_of_a_captured_face_down_piece() {
        let mut s = session("nebelschach.rules", 1);
        s.letters = s.variant.game.letter_set("de").cloned();
        for text in ["Sc3S", "a6B", "Sd5", "a5", "Sxc7[T]"] {
            let c = s.candidates(text, "<test>", 0).expect("legal");
            assert_eq!(c.len(), 1, "{text} names its outcome");
            s.play(c[0]).expect("plays");
        }
        let rook = s.variant.game.kind_by_name("Rook").expect("rook");
        let white = s.knowledge(Some(0));
        assert_eq!(white.players[1].captured_seen, [rook]);
        assert_eq!(white.players[1].captured_unseen, 0);
        assert_eq!(white.players[1].undrawn.len() as u32, white.players[1].on_board);
        let black = s.knowledge(Some(1));
        assert!(black.players[1].captured_seen.is_empty());
        assert_eq!(black.players[1].captured_unseen, 1);
        assert_eq!(black.players[1].undrawn.len() as u32, black.players[1].on_board + 1);
        assert_eq!(s.knowledge(None), white);
        assert_eq!(s.san_for(4, Some(1)), "Sxc7[?]+");
        assert_eq!(s.san_for(4, Some(0)), "Sxc7[T]+");
    }

    /// A session of `rules/niels-chess.rules` from `fen`.
    fn niels(fen: &str, seed: u64) -> Session {
        let s = session("niels-chess.rules", seed);
        let start = s.variant.parse_fen(fen, "<test>").unwrap_or_else(|d| panic!("{fen}: {}", d.message));
        Session::new(s.variant, start, seed, None)
    }

    #[test]
    fn collision_outcomes_are_drawn_with_their_weights() {
        // The knight pair is unequal: red (c3) 2/3, blue (a1) 1/3.
        let mut s = niels("4k3/8/8/3p4/8/2N5/8/N3K3 w - - 0 1 ~ Nc3a1:unequal", 5);
        let candidates = s.candidates("Nc3xd5", "<test>", 0).expect("a collision");
        assert_eq!(candidates.len(), 2, "red or blue");
        let (mut red, n) = (0u32, 15_000);
        for _ in 0..n {
            let m = s.resolve(&candidates).expect("an outcome");
            if m.outcome == crate::engine::spread::ATTACKER_RED {
                red += 1;
            }
        }
        assert!((9_600..10_400).contains(&red), "{red} of {n} red, 10000 expected");
        // A written outcome is one move, and its face says the same.
        let blue = s.candidates("Nc3xd5/blue", "<test>", 0).expect("legal");
        assert_eq!(blue, s.candidates("Nc3xd5/6", "<test>", 0).expect("legal"));
        s.play(blue[0]).expect("plays");
        // The knight was on a1: nothing moved, the pawn stands, the pair collapsed.
        assert_eq!(s.variant.fen(s.position()), "4k3/8/8/3p4/8/8/8/N3K3 b - - 1 1");
        assert_eq!(s.san(0), "Nc3xd5/blue");
    }

    #[test]
    fn an_equal_split_is_played_in_the_order_written() {
        let mut s = session("niels-chess.rules", 1);
        for (text, fen) in [
            ("Nh3&f3", "rnbqkbnr/pppppppp/8/8/8/5N1N/PPPPPPPP/RNBQKB1R b KQkq - 1 1 ~ Nh3f3:equal"),
            ("Nf6&h6", "rnbqkb1r/pppppppp/5n1n/8/8/5N1N/PPPPPPPP/RNBQKB1R w KQkq - 2 2 ~ Nh3f3:equal nf6h6:equal"),
        ] {
            let c = s.candidates(text, "<test>", 0).expect("legal");
            assert_eq!(c.len(), 1);
            s.play(c[0]).expect("plays");
            assert_eq!(s.variant.fen(s.position()), fen);
        }
        assert_eq!(s.san(0), "Nh3&f3");
        assert_eq!(s.san(1), "Nf6&h6");
    }

    #[test]
    fn random_niels_games_read_back_from_their_notation() {
        let mut seen = String::new();
        for seed in 0..6 {
            let mut s = session("niels-chess.rules", seed);
            for _ in 0..60 {
                let Some(m) = s.random_move() else { break };
                s.play(m).expect("a random move is legal");
            }
            let mut again = session("niels-chess.rules", seed + 100);
            for (ply, rec) in s.recorded().iter().enumerate() {
                let c = again.candidates(&rec.text, "<test>", 0).unwrap_or_else(|d| panic!("{}: {}", rec.text, d.message));
                assert_eq!(c.len(), 1, "{} names one move", rec.text);
                let Action::Move(played) = s.moves()[ply] else { panic!("niels-chess has moves only") };
                assert_eq!(c[0], played, "{}", rec.text);
                again.play(c[0]).expect("plays");
                let coordinate = notation::coordinate(&s.variant, &played);
                let mut third = Session::new(s.variant.clone(), s.positions()[ply].clone(), 0, None);
                let c = third.candidates(&coordinate, "<test>", 0).unwrap_or_else(|d| panic!("{coordinate}: {}", d.message));
                assert_eq!(c, [played], "{coordinate}");
                third.play(c[0]).expect("plays");
            }
            assert_eq!(s.variant.fen(s.position()), again.variant.fen(again.position()));
            for rec in s.recorded() {
                seen.push_str(&rec.text);
                seen.push(' ');
            }
        }
        // The games had splits, collisions of one and of two units, entangles and a tunnel.
        for mark in ["&", ">", "/red ", "/blue/", "~", "^"] {
            assert!(seen.contains(mark), "no `{mark}` in {seen}");
        }
    }

    #[test]
    fn undo_takes_a_move_back_with_its_draw() {
        let mut s = session("nebelschach.rules", 8);
        assert_eq!(s.undo(), None, "nothing to take back at the start");
        let start = s.variant.fen(s.position());
        let candidates = s.candidates("h4", "<test>", 0).expect("legal");
        let first = s.resolve(&candidates).expect("drawn");
        s.play(first).expect("plays");
        assert_eq!(s.undo(), Some(Action::Move(first)));
        assert_eq!(s.variant.fen(s.position()), start);
        assert!(s.moves().is_empty());
        // The draw is taken back too: the same move draws the same outcome.
        let again = s.resolve(&candidates).expect("drawn");
        assert_eq!(again, first);
    }

    #[test]
    fn the_fen_letter_set_reads_only_the_fen_letters() {
        let mut s = session("nebelschach.rules", 1);
        // `e4B`: revealed as a bishop in the FEN letters, as a pawn (Bauer) in `de`.
        assert!(s.candidates("e4B", "<test>", 0).is_err(), "ambiguous in any set");
        s.letters = Some(fen_letters());
        let c = s.candidates("e4B", "<test>", 0).expect("one reading");
        assert_eq!(c.len(), 1);
        let bishop = s.variant.game.kind_by_name("Bishop").expect("bishop");
        assert_eq!(c[0].reveal, bishop);
    }

    #[test]
    fn least_common_multiples() {
        assert_eq!(lcm(4, 6), Some(12));
        assert_eq!(lcm(1, 15), Some(15));
        assert_eq!(lcm(u64::MAX, u64::MAX - 1), None);
    }

    #[test]
    fn who_sees_a_capture() {
        assert!(sees(SeenBy::Nobody, 0, None));
        assert!(sees(SeenBy::Both, 0, Some(1)));
        assert!(sees(SeenBy::Capturer, 1, Some(1)));
        assert!(!sees(SeenBy::Capturer, 1, Some(0)));
        assert!(!sees(SeenBy::Nobody, 1, Some(1)));
    }

    #[test]
    fn results_of_statuses() {
        assert_eq!(result_of(Status::Ongoing, 0), None);
        assert_eq!(result_of(Status::Checkmate(Outcome::Lose), 1), Some(GameResult::WhiteWins));
        assert_eq!(result_of(Status::Checkmate(Outcome::Lose), 0), Some(GameResult::BlackWins));
        assert_eq!(result_of(Status::Stalemate(Outcome::Win), 0), Some(GameResult::WhiteWins));
        assert_eq!(result_of(Status::Repetition, 0), Some(GameResult::Draw));
    }
}
