//! One module per subcommand.

mod bench;
mod check;
mod convert;
mod fmt;
mod models;
mod moves;
mod optimize;
mod parallel_perft;
mod perft;
mod play;
mod stats;
mod translate;
pub mod verify;

use std::process::ExitCode;

use crate::cli::{Cli, Command};
use crate::source::CliError;

pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Command::Check { file } => check::run(&file),
        Command::Fmt { file, check } => fmt::run(&file, check),
        Command::Translate {
            file,
            output,
            optimize,
            trace,
        } => translate::run(&file, output.as_deref(), &optimize, trace.as_deref()),
        Command::Stats {
            file,
            optimize,
            json,
        } => stats::run(&file, &optimize, json),
        Command::Dot {
            file,
            output,
            svg,
            optimize,
        } => stats::dot(&file, output.as_deref(), svg, &optimize),
        Command::Passes => optimize::list(),
        Command::Bench(args) => bench::run(&args),
        Command::Convert {
            dir,
            output,
            verify_depth,
            time_limit,
            jobs,
            against,
            bless,
            model,
        } => {
            if !(time_limit.is_finite() && time_limit > 0.0) {
                return Err(CliError::Usage(format!(
                    "--time-limit must be a positive number of seconds, not {time_limit}"
                )));
            }
            let jobs =
                jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            convert::run(convert::ConvertOptions {
                dir,
                out: output,
                verify_depth,
                time_limit: std::time::Duration::from_secs_f64(time_limit),
                jobs,
                against,
                bless,
                model,
            })
        }
        Command::Moves { file, model } => moves::run(&file, &model),
        Command::Perft {
            file,
            depth,
            model,
            json,
            time_limit,
            joint,
            threads,
        } => perft::run(&file, depth, &model, json, time_limit, joint, threads),
        Command::Verify {
            file,
            depth,
            time_limit,
            model,
        } => verify::run(&file, depth, time_limit, &model),
        Command::Preprocess { file } => translate::preprocess(&file),
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
