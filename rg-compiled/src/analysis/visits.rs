//! Visited sets that need less than the state's hash: keyed by one slot
//! in checks that write only it (`small_visits`), keyed by the tag prefix
//! instance and one slot in move searches where nothing else can differ
//! (`small_move_visits`), or skipped while a loop variable advances
//! through constant maps (`loop_guards`).

use rg_core::engine::program::{Action, Op, Operand, Program, Scalar, Space};

use super::{alternatives, Context};

/// What the checks through a node write: the slots every walk of every
/// check whose subgraph holds the node may write (checks restore them).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CheckWrites {
    /// Nothing: the state is the same throughout those checks.
    Nothing,
    /// At most this scalar slot.
    One(u32),
    /// More than one slot, or a map entry.
    Many,
}

impl CheckWrites {
    fn join(self, other: CheckWrites) -> CheckWrites {
        match (self, other) {
            (CheckWrites::Nothing, w) | (w, CheckWrites::Nothing) => w,
            (CheckWrites::One(x), CheckWrites::One(y)) if x == y => CheckWrites::One(x),
            _ => CheckWrites::Many,
        }
    }
}

/// Per node, what the checks whose subgraph holds it write (`None` for
/// nodes in no check).
pub fn check_writes(p: &Program) -> Vec<Option<CheckWrites>> {
    let n = p.nodes.len();
    let scalar: Vec<bool> = {
        let mut scalar = vec![false; p.initial.len()];
        for (_, base, layout) in &p.variables {
            if matches!(**layout, rg_core::engine::program::Layout::Scalar) {
                scalar[*base as usize] = true;
            }
        }
        scalar
    };
    let mut of_node: Vec<Option<CheckWrites>> = vec![None; n];
    for (from, to) in super::check_regions(p) {
        let mut seen = vec![false; n];
        let mut nodes = Vec::new();
        let mut stack = vec![from];
        let mut written = CheckWrites::Nothing;
        while let Some(node) = stack.pop() {
            if std::mem::replace(&mut seen[node as usize], true) {
                continue;
            }
            nodes.push(node);
            // The search ends where it meets its target.
            if node == to {
                continue;
            }
            for e in &p.edges[p.edges_of(node)] {
                stack.push(e.target);
                let write = match &e.action {
                    Action::Assign { target, .. } | Action::AssignAny { target, .. } => {
                        if target.steps.is_empty()
                            && scalar.get(target.base as usize) == Some(&true)
                        {
                            CheckWrites::One(target.base)
                        } else {
                            CheckWrites::Many
                        }
                    }
                    Action::AssignPlayer(_) => CheckWrites::One(p.player_slot),
                    _ => CheckWrites::Nothing,
                };
                written = written.join(write);
            }
        }
        for node in nodes {
            let entry = &mut of_node[node as usize];
            *entry = Some(entry.map_or(written, |w| w.join(written)));
        }
    }
    of_node
}

/// Reachability-search nodes whose visited set can be keyed by one scalar
/// slot's value instead of the state's hash: every check whose subgraph
/// holds the node writes at most that slot (so the rest of the state is
/// the same throughout the check). `Some(slot)` for those nodes.
pub fn small_visits(p: &Program) -> Vec<Option<u32>> {
    check_writes(p)
        .into_iter()
        .enumerate()
        .map(|(k, writes)| match writes {
            _ if !p.node_info[k].visit_in_reach => None,
            // Nothing written: any slot is constant; the player slot will do.
            Some(CheckWrites::Nothing) => Some(p.player_slot),
            Some(CheckWrites::One(x)) => Some(x),
            Some(CheckWrites::Many) | None => None,
        })
        .collect()
}

/// Slots as a bitset, or everything.
#[derive(Clone, PartialEq, Eq)]
struct Slots {
    all: bool,
    bits: Vec<u64>,
}

impl Slots {
    fn none(n: usize) -> Slots {
        Slots {
            all: false,
            bits: vec![0; n.div_ceil(64)],
        }
    }

    fn insert(&mut self, slot: u32) {
        if let Some(w) = self.bits.get_mut((slot / 64) as usize) {
            *w |= 1 << (slot % 64);
        } else {
            self.all = true;
        }
    }

    fn insert_range(&mut self, start: u32, end: u32) {
        for slot in start..end {
            self.insert(slot);
        }
    }

    fn contains_any(&self, slots: &[u32]) -> bool {
        self.all
            || slots.iter().any(|&s| {
                self.bits
                    .get((s / 64) as usize)
                    .is_some_and(|w| (w >> (s % 64)) & 1 != 0)
            })
    }

    /// Adds `other`; whether anything was new.
    fn union(&mut self, other: &Slots) -> bool {
        let mut changed = other.all && !self.all;
        self.all |= other.all;
        for (a, &b) in self.bits.iter_mut().zip(&other.bits) {
            let merged = *a | b;
            changed |= merged != *a;
            *a = merged;
        }
        changed
    }

    /// The one slot in the set, `Some(None)` when empty, `None` when more.
    fn single(&self) -> Option<Option<u32>> {
        if self.all {
            return None;
        }
        let mut found = None;
        for (k, &w) in self.bits.iter().enumerate() {
            if w == 0 {
                continue;
            }
            if w.count_ones() > 1 || found.is_some() {
                return None;
            }
            found = Some(k as u32 * 64 + w.trailing_zeros());
        }
        Some(found)
    }
}

/// Per move-search node: slots written since the last tag after a branch
/// (`post`), slots that may differ between two arrivals with the same tag
/// prefix instance (`differ`), and whether a branch lies behind (`branched`).
#[derive(Clone, PartialEq, Eq)]
struct Since {
    post: Slots,
    differ: Slots,
    branched: bool,
}

/// Most edges `unfailing_move_visits` follows, over all its starts.
const UNFAILING_WORK: usize = 1 << 20;

/// Move-search nodes whose visited check never fails: a check keyed by
/// the tag prefix instance fails only when a walk comes back to the node
/// in the instance it met it in, and an instance is one walk's, from the
/// search's entry or a tracked tag (`tracked`, per target node: a tag into
/// it opens an instance) to the next. So a node reached by at most one
/// path in the instance of every start is checked in vain: no cycle
/// without a tracked tag, no join of two paths, no any-assignment of two
/// symbols on the way (draughts' king captures: each jump is tagged, and
/// the four directions join only across their tags). `visits`: the nodes
/// whose check is made; `entries`: where move searches start. Such checks
/// prune nothing, so dropping them leaves every search as it was (the
/// other checks keep their instances: the last tag before them is still
/// tracked), and no tag need open an instance for them. All `false` past
/// `UNFAILING_WORK` edges.
pub fn unfailing_move_visits(
    p: &Program,
    visits: &[bool],
    tracked: &[bool],
    entries: &[bool],
) -> Vec<bool> {
    let n = p.nodes.len();
    let walked = |node: u32| super::walked(p, node);
    let is_tag = |a: &Action| matches!(a, Action::Tag(_) | Action::VarTag(_));
    // The edges a walk follows within its instance, and whether one makes
    // several walks of one (an any-assignment of several symbols).
    let within = |node: u32| {
        p.edges[p.edges_of(node)].iter().filter(|e| {
            walked(e.target)
                && !matches!(e.action, Action::AssignPlayer(_))
                && !(is_tag(&e.action) && tracked[e.target as usize])
        })
    };
    let fans_out = |a: &Action| matches!(a, Action::AssignAny { symbols, .. } if symbols.len() > 1);
    let mut starts: Vec<u32> = (0..n as u32)
        .filter(|&k| walked(k) && entries[k as usize])
        .collect();
    for node in 0..n as u32 {
        for e in &p.edges[p.edges_of(node)] {
            if walked(node) && walked(e.target) && is_tag(&e.action) && tracked[e.target as usize] {
                starts.push(e.target);
            }
        }
    }
    starts.sort_unstable();
    starts.dedup();
    let mut several = vec![false; n];
    // Per node of the current start's instance: paths to it (at most 2),
    // edges into it not yet counted, and whether it is in the instance.
    let mut paths = vec![0u8; n];
    let mut pending = vec![0usize; n];
    let mut reached = vec![false; n];
    let mut work = 0;
    for &start in &starts {
        let mut instance = vec![start];
        reached[start as usize] = true;
        let mut k = 0;
        while let Some(&node) = instance.get(k) {
            k += 1;
            for e in within(node) {
                work += 1;
                pending[e.target as usize] += 1;
                if !std::mem::replace(&mut reached[e.target as usize], true) {
                    instance.push(e.target);
                }
            }
        }
        if work > UNFAILING_WORK {
            return vec![false; n];
        }
        // Paths counted in topological order; the nodes never ordered are
        // on or after a cycle (the start too, if an edge comes back to it).
        paths[start as usize] = 1;
        let mut ready = Vec::new();
        if pending[start as usize] == 0 {
            ready.push(start);
        }
        while let Some(node) = ready.pop() {
            for e in within(node) {
                let t = e.target as usize;
                let add = if fans_out(&e.action) {
                    2
                } else {
                    paths[node as usize]
                };
                paths[t] = (paths[t] + add).min(2);
                pending[t] -= 1;
                if pending[t] == 0 {
                    ready.push(e.target);
                }
            }
        }
        for &node in &instance {
            let node = node as usize;
            several[node] |= pending[node] > 0 || paths[node] > 1;
            (paths[node], pending[node], reached[node]) = (0, 0, false);
        }
    }
    (0..n).map(|k| visits[k] && !several[k]).collect()
}

/// Move-search nodes with visited sets whose key needs, besides the tag
/// prefix instance (see the runtime's prefix ids: two walks share one only
/// while they share their walk up to the last tag), just one scalar slot:
/// every other slot is the same for two arrivals with the same prefix
/// instance. `Some(slot)` for those nodes.
///
/// A forward analysis from the tags and the search entries: an edge's
/// write makes its slots differ when the written place or value reads a
/// slot that already differs (or it assigns any symbol); at a node several
/// edges enter, arrivals by different routes share the walk up to the
/// branch where they parted, so the slots written after the first branch
/// since the tag may differ too.
pub fn small_move_visits(p: &Program) -> Vec<Option<u32>> {
    let n = p.nodes.len();
    let slots = p.initial.len();
    let none = vec![None; n];
    if slots > 1 << 16 {
        return none;
    }
    let moved = |node: u32| super::walked(p, node);
    let follows = |e: &rg_core::engine::program::CompiledEdge| {
        !matches!(e.action, Action::AssignPlayer(_)) && moved(e.target)
    };
    let mut incoming = vec![0usize; n];
    let mut entries = vec![false; n];
    entries[p.begin as usize] = true;
    for node in 0..n as u32 {
        if !moved(node) {
            continue;
        }
        for e in &p.edges[p.edges_of(node)] {
            if follows(e) {
                incoming[e.target as usize] += 1;
            }
            if matches!(e.action, Action::AssignPlayer(_)) {
                entries[e.target as usize] = true;
            }
        }
    }
    // A search entered at a node also arrives there from its start.
    for (count, &entry) in incoming.iter_mut().zip(&entries) {
        *count += usize::from(entry);
    }
    let variable_of = |slot: u32| {
        p.variables
            .iter()
            .filter(|(_, base, _)| *base <= slot)
            .max_by_key(|(_, base, _)| *base)
            .map(|(_, base, layout)| (*base, *base + layout.size()))
    };
    let fresh = Since {
        post: Slots::none(slots),
        differ: Slots::none(slots),
        branched: false,
    };
    let mut state: Vec<Option<Since>> = vec![None; n];
    let mut work = Vec::new();
    for node in 0..n as u32 {
        if entries[node as usize] && moved(node) {
            state[node as usize] = Some(fresh.clone());
            work.push(node);
        }
    }
    let mut budget: u64 = 20_000_000;
    while let Some(node) = work.pop() {
        let Some(here) = state[node as usize].clone() else {
            continue;
        };
        let cost = p.edges_of(node).len() as u64 * (slots as u64 / 64 + 1);
        if budget < cost {
            return none;
        }
        budget -= cost;
        let branching = !alternatives(p, node).is_empty();
        for e in &p.edges[p.edges_of(node)] {
            if !follows(e) {
                continue;
            }
            let next = if matches!(e.action, Action::Tag(_) | Action::VarTag(_)) {
                fresh.clone()
            } else {
                let post = here.branched || branching;
                let mut next = here.clone();
                next.branched = post;
                let mut written = Slots::none(slots);
                let mut reads = Vec::new();
                match &e.action {
                    Action::Assign { target, value } => {
                        let size = target.layout.size();
                        if target.steps.is_empty() {
                            written.insert_range(target.base, target.base + size);
                        } else if let Some((start, end)) = variable_of(target.base) {
                            written.insert_range(start, end);
                        }
                        for step in &target.steps {
                            step.key.read_slots(&mut reads);
                        }
                        match value {
                            Operand::Scalar(v) => v.read_slots(&mut reads),
                            Operand::Region(r) => {
                                if let Some((start, end)) = variable_of(r.path.base) {
                                    if r.path.space == Space::State {
                                        reads.extend(start..end);
                                    }
                                }
                                for step in &r.path.steps {
                                    step.key.read_slots(&mut reads);
                                }
                            }
                        }
                        // Map reads in the value: the whole map may be read.
                        let mut maps = Vec::new();
                        if let Operand::Scalar(v) = value {
                            state_maps(v, &mut maps);
                        }
                        for base in maps {
                            if let Some((start, end)) = variable_of(base) {
                                reads.extend(start..end);
                            }
                        }
                    }
                    Action::AssignAny { target, .. } => {
                        if target.steps.is_empty() {
                            written.insert_range(target.base, target.base + target.layout.size());
                        } else if let Some((start, end)) = variable_of(target.base) {
                            written.insert_range(start, end);
                        }
                        // The alternatives write different symbols.
                        next.differ.union(&written);
                    }
                    _ => {}
                }
                if here.differ.contains_any(&reads) {
                    next.differ.union(&written);
                }
                if post {
                    next.post.union(&written);
                }
                if incoming[e.target as usize] > 1 {
                    let route = next.post.clone();
                    next.differ.union(&route);
                }
                next
            };
            let t = e.target as usize;
            let changed = match &mut state[t] {
                Some(old) => {
                    let a = old.post.union(&next.post);
                    let b = old.differ.union(&next.differ);
                    let c = next.branched && !old.branched;
                    old.branched |= next.branched;
                    a || b || c
                }
                slot @ None => {
                    *slot = Some(next);
                    true
                }
            };
            if changed {
                work.push(e.target);
            }
        }
    }
    let scalar = |slot: u32| {
        p.variables.iter().any(|(_, base, layout)| {
            *base == slot && matches!(**layout, rg_core::engine::program::Layout::Scalar)
        })
    };
    (0..n)
        .map(|k| {
            if !p.node_info[k].visit_in_move {
                return None;
            }
            let since = state[k].as_ref()?;
            match since.differ.single()? {
                None => Some(p.player_slot),
                Some(slot) if scalar(slot) => Some(slot),
                Some(_) => None,
            }
        })
        .collect()
}

/// Bases of the state maps an expression reads.
fn state_maps(e: &Scalar, out: &mut Vec<u32>) {
    match e {
        Scalar::Symbol(_) | Scalar::Slot(_) => {}
        Scalar::Indexed(ix) => {
            if ix.space == Space::State {
                out.push(ix.base);
            }
        }
        Scalar::Code(code) => {
            for op in &code.ops {
                if let Op::Load {
                    space: Space::State,
                    base,
                    ..
                } = op
                {
                    out.push(*base);
                }
            }
        }
        Scalar::Access(path) => {
            if path.space == Space::State {
                out.push(path.base);
            }
            for step in &path.steps {
                state_maps(&step.key, out);
            }
        }
    }
}

/// Visit guards for the loops rg-core's guards do not cover (loops that
/// branch, or write other variables): for a strongly connected part of a
/// search's graph on which some scalar `x` is written only by steps
/// `x = m[x]` through constant maps and every cycle takes such a step, a
/// node's visited check may be skipped while `x` holds a value on no cycle
/// of those maps — going around brings `x` to a new value each time, so
/// the walk cannot come back to the same state, and once `x` reaches a
/// value on a map cycle the check is made again. Skipping a check never
/// loses a move. Per node of the search kind: `Some((x, safe values))`.
pub fn loop_guards(p: &Program, ctx: Context) -> Vec<Option<(u32, Vec<u64>)>> {
    use petgraph::graph::{DiGraph, NodeIndex};
    let n = p.nodes.len();
    let symbols = p.symbols.len();
    let mut out = vec![None; n];
    let follows = |node: u32, e: &rg_core::engine::program::CompiledEdge| match ctx {
        Context::Move => {
            node != p.end
                && p.node_info[node as usize].can_finish_move
                && p.node_info[e.target as usize].can_finish_move
                && !matches!(e.action, Action::AssignPlayer(_))
        }
        Context::Reach => true,
    };
    let visits = |node: usize| match ctx {
        Context::Move => p.node_info[node].visit_in_move,
        Context::Reach => p.node_info[node].visit_in_reach,
    };
    let mut graph = DiGraph::<u32, usize>::new();
    let ids: Vec<NodeIndex> = (0..n as u32).map(|k| graph.add_node(k)).collect();
    for node in 0..n as u32 {
        for k in p.edges_of(node) {
            if follows(node, &p.edges[k]) {
                graph.add_edge(ids[node as usize], ids[p.edges[k].target as usize], k);
            }
        }
    }
    fn map_step(
        e: &rg_core::engine::program::CompiledEdge,
    ) -> Option<(u32, &rg_core::engine::program::Indexed)> {
        match &e.action {
            Action::Assign {
                target,
                value: Operand::Scalar(Scalar::Indexed(ix)),
            } if target.steps.is_empty()
                && ix.space == Space::Pool
                && ix.key_slot == target.base =>
            {
                Some((target.base, ix))
            }
            _ => None,
        }
    }
    let writes = |e: &rg_core::engine::program::CompiledEdge, x: u32| match &e.action {
        Action::Assign { target, .. } | Action::AssignAny { target, .. } => {
            target.base == x && target.steps.is_empty()
        }
        _ => false,
    };
    let mut source = vec![0u32; p.edges.len()];
    for node in 0..n as u32 {
        for k in p.edges_of(node) {
            source[k] = node;
        }
    }
    for scc in petgraph::algo::tarjan_scc(&graph) {
        let members: std::collections::HashSet<u32> = scc.iter().map(|&i| graph[i]).collect();
        if !members.iter().any(|&m| visits(m as usize)) {
            continue;
        }
        let inner: Vec<usize> = scc
            .iter()
            .flat_map(|&i| graph.edges(i).map(|e| *e.weight()))
            .filter(|&k| members.contains(&p.edges[k].target))
            .collect();
        if inner.is_empty() {
            continue;
        }
        let mut candidates: Vec<u32> = inner
            .iter()
            .filter_map(|&k| map_step(&p.edges[k]).map(|(x, _)| x))
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        for x in candidates {
            // Every write of `x` on the loop is a map step.
            if inner
                .iter()
                .any(|&k| writes(&p.edges[k], x) && map_step(&p.edges[k]).is_none())
            {
                continue;
            }
            // Every cycle takes a step: without the steps, no cycle.
            let mut rest = DiGraph::<(), ()>::new();
            let local: std::collections::HashMap<u32, NodeIndex> =
                members.iter().map(|&m| (m, rest.add_node(()))).collect();
            for &k in &inner {
                let e = &p.edges[k];
                if map_step(e).is_none() {
                    rest.add_edge(local[&source[k]], local[&e.target], ());
                }
            }
            if petgraph::algo::is_cyclic_directed(&rest) {
                continue;
            }
            // The maps' graph on symbols, and the values on its cycles.
            let mut values = DiGraph::<(), ()>::new();
            let vid: Vec<NodeIndex> = (0..symbols).map(|_| values.add_node(())).collect();
            for &k in &inner {
                let Some((_, ix)) = map_step(&p.edges[k]) else {
                    continue;
                };
                let table = &p.key_tables[ix.table as usize];
                for v in 0..symbols as u32 {
                    let image = match table.slot(v) {
                        Some(i) => p.pool.get((ix.base + i * ix.stride) as usize).copied(),
                        None if ix.fallback != u32::MAX => Some(ix.fallback),
                        None => None,
                    };
                    if let Some(w) = image.filter(|&w| (w as usize) < symbols) {
                        values.add_edge(vid[v as usize], vid[w as usize], ());
                    }
                }
            }
            let mut safe = vec![u64::MAX; symbols.div_ceil(64)];
            for cycle in petgraph::algo::tarjan_scc(&values) {
                let on_cycle = cycle.len() > 1 || values.contains_edge(cycle[0], cycle[0]);
                if on_cycle {
                    for v in cycle {
                        let v = v.index();
                        safe[v / 64] &= !(1 << (v % 64));
                    }
                }
            }
            for &m in &members {
                if visits(m as usize) {
                    out[m as usize] = Some((x, safe.clone()));
                }
            }
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::{node, program, slot, HEADER};

    /// A check whose walk writes only `pos` is keyed by `pos`; one that
    /// also writes the board needs the state's hash.
    #[test]
    fn small_visits_need_a_single_written_scalar() {
        let source = format!(
            "{HEADER}
            var board: SquareOrNull -> Piece = {{ :e, null: null }};
            var pos: SquareOrNull = b;
            begin, s: ? r -> r_end;
            s, t: player = one;
            t, end: player = keeper;
            r, r1: pos = right[pos];
            r1, r: board[pos] == e;
            r1, r_end: board[pos] == x;"
        );
        let p = program(&source);
        let small = small_visits(&p);
        let pos = slot(&p, "pos");
        for name in ["r", "r1"] {
            if p.node_info[node(&p, name)].visit_in_reach {
                assert_eq!(small[node(&p, name)], Some(pos), "{name}");
            }
        }
        let writing = source.replace("r1, r: board[pos] == e;", "r1, r: board[pos] = x;");
        let p = program(&writing);
        let small = small_visits(&p);
        assert!(
            (0..p.nodes.len()).all(|k| small[k].is_none()),
            "a board write needs the full state"
        );
    }

    /// A node in a check that writes nothing and in one that writes only
    /// `pos` is in checks that write at most `pos`; a node also in a check
    /// writing the board is not.
    #[test]
    fn check_writes_join_over_the_checks_through_a_node() {
        let source = format!(
            "{HEADER}
            var board: SquareOrNull -> Piece = {{ :e, null: null }};
            var pos: SquareOrNull = b;
            begin, s: ? r -> r_end;
            s, s1: ? q -> r_end;
            s1, t: player = one;
            t, end: player = keeper;
            q, r1: board[pos] == e;
            r, r1: pos = right[pos];
            r1, r_end: board[pos] == x;"
        );
        let p = program(&source);
        let writes = check_writes(&p);
        let pos = slot(&p, "pos");
        assert_eq!(writes[node(&p, "q")], Some(CheckWrites::Nothing));
        assert_eq!(writes[node(&p, "r")], Some(CheckWrites::One(pos)));
        assert_eq!(writes[node(&p, "r1")], Some(CheckWrites::One(pos)));
        assert_eq!(writes[node(&p, "t")], None, "in no check");
        let writing = source.replace("q, r1: board[pos] == e;", "q, r1: board[pos] = e;");
        let p = program(&writing);
        assert_eq!(check_writes(&p)[node(&p, "r1")], Some(CheckWrites::Many));
    }

    /// Move-search visited sets: a ray that only moves `pos` after the
    /// last tag is keyed by `pos`; writing the board at a square that
    /// differs between arrivals makes the board differ.
    #[test]
    fn small_move_visits_follow_what_may_differ() {
        let source = format!(
            "{HEADER}
            var board: SquareOrNull -> Piece = {{ :e, null: null }};
            var pos: SquareOrNull = a;
            begin, s: player = one;
            s, r: $ go;
            r, r1: pos = right[pos];
            r1, r: board[pos] == e;
            r1, u: $$ pos;
            u, end: player = keeper;"
        );
        let p = program(&source);
        let small = small_move_visits(&p);
        let pos = slot(&p, "pos");
        let visited: Vec<usize> = (0..p.nodes.len())
            .filter(|&k| p.node_info[k].visit_in_move && p.node_info[k].can_finish_move)
            .collect();
        assert!(!visited.is_empty(), "the ray has visited sets");
        for &k in &visited {
            assert_eq!(small[k], Some(pos), "{}", p.nodes[k]);
        }
        let writing = source.replace(
            "r1, r: board[pos] == e;",
            "r1, r2: board[pos] == e;\n            r2, r: board[pos] = x;",
        );
        let p = program(&writing);
        let small = small_move_visits(&p);
        assert!(
            (0..p.nodes.len())
                .filter(|&k| p.node_info[k].visit_in_move && p.node_info[k].can_finish_move)
                .all(|k| small[k].is_none()),
            "the board differs between trips around the ray"
        );
    }

    /// A loop that branches and writes the board (reversi's flips) gets a
    /// guard on the square it walks; a loop with a step that does not move
    /// the square, or that sets the square otherwise, gets none.
    #[test]
    fn loop_guards_need_a_step_on_every_cycle() {
        let source = format!(
            "{HEADER}
            var board: SquareOrNull -> Piece = {{ :e, null: null }};
            var pos: SquareOrNull = a;
            begin, s: player = one;
            s, r: pos = Square(*);
            r, r1: board[pos] == e;
            r1, r2: board[pos] = x;
            r2, r: pos = right[pos];
            r1, r3: board[pos] == x;
            r3, r: pos = right[pos];
            r, u: $$ pos;
            u, end: player = keeper;"
        );
        let p = program(&source);
        let guards = loop_guards(&p, Context::Move);
        let pos = slot(&p, "pos");
        let id = |name: &str| p.symbols.iter().position(|n| n == name).expect("symbol");
        let guarded: Vec<usize> = (0..p.nodes.len())
            .filter(|&k| p.node_info[k].visit_in_move && p.node_info[k].can_finish_move)
            .collect();
        assert!(!guarded.is_empty(), "the loop keeps visited sets");
        for &k in &guarded {
            let (x, safe) = guards[k].clone().expect("a guard");
            assert_eq!(x, pos);
            let bit = |v: usize| (safe[v / 64] >> (v % 64)) & 1 != 0;
            assert!(
                bit(id("a")) && bit(id("b")) && bit(id("c")),
                "squares are on no cycle of right[]"
            );
            assert!(!bit(id("null")), "null maps to itself");
        }
        let standing = source.replace("r3, r: pos = right[pos];", "r3, r: ;");
        let p = program(&standing);
        let guards = loop_guards(&p, Context::Move);
        assert!(guards.iter().all(Option::is_none), "a cycle without a step");
        let reset = source.replace("r3, r: pos = right[pos];", "r3, r: pos = a;");
        let p = program(&reset);
        let guards = loop_guards(&p, Context::Move);
        assert!(
            guards.iter().all(Option::is_none),
            "a write that is not a step"
        );
    }
}
