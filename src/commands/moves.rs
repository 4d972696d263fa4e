//! `rgw moves FILE`: the legal moves of the initial state, one per line on
//! stdout; who is to move (and what an empty move means) on stderr.
//! `--joint` (GDL): the joint moves of the first step, one combination of
//! the roles' actions per line.

use std::path::Path;
use std::process::ExitCode;

use rg_core::model::{list_moves, ForwardModel, Player};

use crate::cli::ModelArgs;
use crate::pipeline::models::{runtime_error, via, with_model, ModelTask, Via};
use crate::source::{CliError, Language, Source};

/// Keeper moves followed at most to find who moves after the keeper.
const KEEPER_WALK: usize = 10_000;

pub fn run(path: &Path, args: &ModelArgs, joint: bool) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    let listed = if joint {
        if source.language != Language::Gdl {
            return Err(CliError::Usage(
                "--joint applies to GDL (.kif, .gdl) files only".into(),
            ));
        }
        if via(&source, args)? == Via::Rg {
            return Err(CliError::Usage(
                "--joint lists GDL joint moves: use the native or propnet model".into(),
            ));
        }
        with_model(&source, args, JointMoves { source: &source })?
    } else {
        with_model(&source, args, ListMoves { source: &source })?
    };
    eprintln!("{}: {}", source.name(), listed.headline);
    for m in &listed.moves {
        println!("{m}");
    }
    Ok(ExitCode::SUCCESS)
}

/// What `moves` prints: a headline on stderr, moves on stdout.
struct Listed {
    headline: String,
    moves: Vec<String>,
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn player_name<M: ForwardModel>(model: &M, index: usize) -> String {
    model
        .player_names()
        .get(index)
        .cloned()
        .unwrap_or_else(|| format!("{index}"))
}

struct ListMoves<'a> {
    source: &'a Source,
}

impl ModelTask for ListMoves<'_> {
    type Output = Listed;

    fn run<M: ForwardModel>(self, model: &M, _: &str) -> Result<Listed, CliError> {
        let failed = |e| runtime_error(self.source, e);
        let initial = model.initial().map_err(failed)?;
        if model.is_terminal(&initial) {
            return Ok(Listed {
                headline: "the initial state is terminal: no moves".into(),
                moves: Vec::new(),
            });
        }
        let moves = list_moves(model, &initial).map_err(failed)?;
        let player = match model.current_player(&initial) {
            Player::Real(index) => format!("player {}", player_name(model, index)),
            Player::Random => "random".to_string(),
            Player::Keeper => {
                let after = after_keeper(model, initial).map_err(failed)?;
                return Ok(keeper_listing(moves, &after));
            }
        };
        let mut headline = format!("{player} to move, {}", count(moves.len(), "move"));
        if moves.iter().any(String::is_empty) {
            headline.push_str("; the empty move (no tags) is printed as an empty line");
        }
        Ok(Listed { headline, moves })
    }
}

/// With `--expose-keeper`, the initial state can be the keeper's: its
/// moves are bookkeeping, usually one move without tags. Instead of an
/// empty line, say so, and who moves after it.
fn keeper_listing(moves: Vec<String>, after: &str) -> Listed {
    let empty = moves.iter().filter(|m| m.is_empty()).count();
    let mut headline = format!(
        "the keeper to move (its states are shown because of --expose-keeper), {}",
        count(moves.len(), "keeper move")
    );
    if empty > 0 {
        headline.push_str(&format!(
            "; {} no tags and {} not printed",
            if empty == 1 {
                "one has".to_string()
            } else {
                format!("{empty} have")
            },
            if empty == 1 { "is" } else { "are" }
        ));
    }
    headline.push_str(&format!(
        ". Keeper moves are the game's bookkeeping: without --expose-keeper they \
         are applied automatically, and perft never counts them as a depth. {after}"
    ));
    Listed {
        headline,
        moves: moves.into_iter().filter(|m| !m.is_empty()).collect(),
    }
}

/// Who moves once the keeper's single moves are applied (a sentence).
fn after_keeper<M: ForwardModel>(
    model: &M,
    mut state: M::State,
) -> Result<String, rg_core::model::ModelError> {
    let mut moves = Vec::new();
    for _ in 0..KEEPER_WALK {
        if model.is_terminal(&state) {
            return Ok("After the keeper, the game is over.".into());
        }
        moves.clear();
        model.legal_moves(&state, &mut moves)?;
        match model.current_player(&state) {
            Player::Keeper if moves.len() == 1 => model.apply(&mut state, &moves[0])?,
            Player::Keeper => {
                return Ok(format!(
                    "The keeper then has {} to choose from.",
                    count(moves.len(), "move")
                ))
            }
            Player::Real(index) => {
                return Ok(format!(
                    "After the keeper, player {} moves, with {} (run without \
                     --expose-keeper to list them).",
                    player_name(model, index),
                    count(moves.len(), "move")
                ))
            }
            Player::Random => {
                return Ok(format!(
                    "After the keeper, the random player moves, with {}.",
                    count(moves.len(), "move")
                ))
            }
        }
    }
    Ok(format!(
        "The keeper makes more than {KEEPER_WALK} moves in a row."
    ))
}

/// GDL joint moves: the sequentialized model lets the roles choose one
/// after the other within a step, and in GDL what a role may do depends
/// only on the step's state, so the joint moves of the first step are
/// every combination of the roles' moves, in the order the roles choose.
struct JointMoves<'a> {
    source: &'a Source,
}

impl ModelTask for JointMoves<'_> {
    type Output = Listed;

    fn run<M: ForwardModel>(self, model: &M, _: &str) -> Result<Listed, CliError> {
        let failed = |e| runtime_error(self.source, e);
        let mut state = model.initial().map_err(failed)?;
        let roles = model.player_names().len();
        let mut choices: Vec<(String, Vec<String>)> = Vec::new();
        let mut moves = Vec::new();
        while choices.len() < roles && !model.is_terminal(&state) {
            let Player::Real(index) = model.current_player(&state) else {
                break;
            };
            moves.clear();
            model.legal_moves(&state, &mut moves).map_err(failed)?;
            let Some(first) = moves.first().cloned() else {
                break;
            };
            let mut names: Vec<String> = moves.iter().map(|m| model.format_move(m)).collect();
            names.sort();
            choices.push((player_name(model, index), names));
            model.apply(&mut state, &first).map_err(failed)?;
        }
        if choices.is_empty() {
            return Ok(Listed {
                headline: "the initial state is terminal: no moves".into(),
                moves: Vec::new(),
            });
        }
        let mut joint = vec![String::new()];
        for (_, names) in &choices {
            joint = joint
                .iter()
                .flat_map(|prefix| {
                    names.iter().map(move |name| {
                        if prefix.is_empty() {
                            name.clone()
                        } else {
                            format!("{prefix} {name}")
                        }
                    })
                })
                .collect();
        }
        let roles: Vec<&str> = choices.iter().map(|(role, _)| role.as_str()).collect();
        let headline = format!(
            "joint moves of {} (one action each, in this order), {}",
            roles.join(", "),
            count(joint.len(), "joint move")
        );
        Ok(Listed {
            headline,
            moves: joint,
        })
    }
}
