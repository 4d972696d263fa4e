//! The native model of the draft (rbg-draft.md §5–§7), walking NFAs of the
//! movement expressions directly. It shares nothing with [`crate::lower`]
//! beyond the checked [`ast`](crate::ast).
//!
//! A move is one turn: the semimoves up to a next-player marker, or up to
//! the mover being stuck (R27). Semimoves are identified by their traces
//! (writes, then `semi` or the resolved target, R26).

mod nfa;

use std::cell::Cell;
use std::collections::BTreeSet;
use std::time::Instant;

use rg_core::model::{ForwardModel, ModelError, Player};

use crate::ast::{Formula, Game, PlayerId, Value};
use crate::limits::{MAX_SEMIMOVES, MAX_TURN_SEMIMOVES, MAX_WRITES};
use nfa::{resolve, Letter, Nfa};

/// How a semimove ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Terminator {
    /// A semimove proper: the same player moves again.
    Semi,
    /// The turn passes to this player.
    To(PlayerId),
}

/// The trace of one semimove: its writes `(square, piece)` in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Semimove {
    pub writes: Vec<(u32, u32)>,
    pub end: Terminator,
}

/// One turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move(pub Vec<Semimove>);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub board: Vec<u32>,
    pub player: PlayerId,
    /// `$turn` (starts at 1).
    pub turn: u64,
    /// The scores once the game is over.
    pub outcome: Option<Vec<i64>>,
}

/// A goal formula with its patterns compiled.
enum Condition {
    Or(Vec<Condition>),
    And(Vec<Condition>),
    Not(Box<Condition>),
    Pattern(Nfa),
    At(u32, usize),
    Compare(Value, crate::ast::Relation, Value),
}

/// The turn being enumerated: the semimoves so far, the boards they passed
/// through, and the moves found.
struct Turn<'a> {
    player: PlayerId,
    path: Vec<Semimove>,
    seen: Vec<Vec<u32>>,
    /// Semimoves held by the moves in `out`.
    held: usize,
    out: &'a mut Vec<Move>,
}

pub struct Interpreter {
    game: Game,
    /// Per player, one NFA per priority level.
    levels: Vec<Vec<Nfa>>,
    goals: Vec<(i64, Condition)>,
    /// Set by the generic tools so that one long move search cannot
    /// outlive a time limit.
    deadline: Cell<Option<Instant>>,
    /// Search states popped so far (the deadline is read every 1024).
    ticks: Cell<u64>,
}

impl Interpreter {
    pub fn new(game: &Game) -> Interpreter {
        let pieces = game.pieces.len();
        let levels = game
            .levels
            .iter()
            .map(|levels| levels.iter().map(|e| Nfa::new(e, pieces)).collect())
            .collect();
        let goals = game
            .goals
            .iter()
            .map(|g| (i64::from(g.score), condition(game, &g.formula)))
            .collect();
        Interpreter {
            game: game.clone(),
            levels,
            goals,
            deadline: Cell::new(None),
            ticks: Cell::new(0),
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The square `(dx, dy)` away from `square`, if on the board.
    fn shift(&self, square: u32, dx: i64, dy: i64) -> Option<u32> {
        let w = i64::from(self.game.width);
        let s = i64::from(square);
        let sq = self.game.square(s % w + dx, s / w + dy)?;
        u32::try_from(sq).ok()
    }

    fn squares(&self) -> u32 {
        self.game.width * self.game.height
    }

    /// The semimoves of `player` (those of its first level that has one),
    /// or only whether one exists when `first_only`.
    fn semimoves(
        &self,
        board: &mut [u32],
        player: PlayerId,
        first_only: bool,
    ) -> Result<BTreeSet<Semimove>, ModelError> {
        for nfa in &self.levels[player] {
            let mut search = Search {
                interpreter: self,
                nfa,
                player,
                first_only,
                found: BTreeSet::new(),
            };
            let seeds: Vec<(usize, u32)> = (0..self.squares()).map(|s| (nfa.start, s)).collect();
            search.run(board, &mut Vec::new(), seeds)?;
            if !search.found.is_empty() {
                return Ok(search.found);
            }
        }
        Ok(BTreeSet::new())
    }

    /// Every turn of the player to move: semimoves chained while they end
    /// without a marker and the player can still move (§7).
    fn turns(&self, state: &State, out: &mut Vec<Move>) -> Result<(), ModelError> {
        let mut board = state.board.clone();
        let first = self.semimoves(&mut board, state.player, false)?;
        let mut turn = Turn {
            player: state.player,
            path: Vec::new(),
            seen: vec![board.clone()],
            held: 0,
            out,
        };
        self.extend(&board, first, &mut turn)
    }

    fn extend(
        &self,
        board: &[u32],
        semimoves: BTreeSet<Semimove>,
        turn: &mut Turn<'_>,
    ) -> Result<(), ModelError> {
        for semimove in semimoves {
            let mut next = board.to_vec();
            for &(square, piece) in &semimove.writes {
                next[square as usize] = piece;
            }
            let end = semimove.end;
            turn.path.push(semimove);
            if end == Terminator::Semi {
                if turn.path.len() > MAX_SEMIMOVES || turn.seen.contains(&next) {
                    return Err(ModelError::new(format!(
                        "improper description: player `{}` can make semimoves forever in one turn \
                         (a board repeats or more than {MAX_SEMIMOVES} semimoves)",
                        self.game.players[turn.player]
                    )));
                }
                let more = self.semimoves(&mut next, turn.player, false)?;
                if more.is_empty() {
                    self.finish(turn)?;
                } else {
                    turn.seen.push(next.clone());
                    self.extend(&next, more, turn)?;
                    turn.seen.pop();
                }
            } else {
                self.finish(turn)?;
            }
            turn.path.pop();
        }
        Ok(())
    }

    /// Records the path as a move, within the turn's size limit.
    fn finish(&self, turn: &mut Turn<'_>) -> Result<(), ModelError> {
        turn.held += turn.path.len();
        if turn.held > MAX_TURN_SEMIMOVES {
            return Err(ModelError::new(format!(
                "too large a turn: the moves of player `{}` hold more than {MAX_TURN_SEMIMOVES} \
                 semimoves together (the draft interpreter's limit MAX_TURN_SEMIMOVES)",
                self.game.players[turn.player]
            )));
        }
        turn.out.push(Move(turn.path.clone()));
        Ok(())
    }

    /// Scores when `loser` is stuck: 0 for it, every other its `N` (R30).
    fn loses(&self, loser: PlayerId) -> Vec<i64> {
        self.goals
            .iter()
            .enumerate()
            .map(|(r, (score, _))| if r == loser { 0 } else { *score })
            .collect()
    }

    fn holds(&self, condition: &Condition, state: &State) -> bool {
        match condition {
            Condition::Or(parts) => parts.iter().any(|c| self.holds(c, state)),
            Condition::And(parts) => parts.iter().all(|c| self.holds(c, state)),
            Condition::Not(inner) => !self.holds(inner, state),
            Condition::At(piece, square) => state.board[*square] == *piece,
            Condition::Compare(a, relation, b) => {
                relation.holds(self.value(*a, state), self.value(*b, state))
            }
            Condition::Pattern(nfa) => self.matches(nfa, &state.board),
        }
    }

    fn value(&self, value: Value, state: &State) -> i64 {
        match value {
            Value::Turn => i64::try_from(state.turn).unwrap_or(i64::MAX),
            Value::Int(n) => n,
            Value::Count(p) => {
                let count = state.board.iter().filter(|&&b| b as usize == p).count();
                i64::try_from(count).unwrap_or(i64::MAX)
            }
        }
    }

    /// `move(M)`: some word applies from some square (no writes).
    fn matches(&self, nfa: &Nfa, board: &[u32]) -> bool {
        let squares = self.squares() as usize;
        let mut visited = Visited::new(nfa.len(), squares);
        let mut stack = Vec::new();
        for s in 0..self.squares() {
            visited.insert(nfa.start, s as usize);
            stack.push((nfa.start, s));
        }
        while let Some((q, c)) = stack.pop() {
            if q == nfa.accept {
                return true;
            }
            for &r in &nfa.eps[q] {
                if visited.insert(r, c as usize) {
                    stack.push((r, c));
                }
            }
            for (letter, r) in &nfa.edges[q] {
                let Letter::Step(step) = letter else { continue };
                let Some(c2) = self.shift(c, step.dx, step.dy) else {
                    continue;
                };
                if step
                    .on
                    .as_ref()
                    .is_some_and(|on| !on[board[c2 as usize] as usize])
                {
                    continue;
                }
                if visited.insert(*r, c2 as usize) {
                    stack.push((*r, c2));
                }
            }
        }
        false
    }

    /// The end-of-turn procedure of §6.4 after a marker to `next`.
    fn end_turn(&self, state: &mut State) -> Result<(), ModelError> {
        let winners: Vec<bool> = self
            .goals
            .iter()
            .map(|(_, c)| self.holds(c, state))
            .collect();
        if winners.iter().any(|&w| w) {
            state.outcome = Some(
                self.goals
                    .iter()
                    .zip(&winners)
                    .map(|((score, _), &w)| if w { *score } else { 0 })
                    .collect(),
            );
        } else if self
            .semimoves(&mut state.board.clone(), state.player, true)?
            .is_empty()
        {
            state.outcome = Some(self.loses(state.player));
        }
        Ok(())
    }
}

fn condition(game: &Game, formula: &Formula) -> Condition {
    match formula {
        Formula::Or(parts) => Condition::Or(parts.iter().map(|f| condition(game, f)).collect()),
        Formula::And(parts) => Condition::And(parts.iter().map(|f| condition(game, f)).collect()),
        Formula::Not(inner) => Condition::Not(Box::new(condition(game, inner))),
        Formula::Move(pattern, _) => Condition::Pattern(Nfa::new(pattern, game.pieces.len())),
        Formula::At(piece, x, y, _) => Condition::At(
            u32::try_from(*piece).unwrap_or(u32::MAX),
            game.square(*x, *y).unwrap_or(0),
        ),
        Formula::Compare(a, relation, b, _) => Condition::Compare(*a, *relation, *b),
    }
}

/// The visited (NFA state, square) pairs of one search: a dense table when
/// it is small, a hash set for huge expressions on huge boards.
enum Visited {
    Dense(Vec<bool>, usize),
    Sparse(std::collections::HashSet<(usize, usize)>),
}

impl Visited {
    const DENSE_LIMIT: usize = 1 << 22;

    fn new(states: usize, squares: usize) -> Visited {
        match states.checked_mul(squares) {
            Some(n) if n <= Self::DENSE_LIMIT => Visited::Dense(vec![false; n], squares),
            _ => Visited::Sparse(std::collections::HashSet::new()),
        }
    }

    /// Marks the pair; whether it was new.
    fn insert(&mut self, state: usize, square: usize) -> bool {
        match self {
            Visited::Dense(table, squares) => {
                !std::mem::replace(&mut table[state * *squares + square], true)
            }
            Visited::Sparse(set) => set.insert((state, square)),
        }
    }
}

/// One semimove search (§5.7): a visited set of (NFA state, square) per
/// trace prefix, a fresh one after every write.
struct Search<'a> {
    interpreter: &'a Interpreter,
    nfa: &'a Nfa,
    player: PlayerId,
    first_only: bool,
    found: BTreeSet<Semimove>,
}

impl Search<'_> {
    fn run(
        &mut self,
        board: &mut [u32],
        prefix: &mut Vec<(u32, u32)>,
        seeds: Vec<(usize, u32)>,
    ) -> Result<(), ModelError> {
        let squares = self.interpreter.squares() as usize;
        let mut visited = Visited::new(self.nfa.len(), squares);
        let mut stack = Vec::new();
        for (q, s) in seeds {
            if visited.insert(q, s as usize) {
                stack.push((q, s));
            }
        }
        while let Some((q, c)) = stack.pop() {
            if self.first_only && !self.found.is_empty() {
                return Ok(());
            }
            let ticks = self.interpreter.ticks.get().wrapping_add(1);
            self.interpreter.ticks.set(ticks);
            if ticks.is_multiple_of(1024) {
                if let Some(deadline) = self.interpreter.deadline.get() {
                    if Instant::now() > deadline {
                        return Err(ModelError::new("move search stopped at the time limit"));
                    }
                }
            }
            if q == self.nfa.accept {
                self.found.insert(Semimove {
                    writes: prefix.clone(),
                    end: Terminator::Semi,
                });
            }
            for &r in &self.nfa.eps[q] {
                if visited.insert(r, c as usize) {
                    stack.push((r, c));
                }
            }
            for (letter, r) in &self.nfa.edges[q] {
                match letter {
                    Letter::Marker(target) => {
                        let players = self.interpreter.game.players.len();
                        self.found.insert(Semimove {
                            writes: prefix.clone(),
                            end: Terminator::To(resolve(*target, self.player, players)),
                        });
                    }
                    Letter::Step(step) => {
                        let Some(c2) = self.interpreter.shift(c, step.dx, step.dy) else {
                            continue;
                        };
                        if step
                            .on
                            .as_ref()
                            .is_some_and(|on| !on[board[c2 as usize] as usize])
                        {
                            continue;
                        }
                        let Some(off) = &step.off else {
                            if visited.insert(*r, c2 as usize) {
                                stack.push((*r, c2));
                            }
                            continue;
                        };
                        if prefix.len() >= MAX_WRITES {
                            return Err(ModelError::new(format!(
                                "improper description: a semimove makes more than {MAX_WRITES} writes"
                            )));
                        }
                        for &piece in off {
                            let old = std::mem::replace(&mut board[c2 as usize], piece);
                            prefix.push((c2, piece));
                            let result = self.run(board, prefix, vec![(*r, c2)]);
                            prefix.pop();
                            board[c2 as usize] = old;
                            result?;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

impl ForwardModel for Interpreter {
    type State = State;
    type Move = Move;

    fn player_names(&self) -> Vec<String> {
        self.game.players.clone()
    }

    fn initial(&self) -> Result<State, ModelError> {
        let mut state = State {
            board: self
                .game
                .board
                .iter()
                .map(|&p| u32::try_from(p).unwrap_or(u32::MAX))
                .collect(),
            player: 0,
            turn: 1,
            outcome: None,
        };
        if self
            .semimoves(&mut state.board.clone(), 0, true)?
            .is_empty()
        {
            state.outcome = Some(self.loses(0));
        }
        Ok(state)
    }

    fn set_deadline(&self, deadline: Option<Instant>) {
        self.deadline.set(deadline);
    }

    fn is_terminal(&self, state: &State) -> bool {
        state.outcome.is_some()
    }

    fn current_player(&self, state: &State) -> Player {
        Player::Real(state.player)
    }

    fn legal_moves(&self, state: &State, out: &mut Vec<Move>) -> Result<(), ModelError> {
        out.clear();
        if state.outcome.is_some() {
            return Ok(());
        }
        self.turns(state, out)
    }

    fn apply(&self, state: &mut State, mv: &Move) -> Result<(), ModelError> {
        if state.outcome.is_some() {
            return Err(ModelError::new("the game is over"));
        }
        let last = mv.0.len().saturating_sub(1);
        for (k, semimove) in mv.0.iter().enumerate() {
            for &(square, piece) in &semimove.writes {
                let slot = state
                    .board
                    .get_mut(square as usize)
                    .ok_or_else(|| ModelError::new("a write outside the board"))?;
                *slot = piece;
            }
            match semimove.end {
                Terminator::To(next) => {
                    state.player = next;
                    state.turn += 1;
                    return self.end_turn(state);
                }
                // A turn ending with a semimove proper: the mover is stuck.
                Terminator::Semi if k == last => {
                    state.outcome = Some(self.loses(state.player));
                }
                Terminator::Semi => {}
            }
        }
        Ok(())
    }

    fn goals(&self, state: &State) -> Vec<i64> {
        state
            .outcome
            .clone()
            .unwrap_or_else(|| vec![0; self.game.players.len()])
    }

    fn format_move(&self, mv: &Move) -> String {
        let mut words = Vec::new();
        for semimove in &mv.0 {
            for &(square, piece) in &semimove.writes {
                words.push(self.game.square_name(square as usize));
                words.push(self.game.pieces[piece as usize].clone());
            }
            words.push(match semimove.end {
                Terminator::Semi => "semi".to_string(),
                Terminator::To(q) => format!("to_{}", self.game.players[q]),
            });
        }
        words.join(" ")
    }
}
