//! The `bspc` command line: raw clap flags.
//!
//! Takes argv, gives [`Args`]. Usage errors exit 2 (clap's code), help and version exit 0.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// The planeshift map compiler.
#[derive(Debug, Parser)]
#[command(
    name = "bspc",
    version,
    about = "planeshift map compiler: read, check and compile Quake-family .map files"
)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read a .map file and build its brushes; report counts and diagnostics.
    Check {
        /// The .map file.
        map: PathBuf,
        /// Print exactly one JSON object instead of a human summary.
        #[arg(long)]
        json: bool,
    },
    /// Compile a .map file into a collision world (.pbsp).
    Compile {
        /// The .map file.
        map: PathBuf,
        /// Where to write the compiled world (default: the input with extension .pbsp).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Print exactly one JSON object of statistics instead of a human report.
        #[arg(long)]
        json: bool,
    },
    /// Print the statistics of a compiled world.
    Info {
        /// The .pbsp file.
        file: PathBuf,
        /// Print exactly one JSON object instead of a human report.
        #[arg(long)]
        json: bool,
    },
}
