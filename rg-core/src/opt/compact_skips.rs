//! Compact skip edges (E) and compact reachability (E): a skip edge
//! `b, c: ;` disappears by merging its end nodes when no other edge depends
//! on the distinction.
//!
//! - **Forward** — `b`'s only edge is the skip: every walk through `b`
//!   continues to `c`, so `b`'s incoming edges go to `c` directly (and
//!   checks starting at `b` start at `c`).
//! - **Backward** — the skip is `c`'s only incoming edge: only walks
//!   through `b` reach `c`, so `c`'s outgoing edges leave from `b`.
//! - **Trailing** — a check's target `y` is entered only by the skip from
//!   `x` and has no edges of its own: reaching `y` is reaching `x`.
//!
//! Fixed nodes (`begin`, `end`, pragma nodes) keep their identity; a node
//! where a move may end is not merged away in games with a random player
//! (perft merges random outcomes by state, rg.md §6); nothing is redirected
//! into `end` by an assignment to `player` (that would make a stuck state
//! terminal).

use crate::ast::{Game, Label};
use crate::builtins::END;

use super::graph::EdgeGraph;
use super::Pass;

pub struct CompactSkipEdges;

impl Pass for CompactSkipEdges {
    fn name(&self) -> &'static str {
        "compact-skip-edges"
    }

    fn description(&self) -> &'static str {
        "merge the end nodes of skip edges (also moves checks' starts and targets over skips)"
    }

    fn run(&self, game: &mut Game) -> bool {
        let random = super::has_random(game);
        let mut g = EdgeGraph::new(game);
        let mut changed = false;
        loop {
            let mut progress = false;
            for node in g.nodes() {
                progress |= forward(&mut g, &node, random)
                    || backward(&mut g, &node)
                    || trailing(&mut g, &node);
            }
            if !progress {
                break;
            }
            changed = true;
        }
        if changed {
            game.edges = g.into_edges();
        }
        changed
    }
}

/// The single skip edge leaving `b`, if that is all that leaves it.
fn only_skip_out(g: &EdgeGraph, b: &str) -> Option<(usize, String)> {
    match g.leaving(b) {
        [k] if g.edge(*k).label == Label::Skip && g.edge(*k).to != b => {
            Some((*k, g.edge(*k).to.clone()))
        }
        _ => None,
    }
}

fn forward(g: &mut EdgeGraph, b: &str, random: bool) -> bool {
    if g.is_fixed(b) || g.is_reach_target(b) {
        return false;
    }
    let Some((skip, c)) = only_skip_out(g, b) else {
        return false;
    };
    let moves_end_here = g
        .entering(b)
        .iter()
        .any(|&k| g.edge(k).label.is_player_assignment());
    if moves_end_here && (random || c == END) {
        return false;
    }
    g.remove(skip);
    g.move_entering(b, &c);
    g.rename_start(b, &c);
    true
}

fn backward(g: &mut EdgeGraph, c: &str) -> bool {
    if g.is_fixed(c) || g.is_reach_start(c) || g.is_reach_target(c) {
        return false;
    }
    let (skip, b) = match g.entering(c) {
        [k] if g.edge(*k).label == Label::Skip && g.edge(*k).from != c => {
            (*k, g.edge(*k).from.clone())
        }
        _ => return false,
    };
    if b == END {
        return false;
    }
    g.remove(skip);
    g.move_leaving(c, &b);
    true
}

fn trailing(g: &mut EdgeGraph, y: &str) -> bool {
    if g.is_fixed(y) || !g.is_reach_target(y) || g.is_reach_start(y) || !g.leaving(y).is_empty() {
        return false;
    }
    let (skip, x) = match g.entering(y) {
        [k] if g.edge(*k).label == Label::Skip && g.edge(*k).from != y => {
            (*k, g.edge(*k).from.clone())
        }
        _ => return false,
    };
    if g.is_fixed(&x) {
        return false;
    }
    g.remove(skip);
    g.rename_target(y, &x);
    true
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn merges_through_skips() {
        let (changed, out) = after(
            &CompactSkipEdges,
            "var v: Bool = 0;\nbegin, a: ;\na, b: v = 1;\nb, c: ;\nc, d: v == 1;\nd, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, c: v = 1;
        c, d: v == 1;
        d, end: player = keeper;
        ");
    }

    #[test]
    fn checks_lose_their_leading_and_trailing_skips() {
        let (_, out) = after(
            &CompactSkipEdges,
            "var v: Bool = 0;\nbegin, a: ? x0 -> y0;\na, end: player = keeper;\nx0, x1: ;\nx1, x2: v == 0;\nx2, y0: ;\n",
        );
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, a: ? x1 -> x2;
        a, end: player = keeper;
        x1, x2: v == 0;
        ");
    }

    #[test]
    fn keeps_distinctions_that_matter() {
        // `b` has two ways in and out, `c` two ways in: the skip stays.
        let source = "var v: Bool = 0;\nbegin, b: ;\nbegin, b: v == 0;\nbegin, c: v == 1;\nb, c: ;\nb, d: v == 0;\nc, end: player = keeper;\nd, end: player = keeper;\n";
        let (_, out) = after(&CompactSkipEdges, source);
        assert!(out.contains("b, c: ;"), "{out}");
        // A move ending at `s` is not redirected into `end`.
        let (changed, out) = after(&CompactSkipEdges, "begin, s: player = keeper;\ns, end: ;\n");
        assert!(!changed, "{out}");
    }
}
