//! # `collide` — the `cd` library on the command line
//!
//! The binary `collide` (see `src/main.rs`) is a thin argument parser over the modules here,
//! one per subcommand, so each can be tested and read on its own:
//!
//! | subcommand | module | what it does |
//! |---|---|---|
//! | `demo` | [`demo`] | runs an embedded scene through [`cd::world::World`] and reports per-stage timings |
//! | `render` | [`render`] | ray-casts a picture of a mesh through its hierarchy |
//! | `bounds` | [`bounds`] | every bounding volume cd-bv fits to a mesh, as text or JSON |
//! | `query` | [`query`] | a JSON document of geometric queries in, a JSON document of answers out |
//! | `pairs` | [`pairs`] | boxes over frames through a chosen broad phase, pairs and events out |
//!
//! Shared pieces: [`mesh_io`] loads OBJ, STL and PLY meshes; [`image`] writes PNG pictures;
//! [`json`] turns vectors into JSON arrays; [`strategy`] names the broad phases; [`progress`]
//! shows a progress bar when stderr is a terminal; [`CliError`] carries the exit code.
#![forbid(unsafe_code)]

pub mod bounds;
pub mod demo;
pub mod image;
pub mod json;
pub mod mesh_io;
pub mod pairs;
pub mod progress;
pub mod query;
pub mod render;
pub mod strategy;

use std::fmt;

/// Why a subcommand failed, and so which exit code `collide` returns.
#[derive(Debug)]
pub enum CliError {
    /// The input could not be used at all: a file that cannot be read, a document that is not
    /// the expected JSON, a mesh that does not parse. Exit code 2.
    Input(String),
    /// Something failed while running: an output file that cannot be written, a library error
    /// on valid input. Exit code 1.
    Run(String),
}

impl CliError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) => 2,
            CliError::Run(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(m) | CliError::Run(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CliError {}

/// Reads a whole input: a file, or standard input for `-` or no path.
pub fn read_input(path: Option<&std::path::Path>) -> Result<String, CliError> {
    use std::io::Read;
    match path {
        Some(p) if p.as_os_str() != "-" => std::fs::read_to_string(p)
            .map_err(|e| CliError::Input(format!("cannot read {}: {e}", p.display()))),
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| CliError::Input(format!("cannot read standard input: {e}")))?;
            Ok(text)
        }
    }
}
