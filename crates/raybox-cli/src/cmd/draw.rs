//! `raybox draw`: the queries of a TOML scene, drawn as SVG.

use std::path::PathBuf;

use clap::Args;

use crate::GlobalArgs;
use crate::error::CliError;
use crate::output::Report;

/// Arguments of `raybox draw`.
#[derive(Args, Debug)]
pub struct DrawArgs {
    /// The mesh to render (OBJ, PLY, STL, glTF); the embedded Stanford bunny if omitted.
    pub mesh: Option<PathBuf>,
    /// Where to write the PNG.
    #[arg(short, long, default_value = "raybox.png")]
    pub output: PathBuf,
}

/// Runs `raybox draw`.
pub fn run(_args: &DrawArgs, _global: GlobalArgs) -> Result<Report, CliError> {
    Err(CliError::new("draw is not written yet"))
}
