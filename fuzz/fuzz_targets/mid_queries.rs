//! Builds hierarchies over arbitrary triangle soups with every builder and checks ray, box,
//! closest-point and mesh-mesh queries against brute force. The decoding and checks are the
//! property test's (`crates/cd-mid/tests/exercise/mod.rs`).
#![no_main]

#[path = "../../crates/cd-mid/tests/exercise/mod.rs"]
mod exercise;

#[path = "numbers.rs"]
mod numbers;

use libfuzzer_sys::fuzz_target;
use numbers::numbers;

fuzz_target!(|data: &[u8]| {
    exercise::run(&numbers(data));
});
