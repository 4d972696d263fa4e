//! Graph facts the searches use: where a visited set is needed (and when
//! it can be skipped, see `visit_guard`), and which nodes can still
//! complete a move.

use std::collections::VecDeque;

use petgraph::graph::{DiGraph, NodeIndex};

use super::program::{Action, CompiledEdge, NodeInfo};
use super::visit_guard::{Guards, Memory, VisitGuard};

/// Computes [`NodeInfo`] for every node, and the visit guards they refer
/// to. `end` is the terminal node, whose outgoing edges are never used by
/// move searches.
pub fn node_info(
    nodes: &[String],
    edge_start: &[u32],
    edges: &[CompiledEdge],
    end: u32,
    memory: Memory,
) -> (Vec<NodeInfo>, Vec<VisitGuard>) {
    let n = nodes.len();
    let mut info = vec![NodeInfo::default(); n];
    let edges_of = |node: usize| {
        (edge_start[node] as usize..edge_start[node + 1] as usize).map(move |k| &edges[k])
    };
    let in_move_graph = |from: usize, e: &CompiledEdge| {
        from != end as usize && !matches!(e.action, Action::AssignPlayer(_))
    };

    // Move searches: nodes that can reach a `player` assignment.
    let mut predecessors: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut queue = VecDeque::new();
    for (from, from_info) in info.iter_mut().enumerate() {
        for e in edges_of(from) {
            if in_move_graph(from, e) {
                predecessors[e.target as usize].push(from as u32);
            } else if from != end as usize && !from_info.can_finish_move {
                from_info.can_finish_move = true;
                queue.push_back(from);
            }
        }
    }
    while let Some(node) = queue.pop_front() {
        for &p in &predecessors[node] {
            if !info[p as usize].can_finish_move {
                info[p as usize].can_finish_move = true;
                queue.push_back(p as usize);
            }
        }
    }

    let move_edges = |from: usize| -> Vec<&CompiledEdge> {
        edges_of(from).filter(|e| in_move_graph(from, e)).collect()
    };
    let reach_edges = |from: usize| -> Vec<&CompiledEdge> { edges_of(from).collect() };
    let move_revisits = Revisits::new(n, move_edges);
    let reach_revisits = Revisits::new(n, reach_edges);
    let mut guards = Guards::new(memory);
    let move_guards = move_revisits.guards(&mut guards, move_edges);
    let reach_guards = reach_revisits.guards(&mut guards, reach_edges);
    for k in 0..n {
        info[k].visit_in_move = move_revisits.flagged[k];
        info[k].visit_in_reach = reach_revisits.flagged[k];
        info[k].move_guard = move_guards[k];
        info[k].reach_guard = reach_guards[k];
        let mut outgoing = edges_of(k);
        let only = match (outgoing.next(), outgoing.next()) {
            (Some(e), None) if k != end as usize => Some(&e.action),
            _ => None,
        };
        info[k].single_step =
            only.is_some_and(|a| !matches!(a, Action::AssignAny { .. } | Action::AssignPlayer(_)));
        info[k].completes = matches!(only, Some(Action::AssignPlayer(_)));
        let count = edges_of(k).count();
        info[k].tests_only = k != end as usize
            && (2..=64).contains(&count)
            && edges_of(k).all(|e| matches!(e.action, Action::CompareScalars { .. }));
    }
    let counts = super::distinct_walks::distinct_walks(edge_start, edges, &info, end);
    for (node_info, counts) in info.iter_mut().zip(counts) {
        node_info.distinct_walks = counts;
    }
    (info, guards.into_guards())
}

/// A join is only worth a visited check when at least this many edges can
/// follow it: re-exploring a short suffix twice is cheaper than hashing the
/// state at every arrival.
const JOIN_REGION: usize = 24;

/// Where a search can arrive twice at a node.
struct Revisits {
    /// Nodes on a cycle (a non-trivial strongly connected component or a
    /// self loop), which need a visited check for the search to terminate,
    /// and joins (two or more incoming edges) followed by a large region,
    /// where a check avoids repeating much work.
    flagged: Vec<bool>,
    /// The cyclic components.
    cycles: Vec<Vec<usize>>,
    /// Per node, its cyclic component (an index into `cycles`).
    cycle_of: Vec<Option<usize>>,
    /// Cycle nodes that are also joins from outside their cycle (entered
    /// by two or more edges from elsewhere, followed by a large region):
    /// their check also merges those entries, so it stays unguarded.
    entry_joins: Vec<bool>,
}

impl Revisits {
    fn new<'e>(n: usize, successors: impl Fn(usize) -> Vec<&'e CompiledEdge>) -> Self {
        let successor_lists: Vec<Vec<usize>> = (0..n)
            .map(|from| successors(from).iter().map(|e| e.target as usize).collect())
            .collect();
        let mut graph = DiGraph::<(), ()>::with_capacity(n, n);
        for _ in 0..n {
            graph.add_node(());
        }
        let mut flagged = vec![false; n];
        let mut cycles = Vec::new();
        let mut cycle_of = vec![None; n];
        for (from, targets) in successor_lists.iter().enumerate() {
            for &to in targets {
                graph.add_edge(NodeIndex::new(from), NodeIndex::new(to), ());
            }
        }
        for component in petgraph::algo::kosaraju_scc(&graph) {
            let node = component[0].index();
            if component.len() > 1 || successor_lists[node].contains(&node) {
                for &m in &component {
                    flagged[m.index()] = true;
                    cycle_of[m.index()] = Some(cycles.len());
                }
                cycles.push(component.iter().map(|m| m.index()).collect());
            }
        }
        // Entries counted from outside each node's cycle (all entries for
        // nodes on none).
        let mut in_degree = vec![0u32; n];
        for (from, targets) in successor_lists.iter().enumerate() {
            for &to in targets {
                if cycle_of[to].is_none() || cycle_of[to] != cycle_of[from] {
                    in_degree[to] += 1;
                }
            }
        }
        let mut entry_joins = vec![false; n];
        for (node, degree) in in_degree.into_iter().enumerate() {
            if degree >= 2 && region_exceeds(&successor_lists, node, JOIN_REGION) {
                if flagged[node] {
                    entry_joins[node] = true;
                } else {
                    flagged[node] = true;
                }
            }
        }
        Revisits {
            flagged,
            cycles,
            cycle_of,
            entry_joins,
        }
    }

    /// The guard of every node on a simple cycle (one edge of each node
    /// stays on the cycle; `for_cycle` refuses any-assignments, so walks
    /// around it cannot branch) that has one.
    fn guards<'e>(
        &self,
        guards: &mut Guards,
        successors: impl Fn(usize) -> Vec<&'e CompiledEdge>,
    ) -> Vec<Option<u32>> {
        let mut node_guards = vec![None; self.flagged.len()];
        for (c, cycle) in self.cycles.iter().enumerate() {
            let cycle_edges: Option<Vec<&CompiledEdge>> = cycle
                .iter()
                .map(|&node| {
                    let inside: Vec<&CompiledEdge> = successors(node)
                        .into_iter()
                        .filter(|e| self.cycle_of[e.target as usize] == Some(c))
                        .collect();
                    (inside.len() == 1).then(|| inside[0])
                })
                .collect();
            let Some(guard) = cycle_edges.and_then(|edges| guards.for_cycle(&edges)) else {
                continue;
            };
            for &node in cycle {
                if !self.entry_joins[node] {
                    node_guards[node] = Some(guard);
                }
            }
        }
        node_guards
    }
}

/// Whether more than `limit` edges are reachable from `start`.
fn region_exceeds(successors: &[Vec<usize>], start: usize, limit: usize) -> bool {
    let mut seen = std::collections::HashSet::from([start]);
    let mut stack = vec![start];
    let mut edges = 0;
    while let Some(n) = stack.pop() {
        for &m in &successors[n] {
            edges += 1;
            if edges > limit {
                return true;
            }
            if seen.insert(m) {
                stack.push(m);
            }
        }
    }
    false
}
