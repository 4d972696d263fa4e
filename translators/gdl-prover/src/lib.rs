//! The native GDL model: a goal-directed prover with tabling (gdl.md §3.1,
//! §3.2 "top-down"), written from the specification and sharing nothing
//! with grounding or the lowering to RG but the KIF AST.
//!
//! It reads the rules as written (`or` is tried alternative by alternative,
//! not expanded), derives the roles and their turn order from the `role`
//! facts, names moves from the RG naming rules of gdl.md §7.2, and answers
//! `legal`, `terminal`, `next` and `goal` by resolution from the query
//! down (`solve`). Tables live as long as what they depend on: those of
//! static relations for the whole game, those that read `true` for one
//! state, those that read `does` for one joint move.
//!
//! As a [`ForwardModel`], one GDL step is played as one move per role, the
//! roles in the RG translation's order (by RG name), exactly like the RG
//! translation (gdl.md §4.2); [`SimultaneousModel`] gives the joint moves
//! for classic GDL perft.
//!
//! `tests/prover_independence.rs` checks that nothing here uses grounding,
//! the propnet or the lowering.

mod naming;
mod program;
mod solve;
mod terms;

use std::cell::{OnceCell, RefCell};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use rg_core::joint::SimultaneousModel;
use rg_core::model::{ForwardModel, ModelError, Player};

pub use solve::ProverLimits;
pub use terms::Ground;

use program::{Level, Program, RelId};
use solve::{Facts, Solver, Subgoal, Tables};

use gdl_ast::Description;

/// The native GDL model.
pub struct Prover {
    program: Program,
    static_tables: RefCell<Tables>,
    /// Roles in turn order, with their RG names.
    roles: Vec<Ground>,
    role_names: Vec<String>,
    initial: Vec<Ground>,
    legal: Option<RelId>,
    next: Option<RelId>,
    goal: Option<RelId>,
    terminal: Option<RelId>,
    limits: ProverLimits,
}

/// A game state between rounds, with what was derived about it.
pub struct Round {
    facts: Vec<Ground>,
    index: Facts,
    tables: RefCell<Tables>,
    info: OnceCell<Result<RoundInfo, ModelError>>,
}

#[derive(Clone, Debug)]
struct RoundInfo {
    terminal: bool,
    /// Each role's legal actions, in turn order, sorted.
    legal: Vec<Vec<Ground>>,
}

/// A state as a [`ForwardModel`] sees it: a round and the actions the
/// roles before the current one chose in it.
#[derive(Clone)]
pub struct ProverState {
    round: Rc<Round>,
    chosen: Vec<Ground>,
}

impl PartialEq for ProverState {
    fn eq(&self, other: &Self) -> bool {
        self.round.facts == other.round.facts && self.chosen == other.chosen
    }
}

impl Eq for ProverState {}

impl Hash for ProverState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.round.facts.hash(state);
        self.chosen.hash(state);
    }
}

impl std::fmt::Debug for ProverState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ProverState({} facts, {} chosen)",
            self.round.facts.len(),
            self.chosen.len()
        )
    }
}

impl Prover {
    pub fn new(description: &Description) -> Result<Prover, ModelError> {
        Prover::with_limits(description, ProverLimits::default())
    }

    pub fn with_limits(
        description: &Description,
        limits: ProverLimits,
    ) -> Result<Prover, ModelError> {
        let program = Program::compile(description)?;
        if program.roles.is_empty() {
            return Err(ModelError::new("the game has no role".to_string()));
        }
        let file_order_names: Vec<String> = program
            .roles
            .iter()
            .map(|r| naming::rg_name(r, &program.symbols))
            .collect();
        // Turn order: by RG name, ties by file order (gdl.md §7.3).
        let mut order: Vec<usize> = (0..program.roles.len()).collect();
        order.sort_by(|&a, &b| {
            file_order_names[a]
                .cmp(&file_order_names[b])
                .then(a.cmp(&b))
        });
        let mut prover = Prover {
            roles: order.iter().map(|&i| program.roles[i].clone()).collect(),
            role_names: order.iter().map(|&i| file_order_names[i].clone()).collect(),
            legal: program.find("legal", 2),
            next: program.find("next", 1),
            goal: program.find("goal", 2),
            terminal: program.find("terminal", 0),
            program,
            static_tables: RefCell::default(),
            initial: Vec::new(),
            limits,
        };
        if let Some(init) = prover.program.find("init", 1) {
            if prover.program.relations[init].level != Level::Static {
                return Err(ModelError::new(
                    "init depends on true or does (gdl.md §2.5)".to_string(),
                ));
            }
            let empty = Facts::default();
            let mut state_tables = Tables::default();
            let mut move_tables = Tables::default();
            let answers = prover.solve(
                init,
                vec![None],
                &empty,
                &[],
                &mut state_tables,
                &mut move_tables,
            )?;
            prover.initial = sorted(answers.iter().map(|t| t[0].clone()).collect());
        }
        Ok(prover)
    }

    /// The roles' GDL names in turn order (for messages).
    pub fn role_names(&self) -> &[String] {
        &self.role_names
    }

    fn solve(
        &self,
        rel: RelId,
        args: Vec<Option<Ground>>,
        truths: &Facts,
        does: &[(Ground, Ground)],
        state_tables: &mut Tables,
        move_tables: &mut Tables,
    ) -> Result<solve::Answers, ModelError> {
        let mut static_tables = self.static_tables.borrow_mut();
        let mut solver = Solver::new(
            &self.program,
            [&mut static_tables, state_tables, move_tables],
            truths,
            does,
            self.limits,
        );
        solver.query(Subgoal::new(rel, args))
    }

    /// Answers of a state-level question about `round`.
    fn ask(
        &self,
        round: &Round,
        rel: RelId,
        args: Vec<Option<Ground>>,
    ) -> Result<solve::Answers, ModelError> {
        let mut tables = round.tables.borrow_mut();
        self.solve(
            rel,
            args,
            &round.index,
            &[],
            &mut tables,
            &mut Tables::default(),
        )
    }

    fn round(&self, facts: Vec<Ground>) -> Rc<Round> {
        Rc::new(Round {
            index: Facts::new(&facts),
            facts,
            tables: RefCell::default(),
            info: OnceCell::new(),
        })
    }

    fn info<'r>(&self, round: &'r Round) -> Result<&'r RoundInfo, ModelError> {
        round
            .info
            .get_or_init(|| {
                let terminal = match self.terminal {
                    Some(rel) => !self.ask(round, rel, Vec::new())?.is_empty(),
                    None => false,
                };
                let mut legal = Vec::new();
                for role in &self.roles {
                    let actions = match self.legal {
                        Some(rel) => self
                            .ask(round, rel, vec![Some(role.clone()), None])?
                            .iter()
                            .map(|t| t[1].clone())
                            .collect(),
                        None => Vec::new(),
                    };
                    legal.push(sorted(actions));
                }
                Ok(RoundInfo { terminal, legal })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The round after every role chose (`actions` in turn order).
    fn successor(&self, round: &Round, actions: &[Ground]) -> Result<Rc<Round>, ModelError> {
        let Some(next) = self.next else {
            return Ok(self.round(Vec::new()));
        };
        let does: Vec<(Ground, Ground)> = self
            .roles
            .iter()
            .cloned()
            .zip(actions.iter().cloned())
            .collect();
        let mut state_tables = round.tables.borrow_mut();
        let answers = self.solve(
            next,
            vec![None],
            &round.index,
            &does,
            &mut state_tables,
            &mut Tables::default(),
        )?;
        Ok(self.round(sorted(answers.iter().map(|t| t[0].clone()).collect())))
    }

    /// Each role's goal values in `state` (turn order), as written.
    fn goal_values(&self, state: &ProverState) -> Result<Vec<Vec<Ground>>, ModelError> {
        let Some(goal) = self.goal else {
            return Ok(vec![Vec::new(); self.roles.len()]);
        };
        self.roles
            .iter()
            .map(|role| {
                let answers = self.ask(&state.round, goal, vec![Some(role.clone()), None])?;
                Ok(sorted(answers.iter().map(|t| t[1].clone()).collect()))
            })
            .collect()
    }

    /// Goals, with an error for a role without exactly one numeric value.
    pub fn try_goals(&self, state: &ProverState) -> Result<Vec<i64>, ModelError> {
        let values = self.goal_values(state)?;
        values
            .iter()
            .zip(&self.role_names)
            .map(|(values, role)| match values.as_slice() {
                [Ground::Sym(v)] => self.program.symbols.name(*v).parse().map_err(|_| {
                    ModelError::new(format!(
                        "role {role} has the non-numeric goal value {}",
                        self.program.symbols.name(*v)
                    ))
                }),
                [] => Err(ModelError::new(format!("role {role} has no goal value"))),
                [single] => Err(ModelError::new(format!(
                    "role {role} has the non-numeric goal value {}",
                    single.display(&self.program.symbols)
                ))),
                several => Err(ModelError::new(format!(
                    "role {role} has {} goal values",
                    several.len()
                ))),
            })
            .collect()
    }

    /// The state's facts in KIF text, sorted (for tests and messages).
    pub fn state_facts(&self, state: &ProverState) -> Vec<String> {
        let mut facts: Vec<String> = state
            .round
            .facts
            .iter()
            .map(|f| f.display(&self.program.symbols))
            .collect();
        facts.sort();
        facts
    }
}

fn sorted(mut terms: Vec<Ground>) -> Vec<Ground> {
    terms.sort_unstable();
    terms.dedup();
    terms
}

impl ForwardModel for Prover {
    type State = ProverState;
    type Move = Ground;

    fn player_names(&self) -> Vec<String> {
        self.role_names.clone()
    }

    fn initial(&self) -> Result<ProverState, ModelError> {
        Ok(ProverState {
            round: self.round(self.initial.clone()),
            chosen: Vec::new(),
        })
    }

    fn is_terminal(&self, state: &ProverState) -> bool {
        state.chosen.is_empty() && self.info(&state.round).is_ok_and(|info| info.terminal)
    }

    fn current_player(&self, state: &ProverState) -> Player {
        Player::Real(state.chosen.len().min(self.roles.len() - 1))
    }

    fn legal_moves(&self, state: &ProverState, out: &mut Vec<Ground>) -> Result<(), ModelError> {
        out.clear();
        let info = self.info(&state.round)?;
        if !(info.terminal && state.chosen.is_empty()) {
            out.extend(info.legal[state.chosen.len()].iter().cloned());
        }
        Ok(())
    }

    fn apply(&self, state: &mut ProverState, mv: &Ground) -> Result<(), ModelError> {
        let info = self.info(&state.round)?;
        let role = state.chosen.len();
        if (info.terminal && role == 0) || !info.legal[role].contains(mv) {
            return Err(ModelError::new(format!(
                "illegal move {} for role {}",
                mv.display(&self.program.symbols),
                self.role_names[role]
            )));
        }
        state.chosen.push(mv.clone());
        if state.chosen.len() == self.roles.len() {
            state.round = self.successor(&state.round, &state.chosen)?;
            state.chosen.clear();
        }
        Ok(())
    }

    fn goals(&self, state: &ProverState) -> Vec<i64> {
        if let Ok(goals) = self.try_goals(state) {
            return goals;
        }
        // Best effort for ill-formed games: the largest numeric value, else 0.
        let Ok(values) = self.goal_values(state) else {
            return vec![0; self.roles.len()];
        };
        values
            .iter()
            .map(|values| {
                values
                    .iter()
                    .filter_map(|v| match v {
                        Ground::Sym(s) => self.program.symbols.name(*s).parse::<i64>().ok(),
                        Ground::App(..) => None,
                    })
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }

    fn format_move(&self, mv: &Ground) -> String {
        naming::rg_name(mv, &self.program.symbols)
    }
}

impl SimultaneousModel for Prover {
    type Round = Rc<Round>;
    type Action = Ground;

    fn initial_round(&self) -> Result<Rc<Round>, ModelError> {
        Ok(self.round(self.initial.clone()))
    }

    fn joint_options(&self, round: &Rc<Round>) -> Result<Option<Vec<Vec<Ground>>>, ModelError> {
        let info = self.info(round)?;
        Ok((!info.terminal).then(|| info.legal.clone()))
    }

    fn joint_successor(
        &self,
        round: &Rc<Round>,
        actions: &[Ground],
    ) -> Result<Rc<Round>, ModelError> {
        self.successor(round, actions)
    }
}
