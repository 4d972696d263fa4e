//! One module per subcommand; what several share lives in
//! [`crate::pipeline`].

mod bench;
mod check;
mod compile;
mod convert;
mod dot;
mod fmt;
mod moves;
mod passes;
mod perft;
mod play;
mod preprocess;
mod stats;
mod translate;
mod verify;

use std::process::ExitCode;

use crate::cli::{Cli, Command};
use crate::source::CliError;

pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    if asks_for_pass_list(&cli.command) {
        return passes::run();
    }
    configure_grounding(&cli.command)?;
    let (replay, given) = cli.replay.options().map_err(CliError::Usage)?;
    if let (Some(option), Command::Convert { .. }) = (given, &cli.command) {
        return Err(CliError::Usage(format!(
            "{option} does not apply to convert, which reads each .replay file's own \
             /*@rgw … */ directives"
        )));
    }
    crate::pipeline::translation::configure_replay(replay, given);
    crate::pipeline::translation::configure_echo(cli.replay.echo);
    match cli.command {
        Command::Check { file } => check::run(&file),
        Command::Fmt { file, check, write } => fmt::run(&file, fmt::Mode::new(check, write)),
        Command::Translate {
            file,
            output,
            optimize,
            trace,
            ..
        } => translate::run(&file, output.as_deref(), &optimize, trace.as_deref()),
        Command::Stats {
            file,
            optimize,
            json,
        } => stats::run(&file, &optimize, json),
        Command::Compile {
            file,
            output,
            passes,
            build,
        } => compile::run(&file, &output, passes, build),
        Command::Dot {
            file,
            output,
            svg,
            optimize,
        } => dot::run(&file, output.as_deref(), svg, &optimize),
        Command::Passes => passes::run(),
        Command::Bench(args) => bench::run(&args),
        Command::Convert {
            dir,
            output,
            verify_depth,
            time_limit,
            memory_limit,
            jobs,
            against,
            bless,
            expected,
            model,
        } => {
            if let Some(via) = &model.via {
                return Err(CliError::Usage(format!(
                    "--via {via} does not apply to convert, which always compares the native \
                     model with the RG translation"
                )));
            }
            let jobs = jobs.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
            });
            // Half of the machine: a cap against one game's blow-up, far
            // above what a sane game needs.
            let memory_limit_mb =
                memory_limit.or_else(|| convert::machine_memory_mb().map(|mb| (mb / 2).max(1024)));
            convert::run(&convert::ConvertOptions {
                dir,
                out: output,
                verify_depth,
                time_limit,
                jobs,
                against,
                bless,
                expected,
                model,
                memory_limit_mb,
            })
        }
        Command::ConvertOne {
            file,
            library,
            output,
            output_name,
            verify_depth,
            time_limit,
            model,
        } => convert::run_worker(convert::WorkerArgs {
            file,
            library,
            out: output,
            output_name,
            verify_depth,
            time_limit,
            model,
        }),
        Command::Moves { file, model, joint } => moves::run(&file, &model, joint),
        Command::Perft {
            file,
            depth,
            model,
            json,
            time_limit,
            joint,
            threads,
            divide,
            expected,
        } => perft::run(
            &file,
            &model,
            &perft::PerftOptions {
                depth,
                json,
                time_limit,
                joint,
                threads,
                divide,
                expected,
            },
        ),
        Command::Verify {
            file,
            depth,
            time_limit,
            against,
            expected,
            model,
        } => {
            let checks = verify::Checks {
                against: against.as_deref(),
                expected: expected.as_deref(),
            };
            verify::run(&file, depth, time_limit, &checks, &model)
        }
        Command::Preprocess { file } => preprocess::run(&file),
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

/// `--passes help` (any command that optimizes): the help text promises
/// that it lists the passes.
fn asks_for_pass_list(command: &Command) -> bool {
    let optimize = match command {
        Command::Translate { optimize, .. }
        | Command::Stats { optimize, .. }
        | Command::Dot { optimize, .. } => optimize,
        Command::Convert { model, .. }
        | Command::Moves { model, .. }
        | Command::Perft { model, .. }
        | Command::Verify { model, .. }
        | Command::Play { model, .. } => &model.optimize,
        Command::Compile { passes, .. } => {
            return passes.as_deref().map(str::trim) == Some("help");
        }
        _ => return false,
    };
    optimize.passes.as_deref().map(str::trim) == Some("help")
}

/// Sets this run's GDL grounding limits from the command's options; a
/// command's `--time-limit` bounds grounding as well. Grounding options on
/// a file that is not GDL are usage errors (models check theirs in
/// `check_model_options`).
fn configure_grounding(command: &Command) -> Result<(), CliError> {
    use crate::pipeline::translation;
    use crate::source::Language;
    let not_gdl = |file: &std::path::Path| {
        Language::from_path(file).is_some_and(|language| language != Language::Gdl)
    };
    let (grounding, time_limit) = match command {
        Command::Translate {
            file,
            grounding,
            time_limit,
            ..
        } => {
            let option = grounding.given().or(time_limit.map(|_| "--time-limit"));
            if let Some(option) = option.filter(|_| not_gdl(file)) {
                return Err(CliError::Usage(format!(
                    "{option} bounds GDL grounding; {} is not a GDL file",
                    file.display()
                )));
            }
            (grounding, *time_limit)
        }
        Command::Verify {
            file,
            model,
            time_limit,
            ..
        } => {
            if let Some(option) = model.grounding.given().filter(|_| not_gdl(file)) {
                return Err(CliError::Usage(format!(
                    "{option} bounds GDL grounding; {} is not a GDL file",
                    file.display()
                )));
            }
            (&model.grounding, *time_limit)
        }
        Command::Perft {
            model, time_limit, ..
        } => (&model.grounding, *time_limit),
        Command::Moves { model, .. }
        | Command::Play { model, .. }
        | Command::Convert { model, .. }
        | Command::ConvertOne { model, .. } => (&model.grounding, None),
        _ => return Ok(()),
    };
    translation::configure_grounding(grounding, time_limit);
    Ok(())
}
