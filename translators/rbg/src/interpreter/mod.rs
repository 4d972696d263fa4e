//! The native RBG interpreter (rbg.md §3): a [`ForwardModel`] whose moves are
//! lists of (modifier index, vertex) pairs.
//!
//! Keeper moves are completed inside [`ForwardModel::initial`] and
//! [`ForwardModel::apply`] (the first keeper move found is applied, rbg.md
//! §3.5), so every non-terminal state handed out belongs to a real player.

mod compile;
mod nfa;
mod search;

use std::sync::Mutex;

use rg_core::diag::Diagnostic;
use rg_core::model::{ForwardModel, ModelError, Player};

use crate::ast;
use compile::{Action, Tables, NONE};
use search::{Mode, Scratch, Search};

pub use search::MAX_STRAIGHTNESS;

/// Most keeper moves applied in a row before the game is declared improper.
pub const MAX_KEEPER_MOVES: usize = 100_000;

/// A game state: semistate plus rules position (rbg.md §3.2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    board: Box<[u8]>,
    /// Variable slots (players first, then variables), then piece counters.
    numbers: Box<[u32]>,
    position: u32,
    /// Key of the main automaton (0 = start of `#rules`).
    rules_position: u32,
    /// Player index, or `NONE` for the keeper.
    player: u32,
}

impl State {
    /// Index (in board order) of the current position.
    pub fn position(&self) -> usize {
        self.position as usize
    }
}

/// A move: the modifier applications `(modifier index, vertex index)`; the
/// last one is the switch (rbg.md §3.4).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub pairs: Vec<(u32, u32)>,
}

pub struct Interpreter {
    tables: Tables,
    /// Reusable search memory; a pool so the interpreter stays `Sync`.
    scratch: Mutex<Vec<Scratch>>,
}

impl Interpreter {
    /// Compiles a checked game. Fails only on limits of this interpreter or
    /// on an unchecked, invalid AST.
    pub fn new(game: &ast::Game) -> Result<Interpreter, Diagnostic> {
        Ok(Interpreter {
            tables: compile::compile(game)?,
            scratch: Mutex::new(Vec::new()),
        })
    }

    /// Vertex names in board order.
    pub fn vertex_names(&self) -> &[String] {
        &self.tables.vertex_names
    }

    /// The value of a variable slot: players first, then `#variables` in
    /// declaration order.
    pub fn variable_value(&self, state: &State, slot: usize) -> Option<u32> {
        (slot < self.tables.bounds.len()).then(|| state.numbers[slot])
    }

    fn with_scratch<T>(&self, f: impl FnOnce(&mut Scratch) -> T) -> T {
        let taken = self.scratch.lock().ok().and_then(|mut pool| pool.pop());
        let mut scratch = taken.unwrap_or_else(|| Scratch::new(&self.tables));
        let result = f(&mut scratch);
        if let Ok(mut pool) = self.scratch.lock() {
            pool.push(scratch);
        }
        result
    }

    fn variable_count(&self) -> usize {
        self.tables.bounds.len()
    }

    /// Loads `state` into the scratch's working copy.
    fn load(&self, scratch: &mut Scratch, state: &State) {
        let work = &mut scratch.work;
        work.board.clear();
        work.board.extend_from_slice(&state.board);
        let n = self.variable_count();
        work.variables.clear();
        work.variables.extend_from_slice(&state.numbers[..n]);
        work.counters.clear();
        work.counters.extend_from_slice(&state.numbers[n..]);
    }

    fn search(&self, state: &State, mode: Mode) -> Result<search::Found, ModelError> {
        self.with_scratch(|scratch| {
            self.load(scratch, state);
            Search {
                tables: &self.tables,
                scratch,
            }
            .moves(state.rules_position, state.position, mode)
        })
    }

    /// Applies the pairs of a move without search (rbg.md §3.4).
    fn apply_pairs(&self, state: &mut State, pairs: &[(u32, u32)]) -> Result<(), ModelError> {
        let main = &self.tables.automata[0];
        let vertices = self.tables.vertex_names.len() as u32;
        let variables = self.variable_count();
        let Some(&(_, last_vertex)) = pairs.last() else {
            return Err(ModelError::new("a move must contain at least one modifier"));
        };
        for (n, &(index, vertex)) in pairs.iter().enumerate() {
            let transition = self
                .tables
                .modifiers
                .get(index as usize)
                .copied()
                .filter(|&t| t != NONE)
                .ok_or_else(|| ModelError::new(format!("no modifier with index {index}")))?;
            if vertex >= vertices {
                return Err(ModelError::new(format!("no vertex with index {vertex}")));
            }
            let is_last = n + 1 == pairs.len();
            match &main.actions[transition as usize] {
                Action::Off { piece, .. } if !is_last => {
                    let old = state.board[vertex as usize];
                    state.numbers[variables + old as usize] -= 1;
                    state.numbers[variables + *piece as usize] += 1;
                    state.board[vertex as usize] = *piece;
                }
                Action::Assign { slot, value, .. } if !is_last => {
                    let work = search::Work {
                        board: Vec::new(),
                        variables: state.numbers[..variables].to_vec(),
                        counters: state.numbers[variables..].to_vec(),
                    };
                    let bound = self.tables.bounds[*slot as usize];
                    match work.eval(value).and_then(|v| u32::try_from(v).ok()) {
                        Some(v) if v <= bound => {
                            state.numbers[*slot as usize] = v;
                        }
                        _ => {
                            return Err(ModelError::new(format!(
                                "illegal move: assignment {index} is out of range"
                            )))
                        }
                    }
                }
                Action::Switch { player, .. } if is_last => {
                    state.player = *player;
                    state.position = last_vertex;
                    state.rules_position = transition + 1;
                }
                _ => {
                    return Err(ModelError::new(format!(
                        "illegal move: modifier {index} cannot appear at position {}",
                        n + 1
                    )))
                }
            }
        }
        Ok(())
    }

    /// Applies first-found keeper moves until a real player is to move or the
    /// keeper is stuck (rbg.md §3.5).
    fn complete_keeper(&self, state: &mut State) -> Result<(), ModelError> {
        let mut applied = 0;
        while state.player == NONE {
            let found = self.search(state, Mode::First)?;
            let Some(pairs) = found.moves.into_iter().next() else {
                return Ok(());
            };
            self.apply_pairs(state, &pairs)?;
            applied += 1;
            if applied > MAX_KEEPER_MOVES {
                return Err(ModelError::new(format!(
                    "the keeper made more than {MAX_KEEPER_MOVES} moves in a row; \
                     the game is improper (rbg.md §3.7)"
                )));
            }
        }
        Ok(())
    }
}

impl ForwardModel for Interpreter {
    type State = State;
    type Move = Move;

    fn player_names(&self) -> Vec<String> {
        self.tables.player_names.clone()
    }

    fn initial(&self) -> Result<State, ModelError> {
        let variables = self.variable_count();
        let mut numbers = vec![0u32; variables + self.tables.piece_count];
        for &piece in &self.tables.initial_board {
            numbers[variables + piece as usize] += 1;
        }
        let mut state = State {
            board: self.tables.initial_board.clone().into_boxed_slice(),
            numbers: numbers.into_boxed_slice(),
            position: 0,
            rules_position: 0,
            player: NONE,
        };
        self.complete_keeper(&mut state)?;
        Ok(state)
    }

    fn is_terminal(&self, state: &State) -> bool {
        if state.player == NONE {
            return true;
        }
        self.search(state, Mode::First)
            .map_or(true, |found| found.count == 0)
    }

    /// A keeper state is only ever exposed when the keeper has no move, i.e.
    /// in a terminal state; there this returns [`Player::Keeper`].
    fn current_player(&self, state: &State) -> Player {
        if state.player == NONE {
            Player::Keeper
        } else {
            Player::Real(state.player as usize)
        }
    }

    fn legal_moves(&self, state: &State, out: &mut Vec<Move>) -> Result<(), ModelError> {
        out.clear();
        if state.player == NONE {
            return Ok(());
        }
        let found = self.search(state, Mode::All)?;
        out.extend(found.moves.into_iter().map(|pairs| Move { pairs }));
        Ok(())
    }

    fn apply(&self, state: &mut State, mv: &Move) -> Result<(), ModelError> {
        self.apply_pairs(state, &mv.pairs)?;
        self.complete_keeper(state)
    }

    fn goals(&self, state: &State) -> Vec<i64> {
        (0..self.tables.player_names.len())
            .map(|i| i64::from(state.numbers[i]))
            .collect()
    }

    /// The RG tag form of rbg.md §5.7: `vertex index_i` per pair.
    fn format_move(&self, mv: &Move) -> String {
        let mut out = String::new();
        for (n, &(index, vertex)) in mv.pairs.iter().enumerate() {
            if n > 0 {
                out.push(' ');
            }
            match self.tables.vertex_names.get(vertex as usize) {
                Some(name) => out.push_str(name),
                None => out.push_str(&format!("v{vertex}")),
            }
            out.push_str(&format!(" index_{index}"));
        }
        out
    }

    fn count_moves(&self, state: &State) -> Result<u64, ModelError> {
        if state.player == NONE {
            return Ok(0);
        }
        Ok(self.search(state, Mode::Count)?.count)
    }
}
