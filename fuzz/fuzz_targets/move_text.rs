//! Fuzz target `move_text`: see [`rulebook_fuzz::move_text`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rulebook_fuzz::move_text(data));
