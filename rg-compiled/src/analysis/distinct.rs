//! Branches whose alternatives provably lead to distinct moves.
//!
//! A move is a tag sequence, and two walks with the same tags are one
//! move, so a search must deduplicate completions — unless every branch of
//! its depth-first tree sends its alternatives to disjoint sets of tag
//! sequences: then (by induction on the lowest branch two walks share)
//! distinct walks have distinct tags and completions can simply be
//! counted. Two alternatives of a branch share the tags emitted before it,
//! so they are told apart by the events after it: the tags, or the
//! completion of the move. For each branch and each alternative,
//! [`branch_safety`] collects the first three events its walks can produce
//! in the automaton, with at most one scalar variable `x` (the one the
//! `$$` tags read) followed exactly from its value at the branch through
//! constant maps, comparisons with constants and state slots proven
//! constant (`invariants`); everything else is unknown, and tests on it
//! may pass. The branch is safe for a value of `x` when no two
//! alternatives can produce the same events; only the values `x` may hold
//! there are tried. The generated code tests `x` at the branch (a bitset
//! lookup); when the test fails, completions below that branch are
//! deduplicated by the tags emitted since it.

use rg_core::engine::program::{Action, Code, Op, Operand, Program, Scalar, Space};

use super::{alternatives, Alternative};

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
                let step = ix.key_step();
                self.load(ix.space, ix.base, &[key], &[step])
            }
            Scalar::Code(code) => self.eval_code(code, x),
            Scalar::Access(path) => {
                let keys: Vec<Known> = path.steps.iter().map(|s| self.eval(&s.key, x)).collect();
                let steps: Vec<_> = path
                    .steps
                    .iter()
                    .map(rg_core::engine::program::Step::key_step)
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
        e.read_slots(&mut slots);
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
            v.read_slots(&mut read);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::{node, program, slot, HEADER};

    fn safety(source: &str, at: &str) -> Safety {
        let p = program(source);
        let invariants = crate::invariants::invariants(&p);
        branch_safety(&p, &invariants)[node(&p, at)].clone()
    }

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
