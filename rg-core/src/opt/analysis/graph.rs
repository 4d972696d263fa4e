//! A mutable view of a game's automaton for the structural passes: edges
//! indexed by source and target, reachability-check references by node,
//! and the nodes that must keep their identity.
//!
//! Node names are interned to dense ids ([`NodeId`]) so that the indexes
//! are plain vectors: the big games have some 10^5 nodes, and hashing and
//! copying their names dominated the passes' time.

use std::rc::Rc;

use crate::ast::{Edge, Game, Label};
use crate::builtins::RESERVED_NODES;
use crate::fx_hash::FxMap;

/// Edge indices by node name.
pub type EdgesByNode<'g> = FxMap<&'g str, Vec<usize>>;

/// Indices of each node's outgoing and incoming edges in `game.edges`
/// (a read-only view, for passes that rewrite labels in place).
pub fn adjacency(game: &Game) -> (EdgesByNode<'_>, EdgesByNode<'_>) {
    let mut outgoing = EdgesByNode::default();
    let mut incoming = EdgesByNode::default();
    for (k, e) in game.edges.iter().enumerate() {
        outgoing.entry(&e.from).or_default().push(k);
        incoming.entry(&e.to).or_default().push(k);
    }
    (outgoing, incoming)
}

/// A dense index for a node name.
pub type NodeId = u32;

/// The nodes an edge mentions: its ends and its check's ends.
#[derive(Clone, Copy)]
pub struct Ends {
    pub from: NodeId,
    pub to: NodeId,
    pub reach: Option<(NodeId, NodeId)>,
}

/// Dense ids for the nodes a game's edges mention (a read-only view, for
/// passes that only walk the automaton).
pub struct NodeIndex<'g> {
    ids: FxMap<&'g str, NodeId>,
    /// Per edge of the game, in order.
    pub ends: Vec<Ends>,
}

impl<'g> NodeIndex<'g> {
    pub fn new(game: &'g Game) -> NodeIndex<'g> {
        let mut ids: FxMap<&str, NodeId> = FxMap::default();
        let mut id = |name: &'g str| {
            let next = ids.len() as NodeId;
            *ids.entry(name).or_insert(next)
        };
        let ends = game
            .edges
            .iter()
            .map(|e| Ends {
                from: id(&e.from),
                to: id(&e.to),
                reach: match &e.label {
                    Label::Reach { from, to, .. } => Some((id(from), id(to))),
                    _ => None,
                },
            })
            .collect();
        NodeIndex { ids, ends }
    }

    pub fn get(&self, name: &str) -> Option<NodeId> {
        self.ids.get(name).copied()
    }

    /// The number of nodes (ids are below it).
    pub fn count(&self) -> usize {
        self.ids.len()
    }

    /// Edge indices by source node.
    pub fn outgoing(&self) -> Vec<Vec<usize>> {
        self.by_node(|e| e.from)
    }

    /// Edge indices by target node.
    pub fn incoming(&self) -> Vec<Vec<usize>> {
        self.by_node(|e| e.to)
    }

    fn by_node(&self, node: impl Fn(&Ends) -> NodeId) -> Vec<Vec<usize>> {
        let mut lists = vec![Vec::new(); self.count()];
        for (k, e) in self.ends.iter().enumerate() {
            lists[node(e) as usize].push(k);
        }
        lists
    }

    /// The id of each name.
    pub fn into_ids(self) -> FxMap<&'g str, NodeId> {
        self.ids
    }
}

/// Node names ↔ dense ids, for a graph that gains nodes.
#[derive(Default)]
struct NodeIds {
    ids: FxMap<Rc<str>, NodeId>,
    names: Vec<Rc<str>>,
}

impl NodeIds {
    /// The id of `name`, assigned on first sight.
    fn intern(&mut self, name: &str) -> NodeId {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as NodeId;
        let name: Rc<str> = name.into();
        self.names.push(name.clone());
        self.ids.insert(name, id);
        id
    }

    fn get(&self, name: &str) -> Option<NodeId> {
        self.ids.get(name).copied()
    }

    fn name(&self, id: NodeId) -> &str {
        &self.names[id as usize]
    }

    fn len(&self) -> usize {
        self.names.len()
    }
}

/// Edges with adjacency indexes; removed edges stay in place, marked dead,
/// until [`EdgeGraph::into_edges`]. Index lists keep the order in which
/// edges were added to them (removal swaps the last one in), which passes
/// that pick "the first" edge depend on.
pub struct EdgeGraph {
    edges: Vec<Edge>,
    live: Vec<bool>,
    ends: Vec<Ends>,
    nodes: NodeIds,
    /// Edges leaving / entering each node, checks starting / ending at it.
    outgoing: Index,
    incoming: Index,
    starts: Index,
    targets: Index,
    /// Per node id: `begin`, `end` and nodes named by pragmas.
    fixed: Vec<bool>,
}

impl EdgeGraph {
    /// Moves the game's edges into a graph; [`EdgeGraph::into_edges`]
    /// gives them back (in the same order when nothing changed).
    pub fn take(game: &mut Game) -> EdgeGraph {
        let edges = std::mem::take(&mut game.edges);
        let mut g = EdgeGraph {
            live: vec![true; edges.len()],
            ends: Vec::with_capacity(edges.len()),
            nodes: NodeIds::default(),
            outgoing: Index::default(),
            incoming: Index::default(),
            starts: Index::default(),
            targets: Index::default(),
            fixed: Vec::new(),
            edges: Vec::new(),
        };
        for name in RESERVED_NODES {
            let id = g.intern(name);
            g.fixed[id as usize] = true;
        }
        for name in super::pragmas::pragma_nodes(game) {
            let id = g.intern(&name);
            g.fixed[id as usize] = true;
        }
        for (k, e) in edges.iter().enumerate() {
            let ends = g.ends_of(e);
            g.ends.push(ends);
            g.link(k, ends);
        }
        g.edges = edges;
        g
    }

    fn intern(&mut self, name: &str) -> NodeId {
        let id = self.nodes.intern(name);
        if id as usize == self.fixed.len() {
            for index in [
                &mut self.outgoing,
                &mut self.incoming,
                &mut self.starts,
                &mut self.targets,
            ] {
                index.lists.push(Vec::new());
            }
            self.fixed.push(false);
        }
        id
    }

    fn ends_of(&mut self, e: &Edge) -> Ends {
        Ends {
            from: self.intern(&e.from),
            to: self.intern(&e.to),
            reach: match &e.label {
                Label::Reach { from, to, .. } => Some((self.intern(from), self.intern(to))),
                _ => None,
            },
        }
    }

    /// Records edge `k` in the indexes of the nodes it mentions.
    fn link(&mut self, k: usize, ends: Ends) {
        self.outgoing.push(ends.from, k);
        self.incoming.push(ends.to, k);
        if let Some((from, to)) = ends.reach {
            self.starts.push(from, k);
            self.targets.push(to, k);
        }
        self.ends[k] = ends;
    }

    fn unlink(&mut self, k: usize) {
        let ends = self.ends[k];
        self.outgoing.remove(ends.from, k);
        self.incoming.remove(ends.to, k);
        if let Some((from, to)) = ends.reach {
            self.starts.remove(from, k);
            self.targets.remove(to, k);
        }
    }

    pub fn add(&mut self, e: Edge) -> usize {
        let k = self.edges.len();
        let ends = self.ends_of(&e);
        self.ends.push(ends);
        self.link(k, ends);
        self.edges.push(e);
        self.live.push(true);
        k
    }

    /// The number of edge slots (live and removed edges).
    pub fn slots(&self) -> usize {
        self.edges.len()
    }

    pub fn edge(&self, k: usize) -> &Edge {
        assert!(self.live[k], "live edge");
        &self.edges[k]
    }

    /// Removes edge `k` (if still there).
    pub fn remove(&mut self, k: usize) {
        if std::mem::replace(&mut self.live[k], false) {
            self.unlink(k);
        }
    }

    /// Rewrites live edge `k` in place (keeping its position in the output
    /// order); `change` updates the edge and its node ids alike. The edge
    /// goes to the end of its nodes' index lists.
    fn relink(&mut self, k: usize, change: impl FnOnce(&mut Edge, &mut Ends)) {
        self.unlink(k);
        let mut ends = self.ends[k];
        change(&mut self.edges[k], &mut ends);
        self.link(k, ends);
    }

    /// Replaces the label of live edge `k` (its ends stay; a check label
    /// is re-indexed by its start and target).
    pub fn relabel(&mut self, k: usize, label: Label) {
        let reach = match &label {
            Label::Reach { from, to, .. } => Some((self.intern(from), self.intern(to))),
            _ => None,
        };
        self.relink(k, |e, ends| {
            e.label = label;
            ends.reach = reach;
        });
    }

    /// The id of a node name (`None`: never mentioned).
    pub fn id(&self, node: &str) -> Option<NodeId> {
        self.nodes.get(node)
    }

    pub fn name(&self, node: NodeId) -> &str {
        self.nodes.name(node)
    }

    /// The source of live edge `k`.
    pub fn from(&self, k: usize) -> NodeId {
        self.ends[k].from
    }

    /// The target of live edge `k`.
    pub fn to(&self, k: usize) -> NodeId {
        self.ends[k].to
    }

    pub fn leaving(&self, node: NodeId) -> &[usize] {
        &self.outgoing.lists[node as usize]
    }

    pub fn entering(&self, node: NodeId) -> &[usize] {
        &self.incoming.lists[node as usize]
    }

    pub fn is_reach_start(&self, node: NodeId) -> bool {
        !self.starts.lists[node as usize].is_empty()
    }

    pub fn is_reach_target(&self, node: NodeId) -> bool {
        !self.targets.lists[node as usize].is_empty()
    }

    /// `begin`, `end` and pragma-named nodes keep their identity.
    pub fn is_fixed(&self, node: NodeId) -> bool {
        self.fixed[node as usize]
    }

    /// All nodes that have an edge or a reachability reference, in the
    /// order of their first mention.
    pub fn nodes(&self) -> Vec<NodeId> {
        let mut seen = vec![false; self.nodes.len()];
        let mut out = Vec::new();
        for (k, ends) in self.ends.iter().enumerate() {
            if !self.live[k] {
                continue;
            }
            let (start, target) = ends.reach.unzip();
            for n in [Some(ends.from), Some(ends.to), start, target]
                .into_iter()
                .flatten()
            {
                if !std::mem::replace(&mut seen[n as usize], true) {
                    out.push(n);
                }
            }
        }
        out
    }

    /// Makes every edge leaving `old` leave `new` instead.
    pub fn move_leaving(&mut self, old: NodeId, new: NodeId) {
        let name = self.name(new).to_string();
        for k in self.outgoing.lists[old as usize].clone() {
            self.relink(k, |e, ends| {
                e.from.clone_from(&name);
                ends.from = new;
            });
        }
    }

    /// Makes every edge entering `old` enter `new` instead.
    pub fn move_entering(&mut self, old: NodeId, new: NodeId) {
        let name = self.name(new).to_string();
        for k in self.incoming.lists[old as usize].clone() {
            self.relink(k, |e, ends| {
                e.to.clone_from(&name);
                ends.to = new;
            });
        }
    }

    /// Rewrites every reachability check starting at `old` to start at `new`.
    pub fn rename_start(&mut self, old: NodeId, new: NodeId) {
        let name = self.name(new).to_string();
        for k in self.starts.lists[old as usize].clone() {
            self.relink(k, |e, ends| {
                if let (Label::Reach { from, .. }, Some((start, _))) =
                    (&mut e.label, &mut ends.reach)
                {
                    from.clone_from(&name);
                    *start = new;
                }
            });
        }
    }

    /// Rewrites every reachability check ending at `old` to end at `new`.
    pub fn rename_target(&mut self, old: NodeId, new: NodeId) {
        let name = self.name(new).to_string();
        for k in self.targets.lists[old as usize].clone() {
            self.relink(k, |e, ends| {
                if let (Label::Reach { to, .. }, Some((_, target))) =
                    (&mut e.label, &mut ends.reach)
                {
                    to.clone_from(&name);
                    *target = new;
                }
            });
        }
    }

    pub fn into_edges(self) -> Vec<Edge> {
        let mut edges = self.edges;
        let mut live = self.live.into_iter();
        edges.retain(|_| live.next().expect("a flag per edge"));
        edges
    }
}

/// Edge lists by node, with each edge's position in its list so that
/// removal (a swap with the last) needs no search: nodes like `end` can
/// have 10^4 edges.
#[derive(Default)]
struct Index {
    lists: Vec<Vec<usize>>,
    /// By edge slot: its position in the list it is in.
    positions: Vec<usize>,
}

impl Index {
    fn push(&mut self, node: NodeId, k: usize) {
        let list = &mut self.lists[node as usize];
        if k >= self.positions.len() {
            self.positions.resize(k + 1, 0);
        }
        self.positions[k] = list.len();
        list.push(k);
    }

    fn remove(&mut self, node: NodeId, k: usize) {
        let list = &mut self.lists[node as usize];
        let p = self.positions[k];
        list.swap_remove(p);
        if let Some(&moved) = list.get(p) {
            self.positions[moved] = p;
        }
    }
}
