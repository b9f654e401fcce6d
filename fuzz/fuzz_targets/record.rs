//! Fuzz target `record`: see [`rulebook_fuzz::record`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rulebook_fuzz::record(data));
