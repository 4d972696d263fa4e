//! Skip unused tags (E): tags inside sub-automata that only reachability
//! checks run (never a move search) are ignored there, so they become
//! skips.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::ast::{Game, Label};
use crate::builtins::BEGIN;

use super::Pass;

pub struct SkipUnusedTags;

impl Pass for SkipUnusedTags {
    fn name(&self) -> &'static str {
        "skip-unused-tags"
    }

    fn description(&self) -> &'static str {
        "tags that only reachability checks can traverse become skips"
    }

    fn run(&self, game: &mut Game) -> bool {
        // Nodes a move search can visit: from begin along edges, never
        // jumping into a check's sub-automaton.
        let mut successors: HashMap<&str, Vec<&str>> = HashMap::new();
        for e in &game.edges {
            successors.entry(&e.from).or_default().push(&e.to);
        }
        let mut played: HashSet<String> = HashSet::from([BEGIN.to_string()]);
        let mut queue = VecDeque::from([BEGIN]);
        while let Some(n) = queue.pop_front() {
            for &m in successors.get(n).map_or(&[][..], Vec::as_slice) {
                if played.insert(m.to_string()) {
                    queue.push_back(m);
                }
            }
        }
        let mut changed = false;
        for e in &mut game.edges {
            if e.label.is_tag() && !played.contains(&e.from) {
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
