//! `collide`: the cd collision library on the command line. See `collide --help` and the
//! library documentation of `cd_cli` for each subcommand's contract.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cd_cli::{bounds, demo, mesh_io, pairs, query, read_input, render, strategy, CliError};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "collide",
    version,
    about = "Collision detection on the command line: a demo world, mesh pictures and bounds, JSON queries and broad-phase pairs.",
    long_about = None
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the embedded scene (bodies falling into a dish with two bunnies) through the cd
    /// world and print per-stage timings, pair counts and contacts.
    Demo {
        /// Dynamic bodies (spheres, boxes, capsules, hulls, bunny hulls).
        #[arg(long, default_value_t = 300)]
        bodies: usize,
        /// Steps of 1/60 s.
        #[arg(long, default_value_t = 300)]
        steps: usize,
        /// Broad phase: brute, sap, sort-sweep, grid, hash, hgrid, octree, tree or coherent-grid.
        #[arg(long, default_value = "sap", value_parser = clap::builder::PossibleValuesParser::new(strategy::NAMES))]
        broad: String,
        /// Write a ray-cast picture (PNG, 640×480) of the final state.
        #[arg(long, value_name = "FILE.png")]
        out: Option<PathBuf>,
        /// Print the report as JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Ray-cast a picture of a mesh (OBJ, STL or PLY) through its hierarchy; print rays per
    /// second.
    Render {
        /// The mesh file.
        mesh: PathBuf,
        /// The PNG to write.
        #[arg(long, value_name = "FILE.png")]
        out: PathBuf,
        /// Width in pixels.
        #[arg(long, default_value_t = 640)]
        width: u32,
        /// Height in pixels.
        #[arg(long, default_value_t = 480)]
        height: u32,
        /// Direction from the mesh's centre towards the camera, as x,y,z.
        #[arg(long, default_value = "1,0.6,1.4", allow_hyphen_values = true)]
        view: String,
    },
    /// Print every bounding volume cd-bv builds for a mesh (AABB, spheres, OBBs, k-DOPs, hull).
    Bounds {
        /// The mesh file (OBJ, STL or PLY).
        mesh: PathBuf,
        /// Print exactly the documented JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Answer a JSON document of queries (intersects, distance, contact, ray, toi) with a JSON
    /// document of results.
    Query {
        /// The document; `-` or nothing reads standard input.
        file: Option<PathBuf>,
    },
    /// Feed boxes over frames to a broad phase and print each frame's pairs, added and removed.
    Pairs {
        /// Broad phase: brute, sap, sort-sweep, grid, hash, hgrid, octree, tree or coherent-grid.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(strategy::NAMES))]
        broad: String,
        /// The document; `-` or nothing reads standard input.
        file: Option<PathBuf>,
    },
}

/// Prints a JSON value on stdout.
fn print_json(value: &serde_json::Value) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, value)
        .map_err(|e| CliError::Run(format!("cannot write the output: {e}")))?;
    writeln!(out).map_err(|e| CliError::Run(format!("cannot write the output: {e}")))
}

/// The folder relative paths in a document start from.
fn document_folder(file: Option<&Path>) -> PathBuf {
    match file {
        Some(p) if p.as_os_str() != "-" => p.parent().map(Path::to_path_buf).unwrap_or_default(),
        _ => PathBuf::from("."),
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Demo { bodies, steps, broad, out, json } => {
            let report = demo::demo(bodies, steps, &broad, out.as_deref())?;
            if json {
                print_json(&report.to_json())?;
            } else {
                print!("{}", report.to_text());
                if let Some(p) = out {
                    println!("picture written to {}", p.display());
                }
            }
        }
        Command::Render { mesh, out, width, height, view } => {
            let view = render::parse_view(&view).map_err(CliError::Input)?;
            let rendered = render::render_mesh(mesh_io::load_mesh(&mesh)?, width, height, view)?;
            rendered.image.write_png(&out)?;
            let seconds = rendered.elapsed.as_secs_f64().max(1e-9);
            println!(
                "{}×{}: {} rays ({:.1} % hit) in {:.1} ms, {:.0} rays per second; written to {}",
                width,
                height,
                rendered.rays,
                rendered.hits as f64 / rendered.rays.max(1) as f64 * 100.0,
                seconds * 1e3,
                rendered.rays as f64 / seconds,
                out.display()
            );
        }
        Command::Bounds { mesh, json } => {
            let b = bounds::Bounds::of_mesh(&mesh_io::load_mesh(&mesh)?).map_err(CliError::Run)?;
            if json {
                print_json(&b.to_json().map_err(CliError::Run)?)?;
            } else {
                print!("{}", b.to_text());
            }
        }
        Command::Query { file } => {
            let text = read_input(file.as_deref())?;
            print_json(&query::run(&text, &document_folder(file.as_deref()))?)?;
        }
        Command::Pairs { broad, file } => {
            let frames = pairs::parse(&read_input(file.as_deref())?)?;
            let mut phase = strategy::by_name(&broad).map_err(CliError::Input)?;
            print_json(&pairs::to_json(&pairs::run(&frames, phase.as_mut())?))?;
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("collide: error: {e}");
            ExitCode::from(e.exit_code() as u8)
        }
    }
}
