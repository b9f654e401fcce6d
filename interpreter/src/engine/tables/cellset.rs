//! Sets of cells as one machine word: `u64` on boards of at most 64 cells,
//! `u128` on boards of 65 to 128. The bitset counting at perft leaves
//! ([`crate::engine::movegen::count_legal`]) is written once over
//! [`CellSet`] and compiled for each width, so a board of 64 cells or fewer
//! runs the same code as before the wide boards had it.

use super::{AttackDir, BitTables, Tables};
use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A set of cells, cell `c` being bit `c`.
pub trait CellSet:
    Copy
    + Default
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// No cell.
    const EMPTY: Self;
    /// Every cell the word can hold.
    const FULL: Self;
    /// The set of cell `c` alone.
    fn bit(c: usize) -> Self;
    /// Does the set hold cell `c`?
    fn has(self, c: usize) -> bool;
    /// The number of cells.
    fn count(self) -> u32;
    /// The lowest cell (the word's width when empty).
    fn first(self) -> u32;
    /// The highest cell (of a set that is not empty).
    fn last(self) -> u32;
    /// The set without its lowest cell.
    fn rest(self) -> Self;
    /// Every cell below `c`.
    fn below(c: u32) -> Self;
    /// Every cell up to and including `c`.
    fn through(c: u32) -> Self;
    /// The set of the first words of a position's bitset (`[u64; WORDS]`).
    fn from_words(words: &[u64]) -> Self;
    /// The set folded into one word for a multiply: the high half rotated
    /// by `k` onto the low one (the reach lookups choose `k` so that the
    /// cells of a mask do not meet).
    fn fold(self, k: u32) -> u64;
    /// The tables of this width.
    fn tables(t: &Tables) -> &BitTables<Self>;
    /// An attack direction's looking-back cells, per cell, in this width.
    fn dir_masks(dir: &AttackDir) -> &[Self];
}

/// The methods both widths write alike: `$word` the machine word, `$top`
/// its highest bit.
macro_rules! word_ops {
    ($word:ty, $top:expr) => {
        #[inline(always)]
        fn bit(c: usize) -> $word {
            1 << c
        }
        #[inline(always)]
        fn has(self, c: usize) -> bool {
            self >> c & 1 != 0
        }
        #[inline(always)]
        fn count(self) -> u32 {
            self.count_ones()
        }
        #[inline(always)]
        fn first(self) -> u32 {
            self.trailing_zeros()
        }
        #[inline(always)]
        fn last(self) -> u32 {
            $top - self.leading_zeros()
        }
        #[inline(always)]
        fn rest(self) -> $word {
            self & self.wrapping_sub(1)
        }
        #[inline(always)]
        fn below(c: u32) -> $word {
            ((1 as $word) << c) - 1
        }
        #[inline(always)]
        fn through(c: u32) -> $word {
            (((1 as $word) << c) << 1).wrapping_sub(1)
        }
    };
}

impl CellSet for u64 {
    const EMPTY: u64 = 0;
    const FULL: u64 = !0;
    word_ops!(u64, 63);
    #[inline(always)]
    fn from_words(words: &[u64]) -> u64 {
        words[0]
    }
    #[inline(always)]
    fn fold(self, _: u32) -> u64 {
        self
    }
    #[inline(always)]
    fn tables(t: &Tables) -> &BitTables<u64> {
        &t.bits
    }
    #[inline(always)]
    fn dir_masks(dir: &AttackDir) -> &[u64] {
        &dir.masks
    }
}

impl CellSet for u128 {
    const EMPTY: u128 = 0;
    const FULL: u128 = !0;
    word_ops!(u128, 127);
    #[inline(always)]
    fn from_words(words: &[u64]) -> u128 {
        u128::from(words[0]) | u128::from(words[1]) << 64
    }
    #[inline(always)]
    fn fold(self, k: u32) -> u64 {
        self as u64 ^ ((self >> 64) as u64).rotate_left(k)
    }
    #[inline(always)]
    fn tables(t: &Tables) -> &BitTables<u128> {
        &t.wide_bits
    }
    #[inline(always)]
    fn dir_masks(dir: &AttackDir) -> &[u128] {
        &dir.wide_masks
    }
}
