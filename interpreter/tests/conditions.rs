//! Rule-defined conditions, triggers and end conditions (`rule` items, issue
//! 13): every predicate on hand-counted positions, forbidden moves, games a
//! rule ends, the errors lowering reports, and Fairy-Stockfish's counts for
//! King of the Hill and Racing Kings (../shared/fsf-perft-checks.tsv).

use rulebook_grammar::Diagnostic;
use rulebook_interpreter::engine::cond;
use rulebook_interpreter::engine::perft::perft;
use rulebook_interpreter::model::load::load;
use rulebook_interpreter::model::{Game, Outcome};
use rulebook_interpreter::{Status, Variant};
use std::sync::Arc;

mod support;

/// Writes `text` (with `CHESS` standing for the shipped chess rules) to a
/// temporary file and loads it.
fn load_text(name: &str, text: &str) -> Result<Game, Vec<Diagnostic>> {
    let dir = std::env::temp_dir().join(format!("rulebook-conditions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let chess = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/chess.rules").replace('\\', "/");
    let path = dir.join(format!("{name}.rules"));
    std::fs::write(&path, text.replace("CHESS", &chess)).expect("temp file");
    load(&path).map(|(game, _)| game).map_err(|(diags, _)| diags)
}

fn variant(name: &str, text: &str) -> Variant {
    match load_text(name, text) {
        Ok(game) => Variant::new(Arc::new(game)),
        Err(d) => panic!("{name}: {d:?}"),
    }
}

fn error_codes(name: &str, text: &str) -> Vec<String> {
    match load_text(name, text) {
        Ok(_) => panic!("{name} loaded"),
        Err(d) => d.iter().map(|d| d.code.to_string()).collect(),
    }
}

/// A 4×4×3 tower: files a–d, ranks 1–4, levels A–C (cells `Aa1` … `Cd4`).
const TOWER: &str = "variant \"Tower\"
board { files a b c d  ranks 1 2 3 4  levels A B C }
players { white: forward +rank  black: forward -rank }
piece King K { royal move W move F }
piece Rook R { move ride W }
piece Pawn P { quiet W }
setup \"k2K/4/4/4|4/4/4/4|4/4/4/4 w - - 0 1\"
";

/// The tower with one rule whose condition is `cond_text`, and `fen` (a
/// position of it); `eval` is given the variant, the position and the
/// condition.
fn on_tower<T>(cond_text: &str, fen: &str, eval: impl FnOnce(&Variant, &rulebook_interpreter::Position, &rulebook_interpreter::model::cond::Cond) -> T) -> T {
    let text = format!("{TOWER}rule \"t\" {{ on ply-end  if {cond_text}  then white wins }}\n");
    // Tests run in parallel: each evaluation writes its own file.
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let v = variant(&format!("tower-{n}"), &text);
    let pos = v.parse_fen(fen, "<test>").expect("fen");
    let guard = v.game.rules[0].guard.as_ref().expect("guard");
    eval(&v, &pos, guard)
}

/// Does `cond` hold in `fen` (a position of the tower) with white as the subject?
fn tower_holds(cond_text: &str, fen: &str) -> bool {
    on_tower(cond_text, fen, |v, pos, guard| cond::holds(&v.game, &v.tables, pos, guard, 0, 0))
}

// Positions of the tower, levels listed C | B | A, each rank 4 first. The
// kings stand on Ca4 (black) and Cd4 (white) unless said otherwise.

/// Level A, rank 1: white pawns on Aa1 Ab1 Ac1.
const ROW_OF_3: &str = "k2K/4/4/4|4/4/4/4|4/4/4/PPP1 w - - 0 1";
/// Level A, rank 1: white pawns on Aa1 Ab1 Ac1 Ad1.
const ROW_OF_4: &str = "k2K/4/4/4|4/4/4/4|4/4/4/PPPP w - - 0 1";
/// White pawns on Ab2 Bb2 Cb2: one above the other.
const STACK_OF_3: &str = "k2K/4/1P2/4|4/4/1P2/4|4/4/1P2/4 w - - 0 1";
/// White pawns on Aa1 Ab1 Ad1: the line is broken at Ac1.
const BROKEN: &str = "k2K/4/4/4|4/4/4/4|4/4/4/PP1P w - - 0 1";
/// White pawns on Aa1 Ab2 Ac3: a diagonal within level A.
const DIAGONAL: &str = "k2K/4/4/4|4/4/4/4|4/2P1/1P2/P3 w - - 0 1";
/// White pawns on Aa1 Bb1 Cc1: a diagonal through the levels.
const SPACE_DIAGONAL: &str = "k2K/4/4/2P1|4/4/4/1P2|4/4/4/P3 w - - 0 1";
/// White pawns Aa1 Ab1, a black pawn on Ac1.
const MIXED: &str = "k2K/4/4/4|4/4/4/4|4/4/4/PPp1 w - - 0 1";

#[test]
fn a_line_along_a_level_and_vertically() {
    let line3 = "line 3 own Pawn along file rank level";
    // Aa1 Ab1 Ac1: three in a row along the file axis.
    assert!(tower_holds(line3, ROW_OF_3));
    // Ab2 Bb2 Cb2: three above one another (along the level axis) ...
    assert!(tower_holds(line3, STACK_OF_3));
    // ... which is no line within a level.
    assert!(!tower_holds("line 3 own Pawn along file rank", STACK_OF_3));
    // Along the level axis only: the row on level A is no line.
    assert!(!tower_holds("line 3 own Pawn along level", ROW_OF_3));
    assert!(tower_holds("line 3 own Pawn along level", STACK_OF_3));
}

#[test]
fn broken_lines_diagonals_and_enemy_pieces_do_not_count() {
    let line3 = "line 3 own Pawn along file rank level";
    // Aa1 Ab1 _ Ad1: the longest line has 2 pawns.
    assert!(!tower_holds(line3, BROKEN));
    assert!(tower_holds("line 2 own Pawn along file", BROKEN));
    // Aa1 Ab2 Ac3 and Aa1 Bb1 Cc1: diagonals are not lines along an axis.
    assert!(!tower_holds(line3, DIAGONAL));
    assert!(!tower_holds(line3, SPACE_DIAGONAL));
    // Aa1 Ab1 white, Ac1 black: two white pawns only.
    assert!(!tower_holds(line3, MIXED));
    // The black pawn alone is no line of black's; with black as `enemy`: none of 3.
    assert!(!tower_holds("line 3 enemy Pawn along file", MIXED));
}

/// How far `cond` is from holding in `fen` (a position of the tower), white as the subject.
fn tower_shortfall(cond_text: &str, fen: &str) -> u32 {
    on_tower(cond_text, fen, |v, pos, guard| cond::shortfall(&v.game, &v.tables, pos, guard, 0, 0))
}

/// The shortfall the checker's directed lines steer by, hand-counted.
#[test]
fn shortfall_counts_what_a_condition_lacks() {
    let line4 = "line 4 own Pawn along file rank level";
    // A condition that holds lacks nothing.
    assert_eq!(tower_shortfall(line4, ROW_OF_4), 0);
    // Aa1 Ab1 Ac1: the window a1–d1 lacks d1.
    assert_eq!(tower_shortfall(line4, ROW_OF_3), 1);
    // Aa1 Ab1 _ Ad1: its longest run is 2, but the window a1–d1 lacks only c1.
    assert_eq!(tower_shortfall(line4, BROKEN), 1);
    // Aa1 Ab2 Ac3: every window of 4 along an axis holds one pawn at most
    // (a row, a file, or the 3-level column, too short for 4): 3 missing.
    assert_eq!(tower_shortfall(line4, DIAGONAL), 3);
    // Counts: 1 white pawn of 3 wanted on the board lacks 2; both tests of
    // an `and` add up; an `or` takes the nearer.
    assert_eq!(tower_shortfall("at least 3 own Pawn", "k2K/4/4/4|4/4/4/4|4/4/4/P3 w - - 0 1"), 2);
    assert_eq!(tower_shortfall("at least 3 own Pawn and line 4 own Pawn along file", "k2K/4/4/4|4/4/4/4|4/4/4/P3 w - - 0 1"), 5);
    assert_eq!(tower_shortfall("at least 3 own Pawn or line 2 own Pawn along file", "k2K/4/4/4|4/4/4/4|4/4/4/P3 w - - 0 1"), 1);
    // Any other failing test counts 1.
    assert_eq!(tower_shortfall("own in check", ROW_OF_3), 1);
}

#[test]
fn line_lengths_count_the_longest_line() {
    // Four in a row: `line 3` (3 or more) holds, `line 3..3` (a longest line of exactly 3) does not.
    assert!(tower_holds("line 3 own Pawn along file", ROW_OF_4));
    assert!(!tower_holds("line 3..3 own Pawn along file", ROW_OF_4));
    assert!(tower_holds("line 3..4 own Pawn along file", ROW_OF_4));
    assert!(tower_holds("line 3..4 own Pawn along file", ROW_OF_3));
    assert!(!tower_holds("line 4 own Pawn along file", ROW_OF_3));
}

#[test]
fn counts_per_level_and_zone() {
    // ROW_OF_3: white has the king on level C and 3 pawns on level A; level B is empty.
    assert!(tower_holds("fewer than 2 own pieces on some level", ROW_OF_3));
    assert!(!tower_holds("at least 1 own pieces on every level", ROW_OF_3));
    // STACK_OF_3: a pawn on every level (and the king on C).
    assert!(tower_holds("at least 1 own pieces on every level", STACK_OF_3));
    assert!(!tower_holds("fewer than 1 own pieces on some level", STACK_OF_3));
    // Counts on the board and in a zone.
    assert!(tower_holds("exactly 3 own Pawn", ROW_OF_3));
    assert!(tower_holds("exactly 4 own pieces", ROW_OF_3));
    assert!(tower_holds("more than 2 own Pawn on rank 1", ROW_OF_3));
    assert!(!tower_holds("more than 3 own Pawn on rank 1", ROW_OF_3));
    assert!(tower_holds("at most 1 own Pawn on file a", ROW_OF_3));
    assert!(tower_holds("no enemy Pawn", ROW_OF_3));
    assert!(!tower_holds("no enemy Pawn", MIXED));
    // A piece on a zone.
    assert!(tower_holds("own King on square Cd4", ROW_OF_3));
    assert!(!tower_holds("own King on square Cc4 or square Bd4", ROW_OF_3));
    assert!(tower_holds("enemy King on square Bd4 or square Ca4", ROW_OF_3));
}

#[test]
fn distance_check_turn_material_colour() {
    // Kings on Ca4 and Cd4: three files apart, king-step distance 3.
    assert!(tower_holds("distance own King to enemy King at most 3", ROW_OF_3));
    assert!(!tower_holds("distance own King to enemy King at most 2", ROW_OF_3));
    // Nearest white pawn (Ac1) to the black king (Ca4): files 2, ranks 3, levels 2: distance 3.
    assert!(tower_holds("distance own Pawn to enemy King exactly 3", ROW_OF_3));
    // A black rook on Cc4 beside the white king on Cd4: white is in check.
    let rook_checks = "k1rK/4/4/4|4/4/4/4|4/4/4/4 w - - 0 1";
    assert!(tower_holds("own in check", rook_checks));
    assert!(tower_holds("white in check", rook_checks));
    assert!(!tower_holds("black in check", rook_checks));
    assert!(tower_holds("enemy Rook attacks own King", rook_checks));
    assert!(tower_holds("own King attacked", rook_checks));
    assert!(!tower_holds("own in check", ROW_OF_3));
    // There is no white pawn for the rook to attack.
    assert!(!tower_holds("enemy Rook attacks own Pawn", rook_checks));
    // Side to move.
    assert!(tower_holds("white to move", ROW_OF_3));
    assert!(!tower_holds("black to move", ROW_OF_3));
    // Material: white has K + 3 P; black only its king.
    assert!(tower_holds("black has only King", ROW_OF_3));
    assert!(!tower_holds("white has only King Pawn", ROW_OF_3));
    assert!(tower_holds("white has only King Pawn Pawn Pawn", ROW_OF_3));
    assert!(tower_holds("white has only King Pawn Pawn Pawn Rook", ROW_OF_3));
    // Colours: Cd4 has coordinates (3,3,2), sum 8, like Aa1 (sum 0); Cc4 (2,3,2) sum 7 is not.
    assert!(tower_holds("own King coloured like Aa1", ROW_OF_3));
    assert!(!tower_holds("enemy King coloured like Aa1", ROW_OF_3));
    // Ca4: (0,3,2) sum 5, like Ab1 (1,0,0).
    assert!(tower_holds("enemy King coloured like Ab1", ROW_OF_3));
}

#[test]
fn can_move_asks_the_player_to_move() {
    // White to move: a pawn on Aa1 steps to Aa2 (rank 2).
    assert!(tower_holds("white's Pawn can move onto rank 2", ROW_OF_3));
    // Only pawns on rank 1, none can reach rank 3 in one step.
    assert!(!tower_holds("white's Pawn can move onto rank 3", ROW_OF_3));
    // Black is not to move: black can move nothing now. (Zones are the
    // owner's: black's `rank 2` is rank 3 of the board, which the king on
    // Ca4 reaches with Ca3, Cb3, Ba3 or Bb3; black's `rank 3` is rank 2.)
    assert!(!tower_holds("black's King can move onto rank 2", ROW_OF_3));
    let black_to_move = "k2K/4/4/4|4/4/4/4|4/4/4/PPP1 b - - 0 1";
    assert!(tower_holds("black's King can move onto rank 2", black_to_move));
    assert!(!tower_holds("black's King can move onto rank 3", black_to_move));
}

#[test]
fn not_and_or_combine() {
    assert!(tower_holds("not black to move", ROW_OF_3));
    assert!(tower_holds("black to move or own King on square Cd4", ROW_OF_3));
    assert!(!tower_holds("black to move or own King on square Cc4", ROW_OF_3));
    assert!(!tower_holds("white to move and not own King on square Cd4", ROW_OF_3));
    assert!(tower_holds("white to move and no enemy Pawn and line 3 own Pawn along file", ROW_OF_3));
}

#[test]
fn a_forbidding_rule_removes_moves_by_hand_count() {
    // White: king e1, rook a1; black: king h8. Plain chess: king d1 d2 e2 f2
    // f1 (5); rook b1 c1 d1 (3) and a2 … a8 (7): 15 moves. Only Ra8 gives check.
    let fen = "7k/8/8/8/8/8/8/R3K3 w - - 0 1";
    let chess = support::variant("chess");
    assert_eq!(chess.legal_moves(&chess.parse_fen(fen, "<t>").unwrap()).len(), 15);
    let v = variant("no-checks", "extends \"CHESS\"\nrule \"no checks\" { on offer then forbid moves after which enemy in check }\n");
    let moves = v.legal_moves(&v.parse_fen(fen, "<t>").unwrap());
    assert_eq!(moves.len(), 14);
    // The guard is judged before the move: white is not in check, so nothing is forbidden.
    let v = variant("in-check-only", "extends \"CHESS\"\nrule \"r\" { on offer if own in check then forbid moves after which enemy in check }\n");
    assert_eq!(v.legal_moves(&v.parse_fen(fen, "<t>").unwrap()).len(), 15);
    // The reference generator agrees.
    let mut reference = Vec::new();
    let pos = v.parse_fen(fen, "<t>").unwrap();
    rulebook_interpreter::engine::movegen::legal_moves_reference(&v.game, &v.tables, &pos, &mut reference);
    assert_eq!(reference.len(), 15);
}

#[test]
fn a_rule_ends_the_game_and_the_position_has_no_moves() {
    let v = support::variant_at(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/fairy/kingofthehill.rules"));
    // White king e3, black king a8, white to move; the hill is d4 e4 d5 e5.
    let pos = v.parse_fen("k7/8/8/8/8/4K3/8/8 w - - 0 1", "<t>").unwrap();
    assert_eq!(v.status(&pos), Status::Ongoing);
    let moves = v.legal_moves(&pos);
    // The king on e3 has 8 moves (d2 e2 f2 d3 f3 d4 e4 f4); two of them reach the hill.
    assert_eq!(moves.len(), 8);
    let on_hill: Vec<_> = moves.iter().map(|m| v.play(&pos, m)).filter(|p| v.status(p) != Status::Ongoing).collect();
    assert_eq!(on_hill.len(), 2);
    for p in &on_hill {
        // Black to move has lost; no legal moves below (perft counts 0).
        assert_eq!(v.status(p), Status::Rule { rule: 0, outcome: Outcome::Lose });
        assert!(v.legal_moves(p).is_empty());
        assert_eq!(perft(&v, p, 1), 0);
        assert_eq!(perft(&v, p, 3), 0);
    }
    // perft 2 from here: 6 king moves off the hill × black's replies. Black's king on a8 has
    // 3 moves (a7 b7 b8) whatever white did: 6 × 3 = 18.
    assert_eq!(perft(&v, &pos, 2), 18);
}

#[test]
fn owner_and_named_players_decide_the_winner() {
    // `owner wins`: the black king on d5 after black's move: black wins.
    let v = support::variant_at(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/fairy/kingofthehill.rules"));
    let pos = v.parse_fen("8/8/8/3k4/8/8/8/K7 w - - 0 1", "<t>").unwrap();
    let d = cond::decided(&v.game, &v.tables, &pos).expect("decided");
    assert_eq!(d.winner, Some(1));
    assert_eq!(v.status(&pos), Status::Rule { rule: 0, outcome: Outcome::Lose });
    // `mover loses` and a draw.
    let v = variant("mover-loses", "extends \"CHESS\"\nrule \"r\" { on ply-end if white's King on rank 2 then mover loses }\n");
    let pos = v.parse_fen("k7/8/8/8/8/8/4K3/8 b - - 0 1", "<t>").unwrap();
    // White made the last ply (black to move): white loses, so black wins.
    assert_eq!(cond::decided(&v.game, &v.tables, &pos).map(|d| d.winner), Some(Some(1)));
    let v = variant("draw", "extends \"CHESS\"\nrule \"bare kings\" { on ply-end if white has only King and black has only King then draw }\n");
    let pos = v.parse_fen("k7/8/8/8/8/8/4K3/8 b - - 0 1", "<t>").unwrap();
    assert_eq!(v.status(&pos), Status::Rule { rule: 0, outcome: Outcome::Draw });
    let pos = v.parse_fen("k7/8/8/8/8/8/4K3/7R b - - 0 1", "<t>").unwrap();
    assert_eq!(v.status(&pos), Status::Ongoing);
}

#[test]
fn lowering_errors() {
    let rule = |body: &str| format!("extends \"CHESS\"\nrule \"r\" {{ {body} }}\n");
    assert_eq!(error_codes("e0170", &rule("on ply-end if purple in check then white wins")), ["E0170"]);
    assert_eq!(error_codes("e0170b", &rule("on ply-end if white in check then own wins")), ["E0170"]);
    assert_eq!(error_codes("e0171", &rule("on ply-end then forbid moves after which enemy in check")), ["E0171"]);
    assert_eq!(error_codes("e0171b", &rule("on offer if white in check then white wins")), ["E0171"]);
    assert_eq!(error_codes("e0172", &rule("on ply-end if white in check then owner wins")), ["E0172"]);
    assert_eq!(error_codes("e0173", &rule("on offer then forbid moves after which own King can move onto rank 8")), ["E0173"]);
    assert_eq!(error_codes("e0174", &rule("on ply-end if fewer than 0 own Pawn then white wins")), ["E0174"]);
    assert_eq!(error_codes("e0175", &rule("on ply-end if line 1 own Pawn along file then white wins")), ["E0175"]);
    assert_eq!(error_codes("e0175b", &rule("on ply-end if line 3..2 own Pawn along file then white wins")), ["E0175"]);
    let twice = "extends \"CHESS\"\nrule \"r\" { on ply-end if white in check then black wins }\nrule \"r\" { on ply-end if black in check then white wins }\n";
    assert_eq!(error_codes("e0176", twice), ["E0176"]);
    // Unknown names use the general codes: piece E0105, axis E0103.
    assert_eq!(error_codes("e0105", &rule("on ply-end if own Dragon on rank 8 then owner wins")), ["E0105"]);
    assert_eq!(error_codes("e0103", &rule("on ply-end if line 3 own Pawn along time then owner wins")), ["E0103"]);
}

/// Fairy-Stockfish's King of the Hill row of ../shared/fsf-perft-checks.tsv:
/// `kingofthehill  rnb2b1r/ppp2ppp/3k4/8/1PKp1pn1/3Pq3/PBP1P2P/RN1Q1B1R w - - 4 12  3  19003`.
#[test]
fn king_of_the_hill_counts() {
    let v = support::variant_at(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/fairy/kingofthehill.rules"));
    let pos = v.parse_fen("rnb2b1r/ppp2ppp/3k4/8/1PKp1pn1/3Pq3/PBP1P2P/RN1Q1B1R w - - 4 12", "<fsf>").unwrap();
    assert_eq!(perft(&v, &pos, 3), 19003);
}

/// Fairy-Stockfish's Racing Kings rows of ../shared/fsf-perft-checks.tsv.
#[test]
fn racing_kings_counts() {
    let v = support::variant_at(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/fairy/racingkings.rules"));
    let rows = [
        ("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", 4, 296_242),
        ("6r1/2K5/5k2/8/3R4/8/8/8 w - - 0 1", 4, 86_041),
        ("6R1/2k5/5K2/8/3r4/8/8/8 b - - 0 1", 4, 86_009),
        ("4brn1/2K2k2/8/8/8/8/8/8 w - - 0 1", 6, 265_932),
    ];
    assert_eq!(v.fen(&v.start().unwrap()), rows[0].0, "the setup is FSF's startpos");
    for (fen, depth, nodes) in rows {
        let pos = v.parse_fen(fen, "<fsf>").unwrap();
        assert_eq!(perft(&v, &pos, depth), nodes, "{fen} depth {depth}");
    }
}

/// examples/dead-material.rules: the FIDE 5.2.2 table, position by position.
#[test]
fn the_dead_position_table() {
    let v = support::variant_at(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/dead-material.rules"));
    let status = |fen: &str| v.status(&v.parse_fen(fen, "<t>").unwrap());
    let draw = Status::Rule { rule: 0, outcome: Outcome::Draw };
    // King against king.
    assert_eq!(status("k7/8/8/8/8/8/8/4K3 w - - 0 1"), draw);
    // King and bishop against king, either side.
    assert_eq!(status("k7/8/8/8/8/8/8/4KB2 w - - 0 1"), draw);
    assert_eq!(status("kb6/8/8/8/8/8/8/4K3 w - - 0 1"), draw);
    // King and knight against king.
    assert_eq!(status("k7/8/8/8/8/8/8/4KN2 b - - 0 1"), draw);
    // Bishops on c1 (dark, like a1) and f8 (dark: f8 is file 5 + rank 7 = 12, even, like a1).
    assert_eq!(status("k4b2/8/8/8/8/8/8/2B1K3 w - - 0 1"), draw);
    // Bishops on f1 (light: 5 + 0 odd) and f8 (dark): play goes on.
    assert_eq!(status("k4b2/8/8/8/8/8/8/4KB2 w - - 0 1"), Status::Ongoing);
    // Bishops on f1 and c8 (light: 2 + 7 odd): a draw.
    assert_eq!(status("k1b5/8/8/8/8/8/8/4KB2 w - - 0 1"), draw);
    // Two knights, or a pawn, or a rook: play goes on.
    assert_eq!(status("k7/8/8/8/8/8/8/3NKN2 w - - 0 1"), Status::Ongoing);
    assert_eq!(status("k7/8/8/8/8/8/4P3/4K3 w - - 0 1"), Status::Ongoing);
    assert_eq!(status("k7/8/8/8/8/8/8/4K2R w - - 0 1"), Status::Ongoing);
}

/// `line … along level` follows the frame (examples/sliding-levels.rules): with
/// level II pulled one row towards the higher files (`{frame=II:+1}`), its
/// cell IIa1 stands above Ib1 and below IIIb1 in the shaft, and IIb1 does not.
#[test]
fn a_vertical_line_follows_the_levels_offsets() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/sliding-levels.rules").replace('\\', "/");
    let text = format!("extends \"{example}\"\nrule \"t\" {{ on ply-end  if line 3 own Rook along level  then white wins }}\n");
    let v = variant("sliding-line", &text);
    let holds = |fen: &str| {
        let pos = v.parse_fen(fen, "<t>").unwrap_or_else(|d| panic!("{fen}: {d:?}"));
        let guard = v.game.rules[0].guard.as_ref().expect("guard");
        cond::holds(&v.game, &v.tables_for(&pos), &pos, guard, 0, 0)
    };
    // Rooks on Ib1, IIa1, IIIb1.
    let bent = "3K/4/4/1R2|4/4/4/R3|3k/4/4/1R2 w - - 0 1";
    // Rooks on Ib1, IIb1, IIIb1.
    let straight = "3K/4/4/1R2|4/4/4/1R2|3k/4/4/1R2 w - - 0 1";
    assert!(!holds(bent));
    assert!(holds(straight));
    assert!(holds(&format!("{bent} {{frame=II:+1}}")));
    assert!(!holds(&format!("{straight} {{frame=II:+1}}")));
}

/// Along random games of King of the Hill, Racing Kings and the dead-position
/// example, the legal moves equal the reference generator's (every move tried
/// on a copy), ends included; every game ends by a rule, mate, stalemate or
/// the ply limit.
#[test]
fn legal_moves_agree_with_the_reference_along_random_games() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for file in ["rules/fairy/kingofthehill.rules", "rules/fairy/racingkings.rules", "examples/dead-material.rules"] {
        let v = support::variant_at(&root.join(file));
        let mut rng = support::Rng(0x5eed_c0de);
        let mut ended_by_rule = 0;
        for _ in 0..12 {
            let mut pos = v.start().unwrap();
            for _ in 0..400 {
                let mut fast: Vec<String> = v.legal_moves(&pos).iter().map(|m| format!("{m:?}")).collect();
                let mut reference = Vec::new();
                rulebook_interpreter::engine::movegen::legal_moves_reference(&v.game, &v.tables, &pos, &mut reference);
                let mut reference: Vec<String> = reference.iter().map(|m| format!("{m:?}")).collect();
                fast.sort();
                reference.sort();
                assert_eq!(fast, reference, "{file}: {}", v.fen(&pos));
                let moves = v.legal_moves(&pos);
                if moves.is_empty() {
                    if matches!(v.status(&pos), Status::Rule { .. }) {
                        ended_by_rule += 1;
                    }
                    break;
                }
                pos = v.play(&pos, &moves[rng.below(moves.len())]);
            }
        }
        // Random play reaches the hill, rank 8, or bare kings in some games.
        assert!(ended_by_rule > 0, "{file}: no game ended by a rule");
    }
}

/// A king that reaches the hill with a discovered check ends the game by the
/// rule, not by mate: SAN marks the check `+`, not `#` (black's king on e8
/// could step to d8, f8, d7 or f7).
#[test]
fn a_rule_end_with_check_is_no_mate_in_notation() {
    let v = support::variant_at(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/fairy/kingofthehill.rules"));
    let pos = v.parse_fen("4k3/8/8/8/8/4K3/8/4R3 w - - 0 1", "<t>").unwrap();
    let legal = v.legal_moves(&pos);
    let m = *legal.iter().find(|m| rulebook_interpreter::text::notation::coordinate(&v, m) == "e3d4").expect("Kd4");
    assert_eq!(rulebook_interpreter::text::notation::san(&v, &pos, &m, &legal), "Kd4+");
    assert_eq!(v.status(&v.play(&pos, &m)), Status::Rule { rule: 0, outcome: Outcome::Lose });
}
