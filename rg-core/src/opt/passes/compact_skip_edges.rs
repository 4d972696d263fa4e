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
//! - **Leading** — `begin`'s only edge is the skip to `c`: `c` becomes
//!   `begin` (`begin` keeps its name, so `c`'s edges move to it).
//! - **Bypass** — every edge entering `c` is a skip: each skip `b, c`
//!   is replaced by copies `b, d: L` of `c`'s edges `c, d: L` (every walk
//!   through `c` still takes one of them), when that at most doubles the
//!   edges involved; no move ends at `c`, so no state changes name.
//!
//! Fixed nodes (`begin`, `end`, pragma nodes) keep their identity; a node
//! where a move may end is not merged away in games with a random player
//! (perft merges random outcomes by state, rg.md §6); nothing is redirected
//! into `end` by an assignment to `player` (that would make a stuck state
//! terminal).

use crate::ast::{Edge, Game, Label};
use crate::builtins::{BEGIN, END};

use crate::opt::analysis::features;
use crate::opt::analysis::graph::{EdgeGraph, NodeId};
use crate::opt::Pass;

pub struct CompactSkipEdges;

impl Pass for CompactSkipEdges {
    fn name(&self) -> &'static str {
        "compact-skip-edges"
    }

    fn description(&self) -> &'static str {
        "merge the end nodes of skip edges (also moves checks' starts and targets over skips)"
    }

    fn run(&self, game: &mut Game) -> bool {
        let random = features::has_random(game);
        let mut g = EdgeGraph::take(game);
        let end = g.id(END);
        let begin = g.id(BEGIN);
        let mut changed = false;
        loop {
            let mut progress = false;
            for node in g.nodes() {
                progress |= forward(&mut g, node, random, end)
                    || backward(&mut g, node, end)
                    || trailing(&mut g, node)
                    || (Some(node) == begin && !random && leading(&mut g, node))
                    || bypass(&mut g, node);
            }
            if !progress {
                break;
            }
            changed = true;
        }
        game.edges = g.into_edges();
        changed
    }
}

/// The single skip edge leaving `b`, if that is all that leaves it.
fn only_skip_out(g: &EdgeGraph, b: NodeId) -> Option<(usize, NodeId)> {
    match g.leaving(b) {
        [k] if g.edge(*k).label == Label::Skip && g.to(*k) != b => Some((*k, g.to(*k))),
        _ => None,
    }
}

/// The single skip edge entering `c` from another node, if that is all
/// that enters it.
fn only_skip_in(g: &EdgeGraph, c: NodeId) -> Option<(usize, NodeId)> {
    match g.entering(c) {
        [k] if g.edge(*k).label == Label::Skip && g.from(*k) != c => Some((*k, g.from(*k))),
        _ => None,
    }
}

fn forward(g: &mut EdgeGraph, b: NodeId, random: bool, end: Option<NodeId>) -> bool {
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
    if moves_end_here && (random || Some(c) == end) {
        return false;
    }
    g.remove(skip);
    g.move_entering(b, c);
    g.rename_start(b, c);
    true
}

fn backward(g: &mut EdgeGraph, c: NodeId, end: Option<NodeId>) -> bool {
    if g.is_fixed(c) || g.is_reach_start(c) || g.is_reach_target(c) {
        return false;
    }
    let Some((skip, b)) = only_skip_in(g, c) else {
        return false;
    };
    if Some(b) == end || tag_loop_to(g, g.leaving(c), b) {
        return false;
    }
    g.remove(skip);
    g.move_leaving(c, b);
    true
}

fn trailing(g: &mut EdgeGraph, y: NodeId) -> bool {
    if g.is_fixed(y) || !g.is_reach_target(y) || g.is_reach_start(y) || !g.leaving(y).is_empty() {
        return false;
    }
    let Some((skip, x)) = only_skip_in(g, y) else {
        return false;
    };
    if g.is_fixed(x) {
        return false;
    }
    g.remove(skip);
    g.rename_target(y, x);
    true
}

/// Whether one of `edges` is a tag to `node`: moved to leave `node`, it
/// would be a tag loop, which the checker rejects.
fn tag_loop_to(g: &EdgeGraph, edges: &[usize], node: NodeId) -> bool {
    edges
        .iter()
        .any(|&k| g.to(k) == node && matches!(g.edge(k).label, Label::Tag(_) | Label::VarTag(_)))
}

fn leading(g: &mut EdgeGraph, begin: NodeId) -> bool {
    // Were `begin` a check's target, walks reaching `c` would reach it.
    if g.is_reach_target(begin) {
        return false;
    }
    let Some((skip, c)) = only_skip_out(g, begin) else {
        return false;
    };
    if g.is_fixed(c) || g.is_reach_start(c) || g.is_reach_target(c) {
        return false;
    }
    g.remove(skip);
    g.move_leaving(c, begin);
    g.move_entering(c, begin);
    true
}

fn bypass(g: &mut EdgeGraph, c: NodeId) -> bool {
    if g.is_fixed(c) || g.is_reach_start(c) || g.is_reach_target(c) {
        return false;
    }
    let (entering, leaving) = (g.entering(c), g.leaving(c));
    // Each of the k skips gets a copy of the m edges: k + m edges become
    // k * m, allowed up to twice as many (each walk then evaluates the
    // same labels without the skip in between).
    let (k, m) = (entering.len(), leaving.len());
    if k == 0 || m == 0 || k * m > 2 * (k + m) {
        return false;
    }
    if entering
        .iter()
        .any(|&e| g.edge(e).label != Label::Skip || g.from(e) == c)
        || leaving.iter().any(|&e| g.to(e) == c)
    {
        return false;
    }
    let (skips, outs) = (entering.to_vec(), leaving.to_vec());
    if skips
        .iter()
        .any(|&skip| tag_loop_to(g, &outs, g.from(skip)))
    {
        return false;
    }
    // The first edge is taken over by the skips themselves (keeping their
    // place in the output), the others are added.
    for &out in &outs[1..] {
        let (edge, to) = (g.edge(out).clone(), g.name(g.to(out)).to_string());
        for &skip in &skips {
            g.add(Edge {
                from: g.name(g.from(skip)).to_string(),
                to: to.clone(),
                ..edge.clone()
            });
        }
        g.remove(out);
    }
    let first = outs[0];
    let label = g.edge(first).label.clone();
    for &skip in &skips {
        g.relabel(skip, label.clone());
    }
    g.move_entering(c, g.to(first));
    g.remove(first);
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

    #[test]
    fn begin_takes_over_the_node_after_its_only_skip() {
        let (changed, out) = after(
            &CompactSkipEdges,
            "var v: Bool = 0;\nbegin, a: ;\na, b: v == 0;\na, c: v == 1;\nb, a: v = 1;\nc, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, b: v == 0;
        begin, c: v == 1;
        b, begin: v = 1;
        c, end: player = keeper;
        ");
        // Were `begin` a check's target, reaching `a` would reach it.
        let (changed, out) = after(
            &CompactSkipEdges,
            "var v: Bool = 0;\nbegin, a: ;\na, b: v == 0;\na, c: ? a -> begin;\nb, a: v = 1;\nc, end: player = keeper;\n",
        );
        assert!(!changed, "{out}");
    }

    #[test]
    fn nodes_entered_by_skips_only_are_bypassed() {
        // Two skips into `c`, two edges out of it: four edges either way,
        // one node less.
        let (changed, out) = after(
            &CompactSkipEdges,
            "var v: Bool = 0;\nbegin, a: v == 0;\nbegin, b: v == 1;\na, c: ;\na, a: v = 1;\nb, c: ;\nb, b: v = 0;\n\
             c, d: v == 0;\nc, e: v == 1;\nd, end: player = keeper;\ne, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, a: v == 0;
        begin, b: v == 1;
        a, d: v == 0;
        a, a: v = 1;
        b, d: v == 0;
        b, b: v = 0;
        d, end: player = keeper;
        e, end: player = keeper;
        a, e: v == 1;
        b, e: v == 1;
        ");
        // Five skips into `c` and four edges out: 20 copies are more than
        // twice the 9 edges there were.
        let mut source = String::from("var v: Bool = 0;\n");
        for p in ["a", "b", "f", "g", "h"] {
            source.push_str(&format!(
                "begin, {p}: v == 0;\n{p}, {p}: v = 1;\n{p}, c: ;\n"
            ));
        }
        source.push_str("c, d: v == 0;\nc, e: v == 1;\nc, e: v == 0;\nc, end: player = keeper;\nd, end: player = keeper;\ne, end: player = keeper;\n");
        let (_, out) = after(&CompactSkipEdges, &source);
        assert!(out.contains("c, d: v == 0;"), "{out}");
        // Bypassing `c` would make `b1, b1: $ z;`, a tag loop.
        let (_, out) = after(
            &CompactSkipEdges,
            "var v: Bool = 0;\nbegin, u: v == 0;\nu, u1: ! b1 -> q;\nu1, u2: ! b2 -> q;\nu2, end: player = keeper;\n\
             b1, c: ;\nb2, c: ;\nc, b1: $ z;\nb1, q: v == 1;\nb2, q: v == 1;\n",
        );
        assert!(!out.contains("b1, b1"), "{out}");
    }
}
