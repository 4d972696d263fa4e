//! The native GDL reasoner (gdl.md §3): evaluates the non-ground rules
//! bottom-up per state, independently of grounding, and plays the game as a
//! [`ForwardModel`] whose steps are sequentialized over roles in the RG turn
//! order (roles sorted by RG name, gdl.md §4.2, §7.3).
//!
//! A state's derived facts are computed lazily in layers (see
//! [`compile::LayerKind`]) and shared by all states of the same step, so the
//! roles choosing one after another re-use one evaluation.

mod compile;
mod eval;
mod table;
pub mod terms;

use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use rg_core::model::{Budget, ForwardModel, LimitError, ModelError, Player};

use compile::{intern_term, LayerKind, Program, RelId, LAYER_COUNT};
use eval::{evaluate_layer, Layer};
use terms::{TermId, TermStore};

use crate::validate::Game;

/// Bounds on one evaluation, so that a runaway recursion fails cleanly.
#[derive(Clone, Copy, Debug)]
pub struct ReasonerLimits {
    /// Facts derived in one layer of one state.
    pub max_facts: usize,
    /// Semi-naive rounds of one recursive stratum.
    pub max_rounds: usize,
    /// Distinct ground terms over the reasoner's lifetime.
    pub max_terms: usize,
}

impl Default for ReasonerLimits {
    fn default() -> Self {
        ReasonerLimits {
            max_facts: 2_000_000,
            max_rounds: 100_000,
            max_terms: 20_000_000,
        }
    }
}

struct CoreInfo {
    layer: Layer,
    /// Legal actions per role in turn order.
    legal: Vec<Vec<TermId>>,
    terminal: bool,
}

/// One GDL state (its facts) with the layers derived from it so far.
struct StateCore {
    facts: Box<[TermId]>,
    core: OnceLock<Result<CoreInfo, ModelError>>,
    next_pre: OnceLock<Result<Layer, ModelError>>,
    goal: OnceLock<Result<Layer, ModelError>>,
}

impl StateCore {
    fn new(mut facts: Vec<TermId>) -> Arc<StateCore> {
        facts.sort_unstable();
        facts.dedup();
        Arc::new(StateCore {
            facts: facts.into_boxed_slice(),
            core: OnceLock::new(),
            next_pre: OnceLock::new(),
            goal: OnceLock::new(),
        })
    }
}

/// A reasoner state: the GDL state plus the actions chosen so far in the
/// current step (by the first roles in turn order).
#[derive(Clone)]
pub struct ReasonerState {
    core: Arc<StateCore>,
    choices: Vec<TermId>,
}

impl PartialEq for ReasonerState {
    fn eq(&self, other: &Self) -> bool {
        self.core.facts == other.core.facts && self.choices == other.choices
    }
}

impl Eq for ReasonerState {}

impl Hash for ReasonerState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.core.facts.hash(state);
        self.choices.hash(state);
    }
}

impl std::fmt::Debug for ReasonerState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReasonerState")
            .field("facts", &self.core.facts)
            .field("choices", &self.choices)
            .finish()
    }
}

/// A move: the chosen action (a ground term of the reasoner's store).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GdlMove {
    pub action: TermId,
}

/// The non-ground GDL reasoner.
pub struct Reasoner {
    program: Program,
    store: Mutex<TermStore>,
    static_layer: Layer,
    limits: ReasonerLimits,
    /// Role terms in turn order.
    roles: Vec<TermId>,
    /// RG names of the roles in turn order.
    role_names: Vec<String>,
    initial_facts: Vec<TermId>,
}

fn model_error(error: &ModelError) -> ModelError {
    error.clone()
}

/// Why building a reasoner failed.
enum BuildError {
    /// The static model exceeded a limit while deriving this relation.
    StaticTooLarge(ModelError, (String, usize)),
    Model(ModelError),
}

impl From<ModelError> for BuildError {
    fn from(error: ModelError) -> Self {
        BuildError::Model(error)
    }
}

impl From<eval::EvalError> for ModelError {
    fn from(error: eval::EvalError) -> Self {
        error.error
    }
}

impl Reasoner {
    pub fn new(game: &Game) -> Result<Reasoner, ModelError> {
        Reasoner::with_limits(game, ReasonerLimits::default())
    }

    pub fn with_limits(game: &Game, limits: ReasonerLimits) -> Result<Reasoner, ModelError> {
        let mut demand: Vec<(String, usize)> = Vec::new();
        loop {
            match Reasoner::build(game, limits, &demand) {
                Err(BuildError::StaticTooLarge(error, relation)) => {
                    // Evaluate the offending relation on demand instead, if
                    // every use of it can supply bound arguments.
                    let mut wider = compile::demand_set(game, &relation).ok_or(error.clone())?;
                    wider.retain(|key| !demand.contains(key));
                    if wider.is_empty() {
                        return Err(error);
                    }
                    demand.extend(wider);
                }
                Err(BuildError::Model(error)) => return Err(error),
                Ok(reasoner) => return Ok(reasoner),
            }
        }
    }

    fn build(
        game: &Game,
        limits: ReasonerLimits,
        demand: &[(String, usize)],
    ) -> Result<Reasoner, BuildError> {
        let mut store = TermStore::default();
        let (mut program, sccs) = Program::analyze(game, demand)?;
        let mut fact_counts = vec![0usize; program.relations.len()];
        for rule in game.rules.iter().filter(|r| r.body.is_empty()) {
            if let Some(r) = program.rel(&rule.head.name, rule.head.args.len()) {
                fact_counts[r] += 1;
            }
        }
        program.compile_components(game, &sccs, &[LayerKind::Static], &mut store, &|r| {
            Some(fact_counts[r].max(20))
        });
        let mut static_layer = evaluate_layer(
            &program,
            LayerKind::Static,
            [None; LAYER_COUNT],
            &mut store,
            &limits,
            |_, _| {},
        )
        .map_err(|e| match e.relation {
            Some(relation) => BuildError::StaticTooLarge(e.error, relation),
            None => BuildError::Model(e.error),
        })?;
        let sizes: Vec<Option<usize>> = program
            .relations
            .iter()
            .map(|r| {
                (r.layer == Some(LayerKind::Static)).then(|| static_layer.tables[r.local].len())
            })
            .collect();
        program.compile_components(
            game,
            &sccs,
            &[
                LayerKind::Core,
                LayerKind::NextPre,
                LayerKind::Goal,
                LayerKind::Move,
            ],
            &mut store,
            &|r: RelId| sizes[r],
        );
        for relation in &program.relations {
            if relation.layer == Some(LayerKind::Static) {
                static_layer.tables[relation.local].ensure_index_slots(relation.specs.len());
            }
        }
        let mut role_terms = Vec::new();
        for role in &game.roles {
            let t = intern_term(&mut store, role)
                .ok_or_else(|| ModelError::new(format!("role {role} is not ground")))?;
            role_terms.push(t);
        }
        let file_order_names: Vec<String> = role_terms
            .iter()
            .map(|&t| {
                let mut words = Vec::new();
                store.words(t, &mut words);
                propnet::naming::rg_name(words)
            })
            .collect();
        let order = propnet::naming::turn_order(&file_order_names);
        let roles: Vec<TermId> = order.iter().map(|&i| role_terms[i]).collect();
        let role_names: Vec<String> = order.iter().map(|&i| file_order_names[i].clone()).collect();
        let initial_facts = match program.relations[program.init_rel].layer {
            Some(LayerKind::Static) => {
                let table = static_layer.table(&program, program.init_rel);
                (0..table.len()).map(|r| table.rows.row(r)[0]).collect()
            }
            _ => Vec::new(),
        };
        Ok(Reasoner {
            program,
            store: Mutex::new(store),
            static_layer,
            limits,
            roles,
            role_names,
            initial_facts,
        })
    }

    fn store(&self) -> MutexGuard<'_, TermStore> {
        self.store
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The table of `rel` among the given layers.
    fn table<'a>(
        &'a self,
        rel: RelId,
        layers: &[Option<&'a Layer>; LAYER_COUNT],
    ) -> Option<&'a table::Table> {
        let relation = &self.program.relations[rel];
        let layer = layers[relation.layer? as usize]?;
        layer.tables.get(relation.local)
    }

    fn core_info<'c>(
        &self,
        core: &'c StateCore,
        store: &mut TermStore,
    ) -> Result<&'c CoreInfo, ModelError> {
        core.core
            .get_or_init(|| {
                let mut lower: [Option<&Layer>; LAYER_COUNT] = [None; LAYER_COUNT];
                lower[LayerKind::Static as usize] = Some(&self.static_layer);
                let true_rel = self.program.true_rel;
                let layer = evaluate_layer(
                    &self.program,
                    LayerKind::Core,
                    lower,
                    store,
                    &self.limits,
                    |layer, program| {
                        let table = layer.table_mut(program, true_rel);
                        for &f in &core.facts {
                            table.insert(&[f]);
                        }
                    },
                )?;
                lower[LayerKind::Core as usize] = Some(&layer);
                let terminal = self
                    .table(self.program.terminal_rel, &lower)
                    .is_some_and(|t| !t.is_empty());
                let mut legal = vec![Vec::new(); self.roles.len()];
                if let Some(table) = self.table(self.program.legal_rel, &lower) {
                    for r in 0..table.len() {
                        let row = table.rows.row(r);
                        if let Some(i) = self.roles.iter().position(|&role| role == row[0]) {
                            legal[i].push(row[1]);
                        }
                    }
                }
                Ok(CoreInfo {
                    layer,
                    legal,
                    terminal,
                })
            })
            .as_ref()
            .map_err(model_error)
    }

    fn next_pre_layer<'c>(
        &self,
        core: &'c StateCore,
        store: &mut TermStore,
    ) -> Result<&'c Layer, ModelError> {
        let info = self.core_info(core, store)?;
        core.next_pre
            .get_or_init(|| {
                let mut lower: [Option<&Layer>; LAYER_COUNT] = [None; LAYER_COUNT];
                lower[LayerKind::Static as usize] = Some(&self.static_layer);
                lower[LayerKind::Core as usize] = Some(&info.layer);
                evaluate_layer(
                    &self.program,
                    LayerKind::NextPre,
                    lower,
                    store,
                    &self.limits,
                    |_, _| {},
                )
                .map_err(ModelError::from)
            })
            .as_ref()
            .map_err(model_error)
    }

    fn goal_layer<'c>(
        &self,
        core: &'c StateCore,
        store: &mut TermStore,
    ) -> Result<&'c Layer, ModelError> {
        let info = self.core_info(core, store)?;
        let next_pre = self.next_pre_layer(core, store)?;
        core.goal
            .get_or_init(|| {
                let mut lower: [Option<&Layer>; LAYER_COUNT] = [None; LAYER_COUNT];
                lower[LayerKind::Static as usize] = Some(&self.static_layer);
                lower[LayerKind::Core as usize] = Some(&info.layer);
                lower[LayerKind::NextPre as usize] = Some(next_pre);
                evaluate_layer(
                    &self.program,
                    LayerKind::Goal,
                    lower,
                    store,
                    &self.limits,
                    |_, _| {},
                )
                .map_err(ModelError::from)
            })
            .as_ref()
            .map_err(model_error)
    }

    /// The state after every role (in turn order) played `choices`.
    fn successor(
        &self,
        core: &StateCore,
        choices: &[TermId],
        store: &mut TermStore,
    ) -> Result<Arc<StateCore>, ModelError> {
        let info = self.core_info(core, store)?;
        let next_pre = self.next_pre_layer(core, store)?;
        let mut lower: [Option<&Layer>; LAYER_COUNT] = [None; LAYER_COUNT];
        lower[LayerKind::Static as usize] = Some(&self.static_layer);
        lower[LayerKind::Core as usize] = Some(&info.layer);
        lower[LayerKind::NextPre as usize] = Some(next_pre);
        let does_rel = self.program.does_rel;
        let roles = &self.roles;
        let moves = evaluate_layer(
            &self.program,
            LayerKind::Move,
            lower,
            store,
            &self.limits,
            |layer, program| {
                let table = layer.table_mut(program, does_rel);
                for (&role, &action) in roles.iter().zip(choices) {
                    table.insert(&[role, action]);
                }
            },
        )?;
        lower[LayerKind::Move as usize] = Some(&moves);
        let facts = match self.table(self.program.next_rel, &lower) {
            Some(table) => (0..table.len()).map(|r| table.rows.row(r)[0]).collect(),
            None => Vec::new(),
        };
        Ok(StateCore::new(facts))
    }

    /// Goal values per role in turn order; an error if a role has no value,
    /// several values, or a non-numeric value.
    pub fn try_goals(&self, state: &ReasonerState) -> Result<Vec<i64>, ModelError> {
        let values = self.goal_values(state)?;
        let store = self.store();
        values
            .iter()
            .zip(&self.role_names)
            .map(|(vals, role)| match vals.as_slice() {
                [v] => parse_goal(&store, *v, role),
                [] => Err(ModelError::new(format!("role {role} has no goal value"))),
                many => Err(ModelError::new(format!(
                    "role {role} has {} goal values ({})",
                    many.len(),
                    many.iter()
                        .map(|&v| store.display(v))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))),
            })
            .collect()
    }

    /// The goal value terms of every role (turn order).
    fn goal_values(&self, state: &ReasonerState) -> Result<Vec<Vec<TermId>>, ModelError> {
        let mut store = self.store();
        let info = self.core_info(&state.core, &mut store)?;
        let next_pre = self.next_pre_layer(&state.core, &mut store)?;
        let goal = self.goal_layer(&state.core, &mut store)?;
        let mut layers: [Option<&Layer>; LAYER_COUNT] = [None; LAYER_COUNT];
        layers[LayerKind::Static as usize] = Some(&self.static_layer);
        layers[LayerKind::Core as usize] = Some(&info.layer);
        layers[LayerKind::NextPre as usize] = Some(next_pre);
        layers[LayerKind::Goal as usize] = Some(goal);
        let mut values = vec![Vec::new(); self.roles.len()];
        if let Some(table) = self.table(self.program.goal_rel, &layers) {
            for r in 0..table.len() {
                let row = table.rows.row(r);
                if let Some(i) = self.roles.iter().position(|&role| role == row[0]) {
                    values[i].push(row[1]);
                }
            }
        }
        Ok(values)
    }

    /// The facts of a state in KIF, sorted.
    pub fn state_facts(&self, state: &ReasonerState) -> Vec<String> {
        let store = self.store();
        let mut facts: Vec<String> = state.core.facts.iter().map(|&f| store.display(f)).collect();
        facts.sort();
        facts
    }
}

fn parse_goal(store: &TermStore, value: TermId, role: &str) -> Result<i64, ModelError> {
    store
        .constant_name(value)
        .and_then(|name| name.parse::<i64>().ok())
        .ok_or_else(|| {
            ModelError::new(format!(
                "goal value {} of role {role} is not a number",
                store.display(value)
            ))
        })
}

impl ForwardModel for Reasoner {
    type State = ReasonerState;
    type Move = GdlMove;

    fn player_names(&self) -> Vec<String> {
        self.role_names.clone()
    }

    fn initial(&self) -> Result<ReasonerState, ModelError> {
        Ok(ReasonerState {
            core: StateCore::new(self.initial_facts.clone()),
            choices: Vec::new(),
        })
    }

    fn is_terminal(&self, state: &ReasonerState) -> bool {
        if !state.choices.is_empty() {
            return false;
        }
        let mut store = self.store();
        self.core_info(&state.core, &mut store)
            .is_ok_and(|info| info.terminal)
    }

    fn current_player(&self, state: &ReasonerState) -> Player {
        Player::Real(state.choices.len().min(self.roles.len().saturating_sub(1)))
    }

    fn legal_moves(&self, state: &ReasonerState, out: &mut Vec<GdlMove>) -> Result<(), ModelError> {
        out.clear();
        let mut store = self.store();
        let info = self.core_info(&state.core, &mut store)?;
        if info.terminal && state.choices.is_empty() {
            return Ok(());
        }
        if let Some(actions) = info.legal.get(state.choices.len()) {
            out.extend(actions.iter().map(|&action| GdlMove { action }));
        }
        Ok(())
    }

    fn count_moves(&self, state: &ReasonerState) -> Result<u64, ModelError> {
        let mut store = self.store();
        let info = self.core_info(&state.core, &mut store)?;
        if info.terminal && state.choices.is_empty() {
            return Ok(0);
        }
        Ok(info
            .legal
            .get(state.choices.len())
            .map_or(0, |a| a.len() as u64))
    }

    fn apply(&self, state: &mut ReasonerState, mv: &GdlMove) -> Result<(), ModelError> {
        let mut store = self.store();
        let info = self.core_info(&state.core, &mut store)?;
        let role = state.choices.len();
        let legal = info.legal.get(role).is_some_and(|a| a.contains(&mv.action));
        if !legal || (info.terminal && role == 0) {
            return Err(ModelError::new(format!(
                "illegal move {} for role {}",
                store.display(mv.action),
                self.role_names.get(role).map_or("?", String::as_str)
            )));
        }
        state.choices.push(mv.action);
        if state.choices.len() == self.roles.len() {
            let next = self.successor(&state.core, &state.choices, &mut store)?;
            state.core = next;
            state.choices.clear();
        }
        Ok(())
    }

    fn goals(&self, state: &ReasonerState) -> Vec<i64> {
        if let Ok(goals) = self.try_goals(state) {
            return goals;
        }
        // Best effort for ill-formed games: the largest numeric value, else 0.
        let Ok(values) = self.goal_values(state) else {
            return vec![0; self.roles.len()];
        };
        let store = self.store();
        values
            .iter()
            .map(|vals| {
                vals.iter()
                    .filter_map(|&v| store.constant_name(v).and_then(|n| n.parse::<i64>().ok()))
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }

    fn format_move(&self, mv: &GdlMove) -> String {
        let store = self.store();
        let mut words = Vec::new();
        store.words(mv.action, &mut words);
        propnet::naming::rg_name(words)
    }
}

/// Classic GDL perft over joint moves (gdl.md §4.1): every combination of
/// the roles' legal actions is one move.
pub fn joint_perft(
    reasoner: &Reasoner,
    depth: u32,
    budget: &mut Budget,
) -> Result<u64, LimitError> {
    let initial = StateCore::new(reasoner.initial_facts.clone());
    joint_perft_from(reasoner, &initial, depth, budget)
}

fn joint_perft_from(
    reasoner: &Reasoner,
    core: &Arc<StateCore>,
    depth: u32,
    budget: &mut Budget,
) -> Result<u64, LimitError> {
    if depth == 0 {
        return Ok(1);
    }
    budget.tick()?;
    let legal = {
        let mut store = reasoner.store();
        let info = reasoner.core_info(core, &mut store)?;
        if info.terminal {
            return Ok(0);
        }
        info.legal.clone()
    };
    if legal.iter().any(Vec::is_empty) {
        return Ok(0);
    }
    if depth == 1 {
        return Ok(legal.iter().map(|a| a.len() as u64).product());
    }
    let mut total = 0;
    let mut indices = vec![0usize; legal.len()];
    loop {
        let choices: Vec<TermId> = indices.iter().zip(&legal).map(|(&i, a)| a[i]).collect();
        let next = {
            let mut store = reasoner.store();
            reasoner.successor(core, &choices, &mut store)?
        };
        total += joint_perft_from(reasoner, &next, depth - 1, budget)?;
        // Advance the mixed-radix counter over the roles' action lists.
        let mut k = legal.len();
        loop {
            if k == 0 {
                return Ok(total);
            }
            k -= 1;
            indices[k] += 1;
            if indices[k] < legal[k].len() {
                break;
            }
            indices[k] = 0;
        }
    }
}
