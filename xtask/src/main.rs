//! `cargo xtask <task>`: project automation.
//!
//! Tasks:
//! * `ci` — run `.ci/run` (tests, fmt, clippy, docs).
//!
//! The fuzzing task (`cargo xtask fuzz`) arrives with its issue.

use std::process::{exit, Command};

fn main() {
    let task = std::env::args().nth(1).unwrap_or_default();
    let status = match task.as_str() {
        "ci" => Command::new("bash").arg(".ci/run").status(),
        _ => {
            eprintln!("usage: cargo xtask <task>\n\ntasks:\n  ci    run .ci/run");
            exit(2);
        }
    };
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => exit(s.code().unwrap_or(1)),
        Err(e) => {
            eprintln!("failed to start: {e}");
            exit(1);
        }
    }
}
