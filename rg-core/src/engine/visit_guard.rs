//! Visited checks that look at one variable first, on the ray loops of
//! board games.
//!
//! A search keeps a visited set on every node of a cycle, so that a walk
//! around it terminates. The cycles of translated board games are rays:
//! `pos = right[pos]; board[pos] == empty; …` back to the start. Each turn
//! of such a loop moves `pos` through constant maps, so the state can only
//! come back when `pos` lies on a cycle of those maps (the `null` square,
//! whose neighbours are `null`); elsewhere the check can never fire and
//! hashing the state for it is wasted. A [`VisitGuard`] names the variable
//! and the values at which the check is needed.
//!
//! Skipping a check that cannot fire changes neither the moves found nor
//! termination: a walk around the loop either keeps the variable outside
//! the maps' cycles, where it cannot repeat a value (so the walk is
//! finite), or reaches them, where the check runs again.

use std::collections::HashMap;

use petgraph::graph::{DiGraph, NodeIndex};

use super::program::{Action, CompiledEdge, KeyTable, Layout, Operand, Scalar, Space};

/// When a visited check at a loop's node is needed: only when the loop's
/// variable holds a value outside `safe`.
#[derive(Clone, Debug)]
pub struct VisitGuard {
    /// The scalar variable that every turn of the loop moves through
    /// constant maps (and nothing else on the loop writes).
    pub slot: u32,
    /// Bit `x` set: with the variable at symbol `x`, the walk around the
    /// loop cannot come back to this node with the same state (`x` lies on
    /// no cycle of the maps), so the check is skipped.
    pub safe: Box<[u64]>,
}

impl VisitGuard {
    /// Whether the visited check can be skipped in state `values`.
    #[inline]
    pub fn skips(&self, values: &[u32]) -> bool {
        let x = values[self.slot as usize];
        self.safe
            .get((x >> 6) as usize)
            .is_some_and(|word| (word >> (x & 63)) & 1 != 0)
    }
}

/// What the analysis needs of a compiled game beyond its automaton.
pub struct Memory<'a> {
    pub pool: &'a [u32],
    pub key_tables: &'a [KeyTable],
    /// Symbols interned so far (every constant value is one of them).
    pub symbol_count: usize,
    /// Base slot and size of every variable.
    pub variables: Vec<(u32, u32)>,
    pub player_slot: u32,
}

/// A read `M[v]` of a constant map of scalars: its pool base, key table
/// and lenient fallback.
type MapRead = (u32, u32, u32);

/// Builds guards, sharing one per (variable, maps).
pub struct Guards<'a> {
    memory: Memory<'a>,
    guards: Vec<VisitGuard>,
    index: HashMap<(u32, Vec<MapRead>), u32>,
}

impl<'a> Guards<'a> {
    pub fn new(memory: Memory<'a>) -> Self {
        Guards {
            memory,
            guards: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// The guard of a simple cycle, given as its edges: some scalar variable
    /// is advanced by a constant map on at least one edge and written by no
    /// other edge. `None` if there is none, or if an edge branches (an
    /// any-assignment: branches that meet again in one state were merged
    /// by the check).
    pub fn for_cycle(&mut self, cycle: &[&CompiledEdge]) -> Option<u32> {
        if cycle
            .iter()
            .any(|e| matches!(e.action, Action::AssignAny { .. }))
        {
            return None;
        }
        let advances: Vec<(u32, MapRead)> =
            cycle.iter().filter_map(|e| advance(&e.action)).collect();
        let slot = advances.iter().map(|&(slot, _)| slot).find(|&slot| {
            cycle.iter().all(|e| {
                advance(&e.action).is_some_and(|(s, _)| s == slot) || !self.writes(&e.action, slot)
            })
        })?;
        let mut maps: Vec<MapRead> = advances
            .iter()
            .filter(|&&(s, _)| s == slot)
            .map(|&(_, map)| map)
            .collect();
        maps.sort_unstable();
        maps.dedup();
        if let Some(&id) = self.index.get(&(slot, maps.clone())) {
            return Some(id);
        }
        let id = self.guards.len() as u32;
        self.guards.push(VisitGuard {
            slot,
            safe: self.safe_values(&maps),
        });
        self.index.insert((slot, maps), id);
        Some(id)
    }

    pub fn into_guards(self) -> Vec<VisitGuard> {
        self.guards
    }

    /// Whether `action` may write slot `slot`.
    fn writes(&self, action: &Action, slot: u32) -> bool {
        match action {
            Action::Assign { target, .. } | Action::AssignAny { target, .. } => {
                // The variable holding the target's base: all of it may be
                // written (an element of a map, or the whole map).
                match self
                    .memory
                    .variables
                    .iter()
                    .find(|&&(b, size)| b <= target.base && target.base < b + size)
                {
                    Some(&(base, size)) => base <= slot && slot < base + size,
                    None => true,
                }
            }
            Action::AssignPlayer(_) => slot == self.memory.player_slot,
            Action::Skip
            | Action::Tag(_)
            | Action::VarTag(_)
            | Action::CompareScalars { .. }
            | Action::Compare { .. }
            | Action::Reach { .. } => false,
        }
    }

    /// The bitset of symbols on no cycle of the graph `x → M(x)` over all
    /// the maps (a key outside a map's key type goes to its lenient
    /// fallback; a value the analysis cannot follow makes `x` unsafe).
    fn safe_values(&self, maps: &[MapRead]) -> Box<[u64]> {
        let n = self.memory.symbol_count;
        let mut graph = DiGraph::<(), ()>::with_capacity(n, n * maps.len());
        for _ in 0..n {
            graph.add_node(());
        }
        let mut unsafe_values = vec![false; n];
        for &(base, table, fallback) in maps {
            let table = &self.memory.key_tables[table as usize];
            for x in 0..n as u32 {
                let y = match table.slot(x) {
                    Some(k) => self.memory.pool[(base + k) as usize],
                    None => fallback,
                };
                if y == u32::MAX {
                    continue; // a strict read fails: the walk ends
                }
                if y == x || y as usize >= n {
                    unsafe_values[x as usize] = true;
                } else {
                    graph.add_edge(NodeIndex::new(x as usize), NodeIndex::new(y as usize), ());
                }
            }
        }
        for component in petgraph::algo::tarjan_scc(&graph) {
            if component.len() > 1 {
                for x in component {
                    unsafe_values[x.index()] = true;
                }
            }
        }
        let mut safe = vec![0u64; n.div_ceil(64)];
        for (x, _) in unsafe_values.iter().enumerate().filter(|(_, &u)| !u) {
            safe[x >> 6] |= 1 << (x & 63);
        }
        safe.into_boxed_slice()
    }
}

/// `v = M[v]` with `v` a scalar variable and `M` a constant map of scalars:
/// the variable's slot and the map.
fn advance(action: &Action) -> Option<(u32, MapRead)> {
    match action {
        Action::Assign {
            target,
            value: Operand::Scalar(Scalar::Indexed(read)),
        } if target.steps.is_empty()
            && *target.layout == Layout::Scalar
            && read.space == Space::Pool
            && read.key_slot == target.base
            && read.stride == 1 =>
        {
            Some((target.base, (read.base, read.table, read.fallback)))
        }
        _ => None,
    }
}
