//! Perft of Nebelschach (rules/nebelschach.rules) against a peer: shakmaty's
//! chess move generator plus bookkeeping of the fog written here,
//! independent of the interpreter.
//!
//! Why a chess engine can count fog chess: a face-down piece moves, captures,
//! gives check and pins as the setup's piece on its square, its disguise
//! ("so, wie derjenige ziehen würde, der dort normalerweise steht"; ruling
//! `fog-pieces-give-check-as-their-disguise`), and a revealed piece as what it
//! is. So the *displayed board* (face-down pieces shown as their disguises)
//! is a chess position whose legal moves are exactly the decisions of the fog
//! position, with these exceptions, handled here:
//!
//! - a face-down piece does not promote as its disguise, it is revealed;
//!   a face-down pawn (disguise) never stands on its seventh rank, so
//!   shakmaty never offers such a promotion (asserted);
//! - a pawn revealed on the far rank (a fog rook or queen arriving there)
//!   must promote: four choices, counted as outcomes here;
//! - en passant: fog chess lets a pawn take *whatever* a face-down pawn's
//!   double step revealed (ruling `en-passant-of-any-revealed-piece`), but
//!   shakmaty takes only a pawn en passant (it rejects an en-passant square
//!   with anything but a pawn behind it). When the piece that double-stepped
//!   is a pawn, shakmaty gets the square and generates the capture itself.
//!   Otherwise shakmaty gets no en-passant square, which changes none of the
//!   other moves (the square only adds the capture), and the captures are
//!   added here: each pawn of the side to move that attacks the target
//!   takes, legal when its own king is not attacked (shakmaty's
//!   `attacks_to`) on the board after the capture (pawn on the target, its
//!   start and the victim's square empty). (Substituting a pawn for the
//!   victim instead would change the board: a knight on g5 attacks other
//!   squares than a pawn there, which can change the legality of king moves.)
//!   From the setup, no en-passant capture is possible within three plies
//!   (white's pawns reach the fourth rank at most); the code is general.
//! - a pawn may stand on its own first rank (it materialised there;
//!   ruling `pawn-on-own-back-rank`). Shakmaty refuses such boards, so for
//!   them the decisions come from a small generator written here
//!   ([`own_moves`]: piece attacks from shakmaty's attack tables, pawn
//!   steps, castling, then the king-safety test by `attacks_to`). It runs on
//!   every position, and wherever shakmaty accepts the board its moves must
//!   equal shakmaty's, so the fallback is tested on all other positions.
//!
//! Each decision then has chance outcomes, each a leaf of its own (perft
//! counts the leaves of the game tree, chance nodes included): the distinct
//! identities left in the mover's pool if the mover is face down (a pawn
//! arriving on the far rank counting once per promotion choice), times the
//! distinct identities left in the victim's owner's pool if the captured
//! piece is face down.

use rulebook_interpreter::{model::load::load, engine::perft::perft, Variant};
use shakmaty::attacks;
use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, File, FromSetup, Move, Piece, Position, PositionError, Rank, Role, Setup, Square,
};
use std::path::Path;
use std::sync::Arc;

fn variant(file: &str) -> Variant {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules").join(file);
    let (game, _) = load(&path).unwrap_or_else(|(d, _)| panic!("{file}: {d:?}"));
    Variant::new(Arc::new(game))
}

/// The identities a face-down piece may have.
const IDENTITIES: [Role; 5] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];
/// What a pawn arriving on the far rank may become (chess.rules' promotion line).
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

fn side(c: Color) -> usize {
    c.fold_wb(0, 1)
}

/// A fog-chess position as the peer sees it.
#[derive(Clone)]
struct Fog {
    /// The displayed board: face-down pieces as their disguises.
    board: Board,
    /// Which pieces stand face down.
    hidden: Bitboard,
    /// Per side (white 0, black 1), per role (`Role as usize`): the
    /// identities not yet drawn.
    pool: [[u8; 7]; 2],
    turn: Color,
    /// Rook squares with castling rights.
    castling: Bitboard,
    /// After a double step: (the square passed over, the piece that passed).
    ep: Option<(Square, Square)>,
}

impl Fog {
    /// The setup: kings open, every other piece face down on its standard
    /// square, each pool the standard army without the king.
    fn setup() -> Fog {
        let board = Board::new();
        let hidden = board.occupied() & !board.kings();
        let mut army = [0u8; 7];
        for (role, n) in [(Role::Queen, 1), (Role::Rook, 2), (Role::Bishop, 2), (Role::Knight, 2), (Role::Pawn, 8)] {
            army[role as usize] = n;
        }
        Fog { board, hidden, pool: [army, army], turn: Color::White, castling: Bitboard::CORNERS, ep: None }
    }

    /// The displayed board as a shakmaty position; `None` when a pawn stands
    /// on a back rank (shakmaty refuses that). A revealed identity may make
    /// more material than chess allows (a fog knight revealed as a second
    /// queen beside eight pawns); shakmaty's move generation does not care,
    /// so that check is waived.
    fn chess(&self) -> Option<Chess> {
        if (self.board.pawns() & Bitboard::BACKRANKS).any() {
            return None;
        }
        let ep_square = match self.ep {
            Some((target, victim)) if self.board.role_at(victim) == Some(Role::Pawn) => Some(target),
            _ => None,
        };
        let setup = Setup { board: self.board.clone(), turn: self.turn, castling_rights: self.castling, ep_square, ..Setup::empty() };
        let chess = Chess::from_setup(setup, CastlingMode::Standard)
            .or_else(PositionError::ignore_too_much_material)
            .or_else(PositionError::ignore_impossible_check)
            .unwrap_or_else(|e| panic!("shakmaty rejects {}: {e:?}", Fen(self)));
        Some(chess)
    }

    /// The distinct identities left in `color`'s pool.
    fn drawable(&self, color: Color) -> Vec<Role> {
        IDENTITIES.into_iter().filter(|&r| self.pool[side(color)][r as usize] > 0).collect()
    }
}

/// A FEN-like text of the displayed board, for messages.
struct Fen<'a>(&'a Fog);

impl std::fmt::Display for Fen<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in Rank::ALL.into_iter().rev() {
            for file in File::ALL {
                let sq = Square::from_coords(file, rank);
                match self.0.board.piece_at(sq) {
                    None => write!(f, ".")?,
                    Some(p) => write!(f, "{}{}", p.char(), if self.0.hidden.contains(sq) { "?" } else { "" })?,
                }
            }
            if rank != Rank::First {
                write!(f, "/")?;
            }
        }
        write!(f, " {} ep {:?}", self.0.turn.fold_wb('w', 'b'), self.0.ep)
    }
}

/// A decision of the side to move: a chess move on the displayed board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Decision {
    from: Square,
    /// Where the moving piece lands (castling: the king's destination).
    to: Square,
    /// A pawn's promotion (an open pawn's; never a face-down one's).
    promotion: Option<Role>,
    /// Castling: the partner's square.
    castle_rook: Option<Square>,
    /// En passant: the captured piece's square.
    ep_victim: Option<Square>,
}

impl Decision {
    fn plain(from: Square, to: Square) -> Decision {
        Decision { from, to, promotion: None, castle_rook: None, ep_victim: None }
    }

    /// Castling: the partner's destination (f or d file).
    fn rook_to(&self) -> Option<Square> {
        self.castle_rook.map(|rook| {
            Square::from_coords(if rook.file() > self.from.file() { File::F } else { File::D }, self.from.rank())
        })
    }

    /// The square of the piece this decision moves that may be face down
    /// (castling: the partner; the king is never face down).
    fn mover(&self) -> Square {
        self.castle_rook.unwrap_or(self.from)
    }

    /// Where that piece lands.
    fn lands(&self) -> Square {
        self.rook_to().unwrap_or(self.to)
    }
}

/// Castling: the king's destination (g or c file).
fn king_to(king: Square, rook: Square) -> Square {
    Square::from_coords(if rook.file() > king.file() { File::G } else { File::C }, king.rank())
}

/// The decisions by shakmaty (plus en passant of a piece other than a pawn);
/// `None` when shakmaty cannot hold the board.
fn peer_moves(s: &Fog) -> Option<Vec<Decision>> {
    let us = s.turn;
    let mut out = Vec::new();
    for m in s.chess()?.legal_moves() {
        out.push(match m {
            Move::Normal { from, to, promotion, .. } => Decision { promotion, ..Decision::plain(from, to) },
            Move::EnPassant { from, to } => {
                Decision { ep_victim: Some(Square::from_coords(to.file(), from.rank())), ..Decision::plain(from, to) }
            }
            Move::Castle { king, rook } => Decision { castle_rook: Some(rook), ..Decision::plain(king, king_to(king, rook)) },
            Move::Put { .. } => unreachable!("no drops in chess"),
        });
    }
    if let Some((target, victim)) = s.ep {
        if s.board.role_at(victim) != Some(Role::Pawn) {
            let pawns = s.board.pawns() & s.board.by_color(us);
            for from in pawns & attacks::pawn_attacks(!us, target) {
                let d = Decision { ep_victim: Some(victim), ..Decision::plain(from, target) };
                if king_safe(&after(&s.board, &d), us) {
                    out.push(d);
                }
            }
        }
    }
    Some(out)
}

/// The board after `d` (pieces only).
fn after(board: &Board, d: &Decision) -> Board {
    let mut b = board.clone();
    if let (Some(rook), Some(rook_to)) = (d.castle_rook, d.rook_to()) {
        let king = b.remove_piece_at(d.from).expect("king");
        let partner = b.remove_piece_at(rook).expect("partner");
        b.set_piece_at(d.to, king);
        b.set_piece_at(rook_to, partner);
        return b;
    }
    if let Some(victim) = d.ep_victim {
        b.remove_piece_at(victim).expect("the piece that double-stepped");
    }
    let mut piece = b.remove_piece_at(d.from).expect("mover");
    if let Some(role) = d.promotion {
        piece.role = role;
    }
    b.set_piece_at(d.to, piece);
    b
}

fn king_safe(board: &Board, us: Color) -> bool {
    let king = board.king_of(us).expect("king");
    board.attacks_to(king, !us, board.occupied()).is_empty()
}

/// The decisions by the generator written here (any board, pawns on their
/// first rank included): FIDE's moves, a pawn stepping one square from its
/// first rank and two only from its second.
fn own_moves(s: &Fog) -> Vec<Decision> {
    let us = s.turn;
    let b = &s.board;
    let (occupied, own, them) = (b.occupied(), b.by_color(us), b.by_color(!us));
    let last = us.relative_rank(Rank::Eighth);
    let mut pseudo = Vec::new();
    let pawn_move = |from: Square, to: Square, out: &mut Vec<Decision>| {
        if to.rank() == last {
            out.extend(PROMOTIONS.map(|p| Decision { promotion: Some(p), ..Decision::plain(from, to) }));
        } else {
            out.push(Decision::plain(from, to));
        }
    };
    for from in own {
        let piece = b.piece_at(from).expect("own piece");
        if piece.role != Role::Pawn {
            for to in attacks::attacks(from, piece, occupied) & !own {
                pseudo.push(Decision::plain(from, to));
            }
            continue;
        }
        let forward = us.fold_wb(8, -8);
        if let Some(one) = from.offset(forward).filter(|&sq| !occupied.contains(sq)) {
            pawn_move(from, one, &mut pseudo);
            if from.rank() == us.relative_rank(Rank::Second) {
                if let Some(two) = one.offset(forward).filter(|&sq| !occupied.contains(sq)) {
                    pseudo.push(Decision::plain(from, two));
                }
            }
        }
        for to in attacks::pawn_attacks(us, from) & them {
            pawn_move(from, to, &mut pseudo);
        }
        if let Some((target, victim)) = s.ep {
            if attacks::pawn_attacks(us, from).contains(target) {
                pseudo.push(Decision { ep_victim: Some(victim), ..Decision::plain(from, target) });
            }
        }
    }
    let mut out: Vec<Decision> = pseudo.into_iter().filter(|d| king_safe(&after(b, d), us)).collect();
    // Castling (standard squares): king and partner unmoved (the right), the
    // squares between them empty, the king not in check and crossing or
    // landing on no attacked square.
    let king = b.king_of(us).expect("king");
    for rook in s.castling & own & b.rooks() {
        let to = king_to(king, rook);
        let path = attacks::between(king, to).with(king).with(to);
        if (attacks::between(king, rook) & occupied).is_empty() && path.into_iter().all(|sq| b.attacks_to(sq, !us, occupied).is_empty()) {
            out.push(Decision { castle_rook: Some(rook), ..Decision::plain(king, to) });
        }
    }
    out
}

/// How often the peer met what: positions, positions shakmaty refused, and
/// decisions revealing a piece, capturing a face-down piece, castling with a
/// face-down partner, taking a non-pawn en passant; outcomes promoting a
/// revealed pawn.
#[derive(Debug, Default)]
struct Seen {
    positions: u64,
    own_only: u64,
    reveals: u64,
    fog_captures: u64,
    fog_castles: u64,
    non_pawn_en_passant: u64,
    reveal_promotions: u64,
}

/// The decisions in `s`: shakmaty's, checked equal to [`own_moves`]; the
/// latter alone where shakmaty refuses the board.
fn decisions(s: &Fog, seen: &mut Seen) -> Vec<Decision> {
    let mut own = own_moves(s);
    own.sort();
    seen.positions += 1;
    let out = match peer_moves(s) {
        Some(mut peer) => {
            peer.sort();
            assert_eq!(peer, own, "shakmaty and the fallback generator differ in {}", Fen(s));
            peer
        }
        None => {
            seen.own_only += 1;
            own
        }
    };
    for d in &out {
        let revealed = s.hidden.contains(d.mover());
        assert!(!revealed || d.promotion.is_none(), "a face-down piece promotes as its disguise: {d:?} in {}", Fen(s));
        seen.reveals += revealed as u64;
        seen.fog_captures += victim(s, d).is_some() as u64;
        seen.fog_castles += (revealed && d.castle_rook.is_some()) as u64;
        seen.non_pawn_en_passant += d.ep_victim.is_some_and(|v| s.board.role_at(v) != Some(Role::Pawn)) as u64;
    }
    out
}

/// The face-down piece `d` captures, if any.
fn victim(s: &Fog, d: &Decision) -> Option<Square> {
    let sq = match (d.ep_victim, d.castle_rook) {
        (Some(v), _) => v,
        (None, Some(_)) => return None,
        (None, None) => d.to,
    };
    (s.board.by_color(!s.turn).contains(sq) && s.hidden.contains(sq)).then_some(sq)
}

/// One chance outcome of a decision: the mover's identity and what it stands
/// as (a promoted piece, or the identity), and the captured piece's identity.
#[derive(Clone, Copy)]
struct Outcome {
    reveal: Option<(Role, Role)>,
    unveil: Option<Role>,
}

fn outcomes(s: &Fog, d: &Decision) -> Vec<Outcome> {
    let us = s.turn;
    let reveals: Vec<Option<(Role, Role)>> = if s.hidden.contains(d.mover()) {
        // Castling's partner lands on the own first rank: never a promotion.
        let far = d.castle_rook.is_none() && d.lands().rank() == us.relative_rank(Rank::Eighth);
        let mut v = Vec::new();
        for role in s.drawable(us) {
            if role == Role::Pawn && far {
                v.extend(PROMOTIONS.map(|p| Some((role, p))));
            } else {
                v.push(Some((role, role)));
            }
        }
        v
    } else {
        vec![None]
    };
    let unveils: Vec<Option<Role>> = match victim(s, d) {
        None => vec![None],
        Some(_) => s.drawable(!us).into_iter().map(Some).collect(),
    };
    reveals.iter().flat_map(|&reveal| unveils.iter().map(move |&unveil| Outcome { reveal, unveil })).collect()
}

/// The position after decision `d` with outcome `o`.
fn play(s: &Fog, d: &Decision, o: Outcome) -> Fog {
    let us = s.turn;
    let mut next = s.clone();
    next.board = after(&s.board, d);
    // Castling rights: gone when the king moves, when the partner moves or is captured.
    if s.board.role_at(d.from) == Some(Role::King) {
        next.castling &= !Bitboard::from_rank(us.relative_rank(Rank::First));
    }
    next.castling.discard(d.from);
    next.castling.discard(d.to);
    next.ep = (s.board.role_at(d.from) == Some(Role::Pawn) && d.from.rank().distance(d.to.rank()) == 2).then(|| {
        let middle = Rank::new((u32::from(d.from.rank()) + u32::from(d.to.rank())) / 2);
        (Square::from_coords(d.to.file(), middle), d.to)
    });
    // No square the move touched holds a face-down piece any more.
    for sq in [Some(d.from), Some(d.to), d.ep_victim, d.castle_rook].into_iter().flatten() {
        next.hidden.discard(sq);
    }
    if let Some((identity, stands_as)) = o.reveal {
        next.pool[side(us)][identity as usize] -= 1;
        next.board.set_piece_at(d.lands(), Piece { color: us, role: stands_as });
    }
    if let Some(identity) = o.unveil {
        next.pool[side(!us)][identity as usize] -= 1;
        assert!(o.reveal.is_none() || victim(s, d).is_some());
    }
    next.turn = !us;
    next
}

/// Leaves `depth` plies below `s`, chance outcomes counted as branches.
fn peer_perft(s: &Fog, depth: u32, seen: &mut Seen) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for d in decisions(s, seen) {
        let outs = outcomes(s, &d);
        seen.reveal_promotions += outs.iter().filter(|o| o.reveal.is_some_and(|(id, stands)| id != stands)).count() as u64;
        if depth == 1 {
            total += outs.len() as u64;
        } else {
            for o in outs {
                total += peer_perft(&play(s, &d, o), depth - 1, seen);
            }
        }
    }
    total
}

/// Perft 3 from the setup, counted by the peer, equals the interpreter's.
/// (Depths 1 and 2 are derived by hand in interpreter/tests/nebelschach.rs.)
#[test]
fn perft_3_from_the_setup_matches_the_peer() {
    let setup = Fog::setup();
    let mut seen = Seen::default();
    let peer: Vec<u64> = (1..=3).map(|depth| peer_perft(&setup, depth, &mut seen)).collect();
    assert_eq!(peer[..2], [100, 9980]);
    // No pawn can reach a back rank within three plies: shakmaty held every board.
    assert_eq!(seen.own_only, 0, "{seen:?}");
    let v = variant("nebelschach.rules");
    let start = v.start().expect("setup");
    for depth in 1..=3 {
        assert_eq!(perft(&v, &start, depth), peer[depth as usize - 1], "depth {depth}");
    }
}

/// The peer's view of a position written by the interpreter as FEN (`?`
/// after a face-down piece's letter, the pools in braces after the board).
/// Only what the FEN says is used.
fn from_fen(text: &str) -> Fog {
    let fields: Vec<&str> = text.split(' ').collect();
    let (placement, pools) = match fields[0].split_once('{') {
        Some((board, pools)) => (board, pools.strip_suffix('}').expect("closed pool")),
        None => (fields[0], ""),
    };
    let mut board = Board::empty();
    let mut hidden = Bitboard::EMPTY;
    for (row, text) in placement.split('/').enumerate() {
        let rank = Rank::new(7 - row as u32);
        let mut file = 0;
        let mut chars = text.chars().peekable();
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                file += d;
                continue;
            }
            let sq = Square::from_coords(File::new(file), rank);
            board.set_piece_at(sq, Piece::from_char(ch).unwrap_or_else(|| panic!("letter {ch} in {text}")));
            if chars.peek() == Some(&'?') {
                chars.next();
                hidden.add(sq);
            }
            file += 1;
        }
    }
    let mut pool = [[0u8; 7]; 2];
    for ch in pools.chars() {
        let p = Piece::from_char(ch).expect("pool letter");
        pool[side(p.color)][p.role as usize] += 1;
    }
    let turn = if fields[1] == "w" { Color::White } else { Color::Black };
    let mut castling = Bitboard::EMPTY;
    for ch in fields[2].chars().filter(|&c| c != '-') {
        castling.add(match ch {
            'K' => Square::H1,
            'Q' => Square::A1,
            'k' => Square::H8,
            'q' => Square::A8,
            _ => panic!("castling right {ch} in {text}"),
        });
    }
    let ep = (fields[3] != "-").then(|| {
        let target: Square = fields[3].parse().expect("en-passant square");
        // The piece that passed over it stands one square further, seen from the side that moved.
        (target, Square::from_coords(target.file(), turn.fold_wb(Rank::Fifth, Rank::Fourth)))
    });
    Fog { board, hidden, pool, turn, castling, ep }
}

/// Built positions for rules a random game reaches rarely (those of
/// interpreter/tests/nebelschach.rs and two more): castling that reveals, a
/// fog rook taking a fog rook on the far rank, en passant of a revealed
/// knight, both sides ready to castle with fog rooks, a fog piece captured,
/// a pawn on its own first rank.
const BUILT: [&str; 6] = [
    "4k3/8/8/8/8/8/P?P?P?5/4K2R?{NNRP} w K - 0 1",
    "r?3k3/1p?p?5/8/8/8/8/1P?P?5/R?3K3{PPRrpq} w - - 0 1",
    "4k3/p?7/8/6nP/8/8/8/4K3{p} w - g6 0 2",
    "r?3k2r?/p?p?p?p?p?p?p?p?/8/8/8/8/P?P?P?P?P?P?P?P?/R?3K2R?{QRBNNPPPPPqrbbnppppp} w KQkq - 0 1",
    "4k3/p?p?p?p?4/8/8/8/8/8/4K1B1{ppnq} w - - 0 1",
    "4k3/8/8/8/2p5/8/7P?/1P2K3{N} w - - 0 2",
];

/// Perft 3 at the built positions and perft 2 at positions along random
/// games: the interpreter's count equals the peer's.
#[test]
fn perft_along_random_games_matches_the_peer() {
    let v = variant("nebelschach.rules");
    let mut seen = Seen::default();
    for text in BUILT {
        let pos = v.parse_fen(text, "<test>").unwrap_or_else(|d| panic!("{text}: {}", d.message));
        let fog = from_fen(&v.fen(&pos));
        assert_eq!(perft(&v, &pos, 3), peer_perft(&fog, 3, &mut seen), "{text}");
    }
    let mut rng: u64 = 0x5EED;
    let mut compared = 0;
    for _ in 0..60 {
        let mut pos = v.start().expect("setup");
        for ply in 0..240 {
            let legal = v.legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            if ply % 6 == 0 {
                let fen = v.fen(&pos);
                assert_eq!(perft(&v, &pos, 2), peer_perft(&from_fen(&fen), 2, &mut seen), "{fen}");
                compared += 1;
            }
            // xorshift64*, as interpreter/tests/support.
            rng ^= rng >> 12;
            rng ^= rng << 25;
            rng ^= rng >> 27;
            let pick = (rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % legal.len();
            pos = v.play(&pos, &legal[pick]);
        }
    }
    // (With this seed: 2275 positions; 88 823 positions met in the trees, 23 793
    // of them with a pawn on a back rank, 8 non-pawn en-passant captures.)
    assert!(compared > 2_000, "only {compared} positions compared");
    let counts = [
        seen.own_only,
        seen.reveals,
        seen.fog_captures,
        seen.fog_castles,
        seen.non_pawn_en_passant,
        seen.reveal_promotions,
    ];
    assert!(counts.iter().all(|&n| n > 0), "some rule never exercised: {seen:?}");
}
