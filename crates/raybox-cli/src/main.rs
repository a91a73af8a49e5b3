//! `raybox`: render a mesh, batch-cast rays from files, inspect a BVH, draw what a query does.
//!
//! Every subcommand takes `--quiet` (print nothing but errors) and `--json` (print one line
//! of JSON summing up the run). Every failure is one line on stderr naming the file and
//! what is wrong, with exit status 2; outputs are written to a temporary file beside the
//! target and renamed into place, so a failed run leaves no partial file behind (Ctrl-C
//! deletes the temporary file and exits with status 130). Data written to stdout
//! (`cast` without `-o`) is streamed instead, so a failure part-way leaves what came before.

mod cmd;
mod error;
mod mesh_file;
mod output;
mod scene;

use std::io::Write as _;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::error::CliError;
use crate::output::Report;

/// Exact ray casts and collision queries, from the command line.
#[derive(Parser, Debug)]
#[command(name = "raybox", version, about, long_about = None)]
struct Cli {
    #[command(flatten)]
    global: GlobalArgs,
    #[command(subcommand)]
    command: Command,
}

/// Options every subcommand accepts.
#[derive(Args, Debug, Clone, Copy)]
pub struct GlobalArgs {
    /// Print nothing but errors.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Print a one-line JSON summary instead of the text report.
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Render a mesh to a PNG with one primary ray per pixel, and print the speed.
    Render(cmd::render::RenderArgs),
    /// Cast rays read from a file against a mesh and write the hits.
    ///
    /// Rays, CSV: `ox,oy,oz,dx,dy,dz[,tmax]` per line (`tmax` defaults to inf; `#` comments,
    /// blank lines and a first header line are skipped). Rays, bin: 28-byte records of 7
    /// little-endian f32 (ox oy oz dx dy dz tmax).
    ///
    /// Hits, CSV: the header `t,triangle,u,v,nx,ny,nz`, then one line per ray; a miss is
    /// `,,,,,,`. Hits, bin: 28-byte records `t: f32, triangle: u32, u, v, nx, ny, nz: f32`;
    /// a miss is t = +inf, triangle = 0xFFFFFFFF, zeros. No output holds a NaN. With
    /// --occluded: `occluded` then 1 or 0 per line (CSV), or one byte per ray (bin).
    ///
    /// Hits written to a file (-o) appear whole or not at all; hits on stdout are streamed,
    /// so a failure part-way (exit status 2) leaves the hits before it on stdout.
    Cast(cmd::cast::CastArgs),
    /// Print a mesh's counts, bounds and degenerate triangles, and its BVH for each build quality.
    Info(cmd::info::InfoArgs),
    /// Run every query between the shapes and rays of a TOML scene and draw the result as SVG.
    Draw(cmd::draw::DrawArgs),
}

impl Command {
    fn name(&self) -> &'static str {
        match self {
            Self::Render(_) => "render",
            Self::Cast(_) => "cast",
            Self::Info(_) => "info",
            Self::Draw(_) => "draw",
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return usage_error(&err),
    };
    output::clean_up_on_interrupt();
    let name = cli.command.name();
    let global = cli.global;
    // `cast` without `-o` (or with `-o -`) writes its hits to stdout: its JSON error line
    // then goes to stderr, as its JSON summary does, not into the data.
    let data_on_stdout =
        matches!(&cli.command, Command::Cast(a) if a.output.as_ref().is_none_or(|p| p.as_os_str() == "-"));
    let result: Result<Report, CliError> = match cli.command {
        Command::Render(args) => cmd::render::run(&args, global),
        Command::Cast(args) => cmd::cast::run(&args, global),
        Command::Info(args) => cmd::info::run(&args, global),
        Command::Draw(args) => cmd::draw::run(&args, global),
    };
    match result {
        Ok(report) => {
            report.print(name, global);
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("raybox {name}: error: {err}");
            if global.json {
                let line = serde_json::json!({ "command": name, "ok": false, "error": err.to_string() });
                let _ = if data_on_stdout {
                    writeln!(std::io::stderr().lock(), "{line}")
                } else {
                    writeln!(std::io::stdout().lock(), "{line}")
                };
            }
            ExitCode::from(2)
        }
    }
}

/// Prints `--help` and `--version` as clap does (status 0); shortens a usage error to its
/// first line (status 2), like every other error of the command.
fn usage_error(err: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(err.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = err.print();
        return ExitCode::SUCCESS;
    }
    if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = err.print(); // `raybox` alone: the help, as a usage error
        return ExitCode::from(2);
    }
    let rendered = err.render().to_string();
    let first = rendered.lines().next().unwrap_or("invalid arguments");
    let first = first.strip_prefix("error: ").unwrap_or(first);
    eprintln!("raybox: error: {first} (try 'raybox --help')");
    ExitCode::from(2)
}
