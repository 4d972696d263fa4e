//! [`PropnetModel`]: a fast [`ForwardModel`] for GDL on the propositional
//! network, with the same sequentialized move structure, player order and
//! move names as `gdl::Reasoner`: one move per role per step, roles in RG
//! turn order (sorted by RG name), the next state computed after the last
//! role has chosen.

use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

use rg_core::joint::SimultaneousModel;
use rg_core::model::{ForwardModel, ModelError, Player};

use crate::datalog::Program;
use crate::ground::{ground, GroundProgram, GroundingError, GroundingLimits, TermId};
use crate::naming::turn_order;
use crate::net::{build, NetOutputs, Propnet};
use crate::runtime::{RuntimeEvaluator, StateFacts};
use rg_core::fx_hash::FxSet;

/// One legal action of a role.
#[derive(Clone, Debug)]
struct Action {
    term: TermId,
    legal: u32,
    /// The input component set when the action is chosen (if any rule reads it).
    input: Option<u32>,
}

/// A state between rounds (its base propositions), with its evaluation.
pub struct StateCore {
    bits: Box<[u64]>,
    values: OnceLock<Box<[u8]>>,
}

/// A state: the base propositions that hold plus the choices made so far
/// in the current step (action indices, turn order).
#[derive(Clone)]
pub struct PropnetState {
    core: Arc<StateCore>,
    choices: Vec<u32>,
}

impl PartialEq for PropnetState {
    fn eq(&self, other: &Self) -> bool {
        self.core.bits == other.core.bits && self.choices == other.choices
    }
}

impl Eq for PropnetState {}

impl Hash for PropnetState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.core.bits.hash(state);
        self.choices.hash(state);
    }
}

impl std::fmt::Debug for PropnetState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PropnetState")
            .field("bits", &self.core.bits)
            .field("choices", &self.choices)
            .finish()
    }
}

/// A move: the mover (turn order) and the index of the action in its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PropnetMove {
    pub role: u32,
    pub action: u32,
}

/// The propnet-based forward model of a GDL game.
pub struct PropnetModel {
    program: GroundProgram,
    net: Propnet,
    outputs: NetOutputs,
    role_names: Vec<String>,
    /// Per role in turn order.
    actions: Vec<Vec<Action>>,
    /// Per role in turn order: (value, component).
    goals: Vec<Vec<(TermId, u32)>>,
    initial_bits: Box<[u64]>,
    runtime: RuntimeEvaluator,
}

fn empty_core(words: usize) -> Vec<u64> {
    vec![0; words]
}

impl PropnetModel {
    /// Grounds the program and builds the network.
    pub fn new(
        program: &Program,
        limits: &GroundingLimits,
    ) -> Result<PropnetModel, GroundingError> {
        Ok(PropnetModel::from_ground(ground(program, limits)?))
    }

    pub fn from_ground(program: GroundProgram) -> PropnetModel {
        let (net, outputs) = build(&program);
        let file_names = program.role_names();
        let order = turn_order(&file_names);
        let role_names = order.iter().map(|&i| file_names[i].clone()).collect();
        let input_of: std::collections::HashMap<(TermId, TermId), u32> = outputs
            .inputs
            .iter()
            .zip(&outputs.input_components)
            .map(|(&key, &c)| (key, c))
            .collect();
        let actions = order
            .iter()
            .map(|&i| {
                let role = program.roles[i];
                outputs.legal[i]
                    .iter()
                    .map(|&(term, legal)| Action {
                        term,
                        legal,
                        input: input_of.get(&(role, term)).copied(),
                    })
                    .collect()
            })
            .collect();
        let goals = order.iter().map(|&i| outputs.goals[i].clone()).collect();
        let words = outputs.base_facts.len().div_ceil(64);
        let mut bits = empty_core(words);
        for (i, f) in outputs.base_facts.iter().enumerate() {
            if program.initial.contains(f) {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        PropnetModel {
            runtime: RuntimeEvaluator::new(&program),
            program,
            net,
            outputs,
            role_names,
            actions,
            goals,
            initial_bits: bits.into_boxed_slice(),
        }
    }

    pub fn ground_program(&self) -> &GroundProgram {
        &self.program
    }

    pub fn network(&self) -> &Propnet {
        &self.net
    }

    fn core(bits: Vec<u64>) -> Arc<StateCore> {
        Arc::new(StateCore {
            bits: bits.into_boxed_slice(),
            values: OnceLock::new(),
        })
    }

    fn values<'c>(&self, core: &'c StateCore) -> &'c [u8] {
        core.values.get_or_init(|| {
            let mut values = vec![0u8; self.net.len()];
            for (i, &c) in self.outputs.base_components.iter().enumerate() {
                if core.bits[i / 64] >> (i % 64) & 1 == 1 {
                    values[c as usize] = 1;
                }
            }
            if !self.runtime.is_empty() {
                let facts: Vec<TermId> = (0..self.outputs.base_facts.len())
                    .filter(|&i| core.bits[i / 64] >> (i % 64) & 1 == 1)
                    .map(|i| self.outputs.base_facts[i])
                    .collect();
                let holds: FxSet<TermId> = facts.iter().copied().collect();
                let state = StateFacts {
                    facts: &facts,
                    holds: &holds,
                };
                for (k, &c) in self.outputs.runtime_components.iter().enumerate() {
                    let value = self.runtime.holds(&self.program.terms, k, &state);
                    values[c as usize] = u8::from(value);
                }
            }
            self.net.evaluate(&self.net.state_steps, &mut values);
            values.into_boxed_slice()
        })
    }

    fn terminal(&self, values: &[u8]) -> bool {
        self.outputs
            .terminal
            .is_some_and(|t| values[t as usize] != 0)
    }

    /// The state after every role chose (`choices` are action indices).
    fn successor(&self, core: &StateCore, choices: &[u32]) -> Arc<StateCore> {
        let mut values = self.values(core).to_vec();
        for (role, &k) in choices.iter().enumerate() {
            if let Some(input) = self.actions[role].get(k as usize).and_then(|a| a.input) {
                values[input as usize] = 1;
            }
        }
        self.net.evaluate(&self.net.move_steps, &mut values);
        let mut bits = empty_core(core.bits.len());
        for (i, next) in self.outputs.next_components.iter().enumerate() {
            if next.is_some_and(|n| values[n as usize] != 0) {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        PropnetModel::core(bits)
    }

    fn legal_indices(&self, values: &[u8], role: usize) -> impl Iterator<Item = u32> + '_ {
        let legal: Vec<u32> = self
            .actions
            .get(role)
            .map(|actions| {
                actions
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| values[a.legal as usize] != 0)
                    .map(|(k, _)| k as u32)
                    .collect()
            })
            .unwrap_or_default();
        legal.into_iter()
    }

    /// Goal values per role (turn order); an error unless each role has
    /// exactly one numeric value.
    pub fn try_goals(&self, state: &PropnetState) -> Result<Vec<i64>, ModelError> {
        let values = self.values(&state.core);
        self.goals
            .iter()
            .zip(&self.role_names)
            .map(|(goals, role)| {
                let holding: Vec<TermId> = goals
                    .iter()
                    .filter(|(_, c)| values[*c as usize] != 0)
                    .map(|(v, _)| *v)
                    .collect();
                match holding.as_slice() {
                    [v] => self
                        .program
                        .terms
                        .as_integer(&self.program.symbols, *v)
                        .ok_or_else(|| {
                            ModelError::new(format!(
                                "goal value {} of role {role} is not a number",
                                self.program.terms.display(&self.program.symbols, *v)
                            ))
                        }),
                    [] => Err(ModelError::new(format!("role {role} has no goal value"))),
                    many => Err(ModelError::new(format!(
                        "role {role} has {} goal values",
                        many.len()
                    ))),
                }
            })
            .collect()
    }

    /// The state facts (KIF) of a state, sorted.
    pub fn state_facts(&self, state: &PropnetState) -> Vec<String> {
        let mut facts: Vec<String> = self
            .outputs
            .base_facts
            .iter()
            .enumerate()
            .filter(|(i, _)| state.core.bits[i / 64] >> (i % 64) & 1 == 1)
            .map(|(_, &f)| self.program.terms.display(&self.program.symbols, f))
            .collect();
        facts.sort();
        facts
    }

    /// Whether the fact (in KIF) is a base proposition of the network:
    /// facts that no output reads are dropped by simplification.
    pub fn is_base_fact(&self, fact: &str) -> bool {
        self.outputs
            .base_facts
            .iter()
            .any(|&f| self.program.terms.display(&self.program.symbols, f) == fact)
    }
}

/// Joint moves for classic GDL perft (`rg_core::joint::joint_perft`).
impl SimultaneousModel for PropnetModel {
    type Round = Arc<StateCore>;
    /// An action index into the role's action list.
    type Action = u32;

    fn initial_round(&self) -> Result<Arc<StateCore>, ModelError> {
        Ok(PropnetModel::core(self.initial_bits.to_vec()))
    }

    fn joint_options(&self, round: &Arc<StateCore>) -> Result<Option<Vec<Vec<u32>>>, ModelError> {
        let values = self.values(round);
        if self.terminal(values) {
            return Ok(None);
        }
        Ok(Some(
            (0..self.actions.len())
                .map(|r| self.legal_indices(values, r).collect())
                .collect(),
        ))
    }

    fn joint_successor(
        &self,
        round: &Arc<StateCore>,
        actions: &[u32],
    ) -> Result<Arc<StateCore>, ModelError> {
        Ok(self.successor(round, actions))
    }
}

impl ForwardModel for PropnetModel {
    type State = PropnetState;
    type Move = PropnetMove;

    fn player_names(&self) -> Vec<String> {
        self.role_names.clone()
    }

    fn initial(&self) -> Result<PropnetState, ModelError> {
        Ok(PropnetState {
            core: PropnetModel::core(self.initial_bits.to_vec()),
            choices: Vec::new(),
        })
    }

    fn is_terminal(&self, state: &PropnetState) -> bool {
        state.choices.is_empty() && self.terminal(self.values(&state.core))
    }

    fn current_player(&self, state: &PropnetState) -> Player {
        Player::Real(
            state
                .choices
                .len()
                .min(self.role_names.len().saturating_sub(1)),
        )
    }

    fn legal_moves(
        &self,
        state: &PropnetState,
        out: &mut Vec<PropnetMove>,
    ) -> Result<(), ModelError> {
        out.clear();
        if self.is_terminal(state) {
            return Ok(());
        }
        let values = self.values(&state.core);
        let role = state.choices.len() as u32;
        out.extend(
            self.legal_indices(values, state.choices.len())
                .map(|action| PropnetMove { role, action }),
        );
        Ok(())
    }

    fn count_moves(&self, state: &PropnetState) -> Result<u64, ModelError> {
        if self.is_terminal(state) {
            return Ok(0);
        }
        let values = self.values(&state.core);
        Ok(self.legal_indices(values, state.choices.len()).count() as u64)
    }

    fn apply(&self, state: &mut PropnetState, mv: &PropnetMove) -> Result<(), ModelError> {
        let role = state.choices.len();
        let values = self.values(&state.core);
        let legal = !self.is_terminal(state)
            && mv.role as usize == role
            && self
                .actions
                .get(role)
                .and_then(|a| a.get(mv.action as usize))
                .is_some_and(|a| values[a.legal as usize] != 0);
        if !legal {
            return Err(ModelError::new(format!(
                "illegal move {} for role {}",
                self.format_move(mv),
                self.role_names.get(role).map_or("?", String::as_str)
            )));
        }
        state.choices.push(mv.action);
        if state.choices.len() == self.role_names.len() {
            state.core = self.successor(&state.core, &state.choices);
            state.choices.clear();
        }
        Ok(())
    }

    fn goals(&self, state: &PropnetState) -> Vec<i64> {
        if let Ok(goals) = self.try_goals(state) {
            return goals;
        }
        let values = self.values(&state.core);
        self.goals
            .iter()
            .map(|goals| {
                goals
                    .iter()
                    .filter(|(_, c)| values[*c as usize] != 0)
                    .filter_map(|(v, _)| self.program.terms.as_integer(&self.program.symbols, *v))
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }

    fn format_move(&self, mv: &PropnetMove) -> String {
        match self
            .actions
            .get(mv.role as usize)
            .and_then(|a| a.get(mv.action as usize))
        {
            Some(action) => self.program.rg_name(action.term),
            None => format!("<action {} of role {}>", mv.action, mv.role),
        }
    }
}
