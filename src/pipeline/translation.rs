//! Any supported language to checked RG: the first step of every command
//! that runs or prints a game.

use std::sync::OnceLock;
use std::time::Duration;

use rg_core::ast::Game;
use rg_core::diag::Diagnostic;

use crate::cli::GroundingArgs;
use crate::source::{CliError, Language, Source};

/// The grounding limits of this run, set once from the command line.
static GROUNDING: OnceLock<propnet::GroundingLimits> = OnceLock::new();

/// Sets the GDL grounding limits of this run from `--grounding-atoms`,
/// `--grounding-rules` and the command's `--time-limit` (which bounds
/// grounding too). Later calls change nothing.
pub fn configure_grounding(args: &GroundingArgs, time_limit: Option<Duration>) {
    let mut limits = propnet::GroundingLimits::default();
    if let Some(atoms) = args.grounding_atoms {
        limits.max_atoms = usize::try_from(atoms).unwrap_or(usize::MAX);
    }
    if let Some(rules) = args.grounding_rules {
        limits.max_rules = usize::try_from(rules).unwrap_or(usize::MAX);
    }
    if let Some(limit) = time_limit {
        limits.max_time = Some(limit);
    }
    let _ = GROUNDING.set(limits);
}

/// The grounding limits of this run (the defaults unless configured).
pub fn grounding_limits() -> propnet::GroundingLimits {
    GROUNDING.get().cloned().unwrap_or_default()
}

/// The replay options of this run (docs/replay.md), set once from the
/// command line; a file's own `/*@rgw … */` directives fill in the rest.
static REPLAY: OnceLock<(replay::Options, Option<&'static str>)> = OnceLock::new();

/// `--echo`: show what a replay program printed.
static ECHO: OnceLock<bool> = OnceLock::new();

pub fn configure_echo(echo: bool) {
    let _ = ECHO.set(echo);
}

pub fn echo() -> bool {
    ECHO.get().copied().unwrap_or(false)
}

/// Sets the replay options of this run; `given` names the first replay
/// option on the command line (for the usage error on other languages).
pub fn configure_replay(options: replay::Options, given: Option<&'static str>) {
    let _ = REPLAY.set((options, given));
}

/// The replay options of this run (none unless configured).
pub fn replay_options() -> replay::Options {
    REPLAY.get().map(|(o, _)| o.clone()).unwrap_or_default()
}

/// The first replay option given on the command line, if any.
pub fn replay_option_given() -> Option<&'static str> {
    REPLAY.get().and_then(|(_, given)| *given)
}

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
    translate_game_within(source, &grounding_limits())
}

/// [`translate_game`] with these grounding limits for GDL (`rgw convert`
/// bounds grounding by its per-game time limit).
pub fn translate_game_within(
    source: &Source,
    grounding: &propnet::GroundingLimits,
) -> Result<Translated, Vec<Diagnostic>> {
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
        Language::RbgDraft => {
            let t = rbg_draft::translate(&source.text)?;
            Ok(Translated {
                game: t.game,
                warnings: t.warnings,
            })
        }
        Language::Replay => {
            let (_, t) = replay::translate(&source.text, &replay_options())?;
            Ok(Translated {
                game: t.game,
                warnings: t.warnings,
            })
        }
        Language::Gdl => {
            let t = gdl::translate(&source.text, grounding)?;
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
