//! One module per subcommand.

mod check;
mod fmt;

use std::process::ExitCode;

use crate::cli::{Cli, Command};
use crate::source::CliError;

pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Command::Check { file } => check::run(&file),
        Command::Fmt { file, check } => fmt::run(&file, check),
    }
}
