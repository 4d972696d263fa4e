//! The rules compiled for top-down evaluation: relations keyed by name and
//! arity, clauses whose variables are environment slots, and bodies whose
//! filters (`not`, `distinct`) wait until their variables are bound.
//!
//! The program is read straight from the KIF AST. `or` stays a goal with
//! alternatives (top-down search tries each in turn), so nothing is
//! expanded into normal form.

use std::collections::{HashMap, HashSet};

use rg_core::model::ModelError;

use super::terms::{Ground, Pat, Slot, Sym, Symbols};
use gdl_ast::{Atom, Description, Literal, Term, TermKind};

pub type RelId = usize;

/// What a relation's truth depends on, which decides how long its tables
/// live: for the whole game, for one state, or for one joint move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Static = 0,
    State = 1,
    Move = 2,
}

#[derive(Debug)]
pub struct Relation {
    pub name: Sym,
    pub clauses: Vec<Clause>,
    pub level: Level,
}

#[derive(Debug)]
pub struct Clause {
    pub head: Box<[Pat]>,
    pub body: Vec<Goal>,
    pub slots: usize,
}

#[derive(Debug)]
pub enum Goal {
    Call(RelId, Box<[Pat]>),
    True(Pat),
    Does(Pat, Pat),
    Distinct(Pat, Pat),
    Equal(Pat, Pat),
    Not(Box<Goal>),
    /// Alternatives, each a conjunction.
    Or(Vec<Vec<Goal>>),
}

impl Goal {
    /// Filters only test bindings; they run once their variables are bound.
    fn is_filter(&self) -> bool {
        matches!(self, Goal::Distinct(..) | Goal::Equal(..) | Goal::Not(_))
    }

    fn slots(&self, out: &mut Vec<Slot>) {
        match self {
            Goal::Call(_, pats) => pats.iter().for_each(|p| p.slots(out)),
            Goal::True(p) => p.slots(out),
            Goal::Does(a, b) | Goal::Distinct(a, b) | Goal::Equal(a, b) => {
                a.slots(out);
                b.slots(out);
            }
            Goal::Not(inner) => inner.slots(out),
            Goal::Or(alternatives) => alternatives.iter().flatten().for_each(|g| g.slots(out)),
        }
    }

    /// The slots certainly bound after the goal succeeds.
    fn binds(&self) -> HashSet<Slot> {
        match self {
            Goal::Or(alternatives) => {
                let mut sets = alternatives
                    .iter()
                    .map(|conjunction| conjunction.iter().flat_map(Goal::binds).collect());
                let first: HashSet<Slot> = sets.next().unwrap_or_default();
                sets.fold(first, |acc, set: HashSet<Slot>| &acc & &set)
            }
            goal if goal.is_filter() => HashSet::new(),
            goal => {
                let mut out = Vec::new();
                goal.slots(&mut out);
                out.into_iter().collect()
            }
        }
    }
}

#[derive(Debug)]
pub struct Program {
    pub symbols: Symbols,
    pub relations: Vec<Relation>,
    ids: HashMap<(Sym, usize), RelId>,
    /// The `role` facts' arguments, in file order, without repetitions.
    pub roles: Vec<Ground>,
}

impl Program {
    pub fn compile(description: &Description) -> Result<Program, ModelError> {
        let mut program = Program {
            symbols: Symbols::default(),
            relations: Vec::new(),
            ids: HashMap::new(),
            roles: Vec::new(),
        };
        for rule in &description.rules {
            let mut slots = HashMap::new();
            let head: Box<[Pat]> = rule
                .head
                .args
                .iter()
                .map(|t| program.pattern(t, &mut slots))
                .collect();
            let mut body = Vec::new();
            for literal in &rule.body {
                program.goals(literal, &mut slots, &mut body)?;
            }
            let body = order_body(body, &mut HashSet::new());
            let rel = program.relation(&rule.head);
            if rule.head.name == "role" && rule.head.args.len() == 1 && rule.body.is_empty() {
                let role = ground_of(&head[0])
                    .ok_or_else(|| ModelError::new("a role fact has a variable".to_string()))?;
                if !program.roles.contains(&role) {
                    program.roles.push(role);
                }
            }
            program.relations[rel].clauses.push(Clause {
                head,
                body,
                slots: slots.len(),
            });
        }
        program.compute_levels();
        Ok(program)
    }

    /// The relation `name`/`arity`, if any rule mentions it.
    pub fn find(&self, name: &str, arity: usize) -> Option<RelId> {
        let sym = self.symbols.lookup(name)?;
        self.ids.get(&(sym, arity)).copied()
    }

    fn relation(&mut self, atom: &Atom) -> RelId {
        let name = self.symbols.intern(&atom.name);
        let next_id = self.relations.len();
        let id = *self.ids.entry((name, atom.args.len())).or_insert(next_id);
        if id == next_id {
            self.relations.push(Relation {
                name,
                clauses: Vec::new(),
                level: Level::Static,
            });
        }
        id
    }

    fn pattern(&mut self, term: &Term, slots: &mut HashMap<String, Slot>) -> Pat {
        match &term.kind {
            TermKind::Constant(name) => Pat::Sym(self.symbols.intern(name)),
            TermKind::Variable(name) => {
                let next = slots.len();
                Pat::Var(*slots.entry(name.clone()).or_insert(next))
            }
            TermKind::Function { name, args } => Pat::App(
                self.symbols.intern(name),
                args.iter().map(|a| self.pattern(a, slots)).collect(),
            ),
        }
    }

    /// Appends the goals of `literal` (an `and` contributes several).
    fn goals(
        &mut self,
        literal: &Literal,
        slots: &mut HashMap<String, Slot>,
        out: &mut Vec<Goal>,
    ) -> Result<(), ModelError> {
        match literal {
            Literal::Atom(atom) => out.push(self.atom_goal(atom, slots)),
            Literal::Distinct(s, t, _) => {
                out.push(Goal::Distinct(
                    self.pattern(s, slots),
                    self.pattern(t, slots),
                ));
            }
            Literal::Not(inner, _) => match inner.as_ref() {
                Literal::Atom(atom) => out.push(Goal::Not(Box::new(self.atom_goal(atom, slots)))),
                Literal::Distinct(s, t, _) => {
                    out.push(Goal::Equal(self.pattern(s, slots), self.pattern(t, slots)));
                }
                _ => {
                    return Err(ModelError::new(
                        "negation applies only to an atom or a distinct".to_string(),
                    ))
                }
            },
            Literal::And(items, _) => {
                for item in items {
                    self.goals(item, slots, out)?;
                }
            }
            Literal::Or(items, _) => {
                let mut alternatives = Vec::new();
                for item in items {
                    let mut conjunction = Vec::new();
                    self.goals(item, slots, &mut conjunction)?;
                    alternatives.push(conjunction);
                }
                out.push(Goal::Or(alternatives));
            }
        }
        Ok(())
    }

    fn atom_goal(&mut self, atom: &Atom, slots: &mut HashMap<String, Slot>) -> Goal {
        let mut args: Vec<Pat> = atom.args.iter().map(|a| self.pattern(a, slots)).collect();
        match (atom.name.as_str(), args.len()) {
            ("true", 1) => Goal::True(args.remove(0)),
            ("does", 2) => {
                let action = args.remove(1);
                Goal::Does(args.remove(0), action)
            }
            _ => Goal::Call(self.relation(atom), args.into()),
        }
    }

    /// A relation's level is the highest among what its bodies read:
    /// `true` makes it a state relation, `does` a move relation.
    fn compute_levels(&mut self) {
        loop {
            let mut changed = false;
            for rel in 0..self.relations.len() {
                let mut level = self.relations[rel].level;
                for clause in &self.relations[rel].clauses {
                    for goal in &clause.body {
                        level = level.max(self.goal_level(goal));
                    }
                }
                if level != self.relations[rel].level {
                    self.relations[rel].level = level;
                    changed = true;
                }
            }
            if !changed {
                return;
            }
        }
    }

    fn goal_level(&self, goal: &Goal) -> Level {
        match goal {
            Goal::Call(rel, _) => self.relations[*rel].level,
            Goal::True(_) => Level::State,
            Goal::Does(..) => Level::Move,
            Goal::Distinct(..) | Goal::Equal(..) => Level::Static,
            Goal::Not(inner) => self.goal_level(inner),
            Goal::Or(alternatives) => alternatives
                .iter()
                .flatten()
                .map(|g| self.goal_level(g))
                .max()
                .unwrap_or(Level::Static),
        }
    }
}

/// Keeps the positive goals in source order and moves every filter right
/// after the goal that binds its last variable (safety guarantees one
/// does; a filter that stays unbound is reported when it runs).
fn order_body(goals: Vec<Goal>, bound: &mut HashSet<Slot>) -> Vec<Goal> {
    let mut ordered = Vec::new();
    let mut waiting: Vec<Goal> = Vec::new();
    let ready = |goal: &Goal, bound: &HashSet<Slot>| {
        let mut slots = Vec::new();
        goal.slots(&mut slots);
        slots.iter().all(|s| bound.contains(s))
    };
    for goal in goals {
        if goal.is_filter() {
            if ready(&goal, bound) {
                ordered.push(goal);
            } else {
                waiting.push(goal);
            }
            continue;
        }
        let goal = match goal {
            Goal::Or(alternatives) => Goal::Or(
                alternatives
                    .into_iter()
                    .map(|conjunction| order_body(conjunction, &mut bound.clone()))
                    .collect(),
            ),
            other => other,
        };
        bound.extend(goal.binds());
        ordered.push(goal);
        let (now, later): (Vec<Goal>, Vec<Goal>) =
            waiting.into_iter().partition(|g| ready(g, bound));
        ordered.extend(now);
        waiting = later;
    }
    ordered.extend(waiting);
    ordered
}

fn ground_of(pat: &Pat) -> Option<Ground> {
    match pat {
        Pat::Sym(s) => Some(Ground::Sym(*s)),
        Pat::Var(_) => None,
        Pat::App(f, args) => {
            let args: Option<Vec<Ground>> = args.iter().map(ground_of).collect();
            Some(Ground::App(*f, args?.into()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> Program {
        Program::compile(&gdl::parse::parse(text).unwrap().description).unwrap()
    }

    #[test]
    fn levels_follow_true_and_does() {
        let p = program(
            "(role a) (succ 1 2) (<= (s ?x) (true (c ?x))) (<= (m ?x) (does a ?x))
             (<= (both ?x) (s ?x) (m ?x)) (<= (st ?x) (succ ?x ?y))",
        );
        let level = |name, arity| p.relations[p.find(name, arity).unwrap()].level;
        assert_eq!(level("succ", 2), Level::Static);
        assert_eq!(level("st", 1), Level::Static);
        assert_eq!(level("s", 1), Level::State);
        assert_eq!(level("m", 1), Level::Move);
        assert_eq!(level("both", 1), Level::Move);
        assert_eq!(p.roles.len(), 1);
    }

    #[test]
    fn filters_wait_for_their_variables() {
        let p = program("(<= (p ?x ?y) (distinct ?x ?y) (not (q ?y)) (r ?x) (r ?y))");
        let body = &p.relations[p.find("p", 2).unwrap()].clauses[0].body;
        let kinds: Vec<&str> = body
            .iter()
            .map(|g| match g {
                Goal::Call(..) => "call",
                Goal::Distinct(..) => "distinct",
                Goal::Not(_) => "not",
                _ => "other",
            })
            .collect();
        assert_eq!(kinds, ["call", "call", "distinct", "not"]);
    }
}
