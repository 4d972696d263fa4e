//! What the lowering needs to know about a ground program before emitting
//! RG: the role of every atom (state input, move input, output, view), the
//! rules of every atom, the strongly connected components of the atom
//! dependency graph (gdl.md §7.7: cyclic ground rules), the resolution of
//! literals through single-rule aliases, and the value of every atom in the
//! initial state.

use std::collections::HashMap;
use std::rc::Rc;

use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use propnet::ground::{AtomId, GroundLiteral, GroundProgram, TermId};

/// What an atom of the ground program stands for. Role indices are in
/// turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomKind {
    /// `true(f)` of base fact number `fact`.
    True { fact: u32 },
    /// `does(r, a)` for action number `action` of role `role`.
    Does { role: u32, action: u32 },
    /// An input atom that can never hold (an action that is never legal, a
    /// fact that is never read).
    Impossible,
    /// Everything defined by rules (`legal`, `next`, `goal`, `terminal`,
    /// helper views).
    Derived,
    /// An atom of a relation evaluated at run time (gdl.md §5.8): a check
    /// of its own subautomaton (`runtime.rs`).
    Runtime,
}

/// A test on the current semistate, the unit of a rule body after
/// resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cond {
    /// `cur[f] == 1` (or `== 0`).
    Fact { fact: u32, positive: bool },
    /// `does_r == a` (or `!=`).
    Does {
        role: u32,
        action: u32,
        positive: bool,
    },
    /// `S[does_r] == 1` (or `!= 1`) for the action set number `set`: one
    /// lookup instead of one comparison per action (frame rules that list
    /// every move that leaves a cell alone).
    DoesIn { role: u32, set: u32, positive: bool },
    /// `? X_begin -> X_end` (or `!`); `level` > 0 names a level of an
    /// unrolled non-linear cycle (gdl.md §7.7).
    Check {
        atom: AtomId,
        level: u32,
        positive: bool,
    },
}

impl Cond {
    pub fn negated(self) -> Cond {
        match self {
            Cond::Fact { fact, positive } => Cond::Fact {
                fact,
                positive: !positive,
            },
            Cond::Does {
                role,
                action,
                positive,
            } => Cond::Does {
                role,
                action,
                positive: !positive,
            },
            Cond::DoesIn {
                role,
                set,
                positive,
            } => Cond::DoesIn {
                role,
                set,
                positive: !positive,
            },
            Cond::Check {
                atom,
                level,
                positive,
            } => Cond::Check {
                atom,
                level,
                positive: !positive,
            },
        }
    }

    /// Comparisons are cheap, reachability checks are not: 0 or 1.
    pub fn cost_class(self) -> u8 {
        match self {
            Cond::Fact { .. } | Cond::Does { .. } | Cond::DoesIn { .. } => 0,
            Cond::Check { .. } => 1,
        }
    }
}

/// A literal after resolution: a constant or a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolved {
    Const(bool),
    Cond(Cond),
}

impl Resolved {
    fn negated(self) -> Resolved {
        match self {
            Resolved::Const(b) => Resolved::Const(!b),
            Resolved::Cond(c) => Resolved::Cond(c.negated()),
        }
    }
}

/// How a cyclic strongly connected component of derived atoms is lowered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CycleShape {
    /// Every rule has at most one body literal inside the component: one
    /// automaton for the whole component, recursive literals are plain
    /// edges (gdl.md §7.7).
    Linear,
    /// Some rule has several literals inside the component: copies by
    /// level, `levels` of them.
    Unrolled { levels: u32 },
}

/// A cyclic component.
#[derive(Clone, Debug)]
pub struct Cycle {
    pub atoms: Vec<AtomId>,
    pub shape: CycleShape,
}

/// The analysed ground program.
pub struct Analysis<'g> {
    pub ground: &'g GroundProgram,
    pub kinds: Vec<AtomKind>,
    /// Rule indices per head atom.
    pub rules_of: Vec<Vec<u32>>,
    /// The cyclic component of an atom, if any.
    pub cycle_of: Vec<Option<u32>>,
    pub cycles: Vec<Cycle>,
    /// Resolution of each atom in positive polarity (filled lazily).
    resolved: Vec<Option<Resolved>>,
    /// Value of every atom in the initial state (moves unknown: `does` false).
    pub initial_value: Vec<bool>,
    /// Inlinable bodies of each atom (filled lazily).
    dnf_memo: Vec<Option<Option<Rc<Dnf>>>>,
}

/// Why a ground program cannot be lowered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisError(pub String);

impl<'g> Analysis<'g> {
    /// `roles_in_turn_order[k]` is the file index of the k-th role;
    /// `actions` and `facts` map terms to their indices.
    pub fn new(
        ground: &'g GroundProgram,
        role_turn_index: &HashMap<TermId, u32>,
        action_index: &[HashMap<TermId, u32>],
        fact_index: &HashMap<TermId, u32>,
    ) -> Result<Analysis<'g>, AnalysisError> {
        let v = ground.vocabulary;
        let n = ground.atoms.len();
        let kinds: Vec<AtomKind> = ground
            .atoms
            .iter()
            .map(|a| match (a.relation, a.args.as_slice()) {
                (s, [f]) if s == v.true_ => match fact_index.get(f) {
                    Some(&fact) => AtomKind::True { fact },
                    None => AtomKind::Impossible,
                },
                (s, [r, x]) if s == v.does => {
                    let found = role_turn_index.get(r).and_then(|&role| {
                        action_index
                            .get(role as usize)
                            .and_then(|m| m.get(x))
                            .map(|&action| AtomKind::Does { role, action })
                    });
                    found.unwrap_or(AtomKind::Impossible)
                }
                _ => AtomKind::Derived,
            })
            .collect();
        let mut kinds = kinds;
        for &a in &ground.runtime.atoms {
            if let Some(kind) = kinds.get_mut(a as usize) {
                *kind = AtomKind::Runtime;
            }
        }
        let mut rules_of = vec![Vec::new(); n];
        for (i, rule) in ground.rules.iter().enumerate() {
            if let Some(list) = rules_of.get_mut(rule.head as usize) {
                list.push(i as u32);
            }
        }
        // Dependency graph over derived atoms: head -> body atom.
        let mut graph = DiGraph::<(), ()>::with_capacity(n, ground.rules.len());
        for _ in 0..n {
            graph.add_node(());
        }
        let mut self_loop = vec![false; n];
        for rule in &ground.rules {
            for l in &rule.body {
                if l.atom as usize >= n || rule.head as usize >= n {
                    continue;
                }
                if kinds[l.atom as usize] == AtomKind::Derived {
                    graph.add_edge(
                        NodeIndex::new(rule.head as usize),
                        NodeIndex::new(l.atom as usize),
                        (),
                    );
                    if l.atom == rule.head {
                        self_loop[l.atom as usize] = true;
                    }
                }
            }
        }
        // Tarjan yields components dependencies-first (reverse topological
        // order of head -> body edges).
        let components = kosaraju_scc(&graph);
        let mut cycle_of = vec![None; n];
        let mut cycles = Vec::new();
        for component in &components {
            let cyclic = component.len() > 1 || self_loop[component[0].index()];
            if !cyclic {
                continue;
            }
            let id = cycles.len() as u32;
            let mut atoms: Vec<AtomId> = component.iter().map(|x| x.index() as AtomId).collect();
            atoms.sort_unstable();
            for &a in &atoms {
                cycle_of[a as usize] = Some(id);
            }
            cycles.push(Cycle {
                atoms,
                shape: CycleShape::Linear,
            });
        }
        for (id, cycle) in cycles.iter_mut().enumerate() {
            let mut linear = true;
            for &a in &cycle.atoms {
                for &r in &rules_of[a as usize] {
                    let inside: Vec<&GroundLiteral> = ground.rules[r as usize]
                        .body
                        .iter()
                        .filter(|l| cycle_of[l.atom as usize] == Some(id as u32))
                        .collect();
                    if let Some(l) = inside.iter().find(|l| !l.positive) {
                        return Err(AnalysisError(format!(
                            "cannot translate: {} depends negatively on itself in the ground program",
                            ground.display_atom(l.atom)
                        )));
                    }
                    if inside.len() > 1 {
                        linear = false;
                    }
                }
            }
            if !linear {
                cycle.shape = CycleShape::Unrolled {
                    levels: cycle.atoms.len() as u32,
                };
            }
        }
        // Values in the initial state, component by component.
        let initial: std::collections::HashSet<TermId> = ground.initial.iter().copied().collect();
        let mut initial_value = vec![false; n];
        for (a, kind) in kinds.iter().enumerate() {
            if let AtomKind::True { .. } = kind {
                initial_value[a] = initial.contains(&ground.atoms[a].args[0]);
            }
        }
        // Run-time atoms: evaluated on the initial state like the propnet
        // does (the base facts that hold initially).
        let evaluator = propnet::runtime::RuntimeEvaluator::new(ground);
        let facts: Vec<TermId> = ground
            .base_facts
            .iter()
            .copied()
            .filter(|f| initial.contains(f))
            .collect();
        let holds: rg_core::fx_hash::FxSet<TermId> = facts.iter().copied().collect();
        let state = propnet::runtime::StateFacts {
            facts: &facts,
            holds: &holds,
        };
        for (k, &a) in ground.runtime.atoms.iter().enumerate() {
            if let Some(value) = initial_value.get_mut(a as usize) {
                *value = evaluator.holds(&ground.terms, k, &state);
            }
        }
        let body_holds = |values: &[bool], body: &[GroundLiteral]| {
            body.iter().all(|l| values[l.atom as usize] == l.positive)
        };
        for component in &components {
            let atoms: Vec<usize> = component.iter().map(|x| x.index()).collect();
            if atoms.iter().all(|&a| kinds[a] != AtomKind::Derived) {
                continue;
            }
            loop {
                let mut changed = false;
                for &a in &atoms {
                    if initial_value[a] || kinds[a] != AtomKind::Derived {
                        continue;
                    }
                    if rules_of[a]
                        .iter()
                        .any(|&r| body_holds(&initial_value, &ground.rules[r as usize].body))
                    {
                        initial_value[a] = true;
                        changed = true;
                    }
                }
                if !changed || atoms.len() == 1 && !self_loop[atoms[0]] {
                    break;
                }
            }
        }
        Ok(Analysis {
            ground,
            kinds,
            rules_of,
            cycle_of,
            cycles,
            resolved: vec![None; n],
            initial_value,
            dnf_memo: vec![None; n],
        })
    }

    /// The condition a literal stands for, following atoms that are defined
    /// by exactly one rule with exactly one literal (aliases) and folding
    /// constants.
    pub fn resolve(&mut self, literal: GroundLiteral) -> Resolved {
        let r = self.resolve_atom(literal.atom);
        if literal.positive {
            r
        } else {
            r.negated()
        }
    }

    fn resolve_atom(&mut self, start: AtomId) -> Resolved {
        // Follow the alias chain iteratively, remembering the polarity.
        let mut chain: Vec<(AtomId, bool)> = Vec::new();
        let mut atom = start;
        let mut positive = true;
        let result = loop {
            if let Some(known) = self.resolved.get(atom as usize).copied().flatten() {
                break if positive { known } else { known.negated() };
            }
            let Some(&kind) = self.kinds.get(atom as usize) else {
                break Resolved::Const(!positive);
            };
            let direct = match kind {
                AtomKind::True { fact } => Some(Resolved::Cond(Cond::Fact {
                    fact,
                    positive: true,
                })),
                AtomKind::Does { role, action } => Some(Resolved::Cond(Cond::Does {
                    role,
                    action,
                    positive: true,
                })),
                AtomKind::Impossible => Some(Resolved::Const(false)),
                AtomKind::Runtime => Some(Resolved::Cond(Cond::Check {
                    atom,
                    level: 0,
                    positive: true,
                })),
                AtomKind::Derived => {
                    let rules = &self.rules_of[atom as usize];
                    if rules.is_empty() {
                        Some(Resolved::Const(false))
                    } else if rules
                        .iter()
                        .any(|&r| self.ground.rules[r as usize].body.is_empty())
                    {
                        Some(Resolved::Const(true))
                    } else if self.cycle_of[atom as usize].is_some() || rules.len() > 1 {
                        Some(Resolved::Cond(Cond::Check {
                            atom,
                            level: 0,
                            positive: true,
                        }))
                    } else {
                        let body = &self.ground.rules[rules[0] as usize].body;
                        if body.len() == 1 {
                            None
                        } else {
                            Some(Resolved::Cond(Cond::Check {
                                atom,
                                level: 0,
                                positive: true,
                            }))
                        }
                    }
                }
            };
            match direct {
                Some(r) => {
                    self.resolved[atom as usize] = Some(r);
                    break if positive { r } else { r.negated() };
                }
                None => {
                    let rule = self.rules_of[atom as usize][0];
                    let l = self.ground.rules[rule as usize].body[0];
                    chain.push((atom, positive));
                    atom = l.atom;
                    positive = positive == l.positive;
                }
            }
        };
        // Every atom on the chain resolves to the result, adjusted for its
        // own polarity relative to the end of the chain.
        for (a, p) in chain {
            let own = if p { result } else { result.negated() };
            self.resolved[a as usize] = Some(own);
        }
        result
    }

    /// A rule body as conditions; `None` when it can never hold. Literals
    /// whose atoms are in cycle `keep` (the cycle being lowered) are
    /// returned separately, unresolved. Small views are inlined (see
    /// [`Analysis::dnf`]), so one rule may give several bodies.
    pub fn resolve_body(
        &mut self,
        rule: u32,
        keep: Option<u32>,
    ) -> Option<(Vec<Vec<Cond>>, Vec<AtomId>)> {
        self.expand_rule(rule, keep, 0)
    }

    fn expand_rule(
        &mut self,
        rule: u32,
        keep: Option<u32>,
        depth: u32,
    ) -> Option<(Vec<Vec<Cond>>, Vec<AtomId>)> {
        let body = self.ground.rules.get(rule as usize)?.body.clone();
        let mut conds = Vec::with_capacity(body.len());
        let mut inside = Vec::new();
        for l in body {
            if keep.is_some() && self.cycle_of[l.atom as usize] == keep {
                inside.push(l.atom);
                continue;
            }
            match self.resolve(l) {
                Resolved::Const(true) => {}
                Resolved::Const(false) => return None,
                Resolved::Cond(c) => conds.push(c),
            }
        }
        let mut bodies: Vec<Vec<Cond>> = vec![Vec::new()];
        for c in conds {
            let alternatives = match c {
                Cond::Check {
                    atom,
                    level: 0,
                    positive,
                } if self.cycle_of[atom as usize].is_none() => {
                    self.literal_dnf(atom, positive, depth + 1)
                }
                _ => None,
            };
            match alternatives {
                Some(alts) if alts.len() * bodies.len() <= EXPAND_LIMIT => {
                    let mut product = Vec::with_capacity(alts.len() * bodies.len());
                    for b in &bodies {
                        for a in alts.iter() {
                            let mut joined = b.clone();
                            joined.extend(a.iter().copied());
                            product.push(joined);
                        }
                    }
                    bodies = product;
                }
                _ => {
                    for b in &mut bodies {
                        b.push(c);
                    }
                }
            }
        }
        let bodies: Vec<Vec<Cond>> = bodies.into_iter().filter_map(normalize).collect();
        if bodies.is_empty() {
            return None;
        }
        Some((bodies, inside))
    }

    /// The DNF of a literal on a derived, acyclic atom when it is small
    /// enough to inline at the reference (a few short bodies): comparisons
    /// instead of a nested reachability search.
    pub fn literal_dnf(&mut self, atom: AtomId, positive: bool, depth: u32) -> Option<Rc<Dnf>> {
        let dnf = self.dnf(atom, depth)?;
        if positive {
            return Some(dnf);
        }
        // not (B1 or … or Bk) = (not c1 or …) and … : the product of the
        // bodies' negated conditions.
        let mut out: Vec<Vec<Cond>> = vec![Vec::new()];
        for body in dnf.iter() {
            if out.len() * body.len() > INLINE_BODIES {
                return None;
            }
            let mut next = Vec::with_capacity(out.len() * body.len());
            for partial in &out {
                for c in body {
                    let mut joined = partial.clone();
                    joined.push(c.negated());
                    next.push(joined);
                }
            }
            out = next;
        }
        let out: Vec<Vec<Cond>> = out.into_iter().filter_map(normalize).collect();
        if out.iter().any(|b| b.len() > INLINE_CONDS) {
            return None;
        }
        Some(Rc::new(out))
    }

    /// The bodies of a small acyclic derived atom (`None`: too large, or a
    /// constant, which resolution already folds).
    fn dnf(&mut self, atom: AtomId, depth: u32) -> Option<Rc<Dnf>> {
        if let Some(known) = &self.dnf_memo[atom as usize] {
            return known.clone();
        }
        if depth > MAX_INLINE_DEPTH
            || self.kinds[atom as usize] != AtomKind::Derived
            || self.cycle_of[atom as usize].is_some()
        {
            return None;
        }
        let rules = self.rules_of[atom as usize].clone();
        let result = if rules.len() > INLINE_BODIES {
            None
        } else {
            let mut all = Vec::new();
            let mut ok = true;
            for r in rules {
                if let Some((bodies, _)) = self.expand_rule(r, None, depth) {
                    all.extend(bodies);
                }
                if all.len() > INLINE_BODIES {
                    ok = false;
                    break;
                }
            }
            all.sort();
            all.dedup();
            (ok && !all.is_empty() && all.iter().all(|b| !b.is_empty() && b.len() <= INLINE_CONDS))
                .then(|| Rc::new(all))
        };
        self.dnf_memo[atom as usize] = Some(result.clone());
        result
    }
}

/// Inlining bounds: a view is inlined when its bodies (after inlining
/// below it) are at most `INLINE_BODIES`, each of at most `INLINE_CONDS`
/// conditions; one rule expands into at most `EXPAND_LIMIT` bodies.
const INLINE_BODIES: usize = 4;
const INLINE_CONDS: usize = 4;
const EXPAND_LIMIT: usize = 8;
const MAX_INLINE_DEPTH: u32 = 32;

/// Disjunctive normal form: alternatives of conjunctions.
pub type Dnf = Vec<Vec<Cond>>;

/// Sorted, deduplicated conditions; `None` for a contradiction.
fn normalize(mut conds: Vec<Cond>) -> Option<Vec<Cond>> {
    conds.sort_unstable();
    conds.dedup();
    if conds
        .iter()
        .any(|c| conds.binary_search(&c.negated()).is_ok())
    {
        return None;
    }
    Some(conds)
}
