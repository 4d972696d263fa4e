//! `rgw moves FILE`: the legal moves of the initial state, one per line.

use std::path::Path;
use std::process::ExitCode;

use rg_core::model::{list_moves, ForwardModel};

use crate::cli::ModelArgs;
use crate::pipeline::models::{runtime_error, with_model, ModelTask};
use crate::source::{CliError, Source};

pub fn run(path: &Path, args: &ModelArgs) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    let moves = with_model(&source, args, ListMoves { source: &source })?;
    for m in moves {
        println!("{m}");
    }
    Ok(ExitCode::SUCCESS)
}

struct ListMoves<'a> {
    source: &'a Source,
}

impl ModelTask for ListMoves<'_> {
    type Output = Vec<String>;

    fn run<M: ForwardModel>(self, model: &M, _: &str) -> Result<Vec<String>, CliError> {
        let initial = model.initial().map_err(|e| runtime_error(self.source, e))?;
        list_moves(model, &initial).map_err(|e| runtime_error(self.source, e))
    }
}
