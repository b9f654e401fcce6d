//! The semantic model of a variant: what the rules say, with every name
//! resolved and every movement pattern expanded into absolute vectors per
//! player. It is plain data (no caches); [`crate::tables::Tables`] compiles it
//! for execution and the checker reads the same model.

use crate::geometry::{Cell, Geometry};
use rulebook_grammar::ast::Span;

/// Index of a piece kind in [`Game::kinds`].
pub type KindId = u8;

/// A player: 0 moves first (white), 1 second (black).
pub type Color = u8;

/// A whole variant, ready to execute.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    /// The display name from `variant "…"`.
    pub name: String,
    /// The board.
    pub geometry: Geometry,
    /// The two players in turn order.
    pub players: [Player; 2],
    /// The piece kinds (at most 63).
    pub kinds: Vec<PieceKind>,
    /// Promotion rules.
    pub promotions: Vec<PromotionRule>,
    /// Castling, if the variant has it.
    pub castling: Option<CastlingRule>,
    /// Pieces in hand and drops, if the variant has them.
    pub hand: Option<HandRules>,
    /// How the game ends.
    pub end: EndRules,
    /// The initial position as (extended) FEN.
    pub setup: String,
    /// The rulings stated in the file(s).
    pub rulings: Vec<Ruling>,
}

/// One player's name and orientation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Player {
    /// `white`, `black`, …
    pub name: String,
    /// Direction words: `forward` → (axis, +1/-1).
    pub directions: Vec<(String, usize, i8)>,
    /// Per axis: -1 when this player's relative vectors are mirrored on it.
    pub orientation: Vec<i8>,
}

impl Player {
    /// Converts a vector written relative to this player into an absolute one.
    pub fn absolute(&self, relative: &[i32]) -> Vec<i32> {
        relative
            .iter()
            .zip(&self.orientation)
            .map(|(&v, &o)| v * o as i32)
            .collect()
    }

    /// The player's `forward` axis and sign, if declared.
    pub fn forward(&self) -> Option<(usize, i8)> {
        self.directions
            .iter()
            .find(|(w, _, _)| w == "forward")
            .map(|&(_, a, s)| (a, s))
    }
}

/// A kind of piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceKind {
    /// `King`, `Pawn`, …
    pub name: String,
    /// FEN letter, upper case.
    pub letter: char,
    /// May not be left attacked.
    pub royal: bool,
    /// The movement parts, each expanded per player.
    pub parts: Vec<Part>,
    /// Where it was defined (for diagnostics).
    pub span: Span,
}

/// One movement part after expansion.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Part {
    /// May move to an empty square.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
    /// Leap, ride or hop.
    pub kind: StepKind,
    /// The absolute step vectors, per player.
    pub vectors: [Vec<Vec<i32>>; 2],
    /// Most steps (`None`: to the edge); 1 for a leap.
    pub max: Option<u32>,
    /// A ride that must go exactly `max` steps (the squares before the last empty).
    pub exact: bool,
    /// Only from these cells, per player (`None`: anywhere).
    pub from: Option<[Vec<Cell>; 2]>,
    /// `from start`: `from` holds the cells where this kind stands in the setup.
    pub from_start: bool,
    /// Squares passed over become en-passant targets.
    pub sets_en_passant: bool,
    /// May capture on an en-passant target.
    pub takes_en_passant: bool,
    /// Where it was written.
    pub span: Span,
}

/// How a part's step repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// One step, jumping.
    Leap,
    /// Repeated steps over empty cells.
    Ride,
    /// Ride to a screen, jump it, land beyond.
    Hop,
}

/// A piece arriving in `zone` must become one of `targets`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PromotionRule {
    /// The promoting kind.
    pub kind: KindId,
    /// The zone, per player.
    pub zone: [Vec<Cell>; 2],
    /// What it may become.
    pub targets: Vec<KindId>,
    /// Where it was written.
    pub span: Span,
}

/// Castling of a royal piece with a partner (Chess960-general).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CastlingRule {
    /// The castling (royal) kind.
    pub king: KindId,
    /// The partner kind.
    pub rook: KindId,
    /// `short` (partner on the higher files) and/or `long`.
    pub sides: Vec<CastlingSide>,
    /// Where it was written.
    pub span: Span,
}

/// One side of castling: destinations per player.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CastlingSide {
    /// `true` for the side towards the higher files (`short`, O-O).
    pub short: bool,
    /// King destination per player.
    pub king_to: [Cell; 2],
    /// Partner destination per player.
    pub rook_to: [Cell; 2],
}

/// Hand and drop rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HandRules {
    /// Captured pieces change side and go to the captor's hand.
    pub capture_to_hand: bool,
    /// Promoted pieces go to hand as this kind.
    pub demote_to: Option<KindId>,
    /// Per kind and player, the cells a piece of that kind may be dropped on
    /// (`None` for a kind that cannot be dropped).
    pub drop_cells: Vec<Option<[Vec<Cell>; 2]>>,
}

/// How the game ends.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct EndRules {
    /// Result for the side to move when mated.
    pub checkmate: Option<Outcome>,
    /// Result for the side to move when stalemated.
    pub stalemate: Option<Outcome>,
    /// Full moves without capture or move of `fifty_move_piece` that draw.
    pub fifty_move: Option<u32>,
    /// The kind whose moves reset the count.
    pub fifty_move_piece: Option<KindId>,
    /// Occurrences of one position that draw.
    pub repetition: Option<u32>,
}

/// A result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Lose,
    /// Drawn.
    Draw,
}

/// A stated reading of an ambiguous passage.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ruling {
    /// Its name.
    pub name: String,
    /// Where the passage is from.
    pub source: Option<String>,
    /// The passage.
    pub quote: String,
    /// The reading chosen.
    pub reading: String,
    /// The file it was written in.
    pub file: String,
    /// Where.
    pub span: Span,
}

impl Game {
    /// The kind called `name`.
    pub fn kind_by_name(&self, name: &str) -> Option<KindId> {
        self.kinds.iter().position(|k| k.name == name).map(|i| i as KindId)
    }

    /// The kind with FEN letter `letter` (either case).
    pub fn kind_by_letter(&self, letter: char) -> Option<KindId> {
        let up = letter.to_ascii_uppercase();
        self.kinds.iter().position(|k| k.letter == up).map(|i| i as KindId)
    }

    /// Kinds written without a letter in SAN (pawn-like: those that promote).
    pub fn is_pawn_like(&self, kind: KindId) -> bool {
        self.promotions.iter().any(|p| p.kind == kind)
    }
}
