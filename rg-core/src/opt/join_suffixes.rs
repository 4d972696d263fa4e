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

use crate::ast::{Game, Label};

use super::graph::{EdgeGraph, FastMap, NodeId};
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
        let mut g = EdgeGraph::take(game);
        // Labels compare by their text (as written); no edge is added and
        // no label changes below, so each distinct label is printed once.
        let mut texts: FastMap<String, u32> = FastMap::default();
        let mut ids: FastMap<&Label, u32> = FastMap::default();
        let labels: Vec<u32> = (0..g.slots())
            .map(|k| {
                let label = &g.edge(k).label;
                *ids.entry(label).or_insert_with(|| {
                    let next = texts.len() as u32;
                    *texts.entry(label.to_string()).or_insert(next)
                })
            })
            .collect();
        let mut changed = false;
        loop {
            let mut groups: FastMap<Vec<(u32, NodeId)>, Vec<NodeId>> = FastMap::default();
            for node in g.nodes() {
                if g.leaving(node).is_empty() || !mergeable(&g, node, random) {
                    continue;
                }
                groups
                    .entry(signature(&g, node, &labels))
                    .or_default()
                    .push(node);
            }
            let mut merged = false;
            let mut groups: Vec<Vec<NodeId>> = groups
                .into_values()
                .filter(|nodes| nodes.len() > 1)
                .collect();
            // In the order of the groups' node names.
            let name = |&n: &NodeId| g.name(n);
            groups.sort_by(|a, b| a.iter().map(name).cmp(b.iter().map(name)));
            for group in groups {
                let keep = group[0];
                for &other in &group[1..] {
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
        game.edges = g.into_edges();
        changed
    }
}

fn mergeable(g: &EdgeGraph, node: NodeId, random: bool) -> bool {
    !g.is_fixed(node)
        && !g.is_reach_start(node)
        && !g.is_reach_target(node)
        && (!random
            || !g
                .entering(node)
                .iter()
                .any(|&k| g.edge(k).label.is_player_assignment()))
}

/// A self-loop's target in a signature (so that two nodes looping on
/// themselves compare equal).
const SELF: NodeId = NodeId::MAX;

/// The node's outgoing edges as (label text, target), sorted: equal
/// signatures, equal continuations.
fn signature(g: &EdgeGraph, node: NodeId, labels: &[u32]) -> Vec<(u32, NodeId)> {
    let mut parts: Vec<(u32, NodeId)> = g
        .leaving(node)
        .iter()
        .map(|&k| {
            let to = g.to(k);
            (labels[k], if to == node { SELF } else { to })
        })
        .collect();
    parts.sort_unstable();
    parts
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
