//! Feeds arbitrary numbers to cd-ccd's motions and every continuous query (f64 and f32):
//! nothing may panic, loop or return a non-finite time, point or normal. The queries and checks
//! are the hostile-input property test's (`crates/cd-ccd/tests/exercise/mod.rs`).
#![no_main]

#[path = "../../crates/cd-ccd/tests/exercise/mod.rs"]
mod exercise;

#[path = "numbers.rs"]
mod numbers;

use libfuzzer_sys::fuzz_target;
use numbers::numbers;

fuzz_target!(|data: &[u8]| {
    let v = numbers(data);
    if v.len() < 21 {
        return;
    }
    exercise::exercise::<f64>(&v);
    exercise::exercise::<f32>(&v);
});
