//! Helpers shared by the checker's integration tests.

#![allow(dead_code)]

use rulebook_interpreter::{model::load::load, Variant};
use std::path::{Path, PathBuf};
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

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Loads `rules/<name>.rules`, panicking with the diagnostics.
pub fn variant(name: &str) -> Variant {
    let path = root().join("rules").join(format!("{name}.rules"));
    match load(&path) {
        Ok((game, _)) => Variant::new(Arc::new(game)),
        Err((diags, _)) => panic!("{name} does not load: {diags:?}"),
    }
}
