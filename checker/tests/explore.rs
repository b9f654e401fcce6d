//! The bounded exploration from the setup: claims, wins, limits.

use rulebook_checker::explore::{explore, Exploration, Limits, Line};
use rulebook_grammar::ast::Span;
use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::model::load::load;
use rulebook_interpreter::model::{Claim, KindId, Outcome, Property};
use rulebook_interpreter::text::notation::{is_capture, parse_move};
use rulebook_interpreter::engine::position::MoveKind;
use rulebook_interpreter::{Position, Status, Variant};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn variant_at(path: &Path) -> Variant {
    match load(path) {
        Ok((game, _)) => Variant::new(Arc::new(game)),
        Err((diags, _)) => panic!("{} does not load: {:?}", path.display(), diags.iter().map(|d| &d.message).collect::<Vec<_>>()),
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn variant(name: &str) -> Variant {
    variant_at(&repo().join("rules").join(format!("{name}.rules")))
}

fn kind(v: &Variant, name: &str) -> KindId {
    v.game.kind_by_name(name).unwrap_or_else(|| panic!("no kind {name}"))
}

fn claim(name: &str, property: Property) -> Claim {
    Claim { name: name.into(), property, file: "<test>".into(), span: Span::default() }
}

/// The cells on rank `r` (0-based), from the geometry.
fn rank(v: &Variant, r: usize) -> Vec<Cell> {
    let geo = &v.game.geometry;
    geo.board_cells().filter(|&c| geo.coords(c)[1] == r).collect()
}

fn limits(depth: u32, win_depth: u32) -> Limits {
    Limits::new(depth, win_depth, 5_000_000, Duration::from_secs(60))
}

/// Replays a line's text from the setup the way `rulebook moves --play` does
/// (parsing each move against the legal moves), checks it matches the moves
/// and the FEN, and returns the positions along it (setup first).
fn replay(v: &Variant, line: &Line) -> Vec<Position> {
    assert_eq!(line.moves.len(), line.text.len());
    let mut positions = vec![v.start().unwrap()];
    for (m, text) in line.moves.iter().zip(&line.text) {
        let pos = positions.last().unwrap();
        let parsed = parse_move(v, pos, text, "<line>", 0).unwrap_or_else(|d| panic!("{text}: {}", d.message));
        assert_eq!(&parsed, m, "{text} replays to the move found");
        positions.push(v.play(pos, m));
    }
    assert_eq!(v.fen(positions.last().unwrap()), line.fen);
    positions
}

/// Checks that `line` is a game won by `winner`: replayed, it ends in a
/// position whose side to move is mated (chess rules: mate loses).
fn assert_win(v: &Variant, line: &Line, winner: usize, quiet: bool) {
    let positions = replay(v, line);
    let last = positions.last().unwrap();
    assert_eq!(last.side as usize, 1 - winner, "the loser is to move");
    assert_eq!(v.status(last), Status::Checkmate(Outcome::Lose), "{:?} ends in mate", line.text);
    for p in &positions[..positions.len() - 1] {
        assert_eq!(v.status(p), Status::Ongoing, "the game goes on until the end of {:?}", line.text);
    }
    if quiet {
        let before = &positions[positions.len() - 2];
        let m = line.moves.last().unwrap();
        assert!(!is_capture(before, m) && m.kind != MoveKind::Drop, "quiet: {:?}", line.text);
        assert_ne!(v.game.end.fifty_move_piece, Some(m.piece), "quiet: {:?}", line.text);
        assert_eq!(last.halfmove, before.halfmove + 1, "the move-limit count runs on");
    }
}

fn timed(what: &str, f: impl FnOnce() -> Exploration) -> Exploration {
    let t = Instant::now();
    let e = f();
    println!("{what}: {:.3} s, {} nodes, depth {}, wins to {}, stopped {:?}", t.elapsed().as_secs_f64(), e.nodes, e.depth_done, e.win_depth_done, e.stopped);
    e
}

#[test]
fn chess_claims_to_depth_4() {
    let v = variant("chess");
    let claims = [
        claim("knights-keep-colour", Property::KeepsColour { kind: kind(&v, "Knight") }),
        claim("bishops-keep-colour", Property::KeepsColour { kind: kind(&v, "Bishop") }),
        claim("no-pawn-on-rank-1", Property::NeverOn { kind: kind(&v, "Pawn"), zone: [rank(&v, 0), rank(&v, 7)] }),
        claim("one-king-each", Property::AtMost { kind: kind(&v, "King"), count: 1 }),
        claim("kings-apart", Property::NeverAdjacent { kind: kind(&v, "King"), other: kind(&v, "King") }),
    ];
    timed("chess claims depth 4 alone", || explore(&v, &claims, &limits(4, 4)));
    let e = timed("chess claims depth 4, wins 5", || explore(&v, &claims, &limits(4, 5)));
    assert_eq!(e.stopped, None);
    assert_eq!(e.depth_done, 4);
    assert_eq!(e.violations.len(), claims.len());

    // A knight move from the setup changes colour: the line is empty and the
    // offending move is a knight's, legal in the setup.
    let knight = e.violations[0].as_ref().expect("knights change colour");
    assert!(knight.line.moves.is_empty(), "shortest: from the setup itself");
    let mv = knight.mv.expect("a move claim names the move");
    assert_eq!(mv.piece, kind(&v, "Knight"));
    let start = replay(&v, &knight.line).pop().unwrap();
    let text = knight.mv_text.as_deref().unwrap();
    assert_eq!(parse_move(&v, &start, text, "<mv>", 0).unwrap(), mv);
    let geo = &v.game.geometry;
    let sum = |c: Cell| geo.coords(c).iter().sum::<usize>() % 2;
    assert_ne!(sum(mv.from), sum(mv.to));

    for (i, c) in claims.iter().enumerate().skip(1) {
        assert!(e.violations[i].is_none(), "{} holds to depth 4: {:?}", c.name, e.violations[i]);
    }
    assert!(e.undeclared_end.is_none(), "chess declares both outcomes");
}

#[test]
fn chess_shortest_wins() {
    let v = variant("chess");
    let e = timed("chess wins to depth 5", || explore(&v, &[], &limits(4, 5)));
    assert_eq!(e.stopped, None);
    println!("white {:?}, black {:?}", e.wins[0].as_ref().map(|l| &l.text), e.wins[1].as_ref().map(|l| &l.text));
    // Fool's mate (1.f3 e5 2.g4 Qh4#) is Black's fastest win; White's is three
    // moves (1.e4 f6 2.d4 g5 3.Qh5#). Both end with a quiet queen move.
    let black = e.wins[1].as_ref().expect("Black mates");
    let white = e.wins[0].as_ref().expect("White mates");
    assert_eq!(black.moves.len(), 4, "{:?}", black.text);
    assert_eq!(white.moves.len(), 5, "{:?}", white.text);
    assert_win(&v, black, 1, false);
    assert_win(&v, white, 0, false);
    let quiet_black = e.quiet_wins[1].as_ref().expect("Black mates quietly");
    let quiet_white = e.quiet_wins[0].as_ref().expect("White mates quietly");
    assert_eq!(quiet_black.moves.len(), 4);
    assert_eq!(quiet_white.moves.len(), 5);
    assert_win(&v, quiet_black, 1, true);
    assert_win(&v, quiet_white, 0, true);
    assert_eq!(e.win_depth_done, 5);
}

#[test]
fn chess_wins_need_the_depth() {
    let v = variant("chess");
    let e = explore(&v, &[], &limits(3, 4));
    assert_eq!(e.stopped, None);
    assert!(e.wins[0].is_none(), "no white mate within 4 plies");
    assert_win(&v, e.wins[1].as_ref().expect("fool's mate"), 1, false);
    assert_eq!((e.depth_done, e.win_depth_done), (3, 4));
}

/// Chess with another setup and end rules (the model is plain data).
fn chess_with(setup: &str, edit: impl FnOnce(&mut rulebook_interpreter::Game)) -> Variant {
    let v = variant("chess");
    let mut game = (*v.game).clone();
    game.setup = setup.into();
    edit(&mut game);
    Variant::new(Arc::new(game))
}

#[test]
fn undeclared_ends_are_found() {
    // White mates in one (Qb8#).
    let setup = "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1";
    let v = chess_with(setup, |g| g.end.checkmate = None);
    let e = explore(&v, &[], &limits(2, 2));
    let (line, check) = e.undeclared_end.clone().unwrap_or_else(|| panic!("a mate with no declared outcome: {e:?}"));
    assert!(check);
    assert_eq!(line.moves.len(), 1);
    let end = replay(&v, &line).pop().unwrap();
    assert!(v.legal_moves(&end).is_empty() && v.in_check(&end));

    let v = chess_with("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", |g| g.end.stalemate = None);
    let e = explore(&v, &[], &limits(1, 1));
    let (line, check) = e.undeclared_end.expect("a stalemate with no declared outcome");
    assert!(!check);
    let end = replay(&v, &line).pop().unwrap();
    assert!(v.legal_moves(&end).is_empty() && !v.in_check(&end));
    // Declared outcomes are not reported.
    let v = chess_with(setup, |_| {});
    assert!(explore(&v, &[], &limits(2, 2)).undeclared_end.is_none());
}

#[test]
fn stalemate_wins_are_found_beyond_the_claims_depth() {
    // Stalemate loses and mate draws: White's only wins are stalemates
    // (Qf7 and others), found by the win search past depth 0.
    let v = chess_with("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", |g| {
        g.end.checkmate = Some(Outcome::Draw);
        g.end.stalemate = Some(Outcome::Lose);
    });
    let e = explore(&v, &[], &limits(0, 1));
    assert_eq!((e.depth_done, e.win_depth_done), (0, 1));
    let line = e.wins[0].as_ref().expect("White stalemates in one");
    assert_eq!(line.moves.len(), 1);
    let end = replay(&v, line).pop().unwrap();
    assert_eq!(v.status(&end), Status::Stalemate(Outcome::Lose));
    assert!(e.quiet_wins[0].is_some());
    assert!(e.wins[1].is_none());
}

#[test]
fn node_limit_stops_the_search() {
    let v = variant("chess");
    let claims = [claim("bishops", Property::KeepsColour { kind: kind(&v, "Bishop") })];
    let e = explore(&v, &claims, &Limits::new(4, 5, 1000, Duration::from_secs(60)));
    assert_eq!(e.stopped.as_deref(), Some("node limit 1000"));
    // Iterations 0, 1 and 2 visit 1, 1 + 20 and 1 + 20 + 400 positions (443
    // in all); depth 3 has 5362 more.
    assert_eq!(e.depth_done, 2);
    assert!(e.nodes <= 1001, "{}", e.nodes);
    assert!(e.violations[0].is_none());
}

/// With `skip_hopeless`, an iteration that would need far more positions
/// than are left is not started: the same depth, far fewer positions.
#[test]
fn hopeless_iterations_are_not_started() {
    let v = variant("chess");
    let plain = explore(&v, &[], &Limits::new(4, 4, 20_000, Duration::from_secs(60)));
    assert_eq!((plain.depth_done, plain.stopped.as_deref()), (3, Some("node limit 20000")));
    let skip = explore(&v, &[], &Limits { skip_hopeless: true, ..Limits::new(4, 4, 20_000, Duration::from_secs(60)) });
    assert_eq!(skip.depth_done, 3);
    // Iterations of 1, 21, 421 and 6903 positions (7346 in all), as
    // python-chess counts them in a replica of the search
    // (`data/explore_replica.py`; an en-passant target counts only where a
    // capture is possible): the fourth would need about 6903 * 6903 / 421,
    // some 113000, with 12654 left.
    assert_eq!(skip.nodes, 7346);
    assert_eq!(skip.stopped.as_deref(), Some("node limit 20000: ply 4 would need about 110000 positions"));
    // Iterations that fit are run as before.
    let small = explore(&v, &[], &Limits { skip_hopeless: true, ..limits(3, 3) });
    assert_eq!((small.depth_done, small.stopped), (3, None));
}

#[test]
fn huge_depths_are_bounded_by_the_limits() {
    let v = variant("losalamos");
    let e = explore(&v, &[], &Limits::new(u32::MAX, u32::MAX, 50_000, Duration::MAX));
    assert_eq!(e.stopped.as_deref(), Some("node limit 50000"));
    assert!(e.depth_done >= 3 && e.depth_done < 10, "{}", e.depth_done);
    // A win depth below the claims depth: the claims iterations still find wins.
    let e = explore(&v, &[], &limits(6, 0));
    assert_eq!((e.depth_done, e.win_depth_done), (6, 6));
    assert!(e.wins[0].is_some() && e.wins[1].is_some());
}

#[test]
fn node_limit_in_the_win_search() {
    let v = variant("chess");
    let e = explore(&v, &[], &Limits::new(2, 5, 20_000, Duration::from_secs(60)));
    assert_eq!(e.stopped.as_deref(), Some("node limit 20000"));
    assert_eq!(e.depth_done, 2);
    assert!(e.win_depth_done < 5);
    assert!(e.wins[0].is_none());
}

#[test]
fn time_limit_stops_the_search() {
    let v = variant("chess");
    let e = explore(&v, &[], &Limits { depth: 6, win_depth: 6, max_nodes: u64::MAX, deadline: Instant::now(), skip_hopeless: false });
    assert_eq!(e.stopped.as_deref(), Some("time limit 0 s"));
    assert_eq!(e.depth_done, 0, "only the setup was checked");

    let t = Instant::now();
    let e = explore(&v, &[], &Limits::new(7, 7, u64::MAX, Duration::from_millis(300)));
    assert!(t.elapsed() < Duration::from_secs(3), "stops soon after the deadline: {:?}", t.elapsed());
    // Either the clock stopped an iteration, or one that would have run
    // past the deadline at the rate so far was not started (and says so).
    let stopped = e.stopped.unwrap_or_default();
    assert!(stopped == "time limit 0.3 s" || stopped.starts_with("time limit 0.3 s: ply "), "{stopped}");
    assert!(e.depth_done < 7);
}

/// The shortest win for each player by plain enumeration (no tables, no
/// pruning): an independent check of the exploration's results.
fn naive_shortest_wins(v: &Variant, max: usize) -> [Option<usize>; 2] {
    fn mate_at(v: &Variant, pos: &Position, left: usize) -> bool {
        let moves = v.legal_moves(pos);
        if left == 0 {
            return moves.is_empty() && v.in_check(pos);
        }
        moves.iter().any(|m| mate_at(v, &v.play(pos, m), left - 1))
    }
    let start = v.start().unwrap();
    let mut found = [None, None];
    for ply in 0..=max {
        // After `ply` plies the side to move is mated; the other side won.
        let winner = 1 - (start.side as usize + ply) % 2;
        if found[winner].is_none() && mate_at(v, &start, ply) {
            found[winner] = Some(ply);
        }
    }
    found
}

#[test]
fn los_alamos_shortest_wins() {
    let v = variant("losalamos");
    let e = timed("losalamos wins to depth 6", || explore(&v, &[], &limits(3, 6)));
    assert_eq!(e.stopped, None);
    let t = Instant::now();
    let naive = naive_shortest_wins(&v, 6);
    println!("naive {naive:?} in {:.3} s; white {:?}, black {:?}", t.elapsed().as_secs_f64(), e.wins[0].as_ref().map(|l| &l.text), e.wins[1].as_ref().map(|l| &l.text));
    let found = e.wins.each_ref().map(|w| w.as_ref().map(|l| l.moves.len()));
    assert_eq!(found, naive, "the shortest wins within 6 plies");
    for (p, (win, quiet)) in e.wins.iter().zip(&e.quiet_wins).enumerate() {
        if let Some(l) = win {
            assert_win(&v, l, p, false);
        }
        if let Some(l) = quiet {
            assert_win(&v, l, p, true);
        }
    }
    assert!(e.wins.iter().any(Option::is_some), "a mate within 6 plies on 6x6: {naive:?}");
}

#[test]
fn crazyhouse_shortest_wins() {
    // Drops need a capture first: White cannot capture before its second
    // move, so cannot drop before its third; Black's first capture is on its
    // second move. The chess mates are the shortest here too.
    let v = variant("crazyhouse");
    let e = timed("crazyhouse wins to depth 5", || explore(&v, &[], &limits(4, 5)));
    assert_eq!(e.stopped, None);
    assert_eq!(e.wins[1].as_ref().map(|l| l.moves.len()), Some(4));
    assert_eq!(e.wins[0].as_ref().map(|l| l.moves.len()), Some(5));
    for p in 0..2 {
        assert_win(&v, e.wins[p].as_ref().unwrap(), p, false);
        assert_win(&v, e.quiet_wins[p].as_ref().unwrap(), p, true);
    }
}

#[test]
fn claims_on_other_variants() {
    // Los Alamos has no Bishop, and pawns only step: no pawn may stand on its
    // own first rank; the Queen count can only grow by promotion, which takes
    // more than 4 plies on 6 ranks.
    let v = variant("losalamos");
    let claims = [
        claim("no-pawn-home", Property::NeverOn { kind: kind(&v, "Pawn"), zone: [rank(&v, 0), rank(&v, 5)] }),
        claim("one-queen", Property::AtMost { kind: kind(&v, "Queen"), count: 1 }),
        claim("knights", Property::KeepsColour { kind: kind(&v, "Knight") }),
        claim("no-pawn-on-rank-2", Property::NeverOn { kind: kind(&v, "Pawn"), zone: [rank(&v, 1), rank(&v, 4)] }),
    ];
    let e = explore(&v, &claims, &limits(4, 4));
    assert_eq!(e.stopped, None);
    assert!(e.violations[0].is_none());
    assert!(e.violations[1].is_none());
    let k = e.violations[2].as_ref().expect("knights change colour");
    assert!(k.line.moves.is_empty());
    // Pawns start on their second rank: the setup itself is the counterexample.
    let home = e.violations[3].as_ref().expect("pawns start on rank 2");
    assert!(home.line.moves.is_empty() && home.mv.is_none());
}

#[test]
fn every_rules_file_explores_without_panic() {
    let mut files = Vec::new();
    for dir in ["rules", "examples"] {
        for entry in std::fs::read_dir(repo().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == "rules") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 7);
    for path in files {
        let v = variant_at(&path);
        let k = 0 as KindId;
        let claims = [
            claim("a", Property::KeepsColour { kind: k }),
            claim("b", Property::NeverAdjacent { kind: k, other: k }),
            claim("c", Property::AtMost { kind: k, count: 0 }),
            claim("d", Property::NeverOn { kind: k, zone: [rank(&v, 0), Vec::new()] }),
        ];
        let e = explore(&v, &claims, &Limits::new(2, 3, 30_000, Duration::from_secs(5)));
        println!("{}: {} nodes, depth {}, stopped {:?}", path.display(), e.nodes, e.depth_done, e.stopped);
        for (p, l) in e.wins.iter().enumerate() {
            if let Some(l) = l {
                let end = replay(&v, l).pop().unwrap();
                assert!(matches!(v.status(&end), Status::Checkmate(_) | Status::Stalemate(_)), "{}: win for {p}", path.display());
            }
        }
        for viol in e.violations.iter().flatten() {
            replay(&v, &viol.line);
        }
    }
}


#[test]
fn nebelschach_hidden_arrivals_are_refuted_with_a_line() {
    // Every reveal is its own move, so lines name identities (`a1a3/R`) and
    // replay with `rulebook moves --play`. The far rank is out of reach of
    // face-down bishops, knights and pawns; rank 3 is not out of reach of a
    // face-down rook or bishop once a pawn has moved: two plies, then the move.
    let v = variant("nebelschach");
    let kinds = |names: &[&str]| names.iter().map(|n| kind(&v, n)).collect::<Vec<_>>();
    let claims = [
        claim("far-rank", Property::HiddenArrivals { zone: [rank(&v, 7), rank(&v, 0)], kinds: kinds(&["Rook", "Queen"]) }),
        claim("third-rank", Property::HiddenArrivals { zone: [rank(&v, 2), rank(&v, 5)], kinds: kinds(&["Knight", "Pawn"]) }),
    ];
    let e = timed("nebelschach to 2 plies", || explore(&v, &claims, &limits(2, 2)));
    assert_eq!(e.stopped, None);
    assert_eq!(e.depth_done, 2);
    assert!(e.violations[0].is_none());
    let third = e.violations[1].as_ref().expect("a face-down rook or bishop reaches rank 3");
    assert_eq!(third.line.moves.len(), 2);
    let before = replay(&v, &third.line).pop().unwrap();
    let m = third.mv.expect("a move claim's counterexample is a move");
    assert!(before.is_hidden(m.from), "{:?} moves a face-down piece", third.mv_text);
    assert!(rank(&v, 2).contains(&m.to));
    assert!(!kinds(&["Knight", "Pawn"]).contains(&m.piece), "moves as a rook or bishop");
    assert!(third.mv_text.as_deref().is_some_and(|t| t.contains('/')), "the revealed identity is written: {:?}", third.mv_text);
}
