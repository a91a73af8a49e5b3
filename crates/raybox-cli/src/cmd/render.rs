//! `raybox render`: a mesh to a PNG, one primary ray per pixel.

use std::path::PathBuf;

use clap::Args;

use crate::GlobalArgs;
use crate::error::CliError;
use crate::output::Report;

/// Arguments of `raybox render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// The mesh to render (OBJ, PLY, STL, glTF); the embedded Stanford bunny if omitted.
    pub mesh: Option<PathBuf>,
    /// Where to write the PNG.
    #[arg(short, long, default_value = "raybox.png")]
    pub output: PathBuf,
}

/// Runs `raybox render`.
pub fn run(_args: &RenderArgs, _global: GlobalArgs) -> Result<Report, CliError> {
    Err(CliError::new("render needs raybox's mesh API, which this build does not have yet"))
}
