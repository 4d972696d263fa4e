//! The compiled RG forward model (rg.md §5).
//!
//! [`Engine`] compiles a checked game into a [`Program`] and implements
//! [`ForwardModel`]: moves are the distinct tag sequences of move walks,
//! found by an undo-based depth-first search; applying a move installs the
//! state the search recorded for it. By default keeper moves are applied
//! automatically after every move (an error if the keeper has zero or
//! several moves), so only real players and `random` are ever on move; with
//! [`EngineOptions::expose_keeper`] keeper states are visible and generic
//! perft follows rg.md §6 literally.

mod analysis;
mod compile;
mod distinct_walks;
mod move_scan;
pub mod program;
mod search;
pub mod state;
mod visit_guard;

use std::cell::RefCell;
use std::hash::{Hash, Hasher};

use crate::ast::Game;
use crate::builtins::with_builtins;
use crate::check::check_game;
use crate::diag::{has_errors, Diagnostic};
use crate::model::{ForwardModel, ModelError, Player};

pub use compile::{CompileError, DEFAULT_MAX_STATE_SLOTS};
pub use program::Program;
pub use search::{FoundMove, DEFAULT_STEP_LIMIT};
pub use state::State;

use search::Searcher;

/// How the engine presents a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Show keeper states instead of completing keeper moves automatically.
    pub expose_keeper: bool,
    /// Search steps allowed per move generation.
    pub step_limit: u64,
    /// Read keys outside a map's key type as the map's default (the
    /// innermost default of its initial value) instead of failing; writes
    /// to such keys still fail.
    pub lenient: bool,
    /// Apply the first keeper walk found instead of searching every keeper
    /// walk to confirm that the keeper's move is unique and unambiguous
    /// (rg.md §4, properties 2 and 4). This is RBG's own rule (rbg.md §3.5:
    /// the game manager applies any legal keeper move, e.g. the first
    /// found), and translated RBG games need it in long games: a keeper
    /// completion made of many keeper moves (go's capture flood fill)
    /// otherwise explores every order in which those moves can be made.
    /// For proper games the result is the same; improper keepers go
    /// undetected.
    pub first_keeper_walk: bool,
    /// The most `u32` slots the compiled state, the constant pool, or one
    /// variable's or constant's value may take; a game past it is refused
    /// when the engine is built (default [`DEFAULT_MAX_STATE_SLOTS`]).
    pub max_state_slots: u64,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            expose_keeper: false,
            step_limit: DEFAULT_STEP_LIMIT,
            lenient: false,
            first_keeper_walk: false,
            max_state_slots: DEFAULT_MAX_STATE_SLOTS,
        }
    }
}

/// A move: its tag sequence, plus the state it leads to (so applying needs
/// no search). Equality and hashing use the tags only.
#[derive(Clone, Debug)]
pub struct Move {
    pub tags: Box<[u32]>,
    /// Per tag, the players who saw it (bit per `Player` index); `None`
    /// when visibility never changes in this game (everyone sees all).
    pub visibility: Option<Box<[u64]>>,
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

/// Bound on consecutive keeper moves, so that a keeper loop is an error
/// rather than a hang.
const MAX_KEEPER_CHAIN: usize = 1_000_000;

/// The RG engine.
pub struct Engine {
    program: Program,
    options: EngineOptions,
    searcher: RefCell<Searcher>,
    /// The found-moves buffer of `legal_moves`, kept between calls.
    found: RefCell<Vec<FoundMove>>,
}

impl Engine {
    /// Checks and compiles a game; the diagnostics explain a refusal.
    pub fn new(game: &Game, options: EngineOptions) -> Result<Engine, Vec<Diagnostic>> {
        let diagnostics = check_game(game);
        if has_errors(&diagnostics) {
            return Err(diagnostics
                .into_iter()
                .filter(Diagnostic::is_error)
                .collect());
        }
        let program = compile::compile(&with_builtins(game), options.max_state_slots).map_err(
            |CompileError(message)| {
                vec![Diagnostic::error(
                    format!("cannot compile the game: {message}"),
                    None,
                )]
            },
        )?;
        let mut searcher = Searcher::default();
        searcher.step_limit = options.step_limit;
        searcher.lenient = options.lenient;
        searcher.first_keeper_walk = options.first_keeper_walk;
        Ok(Engine {
            program,
            options,
            searcher: RefCell::new(searcher),
            found: RefCell::new(Vec::new()),
        })
    }

    /// Parses, checks and compiles RG source text.
    pub fn from_source(source: &str, options: EngineOptions) -> Result<Engine, Vec<Diagnostic>> {
        let game = crate::parse::parse_game(source)?;
        Engine::new(&game, options)
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The moves of `state` with the states they lead to (keeper moves are
    /// not completed here).
    pub fn found_moves(&self, state: &State) -> Result<Vec<FoundMove>, ModelError> {
        let mut out = Vec::new();
        self.searcher
            .borrow_mut()
            .moves(&self.program, state, &mut out)?;
        Ok(out)
    }

    /// Applies the keeper's unique move until a non-keeper is on move or the
    /// game is over.
    pub fn complete_keeper(&self, state: &mut State) -> Result<(), ModelError> {
        // The found-moves buffer and the moves' buffers are reused (one
        // keeper completion per applied move).
        let mut moves = self.found.take();
        let result = self.keeper_moves(state, &mut moves);
        self.found.replace(moves);
        result
    }

    fn keeper_moves(
        &self,
        state: &mut State,
        moves: &mut Vec<FoundMove>,
    ) -> Result<(), ModelError> {
        let p = &self.program;
        for _ in 0..MAX_KEEPER_CHAIN {
            if state.node == p.end || state.values[p.player_slot as usize] != p.keeper {
                return Ok(());
            }
            let mut searcher = self.searcher.borrow_mut();
            searcher.moves(p, state, moves)?;
            match moves.len() {
                1 => {
                    let only = moves.pop().expect("one move");
                    state.clone_from(&only.next);
                    searcher.recycle(only.next.values, only.tags);
                }
                0 => {
                    return Err(ModelError::new(format!(
                        "game unexpectedly ended: the keeper has no legal move in node {}",
                        p.node_name(state.node)
                    )))
                }
                k => {
                    return Err(ModelError::new(format!(
                        "keeper had {k} moves in node {}; it must have exactly one",
                        p.node_name(state.node)
                    )))
                }
            }
        }
        Err(ModelError::new(format!(
            "the keeper made more than {MAX_KEEPER_CHAIN} moves in a row"
        )))
    }

    /// The tags of a move that player `index` sees (rg.md §5.6).
    pub fn obfuscated(&self, mv: &Move, index: usize) -> Vec<String> {
        mv.tags
            .iter()
            .enumerate()
            .filter(|(k, _)| {
                mv.visibility
                    .as_ref()
                    .is_none_or(|masks| index >= 64 || masks[*k] & (1 << index) != 0)
            })
            .map(|(_, &t)| self.program.symbol(t).to_string())
            .collect()
    }
}

impl ForwardModel for Engine {
    type State = State;
    type Move = Move;

    fn set_deadline(&self, deadline: Option<std::time::Instant>) {
        let mut searcher = self.searcher.borrow_mut();
        searcher.deadline = deadline;
    }

    fn player_names(&self) -> Vec<String> {
        let p = &self.program;
        p.players.iter().map(|&s| p.symbol(s).to_string()).collect()
    }

    fn initial(&self) -> Result<State, ModelError> {
        let p = &self.program;
        let mut state = State::new(p.begin, p.initial.clone().into_boxed_slice());
        if !self.options.expose_keeper {
            self.complete_keeper(&mut state)?;
        }
        Ok(state)
    }

    fn is_terminal(&self, state: &State) -> bool {
        state.node == self.program.end
    }

    fn current_player(&self, state: &State) -> Player {
        let p = &self.program;
        let mover = state.values[p.player_slot as usize];
        if mover == p.random {
            Player::Random
        } else if let Some(index) = p.players.iter().position(|&s| s == mover) {
            Player::Real(index)
        } else {
            Player::Keeper
        }
    }

    fn legal_moves(&self, state: &State, out: &mut Vec<Move>) -> Result<(), ModelError> {
        let mut searcher = self.searcher.borrow_mut();
        for old in out.drain(..) {
            searcher.recycle(old.next.values, old.tags);
        }
        let mut found = self.found.take();
        searcher.moves(&self.program, state, &mut found)?;
        out.extend(found.drain(..).map(|m| Move {
            tags: m.tags,
            visibility: m.visibility,
            next: m.next,
        }));
        self.found.replace(found);
        Ok(())
    }

    fn apply(&self, state: &mut State, mv: &Move) -> Result<(), ModelError> {
        // Copies into the state's own buffer: no allocation per move.
        state.clone_from(&mv.next);
        if !self.options.expose_keeper {
            self.complete_keeper(state)?;
        }
        Ok(())
    }

    fn goals(&self, state: &State) -> Vec<i64> {
        let p = &self.program;
        let table = &p.key_tables[p.goals_table as usize];
        p.players
            .iter()
            .map(|&player| {
                let score = table
                    .slot(player)
                    .map(|slot| state.values[(p.goals_base + slot) as usize]);
                score
                    .and_then(|s| {
                        p.score_values
                            .iter()
                            .find(|(id, _)| *id == s)
                            .map(|(_, v)| *v)
                    })
                    .unwrap_or(0)
            })
            .collect()
    }

    fn format_move(&self, mv: &Move) -> String {
        let p = &self.program;
        mv.tags
            .iter()
            .map(|&t| p.symbol(t))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn count_moves(&self, state: &State) -> Result<u64, ModelError> {
        self.searcher.borrow_mut().count(&self.program, state)
    }
}

#[cfg(test)]
mod tests;
