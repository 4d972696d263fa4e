//! Evaluation of run-time relations (gdl.md §5.8) against a state: the
//! relation's non-ground rules are solved by backtracking, `true` literals
//! matched against the facts of the state, static relations looked up in
//! their rows or, for those asked on demand, proved from their rules with
//! every argument bound.

use rg_core::fx_hash::{FxMap, FxSet};

use crate::datalog::{Literal, Rule, Symbol, Term};
use crate::ground::{GroundProgram, GroundTerms, TermId};

type Key = (Symbol, usize);

/// The rules and tables of a program's run-time relations, indexed.
#[derive(Clone, Debug, Default)]
pub struct RuntimeEvaluator {
    true_: Option<Symbol>,
    rules: Vec<Rule>,
    rules_of: FxMap<Key, Vec<usize>>,
    facts: FxMap<Key, Vec<Vec<TermId>>>,
    fact_sets: FxMap<Key, FxSet<Vec<TermId>>>,
    /// The relation and arguments of each run-time atom, in the order of
    /// `GroundProgram::runtime.atoms`.
    atoms: Vec<(Key, Vec<TermId>)>,
}

/// The facts of one state.
pub struct StateFacts<'a> {
    pub facts: &'a [TermId],
    pub holds: &'a FxSet<TermId>,
}

struct Solver<'a> {
    ev: &'a RuntimeEvaluator,
    terms: &'a GroundTerms,
    state: &'a StateFacts<'a>,
}

impl RuntimeEvaluator {
    pub fn new(program: &GroundProgram) -> RuntimeEvaluator {
        let runtime = &program.runtime;
        let mut rules_of: FxMap<Key, Vec<usize>> = FxMap::default();
        for (i, rule) in runtime.rules.iter().enumerate() {
            rules_of.entry(rule.head.key()).or_default().push(i);
        }
        let fact_sets = runtime
            .facts
            .iter()
            .map(|(&k, rows)| (k, rows.iter().cloned().collect()))
            .collect();
        let atoms = runtime
            .atoms
            .iter()
            .filter_map(|&a| program.atoms.get(a as usize))
            .map(|a| ((a.relation, a.args.len()), a.args.clone()))
            .collect();
        RuntimeEvaluator {
            true_: Some(program.vocabulary.true_),
            rules: runtime.rules.clone(),
            rules_of,
            facts: runtime.facts.clone(),
            fact_sets,
            atoms,
        }
    }

    pub fn len(&self) -> usize {
        self.atoms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.atoms.is_empty()
    }

    /// Whether the `k`-th run-time atom holds in the state.
    pub fn holds(&self, terms: &GroundTerms, k: usize, state: &StateFacts) -> bool {
        let Some((key, args)) = self.atoms.get(k) else {
            return false;
        };
        Solver {
            ev: self,
            terms,
            state,
        }
        .prove(*key, args)
    }
}

impl Solver<'_> {
    /// Whether `key(args)` follows from its rules (arguments ground).
    fn prove(&self, key: Key, args: &[TermId]) -> bool {
        let Some(rules) = self.ev.rules_of.get(&key) else {
            return false;
        };
        rules.iter().any(|&i| {
            let rule = &self.ev.rules[i];
            let mut env = vec![None; rule.variable_names.len()];
            let mut trail = Vec::new();
            rule.head
                .args
                .iter()
                .zip(args)
                .all(|(p, &t)| self.unify(p, t, &mut env, &mut trail))
                && self.solve(&rule.body, &mut vec![false; rule.body.len()], &mut env)
        })
    }

    /// The ground term of `term` under `env`: `Err` if a variable is
    /// unbound, `Ok(None)` if the term was never built (so no fact has it).
    fn value(&self, term: &Term, env: &[Option<TermId>]) -> Result<Option<TermId>, ()> {
        match term {
            Term::Variable(v) => env.get(*v as usize).copied().flatten().map(Some).ok_or(()),
            Term::Constant(s) => Ok(self.terms.find(*s, &[])),
            Term::Function(f, args) => {
                let mut values = Vec::with_capacity(args.len());
                let mut exists = true;
                for a in args {
                    match self.value(a, env)? {
                        Some(t) => values.push(t),
                        None => exists = false,
                    }
                }
                Ok(if exists {
                    self.terms.find(*f, &values)
                } else {
                    None
                })
            }
        }
    }

    fn bound(&self, term: &Term, env: &[Option<TermId>]) -> bool {
        match term {
            Term::Variable(v) => env.get(*v as usize).copied().flatten().is_some(),
            Term::Constant(_) => true,
            Term::Function(_, args) => args.iter().all(|a| self.bound(a, env)),
        }
    }

    /// Matches `pattern` against `t`, binding variables (recorded in `trail`).
    fn unify(
        &self,
        pattern: &Term,
        t: TermId,
        env: &mut [Option<TermId>],
        trail: &mut Vec<u32>,
    ) -> bool {
        match pattern {
            Term::Variable(v) => match env.get(*v as usize).copied() {
                Some(Some(bound)) => bound == t,
                Some(None) => {
                    env[*v as usize] = Some(t);
                    trail.push(*v);
                    true
                }
                None => false,
            },
            Term::Constant(s) => self.terms.functor(t) == *s && self.terms.args(t).is_empty(),
            Term::Function(f, args) => {
                self.terms.functor(t) == *f
                    && self.terms.args(t).len() == args.len()
                    && args
                        .iter()
                        .zip(self.terms.args(t))
                        .all(|(p, &a)| self.unify(p, a, env, trail))
            }
        }
    }

    /// Syntactic equality of two bound terms.
    fn same(&self, a: &Term, b: &Term, env: &[Option<TermId>]) -> bool {
        match (self.value(a, env), self.value(b, env)) {
            (Ok(Some(x)), Ok(Some(y))) => x == y,
            (Ok(Some(_)), Ok(None)) | (Ok(None), Ok(Some(_))) => false,
            // Two terms never built: compare them structurally.
            _ => match (a, b) {
                (Term::Function(f, xs), Term::Function(g, ys)) => {
                    f == g
                        && xs.len() == ys.len()
                        && xs.iter().zip(ys).all(|(x, y)| self.same(x, y, env))
                }
                _ => false,
            },
        }
    }

    /// Whether the bound atom `relation(args)` holds.
    fn atom_holds(&self, relation: Symbol, args: &[Term], env: &[Option<TermId>]) -> bool {
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            match self.value(a, env) {
                Ok(Some(t)) => values.push(t),
                _ => return false,
            }
        }
        if Some(relation) == self.ev.true_ && values.len() == 1 {
            return self.state.holds.contains(&values[0]);
        }
        let key = (relation, values.len());
        match self.ev.fact_sets.get(&key) {
            Some(rows) => rows.contains(&values),
            None => self.prove(key, &values),
        }
    }

    /// Whether the literals not yet `done` have a common solution
    /// extending `env`. Checks with every variable bound go first; then
    /// the first literal that can enumerate bindings (`true` and tabled
    /// static relations). A body where nothing can go next (an unbound
    /// argument of a demand-only relation, which grounding rules out) has
    /// no solution.
    fn solve(&self, body: &[Literal], done: &mut [bool], env: &mut [Option<TermId>]) -> bool {
        let mut enumerate = None;
        let mut all_done = true;
        for (i, literal) in body.iter().enumerate() {
            if done[i] {
                continue;
            }
            all_done = false;
            let check = match literal {
                Literal::Positive(a) | Literal::Negative(a)
                    if a.args.iter().all(|t| self.bound(t, env)) =>
                {
                    let holds = self.atom_holds(a.relation, &a.args, env);
                    Some(holds == matches!(literal, Literal::Positive(_)))
                }
                Literal::Distinct(x, y) if self.bound(x, env) && self.bound(y, env) => {
                    Some(!self.same(x, y, env))
                }
                Literal::Equal(x, y) if self.bound(x, env) && self.bound(y, env) => {
                    Some(self.same(x, y, env))
                }
                Literal::Equal(x, y) => {
                    // `(= ?v term)` with the term bound binds ?v.
                    let (var, other) = match (x, y) {
                        (Term::Variable(_), o) if self.bound(o, env) => (x, o),
                        (o, Term::Variable(_)) if self.bound(o, env) => (y, o),
                        _ => continue,
                    };
                    let Ok(Some(t)) = self.value(other, env) else {
                        return false;
                    };
                    let mut trail = Vec::new();
                    self.unify(var, t, env, &mut trail);
                    done[i] = true;
                    let found = self.solve(body, done, env);
                    done[i] = false;
                    undo(env, &trail);
                    return found;
                }
                Literal::Positive(a) => {
                    let tabled =
                        Some(a.relation) == self.ev.true_ || self.ev.facts.contains_key(&a.key());
                    if tabled && enumerate.is_none() {
                        enumerate = Some(i);
                    }
                    None
                }
                _ => None,
            };
            match check {
                Some(false) => return false,
                Some(true) => {
                    done[i] = true;
                    let found = self.solve(body, done, env);
                    done[i] = false;
                    return found;
                }
                None => {}
            }
        }
        if all_done {
            return true;
        }
        let Some(i) = enumerate else {
            return false;
        };
        let Literal::Positive(atom) = &body[i] else {
            return false;
        };
        done[i] = true;
        let mut trail = Vec::new();
        let mut try_row = |row: &[TermId], env: &mut [Option<TermId>]| {
            trail.clear();
            let found = row.len() == atom.args.len()
                && atom
                    .args
                    .iter()
                    .zip(row)
                    .all(|(p, &t)| self.unify(p, t, env, &mut trail))
                && self.solve(body, done, env);
            undo(env, &trail);
            found
        };
        let found = if Some(atom.relation) == self.ev.true_ {
            self.state.facts.iter().any(|&f| try_row(&[f], env))
        } else {
            self.ev
                .facts
                .get(&atom.key())
                .is_some_and(|rows| rows.iter().any(|row| try_row(row, env)))
        };
        done[i] = false;
        found
    }
}

fn undo(env: &mut [Option<TermId>], trail: &[u32]) {
    for &v in trail {
        env[v as usize] = None;
    }
}
