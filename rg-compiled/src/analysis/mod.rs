//! Static facts the generator uses about a program's searches: which
//! nodes reachability searches visit, where the state hash is needed, and
//! (in the submodules) which branches provably lead to distinct moves
//! (`distinct`), which visited sets need less than the state's hash
//! (`visits`), which checks a move search can replace by walking on
//! (`fused_checks`), which slots a move walk may have written
//! (`written`) and which board scans can drop squares whose check fails
//! at its first step (`neighbors`).

use rg_core::engine::program::{Action, Program};

mod distinct;
mod fused_checks;
mod neighbors;
mod visits;
mod written;

pub use distinct::{branch_safety, dead_values, Safety};
pub use fused_checks::{fused_checks, tautologies, FusedCheck};
pub use neighbors::neighbor_filter;
pub use visits::{
    check_writes, loop_guards, small_move_visits, small_visits, unfailing_move_visits, CheckWrites,
};
pub use written::{written_slots, Written};

/// Where a search runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Context {
    Move,
    Reach,
}

impl Context {
    /// The index of per-kind tables (`[move, reach]`).
    pub fn index(self) -> usize {
        match self {
            Context::Move => 0,
            Context::Reach => 1,
        }
    }
}

/// The nodes checks start at (each once, in order).
pub fn check_entries(p: &Program) -> Vec<u32> {
    let mut entries: Vec<u32> = p
        .edges
        .iter()
        .filter_map(|e| match e.action {
            Action::Reach { from, .. } => Some(from),
            _ => None,
        })
        .collect();
    entries.sort_unstable();
    entries.dedup();
    entries
}

/// Every check region `(from, to)` some edge asks, each once, in order.
pub fn check_regions(p: &Program) -> Vec<(u32, u32)> {
    let mut checks: Vec<(u32, u32)> = p
        .edges
        .iter()
        .filter_map(|e| match e.action {
            Action::Reach { from, to, .. } => Some((from, to)),
            _ => None,
        })
        .collect();
    checks.sort_unstable();
    checks.dedup();
    checks
}

/// Whether a move search walks into `node`: it never enters the end, nor
/// a node from which no move can be completed.
pub fn walked(p: &Program, node: u32) -> bool {
    node != p.end && p.node_info[node as usize].can_finish_move
}

/// Nodes a reachability search can visit: graph-reachable from the source
/// of some check.
pub fn reach_nodes(p: &Program) -> Vec<bool> {
    let mut seen = vec![false; p.nodes.len()];
    let mut stack = check_entries(p);
    while let Some(node) = stack.pop() {
        if std::mem::replace(&mut seen[node as usize], true) {
            continue;
        }
        for e in &p.edges[p.edges_of(node)] {
            stack.push(e.target);
        }
    }
    seen
}

/// For each search kind, the nodes below which a visited set may need the
/// state hash (the node keeps one, or a check or successor does; a move
/// search does not follow `player` assignments). Writes into any other
/// node need not update the hash: nothing reads it before they are undone.
/// Nodes with small visited sets (`small`, `small_move`) need no hash,
/// nor check nodes whose visited check is never made (`reach_visits`).
pub fn needs_hash(
    p: &Program,
    reach_visits: &[bool],
    small: &[Option<u32>],
    small_move: &[Option<u32>],
) -> [Vec<bool>; 2] {
    let n = p.nodes.len();
    let mut reach: Vec<bool> = (0..n)
        .map(|k| reach_visits[k] && small[k].is_none())
        .collect();
    let mut moves: Vec<bool> = (0..n)
        .map(|k| p.node_info[k].visit_in_move && small_move[k].is_none())
        .collect();
    loop {
        let mut changed = false;
        for node in 0..n {
            for e in &p.edges[p.edges_of(node as u32)] {
                let check = matches!(e.action, Action::Reach { from, .. } if reach[from as usize]);
                if !reach[node] && (check || reach[e.target as usize]) {
                    reach[node] = true;
                    changed = true;
                }
                let follows = !matches!(e.action, Action::AssignPlayer(_));
                if !moves[node] && (check || (follows && moves[e.target as usize])) {
                    moves[node] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            return [moves, reach];
        }
    }
}

/// One alternative of a branch: an edge, and the symbol for an
/// any-assignment.
#[derive(Clone, Copy)]
struct Alternative {
    edge: usize,
    symbol: Option<u32>,
}

/// The alternatives of a node's move search, when it branches.
fn alternatives(p: &Program, node: u32) -> Vec<Alternative> {
    let edges = p.edges_of(node);
    let any = p.edges[edges.clone()]
        .iter()
        .any(|e| matches!(e.action, Action::AssignAny { .. }));
    // A disjoint node follows at most one of its (other) edges.
    if p.node_info[node as usize].disjoint && !any {
        return Vec::new();
    }
    let mut out = Vec::new();
    for k in edges {
        match &p.edges[k].action {
            Action::AssignAny { symbols, .. } => {
                out.extend(symbols.iter().map(|&s| Alternative {
                    edge: k,
                    symbol: Some(s),
                }));
            }
            _ => out.push(Alternative {
                edge: k,
                symbol: None,
            }),
        }
    }
    if out.len() < 2 {
        out.clear();
    }
    out
}
