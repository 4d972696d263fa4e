//! Join fork suffixes (E): nodes whose only edge is the same label to the
//! same node are merged from the end: `a1, z: L; a2, z: L;` (each the only
//! edge of its source) become one node `a1` entered by both predecessors.

use std::collections::HashMap;

use crate::ast::{Game, Label};

use super::graph::EdgeGraph;
use super::Pass;

pub struct JoinForkSuffixes;

impl Pass for JoinForkSuffixes {
    fn name(&self) -> &'static str {
        "join-fork-suffixes"
    }

    fn description(&self) -> &'static str {
        "merge nodes whose only edge is the same label to the same node"
    }

    fn run(&self, game: &mut Game) -> bool {
        let random = super::has_random(game);
        let mut g = EdgeGraph::new(game);
        let mut changed = false;
        for z in g.nodes() {
            let mut groups: HashMap<Label, Vec<usize>> = HashMap::new();
            for &k in g.entering(&z) {
                let a = &g.edge(k).from;
                let mergeable = a != &z
                    && g.leaving(a).len() == 1
                    && !g.is_fixed(a)
                    && !g.is_reach_start(a)
                    && !g.is_reach_target(a)
                    // Where a move may end, the node is part of the state.
                    && (!random || !g.entering(a).iter().any(|&i| g.edge(i).label.is_player_assignment()));
                if mergeable {
                    groups.entry(g.edge(k).label.clone()).or_default().push(k);
                }
            }
            let mut groups: Vec<Vec<usize>> =
                groups.into_values().filter(|ks| ks.len() > 1).collect();
            groups.sort();
            for mut group in groups {
                group.sort();
                let kept = group[0];
                let a1 = g.edge(kept).from.clone();
                for &k in &group[1..] {
                    let a2 = g.edge(k).from.clone();
                    if a2 == a1 {
                        continue;
                    }
                    g.remove(k);
                    for i in g.entering(&a2).to_vec() {
                        let mut e = g.edge(i).clone();
                        e.to = a1.clone();
                        g.replace(i, e);
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
}
