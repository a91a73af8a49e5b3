//! One file per subcommand: its arguments (clap derive) and its `run`.

pub mod cast;
pub mod draw;
pub mod info;
pub mod render;
