//! A tiny seeded generator for the crate's unit tests (Marsaglia's xorshift64): the same
//! seed gives the same numbers on every machine, with no dependency.
//!
//! Takes a 64-bit seed (not zero); gives uniform numbers in `[-1, 1)`. Guarantees: the
//! sequence a seed gives never changes (tests compare against it).

/// A xorshift64 state.
pub(crate) struct XorShift(u64);

impl XorShift {
    pub(crate) fn new(seed: u64) -> XorShift {
        XorShift(seed)
    }

    fn next(&mut self) -> u64 {
        let mut state = self.0;
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        self.0 = state;
        state
    }

    /// A uniform u32 from the state's top 32 bits.
    pub(crate) fn next_u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }

    /// A uniform f32 in `[-1, 1)` from the state's top 24 bits.
    pub(crate) fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    }

    /// A uniform f64 in `[-1, 1)` from the state's top 53 bits.
    pub(crate) fn unit_f64(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}
