//! `cargo xtask <task>`: project automation.
//!
//! Tasks:
//! * `ci` — run `.ci/run` (tests, fmt, clippy, docs).
//! * `bench-report [--svg FILE]` — read criterion's results under `target/criterion`, print the
//!   Markdown table of cd/parry ratios that `docs/benchmarks.md` records, and optionally draw
//!   the ratios as an SVG bar chart.
//!
//! The fuzzing task (`cargo xtask fuzz`) arrives with its issue.

use std::path::Path;
use std::process::{exit, Command};

fn main() {
    let task = std::env::args().nth(1).unwrap_or_default();
    match task.as_str() {
        "ci" => run(Command::new("bash").arg(".ci/run")),
        "bench-report" => {
            let rows = bench_rows(Path::new("target/criterion"));
            print_table(&rows);
            let args: Vec<String> = std::env::args().collect();
            if let Some(i) = args.iter().position(|a| a == "--svg") {
                let Some(path) = args.get(i + 1) else {
                    eprintln!("--svg needs a file name");
                    exit(2);
                };
                if let Err(e) = std::fs::write(path, svg(&rows)) {
                    eprintln!("cannot write {path}: {e}");
                    exit(1);
                }
            }
        }
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

/// One comparison: benchmark group, cd variant, its time, parry baseline, its time (ns).
struct Row {
    group: String,
    cd: String,
    cd_ns: f64,
    parry: String,
    parry_ns: f64,
}

fn dirs(path: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(path)
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().is_dir())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn bench_rows(root: &Path) -> Vec<Row> {
    if !root.is_dir() {
        eprintln!("no benchmark results in {}: run `cargo bench -p cd-benches` first", root.display());
        exit(1);
    }
    let mut rows = Vec::new();
    for group in dirs(root).into_iter().filter(|n| n != "report") {
        let dir = root.join(&group);
        let fns = dirs(&dir);
        let time = |f: &str| mean_ns(&dir.join(f).join("new").join("estimates.json"));
        for cd in fns.iter().filter(|f| f.starts_with("cd")) {
            for base in fns.iter().filter(|f| f.starts_with("parry")) {
                if let (Some(cd_ns), Some(parry_ns)) = (time(cd), time(base)) {
                    rows.push(Row {
                        group: group.clone(),
                        cd: cd.clone(),
                        cd_ns,
                        parry: base.clone(),
                        parry_ns,
                    });
                }
            }
        }
    }
    rows
}

fn print_table(rows: &[Row]) {
    println!(
        "| benchmark | cd variant | cd (µs/batch) | parry baseline | parry (µs/batch) | ratio cd/parry |"
    );
    println!("|---|---|---:|---|---:|---:|");
    for r in rows {
        println!(
            "| {} | {} | {:.2} | {} | {:.2} | {:.2} |",
            r.group,
            r.cd,
            r.cd_ns / 1e3,
            r.parry,
            r.parry_ns / 1e3,
            r.cd_ns / r.parry_ns
        );
    }
}

/// A horizontal bar chart of the ratios with the parity line at 1.0.
fn svg(rows: &[Row]) -> String {
    let (label_w, bar_w, row_h, top) = (330.0, 420.0, 22.0, 40.0);
    let max = rows.iter().map(|r| r.cd_ns / r.parry_ns).fold(1.25f64, f64::max);
    let height = top + row_h * rows.len() as f64 + 30.0;
    let x = |ratio: f64| label_w + bar_w * ratio / max;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n",
        label_w + bar_w + 60.0
    );
    out += "<text x=\"10\" y=\"20\" font-size=\"14\">time ratio cd / parry3d (shorter is faster; the line marks parity)</text>\n";
    for (i, r) in rows.iter().enumerate() {
        let ratio = r.cd_ns / r.parry_ns;
        let y = top + row_h * i as f64;
        let colour = if ratio <= 1.0 { "#3a7d44" } else { "#b33a3a" };
        out += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{} {} vs {}</text>\n",
            label_w - 8.0,
            y + 14.0,
            r.group,
            r.cd,
            r.parry
        );
        out += &format!(
            "<rect x=\"{label_w}\" y=\"{}\" width=\"{:.1}\" height=\"{}\" fill=\"{colour}\"/>\n",
            y + 3.0,
            x(ratio) - label_w,
            row_h - 6.0
        );
        out += &format!("<text x=\"{:.1}\" y=\"{}\">{ratio:.2}</text>\n", x(ratio) + 4.0, y + 14.0);
    }
    let one = x(1.0);
    out += &format!("<line x1=\"{one:.1}\" y1=\"{}\" x2=\"{one:.1}\" y2=\"{}\" stroke=\"black\" stroke-dasharray=\"4 3\"/>\n", top - 5.0, height - 25.0);
    out +=
        &format!("<text x=\"{one:.1}\" y=\"{}\" text-anchor=\"middle\">1.0</text>\n</svg>\n", height - 10.0);
    out
}
