//! Helpers shared by the crate's unit tests.

/// A deterministic stream of 64-bit values (xorshift), for the hand-rolled sweeps.
pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
