//! Join fork suffixes (E), generalized to equivalent nodes: nodes whose
//! outgoing edges are the same (same labels to the same targets) allow the
//! same continuations, so they are merged from the end:
//! `a1, z: L; a2, z: L;` (each the only edge of its source) become one node
//! `a1` entered by both predecessors. Repeated to a fixpoint this
//! minimizes the automaton from its ends.
//!
//! Nodes that keep their identity (fixed or named by checks) are never
//! merged away, and in games with a random player neither are nodes where
//! a move may end (they are part of the state, rg.md §6).

use std::collections::HashMap;

use crate::ast::Game;

use super::graph::EdgeGraph;
use super::Pass;

pub struct JoinForkSuffixes;

impl Pass for JoinForkSuffixes {
    fn name(&self) -> &'static str {
        "join-fork-suffixes"
    }

    fn description(&self) -> &'static str {
        "merge nodes whose outgoing edges are the same (same labels to the same nodes)"
    }

    fn run(&self, game: &mut Game) -> bool {
        let random = super::has_random(game);
        let mut g = EdgeGraph::new(game);
        let mut changed = false;
        loop {
            let mut groups: HashMap<String, Vec<String>> = HashMap::new();
            for node in g.nodes() {
                if g.leaving(&node).is_empty() || !mergeable(&g, &node, random) {
                    continue;
                }
                groups.entry(signature(&g, &node)).or_default().push(node);
            }
            let mut merged = false;
            let mut groups: Vec<Vec<String>> = groups
                .into_values()
                .filter(|nodes| nodes.len() > 1)
                .collect();
            groups.sort();
            for group in groups {
                let keep = &group[0];
                for other in &group[1..] {
                    for k in g.leaving(other).to_vec() {
                        g.remove(k);
                    }
                    g.move_entering(other, keep);
                    merged = true;
                }
            }
            if !merged {
                break;
            }
            changed = true;
        }
        if changed {
            game.edges = g.into_edges();
        }
        changed
    }
}

fn mergeable(g: &EdgeGraph, node: &str, random: bool) -> bool {
    !g.is_fixed(node)
        && !g.is_reach_start(node)
        && !g.is_reach_target(node)
        && (!random
            || !g
                .entering(node)
                .iter()
                .any(|&k| g.edge(k).label.is_player_assignment()))
}

/// The node's outgoing edges as text, sorted: equal signatures, equal
/// continuations. A self-loop is written as such so that two nodes looping
/// on themselves compare equal.
fn signature(g: &EdgeGraph, node: &str) -> String {
    let mut parts: Vec<String> = g
        .leaving(node)
        .iter()
        .map(|&k| {
            let e = g.edge(k);
            let target = if e.to == node {
                "\u{0}self"
            } else {
                e.to.as_str()
            };
            format!("{}\u{1}{target}", e.label)
        })
        .collect();
    parts.sort();
    parts.join("\u{2}")
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn identical_last_edges_are_shared() {
        let (changed, out) = after(
            &JoinForkSuffixes,
            "var v: Bool = 0;\nvar w: Bool = 0;\nbegin, a1: v == 1;\nbegin, a2: v == 0;\na1, z: w = 0;\na2, z: w = 0;\nz, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        var w: Bool = 0;
        begin, a1: v == 1;
        begin, a1: v == 0;
        a1, z: w = 0;
        z, end: player = keeper;
        ");
    }

    #[test]
    fn nodes_with_the_same_edges_merge() {
        let (changed, out) = after(
            &JoinForkSuffixes,
            "var v: Bool = 0;\nbegin, a: v == 1;\nbegin, b: v == 0;\na, z: v = 0;\na, end: player = keeper;\nb, end: player = keeper;\nb, z: v = 0;\nz, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, a: v == 1;
        begin, a: v == 0;
        a, z: v = 0;
        a, end: player = keeper;
        z, end: player = keeper;
        ");
    }
}
