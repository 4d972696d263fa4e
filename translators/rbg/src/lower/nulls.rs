//! Dropping `coord != null` checks (rbg.md §5.9).
//!
//! With `null` in `Piece`, `board[null] = null` and every vertex map
//! sending `null` to `null`, an off-board position fails every on-test and
//! selector by itself. A check after a lookup can then become a skip when
//! every path from it meets such a test before anything that needs a real
//! vertex: only skips, further lookups and tests that do not read the
//! position may come first — never a tag, modifier, pattern, switch or the
//! end of a sub-automaton.

use std::collections::VecDeque;

use rg_core::ast::Label;

use super::graph::{placeholder, Graph, Kind, END};

pub(crate) fn drop_null_checks(g: &mut Graph) {
    let n = g.node_count();
    let mut unsafe_node = vec![false; n];
    unsafe_node[END as usize] = true;
    for e in &g.edges {
        if let Label::Reach { to, .. } = &e.label {
            if let Some(t) = placeholder(to) {
                if let Some(slot) = unsafe_node.get_mut(t as usize) {
                    *slot = true;
                }
            }
        }
    }
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, e) in g.edges.iter().enumerate() {
        into[e.to as usize].push(k);
        if !matches!(
            e.kind,
            Kind::NullCheck | Kind::CoordTest | Kind::Skip | Kind::CoordLookup | Kind::Test
        ) {
            unsafe_node[e.from as usize] = true;
        }
    }
    let mut queue: VecDeque<u32> = (0..n as u32).filter(|&v| unsafe_node[v as usize]).collect();
    while let Some(v) = queue.pop_front() {
        for &k in &into[v as usize] {
            let e = &g.edges[k];
            let transparent = matches!(e.kind, Kind::Skip | Kind::CoordLookup | Kind::Test);
            if transparent && !unsafe_node[e.from as usize] {
                unsafe_node[e.from as usize] = true;
                queue.push_back(e.from);
            }
        }
    }
    for e in &mut g.edges {
        if e.kind == Kind::NullCheck && !unsafe_node[e.to as usize] {
            e.kind = Kind::Skip;
            e.label = Label::Skip;
        }
    }
}
