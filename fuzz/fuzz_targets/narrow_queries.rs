//! Builds convex shapes from arbitrary numbers and runs GJK, EPA, MPR, SAT and the manifolds on
//! every pair: no panic, finite answers, symmetry, the boolean consistent with the depth, GJK
//! agreeing with SAT and MPR on boxes. The decoding and checks are the property test's
//! (`crates/cd-narrow/tests/exercise/mod.rs`).
#![no_main]

#[path = "../../crates/cd-narrow/tests/exercise/mod.rs"]
mod exercise;

#[path = "numbers.rs"]
mod numbers;

use libfuzzer_sys::fuzz_target;
use numbers::numbers;

fuzz_target!(|data: &[u8]| {
    exercise::run(&numbers(data));
});
