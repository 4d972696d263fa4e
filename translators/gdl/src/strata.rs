//! Rule-level stratification (gdl.md §2.3): rule i depends on rule j when a
//! body literal of i unifies with the head of j (variables renamed apart).
//! It accepts the goal-on-goal games that the relation-level test rejects,
//! and gives the evaluation order of the reasoner.

use std::collections::HashMap;

use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

use crate::ast::{Atom, Term, TermKind};
use crate::normalize::{NormalLiteral, NormalRule};

type Binding<'a> = (u8, &'a Term);
type Substitution<'a> = HashMap<(u8, &'a str), Binding<'a>>;

fn walk<'a>(mut term: Binding<'a>, subst: &Substitution<'a>) -> Binding<'a> {
    while let TermKind::Variable(name) = &term.1.kind {
        match subst.get(&(term.0, name.as_str())) {
            Some(&bound) => term = bound,
            None => break,
        }
    }
    term
}

fn occurs<'a>(side: u8, name: &str, term: Binding<'a>, subst: &Substitution<'a>) -> bool {
    let term = walk(term, subst);
    match &term.1.kind {
        TermKind::Variable(other) => term.0 == side && other == name,
        TermKind::Constant(_) => false,
        TermKind::Function { args, .. } => {
            args.iter().any(|a| occurs(side, name, (term.0, a), subst))
        }
    }
}

fn unify<'a>(a: Binding<'a>, b: Binding<'a>, subst: &mut Substitution<'a>) -> bool {
    let a = walk(a, subst);
    let b = walk(b, subst);
    match (&a.1.kind, &b.1.kind) {
        (TermKind::Variable(x), TermKind::Variable(y)) if a.0 == b.0 && x == y => true,
        (TermKind::Variable(x), _) => {
            if occurs(a.0, x, b, subst) {
                return false;
            }
            subst.insert((a.0, x.as_str()), b);
            true
        }
        (_, TermKind::Variable(y)) => {
            if occurs(b.0, y, a, subst) {
                return false;
            }
            subst.insert((b.0, y.as_str()), a);
            true
        }
        (TermKind::Constant(c), TermKind::Constant(d)) => c == d,
        (TermKind::Function { name: f, args: xs }, TermKind::Function { name: g, args: ys }) => {
            f == g
                && xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys)
                    .all(|(x, y)| unify((a.0, x), (b.0, y), subst))
        }
        _ => false,
    }
}

/// Whether two atoms (from different rules) unify.
pub fn atoms_unify(a: &Atom, b: &Atom) -> bool {
    if a.name != b.name || a.args.len() != b.args.len() {
        return false;
    }
    let mut subst = Substitution::new();
    a.args
        .iter()
        .zip(&b.args)
        .all(|(x, y)| unify((0, x), (1, y), &mut subst))
}

/// The rule dependency graph: nodes are normal rules, an edge j → i with
/// `true` weight when the dependency is negative.
pub fn rule_graph(rules: &[NormalRule]) -> DiGraph<usize, bool> {
    let mut graph = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..rules.len()).map(|i| graph.add_node(i)).collect();
    let mut heads: HashMap<(&str, usize), Vec<usize>> = HashMap::new();
    for (j, rule) in rules.iter().enumerate() {
        heads
            .entry((rule.head.name.as_str(), rule.head.args.len()))
            .or_default()
            .push(j);
    }
    for (i, rule) in rules.iter().enumerate() {
        for literal in &rule.body {
            let (atom, negative) = match literal {
                NormalLiteral::Positive(a) => (a, false),
                NormalLiteral::Negative(a) => (a, true),
                _ => continue,
            };
            let Some(candidates) = heads.get(&(atom.name.as_str(), atom.args.len())) else {
                continue;
            };
            for &j in candidates {
                if atoms_unify(atom, &rules[j].head) {
                    graph.add_edge(nodes[j], nodes[i], negative);
                }
            }
        }
    }
    graph
}

/// Rules grouped into strongly connected components, dependencies first.
/// `Err` holds a cycle through a negative edge (rule indices, in order).
pub fn rule_strata(rules: &[NormalRule]) -> Result<Vec<Vec<usize>>, Vec<usize>> {
    let graph = rule_graph(rules);
    let mut sccs = kosaraju_scc(&graph);
    sccs.reverse();
    let mut component = vec![0; rules.len()];
    for (c, scc) in sccs.iter().enumerate() {
        for &n in scc {
            component[n.index()] = c;
        }
    }
    for edge in graph.edge_references() {
        if *edge.weight() && component[edge.source().index()] == component[edge.target().index()] {
            return Err(cycle_through(
                &graph,
                edge.source(),
                edge.target(),
                &component,
            ));
        }
    }
    Ok(sccs
        .into_iter()
        .map(|scc| {
            let mut rules: Vec<usize> = scc.into_iter().map(|n| graph[n]).collect();
            rules.sort_unstable();
            rules
        })
        .collect())
}

/// A cycle `target → … → source → target` inside one component.
fn cycle_through(
    graph: &DiGraph<usize, bool>,
    source: NodeIndex,
    target: NodeIndex,
    component: &[usize],
) -> Vec<usize> {
    let c = component[source.index()];
    let mut previous: HashMap<NodeIndex, NodeIndex> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([target]);
    let mut seen = std::collections::HashSet::from([target]);
    while let Some(n) = queue.pop_front() {
        if n == source {
            break;
        }
        for e in graph.edges(n) {
            let m = e.target();
            if component[m.index()] == c && seen.insert(m) {
                previous.insert(m, n);
                queue.push_back(m);
            }
        }
    }
    let mut path = vec![graph[source]];
    let mut current = source;
    while current != target {
        match previous.get(&current) {
            Some(&p) => {
                current = p;
                path.push(graph[current]);
            }
            None => break,
        }
    }
    path.reverse();
    path.push(graph[target]);
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::normalize_rules;
    use crate::parse::parse;

    fn rules(text: &str) -> Vec<NormalRule> {
        normalize_rules(&parse(text).unwrap().description.rules).unwrap()
    }

    #[test]
    fn unification_renames_apart_and_checks_structure() {
        let r = rules("(p ?x (f ?x)) (p a (f a)) (p (f ?y) ?y) (p b (f a))");
        assert!(atoms_unify(&r[0].head, &r[1].head));
        assert!(!atoms_unify(&r[0].head, &r[3].head));
        // ?x = (f ?y) and (f ?x) = ?y fails the occurs check.
        assert!(!atoms_unify(&r[0].head, &r[2].head));
    }

    #[test]
    fn goal_on_goal_is_stratified_by_rules() {
        let r = rules("(<= (goal robot 100) (not (goal robot 0))) (<= (goal robot 0) (true done))");
        let strata = rule_strata(&r).unwrap();
        let position = |i| strata.iter().position(|s| s.contains(&i)).unwrap();
        assert!(position(1) < position(0));
    }

    #[test]
    fn negative_self_dependency_is_a_cycle() {
        let r = rules("(<= (p ?x) (q ?x) (not (p ?x))) (q 1)");
        assert_eq!(rule_strata(&r).unwrap_err(), vec![0, 0]);
    }
}
