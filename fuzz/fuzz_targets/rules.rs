//! Fuzz target `rules`: see [`rulebook_fuzz::rules`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rulebook_fuzz::rules(data));
