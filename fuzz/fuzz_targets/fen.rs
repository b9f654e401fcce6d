//! Fuzz target `fen`: see [`rulebook_fuzz::fen`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rulebook_fuzz::fen(data));
