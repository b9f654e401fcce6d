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
    /// The slots' words, two a slot, zeroed by the allocator (so untouched
    /// pages stay unmapped until used), from `start` on.
    words: Box<[AtomicU64]>,
    /// The first word of the first slot: the first one on a 2 MB boundary,
    /// so that the kernel can back the table with huge pages.
    start: usize,
    mask: usize,
}

/// The size of a huge page (x86-64 and AArch64 with 4 KB pages).
const HUGE_PAGE: usize = 2 << 20;

impl std::fmt::Debug for PerftTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PerftTable").field("slots", &(self.mask + 1)).finish()
    }
}

impl PerftTable {
    /// A table of about `megabytes` MB (a power of two of 16-byte slots, at least one).
    pub fn with_megabytes(megabytes: usize) -> PerftTable {
        let wanted = (megabytes.saturating_mul(1 << 20) / 16).max(1);
        let n = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        // Zeroed words from the allocator (fresh pages, not written here),
        // with room to start the slots on a huge-page boundary.
        let spare = if n * 16 >= HUGE_PAGE { HUGE_PAGE / 8 } else { 0 };
        // SAFETY: an all-zero AtomicU64 is a valid 0.
        let words = unsafe { Box::<[AtomicU64]>::new_zeroed_slice(2 * n + spare).assume_init() };
        let misaligned = words.as_ptr() as usize % HUGE_PAGE;
        let start = if spare == 0 || misaligned == 0 { 0 } else { (HUGE_PAGE - misaligned) / 8 };
        let table = PerftTable { words, start, mask: n - 1 };
        table.advise_huge_pages(n * 16);
        table
    }

    /// Asks the kernel to back the slots with huge pages (Linux's
    /// `MADV_HUGEPAGE`; transparent huge pages are often on only where
    /// asked): random probes then miss the TLB far less often.
    #[cfg(target_os = "linux")]
    fn advise_huge_pages(&self, bytes: usize) {
        if bytes < HUGE_PAGE {
            return;
        }
        let at = self.words[self.start..].as_ptr() as *mut libc::c_void;
        // SAFETY: the range lies inside `words`' allocation, which outlives
        // this call; the advice changes no contents (zero pages stay zero),
        // and a refusal is harmless.
        unsafe {
            libc::madvise(at, bytes / HUGE_PAGE * HUGE_PAGE, libc::MADV_HUGEPAGE);
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn advise_huge_pages(&self, _bytes: usize) {}

    /// Slot `i`'s two words: the check and the data.
    #[inline]
    fn slot(&self, i: usize) -> (&AtomicU64, &AtomicU64) {
        let at = self.start + 2 * i;
        (&self.words[at], &self.words[at + 1])
    }

    /// The count stored for `key` at `depth`, if any.
    pub(super) fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let slot = self.slot(key as usize & self.mask);
        let data = slot.1.load(Ordering::Relaxed);
        let check = slot.0.load(Ordering::Relaxed);
        (data != 0 && check ^ data == key && (data & 0xFF) as u32 == depth).then_some(data >> 8)
    }

    /// Stores the count below `key` at `depth` (replacing what was there).
    pub(super) fn store(&self, key: u64, depth: u32, count: u64) {
        if count >= 1 << 56 || depth > 0xFF {
            return;
        }
        let data = count << 8 | u64::from(depth);
        let slot = self.slot(key as usize & self.mask);
        slot.0.store(key ^ data, Ordering::Relaxed);
        slot.1.store(data, Ordering::Relaxed);
    }
}

