//! Compiling normal rules for bottom-up evaluation (gdl.md §3.2–3.3):
//! relations are classified (static / state / move) and assigned to the
//! evaluation layer that first needs them, rules are grouped into
//! rule-level strata, and each body is ordered greedily so that `not` and
//! `distinct` only ever see bound variables.

use std::collections::HashMap;

use rg_core::model::ModelError;

use super::table::{IndexSpec, Path};
use super::terms::{Sym, TermId, TermStore};
use crate::ast::{Term, TermKind};
use crate::normalize::{NormalLiteral, NormalRule};
use crate::validate::Game;

pub type RelId = usize;

/// When a relation is computed. Layers are evaluated in this order; each
/// reads only the layers before it (and itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LayerKind {
    /// Independent of the state: computed once.
    Static = 0,
    /// `true` and what `legal` and `terminal` need: once per state.
    Core = 1,
    /// State relations needed only by `next`: once per expanded state.
    NextPre = 2,
    /// State relations needed only by `goal`: on request.
    Goal = 3,
    /// `does` and what depends on it: once per joint move.
    Move = 4,
}

pub const LAYER_COUNT: usize = 5;

#[derive(Clone, Debug)]
pub struct Relation {
    pub name: String,
    pub arity: usize,
    /// `None` for state relations no output needs (never evaluated).
    pub layer: Option<LayerKind>,
    /// Position of its table in its layer.
    pub local: usize,
    pub specs: Vec<IndexSpec>,
}

/// A pattern matched against a ground term.
#[derive(Clone, Debug)]
pub enum Pat {
    Const(TermId),
    /// First occurrence of a variable: binds the slot.
    Bind(u16),
    /// A variable bound earlier: compares with the slot.
    Check(u16),
    Func(Sym, Box<[Pat]>),
}

/// A head argument built from the bindings.
#[derive(Clone, Debug)]
pub enum Build {
    Const(TermId),
    Slot(u16),
    Func(Sym, Box<[Build]>),
}

#[derive(Clone, Debug)]
pub enum Step {
    /// Join with a table; `delta` restricts it to the rows new in the last round.
    Scan {
        rel: RelId,
        args: Box<[Pat]>,
        index: Option<(usize, Box<[Pat]>)>,
        delta: bool,
    },
    Negated {
        rel: RelId,
        args: Box<[Pat]>,
    },
    Distinct(Pat, Pat),
    Equal(Pat, Pat),
    /// A demand-driven relation asked with all arguments bound.
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

#[derive(Clone, Debug)]
pub struct CompiledRule {
    pub head_rel: RelId,
    pub head: Box<[Build]>,
    pub slots: usize,
    pub full: Plan,
    /// One plan per recursive body literal, that literal scanning the delta.
    pub deltas: Vec<Plan>,
}

/// A rule of a demand-driven relation: matched against a ground call,
/// then its body is searched for one solution.
#[derive(Clone, Debug)]
pub struct QueryRule {
    pub head: Box<[Pat]>,
    pub slots: usize,
    pub plan: Plan,
}

#[derive(Clone, Debug)]
pub struct Stratum {
    pub rules: Vec<usize>,
    pub recursive: bool,
}

/// The compiled program.
pub struct Program {
    pub relations: Vec<Relation>,
    /// Static relations evaluated on demand instead of materialized
    /// (too large to compute, always used with bound arguments).
    pub demand: Vec<bool>,
    /// The rules of each demand-driven relation.
    pub queries: Vec<Vec<QueryRule>>,
    pub relation_ids: HashMap<(String, usize), RelId>,
    pub rules: Vec<CompiledRule>,
    pub strata: [Vec<Stratum>; LAYER_COUNT],
    pub true_rel: RelId,
    pub does_rel: RelId,
    pub next_rel: RelId,
    pub legal_rel: RelId,
    pub goal_rel: RelId,
    pub terminal_rel: RelId,
    pub init_rel: RelId,
}

/// Intern a ground AST term.
pub fn intern_term(store: &mut TermStore, term: &Term) -> Option<TermId> {
    match &term.kind {
        TermKind::Constant(name) => {
            let s = store.symbol(name);
            Some(store.constant(s))
        }
        TermKind::Variable(_) => None,
        TermKind::Function { name, args } => {
            let ids: Option<Vec<TermId>> = args.iter().map(|a| intern_term(store, a)).collect();
            let s = store.symbol(name);
            Some(store.intern(s, &ids?))
        }
    }
}

impl Program {
    pub fn rel(&self, name: &str, arity: usize) -> Option<RelId> {
        self.relation_ids.get(&(name.to_string(), arity)).copied()
    }

    /// Classifies relations and groups rules; plans are compiled later.
    pub fn analyze(
        game: &Game,
        demand_keys: &[(String, usize)],
    ) -> Result<(Program, Vec<Vec<usize>>), ModelError> {
        let mut relation_ids: HashMap<(String, usize), RelId> = HashMap::new();
        let mut relations: Vec<Relation> = Vec::new();
        let mut relation = |name: &str, arity: usize| -> RelId {
            *relation_ids
                .entry((name.to_string(), arity))
                .or_insert_with(|| {
                    relations.push(Relation {
                        name: name.to_string(),
                        arity,
                        layer: None,
                        local: 0,
                        specs: Vec::new(),
                    });
                    relations.len() - 1
                })
        };
        let true_rel = relation("true", 1);
        let does_rel = relation("does", 2);
        let next_rel = relation("next", 1);
        let legal_rel = relation("legal", 2);
        let goal_rel = relation("goal", 2);
        let terminal_rel = relation("terminal", 0);
        let init_rel = relation("init", 1);
        relation("role", 1);
        // Dependency edges body → head.
        let mut edges: Vec<(RelId, RelId)> = Vec::new();
        for rule in &game.rules {
            let head = relation(&rule.head.name, rule.head.args.len());
            for literal in &rule.body {
                if let Some(atom) = literal.atom() {
                    let body = relation(&atom.name, atom.args.len());
                    edges.push((body, head));
                }
            }
        }
        let n = relations.len();
        let mut successors = vec![Vec::new(); n];
        let mut predecessors = vec![Vec::new(); n];
        for &(a, b) in &edges {
            successors[a].push(b);
            predecessors[b].push(a);
        }
        let reach = |start: &[RelId], adjacency: &Vec<Vec<RelId>>| {
            let mut seen = vec![false; n];
            let mut stack: Vec<RelId> = start.to_vec();
            for &s in start {
                seen[s] = true;
            }
            while let Some(r) = stack.pop() {
                for &m in &adjacency[r] {
                    if !seen[m] {
                        seen[m] = true;
                        stack.push(m);
                    }
                }
            }
            seen
        };
        let dynamic = reach(&[true_rel, does_rel], &successors);
        let moving = reach(&[does_rel], &successors);
        let core_cone = reach(&[legal_rel, terminal_rel], &predecessors);
        let next_cone = reach(&[next_rel], &predecessors);
        let goal_cone = reach(&[goal_rel], &predecessors);
        let mut layer_sizes = [0usize; LAYER_COUNT];
        for (r, rel) in relations.iter_mut().enumerate() {
            let layer = if demand_keys.contains(&(rel.name.clone(), rel.arity)) && !dynamic[r] {
                None
            } else if !dynamic[r] {
                Some(LayerKind::Static)
            } else if moving[r] {
                next_cone[r].then_some(LayerKind::Move)
            } else if core_cone[r] || r == true_rel {
                Some(LayerKind::Core)
            } else if next_cone[r] {
                Some(LayerKind::NextPre)
            } else if goal_cone[r] {
                Some(LayerKind::Goal)
            } else {
                None
            };
            // `does` always gets a table so that moves can be loaded.
            let layer = if r == does_rel {
                Some(LayerKind::Move)
            } else {
                layer
            };
            rel.layer = layer;
            if let Some(l) = layer {
                rel.local = layer_sizes[l as usize];
                layer_sizes[l as usize] += 1;
            }
        }
        let sccs = crate::strata::rule_strata(&game.rules).map_err(|cycle| {
            ModelError::new(format!(
                "rules are not stratified (cycle through rules {cycle:?})"
            ))
        })?;
        let demand: Vec<bool> = relations
            .iter()
            .enumerate()
            .map(|(r, rel)| !dynamic[r] && demand_keys.contains(&(rel.name.clone(), rel.arity)))
            .collect();
        let queries = vec![Vec::new(); relations.len()];
        let program = Program {
            demand,
            queries,
            relations,
            relation_ids,
            rules: Vec::new(),
            strata: Default::default(),
            true_rel,
            does_rel,
            next_rel,
            legal_rel,
            goal_rel,
            terminal_rel,
            init_rel,
        };
        Ok((program, sccs))
    }

    /// Compiles the rules of the components `sccs` whose head lies in one
    /// of `layers`, appending them to the program's strata.
    pub fn compile_components(
        &mut self,
        game: &Game,
        sccs: &[Vec<usize>],
        layers: &[LayerKind],
        store: &mut TermStore,
        sizes: &dyn Fn(RelId) -> Option<usize>,
    ) {
        for scc in sccs {
            let Some(first) = scc.first() else { continue };
            let head = &game.rules[*first].head;
            let Some(rel) = self.rel(&head.name, head.args.len()) else {
                continue;
            };
            if self.demand[rel] {
                // Demand-driven relations are compiled with the static layer.
                if layers.contains(&LayerKind::Static) {
                    for &i in scc {
                        let rule = &game.rules[i];
                        let head_rel = self
                            .rel(&rule.head.name, rule.head.args.len())
                            .unwrap_or(rel);
                        let query = self.compile_query(rule, store, sizes);
                        self.queries[head_rel].push(query);
                    }
                }
                continue;
            }
            let Some(layer) = self.relations[rel].layer else {
                continue;
            };
            if !layers.contains(&layer) {
                continue;
            }
            let heads: Vec<RelId> = scc
                .iter()
                .filter_map(|&i| self.rel(&game.rules[i].head.name, game.rules[i].head.args.len()))
                .collect();
            let recursive = scc.iter().any(|&i| {
                game.rules[i].body.iter().any(|l| match l {
                    NormalLiteral::Positive(a) => self
                        .rel(&a.name, a.args.len())
                        .is_some_and(|r| heads.contains(&r)),
                    _ => false,
                })
            });
            let mut ids = Vec::new();
            for &i in scc {
                let compiled = self.compile_rule(
                    &game.rules[i],
                    recursive.then_some(&heads[..]),
                    store,
                    sizes,
                );
                ids.push(self.rules.len());
                self.rules.push(compiled);
            }
            self.strata[layer as usize].push(Stratum {
                rules: ids,
                recursive,
            });
        }
    }

    fn compile_rule(
        &mut self,
        rule: &NormalRule,
        recursive_heads: Option<&[RelId]>,
        store: &mut TermStore,
        sizes: &dyn Fn(RelId) -> Option<usize>,
    ) -> CompiledRule {
        let slots = Self::variable_slots(rule);
        let full = self.compile_plan(rule, None, &slots, store, sizes);
        let mut deltas = Vec::new();
        if let Some(heads) = recursive_heads {
            for (position, literal) in rule.body.iter().enumerate() {
                if let NormalLiteral::Positive(a) = literal {
                    if self
                        .rel(&a.name, a.args.len())
                        .is_some_and(|r| heads.contains(&r))
                    {
                        deltas.push(self.compile_plan(rule, Some(position), &slots, store, sizes));
                    }
                }
            }
        }
        let head = rule
            .head
            .args
            .iter()
            .map(|t| build_of(t, &slots, store))
            .collect();
        let head_rel = self.rel(&rule.head.name, rule.head.args.len()).unwrap_or(0);
        CompiledRule {
            head_rel,
            head,
            slots: slots.len(),
            full,
            deltas,
        }
    }

    fn variable_slots(rule: &NormalRule) -> HashMap<String, u16> {
        let mut slots: HashMap<String, u16> = HashMap::new();
        let mut all_vars = Vec::new();
        rule.head.variables(&mut all_vars);
        for literal in &rule.body {
            literal.variables(&mut all_vars);
        }
        for v in all_vars {
            if let Some(name) = v.variable_name() {
                let next = slots.len() as u16;
                slots.entry(name.to_string()).or_insert(next);
            }
        }
        slots
    }

    /// A rule of a demand-driven relation: the head binds its variables
    /// from the call, the body is planned with them bound.
    fn compile_query(
        &mut self,
        rule: &NormalRule,
        store: &mut TermStore,
        sizes: &dyn Fn(RelId) -> Option<usize>,
    ) -> QueryRule {
        let slots = Self::variable_slots(rule);
        let mut bound = vec![false; slots.len()];
        let head: Box<[Pat]> = rule
            .head
            .args
            .iter()
            .map(|t| pattern_of(t, &slots, &mut bound, store))
            .collect();
        let plan = self.compile_plan_from(rule, None, &slots, bound, store, sizes);
        QueryRule {
            head,
            slots: slots.len(),
            plan,
        }
    }

    /// Whether a literal only filters (scheduled once its variables are bound).
    fn is_filter(&self, literal: &NormalLiteral) -> bool {
        match literal {
            NormalLiteral::Positive(a) => self
                .rel(&a.name, a.args.len())
                .is_some_and(|r| self.demand[r]),
            _ => true,
        }
    }

    /// Orders the body greedily (gdl.md §3.3) and compiles each literal.
    fn compile_plan(
        &mut self,
        rule: &NormalRule,
        delta: Option<usize>,
        slots: &HashMap<String, u16>,
        store: &mut TermStore,
        sizes: &dyn Fn(RelId) -> Option<usize>,
    ) -> Plan {
        let bound: Vec<bool> = vec![false; slots.len()];
        self.compile_plan_from(rule, delta, slots, bound, store, sizes)
    }

    fn compile_plan_from(
        &mut self,
        rule: &NormalRule,
        delta: Option<usize>,
        slots: &HashMap<String, u16>,
        mut bound: Vec<bool>,
        store: &mut TermStore,
        sizes: &dyn Fn(RelId) -> Option<usize>,
    ) -> Plan {
        let mut remaining: Vec<usize> = (0..rule.body.len()).collect();
        let mut steps = Vec::new();
        if let Some(d) = delta {
            remaining.retain(|&i| i != d);
            steps.push(self.compile_literal(&rule.body[d], true, &mut bound, slots, store));
        }
        loop {
            // Filters whose variables are all bound go first: they only prune.
            let mut progressed = true;
            while progressed {
                progressed = false;
                let mut i = 0;
                while i < remaining.len() {
                    let literal = &rule.body[remaining[i]];
                    if self.is_filter(literal) && all_bound(literal, slots, &bound) {
                        steps.push(self.compile_literal(literal, false, &mut bound, slots, store));
                        remaining.remove(i);
                        progressed = true;
                    } else {
                        i += 1;
                    }
                }
            }
            let best = remaining
                .iter()
                .enumerate()
                .filter(|(_, &i)| !self.is_filter(&rule.body[i]))
                .map(|(k, &i)| (k, self.estimate(&rule.body[i], slots, &bound, sizes)))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            let Some((k, _)) = best else { break };
            let i = remaining.remove(k);
            steps.push(self.compile_literal(&rule.body[i], false, &mut bound, slots, store));
        }
        // Validation guarantees safety, so nothing is left; if something
        // were, it is compiled anyway (its unbound variables fail to match).
        for i in remaining {
            steps.push(self.compile_literal(&rule.body[i], false, &mut bound, slots, store));
        }
        Plan { steps }
    }

    /// Estimated number of matches of a positive literal.
    fn estimate(
        &self,
        literal: &NormalLiteral,
        slots: &HashMap<String, u16>,
        bound: &[bool],
        sizes: &dyn Fn(RelId) -> Option<usize>,
    ) -> f64 {
        let NormalLiteral::Positive(atom) = literal else {
            return f64::MAX;
        };
        let rel = self.rel(&atom.name, atom.args.len()).unwrap_or(0);
        let (mut leaves, mut fixed, mut functors) = (0u32, 0u32, 0u32);
        for arg in &atom.args {
            count_leaves(arg, slots, bound, &mut leaves, &mut fixed, &mut functors);
        }
        if fixed == leaves {
            return 0.1;
        }
        let base = match sizes(rel) {
            Some(size) => size as f64,
            None if rel == self.true_rel => 60.0,
            None if rel == self.does_rel => 2.0,
            None => 200.0,
        };
        base * 0.15f64.powi(fixed as i32) * 0.5f64.powi(functors as i32) + 0.2
    }

    fn compile_literal(
        &mut self,
        literal: &NormalLiteral,
        delta: bool,
        bound: &mut [bool],
        slots: &HashMap<String, u16>,
        store: &mut TermStore,
    ) -> Step {
        if let NormalLiteral::Positive(atom) | NormalLiteral::Negative(atom) = literal {
            let rel = self.rel(&atom.name, atom.args.len()).unwrap_or(0);
            if self.demand[rel] {
                return Step::Call {
                    rel,
                    args: atom
                        .args
                        .iter()
                        .map(|t| pattern_of(t, slots, bound, store))
                        .collect(),
                    negated: matches!(literal, NormalLiteral::Negative(_)),
                };
            }
        }
        match literal {
            NormalLiteral::Positive(atom) => {
                let rel = self.rel(&atom.name, atom.args.len()).unwrap_or(0);
                let args: Box<[Pat]> = atom
                    .args
                    .iter()
                    .map(|t| pattern_of(t, slots, bound, store))
                    .collect();
                let index = if delta {
                    None
                } else {
                    self.register_index(rel, &args)
                };
                Step::Scan {
                    rel,
                    args,
                    index,
                    delta,
                }
            }
            NormalLiteral::Negative(atom) => Step::Negated {
                rel: self.rel(&atom.name, atom.args.len()).unwrap_or(0),
                args: atom
                    .args
                    .iter()
                    .map(|t| pattern_of(t, slots, bound, store))
                    .collect(),
            },
            NormalLiteral::Distinct(s, t, _) => Step::Distinct(
                pattern_of(s, slots, bound, store),
                pattern_of(t, slots, bound, store),
            ),
            NormalLiteral::Equal(s, t, _) => Step::Equal(
                pattern_of(s, slots, bound, store),
                pattern_of(t, slots, bound, store),
            ),
        }
    }

    /// The index a scan with these patterns uses, registered on the relation.
    fn register_index(&mut self, rel: RelId, args: &[Pat]) -> Option<(usize, Box<[Pat]>)> {
        let mut spec = IndexSpec {
            functors: Vec::new(),
            keys: Vec::new(),
        };
        let mut key_pats = Vec::new();
        let mut path = Vec::new();
        for (i, pat) in args.iter().enumerate() {
            path.push(i as u8);
            collect_index(pat, &mut path, &mut spec, &mut key_pats);
            path.pop();
        }
        if spec.functors.is_empty() && spec.keys.is_empty() {
            return None;
        }
        let specs = &mut self.relations[rel].specs;
        let id = match specs.iter().position(|s| *s == spec) {
            Some(id) => id,
            None => {
                specs.push(spec);
                specs.len() - 1
            }
        };
        Some((id, key_pats.into_boxed_slice()))
    }
}

fn collect_index(pat: &Pat, path: &mut Vec<u8>, spec: &mut IndexSpec, keys: &mut Vec<Pat>) {
    match pat {
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
                collect_index(p, path, spec, keys);
                path.pop();
            }
        }
    }
}

fn all_bound(literal: &NormalLiteral, slots: &HashMap<String, u16>, bound: &[bool]) -> bool {
    let mut vars = Vec::new();
    literal.variables(&mut vars);
    vars.iter().all(|v| {
        v.variable_name()
            .and_then(|n| slots.get(n))
            .is_some_and(|&s| bound[s as usize])
    })
}

fn count_leaves(
    term: &Term,
    slots: &HashMap<String, u16>,
    bound: &[bool],
    leaves: &mut u32,
    fixed: &mut u32,
    functors: &mut u32,
) {
    match &term.kind {
        TermKind::Constant(_) => {
            *leaves += 1;
            *fixed += 1;
        }
        TermKind::Variable(name) => {
            *leaves += 1;
            if slots.get(name).is_some_and(|&s| bound[s as usize]) {
                *fixed += 1;
            }
        }
        TermKind::Function { args, .. } => {
            *functors += 1;
            for a in args {
                count_leaves(a, slots, bound, leaves, fixed, functors);
            }
        }
    }
}

/// Compiles a term to a pattern, marking the variables it binds.
fn pattern_of(
    term: &Term,
    slots: &HashMap<String, u16>,
    bound: &mut [bool],
    store: &mut TermStore,
) -> Pat {
    if term.is_ground() {
        if let Some(t) = intern_term(store, term) {
            return Pat::Const(t);
        }
    }
    match &term.kind {
        TermKind::Constant(name) => {
            let s = store.symbol(name);
            Pat::Const(store.constant(s))
        }
        TermKind::Variable(name) => {
            let slot = slots.get(name).copied().unwrap_or(0);
            if bound[slot as usize] {
                Pat::Check(slot)
            } else {
                bound[slot as usize] = true;
                Pat::Bind(slot)
            }
        }
        TermKind::Function { name, args } => {
            let f = store.symbol(name);
            Pat::Func(
                f,
                args.iter()
                    .map(|a| pattern_of(a, slots, bound, store))
                    .collect(),
            )
        }
    }
}

fn build_of(term: &Term, slots: &HashMap<String, u16>, store: &mut TermStore) -> Build {
    match &term.kind {
        TermKind::Constant(name) => {
            let s = store.symbol(name);
            Build::Const(store.constant(s))
        }
        TermKind::Variable(name) => Build::Slot(slots.get(name).copied().unwrap_or(0)),
        TermKind::Function { name, args } => {
            if let Some(t) = intern_term(store, term) {
                return Build::Const(t);
            }
            let f = store.symbol(name);
            Build::Func(f, args.iter().map(|a| build_of(a, slots, store)).collect())
        }
    }
}

/// The relations to evaluate on demand so that `failing` (a static relation
/// too large to materialize) need not be computed: it and every static,
/// non-recursive relation whose rules cannot bind its arguments otherwise.
/// `None` if some use of them cannot be given bound arguments.
pub fn demand_set(game: &Game, failing: &(String, usize)) -> Option<Vec<(String, usize)>> {
    let graph = crate::deps::RelationGraph::build(&game.rules);
    let reach = |start: &[(&str, usize)]| {
        let mut seen = vec![false; graph.graph.node_count()];
        let mut stack: Vec<_> = start
            .iter()
            .filter_map(|(n, a)| graph.node(n, *a))
            .collect();
        while let Some(n) = stack.pop() {
            if !std::mem::replace(&mut seen[n.index()], true) {
                stack.extend(graph.graph.neighbors(n));
            }
        }
        seen
    };
    let dynamic = reach(&[("true", 1), ("does", 2)]);
    let (sccs, component) = graph.components();
    let eligible = |key: &(String, usize)| -> bool {
        let Some(n) = graph.node(&key.0, key.1) else {
            return false;
        };
        let c = component[&n];
        !dynamic[n.index()]
            && sccs[c].len() == 1
            && graph.graph.find_edge(n, n).is_none()
            && !matches!(
                key.0.as_str(),
                "role" | "init" | "legal" | "goal" | "terminal" | "next"
            )
    };
    if !eligible(failing) {
        return None;
    }
    let mut demand = vec![failing.clone()];
    loop {
        let mut changed = false;
        for rule in &game.rules {
            let head = (rule.head.name.clone(), rule.head.args.len());
            let head_demanded = demand.contains(&head);
            let uses_demand = rule.body.iter().any(|l| {
                l.atom()
                    .is_some_and(|a| demand.contains(&(a.name.clone(), a.args.len())))
            });
            if !head_demanded && !uses_demand {
                continue;
            }
            // Variables bound without the demand-driven literals.
            let mut bound: Vec<&str> = Vec::new();
            if head_demanded {
                let mut vars = Vec::new();
                rule.head.variables(&mut vars);
                bound.extend(vars.iter().filter_map(|v| v.variable_name()));
            }
            for literal in &rule.body {
                if let NormalLiteral::Positive(a) = literal {
                    if !demand.contains(&(a.name.clone(), a.args.len())) {
                        let mut vars = Vec::new();
                        a.variables(&mut vars);
                        bound.extend(vars.iter().filter_map(|v| v.variable_name()));
                    }
                }
            }
            let mut needed = Vec::new();
            rule.head.variables(&mut needed);
            for literal in &rule.body {
                literal.variables(&mut needed);
            }
            let all_bound = needed
                .iter()
                .filter_map(|v| v.variable_name())
                .all(|n| bound.contains(&n));
            if !all_bound {
                if head_demanded || !eligible(&head) {
                    return None;
                }
                demand.push(head);
                changed = true;
            }
        }
        if !changed {
            return Some(demand);
        }
    }
}
