//! Rule semantics that are easy to get wrong, each checked on a small
//! position whose answer follows directly from the rules as documented.

use rulebook_interpreter::text::notation::{coordinate, parse_move, san_plain};
use rulebook_interpreter::{model::load::load, Variant};
use std::io::Write;
use std::sync::Arc;

mod support;

/// Loads a variant written inline (extending the shipped chess rules).
fn inline(name: &str, text: &str) -> Variant {
    let dir = std::env::temp_dir().join(format!("rulebook-semantics-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let chess = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/chess.rules");
    let path = dir.join(format!("{name}.rules"));
    let mut f = std::fs::File::create(&path).expect("temp file");
    let text = text.replace("CHESS", &chess.replace('\\', "/"));
    f.write_all(text.as_bytes()).expect("write");
    let (game, _) = load(&path).unwrap_or_else(|(d, _)| panic!("{name}: {d:?}"));
    Variant::new(Arc::new(game))
}

fn moves_from(v: &Variant, fen: &str, from: &str) -> Vec<String> {
    let pos = v.parse_fen(fen, "<test>").expect("FEN parses");
    let mut out: Vec<String> = v.legal_moves(&pos).iter().map(|m| coordinate(v, m)).filter(|c| c.starts_with(from)).collect();
    out.sort();
    out
}

/// `move W` and `move ride W` overlap: each target is one move, listed once.
#[test]
fn overlapping_parts_give_each_move_once() {
    let v = inline("overlap", "extends \"CHESS\"\npiece Rook R {\n  move W\n  move ride W\n}\n");
    let got = moves_from(&v, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1");
    // Up the a-file (7) and along the first rank to d1 (3): 10 distinct moves.
    assert_eq!(got.len(), 10, "{got:?}");
}

/// A `move` part that `takes en-passant` captures when it lands on the target.
#[test]
fn move_part_takes_en_passant_as_a_capture() {
    let v = inline(
        "ep-move",
        "extends \"CHESS\"\npiece Pawn P {\n  quiet W forward\n  quiet ride W forward exactly 2 from rank 2 sets en-passant\n  move F forward takes en-passant\n}\n",
    );
    let pos = v.parse_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "<test>").expect("FEN");
    let legal = v.legal_moves(&pos);
    let to_d6: Vec<String> = legal.iter().filter(|m| coordinate(&v, m) == "e5d6").map(|m| san_plain(&v, &pos, m, &legal)).collect();
    assert_eq!(to_d6, ["exd6"]);
    // The captured pawn leaves d5.
    let m = parse_move(&v, &pos, "exd6", "<test>", 0).expect("legal");
    assert!(v.fen(&v.play(&pos, &m)).starts_with("4k3/8/3P4/8/8/8/8/4K3 b"));
}

/// Two promotion rules of one piece: each zone keeps its own targets.
#[test]
fn promotion_rules_keep_their_own_targets() {
    let v = inline(
        "two-promotions",
        "extends \"CHESS\"\npromotion {\n  Pawn on rank 8 to Queen\n  Pawn on rank 7 to Knight\n}\n",
    );
    assert_eq!(moves_from(&v, "4k3/8/8/8/8/8/P7/4K3 w - - 0 1", "a2"), ["a2a3", "a2a4"]);
    assert_eq!(moves_from(&v, "4k3/8/P7/8/8/8/8/4K3 w - - 0 1", "a6"), ["a6a7n"]);
    // A knight cannot stand in a pawn's promotion zone, but a pawn on rank 7 would have promoted.
    assert!(v.parse_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "<test>").is_err());
}

/// Crazyhouse: drops do not reset the fifty-move count (the file's ruling).
#[test]
fn crazyhouse_drops_keep_the_fifty_move_count() {
    let v = support::variant("crazyhouse");
    let pos = v.parse_fen("4k3/8/8/8/8/8/8/4K3[P] w - - 7 20", "<test>").expect("FEN");
    let m = parse_move(&v, &pos, "P@e4", "<test>", 0).expect("legal drop");
    assert_eq!(v.play(&pos, &m).halfmove, 8);
}

/// FEN is strict about holes and pockets.
#[test]
fn fen_rejects_stars_on_squares_and_text_after_the_pocket() {
    let v = support::variant("crazyhouse");
    assert!(v.parse_fen("4k3/8/8/8/8/8/8/*3K3 w - - 0 1", "<test>").is_err());
    assert!(v.parse_fen("4k3/8/8/8/8/8/8/4K3[P]x w - - 0 1", "<test>").is_err());
    assert!(v.parse_fen("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "<test>").is_ok());
}

/// Raumschach: two pawns that can step to one cell are told apart in SAN.
#[test]
fn pawn_steps_to_one_cell_are_disambiguated() {
    let v = support::variant("raumschach");
    // White pawns on Ab2 (steps up to Bb2) and Bb1 (steps forward to Bb2); kings far apart.
    let fen = "2k2/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/1P3|5/5/5/1P3/4K w - - 0 1";
    let pos = v.parse_fen(fen, "<test>").expect("FEN");
    let legal = v.legal_moves(&pos);
    let mut sans: Vec<String> = legal.iter().filter(|m| v.game.geometry.name(m.to) == "Bb2").map(|m| san_plain(&v, &pos, m, &legal)).collect();
    sans.sort();
    assert_eq!(sans, ["Ab2Bb2", "Bb1Bb2"]);
    for s in &sans {
        assert!(parse_move(&v, &pos, s, "<test>", 0).is_ok(), "{s} parses back");
    }
}

/// Plays `line` from the chess setup: the game goes on until its last move,
/// which draws by repetition.
fn draws_by_repetition_on_the_last_move(line: &[&str]) {
    use rulebook_interpreter::Status;
    let v = chess();
    let mut pos = v.start().expect("setup");
    let mut earlier = Vec::new();
    for (i, mv) in line.iter().enumerate() {
        let m = parse_move(&v, &pos, mv, "<test>", 0).expect("legal");
        earlier.push(pos.clone());
        pos = v.play(&pos, &m);
        let expected = if i == line.len() - 1 { Status::Repetition } else { Status::Ongoing };
        assert_eq!(v.status_in_game(&pos, &earlier), expected, "after {mv}");
    }
}

fn chess() -> Variant {
    support::variant("chess")
}

/// FIDE 9.2: the third occurrence of a position draws (chess.rules: `draw on repetition 3`).
#[test]
fn third_occurrence_draws() {
    draws_by_repetition_on_the_last_move(&["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]);
}

/// FIDE 9.3: fifty moves by each side without capture or pawn move draw; a mate on the last move stands.
#[test]
fn fifty_moves_draw_unless_mate() {
    use rulebook_interpreter::model::Outcome;
    use rulebook_interpreter::Status;
    let v = chess();
    let pos = v.parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "<test>").expect("FEN");
    let m = parse_move(&v, &pos, "Ra2", "<test>", 0).expect("legal");
    assert_eq!(v.status_in_game(&v.play(&pos, &m), &[]), Status::FiftyMoves);
    let pos = v.parse_fen("6k1/8/6K1/8/8/8/8/R7 w - - 99 80", "<test>").expect("FEN");
    let m = parse_move(&v, &pos, "Ra8#", "<test>", 0).expect("legal");
    assert_eq!(v.status_in_game(&v.play(&pos, &m), &[]), Status::Checkmate(Outcome::Lose));
}

/// Overlapping parts where one sets en passant: `e3` once, and the double step sets the target.
#[test]
fn overlapping_step_and_double_step_give_each_move_once() {
    let v = inline(
        "overlap-ep",
        "extends \"CHESS\"\npiece Pawn P {\n  quiet W forward\n  quiet ride W forward max 2 from rank 2 sets en-passant\n  capture F forward takes en-passant\n}\n",
    );
    let pos = v.start().expect("setup");
    assert_eq!(rulebook_interpreter::engine::perft::perft(&v, &pos, 1), 20);
    assert_eq!(rulebook_interpreter::engine::perft::perft(&v, &pos, 3), 8902);
    let m = parse_move(&v, &pos, "e4", "<test>", 0).expect("legal");
    assert!(v.fen(&v.play(&pos, &m)).contains(" e3 "));
}

/// An `exactly` ride that takes en passant captures on the target.
#[test]
fn exact_ride_takes_en_passant() {
    let v = inline(
        "ep-exact",
        "extends \"CHESS\"\npiece Pawn P {\n  quiet W forward\n  quiet ride W forward exactly 2 from rank 2 sets en-passant\n  move ride F forward exactly 1 takes en-passant\n}\n",
    );
    let pos = v.parse_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "<test>").expect("FEN");
    let legal = v.legal_moves(&pos);
    let to_d6: Vec<String> = legal.iter().filter(|m| coordinate(&v, m) == "e5d6").map(|m| san_plain(&v, &pos, m, &legal)).collect();
    assert_eq!(to_d6, ["exd6"]);
}

/// `from start`: the pawn's double step written as "from its setup squares"
/// gives exactly the chess counts (a pawn on its second rank is on a start square).
#[test]
fn from_start_is_the_setup_squares() {
    let v = inline(
        "from-start",
        "extends \"CHESS\"\npiece Pawn P {\n  quiet W forward\n  quiet ride W forward exactly 2 from start sets en-passant\n  capture F forward takes en-passant\n}\n",
    );
    let pos = v.start().expect("setup");
    assert_eq!(rulebook_interpreter::engine::perft::perft(&v, &pos, 4), 197_281);
    let kiwipete = v
        .parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "<test>")
        .expect("FEN");
    assert_eq!(rulebook_interpreter::engine::perft::perft(&v, &kiwipete, 3), 97_862);
    // A knight with a double leap only from its setup squares (b1, g1 / b8, g8).
    let v = inline("knight-start", "extends \"CHESS\"\npiece Knight N {\n  move N\n  move (0,4) from start\n}\n");
    assert_eq!(moves_from(&v, &v.game.setup.clone(), "b1"), ["b1a3", "b1b5", "b1c3"]);
    assert_eq!(moves_from(&v, "4k3/8/8/8/8/8/8/2N1K3 w - - 0 1", "c1").len(), 4);
}

/// Crazyhouse: a captured piece changes side and joins the captor's hand; a
/// promoted piece (marked `~` in FEN) joins it as a Pawn.
#[test]
fn crazyhouse_captures_go_to_hand_and_promoted_pieces_demote() {
    let v = support::variant("crazyhouse");
    // Black's queen on d5 was promoted (Q~); White's rook takes it, then Black's knight is taken.
    let pos = v.parse_fen("4k3/8/8/3q~4/8/8/8/3RK3[] w - - 0 1", "<test>").expect("FEN");
    let m = parse_move(&v, &pos, "Rxd5", "<test>", 0).expect("legal");
    let after = v.play(&pos, &m);
    assert!(v.fen(&after).starts_with("4k3/8/8/3R4/8/8/8/4K3[P] b"), "{}", v.fen(&after));
    let pos = v.parse_fen("4k3/8/8/3n4/8/8/8/3RK3[] w - - 0 1", "<test>").expect("FEN");
    let m = parse_move(&v, &pos, "Rxd5", "<test>", 0).expect("legal");
    let after = v.play(&pos, &m);
    assert!(v.fen(&after).starts_with("4k3/8/8/3R4/8/8/8/4K3[N] b"), "{}", v.fen(&after));
    // The knight in hand may now be dropped (White to move again after a black king move).
    let after = v.play(&after, &parse_move(&v, &after, "Kf7", "<test>", 0).expect("legal"));
    assert!(parse_move(&v, &after, "N@e5", "<test>", 0).is_ok());
    // A promotion in crazyhouse marks the new piece as promoted.
    let pos = v.parse_fen("P3k3/8/8/8/8/8/8/4K3[] w - - 0 1", "<test>");
    assert!(pos.is_err(), "a pawn on its promotion rank is refused");
    let pos = v.parse_fen("4k3/8/P7/8/8/8/8/4K3[] w - - 0 1", "<test>").expect("FEN");
    let pos = v.play(&pos, &parse_move(&v, &pos, "a7", "<test>", 0).expect("legal"));
    let pos = v.play(&pos, &parse_move(&v, &pos, "Kd7", "<test>", 0).expect("legal"));
    let pos = v.play(&pos, &parse_move(&v, &pos, "a8=Q", "<test>", 0).expect("legal"));
    assert!(v.fen(&pos).starts_with("Q~7/"), "{}", v.fen(&pos));
}

/// FIDE 9.2.3: after 1. e4 no en-passant capture is possible, so the position
/// after 1. e4 is the one that returns after 3. Ng1 and 5. Ng1: the third time draws.
#[test]
fn an_en_passant_target_without_a_capture_does_not_change_the_position() {
    draws_by_repetition_on_the_last_move(&["e4", "Nf6", "Nf3", "Ng8", "Ng1", "Nf6", "Nf3", "Ng8", "Ng1"]);
}

/// A triple step passes two squares: FEN writes both (`e3,e4`), reads them
/// back, and a capture on either takes the pawn that stepped.
#[test]
fn several_passed_squares_survive_a_fen_round_trip() {
    let v = inline(
        "triple-step",
        "extends \"CHESS\"\npiece Pawn P {\n  quiet W forward\n  quiet ride W forward exactly 3 from rank 2 sets en-passant\n  capture F forward takes en-passant\n}\n",
    );
    let pos = v.parse_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "<test>").expect("FEN");
    let after = v.play(&pos, &parse_move(&v, &pos, "e2e5", "<test>", 0).expect("legal"));
    let fen = v.fen(&after);
    assert_eq!(fen, "4k3/8/8/4P3/3p4/8/8/4K3 b - e3,e4 0 1");
    let again = v.parse_fen(&fen, "<test>").expect("round trip");
    assert_eq!(v.fen(&again), fen);
    let m = parse_move(&v, &again, "dxe3", "<test>", 0).expect("en passant on the first passed square");
    assert_eq!(v.fen(&v.play(&again, &m)), "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2");
    assert!(v.parse_fen("4k3/8/8/4P3/3p4/8/8/4K3 b - e3,e5 0 1", "<test>").is_err());
}
