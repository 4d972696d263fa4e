//! The runtime form of a checked RG game: interned symbols, a flat state
//! vector with maps laid out densely, compiled expressions and the automaton
//! as adjacency arrays (CSR).

use std::rc::Rc;

pub use super::move_scan::{Batch, MoveScan};
pub use super::visit_guard::VisitGuard;

/// Where a value lives: the state vector or the constant pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    State,
    Pool,
}

/// Position of each symbol of a set type used as a map key.
#[derive(Clone, Debug)]
pub struct KeyTable {
    /// Smallest symbol id in the set; `index` is offset by it.
    pub min: u32,
    /// `index[id - min]` = slot of symbol `id`, or `u32::MAX` when absent.
    pub index: Vec<u32>,
    /// The symbols in slot order.
    pub symbols: Vec<u32>,
}

impl KeyTable {
    /// Whether slot `k` holds symbol `min + k` for every slot.
    pub fn is_contiguous(&self) -> bool {
        self.symbols
            .iter()
            .enumerate()
            .all(|(k, &s)| s == self.min + k as u32)
    }

    #[inline]
    pub fn slot(&self, symbol: u32) -> Option<u32> {
        let k = symbol.wrapping_sub(self.min) as usize;
        match self.index.get(k) {
            Some(&slot) if slot != u32::MAX => Some(slot),
            _ => None,
        }
    }
}

/// The memory layout of a value of some type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One slot holding a symbol id.
    Scalar,
    /// `|K|` consecutive copies of the value layout, in key-table order.
    Map {
        table: u32,
        inner: Rc<Layout>,
        size: u32,
    },
}

impl Layout {
    pub fn size(&self) -> u32 {
        match self {
            Layout::Scalar => 1,
            Layout::Map { size, .. } => *size,
        }
    }
}

/// One access step `[key]` into a map of known layout.
#[derive(Clone, Debug)]
pub struct Step {
    pub key: Scalar,
    pub table: u32,
    /// When the key type's symbols are the consecutive ids
    /// `min..min + count` in slot order, the slot is `key - min` (no table
    /// lookup).
    pub contiguous: bool,
    pub min: u32,
    pub count: u32,
    /// Size of the value layout (distance between consecutive keys).
    pub stride: u32,
    /// What a lenient read yields when the key is outside the key type:
    /// the innermost default of the root map's initial value (or
    /// `u32::MAX` when there is none).
    pub fallback: u32,
}

impl Step {
    /// The step's key information, without its key expression.
    pub fn key_step(&self) -> KeyStep {
        KeyStep {
            table: self.table,
            contiguous: self.contiguous,
            min: self.min,
            count: self.count,
            stride: self.stride,
            fallback: self.fallback,
        }
    }
}

/// A path to a value: a base offset in a space plus access steps.
#[derive(Clone, Debug)]
pub struct Path {
    pub space: Space,
    pub base: u32,
    pub steps: Box<[Step]>,
}

/// An expression yielding a symbol.
#[derive(Clone, Debug)]
pub enum Scalar {
    Symbol(u32),
    /// A scalar variable's slot in the state.
    Slot(u32),
    /// The common case `m[v]` with `v` a scalar variable, evaluated without
    /// recursion.
    Indexed(Indexed),
    /// A scalar reached through map accesses (as compiled; turned into
    /// [`Scalar::Code`] by [`Scalar::specialized`]).
    Access(Box<Path>),
    /// Nested accesses as postfix code, evaluated without recursion.
    Code(Box<Code>),
}

/// Postfix code for nested map accesses.
#[derive(Clone, Debug)]
pub struct Code {
    pub ops: Box<[Op]>,
    /// The largest stack height the code reaches.
    pub height: usize,
    /// Key information of every `Load`'s steps, in order.
    pub steps: Box<[KeyStep]>,
}

/// The most values a [`Code`] may keep on its evaluation stack.
pub const CODE_STACK: usize = 32;
/// Codes that stay within this height run with a smaller stack (most do).
pub const SMALL_CODE_STACK: usize = 8;

#[derive(Clone, Copy, Debug)]
pub enum Op {
    /// Pushes a symbol.
    Symbol(u32),
    /// Pushes a scalar variable's value.
    Slot(u32),
    /// Pops `count` keys (pushed first to last), pushes the value at
    /// `base + Σ slot(key_i) * stride_i` of `space`; the keys' table
    /// information is `steps[first..first + count]`.
    Load {
        space: Space,
        base: u32,
        first: u32,
        count: u32,
    },
}

/// How one key of a `Load` finds its slot.
#[derive(Clone, Copy, Debug)]
pub struct KeyStep {
    pub table: u32,
    pub contiguous: bool,
    pub min: u32,
    pub count: u32,
    pub stride: u32,
    pub fallback: u32,
}

impl Code {
    /// Compiles a path; `None` if it would need more than [`CODE_STACK`]
    /// stack entries.
    fn from_path(path: &Path) -> Option<Code> {
        let mut ops = Vec::new();
        let mut steps = Vec::new();
        let depth = emit_path(path, &mut ops, &mut steps, 0)?;
        (depth <= CODE_STACK).then(|| Code {
            ops: ops.into_boxed_slice(),
            height: depth,
            steps: steps.into_boxed_slice(),
        })
    }
}

/// Emits code for `path` when `height` values are already on the stack;
/// returns the largest stack height reached.
fn emit_path(
    path: &Path,
    ops: &mut Vec<Op>,
    steps: &mut Vec<KeyStep>,
    height: usize,
) -> Option<usize> {
    let mut highest = height;
    for (k, step) in path.steps.iter().enumerate() {
        let h = height + k;
        let reached = match &step.key {
            Scalar::Symbol(id) => {
                ops.push(Op::Symbol(*id));
                h + 1
            }
            Scalar::Slot(slot) => {
                ops.push(Op::Slot(*slot));
                h + 1
            }
            Scalar::Access(inner) => emit_path(inner, ops, steps, h)?,
            Scalar::Indexed(_) | Scalar::Code(_) => return None,
        };
        highest = highest.max(reached);
    }
    let first = steps.len() as u32;
    steps.extend(path.steps.iter().map(Step::key_step));
    ops.push(Op::Load {
        space: path.space,
        base: path.base,
        first,
        count: path.steps.len() as u32,
    });
    Some(highest.max(height + 1))
}

/// `space[base + slot(values[key_slot]) * stride]`.
#[derive(Clone, Debug)]
pub struct Indexed {
    pub space: Space,
    pub base: u32,
    pub key_slot: u32,
    pub stride: u32,
    pub table: u32,
    pub contiguous: bool,
    pub min: u32,
    pub count: u32,
    pub fallback: u32,
}

impl Indexed {
    /// The read's key information.
    pub fn key_step(&self) -> KeyStep {
        KeyStep {
            table: self.table,
            contiguous: self.contiguous,
            min: self.min,
            count: self.count,
            stride: self.stride,
            fallback: self.fallback,
        }
    }
}

impl Scalar {
    /// Appends the scalar slots the expression reads directly or as keys
    /// (not the map entries it reads).
    pub fn read_slots(&self, out: &mut Vec<u32>) {
        match self {
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
                    step.key.read_slots(out);
                }
            }
        }
    }

    /// The same expression with one-step accesses keyed by a variable turned
    /// into [`Scalar::Indexed`], recursively.
    pub fn specialized(self) -> Scalar {
        match self {
            Scalar::Access(path) => {
                let Path { space, base, steps } = *path;
                let steps: Vec<Step> = steps.into_vec();
                if let [Step {
                    key: Scalar::Slot(key_slot),
                    table,
                    contiguous,
                    min,
                    count,
                    stride,
                    fallback,
                }] = steps.as_slice()
                {
                    return Scalar::Indexed(Indexed {
                        space,
                        base,
                        key_slot: *key_slot,
                        stride: *stride,
                        table: *table,
                        contiguous: *contiguous,
                        min: *min,
                        count: *count,
                        fallback: *fallback,
                    });
                }
                let path = Path {
                    space,
                    base,
                    steps: steps.into_boxed_slice(),
                };
                match Code::from_path(&path) {
                    Some(code) => Scalar::Code(Box::new(code)),
                    None => Scalar::Access(Box::new(path)),
                }
            }
            other => other,
        }
    }
}

/// An expression yielding a map: where it is and how it is laid out.
#[derive(Clone, Debug)]
pub struct Region {
    pub path: Path,
    pub layout: Rc<Layout>,
    /// Lenient-read value of the root map (see [`Step::fallback`]).
    pub fallback: u32,
}

/// A compiled right-hand side or comparison operand.
#[derive(Clone, Debug)]
pub enum Operand {
    Scalar(Scalar),
    Region(Region),
}

/// An assignment target `x[k1]..[kn]` (always in the state).
#[derive(Clone, Debug)]
pub struct Target {
    pub base: u32,
    pub steps: Box<[Step]>,
    pub layout: Rc<Layout>,
}

/// The action of a compiled edge.
#[derive(Clone, Debug)]
pub enum Action {
    Skip,
    Tag(u32),
    VarTag(Scalar),
    /// Comparison of two symbols (the common case).
    CompareScalars {
        negated: bool,
        lhs: Scalar,
        rhs: Scalar,
    },
    /// Comparison of maps (extensional).
    Compare {
        negated: bool,
        lhs: Operand,
        rhs: Operand,
    },
    Assign {
        target: Target,
        value: Operand,
    },
    AssignAny {
        target: Target,
        symbols: Box<[u32]>,
    },
    /// `player = e`: ends a move (in move searches).
    AssignPlayer(Scalar),
    Reach {
        negated: bool,
        from: u32,
        to: u32,
    },
}

#[derive(Clone, Debug)]
pub struct CompiledEdge {
    pub target: u32,
    pub action: Action,
}

/// Per-node facts precomputed for the searches.
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeInfo {
    /// A move search must remember visited states here (node on a cycle
    /// of non-`player` edges, or a join of several such edges).
    pub visit_in_move: bool,
    /// Same for reachability searches (all edges count).
    pub visit_in_reach: bool,
    /// Some `player` assignment is graph-reachable from here without
    /// crossing one; move searches never enter other nodes.
    pub can_finish_move: bool,
    /// The node has exactly one outgoing edge, a deterministic action
    /// (not an any-assignment nor a `player` assignment): searches follow
    /// it inline instead of opening a frame.
    pub single_step: bool,
    /// The node (not `end`) has exactly one outgoing edge, a `player`
    /// assignment: a move search completes the move on arrival instead
    /// of opening a frame for it.
    pub completes: bool,
    /// Distinct walks of a move search started here spell distinct tag
    /// sequences, so its moves are counted by walks (see
    /// `distinct_walks`).
    pub distinct_walks: bool,
    /// The node has from 2 to 64 edges, all comparisons of symbols: a
    /// move search evaluates them together when it enters the node.
    pub tests_only: bool,
    /// A `@disjoint` pragma covers every edge leaving the node: once one
    /// passes, the others cannot (the pragma's claim), so they are skipped.
    pub disjoint: bool,
    /// On a ray loop, the guard (an index into [`Program::visit_guards`])
    /// that tells when the move search's visited check can be skipped.
    pub move_guard: Option<u32>,
    /// Same for reachability searches.
    pub reach_guard: Option<u32>,
}

/// A compiled game.
#[derive(Clone, Debug)]
pub struct Program {
    pub symbols: Vec<String>,
    pub nodes: Vec<String>,
    pub begin: u32,
    pub end: u32,
    /// CSR adjacency: edges of node `n` are `edges[edge_start[n]..edge_start[n + 1]]`.
    pub edge_start: Vec<u32>,
    pub edges: Vec<CompiledEdge>,
    pub node_info: Vec<NodeInfo>,
    /// Per edge, how a move search rejects an any-assignment's squares in
    /// place (see [`MoveScan`]).
    pub move_scans: Box<[Option<Box<MoveScan>>]>,
    /// Per edge, the test of a check's scan looked for in one loop (see
    /// [`super::move_scan::check_scan_batches`]).
    pub check_scan_batches: Box<[Option<Box<Batch>>]>,
    /// The guards of the visited checks on ray loops.
    pub visit_guards: Vec<VisitGuard>,
    pub key_tables: Vec<KeyTable>,
    pub pool: Vec<u32>,
    pub initial: Vec<u32>,
    /// Symbol ids of `Player`, in declaration order.
    pub players: Vec<u32>,
    pub keeper: u32,
    pub random: u32,
    pub player_slot: u32,
    /// `goals` map: base slot and key table (over `Player`).
    pub goals_base: u32,
    pub goals_table: u32,
    /// `visible` map base slot and key table, and whether any edge assigns it.
    pub visible_base: u32,
    pub visible_table: u32,
    pub visibility_changes: bool,
    /// The symbol `1` (visible).
    pub one: u32,
    /// Numeric value of each `Score` symbol (its integer, else its position).
    pub score_values: Vec<(u32, i64)>,
    /// Slots of each variable, for display: (name, base, layout).
    pub variables: Vec<(String, u32, Rc<Layout>)>,
}

impl Program {
    #[inline]
    pub fn edges_of(&self, node: u32) -> std::ops::Range<usize> {
        self.edge_start[node as usize] as usize..self.edge_start[node as usize + 1] as usize
    }

    /// Whether a visited check under `guard` can be skipped in state
    /// `values` (see [`VisitGuard`]).
    #[inline]
    pub fn skips_visit(&self, guard: Option<u32>, values: &[u32]) -> bool {
        guard.is_some_and(|g| self.visit_guards[g as usize].skips(values))
    }

    pub fn symbol(&self, id: u32) -> &str {
        &self.symbols[id as usize]
    }

    pub fn node_name(&self, id: u32) -> &str {
        &self.nodes[id as usize]
    }
}
