//! replay (seed 004; reference ../shared/docs/replay.md): a language for
//! strategies in repeated games, and its front end.
//!
//! The pipeline: [`parse`] the text, read the `/*@rgw … */` directives,
//! [`check`] names and types, [`eval`]uate the program once, [`instance::select`] the game, rounds and
//! fixed seats; then either play the [`Instance`] with the [`native`]
//! model or [`lower`] it to RG. The two consumers share only the instance.

pub mod ast;
pub mod check;
pub mod eval;
pub mod instance;
pub mod lexer;
pub mod lower;
pub mod native;
pub mod parse;
pub mod ratio;
pub mod value;

pub use instance::{Instance, Options};
pub use lower::Translation;
pub use native::Native;

use rg_core::diag::{Diagnostic, Span};

/// Stack for the evaluator: recursion in replay programs (up to the call
/// depth guard) recurses in the evaluator.
const EVAL_STACK: usize = 256 * 1024 * 1024;

/// An evaluated and selected program.
pub struct Loaded {
    pub instance: Instance,
    /// Text printed by `print`/`println` during evaluation.
    pub output: String,
    pub warnings: Vec<Diagnostic>,
}

/// Parses, evaluates and selects; `options` (the command line) override
/// the file's directives.
pub fn load(source: &str, options: &Options) -> Result<Loaded, Vec<Diagnostic>> {
    let parsed = parse::parse(source)?;
    check::check(&parsed.program, source)?;
    let from_file = Options::from_directives(&parsed.directives)?;
    let options = options.over(&from_file);
    let at = parsed
        .directives
        .first()
        .map_or(Span::new(0, 0), |d| d.span);
    let run = || -> Result<Loaded, Vec<Diagnostic>> {
        let globals = eval::evaluate(
            &parsed.program,
            source,
            options.seed.unwrap_or(0),
            options.stop_at_simulation,
        )?;
        let mut warnings = globals.warnings.clone();
        match instance::select(&globals, &options, at, &mut warnings) {
            Ok(instance) => Ok(Loaded {
                instance,
                output: globals.output.clone(),
                warnings,
            }),
            Err(mut errors) => {
                warnings.append(&mut errors);
                Err(warnings)
            }
        }
    };
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .stack_size(EVAL_STACK)
            .spawn_scoped(scope, run)
        {
            Ok(handle) => handle.join().unwrap_or_else(|_| {
                Err(vec![Diagnostic::error(
                    "internal error: the evaluator panicked",
                    None,
                )])
            }),
            // No thread available: evaluate here.
            Err(_) => run(),
        }
    })
}

/// Loads and lowers to a checked RG game; the warnings of both steps are
/// in the translation.
pub fn translate(
    source: &str,
    options: &Options,
) -> Result<(Loaded, Translation), Vec<Diagnostic>> {
    let loaded = load(source, options)?;
    let mut translation = lower::lower(&loaded.instance)?;
    let mut warnings = loaded.warnings.clone();
    warnings.append(&mut translation.warnings);
    translation.warnings = warnings;
    Ok((loaded, translation))
}
