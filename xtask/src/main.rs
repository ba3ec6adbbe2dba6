//! `cargo xtask <task>`: project automation.
//!
//! Tasks:
//! * `ci` — run `.ci/run` (tests, fmt, clippy, docs).
//! * `bench-report` — read criterion's results under `target/criterion` and print the
//!   Markdown table of cd/parry ratios that `docs/benchmarks.md` records.
//!
//! The fuzzing task (`cargo xtask fuzz`) arrives with its issue.

use std::path::Path;
use std::process::{exit, Command};

fn main() {
    let task = std::env::args().nth(1).unwrap_or_default();
    match task.as_str() {
        "ci" => run(Command::new("bash").arg(".ci/run")),
        "bench-report" => bench_report(Path::new("target/criterion")),
        _ => {
            eprintln!("usage: cargo xtask <task>\n\ntasks:\n  ci            run .ci/run\n  bench-report  print the cd/parry ratio table from target/criterion");
            exit(2);
        }
    }
}

fn run(cmd: &mut Command) {
    match cmd.status() {
        Ok(s) if s.success() => {}
        Ok(s) => exit(s.code().unwrap_or(1)),
        Err(e) => {
            eprintln!("failed to start: {e}");
            exit(1);
        }
    }
}

/// The mean point estimate (nanoseconds) in a criterion `estimates.json`, found without a JSON
/// library: the first `"point_estimate":` after `"mean":`.
fn mean_ns(path: &Path) -> Option<f64> {
    let text = std::fs::read_to_string(path).ok()?;
    let mean = &text[text.find("\"mean\"")?..];
    let key = "\"point_estimate\":";
    let rest = &mean[mean.find(key)? + key.len()..];
    let end = rest.find([',', '}'])?;
    rest[..end].trim().parse().ok()
}

fn bench_report(root: &Path) {
    let Ok(groups) = std::fs::read_dir(root) else {
        eprintln!("no benchmark results in {}: run `cargo bench -p cd-benches` first", root.display());
        exit(1);
    };
    let mut names: Vec<String> = groups.flatten().filter(|e| e.path().is_dir()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    println!("| benchmark | cd variant | cd (µs/batch) | parry baseline | parry (µs/batch) | ratio cd/parry |");
    println!("|---|---|---:|---|---:|---:|");
    for group in names.iter().filter(|n| n.as_str() != "report") {
        let dir = root.join(group);
        let mut fns: Vec<String> = std::fs::read_dir(&dir)
            .map(|d| d.flatten().filter(|e| e.path().is_dir()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        fns.sort();
        let time = |f: &str| mean_ns(&dir.join(f).join("new").join("estimates.json"));
        let baselines: Vec<&String> = fns.iter().filter(|f| f.starts_with("parry")).collect();
        for cd in fns.iter().filter(|f| f.starts_with("cd")) {
            for base in &baselines {
                if let (Some(a), Some(b)) = (time(cd), time(base)) {
                    println!("| {group} | {cd} | {:.2} | {base} | {:.2} | {:.2} |", a / 1e3, b / 1e3, a / b);
                }
            }
        }
    }
}
