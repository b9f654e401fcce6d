//! 4D-Schach (rules/4d-schach.rules) played from the empty tower to a
//! checkmate: the 32 placements of the opening (§4), the entropy correction
//! waived by both sides (§5), a small castling (§6, §7: a group of 3 pawns, its
//! inner pawn relocated, a level activated), the level's swing (§8, ruling
//! "swing-damping" reading A, "first-jump"), a big castling with its time
//! anomaly (§9: two relocations, an activation, one own and one enemy piece
//! exiled), their resurrection in White's next ply before the level comes to
//! rest, and a checkmate in the corner Ia8 (the pattern of ruling
//! "dead-position": black king Ia8, white king IIb7 a space diagonal away, a
//! pawn on Ib7 giving check).
//!
//! The line is played through the library (each decision read with
//! `parse_action` and made with `Variant::apply`, asserting what the rulebook
//! says happens at each stage) and through the binary (`play --as both
//! --moves --record`, then `replay`): the middle game from the position after
//! the opening by default, the whole game with `--ignored` (slow: see there).
//!
//! Cells are level, file, rank (IIId5). Coordinates in the comments are
//! (file, rank, level) counted from 0; a cell is dark when their sum is even
//! (ruling "cell-colours"). Level VII slides along the ranks (Süd: towards
//! rank 8, positive), level VI along the files (West: towards file h,
//! positive); a level at offset k shows its local cell x at shaft place x + k.

mod support;
use support::*;

use rulebook_interpreter::flow::ActionKind;
use rulebook_interpreter::model::load::load;
use rulebook_interpreter::model::Outcome;
use rulebook_interpreter::text::notation::action::{action_san, parse_action};
use rulebook_interpreter::{Position, Status, Variant};
use std::sync::Arc;

const VI: usize = 5;
const VII: usize = 6;
const WHITE: u8 = 0;

/// Plies 1-32: the opening, in the rulebook's order (K, P, R1, P, B1, P, N1,
/// P, Q, P, B2, P, N2, P, R2, king's pawn), each piece on a cell of its chess
/// square's colour, attacking nothing and unattacked, no three own pawns in a
/// line. White builds on levels VI and VII: pawns VIIf1, VIIh1 and VIg1 (the
/// small castling's), VIa1, VIb1, VId1 and VIc2 (the big castling's) and Ib6
/// (the mating pawn). Black keeps to files f-h, ranks 5-8 of levels I-II, with
/// one pawn on VIh8 (to be exiled) and its king on IIId5.
const OPENING: [&str; 32] = [
    "K@Ve5", "K@IIId5", // kings: Ve5 (4,4,4) dark, IIId5 (3,4,2) light, on two levels
    "P@VIIf1", "P@Ih8", "R@VIIa3", "R@Ih7", "P@VIb1", "P@Ih5", "B@VIIe1", "B@Ig8",
    "P@VIIh1", "P@Ih6", "N@VIIa2", "N@Ig7", "P@VId1", "P@Ig6", "Q@VIIe4", "Q@Ig5",
    "P@VIc2", "P@VIh8", "B@VIe3", "B@If8", "P@VIa1", "P@IIh7", "N@VIe4", "N@If7",
    "P@Ib6", "P@If5", "R@VIIc4", "R@IIh5", "P@VIg1", "P@IIg8",
];

/// The entropy correction (§5): Black has fewer than 2 pieces on levels III
/// to VII, White on II, III and IV; White may correct Black, then Black
/// White. Both waive.
const ENTROPY: [&str; 2] = ["--", "--"];

/// Ply 33 (White): the small castling. VIg1 steps up to VIIg1, between VIIf1
/// and VIIh1: a group of 3. Its inner pawn (VIIg1, the one that moved) goes
/// to IIIh1; level VII is pulled 3 ranks towards the South (offset +3).
const SMALL_CASTLING: [&str; 3] = ["PgVIIg1", "R-VIIg1-IIIh1", "A-VII-3-Süd"];

/// Plies 34-36: level VII swings back one row a ply (+2, +1, 0). Black's
/// king heads for the corner Ia8, White's for IIb7.
const SWING: [&str; 3] = ["KIId6", "KIVe6", "KIIc7"];

/// Ply 37 (White): the big castling. VIc2 steps to VIc1 between VIb1 and
/// VId1: VIa1 VIb1 VIc1 VId1, a group of 4. The inner pawns VIb1 and VIc1 go
/// to IVh1 and IVf1, level VI is pulled 2 files West (+2), and White exiles
/// its knight VIe4 and Black's pawn VIh8.
const BIG_CASTLING: [&str; 5] = ["PcVIc1", "R-VIb1-IVh1", "R-VIc1-IVf1", "A-VI-2-West", "X-VIe4-VIh8"];

/// Ply 38 (Black): the king goes on to IIb8; level VI jumps to +1.
const BEFORE_RESURRECTION: [&str; 1] = ["KIIb8"];

/// Ply 39 (White): the king steps to IIId6, then both pieces come back: the
/// knight onto VIf4 (a return cell it gained at the jump), Black's pawn onto
/// VIh8 (its only one).
const RESURRECTION: [&str; 3] = ["KIIId6", "Z-VIe4-VIf4", "Z-VIh8-VIh8"];

/// Plies 40-45: Black's king reaches Ia8, White's king IIb7 (covering all
/// six neighbours of Ia8), Black's pawn VIh8 waits, and the pawn Ib6 steps to
/// Ib7: check from a protected pawn, no escape, nothing captures it. Mate.
const MATE: [&str; 6] = ["KIa8", "KIIc6", "PVIh7", "KIIb7", "PVIh8", "PIb7#"];

fn four_d() -> Variant {
    let path = root().join("rules").join("4d-schach.rules");
    let (game, _) = load(&path).unwrap_or_else(|(d, _)| panic!("4d-schach.rules: {d:?}"));
    Variant::new(Arc::new(game))
}

/// The whole line, one decision an entry.
fn line() -> Vec<&'static str> {
    [&OPENING[..], &ENTROPY, &SMALL_CASTLING, &SWING, &BIG_CASTLING, &BEFORE_RESURRECTION, &RESURRECTION, &MATE].concat()
}

/// The index (into the positions of [`play`]) after the decisions of `stages`.
fn after(stages: &[&[&str]]) -> usize {
    stages.iter().map(|s| s.len()).sum()
}

/// The positions from the start, one after each decision (index 0: the start).
fn play(v: &Variant) -> Vec<Position> {
    let mut pos = v.start().expect("the setup");
    let mut out = vec![pos.clone()];
    for (i, d) in line().into_iter().enumerate() {
        let t0 = std::time::Instant::now();
        let action = parse_action(v, &pos, d, None, "line", 0)
            .unwrap_or_else(|e| panic!("decision {} `{d}` is not legal in {}: {e:?}", i + 1, v.fen(&pos)));
        if std::env::var("FD_TIME").is_ok() { eprintln!("parse {} {d} {:?}", i + 1, t0.elapsed()); }
        let t0 = std::time::Instant::now();
        pos = v.apply(&pos, &action);
        if std::env::var("FD_TIME").is_ok() { eprintln!("{} {d} {:?}", i + 1, t0.elapsed()); }
        out.push(pos.clone());
    }
    out
}

fn text(v: &Variant, pos: &Position) -> String {
    v.fen(pos)
}

/// The SAN-like forms of every decision of `pos`.
fn decisions(v: &Variant, pos: &Position) -> Vec<String> {
    let actions = v.actions(pos);
    let legal: Vec<_> = actions.iter().filter_map(|a| a.as_move().copied()).collect();
    actions.iter().map(|a| action_san(v, pos, a, &legal, None)).collect()
}

/// Level `level`'s offset (0 at rest).
fn offset(pos: &Position, level: usize) -> i8 {
    pos.frame.as_ref().map_or(0, |f| f.levels[level].offset)
}

/// Is level `level` at rest (in the shaft, not swinging)?
fn at_rest(pos: &Position, level: usize) -> bool {
    pos.frame.as_ref().map_or(true, |f| f.levels[level].at_rest())
}

/// Is a ply complete (nothing owed)?
fn ply_done(pos: &Position) -> bool {
    pos.flow.as_ref().map_or(true, |f| f.queue.is_empty())
}

#[test]
fn the_line_plays_through_every_stage_to_a_checkmate() {
    let v = four_d();
    let pos = play(&v);
    let geo = &v.game.geometry;
    let at_opening_end = after(&[&OPENING]);
    let at_small = after(&[&OPENING, &ENTROPY, &SMALL_CASTLING]);
    let at_big = after(&[&OPENING, &ENTROPY, &SMALL_CASTLING, &SWING, &BIG_CASTLING]);
    let at_resurrection = after(&[&OPENING, &ENTROPY, &SMALL_CASTLING, &SWING, &BIG_CASTLING, &BEFORE_RESURRECTION, &RESURRECTION]);

    // ---- The opening: both hands empty after 32 placements, and White may
    // correct Black's entropy (rule 6, optional: `?`).
    let t = text(&v, &pos[at_opening_end]);
    assert!(t.contains("[]"), "{t}");
    assert!(t.contains("{phase=opening oblige=w:relocate/6.0?}"), "{t}");
    // After White's waiver Black may correct White's (rule 7); after both the
    // middle game starts with White to move and nothing owed.
    assert!(text(&v, &pos[at_opening_end + 1]).contains("oblige=b:relocate/7.0?"), "{}", text(&v, &pos[at_opening_end + 1]));
    let middle = &pos[at_opening_end + 2];
    assert!(ply_done(middle) && middle.side == WHITE && middle.frame.is_none(), "{}", text(&v, middle));
    assert_eq!(text(&v, middle), MIDDLE_GAME);

    // ---- The small castling. After VIg1-VIIg1 White owes (rule 3, "group",
    // both compulsory): the relocation of the inner pawn VIIg1, then an
    // activation.
    let t = text(&v, &pos[at_small - 2]);
    assert!(t.contains("oblige=w:relocate@VIIg1/3.0!,w:activate/3.1!"), "{t}");
    let queue = &pos[at_small - 2].flow.as_ref().expect("obligations").queue;
    assert_eq!(queue.iter().map(|o| (o.kind, o.compulsory)).collect::<Vec<_>>(), [(ActionKind::Relocate, true), (ActionKind::Activate, true)]);
    assert_eq!(queue[0].from.map(|c| geo.name(c)).as_deref(), Some("VIIg1"));
    // The activations after the relocation: 7 levels at rest × 7 rows × 2
    // directions = 98, less 8 that leave White's king Ve5 attacked:
    // A-IV-4..7-Ost and A-IV-5..7-West empty the shaft place e5 of level IV,
    // so Black's king IIId5 reaches Ve5 by its step (+1,0,+1) through the
    // black hole; A-II-3-Ost carries Black's rook IIh5 to the place e5, below
    // the empty IIIe5 and IVe5 and the king on Ve5.
    let ds = decisions(&v, &pos[at_small - 1]);
    assert_eq!(ds.len(), 90, "{ds:?}");
    for gone in ["A-IV-4-Ost", "A-IV-7-Ost", "A-IV-5-West", "A-IV-7-West", "A-II-3-Ost"] {
        assert!(!ds.iter().any(|d| d == gone), "{gone} in {ds:?}");
    }
    for kept in ["A-IV-3-Ost", "A-IV-4-West", "A-II-2-Ost", "A-VII-3-Süd", "A-VI-7-Ost"] {
        assert!(ds.iter().any(|d| d == kept), "{kept} not in {ds:?}");
    }
    // The ply is complete: level VII stands at +3, Black to move.
    assert!(ply_done(&pos[at_small]) && offset(&pos[at_small], VII) == 3, "{}", text(&v, &pos[at_small]));

    // ---- The swing. A move that depends on the pulled-out level: Black's
    // king may not go to IIIc6 now, because at the end of Black's ply level
    // VII jumps to +2 and White's rook VIIc4 then stands over the shaft place
    // c6 and looks down the empty column VIc6, Vc6, IVc6 to IIIc6 (the ply is
    // judged after the jump: ruling "check-after-jump"). In the same position
    // with the tower at rest the step is legal.
    let swinging = text(&v, &pos[at_small]);
    assert!(swinging.ends_with("{frame=VII:+3<+3}"), "{swinging}");
    assert!(parse_action(&v, &pos[at_small], "KIIIc6", None, "t", 0).is_err());
    let resting = v.parse_fen(swinging.split(" {").next().expect("a board"), "rest").expect("the position at rest");
    assert!(parse_action(&v, &resting, "KIIIc6", None, "t", 0).is_ok());

    // Level VII's offset at the end of each ply from the small castling on
    // (ruling "swing-damping", reading A, from 3: 3, 2, 1, 0, -1, -2, -1, 0,
    // 1, 0 and rest; ruling "first-jump": it waits through Black's next ply
    // and jumps at its end, one row a ply, intermediate moves making no jump).
    // Level VI, pulled +2 by the big castling (the 5th of these plies):
    // 2, 1, 0, -1, 0 and rest.
    let ends: Vec<usize> = (at_small..pos.len()).filter(|&i| ply_done(&pos[i])).collect();
    let seven: Vec<i8> = ends.iter().map(|&i| offset(&pos[i], VII)).collect();
    assert_eq!(seven, [3, 2, 1, 0, -1, -2, -1, 0, 1, 0, 0, 0, 0], "plies ending at {ends:?}");
    let six: Vec<i8> = ends.iter().map(|&i| offset(&pos[i], VI)).collect();
    assert_eq!(six, [0, 0, 0, 0, 2, 1, 0, -1, 0, 0, 0, 0, 0], "plies ending at {ends:?}");
    let seven_rests: Vec<bool> = ends.iter().map(|&i| at_rest(&pos[i], VII)).collect();
    assert_eq!(seven_rests, [false, false, false, false, false, false, false, false, false, true, true, true, true]);
    let six_rests: Vec<bool> = ends.iter().map(|&i| at_rest(&pos[i], VI)).collect();
    assert_eq!(six_rests, [true, true, true, true, false, false, false, false, true, true, true, true, true]);
    // The offset passing 0 is not rest: after the 4th ply VII stands at 0 and
    // swings on towards -2 (its first overshoot).
    assert!(text(&v, &pos[ends[3]]).contains("VII:+0>-2/1"), "{}", text(&v, &pos[ends[3]]));

    // ---- The big castling. After VIc2-VIc1 (a line VIa1..VId1) White owes,
    // by rule 2 ("big castling"): the two inner pawns' relocations, an
    // activation, and an exile it may waive.
    let t = text(&v, &pos[at_big - 4]);
    assert!(t.contains("oblige=w:relocate@VIb1/2.0!,w:relocate@VIc1/2.0!,w:activate/2.1!,w:exile/2.2?"), "{t}");
    // The exiles after A-VI-2-West: White's pieces on VI but the king, by
    // hand: pawns VIa1 and VId1 (VIb1 and VIc1 are gone to IV), bishop VIe3,
    // knight VIe4: 4; Black's: the pawn VIh8: 1. 4 × 1 pairs and the waiver.
    let ds = decisions(&v, &pos[at_big - 1]);
    let mut sorted = ds.clone();
    sorted.sort();
    assert_eq!(sorted, ["--", "X-VIa1-VIh8", "X-VId1-VIh8", "X-VIe3-VIh8", "X-VIe4-VIh8"]);
    // The two pieces are out of play, held by White, each with the cell it
    // left as its only return cell so far; the ply is complete.
    let out_cells = |p: &Position| -> Vec<(String, Vec<String>)> {
        p.flow.as_ref().map_or(Vec::new(), |f| {
            f.out.iter().map(|e| (geo.name(e.origin), e.cells.iter().map(|&c| geo.name(c)).collect())).collect()
        })
    };
    let big = &pos[at_big];
    assert!(ply_done(big), "{}", text(&v, big));
    assert_eq!(out_cells(big), [("VIe4".into(), vec!["VIe4".to_string()]), ("VIh8".into(), vec!["VIh8".to_string()])]);
    let flow = big.flow.as_ref().expect("pieces out of play");
    assert!(flow.out.iter().all(|e| e.holder == Some(WHITE) && e.level == Some(VI as u8)), "{flow:?}");
    // Level VI keeps the pawns VIa1, VId1 and the bishop VIe3.
    assert_eq!(board_level(&v, big, VI), "8/8/8/8/8/4B3/8/P2P4", "{}", text(&v, big));
    // At the end of Black's ply VI jumps from +2 to +1: the knight's place
    // in the shaft (file e + 2 = g) now shows VIf4, a new return cell. The
    // pawn left from the pulled-out file h (place h + 2, outside the shaft):
    // no cell of VI comes there, its cells stay {VIh8}.
    let next = &pos[at_big + 1];
    assert_eq!(out_cells(next), [("VIe4".into(), vec!["VIe4".to_string(), "VIf4".to_string()]), ("VIh8".into(), vec!["VIh8".to_string()])]);

    // ---- The resurrection, after White's own move in its next ply (rule 4,
    // optional): onto the knight's two cells or the pawn's one, or waive.
    let ds = decisions(&v, &pos[at_resurrection - 2]);
    let mut sorted = ds.clone();
    sorted.sort();
    assert_eq!(sorted, ["--", "Z-VIe4-VIe4", "Z-VIe4-VIf4", "Z-VIh8-VIh8"]);
    assert!(text(&v, &pos[at_resurrection - 2]).contains("oblige=w:return/4.0?"));
    // The knight stands on VIf4, then the pawn on VIh8 again; nothing is out
    // of play, and level VI is still swinging (at +1, due to jump to 0).
    let back = &pos[at_resurrection - 1];
    assert_eq!(board_level(&v, back, VI).split('/').nth(4), Some("5N2"), "{}", text(&v, back));
    let back = &pos[at_resurrection];
    assert_eq!(board_level(&v, back, VI).split('/').next(), Some("7p"), "{}", text(&v, back));
    assert!(back.flow.as_ref().map_or(true, |f| f.out.is_empty()), "{}", text(&v, back));
    assert!(!at_rest(&pos[at_resurrection - 1], VI) && offset(&pos[at_resurrection - 1], VI) == 1);

    // ---- The mate: Black to move, in check, no decision: checkmate, Black loses.
    let last = pos.last().expect("a position");
    assert_eq!(v.fen(last), "8/8/8/8/2R1Q3/R7/N7/4BP1P|7p/8/8/8/5N2/4B3/8/P2P4|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/5P1P|8/8/8/8/8/8/8/7P|6p1/1K5p/8/7r/8/8/8/8|k4bbp/1P3nnr/6pp/5pqp/8/8/8/8[] b - - 0 23");
    assert!(v.in_check(last));
    assert!(v.actions(last).is_empty());
    assert_eq!(v.status(last), Status::Checkmate(Outcome::Lose));
}

/// The board of level `level` in the position text (levels are written from
/// VII down to I).
fn board_level(v: &Variant, pos: &Position, level: usize) -> String {
    let t = v.fen(pos);
    let board = t.split(['[', ' ']).next().expect("a board").to_string();
    board.split('|').nth(6 - level).expect("seven levels").to_string()
}

/// The middle game's start: the position after the 32 placements and the
/// two waived corrections (White to move, nothing owed, every level at rest).
const MIDDLE_GAME: &str = "8/8/8/8/2R1Q3/R7/N7/4BP1P|7p/8/8/8/4N3/4B3/2P5/PP1P2P1|8/8/8/4K3/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/3k4/8/8/8/8|6p1/7p/8/7r/8/8/8/8|5bbp/5nnr/1P4pp/5pqp/8/8/8/8[] w - - 0 17";

/// Plays `moves` with the binary (from `fen`, else from the empty tower),
/// records the game, checks the record and replays it.
fn play_record_replay(fen: Option<&str>, moves: &[&str]) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let record = dir.path().join("four-d.pgn");
    let record_arg = record.display().to_string();
    let rules = root().join("rules").join("4d-schach.rules").display().to_string();
    let moves_arg = moves.join(" ");
    let mut args = vec!["play", &rules, "--as", "both", "--moves", &moves_arg, "--seed", "1", "--record", &record_arg];
    if let Some(f) = fen {
        args.extend(["--fen", f]);
    }
    let out = run(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let shown = stdout(&out);
    assert!(shown.contains("Black to move, in check"), "{shown}");
    assert!(shown.contains("Game over: checkmate; White wins (1-0)"), "{shown}");
    let written = std::fs::read_to_string(&record).expect("the record");
    assert!(written.contains("[Result \"1-0\"]"), "{written}");
    // The castlings' and the resurrection's intermediate moves are written
    // in the ply they belong to, under White's move number.
    let flat = written.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("17. PgVIIg1 R-VIIg1-IIIh1 A-VII-3-Süd KIId6"), "{flat}");
    assert!(flat.contains("19. PcVIc1 R-VIb1-IVh1 R-VIc1-IVf1 A-VI-2-West X-VIe4-VIh8 KIIb8"), "{flat}");
    assert!(flat.contains("20. KIIId6 Z-VIe4-VIf4 Z-VIh8-VIh8 KIa8"), "{flat}");
    assert!(flat.ends_with("23. PIb7# 1-0"), "{flat}");
    if fen.is_none() {
        // The entropy corrections (White's, then Black's) belong to Black's
        // last placement's ply: no move number of their own.
        assert!(flat.contains("16. P@VIg1 P@IIg8 -- -- 17. PgVIIg1"), "{flat}");
    }
    let out = run(&["replay", &record_arg, "--rules", &rules]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).ends_with(&format!("The record is valid: {} moves.\n", moves.len())), "{}", stdout(&out));
}

/// The middle game of the line (both castlings, the swing, the resurrection
/// and the mate) through the binary, from the position after the opening:
/// played, recorded and replayed (about 10 s in a debug build).
#[test]
fn the_binary_plays_records_and_replays_the_middle_game() {
    let middle: Vec<&str> = line().split_off(OPENING.len() + ENTROPY.len());
    assert_eq!(middle.len(), 21);
    play_record_replay(Some(MIDDLE_GAME), &middle);
}

/// The whole line from the empty tower through the binary. Ignored by
/// default: the positions that offer the entropy correction (about 4,000
/// relocations each) make `play` and `replay` slow in a debug build (9 s for
/// the test in release). Run with `cargo test --release --test four_d_game -- --ignored`.
#[test]
#[ignore]
fn the_binary_plays_records_and_replays_the_whole_game() {
    play_record_replay(None, &line());
}
