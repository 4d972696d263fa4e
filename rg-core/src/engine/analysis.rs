//! Graph facts the searches use: where a visited set is needed, and which
//! nodes can still complete a move.

use std::collections::VecDeque;

use petgraph::graph::{DiGraph, NodeIndex};

use super::program::{Action, CompiledEdge, NodeInfo};

/// Computes [`NodeInfo`] for every node. `end` is the terminal node, whose
/// outgoing edges are never used by move searches.
pub fn node_info(
    nodes: &[String],
    edge_start: &[u32],
    edges: &[CompiledEdge],
    end: u32,
) -> Vec<NodeInfo> {
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

    let move_cyclic = cyclic_or_join(n, |from| {
        edges_of(from)
            .filter(move |e| in_move_graph(from, e))
            .map(|e| e.target as usize)
            .collect()
    });
    let reach_cyclic = cyclic_or_join(n, |from| {
        edges_of(from).map(|e| e.target as usize).collect()
    });
    for k in 0..n {
        info[k].visit_in_move = move_cyclic[k];
        info[k].visit_in_reach = reach_cyclic[k];
        let mut outgoing = edges_of(k);
        info[k].single_step = k != end as usize
            && match (outgoing.next(), outgoing.next()) {
                (Some(e), None) => {
                    !matches!(e.action, Action::AssignAny { .. } | Action::AssignPlayer(_))
                }
                _ => false,
            };
    }
    info
}

/// A join is only worth a visited check when at least this many edges can
/// follow it: re-exploring a short suffix twice is cheaper than hashing the
/// state at every arrival.
const JOIN_REGION: usize = 24;

/// Nodes on a cycle (a non-trivial strongly connected component or a self
/// loop), which need a visited check for the search to terminate, and joins
/// (two or more incoming edges) followed by a large region, where a check
/// avoids repeating much work.
fn cyclic_or_join(n: usize, successors: impl Fn(usize) -> Vec<usize>) -> Vec<bool> {
    let mut graph = DiGraph::<(), ()>::with_capacity(n, n);
    for _ in 0..n {
        graph.add_node(());
    }
    let mut in_degree = vec![0u32; n];
    let mut flagged = vec![false; n];
    for (from, self_loop) in flagged.iter_mut().enumerate() {
        for to in successors(from) {
            graph.add_edge(NodeIndex::new(from), NodeIndex::new(to), ());
            in_degree[to] += 1;
            *self_loop |= to == from;
        }
    }
    for component in petgraph::algo::kosaraju_scc(&graph) {
        if component.len() > 1 {
            for node in component {
                flagged[node.index()] = true;
            }
        }
    }
    let successor_lists: Vec<Vec<usize>> = (0..n).map(&successors).collect();
    for (node, degree) in in_degree.into_iter().enumerate() {
        if degree >= 2 && !flagged[node] && region_exceeds(&successor_lists, node, JOIN_REGION) {
            flagged[node] = true;
        }
    }
    flagged
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
