//! `raybox info`: what a mesh holds, and its BVH for each build quality.

use std::path::PathBuf;

use clap::Args;

use crate::GlobalArgs;
use crate::error::CliError;
use crate::output::Report;

/// Arguments of `raybox info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The mesh to render (OBJ, PLY, STL, glTF); the embedded Stanford bunny if omitted.
    pub mesh: Option<PathBuf>,
    /// Where to write the PNG.
    #[arg(short, long, default_value = "raybox.png")]
    pub output: PathBuf,
}

/// Runs `raybox info`.
pub fn run(_args: &InfoArgs, _global: GlobalArgs) -> Result<Report, CliError> {
    Err(CliError::new("info needs raybox's mesh API, which this build does not have yet"))
}
