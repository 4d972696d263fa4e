//! The order in which the data-flow solvers visit nodes: a worklist that
//! always hands out the pending node earliest in a depth-first order, so
//! that a node is usually visited after everything flowing into it (once
//! per node where the automaton has no loops, instead of once per path
//! length as in first-in-first-out order).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::graph::{NodeId, NodeIndex};

/// Nodes by priority; a node is pending at most once.
pub struct Worklist {
    /// The priority of each node (a permutation of `0..nodes`).
    priority: Vec<u32>,
    /// The node of each priority.
    node: Vec<NodeId>,
    heap: BinaryHeap<Reverse<u32>>,
    queued: Vec<bool>,
}

/// Which way facts flow.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From `begin` along the edges: nodes come in reverse postorder.
    Forward,
    /// Against the edges: nodes come in postorder.
    Backward,
}

impl Worklist {
    /// An empty worklist for the nodes of `index`, ordered by a depth-first
    /// search from `roots` (then from every node not reached) over the
    /// edges and into the sub-automata of reachability checks.
    pub fn new(index: &NodeIndex, roots: &[NodeId], direction: Direction) -> Worklist {
        let postorder = postorder(index, roots);
        let nodes = postorder.len();
        let node: Vec<NodeId> = match direction {
            Direction::Forward => postorder.into_iter().rev().collect(),
            Direction::Backward => postorder,
        };
        let mut priority = vec![0; nodes];
        for (p, &n) in node.iter().enumerate() {
            priority[n as usize] = p as u32;
        }
        Worklist {
            priority,
            node,
            heap: BinaryHeap::new(),
            queued: vec![false; nodes],
        }
    }

    /// Makes `node` pending (no effect when it already is).
    pub fn push(&mut self, node: NodeId) {
        if !std::mem::replace(&mut self.queued[node as usize], true) {
            self.heap.push(Reverse(self.priority[node as usize]));
        }
    }

    /// The pending node first in the order, no longer pending.
    pub fn pop(&mut self) -> Option<NodeId> {
        let Reverse(p) = self.heap.pop()?;
        let node = self.node[p as usize];
        self.queued[node as usize] = false;
        Some(node)
    }
}

/// The nodes of `index` in depth-first postorder: from each root in turn,
/// then from the remaining nodes in id order.
fn postorder(index: &NodeIndex, roots: &[NodeId]) -> Vec<NodeId> {
    let nodes = index.count();
    let mut successors: Vec<Vec<NodeId>> = vec![Vec::new(); nodes];
    for ends in &index.ends {
        successors[ends.from as usize].push(ends.to);
        if let Some((start, _)) = ends.reach {
            successors[ends.from as usize].push(start);
        }
    }
    let mut order = Vec::with_capacity(nodes);
    let mut seen = vec![false; nodes];
    let mut stack: Vec<(NodeId, usize)> = Vec::new();
    let all = 0..nodes as NodeId;
    for root in roots.iter().copied().chain(all) {
        if std::mem::replace(&mut seen[root as usize], true) {
            continue;
        }
        stack.push((root, 0));
        while let Some((node, next)) = stack.last_mut() {
            match successors[*node as usize].get(*next) {
                Some(&succ) => {
                    *next += 1;
                    if !std::mem::replace(&mut seen[succ as usize], true) {
                        stack.push((succ, 0));
                    }
                }
                None => {
                    order.push(*node);
                    stack.pop();
                }
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_game;

    fn popped(source: &str, direction: Direction) -> Vec<String> {
        let game = parse_game(source).expect("parses");
        let index = NodeIndex::new(&game);
        let begin = index.get("begin").expect("begin");
        let mut list = Worklist::new(&index, &[begin], direction);
        for n in 0..index.count() as NodeId {
            list.push(n);
            list.push(n); // pending once only
        }
        let names = index.into_ids();
        let mut out = Vec::new();
        while let Some(n) = list.pop() {
            let name = names.iter().find(|(_, &id)| id == n).expect("named").0;
            out.push(name.to_string());
        }
        out
    }

    const DIAMOND: &str = "begin, a: ;\nbegin, b: ;\na, c: ;\nb, c: ;\nc, end: ;\n";

    #[test]
    fn forward_order_visits_a_node_after_its_predecessors() {
        let order = popped(DIAMOND, Direction::Forward);
        assert_eq!(order.len(), 5);
        let at = |n: &str| order.iter().position(|x| x == n).expect("listed");
        assert_eq!(at("begin"), 0);
        assert!(at("a") < at("c") && at("b") < at("c") && at("c") < at("end"));
    }

    #[test]
    fn backward_order_visits_a_node_after_its_successors() {
        let order = popped(DIAMOND, Direction::Backward);
        let at = |n: &str| order.iter().position(|x| x == n).expect("listed");
        assert_eq!(at("end"), 0);
        assert!(at("c") < at("a") && at("c") < at("b") && at("begin") == 4);
    }

    #[test]
    fn check_sub_automata_come_after_the_checking_node() {
        let order = popped(
            "begin, x: ? s -> t;\ns, t: ;\nx, end: ;\n",
            Direction::Forward,
        );
        let at = |n: &str| order.iter().position(|x| x == n).expect("listed");
        assert!(at("begin") < at("s") && at("s") < at("t"));
    }
}
