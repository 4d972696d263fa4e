//! Prune unreachable nodes (E): edges whose source cannot be reached from
//! `begin` (or from a reachability check's start) are removed, and so are
//! edges into nodes from which neither `end`, a reachability target nor a
//! `player` assignment can be reached (no walk through them completes a
//! move or a check). Assignments to `player` are kept even then: such a
//! move exists, it just leads to a stuck state. A check whose target is not
//! graph-reachable from its start is constant: `?` edges are removed, `!`
//! edges become skips.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::ast::{Game, Label};
use crate::builtins::{BEGIN, END};

use super::Pass;

pub struct PruneUnreachable;

impl Pass for PruneUnreachable {
    fn name(&self) -> &'static str {
        "prune-unreachable"
    }

    fn description(&self) -> &'static str {
        "remove edges unreachable from begin or leading nowhere; fold impossible reachability checks"
    }

    fn run(&self, game: &mut Game) -> bool {
        let mut changed = fold_impossible_checks(game);
        let mut successors: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut predecessors: HashMap<&str, Vec<usize>> = HashMap::new();
        for (k, e) in game.edges.iter().enumerate() {
            successors.entry(&e.from).or_default().push(k);
            predecessors.entry(&e.to).or_default().push(k);
        }
        // Forward: from begin, entering checks' sub-automata.
        let mut reached: HashSet<&str> = HashSet::from([BEGIN]);
        let mut queue: VecDeque<&str> = VecDeque::from([BEGIN]);
        while let Some(n) = queue.pop_front() {
            for &k in successors.get(n).map_or(&[][..], Vec::as_slice) {
                let e = &game.edges[k];
                let mut next = vec![e.to.as_str()];
                if let Label::Reach { from, .. } = &e.label {
                    next.push(from);
                }
                for m in next {
                    if reached.insert(m) {
                        queue.push_back(m);
                    }
                }
            }
        }
        // Backward: nodes that can still finish something.
        let mut alive: HashSet<&str> = HashSet::from([END]);
        for e in &game.edges {
            if reached.contains(e.from.as_str()) {
                if let Label::Reach { to, .. } = &e.label {
                    alive.insert(to);
                }
                if e.label.is_player_assignment() {
                    alive.insert(&e.from);
                }
            }
        }
        let mut queue: VecDeque<&str> = alive.iter().copied().collect();
        while let Some(n) = queue.pop_front() {
            for &k in predecessors.get(n).map_or(&[][..], Vec::as_slice) {
                let from = game.edges[k].from.as_str();
                if alive.insert(from) {
                    queue.push_back(from);
                }
            }
        }
        let keep: Vec<bool> = game
            .edges
            .iter()
            .map(|e| {
                reached.contains(e.from.as_str())
                    && (alive.contains(e.to.as_str()) || e.label.is_player_assignment())
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

/// `? a -> b` with `b` not graph-reachable from `a` never holds.
fn fold_impossible_checks(game: &mut Game) -> bool {
    let mut successors: HashMap<&str, Vec<&str>> = HashMap::new();
    for e in &game.edges {
        successors.entry(&e.from).or_default().push(&e.to);
    }
    let mut cache: HashMap<String, HashSet<String>> = HashMap::new();
    let mut verdicts: Vec<Option<bool>> = Vec::with_capacity(game.edges.len());
    for e in &game.edges {
        let Label::Reach { from, to, .. } = &e.label else {
            verdicts.push(None);
            continue;
        };
        let region = cache.entry(from.clone()).or_insert_with(|| {
            let mut seen: HashSet<String> = HashSet::from([from.clone()]);
            let mut queue = VecDeque::from([from.as_str()]);
            while let Some(n) = queue.pop_front() {
                for &m in successors.get(n).map_or(&[][..], Vec::as_slice) {
                    if seen.insert(m.to_string()) {
                        queue.push_back(m);
                    }
                }
            }
            seen
        });
        verdicts.push((!region.contains(to)).then_some(false));
    }
    let mut changed = false;
    let mut k = 0;
    game.edges.retain_mut(|e| {
        k += 1;
        match (verdicts[k - 1], &e.label) {
            (Some(false), Label::Reach { negated: false, .. }) => {
                changed = true;
                false
            }
            (Some(false), Label::Reach { negated: true, .. }) => {
                e.label = Label::Skip;
                changed = true;
                true
            }
            _ => true,
        }
    });
    changed
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
