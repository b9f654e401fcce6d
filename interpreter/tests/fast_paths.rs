//! The fast paths of move generation (pins and checks found once per position,
//! bitset counting at perft leaves, bitset castling tests) against the
//! definition: every pseudo-legal move tried on a copy. Along random games of
//! every shipped variant and example, both give the same moves and counts.

use rulebook_interpreter::engine::movegen::{count_legal, count_legal_kept, legal_moves_reference, KeptCounts, Scratch};
use rulebook_interpreter::engine::position::Position;
use rulebook_interpreter::Variant;
use rulebook_interpreter::text::notation::coordinate;
use std::collections::BTreeSet;
use std::path::Path;

mod support;
use support::Rng;


/// Counts each child of `pos` (the positions one move away, outside the
/// flow layer) with the counts kept from `pos` and without them; the number
/// of children compared.
fn kept_counts_agree(v: &Variant, pos: &Position, moves: &[rulebook_interpreter::engine::position::Move], what: &str) -> usize {
    let Some(kept) = KeptCounts::new(&v.tables, pos) else { return 0 };
    let mut scratch = Vec::new();
    let mut compared = 0;
    for m in moves {
        let child = v.play(pos, m);
        if child.flow.is_some() || child.frame.is_some() {
            continue;
        }
        let plain = count_legal(&v.game, &v.tables, &child, &mut scratch);
        let with_kept = count_legal_kept(&v.game, &v.tables, &child, &mut scratch, Some(&kept));
        assert_eq!(with_kept, plain, "{what}: kept counts differ after {} at {}", coordinate(v, m), v.fen(pos));
        compared += 1;
    }
    compared
}

/// The `.rules` files of the folders `dirs` (from the repository root), sorted.
fn rules_files(dirs: &[&str]) -> Vec<std::path::PathBuf> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut files = Vec::new();
    for dir in dirs {
        for entry in std::fs::read_dir(root.join(dir)).expect("dir exists").flatten() {
            let p = entry.path();
            if p.extension().is_some_and(|x| x == "rules") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

fn check_file(path: &Path, games: usize, plies: usize) -> usize {
    let v = support::variant_at(path);
    let mut rng = Rng(path.display().to_string().len() as u64 * 7919 + 1);
    let mut checked = 0;
    let mut scratch = Vec::new();
    for _ in 0..games {
        let mut pos = v.start().expect("setup");
        for _ in 0..plies {
            let fast = v.legal_moves(&pos);
            // In a placement phase the flow layer chooses among the moves
            // (its own tests cover it); the fast paths are compared in play.
            if pos.flow.is_none() {
                let mut slow = Vec::new();
                legal_moves_reference(&v.game, &v.tables, &pos, &mut slow);
                let a: BTreeSet<String> = fast.iter().map(|m| coordinate(&v, m)).collect();
                let b: BTreeSet<String> = slow.iter().map(|m| coordinate(&v, m)).collect();
                assert_eq!(a, b, "{}: moves differ at {}", path.display(), v.fen(&pos));
                assert_eq!(fast.len(), slow.len(), "{}: repeated moves at {}", path.display(), v.fen(&pos));
                let n = count_legal(&v.game, &v.tables, &pos, &mut scratch);
                assert_eq!(n as usize, slow.len(), "{}: count differs at {}", path.display(), v.fen(&pos));
                checked += 1;
                if checked % 4 == 0 {
                    kept_counts_agree(&v, &pos, &fast, &path.display().to_string());
                }
            }
            if fast.is_empty() {
                break;
            }
            pos = v.play(&pos, &fast[rng.below(fast.len())]);
        }
    }
    checked
}

#[test]
fn every_variant_agrees_with_the_definition() {
    let files = rules_files(&["rules", "examples"]);
    assert!(files.len() >= 11);
    let mut total = 0;
    for f in &files {
        total += check_file(f, 12, 120);
    }
    assert!(total > 10_000, "checked {total} positions");
}

/// Two plies above perft's leaves each child counts only the pieces its
/// move touched ([`KeptCounts`]): along random games of every Fairy-Stockfish
/// variant, every child's count with the kept counts equals its count
/// without them (the count itself is tested against the definition above
/// and against Fairy-Stockfish's perft table).
#[test]
fn kept_counts_agree_on_every_fairy_variant() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/fairy"));
    let mut files: Vec<_> = std::fs::read_dir(root).expect("dir exists").flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "rules")).collect();
    files.sort();
    assert!(files.len() >= 80);
    let mut compared = 0;
    for path in &files {
        let v = support::variant_at(path);
        let mut rng = Rng(path.display().to_string().len() as u64 * 104_729 + 3);
        for _ in 0..3 {
            let Ok(mut pos) = v.start() else { continue };
            for _ in 0..60 {
                let moves = v.legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                if pos.flow.is_none() {
                    compared += kept_counts_agree(&v, &pos, &moves, &path.display().to_string());
                }
                pos = v.play(&pos, &moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(compared > 100_000, "compared {compared} children");
}

/// Boards of 65 to 128 cells count their leaves in bulk from `u128` bitset
/// tables (`Tables::wide`, where counting is not general): along random
/// games of every rules file of that size (found by its board, whatever the
/// variant), each position's count equals the number of moves the
/// definition gives, and each child's count with the kept counts equals its
/// count without them.
#[test]
fn wide_boards_count_from_tables_as_the_definition_does() {
    let files = rules_files(&["rules", "rules/fairy", "examples"]);
    let (mut wide_files, mut from_tables, mut counted, mut compared) = (0, 0, 0, 0);
    let mut scratch = Vec::new();
    for path in &files {
        let v = support::variant_at(path);
        if !(65..=128).contains(&v.tables.ncells) {
            continue;
        }
        wide_files += 1;
        from_tables += usize::from(v.tables.wide);
        let what = path.display().to_string();
        let mut rng = Rng(what.len() as u64 * 65_537 + 11);
        for _ in 0..4 {
            let Ok(mut pos) = v.start() else { continue };
            for _ in 0..80 {
                let moves = v.legal_moves(&pos);
                if pos.flow.is_none() && pos.frame.is_none() {
                    let mut slow = Vec::new();
                    legal_moves_reference(&v.game, &v.tables, &pos, &mut slow);
                    let n = count_legal(&v.game, &v.tables, &pos, &mut scratch);
                    assert_eq!(n as usize, slow.len(), "{what}: count differs at {}", v.fen(&pos));
                    counted += 1;
                    compared += kept_counts_agree(&v, &pos, &moves, &what);
                }
                if moves.is_empty() {
                    break;
                }
                pos = v.play(&pos, &moves[rng.below(moves.len())]);
            }
        }
    }
    // Capablanca, Raumschach, Grand, shogi, xiangqi and more.
    assert!(wide_files >= 10, "{wide_files} files of 65 to 128 cells");
    assert!(from_tables >= 10, "{from_tables} of them counted from the u128 tables");
    assert!(counted > 3_000 && compared > 30_000, "counted {counted} positions, compared {compared} children");
}

/// A promotion to a royal kind adds a royal piece: the paths that test only
/// the one royal piece on the board before the move must not apply. In
/// examples/mutants/chess-promotion-to-king.rules, after 5. Na3 Bf8, the
/// pawn on g7 promotes on f8 (taking the bishop), g8 or h8 (taking the
/// rook), each time to a queen, rook, bishop, knight or king: 15 moves. Not
/// as a king on f8 (next to Black's king on e8, so in check) nor on g8 (the
/// rook on h8 attacks it); as a king on h8 it is safe (no black piece
/// attacks h8). Hand count: 13 legal promotions.
#[test]
fn a_promotion_to_a_royal_kind_is_tested_for_check() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let v = support::variant_at(&root.join("examples/mutants/chess-promotion-to-king.rules"));
    let mut pos = v.start().expect("setup");
    for text in ["b1a3", "e7f8"] {
        let m = v.legal_moves(&pos).into_iter().find(|m| coordinate(&v, m) == text).expect(text);
        pos = v.play(&pos, &m);
    }
    let moves: BTreeSet<String> = v.legal_moves(&pos).iter().map(|m| coordinate(&v, m)).collect();
    let promotions: Vec<&String> = moves.iter().filter(|m| m.starts_with("g7")).collect();
    assert_eq!(
        promotions,
        ["g7f8b", "g7f8n", "g7f8q", "g7f8r", "g7g8b", "g7g8n", "g7g8q", "g7g8r", "g7h8b", "g7h8k", "g7h8n", "g7h8q", "g7h8r"],
        "{}",
        v.fen(&pos)
    );
    let mut scratch = Vec::new();
    assert_eq!(count_legal(&v.game, &v.tables, &pos, &mut scratch) as usize, moves.len());
}

/// What [`rulebook_interpreter::engine::movegen::OneByOne`] keeps of its candidates, judged one at a time, is
/// what [`Variant::legal_moves`] lists (each candidate replaced by its
/// chance outcomes where face-down pieces stand; in the same order where `exact`,
/// else only both empty or both not), and [`Variant::has_legal_move`]
/// answers as the list's emptiness: along random games of every rules file
/// of `rules/`, `rules/fairy/` and `examples/`, at every position and at
/// every child of every fourth one (so that checks, mates and stalemates
/// are among them).
#[test]
fn moves_judged_one_at_a_time_are_the_legal_moves() {
    let files = rules_files(&["rules", "rules/fairy", "examples"]);
    assert!(files.len() >= 90);
    let (mut judged, mut inexact, mut ended, mut listed_files, mut chance) = (0, 0, 0, 0, 0);
    let mut compare = |v: &Variant, pos: &Position, what: &str| {
        let legal = v.legal_moves(pos);
        let mut scratch = Scratch::default();
        assert_eq!(v.has_legal_move(pos, &mut scratch), !legal.is_empty(), "{what}: has_legal_move at {}", v.fen(pos));
        let Some(mut judge) = v.one_by_one(pos, &mut scratch) else { return };
        let mut outcomes = Vec::new();
        for m in judge.candidates() {
            if judge.legal(m) {
                judge.outcomes(m, &mut outcomes);
            }
        }
        let kept: Vec<String> = outcomes.iter().map(|m| coordinate(v, m)).collect();
        assert_eq!(judge.first(|_| true).is_some(), !kept.is_empty(), "{what}: the first legal move at {}", v.fen(pos));
        if judge.exact {
            let all: Vec<String> = legal.iter().map(|m| coordinate(v, m)).collect();
            assert_eq!(kept, all, "{what}: moves judged one at a time at {}", v.fen(pos));
        } else {
            assert_eq!(kept.is_empty(), legal.is_empty(), "{what}: moves judged one at a time at {}", v.fen(pos));
            inexact += 1;
        }
        judged += 1;
        chance += usize::from(judge.chance);
        ended += usize::from(legal.is_empty());
    };
    for path in &files {
        let v = support::variant_at(path);
        let what = path.display().to_string();
        // A file whose setup is only known as a list (a phase, walls,
        // spread pieces, observation, …) is listed
        // throughout, or nearly: its games are not played here.
        if v.start().is_ok_and(|s| v.one_by_one(&s, &mut Scratch::default()).is_none()) {
            listed_files += 1;
            continue;
        }
        let mut rng = Rng(what.len() as u64 * 6_151 + 11);
        for _ in 0..3 {
            let Ok(mut pos) = v.start() else { continue };
            for ply in 0..60 {
                compare(&v, &pos, &what);
                let moves = v.legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                if ply % 4 == 3 {
                    for m in &moves {
                        compare(&v, &v.play(&pos, m), &what);
                    }
                }
                pos = v.play(&pos, &moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(
        judged > 50_000 && ended > 50 && inexact > 1_000 && listed_files > 5 && chance > 1_000,
        "judged {judged}, ended {ended}, inexact {inexact}, with face-down pieces {chance}, {listed_files} files listed"
    );
}
