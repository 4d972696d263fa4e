//! Goal-directed evaluation with tabling (gdl.md §3.2, "top-down").
//!
//! Every call of a relation is a *subgoal*: the relation and, per
//! argument, its ground value or "open" (an argument with a free variable
//! is left open and the answers are filtered by unification). Each subgoal
//! has a table of answers, solved once by resolving the call against the
//! relation's clauses, left to right, with backtracking.
//!
//! Recursion is handled by tabling with completion detection: a call that
//! meets a subgoal still being solved further up the stack uses the answers
//! found so far and records that it depends on that ancestor. The oldest
//! subgoal of such a mutually dependent group (the *leader*) re-solves the
//! group until a pass adds no answer, then marks every table of the group
//! complete. Negation asks a ground subgoal and requires its table to be
//! complete; in a stratified program it always is, since the negated
//! relation cannot depend on the caller.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use rg_core::model::ModelError;

use super::program::{Goal, Level, Program, RelId};
use super::terms::{Env, Ground, Pat, Sym};

/// One answer: the ground arguments of the relation.
pub type Tuple = Rc<[Ground]>;

/// A table's answers as seen at one moment (cheap to clone).
pub type Answers = Rc<Vec<Tuple>>;

/// How far evaluation may go before it gives up with an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProverLimits {
    /// Answers in all tables filled by one query.
    pub answers_per_query: u64,
    /// Subgoals waiting on each other (nested calls).
    pub call_depth: usize,
}

impl Default for ProverLimits {
    fn default() -> Self {
        ProverLimits {
            answers_per_query: 5_000_000,
            call_depth: 10_000,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Subgoal {
    rel: RelId,
    args: Box<[Option<Ground>]>,
}

impl Subgoal {
    pub fn new(rel: RelId, args: Vec<Option<Ground>>) -> Self {
        Subgoal {
            rel,
            args: args.into(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Complete,
    /// Being solved at this depth of the call stack.
    Active {
        depth: usize,
    },
    /// Solved in `round` as a member of a group whose oldest subgoal is at
    /// depth `low`; answers may still grow.
    Evaluated {
        round: u64,
        low: usize,
    },
}

#[derive(Debug)]
struct Table {
    answers: Answers,
    seen: HashSet<Tuple>,
    status: Status,
}

/// The tables of one lifetime (the game, a state, a joint move).
#[derive(Debug, Default)]
pub struct Tables {
    map: HashMap<Subgoal, Table>,
}

impl Tables {
    /// Drops tables an interrupted query left incomplete.
    fn discard_incomplete(&mut self) {
        self.map.retain(|_, t| t.status == Status::Complete);
    }
}

/// The facts a query sees: the state's `true` facts and the joint move.
#[derive(Debug, Default)]
pub struct Facts {
    by_functor: HashMap<Sym, Vec<Ground>>,
    all: HashSet<Ground>,
}

impl Facts {
    pub fn new(facts: &[Ground]) -> Self {
        let mut by_functor: HashMap<Sym, Vec<Ground>> = HashMap::new();
        for fact in facts {
            by_functor
                .entry(fact.functor())
                .or_default()
                .push(fact.clone());
        }
        Facts {
            by_functor,
            all: facts.iter().cloned().collect(),
        }
    }
}

/// One query's evaluation over the three lifetimes of tables.
pub struct Solver<'a> {
    program: &'a Program,
    tables: [&'a mut Tables; 3],
    truths: &'a Facts,
    does: &'a [(Ground, Ground)],
    limits: ProverLimits,
    /// Per active subgoal: the lowest stack depth it was seen to depend on.
    stack: Vec<usize>,
    /// Subgoals solved as group members, completed with their leader.
    members: Vec<(Level, Subgoal)>,
    round: u64,
    added: u64,
}

impl<'a> Solver<'a> {
    pub fn new(
        program: &'a Program,
        tables: [&'a mut Tables; 3],
        truths: &'a Facts,
        does: &'a [(Ground, Ground)],
        limits: ProverLimits,
    ) -> Self {
        Solver {
            program,
            tables,
            truths,
            does,
            limits,
            stack: Vec::new(),
            members: Vec::new(),
            round: 0,
            added: 0,
        }
    }

    /// All answers of `subgoal`. On error, tables left incomplete are
    /// dropped, so later queries start clean.
    pub fn query(&mut self, subgoal: Subgoal) -> Result<Answers, ModelError> {
        let result = self.call(subgoal);
        if result.is_err() {
            self.stack.clear();
            self.members.clear();
            for tables in &mut self.tables {
                tables.discard_incomplete();
            }
        }
        result
    }

    fn level(&self, rel: RelId) -> usize {
        self.program.relations[rel].level as usize
    }

    fn depend(&mut self, depth: usize) {
        if let Some(low) = self.stack.last_mut() {
            *low = (*low).min(depth);
        }
    }

    fn call(&mut self, subgoal: Subgoal) -> Result<Answers, ModelError> {
        let level = self.level(subgoal.rel);
        if let Some(table) = self.tables[level].map.get(&subgoal) {
            let answers = Rc::clone(&table.answers);
            match table.status {
                Status::Complete => return Ok(answers),
                Status::Active { depth } => {
                    self.depend(depth);
                    return Ok(answers);
                }
                Status::Evaluated { round, low } if round == self.round => {
                    self.depend(low);
                    return Ok(answers);
                }
                Status::Evaluated { .. } => {}
            }
        }
        let depth = self.stack.len();
        if depth >= self.limits.call_depth {
            return Err(ModelError::new(format!(
                "the prover's call depth limit of {} nested subgoals was exceeded while \
                 evaluating {} (ProverLimits::call_depth)",
                self.limits.call_depth,
                self.describe(&subgoal)
            )));
        }
        let mark = self.members.len();
        self.stack.push(usize::MAX);
        self.tables[level]
            .map
            .entry(subgoal.clone())
            .or_insert_with(|| Table {
                answers: Rc::default(),
                seen: HashSet::new(),
                status: Status::Active { depth },
            })
            .status = Status::Active { depth };
        loop {
            let before = self.added;
            self.resolve(&subgoal, level)?;
            let low = *self.stack.last().expect("the subgoal's frame");
            if low < depth {
                // A member of a group led further up: solved for this round.
                self.stack.pop();
                let round = self.round;
                let table = self.table_mut(level, &subgoal);
                table.status = Status::Evaluated { round, low };
                let answers = Rc::clone(&table.answers);
                self.members.push((Level::from(level), subgoal));
                self.depend(low);
                return Ok(answers);
            }
            if low == depth && self.added != before {
                // The leader of a recursive group: another pass.
                self.round += 1;
                *self.stack.last_mut().expect("the subgoal's frame") = usize::MAX;
                continue;
            }
            break;
        }
        self.stack.pop();
        for (member_level, member) in self.members.split_off(mark) {
            self.table_mut(member_level as usize, &member).status = Status::Complete;
        }
        let table = self.table_mut(level, &subgoal);
        table.status = Status::Complete;
        Ok(Rc::clone(&table.answers))
    }

    fn table_mut(&mut self, level: usize, subgoal: &Subgoal) -> &mut Table {
        self.tables[level]
            .map
            .get_mut(subgoal)
            .expect("tables are created before they are filled")
    }

    /// One pass over the relation's clauses.
    fn resolve(&mut self, subgoal: &Subgoal, level: usize) -> Result<(), ModelError> {
        let relation = &self.program.relations[subgoal.rel];
        for clause in &relation.clauses {
            let mut env = Env::new(clause.slots);
            let head_matches = clause
                .head
                .iter()
                .zip(subgoal.args.iter())
                .all(|(pat, arg)| arg.as_ref().is_none_or(|g| env.unify(pat, g)));
            if !head_matches {
                continue;
            }
            self.conjunction(&clause.body, &mut env, &mut |solver, env| {
                let tuple: Option<Vec<Ground>> =
                    clause.head.iter().map(|p| env.ground(p)).collect();
                let Some(tuple) = tuple else {
                    return Err(ModelError::new(format!(
                        "a rule for {} derives an atom with an unbound variable (unsafe rule)",
                        solver.program.symbols.name(relation.name)
                    )));
                };
                solver.add_answer(level, subgoal, tuple.into())
            })?;
        }
        Ok(())
    }

    fn add_answer(
        &mut self,
        level: usize,
        subgoal: &Subgoal,
        tuple: Tuple,
    ) -> Result<(), ModelError> {
        let table = self.table_mut(level, subgoal);
        if table.seen.insert(Rc::clone(&tuple)) {
            Rc::make_mut(&mut table.answers).push(tuple);
            self.added += 1;
            if self.added > self.limits.answers_per_query {
                return Err(ModelError::new(format!(
                    "the prover's limit of {} answers per query was exceeded while evaluating {} \
                     (ProverLimits::answers_per_query)",
                    self.limits.answers_per_query,
                    self.describe(subgoal)
                )));
            }
        }
        Ok(())
    }

    /// Solves `goals` left to right under `env`, calling `found` for each
    /// solution.
    fn conjunction(
        &mut self,
        goals: &[Goal],
        env: &mut Env,
        found: &mut dyn FnMut(&mut Self, &mut Env) -> Result<(), ModelError>,
    ) -> Result<(), ModelError> {
        let Some((goal, rest)) = goals.split_first() else {
            return found(self, env);
        };
        match goal {
            Goal::Call(rel, pats) => {
                let subgoal = Subgoal::new(*rel, pats.iter().map(|p| env.ground(p)).collect());
                let answers = self.call(subgoal)?;
                for tuple in answers.iter() {
                    let mark = env.mark();
                    if pats.iter().zip(tuple.iter()).all(|(p, g)| env.unify(p, g)) {
                        self.conjunction(rest, env, found)?;
                    }
                    env.undo(mark);
                }
            }
            Goal::True(pat) => {
                let truths = self.truths;
                let candidates: Box<dyn Iterator<Item = &Ground>> = match top_symbol(pat, env) {
                    Some(functor) => {
                        Box::new(truths.by_functor.get(&functor).into_iter().flatten())
                    }
                    None => Box::new(truths.all.iter()),
                };
                for fact in candidates {
                    let mark = env.mark();
                    if env.unify(pat, fact) {
                        self.conjunction(rest, env, found)?;
                    }
                    env.undo(mark);
                }
            }
            Goal::Does(role, action) => {
                let does = self.does;
                for (r, a) in does {
                    let mark = env.mark();
                    if env.unify(role, r) && env.unify(action, a) {
                        self.conjunction(rest, env, found)?;
                    }
                    env.undo(mark);
                }
            }
            Goal::Distinct(..) | Goal::Equal(..) | Goal::Not(_) => {
                if self.holds(goal, env)? {
                    self.conjunction(rest, env, found)?;
                }
            }
            Goal::Or(alternatives) => {
                for alternative in alternatives {
                    self.conjunction(alternative, env, &mut |solver, env| {
                        solver.conjunction(rest, env, found)
                    })?;
                }
            }
        }
        Ok(())
    }

    /// Whether a filter holds; its variables must be bound.
    fn holds(&mut self, goal: &Goal, env: &Env) -> Result<bool, ModelError> {
        let ground = |pat: &Pat| {
            env.ground(pat).ok_or_else(|| {
                ModelError::new(
                    "a `not` or `distinct` is reached with an unbound variable (unsafe rule)"
                        .to_string(),
                )
            })
        };
        Ok(match goal {
            Goal::Distinct(a, b) => ground(a)? != ground(b)?,
            Goal::Equal(a, b) => ground(a)? == ground(b)?,
            Goal::Not(inner) => !self.holds_positively(inner, env, &ground)?,
            _ => unreachable!("only filters are tested"),
        })
    }

    fn holds_positively(
        &mut self,
        goal: &Goal,
        env: &Env,
        ground: &dyn Fn(&Pat) -> Result<Ground, ModelError>,
    ) -> Result<bool, ModelError> {
        Ok(match goal {
            Goal::True(pat) => self.truths.all.contains(&ground(pat)?),
            Goal::Does(role, action) => {
                let pair = (ground(role)?, ground(action)?);
                self.does.contains(&pair)
            }
            Goal::Call(rel, pats) => {
                let args: Result<Vec<_>, _> = pats.iter().map(|p| ground(p).map(Some)).collect();
                let subgoal = Subgoal::new(*rel, args?);
                let answers = self.call(subgoal.clone())?;
                let level = self.level(*rel);
                if self.tables[level].map[&subgoal].status != Status::Complete {
                    return Err(ModelError::new(format!(
                        "{} is negated inside its own recursion (the rules are not stratified)",
                        self.describe(&subgoal)
                    )));
                }
                !answers.is_empty()
            }
            Goal::Distinct(..) | Goal::Equal(..) | Goal::Not(_) | Goal::Or(_) => {
                self.holds(goal, env)?
            }
        })
    }

    fn describe(&self, subgoal: &Subgoal) -> String {
        let symbols = &self.program.symbols;
        let relation = &self.program.relations[subgoal.rel];
        let mut text = format!("({}", symbols.name(relation.name));
        for arg in &subgoal.args {
            text.push(' ');
            match arg {
                Some(g) => text.push_str(&g.display(symbols)),
                None => text.push('?'),
            }
        }
        text.push(')');
        text
    }
}

/// The constant or function name a pattern starts with, once known.
fn top_symbol(pat: &Pat, env: &Env) -> Option<Sym> {
    match pat {
        Pat::Sym(s) | Pat::App(s, _) => Some(*s),
        Pat::Var(_) => env.ground(pat).map(|g| g.functor()),
    }
}

impl From<usize> for Level {
    fn from(level: usize) -> Self {
        match level {
            0 => Level::Static,
            1 => Level::State,
            _ => Level::Move,
        }
    }
}
