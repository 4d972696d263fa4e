//! Bottom-up evaluation of one layer: strata in order, each to a fixpoint
//! with semi-naive iteration (a recursive rule is re-run only with one of
//! its recursive literals restricted to the facts new in the last round).

use rg_core::model::ModelError;

use super::compile::{Build, LayerKind, Pat, Plan, Program, RelId, Step, LAYER_COUNT};
use super::table::Table;
use super::terms::{TermId, TermStore};
use super::ReasonerLimits;

/// The tables of one layer.
pub struct Layer {
    pub tables: Vec<Table>,
}

impl Layer {
    pub fn new(program: &Program, kind: LayerKind) -> Layer {
        let mut tables: Vec<Table> = Vec::new();
        for rel in &program.relations {
            if rel.layer == Some(kind) {
                debug_assert_eq!(rel.local, tables.len());
                tables.push(Table::new(rel.arity, rel.specs.len()));
            }
        }
        Layer { tables }
    }

    pub fn table(&self, program: &Program, rel: RelId) -> &Table {
        &self.tables[program.relations[rel].local]
    }

    pub fn table_mut(&mut self, program: &Program, rel: RelId) -> &mut Table {
        &mut self.tables[program.relations[rel].local]
    }
}

/// Read access to the layers during a join.
struct Context<'a> {
    program: &'a Program,
    store: &'a TermStore,
    layers: [Option<&'a Layer>; LAYER_COUNT],
    delta: (usize, usize),
    limit: usize,
}

impl<'a> Context<'a> {
    #[inline]
    fn table(&self, rel: RelId) -> Option<&'a Table> {
        let relation = &self.program.relations[rel];
        let layer = self.layers[relation.layer? as usize]?;
        layer.tables.get(relation.local)
    }

    #[inline]
    fn value(&self, pat: &Pat, env: &[TermId]) -> Option<TermId> {
        match pat {
            Pat::Const(t) => Some(*t),
            Pat::Check(s) | Pat::Bind(s) => Some(env[*s as usize]),
            Pat::Func(f, args) => {
                let mut buffer = [0 as TermId; 16];
                if args.len() > buffer.len() {
                    let values: Option<Vec<TermId>> =
                        args.iter().map(|a| self.value(a, env)).collect();
                    return self.store.find(*f, &values?);
                }
                for (slot, a) in buffer.iter_mut().zip(args.iter()) {
                    *slot = self.value(a, env)?;
                }
                self.store.find(*f, &buffer[..args.len()])
            }
        }
    }

    /// Matches a pattern against a ground term, binding first occurrences.
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
                if self.store.functor(t) != *f {
                    return false;
                }
                let args = self.store.args(t);
                args.len() == sub.len()
                    && sub.iter().zip(args).all(|(p, &a)| self.matches(p, a, env))
            }
        }
    }

    /// Syntactic equality of two fully bound patterns.
    fn equal(&self, a: &Pat, b: &Pat, env: &mut [TermId]) -> bool {
        match (a, b) {
            (Pat::Func(f, xs), Pat::Func(g, ys)) => {
                f == g
                    && xs.len() == ys.len()
                    && xs.iter().zip(ys.iter()).all(|(x, y)| self.equal(x, y, env))
            }
            (Pat::Func(..), _) => match self.value(b, env) {
                Some(t) => self.matches(a, t, env),
                None => false,
            },
            _ => match self.value(a, env) {
                Some(t) => self.matches(b, t, env),
                None => false,
            },
        }
    }

    /// Whether the demand-driven relation holds for the ground `values`.
    fn query(&self, rel: RelId, values: &[TermId]) -> Result<bool, Stop> {
        for rule in &self.program.queries[rel] {
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
                Err(Stop::Found) => return Ok(true),
                Err(Stop::Limit) => return Err(Stop::Limit),
                Ok(()) => {}
            }
        }
        Ok(false)
    }

    fn run<S: Sink>(&self, steps: &[Step], env: &mut [TermId], out: &mut S) -> Result<(), Stop> {
        let Some((step, rest)) = steps.split_first() else {
            return out.found(env, self.limit);
        };
        match step {
            Step::Scan {
                rel,
                args,
                index,
                delta,
            } => {
                let Some(table) = self.table(*rel) else {
                    return Ok(());
                };
                let try_row = |r: usize, env: &mut [TermId], out: &mut S| {
                    let row = table.rows.row(r);
                    if args.iter().zip(row).all(|(p, &t)| self.matches(p, t, env)) {
                        self.run(rest, env, out)
                    } else {
                        Ok(())
                    }
                };
                if *delta {
                    let (start, end) = self.delta;
                    for r in start..end.min(table.len()) {
                        try_row(r, env, out)?;
                    }
                } else if let Some((spec_id, key_pats)) = index {
                    let spec = &self.program.relations[*rel].specs[*spec_id];
                    let Some(ix) = table.index(self.store, *spec_id, spec) else {
                        return Ok(());
                    };
                    let mut key = [0 as TermId; 16];
                    let key: Vec<TermId> = if key_pats.len() <= key.len() {
                        for (k, p) in key.iter_mut().zip(key_pats.iter()) {
                            *k = self.value(p, env).unwrap_or(TermId::MAX);
                        }
                        key[..key_pats.len()].to_vec()
                    } else {
                        key_pats
                            .iter()
                            .map(|p| self.value(p, env).unwrap_or(TermId::MAX))
                            .collect()
                    };
                    for &r in ix.get(&key) {
                        try_row(r as usize, env, out)?;
                    }
                } else {
                    for r in 0..table.len() {
                        try_row(r, env, out)?;
                    }
                }
                Ok(())
            }
            Step::Negated { rel, args } => {
                let present = match self.table(*rel) {
                    None => false,
                    Some(table) => {
                        let values: Option<Vec<TermId>> =
                            args.iter().map(|p| self.value(p, env)).collect();
                        values.is_some_and(|v| table.contains(&v))
                    }
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
                // An argument that was never built cannot be the value of a call
                // (the rules only combine existing terms for the corpus' uses).
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

/// Why a join stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// Too many matches: a runaway derivation.
    Limit,
    /// A first match was all that was asked for.
    Found,
}

/// What a join does with each complete match.
trait Sink {
    fn found(&mut self, env: &[TermId], limit: usize) -> Result<(), Stop>;
}

impl Sink for Vec<TermId> {
    fn found(&mut self, env: &[TermId], limit: usize) -> Result<(), Stop> {
        self.extend_from_slice(env);
        if self.len() > limit {
            Err(Stop::Limit)
        } else {
            Ok(())
        }
    }
}

struct FirstMatch;

impl Sink for FirstMatch {
    fn found(&mut self, _: &[TermId], _: usize) -> Result<(), Stop> {
        Err(Stop::Found)
    }
}

fn build(store: &mut TermStore, expr: &Build, env: &[TermId]) -> TermId {
    match expr {
        Build::Const(t) => *t,
        Build::Slot(s) => env[*s as usize],
        Build::Func(f, args) => {
            let values: Vec<TermId> = args.iter().map(|a| build(store, a, env)).collect();
            store.intern(*f, &values)
        }
    }
}

/// Evaluates the layer `kind` on top of `lower` (indexed by layer kind),
/// starting from the facts `seed` puts in it.
pub fn evaluate_layer(
    program: &Program,
    kind: LayerKind,
    lower: [Option<&Layer>; LAYER_COUNT],
    store: &mut TermStore,
    limits: &ReasonerLimits,
    seed: impl FnOnce(&mut Layer, &Program),
) -> Result<Layer, EvalError> {
    let mut layer = Layer::new(program, kind);
    seed(&mut layer, program);
    let mut facts: usize = layer.tables.iter().map(Table::len).sum();
    let mut matches = Vec::new();
    for stratum in &program.strata[kind as usize] {
        let mut rounds = 0usize;
        // Row counts of the stratum's head relations at the start of the round.
        let heads: Vec<RelId> = stratum
            .rules
            .iter()
            .map(|&r| program.rules[r].head_rel)
            .collect();
        let mut round_start: Vec<usize> = heads
            .iter()
            .map(|&h| layer.table(program, h).len())
            .collect();
        let mut first = true;
        loop {
            let before: Vec<usize> = heads
                .iter()
                .map(|&h| layer.table(program, h).len())
                .collect();
            for &r in &stratum.rules {
                let rule = &program.rules[r];
                let plans: Vec<(&Plan, (usize, usize))> = if first {
                    vec![(&rule.full, (0, 0))]
                } else {
                    rule.deltas
                        .iter()
                        .filter_map(|plan| {
                            let Some(Step::Scan { rel, .. }) = plan.steps.first() else {
                                return None;
                            };
                            let k = heads.iter().position(|h| h == rel)?;
                            let range = (round_start[k], before[k]);
                            (range.0 < range.1).then_some((plan, range))
                        })
                        .collect()
                };
                for (plan, delta) in plans {
                    run_plan(
                        program,
                        kind,
                        &lower,
                        &mut layer,
                        store,
                        plan,
                        rule.slots,
                        delta,
                        limits,
                        &mut matches,
                    )
                    .map_err(|()| {
                        limit_error(
                            too_many_facts(program, rule.head_rel, limits),
                            program,
                            rule.head_rel,
                        )
                    })?;
                    let head_local = program.relations[rule.head_rel].local;
                    let head_layer = program.relations[rule.head_rel].layer;
                    let mut tuple = Vec::with_capacity(rule.head.len());
                    for env in matches.chunks(rule.slots.max(1)) {
                        tuple.clear();
                        for expr in &rule.head {
                            tuple.push(build(store, expr, env));
                        }
                        if head_layer == Some(kind) && layer.tables[head_local].insert(&tuple) {
                            facts += 1;
                        }
                    }
                    matches.clear();
                    if facts > limits.max_facts {
                        return Err(limit_error(
                            too_many_facts(program, rule.head_rel, limits),
                            program,
                            rule.head_rel,
                        ));
                    }
                    if store.len() > limits.max_terms {
                        let error = ModelError::new(format!(
                            "reasoner term limit of {} exceeded while evaluating relation {}",
                            limits.max_terms, program.relations[rule.head_rel].name
                        ));
                        return Err(limit_error(error, program, rule.head_rel));
                    }
                }
            }
            let after: Vec<usize> = heads
                .iter()
                .map(|&h| layer.table(program, h).len())
                .collect();
            if !stratum.recursive || after == before {
                break;
            }
            rounds += 1;
            if rounds > limits.max_rounds {
                return Err(EvalError::from(ModelError::new(format!(
                    "reasoner round limit of {} exceeded in the recursion of relation {}",
                    limits.max_rounds, program.relations[heads[0]].name
                ))));
            }
            round_start = before;
            first = false;
        }
    }
    for (rel, relation) in program.relations.iter().enumerate() {
        if relation.layer == Some(kind) {
            layer.tables[relation.local].finish(store, &program.relations[rel].specs);
        }
    }
    Ok(layer)
}

/// A failed evaluation; `relation` names the relation whose derivation hit
/// a size limit.
#[derive(Debug)]
pub struct EvalError {
    pub error: ModelError,
    pub relation: Option<(String, usize)>,
}

impl From<ModelError> for EvalError {
    fn from(error: ModelError) -> Self {
        EvalError {
            error,
            relation: None,
        }
    }
}

fn limit_error(error: ModelError, program: &Program, rel: RelId) -> EvalError {
    let relation = &program.relations[rel];
    EvalError {
        error,
        relation: Some((relation.name.clone(), relation.arity)),
    }
}

fn too_many_facts(program: &Program, rel: RelId, limits: &ReasonerLimits) -> ModelError {
    ModelError::new(format!(
        "reasoner fact limit of {} exceeded while evaluating relation {}",
        limits.max_facts, program.relations[rel].name
    ))
}

#[allow(clippy::too_many_arguments)]
fn run_plan(
    program: &Program,
    kind: LayerKind,
    lower: &[Option<&Layer>; LAYER_COUNT],
    layer: &mut Layer,
    store: &TermStore,
    plan: &Plan,
    slots: usize,
    delta: (usize, usize),
    limits: &ReasonerLimits,
    out: &mut Vec<TermId>,
) -> Result<(), ()> {
    // Indexes of the layer under construction must see its newest rows.
    for step in &plan.steps {
        if let Step::Scan {
            rel,
            index: Some((spec_id, _)),
            ..
        } = step
        {
            let relation = &program.relations[*rel];
            if relation.layer == Some(kind) {
                layer.tables[relation.local].refresh_index(
                    store,
                    *spec_id,
                    &relation.specs[*spec_id],
                );
            }
        }
    }
    let mut layers = *lower;
    layers[kind as usize] = Some(layer);
    let context = Context {
        program,
        store,
        layers,
        delta,
        limit: limits
            .max_facts
            .saturating_mul(slots.max(1))
            .saturating_mul(4),
    };
    let mut env = vec![0 as TermId; slots.max(1)];
    context.run(&plan.steps, &mut env, out).map_err(|_| ())
}
