//! `raybox cast`: rays from a file against a mesh, hits to a file.

use std::path::PathBuf;

use clap::Args;

use crate::GlobalArgs;
use crate::error::CliError;
use crate::output::Report;

/// Arguments of `raybox cast`.
#[derive(Args, Debug)]
pub struct CastArgs {
    /// The mesh to render (OBJ, PLY, STL, glTF); the embedded Stanford bunny if omitted.
    pub mesh: Option<PathBuf>,
    /// Where to write the PNG.
    #[arg(short, long, default_value = "raybox.png")]
    pub output: PathBuf,
}

/// Runs `raybox cast`.
pub fn run(_args: &CastArgs, _global: GlobalArgs) -> Result<Report, CliError> {
    Err(CliError::new("cast needs raybox's mesh API, which this build does not have yet"))
}
