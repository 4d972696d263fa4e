//! Skip unused tags (E): tags inside sub-automata that only reachability
//! checks run (never a move search) are ignored there, so they become
//! skips.

use crate::ast::{Game, Label};
use crate::builtins::BEGIN;

use crate::opt::analysis::graph::NodeIndex;
use crate::opt::Pass;

pub struct SkipUnusedTags;

impl Pass for SkipUnusedTags {
    fn name(&self) -> &'static str {
        "skip-unused-tags"
    }

    fn description(&self) -> &'static str {
        "tags that only reachability checks can traverse become skips"
    }

    fn run(&self, game: &mut Game) -> bool {
        if !game.edges.iter().any(|e| e.label.is_tag()) {
            return false;
        }
        // Nodes a move search can visit: from begin along edges, never
        // jumping into a check's sub-automaton.
        let index = NodeIndex::new(game);
        let outgoing = index.outgoing();
        let mut played = vec![false; index.count()];
        let mut queue = Vec::new();
        if let Some(begin) = index.get(BEGIN) {
            played[begin as usize] = true;
            queue.push(begin);
        }
        while let Some(n) = queue.pop() {
            for &k in &outgoing[n as usize] {
                let m = index.ends[k].to;
                if !std::mem::replace(&mut played[m as usize], true) {
                    queue.push(m);
                }
            }
        }
        let unplayed: Vec<bool> = index
            .ends
            .iter()
            .map(|ends| !played[ends.from as usize])
            .collect();
        let mut changed = false;
        for (e, unplayed) in game.edges.iter_mut().zip(unplayed) {
            if unplayed && e.label.is_tag() {
                e.label = Label::Skip;
                changed = true;
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn tags_only_checks_see_become_skips() {
        let (changed, out) = after(
            &SkipUnusedTags,
            "var v: Bool = 0;\nbegin, a: ? s -> t;\na, b: $ kept;\nb, end: player = keeper;\ns, t: $$ v;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, a: ? s -> t;
        a, b: $ kept;
        b, end: player = keeper;
        s, t: ;
        ");
    }
}
