//! Decomposition of wide rules before grounding (gdl.md §8.2.4): a group
//! of body literals whose private variables occur nowhere else in the rule
//! is moved into an auxiliary relation over the variables it shares with
//! the rest, so that the ground instances number the sum of the parts
//! instead of their product.
//!
//! ```text
//! (<= (goal red 100) (true (position red ?x1 ?y1)) (not (true (cell ?x1 ?y1 v)))
//!                    (true (position blue ?x2 ?y2)) (true (cell ?x2 ?y2 v)))
//! ```
//!
//! has 144 × 144 instances on tron's 12 × 12 board; with
//! `goal_part1 :- (true (position red ?x1 ?y1)), (not (true (cell ?x1 ?y1 v)))`
//! and `goal_part2` likewise it has 144 + 144 + 1.
//!
//! Frame rules shrink the same way: in skirmish's
//!
//! ```text
//! (<= (next (location ?x ?y ?piece)) (true (location ?x ?y ?piece)) (role ?player)
//!     (does ?player (move ?x1 ?y1 ?x2 ?y2)) (distinctCell ?x ?y ?x1 ?y1) (distinctCell ?x ?y ?x2 ?y2))
//! ```
//!
//! the move test becomes `next_part(?x, ?y)` (cells × moves instances),
//! no longer repeated for every piece: 2.7 million ground rules become
//! 0.3 million.
//!
//! A candidate group S is the set of literals of a class of local (non
//! head) variables that occur in exactly the same literals, or of a
//! connected component of local variables. The variables X that occur
//! only in S are hidden in the auxiliary relation, which passes back the
//! others of S (the shared ones). S is split off when
//! * the rest of the body has a variable, local or of the head, that is
//!   not shared (so something multiplies with S's instances),
//! * S shares no more local variables than it hides, and at most four
//!   (so the auxiliary relation is narrower than what it replaces),
//! * S contains a positive literal of a dynamic relation (static joins
//!   are exact and cheap), and
//! * the auxiliary rule is safe: every variable of S occurs in a positive
//!   literal of S.
//!
//! Among the candidates the one with the fewest shared variables goes
//! first; the rule is then examined again. Only rules of dynamic,
//! non-recursive relations are decomposed, so recursion, stratification
//! and the static model are unchanged.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use petgraph::algo::kosaraju_scc;
use petgraph::graph::DiGraph;

use crate::datalog::{Atom, Literal, Rule, Symbol, SymbolTable, Term, Vocabulary};

type Key = (Symbol, usize);

/// At most this many local variables are passed from an auxiliary
/// relation back to the rule.
const MAX_SHARED: usize = 4;

/// The rules with wide ones decomposed; auxiliary relations are interned
/// in `symbols` with fresh names `<head>_part<k>`.
pub(super) fn decompose(rules: &[Rule], v: Vocabulary, symbols: &mut SymbolTable) -> Vec<Rule> {
    let (dynamic, recursive) = classify(rules, v);
    let mut out = Vec::with_capacity(rules.len());
    let mut counter = 0;
    for rule in rules {
        let head = rule.head.key();
        if rule.body.len() < 2 || !dynamic.contains(&head) || recursive.contains(&head) {
            out.push(rule.clone());
            continue;
        }
        let mut main = rule.clone();
        while let Some(split) = best_split(&main, &dynamic) {
            let name = loop {
                counter += 1;
                let name = format!("{}_part{counter}", symbols.name(main.head.relation));
                if symbols.lookup(&name).is_none() {
                    break name;
                }
            };
            let aux = symbols.intern(&name);
            let head = Atom {
                relation: aux,
                args: split.shared.iter().map(|&x| Term::Variable(x)).collect(),
            };
            let part: Vec<Literal> = split.group.iter().map(|&i| main.body[i].clone()).collect();
            out.push(renumbered(&Rule {
                head: head.clone(),
                body: part,
                variable_names: main.variable_names.clone(),
            }));
            let mut body: Vec<Literal> = main
                .body
                .iter()
                .enumerate()
                .filter(|(i, _)| !split.group.contains(i))
                .map(|(_, l)| l.clone())
                .collect();
            body.push(Literal::Positive(head));
            main.body = body;
        }
        out.push(main);
    }
    out
}

/// Dynamic relations (reachable from `true`/`does`) and relations on a
/// dependency cycle.
pub(super) fn classify(rules: &[Rule], v: Vocabulary) -> (BTreeSet<Key>, BTreeSet<Key>) {
    let mut ids: HashMap<Key, usize> = HashMap::new();
    let mut keys: Vec<Key> = Vec::new();
    let mut id = |k: Key, keys: &mut Vec<Key>| {
        *ids.entry(k).or_insert_with(|| {
            keys.push(k);
            keys.len() - 1
        })
    };
    let mut edges = Vec::new();
    for rule in rules {
        let h = id(rule.head.key(), &mut keys);
        for l in &rule.body {
            if let Literal::Positive(a) | Literal::Negative(a) = l {
                edges.push((id(a.key(), &mut keys), h));
            }
        }
    }
    let seeds = [id((v.true_, 1), &mut keys), id((v.does, 2), &mut keys)];
    let n = keys.len();
    let mut graph = DiGraph::<(), ()>::with_capacity(n, edges.len());
    let nodes: Vec<_> = (0..n).map(|_| graph.add_node(())).collect();
    let mut out_edges = vec![Vec::new(); n];
    for &(a, b) in &edges {
        graph.add_edge(nodes[a], nodes[b], ());
        out_edges[a].push(b);
    }
    let mut is_dynamic = vec![false; n];
    let mut stack: Vec<usize> = seeds.to_vec();
    for &s in &seeds {
        is_dynamic[s] = true;
    }
    while let Some(r) = stack.pop() {
        for &b in &out_edges[r] {
            if !is_dynamic[b] {
                is_dynamic[b] = true;
                stack.push(b);
            }
        }
    }
    let mut recursive = BTreeSet::new();
    for scc in kosaraju_scc(&graph) {
        if scc.len() > 1 || graph.contains_edge(scc[0], scc[0]) {
            recursive.extend(scc.iter().map(|x| keys[x.index()]));
        }
    }
    let dynamic = (0..n).filter(|&r| is_dynamic[r]).map(|r| keys[r]).collect();
    (dynamic, recursive)
}

struct Split {
    /// Body indices moved into the auxiliary rule, ascending.
    group: Vec<usize>,
    /// Variables the auxiliary relation passes back, ascending.
    shared: Vec<u32>,
}

fn variables(l: &Literal) -> BTreeSet<u32> {
    let mut vars = Vec::new();
    l.collect_variables(&mut vars);
    vars.into_iter().collect()
}

fn best_split(rule: &Rule, dynamic: &BTreeSet<Key>) -> Option<Split> {
    let mut head: Vec<u32> = Vec::new();
    rule.head.collect_variables(&mut head);
    let head: BTreeSet<u32> = head.into_iter().collect();
    let vars: Vec<BTreeSet<u32>> = rule.body.iter().map(variables).collect();
    // Local variable -> the literals containing it.
    let mut occurrences: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, vs) in vars.iter().enumerate() {
        for &x in vs.difference(&head) {
            occurrences.entry(x).or_default().push(i);
        }
    }
    // Candidate groups: the literals of a class of local variables that
    // occur in the same literals, and the literals of a connected
    // component of local variables.
    let mut groups: BTreeSet<Vec<usize>> = occurrences.values().cloned().collect();
    let mut component_of: BTreeMap<u32, u32> = BTreeMap::new();
    for &x in occurrences.keys() {
        if component_of.contains_key(&x) {
            continue;
        }
        let mut group = BTreeSet::new();
        let mut stack = vec![x];
        component_of.insert(x, x);
        while let Some(y) = stack.pop() {
            for &i in &occurrences[&y] {
                group.insert(i);
                for &z in vars[i].difference(&head) {
                    if let std::collections::btree_map::Entry::Vacant(e) = component_of.entry(z) {
                        e.insert(x);
                        stack.push(z);
                    }
                }
            }
        }
        groups.insert(group.into_iter().collect());
    }
    let mut best: Option<((usize, usize), Split)> = None;
    for group in groups {
        if group.len() == rule.body.len() {
            continue;
        }
        let driven = group.iter().any(|&i| match &rule.body[i] {
            Literal::Positive(a) => dynamic.contains(&a.key()),
            _ => false,
        });
        if !driven {
            continue;
        }
        // X: the local variables that occur only in the group.
        let hidden: BTreeSet<u32> = occurrences
            .iter()
            .filter(|(_, lits)| lits.iter().all(|i| group.contains(i)))
            .map(|(&x, _)| x)
            .collect();
        if hidden.is_empty() {
            continue;
        }
        let inside: BTreeSet<u32> = group
            .iter()
            .flat_map(|&i| vars[i].iter().copied())
            .collect();
        let shared: Vec<u32> = inside.difference(&hidden).copied().collect();
        // The auxiliary relation must be narrower than what it hides, or
        // its instances (bound by whatever the group offers, e.g. a large
        // static relation) can outnumber the rule's.
        let shared_local = shared.iter().filter(|x| !head.contains(x)).count();
        if shared_local > hidden.len() || shared_local > MAX_SHARED {
            continue;
        }
        // Something must multiply with the group: a variable of the rest
        // (local, or of the head) that the auxiliary relation does not
        // pass back.
        let multiplies = (0..rule.body.len())
            .filter(|i| !group.contains(i))
            .flat_map(|i| vars[i].iter().copied())
            .any(|x| !shared.contains(&x));
        if !multiplies {
            continue;
        }
        let bound: BTreeSet<u32> = group
            .iter()
            .filter(|&&i| matches!(rule.body[i], Literal::Positive(_)))
            .flat_map(|&i| vars[i].iter().copied())
            .collect();
        if !inside.is_subset(&bound) {
            continue;
        }
        let score = (shared.len(), usize::MAX - hidden.len());
        if best.as_ref().is_none_or(|(b, _)| score < *b) {
            best = Some((score, Split { group, shared }));
        }
    }
    best.map(|(_, s)| s)
}

/// The rule with its variables numbered densely in order of appearance.
pub(super) fn renumbered(rule: &Rule) -> Rule {
    let mut map: HashMap<u32, u32> = HashMap::new();
    let mut names = Vec::new();
    let mut order = Vec::new();
    rule.head.collect_variables(&mut order);
    for l in &rule.body {
        l.collect_variables(&mut order);
    }
    for x in order {
        map.entry(x).or_insert_with(|| {
            names.push(
                rule.variable_names
                    .get(x as usize)
                    .cloned()
                    .unwrap_or_else(|| format!("?v{x}")),
            );
            (names.len() - 1) as u32
        });
    }
    let term = |t: &Term| rename(t, &map);
    let atom = |a: &Atom| Atom {
        relation: a.relation,
        args: a.args.iter().map(term).collect(),
    };
    Rule {
        head: atom(&rule.head),
        body: rule
            .body
            .iter()
            .map(|l| match l {
                Literal::Positive(a) => Literal::Positive(atom(a)),
                Literal::Negative(a) => Literal::Negative(atom(a)),
                Literal::Distinct(s, t) => Literal::Distinct(term(s), term(t)),
                Literal::Equal(s, t) => Literal::Equal(term(s), term(t)),
            })
            .collect(),
        variable_names: names,
    }
}

fn rename(t: &Term, map: &HashMap<u32, u32>) -> Term {
    match t {
        Term::Constant(c) => Term::Constant(*c),
        Term::Variable(x) => Term::Variable(map.get(x).copied().unwrap_or(*x)),
        Term::Function(f, args) => {
            Term::Function(*f, args.iter().map(|a| rename(a, map)).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(x: u32) -> Term {
        Term::Variable(x)
    }

    #[test]
    fn independent_groups_become_auxiliary_relations() {
        let mut symbols = SymbolTable::new();
        let v = Vocabulary::intern(&mut symbols);
        let pos = symbols.intern("pos");
        let cell = symbols.intern("cell");
        let red = Term::Constant(symbols.intern("red"));
        let blue = Term::Constant(symbols.intern("blue"));
        let win = symbols.intern("win");
        let t = |f: Term| Atom {
            relation: v.true_,
            args: vec![f],
        };
        let f = |s: Symbol, args: Vec<Term>| Term::Function(s, args);
        // win :- true(pos(red, X1)), not true(cell(X1)), true(pos(blue, X2)), true(cell(X2))
        let rule = Rule {
            head: Atom {
                relation: win,
                args: vec![],
            },
            body: vec![
                Literal::Positive(t(f(pos, vec![red, var(0)]))),
                Literal::Negative(t(f(cell, vec![var(0)]))),
                Literal::Positive(t(f(pos, vec![blue, var(1)]))),
                Literal::Positive(t(f(cell, vec![var(1)]))),
            ],
            variable_names: vec!["?x1".into(), "?x2".into()],
        };
        let out = decompose(std::slice::from_ref(&rule), v, &mut symbols);
        assert_eq!(out.len(), 2, "{out:?}");
        // One part split off (the rest then has no private variable left).
        let aux = &out[0];
        assert!(aux.head.args.is_empty());
        assert_eq!(aux.body.len(), 2);
        assert_eq!(out[1].body.len(), 3);
        assert_eq!(out[1].body[2], Literal::Positive(aux.head.clone()));
        // A rule whose literals all share the local variable stays.
        let joined = Rule {
            head: rule.head.clone(),
            body: vec![
                Literal::Positive(t(f(pos, vec![var(0), var(1)]))),
                Literal::Positive(t(f(cell, vec![var(0)]))),
                Literal::Positive(t(f(cell, vec![var(1)]))),
            ],
            variable_names: vec!["?a".into(), "?b".into()],
        };
        assert_eq!(
            decompose(std::slice::from_ref(&joined), v, &mut symbols),
            vec![joined]
        );
    }

    #[test]
    fn the_move_test_of_a_frame_rule_is_split_off() {
        let mut symbols = SymbolTable::new();
        let v = Vocabulary::intern(&mut symbols);
        let at = symbols.intern("at");
        let mv = symbols.intern("mv");
        let apart = symbols.intern("apart");
        let f = |s: Symbol, args: Vec<Term>| Term::Function(s, args);
        // next(at(X, P)) :- true(at(X, P)), does(R, mv(D)), apart(X, D)
        let rule = Rule {
            head: Atom {
                relation: v.next,
                args: vec![f(at, vec![var(0), var(1)])],
            },
            body: vec![
                Literal::Positive(Atom {
                    relation: v.true_,
                    args: vec![f(at, vec![var(0), var(1)])],
                }),
                Literal::Positive(Atom {
                    relation: v.does,
                    args: vec![var(2), f(mv, vec![var(3)])],
                }),
                Literal::Positive(Atom {
                    relation: apart,
                    args: vec![var(0), var(3)],
                }),
            ],
            variable_names: vec!["?x".into(), "?p".into(), "?r".into(), "?d".into()],
        };
        let out = decompose(std::slice::from_ref(&rule), v, &mut symbols);
        assert_eq!(out.len(), 2, "{out:?}");
        // next_part1(X) :- does(R, mv(D)), apart(X, D), renumbered.
        assert_eq!(symbols.name(out[0].head.relation), "next_part1");
        assert_eq!(out[0].head.args, vec![var(0)]);
        assert_eq!(out[0].body.len(), 2);
        assert_eq!(out[0].variable_names, vec!["?x", "?r", "?d"]);
        assert_eq!(out[1].body.len(), 2);
        // With a `distinct` instead of a static relation that part would
        // not be safe (X unbound): only the role is projected away.
        let mut with_distinct = rule.clone();
        with_distinct.body[2] = Literal::Distinct(var(0), var(3));
        let out = decompose(std::slice::from_ref(&with_distinct), v, &mut symbols);
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!(out[0].variable_names, vec!["?d", "?r"]);
        assert_eq!(out[0].body.len(), 1);
        assert_eq!(out[1].body.len(), 3);
    }
}
