//! One module per subcommand.

mod check;
mod fmt;
mod models;
mod moves;
mod perft;
mod play;
mod translate;

use std::process::ExitCode;

use crate::cli::{Cli, Command};
use crate::source::CliError;

pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Command::Check { file } => check::run(&file),
        Command::Fmt { file, check } => fmt::run(&file, check),
        Command::Translate { file, output } => translate::run(&file, output.as_deref()),
        Command::Moves { file, model } => moves::run(&file, &model),
        Command::Perft {
            file,
            depth,
            model,
            json,
            time_limit,
        } => perft::run(&file, depth, &model, json, time_limit),
        Command::Play {
            file,
            playouts,
            seed,
            json,
            log,
            model,
        } => play::run(&file, playouts, seed, json, log, &model),
    }
}
