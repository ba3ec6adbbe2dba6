//! `cargo xtask fuzz [--target NAME] [--seconds N]`: runs the cargo-fuzz targets under `fuzz/`.
//!
//! Installs cargo-fuzz when it is missing, then runs every target (or the one named) for `N`
//! seconds each (default 60) on the nightly toolchain, with its corpus kept in
//! `fuzz/corpus/<target>` (so later runs start from what earlier ones found). Prints a table of
//! target, runs, corpus entries added and crashes; on a crash it prints the saved input and the
//! command that replays it, and exits non-zero.

use std::path::{Path, PathBuf};
use std::process::{exit, Command, Stdio};

/// What one target's run reported.
struct Outcome {
    target: String,
    runs: u64,
    new_units: u64,
    crash: Option<PathBuf>,
    failed_to_start: Option<String>,
}

/// The targets `fuzz/Cargo.toml` declares, in file order (its `[[bin]]` names).
fn targets(root: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root.join("fuzz/Cargo.toml")).unwrap_or_default();
    let mut names = Vec::new();
    let mut in_bin = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if in_bin {
            if let Some(rest) = line.strip_prefix("name") {
                let name = rest.trim_start().trim_start_matches('=').trim().trim_matches('"');
                names.push(name.to_string());
            }
        }
    }
    names
}

/// Makes sure `cargo fuzz` exists, installing it from crates.io if not.
fn ensure_cargo_fuzz() {
    let present = Command::new("cargo")
        .args(["fuzz", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if present {
        return;
    }
    eprintln!("cargo-fuzz is missing: installing it (cargo install cargo-fuzz --locked)");
    let ok =
        Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]).status().is_ok_and(|s| s.success());
    if !ok {
        eprintln!("could not install cargo-fuzz");
        exit(1);
    }
}

/// The last value of a libFuzzer `stat::NAME: value` line.
fn stat(log: &str, name: &str) -> u64 {
    let key = format!("stat::{name}:");
    log.lines()
        .rev()
        .filter_map(|l| l.trim().strip_prefix(&key))
        .find_map(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

/// The input libFuzzer saved for a crash ("Test unit written to PATH").
fn crash_file(log: &str) -> Option<PathBuf> {
    log.lines().rev().find_map(|l| l.split("Test unit written to ").nth(1)).map(|p| PathBuf::from(p.trim()))
}

fn run_target(root: &Path, target: &str, seconds: u64) -> Outcome {
    let corpus = root.join("fuzz/corpus").join(target);
    let _ = std::fs::create_dir_all(&corpus);
    eprintln!("== fuzzing {target} for {seconds} s");
    let output = Command::new("cargo")
        .current_dir(root)
        .args(["+nightly", "fuzz", "run", target])
        .arg(&corpus)
        .args(["--", &format!("-max_total_time={seconds}"), "-print_final_stats=1"])
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped())
        .output();
    let mut outcome =
        Outcome { target: target.into(), runs: 0, new_units: 0, crash: None, failed_to_start: None };
    match output {
        Err(e) => outcome.failed_to_start = Some(e.to_string()),
        Ok(out) => {
            let log = String::from_utf8_lossy(&out.stderr);
            outcome.runs = stat(&log, "number_of_executed_units");
            outcome.new_units = stat(&log, "new_units_added");
            outcome.crash = crash_file(&log);
            if !out.status.success() && outcome.crash.is_none() {
                // A build failure or a crash without a saved input: show the tail of the log.
                let tail: Vec<&str> = log.lines().rev().take(30).collect();
                eprintln!("{}", tail.into_iter().rev().collect::<Vec<_>>().join("\n"));
                outcome.failed_to_start = Some(format!("exited with {}", out.status));
            }
        }
    }
    outcome
}

/// Parses the options, runs the targets, prints the summary and exits non-zero on a crash.
pub fn main(args: &[String]) {
    let mut only: Option<String> = None;
    let mut seconds = 60u64;
    let mut i = 0;
    while i < args.len() {
        match (args[i].as_str(), args.get(i + 1)) {
            ("--target", Some(name)) => only = Some(name.clone()),
            ("--seconds", Some(n)) => {
                seconds = n.parse().unwrap_or_else(|_| {
                    eprintln!("--seconds needs a whole number, got {n:?}");
                    exit(2);
                })
            }
            (other, _) => {
                eprintln!("usage: cargo xtask fuzz [--target NAME] [--seconds N]  (unknown or incomplete {other:?})");
                exit(2);
            }
        }
        i += 2;
    }
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf();
    let all = targets(&root);
    let chosen: Vec<String> = match &only {
        Some(name) if all.contains(name) => vec![name.clone()],
        Some(name) => {
            eprintln!("no fuzz target {name:?}; the targets are: {}", all.join(", "));
            exit(2);
        }
        None => all,
    };
    ensure_cargo_fuzz();
    let outcomes: Vec<Outcome> = chosen.iter().map(|t| run_target(&root, t, seconds)).collect();
    println!("\n| target | runs | new corpus entries | crashes |\n|---|---:|---:|---:|");
    for o in &outcomes {
        let crashes = if o.crash.is_some() || o.failed_to_start.is_some() { "**1**" } else { "0" };
        println!("| {} | {} | {} | {} |", o.target, o.runs, o.new_units, crashes);
    }
    let mut failed = false;
    for o in &outcomes {
        if let Some(path) = &o.crash {
            failed = true;
            println!(
                "\n{}: crash input saved to {}\nreplay: cargo +nightly fuzz run {} {}",
                o.target,
                path.display(),
                o.target,
                path.display()
            );
        }
        if let Some(why) = &o.failed_to_start {
            failed = true;
            println!("\n{}: the run failed ({why})", o.target);
        }
    }
    if failed {
        exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stats_crashes_and_target_names() {
        let log = "#2\tINITED\nstat::number_of_executed_units: 1234\nstat::new_units_added: 17\n==1== ERROR\nartifact_prefix='a/'; Test unit written to fuzz/artifacts/x/crash-abc\n";
        assert_eq!(stat(log, "number_of_executed_units"), 1234);
        assert_eq!(stat(log, "new_units_added"), 17);
        assert_eq!(crash_file(log), Some(PathBuf::from("fuzz/artifacts/x/crash-abc")));
        assert_eq!(crash_file("all good"), None);
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let names = targets(root);
        assert!(
            names.contains(&"geom_queries".to_string()) && names.contains(&"collide_json".to_string()),
            "{names:?}"
        );
    }
}
