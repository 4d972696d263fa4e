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

/// Which model `--via` selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// The language's own semantics (RBG interpreter, GDL reasoner; RG and
    /// HRG have only the RG engine).
    Native,
    Rg,
    Propnet,
    /// The RG translation compiled to Rust (`pipeline::compiled`).
    Compiled,
}

pub fn via(source: &Source, args: &ModelArgs) -> Result<Via, CliError> {
    let via = match args.via.as_deref() {
        None | Some("native") => Via::Native,
        Some("rg") => Via::Rg,
        Some("compiled") => Via::Compiled,
        Some("propnet") if source.language == Language::Gdl => Via::Propnet,
        Some(other) => {
            let options = match source.language {
                Language::Gdl => "native, propnet, rg or compiled",
                Language::Rbg | Language::Hrg | Language::RbgDraft | Language::Replay => {
                    "native, rg or compiled"
                }
                Language::Rg => "rg or compiled",
            };
            return Err(CliError::Usage(format!(
                "--via {other} is not available for .{} files (choose {options})",
                source.language.name()
            )));
        }
    };
    Ok(via)
}

/// Whether the chosen model is the RG engine (an `.rg` file, or `--via rg`).
fn runs_on_engine(source: &Source, args: &ModelArgs) -> Result<bool, CliError> {
    Ok(source.language == Language::Rg || matches!(via(source, args)?, Via::Rg | Via::Compiled))
}

/// Refuses options that do not apply to the model chosen for the file
/// (docs/cli.md: such an option is a usage error, not silently ignored).
pub fn check_model_options(source: &Source, args: &ModelArgs) -> Result<(), CliError> {
    let engine = runs_on_engine(source, args)?;
    let model = match (source.language, via(source, args)?) {
        (Language::Rbg, Via::Native) => "the RBG interpreter",
        (Language::Gdl, Via::Native) => "the GDL reasoner",
        (Language::Gdl, Via::Propnet) => "the GDL propnet",
        (Language::Hrg, Via::Native) => "the HRG interpreter",
        (Language::RbgDraft, Via::Native) => "the draft RBG interpreter",
        (Language::Replay, Via::Native) => "the replay native model",
        _ => "the RG engine",
    };
    let engine_only = [
        ("--optimize", args.optimize.optimize),
        ("--passes", args.optimize.passes.is_some()),
        ("--expose-keeper", args.expose_keeper),
        ("--first-keeper-walk", args.first_keeper_walk),
    ];
    for (option, given) in engine_only {
        if given && !engine {
            return Err(not_for(option, model, source));
        }
    }
    if args.lenient && !(engine || source.language == Language::Hrg) {
        return Err(not_for("--lenient", model, source));
    }
    if let Some(option) = args.grounding.given() {
        let grounds = source.language == Language::Gdl && via(source, args)? != Via::Native;
        if !grounds {
            return Err(CliError::Usage(format!(
                "{option} does not apply to {model}, which runs {} here without grounding; it \
                 applies to GDL files run through --via rg or --via propnet, and to verify, \
                 translate and convert",
                source.name()
            )));
        }
    }
    Ok(())
}

fn not_for(option: &str, model: &str, source: &Source) -> CliError {
    CliError::Usage(format!(
        "{option} does not apply to {model}, which runs {} here; it applies to the RG engine \
         (add --via rg to run the RG translation)",
        source.name()
    ))
}

/// Builds the model selected by the file's language and `--via`, then runs
/// `task` on it.
pub fn with_model<T: ModelTask>(
    source: &Source,
    args: &ModelArgs,
    task: T,
) -> Result<T::Output, CliError> {
    check_model_options(source, args)?;
    match (source.language, via(source, args)?) {
        (_, Via::Compiled) => Err(CliError::Usage(
            "--via compiled is available for rgw perft, play and verify (and rgw compile writes the crate); \
             this command does not run compiled reasoners yet"
                .into(),
        )),
        (Language::Rg, _) => task.run(&rg_engine(source, args)?, "RG engine"),
        (_, Via::Rg) => task.run(&rg_engine(source, args)?, "RG engine (translated)"),
        (Language::Rbg, _) => task.run(&rbg_interpreter(source)?, "RBG interpreter"),
        (Language::Hrg, _) => task.run(&hrg_interpreter(source, args)?, "HRG interpreter"),
        (Language::RbgDraft, _) => {
            task.run(&rbg_draft_interpreter(source)?, "draft RBG interpreter")
        }
        (Language::Replay, _) => task.run(&replay_native(source)?, "replay native model"),
        (Language::Gdl, Via::Propnet) => task.run(&propnet_model(source)?, "GDL propnet"),
        (Language::Gdl, _) => task.run(&gdl_reasoner(source)?, "GDL reasoner"),
    }
}

/// The RG engine running the file's RG game (translated, and optimized when
/// asked).
pub fn rg_engine(source: &Source, args: &ModelArgs) -> Result<Engine, CliError> {
    let game = super::translation::to_rg(source)?.game;
    let game = super::optimizing::apply(game, &args.optimize)?;
    engine_for(source, &game, args)
}

pub fn engine_for(source: &Source, game: &Game, args: &ModelArgs) -> Result<Engine, CliError> {
    Engine::new(game, engine_options(source.language, args)).map_err(|d| source.invalid(&d))
}

/// Engine options from the command line; games translated from RBG apply
/// the first keeper walk found, as RBG itself does (rbg.md §3.5).
pub fn engine_options(language: Language, args: &ModelArgs) -> EngineOptions {
    EngineOptions {
        expose_keeper: args.expose_keeper,
        lenient: args.lenient,
        first_keeper_walk: args.first_keeper_walk || language == Language::Rbg,
        ..EngineOptions::default()
    }
}

pub fn rbg_interpreter(source: &Source) -> Result<rbg::Interpreter, CliError> {
    let game = rbg::parse_and_check(&source.text).map_err(|d| source.invalid(&d))?;
    rbg::Interpreter::new(&game).map_err(|d| source.invalid(&[d]))
}

/// The native model of a draft RBG file.
pub fn rbg_draft_interpreter(source: &Source) -> Result<rbg_draft::Interpreter, CliError> {
    let checked = rbg_draft::parse_and_check(&source.text).map_err(|d| source.invalid(&d))?;
    Ok(rbg_draft::Interpreter::new(&checked.game))
}

/// The native HRG model; `--lenient` applies to it as to the engine.
pub fn hrg_interpreter(source: &Source, args: &ModelArgs) -> Result<hrg::Interpreter, CliError> {
    let options = hrg::interpreter::InterpreterOptions {
        lenient: args.lenient,
        ..hrg::interpreter::InterpreterOptions::default()
    };
    hrg::Interpreter::with_options(&source.text, options).map_err(|d| source.invalid(&d))
}

/// The native model of a replay file's repeated game (its directives and
/// the command line's replay options select it).
pub fn replay_native(source: &Source) -> Result<replay::Native, CliError> {
    let options = super::translation::replay_options();
    let loaded = replay::load(&source.text, &options).map_err(|d| source.invalid(&d))?;
    replay::Native::new(&loaded.instance).map_err(|d| source.invalid(&[d]))
}

pub fn gdl_game(source: &Source) -> Result<gdl::Game, CliError> {
    gdl::load(&source.text).map_err(|d| source.invalid(&d))
}

pub fn gdl_reasoner(source: &Source) -> Result<gdl::Prover, CliError> {
    let game = gdl_game(source)?;
    gdl::Prover::new(&game.description).map_err(|e| runtime_error(source, e))
}

pub fn propnet_model(source: &Source) -> Result<propnet::PropnetModel, CliError> {
    let game = gdl_game(source)?;
    propnet::PropnetModel::new(
        &gdl::to_datalog(&game),
        &super::translation::grounding_limits(),
    )
    .map_err(|e| CliError::Failed(format!("error: {}: {e}", source.name())))
}

/// A model failure at run time, as a command error.
pub fn runtime_error(source: &Source, error: impl std::fmt::Display) -> CliError {
    CliError::Failed(format!("error: {}: {error}", source.name()))
}

/// The RG perft of a translation alone, up to `depth` within `budget` (for
/// languages without a native model).
pub fn translation_perft(
    source: &Source,
    game: &Game,
    depth: u32,
    budget: &mut Budget,
    args: &ModelArgs,
) -> Result<(Vec<u64>, Option<String>), String> {
    let engine = Engine::new(game, engine_options(source.language, args))
        .map_err(|d| d[0].message.clone())?;
    let (series, stopped) = rg_core::model::perft_series(&engine, depth, budget);
    let counts = series.into_iter().map(|(c, _)| c).collect();
    match stopped {
        None => Ok((counts, None)),
        Some(rg_core::model::LimitError::Model(e)) => Err(e.message),
        Some(limit) => Ok((counts, Some(limit.to_string()))),
    }
}
