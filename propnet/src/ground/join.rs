//! Rule bodies compiled to join plans and executed against the fact
//! tables. Bodies are ordered greedily (gdl.md §3.3): filters as soon as
//! their variables are bound, otherwise the positive literal with the
//! fewest expected matches.

use std::cell::Cell;
use std::collections::HashMap;
use std::time::Instant;

use super::facts::{FactTable, IndexSpec, Path};
use super::terms::{GroundTerms, TermId};
use crate::datalog::{Literal, Rule, Symbol, Term};

pub type RelId = usize;

/// Keys and tuples up to this length are built on the stack.
const KEY_BUFFER: usize = 12;

#[derive(Clone, Debug)]
pub struct RelationInfo {
    pub symbol: Symbol,
    pub arity: usize,
    pub is_static: bool,
    pub specs: Vec<IndexSpec>,
    /// Static, but asked on demand instead of materialized.
    pub demand: bool,
    pub queries: Vec<QueryRule>,
}

/// A rule of a demand-driven relation: matched against a ground call, then
/// its body is searched for one solution.
#[derive(Clone, Debug)]
pub struct QueryRule {
    pub head: Box<[Pat]>,
    pub slots: usize,
    pub plan: Plan,
}

#[derive(Clone, Debug)]
pub enum Pat {
    Const(TermId),
    Bind(u32),
    Check(u32),
    Func(Symbol, Box<[Pat]>),
}

#[derive(Clone, Debug)]
pub enum Step {
    Scan {
        rel: RelId,
        args: Box<[Pat]>,
        index: Option<(usize, Box<[Pat]>)>,
        delta: bool,
    },
    Absent {
        rel: RelId,
        args: Box<[Pat]>,
    },
    Distinct(Pat, Pat),
    Equal(Pat, Pat),
    /// A demand-driven relation, asked once its arguments are bound.
    Call {
        rel: RelId,
        args: Box<[Pat]>,
        negated: bool,
    },
}

#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub steps: Vec<Step>,
}

/// Relations of a program, keyed by (symbol, arity).
#[derive(Clone, Debug, Default)]
pub struct Relations {
    pub info: Vec<RelationInfo>,
    pub ids: HashMap<(Symbol, usize), RelId>,
}

impl Relations {
    pub fn id(&mut self, symbol: Symbol, arity: usize) -> RelId {
        if let Some(&id) = self.ids.get(&(symbol, arity)) {
            return id;
        }
        self.info.push(RelationInfo {
            symbol,
            arity,
            is_static: true,
            specs: Vec::new(),
            demand: false,
            queries: Vec::new(),
        });
        self.ids.insert((symbol, arity), self.info.len() - 1);
        self.info.len() - 1
    }

    pub fn get(&self, symbol: Symbol, arity: usize) -> Option<RelId> {
        self.ids.get(&(symbol, arity)).copied()
    }
}

/// Which literals a plan evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every literal (exact evaluation of static relations).
    Exact,
    /// Negative literals on dynamic relations are dropped (gdl.md §5.4).
    Relaxed,
}

pub fn ground_term(terms: &mut GroundTerms, term: &Term) -> Option<TermId> {
    match term {
        Term::Constant(s) => Some(terms.intern(*s, &[])),
        Term::Variable(_) => None,
        Term::Function(f, args) => {
            let ids: Option<Vec<TermId>> = args.iter().map(|a| ground_term(terms, a)).collect();
            Some(terms.intern(*f, &ids?))
        }
    }
}

fn pattern(term: &Term, bound: &mut [bool], terms: &mut GroundTerms) -> Pat {
    if let Some(t) = term.is_ground().then(|| ground_term(terms, term)).flatten() {
        return Pat::Const(t);
    }
    match term {
        Term::Constant(s) => Pat::Const(terms.intern(*s, &[])),
        Term::Variable(v) => {
            let v = *v as usize;
            if v < bound.len() && bound[v] {
                Pat::Check(v as u32)
            } else {
                if let Some(b) = bound.get_mut(v) {
                    *b = true;
                }
                Pat::Bind(v as u32)
            }
        }
        Term::Function(f, args) => {
            Pat::Func(*f, args.iter().map(|a| pattern(a, bound, terms)).collect())
        }
    }
}

/// `before`: the variables bound before the literal. A variable that is
/// bound by an earlier argument of the same literal (`(p ?x ?x)`) is
/// checked, but is no index key: its value is not known at lookup time.
fn collect_index(
    pat: &Pat,
    path: &mut Vec<u8>,
    spec: &mut IndexSpec,
    keys: &mut Vec<Pat>,
    before: &[bool],
) {
    match pat {
        Pat::Check(v) if !before.get(*v as usize).copied().unwrap_or(false) => {}
        Pat::Const(_) | Pat::Check(_) => {
            spec.keys.push(Path::from(path.as_slice()));
            keys.push(pat.clone());
        }
        Pat::Bind(_) => {}
        Pat::Func(f, sub) => {
            spec.functors
                .push((Path::from(path.as_slice()), *f, sub.len()));
            for (j, p) in sub.iter().enumerate() {
                path.push(j as u8);
                collect_index(p, path, spec, keys, before);
                path.pop();
            }
        }
    }
}

fn variables_bound(literal: &Literal, bound: &[bool]) -> bool {
    let mut vars = Vec::new();
    literal.collect_variables(&mut vars);
    vars.iter()
        .all(|&v| bound.get(v as usize).copied().unwrap_or(false))
}

fn count_leaves(
    term: &Term,
    bound: &[bool],
    leaves: &mut i32,
    fixed: &mut i32,
    functors: &mut i32,
) {
    match term {
        Term::Constant(_) => {
            *leaves += 1;
            *fixed += 1;
        }
        Term::Variable(v) => {
            *leaves += 1;
            if bound.get(*v as usize).copied().unwrap_or(false) {
                *fixed += 1;
            }
        }
        Term::Function(_, args) => {
            *functors += 1;
            args.iter()
                .for_each(|a| count_leaves(a, bound, leaves, fixed, functors));
        }
    }
}

/// Compiles rule bodies; `sizes` estimates relation sizes.
pub struct PlanCompiler<'a> {
    pub relations: &'a mut Relations,
    pub terms: &'a mut GroundTerms,
    pub sizes: &'a dyn Fn(RelId) -> f64,
}

impl PlanCompiler<'_> {
    /// The plan of `rule`; `delta` is a body position scanned first, over
    /// the facts new in the last round.
    pub fn compile(&mut self, rule: &Rule, mode: Mode, delta: Option<usize>) -> Plan {
        let bound = vec![false; rule.variable_names.len()];
        self.compile_with(rule, mode, delta, bound)
    }

    /// A rule of a demand-driven relation: the head binds its variables
    /// from the call, the body is planned with them bound.
    pub fn compile_query(&mut self, rule: &Rule) -> QueryRule {
        let mut bound = vec![false; rule.variable_names.len()];
        let head = rule
            .head
            .args
            .iter()
            .map(|t| pattern(t, &mut bound, self.terms))
            .collect();
        let plan = self.compile_with(rule, Mode::Exact, None, bound);
        QueryRule {
            head,
            slots: rule.variable_names.len(),
            plan,
        }
    }

    fn is_filter(&mut self, literal: &Literal) -> bool {
        match literal {
            Literal::Positive(a) => {
                let rel = self.relations.id(a.relation, a.args.len());
                self.relations.info[rel].demand
            }
            _ => true,
        }
    }

    fn compile_with(
        &mut self,
        rule: &Rule,
        mode: Mode,
        delta: Option<usize>,
        mut bound: Vec<bool>,
    ) -> Plan {
        let keep = |lit: &Literal, relations: &mut Relations| match lit {
            Literal::Negative(a) if mode == Mode::Relaxed => {
                let id = relations.id(a.relation, a.args.len());
                relations.info[id].is_static
            }
            _ => true,
        };
        let mut remaining: Vec<usize> = (0..rule.body.len())
            .filter(|&i| keep(&rule.body[i], self.relations))
            .collect();
        let mut steps = Vec::new();
        if let Some(d) = delta {
            remaining.retain(|&i| i != d);
            steps.push(self.step(&rule.body[d], true, &mut bound));
        }
        loop {
            let mut progressed = true;
            while progressed {
                progressed = false;
                let mut k = 0;
                while k < remaining.len() {
                    let literal = &rule.body[remaining[k]];
                    if self.is_filter(literal) && variables_bound(literal, &bound) {
                        steps.push(self.step(literal, false, &mut bound));
                        remaining.remove(k);
                        progressed = true;
                    } else {
                        k += 1;
                    }
                }
            }
            let best = remaining
                .iter()
                .enumerate()
                .filter_map(|(k, &i)| match &rule.body[i] {
                    Literal::Positive(atom)
                        if !self
                            .relations
                            .get(atom.relation, atom.args.len())
                            .is_some_and(|r| self.relations.info[r].demand) =>
                    {
                        let (mut leaves, mut fixed, mut functors) = (0, 0, 0);
                        for arg in &atom.args {
                            count_leaves(arg, &bound, &mut leaves, &mut fixed, &mut functors);
                        }
                        let rel = self.relations.id(atom.relation, atom.args.len());
                        let cost = if fixed == leaves {
                            0.1
                        } else {
                            (self.sizes)(rel) * 0.15f64.powi(fixed) * 0.5f64.powi(functors) + 0.2
                        };
                        Some((k, cost))
                    }
                    _ => None,
                })
                .min_by(|a, b| a.1.total_cmp(&b.1));
            let Some((k, _)) = best else { break };
            let i = remaining.remove(k);
            steps.push(self.step(&rule.body[i], false, &mut bound));
        }
        // Only reachable for unsafe rules, which validation rejects.
        for i in remaining {
            steps.push(self.step(&rule.body[i], false, &mut bound));
        }
        Plan { steps }
    }

    fn step(&mut self, literal: &Literal, delta: bool, bound: &mut [bool]) -> Step {
        if let Literal::Positive(atom) | Literal::Negative(atom) = literal {
            let rel = self.relations.id(atom.relation, atom.args.len());
            if self.relations.info[rel].demand {
                return Step::Call {
                    rel,
                    args: atom
                        .args
                        .iter()
                        .map(|t| pattern(t, bound, self.terms))
                        .collect(),
                    negated: matches!(literal, Literal::Negative(_)),
                };
            }
        }
        match literal {
            Literal::Positive(atom) => {
                let rel = self.relations.id(atom.relation, atom.args.len());
                let before = bound.to_vec();
                let args: Box<[Pat]> = atom
                    .args
                    .iter()
                    .map(|t| pattern(t, bound, self.terms))
                    .collect();
                let index = if delta {
                    None
                } else {
                    self.register_index(rel, &args, &before)
                };
                Step::Scan {
                    rel,
                    args,
                    index,
                    delta,
                }
            }
            Literal::Negative(atom) => Step::Absent {
                rel: self.relations.id(atom.relation, atom.args.len()),
                args: atom
                    .args
                    .iter()
                    .map(|t| pattern(t, bound, self.terms))
                    .collect(),
            },
            Literal::Distinct(s, t) => {
                Step::Distinct(pattern(s, bound, self.terms), pattern(t, bound, self.terms))
            }
            Literal::Equal(s, t) => {
                Step::Equal(pattern(s, bound, self.terms), pattern(t, bound, self.terms))
            }
        }
    }

    fn register_index(
        &mut self,
        rel: RelId,
        args: &[Pat],
        before: &[bool],
    ) -> Option<(usize, Box<[Pat]>)> {
        let mut spec = IndexSpec {
            functors: Vec::new(),
            keys: Vec::new(),
        };
        let mut keys = Vec::new();
        let mut path = Vec::new();
        for (i, pat) in args.iter().enumerate() {
            path.push(i as u8);
            collect_index(pat, &mut path, &mut spec, &mut keys, before);
            path.pop();
        }
        if spec.functors.is_empty() && spec.keys.is_empty() {
            return None;
        }
        let specs = &mut self.relations.info[rel].specs;
        let id = specs.iter().position(|s| *s == spec).unwrap_or_else(|| {
            specs.push(spec);
            specs.len() - 1
        });
        Some((id, keys.into_boxed_slice()))
    }
}

/// Why a join stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    TooManyMatches,
    Deadline,
    /// One match was all that was asked for.
    Found,
    /// The join took more steps than `Join::work_limit`.
    Budget,
}

/// What a join does with each complete match.
pub trait Sink {
    fn found(&mut self, env: &[TermId], max_matches: usize) -> Result<(), Interrupt>;
}

impl Sink for Vec<TermId> {
    fn found(&mut self, env: &[TermId], max_matches: usize) -> Result<(), Interrupt> {
        self.extend_from_slice(env);
        if self.len() > max_matches {
            Err(Interrupt::TooManyMatches)
        } else {
            Ok(())
        }
    }
}

struct FirstMatch;

impl Sink for FirstMatch {
    fn found(&mut self, _: &[TermId], _: usize) -> Result<(), Interrupt> {
        Err(Interrupt::Found)
    }
}

/// Read-only view for executing a plan.
pub struct Join<'a> {
    pub tables: &'a [FactTable],
    pub relations: &'a Relations,
    pub terms: &'a GroundTerms,
    pub delta: (usize, usize),
    pub max_matches: usize,
    pub deadline: Option<Instant>,
    pub work: Cell<u32>,
    /// Steps after which the join gives up (`Interrupt::Budget`).
    pub work_limit: Option<u32>,
}

impl Join<'_> {
    #[inline]
    fn value(&self, pat: &Pat, env: &[TermId]) -> Option<TermId> {
        match pat {
            Pat::Const(t) => Some(*t),
            Pat::Check(s) | Pat::Bind(s) => env.get(*s as usize).copied(),
            Pat::Func(f, args) => {
                let mut buffer = [0 as TermId; KEY_BUFFER];
                if args.len() > KEY_BUFFER {
                    let values: Option<Vec<TermId>> =
                        args.iter().map(|a| self.value(a, env)).collect();
                    return self.terms.find(*f, &values?);
                }
                for (slot, a) in buffer.iter_mut().zip(args.iter()) {
                    *slot = self.value(a, env)?;
                }
                self.terms.find(*f, &buffer[..args.len()])
            }
        }
    }

    /// The values of fully bound patterns, in a stack buffer when short.
    #[inline]
    fn values_into(
        &self,
        pats: &[Pat],
        env: &[TermId],
        buffer: &mut [TermId; KEY_BUFFER],
        spill: &mut Vec<TermId>,
    ) -> Option<usize> {
        if pats.len() <= KEY_BUFFER {
            for (slot, p) in buffer.iter_mut().zip(pats.iter()) {
                *slot = self.value(p, env)?;
            }
        } else {
            spill.clear();
            for p in pats {
                spill.push(self.value(p, env)?);
            }
        }
        Some(pats.len())
    }

    #[inline]
    fn matches(&self, pat: &Pat, t: TermId, env: &mut [TermId]) -> bool {
        match pat {
            Pat::Const(c) => *c == t,
            Pat::Check(s) => env[*s as usize] == t,
            Pat::Bind(s) => {
                env[*s as usize] = t;
                true
            }
            Pat::Func(f, sub) => {
                self.terms.functor(t) == *f && {
                    let args = self.terms.args(t);
                    args.len() == sub.len()
                        && sub.iter().zip(args).all(|(p, &a)| self.matches(p, a, env))
                }
            }
        }
    }

    fn equal(&self, a: &Pat, b: &Pat, env: &mut [TermId]) -> bool {
        match (a, b) {
            (Pat::Func(f, xs), Pat::Func(g, ys)) => {
                f == g
                    && xs.len() == ys.len()
                    && xs.iter().zip(ys.iter()).all(|(x, y)| self.equal(x, y, env))
            }
            (Pat::Func(..), _) => self.value(b, env).is_some_and(|t| self.matches(a, t, env)),
            _ => self.value(a, env).is_some_and(|t| self.matches(b, t, env)),
        }
    }

    fn tick(&self) -> Result<(), Interrupt> {
        let w = self.work.get().wrapping_add(1);
        self.work.set(w);
        if self.work_limit.is_some_and(|limit| w >= limit) {
            return Err(Interrupt::Budget);
        }
        if w & 0xFFFF == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    return Err(Interrupt::Deadline);
                }
            }
        }
        Ok(())
    }

    /// Whether the demand-driven relation holds for the ground `values`.
    fn query(&self, rel: RelId, values: &[TermId]) -> Result<bool, Interrupt> {
        for rule in &self.relations.info[rel].queries {
            let mut env = vec![0 as TermId; rule.slots.max(1)];
            if !rule
                .head
                .iter()
                .zip(values)
                .all(|(p, &t)| self.matches(p, t, &mut env))
            {
                continue;
            }
            match self.run(&rule.plan.steps, &mut env, &mut FirstMatch) {
                Err(Interrupt::Found) => return Ok(true),
                Err(other) => return Err(other),
                Ok(()) => {}
            }
        }
        Ok(false)
    }

    /// Hands every match of `steps` to `out`.
    pub fn run<S: Sink>(
        &self,
        steps: &[Step],
        env: &mut [TermId],
        out: &mut S,
    ) -> Result<(), Interrupt> {
        let Some((step, rest)) = steps.split_first() else {
            return out.found(env, self.max_matches);
        };
        match step {
            Step::Scan {
                rel,
                args,
                index,
                delta,
            } => {
                let table = &self.tables[*rel];
                let visit = |r: usize, env: &mut [TermId], out: &mut S| {
                    self.tick()?;
                    let row = table.row(r);
                    if args.iter().zip(row).all(|(p, &t)| self.matches(p, t, env)) {
                        self.run(rest, env, out)
                    } else {
                        Ok(())
                    }
                };
                if *delta {
                    for r in self.delta.0..self.delta.1.min(table.len()) {
                        visit(r, env, out)?;
                    }
                } else if let Some((id, key_pats)) = index {
                    let key: Option<Vec<TermId>> =
                        key_pats.iter().map(|p| self.value(p, env)).collect();
                    let Some(key) = key else { return Ok(()) };
                    for &r in table.lookup(*id, &key) {
                        visit(r as usize, env, out)?;
                    }
                } else {
                    for r in 0..table.len() {
                        visit(r, env, out)?;
                    }
                }
                Ok(())
            }
            Step::Absent { rel, args } => {
                let mut buffer = [0 as TermId; KEY_BUFFER];
                let mut spill = Vec::new();
                let present = match self.values_into(args, env, &mut buffer, &mut spill) {
                    Some(len) if len <= KEY_BUFFER => {
                        self.tables[*rel].find(&buffer[..len]).is_some()
                    }
                    Some(_) => self.tables[*rel].find(&spill).is_some(),
                    None => false,
                };
                if present {
                    Ok(())
                } else {
                    self.run(rest, env, out)
                }
            }
            Step::Distinct(a, b) => {
                if self.equal(a, b, env) {
                    Ok(())
                } else {
                    self.run(rest, env, out)
                }
            }
            Step::Equal(a, b) => {
                if self.equal(a, b, env) {
                    self.run(rest, env, out)
                } else {
                    Ok(())
                }
            }
            Step::Call { rel, args, negated } => {
                let values: Option<Vec<TermId>> = args.iter().map(|p| self.value(p, env)).collect();
                // A term never built cannot be an argument value here.
                let holds = match values {
                    Some(values) => self.query(*rel, &values)?,
                    None => false,
                };
                if holds != *negated {
                    self.run(rest, env, out)
                } else {
                    Ok(())
                }
            }
        }
    }
}

/// Brings the indexes a plan uses up to date.
pub fn refresh_indexes(
    plan: &Plan,
    tables: &mut [FactTable],
    relations: &Relations,
    terms: &GroundTerms,
) {
    for step in &plan.steps {
        if let Step::Scan {
            rel,
            index: Some((id, _)),
            ..
        } = step
        {
            tables[*rel].refresh_index(terms, *id, &relations.info[*rel].specs[*id]);
        }
    }
}

/// The ground term of `term` under `env`, interning it.
pub fn instantiate(terms: &mut GroundTerms, term: &Term, env: &[TermId]) -> TermId {
    match term {
        Term::Constant(s) => terms.intern(*s, &[]),
        Term::Variable(v) => env.get(*v as usize).copied().unwrap_or(0),
        Term::Function(f, args) => {
            let values: Vec<TermId> = args.iter().map(|a| instantiate(terms, a, env)).collect();
            terms.intern(*f, &values)
        }
    }
}

/// The ground term of `term` under `env` if it exists.
pub fn find_instance(terms: &GroundTerms, term: &Term, env: &[TermId]) -> Option<TermId> {
    match term {
        Term::Constant(s) => terms.find(*s, &[]),
        Term::Variable(v) => env.get(*v as usize).copied(),
        Term::Function(f, args) => {
            let values: Option<Vec<TermId>> =
                args.iter().map(|a| find_instance(terms, a, env)).collect();
            terms.find(*f, &values?)
        }
    }
}
