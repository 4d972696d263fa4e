//! `rgw perft FILE DEPTH`: perft at every depth, with times.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use rg_core::model::{perft_series, Budget, ForwardModel, LimitError};

use super::models::{with_model, ModelTask};
use crate::cli::ModelArgs;
use crate::source::{CliError, Source};

pub fn run(
    path: &Path,
    depth: u32,
    args: &ModelArgs,
    json: bool,
    time_limit: Option<f64>,
) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    let budget = match time_limit {
        Some(secs) if secs.is_finite() && secs > 0.0 => {
            Budget::with_time_limit(Duration::from_secs_f64(secs))
        }
        Some(secs) => {
            return Err(CliError::Usage(format!(
                "--time-limit must be a positive number of seconds, not {secs}"
            )))
        }
        None => Budget::unlimited(),
    };
    let (results, stopped) = with_model(&source, args, Series { depth, budget })?;
    if json {
        let object = serde_json::json!({
            "file": source.name(),
            "perft": results.iter().map(|(c, _)| c).collect::<Vec<_>>(),
            "seconds": results.iter().map(|(_, t)| t.as_secs_f64()).collect::<Vec<_>>(),
        });
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

struct Series {
    depth: u32,
    budget: Budget,
}

impl ModelTask for Series {
    type Output = (Vec<(u64, Duration)>, Option<LimitError>);

    fn run<M: ForwardModel>(mut self, model: &M, _: &str) -> Result<Self::Output, CliError> {
        Ok(perft_series(model, self.depth, &mut self.budget))
    }
}
