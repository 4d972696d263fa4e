//! Join fork prefixes (E): edges leaving one node with identical labels
//! are merged: `s, b: L; s, c: L;` becomes `s, b: L; b, c: ;` when `b` is
//! entered only by that edge (so nothing else gains access to `c`). The
//! label is evaluated once; skip compaction then usually merges `b` and
//! `c`. Assignments to `player` are left alone (they end moves).

use std::collections::HashMap;

use crate::ast::{Edge, Game, Label};

use super::graph::EdgeGraph;
use super::Pass;

pub struct JoinForkPrefixes;

impl Pass for JoinForkPrefixes {
    fn name(&self) -> &'static str {
        "join-fork-prefixes"
    }

    fn description(&self) -> &'static str {
        "share the first edge of branches that start with the same label"
    }

    fn run(&self, game: &mut Game) -> bool {
        let mut g = EdgeGraph::new(game);
        let mut changed = false;
        for s in g.nodes() {
            let mut groups: HashMap<Label, Vec<usize>> = HashMap::new();
            for &k in g.leaving(&s) {
                let e = g.edge(k);
                if !e.label.is_player_assignment() && e.to != s {
                    groups.entry(e.label.clone()).or_default().push(k);
                }
            }
            let mut groups: Vec<Vec<usize>> =
                groups.into_values().filter(|ks| ks.len() > 1).collect();
            groups.sort();
            for mut group in groups {
                group.sort();
                // The kept edge's target must be entered by this edge only.
                let Some(position) = group.iter().position(|&k| {
                    let b = &g.edge(k).to;
                    g.entering(b).len() == 1
                        && !g.is_fixed(b)
                        && !g.is_reach_start(b)
                        && !g.is_reach_target(b)
                }) else {
                    continue;
                };
                let kept = group.remove(position);
                let b = g.edge(kept).to.clone();
                for k in group {
                    let c = g.edge(k).to.clone();
                    g.remove(k);
                    if c != b {
                        g.add(Edge {
                            at: g.edge(kept).at,
                            ..Edge::new(b.clone(), c, Label::Skip)
                        });
                    }
                    changed = true;
                }
            }
        }
        if changed {
            game.edges = g.into_edges();
        }
        changed
    }
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
        c, d: v = 0;
        d, end: player = keeper;
        b, c: ;
        ");
    }
}
