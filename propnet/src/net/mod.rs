//! Propositional networks (gdl.md §6): a boolean circuit equivalent to the
//! ground program, built with one component per atom, optimized (constant
//! propagation, single-input gates collapsed, dead components removed) and
//! evaluated in topological order, strongly connected components (recursive
//! views, NOT-free by stratification) by iteration from false.

mod build;

pub use build::{build, NetOutputs};

/// What a component computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    /// The base proposition of the state fact with this index.
    Base(u32),
    /// The input proposition of the (role, action) with this index.
    Input(u32),
    /// The atom of a run-time relation with this index, set from the state
    /// like a base proposition (gdl.md §5.8).
    Runtime(u32),
    And,
    Or,
    Not,
    Constant(bool),
}

/// One evaluation step: a component, or a cycle iterated to its least fixpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalStep {
    Single(u32),
    Cycle(Vec<u32>),
}

/// A compiled network.
#[derive(Clone, Debug, Default)]
pub struct Propnet {
    pub gates: Vec<Gate>,
    /// Inputs of component c: `fanin[offsets[c]..offsets[c + 1]]`.
    pub offsets: Vec<u32>,
    pub fanin: Vec<u32>,
    /// Components that do not depend on inputs, in evaluation order.
    pub state_steps: Vec<EvalStep>,
    /// Components that depend on inputs, in evaluation order.
    pub move_steps: Vec<EvalStep>,
}

impl Propnet {
    pub fn len(&self) -> usize {
        self.gates.len()
    }

    pub fn is_empty(&self) -> bool {
        self.gates.is_empty()
    }

    #[inline]
    pub fn inputs(&self, c: u32) -> &[u32] {
        &self.fanin[self.offsets[c as usize] as usize..self.offsets[c as usize + 1] as usize]
    }

    #[inline]
    fn compute(&self, c: u32, values: &[u8]) -> u8 {
        match self.gates[c as usize] {
            Gate::And => u8::from(self.inputs(c).iter().all(|&i| values[i as usize] != 0)),
            Gate::Or => u8::from(self.inputs(c).iter().any(|&i| values[i as usize] != 0)),
            Gate::Not => u8::from(
                self.inputs(c)
                    .first()
                    .filter(|&&i| values[i as usize] != 0)
                    .is_none(),
            ),
            Gate::Constant(b) => u8::from(b),
            Gate::Base(_) | Gate::Input(_) | Gate::Runtime(_) => values[c as usize],
        }
    }

    /// Evaluates the steps; base and input values must already be set.
    pub fn evaluate(&self, steps: &[EvalStep], values: &mut [u8]) {
        for step in steps {
            match step {
                EvalStep::Single(c) => values[*c as usize] = self.compute(*c, values),
                EvalStep::Cycle(members) => {
                    for &m in members {
                        values[m as usize] = 0;
                    }
                    let mut changed = true;
                    while changed {
                        changed = false;
                        for &m in members {
                            let v = self.compute(m, values);
                            if v != values[m as usize] {
                                values[m as usize] = v;
                                changed = true;
                            }
                        }
                    }
                }
            }
        }
    }
}
