//! `quarry-server`: parses the command line and runs the server library.

use clap::Parser;

fn main() -> std::process::ExitCode {
    quarry_server::run(quarry_server::cli::Cli::parse())
}
