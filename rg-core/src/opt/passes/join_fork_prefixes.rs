//! Join fork prefixes (E): edges leaving one node with identical labels
//! are merged: `s, b: L; s, c: L;` becomes `s, b: L; b, c: ;` when `b` is
//! entered only by that edge (so nothing else gains access to `c`). The
//! label is evaluated once. When `c` too was entered by its edge only, its
//! edges move to `b` directly instead of through a skip, and `b` is looked
//! at again, so nested common prefixes are shared in one run. Assignments
//! to `player` are left alone (they end moves).

use crate::ast::{Edge, Game, Label};
use crate::fx_hash::FxMap;

use crate::opt::analysis::graph::{EdgeGraph, NodeId};
use crate::opt::Pass;

pub struct JoinForkPrefixes;

impl Pass for JoinForkPrefixes {
    fn name(&self) -> &'static str {
        "join-fork-prefixes"
    }

    fn description(&self) -> &'static str {
        "share the first edge of branches that start with the same label"
    }

    fn run(&self, game: &mut Game) -> bool {
        let mut g = EdgeGraph::take(game);
        let mut changed = false;
        // A node whose outgoing edges grew is looked at again: the edges it
        // took over may start with the labels of its own.
        let mut work: Vec<NodeId> = g.nodes();
        work.reverse();
        while let Some(s) = work.pop() {
            if g.leaving(s).len() < 2 {
                continue;
            }
            let mut groups: FxMap<&Label, Vec<usize>> = FxMap::default();
            for &k in g.leaving(s) {
                let e = g.edge(k);
                if !e.label.is_player_assignment() && g.to(k) != s {
                    groups.entry(&e.label).or_default().push(k);
                }
            }
            let mut groups: Vec<Vec<usize>> =
                groups.into_values().filter(|ks| ks.len() > 1).collect();
            groups.sort();
            for mut group in groups {
                group.sort();
                // The kept edge's target must be entered by this edge only.
                let Some(position) = group.iter().position(|&k| private(&g, g.to(k))) else {
                    continue;
                };
                let kept = group.remove(position);
                let b = g.to(kept);
                for k in group {
                    let c = g.to(k);
                    g.remove(k);
                    changed = true;
                    if c == b {
                        continue;
                    }
                    if g.entering(c).is_empty() && private(&g, c) {
                        // `c` was entered by the removed edge only: its
                        // edges now leave `b` (what a skip `b, c` followed
                        // by skip compaction would give, in one step).
                        g.move_leaving(c, b);
                        work.push(b);
                    } else {
                        g.add(Edge {
                            at: g.edge(kept).at,
                            ..Edge::new(g.name(b), g.name(c), Label::Skip)
                        });
                    }
                }
            }
        }
        game.edges = g.into_edges();
        changed
    }
}

/// A node entered by at most one edge, without an identity of its own.
fn private(g: &EdgeGraph, node: NodeId) -> bool {
    g.entering(node).len() <= 1
        && !g.is_fixed(node)
        && !g.is_reach_start(node)
        && !g.is_reach_target(node)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn identical_first_edges_are_shared() {
        let (changed, out) = after(
            &JoinForkPrefixes,
            "var v: Bool = 0;\nbegin, b: v == 1;\nbegin, c: v == 1;\nb, end: player = keeper;\nc, d: v = 0;\nd, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, b: v == 1;
        b, end: player = keeper;
        b, d: v = 0;
        d, end: player = keeper;
        ");
    }

    #[test]
    fn nested_common_prefixes_are_shared_in_one_run() {
        // `c` merges into `b`, whose two `v = 0` edges are then shared too.
        let (changed, out) = after(
            &JoinForkPrefixes,
            "var v: Bool = 0;\nbegin, b: v == 1;\nbegin, c: v == 1;\nb, x: v = 0;\nc, y: v = 0;\n\
             x, end: player = keeper;\ny, z: $ t;\nz, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, b: v == 1;
        b, x: v = 0;
        x, end: player = keeper;
        x, z: $ t;
        z, end: player = keeper;
        ");
    }

    #[test]
    fn a_shared_target_is_reached_through_a_skip() {
        // `c` is also entered from `a`: it keeps its identity.
        let (changed, out) = after(
            &JoinForkPrefixes,
            "var v: Bool = 0;\nbegin, b: v == 1;\nbegin, c: v == 1;\nbegin, a: v == 0;\na, c: $ t;\n\
             b, end: player = keeper;\nc, d: v = 0;\nd, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, b: v == 1;
        begin, a: v == 0;
        a, c: $ t;
        b, end: player = keeper;
        c, d: v = 0;
        d, end: player = keeper;
        b, c: ;
        ");
    }
}
