//! The transposition table of hashed perft (`--hash MB`).

use std::sync::atomic::{AtomicU64, Ordering};

/// A transposition table for perft (`--hash MB`): the count below a
/// position at a depth, found again when the position recurs. A slot holds
/// two words, the count with the depth (`data`) and the position's 64-bit
/// key xor `data` (`check`), written and read without locks by every thread:
/// a slot two threads wrote at once fails the check and is a miss. A wrong
/// hit needs two positions with the same 64-bit key (and depth) in one slot:
/// with keys spread evenly, each probe has a chance of at most 2⁻⁶⁴ of that,
/// under 10⁻¹⁰ over 10⁹ probes (LANGUAGE §7).
pub struct PerftTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl std::fmt::Debug for PerftTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PerftTable").field("slots", &self.slots.len()).finish()
    }
}

impl PerftTable {
    /// A table of about `megabytes` MB (a power of two of 16-byte slots, at least one).
    pub fn with_megabytes(megabytes: usize) -> PerftTable {
        let wanted = (megabytes.saturating_mul(1 << 20) / 16).max(1);
        let n = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        PerftTable { slots: (0..n).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect(), mask: n - 1 }
    }

    /// The count stored for `key` at `depth`, if any.
    pub(super) fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot[1].load(Ordering::Relaxed);
        let check = slot[0].load(Ordering::Relaxed);
        (data != 0 && check ^ data == key && (data & 0xFF) as u32 == depth).then_some(data >> 8)
    }

    /// Stores the count below `key` at `depth` (replacing what was there).
    pub(super) fn store(&self, key: u64, depth: u32, count: u64) {
        if count >= 1 << 56 || depth > 0xFF {
            return;
        }
        let data = count << 8 | u64::from(depth);
        let slot = &self.slots[key as usize & self.mask];
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

