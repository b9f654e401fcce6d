//! Helpers shared by the interpreter's integration tests.

#![allow(dead_code)]

use rulebook_interpreter::{model::load::load, Variant};
use std::path::Path;
use std::sync::Arc;

/// A small deterministic generator (xorshift64*), so failures replay.
pub struct Rng(pub u64);

impl Rng {
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// Loads a rules file, panicking with its rendered diagnostics.
pub fn variant_at(path: &Path) -> Variant {
    match load(path) {
        Ok((game, _)) => Variant::new(Arc::new(game)),
        Err((diags, sources)) => {
            let text: Vec<String> = diags
                .iter()
                .map(|d| rulebook_grammar::render(d, sources.get(&d.file).map(String::as_str).unwrap_or(""), false))
                .collect();
            panic!("{} does not load:\n{}", path.display(), text.join("\n"))
        }
    }
}

/// Loads a rules file written by the test: `text` is saved to a file of its
/// own under the temporary directory (tests run in parallel), named after
/// `tag`, and loaded from there.
pub fn variant_from_text(tag: &str, text: &str) -> Variant {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("rulebook-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{tag}{}.rules", NEXT.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&path, text).expect("write");
    variant_at(&path)
}

/// Loads `rules/<name>.rules` of the repository.
pub fn variant(name: &str) -> Variant {
    variant_at(&Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("rules").join(format!("{name}.rules")))
}

/// The legal moves of `fen` in `v`, in coordinate notation, sorted.
pub fn legal_texts(v: &Variant, fen: &str) -> Vec<String> {
    let pos = v.parse_fen(fen, "<test>").unwrap_or_else(|d| panic!("{fen}: {}", d.message));
    let mut names: Vec<String> = v.legal_moves(&pos).iter().map(|m| rulebook_interpreter::text::notation::coordinate(v, m)).collect();
    names.sort();
    names
}

/// The FEN of the position after `line` (moves in coordinate notation,
/// each legal where it is played) from `fen`.
pub fn fen_after(v: &Variant, fen: &str, line: &[&str]) -> String {
    let mut pos = v.parse_fen(fen, "<test>").unwrap_or_else(|d| panic!("{fen}: {}", d.message));
    for text in line {
        let m = v
            .legal_moves(&pos)
            .into_iter()
            .find(|m| rulebook_interpreter::text::notation::coordinate(v, m) == *text)
            .unwrap_or_else(|| panic!("{text} is not legal in {}", v.fen(&pos)));
        pos = v.play(&pos, &m);
    }
    v.fen(&pos)
}
