//! The rules automaton under construction: integer nodes and labelled edges,
//! each with a coarse [`Kind`] that the later passes (rbg.md §5.9, §5.10)
//! reason about. Everything is emitted through the `GameBuilder` at the end.

use std::collections::VecDeque;

use rg_core::ast::Label;
use rg_core::build::GameBuilder;
use rg_core::builtins;
use rg_core::diag::Span;

pub(crate) type NodeId = u32;

pub(crate) const BEGIN: NodeId = 0;
pub(crate) const END: NodeId = 1;

/// What an edge does, as far as the analyses care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The empty label.
    Skip,
    /// `$ t` or `$$ v`.
    Tag,
    /// `player = p` (a move ends here).
    Switch,
    /// `coord != null` right after a coordinate lookup.
    NullCheck,
    /// `coord = M[coord]` with `M[null] = null`: always legal, keeps `null`.
    CoordLookup,
    /// A test that fails when `coord` is `null` (ons, vertex selectors).
    CoordTest,
    /// A side-effect-free test that does not read `coord` or the board.
    Test,
    /// An always-legal assignment (not to `player`), including `x = T(*)`.
    Assign,
    /// Any other test (reachability, negated selectors).
    Check,
    /// The guards of a modifier's tags: `player == keeper` (no tags) and
    /// `player != keeper` (tags); resolved by `owners::resolve`.
    ExposeKeeper,
    ExposePlayer,
    /// Removed (edges keep their indices until [`Graph::remove_deleted`]).
    Deleted,
}

impl Kind {
    /// Whether an edge of this kind is legal in every state.
    pub(crate) fn always_legal(self) -> bool {
        matches!(
            self,
            Kind::Skip | Kind::Tag | Kind::CoordLookup | Kind::Assign
        )
    }
}

#[derive(Clone, Debug)]
pub(crate) struct IrEdge {
    pub from: NodeId,
    pub to: NodeId,
    pub label: Label,
    pub kind: Kind,
    pub origin: Option<Span>,
}

/// One step of a chain: a label and its kind.
pub(crate) type Step = (Label, Kind);

pub(crate) struct Graph {
    hints: Vec<&'static str>,
    pub edges: Vec<IrEdge>,
    /// Source span new edges are attributed to.
    pub origin: Option<Span>,
    /// Hint for the nodes created from now on.
    pub hint: &'static str,
}

impl Graph {
    pub(crate) fn new() -> Graph {
        Graph {
            hints: rg_core::builtins::RESERVED_NODES.to_vec(),
            edges: Vec::new(),
            origin: None,
            hint: "n",
        }
    }

    pub(crate) fn node_count(&self) -> usize {
        self.hints.len()
    }

    pub(crate) fn node(&mut self) -> NodeId {
        self.hints.push(self.hint);
        (self.hints.len() - 1) as NodeId
    }

    pub(crate) fn node_with_hint(&mut self, hint: &'static str) -> NodeId {
        self.hints.push(hint);
        (self.hints.len() - 1) as NodeId
    }

    pub(crate) fn edge(&mut self, from: NodeId, to: NodeId, label: Label, kind: Kind) {
        // A test or skip from a node to itself changes nothing.
        if from == to
            && matches!(
                kind,
                Kind::Skip | Kind::NullCheck | Kind::CoordTest | Kind::Test | Kind::Check
            )
        {
            return;
        }
        self.edges.push(IrEdge {
            from,
            to,
            label,
            kind,
            origin: self.origin,
        });
    }

    pub(crate) fn skip(&mut self, from: NodeId, to: NodeId) {
        self.edge(from, to, Label::Skip, Kind::Skip);
    }

    /// The steps in a chain from `from` to `to` through fresh nodes (a skip
    /// edge when there are none).
    pub(crate) fn chain(&mut self, from: NodeId, to: NodeId, steps: &[Step]) {
        if steps.is_empty() {
            self.skip(from, to);
            return;
        }
        let mut current = from;
        for (k, (label, kind)) in steps.iter().enumerate() {
            let next = if k + 1 == steps.len() {
                to
            } else {
                self.node()
            };
            self.edge(current, next, label.clone(), *kind);
            current = next;
        }
    }

    pub(crate) fn remove_deleted(&mut self) {
        self.edges.retain(|e| e.kind != Kind::Deleted);
    }

    /// Outgoing edge indices per node.
    pub(crate) fn successors(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.node_count()];
        for (k, e) in self.edges.iter().enumerate() {
            if e.kind != Kind::Deleted {
                out[e.from as usize].push(k);
            }
        }
        out
    }

    /// Whether `to` can be reached from `from` along edges (labels ignored).
    pub(crate) fn connects(&self, successors: &[Vec<usize>], from: NodeId, to: NodeId) -> bool {
        let mut seen = vec![false; self.node_count()];
        let mut queue = VecDeque::from([from]);
        seen[from as usize] = true;
        while let Some(n) = queue.pop_front() {
            if n == to {
                return true;
            }
            for &k in &successors[n as usize] {
                let t = self.edges[k].to;
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    queue.push_back(t);
                }
            }
        }
        false
    }

    /// Whether `to` can be reached from `from` using only the edges from
    /// index `first` on.
    pub(crate) fn connects_within(&self, first: usize, from: NodeId, to: NodeId) -> bool {
        let mut successors: std::collections::HashMap<NodeId, Vec<NodeId>> =
            std::collections::HashMap::new();
        for e in &self.edges[first.min(self.edges.len())..] {
            successors.entry(e.from).or_default().push(e.to);
        }
        let mut seen = std::collections::HashSet::from([from]);
        let mut queue = VecDeque::from([from]);
        while let Some(n) = queue.pop_front() {
            if n == to {
                return true;
            }
            for &t in successors.get(&n).into_iter().flatten() {
                if seen.insert(t) {
                    queue.push_back(t);
                }
            }
        }
        false
    }

    /// Removes the edges that no walk from `begin` can use (following edges
    /// and reachability checks into their sub-automata).
    pub(crate) fn prune_unreachable(&mut self) {
        let successors = self.successors();
        let mut seen = vec![false; self.node_count()];
        let mut queue = VecDeque::from([BEGIN]);
        seen[BEGIN as usize] = true;
        while let Some(n) = queue.pop_front() {
            for &k in &successors[n as usize] {
                let e = &self.edges[k];
                let mut targets = vec![e.to];
                if let Label::Reach { from, .. } = &e.label {
                    targets.extend(placeholder(from));
                }
                for t in targets {
                    if (t as usize) < seen.len() && !seen[t as usize] {
                        seen[t as usize] = true;
                        queue.push_back(t);
                    }
                }
            }
        }
        self.edges.retain(|e| seen[e.from as usize]);
    }

    /// Works around an rg-core engine bug: a reachability search whose
    /// start node begins a chain of single-edge nodes that first changes
    /// the state (e.g. `coord = M[coord]`) and then fails (`coord != null`)
    /// returns without undoing the change, which leaks into the caller's
    /// state. A second (dead) edge from such a start makes the engine
    /// search it like any branching node, with proper undo.
    pub(crate) fn guard_reach_starts(&mut self) {
        let successors = self.successors();
        let mut starts: Vec<(NodeId, NodeId)> = Vec::new();
        for e in &self.edges {
            if let Label::Reach { from, to, .. } = &e.label {
                if let (Some(a), Some(b)) = (placeholder(from), placeholder(to)) {
                    if !starts.contains(&(a, b)) {
                        starts.push((a, b));
                    }
                }
            }
        }
        let mut guarded = Vec::new();
        for (start, target) in starts {
            let mut node = start;
            let mut changed = false;
            let mut steps = 0;
            while node != target && node != END && steps <= successors.len() {
                steps += 1;
                let [k] = successors[node as usize].as_slice() else {
                    break;
                };
                let e = &self.edges[*k];
                if matches!(e.label, Label::AssignAny { .. }) || e.kind == Kind::Switch {
                    break;
                }
                if matches!(e.kind, Kind::Assign | Kind::CoordLookup) {
                    changed = true;
                } else if changed && !e.kind.always_legal() {
                    if !guarded.contains(&start) {
                        guarded.push(start);
                    }
                    break;
                }
                node = e.to;
            }
        }
        for start in guarded {
            let dead = self.node_with_hint("unused");
            self.skip(start, dead);
        }
    }

    /// Whether `end` is reachable from `begin` (labels ignored).
    pub(crate) fn end_reachable(&self) -> bool {
        self.connects(&self.successors(), BEGIN, END)
    }

    /// Final node names, given in order of first use.
    fn name_nodes(&self, builder: &mut GameBuilder) -> Vec<Option<String>> {
        let mut names: Vec<Option<String>> = vec![None; self.node_count()];
        names[BEGIN as usize] = Some(builtins::BEGIN.to_string());
        names[END as usize] = Some(builtins::END.to_string());
        for e in &self.edges {
            let mut used = vec![e.from, e.to];
            if let Label::Reach { from, to, .. } = &e.label {
                used.extend(placeholder(from));
                used.extend(placeholder(to));
            }
            for n in used {
                if let Some(slot) = names.get_mut(n as usize) {
                    if slot.is_none() {
                        *slot = Some(builder.node(self.hints[n as usize]));
                    }
                }
            }
        }
        names
    }
}

/// A reachability label between two graph nodes, written with placeholder
/// names `@<id>` that [`emit`] replaces by the final node names.
pub(crate) fn reach(negated: bool, from: NodeId, to: NodeId) -> Label {
    Label::Reach {
        negated,
        from: format!("@{from}"),
        to: format!("@{to}"),
    }
}

/// The node a placeholder name of [`reach`] stands for.
pub(crate) fn placeholder(name: &str) -> Option<NodeId> {
    name.strip_prefix('@').and_then(|n| n.parse().ok())
}

/// Emits every edge through the builder, with final node names.
pub(crate) fn emit(graph: &Graph, builder: &mut GameBuilder) {
    let names = graph.name_nodes(builder);
    let name_of = |placeholder_name: &str| -> String {
        placeholder(placeholder_name)
            .and_then(|n| names.get(n as usize).cloned().flatten())
            .unwrap_or_else(|| placeholder_name.to_string())
    };
    for e in &graph.edges {
        builder.set_origin(e.origin);
        let label = match &e.label {
            Label::Reach { negated, from, to } => Label::Reach {
                negated: *negated,
                from: name_of(from),
                to: name_of(to),
            },
            other => other.clone(),
        };
        let from = name_of(&format!("@{}", e.from));
        let to = name_of(&format!("@{}", e.to));
        builder.edge(&from, &to, label);
    }
    builder.set_origin(None);
}
