//! Renumbers a program's symbols so that as many key types as possible are
//! runs of consecutive ids in slot order: a map read keyed by such a type
//! is then `key - min` with one comparison, instead of a lookup in the key
//! table (which sits on the critical path of every board read).
//!
//! The renumbering is a relabeling: the game's behaviour is unchanged, the
//! order in which any-assignments try their symbols is kept (it decides the
//! first keeper walk), and the names table follows the new ids, so moves
//! print the same.

use std::collections::VecDeque;

use rg_core::engine::program::{
    Action, Code, KeyStep, KeyTable, Op, Operand, Path, Program, Region, Scalar, Step, Target,
};

/// The new id of every old symbol id.
fn order(p: &Program) -> Vec<u32> {
    let n = p.symbols.len();
    let mut tables: Vec<&KeyTable> = p.key_tables.iter().collect();
    tables.sort_by_key(|t| std::cmp::Reverse(t.symbols.len()));
    // Runs of symbols that must stay consecutive, and where each placed
    // symbol is: (run, position in the run's deque as of its placement,
    // corrected by the run's front offset).
    let mut runs: Vec<VecDeque<u32>> = Vec::new();
    let mut fronts: Vec<i64> = Vec::new();
    let mut place: Vec<Option<(usize, i64)>> = vec![None; n];
    for t in tables {
        let syms = &t.symbols;
        if syms.is_empty() {
            continue;
        }
        let placed: Vec<usize> = (0..syms.len())
            .filter(|&k| place[syms[k] as usize].is_some())
            .collect();
        if placed.is_empty() {
            if syms.iter().enumerate().any(|(k, s)| syms[..k].contains(s)) {
                continue;
            }
            let r = runs.len();
            runs.push(syms.iter().copied().collect());
            fronts.push(0);
            for (k, &s) in syms.iter().enumerate() {
                place[s as usize] = Some((r, k as i64));
            }
            continue;
        }
        // The placed symbols must be a block of the table that is also a
        // block of one run, in the same order.
        let (first, last) = (placed[0], placed[placed.len() - 1]);
        if last - first + 1 != placed.len() {
            continue;
        }
        let Some((r, start)) = place[syms[first] as usize] else {
            continue;
        };
        let consistent = (first..=last)
            .all(|k| place[syms[k] as usize] == Some((r, start + (k - first) as i64)));
        if !consistent {
            continue;
        }
        let run_start = -fronts[r];
        let run_end = run_start + runs[r].len() as i64 - 1;
        let end = start + (last - first) as i64;
        let before = &syms[..first];
        let after = &syms[last + 1..];
        if (!before.is_empty() && start != run_start) || (!after.is_empty() && end != run_end) {
            continue;
        }
        for (k, &s) in before.iter().rev().enumerate() {
            runs[r].push_front(s);
            place[s as usize] = Some((r, start - 1 - k as i64));
        }
        fronts[r] += before.len() as i64;
        for (k, &s) in after.iter().enumerate() {
            runs[r].push_back(s);
            place[s as usize] = Some((r, end + 1 + k as i64));
        }
    }
    let mut new_id = vec![u32::MAX; n];
    let mut next = 0u32;
    for run in &runs {
        for &s in run {
            new_id[s as usize] = next;
            next += 1;
        }
    }
    for id in &mut new_id {
        if *id == u32::MAX {
            *id = next;
            next += 1;
        }
    }
    new_id
}

struct Renamer {
    new_id: Vec<u32>,
    tables: Vec<KeyTable>,
}

impl Renamer {
    fn id(&self, old: u32) -> u32 {
        self.new_id.get(old as usize).copied().unwrap_or(old)
    }

    fn key_step(&self, mut k: KeyStep) -> KeyStep {
        let t = &self.tables[k.table as usize];
        k.min = t.min;
        k.contiguous = t.is_contiguous();
        k.fallback = self.id(k.fallback);
        k
    }

    fn step(&self, s: &Step) -> Step {
        let t = &self.tables[s.table as usize];
        Step {
            key: self.scalar(&s.key),
            table: s.table,
            contiguous: t.is_contiguous(),
            min: t.min,
            count: s.count,
            stride: s.stride,
            fallback: self.id(s.fallback),
        }
    }

    fn path(&self, p: &Path) -> Path {
        Path {
            space: p.space,
            base: p.base,
            steps: p.steps.iter().map(|s| self.step(s)).collect(),
        }
    }

    fn scalar(&self, s: &Scalar) -> Scalar {
        match s {
            Scalar::Symbol(id) => Scalar::Symbol(self.id(*id)),
            Scalar::Slot(slot) => Scalar::Slot(*slot),
            Scalar::Indexed(ix) => {
                let mut ix = ix.clone();
                let t = &self.tables[ix.table as usize];
                ix.min = t.min;
                ix.contiguous = t.is_contiguous();
                ix.fallback = self.id(ix.fallback);
                Scalar::Indexed(ix)
            }
            Scalar::Access(path) => Scalar::Access(Box::new(self.path(path))),
            Scalar::Code(code) => Scalar::Code(Box::new(Code {
                ops: code
                    .ops
                    .iter()
                    .map(|op| match *op {
                        Op::Symbol(id) => Op::Symbol(self.id(id)),
                        other => other,
                    })
                    .collect(),
                height: code.height,
                steps: code.steps.iter().map(|&k| self.key_step(k)).collect(),
            })),
        }
    }

    fn operand(&self, o: &Operand) -> Operand {
        match o {
            Operand::Scalar(s) => Operand::Scalar(self.scalar(s)),
            Operand::Region(r) => Operand::Region(Region {
                path: self.path(&r.path),
                layout: r.layout.clone(),
                fallback: self.id(r.fallback),
            }),
        }
    }

    fn target(&self, t: &Target) -> Target {
        Target {
            base: t.base,
            steps: t.steps.iter().map(|s| self.step(s)).collect(),
            layout: t.layout.clone(),
        }
    }

    fn action(&self, a: &Action) -> Action {
        match a {
            Action::Skip => Action::Skip,
            Action::Tag(t) => Action::Tag(self.id(*t)),
            Action::VarTag(v) => Action::VarTag(self.scalar(v)),
            Action::CompareScalars { negated, lhs, rhs } => Action::CompareScalars {
                negated: *negated,
                lhs: self.scalar(lhs),
                rhs: self.scalar(rhs),
            },
            Action::Compare { negated, lhs, rhs } => Action::Compare {
                negated: *negated,
                lhs: self.operand(lhs),
                rhs: self.operand(rhs),
            },
            Action::Assign { target, value } => Action::Assign {
                target: self.target(target),
                value: self.operand(value),
            },
            Action::AssignAny { target, symbols } => Action::AssignAny {
                target: self.target(target),
                symbols: symbols.iter().map(|&s| self.id(s)).collect(),
            },
            Action::AssignPlayer(v) => Action::AssignPlayer(self.scalar(v)),
            Action::Reach { negated, from, to } => Action::Reach {
                negated: *negated,
                from: *from,
                to: *to,
            },
        }
    }
}

fn key_table(symbols: Vec<u32>) -> KeyTable {
    let min = symbols.iter().copied().min().unwrap_or(0);
    let max = symbols.iter().copied().max().unwrap_or(0);
    let mut index = vec![
        u32::MAX;
        if symbols.is_empty() {
            0
        } else {
            (max - min + 1) as usize
        }
    ];
    for (slot, &s) in symbols.iter().enumerate() {
        index[(s - min) as usize] = slot as u32;
    }
    KeyTable {
        min,
        index,
        symbols,
    }
}

/// The program with its symbols renumbered (see the module documentation).
pub fn renumber(p: &Program) -> Program {
    let new_id = order(p);
    let id = |old: u32| new_id.get(old as usize).copied().unwrap_or(old);
    let tables: Vec<KeyTable> = p
        .key_tables
        .iter()
        .map(|t| key_table(t.symbols.iter().map(|&s| id(s)).collect()))
        .collect();
    let mut symbols = vec![String::new(); p.symbols.len()];
    for (old, name) in p.symbols.iter().enumerate() {
        symbols[id(old as u32) as usize] = name.clone();
    }
    let renamer = Renamer {
        new_id: new_id.clone(),
        tables,
    };
    let mut out = p.clone();
    out.symbols = symbols;
    out.edges = p
        .edges
        .iter()
        .map(|e| rg_core::engine::program::CompiledEdge {
            target: e.target,
            action: renamer.action(&e.action),
        })
        .collect();
    out.pool = p.pool.iter().map(|&v| id(v)).collect();
    out.initial = p.initial.iter().map(|&v| id(v)).collect();
    out.players = p.players.iter().map(|&v| id(v)).collect();
    out.keeper = id(p.keeper);
    out.random = id(p.random);
    out.one = id(p.one);
    out.score_values = p.score_values.iter().map(|&(s, v)| (id(s), v)).collect();
    for guard in &mut out.visit_guards {
        let mut safe = vec![0u64; guard.safe.len().max(p.symbols.len().div_ceil(64))];
        for old in 0..p.symbols.len() as u32 {
            let set = guard
                .safe
                .get((old >> 6) as usize)
                .is_some_and(|w| (w >> (old & 63)) & 1 != 0);
            if set {
                let new = id(old);
                safe[(new >> 6) as usize] |= 1 << (new & 63);
            }
        }
        guard.safe = safe.into_boxed_slice();
    }
    out.key_tables = renamer.tables;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::program;

    /// A type and its extension by one symbol that another type shares
    /// (the RBG translations' `Coord`, `CoordOrNull` and `Piece` with
    /// `null`) all become contiguous, and the names follow the ids.
    #[test]
    fn nested_and_overlapping_types_become_contiguous() {
        let source = "
            type Player = { white, black };
            type Score = { 0, 100 };
            type Piece = { b, e, null };
            type Coord = { c1, c2, c3 };
            type CoordOrNull = { null, c1, c2, c3 };
            var board: CoordOrNull -> Piece = { :e, null: null };
            var pos: CoordOrNull = c1;
            var tally: Piece -> Score = { :0 };
            begin, a: pos = Coord(*);
            a, b: board[pos] == e;
            b, c: $$ pos;
            c, d: tally[board[pos]] == 0;
            d, end: player = keeper;
        ";
        let p = program(source);
        let r = renumber(&p);
        for t in &r.key_tables {
            assert!(t.is_contiguous(), "{:?}", t.symbols);
        }
        for (old, name) in p.symbols.iter().enumerate() {
            let new = r.symbols.iter().position(|n| n == name).expect("kept");
            let _ = (old, new);
        }
        assert_eq!(r.symbols.len(), p.symbols.len());
        let mut sorted = r.symbols;
        sorted.sort();
        let mut before = p.symbols;
        before.sort();
        assert_eq!(sorted, before, "a permutation of the names");
    }
}
