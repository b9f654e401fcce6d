//! Perft split among threads (`rulebook perft -j N`, issue 18): the tree is
//! split at every node `split` plies or more above the leaves and rayon hands
//! the subtrees to idle threads. These tests split almost everywhere
//! (`split` 2) on a pool of three threads, more than this machine's cores,
//! so that subtrees are stolen, and compare with published counts or with
//! the one-thread count (itself tested against published counts and hand
//! counts in perft_suites.rs, nebelschach.rs, niels_chess.rs, four_d.rs).

mod support;

use rulebook_interpreter::engine::perft::{divide, divide_split, perft, perft_limited, perft_split, Budget, Stop};
use rulebook_interpreter::{Position, Variant};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// The post-opening test position of four_d.rs (levels at rest; pawn groups
/// oblige relocations and castlings: the flow layer starts plies).
const FOUR_D_POST_OPENING: &str = "5p2/2P5/8/6p1/8/5P2/4B3/8|4n3/8/8/7q/5P2/8/3R4/5P2|8/8/4p3/3k4/8/8/7R/6N1|8/8/B3P3/8/8/b3p3/8/8|6n1/7r/8/8/3K4/4P3/8/8|5p2/3r4/8/5p2/7Q/8/8/4N3|8/4b3/5p2/8/6P1/8/2p5/5P2 w - - 0 1";

fn pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(3).build().expect("a pool of three threads")
}

fn at(v: &Variant, fen: Option<&str>) -> Position {
    match fen {
        Some(f) => v.parse_fen(f, "<test>").unwrap_or_else(|d| panic!("{f}: {}", d.message)),
        None => v.start().expect("the setup"),
    }
}

/// The split count, on three threads, split at every node 2 or more plies up.
fn split(v: &Variant, pos: &Position, depth: u32) -> Option<u64> {
    pool().install(|| perft_split(v, pos, depth, 2, &Budget::new(None, None)))
}

#[test]
fn chess_splits_to_the_published_counts() {
    let v = support::variant("chess");
    // Published perft counts (chessprogramming.org, "Perft Results").
    assert_eq!(split(&v, &at(&v, None), 5), Some(4_865_609));
    assert_eq!(split(&v, &at(&v, Some(KIWIPETE)), 4), Some(4_085_603));
}

#[test]
fn a_split_count_shares_a_transposition_table() {
    let v = support::variant("chess");
    let budget = Budget::new(None, None).with_hash(1);
    // The same published count twice: the second mostly from the table, filled by three threads.
    for _ in 0..2 {
        assert_eq!(pool().install(|| perft_split(&v, &at(&v, None), 5, 2, &budget)), Some(4_865_609));
    }
}

#[test]
fn chance_and_flow_split_to_the_one_thread_count() {
    // Face-down pieces and their chance outcomes.
    let v = support::variant("nebelschach");
    let pos = at(&v, None);
    assert_eq!(split(&v, &pos, 3), Some(perft(&v, &pos, 3)));
    // Superposition, collisions and tunnels.
    let v = support::variant("niels-chess");
    let pos = at(&v, None);
    assert_eq!(split(&v, &pos, 3), Some(perft(&v, &pos, 3)));
    // A placement phase (the flow layer's decisions at every node).
    let v = support::variant("4d-schach");
    assert_eq!(split(&v, &at(&v, None), 3), Some(perft(&v, &at(&v, None), 3)));
    // Rules that oblige: moves that start a ply of several decisions.
    let pos = at(&v, Some(FOUR_D_POST_OPENING));
    assert_eq!(split(&v, &pos, 2), Some(perft(&v, &pos, 2)));
}

#[test]
fn split_divide_gives_the_one_thread_rows() {
    let cases = [("chess", Some(KIWIPETE), 3), ("nebelschach", None, 3), ("4d-schach", Some(FOUR_D_POST_OPENING), 2)];
    for (name, fen, depth) in cases {
        let v = support::variant(name);
        let pos = at(&v, fen);
        let one = divide(&v, &pos, depth, &Budget::new(None, None), |_, _| ()).expect("no limit");
        let many = pool().install(|| divide_split(&v, &pos, depth, 2, &Budget::new(None, None), &|| ())).expect("no limit");
        assert_eq!(many, one, "{name} divide {depth}");
    }
}

#[test]
fn a_node_limit_stops_every_thread() {
    let v = support::variant("chess");
    let pos = at(&v, None);
    // 4,865,609 leaves at depth 5: a limit of 100,000 stops the count.
    let budget = Budget::new(Some(100_000), None);
    assert_eq!(pool().install(|| perft_split(&v, &pos, 5, 2, &budget)), None);
    assert_eq!(budget.stopped(), Some(Stop::Nodes));
    // Each thread charges its leaves in batches: the count stops soon after the limit.
    assert!(budget.counted() < 1_000_000, "{} leaves counted", budget.counted());
    // Under the limit the split count is complete.
    let roomy = Budget::new(Some(5_000_000), None);
    assert_eq!(pool().install(|| perft_split(&v, &pos, 5, 2, &roomy)), perft_limited(&v, &pos, 5, &Budget::new(None, None)));
}
