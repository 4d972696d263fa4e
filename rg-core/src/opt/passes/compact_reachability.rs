//! Compact reachability (E): leading and trailing unconditional edges are
//! moved out of a checked sub-automaton: `? x0 -> y0` with `x0, x1: ;` and
//! `x2, y0: ;` becomes `? x1 -> x2`. Available by name; the default
//! pipeline's `compact-skip-edges` does the common case by merging nodes.
//!
//! For a check `? s -> t` (or `! s -> t`) with `s ≠ t`:
//! - **leading** — when `s` has a single outgoing edge, a skip or a tag
//!   (tags are ignored in checks), to `s' ≠ s`, every walk from `s` first
//!   goes to `s'` without changing the state: the check starts at `s'`;
//! - **trailing** — when `t` has a single incoming edge, from `t' ≠ t`,
//!   that is always legal (a skip, a tag, an assignment — in a proper
//!   description assignments are always legal and whatever they change is
//!   discarded when the check ends), then a walk reaches `t` exactly when
//!   it reaches `t'`: the check ends at `t'`.
//!
//! Both are repeated while they apply. No node is merged or removed: the
//! edges left outside the check stay where they are (they may still be
//! used by play), and `prune-unreachable` removes them when they are dead.

use crate::fx_hash::FxSet;

use crate::ast::{Game, Label};

use crate::opt::analysis::graph::adjacency;
use crate::opt::Pass;

pub struct CompactReachability;

impl Pass for CompactReachability {
    fn name(&self) -> &'static str {
        "compact-reachability"
    }

    fn description(&self) -> &'static str {
        "move checks' starts and targets over leading and trailing unconditional edges"
    }

    fn run(&self, game: &mut Game) -> bool {
        let (outgoing, incoming) = adjacency(game);
        let mut moved: Vec<(usize, String, String)> = Vec::new();
        for (k, e) in game.edges.iter().enumerate() {
            let Label::Reach { from, to, .. } = &e.label else {
                continue;
            };
            let mut start = from.as_str();
            let mut target = to.as_str();
            let mut visited: FxSet<&str> = [start].into_iter().collect();
            while start != target {
                let [j] = outgoing.get(start).map_or(&[][..], Vec::as_slice) else {
                    break;
                };
                let edge = &game.edges[*j];
                if !matches!(edge.label, Label::Skip | Label::Tag(_) | Label::VarTag(_))
                    || !visited.insert(&edge.to)
                {
                    break;
                }
                start = &edge.to;
            }
            let mut visited: FxSet<&str> = [target].into_iter().collect();
            while start != target {
                let [j] = incoming.get(target).map_or(&[][..], Vec::as_slice) else {
                    break;
                };
                let edge = &game.edges[*j];
                let always = matches!(
                    edge.label,
                    Label::Skip
                        | Label::Tag(_)
                        | Label::VarTag(_)
                        | Label::Assign { .. }
                        | Label::AssignAny { .. }
                );
                if !always || !visited.insert(&edge.from) {
                    break;
                }
                target = &edge.from;
            }
            if start != from || target != to {
                moved.push((k, start.to_string(), target.to_string()));
            }
        }
        if moved.is_empty() {
            return false;
        }
        for (k, start, target) in moved {
            if let Label::Reach { from, to, .. } = &mut game.edges[k].label {
                *from = start;
                *to = target;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn unconditional_ends_leave_the_check() {
        let (changed, out) = after(
            &CompactReachability,
            "var v: Bool = 0;\nbegin, a: ? x0 -> y0;\nbegin, a: ! x0 -> y0;\na, end: player = keeper;\n\
             x0, x1: ;\nx1, x2: $ t;\nx2, x3: v == 0;\nx3, x4: v = 1;\nx4, y0: ;\ny0, x0: v == 1;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, a: ? x2 -> x3;
        begin, a: ! x2 -> x3;
        a, end: player = keeper;
        x0, x1: ;
        x1, x2: $ t;
        x2, x3: v == 0;
        x3, x4: v = 1;
        x4, y0: ;
        y0, x0: v == 1;
        ");
        super::super::test_support::assert_checks(&out);
    }

    #[test]
    fn conditions_and_joins_stay() {
        // `x1` has two ways in, `x0` two ways out: nothing moves.
        let source = "var v: Bool = 0;\nbegin, a: ? x0 -> x1;\na, end: player = keeper;\nx0, x1: v == 0;\nx0, x1: v == 1;\nx0, x2: ;\nx2, x1: ;\n";
        let (changed, _) = after(&CompactReachability, source);
        assert!(!changed);
    }
}
