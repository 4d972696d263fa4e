//! `rgw translate FILE [-o OUT]`: any supported language to checked RG.

use std::path::Path;
use std::process::ExitCode;

use crate::cli::OptimizeArgs;
use crate::pipeline::optimizing;
use crate::pipeline::translation::to_rg;
use crate::source::{CliError, Source};

pub fn run(
    path: &Path,
    output: Option<&Path>,
    optimize: &OptimizeArgs,
    trace: Option<&Path>,
) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    let translated = to_rg(&source)?;
    if !translated.warnings.is_empty() {
        eprintln!("{}", source.render(&translated.warnings));
    }
    let game = match trace {
        Some(dir) => {
            let game = optimizing::apply_traced(&translated.game, optimize, dir)?;
            eprintln!(
                "{}: optimization trace written to {}",
                source.name(),
                dir.display()
            );
            game
        }
        None => optimizing::apply(translated.game, optimize)?,
    };
    let text = rg_core::print::print_game(&game);
    match output {
        Some(out) => {
            std::fs::write(out, text).map_err(|e| {
                CliError::Failed(format!("error: cannot write {}: {e}", out.display()))
            })?;
            eprintln!("{}: translated to {}", source.name(), out.display());
        }
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
