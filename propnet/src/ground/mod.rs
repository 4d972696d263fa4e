//! Grounding (gdl.md §5): exact evaluation of the static relations, then
//! instantiation of the dynamic rules by relaxed reachability — every
//! substitution found joins against atoms that may be true in some
//! reachable state, so no domain product is ever formed, and derived
//! relations only for the arguments their users ask for (demand filters,
//! `magic.rs`) — then the simplification of §5.7.

mod decompose;
mod facts;
mod invariants;
mod join;
mod magic;
mod program;
mod simplify;
pub mod terms;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use petgraph::algo::kosaraju_scc;
use petgraph::graph::DiGraph;

use crate::datalog::{Atom, Literal, Program, Rule, Term, Vocabulary};
use facts::FactTable;
use join::{
    find_instance, instantiate, refresh_indexes, Interrupt, Join, Mode, Plan, PlanCompiler, RelId,
    Relations,
};
pub use program::{
    AtomId, GroundAtom, GroundLiteral, GroundProgram, GroundRule, GroundingStats, RuntimeRelations,
};
use rg_core::fx_hash::{FxMap, FxSet};
pub use terms::{GroundTerms, TermId};

/// Explicit bounds, so that a game too large to ground fails with a clear
/// error instead of exhausting memory.
#[derive(Clone, Debug)]
pub struct GroundingLimits {
    /// Ground atoms (static and possibly-true dynamic ones).
    pub max_atoms: usize,
    /// Ground rule instances.
    pub max_rules: usize,
    /// Wall-clock time for grounding.
    pub max_time: Option<Duration>,
}

impl Default for GroundingLimits {
    fn default() -> Self {
        GroundingLimits {
            max_atoms: 3_000_000,
            max_rules: 3_000_000,
            max_time: Some(Duration::from_secs(60)),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroundingError {
    #[error(
        "grounding exceeded {limit} atoms (relation {relation} has {count}); the limit is \
         GroundingLimits::max_atoms (propnet), to be raised there for a larger game"
    )]
    TooManyAtoms {
        limit: usize,
        relation: String,
        count: usize,
    },
    #[error(
        "grounding exceeded {limit} rule instances (the rules for {relation} produced \
         {count}); the limit is GroundingLimits::max_rules (propnet), to be raised there for a \
         larger game"
    )]
    TooManyRules {
        limit: usize,
        relation: String,
        count: usize,
    },
    #[error(
        "grounding exceeded the time limit of {limit:.1?} while instantiating the rules for \
         {relation}; the limit is GroundingLimits::max_time (propnet), to be raised there for a \
         larger game"
    )]
    Time { limit: Duration, relation: String },
    #[error("cannot ground: {0}")]
    Invalid(String),
}

/// Join steps after which the instantiation of one rule of a relation that
/// could be evaluated at run time gives up and makes it run-time instead
/// (sudoku's `goodRow` would need hundreds of millions). A step count, not
/// a time, so that the decision does not depend on the machine's load.
const RUNTIME_WORK: u32 = 500_000;

/// Instances of a relation's rules after which it becomes run-time.
const RUNTIME_RULES: usize = 1_000_000;

struct CompiledRule {
    rule: usize,
    head: RelId,
    full: Plan,
    deltas: Vec<(RelId, Plan)>,
}

struct Grounder<'p> {
    /// The decomposed program with its demand filters.
    program: &'p Program,
    /// The decomposed program (what the on-demand analysis reads).
    source: &'p Program,
    /// The demand filter relations (magic sets): they restrict which
    /// instances are formed and are not part of the ground program.
    filters: Vec<(crate::datalog::Symbol, usize)>,
    vocabulary: Vocabulary,
    symbols: crate::datalog::SymbolTable,
    /// The program's rules followed by the pseudo-rules linking
    /// `init`/`next` to `true` and `legal` to `does`.
    rules: Vec<Rule>,
    relations: Relations,
    terms: GroundTerms,
    tables: Vec<FactTable>,
    limits: GroundingLimits,
    deadline: Option<Instant>,
    atoms: usize,
    /// Static relations to ask on demand instead of materializing.
    demand: Vec<(crate::datalog::Symbol, usize)>,
    /// Set when the static model exceeded a limit in this relation.
    static_overflow: Option<RelId>,
    /// Relations evaluated at run time in this attempt.
    runtime: Vec<(crate::datalog::Symbol, usize)>,
    /// Per relation: whether it is one (`runtime`).
    is_runtime: Vec<bool>,
    /// Per relation: whether it could be evaluated at run time.
    eligible: Vec<bool>,
    /// Set when an eligible relation was too large to instantiate: the
    /// relation and why.
    runtime_candidate: Option<(RelId, String)>,
}

/// Collects the distinct bindings of a rule's head variables.
struct HeadSink<'a> {
    head_vars: &'a [u32],
    seen: FxSet<Box<[TermId]>>,
    out: Vec<TermId>,
}

impl join::Sink for HeadSink<'_> {
    fn found(&mut self, env: &[TermId], max_matches: usize) -> Result<(), Interrupt> {
        let mut buffer = [0 as TermId; 16];
        let spill: Vec<TermId>;
        let key: &[TermId] = if self.head_vars.len() <= buffer.len() {
            for (slot, &v) in buffer.iter_mut().zip(self.head_vars) {
                *slot = env[v as usize];
            }
            &buffer[..self.head_vars.len()]
        } else {
            spill = self.head_vars.iter().map(|&v| env[v as usize]).collect();
            &spill
        };
        if self.seen.contains(key) {
            return Ok(());
        }
        if self.head_vars.is_empty() {
            self.out.push(0);
        } else {
            self.out.extend_from_slice(key);
        }
        self.seen.insert(key.into());
        if self.seen.len() > max_matches {
            Err(Interrupt::TooManyMatches)
        } else {
            Ok(())
        }
    }
}

/// Grounds a program (GDL vocabulary by name: `role`, `true`, `does`, …).
pub fn ground(
    program: &Program,
    limits: &GroundingLimits,
) -> Result<GroundProgram, GroundingError> {
    ground_with_runtime(program, limits, &[])
}

/// [`ground`], with the derived relations named in `runtime` evaluated at
/// run time from the start (for tests and experiments; grounding chooses
/// such relations by itself when they are too large).
pub fn ground_with_runtime(
    program: &Program,
    limits: &GroundingLimits,
    runtime: &[&str],
) -> Result<GroundProgram, GroundingError> {
    ground_with_options(
        program,
        limits,
        &Options {
            runtime,
            invariants: true,
        },
    )
}

/// [`ground`] without pruning by state invariants (docs/gdl.md, grounding step 4): for
/// measuring what the pruning removes and for differential tests.
pub fn ground_without_invariants(
    program: &Program,
    limits: &GroundingLimits,
) -> Result<GroundProgram, GroundingError> {
    ground_with_options(
        program,
        limits,
        &Options {
            runtime: &[],
            invariants: false,
        },
    )
}

struct Options<'a> {
    runtime: &'a [&'a str],
    invariants: bool,
}

fn ground_with_options(
    program: &Program,
    limits: &GroundingLimits,
    options: &Options,
) -> Result<GroundProgram, GroundingError> {
    let runtime = options.runtime;
    let mut forced = Vec::new();
    for &name in runtime {
        let keys: FxSet<(crate::datalog::Symbol, usize)> = program
            .rules
            .iter()
            .filter(|r| program.symbols.name(r.head.relation) == name)
            .map(|r| r.head.key())
            .collect();
        if keys.is_empty() {
            return Err(GroundingError::Invalid(format!(
                "relation {name} cannot be evaluated at run time: it has no rules"
            )));
        }
        let mut keys: Vec<_> = keys.into_iter().collect();
        keys.sort_unstable();
        forced.extend(
            keys.into_iter()
                .map(|(s, a)| (s, a, "requested".to_string())),
        );
    }
    let mut symbols = program.symbols.clone();
    let vocabulary = Vocabulary::intern(&mut symbols);
    let decomposed = Program {
        rules: decompose::decompose(&program.rules, vocabulary, &mut symbols),
        symbols: symbols.clone(),
    };
    let deadline = limits.max_time.map(|d| Instant::now() + d);
    let mut demand = Vec::new();
    let mut runtime: Vec<(crate::datalog::Symbol, usize, String)> = forced;
    loop {
        let mut symbols = decomposed.symbols.clone();
        let (filtered, filters) =
            magic::add_filters(&decomposed.rules, vocabulary, &mut symbols, &demand);
        let program = Program {
            rules: filtered,
            symbols: symbols.clone(),
        };
        let mut rules = program.rules.clone();
        let var = |name: &str| vec![name.to_string()];
        let unary = |relation, v: u32| Atom {
            relation,
            args: vec![Term::Variable(v)],
        };
        for source in [vocabulary.init, vocabulary.next] {
            rules.push(Rule {
                head: unary(vocabulary.true_, 0),
                body: vec![Literal::Positive(unary(source, 0))],
                variable_names: var("?f"),
            });
        }
        let binary = |relation| Atom {
            relation,
            args: vec![Term::Variable(0), Term::Variable(1)],
        };
        rules.push(Rule {
            head: binary(vocabulary.does),
            body: vec![Literal::Positive(binary(vocabulary.legal))],
            variable_names: vec!["?r".into(), "?a".into()],
        });
        let mut grounder = Grounder {
            program: &program,
            source: &decomposed,
            filters,
            vocabulary,
            symbols,
            rules,
            relations: Relations::default(),
            terms: GroundTerms::default(),
            tables: Vec::new(),
            limits: limits.clone(),
            deadline,
            atoms: 0,
            demand: demand.clone(),
            static_overflow: None,
            runtime: runtime.iter().map(|&(s, a, _)| (s, a)).collect(),
            is_runtime: Vec::new(),
            eligible: Vec::new(),
            runtime_candidate: None,
        };
        let result = grounder.run();
        // A derived relation too large to instantiate is evaluated at run
        // time instead, and grounding starts over (gdl.md §5.8).
        if let (Err(_), Some((rel, reason))) = (&result, grounder.runtime_candidate.take()) {
            let info = &grounder.relations.info[rel];
            let key = (info.symbol, info.arity);
            if !runtime.iter().any(|&(s, a, _)| (s, a) == key) {
                runtime.push((key.0, key.1, reason));
                continue;
            }
        }
        let result = result.map(|mut program| {
            program.stats.runtime_relations = runtime
                .iter()
                .map(|(s, _, reason)| (program.symbols.name(*s).to_string(), reason.clone()))
                .collect();
            if options.invariants {
                let pruning = invariants::prune(&mut program);
                program.stats.invariants = pruning.invariants;
                program.stats.pruned_instances = pruning.pruned;
                program.stats.invariants_skipped = pruning.skipped;
            }
            simplify::simplify(&mut program);
            program
        });
        // A static relation too large to materialize is asked on demand
        // instead, if every use of it binds its arguments (gdl.md §8.2).
        let Some(overflow) = grounder.static_overflow.filter(|_| result.is_err()) else {
            return result;
        };
        match grounder.demand_set(overflow) {
            Some(wider) if wider.iter().any(|k| !demand.contains(k)) => demand = wider,
            _ => return result,
        }
    }
}

impl Grounder<'_> {
    fn rel_name(&self, rel: RelId) -> String {
        self.symbols
            .name(self.relations.info[rel].symbol)
            .to_string()
    }

    fn run(&mut self) -> Result<GroundProgram, GroundingError> {
        let v = self.vocabulary;
        for (s, arity) in [
            (v.role, 1),
            (v.init, 1),
            (v.true_, 1),
            (v.does, 2),
            (v.next, 1),
            (v.legal, 2),
            (v.goal, 2),
            (v.terminal, 0),
        ] {
            self.relations.id(s, arity);
        }
        let mut edges = Vec::new();
        for (i, rule) in self.rules.iter().enumerate() {
            let head = self.relations.id(rule.head.relation, rule.head.args.len());
            for literal in &rule.body {
                if let Literal::Positive(a) | Literal::Negative(a) = literal {
                    let body = self.relations.id(a.relation, a.args.len());
                    if i < self.program.rules.len() {
                        edges.push((body, head));
                    }
                }
            }
        }
        let n = self.relations.info.len();
        self.tables = self
            .relations
            .info
            .iter()
            .map(|r| FactTable::new(r.arity))
            .collect();
        // Dynamic: reachable from `true` or `does` (relation level).
        let mut dynamic = vec![false; n];
        let mut stack = vec![self.relations.id(v.true_, 1), self.relations.id(v.does, 2)];
        for &s in &stack {
            dynamic[s] = true;
        }
        while let Some(r) = stack.pop() {
            for &(a, b) in &edges {
                if a == r && !dynamic[b] {
                    dynamic[b] = true;
                    stack.push(b);
                }
            }
        }
        for (r, info) in self.relations.info.iter_mut().enumerate() {
            info.is_static = !dynamic[r];
            info.demand = info.is_static && self.demand.contains(&(info.symbol, info.arity));
        }
        self.eligible = (0..n).map(|r| self.runtime_eligible(r)).collect();
        for &(symbol, arity) in &self.runtime {
            if !self
                .relations
                .get(symbol, arity)
                .is_some_and(|r| self.eligible[r])
            {
                return Err(GroundingError::Invalid(format!(
                    "relation {} cannot be evaluated at run time: only derived relations \
                     whose rules read nothing but true, static relations, distinct and \
                     equality can",
                    self.symbols.name(symbol)
                )));
            }
        }
        self.is_runtime = self
            .relations
            .info
            .iter()
            .map(|info| self.runtime.contains(&(info.symbol, info.arity)))
            .collect();
        // The rules of a run-time relation are instantiated only through an
        // over-approximation that binds the head (its possible atoms); the
        // approximations go after the pseudo-rules, so that neither the
        // relation graph above nor `emit` sees them.
        for i in 0..self.program.rules.len() {
            let head = &self.rules[i].head;
            let Some(rel) = self.relations.get(head.relation, head.args.len()) else {
                continue;
            };
            if self.is_runtime[rel] {
                match self.approximate(&self.rules[i]) {
                    Some(rule) => self.rules.push(rule),
                    None => {
                        return Err(GroundingError::Invalid(format!(
                            "no approximation of the run-time relation {}",
                            self.rel_name(rel)
                        )))
                    }
                }
            }
        }
        self.evaluate_static(&edges)?;
        let static_atoms = self.atoms;
        let (compiled, rounds) = self.relaxed_fixpoint()?;
        let possible_atoms = self.atoms - static_atoms;
        let mut output = self.emit(&compiled)?;
        output.stats = GroundingStats {
            static_atoms,
            possible_atoms,
            rounds,
            instances: output.rules.len(),
            runtime_relations: Vec::new(),
            ..GroundingStats::default()
        };
        Ok(output)
    }

    /// Whether relation `r` can be evaluated at run time: a dynamic
    /// relation other than the GDL ones whose rules read only `true`,
    /// static relations, `distinct` and equality (so its value depends on
    /// the state alone and it is not recursive), and whose head variables
    /// positive literals can bind without demand-only relations.
    fn runtime_eligible(&self, r: RelId) -> bool {
        let v = self.vocabulary;
        let info = &self.relations.info[r];
        let key = (info.symbol, info.arity);
        let gdl = [
            v.role, v.init, v.true_, v.does, v.next, v.legal, v.goal, v.terminal, v.base, v.input,
        ];
        if info.is_static || gdl.contains(&info.symbol) || self.filters.contains(&key) {
            return false;
        }
        let mut any = false;
        for rule in self.source.rules.iter().filter(|r| r.head.key() == key) {
            any = true;
            let readable = rule.body.iter().all(|l| match l {
                Literal::Positive(a) | Literal::Negative(a) => {
                    (a.relation == v.true_ && a.args.len() == 1)
                        || self
                            .relations
                            .get(a.relation, a.args.len())
                            .is_some_and(|b| self.relations.info[b].is_static)
                }
                Literal::Distinct(..) | Literal::Equal(..) => true,
            });
            if !readable {
                return false;
            }
        }
        any && self
            .program
            .rules
            .iter()
            .filter(|r| r.head.key() == key)
            .all(|r| self.approximate(r).is_some())
    }

    /// A rule with a subset of the positive literals of `rule` that still
    /// binds the head's variables: every instance of `rule` is an instance
    /// of it (dropping literals only adds instances), so its heads
    /// over-approximate the relation. Demand filters are kept (they only
    /// cut heads no user asks for); then, greedily, the literal that binds
    /// the most unbound head variables with the fewest variables.
    fn approximate(&self, rule: &Rule) -> Option<Rule> {
        let variables = |a: &Atom| {
            let mut vs = Vec::new();
            a.collect_variables(&mut vs);
            vs.sort_unstable();
            vs.dedup();
            vs
        };
        let usable = |a: &Atom| {
            self.relations
                .get(a.relation, a.args.len())
                .is_some_and(|r| !self.relations.info[r].demand)
        };
        let mut head_vars = variables(&rule.head);
        let mut body = Vec::new();
        for literal in &rule.body {
            if let Literal::Positive(a) = literal {
                if self.filters.contains(&a.key()) {
                    head_vars.retain(|v| !variables(a).contains(v));
                    body.push(literal.clone());
                }
            }
        }
        while !head_vars.is_empty() {
            let best = rule
                .body
                .iter()
                .filter_map(|l| match l {
                    Literal::Positive(a) if usable(a) => {
                        let vs = variables(a);
                        let gain = vs.iter().filter(|v| head_vars.contains(v)).count();
                        (gain > 0).then_some((gain, usize::MAX - vs.len(), l, vs))
                    }
                    _ => None,
                })
                .max_by_key(|(gain, narrow, _, _)| (*gain, *narrow))?;
            head_vars.retain(|v| !best.3.contains(v));
            body.push(best.2.clone());
        }
        Some(Rule {
            head: rule.head.clone(),
            body,
            variable_names: rule.variable_names.clone(),
        })
    }

    /// Records that `rel` should become run-time, if it can.
    fn propose_runtime(&mut self, rel: RelId, reason: String) -> bool {
        if self.work_limit(rel).is_some() {
            self.runtime_candidate = Some((rel, reason));
            true
        } else {
            false
        }
    }

    /// The work limit of a join instantiating the rules of `head`.
    fn work_limit(&self, head: RelId) -> Option<u32> {
        let runtime = self.is_runtime.get(head).copied().unwrap_or(false);
        (self.eligible.get(head).copied().unwrap_or(false) && !runtime).then_some(RUNTIME_WORK)
    }

    fn sizes(&self) -> Vec<f64> {
        self.relations
            .info
            .iter()
            .zip(&self.tables)
            .map(|(info, table)| {
                if info.is_static {
                    table.len() as f64
                } else {
                    100.0
                }
            })
            .collect()
    }

    fn compile(
        &mut self,
        rule_index: usize,
        mode: Mode,
        recursive: &dyn Fn(RelId) -> bool,
    ) -> CompiledRule {
        let sizes = self.sizes();
        let size_of = |r: RelId| sizes.get(r).copied().unwrap_or(100.0);
        let rule = &self.rules[rule_index];
        let mut compiler = PlanCompiler {
            relations: &mut self.relations,
            terms: &mut self.terms,
            sizes: &size_of,
        };
        let head = compiler
            .relations
            .id(rule.head.relation, rule.head.args.len());
        let full = compiler.compile(rule, mode, None);
        let mut deltas = Vec::new();
        for (i, literal) in rule.body.iter().enumerate() {
            if let Literal::Positive(a) = literal {
                let rel = compiler.relations.id(a.relation, a.args.len());
                if recursive(rel) {
                    deltas.push((rel, compiler.compile(rule, mode, Some(i))));
                }
            }
        }
        CompiledRule {
            rule: rule_index,
            head,
            full,
            deltas,
        }
    }

    /// M0: the static relations, exactly, component by component.
    fn evaluate_static(&mut self, edges: &[(RelId, RelId)]) -> Result<(), GroundingError> {
        let n = self.relations.info.len();
        let mut graph = DiGraph::<RelId, ()>::new();
        let nodes: Vec<_> = (0..n).map(|r| graph.add_node(r)).collect();
        for &(a, b) in edges {
            if self.relations.info[a].is_static && self.relations.info[b].is_static {
                graph.add_edge(nodes[a], nodes[b], ());
            }
        }
        let mut sccs = kosaraju_scc(&graph);
        sccs.reverse();
        let mut rules_by_head: HashMap<RelId, Vec<usize>> = HashMap::new();
        for (i, rule) in self.rules.iter().enumerate().take(self.program.rules.len()) {
            let head = self
                .relations
                .get(rule.head.relation, rule.head.args.len())
                .unwrap_or(0);
            if self.relations.info[head].is_static {
                rules_by_head.entry(head).or_default().push(i);
            }
        }
        for scc in sccs {
            let members: Vec<RelId> = scc.iter().map(|&node| graph[node]).collect();
            if !self.relations.info[members[0]].is_static {
                continue;
            }
            let rule_ids: Vec<usize> = members
                .iter()
                .flat_map(|r| rules_by_head.get(r).cloned().unwrap_or_default())
                .collect();
            if rule_ids.is_empty() {
                continue;
            }
            if self.relations.info[members[0]].demand {
                for &i in &rule_ids {
                    let sizes = self.sizes();
                    let size_of = |r: RelId| sizes.get(r).copied().unwrap_or(100.0);
                    let mut compiler = PlanCompiler {
                        relations: &mut self.relations,
                        terms: &mut self.terms,
                        sizes: &size_of,
                    };
                    let query = compiler.compile_query(&self.rules[i]);
                    self.relations.info[members[0]].queries.push(query);
                }
                continue;
            }
            let recursive = members.len() > 1 || graph.contains_edge(scc[0], scc[0]);
            let compiled: Vec<CompiledRule> = rule_ids
                .iter()
                .map(|&i| self.compile(i, Mode::Exact, &|r| recursive && members.contains(&r)))
                .collect();
            if let Err(error) = self.fixpoint(&compiled, recursive) {
                if !matches!(error, GroundingError::Time { .. }) {
                    self.static_overflow = compiled.first().map(|c| c.head);
                }
                return Err(error);
            }
        }
        // The static tables are final: build the indexes the on-demand
        // queries read.
        for r in 0..self.relations.info.len() {
            for q in 0..self.relations.info[r].queries.len() {
                let plan = self.relations.info[r].queries[q].plan.clone();
                refresh_indexes(&plan, &mut self.tables, &self.relations, &self.terms);
            }
        }
        Ok(())
    }

    /// The relations to ask on demand so that the static relation `failing`
    /// need not be materialized: it and every static, non-recursive relation
    /// whose rules cannot bind its arguments otherwise. `None` if some use
    /// cannot supply bound arguments.
    fn demand_set(&self, failing: RelId) -> Option<Vec<(crate::datalog::Symbol, usize)>> {
        let v = self.vocabulary;
        let outputs = [v.role, v.init, v.legal, v.goal, v.terminal, v.next];
        let recursive: Vec<bool> = {
            let n = self.relations.info.len();
            let mut graph = DiGraph::<RelId, ()>::new();
            let nodes: Vec<_> = (0..n).map(|r| graph.add_node(r)).collect();
            for rule in &self.source.rules {
                let head = self
                    .relations
                    .get(rule.head.relation, rule.head.args.len())?;
                for literal in &rule.body {
                    if let Literal::Positive(a) | Literal::Negative(a) = literal {
                        let body = self.relations.get(a.relation, a.args.len())?;
                        graph.add_edge(nodes[body], nodes[head], ());
                    }
                }
            }
            let mut flags = vec![false; n];
            for scc in kosaraju_scc(&graph) {
                let cyclic = scc.len() > 1 || graph.contains_edge(scc[0], scc[0]);
                for node in scc {
                    flags[graph[node]] = cyclic;
                }
            }
            flags
        };
        let eligible = |r: RelId| {
            let info = &self.relations.info[r];
            info.is_static && !recursive[r] && !outputs.contains(&info.symbol)
        };
        if !eligible(failing) {
            return None;
        }
        let mut demand = vec![failing];
        loop {
            let mut changed = false;
            for rule in &self.source.rules {
                let head = self
                    .relations
                    .get(rule.head.relation, rule.head.args.len())?;
                let demanded = |a: &Atom| {
                    self.relations
                        .get(a.relation, a.args.len())
                        .is_some_and(|r| demand.contains(&r))
                };
                let head_demanded = demand.contains(&head);
                let uses = rule.body.iter().any(|l| match l {
                    Literal::Positive(a) | Literal::Negative(a) => demanded(a),
                    _ => false,
                });
                if !head_demanded && !uses {
                    continue;
                }
                let mut bound = Vec::new();
                if head_demanded {
                    rule.head.collect_variables(&mut bound);
                }
                for literal in &rule.body {
                    if let Literal::Positive(a) = literal {
                        if !demanded(a) {
                            a.collect_variables(&mut bound);
                        }
                    }
                }
                let mut needed = Vec::new();
                rule.head.collect_variables(&mut needed);
                rule.body
                    .iter()
                    .for_each(|l| l.collect_variables(&mut needed));
                if needed.iter().all(|v| bound.contains(v)) {
                    continue;
                }
                if head_demanded || !eligible(head) {
                    return None;
                }
                demand.push(head);
                changed = true;
            }
            if !changed {
                return Some(
                    demand
                        .iter()
                        .map(|&r| (self.relations.info[r].symbol, self.relations.info[r].arity))
                        .collect(),
                );
            }
        }
    }

    /// The possibly-true dynamic atoms (gdl.md §5.4).
    fn relaxed_fixpoint(&mut self) -> Result<(Vec<CompiledRule>, usize), GroundingError> {
        let dynamic_rules: Vec<usize> = (0..self.rules.len())
            .filter(|&i| {
                let head = &self.rules[i].head;
                self.relations
                    .get(head.relation, head.args.len())
                    .is_some_and(|r| {
                        // Run-time relations' rules are replaced by their
                        // approximations (appended after the program's).
                        let replaced = self.is_runtime[r] && i < self.program.rules.len();
                        !self.relations.info[r].is_static && !replaced
                    })
            })
            .collect();
        let info: Vec<bool> = self.relations.info.iter().map(|r| r.is_static).collect();
        let compiled: Vec<CompiledRule> = dynamic_rules
            .iter()
            .map(|&i| self.compile(i, Mode::Relaxed, &|r| !info.get(r).copied().unwrap_or(true)))
            .collect();
        let rounds = self.fixpoint(&compiled, true)?;
        Ok((compiled, rounds))
    }

    fn join<'a>(&'a self, delta: (usize, usize), max_matches: usize) -> Join<'a> {
        Join {
            tables: &self.tables,
            relations: &self.relations,
            terms: &self.terms,
            delta,
            max_matches,
            deadline: self.deadline,
            work: std::cell::Cell::new(0),
            work_limit: None,
        }
    }

    fn interrupted(&self, interrupt: Interrupt, head: RelId) -> GroundingError {
        match interrupt {
            Interrupt::Deadline | Interrupt::Found | Interrupt::Budget => GroundingError::Time {
                limit: self.limits.max_time.unwrap_or_default(),
                relation: self.rel_name(head),
            },
            Interrupt::TooManyMatches => GroundingError::TooManyRules {
                limit: self.limits.max_rules,
                relation: self.rel_name(head),
                count: self.limits.max_rules,
            },
        }
    }

    fn check_time(&self, head: RelId) -> Result<(), GroundingError> {
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(self.interrupted(Interrupt::Deadline, head)),
            _ => Ok(()),
        }
    }

    /// Semi-naive fixpoint of the given rules; returns the number of rounds.
    fn fixpoint(
        &mut self,
        compiled: &[CompiledRule],
        recursive: bool,
    ) -> Result<usize, GroundingError> {
        // Semi-naive rounds that visit only the rules with a body relation
        // that grew in the previous round, so that a long chain of
        // derivations (one step per round) costs its length, not its length
        // times the number of rules.
        let mut by_delta: FxMap<RelId, Vec<usize>> = FxMap::default();
        for (k, c) in compiled.iter().enumerate() {
            for (rel, _) in &c.deltas {
                by_delta.entry(*rel).or_default().push(k);
            }
        }
        // For each relation that grew in the current round: its size when
        // the round started.
        let mut grown: FxMap<RelId, usize> = FxMap::default();
        // The previous round's new facts of each relation that grew then.
        let mut delta_ranges: FxMap<RelId, (usize, usize)> = FxMap::default();
        let mut visit: Vec<usize> = (0..compiled.len()).collect();
        let mut first = true;
        let mut rounds = 0;
        let mut matches: Vec<TermId> = Vec::new();
        let mut tuple = Vec::new();
        loop {
            for &k in &visit {
                let c = &compiled[k];
                self.check_time(c.head)?;
                let plans: Vec<(&Plan, (usize, usize))> = if first {
                    vec![(&c.full, (0, 0))]
                } else {
                    c.deltas
                        .iter()
                        .filter_map(|(rel, plan)| delta_ranges.get(rel).map(|&range| (plan, range)))
                        .collect()
                };
                let slots = self.rules[c.rule].variable_names.len().max(1);
                // Only the head's variables matter here: matches that agree
                // on them give the same atom, so they are merged on the fly.
                let mut head_vars = Vec::new();
                self.rules[c.rule].head.collect_variables(&mut head_vars);
                head_vars.sort_unstable();
                head_vars.dedup();
                for (plan, delta) in plans {
                    refresh_indexes(plan, &mut self.tables, &self.relations, &self.terms);
                    let mut join = self.join(delta, self.limits.max_atoms);
                    join.work_limit = self.work_limit(c.head);
                    let mut env = vec![0; slots];
                    let mut sink = HeadSink {
                        head_vars: &head_vars,
                        seen: FxSet::default(),
                        out: std::mem::take(&mut matches),
                    };
                    let result = join.run(&plan.steps, &mut env, &mut sink);
                    matches = sink.out;
                    let width = head_vars.len().max(1);
                    if let Err(interrupt) = result {
                        if interrupt == Interrupt::Budget {
                            self.propose_runtime(
                                c.head,
                                format!("its instantiation took over {RUNTIME_WORK} join steps"),
                            );
                        }
                        return Err(match interrupt {
                            Interrupt::TooManyMatches => {
                                self.too_many_atoms(c.head, matches.len() / width)
                            }
                            other => self.interrupted(other, c.head),
                        });
                    }
                    let head = &self.rules[c.rule].head;
                    for values in matches.chunks(width) {
                        for (&v, &value) in head_vars.iter().zip(values) {
                            env[v as usize] = value;
                        }
                        tuple.clear();
                        for arg in &head.args {
                            tuple.push(instantiate(&mut self.terms, arg, &env));
                        }
                        let size = self.tables[c.head].len();
                        if self.tables[c.head].insert(&tuple).1 {
                            grown.entry(c.head).or_insert(size);
                            self.atoms += 1;
                        }
                    }
                    matches.clear();
                    if self.atoms > self.limits.max_atoms {
                        return Err(self.too_many_atoms(c.head, 0));
                    }
                }
            }
            if !recursive || grown.is_empty() {
                return Ok(rounds);
            }
            delta_ranges = grown
                .drain()
                .map(|(rel, start)| (rel, (start, self.tables[rel].len())))
                .collect();
            visit = delta_ranges
                .keys()
                .filter_map(|rel| by_delta.get(rel))
                .flatten()
                .copied()
                .collect();
            // The rules in their given order, each once (the order fixes
            // the atoms' numbering).
            visit.sort_unstable();
            visit.dedup();
            rounds += 1;
            first = false;
        }
    }

    /// The atom limit was hit while deriving atoms of `relation`.
    fn too_many_atoms(&self, relation: RelId, pending: usize) -> GroundingError {
        GroundingError::TooManyAtoms {
            limit: self.limits.max_atoms,
            relation: self.rel_name(relation),
            count: self.tables[relation].len() + pending,
        }
    }

    /// The ground instances of the dynamic rules against the final atoms.
    fn emit(&mut self, compiled: &[CompiledRule]) -> Result<GroundProgram, GroundingError> {
        let v = self.vocabulary;
        let mut atom_ids: FxMap<(RelId, u32), AtomId> = FxMap::default();
        let mut atoms: Vec<GroundAtom> = Vec::new();
        let mut rules: Vec<GroundRule> = Vec::new();
        let mut per_relation: HashMap<RelId, usize> = HashMap::new();
        let mut atom_of =
            |rel: RelId, row: u32, tables: &[FactTable], relations: &Relations| -> AtomId {
                *atom_ids.entry((rel, row)).or_insert_with(|| {
                    atoms.push(GroundAtom {
                        relation: relations.info[rel].symbol,
                        args: tables[rel].row(row as usize).to_vec(),
                    });
                    (atoms.len() - 1) as AtomId
                })
            };
        // Static outputs (e.g. `(legal robot noop)` as a fact) become constants.
        for (symbol, arity) in [(v.legal, 2), (v.goal, 2), (v.terminal, 0), (v.next, 1)] {
            let Some(rel) = self.relations.get(symbol, arity) else {
                continue;
            };
            if !self.relations.info[rel].is_static {
                continue;
            }
            for row in 0..self.tables[rel].len() {
                let head = atom_of(rel, row as u32, &self.tables, &self.relations);
                rules.push(GroundRule {
                    head,
                    body: Vec::new(),
                });
            }
        }
        let filters: FxSet<RelId> = self
            .filters
            .iter()
            .filter_map(|&(s, arity)| self.relations.get(s, arity))
            .collect();
        let mut matches: Vec<TermId> = Vec::new();
        for c in compiled
            .iter()
            .filter(|c| c.rule < self.program.rules.len() && !filters.contains(&c.head))
        {
            self.check_time(c.head)?;
            let rule = &self.rules[c.rule];
            let slots = rule.variable_names.len().max(1);
            refresh_indexes(&c.full, &mut self.tables, &self.relations, &self.terms);
            let remaining = self
                .limits
                .max_rules
                .saturating_sub(rules.len())
                .saturating_add(1);
            let eligible_head = self.work_limit(c.head).is_some();
            let mut join = self.join(
                (0, 0),
                if eligible_head {
                    remaining.min(RUNTIME_RULES)
                } else {
                    remaining
                }
                .saturating_mul(slots),
            );
            join.work_limit = self.work_limit(c.head);
            let mut env = vec![0; slots];
            if let Err(interrupt) = join.run(&c.full.steps, &mut env, &mut matches) {
                let count = per_relation.get(&c.head).copied().unwrap_or(0) + matches.len() / slots;
                if eligible_head {
                    self.propose_runtime(
                        c.head,
                        match interrupt {
                            Interrupt::TooManyMatches => {
                                format!("its rules have over {RUNTIME_RULES} ground instances")
                            }
                            _ => format!("its instantiation took over {RUNTIME_WORK} join steps"),
                        },
                    );
                }
                return Err(match interrupt {
                    Interrupt::TooManyMatches => GroundingError::TooManyRules {
                        limit: self.limits.max_rules,
                        relation: self.rel_name(c.head),
                        count,
                    },
                    other => self.interrupted(other, c.head),
                });
            }
            let mut tuple = Vec::new();
            for env in matches.chunks(slots) {
                tuple.clear();
                tuple.extend(
                    rule.head
                        .args
                        .iter()
                        .map(|t| find_instance(&self.terms, t, env).unwrap_or(u32::MAX)),
                );
                let Some(row) = self.tables[c.head].find(&tuple) else {
                    continue;
                };
                let head = atom_of(c.head, row, &self.tables, &self.relations);
                let mut body = Vec::new();
                #[cfg(feature = "planted-bugs")]
                let mut planted_drop = false;
                for literal in &rule.body {
                    let (atom, positive) = match literal {
                        Literal::Positive(a) => (a, true),
                        Literal::Negative(a) => (a, false),
                        _ => continue,
                    };
                    let Some(rel) = self.relations.get(atom.relation, atom.args.len()) else {
                        continue;
                    };
                    if self.relations.info[rel].is_static || filters.contains(&rel) {
                        continue;
                    }
                    tuple.clear();
                    let values: Option<Vec<TermId>> = atom
                        .args
                        .iter()
                        .map(|t| find_instance(&self.terms, t, env))
                        .collect();
                    let row = values.and_then(|vals| self.tables[rel].find(&vals));
                    match (row, positive) {
                        (Some(row), _) => body.push(GroundLiteral {
                            atom: atom_of(rel, row, &self.tables, &self.relations),
                            positive,
                        }),
                        // A positive literal matched P, so it has a row.
                        (None, true) => {}
                        // Never possibly true: the negation always holds.
                        (None, false) => {
                            #[cfg(feature = "planted-bugs")]
                            {
                                planted_drop |= crate::planted::is_planted(
                                    crate::planted::PlantedBug::DropRulesWithImpossibleNegation,
                                );
                            }
                        }
                    }
                }
                #[cfg(feature = "planted-bugs")]
                if planted_drop {
                    continue;
                }
                body.sort_unstable();
                body.dedup();
                rules.push(GroundRule { head, body });
                *per_relation.entry(c.head).or_default() += 1;
            }
            matches.clear();
            // Identical instances (variables that only static literals
            // mention) are merged; sorting keeps the output deterministic.
            if rules.len() > self.limits.max_rules {
                rules.sort_unstable_by(|a, b| (a.head, &a.body).cmp(&(b.head, &b.body)));
                rules.dedup();
            }
            if rules.len() > self.limits.max_rules {
                let (rel, count) = per_relation
                    .iter()
                    .max_by_key(|(_, &c)| c)
                    .map_or((c.head, 0), |(&r, &c)| (r, c));
                return Err(GroundingError::TooManyRules {
                    limit: self.limits.max_rules,
                    relation: self.rel_name(rel),
                    count,
                });
            }
        }
        let mut runtime = RuntimeRelations::default();
        let true_rel = self.relations.get(v.true_, 1);
        let mut wanted: Vec<(crate::datalog::Symbol, usize)> = Vec::new();
        for (rel, info) in self.relations.info.iter().enumerate() {
            if self.is_runtime.get(rel).copied().unwrap_or(false) {
                runtime.relations.push((info.symbol, info.arity));
                wanted.push((info.symbol, info.arity));
                for row in 0..self.tables[rel].len() {
                    let atom = atom_of(rel, row as u32, &self.tables, &self.relations);
                    runtime.atoms.push(atom);
                }
            }
        }
        // Their rules, those of the static relations they ask on demand
        // and the rows of the static relations they read.
        let mut k = 0;
        while k < wanted.len() {
            let key = wanted[k];
            k += 1;
            let rel = self.relations.get(key.0, key.1);
            let by_rules = runtime.relations.contains(&key)
                || rel.is_some_and(|r| self.relations.info[r].demand);
            if !by_rules {
                let rows = rel.map_or_else(Vec::new, |r| {
                    (0..self.tables[r].len())
                        .map(|i| self.tables[r].row(i).to_vec())
                        .collect()
                });
                runtime.facts.insert(key, rows);
                continue;
            }
            for rule in self.source.rules.iter().filter(|r| r.head.key() == key) {
                runtime.rules.push(rule.clone());
                for literal in &rule.body {
                    let (Literal::Positive(a) | Literal::Negative(a)) = literal else {
                        continue;
                    };
                    if a.relation == v.true_ && a.args.len() == 1 {
                        let Some(t) = true_rel else { continue };
                        for row in 0..self.tables[t].len() {
                            let fact = self.tables[t].row(row)[0];
                            if may_match(&self.terms, &a.args[0], fact) {
                                let atom = atom_of(t, row as u32, &self.tables, &self.relations);
                                runtime.reads.push(atom);
                            }
                        }
                    } else if !wanted.contains(&a.key()) {
                        wanted.push(a.key());
                    }
                }
            }
        }
        runtime.reads.sort_unstable();
        runtime.reads.dedup();
        let rows =
            |symbol, arity, tables: &[FactTable], relations: &Relations| -> Vec<Vec<TermId>> {
                relations
                    .get(symbol, arity)
                    .map(|r| {
                        (0..tables[r].len())
                            .map(|i| tables[r].row(i).to_vec())
                            .collect()
                    })
                    .unwrap_or_default()
            };
        let roles: Vec<TermId> = rows(v.role, 1, &self.tables, &self.relations)
            .into_iter()
            .map(|r| r[0])
            .collect();
        if roles.is_empty() {
            return Err(GroundingError::Invalid("no role is defined".into()));
        }
        let initial: Vec<TermId> = rows(v.init, 1, &self.tables, &self.relations)
            .into_iter()
            .map(|r| r[0])
            .collect();
        Ok(GroundProgram {
            symbols: self.symbols.clone(),
            vocabulary: v,
            terms: std::mem::take(&mut self.terms),
            atoms,
            rules,
            roles,
            initial,
            base_facts: Vec::new(),
            actions: Vec::new(),
            goal_values: Vec::new(),
            runtime,
            stats: GroundingStats::default(),
        })
    }
}

/// Whether the ground term `t` may be an instance of `pattern` (variables
/// match anything, repeated ones are not compared).
fn may_match(terms: &GroundTerms, pattern: &Term, t: TermId) -> bool {
    terms.matches(pattern, t, &mut |_, _| true)
}
