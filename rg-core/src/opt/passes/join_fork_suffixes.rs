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
use crate::fx_hash::{FxMap, FxSet};

use crate::opt::analysis::features;
use crate::opt::analysis::graph::{EdgeGraph, NodeId};
use crate::opt::Pass;

pub struct JoinForkSuffixes;

impl Pass for JoinForkSuffixes {
    fn name(&self) -> &'static str {
        "join-fork-suffixes"
    }

    fn description(&self) -> &'static str {
        "merge nodes whose outgoing edges are the same (same labels to the same nodes)"
    }

    fn run(&self, game: &mut Game) -> bool {
        let random = features::has_random(game);
        let mut g = EdgeGraph::take(game);
        // Labels compare by their text (as written); no edge is added and
        // no label changes below, so each distinct label is printed once.
        let mut texts: FxMap<String, u32> = FxMap::default();
        let mut ids: FxMap<&Label, u32> = FxMap::default();
        let labels: Vec<u32> = (0..g.slots())
            .map(|k| {
                let label = &g.edge(k).label;
                *ids.entry(label).or_insert_with(|| {
                    let next = texts.len() as u32;
                    *texts.entry(label.to_string()).or_insert(next)
                })
            })
            .collect();
        // Signatures are kept between rounds: a merge changes only the
        // signatures of the kept nodes and of their predecessors, so each
        // round re-signs those and looks for new groups among them.
        let mut classes = Classes::default();
        let mut pending = g.nodes();
        let mut changed = false;
        loop {
            let mut candidates: Vec<NodeId> = Vec::new();
            for node in pending {
                classes.forget(node);
                if g.leaving(node).is_empty() || !mergeable(&g, node, random) {
                    continue;
                }
                if let Some(first) = classes.add(node, signature(&g, node, &labels)) {
                    candidates.push(first);
                }
            }
            // Members in the order the nodes are first mentioned by the
            // edges, groups in the order of their node names.
            let mut groups: Vec<Vec<NodeId>> = Vec::new();
            let mut grouped: FxSet<NodeId> = FxSet::default();
            for node in candidates {
                let mut group = classes.members_like(node).to_vec();
                // Classes are disjoint: one member tells whether it is listed.
                if group.len() < 2 || !grouped.insert(group[0]) {
                    continue;
                }
                group.sort_by_key(|&n| first_mention(&g, n));
                groups.push(group);
            }
            if groups.is_empty() {
                break;
            }
            let name = |&n: &NodeId| g.name(n);
            groups.sort_by(|a, b| a.iter().map(name).cmp(b.iter().map(name)));
            let mut touched: Vec<NodeId> = Vec::new();
            for group in groups {
                let keep = group[0];
                for &other in &group[1..] {
                    classes.forget(other);
                    for k in g.leaving(other).to_vec() {
                        g.remove(k);
                    }
                    g.move_entering(other, keep);
                }
                touched.push(keep);
                touched.extend(g.entering(keep).iter().map(|&k| g.from(k)));
            }
            touched.sort_unstable();
            touched.dedup();
            pending = touched;
            changed = true;
        }
        game.edges = g.into_edges();
        changed
    }
}

/// Nodes by signature.
#[derive(Default)]
struct Classes {
    members: FxMap<Vec<(u32, NodeId)>, Vec<NodeId>>,
    signature: FxMap<NodeId, Vec<(u32, NodeId)>>,
}

impl Classes {
    /// Files `node` under `signature`; returns a member when the class now
    /// has more than one.
    fn add(&mut self, node: NodeId, signature: Vec<(u32, NodeId)>) -> Option<NodeId> {
        let members = self.members.entry(signature.clone()).or_default();
        members.push(node);
        let several = members.len() > 1;
        self.signature.insert(node, signature);
        several.then_some(node)
    }

    /// Removes `node` from its class, if filed.
    fn forget(&mut self, node: NodeId) {
        if let Some(signature) = self.signature.remove(&node) {
            let members = self.members.get_mut(&signature).expect("filed");
            members.retain(|&n| n != node);
            if members.is_empty() {
                self.members.remove(&signature);
            }
        }
    }

    /// The class of a filed node.
    fn members_like(&self, node: NodeId) -> &[NodeId] {
        &self.members[&self.signature[&node]]
    }
}

/// The first live edge (in output order) that mentions `node`, for a node
/// that is neither start nor target of a check.
fn first_mention(g: &EdgeGraph, node: NodeId) -> usize {
    let leaving = g.leaving(node).iter();
    leaving
        .chain(g.entering(node))
        .copied()
        .min()
        .unwrap_or(usize::MAX)
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
