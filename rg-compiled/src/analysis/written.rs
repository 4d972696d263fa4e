//! Which state slots a move walk may have written when it reaches a node.
//! A sampling search keeps the state of each move it picks; where the
//! walks to a completion write only a few slots (a player choosing a
//! column, or a GDL action, while the keeper's turn updates the board),
//! it keeps those slots instead of copying the whole state.
//!
//! A move search starts at the beginning or where a `player` assignment
//! leads, and writes only through assignment edges; a reachability check
//! restores what it writes before it returns, so its edges are not
//! followed. The sets grow along edges to a fixed point.

use rg_core::engine::program::{Action, Program, Target};

/// The most slots kept one by one; beyond, the whole state is copied.
pub const MAX_KEPT_SLOTS: usize = 32;

/// The slots a move walk may have written on arriving at a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    /// Sorted slots.
    Few(Vec<u32>),
    /// More than [`MAX_KEPT_SLOTS`] (or a quarter of the state).
    Many,
}

impl Written {
    /// Adds `slots`; true if the set grew.
    fn add(&mut self, slots: &[u32], limit: usize) -> bool {
        let Written::Few(set) = self else {
            return false;
        };
        if slots.len() > limit {
            *self = Written::Many;
            return true;
        }
        let before = set.len();
        set.extend_from_slice(slots);
        set.sort_unstable();
        set.dedup();
        if set.len() > limit {
            *self = Written::Many;
            return true;
        }
        set.len() != before
    }
}

/// Per node, the slots written on the way to it from the start of any move
/// search (`None`: no move search reaches it).
pub fn written_slots(p: &Program) -> Vec<Option<Written>> {
    let limit = MAX_KEPT_SLOTS.min(p.initial.len() / 4);
    let mut written: Vec<Option<Written>> = vec![None; p.nodes.len()];
    let mut stack = vec![p.begin];
    for e in &p.edges {
        if matches!(e.action, Action::AssignPlayer(_)) {
            stack.push(e.target);
        }
    }
    for &node in &stack {
        written[node as usize] = Some(Written::Few(Vec::new()));
    }
    while let Some(node) = stack.pop() {
        let Some(here) = written[node as usize].clone() else {
            continue;
        };
        for e in &p.edges[p.edges_of(node)] {
            let mut next = here.clone();
            match &e.action {
                Action::AssignPlayer(_) => continue,
                Action::Assign { target, .. } | Action::AssignAny { target, .. }
                    if next != Written::Many =>
                {
                    next.add(&region(p, target), limit);
                }
                _ => {}
            }
            let there = &mut written[e.target as usize];
            let changed = match there {
                None => {
                    *there = Some(next);
                    true
                }
                Some(old) => match (&next, &*old) {
                    (_, Written::Many) => false,
                    (Written::Many, _) => {
                        *old = Written::Many;
                        true
                    }
                    (Written::Few(more), _) => old.add(more, limit),
                },
            };
            if changed {
                stack.push(e.target);
            }
        }
    }
    written
}

/// The slots an assignment may write: the target's own slots when its
/// place is fixed, else the whole variable it indexes into.
fn region(p: &Program, target: &Target) -> Vec<u32> {
    let (start, size) = if target.steps.is_empty() {
        (target.base, target.layout.size())
    } else {
        p.variables
            .iter()
            .map(|(_, base, layout)| (*base, layout.size()))
            .find(|&(base, size)| base <= target.base && target.base < base + size)
            .unwrap_or((0, p.initial.len() as u32))
    };
    (start..start + size).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::{node, program, slot};

    fn at(p: &Program, name: &str) -> Option<Written> {
        written_slots(p)[node(p, name)].clone()
    }

    const GAME: &str = "
        type Player = { one };
        type Score = { 0, 1 };
        type Col = { a, b, c, d, e, f, g, h };
        var col: Col = a;
        var other: Col = a;
        var board: Col -> Col = { :a };
        var count: Col = a;
        // Unwritten: the state is large enough for 9 slots to be few.
        var pad1: Col -> Col = { :a };
        var pad2: Col -> Col = { :a };
        var pad3: Col -> Col = { :a };
        var pad4: Col -> Col = { :a };
        begin, s: player = one;
        s, t: col = Col(*);
        t, u: ? c0 -> c1;
        c0, c1: other = b;
        u, k: player = keeper;
        k, k1: board[col] = b;
        k1, k2: count = c;
        k2, s: player = one;
        s, end: player = keeper;
    ";

    #[test]
    fn a_choice_writes_its_variable_and_a_check_writes_nothing() {
        let p = program(GAME);
        assert_eq!(at(&p, "u"), Some(Written::Few(vec![slot(&p, "col")])));
        // Where the keeper's walk starts, nothing is written yet.
        assert_eq!(at(&p, "k"), Some(Written::Few(Vec::new())));
    }

    #[test]
    fn an_indexed_write_covers_the_whole_map() {
        let p = program(GAME);
        let board = slot(&p, "board");
        let mut expected: Vec<u32> = (board..board + 8).collect();
        expected.push(slot(&p, "count"));
        expected.sort_unstable();
        let Some(Written::Few(found)) = at(&p, "k2") else {
            panic!("few slots at k2");
        };
        assert_eq!(found, expected);
    }

    #[test]
    fn too_many_slots_are_many() {
        let mut source = String::from(
            "type Player = { one }; type Score = { 0 }; type B = { x, y };
             begin, s0: player = one;",
        );
        for k in 0..40 {
            source.push_str(&format!("var v{k}: B = x; s{k}, s{}: v{k} = y;", k + 1));
        }
        source.push_str("s40, end: player = keeper;");
        let p = program(&source);
        assert_eq!(at(&p, "s40"), Some(Written::Many));
        assert_eq!(at(&p, "s3").map(|w| w != Written::Many), Some(true));
    }
}
