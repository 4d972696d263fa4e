//! The RG lowering of run-time relations (gdl.md §5.8, §7.8): an atom of a
//! relation evaluated at run time becomes a check `? A_begin -> A_end`
//! whose subautomaton searches for a body of one of the relation's rules
//! that holds in the current state, binding the rule's variables as RG
//! variables:
//!
//! * a positive `true(p)` or tabled static literal branches over the facts
//!   (rows) that match `p`: each branch tests the fact (`F_prev == 1`),
//!   compares the variables bound before and assigns the others;
//! * `distinct` and equality compare (or assign, for `(= ?v t)`);
//! * a static relation asked on demand (all arguments bound) is a shared
//!   subautomaton, called by assigning its parameter variables and
//!   checking `? R_begin -> R_end` (checks run on a copy of the state, so
//!   nothing leaks back);
//! * a negative literal is a negated check of a subautomaton for the
//!   positive one.
//!
//! Every variable has its own type: the values assigned to it (for a
//! parameter, those of its arguments) and the constants it is compared
//! with, plus an initial `unbound` shared by all, so that any two of them
//! are comparable (rg.md §3: set types that share a symbol).

use std::collections::{BTreeSet, HashMap};

use propnet::datalog::{Literal, Symbol, Term};
use propnet::ground::{AtomId, GroundProgram, TermId};
use rg_core::ast::{Expr, Label, Type, Value};
use rg_core::build::{label, Fragment, GameBuilder};

type Key = (Symbol, usize);

/// What a rule variable stands for at a point of the subautomaton.
#[derive(Clone, Debug)]
enum Bound {
    /// A ground term known when translating (from the atom's arguments).
    Term(TermId),
    /// An RG variable holding the value.
    Var(Expr),
}

type Env = HashMap<u32, Bound>;

/// The state of the lowering of the run-time relations of one game.
pub(super) struct RuntimeLowering {
    unbound: String,
    /// Every value name used (reserved in the builder).
    values: BTreeSet<String>,
    /// The symbol of each value expression.
    constants: HashMap<Expr, String>,
    /// Per variable: its type's name and symbols.
    types: HashMap<Expr, (String, BTreeSet<String>)>,
    /// Variable-to-variable assignments and comparisons (to, from): the
    /// type of `to` includes that of `from`.
    flows: Vec<(Expr, Expr)>,
    rules_of: HashMap<Key, Vec<usize>>,
    /// The base fact index of each fact term.
    fact_index: HashMap<TermId, u32>,
    /// RG variable of (rule, variable).
    vars: HashMap<(usize, u32), Expr>,
    /// Parameters and shared subautomaton of each demand-only static
    /// relation that is called.
    calls: HashMap<Key, (Vec<Expr>, Fragment)>,
    pending_calls: Vec<Key>,
}

/// What the lowering reads from the emitter.
pub(super) struct Context<'a> {
    pub ground: &'a GroundProgram,
    /// `F_prev` of each base fact.
    pub prev: &'a [Expr],
}

impl RuntimeLowering {
    pub fn new(b: &mut GameBuilder, ground: &GroundProgram, facts: &[TermId]) -> RuntimeLowering {
        let mut rules_of: HashMap<Key, Vec<usize>> = HashMap::new();
        for (i, rule) in ground.runtime.rules.iter().enumerate() {
            rules_of.entry(rule.head.key()).or_default().push(i);
        }
        let unbound = b.fresh_name("unbound");
        RuntimeLowering {
            values: BTreeSet::from([unbound.clone()]),
            constants: HashMap::new(),
            types: HashMap::new(),
            flows: Vec::new(),
            unbound,
            rules_of,
            fact_index: facts
                .iter()
                .enumerate()
                .map(|(i, &t)| (t, i as u32))
                .collect(),
            vars: HashMap::new(),
            calls: HashMap::new(),
            pending_calls: Vec::new(),
        }
    }

    /// Declares the value type (after everything else is emitted).
    pub fn finish(&mut self, b: &mut GameBuilder, cx: &Context) -> Result<(), String> {
        while let Some(key) = self.pending_calls.pop() {
            self.emit_call(b, cx, key)?;
        }
        // Types grow along assignments between variables (acyclic in
        // practice: calls are not recursive; iterate to be safe).
        let mut changed = true;
        while changed {
            changed = false;
            for (to, from) in &self.flows {
                let Some((_, extra)) = self.types.get(from).cloned() else {
                    continue;
                };
                if let Some((_, set)) = self.types.get_mut(to) {
                    let before = set.len();
                    set.extend(extra);
                    changed |= set.len() != before;
                }
            }
        }
        let mut types: Vec<&(String, BTreeSet<String>)> = self.types.values().collect();
        types.sort();
        for (name, symbols) in types {
            b.define_type(name, Type::set(symbols.iter().cloned()));
        }
        Ok(())
    }

    fn value(&mut self, b: &mut GameBuilder, name: String) -> Expr {
        if self.values.insert(name.clone()) {
            b.reserve_names([name.clone()]);
        }
        let e = Expr::name(name.clone());
        self.constants.insert(e.clone(), name);
        e
    }

    /// A new variable with its own type (filled in by `admit`).
    fn declare(&mut self, b: &mut GameBuilder, hint: &str) -> Expr {
        let name = b.fresh_name(hint);
        let type_name = b.fresh_name(&format!("{name}_type"));
        let e = b.variable(
            &name,
            Type::name(type_name.clone()),
            Value::symbol(self.unbound.clone()),
        );
        self.types.insert(
            e.clone(),
            (type_name, BTreeSet::from([self.unbound.clone()])),
        );
        e
    }

    /// `var` may hold (or is compared with) `value`: its type includes it.
    fn admit(&mut self, var: &Expr, value: &Expr) {
        if !self.types.contains_key(var) {
            return;
        }
        if self.types.contains_key(value) {
            self.flows.push((var.clone(), value.clone()));
        } else if let Some(name) = self.constants.get(value).cloned() {
            if let Some((_, set)) = self.types.get_mut(var) {
                set.insert(name);
            }
        }
    }

    fn term_value(&mut self, b: &mut GameBuilder, cx: &Context, t: TermId) -> Expr {
        self.value(b, cx.ground.rg_name(t))
    }

    fn variable(&mut self, b: &mut GameBuilder, cx: &Context, rule: usize, v: u32) -> Expr {
        if let Some(e) = self.vars.get(&(rule, v)) {
            return e.clone();
        }
        let r = &cx.ground.runtime.rules[rule];
        let relation = cx.ground.symbols.name(r.head.relation);
        let var = r
            .variable_names
            .get(v as usize)
            .map_or("v", |n| n.trim_start_matches('?'));
        let e = self.declare(b, &format!("{relation}_{var}"));
        self.vars.insert((rule, v), e.clone());
        e
    }

    /// The subautomaton of run-time atom `atom` from `f.start` to `f.end`.
    pub fn emit_atom(
        &mut self,
        b: &mut GameBuilder,
        cx: &Context,
        atom: AtomId,
        f: &Fragment,
    ) -> Result<(), String> {
        let Some(a) = cx.ground.atoms.get(atom as usize) else {
            return Ok(());
        };
        let key = (a.relation, a.args.len());
        for rule in self.rules_of.get(&key).cloned().unwrap_or_default() {
            let r = &cx.ground.runtime.rules[rule];
            let mut env = Env::new();
            let mut trail = Vec::new();
            let matched = r
                .head
                .args
                .iter()
                .zip(&a.args)
                .all(|(p, &t)| match_static(cx, p, t, &mut env, &mut trail));
            if matched {
                let body = r.body.clone();
                self.emit_body(b, cx, rule, &body, env, &f.start, &f.end)?;
            }
        }
        Ok(())
    }

    /// A static relation's shared subautomaton: its parameters are bound
    /// by the caller.
    fn emit_call(&mut self, b: &mut GameBuilder, cx: &Context, key: Key) -> Result<(), String> {
        let Some((params, f)) = self.calls.get(&key).cloned() else {
            return Ok(());
        };
        for rule in self.rules_of.get(&key).cloned().unwrap_or_default() {
            let r = &cx.ground.runtime.rules[rule];
            let mut env = Env::new();
            let mut labels = Vec::new();
            let mut possible = true;
            for (p, param) in r.head.args.iter().zip(&params) {
                match p {
                    Term::Variable(v) => match env.get(v) {
                        Some(bound) => {
                            let e = self.bound_expr(b, cx, bound);
                            self.admit(param, &e);
                            self.admit(&e, param);
                            labels.push(label::eq(param.clone(), e));
                        }
                        None => {
                            env.insert(*v, Bound::Var(param.clone()));
                        }
                    },
                    _ => match ground_term(cx, p, &env) {
                        Some(Some(t)) => {
                            let e = self.term_value(b, cx, t);
                            self.admit(param, &e);
                            labels.push(label::eq(param.clone(), e));
                        }
                        // A term never built: no argument equals it.
                        Some(None) => possible = false,
                        None => {
                            return Err(format!(
                                "the rule head of {} has a compound term with variables",
                                cx.ground.symbols.name(key.0)
                            ))
                        }
                    },
                }
            }
            if !possible {
                continue;
            }
            let start = b.node(&format!("{}_head", cx.ground.symbols.name(key.0)));
            b.sequence(&f.start, &start, labels);
            let body = r.body.clone();
            self.emit_body(b, cx, rule, &body, env, &start, &f.end)?;
        }
        Ok(())
    }

    fn bound_expr(&mut self, b: &mut GameBuilder, cx: &Context, bound: &Bound) -> Expr {
        match bound {
            Bound::Term(t) => self.term_value(b, cx, *t),
            Bound::Var(e) => e.clone(),
        }
    }

    /// The value of a term whose variables are bound: `Ok(Some)` an RG
    /// expression, `Ok(None)` a term that was never built (equal to no
    /// value), `Err` for a compound term over RG variables (unsupported).
    fn term_expr(
        &mut self,
        b: &mut GameBuilder,
        cx: &Context,
        term: &Term,
        env: &Env,
    ) -> Result<Option<Expr>, String> {
        if let Term::Variable(v) = term {
            return Ok(env.get(v).map(|bound| self.bound_expr(b, cx, bound)));
        }
        match ground_term(cx, term, env) {
            Some(Some(t)) => Ok(Some(self.term_value(b, cx, t))),
            Some(None) => Ok(None),
            None => Err("a compound term over variables bound at run time".into()),
        }
    }

    /// Edges from `from` to `to` that can be walked exactly when the
    /// literals have a solution extending `env`.
    #[allow(clippy::too_many_arguments)]
    fn emit_body(
        &mut self,
        b: &mut GameBuilder,
        cx: &Context,
        rule: usize,
        body: &[Literal],
        mut env: Env,
        from: &str,
        to: &str,
    ) -> Result<(), String> {
        let mut done = vec![false; body.len()];
        let mut current = from.to_string();
        for step in 0..body.len() {
            let i = next_literal(cx, body, &done, &env).ok_or_else(|| {
                format!(
                    "cannot order the body of a rule for {} (an argument of a static relation \
                     is never bound)",
                    cx.ground
                        .symbols
                        .name(cx.ground.runtime.rules[rule].head.relation)
                )
            })?;
            done[i] = true;
            let next = if step + 1 == body.len() {
                to.to_string()
            } else {
                b.node(&format!("{current}_then"))
            };
            self.emit_literal(b, cx, rule, &body[i], &mut env, &current, &next)?;
            current = next;
        }
        if body.is_empty() {
            b.skip(from, to);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn emit_literal(
        &mut self,
        b: &mut GameBuilder,
        cx: &Context,
        rule: usize,
        literal: &Literal,
        env: &mut Env,
        from: &str,
        to: &str,
    ) -> Result<(), String> {
        match literal {
            Literal::Distinct(x, y) | Literal::Equal(x, y) => {
                let equal = matches!(literal, Literal::Equal(..));
                // Ordering leaves a variable unbound only in an equality.
                if let (Term::Variable(v), false, true) = (x, is_bound(x, env), equal) {
                    return self.assign(b, cx, rule, *v, y, env, from, to);
                }
                if let (Term::Variable(v), false, true) = (y, is_bound(y, env), equal) {
                    return self.assign(b, cx, rule, *v, x, env, from, to);
                }
                let ex = self.term_expr(b, cx, x, env)?;
                let ey = self.term_expr(b, cx, y, env)?;
                match (ex, ey) {
                    (Some(ex), Some(ey)) => {
                        self.admit(&ex, &ey);
                        self.admit(&ey, &ex);
                        let l = if equal {
                            label::eq(ex, ey)
                        } else {
                            label::ne(ex, ey)
                        };
                        b.edge(from, to, l);
                    }
                    // A term that was never built equals no built one; two
                    // such terms are compared as written.
                    (ex, ey) => {
                        let same = ex.is_none() && ey.is_none() && x == y;
                        if same == equal {
                            b.skip(from, to);
                        }
                    }
                }
                Ok(())
            }
            Literal::Positive(a) => {
                if a.key() != (cx.ground.vocabulary.true_, 1)
                    && !cx.ground.runtime.facts.contains_key(&a.key())
                {
                    return self.call(b, cx, a.key(), &a.args, env, from, to, true);
                }
                self.enumerate(b, cx, rule, a.relation, &a.args, env, from, to)
            }
            Literal::Negative(a) => {
                if a.key() != (cx.ground.vocabulary.true_, 1)
                    && !cx.ground.runtime.facts.contains_key(&a.key())
                {
                    return self.call(b, cx, a.key(), &a.args, env, from, to, false);
                }
                let name = cx.ground.symbols.name(a.relation);
                let sub = Fragment {
                    start: b.node(&format!("{name}_not_begin")),
                    end: b.node(&format!("{name}_not_end")),
                };
                let mut inner = env.clone();
                self.enumerate(
                    b, cx, rule, a.relation, &a.args, &mut inner, &sub.start, &sub.end,
                )?;
                b.edge(
                    from,
                    to,
                    Label::Reach {
                        negated: true,
                        from: sub.start,
                        to: sub.end,
                    },
                );
                Ok(())
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn assign(
        &mut self,
        b: &mut GameBuilder,
        cx: &Context,
        rule: usize,
        v: u32,
        term: &Term,
        env: &mut Env,
        from: &str,
        to: &str,
    ) -> Result<(), String> {
        match self.term_expr(b, cx, term, env)? {
            Some(e) => {
                let var = self.variable(b, cx, rule, v);
                self.admit(&var, &e);
                b.edge(from, to, label::assign(var.clone(), e));
                env.insert(v, Bound::Var(var));
            }
            None => {
                // `(= ?v t)` with t never built: ?v would be a new term,
                // which no later literal can use (runtime values are built
                // terms); fail safe by not connecting.
            }
        }
        Ok(())
    }

    /// One branch per fact (or row) matching the pattern.
    #[allow(clippy::too_many_arguments)]
    fn enumerate(
        &mut self,
        b: &mut GameBuilder,
        cx: &Context,
        rule: usize,
        relation: Symbol,
        args: &[Term],
        env: &mut Env,
        from: &str,
        to: &str,
    ) -> Result<(), String> {
        let is_true = relation == cx.ground.vocabulary.true_ && args.len() == 1;
        let rows: Vec<Vec<TermId>> = if is_true {
            cx.ground.base_facts.iter().map(|&f| vec![f]).collect()
        } else {
            cx.ground
                .runtime
                .facts
                .get(&(relation, args.len()))
                .cloned()
                .unwrap_or_default()
        };
        for row in rows {
            let mut checks: Vec<(Expr, TermId)> = Vec::new();
            let mut binds: Vec<(u32, TermId)> = Vec::new();
            let ok = args
                .iter()
                .zip(&row)
                .all(|(p, &t)| match_row(cx, p, t, env, &mut checks, &mut binds));
            if !ok || row.len() != args.len() {
                continue;
            }
            let mut labels = Vec::new();
            if is_true {
                let Some(&fact) = self.fact_index.get(&row[0]) else {
                    continue;
                };
                let prev = cx.prev[fact as usize].clone();
                labels.push(label::eq(prev, Expr::name("1")));
            }
            for (e, t) in checks {
                let value = self.term_value(b, cx, t);
                self.admit(&e, &value);
                labels.push(label::eq(e, value));
            }
            for &(v, t) in &binds {
                let var = self.variable(b, cx, rule, v);
                let value = self.term_value(b, cx, t);
                self.admit(&var, &value);
                labels.push(label::assign(var, value));
            }
            b.sequence(from, to, labels);
        }
        // Every branch binds the same variables (those unbound before).
        let mut unbound = Vec::new();
        for a in args {
            a.collect_variables(&mut unbound);
        }
        for v in unbound {
            if let std::collections::hash_map::Entry::Vacant(slot) = env.entry(v) {
                slot.insert(Bound::Var(self.variable(b, cx, rule, v)));
            }
        }
        Ok(())
    }

    /// A literal over a static relation asked on demand: its parameters
    /// are assigned, then its subautomaton is checked.
    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        b: &mut GameBuilder,
        cx: &Context,
        key: Key,
        args: &[Term],
        env: &Env,
        from: &str,
        to: &str,
        positive: bool,
    ) -> Result<(), String> {
        if !self.rules_of.contains_key(&key) {
            // No rules and no rows: never true.
            if !positive {
                b.skip(from, to);
            }
            return Ok(());
        }
        let mut values = Vec::new();
        for a in args {
            match self.term_expr(b, cx, a, env)? {
                Some(e) => values.push(e),
                None => {
                    // An argument that was never built: the atom is false.
                    if !positive {
                        b.skip(from, to);
                    }
                    return Ok(());
                }
            }
        }
        let (params, f) = match self.calls.get(&key) {
            Some(c) => c.clone(),
            None => {
                let name = cx.ground.symbols.name(key.0).to_string();
                let params: Vec<Expr> = (0..key.1)
                    .map(|k| self.declare(b, &format!("{name}_arg{k}")))
                    .collect();
                let f = Fragment {
                    start: b.node(&format!("{name}_begin")),
                    end: b.node(&format!("{name}_end")),
                };
                self.calls.insert(key, (params.clone(), f.clone()));
                self.pending_calls.push(key);
                (params, f)
            }
        };
        for (p, e) in params.iter().zip(&values) {
            self.admit(p, e);
        }
        let mut labels: Vec<Label> = params
            .iter()
            .zip(values)
            .map(|(p, e)| label::assign(p.clone(), e))
            .collect();
        labels.push(Label::Reach {
            negated: !positive,
            from: f.start,
            to: f.end,
        });
        b.sequence(from, to, labels);
        Ok(())
    }
}

fn is_bound(term: &Term, env: &Env) -> bool {
    match term {
        Term::Variable(v) => env.contains_key(v),
        Term::Constant(_) => true,
        Term::Function(_, args) => args.iter().all(|a| is_bound(a, env)),
    }
}

/// The next literal to emit: a check with every variable bound, else an
/// equality that binds a variable, else the first positive literal that can
/// enumerate (`true` or a tabled static relation).
fn next_literal(cx: &Context, body: &[Literal], done: &[bool], env: &Env) -> Option<usize> {
    let open = || (0..body.len()).filter(|&i| !done[i]);
    let tabled = |a: &propnet::datalog::Atom| {
        a.key() == (cx.ground.vocabulary.true_, 1) || cx.ground.runtime.facts.contains_key(&a.key())
    };
    open()
        .find(|&i| match &body[i] {
            Literal::Positive(a) | Literal::Negative(a) => a.args.iter().all(|t| is_bound(t, env)),
            Literal::Distinct(x, y) | Literal::Equal(x, y) => is_bound(x, env) && is_bound(y, env),
        })
        .or_else(|| {
            open().find(|&i| match &body[i] {
                Literal::Equal(x, y) => {
                    (matches!(x, Term::Variable(_)) && is_bound(y, env))
                        || (matches!(y, Term::Variable(_)) && is_bound(x, env))
                }
                _ => false,
            })
        })
        .or_else(|| open().find(|&i| matches!(&body[i], Literal::Positive(a) if tabled(a))))
}

/// The ground term of `term` if every variable is bound to a known term:
/// `Some(Some(t))`, `Some(None)` if it was never built, `None` if some
/// variable is unbound or bound to an RG variable.
fn ground_term(cx: &Context, term: &Term, env: &Env) -> Option<Option<TermId>> {
    match term {
        Term::Variable(v) => match env.get(v) {
            Some(Bound::Term(t)) => Some(Some(*t)),
            _ => None,
        },
        Term::Constant(s) => Some(cx.ground.terms.find(*s, &[])),
        Term::Function(f, args) => {
            let mut values = Vec::with_capacity(args.len());
            for a in args {
                match ground_term(cx, a, env)? {
                    Some(t) => values.push(t),
                    None => return Some(None),
                }
            }
            Some(cx.ground.terms.find(*f, &values))
        }
    }
}

/// Matches a head pattern against a ground argument when translating.
fn match_static(cx: &Context, p: &Term, t: TermId, env: &mut Env, trail: &mut Vec<u32>) -> bool {
    cx.ground
        .terms
        .matches(p, t, &mut |v, t| match env.get(&v) {
            Some(Bound::Term(u)) => *u == t,
            Some(Bound::Var(_)) => false,
            None => {
                env.insert(v, Bound::Term(t));
                trail.push(v);
                true
            }
        })
}

/// Matches a literal's pattern against a row: variables known when
/// translating are compared now, RG variables give run-time `checks`, and
/// unbound variables `binds` (consistently within the row).
fn match_row(
    cx: &Context,
    p: &Term,
    t: TermId,
    env: &Env,
    checks: &mut Vec<(Expr, TermId)>,
    binds: &mut Vec<(u32, TermId)>,
) -> bool {
    cx.ground
        .terms
        .matches(p, t, &mut |v, t| match env.get(&v) {
            Some(Bound::Term(u)) => *u == t,
            Some(Bound::Var(e)) => {
                checks.push((e.clone(), t));
                true
            }
            None => match binds.iter().find(|(w, _)| *w == v) {
                Some(&(_, u)) => u == t,
                None => {
                    binds.push((v, t));
                    true
                }
            },
        })
}
