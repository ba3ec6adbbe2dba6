//! Feeds arbitrary sequences of world operations (adding, removing and moving bodies, steps,
//! impulses, ray/region/closest/shape-cast queries) with arbitrary numbers to `cd::world`:
//! nothing may panic or leave a non-finite pose, velocity or answer. The decoding and checks
//! are the hostile-input property test's (`crates/cd/tests/exercise/mod.rs`).
#![no_main]

#[path = "../../crates/cd/tests/exercise/mod.rs"]
mod exercise;

#[path = "numbers.rs"]
mod numbers;

use libfuzzer_sys::fuzz_target;
use numbers::numbers;

fuzz_target!(|data: &[u8]| {
    exercise::run(&numbers(data));
});
