//! Rule bodies as a prefix tree of edges (gdl.md §7.5): each body is a path
//! of conditions from one node to its target, and bodies that share
//! conditions share the edges that test them. The shared condition tested
//! first is the one most bodies need, comparisons before reachability
//! checks, so a failing test cuts many paths at once (a role that is not in
//! control fails one `control` comparison instead of one per action).

use std::cmp::Reverse;
use std::collections::{BTreeSet, HashMap};

use super::analysis::Cond;

/// One body: its conditions and the index of its target node.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Body {
    pub conds: Vec<Cond>,
    pub target: u32,
}

/// What the trie asks of its user: nodes and edges.
pub trait TrieSink {
    /// A fresh intermediate node.
    fn node(&mut self, hint: &str) -> String;
    /// An edge testing `cond` (`None`: an empty edge).
    fn edge(&mut self, from: &str, to: &str, cond: Option<Cond>);
    /// The name of target number `target`.
    fn target(&self, target: u32) -> String;
}

/// Emits edges from `from` such that the target of a body is reachable
/// exactly through paths whose conditions are those of some body.
pub fn emit_bodies(sink: &mut impl TrieSink, from: &str, hint: &str, mut bodies: Vec<Body>) {
    for body in &mut bodies {
        body.conds.sort_unstable_by_key(|&c| (c.cost_class(), c));
        body.conds.dedup();
    }
    bodies.sort_unstable();
    bodies.dedup();
    // Explicit work list instead of recursion: (node, bodies).
    let mut work: Vec<(String, Vec<Body>)> = vec![(from.to_string(), bodies)];
    while let Some((node, bodies)) = work.pop() {
        split(sink, &node, hint, &bodies, &mut work);
    }
}

fn split(
    sink: &mut impl TrieSink,
    from: &str,
    hint: &str,
    bodies: &[Body],
    work: &mut Vec<(String, Vec<Body>)>,
) {
    let mut alive = vec![true; bodies.len()];
    let mut count: HashMap<Cond, usize> = HashMap::new();
    let mut holders: HashMap<Cond, Vec<u32>> = HashMap::new();
    let mut done_targets: BTreeSet<u32> = BTreeSet::new();
    for (i, body) in bodies.iter().enumerate() {
        if body.conds.is_empty() {
            alive[i] = false;
            if done_targets.insert(body.target) {
                let to = sink.target(body.target);
                sink.edge(from, &to, None);
            }
            continue;
        }
        for &c in &body.conds {
            *count.entry(c).or_insert(0) += 1;
            holders.entry(c).or_default().push(i as u32);
        }
    }
    let mut order: BTreeSet<(u8, Reverse<usize>, Cond)> = count
        .iter()
        .map(|(&c, &n)| (c.cost_class(), Reverse(n), c))
        .collect();
    while let Some(first) = order.pop_first() {
        let chosen = first.2;
        let members: Vec<u32> = holders
            .get(&chosen)
            .map(|list| {
                list.iter()
                    .copied()
                    .filter(|&i| alive[i as usize])
                    .collect()
            })
            .unwrap_or_default();
        if members.is_empty() {
            continue;
        }
        let mut group: Vec<Body> = Vec::with_capacity(members.len());
        for &i in &members {
            alive[i as usize] = false;
            let body = &bodies[i as usize];
            for &c in &body.conds {
                let Some(n) = count.get_mut(&c) else {
                    continue;
                };
                if c != chosen {
                    order.remove(&(c.cost_class(), Reverse(*n), c));
                    *n -= 1;
                    if *n > 0 {
                        order.insert((c.cost_class(), Reverse(*n), c));
                    }
                }
            }
            group.push(Body {
                conds: body
                    .conds
                    .iter()
                    .copied()
                    .filter(|&c| c != chosen)
                    .collect(),
                target: body.target,
            });
        }
        count.remove(&chosen);
        if group.len() == 1 {
            // A lone body: its remaining conditions in a chain.
            let body = &group[0];
            let to = sink.target(body.target);
            let mut current = from.to_string();
            let mut conds = vec![chosen];
            conds.extend(body.conds.iter().copied());
            let last = conds.len() - 1;
            for (k, c) in conds.into_iter().enumerate() {
                let next = if k == last {
                    to.clone()
                } else {
                    sink.node(hint)
                };
                sink.edge(&current, &next, Some(c));
                current = next;
            }
        } else {
            let next = sink.node(hint);
            sink.edge(from, &next, Some(chosen));
            work.push((next, group));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Recorder {
        nodes: usize,
        edges: Vec<(String, String, Option<Cond>)>,
    }

    impl TrieSink for Recorder {
        fn node(&mut self, hint: &str) -> String {
            self.nodes += 1;
            format!("{hint}{}", self.nodes)
        }
        fn edge(&mut self, from: &str, to: &str, cond: Option<Cond>) {
            self.edges.push((from.into(), to.into(), cond));
        }
        fn target(&self, target: u32) -> String {
            format!("t{target}")
        }
    }

    fn fact(f: u32) -> Cond {
        Cond::Fact {
            fact: f,
            positive: true,
        }
    }

    fn check(a: u32) -> Cond {
        Cond::Check {
            atom: a,
            level: 0,
            positive: true,
        }
    }

    /// Evaluates which targets are reachable from `from` given the true
    /// conditions.
    fn reachable(r: &Recorder, from: &str, holds: &dyn Fn(Cond) -> bool) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(n) = stack.pop() {
            if !seen.insert(n.clone()) {
                continue;
            }
            for (a, b, c) in &r.edges {
                if *a == n && c.is_none_or(holds) {
                    stack.push(b.clone());
                }
            }
        }
        seen.into_iter().filter(|n| n.starts_with('t')).collect()
    }

    #[test]
    fn shared_condition_is_tested_once() {
        let mut r = Recorder::default();
        let bodies = (1..=3)
            .map(|k| Body {
                conds: vec![fact(k), fact(0)],
                target: k,
            })
            .collect();
        emit_bodies(&mut r, "s", "n", bodies);
        let from_start: Vec<_> = r.edges.iter().filter(|e| e.0 == "s").collect();
        assert_eq!(from_start.len(), 1);
        assert_eq!(from_start[0].2, Some(fact(0)));
        assert_eq!(r.edges.len(), 4);
    }

    #[test]
    fn comparisons_come_before_checks_on_every_path() {
        let mut r = Recorder::default();
        let bodies = vec![
            Body {
                conds: vec![check(7), fact(1)],
                target: 0,
            },
            Body {
                conds: vec![check(7), fact(2)],
                target: 0,
            },
        ];
        emit_bodies(&mut r, "s", "n", bodies);
        for (a, _, c) in &r.edges {
            if a == "s" {
                assert_eq!(c.map(Cond::cost_class), Some(0));
            }
        }
    }

    #[test]
    fn trie_is_equivalent_to_the_bodies() {
        // Every subset of 4 facts: the reachable targets equal the bodies
        // that hold.
        let bodies = vec![
            Body {
                conds: vec![fact(0), fact(1)],
                target: 0,
            },
            Body {
                conds: vec![fact(0), fact(2)],
                target: 1,
            },
            Body {
                conds: vec![fact(3)],
                target: 0,
            },
            Body {
                conds: vec![],
                target: 2,
            },
            Body {
                conds: vec![fact(1), fact(2), fact(3)],
                target: 1,
            },
        ];
        let mut r = Recorder::default();
        emit_bodies(&mut r, "s", "n", bodies.clone());
        for mask in 0u32..16 {
            let holds = |c: Cond| match c {
                Cond::Fact { fact, positive } => (mask >> fact & 1 == 1) == positive,
                _ => false,
            };
            let expected: BTreeSet<String> = bodies
                .iter()
                .filter(|b| b.conds.iter().all(|&c| holds(c)))
                .map(|b| format!("t{}", b.target))
                .collect();
            assert_eq!(reachable(&r, "s", &holds), expected, "mask {mask}");
        }
    }
}
