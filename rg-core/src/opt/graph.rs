//! A mutable view of a game's automaton for the structural passes: edges
//! indexed by source and target, reachability-check references by node,
//! and the nodes that must keep their identity.

use std::collections::{HashMap, HashSet};

use crate::ast::{Edge, Game, Label};
use crate::builtins::{BEGIN, END};

/// Edge indices by node name.
pub type EdgesByNode<'g> = HashMap<&'g str, Vec<usize>>;

/// Indices of each node's outgoing and incoming edges in `game.edges`
/// (a read-only view, for passes that rewrite labels in place).
pub fn adjacency(game: &Game) -> (EdgesByNode<'_>, EdgesByNode<'_>) {
    let mut outgoing = EdgesByNode::new();
    let mut incoming = EdgesByNode::new();
    for (k, e) in game.edges.iter().enumerate() {
        outgoing.entry(&e.from).or_default().push(k);
        incoming.entry(&e.to).or_default().push(k);
    }
    (outgoing, incoming)
}

/// Edges with adjacency indexes; removed edges leave `None` holes until
/// [`EdgeGraph::into_edges`].
pub struct EdgeGraph {
    pub edges: Vec<Option<Edge>>,
    pub outgoing: HashMap<String, Vec<usize>>,
    pub incoming: HashMap<String, Vec<usize>>,
    /// Edges whose label is a reachability check starting / ending at a node.
    pub starts: HashMap<String, Vec<usize>>,
    pub targets: HashMap<String, Vec<usize>>,
    /// Nodes named by pragmas.
    pub pinned: HashSet<String>,
}

impl EdgeGraph {
    pub fn new(game: &Game) -> EdgeGraph {
        let mut g = EdgeGraph {
            edges: Vec::with_capacity(game.edges.len()),
            outgoing: HashMap::new(),
            incoming: HashMap::new(),
            starts: HashMap::new(),
            targets: HashMap::new(),
            pinned: super::pragma_nodes(game),
        };
        for e in &game.edges {
            g.add(e.clone());
        }
        g
    }

    pub fn add(&mut self, e: Edge) -> usize {
        let k = self.edges.len();
        self.outgoing.entry(e.from.clone()).or_default().push(k);
        self.incoming.entry(e.to.clone()).or_default().push(k);
        if let Label::Reach { from, to, .. } = &e.label {
            self.starts.entry(from.clone()).or_default().push(k);
            self.targets.entry(to.clone()).or_default().push(k);
        }
        self.edges.push(Some(e));
        k
    }

    pub fn edge(&self, k: usize) -> &Edge {
        self.edges[k].as_ref().expect("live edge")
    }

    pub fn remove(&mut self, k: usize) -> Option<Edge> {
        let e = self.edges[k].take()?;
        remove_index(&mut self.outgoing, &e.from, k);
        remove_index(&mut self.incoming, &e.to, k);
        if let Label::Reach { from, to, .. } = &e.label {
            remove_index(&mut self.starts, from, k);
            remove_index(&mut self.targets, to, k);
        }
        Some(e)
    }

    /// Replaces edge `k` (keeping its position in the output order).
    pub fn replace(&mut self, k: usize, e: Edge) {
        self.remove(k);
        self.outgoing.entry(e.from.clone()).or_default().push(k);
        self.incoming.entry(e.to.clone()).or_default().push(k);
        if let Label::Reach { from, to, .. } = &e.label {
            self.starts.entry(from.clone()).or_default().push(k);
            self.targets.entry(to.clone()).or_default().push(k);
        }
        self.edges[k] = Some(e);
    }

    pub fn leaving(&self, node: &str) -> &[usize] {
        self.outgoing.get(node).map_or(&[], Vec::as_slice)
    }

    pub fn entering(&self, node: &str) -> &[usize] {
        self.incoming.get(node).map_or(&[], Vec::as_slice)
    }

    pub fn is_reach_start(&self, node: &str) -> bool {
        self.starts.get(node).is_some_and(|v| !v.is_empty())
    }

    pub fn is_reach_target(&self, node: &str) -> bool {
        self.targets.get(node).is_some_and(|v| !v.is_empty())
    }

    /// `begin`, `end` and pragma-named nodes keep their identity.
    pub fn is_fixed(&self, node: &str) -> bool {
        node == BEGIN || node == END || self.pinned.contains(node)
    }

    /// All node names that have an edge or a reachability reference.
    pub fn nodes(&self) -> Vec<String> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for e in self.edges.iter().flatten() {
            let mut names = vec![&e.from, &e.to];
            if let Label::Reach { from, to, .. } = &e.label {
                names.push(from);
                names.push(to);
            }
            for n in names {
                if seen.insert(n.clone()) {
                    out.push(n.clone());
                }
            }
        }
        out
    }

    /// Makes every edge leaving `old` leave `new` instead.
    pub fn move_leaving(&mut self, old: &str, new: &str) {
        for k in self.leaving(old).to_vec() {
            let mut e = self.edge(k).clone();
            e.from = new.to_string();
            self.replace(k, e);
        }
    }

    /// Makes every edge entering `old` enter `new` instead.
    pub fn move_entering(&mut self, old: &str, new: &str) {
        for k in self.entering(old).to_vec() {
            let mut e = self.edge(k).clone();
            e.to = new.to_string();
            self.replace(k, e);
        }
    }

    /// Rewrites every reachability check starting at `old` to start at `new`.
    pub fn rename_start(&mut self, old: &str, new: &str) {
        for k in self.starts.get(old).cloned().unwrap_or_default() {
            let mut e = self.edge(k).clone();
            if let Label::Reach { from, .. } = &mut e.label {
                *from = new.to_string();
            }
            self.replace(k, e);
        }
    }

    /// Rewrites every reachability check ending at `old` to end at `new`.
    pub fn rename_target(&mut self, old: &str, new: &str) {
        for k in self.targets.get(old).cloned().unwrap_or_default() {
            let mut e = self.edge(k).clone();
            if let Label::Reach { to, .. } = &mut e.label {
                *to = new.to_string();
            }
            self.replace(k, e);
        }
    }

    pub fn into_edges(self) -> Vec<Edge> {
        self.edges.into_iter().flatten().collect()
    }
}

fn remove_index(index: &mut HashMap<String, Vec<usize>>, key: &str, k: usize) {
    if let Some(list) = index.get_mut(key) {
        if let Some(p) = list.iter().position(|&x| x == k) {
            list.swap_remove(p);
        }
    }
}
