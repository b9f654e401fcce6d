//! The syntax tree of a `.rules` file.
//!
//! Every node carries the byte span of the source text it was parsed from, so
//! that later layers (model, checker, CLI) can point diagnostics at it. The tree
//! says only what was written: names are not resolved and vectors are not
//! expanded here; that is the interpreter's lowering.

mod phase;
pub use phase::*;
mod observe;
pub use observe::*;
mod explosion;
pub use explosion::*;
mod slide;
pub use slide::*;
mod rule;
pub use rule::*;
mod example;
pub use example::*;

/// A byte range in one source file (`start..end`, as pest and ariadne count).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (byte offsets).
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

/// A value together with the span it was written at.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spanned<T> {
    /// The value.
    pub node: T,
    /// Where it was written.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// Wraps `node` with its `span`.
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

/// A name as written (piece, square, axis label, direction word …).
pub type Ident = Spanned<String>;

/// A whole `.rules` file: a list of top-level items in source order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct File {
    /// The items in the order written.
    pub items: Vec<Item>,
    /// The doc comments (`## …` lines directly above an item), in file order,
    /// each with the index in `items` of the item it documents (at most one per item).
    pub docs: Vec<DocComment>,
    /// The whole file.
    pub span: Span,
}

impl File {
    /// The doc comment of `items[index]`, if it has one.
    pub fn doc(&self, index: usize) -> Option<&DocComment> {
        self.docs.iter().find(|d| d.item == index)
    }
}

/// A doc comment: the `##` lines written directly above an item, which are
/// that item's documentation (LANGUAGE §2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DocComment {
    /// The index in [`File::items`] of the item it documents.
    pub item: usize,
    /// The text: each line without its `##` and one space after it, lines joined with `\n`.
    pub text: String,
    /// From the first line's `##` to the end of the last line.
    pub span: Span,
}

/// One top-level statement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// `variant "Chess"`: the variant's display name.
    Variant(Spanned<String>),
    /// `extends "chess.rules"`: inherit everything from that file (path relative to this one).
    Extends(Spanned<String>),
    /// `board { … }`.
    Board(Board),
    /// `players { … }`.
    Players(Players),
    /// `piece Name L { … }`.
    Piece(PieceDef),
    /// `promotion { … }`.
    Promotion(Promotion),
    /// `castling King with Rook { … }`.
    Castling(Castling),
    /// `setup "FEN"`.
    Setup(Spanned<String>),
    /// `end { … }`.
    End(End),
    /// `hand { … }`.
    Hand(Hand),
    /// `phase NAME { … }` (issue 13).
    Phase(Phase),
    /// `ruling "name" { … }`.
    Ruling(Ruling),
    /// `without …`: removes an inherited part.
    Without(Spanned<Without>),
    /// `claim NAME: …`: a property the rules imply (`rulebook check` proves or refutes it).
    Claim(Claim),
    /// `hidden { … }`: pieces that stand face down in the setup.
    Hidden(Hidden),
    /// `letters NAME { … }`: another set of piece letters for move notation.
    Letters(LetterSetDef),
    /// `die d6 1..6`: a die that chance events roll.
    Die(DieDef),
    /// `spread { … }`: a piece may stand on two squares at once (a split).
    Spread(Spread),
    /// `entangle { … }`: a split may join an enemy spread piece's unit.
    Entangle(Entangle),
    /// `tunnel { … }`: a piece may pass an enemy piece by chance.
    Tunnel(Tunnel),
    /// `slide { … }`: levels that slide out of the shaft during play (issue 13).
    Slide(Slide),
    /// `observe { … }`: a moving piece seen by an enemy piece is slowed or displaced (issue 15).
    Observe(Observe),
    /// `explosion { … }`: every capture explodes on its target square (issue 17).
    Explosion(Explosion),
    /// `rule "name" { on …  if …  then … }`: a rule-defined condition and effect (issue 13).
    Rule(RuleDef),
    /// `example "name" { … }`: a worked example, checked like a doctest (issue 16).
    Example(Example),
}

/// `board { files …  ranks …  levels …  holes … }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The axes in the order written; the first is the file axis, the second the rank axis.
    pub axes: Vec<Axis>,
    /// `holes d4 e5`: squares that are not part of the board.
    pub holes: Vec<Ident>,
    /// The whole block.
    pub span: Span,
}

/// One axis of the board: `files a b c`, `ranks 1..8`, `levels A..E`, `axis time t1 t2`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Axis {
    /// The axis' name: `file`, `rank`, `level` for the keywords `files`/`ranks`/`levels`
    /// (spanning the keyword), or the name given after `axis`.
    pub name: Ident,
    /// The coordinate labels, lowest first.
    pub labels: Vec<Label>,
    /// The whole line.
    pub span: Span,
}

/// One entry of an axis' label list.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// A single label: `a`, `1`, `A`.
    Single(Ident),
    /// An inclusive range `a..h` or `1..10` (letters or numbers).
    Range(Ident, Ident),
}

/// `players { white: forward +rank  black: forward -rank }`, first player moves first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Players {
    /// The players in turn order.
    pub players: Vec<PlayerDef>,
    /// The whole block.
    pub span: Span,
}

/// One player and its orientation: `black: forward -rank, up -level`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerDef {
    /// The player's name (`white`, `black`).
    pub name: Ident,
    /// The direction words this player's pieces use, and which way they point.
    pub directions: Vec<DirectionDecl>,
    /// `no royal piece`: where it was written, if it was.
    pub no_royal: Option<Span>,
    /// `in check only when all royal pieces are attacked`: where the words stand.
    pub all_royal: Option<Span>,
    /// `then moves the wall anywhere` / `then shoots a wall from the moved piece`.
    pub wall: Option<Spanned<WallRule>>,
    /// The whole entry.
    pub span: Span,
}

/// What a player does with walls after each move (`then …` under `players`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WallRule {
    /// `moves the wall anywhere`: the one wall moves to an empty square it did not stand on.
    MovesAnywhere,
    /// `shoots a wall from the moved piece`: a new wall where the moved piece could move.
    ShootsFromMoved,
}

/// `forward +rank`: the direction word `forward` means the positive rank direction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DirectionDecl {
    /// The direction word (`forward`, `up`, …).
    pub word: Ident,
    /// `true` for `+`, `false` for `-`.
    pub positive: bool,
    /// The axis name (`rank`, `level`, …).
    pub axis: Ident,
    /// The whole declaration.
    pub span: Span,
}

/// `piece King K { royal  move W  move F }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceDef {
    /// The piece's name, e.g. `King`.
    pub name: Ident,
    /// Its letter in FEN and notation, e.g. `K` (one ASCII letter; white upper, black lower case).
    pub letter: Ident,
    /// The statements of the body in order.
    pub body: Vec<PieceItem>,
    /// The whole definition.
    pub span: Span,
}

/// A statement in a piece body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PieceItem {
    /// `royal`: no move may leave a royal piece of the mover attacked (check).
    Royal(Span),
    /// `pass [only when no other move]`: its owner may pass, a move that
    /// leaves the board as it is (`true`: only with no other legal move).
    Pass(Span, bool),
    /// `converts around 1` / `converts enclosed`: enemy pieces near, or
    /// closed off by, where it lands change side.
    Converts(Span, Conversion),
    /// A movement part: `quiet ride W forward exactly 2 from rank 2 sets en-passant`.
    Part(MovePart),
}

/// What a piece converts where it lands (`converts …`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conversion {
    /// `around N`: enemy pieces within N king steps.
    Around(u32),
    /// `enclosed`: enemy lines between it and another piece of its side.
    Enclosed,
}

/// One movement part of a piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MovePart {
    /// `move` (may move or capture), `quiet` (move only), `capture` (capture only).
    pub mode: Spanned<Mode>,
    /// `leap` (default, nothing written), `ride` or `hop`.
    /// For a leap nothing is written, so the span is the atom's.
    pub kind: Spanned<PatternKind>,
    /// The step: a Betza atom letter or an explicit vector.
    pub atom: Spanned<Atom>,
    /// What follows the atom, in order written.
    pub modifiers: Vec<Spanned<Modifier>>,
    /// The whole part.
    pub span: Span,
}

/// Whether a part may capture, move to an empty square, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// `move`: to an empty square or capturing an enemy piece.
    Move,
    /// `quiet`: to an empty square only.
    Quiet,
    /// `capture`: only capturing an enemy piece.
    Capture,
}

/// How the step is repeated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatternKind {
    /// One application of the step, jumping over anything (when no keyword is written).
    Leap,
    /// `ride`: repeat the step over empty squares.
    Ride,
    /// `hop`: ride to a piece (the screen), jump it, and land beyond it.
    Hop,
}

/// The basic step of a part.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// A Betza letter: W F D N A H C Z G (checked at lowering).
    Letter(String),
    /// An explicit vector `(1,2)`, `(1,1,1)` in axis order (file, rank, level, …).
    Vector(Vec<i32>),
}

/// Something that restricts or annotates a movement part.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// A direction word declared under `players` (`forward`), or a built-in
    /// derived word (`backward`, `sideways`, `down`, …), checked at lowering.
    Direction(String),
    /// `mirror file`: instead of all rotations and reflections, only the vector
    /// and its reflections across the named axes.
    Mirror(Vec<Ident>),
    /// `max 2`: a ride or hop goes at most this many steps.
    Max(u32),
    /// `exactly 2`: a ride goes exactly this many steps (all but the last empty).
    Exactly(u32),
    /// `from rank 2`: the part applies only when the piece stands in this zone.
    From(Zone),
    /// `sets en-passant`: the squares passed over may be captured on en passant next turn.
    SetsEnPassant,
    /// `takes en-passant`: this capture may also land on an en-passant square.
    TakesEnPassant,
    /// `via step`: a leap passes the cell one step along its longest
    /// components (where an `observe` item can see it).
    ViaStep,
    /// `lame`: a leap that passes that cell and is blocked when it is occupied.
    Lame,
    /// `within palace`: the part's moves land only in the zone.
    Within(Zone),
    /// `not over Cannon`: a hop may not use a piece of this kind as its screen.
    NotOver(Ident),
    /// `if unmoved and not in check`: the part applies only while the piece
    /// keeps its first-move right (`unmoved`) and its owner is not in check.
    When {
        /// `unmoved`.
        unmoved: bool,
        /// `not in check`.
        not_in_check: bool,
    },
}

/// A set of squares, relative to the owner (rank 1 is each player's own first rank):
/// `rank 8`, `rank 5 and level E`, `rank 1 or rank 8`, `square e4`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Zone {
    /// The alternatives joined by `or`.
    pub any_of: Vec<ZoneConj>,
    /// The whole zone expression.
    pub span: Span,
}

/// Constraints joined by `and`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ZoneConj {
    /// All must hold.
    pub all_of: Vec<ZoneAtom>,
    /// The conjunction as written.
    pub span: Span,
}

/// One zone constraint.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ZoneAtom {
    /// `rank 8`, `file a`, `level E`: one coordinate on one axis.
    Coord {
        /// The axis name (`rank`, `file`, `level`, or a declared axis name).
        axis: Ident,
        /// The label on it.
        label: Ident,
        /// `rank 1..3`: the last label of a run (inclusive).
        to: Option<Ident>,
    },
    /// `square e4`: one square (absolute, not relative to the owner).
    Square(Ident),
    /// `start`: the squares where the piece concerned stands in the setup
    /// (only in a movement part's `from`).
    Start(Span),
}

/// `promotion { Pawn on rank 8 to Queen Rook Bishop Knight }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Promotion {
    /// One rule per promoting piece.
    pub rules: Vec<PromotionRule>,
    /// Promotions made as moves of their own.
    pub moves: Vec<PromotionMove>,
    /// The whole block.
    pub span: Span,
}

/// `Pawn on ZONE becomes Fers in place or with a quiet move, if no own Fers,
/// giving no check, attacking no enemy piece`: instead of moving, the piece becomes one of the targets
/// where it stands (or, with `or with a quiet move`, on a cell the new kind
/// could move to without capturing).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PromotionMove {
    /// The piece that promotes.
    pub piece: Ident,
    /// Where it must stand (relative to the owner); `None`: anywhere.
    pub zone: Option<Zone>,
    /// What it may become.
    pub targets: Vec<Ident>,
    /// `or with a quiet move`: the new piece may also step off as its kind moves.
    pub quiet_move: bool,
    /// `if COND`: judged before the move, the owner as the subject.
    pub guard: Option<Cond>,
    /// `giving no check`: the promotion may not leave an enemy royal piece attacked.
    pub no_check: bool,
    /// `attacking no enemy piece`: the new piece may not attack an enemy piece.
    pub no_attack: bool,
    /// The whole rule.
    pub span: Span,
}

/// `Pawn on rank 8 to Queen Rook`: a piece arriving in the zone must become one of the targets.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PromotionRule {
    /// The piece that promotes.
    pub piece: Ident,
    /// Where it promotes (relative to the owner).
    pub zone: Zone,
    /// `on or from`: a move that starts in the zone promotes too.
    pub from_too: bool,
    /// `capturing`: only a move that captures promotes.
    pub capturing: bool,
    /// What it may become (its own kind: it may stay as it is).
    pub targets: Vec<Ident>,
    /// The whole rule.
    pub span: Span,
}

/// `castling King with Rook { short: king to g1, rook to f1  long: … }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Castling {
    /// The castling piece (royal).
    pub king: Ident,
    /// The partner piece.
    pub rook: Ident,
    /// `or Chancellor`: further partner kinds.
    pub more_partners: Vec<Ident>,
    /// The sides, each with its destination squares (given for the first player; mirrored).
    pub sides: Vec<CastlingSide>,
    /// The whole block.
    pub span: Span,
}

/// `short: king to g1, rook to f1`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CastlingSide {
    /// `short` (towards the higher files) or `long` (towards the lower files).
    pub name: Ident,
    /// The king's destination square (for the first player).
    pub king_to: Ident,
    /// The rook's destination square (for the first player).
    pub rook_to: Ident,
    /// `rook from SQUARE`: where X-FEN's `K`/`Q` start looking for the partner.
    pub rook_from: Option<Ident>,
    /// The whole side.
    pub span: Span,
}

/// `end { checkmate: lose  stalemate: draw  draw after 50 moves … }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct End {
    /// The rules in order.
    pub rules: Vec<Spanned<EndRule>>,
    /// The whole block.
    pub span: Span,
}

/// One way the game ends.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndRule {
    /// `checkmate: lose`: the side to move, in check and without a legal move.
    Checkmate(Spanned<Outcome>),
    /// `stalemate: draw`: the side to move, not in check and without a legal move.
    Stalemate(Spanned<Outcome>),
    /// `draw after 50 moves without capture or Pawn move [or reveal]` (moves by each side).
    FiftyMove {
        /// Number of full moves.
        moves: Spanned<u32>,
        /// The piece whose moves reset the count.
        piece: Ident,
        /// `or reveal` (its span), if written: revealing a face-down piece also resets the count.
        reveal: Option<Span>,
    },
    /// `draw on repetition 3`: the position occurred this many times.
    Repetition(Spanned<u32>),
    /// `priority checkmate over move-limit, repetition`: when the first
    /// condition holds together with any of the others, the first decides.
    Priority {
        /// The condition that takes precedence.
        higher: Spanned<EndCondition>,
        /// The conditions it takes precedence over, in the order written (at least one).
        lower: Vec<Spanned<EndCondition>>,
    },
}

/// A condition that ends the game, as named in a `priority` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndCondition {
    /// `checkmate`.
    Checkmate,
    /// `stalemate`.
    Stalemate,
    /// `move-limit`: the `draw after N moves without …` rule.
    MoveLimit,
    /// `repetition`: the `draw on repetition N` rule.
    Repetition,
}

/// The result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `win`.
    Win,
    /// `lose`.
    Lose,
    /// `draw`.
    Draw,
}

/// `hand { capture to hand  demote promoted to Pawn  drop … }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hand {
    /// The rules in order.
    pub rules: Vec<Spanned<HandRule>>,
    /// The whole block.
    pub span: Span,
}

/// One rule about pieces in hand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HandRule {
    /// `capture to hand`: a captured piece changes side and joins the captor's hand.
    CaptureToHand,
    /// `demote promoted to Pawn`: a promoted piece goes to hand as this piece.
    DemotePromoted(Ident),
    /// `gate any on rank 1`: a piece leaving a cell with its first-move right
    /// may leave a piece of this kind from hand on that cell, where the zone allows.
    Gate {
        /// The piece (`None` for `any`).
        piece: Option<Ident>,
        /// `on <zone>` (`on empty`: everywhere).
        only: Option<Zone>,
        /// `not on <zone>`.
        except: Option<Zone>,
    },
    /// `drop any on empty` / `drop Pawn not on rank 1 or rank 8` / `drop Pawn on rank 2`.
    Drop {
        /// The piece (`None` for `any`).
        piece: Option<Ident>,
        /// `on <zone>` restricts drops to the zone (`on empty` gives none).
        only: Option<Zone>,
        /// `not on <zone>` forbids the zone.
        except: Option<Zone>,
        /// `at most 1 per file`: the most pieces of the kind its owner may
        /// have on the cells sharing the cell's label of that axis (its file),
        /// the dropped one included (shogi's two-pawn rule).
        per_line: Option<(Spanned<u32>, Ident)>,
        /// `no mate`: a drop that checkmates is not legal (the span of the words).
        no_mate: Option<Span>,
        /// `also promoted`: the piece may also be dropped as its promoted form (the span of the words).
        also_promoted: Option<Span>,
        /// `compulsory`: while its owner holds one, it must be dropped (the span of the word).
        compulsory: Option<Span>,
        /// `unlimited`: a drop takes no piece from a hand.
        unlimited: Option<Span>,
        /// `next to own piece`: only next to a piece of the dropper's.
        next_to_own: Option<Span>,
        /// `enclosing`: only where the piece converts by `converts enclosed`.
        enclosing: Option<Span>,
        /// `first filling ZONE`: while a cell of the zone is empty, drops go only there.
        first_filling: Option<Zone>,
    },
}

/// `ruling "name" { source "…"  quote "…"  reading "…" }`: how an ambiguous passage is read.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ruling {
    /// The ruling's name.
    pub name: Spanned<String>,
    /// Where the passage comes from.
    pub source: Option<Spanned<String>>,
    /// The passage, quoted.
    pub quote: Spanned<String>,
    /// The reading chosen.
    pub reading: Spanned<String>,
    /// `settles …`: the items whose reading it decides (empty when it names none).
    pub settles: Vec<Spanned<Settled>>,
    /// The whole block.
    pub span: Span,
}

/// One item a ruling settles (`settles rule "group", slide`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Settled {
    /// `rule "NAME"`: a `rule` item.
    Rule(String),
    /// `piece NAME`: a piece's movement.
    Piece(String),
    /// `phase NAME`: a phase before play.
    Phase(String),
    /// A block named by its keyword: `board`, `setup`, `end`, `castling`,
    /// `promotion`, `hand`, `hidden`, `spread`, `tunnel`, `slide` or `observe`.
    Item(String),
    /// A finding's code (`C0236`): the ruling settles only findings of the
    /// codes it names.
    Finding(String),
}

/// `claim bishops_keep_colour: Bishop moves keep colour`: a named property
/// that the rules are said to imply. It changes nothing in play.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Claim {
    /// The claim's name.
    pub name: Ident,
    /// What it says.
    pub body: Spanned<ClaimBody>,
    /// The whole item.
    pub span: Span,
}

/// The property a claim states.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClaimBody {
    /// `Bishop moves keep colour`: every move of the piece ends on a square of
    /// the colour it started on.
    KeepsColour {
        /// The piece.
        piece: Ident,
        /// `at rest`: only moves made while every level stands at rest.
        at_rest: bool,
    },
    /// `King has 18 directions`: the piece's steps point in exactly this many
    /// distinct directions (a vector and its multiples are one direction).
    Directions {
        /// The piece.
        piece: Ident,
        /// How many.
        count: Spanned<u32>,
    },
    /// `no King next to enemy King`: a piece of the first kind never stands
    /// next to an enemy piece of the second.
    NeverAdjacent {
        /// The piece.
        piece: Ident,
        /// The enemy's piece.
        other: Ident,
    },
    /// `no Pawn on rank 1`: the piece never stands in the zone (relative to its owner).
    NeverOn {
        /// The piece.
        piece: Ident,
        /// The zone.
        zone: Zone,
    },
    /// `at most 1 King`: neither player ever has more than this many of the piece.
    AtMost {
        /// The bound.
        count: Spanned<u32>,
        /// The piece.
        piece: Ident,
    },
    /// `hidden moves onto rank 4 only by Pawn Knight`: every move of a
    /// face-down piece into the zone (relative to its owner) is made by a
    /// piece moving as one of the pieces named (its disguise).
    HiddenArrivals {
        /// The zone.
        zone: Zone,
        /// The disguises that may arrive there, in the order written.
        pieces: Vec<Ident>,
    },
    /// `spread pieces on at most 2 squares`: no piece ever stands on more
    /// squares at once.
    SpreadAtMost {
        /// The bound.
        squares: Spanned<u32>,
    },
    /// `entangled groups at most 2`: no more entangled groups (units of two
    /// or more pieces with a label) exist at once.
    GroupsAtMost {
        /// The bound.
        groups: Spanned<u32>,
    },
}

/// What a `without` statement removes from the inherited rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Without {
    /// `without piece Bishop`.
    Piece(Ident),
    /// `without claim bishops_keep_colour`.
    Claim(Ident),
    /// `without castling`.
    Castling,
    /// `without promotion`.
    Promotion,
    /// `without hand`.
    Hand,
    /// `without hidden`.
    Hidden,
    /// `without spread`.
    Spread,
    /// `without entangle`.
    Entangle,
    /// `without tunnel`.
    Tunnel,
    /// `without explosion`.
    Explosion,
}

/// `hidden { pieces Queen Rook Bishop Knight Pawn  captured seen by capturer }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hidden {
    /// The statements in order.
    pub rules: Vec<Spanned<HiddenRule>>,
    /// The whole block.
    pub span: Span,
}

/// A statement of a `hidden` block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HiddenRule {
    /// `pieces Queen Rook …`: the kinds that stand face down in the setup.
    Pieces(Vec<Ident>),
    /// `captured seen by capturer`: who learns a captured face-down piece's identity.
    CapturedSeenBy(Spanned<SeenBy>),
}

/// Who learns the identity of a captured face-down piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeenBy {
    /// `capturer`: the capturing player.
    Capturer,
    /// `both`: both players.
    Both,
    /// `nobody`: neither player.
    Nobody,
}

/// `letters de { King K  Queen D }`: a named set of piece letters for notation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LetterSetDef {
    /// The set's name (`de`).
    pub name: Ident,
    /// The pieces and their letters, in the order written.
    pub letters: Vec<LetterPair>,
    /// The whole block.
    pub span: Span,
}

/// `Queen D`: one piece's letter in a letter set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LetterPair {
    /// The piece.
    pub piece: Ident,
    /// Its letter in this set (one ASCII letter).
    pub letter: Ident,
    /// The pair as written.
    pub span: Span,
}

/// `die d6 1..6`: a die whose faces, numbered `low` to `high`, are equally likely.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DieDef {
    /// The die's name (`d6`).
    pub name: Ident,
    /// The first face as written (lowering requires 1).
    pub low: Spanned<u32>,
    /// The last face as written: the number of faces.
    pub high: Spanned<u32>,
    /// The whole item.
    pub span: Span,
}

/// `spread { squares at most 2  weight … red forward Pawn  castling splits }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spread {
    /// The statements in order.
    pub rules: Vec<Spanned<SpreadRule>>,
    /// The whole block.
    pub span: Span,
}

/// A statement of a `spread` block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpreadRule {
    /// `squares at most 2`: how many squares one piece may stand on.
    SquaresAtMost(Spanned<u32>),
    /// `weight equal roll d6 { red 2 4 6  blue 1 3 5 }`: a weight a split may choose.
    Weight(WeightDef),
    /// `red forward Pawn`: kinds whose red half must be the one in front.
    RedForward {
        /// The word `forward` (a direction word of the players).
        forward: Span,
        /// The kinds, in the order written.
        kinds: Vec<Ident>,
    },
    /// `castling splits`: a castling move may be one of the two moves of a split.
    CastlingSplits,
}

/// `weight equal roll d6 { red 2 4 6  blue 1 3 5 }`: a named weight, given by
/// the die faces that mean red and blue when a unit of this weight collapses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WeightDef {
    /// The weight's name (`equal`).
    pub name: Ident,
    /// The roll that decides a collapse.
    pub roll: Roll,
}

/// `roll d6 { red 2 4 6  blue 1 3 5 }`: a die and what each of its faces means.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Roll {
    /// The die rolled.
    pub die: Ident,
    /// The outcomes and their faces, in the order written.
    pub sides: Vec<RollSide>,
    /// From `roll` to the closing `}`.
    pub span: Span,
}

/// `red 2 4 6`: an outcome of a roll and the faces that give it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RollSide {
    /// The outcome (its keyword's span).
    pub outcome: Spanned<RollOutcome>,
    /// The faces in the order written.
    pub faces: Vec<Faces>,
    /// The whole statement.
    pub span: Span,
}

/// What a face of a roll means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RollOutcome {
    /// `red`: the unit collapses to its red branch.
    Red,
    /// `blue`: the unit collapses to its blue branch.
    Blue,
    /// `through`: the tunnelling piece passes.
    Through,
    /// `bounce`: the tunnelling piece bounces back.
    Bounce,
}

impl RollOutcome {
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            RollOutcome::Red => "red",
            RollOutcome::Blue => "blue",
            RollOutcome::Through => "through",
            RollOutcome::Bounce => "bounce",
        }
    }
}

/// Faces of a die in a roll: one face, or an inclusive range.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Faces {
    /// `6`.
    One(Spanned<u32>),
    /// `1..4`: the faces from the first to the last, both included.
    Range(Spanned<u32>, Spanned<u32>),
}

impl Faces {
    /// Where the entry is written.
    pub fn span(&self) -> Span {
        match self {
            Faces::One(n) => n.span,
            Faces::Range(a, b) => Span::new(a.span.start, b.span.end),
        }
    }
}

/// `entangle { groups "/" "\\" }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entangle {
    /// The statements in order.
    pub rules: Vec<Spanned<EntangleRule>>,
    /// The whole block.
    pub span: Span,
}

/// A statement of an `entangle` block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EntangleRule {
    /// `groups "/" "\\"`: the labels of entangled groups; their number is the
    /// most groups that may exist at once.
    Groups(Vec<Spanned<String>>),
}

/// `tunnel { roll d6 { through 6  bounce 1..5 } }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tunnel {
    /// The statements in order.
    pub rules: Vec<Spanned<TunnelRule>>,
    /// The whole block.
    pub span: Span,
}

/// A statement of a `tunnel` block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TunnelRule {
    /// `roll d6 { through 6  bounce 1..5 }`: the roll that decides a tunnel.
    Roll(Roll),
}
