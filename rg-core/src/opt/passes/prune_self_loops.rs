//! Prune self loops (E): self-loops labeled with a skip, a comparison or a
//! reachability check never change anything, so they are removed.

use crate::ast::{Game, Label};

use crate::opt::Pass;

pub struct PruneSelfLoops;

impl Pass for PruneSelfLoops {
    fn name(&self) -> &'static str {
        "prune-self-loops"
    }

    fn description(&self) -> &'static str {
        "remove self-loops labeled with a skip, comparison or reachability check"
    }

    fn run(&self, game: &mut Game) -> bool {
        let before = game.edges.len();
        game.edges.retain(|e| {
            e.from != e.to
                || !matches!(
                    e.label,
                    Label::Skip | Label::Compare { .. } | Label::Reach { .. }
                )
        });
        game.edges.len() != before
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn removes_only_effect_free_self_loops() {
        let (changed, out) = after(
            &PruneSelfLoops,
            "var v: Bool = 0;\nbegin, begin: ;\nbegin, begin: v == 1;\nbegin, begin: ? a -> b;\nbegin, begin: v = 1;\nbegin, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, begin: v = 1;
        begin, end: player = keeper;
        ");
    }
}
