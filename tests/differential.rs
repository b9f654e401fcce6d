//! Differential test against a peer engine: along random games, rulebook's
//! legal moves (from rules/chess.rules and rules/chess960.rules) must equal
//! shakmaty's at every ply, as must check and the FEN's board, side and rights.

use rulebook_interpreter::text::notation::coordinate;
use rulebook_interpreter::{model::load::load, Variant};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

/// A small deterministic generator (xorshift64*), so failures replay.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

fn variant(file: &str) -> Variant {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules").join(file);
    let (game, _) = load(&path).unwrap_or_else(|(d, _)| panic!("{file}: {d:?}"));
    Variant::new(Arc::new(game))
}

/// Plays `games` random games from `fen`, comparing move sets ply by ply.
fn compare(v: &Variant, fen: &str, games: usize, plies: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let mut compared = 0;
    for game in 0..games {
        let mut ours = v.parse_fen(fen, "<test>").expect("rulebook parses the FEN");
        let mut theirs: Chess = fen
            .parse::<Fen>()
            .expect("shakmaty parses the FEN")
            .into_position(CastlingMode::Chess960)
            .expect("legal for shakmaty");
        for ply in 0..plies {
            let our_moves = v.legal_moves(&ours);
            let a: BTreeSet<String> = our_moves.iter().map(|m| coordinate(v, m)).collect();
            let b: BTreeSet<String> = theirs
                .legal_moves()
                .iter()
                .map(|m| m.to_uci(CastlingMode::Chess960).to_string())
                .collect();
            let here = v.fen(&ours);
            assert_eq!(a, b, "game {game} ply {ply}: move sets differ at {here}");
            assert_eq!(v.in_check(&ours), theirs.is_check(), "check differs at {here}");
            let their_fen = Fen::from_position(theirs.clone(), EnPassantMode::Always).to_string();
            let fields = |f: &str| f.split(' ').take(3).map(str::to_string).collect::<Vec<_>>();
            if v.game.castling.is_some() && fen.contains("KQkq") {
                assert_eq!(fields(&here), fields(&their_fen), "FEN differs");
            }
            compared += 1;
            if our_moves.is_empty() {
                break;
            }
            let i = rng.below(our_moves.len());
            let uci = coordinate(v, &our_moves[i]);
            let m = theirs
                .legal_moves()
                .into_iter()
                .find(|m| m.to_uci(CastlingMode::Chess960).to_string() == uci)
                .expect("the same move exists for shakmaty");
            ours = v.play(&ours, &our_moves[i]);
            theirs.play_unchecked(&m);
        }
    }
    compared
}

#[test]
fn chess_random_games_match_shakmaty() {
    let v = variant("chess.rules");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let n = compare(&v, start, 60, 150, 1) + compare(&v, kiwipete, 60, 150, 2);
    assert!(n > 5_000, "compared only {n} positions");
}

#[test]
fn chess960_random_games_match_shakmaty() {
    let v = variant("chess960.rules");
    let mut n = 0;
    for (i, fen) in [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
        "rkrbbqnn/pppppppp/8/8/8/8/PPPPPPPP/RKRBBQNN w KQkq - 0 1",
        "nrkbbrqn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBRQN w KQkq - 0 1",
    ]
    .into_iter()
    .enumerate()
    {
        n += compare(&v, fen, 30, 150, 10 + i as u64);
    }
    assert!(n > 5_000, "compared only {n} positions");
}
