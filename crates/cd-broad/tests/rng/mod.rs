//! The deterministic random numbers the broad-phase tests share (xorshift64).

/// Deterministic uniform values in [0, 1).
pub struct Rng(pub u64);

impl Rng {
    /// The next value in [0, 1).
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    /// A value in [lo, hi).
    #[allow(dead_code)] // not every test file draws ranges
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}
