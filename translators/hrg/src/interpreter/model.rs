//! The [`ForwardModel`] implementation: states, moves, keeper completion,
//! goals and the textual form of moves (tags joined by spaces, the same
//! symbols as the RG engine prints for the translated game).

use std::hash::{Hash, Hasher};

use rg_core::model::{ForwardModel, ModelError, Player};

use super::control::END;
use super::search::{Collect, Search};
use super::values::Values;
use super::Interpreter;

/// A game state: the control position and the semistate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    kont: u32,
    values: Values,
}

/// A move: its tags (interned symbols) and the state it leads to;
/// equality and hashing use the tags only.
#[derive(Clone, Debug)]
pub struct Move {
    tags: Box<[u32]>,
    next: State,
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.tags == other.tags
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.tags.hash(h);
    }
}

/// Bound on consecutive keeper moves.
const MAX_KEEPER_CHAIN: usize = 1_000_000;

impl Interpreter {
    fn search_moves(
        &self,
        state: &State,
        collect: Collect,
    ) -> Result<(Vec<super::search::Found>, usize), ModelError> {
        if state.kont == END {
            return Ok((Vec::new(), 0));
        }
        let mut rt = self.runtime.borrow_mut();
        let mut search = Search::new(
            &self.game,
            &mut rt,
            self.options.lenient,
            self.options.step_limit,
        );
        search.moves(state.kont, &state.values, collect)
    }

    fn complete_keeper(&self, state: &mut State) -> Result<(), ModelError> {
        for _ in 0..MAX_KEEPER_CHAIN {
            if state.kont == END || state.values.get(self.game.player_slot) != self.game.keeper {
                return Ok(());
            }
            let (mut moves, _) = self.search_moves(state, Collect::Moves)?;
            match moves.len() {
                1 => {
                    let m = moves
                        .pop()
                        .ok_or_else(|| ModelError::new("internal: lost the keeper move"))?;
                    *state = State {
                        kont: m.kont,
                        values: m.values,
                    };
                }
                0 => {
                    return Err(ModelError::new(
                        "game unexpectedly ended: the keeper has no legal move",
                    ))
                }
                k => {
                    return Err(ModelError::new(format!(
                        "keeper had {k} moves; it must have exactly one"
                    )))
                }
            }
        }
        Err(ModelError::new(format!(
            "the keeper made more than {MAX_KEEPER_CHAIN} moves in a row"
        )))
    }
}

impl ForwardModel for Interpreter {
    type State = State;
    type Move = Move;

    fn player_names(&self) -> Vec<String> {
        let rt = self.runtime.borrow();
        self.game
            .players
            .iter()
            .map(|&p| rt.symbols.name(p).to_string())
            .collect()
    }

    fn initial(&self) -> Result<State, ModelError> {
        let mut state = State {
            kont: self.start,
            values: self.game.initial.clone(),
        };
        self.complete_keeper(&mut state)?;
        Ok(state)
    }

    fn is_terminal(&self, state: &State) -> bool {
        state.kont == END
    }

    fn current_player(&self, state: &State) -> Player {
        let mover = state.values.get(self.game.player_slot);
        if mover == self.game.random {
            Player::Random
        } else if let Some(i) = self.game.players.iter().position(|&p| p == mover) {
            Player::Real(i)
        } else {
            Player::Keeper
        }
    }

    fn legal_moves(&self, state: &State, out: &mut Vec<Move>) -> Result<(), ModelError> {
        out.clear();
        let (found, _) = self.search_moves(state, Collect::Moves)?;
        out.extend(found.into_iter().map(|f| Move {
            tags: f.tags.into_boxed_slice(),
            next: State {
                kont: f.kont,
                values: f.values,
            },
        }));
        Ok(())
    }

    fn apply(&self, state: &mut State, mv: &Move) -> Result<(), ModelError> {
        *state = mv.next.clone();
        self.complete_keeper(state)
    }

    fn goals(&self, state: &State) -> Vec<i64> {
        let game = &self.game;
        game.players
            .iter()
            .map(|&p| {
                game.goals_keys
                    .slot(p)
                    .map(|i| state.values.get(game.goals_base + i))
                    .and_then(|s| game.score_values.get(&s).copied())
                    .unwrap_or(0)
            })
            .collect()
    }

    fn format_move(&self, mv: &Move) -> String {
        let rt = self.runtime.borrow();
        mv.tags
            .iter()
            .map(|&t| rt.symbols.name(t))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn count_moves(&self, state: &State) -> Result<u64, ModelError> {
        Ok(self.search_moves(state, Collect::Count)?.1 as u64)
    }
}
