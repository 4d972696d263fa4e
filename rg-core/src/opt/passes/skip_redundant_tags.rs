//! Skip redundant tags (L): tags that every move from some node emits at
//! the same position, with the same symbol, never help choose a move, so
//! they become skips: with `q1` a node where moves start and the only path
//! `q1, q2: $ a; q2, q3: player = keeper;`, the move `a` becomes the empty
//! move. Available by name only.
//!
//! Soundness rests on a conservative criterion. A node `n` is a *move
//! start* when it is `begin` or the target of a `player` assignment, and
//! every edge into it assigns `player` (so a walk is only ever at `n` when
//! a move starts there, never in the middle of one). From `n`, follow the
//! *forced chain* `n = c0 → c1 → … `: while the current node has exactly
//! one outgoing edge, which does not assign `player`, and the next node
//! has exactly that edge coming in (and is not already on the chain).
//! Every move walk from a state at `n` begins with the whole chain up to
//! wherever it leaves it, and no walk reaches a chain node any other way,
//! so each chain edge is traversed exactly once, at the start of every
//! move. The `$ t` edges of the chain therefore put the symbol `t` at a
//! fixed position of every move from `n`; deleting constant symbols at
//! fixed positions maps distinct moves to distinct moves, which keeps the
//! tree shape (`$$` edges on the chain are kept, their symbol varies).
//! Tags inside reachability sub-automata are ignored anyway.
//!
//! `@tagIndex`/`@tagMaxIndex` and `@simpleApply` pragmas are removed when a
//! tag goes.

use crate::fx_hash::FxSet;

use crate::ast::{Game, Label};
use crate::builtins::BEGIN;

use crate::opt::analysis::graph::adjacency;
use crate::opt::analysis::pragmas;
use crate::opt::Pass;

pub struct SkipRedundantTags;

impl Pass for SkipRedundantTags {
    fn name(&self) -> &'static str {
        "skip-redundant-tags"
    }

    fn description(&self) -> &'static str {
        "relabeling: constant tags every move from a node starts with become skips"
    }

    fn run(&self, game: &mut Game) -> bool {
        let (outgoing, incoming) = adjacency(game);
        let only_player_in = |n: &str| {
            incoming
                .get(n)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .all(|&k| game.edges[k].label.is_player_assignment())
        };
        let mut starts: Vec<&str> = Vec::new();
        let mut seen: FxSet<&str> = FxSet::default();
        if only_player_in(BEGIN) {
            starts.push(BEGIN);
            seen.insert(BEGIN);
        }
        for e in &game.edges {
            if e.label.is_player_assignment() && seen.insert(&e.to) && only_player_in(&e.to) {
                starts.push(&e.to);
            }
        }
        let mut redundant: Vec<usize> = Vec::new();
        for start in starts {
            let mut chain: FxSet<&str> = [start].into_iter().collect();
            let mut node = start;
            while let [k] = outgoing.get(node).map_or(&[][..], Vec::as_slice) {
                let e = &game.edges[*k];
                if e.label.is_player_assignment() {
                    break;
                }
                if matches!(e.label, Label::Tag(_)) {
                    redundant.push(*k);
                }
                let next = e.to.as_str();
                if chain.contains(next) || incoming.get(next).map_or(&[][..], Vec::as_slice) != [*k]
                {
                    break;
                }
                chain.insert(next);
                node = next;
            }
        }
        if redundant.is_empty() {
            return false;
        }
        for k in redundant {
            game.edges[k].label = Label::Skip;
        }
        pragmas::drop_tag_pragmas(game);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn constant_move_prefixes_are_dropped() {
        let (changed, out) = after(
            &SkipRedundantTags,
            "var v: Bool = 0;\nbegin, q1: player = x;\nq1, q2: $ a;\nq2, q3: $$ v;\nq3, q4: $ b;\nq4, q5: $ c;\nq4, q5: $ d;\n\
             q5, r1: player = keeper;\nr1, r2: $ k;\nr2, end: player = keeper;\n",
        );
        assert!(changed);
        // `a` and `b` start every move from q1 (with `$$ v` between); `c`
        // and `d` tell moves apart; `k` starts the keeper's only move.
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, q1: player = x;
        q1, q2: ;
        q2, q3: $$ v;
        q3, q4: ;
        q4, q5: $ c;
        q4, q5: $ d;
        q5, r1: player = keeper;
        r1, r2: ;
        r2, end: player = keeper;
        ");
        super::super::test_support::assert_checks(&out);
    }

    #[test]
    fn tags_reachable_mid_move_are_kept() {
        // `q1` is also entered by a skip: a walk can go round and emit `a`
        // again, at another position.
        let source = "var v: Bool = 0;\nbegin, q1: player = x;\nq1, q2: $ a;\nq2, q3: v = 1;\nq3, q1: v == 0;\nq3, end: player = keeper;\n";
        let (changed, _) = after(&SkipRedundantTags, source);
        assert!(!changed);
        // `q2` has a second way in.
        let source = "begin, q1: player = x;\nbegin, q2: player = x;\nq1, q2: ;\nq2, q3: $ a;\nq3, end: player = keeper;\n";
        let (changed, out) = after(&SkipRedundantTags, source);
        assert!(!changed, "{out}");
    }
}
