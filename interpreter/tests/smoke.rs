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
