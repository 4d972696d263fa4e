//! Dependency graphs over relations (gdl.md §2.3): an edge from each body
//! relation to the head relation of the rule, negative under `not`.

use std::collections::{HashMap, VecDeque};

use indexmap::IndexMap;
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

use crate::normalize::{NormalLiteral, NormalRule};

/// A relation is keyed by name and arity.
pub type RelationKey = (String, usize);

#[derive(Clone, Copy, Debug)]
pub struct DependencyEdge {
    pub negative: bool,
    /// The normal rule that creates the edge.
    pub rule: usize,
}

/// The relation-level dependency graph.
pub struct RelationGraph {
    pub nodes: IndexMap<RelationKey, NodeIndex>,
    pub graph: DiGraph<RelationKey, DependencyEdge>,
}

impl RelationGraph {
    pub fn build(rules: &[NormalRule]) -> Self {
        let mut graph = DiGraph::new();
        let mut nodes: IndexMap<RelationKey, NodeIndex> = IndexMap::new();
        let mut node = |graph: &mut DiGraph<RelationKey, DependencyEdge>, key: RelationKey| {
            *nodes
                .entry(key.clone())
                .or_insert_with(|| graph.add_node(key))
        };
        for (index, rule) in rules.iter().enumerate() {
            let head = node(&mut graph, key_of(&rule.head));
            for literal in &rule.body {
                let (atom, negative) = match literal {
                    NormalLiteral::Positive(a) => (a, false),
                    NormalLiteral::Negative(a) => (a, true),
                    _ => continue,
                };
                let body = node(&mut graph, key_of(atom));
                graph.add_edge(
                    body,
                    head,
                    DependencyEdge {
                        negative,
                        rule: index,
                    },
                );
            }
        }
        RelationGraph { nodes, graph }
    }

    pub fn node(&self, name: &str, arity: usize) -> Option<NodeIndex> {
        self.nodes.get(&(name.to_string(), arity)).copied()
    }

    pub fn key(&self, node: NodeIndex) -> &RelationKey {
        &self.graph[node]
    }

    /// Strongly connected components, each as a set of node indices, and
    /// the component of every node.
    pub fn components(&self) -> (Vec<Vec<NodeIndex>>, HashMap<NodeIndex, usize>) {
        let sccs = kosaraju_scc(&self.graph);
        let mut component = HashMap::new();
        for (i, scc) in sccs.iter().enumerate() {
            for &n in scc {
                component.insert(n, i);
            }
        }
        (sccs, component)
    }

    /// Nodes from which `target` can be reached (its transitive
    /// dependencies), including `target`.
    pub fn dependencies(&self, target: NodeIndex) -> Vec<bool> {
        let mut seen = vec![false; self.graph.node_count()];
        let mut queue = VecDeque::from([target]);
        seen[target.index()] = true;
        while let Some(n) = queue.pop_front() {
            for e in self.graph.edges_directed(n, petgraph::Direction::Incoming) {
                if !seen[e.source().index()] {
                    seen[e.source().index()] = true;
                    queue.push_back(e.source());
                }
            }
        }
        seen
    }

    /// A shortest dependency path `from → … → to` (relation names), if any.
    pub fn path(&self, from: NodeIndex, to: NodeIndex) -> Option<Vec<NodeIndex>> {
        let mut previous: HashMap<NodeIndex, NodeIndex> = HashMap::new();
        let mut queue = VecDeque::from([from]);
        let mut seen = vec![false; self.graph.node_count()];
        seen[from.index()] = true;
        while let Some(n) = queue.pop_front() {
            if n == to {
                let mut path = vec![to];
                let mut current = to;
                while current != from {
                    current = previous[&current];
                    path.push(current);
                }
                path.reverse();
                return Some(path);
            }
            for e in self.graph.edges(n) {
                let m = e.target();
                if !seen[m.index()] {
                    seen[m.index()] = true;
                    previous.insert(m, n);
                    queue.push_back(m);
                }
            }
        }
        None
    }

    pub fn describe_path(&self, path: &[NodeIndex]) -> String {
        path.iter()
            .map(|&n| self.graph[n].0.as_str())
            .collect::<Vec<_>>()
            .join(" → ")
    }
}

pub fn key_of(atom: &crate::ast::Atom) -> RelationKey {
    (atom.name.clone(), atom.args.len())
}
