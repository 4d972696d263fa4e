//! Functional-dependency invariants of the state, and the ground rule
//! instances they rule out (docs/gdl.md, grounding step 4).
//!
//! Relaxed reachability (step 2 of grounding) drops negation, so it lets
//! every piece stand on every square it can reach *at the same time*; the
//! instances it emits include many that need two facts no reachable state
//! holds together. An invariant here says: in every reachable state, the
//! facts `f(t1 … tn)` that agree on the *key* positions agree everywhere
//! (`(cell ?x ?y ?p)` with key x, y: a cell holds one piece; `(control ?r)`
//! with no key: one player is in control). Together with "each role does
//! one action per step" they refute rule instances.
//!
//! **Conditions.** Every ground atom gets a necessary condition: per key,
//! the set of values that some fact with that key must have whenever the
//! atom holds (`true(f)` fixes its own keys; `does(r, a)` fixes role r's
//! action and implies `legal(r, a)`; a derived atom takes, over its rule
//! instances, the keys every instance constrains with the union of their
//! values). An instance whose literals constrain one key to disjoint sets
//! can never fire. Recursive atoms start from "impossible" and are weakened
//! to a fixpoint (sound by induction on derivations).
//!
//! **Proof.** Candidates (per fluent: every position as the value, and for
//! three or more arguments every single position as the key) are checked in
//! the initial state and inductively, Fast Downward style: assuming all
//! remaining candidates hold in a state, no two instances deriving
//! `next(f(k, v1))` and `next(f(k, v2))` may fire together with a legal
//! joint move. Two instances are refuted when their conditions conflict,
//! when one needs `(not b)` and the other's facts entail `b` (by a rule
//! instance of `b` with only positive literals among those facts, or by
//! one for every value a key allows), or, splitting cases on a derived
//! literal with few instances, when every case is refuted. Candidates that
//! fail are dropped and the rest re-checked until none fails (a greatest
//! fixpoint). Work is bounded; a candidate past the bound is not used.

use petgraph::algo::kosaraju_scc;
use petgraph::graph::DiGraph;
use rg_core::fx_hash::{FxMap, FxSet};

use super::program::{AtomId, GroundLiteral, GroundProgram, GroundRule};
use super::simplify::{AtomKinds, Kind};
use super::terms::TermId;
use crate::datalog::Symbol;

/// Facts `functor/arity` that agree on the `key` positions agree on all.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Invariant {
    pub functor: Symbol,
    pub arity: usize,
    pub key: Vec<usize>,
}

/// What invariant pruning found and did.
#[derive(Clone, Debug, Default)]
pub struct Pruning {
    /// The invariants proven, as text (`(cell k k _)`: k a key position).
    pub invariants: Vec<String>,
    /// Ground rule instances removed.
    pub pruned: usize,
    /// The program was too large to analyze (more than
    /// `MAX_ANALYZED_RULES` instances).
    pub skipped: bool,
}

/// Programs with more ground rule instances are not analyzed: on the
/// shared corpus the analysis took 1.5–3.5 times the grounding time of
/// such programs (alexChess, merrills, cylinder-checkers) and removed at
/// most 4% of their instances (docs/gdl.md, grounding step 4).
pub const MAX_ANALYZED_RULES: usize = 50_000;
/// Most values a condition keeps per key (a larger union says little).
const MAX_VALUES: usize = 64;
/// Most instances of a derived literal for a case split, and split depth.
const MAX_SPLIT: usize = 16;
const SPLIT_DEPTH: u32 = 2;
/// Work the whole proof may do (instance pairs compared, ten per pair that
/// needs the full refutation, instances scanned for case splits or while
/// computing conditions); past it no invariant is used, only "one action
/// per role". A step count, not a time, so the result does not depend on
/// the load.
const MAX_WORK: usize = 10_000_000;
/// Passes over a recursive component before giving up on its conditions.
const MAX_PASSES: usize = 64;

/// The key of `does(r, ·)`: one action per role and step.
const DOES: u32 = u32::MAX;

type KeyId = u32;

/// A rule instance deriving a fact of a key group in the proof: which
/// fact (index in the group), the rule, its condition, and the keys the
/// condition fixes to one value (sorted).
type Deriving = (usize, u32, Cond, Vec<(KeyId, TermId)>);

/// A necessary condition: per key (sorted), the values allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Cond {
    Impossible,
    Holds(Vec<(KeyId, Vec<TermId>)>),
}

impl Cond {
    fn none() -> Cond {
        Cond::Holds(Vec::new())
    }

    /// Both hold.
    fn meet(&self, other: &Cond) -> Cond {
        let (Cond::Holds(a), Cond::Holds(b)) = (self, other) else {
            return Cond::Impossible;
        };
        let mut out = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            if j == b.len() || (i < a.len() && a[i].0 < b[j].0) {
                out.push(a[i].clone());
                i += 1;
            } else if i == a.len() || b[j].0 < a[i].0 {
                out.push(b[j].clone());
                j += 1;
            } else {
                let values: Vec<TermId> = a[i]
                    .1
                    .iter()
                    .filter(|v| b[j].1.binary_search(v).is_ok())
                    .copied()
                    .collect();
                if values.is_empty() {
                    return Cond::Impossible;
                }
                out.push((a[i].0, values));
                i += 1;
                j += 1;
            }
        }
        Cond::Holds(out)
    }

    /// Whether both cannot hold (`meet` would be impossible), without
    /// building the meet.
    fn clashes(&self, other: &Cond) -> bool {
        let (Cond::Holds(a), Cond::Holds(b)) = (self, other) else {
            return true;
        };
        any_shared(a, b, |x, y| !x.iter().any(|v| y.binary_search(v).is_ok()))
    }

    /// One of them holds.
    fn join(&self, other: &Cond) -> Cond {
        let (a, b) = match (self, other) {
            (Cond::Impossible, c) | (c, Cond::Impossible) => return c.clone(),
            (Cond::Holds(a), Cond::Holds(b)) => (a, b),
        };
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            if a[i].0 < b[j].0 {
                i += 1;
            } else if b[j].0 < a[i].0 {
                j += 1;
            } else {
                let mut values = a[i].1.clone();
                values.extend_from_slice(&b[j].1);
                values.sort_unstable();
                values.dedup();
                if values.len() <= MAX_VALUES {
                    out.push((a[i].0, values));
                }
                i += 1;
                j += 1;
            }
        }
        Cond::Holds(out)
    }
}

/// How an atom can be entailed by facts known to hold.
#[derive(Default)]
struct Triggers {
    /// It has an instance with an empty body.
    always: bool,
    /// Atoms that alone entail it.
    singles: FxSet<AtomId>,
    /// Sets of atoms that together entail it.
    multis: Vec<Vec<AtomId>>,
}

struct Analysis<'a> {
    program: &'a GroundProgram,
    atoms: AtomKinds,
    rules_of: Vec<Vec<u32>>,
    alive: Vec<bool>,
    candidates: Vec<Invariant>,
    /// Per (functor, arity): the candidates about it.
    by_functor: FxMap<(Symbol, usize), Vec<usize>>,
    active: Vec<bool>,
    keys: FxMap<(u32, Box<[TermId]>), KeyId>,
    /// The role of each `does` key (`None` for state keys).
    key_role: Vec<Option<TermId>>,
    conds: Vec<Cond>,
    triggers: FxMap<AtomId, Triggers>,
    /// Work done by the proof (pairs compared, instances scanned).
    work: usize,
    /// Per rule, its body's condition once asked (cleared with `conds`).
    rule_conds: Vec<Option<Cond>>,
    /// Strongly connected components of atoms, bodies first, and whether
    /// each is recursive.
    order: Vec<(Vec<AtomId>, bool)>,
}

/// Proves invariants of `program`'s state and removes the rule instances
/// they refute (before simplification, which then propagates the atoms
/// left without rules).
pub fn prune(program: &mut GroundProgram) -> Pruning {
    if program.rules.len() > MAX_ANALYZED_RULES {
        return Pruning {
            invariants: Vec::new(),
            pruned: 0,
            skipped: true,
        };
    }
    let (invariants, alive, pruned) = {
        let mut analysis = Analysis::new(program);
        analysis.prove();
        let invariants: Vec<String> = analysis
            .candidates
            .iter()
            .zip(&analysis.active)
            .filter(|(_, &a)| a)
            .map(|(c, _)| analysis.describe(c))
            .collect();
        let mut pruned = 0;
        // A second round uses the conditions the first round tightened.
        for _ in 0..2 {
            analysis.compute_conditions();
            let mut removed = 0;
            for i in 0..program.rules.len() {
                if analysis.alive[i] && analysis.refuted(&program.rules[i].body, 0) {
                    analysis.alive[i] = false;
                    removed += 1;
                }
            }
            pruned += removed;
            if removed == 0 {
                break;
            }
        }
        (invariants, analysis.alive, pruned)
    };
    let mut index = 0;
    program.rules.retain(|_| {
        index += 1;
        alive[index - 1]
    });
    Pruning {
        invariants,
        pruned,
        skipped: false,
    }
}

impl<'a> Analysis<'a> {
    fn new(program: &'a GroundProgram) -> Analysis<'a> {
        let atoms = AtomKinds::classify(program);
        let mut rules_of = vec![Vec::new(); program.atoms.len()];
        for (i, rule) in program.rules.iter().enumerate() {
            rules_of[rule.head as usize].push(i as u32);
        }
        let candidates = candidates(program, &atoms.kinds);
        let mut by_functor: FxMap<(Symbol, usize), Vec<usize>> = FxMap::default();
        for (i, c) in candidates.iter().enumerate() {
            by_functor.entry((c.functor, c.arity)).or_default().push(i);
        }
        let active = vec![true; candidates.len()];
        Analysis {
            program,
            atoms,
            rules_of,
            alive: vec![true; program.rules.len()],
            candidates,
            by_functor,
            active,
            keys: FxMap::default(),
            key_role: Vec::new(),
            conds: Vec::new(),
            triggers: FxMap::default(),
            work: 0,
            rule_conds: Vec::new(),
            order: Vec::new(),
        }
    }

    fn describe(&self, c: &Invariant) -> String {
        let name = self.program.symbols.name(c.functor);
        let marks: Vec<&str> = (0..c.arity)
            .map(|i| if c.key.contains(&i) { "k" } else { "_" })
            .collect();
        format!("({name} {})", marks.join(" "))
    }

    fn key(&mut self, which: u32, args: Box<[TermId]>, role: Option<TermId>) -> KeyId {
        let next = self.keys.len() as KeyId;
        *self.keys.entry((which, args)).or_insert_with(|| {
            self.key_role.push(role);
            next
        })
    }

    /// The condition `true(f)` establishes: its own keys.
    fn state_cond(&mut self, f: TermId) -> Cond {
        let program = self.program;
        let terms = &program.terms;
        let args = terms.args(f).to_vec();
        let Some(which) = self
            .by_functor
            .get(&(terms.functor(f), args.len()))
            .cloned()
        else {
            return Cond::none();
        };
        let mut entries = Vec::new();
        for c in which {
            if !self.active[c] {
                continue;
            }
            let key: Box<[TermId]> = self.candidates[c].key.iter().map(|&p| args[p]).collect();
            entries.push((self.key(c as u32, key, None), vec![f]));
        }
        entries.sort_unstable();
        Cond::Holds(entries)
    }

    fn eval(&mut self, atom: AtomId) -> Cond {
        match self.atoms.kinds[atom as usize] {
            Kind::State(f) => self.state_cond(f),
            Kind::Action(r, x) => {
                let own = Cond::Holds(vec![(self.key(DOES, Box::new([r]), Some(r)), vec![x])]);
                match self.atoms.legal_of.get(&(r, x)) {
                    Some(&legal) => own.meet(&self.conds[legal as usize]),
                    None => own,
                }
            }
            // Run-time atoms have no ground rules but can hold: no
            // condition.
            Kind::Runtime => Cond::none(),
            // Derived atoms (one without rules never holds).
            _ => {
                let rules = &self.rules_of[atom as usize];
                self.work += rules.len();
                let mut cond = Cond::Impossible;
                for &r in rules {
                    if self.alive[r as usize] {
                        cond = cond.join(&self.body_cond(&self.program.rules[r as usize]));
                    }
                }
                cond
            }
        }
    }

    fn body_cond(&self, rule: &GroundRule) -> Cond {
        self.literals_cond(&rule.body)
    }

    fn literals_cond(&self, body: &[GroundLiteral]) -> Cond {
        let mut cond = Cond::none();
        for l in body.iter().filter(|l| l.positive) {
            cond = cond.meet(&self.conds[l.atom as usize]);
            if cond == Cond::Impossible {
                break;
            }
        }
        cond
    }

    /// Every atom's condition under the active candidates.
    fn compute_conditions(&mut self) {
        if self.order.is_empty() {
            self.order = self.evaluation_order();
        }
        let n = self.program.atoms.len();
        self.conds = vec![Cond::Impossible; n];
        self.rule_conds = vec![None; self.program.rules.len()];
        let order = std::mem::take(&mut self.order);
        for (atoms, recursive) in &order {
            if !recursive {
                self.conds[atoms[0] as usize] = self.eval(atoms[0]);
                continue;
            }
            let mut stable = false;
            for _ in 0..MAX_PASSES {
                stable = true;
                for &a in atoms {
                    let cond = self.eval(a);
                    if cond != self.conds[a as usize] {
                        self.conds[a as usize] = cond;
                        stable = false;
                    }
                }
                if stable {
                    break;
                }
            }
            if !stable {
                for &a in atoms {
                    self.conds[a as usize] = Cond::none();
                }
            }
        }
        self.order = order;
    }

    /// The atoms' strongly connected components, bodies before heads,
    /// each marked recursive or not. Computed once: removing instances
    /// keeps the order valid.
    fn evaluation_order(&self) -> Vec<(Vec<AtomId>, bool)> {
        let n = self.program.atoms.len();
        let mut graph: DiGraph<(), ()> = DiGraph::with_capacity(n, 0);
        let nodes: Vec<_> = (0..n).map(|_| graph.add_node(())).collect();
        let mut self_loop = vec![false; n];
        for rule in &self.program.rules {
            for l in rule.body.iter().filter(|l| l.positive) {
                if l.atom == rule.head {
                    self_loop[l.atom as usize] = true;
                }
                graph.add_edge(nodes[rule.head as usize], nodes[l.atom as usize], ());
            }
        }
        for (&(r, x), &does) in &self.atoms.action_of {
            if let Some(&legal) = self.atoms.legal_of.get(&(r, x)) {
                graph.add_edge(nodes[does as usize], nodes[legal as usize], ());
            }
        }
        // Edges point from heads to bodies, so bodies come first.
        kosaraju_scc(&graph)
            .into_iter()
            .map(|scc| {
                let atoms: Vec<AtomId> = scc.iter().map(|x| x.index() as AtomId).collect();
                let recursive = atoms.len() > 1 || self_loop[atoms[0] as usize];
                (atoms, recursive)
            })
            .collect()
    }

    /// Keeps the candidates that hold initially and inductively.
    fn prove(&mut self) {
        for c in 0..self.candidates.len() {
            self.active[c] = self.holds_initially(c);
        }
        loop {
            self.compute_conditions();
            let mut failed = false;
            for c in 0..self.candidates.len() {
                if self.work > MAX_WORK {
                    // Unrefuted candidates are not proven yet: use none.
                    self.active.iter_mut().for_each(|a| *a = false);
                    return;
                }
                if self.active[c] && !self.inductive(c) {
                    self.active[c] = false;
                    failed = true;
                }
            }
            if !failed {
                break;
            }
        }
    }

    /// Groups facts (terms) of candidate `c`'s fluent by key.
    fn group(&self, c: usize, facts: impl Iterator<Item = (TermId, AtomId)>) -> Vec<Vec<AtomId>> {
        let candidate = &self.candidates[c];
        let terms = &self.program.terms;
        let mut groups: FxMap<Vec<TermId>, Vec<AtomId>> = FxMap::default();
        for (f, atom) in facts {
            let args = terms.args(f);
            if terms.functor(f) != candidate.functor || args.len() != candidate.arity {
                continue;
            }
            let key = candidate.key.iter().map(|&p| args[p]).collect();
            groups.entry(key).or_default().push(atom);
        }
        groups.into_values().filter(|g| g.len() > 1).collect()
    }

    fn holds_initially(&self, c: usize) -> bool {
        let mut initial = self.program.initial.clone();
        initial.sort_unstable();
        initial.dedup();
        self.group(c, initial.iter().map(|&f| (f, 0))).is_empty()
    }

    fn inductive(&mut self, c: usize) -> bool {
        let next: Vec<(TermId, AtomId)> = self
            .atoms
            .next_of
            .iter()
            .map(|(&f, &atom)| (f, atom))
            .collect();
        for group in self.group(c, next.into_iter()) {
            let mut instances: Vec<Deriving> = Vec::new();
            for (value, &atom) in group.iter().enumerate() {
                for r in self.live_rules(atom).collect::<Vec<_>>() {
                    let cond = self.rule_cond(r).clone();
                    let fixed = match &cond {
                        Cond::Impossible => continue,
                        Cond::Holds(entries) => entries
                            .iter()
                            .filter(|(_, v)| v.len() == 1)
                            .map(|(k, v)| (*k, v[0]))
                            .collect(),
                    };
                    instances.push((value, r, cond, fixed));
                }
            }
            for (i, (va, ra, ca, fa)) in instances.iter().enumerate() {
                for (vb, rb, cb, fb) in &instances[i + 1..] {
                    if va == vb {
                        continue;
                    }
                    if self.work > MAX_WORK {
                        return false;
                    }
                    self.work += 1;
                    if disagree(fa, fb) || ca.clashes(cb) {
                        continue;
                    }
                    let (ra, rb) = (*ra, *rb);
                    self.work += 10;
                    let rules = &self.program.rules;
                    let mut both = rules[ra as usize].body.clone();
                    both.extend_from_slice(&rules[rb as usize].body);
                    if !self.refuted(&both, SPLIT_DEPTH) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Whether the literals cannot all hold in a reachable state with a
    /// legal joint move, under the active invariants.
    fn refuted(&mut self, literals: &[GroundLiteral], depth: u32) -> bool {
        let cond = self.literals_cond(literals);
        let Cond::Holds(entries) = &cond else {
            return true;
        };
        if depth == 0 && literals.iter().all(|l| l.positive) {
            return false;
        }
        let mut known: FxSet<AtomId> = literals
            .iter()
            .filter(|l| l.positive)
            .map(|l| l.atom)
            .collect();
        for (key, values) in entries {
            if let [v] = values.as_slice() {
                if let Some(atom) = self.value_atom(*key, *v) {
                    known.insert(atom);
                }
            }
        }
        for l in literals.iter().filter(|l| !l.positive) {
            if known.contains(&l.atom) || self.entailed(l.atom, &known, entries) {
                return true;
            }
        }
        if depth == 0 {
            return false;
        }
        // Split cases on a derived literal: one of its instances fires. The
        // instances whose conditions clash with these literals' are
        // refuted already; the literal with the fewest others is split.
        let mut best: Option<(AtomId, Vec<u32>)> = None;
        for l in literals.iter().filter(|l| l.positive) {
            if !matches!(
                self.atoms.kinds[l.atom as usize],
                Kind::Legal(..) | Kind::Output | Kind::View
            ) {
                continue;
            }
            self.work += self.rules_of[l.atom as usize].len();
            let rules: Vec<u32> = self.live_rules(l.atom).collect();
            let compatible: Vec<u32> = rules
                .into_iter()
                .filter(|&r| !cond.clashes(self.rule_cond(r)))
                .collect();
            if compatible.is_empty() {
                return true;
            }
            if compatible.len() <= MAX_SPLIT
                && best
                    .as_ref()
                    .is_none_or(|(_, b)| compatible.len() < b.len())
            {
                best = Some((l.atom, compatible));
            }
        }
        let Some((atom, cases)) = best else {
            return false;
        };
        let mut extended: Vec<GroundLiteral> = literals
            .iter()
            .filter(|l| l.atom != atom || !l.positive)
            .copied()
            .collect();
        let base = extended.len();
        for r in cases {
            extended.truncate(base);
            extended.extend_from_slice(&self.program.rules[r as usize].body);
            if !self.refuted(&extended, depth - 1) {
                return false;
            }
        }
        true
    }

    /// The condition of rule `r`'s body (cached).
    fn rule_cond(&mut self, r: u32) -> &Cond {
        if self.rule_conds[r as usize].is_none() {
            let cond = self.literals_cond(&self.program.rules[r as usize].body);
            self.rule_conds[r as usize] = Some(cond);
        }
        self.rule_conds[r as usize].as_ref().expect("just set")
    }

    fn live_rules(&self, atom: AtomId) -> impl Iterator<Item = u32> + '_ {
        self.rules_of[atom as usize]
            .iter()
            .copied()
            .filter(|&r| self.alive[r as usize])
    }

    /// The atom of value `v` at `key`: `true(v)` or `does(role, v)`.
    fn value_atom(&self, key: KeyId, v: TermId) -> Option<AtomId> {
        match self.key_role[key as usize] {
            Some(role) => self.atoms.action_of.get(&(role, v)).copied(),
            None => self.atoms.state_of.get(&v).copied(),
        }
    }

    /// Whether `atom` holds whenever the `known` atoms do and the keys
    /// take values in `entries`.
    fn entailed(
        &mut self,
        atom: AtomId,
        known: &FxSet<AtomId>,
        entries: &[(KeyId, Vec<TermId>)],
    ) -> bool {
        if !self.triggers.contains_key(&atom) {
            let triggers = self.triggers_of(atom);
            self.triggers.insert(atom, triggers);
        }
        let triggers = &self.triggers[&atom];
        if triggers.always || known.iter().any(|a| triggers.singles.contains(a)) {
            return true;
        }
        if triggers
            .multis
            .iter()
            .any(|set| set.iter().all(|a| known.contains(a)))
        {
            return true;
        }
        // Every value a key allows triggers it.
        entries.iter().any(|(key, values)| {
            values.len() > 1
                && values.iter().all(|&v| {
                    self.value_atom(*key, v)
                        .is_some_and(|a| triggers.singles.contains(&a))
                })
        })
    }

    fn triggers_of(&self, atom: AtomId) -> Triggers {
        let mut triggers = Triggers::default();
        for r in self.live_rules(atom) {
            let body = &self.program.rules[r as usize].body;
            if body.iter().any(|l| !l.positive) {
                continue;
            }
            match body.as_slice() {
                [] => triggers.always = true,
                [single] => {
                    triggers.singles.insert(single.atom);
                }
                _ => triggers.multis.push(body.iter().map(|l| l.atom).collect()),
            }
        }
        triggers
    }
}

/// Whether two sorted lists of fixed values give one key two values.
fn disagree(a: &[(KeyId, TermId)], b: &[(KeyId, TermId)]) -> bool {
    any_shared(a, b, |x, y| x != y)
}

/// Whether some key occurs in both lists (sorted by key) with `clash`
/// true of its two entries.
fn any_shared<A, B>(a: &[(KeyId, A)], b: &[(KeyId, B)], clash: impl Fn(&A, &B) -> bool) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                if clash(&a[i].1, &b[j].1) {
                    return true;
                }
                i += 1;
                j += 1;
            }
        }
    }
    false
}

/// Candidate invariants: per fluent with arguments, each position as the
/// value (the others the key) and, for three or more arguments, each
/// single position as the key.
fn candidates(program: &GroundProgram, kinds: &[Kind]) -> Vec<Invariant> {
    let terms = &program.terms;
    let mut fluents: Vec<(Symbol, usize)> = kinds
        .iter()
        .filter_map(|k| match k {
            Kind::State(f) | Kind::Next(f) => Some((terms.functor(*f), terms.args(*f).len())),
            _ => None,
        })
        .filter(|&(_, arity)| arity > 0)
        .collect::<FxSet<_>>()
        .into_iter()
        .collect();
    fluents.sort_unstable();
    let mut out = Vec::new();
    for (functor, arity) in fluents {
        for value in 0..arity {
            let key = (0..arity).filter(|&p| p != value).collect();
            out.push(Invariant {
                functor,
                arity,
                key,
            });
        }
        if arity >= 3 {
            for p in 0..arity {
                out.push(Invariant {
                    functor,
                    arity,
                    key: vec![p],
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holds(entries: &[(KeyId, &[TermId])]) -> Cond {
        Cond::Holds(entries.iter().map(|(k, v)| (*k, v.to_vec())).collect())
    }

    #[test]
    fn meet_intersects_shared_keys_and_keeps_the_others() {
        let a = holds(&[(1, &[10, 11]), (2, &[20])]);
        let b = holds(&[(1, &[11, 12]), (3, &[30])]);
        assert_eq!(a.meet(&b), holds(&[(1, &[11]), (2, &[20]), (3, &[30])]));
        assert!(!a.clashes(&b));
    }

    #[test]
    fn disjoint_values_of_one_key_are_impossible() {
        let a = holds(&[(1, &[10])]);
        let b = holds(&[(1, &[11]), (2, &[20])]);
        assert_eq!(a.meet(&b), Cond::Impossible);
        assert!(a.clashes(&b));
        assert!(disagree(&[(1, 10)], &[(1, 11)]));
        assert!(!disagree(&[(1, 10)], &[(2, 11)]));
    }

    #[test]
    fn join_keeps_only_keys_both_constrain_with_the_union() {
        let a = holds(&[(1, &[10]), (2, &[20])]);
        let b = holds(&[(1, &[12]), (3, &[30])]);
        assert_eq!(a.join(&b), holds(&[(1, &[10, 12])]));
        // Impossible is the unit of join and absorbs meet.
        assert_eq!(Cond::Impossible.join(&a), a);
        assert_eq!(Cond::Impossible.meet(&a), Cond::Impossible);
    }

    #[test]
    fn join_drops_a_key_whose_union_grows_past_the_cap() {
        let many: Vec<TermId> = (0..MAX_VALUES as TermId).collect();
        let a = Cond::Holds(vec![(1, many)]);
        let b = holds(&[(1, &[1000])]);
        assert_eq!(a.join(&b), Cond::none());
    }
}
