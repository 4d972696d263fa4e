//! Choosing and building the model that runs a game, per language and
//! `--via`, and running generic code over it.
//!
//! Commands are written once, generically over `ForwardModel`; a
//! [`ModelTask`] is handed to [`with_model`], which builds the model the
//! user asked for and runs the task on it.

use rg_core::ast::Game;
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{Budget, ForwardModel};

use crate::cli::ModelArgs;
use crate::source::{CliError, Language, Source};

/// Generic work over a model.
pub trait ModelTask {
    type Output;
    fn run<M: ForwardModel>(self, model: &M, description: &str) -> Result<Self::Output, CliError>;
}

/// Builds the model selected by the file's language and `--via`, then runs
/// `task` on it.
pub fn with_model<T: ModelTask>(
    source: &Source,
    args: &ModelArgs,
    task: T,
) -> Result<T::Output, CliError> {
    let via = args.via.as_deref();
    match (source.language, via) {
        (Language::Rg, None | Some("rg")) => {
            let engine = rg_engine(source, args)?;
            task.run(&engine, "RG engine")
        }
        // HRG has no native semantics: its games run through the translation.
        (Language::Hrg, None | Some("rg")) => {
            let game = super::translate::to_rg(source)?.game;
            let engine =
                Engine::new(&game, engine_options(args)).map_err(|d| source.invalid(&d))?;
            task.run(&engine, "RG engine (translated)")
        }
        (language, Some(other)) => Err(CliError::Usage(format!(
            "--via {other} is not available for .{} files",
            language.name()
        ))),
        (language, None) => Err(CliError::Usage(format!(
            "running .{} files is not supported yet",
            language.name()
        ))),
    }
}

/// The RG engine running the file's RG game (translated, and optimized when
/// asked).
pub fn rg_engine(source: &Source, args: &ModelArgs) -> Result<Engine, CliError> {
    let game = super::translate::to_rg(source)?.game;
    let game = super::optimize::apply(game, &args.optimize)?;
    Engine::new(&game, engine_options(args)).map_err(|d| source.invalid(&d))
}

pub fn engine_options(args: &ModelArgs) -> EngineOptions {
    EngineOptions {
        expose_keeper: args.expose_keeper,
        lenient: args.lenient,
        ..EngineOptions::default()
    }
}

/// A model failure at run time, as a command error.
pub fn runtime_error(source: &Source, error: impl std::fmt::Display) -> CliError {
    CliError::Failed(format!("error: {}: {error}", source.name()))
}

/// The RG perft of a translation alone, up to `depth` within `budget` (for
/// languages without a native model).
pub fn translation_perft(
    game: &Game,
    depth: u32,
    budget: &mut Budget,
    args: &ModelArgs,
) -> Result<(Vec<u64>, Option<String>), String> {
    let engine = Engine::new(game, engine_options(args)).map_err(|d| d[0].message.clone())?;
    let (series, stopped) = rg_core::model::perft_series(&engine, depth, budget);
    let counts = series.into_iter().map(|(c, _)| c).collect();
    match stopped {
        None => Ok((counts, None)),
        Some(rg_core::model::LimitError::Model(e)) => Err(e.message),
        Some(limit) => Ok((counts, Some(limit.to_string()))),
    }
}
