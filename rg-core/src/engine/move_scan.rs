//! Any-assignments whose squares a move search can reject in place.
//!
//! A move search tries `x = T(*)` symbol by symbol: it writes `x` through
//! the undo log, enters the next node, emits its tags and only then meets
//! the test that rejects most squares (breakthrough's
//! `pos = Position(*); $$ pos; board[pos] == mine`). When the way from
//! the assignment to that test is a chain of tags and skips that cannot
//! fail, and the test reads `m[x]` against a side that does not read `x`,
//! the search tests the squares 64 at a time into a bit set and does the
//! full work only for the squares that pass (walking their chain without
//! testing again). A rejected square counts the same steps as before, so
//! step limits and the moves found are unchanged.

use super::program::{Action, CompiledEdge, Indexed, Layout, NodeInfo, Scalar};

/// The longest chain of tags and skips between an any-assignment and its
/// test that a plan covers.
const MAX_CHAIN: usize = 8;

/// How the move search rejects squares of one any-assignment in place.
#[derive(Clone, Debug)]
pub struct MoveScan {
    /// The scalar variable the edge assigns.
    pub slot: u32,
    /// The nodes the search enters for one square, up to and including
    /// the test's node; each counts one step.
    pub chain: Box<[u32]>,
    /// Tags emitted before the test (a square that would pass the tag
    /// limit is left to the full search, which reports it).
    pub tags: usize,
    /// The test's target, where a square that passes goes on.
    pub after: u32,
    /// The test is `m[x] == fixed`, negated when `negated`.
    pub negated: bool,
    pub batch: Batch,
}

/// The test `m[x] == fixed` (or `!=`) of a batched scan.
#[derive(Clone, Debug)]
pub struct Batch {
    /// `m[x]`: its space, base, stride and key table.
    pub read: Indexed,
    /// The side that does not read `x`.
    pub fixed: Scalar,
    /// The edge's symbols are consecutive keys of `m` and `m`'s values
    /// scalars: the squares' values lie side by side in memory.
    pub consecutive: bool,
}

/// The plan of every edge (`None` for most).
pub fn move_scans(
    edge_start: &[u32],
    edges: &[CompiledEdge],
    info: &[NodeInfo],
) -> Box<[Option<Box<MoveScan>>]> {
    edges
        .iter()
        .map(|edge| plan(edge_start, edges, info, edge).map(Box::new))
        .collect()
}

fn plan(
    edge_start: &[u32],
    edges: &[CompiledEdge],
    info: &[NodeInfo],
    edge: &CompiledEdge,
) -> Option<MoveScan> {
    let Action::AssignAny { target, symbols } = &edge.action else {
        return None;
    };
    if !target.steps.is_empty() || *target.layout != Layout::Scalar {
        return None;
    }
    let slot = target.base;
    let mut chain = Vec::new();
    let mut tags = 0;
    let mut node = edge.target;
    while chain.len() < MAX_CHAIN {
        let facts = info[node as usize];
        // Each node must be entered exactly as the full search enters it:
        // no visited set to update, no early refusal, one edge followed
        // inline.
        if !facts.can_finish_move || facts.visit_in_move || !facts.single_step {
            return None;
        }
        chain.push(node);
        let next = &edges[edge_start[node as usize] as usize];
        match &next.action {
            Action::Tag(_) | Action::VarTag(Scalar::Symbol(_) | Scalar::Slot(_)) => tags += 1,
            Action::Skip => {}
            Action::CompareScalars { negated, lhs, rhs } => {
                // (A test of another shape would be evaluated square by
                // square: no cheaper than the search's own when most
                // squares pass.)
                let batch =
                    batch(lhs, rhs, slot, symbols).or_else(|| batch(rhs, lhs, slot, symbols))?;
                return Some(MoveScan {
                    slot,
                    chain: chain.into_boxed_slice(),
                    tags,
                    after: next.target,
                    negated: *negated,
                    batch,
                });
            }
            _ => return None,
        }
        node = next.target;
    }
    None
}

/// Per edge: for a scalar any-assignment whose next node's one edge is a
/// batchable comparison, that comparison's [`Batch`]. A check's scan of
/// this shape (`search::scan_test`) looks for its first passing square
/// in one tight loop.
pub fn check_scan_batches(edge_start: &[u32], edges: &[CompiledEdge]) -> Box<[Option<Box<Batch>>]> {
    edges
        .iter()
        .map(|edge| {
            let Action::AssignAny { target, symbols } = &edge.action else {
                return None;
            };
            let next = edge.target as usize;
            if !target.steps.is_empty() || edge_start[next + 1] - edge_start[next] != 1 {
                return None;
            }
            match &edges[edge_start[next] as usize].action {
                Action::CompareScalars { lhs, rhs, .. } => batch(lhs, rhs, target.base, symbols)
                    .or_else(|| batch(rhs, lhs, target.base, symbols))
                    .map(Box::new),
                _ => None,
            }
        })
        .collect()
}

/// The batch of a test whose `read` side is `m[x]` and whose `fixed`
/// side does not read `x`.
fn batch(read: &Scalar, fixed: &Scalar, slot: u32, symbols: &[u32]) -> Option<Batch> {
    match read {
        Scalar::Indexed(ix) if ix.key_slot == slot && !reads(fixed, slot) => {
            let first = symbols.first().map_or(0, |s| s.wrapping_sub(ix.min));
            // (Wrapping: a symbol below the key table's range is no key.)
            let consecutive = ix.contiguous
                && ix.stride == 1
                && first < ix.count
                && (first as usize + symbols.len()) <= ix.count as usize
                && symbols
                    .iter()
                    .enumerate()
                    .all(|(k, &s)| s.wrapping_sub(ix.min) == first + k as u32);
            Some(Batch {
                read: ix.clone(),
                fixed: fixed.clone(),
                consecutive,
            })
        }
        _ => None,
    }
}

/// Whether the expression reads the scalar slot (directly or as a key;
/// map entries never share a scalar's slot).
fn reads(scalar: &Scalar, slot: u32) -> bool {
    let mut slots = Vec::new();
    scalar.read_slots(&mut slots);
    slots.contains(&slot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;

    fn scans(source: &str) -> Vec<MoveScan> {
        let engine = Engine::from_source(source, Default::default()).expect("game compiles");
        let p = engine.program();
        p.move_scans
            .iter()
            .flatten()
            .map(|s| (**s).clone())
            .collect()
    }

    const GAME: &str = "
        type Player = {one};
        type Score = {0, 1};
        type Square = {a, b, c};
        type Piece = {e, x};
        var board: Square -> Piece = {b: x, :e};
        var at: Square = a;
        var mine: Piece = x;
        begin, pick: player = PlayerOrSystem(one);
        pick, tagged: at = Square(*);
        tagged, test: $$ at;
        test, own: board[at] == mine;
        own, done: $ go;
        done, end: player = PlayerOrSystem(keeper);
    ";

    #[test]
    fn a_tag_then_a_test_is_planned_with_its_fixed_side() {
        let plans = scans(GAME);
        assert_eq!(plans.len(), 1, "{plans:?}");
        let plan = &plans[0];
        assert_eq!(plan.chain.len(), 2);
        assert_eq!(plan.tags, 1);
        assert_eq!(plan.batch.read.key_slot, plan.slot, "board[at] is read");
        assert!(
            matches!(plan.batch.fixed, Scalar::Slot(_)),
            "{:?}",
            plan.batch.fixed
        );
        assert!(plan.batch.consecutive, "a, b, c side by side in board");
        let swapped = scans(&GAME.replace("board[at] == mine", "mine == board[at]"));
        assert_eq!(swapped.len(), 1, "either side may be the read");
        let both = scans(&GAME.replace("board[at] == mine", "board[at] == board[at]"));
        assert!(both.is_empty(), "both sides read at");
    }

    #[test]
    fn a_write_or_a_branch_before_the_test_has_no_plan() {
        let write = GAME.replace("tagged, test: $$ at;", "tagged, test: mine = Piece(x);");
        assert!(scans(&write).is_empty());
        let branch = GAME.replace(
            "tagged, test: $$ at;",
            "tagged, test: $$ at;\n tagged, test: $ other;",
        );
        assert!(scans(&branch).is_empty());
    }

    #[test]
    fn symbols_below_the_board_s_keys_are_not_consecutive() {
        // `z0` is interned before the board's keys: its id lies below
        // their range (an overflow in a checked build before the fix).
        let wide = GAME
            .replace(
                "type Square = {a, b, c};",
                "type Wide = {z0, a, b};\ntype Square = {a, b};",
            )
            .replace("var at: Square = a;", "var at: Wide = a;")
            .replace("at = Square(*)", "at = Wide(*)");
        let plans = scans(&wide);
        assert_eq!(plans.len(), 1, "{plans:?}");
        assert!(!plans[0].batch.consecutive);
    }

    #[test]
    fn a_map_target_has_no_plan() {
        let map = GAME
            .replace(
                "pick, tagged: at = Square(*);",
                "pick, tagged: board[at] = Piece(*);",
            )
            .replace(
                "test, own: board[at] == mine;",
                "test, own: board[a] == mine;",
            );
        assert!(scans(&map).is_empty());
    }
}
