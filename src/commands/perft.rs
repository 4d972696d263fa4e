//! `rgw perft FILE DEPTH`: perft at every depth, with times.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use rg_core::model::{perft_series, Budget, ForwardModel, LimitError};

use crate::cli::ModelArgs;
use crate::pipeline::models::{with_model, ModelTask};
use crate::pipeline::parallel_perft::perft_series_parallel;
use crate::source::{CliError, Source};

pub fn run(
    path: &Path,
    depth: u32,
    args: &ModelArgs,
    json: bool,
    time_limit: Option<Duration>,
    joint: bool,
    threads: Option<usize>,
) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    let budget = time_limit.map_or_else(Budget::unlimited, Budget::with_time_limit);
    let (results, stopped) = if joint {
        joint_series(&source, args, depth, budget)?
    } else {
        let threads = match threads {
            Some(0) => return Err(CliError::Usage("--threads must be at least 1".into())),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        };
        let task = Series {
            depth,
            budget,
            threads,
            source: &source,
            args,
        };
        with_model(&source, args, task)?
    };
    if json {
        let mut object = serde_json::json!({
            "file": source.name(),
            "perft": results.iter().map(|(c, _)| c).collect::<Vec<_>>(),
            "seconds": results.iter().map(|(_, t)| t.as_secs_f64()).collect::<Vec<_>>(),
            // A run cut short says so: the counts cover fewer depths.
            "complete": stopped.is_none(),
        });
        if let Some(reason) = &stopped {
            // The limit the user set (worker threads' budgets only know
            // the deadline, and measure what was left of it).
            let reason = match (reason, time_limit) {
                (LimitError::Time(_), Some(limit)) => LimitError::Time(limit).to_string(),
                _ => reason.to_string(),
            };
            object["stopped"] = serde_json::json!(reason);
        }
        println!("{object}");
    } else {
        for (d, (count, time)) in results.iter().enumerate() {
            println!("depth {d}: {count} ({:.3} s)", time.as_secs_f64());
        }
    }
    match stopped {
        None => Ok(ExitCode::SUCCESS),
        Some(LimitError::Time(_)) => {
            eprintln!(
                "{}: stopped by the time limit during depth {}",
                source.name(),
                results.len()
            );
            Ok(ExitCode::from(1))
        }
        Some(error) => Err(CliError::Failed(format!(
            "error: {}: perft failed at depth {}: {error}",
            source.name(),
            results.len()
        ))),
    }
}

/// Counts and times of the completed depths, and why it stopped early.
type PerftSeries = (Vec<(u64, Duration)>, Option<LimitError>);

struct Series<'a> {
    depth: u32,
    budget: Budget,
    threads: usize,
    /// What helper threads build their own models from.
    source: &'a Source,
    args: &'a ModelArgs,
}

impl ModelTask for Series<'_> {
    type Output = PerftSeries;

    fn run<M: ForwardModel>(mut self, model: &M, _: &str) -> Result<Self::Output, CliError> {
        if self.threads > 1 {
            return Ok(perft_series_parallel(
                model,
                self.source,
                self.args,
                self.depth,
                self.threads,
                &mut self.budget,
            ));
        }
        Ok(perft_series(model, self.depth, &mut self.budget))
    }
}

/// GDL joint-move perft at every depth (`--joint`).
fn joint_series(
    source: &Source,
    args: &ModelArgs,
    depth: u32,
    mut budget: Budget,
) -> Result<PerftSeries, CliError> {
    use crate::pipeline::models::{check_model_options, gdl_reasoner, propnet_model, via, Via};
    use crate::source::Language;
    check_model_options(source, args)?;
    if source.language != Language::Gdl {
        return Err(CliError::Usage(
            "--joint applies to GDL (.kif, .gdl) files only".into(),
        ));
    }
    let mut results = Vec::new();
    let which = via(source, args)?;
    if which == Via::Rg {
        return Err(CliError::Usage(
            "--joint counts GDL joint moves: use the native or propnet model".into(),
        ));
    }
    let reasoner = if which == Via::Native {
        Some(gdl_reasoner(source)?)
    } else {
        None
    };
    let propnet = if which == Via::Propnet {
        Some(propnet_model(source)?)
    } else {
        None
    };
    for d in 0..=depth {
        let start = std::time::Instant::now();
        let count = match (&reasoner, &propnet) {
            (Some(r), _) => rg_core::joint::joint_perft(r, d, &mut budget),
            (_, Some(p)) => rg_core::joint::joint_perft(p, d, &mut budget),
            _ => unreachable!("one model is built"),
        };
        match count {
            Ok(c) => results.push((c, start.elapsed())),
            Err(e) => return Ok((results, Some(e))),
        }
    }
    Ok((results, None))
}
