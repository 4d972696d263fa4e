//! The [`ForwardModel`] seam and the generic tools written once against it:
//! perft (rg.md §6), flat Monte-Carlo playouts (rg.md §7) and move listing.
//!
//! Every executable semantics in the project implements [`ForwardModel`]:
//! the compiled RG engine, the native RBG interpreter, the GDL reasoner and
//! the propnet model. Differential checks compare them through this trait.

use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::Rng;

/// Who is on move in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// A real player, by its index in [`ForwardModel::player_names`].
    Real(usize),
    /// The system player that performs bookkeeping; it must have exactly one
    /// move in playouts and its moves do not consume perft depth.
    Keeper,
    /// The system player that chooses uniformly among its distinct moves;
    /// perft counts its distinct resulting states.
    Random,
}

/// A runtime failure of a model: an improper description (keeper with
/// several moves, a non-terminating move search, an invalid access...) or an
/// illegal move handed to `apply`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ModelError {
    pub message: String,
}

impl ModelError {
    pub fn new(message: impl Into<String>) -> Self {
        ModelError {
            message: message.into(),
        }
    }
}

/// An executable game semantics.
///
/// Contract:
/// - `legal_moves` returns the *distinct* moves of a state and returns none
///   exactly when the game cannot continue (terminal, or stuck);
/// - `apply` is only called with a move returned by `legal_moves` for that
///   state;
/// - models may expose keeper states (`current_player` = [`Player::Keeper`])
///   or complete keeper moves inside `initial`/`apply`; the generic tools
///   handle both;
/// - `format_move` gives the textual form used to match the moves of two
///   models of the same game (e.g. a native model and its RG translation).
pub trait ForwardModel {
    type State: Clone + Eq + Hash;
    type Move: Clone + Eq + Hash + Debug;

    /// Real players' names, in the order used by [`Player::Real`] and `goals`.
    fn player_names(&self) -> Vec<String>;
    fn initial(&self) -> Result<Self::State, ModelError>;
    fn is_terminal(&self, state: &Self::State) -> bool;
    fn current_player(&self, state: &Self::State) -> Player;
    /// Replaces the contents of `out` with the moves of `state` (an
    /// implementation clears `out` first and may reuse what it held).
    fn legal_moves(&self, state: &Self::State, out: &mut Vec<Self::Move>)
        -> Result<(), ModelError>;
    fn apply(&self, state: &mut Self::State, mv: &Self::Move) -> Result<(), ModelError>;
    /// One score per real player, in [`ForwardModel::player_names`] order.
    fn goals(&self, state: &Self::State) -> Vec<i64>;
    fn format_move(&self, mv: &Self::Move) -> String;

    /// Asks the model to stop a move generation that runs past `deadline`
    /// with a [`ModelError`] (`None` removes it). The generic tools set the
    /// budget's deadline for the duration of a computation, so that one
    /// long move search cannot outlive a time limit; models whose move
    /// generation is always short may ignore it.
    fn set_deadline(&self, _deadline: Option<Instant>) {}

    /// Number of legal moves; models may override with a cheaper count.
    fn count_moves(&self, state: &Self::State) -> Result<u64, ModelError> {
        let mut moves = Vec::new();
        self.legal_moves(state, &mut moves)?;
        Ok(moves.len() as u64)
    }
}

/// Resource limits for long computations (perft, verification).
#[derive(Clone, Debug, Default)]
pub struct Budget {
    deadline: Option<Instant>,
    /// The time allowed when the budget was made (for the message).
    limit: Duration,
    max_nodes: Option<u64>,
    nodes: u64,
    /// Shared with whoever watches the computation (and may interrupt it).
    progress: Option<Arc<Progress>>,
}

/// What a running computation shares with the outside: the nodes its
/// budgets have counted (published in batches) and an interrupt request
/// (e.g. set by a Ctrl-C handler), which every budget polls at each node.
#[derive(Debug, Default)]
pub struct Progress {
    interrupted: AtomicBool,
    nodes: AtomicU64,
}

impl Progress {
    /// Nodes counted between two publications of a budget's count.
    const BATCH: u64 = 1024;

    /// Asks every budget sharing this progress to stop at its next node.
    pub fn interrupt(&self) {
        self.interrupted.store(true, Ordering::Relaxed);
    }

    pub fn is_interrupted(&self) -> bool {
        self.interrupted.load(Ordering::Relaxed)
    }

    /// Nodes counted so far by the budgets sharing this progress (to
    /// within a batch per budget).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// Why a budgeted computation stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    #[error("time limit of {0:.1?} reached")]
    Time(Duration),
    #[error("node limit of {0} reached")]
    Nodes(u64),
    /// The computation's [`Progress`] was interrupted.
    #[error("interrupted")]
    Interrupted,
    #[error(transparent)]
    Model(#[from] ModelError),
}

impl Budget {
    pub fn unlimited() -> Self {
        Budget::default()
    }

    pub fn with_time_limit(limit: Duration) -> Self {
        Budget {
            deadline: Some(Instant::now() + limit),
            limit,
            ..Budget::default()
        }
    }

    pub fn with_deadline(deadline: Option<Instant>) -> Self {
        Budget {
            deadline,
            limit: deadline.map_or(Duration::ZERO, |d| {
                d.saturating_duration_since(Instant::now())
            }),
            ..Budget::default()
        }
    }

    pub fn max_nodes(mut self, nodes: u64) -> Self {
        self.max_nodes = Some(nodes);
        self
    }

    /// Shares the node count with `progress` and stops when it is
    /// interrupted.
    pub fn with_progress(mut self, progress: Arc<Progress>) -> Self {
        self.progress = Some(progress);
        self
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    pub fn progress(&self) -> Option<&Arc<Progress>> {
        self.progress.as_ref()
    }

    /// Counts one expanded node; fails once a limit is passed. The clock is
    /// read at every node: a single move generation can take long (arimaa,
    /// with 200,000 moves per position), and reading a monotonic clock costs
    /// far less than generating moves.
    #[inline]
    pub fn tick(&mut self) -> Result<(), LimitError> {
        self.nodes += 1;
        if let Some(max) = self.max_nodes {
            if self.nodes > max {
                return Err(LimitError::Nodes(max));
            }
        }
        if self.deadline.is_some() {
            self.check_time()?;
        }
        if let Some(progress) = &self.progress {
            if self.nodes.is_multiple_of(Progress::BATCH) {
                progress.nodes.fetch_add(Progress::BATCH, Ordering::Relaxed);
            }
            if progress.is_interrupted() {
                return Err(LimitError::Interrupted);
            }
        }
        Ok(())
    }

    pub fn check_time(&self) -> Result<(), LimitError> {
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => Err(LimitError::Time(self.limit)),
            _ => Ok(()),
        }
    }
}

/// perft(s, d) of rg.md §6: the number of states exactly `d` non-keeper
/// moves below `state`. Keeper moves do not consume depth; random moves
/// count distinct resulting states.
pub fn perft<M: ForwardModel>(
    model: &M,
    state: &M::State,
    depth: u32,
    budget: &mut Budget,
) -> Result<u64, LimitError> {
    model.set_deadline(budget.deadline());
    let result = perft_within(model, state, depth, budget);
    model.set_deadline(None);
    match result {
        // The model stopped a move search at the deadline.
        Err(LimitError::Model(_)) if budget.deadline.is_some() => match budget.check_time() {
            Err(time) => Err(time),
            Ok(()) => result,
        },
        result => result,
    }
}

fn perft_within<M: ForwardModel>(
    model: &M,
    state: &M::State,
    depth: u32,
    budget: &mut Budget,
) -> Result<u64, LimitError> {
    if depth == 0 {
        return Ok(1);
    }
    budget.tick()?;
    let player = model.current_player(state);
    if depth == 1 && matches!(player, Player::Real(_)) {
        return Ok(model.count_moves(state)?);
    }
    let mut moves = Vec::new();
    model.legal_moves(state, &mut moves)?;
    let mut total = 0;
    // One child buffer for all moves (a copy of `state` before each).
    let mut child = state.clone();
    match player {
        Player::Keeper => {
            for mv in &moves {
                child.clone_from(state);
                model.apply(&mut child, mv)?;
                total += perft_within(model, &child, depth, budget)?;
            }
        }
        Player::Random => {
            let mut seen = HashSet::new();
            for mv in &moves {
                child.clone_from(state);
                model.apply(&mut child, mv)?;
                if seen.insert(child.clone()) {
                    total += perft_within(model, &child, depth - 1, budget)?;
                }
            }
        }
        Player::Real(_) => {
            for mv in &moves {
                child.clone_from(state);
                model.apply(&mut child, mv)?;
                total += perft_within(model, &child, depth - 1, budget)?;
            }
        }
    }
    Ok(total)
}

/// Perft from the initial state at every depth `0..=max_depth`, with the time
/// each depth took. Stops at the first depth that exceeds the budget, which
/// is returned alongside the completed depths.
pub fn perft_series<M: ForwardModel>(
    model: &M,
    max_depth: u32,
    budget: &mut Budget,
) -> (Vec<(u64, Duration)>, Option<LimitError>) {
    let initial = match model.initial() {
        Ok(state) => state,
        Err(error) => return (Vec::new(), Some(error.into())),
    };
    let mut results = Vec::new();
    for depth in 0..=max_depth {
        let start = Instant::now();
        match perft(model, &initial, depth, budget) {
            Ok(count) => results.push((count, start.elapsed())),
            Err(error) => return (results, Some(error)),
        }
    }
    (results, None)
}

/// The outcome of one playout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Playout {
    pub goals: Vec<i64>,
    /// Moves made by real players.
    pub turns: u64,
    /// Sum of the number of legal moves over real-player turns.
    pub branching_sum: u64,
}

/// Plays one game from `state` with uniformly random moves (rg.md §7).
/// `max_moves` bounds all moves, keeper and random ones included, so that an
/// improper game cannot loop forever.
pub fn playout<M: ForwardModel, R: Rng>(
    model: &M,
    mut state: M::State,
    rng: &mut R,
    max_moves: u64,
) -> Result<Playout, ModelError> {
    let mut moves = Vec::new();
    let mut turns = 0;
    let mut branching_sum = 0;
    for _ in 0..max_moves {
        // Not cleared here: the model may reuse the last ply's moves.
        model.legal_moves(&state, &mut moves)?;
        if moves.is_empty() {
            if model.is_terminal(&state) {
                return Ok(Playout {
                    goals: model.goals(&state),
                    turns,
                    branching_sum,
                });
            }
            return Err(ModelError::new(
                "game unexpectedly ended: a non-terminal state has no legal move",
            ));
        }
        let chosen = match model.current_player(&state) {
            Player::Keeper => {
                if moves.len() != 1 {
                    return Err(ModelError::new(format!(
                        "keeper had {} moves; it must have exactly one",
                        moves.len()
                    )));
                }
                0
            }
            Player::Random => rng.gen_range(0..moves.len()),
            Player::Real(_) => {
                turns += 1;
                branching_sum += moves.len() as u64;
                rng.gen_range(0..moves.len())
            }
        };
        model.apply(&mut state, &moves[chosen])?;
    }
    Err(ModelError::new(format!(
        "playout did not end within {max_moves} moves"
    )))
}

/// Aggregate statistics of many playouts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayoutStats {
    pub playouts: u64,
    pub seconds: f64,
    pub total_turns: u64,
    pub total_branching: u64,
    /// Sum of goals per player.
    pub goal_sums: Vec<i64>,
}

impl PlayoutStats {
    pub fn playouts_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.playouts as f64 / self.seconds
        } else {
            0.0
        }
    }

    pub fn average_length(&self) -> f64 {
        ratio(self.total_turns, self.playouts)
    }

    pub fn average_branching(&self) -> f64 {
        ratio(self.total_branching, self.total_turns)
    }

    pub fn average_goals(&self) -> Vec<f64> {
        self.goal_sums
            .iter()
            .map(|&sum| {
                if self.playouts == 0 {
                    0.0
                } else {
                    sum as f64 / self.playouts as f64
                }
            })
            .collect()
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Runs `count` playouts from the initial state.
pub fn run_playouts<M: ForwardModel, R: Rng>(
    model: &M,
    count: u64,
    rng: &mut R,
    max_moves: u64,
) -> Result<PlayoutStats, ModelError> {
    let initial = model.initial()?;
    let start = Instant::now();
    let mut stats = PlayoutStats {
        goal_sums: vec![0; model.player_names().len()],
        ..PlayoutStats::default()
    };
    for _ in 0..count {
        let result = playout(model, initial.clone(), rng, max_moves)?;
        stats.playouts += 1;
        stats.total_turns += result.turns;
        stats.total_branching += result.branching_sum;
        for (sum, goal) in stats.goal_sums.iter_mut().zip(&result.goals) {
            *sum += goal;
        }
    }
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(stats)
}

/// The formatted legal moves of a state, sorted for stable output.
pub fn list_moves<M: ForwardModel>(model: &M, state: &M::State) -> Result<Vec<String>, ModelError> {
    let mut moves = Vec::new();
    model.legal_moves(state, &mut moves)?;
    let mut formatted: Vec<String> = moves.iter().map(|m| model.format_move(m)).collect();
    formatted.sort();
    Ok(formatted)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Nim-like toy: take 1 or 2 from a pile; players alternate; the keeper
    /// hands over the turn after each move; a random toss at the start
    /// picks pile 4 or 5 through three moves (two of which give 5).
    #[derive(Clone)]
    pub struct Toy;

    #[derive(Clone, PartialEq, Eq, Hash, Debug)]
    pub struct ToyState {
        pile: i32,
        mover: i32, // 0, 1 real; 2 keeper; 3 random
        next: i32,
    }

    impl ForwardModel for Toy {
        type State = ToyState;
        type Move = i32;
        fn player_names(&self) -> Vec<String> {
            vec!["a".into(), "b".into()]
        }
        fn initial(&self) -> Result<ToyState, ModelError> {
            Ok(ToyState {
                pile: 0,
                mover: 3,
                next: 0,
            })
        }
        fn is_terminal(&self, s: &ToyState) -> bool {
            s.mover != 3 && s.pile == 0
        }
        fn current_player(&self, s: &ToyState) -> Player {
            match s.mover {
                0 | 1 => Player::Real(s.mover as usize),
                2 => Player::Keeper,
                _ => Player::Random,
            }
        }
        fn legal_moves(&self, s: &ToyState, out: &mut Vec<i32>) -> Result<(), ModelError> {
            out.clear();
            match s.mover {
                3 => out.extend([40, 50, 51]),
                2 => out.push(0),
                _ => out.extend((1..=2).filter(|&k| k <= s.pile)),
            }
            Ok(())
        }
        fn apply(&self, s: &mut ToyState, m: &i32) -> Result<(), ModelError> {
            match s.mover {
                3 => {
                    s.pile = m / 10;
                    s.mover = 0;
                }
                2 => s.mover = s.next,
                p => {
                    s.pile -= m;
                    s.next = 1 - p;
                    s.mover = 2;
                }
            }
            Ok(())
        }
        fn goals(&self, s: &ToyState) -> Vec<i64> {
            // The player who took the last object wins.
            if s.next == 1 {
                vec![1, 0]
            } else {
                vec![0, 1]
            }
        }
        fn format_move(&self, m: &i32) -> String {
            m.to_string()
        }
    }

    fn brute_force(pile: i32, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        (1..=2.min(pile))
            .map(|k| brute_force(pile - k, depth - 1))
            .sum()
    }

    #[test]
    fn perft_merges_random_outcomes_and_skips_keeper_depth() {
        let model = Toy;
        let s = model.initial().unwrap();
        let mut budget = Budget::unlimited();
        assert_eq!(perft(&model, &s, 0, &mut budget).unwrap(), 1);
        // Moves 50 and 51 reach the same state: two distinct outcomes.
        assert_eq!(perft(&model, &s, 1, &mut budget).unwrap(), 2);
        for depth in 2..7 {
            let expected = brute_force(4, depth - 1) + brute_force(5, depth - 1);
            assert_eq!(perft(&model, &s, depth, &mut budget).unwrap(), expected);
        }
    }

    #[test]
    fn perft_stops_at_node_limit() {
        let model = Toy;
        let s = model.initial().unwrap();
        let mut budget = Budget::unlimited().max_nodes(3);
        assert_eq!(perft(&model, &s, 6, &mut budget), Err(LimitError::Nodes(3)));
    }

    #[test]
    fn an_interrupted_progress_stops_every_budget_sharing_it() {
        let model = Toy;
        let s = model.initial().unwrap();
        let progress = Arc::new(Progress::default());
        let mut budget = Budget::unlimited().with_progress(Arc::clone(&progress));
        assert!(perft(&model, &s, 6, &mut budget).is_ok());
        progress.interrupt();
        assert_eq!(
            perft(&model, &s, 6, &mut budget.clone()),
            Err(LimitError::Interrupted)
        );
    }

    #[test]
    fn playouts_end_and_count_real_turns_only() {
        let model = Toy;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let stats = run_playouts(&model, 200, &mut rng, 1000).unwrap();
        assert_eq!(stats.playouts, 200);
        // A pile of 4 or 5 takes between 2 and 5 real turns.
        assert!(stats.average_length() >= 2.0 && stats.average_length() <= 5.0);
        let total: f64 = stats.average_goals().iter().sum();
        assert!((total - 1.0).abs() < 1e-9, "exactly one winner per game");
    }

    #[test]
    fn playout_reports_a_game_that_does_not_end() {
        let model = Toy;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        let err = playout(&model, model.initial().unwrap(), &mut rng, 2).unwrap_err();
        assert!(err.message.contains("did not end"), "{err}");
    }
}
