//! Skip self assignments / comparisons (E): `x = x` and `x == x` become skip
//! edges, `x != x` edges are deleted (never legal). Casts are ignored when
//! comparing the two sides. Assignments to `player` are kept: any such
//! assignment ends a move, whatever its value.

use crate::ast::{Game, Label};

use crate::opt::Pass;

pub struct SkipSelfAssignments;

impl Pass for SkipSelfAssignments {
    fn name(&self) -> &'static str {
        "skip-self-assignments"
    }

    fn description(&self) -> &'static str {
        "x = x and x == x become skips; x != x edges are deleted"
    }

    fn run(&self, game: &mut Game) -> bool {
        let before = game.edges.len();
        let mut changed = false;
        game.edges.retain_mut(|e| {
            let (lhs, rhs, keep_if_equal) = match &e.label {
                Label::Assign { lhs, rhs } if !e.label.is_player_assignment() => (lhs, rhs, true),
                Label::Compare { negated, lhs, rhs } => (lhs, rhs, !negated),
                _ => return true,
            };
            if lhs.without_casts() != rhs.without_casts() {
                return true;
            }
            if keep_if_equal {
                e.label = Label::Skip;
                changed = true;
            }
            keep_if_equal
        });
        changed || game.edges.len() != before
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn self_assignments_and_comparisons() {
        let (changed, out) = after(
            &SkipSelfAssignments,
            "var v: Bool = 0;\nbegin, a: v = Bool(v);\na, b: v == v;\nb, c: v != v;\nb, c: player = player;\nc, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, a: ;
        a, b: ;
        b, c: player = player;
        c, end: player = keeper;
        ");
        let (changed, _) = after(&SkipSelfAssignments, "begin, end: player = keeper;\n");
        assert!(!changed);
    }
}
