//! Grasshopper chess against the worked examples of its rule descriptions.

use rulebook_interpreter::text::notation::coordinate;
use rulebook_interpreter::Variant;

mod support;

fn grasshopper() -> Variant {
    support::variant("grasshopper")
}

fn targets(v: &Variant, fen: &str, from: &str) -> Vec<String> {
    let pos = v.parse_fen(fen, "<test>").expect("FEN parses");
    let mut out: Vec<String> = v
        .legal_moves(&pos)
        .iter()
        .map(|m| coordinate(v, m))
        .filter(|c| c.starts_with(from))
        .map(|c| c[from.len()..].to_string())
        .collect();
    out.sort();
    out
}

/// The diagram "possible grasshopper moves from c4" of the vchess rules page
/// (`8/5g2/ppppp3/8/2G2k2/1PPP4/4R3/8`, marked a2 c2 c7 f7 g4). The diagram
/// has no white king; one is added on h1, off every line through c4.
#[test]
fn vchess_diagram_moves_from_c4() {
    let v = grasshopper();
    let fen = "8/5g2/ppppp3/8/2G2k2/1PPP4/4R3/7K w - - 0 1";
    assert_eq!(targets(&v, fen, "c4"), ["a2", "c2", "c7", "f7", "g4"]);
}

/// chessvariants.com: "the following moves are legal from the opening setup:
/// 1. G h2-h4, G c7-a5. 2. G h4 x e7".
#[test]
fn chessvariants_opening_line() {
    let v = grasshopper();
    let mut pos = v.start().expect("setup parses");
    for mv in ["h2h4", "c7a5", "h4e7"] {
        let m = rulebook_interpreter::text::notation::parse_move(&v, &pos, mv, "<test>", 0)
            .unwrap_or_else(|d| panic!("{mv}: {}", d.message));
        pos = v.play(&pos, &m);
    }
    // The grasshopper took the one on e7; the pawn it jumped (f6) is still there.
    let fen = v.fen(&pos);
    assert!(fen.starts_with("rnbqkbnr/gg1gGggg/pppppppp/g7/8/PPPPPPPP/GGGGGGG1/RNBQKBNR b"), "{fen}");
}

/// A pawn of Grasshopper chess never steps two squares.
#[test]
fn pawns_step_one_square() {
    let v = grasshopper();
    let pos = v.start().expect("setup parses");
    assert_eq!(targets(&v, &v.fen(&pos), "e3"), ["e4"]);
}

/// From the setup, counted by hand: 8 pawn steps; 8 grasshopper hops straight
/// over the pawn in front to the fourth rank; diagonal hops over a pawn to the
/// fourth rank: a2 and b2 only towards the h-side, g2 and h2 only towards the
/// a-side, c2–f2 both ways (1+1+2+2+2+2+1+1 = 12); the knights are blocked by
/// pawns and grasshoppers, every other piece is boxed in. 8 + 8 + 12 = 28.
#[test]
fn first_ply_matches_the_hand_count() {
    let v = grasshopper();
    let pos = v.start().expect("setup parses");
    assert_eq!(v.legal_moves(&pos).len(), 28);
}
