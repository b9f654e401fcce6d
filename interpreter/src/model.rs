//! The semantic model of a variant: what the rules say, with every name
//! resolved and every movement pattern expanded into absolute vectors per
//! player. It is plain data (no caches); [`crate::engine::tables::Tables`] compiles it
//! for execution and the checker reads the same model.

//!
//! Its parts: [`geometry`] (cells, axes, square names), [`lower`] (syntax
//! trees to this model, one module per item), [`load`] (a rules file and its
//! `extends` chain from disk, without the database).

pub mod flow;
pub mod cond;
pub mod doc;
pub mod example;
pub mod claim_words;
pub mod geometry;
pub mod load;
pub mod lower;
pub mod observe;
pub mod explosion;
pub mod slide;

use crate::model::geometry::{Cell, Geometry};
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
    /// Promotions made as moves of their own (`Pawn … becomes Fers in place`).
    pub promotion_moves: Vec<PromotionMove>,
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
    /// The claims stated in the file(s), ancestors' first (`rulebook check` proves or refutes them).
    pub claims: Vec<Claim>,
    /// Hidden identities (`hidden { … }`), if the variant has face-down pieces.
    pub hidden: Option<HiddenRules>,
    /// Other letter sets for move notation (`letters de { … }`), besides the FEN letters.
    pub letter_sets: Vec<LetterSet>,
    /// The dice chance events roll (`die d6 1..6`), in file order.
    pub dice: Vec<Die>,
    /// Spread pieces (`spread { … }`): a piece may stand on two squares at once.
    pub spread: Option<SpreadRules>,
    /// Tunnelling through a barrier (`tunnel { … }`).
    pub tunnel: Option<TunnelRules>,
    /// Levels that slide out of the shaft during play (`slide { … }`).
    pub slide: Option<slide::SlideRules>,
    /// Moving pieces seen by enemy pieces are slowed or displaced (`observe { … }`).
    pub observe: Option<observe::Observation>,
    /// Every capture explodes on its target square (`explosion { … }`).
    pub explosion: Option<explosion::Explosion>,
    /// The phases before play (`phase NAME { … }`), in order; empty: play from the start.
    pub phases: Vec<flow::Phase>,
    /// The rule-defined conditions and effects (`rule "name" { … }`), in file
    /// order; empty: none (and the rules layer is never entered).
    pub rules: Vec<cond::Rule>,
    /// The doc comments (`##` lines above an item) of every file of the
    /// chain, ancestors' first, each with the item it documents and its file.
    pub docs: Vec<doc::ItemDoc>,
    /// The worked examples (`example "NAME" { … }`) of the variant's own
    /// file, in file order (not inherited).
    pub examples: Vec<example::Example>,
}

/// A die (`die d6 1..6`): a chance event with equally likely faces.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Die {
    /// Its name in the file (`d6`).
    pub name: String,
    /// The number of faces, numbered 1..=faces.
    pub faces: u8,
}

/// Spread pieces (`spread { … }`).
///
/// A conventional piece may *split*: make two of its quiet moves at once, or
/// one quiet move and stay, and so stand on two squares (a *pair*: a red and
/// a blue half) with a chosen weight. Pairs belong to *units*; a unit
/// collapses on one roll of its weight's die, every member to the branch
/// (red or blue) the roll gives. Both halves stand on the board: they block
/// rides and fill squares in every world. A capture attempt that collides
/// with a half, or is made by one, collapses the units involved first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpreadRules {
    /// `squares at most N`: how many squares one piece may stand on (2).
    pub squares: u8,
    /// The weights a split may choose (`weight equal …`), in file order.
    pub weights: Vec<Weight>,
    /// `red forward K …`: kinds whose red half must be the one in front.
    pub red_forward: Vec<KindId>,
    /// `castling splits`: a royal piece may make a castling move as one of
    /// the two moves of a split (the partner then joins its unit).
    pub castling_split: bool,
    /// Entanglement (`entangle { … }`), if the variant has it.
    pub entangle: Option<EntangleRules>,
    /// Where the block was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}

/// One weight of a split (`weight unequal roll d6 { red 1..4  blue 5 6 }`: red 4/6, blue 2/6).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Weight {
    /// Its name (`equal`).
    pub name: String,
    /// The die rolled when a unit of this weight collapses (index into `Game::dice`).
    pub die: usize,
    /// The faces that mean red.
    pub red_faces: Vec<u8>,
    /// The faces that mean blue.
    pub blue_faces: Vec<u8>,
    /// The separator written between the two cells of a split (`&` when red
    /// and blue are equally likely, `>` when red is likelier, `<` otherwise).
    pub separator: char,
}

/// Entanglement (`entangle { groups "/" "\\" }`): a stay-and-move split that
/// attacks a half of an enemy pair joins that pair's unit, so they collapse
/// on one roll; a unit of two or more pieces is a *group* and takes a label.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EntangleRules {
    /// The group labels; their number is the most groups that may exist at once.
    pub labels: Vec<String>,
    /// Where the block was written.
    pub span: Span,
}

/// Tunnelling (`tunnel { roll d6 { through 6  bounce 1..5 } }`): a conventional
/// piece may ride to the empty cell directly behind one enemy conventional
/// piece on its line; a roll decides whether it passes or bounces back (the
/// position stays, the turn passes).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TunnelRules {
    /// The die rolled (index into `Game::dice`).
    pub die: usize,
    /// The faces on which the piece passes.
    pub through_faces: Vec<u8>,
    /// Where the block was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}

/// Hidden identities: pieces that start face down (`hidden { … }`).
///
/// In the setup every piece of one of `kinds` stands face down. A face-down
/// piece moves as the kind the board shows on its square (its *disguise*:
/// the setup's piece there). When it moves it is revealed on arrival: its
/// identity is drawn from its owner's *pool* (the identities of that
/// player's face-down pieces not yet drawn), each kind with probability
/// count/total, a chance event. A captured face-down piece is drawn from its
/// owner's pool the same way; `seen_by` says who learns what it was.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HiddenRules {
    /// The kinds that stand face down in the setup (never royal).
    pub kinds: Vec<KindId>,
    /// Who sees a captured face-down piece's identity.
    pub seen_by: SeenBy,
    /// Where the block was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}

/// Who learns the identity of a captured face-down piece (`captured seen by …`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeenBy {
    /// The capturing player only (`capturer`).
    Capturer,
    /// Both players (`both`).
    Both,
    /// Nobody (`nobody`): it leaves the game unseen.
    Nobody,
}

/// A second set of piece letters for move notation (`letters de { Queen D … }`).
/// Kinds it does not name keep their FEN letter.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LetterSet {
    /// Its name (`de`), as given to `--letters` and in a record's `Letters` tag.
    pub name: String,
    /// The letter (upper case) of each kind it names.
    pub letters: Vec<(KindId, char)>,
    /// Where it was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}

impl LetterSet {
    /// The letter of `kind` in this set (its FEN letter when the set does not name it).
    pub fn letter(&self, game: &Game, kind: KindId) -> char {
        self.letters
            .iter()
            .find(|&&(k, _)| k == kind)
            .map(|&(_, c)| c)
            .unwrap_or(game.kinds[kind as usize].letter)
    }
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
    /// `no royal piece`: the player never has a royal piece (horde chess's
    /// white), so is never in check; a position may not give him one.
    pub no_royal: bool,
    /// `in check only when all royal pieces are attacked`: with several
    /// royal pieces the player may leave some attacked, not all at once
    /// (spartan's two kings).
    pub all_royal: bool,
    /// What the player does with walls after each move (duck chess, amazons).
    pub wall: Option<WallRule>,
}

/// Walls: blockers nobody owns (FEN `*`): nothing moves onto or through
/// them, nothing captures them. What a player does with them after each of
/// its moves (`then …` under `players`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WallRule {
    /// `moves the wall anywhere` (duck chess): the walls are taken away and
    /// one is put on an empty square (after the move) where none stood.
    MovesAnywhere,
    /// `shoots a wall from the moved piece` (amazons): a new wall on a square
    /// the moved piece could move to (quietly) from where it landed.
    ShootsFromMoved,
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
    /// Written `+LETTER` (`piece Tokin +P`): the promoted form of the kind
    /// lettered `LETTER`, which it becomes again when captured to hand.
    pub plus: bool,
    /// May not be left attacked.
    pub royal: bool,
    /// `pass`: a player who has a piece of this kind may pass (a move that
    /// leaves the board as it is, written with its square twice).
    pub passes: bool,
    /// `pass only when no other move`: the pass is legal only without
    /// another legal move (ataxx, othello).
    pub pass_when_stuck: bool,
    /// `converts around N`: where it lands, enemy pieces within N king
    /// steps change to its side (ataxx).
    pub converts_around: Option<u32>,
    /// `converts enclosed`: where it lands, every straight line of enemy
    /// pieces from it to another piece of its side changes side (othello).
    pub converts_enclosed: bool,
    /// The movement parts, each expanded per player.
    pub parts: Vec<Part>,
    /// Where it was defined (for diagnostics).
    pub span: Span,
    /// The file it was defined in.
    pub file: String,
}

impl PieceKind {
    /// How FEN and notation write a piece of this kind for `color` (0 upper
    /// case, 1 lower case): its letter, after `+` for a promoted form.
    pub fn written(&self, color: u8) -> String {
        let l = if color == 0 { self.letter } else { self.letter.to_ascii_lowercase() };
        if self.plus {
            format!("+{l}")
        } else {
            l.to_string()
        }
    }
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
    /// `via step`: a leap passes the cell one step along its longest
    /// components (where an `observe` item can see it; it is not blocked there).
    pub via_step: bool,
    /// `lame`: a leap blocked when the cell of `via_step` is occupied (the
    /// xiangqi horse and elephant); `via_step` is set too.
    pub lame: bool,
    /// `within ZONE`, per player: the part's moves land only on these cells.
    pub within: Option<[Vec<Cell>; 2]>,
    /// `if unmoved`: only while the piece keeps its first-move right
    /// (`Position::unmoved`); a `quiet` part.
    pub unmoved: bool,
    /// `if not in check`: only while its owner is not in check; a `quiet` part.
    pub not_in_check: bool,
    /// `not over Cannon`: a hop whose screen is of this kind goes nowhere.
    pub not_over: Option<KindId>,
    /// Where it was written.
    pub span: Span,
}

/// The cells a lame leap by `v` passes, as offsets from its start: each
/// step moves one along every component whose remaining distance is the
/// largest, until one step is left (the knight's (2,1) passes (1,0); the
/// xiangqi elephant's (2,2) passes (1,1); the janggi elephant's (3,2)
/// passes (1,0) and (2,1)). A lame leap is blocked where any of them is
/// occupied.
pub fn lame_path(v: &[i32]) -> Vec<Vec<i32>> {
    let mut at = vec![0i32; v.len()];
    let mut out = Vec::new();
    loop {
        let rem: Vec<i32> = v.iter().zip(&at).map(|(t, a)| t - a).collect();
        let most = rem.iter().map(|x| x.abs()).max().unwrap_or(0);
        if most <= 1 {
            return out;
        }
        for (a, r) in at.iter_mut().zip(&rem) {
            if r.abs() == most {
                *a += r.signum();
            }
        }
        out.push(at.clone());
    }
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

/// A piece arriving in `zone` (or, with `from_too`, leaving it) must become
/// one of `targets`; a target that is its own kind is the move without
/// promotion, which makes promotion optional.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PromotionRule {
    /// The promoting kind.
    pub kind: KindId,
    /// The zone, per player.
    pub zone: [Vec<Cell>; 2],
    /// `on or from`: a move that starts in the zone promotes too.
    pub from_too: bool,
    /// `capturing`: only a move that captures (en passant included) promotes.
    pub capturing: bool,
    /// What it may become (its own kind: it may stay as it is).
    pub targets: Vec<KindId>,
    /// Where it was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}

/// `Pawn on ZONE becomes Fers in place or with a quiet move, if COND, giving
/// no check`: a promotion made instead of a move (sittuyin). The piece
/// becomes one of `targets` where it stands or, with `quiet_move`, on an
/// empty cell the target kind could move to from there.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PromotionMove {
    /// The promoting kind.
    pub kind: KindId,
    /// Where it must stand, per player; `None`: anywhere.
    pub zone: Option<[Vec<Cell>; 2]>,
    /// What it may become.
    pub targets: Vec<KindId>,
    /// The new piece may also step off with a quiet move of its kind.
    pub quiet_move: bool,
    /// Judged before the move, the mover as the subject (`if …`).
    pub guard: Option<cond::Cond>,
    /// The promotion may not leave an enemy royal piece attacked.
    pub no_check: bool,
    /// The new piece may not attack an enemy piece.
    pub no_attack: bool,
    /// Where it was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}

/// Castling of a royal piece with a partner (Chess960-general).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CastlingRule {
    /// The castling (royal) kind.
    pub king: KindId,
    /// The partner kind (the first written).
    pub rook: KindId,
    /// Every partner kind (`with Rook or Chancellor`), the first included.
    pub partners: Vec<KindId>,
    /// The sides as written: `short` (partner on the higher files) and/or
    /// `long`. A side written twice appears twice (the checker reports it);
    /// both share that side's castling right.
    pub sides: Vec<CastlingSide>,
    /// Where it was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
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
    /// `rook from SQUARE`, per player: the cell whose file X-FEN's `K`/`Q`
    /// start from, looking towards the king for the partner (`None`: the
    /// outermost partner, the X-FEN default).
    pub rook_from: Option<[Cell; 2]>,
    /// Where this side was written (in [`CastlingRule::file`]).
    pub span: Span,
}

impl CastlingSide {
    /// The castling-right slot this side uses in a position: 0 short, 1 long.
    pub fn slot(&self) -> usize {
        if self.short {
            0
        } else {
            1
        }
    }
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
    /// Per kind: what else limits its drops (from the same rule as its cells).
    pub drop_limits: Vec<DropLimit>,
    /// Per kind and player, the cells a piece of that kind may be gated onto
    /// (`gate …`: left behind by a piece making its first move from there);
    /// `None` for a kind that is never gated.
    pub gate_cells: Vec<Option<[Vec<Cell>; 2]>>,
    /// Per kind: the kind it joins a hand as (the base kind of a `+LETTER`
    /// kind, else itself).
    pub hand_kinds: Vec<KindId>,
    /// Where the block was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}

/// What limits the drops of a kind beyond the cells (shogi's pawn).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct DropLimit {
    /// `at most N per AXIS`: (axis, N): no more than N of the dropper's pieces
    /// of the kind on the cells that share the cell's label of the axis (per
    /// file: on its file), the dropped one included.
    pub per_line: Option<(usize, u32)>,
    /// `no mate`: a drop that checkmates is not legal.
    pub no_mate: bool,
    /// `also promoted`: the piece may also be dropped as its promoted form
    /// (the kind written `+` and its letter).
    pub also_promoted: bool,
    /// `compulsory`: while its owner holds one, drops of other kinds are
    /// not legal, and no other move is while a drop of it is legal (koedem).
    pub compulsory: bool,
    /// `unlimited`: a drop takes no piece from a hand (ataxx's clones).
    pub unlimited: bool,
    /// `next to own piece`: only on a cell one king step from a piece of the dropper's.
    pub next_to_own: bool,
    /// `enclosing`: only where the piece converts by `converts enclosed` (othello).
    pub enclosing: bool,
    /// `first filling ZONE`, per player: while a cell of the zone is empty,
    /// the kind is dropped only on the zone's empty cells, free of the other
    /// limits (flipersi's centre).
    pub first_filling: Option<[Vec<Cell>; 2]>,
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
    /// `… or reveal`: revealing a face-down piece also resets the count.
    pub fifty_move_reveal: bool,
    /// Occurrences of one position that draw.
    pub repetition: Option<u32>,
    /// `priority A over B`: when both conditions hold at once, A decides.
    /// The pairs `(higher, lower)` as written, each once, in the order
    /// written; priority is transitive ([`EndRules::outranks`]), and lowering
    /// guarantees there is no cycle.
    pub priority: Vec<(EndCondition, EndCondition)>,
    /// Where each condition was written, in `file`: first every rule of the
    /// block (`checkmate:`, `stalemate:`, `draw after …`, `draw on
    /// repetition …`) in the order written, under the condition it defines;
    /// then every `priority` line, under its higher condition. So the first
    /// entry of a condition is its own rule when the block writes one.
    /// Empty when the defaults apply.
    pub spans: Vec<(EndCondition, Span)>,
    /// The file the `end` block is in (empty when the defaults apply).
    pub file: String,
}

impl EndRules {
    /// Does the game end on `condition` at all? Checkmate and stalemate always
    /// do (an `end` block without their line uses the defaults `lose` and
    /// `draw`); the move limit and repetition only with their rule.
    pub fn defines(&self, condition: EndCondition) -> bool {
        match condition {
            EndCondition::Checkmate | EndCondition::Stalemate => true,
            EndCondition::MoveLimit => self.fifty_move.is_some(),
            EndCondition::Repetition => self.repetition.is_some(),
        }
    }

    /// Does `a` have priority over `b`, by one `priority` pair or a chain of them?
    pub fn outranks(&self, a: EndCondition, b: EndCondition) -> bool {
        let mut reached = vec![a];
        let mut next = 0;
        while let Some(&from) = reached.get(next) {
            next += 1;
            for &(h, l) in &self.priority {
                if h == from && !reached.contains(&l) {
                    if l == b {
                        return true;
                    }
                    reached.push(l);
                }
            }
        }
        false
    }

    /// Which of the conditions `holding` (all true of one position) decides
    /// the game: one that no other holding condition outranks, the first such
    /// in [`EndCondition::ALL`] order (mate or stalemate, move limit,
    /// repetition: the order without any `priority` line). `None` only when
    /// `holding` is empty.
    pub fn deciding(&self, holding: &[EndCondition]) -> Option<EndCondition> {
        let beaten = |c: EndCondition| holding.iter().any(|&d| d != c && self.outranks(d, c));
        EndCondition::ALL
            .into_iter()
            .filter(|c| holding.contains(c))
            .find(|&c| !beaten(c))
            .or_else(|| holding.first().copied())
    }
}

/// A condition that ends the game, as named in `priority` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndCondition {
    /// No legal move, in check (`checkmate`).
    Checkmate,
    /// No legal move, not in check (`stalemate`).
    Stalemate,
    /// `draw after N moves without …` (`move-limit`).
    MoveLimit,
    /// `draw on repetition N` (`repetition`).
    Repetition,
}

impl EndCondition {
    /// Every condition, in the order that decides without `priority` lines.
    pub const ALL: [EndCondition; 4] =
        [EndCondition::Checkmate, EndCondition::Stalemate, EndCondition::MoveLimit, EndCondition::Repetition];

    /// The word that names it in a `priority` line (`move-limit`, …).
    pub fn keyword(self) -> &'static str {
        match self {
            EndCondition::Checkmate => "checkmate",
            EndCondition::Stalemate => "stalemate",
            EndCondition::MoveLimit => "move-limit",
            EndCondition::Repetition => "repetition",
        }
    }
}

/// A property the rules file claims (`claim name: …`); `rulebook check`
/// proves it, bounds it, or refutes it with a counterexample.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Claim {
    /// Its name (`--claim NAME` selects it).
    pub name: String,
    /// What it says.
    pub property: Property,
    /// The file it was written in.
    pub file: String,
    /// Where (the whole `claim` item).
    pub span: Span,
}

/// What a claim says. Position properties (`NeverOn`, `NeverAdjacent`,
/// `AtMost`) must hold in every reachable position; move properties
/// (`KeepsColour`) of every legal move in every reachable position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Property {
    /// `no K on ZONE`: no piece of `kind` stands in its owner's `zone`.
    NeverOn {
        /// The piece kind.
        kind: KindId,
        /// The zone, per player (relative zones already resolved).
        zone: [Vec<Cell>; 2],
    },
    /// `no K next to enemy L`: no piece of `kind` stands on a cell touching
    /// (one king step away from, on every axis) an enemy piece of `other`.
    NeverAdjacent {
        /// The piece kind.
        kind: KindId,
        /// The enemy's piece kind.
        other: KindId,
    },
    /// `at most N K`: neither player has more than `count` pieces of `kind` on the board.
    AtMost {
        /// The piece kind.
        kind: KindId,
        /// The bound.
        count: u32,
    },
    /// `K has N directions`: the steps of `kind`'s parts (the first
    /// player's) point in exactly `count` distinct directions. A property
    /// of the model, decided from the templates.
    Directions {
        /// The piece kind.
        kind: KindId,
        /// The number claimed.
        count: u32,
    },
    /// No piece of `kind` is in either player's hand. Not written in rules
    /// files: the checker's built-in lemma for royal pieces (which are never
    /// captured, so never go to hand).
    NeverInHand {
        /// The piece kind.
        kind: KindId,
    },
    /// `K moves keep colour`: every move of a piece of `kind` ends on a cell
    /// of the colour it started on (colour: the parity of the coordinate sum).
    KeepsColour {
        /// The piece kind.
        kind: KindId,
    },
    /// `K moves keep colour at rest`: [`Property::KeepsColour`] for the
    /// moves made while every level of the `slide` item stands at rest
    /// (all of them in a game without one).
    KeepsColourAtRest {
        /// The piece kind.
        kind: KindId,
    },
    /// `spread pieces on at most N squares`: no piece stands on more than `squares` cells.
    SpreadAtMost {
        /// The bound.
        squares: u8,
    },
    /// `entangled groups at most N`: no more than `groups` units of two or more pieces exist at once.
    GroupsAtMost {
        /// The bound.
        groups: u8,
    },
    /// `hidden moves onto ZONE only by K L …`: every move of a face-down
    /// piece that ends in its owner's `zone` is made by a piece moving as one
    /// of `kinds` (its disguise).
    HiddenArrivals {
        /// The zone, per player.
        zone: [Vec<Cell>; 2],
        /// The disguises that may arrive there.
        kinds: Vec<KindId>,
    },
}

impl Property {
    /// Is this a property of the model itself (decided from the piece
    /// definitions, not from positions or moves)?
    pub fn is_model_property(&self) -> bool {
        matches!(self, Property::Directions { .. })
    }

    /// Is this a property of moves (rather than of positions)?
    pub fn is_move_property(&self) -> bool {
        matches!(self, Property::KeepsColour { .. } | Property::KeepsColourAtRest { .. } | Property::HiddenArrivals { .. })
    }
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
    /// What it decides (`settles …`), each item checked to exist.
    pub settles: Vec<Settles>,
    /// The file it was written in.
    pub file: String,
    /// Where.
    pub span: Span,
}

/// An item of the variant a ruling settles: the checker shows its findings
/// on that item with the ruling (LANGUAGE §3.12).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Settles {
    /// A `rule` item, by name.
    Rule(String),
    /// A piece's movement, by the piece's name.
    Piece(String),
    /// A phase, by name.
    Phase(String),
    /// A block, by its keyword (`board`, `setup`, `end`, `castling`,
    /// `promotion`, `hand`, `hidden`, `spread`, `tunnel`, `slide`, `observe`).
    Item(String),
    /// A kind of finding, by its code (one of [`GAP_CODES`]): the ruling
    /// settles only findings of the codes it names.
    Finding(String),
}

/// The codes of the checker's findings about gaps of a rulebook, which a
/// ruling can settle (LANGUAGE §3.12 and §6): ambiguities (C0210–C0217),
/// ends and termination the rules do not decide (C0230, C0231), processes
/// without bound (C0233, C0234), phases without a decision (C0235) and what
/// an `observe` item leaves open (C0236–C0239). Not the verifier's own
/// limits (no win found, C0232), rules that never apply (C0220–C0222: the
/// file's own mistakes) or refuted claims.
pub const GAP_CODES: &[&str] = &[
    "C0210", "C0211", "C0212", "C0213", "C0214", "C0215", "C0216", "C0217", "C0230", "C0231", "C0233", "C0234", "C0235", "C0236", "C0237",
    "C0238", "C0239",
];

impl std::fmt::Display for Settles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Settles::Rule(n) => write!(f, "rule \"{n}\""),
            Settles::Piece(n) => write!(f, "piece {n}"),
            Settles::Phase(n) => write!(f, "phase {n}"),
            Settles::Item(k) | Settles::Finding(k) => write!(f, "{k}"),
        }
    }
}

impl Game {
    /// The largest N of the rules' `PLAYER gave check N times` atoms: the
    /// check count a player needs (Fairy-Stockfish's FEN gives the checks
    /// still needed, `2+3`); `None` when no rule counts checks.
    pub fn check_count_limit(&self) -> Option<u32> {
        self.rules
            .iter()
            .flat_map(|r| {
                let forbid = match &r.effect {
                    cond::Effect::Forbid(c) => Some(c),
                    _ => None,
                };
                r.guard.iter().chain(forbid)
            })
            .flat_map(|c| c.any_of.iter().flatten())
            .filter_map(|lit| match lit.atom {
                cond::Atom::ChecksGiven { times, .. } => Some(times),
                _ => None,
            })
            .max()
    }

    /// The kind called `name`.
    pub fn kind_by_name(&self, name: &str) -> Option<KindId> {
        self.kinds.iter().position(|k| k.name == name).map(|i| i as KindId)
    }

    /// The kind with FEN letter `letter` (either case).
    pub fn kind_by_letter(&self, letter: char) -> Option<KindId> {
        let up = letter.to_ascii_uppercase();
        self.kinds.iter().position(|k| k.letter == up && !k.plus).map(|i| i as KindId)
    }

    /// The kind written `+LETTER` (the promoted form of `LETTER`'s kind).
    pub fn kind_by_plus_letter(&self, letter: char) -> Option<KindId> {
        let up = letter.to_ascii_uppercase();
        self.kinds.iter().position(|k| k.letter == up && k.plus).map(|i| i as KindId)
    }

    /// The promoted form of `kind`: the kind written `+` and its letter
    /// (none for a kind that is itself a promoted form).
    pub fn promoted_form(&self, kind: KindId) -> Option<KindId> {
        let k = self.kinds.get(kind as usize).filter(|k| !k.plus)?;
        self.kind_by_plus_letter(k.letter)
    }

    /// The letter set called `name` (`letters NAME { … }`).
    pub fn letter_set(&self, name: &str) -> Option<&LetterSet> {
        self.letter_sets.iter().find(|s| s.name == name)
    }

    /// Kinds written without a letter in SAN (pawn-like: those that promote).
    pub fn is_pawn_like(&self, kind: KindId) -> bool {
        // Pawn-like: the one kind that must promote somewhere (a rule without
        // its own kind among the targets); where several must (shogi's pawn,
        // lance and knight), SAN names each by its letter.
        let must = |k: KindId| self.promotions.iter().any(|p| p.kind == k && !p.targets.contains(&k));
        must(kind) && (0..self.kinds.len() as KindId).filter(|&k| must(k)).count() == 1
    }
}

#[cfg(test)]
mod tests {
    use super::EndCondition::*;
    use super::*;

    fn rules(priority: &[(EndCondition, EndCondition)]) -> EndRules {
        EndRules { priority: priority.to_vec(), ..EndRules::default() }
    }

    #[test]
    fn without_priority_the_default_order_decides() {
        let end = rules(&[]);
        assert_eq!(end.deciding(&[]), None);
        assert_eq!(end.deciding(&[Repetition, MoveLimit, Checkmate]), Some(Checkmate));
        assert_eq!(end.deciding(&[Repetition, MoveLimit]), Some(MoveLimit));
    }

    #[test]
    fn priority_is_transitive_and_counts_only_holding_conditions() {
        let end = rules(&[(Repetition, MoveLimit), (MoveLimit, Checkmate)]);
        assert!(end.outranks(Repetition, Checkmate));
        assert!(!end.outranks(Checkmate, Repetition));
        assert_eq!(end.deciding(&[Checkmate, Repetition]), Some(Repetition));
        assert_eq!(end.deciding(&[Checkmate, MoveLimit]), Some(MoveLimit));
        // Repetition over mate only: with the move limit holding too, the
        // move limit is unbeaten and comes first in the default order.
        let end = rules(&[(Repetition, Checkmate)]);
        assert_eq!(end.deciding(&[Checkmate, MoveLimit, Repetition]), Some(MoveLimit));
        assert_eq!(end.deciding(&[Checkmate, MoveLimit]), Some(Checkmate));
    }
}
