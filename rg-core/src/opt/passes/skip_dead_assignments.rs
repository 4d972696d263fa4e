//! Skip dead assignments (E): an assignment whose value is never read —
//! on every path from it the written slot is overwritten, the play ends,
//! or the reachability check it runs in finishes, before any read —
//! becomes a skip.
//!
//! The analysis is a backward *strong* liveness: an assignment's own reads
//! count only when its target is live, so a counter updated as
//! `c[x] = incr[c[x]]` but never compared dies with all its updates. Map
//! variables are tracked per entry for keys written as symbols
//! (`counters[empty]`), and an update `m[k] = f[m[k]]` whose key is not a
//! symbol reads only the entry it writes. What the engine itself reads
//! is live: `player` and `visible` always, `goals` at `end`. A check `? a -> b` reads
//! what its sub-automaton reads from `a`; the state is discarded at `b`.
//! Games with a random player are left alone (perft merges random outcomes
//! by state, rg.md §6).

use crate::fx_hash::{FxMap, FxSet};
use std::ops::Range;

use crate::ast::{Expr, Game, Label};
use crate::builtins;
use crate::types::TypeEnv;

use crate::opt::analysis::graph::{NodeId, NodeIndex};
use crate::opt::analysis::worklist::{Direction, Worklist};
use crate::opt::analysis::{features, typing};
use crate::opt::Pass;

pub struct SkipDeadAssignments;

/// Most (node × 64 slots) words kept, so huge games stay cheap.
const WORD_BUDGET: usize = 8_000_000;
/// Maps with more keys than this are tracked as one slot.
const MAX_KEYS: usize = 4096;

impl Pass for SkipDeadAssignments {
    fn name(&self) -> &'static str {
        "skip-dead-assignments"
    }

    fn description(&self) -> &'static str {
        "assignments whose value is never read (per map entry, strong liveness) become skips"
    }

    fn run(&self, game: &mut Game) -> bool {
        if features::has_random(game) {
            return false;
        }
        let slots = Slots::new(game);
        if slots.count == 0 {
            return false;
        }
        let Some(live) = Liveness::solve(game, &slots) else {
            return false;
        };
        let mut changed = false;
        for (k, e) in game.edges.iter_mut().enumerate() {
            if live.is_dead(k) {
                e.label = Label::Skip;
                changed = true;
            }
        }
        changed
    }
}

/// The liveness slots: one per scalar variable, one per key of a map
/// variable (or one for the whole map when its keys are not enumerable).
struct Slots {
    variables: FxMap<String, VarSlots>,
    constants: FxSet<String>,
    count: usize,
}

struct VarSlots {
    range: Range<usize>,
    /// Slot offsets of the keys, for maps tracked per entry.
    keys: Option<FxMap<String, usize>>,
}

/// How an assignment target is written.
struct Write {
    /// Slots possibly written.
    targets: Range<usize>,
    /// Whether the targets are overwritten as a whole (a plain variable or
    /// an entry with a symbol key), so their old values die here.
    kills: bool,
}

impl Slots {
    fn new(game: &Game) -> Self {
        let full = typing::types_with_builtins(game);
        let env = TypeEnv::new(&full);
        let mut variables = FxMap::default();
        let mut count = 0;
        for v in full.variables.iter().filter(|v| !is_engine_read(&v.name)) {
            let keys: Option<FxMap<String, usize>> = env.resolve(&v.ty).ok().and_then(|t| {
                let symbols = t.arrow()?.0.symbols()?;
                (symbols.len() <= MAX_KEYS).then(|| {
                    symbols
                        .iter()
                        .enumerate()
                        .map(|(k, s)| (s.clone(), k))
                        .collect()
                })
            });
            let len = keys.as_ref().map_or(1, |k| k.len().max(1));
            variables.insert(
                v.name.clone(),
                VarSlots {
                    range: count..count + len,
                    keys,
                },
            );
            count += len;
        }
        Slots {
            variables,
            constants: game.constants.iter().map(|c| c.name.clone()).collect(),
            count,
        }
    }

    fn variable(&self, name: &str) -> Option<&VarSlots> {
        if self.constants.contains(name) {
            None // constants shadow variables (rg.md §4.3)
        } else {
            self.variables.get(name)
        }
    }

    /// The slot of entry `key` of variable `var`, when `key` is a symbol.
    fn entry(&self, var: &VarSlots, key: &Expr) -> Option<usize> {
        let Expr::Ref(symbol, _) = key.without_casts() else {
            return None;
        };
        if self.constants.contains(symbol) || self.variables.contains_key(symbol) {
            return None;
        }
        let offset = var.keys.as_ref()?.get(symbol)?;
        Some(var.range.start + offset)
    }

    /// Adds the slots `e` reads to `out`. A sub-expression equal to
    /// `own` (the target of a non-killing write) contributes only the reads
    /// of its keys: it reads the entry being written, which is live before
    /// exactly when it is live after.
    fn reads(&self, e: &Expr, own: Option<&Expr>, out: &mut Vec<Range<usize>>) {
        if own == Some(e) {
            self.key_reads(e, out);
            return;
        }
        match e {
            Expr::Ref(name, _) => {
                if let Some(var) = self.variable(name) {
                    out.push(var.range.clone());
                }
            }
            Expr::Cast(_, inner, _) => self.reads(inner, own, out),
            Expr::Access(map, key, _) => {
                if let Expr::Ref(name, _) = map.without_casts() {
                    if let Some(var) = self.variable(name) {
                        if let Some(slot) = self.entry(var, key) {
                            out.push(slot..slot + 1);
                            return;
                        }
                    }
                }
                self.reads(map, own, out);
                self.reads(key, own, out);
            }
        }
    }

    /// The reads of the key expressions of an assignment target.
    fn key_reads(&self, target: &Expr, out: &mut Vec<Range<usize>>) {
        match target {
            Expr::Cast(_, inner, _) => self.key_reads(inner, out),
            Expr::Access(map, key, _) => {
                self.key_reads(map, out);
                self.reads(key, None, out);
            }
            Expr::Ref(..) => {}
        }
    }

    /// What assigning `target` writes; `None` for the engine's variables
    /// (always live) and targets of an unexpected shape.
    fn write(&self, target: &Expr) -> Option<Write> {
        match target.without_casts() {
            Expr::Ref(name, _) => self.variable(name).map(|var| Write {
                targets: var.range.clone(),
                kills: true,
            }),
            Expr::Access(map, key, _) => {
                let root = self.variable(target.target_root()?)?;
                match map.without_casts() {
                    Expr::Ref(..) => Some(match self.entry(root, key) {
                        Some(slot) => Write {
                            targets: slot..slot + 1,
                            kills: true,
                        },
                        None => Write {
                            targets: root.range.clone(),
                            kills: false,
                        },
                    }),
                    // `m[k1][k2] = …` changes part of entry k1.
                    inner => {
                        let first = first_key(inner)?;
                        Some(Write {
                            targets: self
                                .entry(root, first)
                                .map_or(root.range.clone(), |s| s..s + 1),
                            kills: false,
                        })
                    }
                }
            }
            Expr::Cast(..) => None,
        }
    }
}

/// The key of the outermost access on the root: `k1` in `m[k1][k2]…`.
fn first_key(e: &Expr) -> Option<&Expr> {
    match e.without_casts() {
        Expr::Access(map, key, _) => match map.without_casts() {
            Expr::Ref(..) => Some(key),
            inner => first_key(inner),
        },
        _ => None,
    }
}

/// Variables the engine reads in every state (`goals` is read only at
/// `end`, which the analysis models).
fn is_engine_read(name: &str) -> bool {
    [builtins::PLAYER_VAR, builtins::VISIBLE_VAR].contains(&name)
}

/// What one edge does to liveness (going backwards).
struct EdgeEffect {
    from: usize,
    to: usize,
    /// The start of the sub-automaton of a reachability check.
    reach_start: Option<usize>,
    /// The assignment's write; `None` for other labels and for writes that
    /// are always live.
    write: Option<Write>,
    /// Slots read whatever happens (comparisons, tags, builtin writes).
    reads: Vec<Range<usize>>,
    /// Slots read only when the write is live.
    reads_if_live: Vec<Range<usize>>,
}

/// The solved liveness: the slots live at each node.
struct Liveness {
    effects: Vec<EdgeEffect>,
    live: Vec<Vec<u64>>,
}

impl Liveness {
    /// Solves backwards from `end` and the reachability targets (nothing
    /// live) to a fixpoint; `None` when the game is over the budget.
    fn solve(game: &Game, slots: &Slots) -> Option<Liveness> {
        let index = NodeIndex::new(game);
        let effects: Vec<EdgeEffect> = game
            .edges
            .iter()
            .zip(&index.ends)
            .map(|(e, ends)| {
                let reach_start = ends.reach.map(|(start, _)| start as usize);
                EdgeEffect::of(
                    &e.label,
                    ends.from as usize,
                    ends.to as usize,
                    reach_start,
                    slots,
                )
            })
            .collect();
        let nodes = index.count();
        let words = slots.count.div_ceil(64);
        if nodes.saturating_mul(words) > WORD_BUDGET {
            return None;
        }
        // Which nodes to revisit when a node's liveness grows: the sources
        // of its incoming edges and of the checks starting at it.
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); nodes];
        let mut leaving: Vec<Vec<usize>> = vec![Vec::new(); nodes];
        for (k, e) in effects.iter().enumerate() {
            leaving[e.from].push(k);
            dependents[e.to].push(e.from);
            if let Some(start) = e.reach_start {
                dependents[start].push(e.from);
            }
        }
        let mut live = vec![vec![0u64; words]; nodes];
        // The outcome is read at `end`.
        if let (Some(end), Some(goals)) = (
            index.get(builtins::END),
            slots.variable(builtins::GOALS_VAR),
        ) {
            for s in goals.range.clone() {
                live[end as usize][s / 64] |= 1 << (s % 64);
            }
        }
        let roots: Vec<NodeId> = index.get(builtins::BEGIN).into_iter().collect();
        let mut queue = Worklist::new(&index, &roots, Direction::Backward);
        for node in 0..nodes {
            queue.push(node as NodeId);
        }
        let mut scratch = vec![0u64; words];
        while let Some(node) = queue.pop() {
            let node = node as usize;
            let mut grown = false;
            for &k in &leaving[node] {
                effects[k].transfer(&live, &mut scratch);
                for (word, new) in live[node].iter_mut().zip(&scratch) {
                    if *word | new != *word {
                        *word |= new;
                        grown = true;
                    }
                }
            }
            if grown {
                for &d in &dependents[node] {
                    queue.push(d as NodeId);
                }
            }
        }
        Some(Liveness { effects, live })
    }

    /// Whether edge `k` is an assignment nothing reads.
    fn is_dead(&self, k: usize) -> bool {
        let e = &self.effects[k];
        e.write
            .as_ref()
            .is_some_and(|w| !w.targets.clone().any(|s| has(&self.live[e.to], s)))
    }
}

impl EdgeEffect {
    fn of(
        label: &Label,
        from: usize,
        to: usize,
        reach_start: Option<usize>,
        slots: &Slots,
    ) -> EdgeEffect {
        let mut effect = EdgeEffect {
            from,
            to,
            reach_start,
            write: None,
            reads: Vec::new(),
            reads_if_live: Vec::new(),
        };
        match label {
            Label::Compare { lhs, rhs, .. } => {
                slots.reads(lhs, None, &mut effect.reads);
                slots.reads(rhs, None, &mut effect.reads);
            }
            Label::VarTag(v) => slots.reads(&Expr::name(v.as_str()), None, &mut effect.reads),
            Label::Assign { lhs, rhs } => match slots.write(lhs) {
                Some(write) => {
                    let own = (!write.kills).then_some(lhs);
                    slots.reads(rhs, own, &mut effect.reads_if_live);
                    slots.key_reads(lhs, &mut effect.reads_if_live);
                    effect.write = Some(write);
                }
                None => {
                    slots.reads(rhs, None, &mut effect.reads);
                    slots.key_reads(lhs, &mut effect.reads);
                }
            },
            Label::AssignAny { lhs, .. } => match slots.write(lhs) {
                Some(write) => {
                    slots.key_reads(lhs, &mut effect.reads_if_live);
                    effect.write = Some(write);
                }
                None => slots.key_reads(lhs, &mut effect.reads),
            },
            Label::Skip | Label::Tag(_) | Label::Reach { .. } => {}
        }
        effect
    }

    /// Writes into `out` the slots live before this edge.
    fn transfer(&self, live: &[Vec<u64>], out: &mut [u64]) {
        out.copy_from_slice(&live[self.to]);
        if let Some(start) = self.reach_start {
            for (word, more) in out.iter_mut().zip(&live[start]) {
                *word |= more;
            }
        }
        let add = |ranges: &[Range<usize>], out: &mut [u64]| {
            for r in ranges {
                for s in r.clone() {
                    out[s / 64] |= 1 << (s % 64);
                }
            }
        };
        if let Some(w) = &self.write {
            let is_live = w.targets.clone().any(|s| has(out, s));
            if w.kills {
                for s in w.targets.clone() {
                    out[s / 64] &= !(1 << (s % 64));
                }
            }
            if is_live {
                add(&self.reads_if_live, out);
            }
        }
        add(&self.reads, out);
    }
}

fn has(set: &[u64], slot: usize) -> bool {
    set[slot / 64] >> (slot % 64) & 1 == 1
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn an_overwritten_value_is_dead() {
        let (changed, out) = after(
            &SkipDeadAssignments,
            "type K = { a, b };\nvar x: K = a;\nvar y: K = a;\n\
             begin, p: x = a;\np, q: x = b;\nq, r: x == y;\nr, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type K = { a, b };
        var x: K = a;
        var y: K = a;
        begin, p: ;
        p, q: x = b;
        q, r: x == y;
        r, end: player = keeper;
        ");
    }

    #[test]
    fn counters_nothing_compares_die_entry_by_entry() {
        // c[a] is compared, c[b] only updated; the update with a computed
        // key may write c[a], so it stays.
        let (changed, out) = after(
            &SkipDeadAssignments,
            "type K = { a, b };\ntype N = { 0, 1, 2 };\nconst incr: N -> N = { :2, 0: 1, 1: 2 };\n\
             var c: K -> N = { :0 };\nvar k: K = a;\n\
             begin, p: c[b] = incr[c[b]];\np, q: c[k] = incr[c[k]];\nq, r: c[a] == 1;\n\
             r, s: c[b] = incr[c[b]];\ns, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type K = { a, b };
        type N = { 0, 1, 2 };
        const incr: N -> N = { :2, 0: 1, 1: 2 };
        var c: K -> N = { :0 };
        var k: K = a;
        begin, p: ;
        p, q: c[k] = incr[c[k]];
        q, r: c[a] == 1;
        r, s: ;
        s, end: player = keeper;
        ");
    }

    #[test]
    fn a_check_discards_its_writes_but_reads_the_state_before_it() {
        let (changed, out) = after(
            &SkipDeadAssignments,
            "type K = { a, b };\nvar x: K = a;\nvar y: K = a;\n\
             begin, p: y = b;\np, q: ? s -> t;\nq, end: player = keeper;\n\
             s, u: y == b;\nu, v: x = b;\nv, t: x == b;\nt, w: x = a;\nw, z: ;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type K = { a, b };
        var x: K = a;
        var y: K = a;
        begin, p: y = b;
        p, q: ? s -> t;
        q, end: player = keeper;
        s, u: y == b;
        u, v: x = b;
        v, t: x == b;
        t, w: ;
        w, z: ;
        ");
    }

    #[test]
    fn goals_are_read_at_end_only() {
        let (changed, out) = after(
            &SkipDeadAssignments,
            "begin, p: goals[x] = 0;\np, q: goals[x] = 0;\nq, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        begin, p: ;
        p, q: goals[x] = 0;
        q, end: player = keeper;
        ");
    }

    #[test]
    fn games_with_a_random_player_are_left_alone() {
        let source = "type K = { a, b };\nvar x: K = a;\n\
                      begin, p: x = a;\np, q: player = random;\nq, r: $ t;\nr, end: player = keeper;\n";
        let (changed, _) = after(&SkipDeadAssignments, source);
        assert!(!changed);
    }
}
