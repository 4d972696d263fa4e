//! Checks that ask whether the walk after them can go on.
//!
//! The RBG translation decides a keeper's turn with a node of two edges,
//! `? P -> a` and `! P -> b`, where the check `P` is a copy of the walk
//! from `a` up to where the move is sure to complete (hex: the stone and
//! the connection tests; reversi: the flips). A move search then walks
//! that part twice: once in the check, once for real. When the check's
//! automaton mirrors the walk from `a` edge for edge, and every node where
//! the check succeeds is sure to complete a move, `P` holds exactly when
//! the walk from `a` completes a move: the reasoner walks from `a` and
//! follows `b` only if no move was completed on the way.

use rg_core::engine::program::{Action, Program};

/// A node whose check can be replaced by walking on: its `? P` edge and
/// its `! P` edge (indices into `Program::edges`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FusedCheck {
    pub positive: usize,
    pub negative: usize,
}

/// Most node pairs compared per candidate (keeps the analysis linear).
const MAX_PAIRS: usize = 4096;

/// Per node, the check its move search may replace by walking on.
pub fn fused_checks(p: &Program) -> Vec<Option<FusedCheck>> {
    let keys: Vec<String> = p.edges.iter().map(|e| format!("{:?}", e.action)).collect();
    let completes = sure_to_complete(p);
    (0..p.nodes.len() as u32)
        .map(|node| {
            let fused = candidate(p, node)?;
            let Action::Reach { from, to, .. } = p.edges[fused.positive].action else {
                return None;
            };
            let a = p.edges[fused.positive].target;
            mirrors(p, &keys, &completes, from, to, a).then_some(fused)
        })
        .collect()
}

/// A node with exactly the two edges `? P -> a` and `! P -> b`.
fn candidate(p: &Program, node: u32) -> Option<FusedCheck> {
    let edges = p.edges_of(node);
    if edges.len() != 2 || node == p.end {
        return None;
    }
    let reach = |k: usize| match p.edges[k].action {
        Action::Reach { negated, from, to } => Some((negated, from, to)),
        _ => None,
    };
    let (first, second) = (reach(edges.start)?, reach(edges.start + 1)?);
    if first.1 != second.1 || first.2 != second.2 || first.0 == second.0 {
        return None;
    }
    let (positive, negative) = if first.0 {
        (edges.start + 1, edges.start)
    } else {
        (edges.start, edges.start + 1)
    };
    Some(FusedCheck { positive, negative })
}

/// Whether the check from `from` to `to` mirrors the move walk from `a`:
/// paired nodes have the same edges in the same order (no tags, no
/// `player` assignments, no visited sets on the walk's side), and every
/// walk node paired with `to` is sure to complete a move.
fn mirrors(p: &Program, keys: &[String], completes: &[bool], from: u32, to: u32, a: u32) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(from, a)];
    while let Some((x, y)) = stack.pop() {
        if !seen.insert((x, y)) {
            continue;
        }
        if seen.len() > MAX_PAIRS {
            return false;
        }
        if x == to {
            if !completes[y as usize] {
                return false;
            }
            continue;
        }
        let info = p.node_info[y as usize];
        if info.visit_in_move || y == p.end {
            return false;
        }
        let (xs, ys) = (p.edges_of(x), p.edges_of(y));
        if xs.len() != ys.len() || xs.is_empty() {
            return false;
        }
        for (ex, ey) in xs.zip(ys) {
            if matches!(
                p.edges[ex].action,
                Action::Tag(_) | Action::VarTag(_) | Action::AssignPlayer(_)
            ) || keys[ex] != keys[ey]
            {
                return false;
            }
            stack.push((p.edges[ex].target, p.edges[ey].target));
        }
    }
    true
}

/// Nodes from which every move walk surely reaches a `player` assignment
/// (or stops the search on a fault): an unconditional edge leads to one
/// or to such a node, or a check and its negation both lead to such
/// nodes. No node on the way keeps a visited set, so no arrival is cut.
fn sure_to_complete(p: &Program) -> Vec<bool> {
    let n = p.nodes.len();
    let mut sure = vec![false; n];
    loop {
        let mut changed = false;
        for node in 0..n as u32 {
            let k = node as usize;
            if sure[k] || node == p.end || p.node_info[k].visit_in_move {
                continue;
            }
            let edges = &p.edges[p.edges_of(node)];
            let unconditional = edges.iter().any(|e| match &e.action {
                Action::AssignPlayer(_) => true,
                Action::Skip | Action::Assign { .. } => sure[e.target as usize],
                _ => false,
            });
            let both_ways = edges.iter().any(|e| match e.action {
                Action::Reach {
                    negated: false,
                    from,
                    to,
                } => {
                    sure[e.target as usize]
                        && edges.iter().any(|f| {
                            matches!(f.action, Action::Reach { negated: true, from: g, to: t }
                                if g == from && t == to)
                                && sure[f.target as usize]
                        })
                }
                _ => false,
            });
            if unconditional || both_ways {
                sure[k] = true;
                changed = true;
            }
        }
        if !changed {
            return sure;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::{node, program, HEADER};

    /// A keeper's turn as the RBG translation writes it: `? can` copies
    /// the walk from `k1` up to `k3`, where the move completes either way.
    const KEEPER_TURN: &str = "
        var board: SquareOrNull -> Piece = { :e, null: null };
        var sq: SquareOrNull = a;
        begin, n1: sq = Square(*);
        n1, n2: board[sq] == e;
        n2, k0: player = keeper;
        k0, k1: ? c0 -> c3;
        k0, k5: ! c0 -> c3;
        k1, k2: board[sq] = x;
        k2, k3: sq = right[sq];
        k3, k4: ? r0 -> r1;
        k3, k5: ! r0 -> r1;
        k4, begin: player = one;
        k5, end: player = keeper;
        c0, c1: board[sq] = x;
        c1, c3: sq = right[sq];
        r0, r1: board[sq] == e;
    ";

    #[test]
    fn a_check_copying_the_walk_after_it_is_fused() {
        let p = program(&format!("{HEADER}{KEEPER_TURN}"));
        let fused = fused_checks(&p);
        let k0 = node(&p, "k0");
        let f = fused[k0].expect("k0's check is fused");
        assert!(matches!(
            p.edges[f.positive].action,
            Action::Reach { negated: false, .. }
        ));
        assert!(matches!(
            p.edges[f.negative].action,
            Action::Reach { negated: true, .. }
        ));
        assert_eq!(fused.iter().flatten().count(), 1);
    }

    #[test]
    fn a_check_that_differs_from_the_walk_is_kept() {
        // The copy steps left where the walk steps right.
        let source = KEEPER_TURN.replace("c1, c3: sq = right[sq];", "c1, c3: sq = left[sq];");
        let p = program(&format!("{HEADER}{source}"));
        assert!(fused_checks(&p).iter().all(Option::is_none));
    }

    #[test]
    fn a_walk_that_may_stop_before_completing_is_not_fused() {
        // At k3 the walk goes on only when the square is empty: the check
        // can succeed where no move completes.
        let source = KEEPER_TURN.replace("k3, k5: ! r0 -> r1;", "");
        let p = program(&format!("{HEADER}{source}"));
        assert!(fused_checks(&p).iter().all(Option::is_none));
    }
}
