//! State slots that no move walk ever writes, so they hold their initial
//! value in every reachable state — typically the off-board entry of an
//! RBG translation's board (`board[null] == null`), which its tests rely
//! on to stop rays at the edge. The distinctness proof (`analysis`) reads
//! these slots' values instead of treating them as unknown.
//!
//! The set is the greatest fixpoint of: assume a set `C` of slots
//! constant; compute, flow-sensitively over the move searches (the edges
//! a search follows, across moves; checks change nothing outside
//! themselves), the symbols each scalar variable may hold at each node,
//! and the same in the checks, each entered with anything (a check reads
//! what it writes itself), refining a variable through the tests it alone
//! decides (`board[coord] == e` keeps only the squares whose board entry
//! may be `e`, and a slot of `C` may only hold its initial value); every
//! map entry some write (of a move or a check) may reach leaves `C`.
//! Repeat until no write reaches `C`: then, by induction over the plays,
//! no slot of `C` ever changes.

use rg_core::engine::program::{
    Action, Code, KeyStep, Op, Operand, Program, Scalar, Space, Step, Target,
};

/// A set of symbols.
#[derive(Clone, PartialEq, Eq)]
struct Symbols(Vec<u64>);

impl Symbols {
    fn empty(n: usize) -> Symbols {
        Symbols(vec![0; n.div_ceil(64)])
    }

    fn all(n: usize) -> Symbols {
        let mut s = Symbols::empty(n);
        for k in 0..n {
            s.insert(k as u32);
        }
        s
    }

    fn one(n: usize, x: u32) -> Symbols {
        let mut s = Symbols::empty(n);
        s.insert(x);
        s
    }

    fn insert(&mut self, x: u32) {
        if let Some(w) = self.0.get_mut((x / 64) as usize) {
            *w |= 1 << (x % 64);
        }
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Adds `other`; whether anything was new.
    fn union(&mut self, other: &Symbols) -> bool {
        let mut changed = false;
        for (a, &b) in self.0.iter_mut().zip(&other.0) {
            let merged = *a | b;
            changed |= merged != *a;
            *a = merged;
        }
        changed
    }

    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            (0..64)
                .filter(move |b| (w >> b) & 1 != 0)
                .map(move |b| (k * 64 + b) as u32)
        })
    }

    fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// Most candidate combinations of keys a read or a write is evaluated
/// for; past it the result is "anything".
const MAX_COMBINATIONS: usize = 4096;
/// Work (node visits times tracked variables) before the analysis gives
/// up and declares nothing constant: for the move searches' passes, and
/// as much again for the checks'.
const BUDGET: u64 = 50_000_000;

struct Analysis<'a> {
    p: &'a Program,
    n: usize,
    /// Dense index of each tracked (scalar variable) slot.
    tracked: Vec<Option<usize>>,
    constant: Vec<bool>,
    /// Work left for the move searches' passes.
    budget: u64,
    /// Work left for the checks' passes (kept apart, so that checks never
    /// cost the moves their analysis).
    check_budget: u64,
}

type Env = Vec<Symbols>;

impl Analysis<'_> {
    /// The symbols state slot `slot` may hold when read through a map.
    fn state_value(&self, env: &Env, slot: u32) -> Symbols {
        match self.tracked.get(slot as usize).copied().flatten() {
            Some(k) => env[k].clone(),
            None if self.constant.get(slot as usize) == Some(&true) => {
                Symbols::one(self.n, self.p.initial[slot as usize])
            }
            None => Symbols::all(self.n),
        }
    }

    /// The offsets `base + Σ slot(key_i) * stride_i` for the key sets, or
    /// `None` past the combination limit. Keys outside a key type give the
    /// step's fallback value instead (`Err`).
    fn offsets(
        &self,
        base: u32,
        keys: &[Symbols],
        steps: &[KeyStep],
    ) -> Option<(Vec<u32>, Vec<u32>)> {
        let mut offsets = vec![base];
        let mut fallbacks = Vec::new();
        for (key, step) in keys.iter().zip(steps) {
            let mut next = Vec::new();
            for &o in &offsets {
                for k in key.iter() {
                    match self.p.key_tables[step.table as usize].slot(k) {
                        Some(i) => next.push(o + i * step.stride),
                        None if step.fallback != u32::MAX => fallbacks.push(step.fallback),
                        None => {}
                    }
                }
            }
            if next.len() > MAX_COMBINATIONS {
                return None;
            }
            offsets = next;
        }
        Some((offsets, fallbacks))
    }

    fn load(
        &self,
        env: &Env,
        space: Space,
        base: u32,
        keys: &[Symbols],
        steps: &[KeyStep],
    ) -> Symbols {
        let Some((offsets, fallbacks)) = self.offsets(base, keys, steps) else {
            return Symbols::all(self.n);
        };
        let mut out = Symbols::empty(self.n);
        for f in fallbacks {
            out.insert(f);
        }
        for o in offsets {
            match space {
                Space::Pool => {
                    if let Some(&v) = self.p.pool.get(o as usize) {
                        out.insert(v);
                    }
                }
                Space::State => {
                    out.union(&self.state_value(env, o));
                }
            }
        }
        out
    }

    fn eval(&self, env: &Env, e: &Scalar) -> Symbols {
        match e {
            Scalar::Symbol(s) => Symbols::one(self.n, *s),
            Scalar::Slot(slot) => self.state_value(env, *slot),
            Scalar::Indexed(ix) => {
                let key = self.state_value(env, ix.key_slot);
                self.load(env, ix.space, ix.base, &[key], &[ix.key_step()])
            }
            Scalar::Code(code) => self.eval_code(env, code),
            Scalar::Access(path) => {
                let keys: Vec<Symbols> =
                    path.steps.iter().map(|s| self.eval(env, &s.key)).collect();
                self.load(env, path.space, path.base, &keys, &key_steps(&path.steps))
            }
        }
    }

    fn eval_code(&self, env: &Env, code: &Code) -> Symbols {
        let mut stack: Vec<Symbols> = Vec::new();
        for op in &code.ops {
            match *op {
                Op::Symbol(s) => stack.push(Symbols::one(self.n, s)),
                Op::Slot(slot) => stack.push(self.state_value(env, slot)),
                Op::Load {
                    space,
                    base,
                    first,
                    count,
                } => {
                    let keys = stack.split_off(stack.len().saturating_sub(count as usize));
                    let steps = &code.steps[first as usize..(first + count) as usize];
                    stack.push(self.load(env, space, base, &keys, steps));
                }
            }
        }
        stack.pop().unwrap_or_else(|| Symbols::all(self.n))
    }

    /// Whether `l op r` may hold.
    fn may_pass(&self, env: &Env, negated: bool, lhs: &Scalar, rhs: &Scalar) -> bool {
        let (l, r) = (self.eval(env, lhs), self.eval(env, rhs));
        if negated {
            !(l.len() == 1 && l == r)
        } else {
            l.0.iter().zip(&r.0).any(|(a, b)| a & b != 0)
        }
    }

    /// The environment after a test, or `None` when it cannot pass. A
    /// test reading one tracked variable keeps the values that may pass.
    fn test(&self, env: &Env, negated: bool, lhs: &Scalar, rhs: &Scalar) -> Option<Env> {
        let mut read = Vec::new();
        lhs.read_slots(&mut read);
        rhs.read_slots(&mut read);
        read.sort_unstable();
        read.dedup();
        let tracked: Vec<usize> = read
            .iter()
            .filter_map(|&s| self.tracked.get(s as usize).copied().flatten())
            .collect();
        if let [x] = tracked[..] {
            let mut kept = Symbols::empty(self.n);
            let mut probe = env.clone();
            for a in env[x].iter() {
                probe[x] = Symbols::one(self.n, a);
                if self.may_pass(&probe, negated, lhs, rhs) {
                    kept.insert(a);
                }
            }
            if kept.is_empty() {
                return None;
            }
            let mut out = env.clone();
            out[x] = kept;
            return Some(out);
        }
        self.may_pass(env, negated, lhs, rhs).then(|| env.clone())
    }

    /// Marks the map entries a write may reach.
    /// The environment after an assignment of `values()` to `target`: a
    /// tracked scalar takes those values (none: the edge cannot be taken);
    /// anything else marks the slots it may write.
    fn assign(
        &self,
        env: &Env,
        target: &Target,
        values: impl FnOnce() -> Symbols,
        written: &mut [bool],
    ) -> Option<Env> {
        match self.tracked.get(target.base as usize).copied().flatten() {
            Some(x) if target.steps.is_empty() => {
                let v = values();
                (!v.is_empty()).then(|| {
                    let mut out = env.clone();
                    out[x] = v;
                    out
                })
            }
            _ => {
                self.write(
                    env,
                    target.base,
                    &target.steps,
                    target.layout.size(),
                    written,
                );
                Some(env.clone())
            }
        }
    }

    fn write(&self, env: &Env, base: u32, steps: &[Step], size: u32, written: &mut [bool]) {
        let keys: Vec<Symbols> = steps.iter().map(|s| self.eval(env, &s.key)).collect();
        match self.offsets(base, &keys, &key_steps(steps)) {
            Some((offsets, _)) => {
                for o in offsets {
                    for k in o..o + size {
                        if let Some(w) = written.get_mut(k as usize) {
                            *w = true;
                        }
                    }
                }
            }
            None => {
                // Too many keys: the whole variable (from its base).
                let end = self.variable_end(base);
                for w in written.iter_mut().take(end).skip(base as usize) {
                    *w = true;
                }
            }
        }
    }

    /// The end of the variable starting at `base`.
    fn variable_end(&self, base: u32) -> usize {
        self.p
            .variables
            .iter()
            .find(|(_, b, _)| *b == base)
            .map_or(self.p.initial.len(), |(_, b, layout)| {
                (*b + layout.size()) as usize
            })
    }

    /// One data-flow pass over the move searches under the current
    /// `constant`; returns the slots written and each node's environment,
    /// or `None` when the budget ran out.
    fn pass(&mut self) -> Option<(Vec<bool>, Vec<Option<Env>>)> {
        let p = self.p;
        let initial: Env = self
            .tracked
            .iter()
            .enumerate()
            .filter_map(|(slot, t)| t.map(|_| Symbols::one(self.n, p.initial[slot])))
            .collect();
        self.flow(vec![(p.begin, initial)], true)
    }

    /// What tracked variables may hold in the reachability checks: each
    /// check starts from anything (its caller's values are not tracked)
    /// and flows through its own tests and assignments; `constant` slots
    /// keep their values. Returns the slots the checks write and each
    /// node's environment, or `None` when the budget ran out.
    fn checks(&mut self) -> Option<(Vec<bool>, Vec<Option<Env>>)> {
        let anything: Env = self
            .tracked
            .iter()
            .flatten()
            .map(|_| Symbols::all(self.n))
            .collect();
        let seeds = crate::analysis::check_entries(self.p)
            .into_iter()
            .map(|n| (n, anything.clone()))
            .collect();
        std::mem::swap(&mut self.budget, &mut self.check_budget);
        let result = self.flow(seeds, false);
        std::mem::swap(&mut self.budget, &mut self.check_budget);
        result
    }

    /// Propagates environments from `seeds` along the edges (in a move
    /// search, only through nodes that can finish a move, and not past
    /// the end); returns the slots written and each node's environment,
    /// or `None` when the budget ran out.
    fn flow(
        &mut self,
        seeds: Vec<(u32, Env)>,
        moves: bool,
    ) -> Option<(Vec<bool>, Vec<Option<Env>>)> {
        let p = self.p;
        let nodes = p.nodes.len();
        let tracked_count = self.tracked.iter().flatten().count();
        let mut state: Vec<Option<Env>> = vec![None; nodes];
        let mut work = Vec::new();
        let mut queued = vec![false; nodes];
        for (node, env) in seeds {
            state[node as usize] = Some(env);
            queued[node as usize] = true;
            work.push(node);
        }
        let mut written = vec![false; p.initial.len()];
        while let Some(node) = work.pop() {
            queued[node as usize] = false;
            let cost = (tracked_count as u64 + 1) * p.edges_of(node).len() as u64;
            if self.budget < cost {
                return None;
            }
            self.budget -= cost;
            if moves && (node == p.end || !p.node_info[node as usize].can_finish_move) {
                continue;
            }
            let Some(env) = state[node as usize].clone() else {
                continue;
            };
            for e in &p.edges[p.edges_of(node)] {
                let next: Option<Env> = match &e.action {
                    Action::Skip
                    | Action::Tag(_)
                    | Action::VarTag(_)
                    | Action::Reach { .. }
                    | Action::Compare { .. } => Some(env.clone()),
                    Action::CompareScalars { negated, lhs, rhs } => {
                        self.test(&env, *negated, lhs, rhs)
                    }
                    Action::Assign { target, value } => {
                        let values = || match value {
                            Operand::Scalar(v) => self.eval(&env, v),
                            Operand::Region(_) => Symbols::all(self.n),
                        };
                        self.assign(&env, target, values, &mut written)
                    }
                    Action::AssignAny { target, symbols } => {
                        let values = || {
                            let mut v = Symbols::empty(self.n);
                            for &s in &**symbols {
                                v.insert(s);
                            }
                            v
                        };
                        self.assign(&env, target, values, &mut written)
                    }
                    Action::AssignPlayer(v) => {
                        let v = self.eval(&env, v);
                        let mut out = env.clone();
                        if let Some(x) = self.tracked.get(p.player_slot as usize).copied().flatten()
                        {
                            out[x] = v;
                        }
                        Some(out)
                    }
                };
                let Some(next) = next else { continue };
                let t = e.target as usize;
                let changed = match &mut state[t] {
                    Some(old) => old
                        .iter_mut()
                        .zip(&next)
                        .fold(false, |c, (a, b)| a.union(b) | c),
                    slot @ None => {
                        *slot = Some(next);
                        true
                    }
                };
                if changed && !queued[t] {
                    queued[t] = true;
                    work.push(e.target);
                }
            }
        }
        Some((written, state))
    }
}

fn key_steps(steps: &[Step]) -> Vec<KeyStep> {
    steps.iter().map(Step::key_step).collect()
}

/// What the analysis proves (see the module documentation).
pub struct Invariants {
    /// Per state slot: no move walk writes it, so it always holds its
    /// initial value. Scalar variables are never reported (they are
    /// tracked, not assumed).
    pub constant: Vec<bool>,
    tracked: Vec<Option<usize>>,
    /// Per node, the symbols each tracked variable may hold there in a move
    /// search (`None`: no move search reaches the node; all `None` when
    /// the analysis gave up).
    values: Vec<Option<Env>>,
    /// The same in the reachability checks (empty when the analysis gave
    /// up).
    check_values: Vec<Option<Env>>,
}

impl Invariants {
    /// The symbols scalar slot `slot` may hold at `node` in a move search:
    /// `None` when unknown (not a scalar variable, or the analysis gave
    /// up), an empty list when no move search reaches the node.
    pub fn possible(&self, node: u32, slot: u32) -> Option<Vec<u32>> {
        self.lookup(&self.values, node, slot)
    }

    /// The symbols scalar slot `slot` may hold at `node` in a
    /// reachability check, as `possible` does for move searches (checks
    /// enter with anything: reversi's ray `({w} up left)*` steps only from
    /// a square whose board entry may be `w`, never from the off-board
    /// square whose entry is constant).
    pub fn possible_in_check(&self, node: u32, slot: u32) -> Option<Vec<u32>> {
        self.lookup(&self.check_values, node, slot)
    }

    fn lookup(&self, values: &[Option<Env>], node: u32, slot: u32) -> Option<Vec<u32>> {
        let k = self.tracked.get(slot as usize).copied().flatten()?;
        if values.is_empty() {
            return None;
        }
        Some(match &values[node as usize] {
            Some(env) => env[k].iter().collect(),
            None => Vec::new(),
        })
    }
}

/// The state slots no move walk writes, and what scalar variables may hold
/// at each node.
pub fn invariants(p: &Program) -> Invariants {
    let slots = p.initial.len();
    let mut tracked = vec![None; slots];
    let mut count = 0;
    for (_, base, layout) in &p.variables {
        if matches!(**layout, rg_core::engine::program::Layout::Scalar) {
            tracked[*base as usize] = Some(count);
            count += 1;
        }
    }
    let mut constant: Vec<bool> = tracked.iter().map(Option::is_none).collect();
    let mut analysis = Analysis {
        p,
        n: p.symbols.len(),
        tracked: tracked.clone(),
        constant: constant.clone(),
        budget: BUDGET,
        check_budget: BUDGET,
    };
    // Slots of `constant` some write in `written` may reach leave it;
    // whether any did.
    let drop_written = |constant: &mut Vec<bool>, written: Vec<bool>| {
        let mut changed = false;
        for (c, w) in constant.iter_mut().zip(written) {
            if *c && w {
                *c = false;
                changed = true;
            }
        }
        changed
    };
    let gave_up = |tracked| Invariants {
        constant: vec![false; slots],
        tracked,
        values: Vec::new(),
        check_values: Vec::new(),
    };
    loop {
        analysis.constant.clone_from(&constant);
        let Some((written, values)) = analysis.pass() else {
            return gave_up(tracked);
        };
        if drop_written(&mut constant, written) {
            continue;
        }
        // The checks, once the moves are settled: a check's writes are
        // undone when it ends, but the check itself reads what it wrote.
        let Some((written, check_values)) = analysis.checks() else {
            return gave_up(tracked);
        };
        if drop_written(&mut constant, written) {
            continue;
        }
        return Invariants {
            constant,
            tracked,
            values,
            check_values,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::{program, slot, HEADER};

    /// A ray that steps off the board to `null` and is stopped by the test
    /// `board[pos] == e`: the off-board entry is never written (the write
    /// only happens where the test passed), the others are.
    #[test]
    fn off_board_entry_is_constant() {
        let source = format!(
            "{HEADER}
            var board: SquareOrNull -> Piece = {{ :e, null: null }};
            var pos: SquareOrNull = a;
            begin, s: pos = Square(*);
            s, t: pos = right[pos];
            t, u: board[pos] == e;
            u, v: board[pos] = x;
            v, w: $$ pos;
            w, begin: player = one;
            w, end: player = keeper;"
        );
        let p = program(&source);
        let c = invariants(&p).constant;
        assert!(c[board_entry(&p, "null")], "board[null] is never written");
        assert!(c[board_entry(&p, "a")], "`a` is never a target of right[]");
        assert!(!c[board_entry(&p, "b")], "board[b] is written");
        assert!(!c[slot(&p, "pos") as usize], "scalars are not reported");
    }

    /// In a check, a ray steps on only from a square whose entry may be
    /// `x`, never from the off-board square, whose entry is constant; the
    /// check itself is entered with anything. A check that writes the
    /// off-board entry (and reads it back) lets the off-board square on.
    #[test]
    fn checks_refine_values_through_their_tests() {
        let ray = |first: &str| {
            program(&format!(
                "{HEADER}
                var board: SquareOrNull -> Piece = {{ :x, null: null }};
                var pos: SquareOrNull = a;
                begin, p: player = one;
                p, go: ? c0 -> found;
                c0, c1: {first};
                c1, c2: pos = right[pos];
                c2, c3: board[pos] == x;
                c3, c1: ;
                c2, found: board[pos] == e;
                go, w: board[a] = e;
                w, end: player = keeper;"
            ))
        };
        let symbols = |p: &Program, names: &[&str]| -> Vec<u32> {
            let mut ids: Vec<u32> = names
                .iter()
                .map(|n| p.symbols.iter().position(|s| s == n).expect("symbol") as u32)
                .collect();
            ids.sort_unstable();
            ids
        };
        let node = |p: &Program, name: &str| crate::test_games::node(p, name) as u32;

        let p = ray("");
        let i = invariants(&p);
        let pos = slot(&p, "pos");
        assert!(i.constant[board_entry(&p, "null")]);
        assert_eq!(
            i.possible_in_check(node(&p, "c3"), pos),
            Some(symbols(&p, &["b", "c"])),
            "`a` is no square's right neighbour"
        );
        let entered = i.possible_in_check(node(&p, "c0"), pos).expect("tracked");
        assert!(entered.contains(&symbols(&p, &["null"])[0]), "{entered:?}");
        assert_eq!(i.possible_in_check(node(&p, "w"), pos), Some(Vec::new()));

        let p = ray("board[null] = x");
        let i = invariants(&p);
        assert!(!i.constant[board_entry(&p, "null")], "the check writes it");
        assert_eq!(
            i.possible_in_check(node(&p, "c3"), slot(&p, "pos")),
            Some(symbols(&p, &["null", "b", "c"]))
        );
    }

    /// The slot of `board[square]` (the board's key type is the largest).
    fn board_entry(p: &Program, square: &str) -> usize {
        let board = slot(p, "board");
        let sym = p.symbols.iter().position(|s| s == square).expect("symbol") as u32;
        let table = p
            .key_tables
            .iter()
            .max_by_key(|t| t.symbols.len())
            .expect("table");
        (board + table.slot(sym).expect("key")) as usize
    }

    /// Without the test the write may reach the off-board entry.
    #[test]
    fn unguarded_write_reaches_the_off_board_entry() {
        let source = "
            type Player = { one };
            type Score = { 0 };
            type Piece = { e, x, null };
            type Square = { a, b };
            type SquareOrNull = { null, a, b };
            const right: SquareOrNull -> SquareOrNull = { :null, a: b };
            var board: SquareOrNull -> Piece = { :e, null: null };
            var pos: SquareOrNull = a;
            begin, s: pos = Square(*);
            s, u: pos = right[pos];
            u, v: board[pos] = x;
            v, w: $$ pos;
            w, begin: player = one;
            w, end: player = keeper;
        ";
        let p = program(source);
        let c = invariants(&p).constant;
        assert!(!c[board_entry(&p, "null")], "board[null] may be written");
        assert!(!c[board_entry(&p, "b")], "board[b] is written");
    }
}
