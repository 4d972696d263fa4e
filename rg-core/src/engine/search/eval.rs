//! Expression evaluation for the searches: scalar values, map accesses
//! through key tables, region comparison and assignment, and the runtime
//! faults (keys outside a map's key type) with their messages.
//!
//! The hot path returns plain `u32` values with [`INVALID`] standing for a
//! fault, whose details wait in the searcher until they are reported.

use crate::model::ModelError;

use super::Searcher;
use crate::engine::compile::copy_value;
use crate::engine::program::{
    Code, KeyStep, Op, Operand, Path, Program, Scalar, Space, Step, Target, CODE_STACK,
    SMALL_CODE_STACK,
};

/// What a runtime fault was, before it is given its context. Kept small
/// (it travels in every expression evaluation's `Result`).
#[derive(Clone, Copy, Debug)]
pub(super) enum Fault {
    /// A key outside a map's key type.
    InvalidKey { symbol: u32, table: u32 },
    /// A problem described by a message (see [`FAULT_MESSAGES`]).
    Message(u8),
}

/// Messages of [`Fault::Message`].
const FAULT_MESSAGES: [&str; 6] = [
    "the source map has no entry for a key of the target",
    "a map compared with a symbol",
    "reachability search does not terminate",
    "a map and a symbol are not assignable",
    "reachability checks nested more than 1000 deep (does a check's sub-automaton \
     check itself?); the engine stops here instead of overflowing its stack",
    "move search stopped: the time limit was reached",
];

/// [`Fault::Message`] of too deeply nested reachability checks.
pub(super) const TOO_DEEP: Fault = Fault::Message(4);
/// [`Fault::Message`] of a search past the step limit (formatted with the
/// limit by [`Searcher::fault`]).
pub(super) const STEP_LIMIT: Fault = Fault::Message(2);
/// [`Fault::Message`] of a search past the caller's deadline.
pub(super) const DEADLINE: Fault = Fault::Message(5);

fn map_fault(message: &str) -> Fault {
    let index = FAULT_MESSAGES
        .iter()
        .position(|m| *m == message)
        .unwrap_or(3);
    Fault::Message(index as u8)
}

/// The "no value" result of expression evaluation (symbol ids never reach it).
pub(super) const INVALID: u32 = u32::MAX;

/// The slot of `key` in a key table, or [`INVALID`].
#[inline(always)]
pub(super) fn key_slot(
    p: &Program,
    key: u32,
    contiguous: bool,
    min: u32,
    count: u32,
    table: u32,
) -> u32 {
    if contiguous {
        let index = key.wrapping_sub(min);
        if index < count {
            index
        } else {
            INVALID
        }
    } else {
        p.key_tables[table as usize].slot(key).unwrap_or(INVALID)
    }
}

impl Searcher {
    /// Evaluates a scalar expression; a fault (invalid key) is returned as
    /// an error, with the details of the first invalid access.
    #[inline(always)]
    pub(super) fn scalar(&self, p: &Program, s: &Scalar) -> Result<u32, Fault> {
        let v = self.value_of(p, s);
        if v == INVALID {
            Err(self.take_fault())
        } else {
            Ok(v)
        }
    }

    #[inline]
    pub(super) fn offset(&self, p: &Program, base: u32, steps: &[Step]) -> Result<u32, Fault> {
        let at = self.offset_of(p, base, steps);
        if at == INVALID {
            Err(self.take_fault())
        } else {
            Ok(at)
        }
    }

    pub(super) fn take_fault(&self) -> Fault {
        self.fault.take().unwrap_or(Fault::Message(3))
    }

    /// Records the first invalid access of an evaluation.
    #[cold]
    pub(super) fn note_invalid_key(&self, symbol: u32, table: u32) -> u32 {
        if self.fault.get().is_none() {
            self.fault.set(Some(Fault::InvalidKey { symbol, table }));
        }
        INVALID
    }

    /// The value of a scalar expression, or [`INVALID`] after an invalid
    /// access (which propagates: no key table holds `INVALID`). Hot path:
    /// no `Result`, no recursion for the common shapes.
    #[inline(always)]
    pub(super) fn value_of(&self, p: &Program, s: &Scalar) -> u32 {
        match s {
            Scalar::Symbol(id) => *id,
            Scalar::Slot(slot) => self.values[*slot as usize],
            Scalar::Indexed(ix) => {
                let key = self.values[ix.key_slot as usize];
                let slot = key_slot(p, key, ix.contiguous, ix.min, ix.count, ix.table);
                if slot == INVALID {
                    if self.lenient && ix.fallback != INVALID {
                        return ix.fallback;
                    }
                    return self.note_invalid_key(key, ix.table);
                }
                let at = (ix.base + slot * ix.stride) as usize;
                match ix.space {
                    Space::State => self.values[at],
                    Space::Pool => p.pool[at],
                }
            }
            Scalar::Code(code) => self.run_code(p, code),
            Scalar::Access(path) => self.path_value(p, path),
        }
    }

    /// Evaluates postfix access code with a fixed stack.
    #[inline(never)]
    pub(super) fn run_code(&self, p: &Program, code: &Code) -> u32 {
        if code.height <= SMALL_CODE_STACK {
            self.run_code_with::<SMALL_CODE_STACK>(p, code)
        } else {
            self.run_code_with::<CODE_STACK>(p, code)
        }
    }

    #[inline(always)]
    pub(super) fn run_code_with<const N: usize>(&self, p: &Program, code: &Code) -> u32 {
        let mut stack = [0u32; N];
        let mut height = 0usize;
        for op in &code.ops {
            match *op {
                Op::Symbol(id) => {
                    stack[height] = id;
                    height += 1;
                }
                Op::Slot(slot) => {
                    stack[height] = self.values[slot as usize];
                    height += 1;
                }
                Op::Load {
                    space,
                    base,
                    first,
                    count,
                } => {
                    let keys = height - count as usize;
                    let steps = &code.steps[first as usize..(first + count) as usize];
                    let mut offset = base;
                    // A lenient read of a key outside the key type yields
                    // the map's default for this load.
                    let mut lenient = INVALID;
                    for (&key, step) in stack[keys..height].iter().zip(steps) {
                        let slot =
                            key_slot(p, key, step.contiguous, step.min, step.count, step.table);
                        if slot == INVALID {
                            lenient = self.invalid_code_key(key, step);
                            if lenient == INVALID {
                                return INVALID;
                            }
                            break;
                        }
                        offset += slot * step.stride;
                    }
                    stack[keys] = if lenient != INVALID {
                        lenient
                    } else {
                        match space {
                            Space::State => self.values[offset as usize],
                            Space::Pool => p.pool[offset as usize],
                        }
                    };
                    height = keys + 1;
                }
            }
        }
        stack[0]
    }

    /// A key outside its map's key type in a [`Code`] load: the lenient
    /// default when there is one, else [`INVALID`] with the fault noted.
    #[cold]
    pub(super) fn invalid_code_key(&self, key: u32, step: &KeyStep) -> u32 {
        if self.lenient && step.fallback != INVALID {
            return step.fallback;
        }
        self.note_invalid_key(key, step.table)
    }

    #[inline(never)]
    pub(super) fn path_value(&self, p: &Program, path: &Path) -> u32 {
        let mut at = path.base;
        for step in &path.steps {
            let key = self.value_of(p, &step.key);
            let slot = key_slot(p, key, step.contiguous, step.min, step.count, step.table);
            if slot == INVALID {
                if self.lenient && step.fallback != INVALID {
                    return step.fallback;
                }
                return self.note_invalid_key(key, step.table);
            }
            at += slot * step.stride;
        }
        match path.space {
            Space::State => self.values[at as usize],
            Space::Pool => p.pool[at as usize],
        }
    }

    /// The slot reached from `base` by the access steps, or [`INVALID`].
    #[inline]
    pub(super) fn offset_of(&self, p: &Program, base: u32, steps: &[Step]) -> u32 {
        let mut offset = base;
        for step in steps {
            let key = self.value_of(p, &step.key);
            let slot = key_slot(p, key, step.contiguous, step.min, step.count, step.table);
            if slot == INVALID {
                return self.note_invalid_key(key, step.table);
            }
            offset += slot * step.stride;
        }
        offset
    }

    pub(super) fn equal(
        &mut self,
        p: &Program,
        lhs: &Operand,
        rhs: &Operand,
    ) -> Result<bool, Fault> {
        match (lhs, rhs) {
            (Operand::Scalar(a), Operand::Scalar(b)) => {
                Ok(self.scalar(p, a)? == self.scalar(p, b)?)
            }
            (Operand::Region(a), Operand::Region(b)) => {
                let oa = self.offset(p, a.path.base, &a.path.steps)?;
                let ob = self.offset(p, b.path.base, &b.path.steps)?;
                self.scratch.clear();
                self.read_region(p, a.path.space, oa, a.layout.size());
                let left_len = self.scratch.len();
                if a.layout == b.layout {
                    self.read_region(p, b.path.space, ob, b.layout.size());
                    let (l, r) = self.scratch.split_at(left_len);
                    return Ok(l == r);
                }
                // Different layouts of assignable types: compare through the
                // left map's keys.
                let left: Vec<u32> = self.scratch.clone();
                let mut converted = vec![0u32; a.layout.size() as usize];
                let source: Vec<u32> = match b.path.space {
                    Space::State => self.values.clone(),
                    Space::Pool => p.pool.clone(),
                };
                copy_value(
                    &p.key_tables,
                    &source,
                    ob,
                    &b.layout,
                    &mut converted,
                    0,
                    &a.layout,
                )
                .map_err(|m| map_fault(&m))?;
                Ok(left == converted)
            }
            _ => Err(Fault::Message(1)),
        }
    }

    pub(super) fn read_region(&mut self, p: &Program, space: Space, offset: u32, size: u32) {
        let range = offset as usize..(offset + size) as usize;
        match space {
            Space::State => self.scratch.extend_from_slice(&self.values[range]),
            Space::Pool => self.scratch.extend_from_slice(&p.pool[range]),
        }
    }

    #[inline]
    pub(super) fn assign_symbol(
        &mut self,
        p: &Program,
        target: &Target,
        symbol: u32,
    ) -> Result<(), Fault> {
        let offset = self.offset(p, target.base, &target.steps)?;
        self.set(offset, symbol);
        Ok(())
    }

    pub(super) fn assign(
        &mut self,
        p: &Program,
        target: &Target,
        value: &Operand,
    ) -> Result<(), Fault> {
        // Every key and the right side are evaluated before the write.
        let offset = self.offset(p, target.base, &target.steps)?;
        match value {
            Operand::Scalar(s) => {
                let v = self.scalar(p, s)?;
                self.set(offset, v);
            }
            Operand::Region(region) => {
                let source_offset = self.offset(p, region.path.base, &region.path.steps)?;
                let size = target.layout.size() as usize;
                let mut buffer = vec![0u32; size];
                let source: &[u32] = match region.path.space {
                    Space::State => &self.values,
                    Space::Pool => &p.pool,
                };
                copy_value(
                    &p.key_tables,
                    source,
                    source_offset,
                    &region.layout,
                    &mut buffer,
                    0,
                    &target.layout,
                )
                .map_err(|m| map_fault(&m))?;
                for (k, v) in buffer.into_iter().enumerate() {
                    self.set(offset + k as u32, v);
                }
            }
        }
        Ok(())
    }

    pub(super) fn fault(&self, p: &Program, fault: Fault, node: u32) -> ModelError {
        match fault {
            Fault::InvalidKey { symbol, table } => {
                let keys: Vec<&str> = p.key_tables[table as usize]
                    .symbols
                    .iter()
                    .take(8)
                    .map(|&s| p.symbol(s))
                    .collect();
                ModelError::new(format!(
                    "invalid access in node {}: key {} is not in the map's key type {{ {}{} }} \
                     (the description is improper; --lenient reads such keys as the map's default)",
                    p.node_name(node),
                    p.symbol(symbol),
                    keys.join(", "),
                    if p.key_tables[table as usize].symbols.len() > 8 {
                        ", ..."
                    } else {
                        ""
                    }
                ))
            }
            Fault::Message(2) => ModelError::new(format!(
                "move search does not terminate: more than {} steps (in node {}; \
                 the engine's step limit, EngineOptions::step_limit)",
                self.step_limit,
                p.node_name(node)
            )),
            Fault::Message(k) => {
                let message = FAULT_MESSAGES[k as usize];
                ModelError::new(format!("in node {}: {message}", p.node_name(node)))
            }
        }
    }
}
