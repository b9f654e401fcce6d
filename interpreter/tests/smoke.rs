use rulebook_interpreter::{load::load, perft::perft, Variant};
use std::sync::Arc;

#[test]
fn chess_start_smoke() {
    let (game, _) = match load(std::path::Path::new("../rules/chess.rules")) {
        Ok(x) => x,
        Err((d, s)) => panic!("{:?}", d.iter().map(|d| rulebook_grammar::render(d, s.get(&d.file).map(|x| x.as_str()).unwrap_or(""), false)).collect::<Vec<_>>()),
    };
    let v = Variant::new(Arc::new(game));
    let pos = v.start().unwrap();
    for d in 1..=4 {
        println!("{d} {}", perft(&v, &pos, d));
    }
}

#[test]
#[ignore]
fn speed() {
    let (game, _) = load(std::path::Path::new("../rules/chess.rules")).ok().unwrap();
    let v = Variant::new(Arc::new(game));
    let pos = v.start().unwrap();
    let t = std::time::Instant::now();
    println!("start 6: {} in {:?}", perft(&v, &pos, 6), t.elapsed());
    let pos = v.parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", "x").unwrap();
    let t = std::time::Instant::now();
    println!("kiwi 5: {} in {:?}", perft(&v, &pos, 5), t.elapsed());
}

#[test]
fn raumschach_loads() {
    let (game, _) = match load(std::path::Path::new("../rules/raumschach.rules")) {
        Ok(x) => x,
        Err((d, s)) => panic!("{:?}", d.iter().map(|d| rulebook_grammar::render(d, s.get(&d.file).map(|x| x.as_str()).unwrap_or(""), false)).collect::<Vec<_>>()),
    };
    let v = Variant::new(Arc::new(game));
    let pos = v.start().unwrap();
    println!("{}", v.fen(&pos));
    for d in 1..=3 {
        println!("{d} {}", perft(&v, &pos, d));
    }
    let moves = v.legal_moves(&pos);
    let mut s: Vec<String> = moves.iter().map(|m| rulebook_interpreter::notation::san(&v, &pos, m, &moves)).collect();
    s.sort();
    println!("{}", s.join(" "));
}
