//! Pieces out of play in 4D-Schach (rules/4d-schach.rules, §9 ZEITANOMALIE
//! of ../shared/seeds/003_56f50a1d9a0aa4d0.txt) and the entropy correction
//! (§5 ENTROPIE): the exiles a big castling offers, the return cells that
//! grow with the level's swing, the deadline (an own piece stays out, an
//! enemy piece passes to its owner), the mate from hyperspace, the position
//! text's `out=` and `waived=` keys, and the corrections offered after the
//! opening. Every expected number is counted by hand below from the rules
//! and their rulings; the positions are built for these tests (the rulebook
//! has no diagram of them).
//!
//! Cells are level, file, rank (IIIc4: level III, file c, rank 4).

mod support;

use rulebook_interpreter::flow::{Action, ActionKind};
use rulebook_interpreter::model::Outcome;
use rulebook_interpreter::text::notation::action::{action_coordinate, parse_action};
use rulebook_interpreter::{Position, Status, Variant};

fn four_d() -> Variant {
    support::variant("4d-schach")
}

fn at(v: &Variant, fen: &str) -> Position {
    v.parse_fen(fen, "<test>").unwrap_or_else(|d| panic!("{fen}: {}", d.message))
}

/// Plays `line` (decisions in either notation) from `pos`.
fn play(v: &Variant, mut pos: Position, line: &str) -> Position {
    for word in line.split_whitespace() {
        let a = parse_action(v, &pos, word, None, "<test>", 0).unwrap_or_else(|d| panic!("{word} in {}: {} {:?}", v.fen(&pos), d.message, d.help));
        pos = v.apply(&pos, &a);
    }
    pos
}

fn names(v: &Variant, pos: &Position) -> Vec<String> {
    let mut out: Vec<String> = v.actions(pos).iter().map(|a| action_coordinate(v, a)).collect();
    out.sort();
    out
}

/// The offset of level III in `pos` (0 at rest).
fn offset_iii(v: &Variant, pos: &Position) -> i8 {
    pos.frame.as_ref().and_then(|f| f.offsets()).map_or(0, |o| o[2]).max(-127) * if v.game.slide.is_some() { 1 } else { 0 }
}

/// White: king Ia1, pawns IIIc1 IIIc2 IIIc3 IIIc5, rook IIIa8. Black: king
/// VIIh8, knight IIIh8, bishop IIIg8 (the bishop on g8 of level III attacks
/// along the diagonals of the three planes; nothing of White's stands on
/// them). White plays IIIc5-c4: four pawns on file c of level III (c1..c4),
/// a big castling (rule "big castling": a line of 4 or more).
const BIG: &str = "7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|R5bn/8/8/2P5/8/2P5/2P5/2P5|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/K7 w - - 0 1";

/// The big castling up to its exile: the inner pawns c2 and c3 go to level
/// II (a1, a3), level III is pulled 2 rows to the South (towards rank 8).
const TO_EXILE: &str = "IIIc5IIIc4 R-IIIc2-IIa1 R-IIIc3-IIa3 A-III-2-Süd";

#[test]
fn a_big_castling_offers_one_own_and_one_enemy_piece_of_its_level() {
    let v = four_d();
    let pos = play(&v, at(&v, BIG), "IIIc5IIIc4");
    // The obligations of rule "big castling": the two inner pawns, one
    // activation, then the optional exile (text: `?`).
    let text = v.fen(&pos);
    let r = v.game.rules.iter().position(|r| r.name == "big castling").expect("the rule");
    assert!(text.contains(&format!("oblige=w:relocate@IIIc2/{r}.0!,w:relocate@IIIc3/{r}.0!,w:activate/{r}.1!,w:exile/{r}.2?")), "{text}");
    let pos = play(&v, at(&v, BIG), TO_EXILE);
    // White's pieces left on level III, not kings: pawns c1, c4 and the
    // rook a8 (3); Black's: knight h8, bishop g8 (2). 3 × 2 pairs and the pass.
    let got = names(&v, &pos);
    let mut want: Vec<String> = Vec::new();
    for own in ["IIIc1", "IIIc4", "IIIa8"] {
        for enemy in ["IIIh8", "IIIg8"] {
            want.push(format!("out:{own}+{enemy}"));
        }
    }
    want.push("pass".into());
    want.sort();
    assert_eq!(got, want);
    // The exile names the level the activation pulled out.
    assert!(v.fen(&pos).contains(&format!("w:exile@III/{r}.2?")), "{}", v.fen(&pos));
}

#[test]
fn an_exile_on_a_level_without_an_enemy_piece_is_not_offered() {
    // As BIG without Black's knight and bishop: nothing of Black's on level
    // III, so no pair can be taken ("2 Figuren (eine eigene und eine des
    // Gegners)", ruling big-castling-limbo) and the optional exile is
    // dropped: the activation ends the ply (Black to move, nothing owed).
    let v = four_d();
    let fen = BIG.replace("R5bn", "R7");
    let pos = play(&v, at(&v, &fen), TO_EXILE);
    assert!(pos.flow.is_none() || pos.flow.as_ref().is_some_and(|f| f.queue.is_empty()), "{}", v.fen(&pos));
    assert_eq!(pos.side, 1);
}

/// Level III pulled +2 (A-III-2-Süd) swings by reading A of ruling
/// "swing-damping": it waits one ply, then stands at +1, 0, -1 (an
/// overshoot of one row less), and rests at 0: offsets after the castling
/// ply's end and each ply after it: +2, +1, 0, -1, 0 (at rest).
///
/// The pawn taken from IIIc4 (rank index 3) stood at rank 3 + 2 = 5 of the
/// shaft. The cell of level III there at offset +1 is rank index 4 (c5), at
/// 0 c6, at -1 c7. The knight from IIIh8 (rank index 7) stood at 9, outside
/// the shaft: no other cell of the level ever stands there.
#[test]
fn return_cells_grow_with_the_swing_and_the_deadline_passes_at_rest() {
    let v = four_d();
    let mut pos = play(&v, at(&v, BIG), &format!("{TO_EXILE} X-IIIc4-IIIh8"));
    let out = |pos: &Position| pos.flow.as_ref().map(|f| f.out.clone()).unwrap_or_default();
    let cells = |pos: &Position, i: usize| -> Vec<String> { out(pos)[i].cells.iter().map(|&c| v.game.geometry.name(c)).collect() };
    assert_eq!(offset_iii(&v, &pos), 2);
    assert_eq!(out(&pos).len(), 2);
    assert_eq!(cells(&pos, 0), ["IIIc4"]);
    // Black moves; the first jump: +1, and IIIc5 stands where c4 stood.
    pos = play(&v, pos, "KVIIg7");
    assert_eq!(offset_iii(&v, &pos), 1);
    assert_eq!(cells(&pos, 0), ["IIIc4", "IIIc5"]);
    // White moves and may return the pawn onto c4 or c5, or the knight
    // onto h8 (it captures nothing there: h8 is empty), or pass.
    let after_move = play(&v, pos.clone(), "KIb1");
    assert_eq!(names(&v, &after_move), ["in:IIIc4>IIIc4", "in:IIIc4>IIIc5", "in:IIIh8>IIIh8", "pass"]);
    // White passes (the rule is not asked again in that ply); Black moves: 0, then -1.
    pos = play(&v, after_move, "-- KVIIh8");
    assert_eq!(offset_iii(&v, &pos), -1);
    assert_eq!(cells(&pos, 0), ["IIIc4", "IIIc5", "IIIc6", "IIIc7"]);
    assert_eq!(cells(&pos, 1), ["IIIh8"]);
    // White's last chance comes before the last jump; White passes both.
    pos = play(&v, pos, "KIa1 --");
    assert_eq!(offset_iii(&v, &pos), 0);
    assert!(pos.frame.is_none(), "level III is at rest");
    let left = out(&pos);
    // White's own pawn stays out for good; Black's knight passes to Black
    // (`missed: enemy piece to owner`) with no deadline.
    assert_eq!(left[0].holder, None);
    assert_eq!(left[1].holder, Some(1));
    assert_eq!(left[1].level, None);
    // Black moves and may now return its knight onto h8.
    let after = play(&v, pos.clone(), "KVIIg7");
    assert_eq!(names(&v, &after), ["in:IIIh8>IIIh8", "pass"]);
    let back = play(&v, after, "Z-IIIh8-IIIh8");
    assert_eq!(v.game.geometry.name(back.cells_of(1, v.tables.nwords).find(|&c| v.game.geometry.name(c) == "IIIh8").expect("the knight is back")), "IIIh8");
    assert_eq!(out(&back).len(), 1, "only the pawn in the offside is left");
}

#[test]
fn a_return_captures_an_enemy_piece_on_its_cell() {
    // After the exile, Black's bishop goes to IIIc5? It cannot (bishops keep
    // to diagonals); Black's king walks instead. Here White's rook
    // captures nothing; the knight held by White returns onto h8 after
    // Black put nothing there. So a capture is set up with a position text:
    // a black pawn on IIIc5, White holding its own pawn from IIIc4 with
    // return cells c4 and c5: returning onto c5 captures the pawn.
    let v = four_d();
    let fen = "7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|R5b1/8/8/2p5/8/8/8/2P5|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/K7 w - - 0 1 {frame=III:+1<+2 out=PIIIc4>w~III@+2:IIIc4+IIIc5}";
    let pos = at(&v, fen);
    let after = play(&v, pos, "KIb1");
    assert_eq!(names(&v, &after), ["in:IIIc4>IIIc4", "in:IIIc4>IIIc5", "pass"]);
    let back = play(&v, after, "Z-IIIc4-IIIc5");
    let c5 = v.game.geometry.parse_square("IIIc5").expect("a cell");
    assert_eq!(back.board[c5 as usize], rulebook_interpreter::engine::position::code(5, 0), "White's pawn stands on c5");
    assert_eq!(back.halfmove, 0, "a capture");
    assert_eq!(back.cells_of(1, v.tables.nwords).count(), 2, "Black's pawn is gone: its king and bishop are left");
}

/// A king on a return cell of a piece the other side may return is mated
/// from hyperspace (ruling "mate-from-hyperspace"): Black's king steps from
/// IIId6 onto IIIc5 while White holds its pawn taken from IIIc4; at the end
/// of that ply the jump puts c5 where c4 stood, and Black has lost.
#[test]
fn a_king_on_a_return_cell_is_mated_from_hyperspace() {
    let v = four_d();
    let fen = "8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|R7/8/3k4/8/8/8/8/2P5|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/K7 b - - 0 1 {frame=III:+2<+2 out=PIIIc4>w~III@+2:IIIc4}";
    let pos = at(&v, fen);
    let after = play(&v, pos, "KIIIc5");
    let rule = v.game.rules.iter().position(|r| r.name == "mate from hyperspace").expect("the rule");
    assert_eq!(v.status(&after), Status::Rule { rule, outcome: Outcome::Win }, "White to move has won: {}", v.fen(&after));
    assert!(v.actions(&after).is_empty());
}

#[test]
fn the_position_text_keeps_pieces_out_of_play_and_waivers() {
    let v = four_d();
    // After Black's ply (+1: c5 gained) and White's (0: c6 gained).
    let pos = play(&v, at(&v, BIG), &format!("{TO_EXILE} X-IIIc4-IIIh8 KVIIg7 KIb1 --"));
    let text = v.fen(&pos);
    assert!(text.contains("out=PIIIc4>w~III@+2:IIIc4+IIIc5+IIIc6^,nIIIh8>w~III@+2:IIIh8^"), "{text}");
    let back = at(&v, &text);
    assert_eq!(v.fen(&back), text);
    assert_eq!(back.key(&v.tables), pos.key(&v.tables));
    // A waiver mid-ply: White passed the return, the rule is not asked again.
    let mid = "7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|R6b/8/8/8/8/8/8/2P5|8/8/8/8/8/8/8/K7|8/8/8/8/8/8/8/8[] b - - 0 1 {oblige=w:activate/1.1! waived=2w}";
    let p = at(&v, mid);
    assert_eq!(v.fen(&p), mid);
    // Bad values are errors with a message, not panics.
    for bad in ["out=Xé>w:IIIc4", "out=PIIIc4>q:IIIc4", "out=PIIIc4>w~IX@+1:IIIc4", "waived=9é", "waived=99w", "out=PIIIc4>w:Z9"] {
        let t = format!("8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/K6k w - - 0 1 {{{bad}}}");
        assert!(v.parse_fen(&t, "<test>").is_err(), "{bad} accepted");
    }
}

/// The entropy correction (§5, ruling "entropy-correction"), owed by White
/// at the end of the opening, set up as a position text mid-ply (Black
/// placed last, so Black is the ply's mover and White decides now).
///
/// White: king IIId4 alone. Black: king Ve5; pawns VIIa8 VIIc8 VIIe8 and
/// rook VIIh1: four pieces on level VII (more than 2), one on V, none
/// elsewhere, so levels I..VI all lack (fewer than 2). White may move one of
/// the four from VII to an empty cell of I..VI: 6 × 64 = 384 cells less the
/// two kings' = 382, except where the piece would give check to White's
/// king (`only if not white in check and not black in check`; White has
/// nothing else that could check Black):
/// - a pawn checks IIId4 from the 12 cells one F-step (two coordinates ±1)
///   away: 370 cells for each of the 3 pawns;
/// - the rook from the 19 cells of its lines to IIId4 with nothing between:
///   rank 4 of III (7), file d of III (7), column d4 of levels I, II, IV, V,
///   VI (5; Vd4 and VId4 see through the empty IVd4): 363 cells.
/// 3 × 370 + 363 = 1,473 relocations, and the pass.
#[test]
fn the_entropy_correction_offers_moves_to_the_lacking_levels() {
    let v = four_d();
    let rule = v.game.rules.iter().position(|r| r.name == "entropy correction of Black").expect("the rule");
    let fen = format!(
        "p1p1p3/8/8/8/8/8/8/7r|8/8/8/8/8/8/8/8|8/8/8/4k3/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/3K4/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 17 {{phase=opening oblige=w:relocate/{rule}.0?}}"
    );
    let pos = at(&v, &fen);
    let actions = v.actions(&pos);
    assert_eq!(actions.iter().filter(|a| matches!(a, Action::Relocate { .. })).count(), 1473);
    assert!(actions.contains(&Action::Pass));
    // After one relocation Black still lacks: the rule asks White again.
    let next = play(&v, pos.clone(), "R-VIIa8-Ia1");
    assert_eq!(next.flow.as_ref().and_then(|f| f.queue.first()).map(|o| (o.player, o.kind)), Some((0, ActionKind::Relocate)));
    // After a pass it does not: Black's correction of White has nothing to
    // move (White has no level with more than 2 pieces), so the ply ends.
    let done = play(&v, next, "--");
    assert!(done.flow.is_none(), "play has begun, nothing owed: {}", v.fen(&done));
    assert_eq!(done.halfmove, 0, "the move limit counts from the middle game");
    assert_eq!(done.side, 0, "White moves first in the middle game");
}
