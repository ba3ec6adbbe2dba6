//! Feeds arbitrary operation sequences (insert, update, remove, find, box and ray queries) to
//! every broad phase and checks each step against brute force. The decoding and checks are the
//! property test's (`crates/cd-broad/tests/exercise/mod.rs`).
#![no_main]

#[path = "../../crates/cd-broad/tests/exercise/mod.rs"]
mod exercise;

#[path = "numbers.rs"]
mod numbers;

use libfuzzer_sys::fuzz_target;
use numbers::numbers;

fuzz_target!(|data: &[u8]| {
    exercise::run(&numbers(data));
});
