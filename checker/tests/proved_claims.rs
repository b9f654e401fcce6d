//! Every claim the checker PROVES is also tested against the interpreter:
//! along seeded random games from the setup, each proved position claim holds
//! in every position reached, and each proved move claim holds for every legal
//! move played or available. With hidden identities, so does the checker's
//! built-in lemma that face-down pieces stay on their setup squares. With
//! spread pieces, the claims the spread layer proves are checked on the
//! engine's positions the same way.

mod support;

use rulebook_checker::concrete::{groups, move_holds, position_holds};
use rulebook_checker::prove::Lemma;
use rulebook_checker::{check, Options, Verdict};
use support::{variant, Rng};
use std::time::Duration;

/// What the random games of [`playouts`] met.
#[derive(Debug, Default)]
struct Seen {
    /// Claims proved (and tested).
    proved: usize,
    /// Positions with spread pieces.
    spread: usize,
    /// The most entangled groups in one position.
    most_groups: usize,
}

/// The claims of `v` that `report` says are PROVED.
fn proved<'a>(v: &'a rulebook_interpreter::Variant, report: &rulebook_checker::Report) -> Vec<&'a rulebook_interpreter::model::Claim> {
    v.game.claims.iter().filter(|c| report.claims.iter().any(|r| r.name == c.name && r.verdict == Verdict::Proved)).collect()
}

/// Checks `name`, then plays `games` random games of up to 200 plies and
/// tests every proved claim on the way. Returns how many claims were proved.
fn playouts(name: &str, games: usize) -> usize {
    playouts_seen(name, games).proved
}

/// [`playouts`], with what the games met.
fn playouts_seen(name: &str, games: usize) -> Seen {
    let v = variant(name);
    let options = Options { query_timeout: Duration::from_secs(300), total_timeout: Duration::from_secs(3600), depth: 2, win_depth: 2, ..Options::default() };
    let report = check(&v, &options, &mut |_| {});
    let proved = proved(&v, &report);
    let mut rng = Rng(0x5eed ^ name.len() as u64);
    let start = v.start().expect("setup");
    let face_down = v.game.hidden.is_some().then(|| Lemma::face_down_at(&v, &start));
    let mut seen = Seen { proved: proved.len(), ..Seen::default() };
    for game in 0..games {
        let mut pos = start.clone();
        for ply in 0..200 {
            if pos.spread.is_some() {
                seen.spread += 1;
                seen.most_groups = seen.most_groups.max(groups(&pos));
            }
            for claim in &proved {
                assert!(position_holds(&v, &pos, &claim.property), "{name}: `{}` fails in game {game} ply {ply}: {}", claim.name, v.fen(&pos));
            }
            if let Some(lemma) = &face_down {
                assert!(lemma.holds_in(&v, &pos), "{name}: a face-down piece left its setup square in game {game} ply {ply}: {}", v.fen(&pos));
            }
            let moves = v.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            for m in &moves {
                for claim in &proved {
                    assert!(move_holds(&v, &pos, m, &claim.property), "{name}: `{}` fails for a move in game {game} ply {ply}: {}", claim.name, v.fen(&pos));
                }
            }
            pos = v.play(&pos, &moves[rng.below(moves.len())]);
        }
    }
    seen
}

#[test]
fn chess_proved_claims_hold_in_random_games() {
    // rules/chess.rules claims four properties; all four must be proved.
    assert_eq!(playouts("chess", 200), 4);
}

#[test]
fn nebelschach_proved_claims_hold_in_random_games() {
    // rules/nebelschach.rules keeps three of chess's claims (it drops
    // `no_pawn_on_first_rank`) and adds one about face-down pieces reaching
    // the far rank: all four must be proved, with face-down pieces and
    // reveals in the encoding.
    assert_eq!(playouts("nebelschach", 100), 4);
}

#[test]
fn niels_chess_proved_claims_hold_in_random_games() {
    // rules/niels-chess.rules: the spread layer proves its claim (at most
    // two groups; it states no claim about squares, which the language
    // bounds itself, E0138); chess's four are held to the search's depth
    // only (the Z3 move encoding knows no spread pieces), so they are not
    // among the proved ones. The games must meet spread pieces and
    // entangled groups for the test to mean something.
    let seen = playouts_seen("niels-chess", 60);
    eprintln!("niels-chess: {seen:?}");
    assert_eq!(seen.proved, 1);
    // Two groups, as many as labels: the bound is reached in the engine too.
    assert!(seen.spread > 1000 && seen.most_groups >= 2, "{seen:?}");
}

/// Every variant in rules/ (minutes: `.ci/run` runs it in the test profile, opt-level 2).
#[test]
#[ignore]
fn every_variant_proved_claims_hold_in_random_games() {
    for name in ["chess960", "capablanca", "crazyhouse", "losalamos", "raumschach", "grasshopper"] {
        let n = playouts(name, 100);
        eprintln!("{name}: {n} proved claims held in 100 random games");
    }
}

/// The built-in lemma is inductive, and it is what proves Nebelschach's
/// claim: without it a face-down bishop anywhere reaches the far rank.
#[test]
fn nebelschach_far_rank_needs_the_face_down_lemma() {
    use rulebook_checker::prove::{Induction, Prover};
    use rulebook_interpreter::model::Property;
    use rulebook_interpreter::engine::position::kind_of;
    use std::time::Instant;
    let v = variant("nebelschach");
    let lemma = Lemma::face_down_at(&v, &v.start().expect("setup"));
    let claim = v.game.claims.iter().find(|c| matches!(c.property, Property::HiddenArrivals { .. })).expect("the far-rank claim");
    let mut prover = Prover::new(&v, 120_000, Instant::now() + Duration::from_secs(900));
    assert!(matches!(prover.induction(std::slice::from_ref(&lemma))[..], [Induction::Proved]));
    assert!(matches!(prover.move_property(&claim.property, std::slice::from_ref(&lemma)), Induction::Proved));
    match prover.move_property(&claim.property, &[]) {
        Induction::NotInductive(w) => {
            // A state the solver made up (the FEN reader may refuse it): the
            // move's key names the face-down piece's square.
            let from = w.key.1 as u16;
            let disguise = w.position.board[from as usize];
            assert!(w.position.is_hidden(from), "{}: {}", w.fen, w.mv_text);
            assert!(!matches!(v.game.kinds[kind_of(disguise) as usize].name.as_str(), "Rook" | "Queen"), "{}: {}", w.fen, w.mv_text);
        }
        other => panic!("without the lemma: {other:?}"),
    }
}

/// 4D-Schach (issue 14): every claim the checker proves without a board
/// (directions, colour at rest per template, one king each by
/// conservation) holds along random lines of decisions from the setup
/// (placements, moves, relocations, activations, exiles, returns): position
/// claims at every node, move claims for every move decided there (by the
/// player who decides it).
#[test]
#[ignore = "checks 4D-Schach (half a minute in release); .ci/run runs it"]
fn four_d_proved_claims_hold_along_random_lines_of_decisions() {
    use rulebook_interpreter::flow::Action;
    let v = variant("4d-schach");
    let report = check(&v, &Options::default(), &mut |_| {});
    let proved = proved(&v, &report);
    assert_eq!(proved.len(), 4, "{:?}", report.claims);
    let mut rng = Rng(0x4d);
    let start = v.start().expect("setup");
    let mut decisions = 0;
    for line in 0..12 {
        let mut pos = start.clone();
        for step in 0..300 {
            for claim in &proved {
                assert!(position_holds(&v, &pos, &claim.property), "`{}` fails on line {line} at decision {step}: {}", claim.name, v.fen(&pos));
            }
            let succ = v.successors(&pos);
            if succ.is_empty() {
                break;
            }
            let mut view = pos.clone();
            view.side = v.decider(&pos);
            for (a, _) in &succ {
                if let Action::Move(m) = a {
                    for claim in &proved {
                        assert!(move_holds(&v, &view, m, &claim.property), "`{}` fails for a move on line {line} at decision {step}: {}", claim.name, v.fen(&pos));
                    }
                }
            }
            pos = succ[rng.below(succ.len())].1.clone();
            decisions += 1;
        }
    }
    assert!(decisions > 1_000, "{decisions}");
}

/// What the encoding's construction settles without a question (a royal
/// piece reaches a hand only by a capture from a state where its owner is
/// in check: `Encoder::hand_gain_needs_check`) is what Z3 answers when it
/// is asked: on crazyhouse the built-in lemma "no King in hand" is proved
/// both ways, the shortcut with fewer questions; a Queen, not royal, is not
/// settled so.
#[test]
fn a_royal_piece_in_hand_is_settled_as_z3_settles_it() {
    use rulebook_checker::prove::{Induction, Prover};
    use rulebook_interpreter::model::Property;
    use std::time::Instant;
    let v = variant("crazyhouse");
    let kind = |name: &str| v.game.kinds.iter().position(|k| k.name == name).expect("kind") as u8;
    let lemma: Lemma = Property::NeverInHand { kind: kind("King") }.into();
    let deadline = Instant::now() + Duration::from_secs(900);
    let mut asked = Prover::new(&v, 120_000, deadline);
    asked.by_construction = false;
    assert!(matches!(asked.induction(std::slice::from_ref(&lemma))[..], [Induction::Proved]));
    let mut settled = Prover::new(&v, 120_000, deadline);
    assert!(matches!(settled.induction(std::slice::from_ref(&lemma))[..], [Induction::Proved]));
    assert!(settled.queries < asked.queries, "{} questions with the shortcut, {} without", settled.queries, asked.queries);
    assert!(settled.enc.hand_gain_needs_check(kind("King")));
    assert!(!settled.enc.hand_gain_needs_check(kind("Queen")));
}
