//! FEN out must read back in (issue 17): along random games of every file
//! in rules/ (and rules/fairy/), the FEN the interpreter writes parses, and
//! the position read back writes the same FEN and has the same legal moves.
//! The defect that led here: after a diagonal double step (a Berolina pawn)
//! the en-passant square was written and then refused (E0301), because the
//! reader looked for the pawn one step *forward* of it.

mod support;

use rulebook_interpreter::text::notation::coordinate;
use rulebook_interpreter::Variant;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use support::Rng;

/// Every rules file of rules/ and its subfolders.
fn rules_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("rules/").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rules") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules"), &mut out);
    out.sort();
    out
}

/// The legal moves of `pos`, as coordinate texts.
fn moves(v: &Variant, pos: &rulebook_interpreter::Position) -> BTreeSet<String> {
    v.legal_moves(pos).iter().map(|m| coordinate(v, m)).collect()
}

/// Plays `games` random games of at most `plies` plies in `v` and checks
/// the round trip at every position; returns how many were checked.
fn round_trips(v: &Variant, name: &str, games: usize, plies: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = v.start().expect("the setup");
        for ply in 0..=plies {
            let fen = v.fen(&pos);
            let back = v.parse_fen(&fen, "<round trip>").unwrap_or_else(|d| panic!("{name}, ply {ply}: `{fen}` does not read back: {}", d.message));
            assert_eq!(v.fen(&back), fen, "{name}, ply {ply}: written again differently");
            let legal = v.legal_moves(&pos);
            assert_eq!(moves(v, &back), moves(v, &pos), "{name}, ply {ply}: `{fen}` read back has other moves");
            checked += 1;
            if legal.is_empty() {
                break;
            }
            pos = v.play(&pos, &legal[rng.below(legal.len())]);
        }
    }
    checked
}

#[test]
fn every_variant_reads_back_the_fen_it_writes() {
    for (i, path) in rules_files().iter().enumerate() {
        let v = support::variant_at(path);
        let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        // Few long games on the slow flows (4D-Schach's placement and swings).
        let (games, plies) = if v.game.phases.is_empty() { (6, 60) } else { (2, 60) };
        let checked = round_trips(&v, &name, games, plies, 0x9E37_79B9 + i as u64);
        assert!(checked > games, "{name}: only {checked} positions");
    }
}

/// Berolina pawns (they move diagonally forward, two squares from their
/// first rank, and capture straight forward, en passant too), written for
/// this test. After 1.e2-c4 (passing d3) the FEN's en-passant square is d3;
/// read back, Black's pawn on d4 may take en passant: d4xd3 removes the
/// pawn on c4 (the capture straight forward onto the passed square).
#[test]
fn a_diagonal_double_step_reads_back_with_its_en_passant_square() {
    let chess = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/chess.rules");
    let v = support::variant_from_text(
        "berolina",
        &format!(
            "variant \"Berolina pawns\"\nextends \"{}\"\npiece Pawn P {{\n  quiet F forward\n  quiet ride F forward exactly 2 from rank 2 sets en-passant\n  capture W forward takes en-passant\n}}\n",
            chess.display()
        ),
    );
    let pos = v.parse_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "<test>").expect("the position");
    let double = v.legal_moves(&pos).into_iter().find(|m| coordinate(&v, m) == "e2c4").expect("e2-c4 is legal");
    let after = v.play(&pos, &double);
    let fen = v.fen(&after);
    assert_eq!(fen.split(' ').nth(3), Some("d3"), "{fen}");
    let back = v.parse_fen(&fen, "<test>").expect("reads back");
    let ep = v.legal_moves(&back).into_iter().find(|m| coordinate(&v, m) == "d4d3").expect("d4xd3 en passant");
    let taken = v.play(&back, &ep);
    assert_eq!(v.fen(&taken).split(' ').next(), Some("4k3/8/8/8/8/3p4/8/4K3"), "the pawn on c4 is taken");
}

/// Shako's castling rooks stand on the files i and b (`rook from i2`,
/// `rook from b2`): X-FEN's `K` names the rook on i2 although j2 holds one
/// too, and `q` the rook on b9 although a9 holds one (Fairy-Stockfish's
/// castling-rook files); the FEN is written back the same.
#[test]
fn xfen_names_the_castling_rook_file() {
    let v = support::variant_at(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/fairy/shako.rules"));
    let fen = "10/rr3k4/ppppp5/10/10/10/10/6PPPP/5K2RR/10 w Kq - 0 1";
    let pos = v.parse_fen(fen, "<shako>").expect("reads");
    let geo = &v.game.geometry;
    assert_eq!(geo.name(pos.castling[0][0]), "i2");
    assert_eq!(geo.name(pos.castling[1][1]), "b9");
    assert_eq!(v.fen(&pos), fen);
    // With the rook on i2 named, white may castle short (f2-h2, i2-g2);
    // the whole count is Fairy-Stockfish's (fsf_perft.rs: 460 at depth 2).
    assert!(v.legal_moves(&pos).iter().any(|m| m.kind == rulebook_interpreter::engine::position::MoveKind::Castle));
}
