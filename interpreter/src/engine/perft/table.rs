//! The transposition table of hashed perft (`--hash MB`).

use std::sync::atomic::{AtomicU64, Ordering};

/// A transposition table for perft (`--hash MB`): the count below a
/// position at a depth, found again when the position recurs.
///
/// Slots come in buckets of four, one 64-byte cache line, so that a probe
/// costs one memory access. A slot holds two words, the count with the depth
/// (`data`) and the position's 64-bit key xor `data` (`check`), written and
/// read without locks by every thread: a slot two threads wrote at once fails
/// the check and is a miss. A new count replaces the bucket's smallest one
/// (an empty slot counts 0), so the counts that save the most work stay. A
/// wrong hit needs two positions with the same 64-bit key (and depth): with
/// keys spread evenly, each probe meets at most four stored keys, a chance of
/// at most 4 · 2⁻⁶⁴ of that, under 10⁻⁹ over 10⁹ probes (LANGUAGE §7).
pub struct PerftTable {
    /// The slots' words, eight a bucket, zeroed by the allocator (so
    /// untouched pages stay unmapped until used), from `start` on.
    words: Box<[AtomicU64]>,
    /// The first word of the first bucket: on a cache-line boundary, and on
    /// a 2 MB boundary when the table is that large, so that the kernel can
    /// back it with huge pages.
    start: usize,
    /// The number of buckets less one (a power of two less one).
    mask: usize,
}

/// The size of a huge page (x86-64 and AArch64 with 4 KB pages).
const HUGE_PAGE: usize = 2 << 20;

/// Slots per bucket.
const WAYS: usize = 4;

/// The bytes of one bucket: a cache line.
const BUCKET: usize = WAYS * 16;

impl std::fmt::Debug for PerftTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PerftTable").field("slots", &((self.mask + 1) * WAYS)).finish()
    }
}

impl PerftTable {
    /// A table of about `megabytes` MB (a power of two of 64-byte buckets, at least one).
    pub fn with_megabytes(megabytes: usize) -> PerftTable {
        let wanted = (megabytes.saturating_mul(1 << 20) / BUCKET).max(1);
        let n = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        let bytes = n * BUCKET;
        // Zeroed words from the allocator (fresh pages, not written here),
        // with room to start the buckets on a huge-page (or cache-line) boundary.
        let align = if bytes >= HUGE_PAGE { HUGE_PAGE } else { BUCKET };
        let spare = align / 8;
        // SAFETY: an all-zero AtomicU64 is a valid 0.
        let words = unsafe { Box::<[AtomicU64]>::new_zeroed_slice(bytes / 8 + spare).assume_init() };
        let misaligned = words.as_ptr() as usize % align;
        let start = if misaligned == 0 { 0 } else { (align - misaligned) / 8 };
        let table = PerftTable { words, start, mask: n - 1 };
        table.advise_huge_pages(bytes);
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

    /// The words of the bucket `key` falls in: check and data of each slot in turn.
    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        let at = self.start + (key as usize & self.mask) * (2 * WAYS);
        &self.words[at..at + 2 * WAYS]
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that a
    /// probe soon after finds it there.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let at = self.bucket(key).as_ptr() as *const i8;
            // SAFETY: a prefetch is a hint; it reads nothing and cannot fault.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(at) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The count stored for `key` at `depth`, if any.
    #[inline]
    pub(super) fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let bucket = self.bucket(key);
        for slot in bucket.chunks_exact(2) {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key && (data & 0xFF) as u32 == depth {
                return Some(data >> 8);
            }
        }
        None
    }

    /// Stores the count below `key` at `depth`, in place of the bucket's
    /// smallest count.
    #[inline]
    pub(super) fn store(&self, key: u64, depth: u32, count: u64) {
        if count >= 1 << 56 || depth > 0xFF {
            return;
        }
        let data = count << 8 | u64::from(depth);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut least = u64::MAX;
        for (i, slot) in bucket.chunks_exact(2).enumerate() {
            let held = slot[1].load(Ordering::Relaxed);
            if held >> 8 < least {
                least = held >> 8;
                victim = i;
            }
        }
        if least > count {
            return;
        }
        let slot = &bucket[2 * victim..2 * victim + 2];
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_keeps_its_four_largest_counts() {
        let table = PerftTable::with_megabytes(0);
        // One bucket: every key falls in it.
        let keys = [11u64, 22, 33, 44, 55];
        for (i, &k) in keys.iter().enumerate() {
            table.store(k, 2, 100 + i as u64);
        }
        // 100 was the smallest when 55 came: replaced.
        assert_eq!(table.probe(11, 2), None);
        assert_eq!(table.probe(22, 2), Some(101));
        assert_eq!(table.probe(55, 2), Some(104));
        // A smaller count does not push out larger ones.
        table.store(66, 1, 5);
        assert_eq!(table.probe(66, 1), None);
        // Another depth is another entry.
        assert_eq!(table.probe(22, 3), None);
    }
}
