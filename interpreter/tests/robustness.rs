//! Bad input never panics: thousands of mutated rules files and FENs go
//! through parsing, lowering and (when accepted) move generation. Each must
//! end in a value or a diagnostic.

use rulebook_interpreter::model::lower::{lower, SourceTree};
use rulebook_interpreter::{engine::perft::perft, model::load::load, Variant};
use std::sync::Arc;

mod support;
use support::Rng;


/// One random edit: delete, duplicate or replace a short run of bytes.
fn mutate(text: &str, rng: &mut Rng, alphabet: &[u8]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(bytes.len());
        let len = 1 + rng.below(4);
        match rng.below(3) {
            0 => {
                let end = (at + len).min(bytes.len());
                bytes.drain(at..end);
            }
            1 => {
                let end = (at + len).min(bytes.len());
                let copy = bytes[at..end].to_vec();
                bytes.splice(at..at, copy);
            }
            _ => {
                if at < bytes.len() {
                    bytes[at] = alphabet[rng.below(alphabet.len())];
                }
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn mutated_rules_files_give_diagnostics_not_panics() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/");
    let alphabet = b"{}()-+,.0123456789abcdefghKQRBNPWFmovequietcapturide \n\"#";
    let mut rng = Rng(7);
    let mut accepted = 0;
    for name in ["chess", "raumschach", "crazyhouse"] {
        let text = std::fs::read_to_string(format!("{root}{name}.rules")).expect("rules file");
        for _ in 0..400 {
            let broken = mutate(&text, &mut rng, alphabet);
            let Ok(tree) = rulebook_grammar::parse_all("mutant.rules", &broken) else { continue };
            if tree.items.iter().any(|i| matches!(i, rulebook_grammar::ast::Item::Extends(_))) {
                continue; // the chain is resolved by the loader, tested elsewhere
            }
            if let Ok(game) = lower(&[SourceTree { name: "mutant.rules", tree: &tree }]) {
                accepted += 1;
                let v = Variant::new(Arc::new(game));
                if let Ok(pos) = v.start() {
                    perft(&v, &pos, 2);
                }
            }
        }
    }
    assert!(accepted > 0, "some mutants are still valid variants and were executed");
}

#[test]
fn mutated_fens_give_diagnostics_not_panics() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/crazyhouse.rules");
    let (game, _) = load(std::path::Path::new(path)).expect("loads");
    let v = Variant::new(Arc::new(game));
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[Qq] w KQkq - 0 1",
        "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR[] w KQkq f6 0 3",
    ];
    let alphabet = b"kqrbnpKQRBNP12345678/-[]~ wabcdefgh";
    let mut rng = Rng(11);
    let mut accepted = 0;
    for fen in fens {
        for _ in 0..1500 {
            let broken = mutate(fen, &mut rng, alphabet);
            if let Ok(pos) = v.parse_fen(&broken, "<mutant>") {
                accepted += 1;
                perft(&v, &pos, 2);
                let _ = v.fen(&pos);
            }
        }
    }
    assert!(accepted > 100, "only {accepted} mutants were positions");
}

#[test]
fn mutated_rules_files_recover_without_panics() {
    // parse_all blanks failing items and parses again: it must end, and every
    // report must point inside the text.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/");
    let alphabet = b"{}()-+,.0123456789abcdefgh \n\"#";
    let mut rng = Rng(13);
    for name in ["chess", "capablanca", "raumschach"] {
        let text = std::fs::read_to_string(format!("{root}{name}.rules")).expect("rules file");
        for _ in 0..300 {
            let mut broken = text.clone();
            for _ in 0..3 {
                broken = mutate(&broken, &mut rng, alphabet);
            }
            if let Err(diags) = rulebook_grammar::parse_all("mutant.rules", &broken) {
                assert!(!diags.is_empty() && diags.len() <= 20);
                for d in &diags {
                    assert!(d.span.start <= d.span.end && d.span.end <= broken.len() + 1, "{d:?}");
                    let _ = rulebook_grammar::render(d, &broken, false);
                }
            }
        }
    }
}
