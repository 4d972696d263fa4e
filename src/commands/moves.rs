//! `rgw moves FILE`: the legal moves of the initial state, one per line on
//! stdout; who is to move (and what an empty move means) on stderr.

use std::path::Path;
use std::process::ExitCode;

use rg_core::model::{list_moves, ForwardModel, Player};

use crate::cli::ModelArgs;
use crate::pipeline::models::{runtime_error, with_model, ModelTask};
use crate::source::{CliError, Source};

pub fn run(path: &Path, args: &ModelArgs) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    let listed = with_model(&source, args, ListMoves { source: &source })?;
    eprintln!("{}: {}", source.name(), listed.headline());
    for m in &listed.moves {
        println!("{m}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The initial state's moves and who makes them.
struct Listed {
    /// `None`: the initial state is terminal.
    player: Option<String>,
    moves: Vec<String>,
}

impl Listed {
    fn headline(&self) -> String {
        let Some(player) = &self.player else {
            return "the initial state is terminal: no moves".to_string();
        };
        let count = match self.moves.len() {
            1 => "1 move".to_string(),
            n => format!("{n} moves"),
        };
        let mut line = format!("{player} to move, {count}");
        if self.moves.iter().any(String::is_empty) {
            line.push_str("; the empty move (no tags) is printed as an empty line");
        }
        line
    }
}

struct ListMoves<'a> {
    source: &'a Source,
}

impl ModelTask for ListMoves<'_> {
    type Output = Listed;

    fn run<M: ForwardModel>(self, model: &M, _: &str) -> Result<Listed, CliError> {
        let initial = model.initial().map_err(|e| runtime_error(self.source, e))?;
        if model.is_terminal(&initial) {
            return Ok(Listed {
                player: None,
                moves: Vec::new(),
            });
        }
        let player = match model.current_player(&initial) {
            Player::Real(index) => {
                let name = model
                    .player_names()
                    .get(index)
                    .cloned()
                    .unwrap_or_else(|| format!("player {index}"));
                format!("player {name}")
            }
            Player::Keeper => "the keeper (shown because of --expose-keeper)".to_string(),
            Player::Random => "random".to_string(),
        };
        let moves = list_moves(model, &initial).map_err(|e| runtime_error(self.source, e))?;
        Ok(Listed {
            player: Some(player),
            moves,
        })
    }
}
