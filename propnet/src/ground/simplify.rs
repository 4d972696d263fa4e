//! Simplification of the ground program (gdl.md §5.7): constant atoms are
//! propagated through the rules, impossible inputs removed, and only what
//! the outputs (`legal`, `goal`, `terminal`, and `next` of facts that are
//! read) need is kept.

use std::collections::VecDeque;

use super::program::{AtomId, GroundLiteral, GroundProgram, GroundRule};
use super::terms::TermId;
use rg_core::fx_hash::{FxMap, FxSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// `true(f)`
    State(TermId),
    /// `does(r, a)`
    Action(TermId, TermId),
    /// `next(f)`
    Next(TermId),
    /// `legal(r, a)`
    Legal(TermId, TermId),
    Output,
    View,
    /// An atom of a run-time relation: no rules, never constant.
    Runtime,
}

/// Simplifies `program` in place (see the module documentation).
pub fn simplify(program: &mut GroundProgram) {
    let atoms = AtomKinds::classify(program);
    let initial: FxSet<TermId> = program.initial.iter().copied().collect();
    let rules = std::mem::take(&mut program.rules);
    let constants = Constants::propagate(&rules, &atoms, &initial);
    let reads = program.runtime.reads.clone();
    let needed = needed_atoms(&rules, &atoms, &constants, &reads);
    rebuild(program, rules, &atoms, &constants, &needed);
    derive_lists(program);
}

/// Every atom's kind, and the atoms tied to each other: `true(f)` and
/// `next(f)`, `legal(r, a)` and `does(r, a)`.
pub(super) struct AtomKinds {
    pub(super) kinds: Vec<Kind>,
    pub(super) next_of: FxMap<TermId, AtomId>,
    pub(super) state_of: FxMap<TermId, AtomId>,
    pub(super) legal_of: FxMap<(TermId, TermId), AtomId>,
    pub(super) action_of: FxMap<(TermId, TermId), AtomId>,
}

impl AtomKinds {
    pub(super) fn classify(program: &GroundProgram) -> AtomKinds {
        let v = program.vocabulary;
        let kinds: Vec<Kind> = program
            .atoms
            .iter()
            .map(|a| match (a.relation, a.args.as_slice()) {
                (s, [f]) if s == v.true_ => Kind::State(*f),
                (s, [r, x]) if s == v.does => Kind::Action(*r, *x),
                (s, [f]) if s == v.next => Kind::Next(*f),
                (s, [r, x]) if s == v.legal => Kind::Legal(*r, *x),
                (s, [_, _]) if s == v.goal => Kind::Output,
                (s, []) if s == v.terminal => Kind::Output,
                _ => Kind::View,
            })
            .collect();
        let mut kinds = kinds;
        for &a in &program.runtime.atoms {
            if let Some(kind) = kinds.get_mut(a as usize) {
                *kind = Kind::Runtime;
            }
        }
        let mut atoms = AtomKinds {
            kinds,
            next_of: FxMap::default(),
            state_of: FxMap::default(),
            legal_of: FxMap::default(),
            action_of: FxMap::default(),
        };
        for (i, kind) in atoms.kinds.iter().enumerate() {
            let i = i as AtomId;
            match *kind {
                Kind::Next(f) => {
                    atoms.next_of.insert(f, i);
                }
                Kind::State(f) => {
                    atoms.state_of.insert(f, i);
                }
                Kind::Legal(r, a) => {
                    atoms.legal_of.insert((r, a), i);
                }
                Kind::Action(r, a) => {
                    atoms.action_of.insert((r, a), i);
                }
                _ => {}
            }
        }
        atoms
    }
}

/// The outcome of constant propagation: which rules can still fire, and
/// the atoms whose value is known in every state.
struct Constants {
    alive: Vec<bool>,
    value: Vec<Option<bool>>,
    /// Per atom: the rules with it as head.
    rules_of: Vec<Vec<usize>>,
}

impl Constants {
    fn propagate(rules: &[GroundRule], atoms: &AtomKinds, initial: &FxSet<TermId>) -> Constants {
        let kinds = &atoms.kinds;
        let atom_count = kinds.len();
        let mut alive: Vec<bool> = rules
            .iter()
            .map(|r| {
                // A rule with both `a` and `(not a)` never fires.
                !r.body.iter().any(|l| {
                    r.body.contains(&GroundLiteral {
                        atom: l.atom,
                        positive: !l.positive,
                    })
                })
            })
            .collect();
        let mut rules_of: Vec<Vec<usize>> = vec![Vec::new(); atom_count];
        let mut occurrences: Vec<Vec<usize>> = vec![Vec::new(); atom_count];
        for (i, rule) in rules.iter().enumerate() {
            rules_of[rule.head as usize].push(i);
            for l in &rule.body {
                occurrences[l.atom as usize].push(i);
            }
        }
        let mut alive_rules: Vec<usize> = rules_of
            .iter()
            .map(|rs| rs.iter().filter(|&&r| alive[r]).count())
            .collect();
        let mut open_literals: Vec<usize> = rules.iter().map(|r| r.body.len()).collect();
        let mut value: Vec<Option<bool>> = vec![None; atom_count];
        let mut queue: VecDeque<AtomId> = VecDeque::new();
        let set =
            |atom: AtomId, b: bool, value: &mut Vec<Option<bool>>, queue: &mut VecDeque<AtomId>| {
                if value[atom as usize].is_none() {
                    value[atom as usize] = Some(b);
                    queue.push_back(atom);
                }
            };
        for (i, rule) in rules.iter().enumerate() {
            if alive[i] && rule.body.is_empty() {
                set(rule.head, true, &mut value, &mut queue);
            }
        }
        for (a, kind) in kinds.iter().enumerate() {
            let a = a as AtomId;
            match *kind {
                Kind::State(f) => {
                    if !initial.contains(&f)
                        && atoms
                            .next_of
                            .get(&f)
                            .filter(|&&n| alive_rules[n as usize] != 0)
                            .is_none()
                    {
                        set(a, false, &mut value, &mut queue);
                    }
                }
                Kind::Action(r, x) => {
                    if atoms
                        .legal_of
                        .get(&(r, x))
                        .filter(|&&l| alive_rules[l as usize] != 0)
                        .is_none()
                    {
                        set(a, false, &mut value, &mut queue);
                    }
                }
                Kind::Runtime => {}
                _ => {
                    if alive_rules[a as usize] == 0 {
                        set(a, false, &mut value, &mut queue);
                    }
                }
            }
        }
        while let Some(atom) = queue.pop_front() {
            let Some(b) = value[atom as usize] else {
                continue;
            };
            // Consequences for the input atoms tied to this one.
            match kinds[atom as usize] {
                Kind::Next(f) if !b && !initial.contains(&f) => {
                    if let Some(&s) = atoms.state_of.get(&f) {
                        set(s, false, &mut value, &mut queue);
                    }
                }
                Kind::Legal(r, x) if !b => {
                    if let Some(&d) = atoms.action_of.get(&(r, x)) {
                        set(d, false, &mut value, &mut queue);
                    }
                }
                _ => {}
            }
            for &r in &occurrences[atom as usize] {
                if !alive[r] {
                    continue;
                }
                let rule = &rules[r];
                let mut killed = false;
                for l in rule.body.iter().filter(|l| l.atom == atom) {
                    if l.positive != b {
                        killed = true;
                    } else {
                        open_literals[r] -= 1;
                    }
                }
                let head = rule.head as usize;
                if killed {
                    alive[r] = false;
                    alive_rules[head] -= 1;
                    if alive_rules[head] == 0
                        && !matches!(kinds[head], Kind::State(_) | Kind::Action(..))
                    {
                        set(rule.head, false, &mut value, &mut queue);
                    }
                } else if open_literals[r] == 0 {
                    set(rule.head, true, &mut value, &mut queue);
                }
            }
        }
        Constants {
            alive,
            value,
            rules_of,
        }
    }
}

/// The atoms the outputs need: `legal`, `goal` and `terminal` that can
/// hold, and what their live rules read (through `next` for state atoms).
fn needed_atoms(
    rules: &[GroundRule],
    atoms: &AtomKinds,
    constants: &Constants,
    reads: &[AtomId],
) -> Vec<bool> {
    let value = &constants.value;
    let mut needed = vec![false; atoms.kinds.len()];
    let mut work: Vec<AtomId> = Vec::new();
    for (a, kind) in atoms.kinds.iter().enumerate() {
        if matches!(kind, Kind::Legal(..) | Kind::Output) && value[a] != Some(false) {
            needed[a] = true;
            work.push(a as AtomId);
        }
    }
    while let Some(a) = work.pop() {
        let mut mark = |b: AtomId, work: &mut Vec<AtomId>| {
            if !needed[b as usize] && value[b as usize] != Some(false) {
                needed[b as usize] = true;
                work.push(b);
            }
        };
        if let Kind::State(f) = atoms.kinds[a as usize] {
            if let Some(&n) = atoms.next_of.get(&f) {
                mark(n, &mut work);
            }
        }
        // A run-time atom may read any state atom its rules mention.
        if atoms.kinds[a as usize] == Kind::Runtime {
            for &b in reads {
                mark(b, &mut work);
            }
        }
        if value[a as usize].is_some() {
            continue;
        }
        for &r in &constants.rules_of[a as usize] {
            if constants.alive[r] {
                for l in &rules[r].body {
                    if value[l.atom as usize].is_none() {
                        mark(l.atom, &mut work);
                    }
                }
            }
        }
    }
    needed
}

/// Rebuilds the program from the needed atoms with dense ids: constant
/// true atoms become facts, live rules lose their known literals.
fn rebuild(
    program: &mut GroundProgram,
    rules: Vec<GroundRule>,
    atoms: &AtomKinds,
    constants: &Constants,
    needed: &[bool],
) {
    let value = &constants.value;
    let mut new_id: Vec<Option<AtomId>> = vec![None; needed.len()];
    let old_atoms = std::mem::take(&mut program.atoms);
    for (a, atom) in old_atoms.into_iter().enumerate() {
        if needed[a] {
            new_id[a] = Some(program.atoms.len() as AtomId);
            program.atoms.push(atom);
        }
    }
    let runtime = &mut program.runtime;
    runtime.atoms = runtime
        .atoms
        .iter()
        .filter_map(|&a| new_id[a as usize])
        .collect();
    runtime.reads = runtime
        .reads
        .iter()
        .filter_map(|&a| new_id[a as usize])
        .collect();
    let mut seen: FxSet<GroundRule> = FxSet::default();
    for (a, &v) in value.iter().enumerate() {
        if let (Some(id), Some(true)) = (new_id[a], v) {
            if !matches!(atoms.kinds[a], Kind::State(_) | Kind::Action(..)) {
                let rule = GroundRule {
                    head: id,
                    body: Vec::new(),
                };
                seen.insert(rule.clone());
                program.rules.push(rule);
            }
        }
    }
    for (r, rule) in rules.into_iter().enumerate() {
        let head = rule.head as usize;
        if !constants.alive[r] || value[head].is_some() {
            continue;
        }
        let Some(head_id) = new_id[head] else {
            continue;
        };
        let mut body: Vec<GroundLiteral> = rule
            .body
            .iter()
            .filter(|l| value[l.atom as usize].is_none())
            .filter_map(|l| {
                new_id[l.atom as usize].map(|atom| GroundLiteral {
                    atom,
                    positive: l.positive,
                })
            })
            .collect();
        body.sort_unstable();
        body.dedup();
        let rule = GroundRule {
            head: head_id,
            body,
        };
        if seen.insert(rule.clone()) {
            program.rules.push(rule);
        }
    }
}

/// The base facts, actions and goal values, derived from the kept atoms.
fn derive_lists(program: &mut GroundProgram) {
    let v = program.vocabulary;
    let mut base_facts = Vec::new();
    let mut actions = vec![Vec::new(); program.roles.len()];
    let mut goal_values = vec![Vec::new(); program.roles.len()];
    for atom in &program.atoms {
        match (atom.relation, atom.args.as_slice()) {
            (s, [f]) if s == v.true_ => base_facts.push(*f),
            (s, [r, x]) if s == v.legal => {
                if let Some(i) = program.roles.iter().position(|role| role == r) {
                    actions[i].push(*x);
                }
            }
            (s, [r, x]) if s == v.goal => {
                if let Some(i) = program.roles.iter().position(|role| role == r) {
                    goal_values[i].push(*x);
                }
            }
            _ => {}
        }
    }
    program.base_facts = base_facts;
    program.actions = actions;
    program.goal_values = goal_values;
}
