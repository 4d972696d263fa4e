//! `rgw check FILE`: static checks; diagnostics or a one-line summary.

use std::path::Path;
use std::process::ExitCode;

use rg_core::ast::Game;
use rg_core::check::check_game;
use rg_core::diag::has_errors;

use crate::source::{CliError, Language, Source};

pub fn run(path: &Path) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    match source.language {
        Language::Rg => {
            let game = rg_core::parse::parse_game(&source.text).map_err(|d| source.invalid(&d))?;
            let diagnostics = check_game(&game);
            if has_errors(&diagnostics) {
                return Err(source.invalid(&diagnostics));
            }
            if !diagnostics.is_empty() {
                eprintln!("{}", source.render(&diagnostics));
            }
            println!(
                "{}: ok: {}",
                source.name(),
                summary(&game, diagnostics.len())
            );
            Ok(ExitCode::SUCCESS)
        }
        Language::Hrg | Language::Replay => {
            if source.language == Language::Replay && crate::pipeline::translation::echo() {
                let options = crate::pipeline::translation::replay_options();
                let loaded =
                    replay::load(&source.text, &options).map_err(|d| source.invalid(&d))?;
                print!("{}", loaded.output);
            }
            let translated = crate::pipeline::translation::to_rg(&source)?;
            if !translated.warnings.is_empty() {
                eprintln!("{}", source.render(&translated.warnings));
            }
            println!(
                "{}: ok: translates to RG with {}",
                source.name(),
                summary(&translated.game, translated.warnings.len())
            );
            Ok(ExitCode::SUCCESS)
        }
        Language::Rbg => {
            let game = rbg::parse_and_check(&source.text).map_err(|d| source.invalid(&d))?;
            println!(
                "{}: ok: {} players, {} pieces, {} variables, {} vertices, {} modifiers",
                source.name(),
                game.players.len(),
                game.pieces.len(),
                game.variables.len(),
                game.board.len(),
                game.modifier_count()
            );
            Ok(ExitCode::SUCCESS)
        }
        Language::RbgDraft => {
            let checked =
                rbg_draft::parse_and_check(&source.text).map_err(|d| source.invalid(&d))?;
            if !checked.warnings.is_empty() {
                eprintln!("{}", source.render(&checked.warnings));
            }
            let game = &checked.game;
            println!(
                "{}: ok: {} players, {} pieces, {}×{} board{}",
                source.name(),
                game.players.len(),
                game.pieces.len(),
                game.width,
                game.height,
                if checked.warnings.is_empty() {
                    String::new()
                } else {
                    format!(" ({} warnings)", checked.warnings.len())
                }
            );
            Ok(ExitCode::SUCCESS)
        }
        Language::Gdl => {
            let game = gdl::load(&source.text).map_err(|d| source.invalid(&d))?;
            if !game.warnings.is_empty() {
                eprintln!("{}", source.render(&game.warnings));
            }
            println!(
                "{}: ok: {} roles, {} rules{}",
                source.name(),
                game.roles.len(),
                game.rules.len(),
                if game.warnings.is_empty() {
                    String::new()
                } else {
                    format!(" ({} warnings)", game.warnings.len())
                }
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `2 players, 5 types, 4 constants, 6 variables, 33 nodes, 38 edges`.
pub fn summary(game: &Game, warnings: usize) -> String {
    let players = rg_core::types::TypeEnv::new(game)
        .resolve_name(rg_core::builtins::PLAYER)
        .ok()
        .and_then(|t| t.symbols().map(<[String]>::len))
        .unwrap_or(0);
    let mut nodes = std::collections::HashSet::new();
    for e in &game.edges {
        nodes.insert(e.from.as_str());
        nodes.insert(e.to.as_str());
    }
    let mut text = format!(
        "{players} players, {} types, {} constants, {} variables, {} nodes, {} edges",
        game.typedefs.len(),
        game.constants.len(),
        game.variables.len(),
        nodes.len(),
        game.edges.len()
    );
    if warnings > 0 {
        text.push_str(&format!(" ({warnings} warnings)"));
    }
    text
}
