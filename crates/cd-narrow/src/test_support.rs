//! Helpers shared by the crate's unit tests.

/// A deterministic stream of numbers in `[0, 1)` (xorshift), for the hand-rolled sweeps.
pub(crate) fn unit_stream(mut state: u64) -> impl FnMut() -> f64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    }
}
