//! Reorder conditions (**U**, unsafe): a condition shared by several paths
//! leaving a node is moved to the front of the paths, so that the paths
//! can then be joined (`join-fork-prefixes`):
//! `s, a: 4 == 4; a, a1: 1 == 1; s, b: 2 == 2; b, b1: 4 == 4;` — the `b`
//! path becomes `s, b: 4 == 4; b, b1: 2 == 2;`.
//!
//! UNSAFE: swapping two conditions evaluates the second one in states
//! where the first one used to fail, e.g. an access with an out-of-domain
//! key before the guard that excluded it; the result may be an improper
//! game, or a different one. Never part of the default pipeline; only run
//! by name.
//!
//! The rewrite: an edge `s, b: x;` followed by `b, c: y;` (both conditions —
//! comparisons or reachability checks — with `b` entered and left only by
//! them) becomes `s, b: y; b, c: x;` when `y` is the first condition of
//! another edge leaving `s` and `x` is not. Each swap makes one more path
//! start with a shared condition and none stop doing so, so repeated runs
//! terminate. Pragmas naming the nodes involved are removed.

use crate::fx_hash::{FxMap, FxSet};

use crate::ast::{Game, Label};
use crate::builtins::{BEGIN, END};

use crate::opt::analysis::pragmas;
use crate::opt::Pass;

pub struct ReorderConditions;

impl Pass for ReorderConditions {
    fn name(&self) -> &'static str {
        "reorder-conditions"
    }

    fn description(&self) -> &'static str {
        "UNSAFE (may change the game): move conditions shared by sibling paths to the front"
    }

    fn run(&self, game: &mut Game) -> bool {
        let pinned = pragmas::pragma_nodes(game);
        let mut outgoing: FxMap<String, Vec<usize>> = FxMap::default();
        let mut incoming: FxMap<String, Vec<usize>> = FxMap::default();
        let mut reach_nodes = FxSet::default();
        for (k, e) in game.edges.iter().enumerate() {
            outgoing.entry(e.from.clone()).or_default().push(k);
            incoming.entry(e.to.clone()).or_default().push(k);
            if let Label::Reach { from, to, .. } = &e.label {
                reach_nodes.insert(from.clone());
                reach_nodes.insert(to.clone());
            }
        }
        let is_condition = |l: &Label| matches!(l, Label::Compare { .. } | Label::Reach { .. });
        let mut sources: Vec<&String> = outgoing.keys().collect();
        sources.sort();
        let mut swaps: Vec<(usize, usize)> = Vec::new();
        for s in sources {
            let out = &outgoing[s];
            if out.len() < 2 {
                continue;
            }
            // The current first labels of the paths leaving `s`.
            let mut firsts: Vec<Label> = out.iter().map(|&k| game.edges[k].label.clone()).collect();
            for (i, &k) in out.iter().enumerate() {
                let first = &game.edges[k];
                let b = &first.to;
                if b == s
                    || b == BEGIN
                    || b == END
                    || pinned.contains(b)
                    || reach_nodes.contains(b)
                    || !is_condition(&firsts[i])
                    || incoming.get(b).map(Vec::as_slice) != Some(&[k])
                {
                    continue;
                }
                let Some(&[k2]) = outgoing.get(b).map(Vec::as_slice) else {
                    continue;
                };
                let second = &game.edges[k2];
                if second.to == *b || !is_condition(&second.label) || second.label == firsts[i] {
                    continue;
                }
                let shared =
                    |label: &Label| firsts.iter().enumerate().any(|(j, l)| j != i && l == label);
                if shared(&second.label) && !shared(&firsts[i]) {
                    firsts[i] = second.label.clone();
                    swaps.push((k, k2));
                }
            }
        }
        if swaps.is_empty() {
            return false;
        }
        // Pragmas about the nodes whose walks changed may no longer hold.
        let touched: FxSet<String> = swaps
            .iter()
            .flat_map(|&(k, _)| [game.edges[k].from.clone(), game.edges[k].to.clone()])
            .collect();
        game.pragmas.retain(|p| {
            !pragmas::nodes_of(&p.kind)
                .iter()
                .any(|n| touched.contains(*n))
        });
        for (k, k2) in swaps {
            let first = std::mem::replace(&mut game.edges[k].label, Label::Skip);
            let second = std::mem::replace(&mut game.edges[k2].label, first);
            game.edges[k].label = second;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn shared_conditions_move_to_the_front() {
        let (changed, out) = after(
            &ReorderConditions,
            "begin, s: player = x;\ns, a: 4 == 4;\na, a1: 1 == 1;\ns, b: 2 == 2;\nb, b1: 4 == 4;\n\
             a1, end: player = keeper;\nb1, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        begin, s: player = x;
        s, a: 4 == 4;
        a, a1: 1 == 1;
        s, b: 4 == 4;
        b, b1: 2 == 2;
        a1, end: player = keeper;
        b1, end: player = keeper;
        ");
        super::super::test_support::assert_checks(&out);
        let (_, again) = after(&ReorderConditions, &out);
        assert_eq!(again, out);
    }
}
