//! `cargo xtask <task>`: project automation.
//!
//! Tasks:
//! * `ci` — run `.ci/run` (tests, fmt, clippy, docs).
//! * `bench-report [--svg FILE]` — read criterion's results under `target/criterion`, print the
//!   Markdown table of cd/parry ratios that `docs/benchmarks.md` records, and optionally draw
//!   the ratios as an SVG bar chart.
//!
//! * `size-plot PREFIX FILE` — draw, as an SVG log-log line chart, the time of every benchmark
//!   function against problem size over the groups `PREFIX<size>` (sizes like `14k`, `1m`,
//!   `1000`), e.g. `size-plot mid_build_boxes_ docs/mid-build-sizes.svg`.
//!
//! * `bench [--quick] [--report-only]` — run every benchmark against parry3d and write the
//!   per-layer tables, machine, toolchain and date into `docs/benchmarks.md` (between its
//!   generated-section markers) with the ratio and size plots (see [`mod@bench`]); `--quick` is a
//!   short smoke run that writes `target/benchmarks-quick.md` instead.
//! * `fuzz [--target NAME] [--seconds N]` — run the cargo-fuzz targets under `fuzz/` (see
//!   [`fuzz`]): installs cargo-fuzz if missing, N seconds per target (default 60), corpora kept
//!   in `fuzz/corpus/`, a summary table, non-zero exit and a replay command on a crash.

mod bench;
mod fuzz;

use std::path::Path;
use std::process::{exit, Command};

fn main() {
    let task = std::env::args().nth(1).unwrap_or_default();
    match task.as_str() {
        "ci" => run(Command::new("bash").arg(".ci/run")),
        "fuzz" => fuzz::main(&std::env::args().skip(2).collect::<Vec<_>>()),
        "bench" => bench::main(&std::env::args().skip(2).collect::<Vec<_>>()),
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
        "size-plot" => {
            let args: Vec<String> = std::env::args().collect();
            let (Some(prefix), Some(path)) = (args.get(2), args.get(3)) else {
                eprintln!("usage: cargo xtask size-plot PREFIX FILE");
                exit(2);
            };
            let series = size_series(Path::new("target/criterion"), prefix);
            if series.is_empty() {
                eprintln!("no groups named {prefix}<size> under target/criterion");
                exit(1);
            }
            if let Err(e) = std::fs::write(path, size_svg(prefix, &series)) {
                eprintln!("cannot write {path}: {e}");
                exit(1);
            }
        }
        _ => {
            eprintln!("usage: cargo xtask <task>\n\ntasks:\n  ci            run .ci/run\n  bench-report  print the cd/parry ratio table from target/criterion\n  size-plot     PREFIX FILE: time against size, one line per benchmark function\n  fuzz          [--target NAME] [--seconds N]: run the fuzz targets (default 60 s each)\n  bench         [--quick] [--report-only]: run the benchmarks, write docs/benchmarks.md");
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
    print!("{}", table(rows));
}

/// The Markdown table of cd/parry rows.
fn table<'a>(rows: impl IntoIterator<Item = &'a Row>) -> String {
    let mut out = String::from(
        "| benchmark | cd variant | cd (µs/batch) | parry baseline | parry (µs/batch) | ratio cd/parry |\n|---|---|---:|---|---:|---:|\n",
    );
    for r in rows {
        out += &format!(
            "| {} | {} | {:.2} | {} | {:.2} | {:.2} |\n",
            r.group,
            r.cd,
            r.cd_ns / 1e3,
            r.parry,
            r.parry_ns / 1e3,
            r.cd_ns / r.parry_ns
        );
    }
    out
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

/// A problem size from a group suffix: `14k`, `1m`, `1000`.
fn parse_size(s: &str) -> Option<f64> {
    let (digits, mult) = match s.chars().last()? {
        'k' => (&s[..s.len() - 1], 1e3),
        'm' => (&s[..s.len() - 1], 1e6),
        _ => (s, 1.0),
    };
    digits.parse::<f64>().ok().map(|x| x * mult)
}

/// For every function of the groups `prefix<size>`: its (size, mean ns) points, sorted by size.
fn size_series(root: &Path, prefix: &str) -> Vec<(String, Vec<(f64, f64)>)> {
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for group in dirs(root) {
        let Some(size) = group.strip_prefix(prefix).and_then(parse_size) else { continue };
        for f in dirs(&root.join(&group)).into_iter().filter(|f| f != "report") {
            let Some(ns) = mean_ns(&root.join(&group).join(&f).join("new").join("estimates.json")) else {
                continue;
            };
            match series.iter_mut().find(|(name, _)| *name == f) {
                Some((_, pts)) => pts.push((size, ns)),
                None => series.push((f, vec![(size, ns)])),
            }
        }
    }
    for (_, pts) in &mut series {
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    series.sort_by(|a, b| a.0.cmp(&b.0));
    series
}

/// A log-log line chart of time (ms) against size, one coloured line per function; parry's
/// lines dashed.
fn size_svg(prefix: &str, series: &[(String, Vec<(f64, f64)>)]) -> String {
    let (w, h, left, top, plot_w, plot_h) = (820.0, 480.0, 70.0, 40.0, 520.0, 380.0);
    let all = series.iter().flat_map(|(_, p)| p.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in all {
        x0 = x0.min(x.log10());
        x1 = x1.max(x.log10());
        y0 = y0.min((y / 1e6).log10());
        y1 = y1.max((y / 1e6).log10());
    }
    let (x0, x1) = (x0.floor(), x1.ceil().max(x0.floor() + 1.0));
    let (y0, y1) = (y0.floor(), y1.ceil().max(y0.floor() + 1.0));
    let px = |x: f64| left + plot_w * (x.log10() - x0) / (x1 - x0);
    let py = |ns: f64| top + plot_h * (1.0 - ((ns / 1e6).log10() - y0) / (y1 - y0));
    let mut out = format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n");
    out += &format!("<text x=\"10\" y=\"20\" font-size=\"14\">{prefix}*: time (ms) against problem size, log-log</text>\n");
    out += &format!("<rect x=\"{left}\" y=\"{top}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"none\" stroke=\"#888\"/>\n");
    for e in (x0 as i32)..=(x1 as i32) {
        let x = px(10f64.powi(e));
        out += &format!("<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{}\" stroke=\"#ddd\"/><text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">1e{e}</text>\n", top + plot_h, top + plot_h + 16.0);
    }
    for e in (y0 as i32)..=(y1 as i32) {
        let y = py(10f64.powi(e) * 1e6);
        out += &format!("<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{}\" y2=\"{y:.1}\" stroke=\"#ddd\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">1e{e} ms</text>\n", left + plot_w, left - 6.0, y + 4.0);
    }
    let colours = [
        "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
        "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39",
    ];
    for (i, (name, pts)) in series.iter().enumerate() {
        let c = colours[i % colours.len()];
        let dash = if name.starts_with("parry") { " stroke-dasharray=\"6 3\"" } else { "" };
        let path: Vec<String> = pts.iter().map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y))).collect();
        out += &format!(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\"{dash}/>\n",
            path.join(" ")
        );
        for &(x, y) in pts {
            out += &format!("<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{c}\"/>\n", px(x), py(y));
        }
        let ly = top + 14.0 + 18.0 * i as f64;
        out += &format!("<line x1=\"{}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{c}\" stroke-width=\"2\"{dash}/><text x=\"{}\" y=\"{}\">{name}</text>\n", left + plot_w + 15.0, left + plot_w + 40.0, left + plot_w + 46.0, ly + 4.0);
    }
    out + "</svg>\n"
}
