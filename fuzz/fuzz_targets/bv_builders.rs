//! Feeds arbitrary point sets (NaN, infinities, huge, tiny, duplicate, flat) to every cd-bv
//! builder: nothing may panic, bad points are refused, every volume built holds every point.
//! The decoding and checks are the property test's (`crates/cd-bv/tests/exercise/mod.rs`).
#![no_main]

#[path = "../../crates/cd-bv/tests/exercise/mod.rs"]
mod exercise;

#[path = "numbers.rs"]
mod numbers;

use libfuzzer_sys::fuzz_target;
use numbers::numbers;

fuzz_target!(|data: &[u8]| {
    exercise::run(&numbers(data));
});
