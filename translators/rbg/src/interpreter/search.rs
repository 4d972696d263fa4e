//! The move search of rbg.md §3.8 on a mutable working copy of the state.
//!
//! The search is iterative: one explicit task stack holds the nodes still to
//! expand, deferred modifier applications and "undo" markers that close a
//! modifier-prefix level. Only pattern nesting (bounded by the text) uses
//! Rust recursion, so improper games hit the straightness guard instead of
//! overflowing the stack.

use rg_core::fx_hash::FxSet;
use rg_core::model::ModelError;

use super::compile::{Action, Expr, Tables, NONE};
use super::nfa::Automaton;
use crate::ast::ArithOp;

/// Most modifier applications in one chain (one move plus the patterns
/// evaluated inside it) before the game is declared improper (rbg.md §3.7).
pub const MAX_STRAIGHTNESS: usize = 10_000;

/// Levels deeper than this always use hashed visited sets, so that an
/// improper game cannot allocate thousands of dense arrays.
const MAX_DENSE_DEPTH: usize = 24;
/// Largest dense visited array (keys × vertices) per level.
const MAX_DENSE_ENTRIES: usize = 1 << 19;

/// The mutable part of a state while searching.
pub struct Work {
    pub board: Vec<u8>,
    /// Variable slots (players first, then variables).
    pub variables: Vec<u32>,
    pub counters: Vec<u32>,
}

impl Work {
    #[inline]
    pub fn set_piece(&mut self, vertex: u32, piece: u8) -> u8 {
        let old = self.board[vertex as usize];
        self.counters[old as usize] -= 1;
        self.counters[piece as usize] += 1;
        self.board[vertex as usize] = piece;
        old
    }

    pub fn eval(&self, expr: &Expr) -> Option<i128> {
        Some(match expr {
            Expr::Const(c) => *c,
            Expr::Var(slot) => i128::from(self.variables[*slot as usize]),
            Expr::Count(piece) => i128::from(self.counters[*piece as usize]),
            Expr::Binary(op, left, right) => {
                let (a, b) = (self.eval(left)?, self.eval(right)?);
                match op {
                    ArithOp::Add => a.checked_add(b)?,
                    ArithOp::Sub => a.checked_sub(b)?,
                    ArithOp::Mul => a.checked_mul(b)?,
                    // Rust's `/` truncates toward zero, as rbg.md §2.8 requires.
                    ArithOp::Div => a.checked_div(b)?,
                }
            }
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Collect every move.
    All,
    /// Count moves without building them.
    Count,
    /// Stop at the first move (keeper completion, terminal tests).
    First,
    /// Pattern evaluation: stop when the final state is reachable.
    Pattern,
}

#[derive(Clone, Copy)]
enum Task {
    Expand {
        key: u32,
        vertex: u32,
    },
    Modifier {
        transition: u32,
        vertex: u32,
    },
    /// Closes a level: restore what the modifier changed.
    UndoPiece {
        vertex: u32,
        old: u8,
        recorded: bool,
    },
    UndoVariable {
        slot: u32,
        old: u32,
        recorded: bool,
    },
}

enum LevelSet {
    /// `stamps[key * vertices + v] == stamp` marks a visited pair.
    Dense {
        stamps: Vec<u32>,
        stamp: u32,
    },
    Hashed(FxSet<u64>),
}

/// Reusable search memory: visited sets per (automaton, level depth).
pub struct Scratch {
    pub work: Work,
    tasks: Vec<Task>,
    pub prefix: Vec<(u32, u32)>,
    levels: Vec<Vec<LevelSet>>,
    next_stamp: u32,
    /// A unique id per level instance, per automaton and depth: the
    /// semistate is fixed within a level instance (only the position moves).
    level_ids: Vec<Vec<u64>>,
    level_counter: u64,
    /// Per pattern automaton, the last evaluation: (level id, vertex, result).
    memo: Vec<(u64, u32, bool)>,
    /// Active level depth of each automaton (at most one live run each).
    depths: Vec<usize>,
    /// Modifier applications currently in effect (straightness guard).
    applied: usize,
}

impl Scratch {
    pub fn new(tables: &Tables) -> Self {
        Scratch {
            work: Work {
                board: Vec::new(),
                variables: Vec::new(),
                counters: Vec::new(),
            },
            tasks: Vec::new(),
            prefix: Vec::new(),
            levels: (0..tables.automata.len()).map(|_| Vec::new()).collect(),
            next_stamp: 0,
            level_ids: (0..tables.automata.len()).map(|_| Vec::new()).collect(),
            level_counter: 0,
            memo: vec![(u64::MAX, 0, false); tables.automata.len()],
            depths: vec![0; tables.automata.len()],
            applied: 0,
        }
    }

    fn reset(&mut self) {
        self.tasks.clear();
        self.prefix.clear();
        self.applied = 0;
    }

    /// Starts a fresh level at `depth` of `automaton`.
    fn begin_level(&mut self, tables: &Tables, automaton: usize, depth: usize) {
        let vertices = tables.vertex_names.len();
        let keys = tables.automata[automaton].key_count();
        self.level_counter += 1;
        let ids = &mut self.level_ids[automaton];
        if ids.len() <= depth {
            ids.resize(depth + 1, 0);
        }
        ids[depth] = self.level_counter;
        let levels = &mut self.levels[automaton];
        while levels.len() <= depth {
            let dense = levels.len() < MAX_DENSE_DEPTH
                && keys.saturating_mul(vertices) <= MAX_DENSE_ENTRIES;
            levels.push(if dense {
                LevelSet::Dense {
                    stamps: vec![0; keys * vertices],
                    stamp: 0,
                }
            } else {
                LevelSet::Hashed(FxSet::default())
            });
        }
        match &mut levels[depth] {
            LevelSet::Dense { stamps, stamp } => {
                if self.next_stamp == u32::MAX {
                    // Stamps wrapped: forget every old mark.
                    self.next_stamp = 0;
                    for level in self.levels.iter_mut().flatten() {
                        if let LevelSet::Dense { stamps, .. } = level {
                            stamps.fill(0);
                        }
                    }
                    return self.begin_level(tables, automaton, depth);
                }
                self.next_stamp += 1;
                *stamp = self.next_stamp;
                let _ = stamps;
            }
            LevelSet::Hashed(set) => set.clear(),
        }
    }

    /// Marks (key, vertex) at the current level; false if already marked.
    #[inline]
    fn mark(&mut self, vertices: usize, automaton: usize, key: u32, vertex: u32) -> bool {
        let depth = self.depths[automaton];
        match &mut self.levels[automaton][depth] {
            LevelSet::Dense { stamps, stamp } => {
                let cell = &mut stamps[key as usize * vertices + vertex as usize];
                if *cell == *stamp {
                    false
                } else {
                    *cell = *stamp;
                    true
                }
            }
            LevelSet::Hashed(set) => set.insert((u64::from(key) << 32) | u64::from(vertex)),
        }
    }
}

/// One run of the DFS on one automaton: what its tasks read and the
/// level it is at.
struct Run<'t> {
    automaton: usize,
    nfa: &'t Automaton<Action>,
    needs_mark: &'t [bool],
    /// Modifier levels opened by this run.
    depth: usize,
    /// One successor of the node just expanded, kept off the task stack.
    pending: Option<Task>,
}

/// What a search found.
pub struct Found {
    pub count: u64,
    pub moves: Vec<Vec<(u32, u32)>>,
}

pub struct Search<'a> {
    pub tables: &'a Tables,
    pub scratch: &'a mut Scratch,
}

impl Search<'_> {
    /// Searches the main automaton from `key` at `vertex` on `scratch.work`.
    pub fn moves(&mut self, key: u32, vertex: u32, mode: Mode) -> Result<Found, ModelError> {
        self.scratch.reset();
        let mut found = Found {
            count: 0,
            moves: Vec::new(),
        };
        self.run(0, key, vertex, mode, &mut found)?;
        Ok(found)
    }

    /// One run of the DFS on `automaton`. Returns true when stopped early
    /// (a first move found, or a pattern's final state reached); the work
    /// state is always restored on return.
    fn run(
        &mut self,
        automaton: usize,
        root: u32,
        root_vertex: u32,
        mode: Mode,
        found: &mut Found,
    ) -> Result<bool, ModelError> {
        let tables = self.tables;
        let base = self.scratch.tasks.len();
        let outer_depth = self.scratch.depths[automaton];
        let mut run = Run {
            automaton,
            nfa: &tables.automata[automaton],
            needs_mark: &tables.needs_mark[automaton],
            depth: 0,
            pending: None,
        };
        self.scratch.depths[automaton] = 0;
        self.scratch.begin_level(tables, automaton, 0);
        // The root is not marked: its key (the start, or the target of the
        // last modifier or switch) is never re-entered inside its level, and
        // the mark for "modifier t applied at v" uses that same key.
        self.scratch.tasks.push(Task::Expand {
            key: root,
            vertex: root_vertex,
        });
        let result = loop {
            let next = match run.pending.take() {
                Some(task) => Some(task),
                None if self.scratch.tasks.len() > base => self.scratch.tasks.pop(),
                None => None,
            };
            let Some(task) = next else {
                break Ok(false);
            };
            match task {
                Task::Expand { key, vertex } => {
                    match self.expand(&mut run, key, vertex, mode, found) {
                        Ok(true) => break Ok(true),
                        Ok(false) => {}
                        Err(error) => break Err(error),
                    }
                }
                Task::Modifier { transition, vertex } => {
                    if let Err(error) = self.apply_modifier(&mut run, transition, vertex) {
                        break Err(error);
                    }
                }
                Task::UndoPiece { .. } | Task::UndoVariable { .. } => {
                    self.undo(task);
                    run.depth -= 1;
                    self.scratch.depths[automaton] = run.depth;
                }
            }
        };
        // Unwind whatever this run left (early stop or error), undoing effects.
        while self.scratch.tasks.len() > base {
            if let Some(task) = self.scratch.tasks.pop() {
                self.undo(task);
            }
        }
        self.scratch.depths[automaton] = outer_depth;
        result
    }

    /// Follows every transition of `key`'s closure at `vertex`: tests and
    /// shifts lead to successors, modifiers are deferred as tasks, switches
    /// end moves. Returns true when the run should stop (a pattern's final
    /// state, or the first move in `Mode::First`).
    #[inline]
    fn expand(
        &mut self,
        run: &mut Run<'_>,
        key: u32,
        vertex: u32,
        mode: Mode,
        found: &mut Found,
    ) -> Result<bool, ModelError> {
        let tables = self.tables;
        let vertices = tables.vertex_names.len();
        let labels = tables.label_count;
        let (automaton, nfa, needs_mark) = (run.automaton, run.nfa, run.needs_mark);
        if mode == Mode::Pattern && nfa.reaches_final(key) {
            return Ok(true);
        }
        for &t in nfa.closure(key) {
            let target = Automaton::<Action>::target_key(t);
            let next_vertex = match &nfa.actions[t as usize] {
                Action::Shift(label) => {
                    if *label == NONE {
                        continue;
                    }
                    let w = tables.neighbors[vertex as usize * labels + *label as usize];
                    if w == NONE {
                        continue;
                    }
                    w
                }
                Action::On(set) => {
                    if !set.contains(self.scratch.work.board[vertex as usize]) {
                        continue;
                    }
                    vertex
                }
                Action::Compare(left, op, right) => {
                    let work = &self.scratch.work;
                    match (work.eval(left), work.eval(right)) {
                        (Some(a), Some(b)) if op.holds(a, b) => vertex,
                        _ => continue,
                    }
                }
                Action::Pattern {
                    automaton: inner,
                    negated,
                } => {
                    let inner = *inner as usize;
                    let level = self.scratch.level_ids[automaton][run.depth];
                    let (memo_level, memo_vertex, memo_holds) = self.scratch.memo[inner];
                    let holds = if memo_level == level && memo_vertex == vertex {
                        memo_holds
                    } else {
                        let holds = self.run(inner, 0, vertex, Mode::Pattern, found)?;
                        self.scratch.memo[inner] = (level, vertex, holds);
                        holds
                    };
                    if holds == *negated {
                        continue;
                    }
                    vertex
                }
                Action::Noop => vertex,
                Action::Off { .. } | Action::Assign { .. } => {
                    if !needs_mark[t as usize]
                        || self.scratch.mark(vertices, automaton, target, vertex)
                    {
                        self.scratch.tasks.push(Task::Modifier {
                            transition: t,
                            vertex,
                        });
                    }
                    continue;
                }
                Action::Switch { modifier, .. } => {
                    if needs_mark[t as usize]
                        && !self.scratch.mark(vertices, automaton, target, vertex)
                    {
                        continue;
                    }
                    found.count += 1;
                    match mode {
                        Mode::All | Mode::First => {
                            let mut pairs = self.scratch.prefix.clone();
                            pairs.push((*modifier, vertex));
                            found.moves.push(pairs);
                        }
                        Mode::Count | Mode::Pattern => {}
                    }
                    if mode == Mode::First {
                        break;
                    }
                    continue;
                }
            };
            if !needs_mark[t as usize]
                || self.scratch.mark(vertices, automaton, target, next_vertex)
            {
                let successor = Task::Expand {
                    key: target,
                    vertex: next_vertex,
                };
                // One successor is kept out of the stack (nodes of one
                // level may be expanded in any order).
                match run.pending {
                    None => run.pending = Some(successor),
                    Some(_) => self.scratch.tasks.push(successor),
                }
            }
        }
        Ok(mode == Mode::First && found.count > 0)
    }

    /// Applies a deferred modifier at `vertex` and opens the level it
    /// starts (an assignment out of its variable's bounds is a dead end).
    #[inline]
    fn apply_modifier(
        &mut self,
        run: &mut Run<'_>,
        transition: u32,
        vertex: u32,
    ) -> Result<(), ModelError> {
        let tables = self.tables;
        let automaton = run.automaton;
        let recorded = automaton == 0;
        let undo = match &run.nfa.actions[transition as usize] {
            Action::Off { piece, .. } => {
                let old = self.scratch.work.set_piece(vertex, *piece);
                Task::UndoPiece {
                    vertex,
                    old,
                    recorded,
                }
            }
            Action::Assign { slot, value, .. } => {
                let work = &mut self.scratch.work;
                let bound = tables.bounds[*slot as usize];
                match work.eval(value).and_then(|v| u32::try_from(v).ok()) {
                    Some(v) if v <= bound => {
                        let old = work.variables[*slot as usize];
                        work.variables[*slot as usize] = v;
                        Task::UndoVariable {
                            slot: *slot,
                            old,
                            recorded,
                        }
                    }
                    _ => return Ok(()),
                }
            }
            _ => return Ok(()),
        };
        if recorded {
            let modifier = match &run.nfa.actions[transition as usize] {
                Action::Off { modifier, .. } | Action::Assign { modifier, .. } => *modifier,
                _ => 0,
            };
            self.scratch.prefix.push((modifier, vertex));
        }
        self.scratch.tasks.push(undo);
        self.scratch.applied += 1;
        if self.scratch.applied > MAX_STRAIGHTNESS {
            return Err(ModelError::new(format!(
                "more than {MAX_STRAIGHTNESS} modifiers applied in one move; \
                 the game is not finitely straight (rbg.md §3.7)"
            )));
        }
        run.depth += 1;
        self.scratch.depths[automaton] = run.depth;
        self.scratch.begin_level(tables, automaton, run.depth);
        let target = Automaton::<Action>::target_key(transition);
        self.scratch.tasks.push(Task::Expand {
            key: target,
            vertex,
        });
        Ok(())
    }

    #[inline]
    fn undo(&mut self, task: Task) {
        match task {
            Task::UndoPiece {
                vertex,
                old,
                recorded,
            } => {
                self.scratch.work.set_piece(vertex, old);
                self.finish_undo(recorded);
            }
            Task::UndoVariable {
                slot,
                old,
                recorded,
            } => {
                self.scratch.work.variables[slot as usize] = old;
                self.finish_undo(recorded);
            }
            Task::Expand { .. } | Task::Modifier { .. } => {}
        }
    }

    #[inline]
    fn finish_undo(&mut self, recorded: bool) {
        if recorded {
            self.scratch.prefix.pop();
        }
        self.scratch.applied -= 1;
    }
}
