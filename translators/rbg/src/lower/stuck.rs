//! "No legal move ends the game" (rbg.md §5.10(c)).
//!
//! RBG ends the game when the player to move has no legal move; an RG
//! state without moves is merely stuck. So every switch `A -> B: player = P`
//! (and the start, where the keeper moves first) checks that `P` can move:
//! the region `B` reaches without passing another switch is copied with its
//! switches removed and its tags dropped, its switch sources `D1..Dm` all
//! leading to a fresh node `Y`, and the switch becomes
//! `A -> c: ? B' -> Y; c -> B: player = P;` plus
//! `A -> z: ! B' -> Y; z -> end: player = keeper;`.
//! A walk from `B'` to `Y` is exactly a legal move of `P`. When `P` is the
//! keeper, the check is made at the start of the keeper's move instead
//! (`A -> B0: player = keeper; B0 -> B: ? B' -> Y; B0 -> z: ! B' -> Y; z ->
//! end: player = keeper`): keeper moves are not counted, and this keeps
//! the check out of the previous mover's move search.
//!
//! Two shortcuts: with no switch in the region (`m = 0`, e.g. `->> {}`), `P`
//! can never move and the switch enters `end` directly; and when `P` can
//! move in every state — a switch is reachable from `B` along edges that
//! are always legal, or along both sides of complementary tests such as
//! `{? p} ... + {! p} ...` — nothing is checked.

use std::collections::VecDeque;

use rg_core::ast::{Expr, Label};
use rg_core::build::label::switch;

use super::graph::{reach, Graph, IrEdge, Kind, NodeId, END};

/// What a region (the part of the rules reachable without passing a
/// switch) allows.
pub(crate) enum Plan {
    /// A switch is reachable in every state.
    Keep,
    /// No switch is reachable: the mover can never complete a move.
    End,
    /// Check with a copy of the region: the copied nodes and the targets.
    Check {
        keep: Vec<bool>,
        sources: Vec<NodeId>,
    },
}

/// A switch edge (or the start link, a skip from `begin`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Link {
    /// Index into the edges.
    pub edge: usize,
    /// A keeper-to-keeper switch (or the start): it does not end the RG
    /// move, so consecutive keeper moves form one RG keeper move.
    pub soft: bool,
}

/// Applies §5.10(c) to the switch edges `links`.
///
/// Soft links become skips (or checked skips): RBG only requires a unique
/// keeper *completion*, while RG requires every keeper move to reach the
/// same state (rbg.md §5.11), so the keeper's consecutive RBG moves are
/// merged into one RG move, whose end state is the completion.
pub(crate) fn end_when_stuck(g: &mut Graph, links: &[Link]) {
    let regions = Regions::new(g);
    let plans: Vec<Plan> = links
        .iter()
        .map(|link| regions.plan(g, g.edges[link.edge].to))
        .collect();
    let original = g.edges.len();
    for (link, plan) in links.iter().zip(plans) {
        let IrEdge {
            from: a,
            to: b,
            label,
            kind,
            origin,
        } = g.edges[link.edge].clone();
        let (label, kind) = if link.soft {
            (Label::Skip, Kind::Skip)
        } else {
            (label, kind)
        };
        // A hard switch to the keeper.
        let to_keeper = kind == Kind::Switch
            && matches!(&label, Label::Assign { rhs: Expr::Ref(p, _), .. } if p == "keeper");
        let link = link.edge;
        g.origin = origin;
        match plan {
            Plan::Keep => {
                g.edges[link].label = label;
                g.edges[link].kind = kind;
            }
            Plan::End => {
                g.edges[link] = IrEdge {
                    from: a,
                    to: END,
                    label: switch("keeper"),
                    kind: Kind::Switch,
                    origin,
                };
            }
            Plan::Check { keep, sources } if to_keeper => {
                // The keeper's move starts with the check, so it runs once
                // per applied move, not during the mover's move search.
                let (x, y) = copy_region(g, original, &keep, &sources, b);
                let start = g.node_with_hint("n");
                let z = g.node_with_hint("n");
                g.edges[link].to = start;
                g.edge(start, b, reach(false, x, y), Kind::Check);
                g.edge(start, z, reach(true, x, y), Kind::Check);
                g.edge(z, END, switch("keeper"), Kind::Switch);
            }
            Plan::Check { keep, sources } => {
                let (x, y) = copy_region(g, original, &keep, &sources, b);
                let c = g.node_with_hint("n");
                let z = g.node_with_hint("n");
                g.edges[link] = IrEdge {
                    from: a,
                    to: c,
                    label: reach(false, x, y),
                    kind: Kind::Check,
                    origin,
                };
                g.edge(c, b, label.clone(), kind);
                g.edge(a, z, reach(true, x, y), Kind::Check);
                g.edge(z, END, switch("keeper"), Kind::Switch);
            }
        }
    }
    g.origin = None;
}

/// Adjacency without switch edges, for region computations.
pub(crate) struct Regions {
    out: Vec<Vec<usize>>,
    into: Vec<Vec<usize>>,
    switch_sources: Vec<bool>,
}

impl Regions {
    pub(crate) fn new(g: &Graph) -> Regions {
        let n = g.node_count();
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut into: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut switch_sources = vec![false; n];
        for (k, e) in g.edges.iter().enumerate() {
            if e.kind == Kind::Deleted {
                continue;
            }
            if e.kind == Kind::Switch {
                switch_sources[e.from as usize] = true;
            } else {
                out[e.from as usize].push(k);
                into[e.to as usize].push(k);
            }
        }
        Regions {
            out,
            into,
            switch_sources,
        }
    }

    /// What the region from `b` allows.
    pub(crate) fn plan(&self, g: &Graph, b: NodeId) -> Plan {
        plan(g, &self.out, &self.into, &self.switch_sources, b)
    }
}

fn plan(
    g: &Graph,
    out: &[Vec<usize>],
    into: &[Vec<usize>],
    switch_sources: &[bool],
    b: NodeId,
) -> Plan {
    let n = g.node_count();
    // The region: reachable from B without passing a switch.
    let mut region = vec![false; n];
    region[b as usize] = true;
    let mut queue = VecDeque::from([b]);
    let mut sources = Vec::new();
    while let Some(v) = queue.pop_front() {
        if switch_sources[v as usize] {
            sources.push(v);
        }
        for &k in &out[v as usize] {
            let t = g.edges[k].to;
            if !region[t as usize] {
                region[t as usize] = true;
                queue.push_back(t);
            }
        }
    }
    if sources.is_empty() {
        return Plan::End;
    }
    if can_always_move(g, out, into, &region, &sources, b) {
        return Plan::Keep;
    }
    // Copy only what can lead to a switch.
    let mut keep = vec![false; n];
    let mut queue: VecDeque<NodeId> = sources.iter().copied().collect();
    for &s in &sources {
        keep[s as usize] = true;
    }
    while let Some(v) = queue.pop_front() {
        for &k in &into[v as usize] {
            let f = g.edges[k].from;
            if region[f as usize] && !keep[f as usize] {
                keep[f as usize] = true;
                queue.push_back(f);
            }
        }
    }
    Plan::Check { keep, sources }
}

/// Whether a switch is reachable from `b` in every state (a least fixpoint
/// of "some always-legal edge, or both sides of a complementary test, lead
/// to a node that surely reaches a switch").
fn can_always_move(
    g: &Graph,
    out: &[Vec<usize>],
    into: &[Vec<usize>],
    region: &[bool],
    sources: &[NodeId],
    b: NodeId,
) -> bool {
    let mut surely = vec![false; g.node_count()];
    let mut queue: VecDeque<NodeId> = VecDeque::new();
    for &s in sources {
        surely[s as usize] = true;
        queue.push_back(s);
    }
    while let Some(t) = queue.pop_front() {
        if t == b {
            return true;
        }
        for &k in &into[t as usize] {
            let e = &g.edges[k];
            let p = e.from;
            if !region[p as usize] || surely[p as usize] {
                continue;
            }
            let sure = e.kind.always_legal()
                || out[p as usize].iter().any(|&j| {
                    let other = &g.edges[j];
                    surely[other.to as usize] && complementary(&e.label, &other.label)
                });
            if sure {
                surely[p as usize] = true;
                queue.push_back(p);
            }
        }
    }
    surely[b as usize]
}

/// Whether exactly one of two labels holds in every state.
fn complementary(a: &Label, b: &Label) -> bool {
    match (a, b) {
        (
            Label::Reach {
                negated: n1,
                from: f1,
                to: t1,
            },
            Label::Reach {
                negated: n2,
                from: f2,
                to: t2,
            },
        ) => n1 != n2 && f1 == f2 && t1 == t2,
        (
            Label::Compare {
                negated: n1,
                lhs: l1,
                rhs: r1,
            },
            Label::Compare {
                negated: n2,
                lhs: l2,
                rhs: r2,
            },
        ) => n1 != n2 && l1 == l2 && r1 == r2,
        _ => false,
    }
}

/// Copies the kept part of a region (among the first `original` edges):
/// switches removed, tags dropped, every switch source leading to a fresh
/// target. Returns (copy of `b`, target).
pub(crate) fn copy_region(
    g: &mut Graph,
    original: usize,
    keep: &[bool],
    sources: &[NodeId],
    b: NodeId,
) -> (NodeId, NodeId) {
    let mut copy: Vec<Option<NodeId>> = vec![None; keep.len()];
    let mut node = |g: &mut Graph, v: NodeId| -> NodeId {
        match copy[v as usize] {
            Some(c) => c,
            None => {
                let c = g.node_with_hint("can");
                copy[v as usize] = Some(c);
                c
            }
        }
    };
    let x = node(g, b);
    let edges: Vec<IrEdge> = g.edges[..original]
        .iter()
        .filter(|e| {
            // Rewritten switches point to new nodes (beyond `keep`): skipped.
            let kept = |v: NodeId| keep.get(v as usize).copied().unwrap_or(false);
            !matches!(e.kind, Kind::Switch | Kind::Deleted) && kept(e.from) && kept(e.to)
        })
        .cloned()
        .collect();
    for e in edges {
        let from = node(g, e.from);
        let to = node(g, e.to);
        g.origin = e.origin;
        if e.kind == Kind::Tag {
            g.skip(from, to);
        } else {
            g.edge(from, to, e.label, e.kind);
        }
    }
    let y = g.node_with_hint("can");
    for &s in sources {
        let from = node(g, s);
        g.skip(from, y);
    }
    (x, y)
}
