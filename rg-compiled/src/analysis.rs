//! Static facts the generator uses: which writes must keep the state hash
//! current, which nodes reachability searches visit, and which branches
//! of a move search provably lead to distinct tag sequences.
//!
//! **Distinct branches.** A move is a tag sequence, and two walks with the
//! same tags are one move, so a search must deduplicate completions —
//! unless every branch of its depth-first tree sends its alternatives to
//! disjoint sets of tag sequences: then (by induction on the lowest
//! branch two walks share) distinct walks have distinct tags and
//! completions can simply be counted. Two alternatives of a branch share
//! the tags emitted before it, so they are told apart by the *first* event
//! after it: the first tag, or the completion of the move without a tag.
//! For each branch and each alternative, [`branch_safety`] collects the
//! first events reachable in the automaton, with at most one scalar
//! variable `x` (the one the first `$$` tags read) followed exactly from
//! its value at the branch through constant maps and comparisons with
//! constants; everything else is unknown, tests on it may pass. The
//! branch is safe for a value of `x` when no two alternatives can produce
//! the same first event. The generated code tests `x` at the branch (a
//! bitset lookup); when the test fails, completions below that branch are
//! deduplicated by the tags emitted since it.

use rg_core::engine::program::{Action, Code, Op, Operand, Program, Scalar, Space};

/// Whether the alternatives of a branch lead to distinct tag sequences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Safety {
    /// Not a branch, or proven for every state.
    Always,
    /// No proof: completions below are deduplicated.
    Never,
    /// Proven when scalar slot `slot` holds a symbol whose bit is set.
    When { slot: u32, safe: Vec<u64> },
}

/// Where a search runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Context {
    Move,
    Reach,
}

/// Nodes a reachability search can visit: graph-reachable from the source
/// of some check.
pub fn reach_nodes(p: &Program) -> Vec<bool> {
    let mut seen = vec![false; p.nodes.len()];
    let mut stack: Vec<u32> = p
        .edges
        .iter()
        .filter_map(|e| match e.action {
            Action::Reach { from, .. } => Some(from),
            _ => None,
        })
        .collect();
    while let Some(node) = stack.pop() {
        if std::mem::replace(&mut seen[node as usize], true) {
            continue;
        }
        for e in &p.edges[p.edges_of(node)] {
            stack.push(e.target);
        }
    }
    seen
}

/// Reachability-search nodes whose visited set can be keyed by one scalar
/// slot's value instead of the state's hash: every check whose subgraph
/// holds the node writes at most that slot (so the rest of the state is
/// the same throughout the check). `Some(slot)` for those nodes.
pub fn small_visits(p: &Program) -> Vec<Option<u32>> {
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
    // Per node: None = not yet constrained, Some(Some(x)) = slot x,
    // Some(None) = no single slot.
    let mut slot_of: Vec<Option<Option<u32>>> = vec![None; n];
    let mut checks: Vec<(u32, u32)> = p
        .edges
        .iter()
        .filter_map(|e| match e.action {
            Action::Reach { from, to, .. } => Some((from, to)),
            _ => None,
        })
        .collect();
    checks.sort_unstable();
    checks.dedup();
    for (from, to) in checks {
        let mut seen = vec![false; n];
        let mut nodes = Vec::new();
        let mut stack = vec![from];
        // The one slot written, or None when something else is written.
        let mut written: Option<Option<u32>> = Some(None);
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
                let slot = match &e.action {
                    Action::Assign { target, .. } | Action::AssignAny { target, .. } => {
                        if target.steps.is_empty()
                            && scalar.get(target.base as usize) == Some(&true)
                        {
                            Some(target.base)
                        } else {
                            written = None;
                            continue;
                        }
                    }
                    Action::AssignPlayer(_) => Some(p.player_slot),
                    _ => None,
                };
                if let (Some(slot), Some(w)) = (slot, written) {
                    match w {
                        None => written = Some(Some(slot)),
                        Some(x) if x == slot => {}
                        Some(_) => written = None,
                    }
                }
            }
        }
        // Nothing written: any slot is constant; the player slot will do.
        let key = written.map(|w| w.unwrap_or(p.player_slot));
        for node in nodes {
            let entry = &mut slot_of[node as usize];
            *entry = match *entry {
                None => Some(key),
                Some(previous) if previous == key => Some(previous),
                Some(_) => Some(None),
            };
        }
    }
    (0..n)
        .map(|k| {
            if p.node_info[k].visit_in_reach {
                slot_of[k].flatten()
            } else {
                None
            }
        })
        .collect()
}

/// For each search kind, the nodes below which a visited set may need the
/// state hash (the node keeps one, or a check or successor does; a move
/// search does not follow `player` assignments). Writes into any other
/// node need not update the hash: nothing reads it before they are undone.
/// Nodes with small visited sets (`small`, `small_move`) need no hash.
pub fn needs_hash(
    p: &Program,
    small: &[Option<u32>],
    small_move: &[Option<u32>],
) -> [Vec<bool>; 2] {
    let n = p.nodes.len();
    let mut reach: Vec<bool> = (0..n)
        .map(|k| p.node_info[k].visit_in_reach && small[k].is_none())
        .collect();
    let mut moves: Vec<bool> = (0..n)
        .map(|k| p.node_info[k].visit_in_move && small_move[k].is_none())
        .collect();
    loop {
        let mut changed = false;
        for node in 0..n {
            for e in &p.edges[p.edges_of(node as u32)] {
                let check = matches!(e.action, Action::Reach { from, .. } if reach[from as usize]);
                if !reach[node] && (check || reach[e.target as usize]) {
                    reach[node] = true;
                    changed = true;
                }
                let follows = !matches!(e.action, Action::AssignPlayer(_));
                if !moves[node] && (check || (follows && moves[e.target as usize])) {
                    moves[node] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            return [moves, reach];
        }
    }
}

/// What the walks of an alternative do after the branch: each event is a
/// tag or the completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Event {
    Tag(u32),
    /// A tag whose value the analysis does not know.
    SomeTag,
    /// The move completes without another tag.
    Done,
}

fn conflict(a: Event, b: Event) -> bool {
    match (a, b) {
        (Event::Done, Event::Done) => true,
        (Event::Done, _) | (_, Event::Done) => false,
        (Event::Tag(x), Event::Tag(y)) => x == y,
        _ => true,
    }
}

/// A value known to the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Known {
    Value(u32),
    Unknown,
    /// The walk faults (a key outside a map's key type with no default).
    Invalid,
}

/// One alternative of a branch: an edge, and the symbol for an
/// any-assignment.
#[derive(Clone, Copy)]
struct Alternative {
    edge: usize,
    symbol: Option<u32>,
}

/// The simulation budget (steps over all branches) before the remaining
/// branches are left unproven.
const BUDGET: u64 = 20_000_000;

struct Simulator<'a> {
    p: &'a Program,
    /// State slots that always hold their initial value.
    constant: &'a [bool],
    /// The followed variable.
    x: Option<u32>,
    budget: u64,
    /// Slots read by first `$$` tags whose value was unknown.
    tag_slots: Vec<u32>,
    seen: std::collections::HashSet<(u32, Known, Vec<Event>)>,
}

impl Simulator<'_> {
    fn slot(&mut self, slot: u32, x: Known) -> Known {
        if Some(slot) == self.x {
            x
        } else {
            Known::Unknown
        }
    }

    /// A map read; state entries are known when constant.
    fn load(
        &self,
        space: Space,
        base: u32,
        keys: &[Known],
        steps: &[rg_core::engine::program::KeyStep],
    ) -> Known {
        let mut offset = base;
        for (key, step) in keys.iter().zip(steps) {
            let Known::Value(k) = *key else { return *key };
            match self.p.key_tables[step.table as usize].slot(k) {
                Some(i) => offset += i * step.stride,
                None if step.fallback != u32::MAX => return Known::Value(step.fallback),
                None => return Known::Invalid,
            }
        }
        let o = offset as usize;
        match space {
            Space::Pool => self
                .p
                .pool
                .get(o)
                .map_or(Known::Invalid, |&v| Known::Value(v)),
            Space::State if self.constant.get(o) == Some(&true) => Known::Value(self.p.initial[o]),
            Space::State => Known::Unknown,
        }
    }

    /// The value of a scalar expression with `x` known as given.
    fn eval(&mut self, e: &Scalar, x: Known) -> Known {
        match e {
            Scalar::Symbol(id) => Known::Value(*id),
            Scalar::Slot(slot) => self.slot(*slot, x),
            Scalar::Indexed(ix) => {
                let key = self.slot(ix.key_slot, x);
                let step = rg_core::engine::program::KeyStep {
                    table: ix.table,
                    contiguous: ix.contiguous,
                    min: ix.min,
                    count: ix.count,
                    stride: ix.stride,
                    fallback: ix.fallback,
                };
                self.load(ix.space, ix.base, &[key], &[step])
            }
            Scalar::Code(code) => self.eval_code(code, x),
            Scalar::Access(path) => {
                let keys: Vec<Known> = path.steps.iter().map(|s| self.eval(&s.key, x)).collect();
                let steps: Vec<_> = path
                    .steps
                    .iter()
                    .map(|s| rg_core::engine::program::KeyStep {
                        table: s.table,
                        contiguous: s.contiguous,
                        min: s.min,
                        count: s.count,
                        stride: s.stride,
                        fallback: s.fallback,
                    })
                    .collect();
                self.load(path.space, path.base, &keys, &steps)
            }
        }
    }

    fn eval_code(&mut self, code: &Code, x: Known) -> Known {
        let mut stack: Vec<Known> = Vec::new();
        for op in &code.ops {
            match *op {
                Op::Symbol(id) => stack.push(Known::Value(id)),
                Op::Slot(slot) => {
                    let v = self.slot(slot, x);
                    stack.push(v);
                }
                Op::Load {
                    space,
                    base,
                    first,
                    count,
                } => {
                    let keys = stack.split_off(stack.len().saturating_sub(count as usize));
                    let steps = &code.steps[first as usize..(first + count) as usize];
                    stack.push(self.load(space, base, &keys, steps));
                }
            }
        }
        stack.pop().unwrap_or(Known::Invalid)
    }

    /// Notes the slots a tag expression reads (candidates for `x`).
    fn note_tag_slots(&mut self, e: &Scalar) {
        let mut slots = Vec::new();
        scalar_slots(e, &mut slots);
        for s in slots {
            if !self.tag_slots.contains(&s) {
                self.tag_slots.push(s);
            }
        }
    }

    /// The first `EVENTS` events (fewer when the move completes) of the
    /// walks that take `alt` when `x` holds `value`; `None` when the budget
    /// ran out.
    fn first_events(&mut self, alt: Alternative, value: Known) -> Option<Vec<Vec<Event>>> {
        let p = self.p;
        let mut found: Vec<Vec<Event>> = Vec::new();
        self.seen.clear();
        let mut stack: Vec<(usize, Option<u32>, Known, Vec<Event>)> =
            vec![(alt.edge, alt.symbol, value, Vec::new())];
        while let Some((edge, symbol, x, mut events)) = stack.pop() {
            if self.budget == 0 {
                return None;
            }
            self.budget -= 1;
            let e = &p.edges[edge];
            let mut next = x;
            let event = match &e.action {
                Action::Skip | Action::Compare { .. } | Action::Reach { .. } => None,
                Action::CompareScalars { negated, lhs, rhs } => {
                    let (l, r) = (self.eval(lhs, x), self.eval(rhs, x));
                    match (l, r) {
                        (Known::Invalid, _) | (_, Known::Invalid) => continue,
                        (Known::Value(a), Known::Value(b)) if (a == b) == *negated => continue,
                        _ => None,
                    }
                }
                Action::Tag(t) => Some(Event::Tag(*t)),
                Action::VarTag(v) => match self.eval(v, x) {
                    Known::Value(t) => Some(Event::Tag(t)),
                    Known::Unknown => {
                        self.note_tag_slots(v);
                        Some(Event::SomeTag)
                    }
                    Known::Invalid => continue,
                },
                Action::AssignPlayer(_) => Some(Event::Done),
                Action::Assign { target, value } => {
                    if target.steps.is_empty() && Some(target.base) == self.x {
                        next = match value {
                            Operand::Scalar(v) => self.eval(v, x),
                            Operand::Region(_) => Known::Unknown,
                        };
                        if next == Known::Invalid {
                            continue;
                        }
                    }
                    None
                }
                Action::AssignAny { target, .. } => {
                    if target.steps.is_empty() && Some(target.base) == self.x {
                        next = symbol.map_or(Known::Unknown, Known::Value);
                    }
                    None
                }
            };
            if let Some(event) = event {
                events.push(event);
                if event == Event::Done || events.len() == EVENTS {
                    if !found.contains(&events) {
                        found.push(events);
                    }
                    continue;
                }
            }
            let t = e.target;
            let info = p.node_info[t as usize];
            if t == p.end || !info.can_finish_move || !self.seen.insert((t, next, events.clone())) {
                continue;
            }
            for k in p.edges_of(t) {
                match &p.edges[k].action {
                    Action::AssignAny { target, symbols }
                        if target.steps.is_empty() && Some(target.base) == self.x =>
                    {
                        for &s in symbols {
                            stack.push((k, Some(s), next, events.clone()));
                        }
                    }
                    _ => stack.push((k, None, next, events.clone())),
                }
            }
        }
        Some(found)
    }
}

fn scalar_slots(e: &Scalar, out: &mut Vec<u32>) {
    match e {
        Scalar::Symbol(_) => {}
        Scalar::Slot(s) => out.push(*s),
        Scalar::Indexed(ix) => out.push(ix.key_slot),
        Scalar::Code(code) => {
            for op in &code.ops {
                if let Op::Slot(s) = op {
                    out.push(*s);
                }
            }
        }
        Scalar::Access(path) => {
            for step in &path.steps {
                scalar_slots(&step.key, out);
            }
        }
    }
}

/// The alternatives of a node's move search, when it branches.
fn alternatives(p: &Program, node: u32) -> Vec<Alternative> {
    let edges = p.edges_of(node);
    let any = p.edges[edges.clone()]
        .iter()
        .any(|e| matches!(e.action, Action::AssignAny { .. }));
    // A disjoint node follows at most one of its (other) edges.
    if p.node_info[node as usize].disjoint && !any {
        return Vec::new();
    }
    let mut out = Vec::new();
    for k in edges {
        match &p.edges[k].action {
            Action::AssignAny { symbols, .. } => {
                out.extend(symbols.iter().map(|&s| Alternative {
                    edge: k,
                    symbol: Some(s),
                }));
            }
            _ => out.push(Alternative {
                edge: k,
                symbol: None,
            }),
        }
    }
    if out.len() < 2 {
        out.clear();
    }
    out
}

/// How many first events of each alternative are compared.
const EVENTS: usize = 3;

/// Whether two sequences of first events may belong to the same tags.
fn may_equal(a: &[Event], b: &[Event]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| conflict(x, y))
}

/// Whether some two alternatives' first events may coincide. Sequences of
/// known events are matched through a map; the few with an unknown tag
/// are compared with every sequence of the other alternatives.
fn conflicting(events: &[Vec<Vec<Event>>]) -> bool {
    let mut owner: std::collections::HashMap<&[Event], usize> = std::collections::HashMap::new();
    let mut vague: Vec<(usize, &[Event])> = Vec::new();
    for (i, sequences) in events.iter().enumerate() {
        for seq in sequences {
            if seq.contains(&Event::SomeTag) {
                vague.push((i, seq));
            } else if let Some(&j) = owner.get(seq.as_slice()) {
                if j != i {
                    return true;
                }
            } else {
                owner.insert(seq, i);
            }
        }
    }
    vague.iter().any(|&(i, a)| {
        events
            .iter()
            .enumerate()
            .any(|(j, b)| j != i && b.iter().any(|y| may_equal(a, y)))
    })
}

/// Whether an alternative starts by setting scalar slot `x` to something
/// that does not depend on its previous value.
fn overwrites(p: &Program, alt: Alternative, x: u32) -> bool {
    match &p.edges[alt.edge].action {
        Action::AssignAny { target, .. } => target.steps.is_empty() && target.base == x,
        Action::Assign {
            target,
            value: Operand::Scalar(v),
        } if target.steps.is_empty() && target.base == x => {
            let mut read = Vec::new();
            scalar_slots(v, &mut read);
            !read.contains(&x)
        }
        _ => false,
    }
}

/// The safety of every node's branch in move searches (see the module
/// documentation); nodes that do not branch are `Always`.
pub fn branch_safety(p: &Program, invariants: &crate::invariants::Invariants) -> Vec<Safety> {
    let constant = &invariants.constant[..];
    let mut out = vec![Safety::Always; p.nodes.len()];
    let mut budget = BUDGET;
    for node in 0..p.nodes.len() as u32 {
        let info = p.node_info[node as usize];
        if node == p.end || !info.can_finish_move {
            continue;
        }
        let alts = alternatives(p, node);
        if alts.is_empty() {
            continue;
        }
        out[node as usize] = safety_of(p, constant, invariants, node, &alts, &mut budget);
    }
    out
}

fn safety_of(
    p: &Program,
    constant: &[bool],
    invariants: &crate::invariants::Invariants,
    node: u32,
    alts: &[Alternative],
    budget: &mut u64,
) -> Safety {
    // First with nothing known, which also finds the variable to follow.
    let mut sim = Simulator {
        p,
        constant,
        x: None,
        budget: *budget,
        tag_slots: Vec::new(),
        seen: Default::default(),
    };
    let result = (|| {
        let mut events = Vec::new();
        for &alt in alts {
            events.push(sim.first_events(alt, Known::Unknown)?);
        }
        if !conflicting(&events) {
            return Some(Safety::Always);
        }
        let [x] = sim.tag_slots[..] else {
            return Some(Safety::Never);
        };
        sim.x = Some(x);
        // When every alternative sets `x` first, its value at the branch
        // does not matter.
        if alts.iter().all(|&alt| overwrites(p, alt, x)) {
            let mut events = Vec::new();
            for &alt in alts {
                events.push(sim.first_events(alt, Known::Unknown)?);
            }
            return Some(if conflicting(&events) {
                Safety::Never
            } else {
                Safety::Always
            });
        }
        let symbols = p.symbols.len() as u32;
        let mut safe = vec![0u64; (symbols as usize).div_ceil(64)];
        let mut any = false;
        // Only the values `x` may hold here matter (the others never
        // reach the branch: their bits stay clear).
        let candidates: Vec<u32> = invariants
            .possible(node, x)
            .unwrap_or_else(|| (0..symbols).collect());
        // Safe for every value `x` may hold here: safe.
        let mut all = true;
        for a in candidates {
            let mut events = Vec::new();
            for &alt in alts {
                events.push(sim.first_events(alt, Known::Value(a))?);
            }
            if conflicting(&events) {
                all = false;
            } else {
                safe[(a / 64) as usize] |= 1 << (a % 64);
                any = true;
            }
        }
        Some(if all {
            Safety::Always
        } else if any {
            Safety::When { slot: x, safe }
        } else {
            Safety::Never
        })
    })();
    *budget = sim.budget;
    result.unwrap_or(Safety::Never)
}

/// Values of scalar slot `slot` for which every edge of `node` is a test
/// that fails (reading only that slot, constants and constant state
/// slots): entering the node with such a value leads nowhere, so its
/// visited check can be skipped. A bitset over symbol ids.
pub fn dead_values(p: &Program, constant: &[bool], node: u32, slot: u32) -> Vec<u64> {
    let n = p.symbols.len();
    let mut dead = vec![0u64; n.div_ceil(64)];
    let edges = p.edges_of(node);
    if edges.is_empty() {
        return dead;
    }
    let mut sim = Simulator {
        p,
        constant,
        x: Some(slot),
        budget: u64::MAX,
        tag_slots: Vec::new(),
        seen: Default::default(),
    };
    for a in 0..n as u32 {
        let fails = p.edges[edges.clone()].iter().all(|e| match &e.action {
            Action::CompareScalars { negated, lhs, rhs } => {
                let x = Known::Value(a);
                match (sim.eval(lhs, x), sim.eval(rhs, x)) {
                    (Known::Value(l), Known::Value(r)) => (l == r) == *negated,
                    _ => false,
                }
            }
            _ => false,
        });
        if fails {
            dead[(a / 64) as usize] |= 1 << (a % 64);
        }
    }
    dead
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
    let moved = |node: u32| node != p.end && p.node_info[node as usize].can_finish_move;
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
                            scalar_slots(&step.key, &mut reads);
                        }
                        match value {
                            Operand::Scalar(v) => scalar_slots(v, &mut reads),
                            Operand::Region(r) => {
                                if let Some((start, end)) = variable_of(r.path.base) {
                                    if r.path.space == Space::State {
                                        reads.extend(start..end);
                                    }
                                }
                                for step in &r.path.steps {
                                    scalar_slots(&step.key, &mut reads);
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

#[cfg(test)]
mod tests {
    use super::*;
    use rg_core::engine::{Engine, EngineOptions};

    fn program(source: &str) -> Program {
        match Engine::from_source(source, EngineOptions::default()) {
            Ok(e) => e.program().clone(),
            Err(d) => panic!("{d:?}"),
        }
    }

    fn node(p: &Program, name: &str) -> usize {
        p.nodes.iter().position(|n| n == name).expect("node")
    }

    fn slot(p: &Program, variable: &str) -> u32 {
        p.variables
            .iter()
            .find(|(n, _, _)| n == variable)
            .map(|(_, base, _)| *base)
            .expect("variable")
    }

    fn safety(source: &str, at: &str) -> Safety {
        let p = program(source);
        let invariants = crate::invariants::invariants(&p);
        branch_safety(&p, &invariants)[node(&p, at)].clone()
    }

    const HEADER: &str = "
        type Player = { one };
        type Score = { 0 };
        type Piece = { e, x, null };
        type Square = { a, b, c };
        type SquareOrNull = { null, a, b, c };
        const right: SquareOrNull -> SquareOrNull = { :null, a: b, b: c };
        const left: SquareOrNull -> SquareOrNull = { :null, b: a, c: b };
    ";

    /// Two edges emitting the same tag: the same move twice, so the branch
    /// must be deduplicated.
    #[test]
    fn equal_tags_are_risky() {
        let source = format!(
            "{HEADER}
            begin, s: player = one;
            s, t: $ go;
            s, t: $ go;
            t, end: player = keeper;"
        );
        assert_eq!(safety(&source, "s"), Safety::Never);
    }

    /// An any-assignment whose symbol is the next tag: distinct moves.
    #[test]
    fn chosen_square_as_tag_is_safe() {
        let source = format!(
            "{HEADER}
            var pos: SquareOrNull = a;
            begin, s: player = one;
            s, t: pos = Square(*);
            t, u: $$ pos;
            u, end: player = keeper;"
        );
        assert_eq!(safety(&source, "s"), Safety::Always);
    }

    /// The first tags may coincide (the old square, or a chosen one), the
    /// second ones differ: distinct (reversi's pass against a placement).
    #[test]
    fn second_tag_tells_apart() {
        let source = format!(
            "{HEADER}
            var pos: SquareOrNull = a;
            begin, s: player = one;
            s, t: pos = Square(*);
            t, u: $$ pos;
            u, w: $ place;
            s, v: $$ pos;
            v, w: $ pass;
            w, end: player = keeper;"
        );
        assert_eq!(safety(&source, "s"), Safety::Always);
    }

    /// Stepping right or left from a square gives different squares except
    /// from off the board (`null` both ways): safe once `board[null]`,
    /// never written, stops the off-board walks; without that test only
    /// where the two steps differ.
    #[test]
    fn off_board_walks_end_at_the_constant_entry() {
        let guarded = format!(
            "{HEADER}
            var board: SquareOrNull -> Piece = {{ :e, null: null }};
            var pos: SquareOrNull = b;
            begin, q: player = one;
            q, s: pos = SquareOrNull(*);
            s, t: pos = right[pos];
            s, t: pos = left[pos];
            t, u: board[pos] == e;
            u, v: $$ pos;
            v, end: player = keeper;"
        );
        assert_eq!(safety(&guarded, "s"), Safety::Always);
        let unguarded = guarded.replace("t, u: board[pos] == e;", "t, u: ;");
        match safety(&unguarded, "s") {
            Safety::When { slot: s, safe } => {
                let p = program(&unguarded);
                assert_eq!(s, slot(&p, "pos"));
                let id = |name: &str| p.symbols.iter().position(|n| n == name).expect("symbol");
                let bit = |x: usize| (safe[x / 64] >> (x % 64)) & 1 != 0;
                assert!(bit(id("b")), "from b: c and a differ");
                assert!(bit(id("a")), "from a: b and null differ");
                assert!(!bit(id("null")), "from null: null both ways");
            }
            other => panic!("expected a per-square proof, got {other:?}"),
        }
    }

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

    /// Values for which every edge of a node fails: the off-board square
    /// before `board[pos] == e`.
    #[test]
    fn dead_values_of_a_test_node() {
        let source = format!(
            "{HEADER}
            var board: SquareOrNull -> Piece = {{ :e, null: null }};
            var pos: SquareOrNull = a;
            begin, s: player = one;
            s, t: pos = right[pos];
            t, u: board[pos] == e;
            u, end: player = keeper;"
        );
        let p = program(&source);
        let constant = crate::invariants::invariants(&p).constant;
        let dead = dead_values(&p, &constant, node(&p, "t") as u32, slot(&p, "pos"));
        let id = |name: &str| p.symbols.iter().position(|n| n == name).expect("symbol");
        let bit = |x: usize| (dead[x / 64] >> (x % 64)) & 1 != 0;
        assert!(bit(id("null")), "board[null] is never e");
        assert!(!bit(id("a")), "board[a] may be e");
    }
}
