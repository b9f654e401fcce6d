//! Sliding levels (`slide { … }`, docs/LANGUAGE.md §3.18): moves across
//! levels that slid out of the shaft, black holes, colour through a gap, the
//! attack test out of rest, the swing program, the position text's
//! `frame=` and the lowering errors.
//!
//! Every expected list below is counted by hand from `examples/sliding-levels.rules`
//! (a 4×4×3 tower: files a..d, ranks 1..4, levels I II III; I and III slide
//! along the ranks, II along the files; at most 3 rows out) and the movement
//! rule of LANGUAGE.md §3.18, which follows the 4D-Schach rulebook
//! (../shared/seeds/003_56f50a1d9a0aa4d0.txt, §7 "Die Lücke … heißt SCHWARZES
//! LOCH … Ein Bauer kann z.B. von Ebene II auf Ebene IV vorrücken, wenn der
//! Spielschacht auf Ebene III … ein Schwarzes Loch ist. Ein Läufer kann durch
//! ein Schwarzes Loch hindurch seine Farbe wechseln."). Coordinates are
//! 0-based (file, rank, level): Ia1 = (0,0,0), IIIb2 = (1,1,2). A level's
//! *absolute* position is its local one plus its offset on its slide axis:
//! with `II:+1` the cell IIa1 = (0,0,1) stands at absolute file 1, and the
//! shaft's absolute file 0 has no cell of level II.

use rulebook_interpreter::engine::frame;
use rulebook_interpreter::engine::movegen;
use rulebook_interpreter::model::load::load;
use rulebook_interpreter::{Position, Variant};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn example() -> Variant {
    let path = format!("{}/../examples/sliding-levels.rules", env!("CARGO_MANIFEST_DIR"));
    match load(Path::new(&path)) {
        Ok((game, _)) => Variant::new(Arc::new(game)),
        Err((diags, _)) => panic!("sliding-levels.rules does not load: {diags:#?}"),
    }
}

fn fen(v: &Variant, text: &str) -> Position {
    v.parse_fen(text, "<test>").unwrap_or_else(|d| panic!("{text}: {} ({:?})", d.message, d.label))
}

/// The destinations of the legal moves starting on `from`, sorted.
fn targets(v: &Variant, pos: &Position, from: &str) -> Vec<String> {
    let geo = &v.game.geometry;
    let mut out: Vec<String> = v.legal_moves(pos).iter().filter(|m| geo.name(m.from) == from).map(|m| geo.name(m.to)).collect();
    out.sort();
    out
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Kings out of the way: white Id4 = (3,3,0), black IIId4 = (3,3,2). Two
/// levels apart, so they never touch; neither attacks anything below.
/// `board` gives the three levels III|II|I (FEN order, top first).
fn with_frame(v: &Variant, board: &str, side: char, frame: Option<&str>) -> Position {
    let ext = frame.map(|f| format!(" {{frame={f}}}")).unwrap_or_default();
    fen(v, &format!("{board} {side} - - 0 1{ext}"))
}

// ---------------------------------------------------------------- moves across levels

/// Rook on IIb1 = (1,0,1), kings Id4 and IIId4.
/// - At rest: in level II a1, c1, d1, b2, b3, b4 (6); down Ib1; up IIIb1: 8.
/// - `III:+1` (level III pulled one rank north→south, towards rank 4): a
///   step up from IIb1 (absolute (1,0)) needs a cell of III at absolute rank 0,
///   i.e. local rank −1: none, and no level above III: the ride up is empty.
///   Down and within level II nothing changes: 7.
#[test]
fn rook_below_a_level_pulled_out() {
    let v = example();
    let board = "3k/4/4/4|4/4/4/1R2|3K/4/4/4";
    let rest = with_frame(&v, board, 'w', None);
    assert_eq!(targets(&v, &rest, "IIb1"), sorted(&["IIa1", "IIc1", "IId1", "IIb2", "IIb3", "IIb4", "Ib1", "IIIb1"]));
    let out = with_frame(&v, board, 'w', Some("III:+1"));
    assert_eq!(targets(&v, &out, "IIb1"), sorted(&["IIa1", "IIc1", "IId1", "IIb2", "IIb3", "IIb4", "Ib1"]));
}

/// The rulebook's pawn through a black hole, on three levels: a pawn on Ia2
/// = (0,1,0) steps one cell in each of the six straight directions (`quiet W`).
/// - At rest: Ib2, Ia3, Ia1 in level I; up IIa2 (no level below I): 4.
/// - `II:+1` (level II one file west): a step up from absolute (0,1) meets no
///   cell of II there (local file −1), so it lands on the next level that has
///   one, III at rest: IIIa2. In level I the same three: 4, one of them changed.
#[test]
fn pawn_crosses_a_gap() {
    let v = example();
    let board = "3k/4/4/4|4/4/4/4|3K/4/P3/4";
    let rest = with_frame(&v, board, 'w', None);
    assert_eq!(targets(&v, &rest, "Ia2"), sorted(&["Ib2", "Ia3", "Ia1", "IIa2"]));
    let gap = with_frame(&v, board, 'w', Some("II:+1"));
    assert_eq!(targets(&v, &gap, "Ia2"), sorted(&["Ib2", "Ia3", "Ia1", "IIIa2"]));
}

/// A bishop on Ia1 = (0,0,0), colour 0 (the parity of the local coordinates).
/// Its twelve diagonal directions; those leaving the board at once are left out.
/// - At rest: (1,1,0) Ib2, Ic3, then its own king on Id4; (1,0,1) IIb1, IIIc1;
///   (0,1,1) IIa2, IIIa3: 6 cells, every one of colour 0.
/// - `II:+1`: (1,1,0) unchanged: Ib2, Ic3. (1,0,1): absolute (1,0) is IIa1
///   (local (0,0) of II), then from IIa1 (absolute (1,0)) absolute (2,0) on III:
///   IIIc1. (0,1,1): absolute (0,1) has no cell of II, so III: IIIa2, then
///   nothing above III. 5 cells; IIa1 = 0+0+1 and IIIa2 = 0+1+2 are odd: the
///   bishop reaches the other colour.
#[test]
fn bishop_changes_colour_through_a_gap() {
    let v = example();
    let board = "3k/4/4/4|4/4/4/4|3K/4/4/B3";
    let rest = with_frame(&v, board, 'w', None);
    let at_rest = targets(&v, &rest, "Ia1");
    assert_eq!(at_rest, sorted(&["Ib2", "Ic3", "IIb1", "IIIc1", "IIa2", "IIIa3"]));
    let geo = &v.game.geometry;
    let colour = |name: &str| frame::cell_colour(&v.game, geo.parse_square(name).expect("square"));
    assert_eq!(colour("Ia1"), 0);
    assert!(at_rest.iter().all(|c| colour(c) == 0), "at rest a bishop keeps its colour");
    let gap = with_frame(&v, board, 'w', Some("II:+1"));
    let through = targets(&v, &gap, "Ia1");
    assert_eq!(through, sorted(&["Ib2", "Ic3", "IIa1", "IIIc1", "IIIa2"]));
    let changed: Vec<String> = through.iter().filter(|c| colour(c) == 1).cloned().collect();
    assert_eq!(changed, sorted(&["IIa1", "IIIa2"]));
}

/// A knight on Ib1 = (1,0,0): 24 leaps (1,2,0) and rotations; level I is the bottom.
/// - In level I: (+1,+2) Ic3, (−1,+2) Ia3, (+2,+1) Id2; the rest leave the board: 3.
/// - One level up (level component 1, a 2 on file or rank): (+2,0,1) IId1,
///   (0,+2,1) IIb3; (−2,0,1) and (0,−2,1) leave the shaft: 2.
/// - Two levels up (level component 2, a 1 on file or rank): at rest
///   (+1,0,2) IIIc1, (−1,0,2) IIIa1, (0,+1,2) IIIb2: 3. Total 8.
/// - `III:+1`: the two-level leaps count levels that have a cell at the
///   target's absolute position: absolute (2,0) and (0,0) have II but no cell
///   of III (local rank −1), so there is no second level: gone; absolute (1,1)
///   has II and III's local (1,0) = IIIb1. Total 3 + 2 + 1 = 6.
#[test]
fn knight_in_a_tower_with_a_level_pulled_out() {
    let v = example();
    let board = "3k/4/4/4|4/4/4/4|3K/4/4/1N2";
    let rest = with_frame(&v, board, 'w', None);
    assert_eq!(targets(&v, &rest, "Ib1"), sorted(&["Ic3", "Ia3", "Id2", "IId1", "IIb3", "IIIc1", "IIIa1", "IIIb2"]));
    let out = with_frame(&v, board, 'w', Some("III:+1"));
    assert_eq!(targets(&v, &out, "Ib1"), sorted(&["Ic3", "Ia3", "Id2", "IId1", "IIb3", "IIIb1"]));
}

/// A black pawn on IIIa4 = (0,3,2) with `III:+1` stands at absolute rank 4,
/// outside the shaft (a pulled-out row): it moves within its level only —
/// IIIb4 and IIIa3 (rank 5 and file −1 do not exist) — and not down, which
/// at rest it could (IIa4). Kings: black IIId1, white Id4.
#[test]
fn a_piece_on_a_pulled_out_row_stays_in_its_level() {
    let v = example();
    let board = "p3/4/4/3k|4/4/4/4|3K/4/4/4";
    let rest = with_frame(&v, board, 'b', None);
    assert_eq!(targets(&v, &rest, "IIIa4"), sorted(&["IIIb4", "IIIa3", "IIa4"]));
    let out = with_frame(&v, board, 'b', Some("III:+1"));
    assert_eq!(targets(&v, &out, "IIIa4"), sorted(&["IIIb4", "IIIa3"]));
}

// ---------------------------------------------------------------- the attack test out of rest

/// Out of rest a step and its reverse can differ. With `II:+1`: a bishop on
/// Ib1 (absolute (1,0)) stepping (−1,0,+1) aims at absolute (0,0), where II
/// has no cell, so it lands on III: IIIa1. The reverse step from IIIa1
/// (absolute (0,0)) aims at absolute (1,0), where II has IIa1: it lands there,
/// not on Ib1.
/// - White bishop Ib1, black king IIIa1: black is in check.
/// - White bishop IIIa1, black king Ib1: the bishop's ride (1,0,−1) goes IIa1,
///   then from IIa1 (absolute (1,0)) to absolute (2,0) on I: Ic1. Not Ib1: no check.
///   Its other rides: (1,1,0) IIIb2, IIIc3, IIId4; (0,1,−1) aims at absolute
///   (0,1), no cell of II there: Ia2; every other direction leaves the tower: 6.
#[test]
fn the_attack_test_does_not_assume_symmetry() {
    let v = example();
    let checked = with_frame(&v, "4/4/4/k3|4/4/4/4|3K/4/4/1B2", 'b', Some("II:+1"));
    assert!(v.in_check(&checked));
    let safe = with_frame(&v, "4/4/4/B3|4/4/4/4|3K/4/4/1k2", 'b', Some("II:+1"));
    assert!(!v.in_check(&safe));
    let gap = with_frame(&v, "4/4/4/B3|4/4/4/4|3K/4/4/1k2", 'w', Some("II:+1"));
    assert_eq!(targets(&v, &gap, "IIIa1"), sorted(&["IIIb2", "IIIc3", "IIId4", "IIa1", "Ic1", "Ia2"]));
}

/// A rook on IIIb1 = (1,0,2); level III at +1, coming back from +2. The rook
/// stands at absolute (1,1): down it reaches IIb2 and Ib2, not the black king
/// on Ib1. After the tick III stands at 0 (and swings on towards −1): the
/// rook stands above b1 and gives check down the column IIb1, Ib1.
#[test]
fn check_given_by_a_level_that_moved() {
    let v = example();
    let mut pos = with_frame(&v, "4/4/4/1R2|4/4/4/4|3K/4/4/1k2", 'b', Some("III:+1<+2"));
    assert!(!v.in_check(&pos));
    frame::tick(&v.game, &mut pos);
    assert_eq!(v.fen(&pos), "4/4/4/1R2|4/4/4/4|3K/4/4/1k2 b - - 0 1 {frame=III:+0>-1/1}");
    assert!(v.in_check(&pos));
}

// ---------------------------------------------------------------- the swing

/// A tower of three 8×8 levels, level II sliding along the ranks by at most 7,
/// with the overshoot rule given.
fn tower(test: &str, overshoot: &str) -> Variant {
    let text = format!(
        "variant \"Swing\"\nboard {{ files a..h  ranks 1..8  levels I II III }}\n\
         players {{ white: forward +rank  black: forward -rank }}\n\
         slide {{ levels II along rank  out at most 7  swing 1 row per ply  {overshoot} }}\n\
         piece King K {{ royal move W move F }}\n\
         setup \"7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/K7 w - - 0 1\"\n"
    );
    let dir = temp_dir(test);
    let path = dir.join("swing.rules");
    std::fs::write(&path, text).expect("temp file");
    match load(&path) {
        Ok((game, _)) => Variant::new(Arc::new(game)),
        Err((d, _)) => panic!("{d:#?}"),
    }
}

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-frames-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Level II's offset after each tick, until the frame is gone (at most 200 ticks).
fn swing_offsets(v: &Variant, rows: i8) -> Vec<i8> {
    let mut pos = v.start().expect("setup");
    assert!(frame::activate(&v.game, &mut pos, 1, rows));
    let mut seen = Vec::new();
    for _ in 0..200 {
        frame::tick(&v.game, &mut pos);
        match &pos.frame {
            None => {
                seen.push(0);
                return seen;
            }
            Some(f) => seen.push(f.levels[1].offset),
        }
    }
    panic!("the swing never came to rest: {seen:?}");
}

/// Reading A (`overshoot 1 less each pass`), pulled out 7 rows: the rulebook's
/// §8 RAUMKRÜMMUNG: back one row per half-move to rest ("pro Halbzug um eine
/// Reihe in die Normalstellung zurück"), then out on the other side one row
/// less far ("beim Maximum um eine Reihe weniger"), and so on until rest.
/// The first tick (the end of the activating ply) does not move it: its first
/// jump comes at the end of the opponent's next ply. Written out:
/// 7 | 6 5 4 3 2 1 0 | −1 … −6 | −5 … 0 | 1 … 5 | 4 … 0 | −1 … −4 | −3 … 0 |
/// 1 2 3 | 2 1 0 | −1 −2 | −1 0 | 1 | 0 (rest): 50 ticks.
#[test]
fn swing_reading_a_step_by_step() {
    let v = tower("a", "overshoot 1 less each pass");
    let expected: Vec<i8> = vec![
        7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -3, -2, -1, 0, 1,
        2, 3, 2, 1, 0, -1, -2, -1, 0, 1, 0,
    ];
    assert_eq!(expected.len(), 50);
    assert_eq!(swing_offsets(&v, 7), expected);
    // Pulled the other way, the mirror image.
    let mirrored: Vec<i8> = expected.iter().map(|x| -x).collect();
    assert_eq!(swing_offsets(&v, -7), mirrored);
}

/// Reading B (`overshoot 1 less once`): one overshoot, one row less far, then rest.
/// 7 | 6 … 0 | −1 … −6 | −5 … 0 (rest): 20 ticks.
#[test]
fn swing_reading_b_step_by_step() {
    let v = tower("b", "overshoot 1 less once");
    let expected: Vec<i8> = vec![7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -5, -4, -3, -2, -1, 0];
    assert_eq!(swing_offsets(&v, 7), expected);
    // Pulled out one row: back, then an overshoot of 0 rows is none: rest.
    assert_eq!(swing_offsets(&v, 1), vec![1, 0]);
}

/// Activations: every level at rest × ±1, ±2, ±3 (`out at most 3`): 3 × 6 = 18
/// at rest; with level II swinging, 12. `activate` refuses a swinging level,
/// 0 rows and more than 3.
#[test]
fn activations_are_levels_at_rest_times_amounts() {
    let v = example();
    let mut pos = v.start().expect("setup");
    let all = frame::activations(&v.game, &pos);
    assert_eq!(all.len(), 18);
    assert!(all.contains(&(0, 3)) && all.contains(&(2, -3)) && !all.iter().any(|&(_, r)| r == 0 || r.abs() > 3));
    assert!(!frame::activate(&v.game, &mut pos, 1, 4));
    assert!(!frame::activate(&v.game, &mut pos, 1, 0));
    assert!(pos.frame.is_none());
    assert!(frame::activate(&v.game, &mut pos, 1, -2));
    assert!(!frame::activate(&v.game, &mut pos, 1, 1), "a swinging level is not at rest");
    let left = frame::activations(&v.game, &pos);
    assert_eq!(left.len(), 12);
    assert!(left.iter().all(|&(l, _)| l != 1));
    assert_eq!(v.fen(&pos), "2kr/pppp/4/4|4/4/4/4|4/4/PPPP/RK2 w - - 0 1 {frame=II:-2<-2*}");
}

// ---------------------------------------------------------------- position text

#[test]
fn frame_text_round_trips() {
    let v = example();
    for ext in ["II:+1", "III:+1<+2", "II:-3<-3*", "I:-1>-2/1,III:+3", "I:+0>+2/1,II:+1<+3/2"] {
        let text = format!("3k/4/4/4|4/4/4/4|4/4/4/K3 w - - 0 1 {{frame={ext}}}");
        let pos = fen(&v, &text);
        assert!(pos.frame.is_some(), "{ext}");
        assert_eq!(v.fen(&pos), text);
        assert_eq!(fen(&v, &v.fen(&pos)).key(&v.tables), pos.key(&v.tables));
    }
    // A frame at rest writes nothing; the key tells frames apart.
    let rest = fen(&v, "3k/4/4/4|4/4/4/4|3K/4/4/4 w - - 0 1");
    let out = fen(&v, "3k/4/4/4|4/4/4/4|3K/4/4/4 w - - 0 1 {frame=II:+1}");
    assert_eq!(v.fen(&rest), "3k/4/4/4|4/4/4/4|3K/4/4/4 w - - 0 1");
    assert_ne!(rest.key(&v.tables), out.key(&v.tables));
}

#[test]
fn bad_frame_text_is_a_located_error() {
    let v = example();
    let base = "3k/4/4/4|4/4/4/4|3K/4/4/4 w - - 0 1 ";
    let cases: &[(&str, &str)] = &[
        // (extension field, the text the error points at)
        ("{frame=IV:+1}", "IV:+1"),
        ("{frame=II:+4}", "II:+4"),
        ("{frame=II}", "II"),
        ("{frame=II:+1,II:-1}", "II:-1"),
        ("{frame=II:+2<+1}", "II:+2<+1"),
        ("{frame=II:+1>}", "II:+1>"),
        ("{frame=II:+1x}", "II:+1x"),
        ("{colour=II}", "colour"),
        ("{frame}", "frame"),
        ("{frame=II:+1", "{frame=II:+1"),
        ("{frame=II:+1} {frame=I:+1}", "}"),
        ("{frame=II:+1>+2}", "II:+1>+2"),
        ("{frame=II:+0<+2}", "II:+0<+2"),
    ];
    for (ext, at) in cases {
        let text = format!("{base}{ext}");
        let d = v.parse_fen(&text, "<test>").err().unwrap_or_else(|| panic!("{text} parses"));
        assert_eq!(d.code, "E0305", "{text}: {}", d.message);
        assert_eq!(&text[d.span.start..d.span.end.min(text.len())], *at, "{text}: {}", d.message);
    }
    // Without a `slide` item there is no frame to give.
    let chess = rulebook_interpreter::Variant::new(Arc::new(
        load(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/chess.rules"))).expect("chess").0,
    ));
    let d = chess.parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 {frame=II:+1}", "<test>").expect_err("no slide");
    assert_eq!(d.code, "E0305");
}

// ---------------------------------------------------------------- tables per frame

/// Tables are built once per combination of offsets and carry the same
/// Zobrist keys; a position at rest uses the variant's own tables.
#[test]
fn tables_are_cached_per_frame() {
    let v = example();
    let board = "3k/4/4/4|4/4/4/4|3K/4/4/4";
    let a = with_frame(&v, board, 'w', Some("II:+1"));
    let b = with_frame(&v, board, 'w', Some("II:+1<+3"));
    let c = with_frame(&v, board, 'w', Some("III:-2"));
    assert!(v.frames.is_empty());
    let ta = v.tables_for(&a);
    let tb = v.tables_for(&b);
    assert_eq!(v.frames.len(), 1, "II:+1 swinging or not is one geometry");
    let tc = v.tables_for(&c);
    assert_eq!(v.frames.len(), 2);
    assert!(Arc::ptr_eq(&ta.zobrist, &v.tables.zobrist), "one set of keys, shared");
    assert!(Arc::ptr_eq(&tc.zobrist, &v.tables.zobrist));
    assert_eq!(ta.frame, tb.frame);
    let rest = with_frame(&v, board, 'w', Some("II:+0>+1/1"));
    assert!(v.tables_for(&rest).frame.is_empty(), "a level passing rest: the resting tables");
}

/// The cache keeps at most `FRAME_CACHE_FRAMES` frames: the 7 × 7 × 7 − 1 = 342
/// frames out of rest of the example (each level at −3 … +3) never hold more.
#[test]
fn the_frame_cache_is_bounded() {
    let v = example();
    let labels = ["I", "II", "III"];
    let mut met = 0;
    for a in -3i8..=3 {
        for b in -3i8..=3 {
            for c in -3i8..=3 {
                let parts: Vec<String> = [a, b, c].iter().zip(labels).filter(|(o, _)| **o != 0).map(|(o, l)| format!("{l}:{o:+}")).collect();
                if parts.is_empty() {
                    continue;
                }
                let pos = with_frame(&v, "3k/4/4/4|4/4/4/4|4/4/4/K3", 'w', Some(&parts.join(",")));
                assert_eq!(v.tables_for(&pos).frame, vec![a, b, c]);
                met += 1;
                assert!(v.frames.len() <= frame::FRAME_CACHE_FRAMES);
            }
        }
    }
    assert_eq!(met, 342);
}

// ---------------------------------------------------------------- random games

/// Along random games from the setup, with random activations and a tick
/// after every move, the legal moves equal the reference (every pseudo-legal
/// move made on a copy and tested with the attack test). Deterministic
/// (a fixed xorshift seed); 40 games of up to 60 plies.
#[test]
fn legal_moves_equal_the_reference_along_random_games_with_activations() {
    let v = example();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut framed_plies = 0;
    for _ in 0..40 {
        let mut pos = v.start().expect("setup");
        for _ in 0..60 {
            let t = v.tables_for(&pos);
            // The engine in the frame of now: fast generation against the definition.
            let mut fast = Vec::new();
            movegen::legal_moves(&v.game, &t, &pos, &mut fast);
            let fast: BTreeSet<String> = fast.iter().map(|m| format!("{m:?}")).collect();
            let mut reference = Vec::new();
            movegen::legal_moves_reference(&v.game, &t, &pos, &mut reference);
            let reference: BTreeSet<String> = reference.iter().map(|m| format!("{m:?}")).collect();
            assert_eq!(fast, reference, "{}", v.fen(&pos));
            // A game's legal moves while a level swings are judged after the
            // jump at the end of the ply (ruling "check-after-jump"): every
            // pseudo-legal move made on a copy, the swing ticked, then the
            // mover's king must not be attacked in the new frame.
            let mut pseudo = Vec::new();
            movegen::pseudo_moves(&v.game, &t, &pos, &mut pseudo);
            let after_jump: BTreeSet<String> = pseudo
                .iter()
                .filter(|m| {
                    let mut next = pos.clone();
                    next.make(m, &v.game, &t);
                    if frame::swinging(&pos) {
                        frame::tick(&v.game, &mut next);
                    }
                    !movegen::royal_attacked(&v.game, &v.tables_for(&next), &next, pos.side)
                })
                .map(|m| format!("{m:?}"))
                .collect();
            let game_moves: BTreeSet<String> = v.legal_moves(&pos).iter().map(|m| format!("{m:?}")).collect();
            assert_eq!(game_moves, after_jump, "{}", v.fen(&pos));
            if pos.frame.is_some() {
                framed_plies += 1;
            }
            let moves = v.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let m = moves[(next() % moves.len() as u64) as usize];
            // The plain make (the tick comes below, after a random activation).
            let mut made = pos.clone();
            made.make(&m, &v.game, &v.tables_for(&pos));
            pos = made;
            if next() % 4 == 0 {
                let acts = frame::activations(&v.game, &pos);
                if !acts.is_empty() {
                    let (level, rows) = acts[(next() % acts.len() as u64) as usize];
                    let mut trial = pos.clone();
                    assert!(frame::activate(&v.game, &mut trial, level, rows));
                    // An activation that leaves the mover's king attacked is not made here.
                    let t = v.tables_for(&trial);
                    if !movegen::royal_attacked(&v.game, &t, &trial, trial.side ^ 1) {
                        pos = trial;
                    }
                }
            }
            frame::tick(&v.game, &mut pos);
            if let Some(f) = &pos.frame {
                assert!(f.levels.iter().all(|l| l.offset.unsigned_abs() <= 3), "frames in range");
            }
        }
    }
    assert!(framed_plies > 100, "only {framed_plies} plies out of rest");
}

// ---------------------------------------------------------------- lowering

/// The errors a `slide` item gives, as (code, the text each points at).
fn slide_errors(test: &str, slide: &str) -> Vec<(&'static str, String)> {
    let text = format!(
        "variant \"Bad\"\nboard {{ files a..d  ranks 1..4  levels I II III }}\n\
         players {{ white: forward +rank  black: forward -rank }}\n{slide}\n\
         piece King K {{ royal move W }}\n\
         setup \"3k/4/4/4|4/4/4/4|3K/4/4/4 w - - 0 1\"\n"
    );
    let path = temp_dir(test).join("bad.rules");
    std::fs::write(&path, &text).expect("temp file");
    match load(&path) {
        Ok(_) => panic!("{test} loaded"),
        Err((diags, _)) => diags.iter().map(|d| (d.code, text.get(d.span.start..d.span.end).unwrap_or("").to_string())).collect(),
    }
}

#[test]
fn slide_lowering_errors_point_at_the_cause() {
    let ok = "out at most 3  swing 1 row per ply  overshoot 1 less each pass";
    let cases: Vec<(&str, String, (&str, &str))> = vec![
        ("unknown-level", format!("slide {{ levels IV along rank  {ok} }}"), ("E0150", "IV")),
        ("two-axes", format!("slide {{ levels I b along rank  {ok} }}"), ("E0151", "b")),
        ("unknown-axis", format!("slide {{ levels I along column  {ok} }}"), ("E0152", "column")),
        ("stacking-axis", format!("slide {{ levels I along level  {ok} }}"), ("E0152", "level")),
        ("twice", format!("slide {{ levels I II along rank  levels II along file  {ok} }}"), ("E0153", "II")),
        ("too-far", "slide { levels I along rank  out at most 4  swing 1 row per ply  overshoot 1 less once }".into(), ("E0154", "out at most 4")),
        ("zero-out", "slide { levels I along rank  out at most 0  swing 1 row per ply  overshoot 1 less once }".into(), ("E0154", "out at most 0")),
        ("missing", "slide { levels I along rank  out at most 3 }".into(), ("E0155", "slide")),
        ("never-back", "slide { levels I along rank  out at most 3  swing 0 rows per ply  overshoot 1 less once }".into(), ("E0156", "0")),
        ("never-rests", "slide { levels I along rank  out at most 3  swing 1 row per ply  overshoot 0 less each pass }".into(), ("E0156", "0")),
        ("huge", "slide { levels I along rank  out at most 300  swing 1 row per ply  overshoot 1 less once }".into(), ("E0157", "300")),
        ("given-twice", format!("slide {{ levels I along rank  {ok}  out at most 2 }}"), ("E0137", "out at most 2")),
    ];
    for (test, slide, (code, at)) in cases {
        let errors = slide_errors(test, &slide);
        assert!(errors.contains(&(code, at.to_string())), "{test}: {errors:?}");
    }
}

#[test]
fn the_example_lowers_to_its_rule() {
    let v = example();
    let slide = v.game.slide.as_ref().expect("slide");
    assert_eq!(slide.stack_axis, 2);
    assert_eq!(slide.axes, vec![Some(1), Some(0), Some(1)]);
    assert_eq!(slide.out_max, 3);
    assert_eq!((slide.swing.rows, slide.swing.shrink, slide.swing.once), (1, 1, false));
    // At rest this is the plain tower: the setup has no frame.
    assert!(v.start().expect("setup").frame.is_none());
}

/// Every legal move of one position out of rest, counted by hand: white pawn
/// Ia2, white king Id4 = (3,3,0), black king IIId4 = (3,3,2), `II:+1`.
/// - The pawn: Ib2, Ia3, Ia1 and IIIa2 through the gap (as in `pawn_crosses_a_gap`): 4.
/// - The king in level I: Ic4, Ic3, Id3 (the other five steps leave the board): 3.
/// - The king one level up: absolute (3,3) is II's local (2,3) = IIc4; the
///   diagonal steps up reach absolute (2,3) = IIb4 and (3,2) = IIc3; the rest
///   leave the shaft. The black king on IIId4 (absolute (3,3)) steps down onto
///   the same three cells (IIc4 straight down, IIb4 and IIc3 diagonally), so
///   all three are attacked: 0.
///
/// Total 7.
#[test]
fn every_move_of_a_position_out_of_rest() {
    let v = example();
    let pos = with_frame(&v, "3k/4/4/4|4/4/4/4|3K/4/P3/4", 'w', Some("II:+1"));
    let geo = &v.game.geometry;
    let mut all: Vec<String> = v.legal_moves(&pos).iter().map(|m| format!("{}{}", geo.name(m.from), geo.name(m.to))).collect();
    all.sort();
    assert_eq!(all, sorted(&["Ia2Ib2", "Ia2Ia3", "Ia2Ia1", "Ia2IIIa2", "Id4Ic4", "Id4Ic3", "Id4Id3"]));
    assert_eq!(rulebook_interpreter::engine::perft::perft(&v, &pos, 1), 7);
    // The three cells one level up are attacked by the black king, through the frame.
    let black = 1;
    for cell in ["IIc4", "IIb4", "IIc3"] {
        let c = geo.parse_square(cell).expect("square");
        assert!(movegen::attacked(&v.game, &v.tables_for(&pos), &pos, c, black), "{cell}");
    }
}

// ---------------------------------------------------------------- unit steps

/// In every frame of the example tower (each level 3 rows out either way
/// or at rest: 7³ = 343 frames), a unit step along any axis and the step
/// back along it meet: where the step from `c` lands on `x`, the step back
/// from `x` lands on `c`. Within a level this is the grid's own step; along
/// the stacking axis the target keeps the origin's absolute position, and
/// the levels a step up skips (no cell there) are those the step down
/// skips. The pre-filters for `line` rules lean on it out of rest (a run
/// through a cell needs a neighbour whose step back leads to the cell:
/// `Fires::firing`, the watch's cells next to the pieces, a placement's
/// line test).
#[test]
fn unit_steps_and_their_reverses_meet_in_every_frame() {
    let v = example();
    let geo = &v.game.geometry;
    let (mut frames, mut stepped, mut skipped) = (0, 0, 0);
    for i in 0..343 {
        let offsets = [i % 7, i / 7 % 7, i / 49].map(|o| o as i32 - 3);
        let parts: Vec<String> = ["I", "II", "III"].iter().zip(offsets).filter(|(_, o)| *o != 0).map(|(l, o)| format!("{l}:{o:+}")).collect();
        let pos = with_frame(&v, "3k/4/4/4|4/4/4/4|4/4/4/K3", 'w', (!parts.is_empty()).then(|| parts.join(",")).as_deref());
        let t = v.tables_for(&pos);
        for axis in 0..geo.dims() {
            for c in geo.board_cells() {
                let Some(x) = t.unit_step(axis, true, c) else { continue };
                assert_eq!(t.unit_step(axis, false, x), Some(c), "{} up from {} to {}", parts.join(","), geo.name(c), geo.name(x));
                stepped += 1;
                skipped += usize::from(axis == 2 && geo.coord(x, 2) > geo.coord(c, 2) + 1);
            }
            for c in geo.board_cells() {
                let Some(x) = t.unit_step(axis, false, c) else { continue };
                assert_eq!(t.unit_step(axis, true, x), Some(c), "{} down from {} to {}", parts.join(","), geo.name(c), geo.name(x));
            }
        }
        frames += 1;
    }
    // Some steps up cross a black hole (level II slid away under them).
    assert!(frames == 343 && stepped > 10_000 && skipped > 100, "{frames} frames, {stepped} steps, {skipped} across a gap");
}
