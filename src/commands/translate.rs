//! `rgw translate FILE [-o OUT]`: any supported language to checked RG.

use std::path::Path;
use std::process::ExitCode;

use rg_core::ast::Game;
use rg_core::diag::Diagnostic;

use crate::cli::OptimizeArgs;
use crate::source::{CliError, Language, Source};

/// A translated game and the warnings found on the way.
pub struct Translated {
    pub game: Game,
    pub warnings: Vec<Diagnostic>,
}

/// Translates a source file into a checked RG game.
pub fn to_rg(source: &Source) -> Result<Translated, CliError> {
    translate_game(source).map_err(|d| source.invalid(&d))
}

/// The translation as values: the game, or the diagnostics explaining why
/// there is none.
pub fn translate_game(source: &Source) -> Result<Translated, Vec<Diagnostic>> {
    match source.language {
        Language::Rg => {
            let game = rg_core::parse::parse_game(&source.text)?;
            let diagnostics = rg_core::check::check_game(&game);
            if rg_core::diag::has_errors(&diagnostics) {
                return Err(diagnostics);
            }
            Ok(Translated {
                game,
                warnings: diagnostics,
            })
        }
        Language::Hrg => {
            let t = hrg::translate(&source.text)?;
            Ok(Translated {
                game: t.game,
                warnings: t.warnings,
            })
        }
        Language::Gdl => {
            let t = gdl::translate(&source.text, &propnet::GroundingLimits::default())?;
            Ok(Translated {
                game: t.game,
                warnings: t.warnings,
            })
        }
        Language::Rbg => {
            let t = rbg::translate(&source.text)?;
            Ok(Translated {
                game: t.game,
                warnings: t.warnings,
            })
        }
    }
}

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
            let game = super::optimize::apply_traced(translated.game, optimize, dir)?;
            eprintln!(
                "{}: optimization trace written to {}",
                source.name(),
                dir.display()
            );
            game
        }
        None => super::optimize::apply(translated.game, optimize)?,
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

/// `rgw preprocess FILE`: the low-level RBG of a high-level file.
pub fn preprocess(path: &Path) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    if source.language != Language::Rbg {
        return Err(CliError::Usage(format!(
            "rgw preprocess expands RBG files; {} is a .{} file",
            source.name(),
            source.language.name()
        )));
    }
    let preprocessed = rbg::preprocess(&source.text).map_err(|d| source.invalid(&d))?;
    print!("{}", preprocessed.text);
    if !preprocessed.text.ends_with('\n') {
        println!();
    }
    Ok(ExitCode::SUCCESS)
}
