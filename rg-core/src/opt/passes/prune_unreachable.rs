//! Prune unreachable nodes (E): edges whose source cannot be reached from
//! `begin` (or from a reachability check's start) are removed, and so are
//! edges into nodes from which neither `end`, a reachability target nor a
//! `player` assignment can be reached (no walk through them completes a
//! move or a check). Assignments to `player` are kept even then: such a
//! move exists, it just leads to a stuck state. A check whose target is not
//! graph-reachable from its start is constant: `?` edges are removed, `!`
//! edges become skips.

use crate::ast::{Game, Label};
use crate::builtins::{BEGIN, END};

use crate::opt::analysis::graph::{NodeId, NodeIndex};
use crate::opt::Pass;

pub struct PruneUnreachable;

impl Pass for PruneUnreachable {
    fn name(&self) -> &'static str {
        "prune-unreachable"
    }

    fn description(&self) -> &'static str {
        "remove edges unreachable from begin or leading nowhere; fold impossible reachability checks"
    }

    fn run(&self, game: &mut Game) -> bool {
        let mut index = NodeIndex::new(game);
        let impossible = impossible_checks(&index);
        let mut changed = impossible.contains(&true);
        if changed {
            fold_checks(game, &impossible);
            index = NodeIndex::new(game);
        }
        let nodes = index.count();
        // Forward: from begin, entering checks' sub-automata.
        let outgoing = index.outgoing();
        let mut reached = vec![false; nodes];
        let mut queue: Vec<NodeId> = Vec::new();
        if let Some(begin) = index.get(BEGIN) {
            visit(begin, &mut reached, &mut queue);
        }
        while let Some(n) = queue.pop() {
            for &k in &outgoing[n as usize] {
                let ends = index.ends[k];
                visit(ends.to, &mut reached, &mut queue);
                if let Some((start, _)) = ends.reach {
                    visit(start, &mut reached, &mut queue);
                }
            }
        }
        // Backward: nodes that can still finish something.
        let incoming = index.incoming();
        let mut alive = vec![false; nodes];
        if let Some(end) = index.get(END) {
            visit(end, &mut alive, &mut queue);
        }
        for (e, ends) in game.edges.iter().zip(&index.ends) {
            if reached[ends.from as usize] {
                if let Some((_, target)) = ends.reach {
                    visit(target, &mut alive, &mut queue);
                }
                if e.label.is_player_assignment() {
                    visit(ends.from, &mut alive, &mut queue);
                }
            }
        }
        while let Some(n) = queue.pop() {
            for &k in &incoming[n as usize] {
                visit(index.ends[k].from, &mut alive, &mut queue);
            }
        }
        let keep: Vec<bool> = game
            .edges
            .iter()
            .zip(&index.ends)
            .map(|(e, ends)| {
                reached[ends.from as usize]
                    && (alive[ends.to as usize] || e.label.is_player_assignment())
            })
            .collect();
        if keep.iter().all(|&k| k) {
            return changed;
        }
        let mut k = 0;
        game.edges.retain(|_| {
            k += 1;
            keep[k - 1]
        });
        changed = true;
        changed
    }
}

/// Marks `n` seen, queueing it the first time.
fn visit(n: NodeId, seen: &mut [bool], queue: &mut Vec<NodeId>) {
    if !std::mem::replace(&mut seen[n as usize], true) {
        queue.push(n);
    }
}

/// Per edge: whether it is a check `? a -> b` or `! a -> b` with `b` not
/// graph-reachable from `a` (so the check never holds).
fn impossible_checks(index: &NodeIndex) -> Vec<bool> {
    let outgoing = index.outgoing();
    // The checks by start, so that each start's region is walked once.
    let mut checks: Vec<Vec<usize>> = vec![Vec::new(); index.count()];
    for (k, ends) in index.ends.iter().enumerate() {
        if let Some((start, _)) = ends.reach {
            checks[start as usize].push(k);
        }
    }
    let mut impossible = vec![false; index.ends.len()];
    // The region walked from the current start: nodes marked with its id.
    let mut mark: Vec<Option<NodeId>> = vec![None; index.count()];
    let mut queue: Vec<NodeId> = Vec::new();
    for (start, ks) in checks.iter().enumerate() {
        if ks.is_empty() {
            continue;
        }
        let start = start as NodeId;
        mark[start as usize] = Some(start);
        queue.push(start);
        while let Some(n) = queue.pop() {
            for &k in &outgoing[n as usize] {
                let m = index.ends[k].to;
                if mark[m as usize] != Some(start) {
                    mark[m as usize] = Some(start);
                    queue.push(m);
                }
            }
        }
        for &k in ks {
            let (_, target) = index.ends[k].reach.expect("a check");
            impossible[k] = mark[target as usize] != Some(start);
        }
    }
    impossible
}

/// Folds the impossible checks: `?` edges go, `!` edges become skips.
fn fold_checks(game: &mut Game, impossible: &[bool]) {
    let mut k = 0;
    game.edges.retain_mut(|e| {
        k += 1;
        match (impossible[k - 1], &e.label) {
            (true, Label::Reach { negated: false, .. }) => false,
            (true, _) => {
                e.label = Label::Skip;
                true
            }
            _ => true,
        }
    });
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn unreachable_and_dead_end_edges() {
        let (changed, out) = after(
            &PruneUnreachable,
            "var v: Bool = 0;\nbegin, a: ;\na, end: player = keeper;\na, dead: v == 1;\ndead, dead2: v = 0;\n\
             begin, stuck: player = x;\nnowhere, a: ;\nbegin, c: ? s -> t;\nc, end: player = keeper;\ns, t: v == 0;\n\
             begin, d: ! s -> u;\nd, end: player = keeper;\ns, u2: ;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, a: ;
        a, end: player = keeper;
        begin, stuck: player = x;
        begin, c: ? s -> t;
        c, end: player = keeper;
        s, t: v == 0;
        begin, d: ;
        d, end: player = keeper;
        ");
    }
}
