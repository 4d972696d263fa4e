//! Inline reachability (E): a check whose sub-automaton is small, acyclic
//! and only tests (comparisons, nested checks, skips; tags there are
//! ignored) is replaced by the sub-automaton itself:
//! `s, t: ? a -> c; a, b: e1; b, c: e2;` → `s, x: e1; x, t: e2;`.
//! A negated check over a single chain of tests becomes the alternatives
//! "the first test fails", "the first holds and the second fails", … ;
//! one over alternative tests from its start to its target becomes the
//! chain "every test fails".
//! The engine then evaluates the tests in place, without a nested search.
//! A check from a node to itself always holds (the empty walk): it
//! becomes a skip, and its negation, which never holds, disappears.

use crate::fx_hash::{FxMap, FxSet};

use crate::ast::{Edge, Game, Label};

use crate::opt::analysis::features;
use crate::opt::analysis::graph::{NodeId, NodeIndex};
use crate::opt::Pass;

pub struct InlineReachability;

/// Largest sub-automaton inlined (edges); at most `SHARED_LIMIT` when the
/// check is used from several places (each gets its copy).
const SIZE_LIMIT: usize = 8;
const SHARED_LIMIT: usize = 3;

impl Pass for InlineReachability {
    fn name(&self) -> &'static str {
        "inline-reachability"
    }

    fn description(&self) -> &'static str {
        "replace checks of small pure sub-automata by the sub-automata themselves"
    }

    fn run(&self, game: &mut Game) -> bool {
        if !features::has_checks(game) {
            return false;
        }
        let index = NodeIndex::new(game);
        let outgoing = index.outgoing();
        let mut uses: FxMap<(NodeId, NodeId), usize> = FxMap::default();
        for ends in &index.ends {
            if let Some(check) = ends.reach {
                *uses.entry(check).or_insert(0) += 1;
            }
        }
        // Node names, gathered when a copy first needs fresh ones.
        let mut nodes: Option<FxSet<String>> = None;
        let mut replaced: Vec<(usize, Vec<Edge>)> = Vec::new();
        for (k, e) in game.edges.iter().enumerate() {
            let Label::Reach { negated, from, to } = &e.label else {
                continue;
            };
            let ends = index.ends[k];
            let check = ends.reach.expect("a check");
            // The empty walk reaches the start: `? a -> a` always holds.
            if check.0 == check.1 {
                let always = Edge {
                    label: Label::Skip,
                    ..e.clone()
                };
                replaced.push((k, if *negated { vec![] } else { vec![always] }));
                continue;
            }
            let Some(region) = pure_region(game, &index, &outgoing, check, ends.from) else {
                continue;
            };
            let limit = if uses[&check] > 1 {
                SHARED_LIMIT
            } else {
                SIZE_LIMIT
            };
            if region.len() > limit {
                continue;
            }
            let nodes = nodes.get_or_insert_with(|| {
                game.edges
                    .iter()
                    .flat_map(|e| [e.from.clone(), e.to.clone()])
                    .collect()
            });
            let copy = if *negated {
                negated_chain(game, &region, from, to, e, nodes)
                    .or_else(|| negated_alternatives(game, &region, from, to, e, nodes))
            } else {
                Some(positive_copy(game, &region, from, to, e, nodes))
            };
            if let Some(copy) = copy {
                replaced.push((k, copy));
            }
        }
        if replaced.is_empty() {
            return false;
        }
        let mut additions = Vec::new();
        let mut removed = vec![false; game.edges.len()];
        for (k, copy) in replaced {
            removed[k] = true;
            additions.extend(copy);
        }
        let mut k = 0;
        game.edges.retain(|_| {
            k += 1;
            !removed[k - 1]
        });
        game.edges.extend(additions);
        true
    }
}

/// The edges of the sub-automaton from `start` to `target` (the part that
/// can reach `target`), if it is acyclic, free of assignments, and does not
/// contain the checking node `site` (no recursion).
fn pure_region(
    game: &Game,
    index: &NodeIndex,
    outgoing: &[Vec<usize>],
    (start, target): (NodeId, NodeId),
    site: NodeId,
) -> Option<Vec<usize>> {
    if start == target {
        return None;
    }
    let mut region = Region {
        game,
        index,
        outgoing,
        target,
        site,
        state: FxMap::default(),
        edges: Vec::new(),
    };
    let reaches = region.visit(start)?;
    reaches.then_some(region.edges)
}

/// A depth-first walk of a check's sub-automaton, with cycle detection.
struct Region<'a> {
    game: &'a Game,
    index: &'a NodeIndex<'a>,
    outgoing: &'a [Vec<usize>],
    target: NodeId,
    site: NodeId,
    /// 1: on the walk's path, 2: reaches the target, 3: does not.
    state: FxMap<NodeId, u8>,
    /// The edges that reach the target, in depth-first postorder.
    edges: Vec<usize>,
}

impl Region<'_> {
    /// Whether `node` reaches the target (`None`: the region is not pure).
    fn visit(&mut self, node: NodeId) -> Option<bool> {
        if node == self.target {
            return Some(true);
        }
        if node == self.site {
            return None;
        }
        match self.state.get(&node) {
            Some(1) => return None, // cycle
            Some(2) => return Some(true),
            Some(_) => return Some(false),
            None => {}
        }
        self.state.insert(node, 1);
        let mut reaches = false;
        for &k in &self.outgoing[node as usize] {
            let e = &self.game.edges[k];
            if matches!(e.label, Label::Assign { .. } | Label::AssignAny { .. }) {
                return None;
            }
            if self.edges.len() > 64 {
                return None;
            }
            if self.visit(self.index.ends[k].to)? {
                self.edges.push(k);
                reaches = true;
            }
        }
        self.state.insert(node, if reaches { 2 } else { 3 });
        Some(reaches)
    }
}

fn fresh(base: &str, nodes: &mut FxSet<String>) -> String {
    let mut k = 1;
    loop {
        let candidate = format!("{base}_i{k}");
        if nodes.insert(candidate.clone()) {
            return candidate;
        }
        k += 1;
    }
}

/// A copy of the region from the check's source to its target.
fn positive_copy(
    game: &Game,
    region: &[usize],
    start: &str,
    target: &str,
    check: &Edge,
    nodes: &mut FxSet<String>,
) -> Vec<Edge> {
    let mut names: FxMap<String, String> = FxMap::default();
    names.insert(start.to_string(), check.from.clone());
    names.insert(target.to_string(), check.to.clone());
    let mut copy = Vec::new();
    for &k in region.iter().rev() {
        let e = &game.edges[k];
        let mut rename = |n: &str| {
            names
                .entry(n.to_string())
                .or_insert_with(|| fresh(&check.from, nodes))
                .clone()
        };
        let (from, to) = (rename(&e.from), rename(&e.to));
        let label = if e.label.is_tag() {
            Label::Skip
        } else {
            e.label.clone()
        };
        copy.push(Edge {
            at: check.at,
            ..Edge::new(from, to, label)
        });
    }
    copy
}

/// `! start -> target` over a single chain of tests: one alternative per
/// test, "the earlier tests hold and this one fails".
fn negated_chain(
    game: &Game,
    region: &[usize],
    start: &str,
    target: &str,
    check: &Edge,
    nodes: &mut FxSet<String>,
) -> Option<Vec<Edge>> {
    // The chain in order, from start to target.
    let mut chain = Vec::new();
    let mut node = start;
    while node != target {
        let next: Vec<usize> = region
            .iter()
            .copied()
            .filter(|&k| game.edges[k].from == node)
            .collect();
        let [k] = next.as_slice() else { return None };
        chain.push(*k);
        node = &game.edges[*k].to;
    }
    let tests: Vec<&Label> = chain
        .iter()
        .map(|&k| &game.edges[k].label)
        .filter(|l| !matches!(l, Label::Skip | Label::Tag(_) | Label::VarTag(_)))
        .collect();
    let mut out = Vec::new();
    let mut at = check.from.clone();
    for (i, label) in tests.iter().enumerate() {
        out.push(Edge {
            at: check.at,
            ..Edge::new(at.clone(), check.to.clone(), negation(label)?)
        });
        if i + 1 < tests.len() {
            let next = fresh(&check.from, nodes);
            out.push(Edge {
                at: check.at,
                ..Edge::new(at.clone(), next.clone(), (*label).clone())
            });
            at = next;
        }
    }
    // An empty chain always holds: its negation never does (no edge).
    Some(out)
}

/// `! start -> target` over tests that each lead from the start straight
/// to the target: all of them fail, one after the other.
fn negated_alternatives(
    game: &Game,
    region: &[usize],
    start: &str,
    target: &str,
    check: &Edge,
    nodes: &mut FxSet<String>,
) -> Option<Vec<Edge>> {
    let edges: Vec<&Edge> = region.iter().map(|&k| &game.edges[k]).collect();
    if edges.iter().any(|e| e.from != start || e.to != target) {
        return None;
    }
    // A skip or a tag (ignored in checks) straight to the target: the
    // check always holds, its negation never does (no edge).
    if edges
        .iter()
        .any(|e| matches!(e.label, Label::Skip | Label::Tag(_) | Label::VarTag(_)))
    {
        return Some(Vec::new());
    }
    let mut out = Vec::new();
    let mut at = check.from.clone();
    for (i, e) in edges.iter().enumerate() {
        let next = if i + 1 < edges.len() {
            fresh(&check.from, nodes)
        } else {
            check.to.clone()
        };
        out.push(Edge {
            at: check.at,
            ..Edge::new(at, next.clone(), negation(&e.label)?)
        });
        at = next;
    }
    Some(out)
}

/// The test that holds exactly when `label` fails.
fn negation(label: &Label) -> Option<Label> {
    match label {
        Label::Compare { negated, lhs, rhs } => Some(Label::Compare {
            negated: !negated,
            lhs: lhs.clone(),
            rhs: rhs.clone(),
        }),
        Label::Reach { negated, from, to } => Some(Label::Reach {
            negated: !negated,
            from: from.clone(),
            to: to.clone(),
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn pure_checks_are_inlined() {
        let (changed, out) = after(
            &InlineReachability,
            "var v: Bool = 0;\nvar w: Bool = 0;\nbegin, t: ? a -> c;\nbegin, f: ! p -> r;\na, b: v == 1;\nb, c: $ ignored;\nb, c2: w == 0;\nc2, c: ;\n\
             p, q: v == 0;\nq, r: w == 1;\nt, end: player = keeper;\nf, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        var w: Bool = 0;
        a, b: v == 1;
        b, c: $ ignored;
        b, c2: w == 0;
        c2, c: ;
        p, q: v == 0;
        q, r: w == 1;
        t, end: player = keeper;
        f, end: player = keeper;
        begin, begin_i1: v == 1;
        begin_i1, begin_i2: w == 0;
        begin_i2, t: ;
        begin_i1, t: ;
        begin, f: v != 0;
        begin, begin_i3: v == 0;
        begin_i3, f: w != 1;
        ");
    }

    #[test]
    fn checks_of_a_node_from_itself_are_decided() {
        let (changed, out) = after(
            &InlineReachability,
            "var v: Bool = 0;\nbegin, t: ? a -> a;\nbegin, f: ! a -> a;\na, b: v == 1;\nt, end: player = keeper;\nf, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        a, b: v == 1;
        t, end: player = keeper;
        f, end: player = keeper;
        begin, t: ;
        ");
    }

    #[test]
    fn negated_alternatives_become_a_chain_of_failing_tests() {
        let (changed, out) = after(
            &InlineReachability,
            "var v: Bool = 0;\nvar w: Bool = 0;\nbegin, f: ! a -> b;\na, b: v == 1;\na, b: w != 0;\nf, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        var w: Bool = 0;
        a, b: v == 1;
        a, b: w != 0;
        f, end: player = keeper;
        begin, begin_i1: v != 1;
        begin_i1, f: w == 0;
        ");
        // A skip among the alternatives: the check always holds.
        let (changed, out) = after(
            &InlineReachability,
            "var v: Bool = 0;\nbegin, f: ! a -> b;\nbegin, end: player = keeper;\na, b: v == 1;\na, b: ;\nf, end: player = keeper;\n",
        );
        assert!(changed);
        assert!(!out.contains("begin, f"), "{out}");
    }
}
