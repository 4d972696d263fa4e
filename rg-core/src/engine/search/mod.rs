//! Move generation (rg.md §5.7) and reachability checks (§5.3).
//!
//! Both are depth-first searches over the automaton with the semistate
//! mutated in place and restored from an undo log, so no state is copied
//! except when a move completes. The explicit frame stack keeps deep
//! automata (long keeper chains) off the call stack.
//!
//! Visited sets store 128-bit hashes of (node, semistate, tag prefix),
//! maintained incrementally on every write; they are kept only at nodes
//! where a search can arrive twice (cycles and joins, see `analysis`).

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use crate::model::ModelError;

mod eval;

use super::program::{Action, Batch, CompiledEdge, MoveScan, Operand, Program, Space};
use super::state::{contribution, node_contribution, tag_contribution, Prehashed, State};
use eval::{Fault, INVALID};

/// Search steps (edges tried, in the move search and in the reachability
/// checks it evaluates) allowed in one move generation before it is
/// declared non-terminating. The largest move generation of the corpus
/// (arimaa_fixedPosition through RG) takes about 2,000,000 steps; a search
/// that walks a cycle emitting tags spends a few seconds and a few hundred
/// megabytes of visited states on this many.
pub const DEFAULT_STEP_LIMIT: u64 = 20_000_000;
/// Steps between two readings of the clock when a deadline is set.
const CLOCK_INTERVAL: u64 = 1 << 14;
/// Deepest nesting of reachability checks during one search (the message
/// of [`eval::TOO_DEEP`] names it).
const MAX_CHECK_NESTING: usize = 1000;
/// Longest tag sequence allowed in one move.
pub const MAX_MOVE_TAGS: usize = 100_000;

/// A move found by a search: its tags and the state it leads to.
#[derive(Clone, Debug)]
pub struct FoundMove {
    pub tags: Box<[u32]>,
    /// Per tag, the set of players (bit `i` = `Player` number `i`) that saw
    /// it; present only when the game ever changes `visible`.
    pub visibility: Option<Box<[u64]>>,
    pub next: State,
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    node: u32,
    /// Next edge to try (absolute index) and the end of the node's edges.
    edge: u32,
    edge_end: u32,
    /// For an any-assignment edge: the next symbol to try.
    alternative: u32,
    /// Undo-log length and tag count when this frame was entered.
    undo_mark: u32,
    tags_len: u32,
    /// For a batched any-assignment (`MoveScan::batch`): bit `k` set when
    /// a symbol of the current window of 64 (the one holding the
    /// alternative) passes the test, computed when the scan enters the
    /// window (the semistate is the same at every return to the frame).
    /// For a frame with `tested` set: bit `k` set when the node's edge
    /// `k` passes.
    passing: u64,
    /// The node's edges are all comparisons (`NodeInfo::tests_only`),
    /// evaluated together when the frame was pushed: the search skips
    /// those that fail and takes those that pass without testing again.
    tested: bool,
    /// A batched any-assignment most of whose first 64 squares pass: the
    /// full search tries every square itself.
    plain_scan: bool,
}

#[derive(Default)]
struct Level {
    stack: Vec<Frame>,
    visited: HashSet<u128, Prehashed>,
}

/// The test of a check's scan `x = T(*)` (a scalar `x`) whose next node
/// is entered without a visited check and has one edge, a comparison of
/// symbols, straight to the check's target `to`: a square passes exactly
/// when the test holds, and the search tries the squares one by one in
/// place (`Searcher::scan`; breakthrough.rg's `? findPawn -> pawnExists`
/// steps over 48 squares before the first white pawn).
fn scan_test<'p>(p: &'p Program, edge: &CompiledEdge, to: u32) -> Option<&'p Action> {
    let Action::AssignAny { target, .. } = &edge.action else {
        return None;
    };
    let next = edge.target;
    let info = p.node_info[next as usize];
    if !target.steps.is_empty() || next == to || info.visit_in_reach || !info.single_step {
        return None;
    }
    let test = &p.edges[p.edge_start[next as usize] as usize];
    (test.target == to && matches!(test.action, Action::CompareScalars { .. }))
        .then_some(&test.action)
}

#[cold]
#[inline(never)]
fn too_many_tags(p: &Program, node: u32) -> ModelError {
    ModelError::new(format!(
        "move search does not terminate: a move has more than {MAX_MOVE_TAGS} tags (in node {})",
        p.node_name(node)
    ))
}

/// What a move search collects.
enum Sink<'a> {
    Count {
        seen: &'a mut HashSet<u128, Prehashed>,
    },
    /// Counting where distinct walks spell distinct tag sequences
    /// (`NodeInfo::distinct_walks`): completed walks, no set.
    CountWalks { walks: &'a mut u64 },
    Moves {
        index: &'a mut HashMap<u128, usize, Prehashed>,
        found: &'a mut Vec<FoundMove>,
    },
}

/// The reusable search machinery of an engine.
pub struct Searcher {
    values: Vec<u32>,
    /// Hash of the semistate as it was when the undo log had `hashed_upto`
    /// entries; later writes are folded in only when a hash is needed
    /// (most searches never need one).
    hash: u128,
    hashed_upto: usize,
    /// Undo log: (slot, old value, new value).
    log: Vec<(u32, u32, u32)>,
    tags: Vec<u32>,
    /// `prefix_hashes[k]` is the hash of `tags[..=k]`, so that the hash of
    /// the current prefix costs one read (a walk around a cycle that emits
    /// tags hashes a longer prefix at every node).
    prefix_hashes: Vec<u128>,
    tag_visibility: Vec<u64>,
    levels: Vec<Level>,
    reach_cache: HashMap<(u32, u32, u128), bool, Prehashed>,
    steps: u64,
    pub step_limit: u64,
    /// The search stops once the clock passes it (perft's time limit).
    pub deadline: Option<Instant>,
    /// The step count at which `tick` next looks at the limits: the step
    /// limit, or sooner when a deadline must be read.
    check_at: u64,
    scratch: Vec<u32>,
    count_seen: HashSet<u128, Prehashed>,
    move_index: HashMap<u128, usize, Prehashed>,
    /// Buffers of states the caller no longer needs, reused for the next
    /// states of found moves (a playout would otherwise allocate one per
    /// legal move and ply).
    spare_values: Vec<Box<[u32]>>,
    /// The same for tag sequences, by length.
    spare_tags: Vec<Vec<Box<[u32]>>>,
    /// The first invalid access of the current evaluation.
    fault: std::cell::Cell<Option<Fault>>,
    /// Reads of keys outside a map's key type yield the map's default
    /// instead of failing (rg.md §5.2, "lenient interpreter").
    pub lenient: bool,
    /// Keeper searches stop at the first completed walk (see
    /// [`super::EngineOptions::first_keeper_walk`]).
    pub first_keeper_walk: bool,
    /// Set for the current search: stop once a move is found.
    stop_at_first: bool,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher {
            values: Vec::new(),
            hash: 0,
            hashed_upto: 0,
            log: Vec::new(),
            tags: Vec::new(),
            prefix_hashes: Vec::new(),
            tag_visibility: Vec::new(),
            levels: Vec::new(),
            reach_cache: HashMap::default(),
            steps: 0,
            step_limit: DEFAULT_STEP_LIMIT,
            deadline: None,
            check_at: 0,
            scratch: Vec::new(),
            count_seen: HashSet::default(),
            move_index: HashMap::default(),
            spare_values: Vec::new(),
            spare_tags: Vec::new(),
            fault: std::cell::Cell::new(None),
            lenient: false,
            first_keeper_walk: false,
            stop_at_first: false,
        }
    }
}

/// What a move scan learnt of the square at its frame's alternative.
enum Square {
    /// It passes the test: the search walks its chain without testing.
    Passes,
    /// Its test faults: the full search reports the fault.
    Unknown,
    /// No square is left; the frame moved past the edge.
    Exhausted,
}

/// Whether a node may be entered, and its frame.
enum Enter {
    Pushed,
    Skipped,
    /// A reachability search arrived at its target.
    Found,
    /// A move search met a node whose one edge ends the move, and
    /// completed the move there instead of pushing a frame (reachability
    /// searches never complete moves).
    Completed,
}

impl Searcher {
    fn load(&mut self, state: &State) {
        self.values.clear();
        self.values.extend_from_slice(&state.values);
        self.hash = state.hash;
        self.hashed_upto = 0;
        self.log.clear();
        self.tags.clear();
        self.prefix_hashes.clear();
        self.tag_visibility.clear();
        self.reach_cache.clear();
        self.steps = 0;
        self.check_at = self.next_check();
        self.stop_at_first = false;
    }

    /// All distinct moves of `state` with the states they lead to.
    pub fn moves(
        &mut self,
        p: &Program,
        state: &State,
        out: &mut Vec<FoundMove>,
    ) -> Result<(), ModelError> {
        out.clear();
        if state.node == p.end {
            return Ok(());
        }
        self.load(state);
        self.stop_at_first =
            self.first_keeper_walk && state.values[p.player_slot as usize] == p.keeper;
        let mut index = std::mem::take(&mut self.move_index);
        index.clear();
        let result = self.run_moves(
            p,
            state.node,
            &mut Sink::Moves {
                index: &mut index,
                found: out,
            },
        );
        self.move_index = index;
        result
    }

    /// Keeps the buffers of a move the caller no longer needs for the
    /// moves found later.
    pub fn recycle(&mut self, values: Box<[u32]>, tags: Box<[u32]>) {
        const MAX_SPARE: usize = 4096;
        const MAX_TAGS: usize = 64;
        if self.spare_values.len() < MAX_SPARE {
            self.spare_values.push(values);
        }
        if tags.len() < MAX_TAGS {
            if self.spare_tags.len() <= tags.len() {
                self.spare_tags.resize_with(tags.len() + 1, Vec::new);
            }
            let pool = &mut self.spare_tags[tags.len()];
            if pool.len() < MAX_SPARE {
                pool.push(tags);
            }
        }
    }

    /// The number of distinct moves of `state` (tag sequences only).
    pub fn count(&mut self, p: &Program, state: &State) -> Result<u64, ModelError> {
        if state.node == p.end {
            return Ok(0);
        }
        self.load(state);
        if p.node_info[state.node as usize].distinct_walks {
            let mut walks = 0;
            self.run_moves(p, state.node, &mut Sink::CountWalks { walks: &mut walks })?;
            return Ok(walks);
        }
        let mut seen = std::mem::take(&mut self.count_seen);
        seen.clear();
        let result = self.run_moves(p, state.node, &mut Sink::Count { seen: &mut seen });
        let count = seen.len() as u64;
        self.count_seen = seen;
        result.map(|()| count)
    }

    fn level(&mut self, depth: usize) -> Level {
        if self.levels.len() <= depth {
            self.levels.resize_with(depth + 1, Level::default);
        }
        let mut level = std::mem::take(&mut self.levels[depth]);
        level.stack.clear();
        level.visited.clear();
        level
    }

    fn run_moves(
        &mut self,
        p: &Program,
        start: u32,
        sink: &mut Sink<'_>,
    ) -> Result<(), ModelError> {
        let mut level = self.level(0);
        let result = self.search_moves(p, start, &mut level, sink);
        self.levels[0] = level;
        result
    }

    /// The hash of the current semistate.
    #[inline]
    fn state_hash(&mut self) -> u128 {
        for &(slot, old, new) in &self.log[self.hashed_upto..] {
            self.hash ^= contribution(slot, old) ^ contribution(slot, new);
        }
        self.hashed_upto = self.log.len();
        self.hash
    }

    /// The hash of the tags emitted so far. Hashes are folded in only
    /// when asked for (counting by walks never asks).
    #[inline]
    fn prefix_hash(&mut self) -> u128 {
        let mut hash = self.prefix_hashes.last().copied().unwrap_or(0);
        for position in self.prefix_hashes.len()..self.tags.len() {
            hash ^= tag_contribution(position, self.tags[position]);
            self.prefix_hashes.push(hash);
        }
        hash
    }

    #[inline]
    fn visited_key(&mut self, node: u32, with_prefix: bool) -> u128 {
        let prefix = if with_prefix { self.prefix_hash() } else { 0 };
        self.state_hash() ^ prefix ^ node_contribution(node)
    }

    /// Enters `node` in a move search: follows single-edge chains inline,
    /// then pushes a frame — unless the walk is pointless (cannot finish a
    /// move), fails a test, or meets a visited (node, state, prefix).
    #[inline(always)]
    fn enter_move(
        &mut self,
        p: &Program,
        level: &mut Level,
        mut node: u32,
        mark: usize,
        tags_len: usize,
        sink: &mut Sink<'_>,
    ) -> Result<Enter, ModelError> {
        loop {
            let info = p.node_info[node as usize];
            if !info.can_finish_move
                || (info.visit_in_move
                    && !p.skips_visit(info.move_guard, &self.values)
                    && !level.visited.insert(self.visited_key(node, true)))
            {
                return Ok(Enter::Skipped);
            }
            if info.completes {
                // The frame's one step, taken here.
                let edge = &p.edges[p.edge_start[node as usize] as usize];
                self.count_step(p, node)?;
                let Action::AssignPlayer(value) = &edge.action else {
                    unreachable!("a completing node's edge assigns the player")
                };
                let player = self.scalar(p, value).map_err(|f| self.fault(p, f, node))?;
                self.complete_move(p, edge.target, player, sink)?;
                return Ok(Enter::Completed);
            }
            if !info.single_step {
                break;
            }
            let edge = &p.edges[p.edge_start[node as usize] as usize];
            self.count_step(p, node)?;
            let passes = match &edge.action {
                Action::Tag(t) => {
                    self.push_tag(p, *t, node)?;
                    true
                }
                Action::VarTag(v) => {
                    let t = self.scalar(p, v).map_err(|f| self.fault(p, f, node))?;
                    self.push_tag(p, t, node)?;
                    true
                }
                action => self
                    .perform(p, action, 1)
                    .map_err(|f| self.fault(p, f, node))?,
            };
            if !passes {
                return Ok(Enter::Skipped);
            }
            node = edge.target;
        }
        let range = p.edges_of(node);
        let info = p.node_info[node as usize];
        // (At a disjoint node the search stops at the first edge that
        // passes: testing them all first would be more work.)
        let (tested, passing) = if info.tests_only && !info.disjoint {
            self.test_edges(p, &p.edges[range.clone()])
        } else {
            (false, 0)
        };
        level.stack.push(Frame {
            node,
            edge: range.start as u32,
            edge_end: if node == p.end {
                range.start as u32
            } else {
                range.end as u32
            },
            alternative: 0,
            undo_mark: mark as u32,
            tags_len: tags_len as u32,
            passing,
            tested,
            plain_scan: false,
        });
        Ok(Enter::Pushed)
    }

    /// Counts one step of the move search at `node`.
    #[inline(always)]
    fn count_step(&mut self, p: &Program, node: u32) -> Result<(), ModelError> {
        self.tick().map_err(|f| self.fault(p, f, node))
    }

    /// Counts one search step (of the move search or of a reachability
    /// check); fails past the step limit or the deadline. One comparison
    /// unless a limit is due.
    #[inline(always)]
    fn tick(&mut self) -> Result<(), Fault> {
        self.steps += 1;
        if self.steps > self.check_at {
            return self.check_limits();
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn check_limits(&mut self) -> Result<(), Fault> {
        if self.steps > self.step_limit {
            return Err(eval::STEP_LIMIT);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(eval::DEADLINE);
        }
        self.check_at = self.next_check();
        Ok(())
    }

    /// The step count at which the limits are next checked.
    fn next_check(&self) -> u64 {
        if self.deadline.is_some() {
            self.step_limit.min(self.steps + CLOCK_INTERVAL)
        } else {
            self.step_limit
        }
    }

    fn search_moves(
        &mut self,
        p: &Program,
        start: u32,
        level: &mut Level,
        sink: &mut Sink<'_>,
    ) -> Result<(), ModelError> {
        let base_mark = self.log.len();
        let base_tags = self.tags.len();
        if let Err(e) = self.enter_move(p, level, start, base_mark, 0, sink) {
            self.undo_to(base_mark);
            return Err(e);
        }
        while let Some(frame) = level.stack.last_mut() {
            if frame.edge == frame.edge_end {
                let frame = level.stack.pop().expect("non-empty");
                self.undo_to(frame.undo_mark as usize);
                self.truncate_tags(frame.tags_len as usize);
                continue;
            }
            let node = frame.node;
            let mut known_pass = false;
            if frame.tested {
                let k = frame.edge - p.edge_start[node as usize];
                let ahead = frame.passing >> k;
                let failing = if ahead == 0 {
                    frame.edge_end - frame.edge
                } else {
                    ahead.trailing_zeros()
                };
                // The failing edges' steps at once, unless a limit check
                // falls among them (then each is tried as usual).
                if failing > 0 && self.steps + u64::from(failing) <= self.check_at {
                    self.steps += u64::from(failing);
                    frame.edge += failing;
                    continue;
                }
                known_pass = failing == 0;
            }
            if let Err(e) = self.count_step(p, node) {
                self.undo_to(base_mark);
                return Err(e);
            }
            let frame = level.stack.last_mut().expect("non-empty");
            let edge = &p.edges[frame.edge as usize];
            let from = frame.node;
            let mark = self.log.len();
            let tags_len = self.tags.len();
            // Where the walk goes on (past a scanned square's chain).
            let mut enter_at = edge.target;
            let passes = if known_pass {
                frame.edge += 1;
                true
            } else {
                match &edge.action {
                    Action::AssignAny { target, symbols } => {
                        let mut passing_scan = None;
                        let scanned = !(frame.plain_scan && frame.alternative > 0);
                        if let Some(scan) = p.move_scans[frame.edge as usize]
                            .as_deref()
                            .filter(|_| scanned)
                        {
                            if self.tags.len() + scan.tags < MAX_MOVE_TAGS {
                                match self.skip_rejected(p, scan, symbols, frame) {
                                    Ok(Square::Passes) => passing_scan = Some(scan),
                                    Ok(Square::Unknown) => {}
                                    Ok(Square::Exhausted) => continue,
                                    Err(e) => {
                                        self.undo_to(base_mark);
                                        return Err(e);
                                    }
                                }
                            }
                        }
                        let symbol = symbols[frame.alternative as usize];
                        frame.alternative += 1;
                        if frame.alternative as usize == symbols.len() {
                            frame.alternative = 0;
                            frame.edge += 1;
                        }
                        self.assign_symbol(p, target, symbol)
                            .map_err(|f| self.fault(p, f, from))?;
                        if let Some(scan) = passing_scan {
                            if let Err(e) = self.walk_chain(p, scan) {
                                self.undo_to(base_mark);
                                return Err(e);
                            }
                            enter_at = scan.after;
                        }
                        true
                    }
                    action => {
                        frame.edge += 1;
                        match action {
                            Action::AssignPlayer(value) => {
                                let player =
                                    self.scalar(p, value).map_err(|f| self.fault(p, f, from))?;
                                self.complete_move(p, edge.target, player, sink)?;
                                if self.stop_at_first {
                                    level.stack.clear();
                                    break;
                                }
                                false
                            }
                            Action::Tag(t) => {
                                self.push_tag(p, *t, from)?;
                                true
                            }
                            Action::VarTag(v) => {
                                let t = self.scalar(p, v).map_err(|f| self.fault(p, f, from))?;
                                self.push_tag(p, t, from)?;
                                true
                            }
                            other => self
                                .perform(p, other, 1)
                                .map_err(|f| self.fault(p, f, from))?,
                        }
                    }
                }
            };
            if passes
                && p.node_info[from as usize].disjoint
                && !matches!(edge.action, Action::AssignAny { .. })
            {
                // At most one edge of a disjoint node is legal: skip the rest.
                let frame = level.stack.last_mut().expect("non-empty");
                frame.edge = frame.edge_end;
            }
            if passes {
                match self.enter_move(p, level, enter_at, mark, tags_len, sink) {
                    Ok(Enter::Pushed) => {}
                    Ok(Enter::Completed) if self.stop_at_first => {
                        level.stack.clear();
                        break;
                    }
                    Ok(_) => {
                        self.undo_to(mark);
                        self.truncate_tags(tags_len);
                    }
                    Err(e) => {
                        self.undo_to(base_mark);
                        return Err(e);
                    }
                }
            } else {
                self.undo_to(mark);
                self.truncate_tags(tags_len);
            }
        }
        // Frames undo their own writes; this covers a single-step chain
        // from `start` that failed before any frame was pushed.
        self.undo_to(base_mark);
        self.truncate_tags(base_tags);
        Ok(())
    }

    /// Tries an any-assignment's squares from the frame's alternative on
    /// against its [`MoveScan`] test: the squares are tested 64 at a time
    /// into the frame's bit set (at the start of each window of 64; on a
    /// return to the frame mid-window the set is the one computed there,
    /// the semistate being the same), and the search jumps to the next
    /// passing square, counting the rejected squares' steps (the frame's,
    /// then one per node of the chain) at once, or one by one when a limit
    /// check falls among them. The first square's frame step is the
    /// caller's.
    fn skip_rejected(
        &mut self,
        p: &Program,
        scan: &MoveScan,
        symbols: &[u32],
        frame: &mut Frame,
    ) -> Result<Square, ModelError> {
        let batch = &scan.batch;
        let from = frame.alternative as usize;
        if from == 0 {
            let end = symbols.len().min(64);
            frame.passing = self.passing(p, scan, &symbols[..end]);
            // When most squares pass, the full search's own tests cost
            // less than handing each square over: it takes them all.
            frame.plain_scan = frame.passing.count_ones() as usize * 2 > end;
        }
        if frame.plain_scan {
            // (Later squares do not come here: the search checks the flag.)
            return Ok(Square::Unknown);
        }
        let mut next = from;
        while next < symbols.len() {
            if next.is_multiple_of(64) && next > 0 {
                let end = symbols.len().min(next + 64);
                frame.passing = self.passing(p, scan, &symbols[next..end]);
            }
            let ahead = frame.passing >> (next % 64);
            if ahead != 0 {
                next += ahead.trailing_zeros() as usize;
                break;
            }
            next = symbols.len().min((next / 64 + 1) * 64);
        }
        let found = next < symbols.len();
        let per_square = 1 + scan.chain.len() as u64;
        // The first square's frame step is the caller's; a passing
        // square's is counted here.
        let steps = (next - from) as u64 * per_square - u64::from(!found);
        if self.steps + steps <= self.check_at {
            self.steps += steps;
        } else {
            self.count_rejected_one_by_one(p, scan, frame.node, next - from, found)?;
        }
        if !found {
            frame.alternative = 0;
            frame.edge += 1;
            return Ok(Square::Exhausted);
        }
        frame.alternative = next as u32;
        // A key outside the read's key type, or a faulting fixed side, is
        // in the set too: the full search reports it (or reads leniently).
        let read = &batch.read;
        let valid = eval::key_slot(
            p,
            symbols[next],
            read.contiguous,
            read.min,
            read.count,
            read.table,
        ) != INVALID
            && self.value_of(p, &batch.fixed) != INVALID;
        self.fault.set(None);
        Ok(if valid {
            Square::Passes
        } else {
            Square::Unknown
        })
    }

    /// The steps of `rejected` squares (and of the passing square after
    /// them when `found`) one at a time, in the full search's order, so
    /// that a limit check fails at the right node. The first square's
    /// frame step is the caller's.
    #[cold]
    #[inline(never)]
    fn count_rejected_one_by_one(
        &mut self,
        p: &Program,
        scan: &MoveScan,
        frame_node: u32,
        rejected: usize,
        found: bool,
    ) -> Result<(), ModelError> {
        for square in 0..rejected {
            if square > 0 {
                self.count_step(p, frame_node)?;
            }
            for &node in &scan.chain {
                self.count_step(p, node)?;
            }
        }
        if found && rejected > 0 {
            self.count_step(p, frame_node)?;
        }
        Ok(())
    }

    /// The chain of a scanned square that passed its test: the steps and
    /// tags of its nodes, the test not evaluated again.
    fn walk_chain(&mut self, p: &Program, scan: &MoveScan) -> Result<(), ModelError> {
        for &node in &scan.chain {
            self.count_step(p, node)?;
            match &p.edges[p.edge_start[node as usize] as usize].action {
                Action::Tag(t) => self.push_tag(p, *t, node)?,
                // A symbol or a scalar variable (the plan's rule): no fault.
                Action::VarTag(v) => {
                    let t = self.value_of(p, v);
                    self.push_tag(p, t, node)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The squares of a batched scan that pass its test (or fault, left
    /// to the full search), as a bit set over the edge's symbols.
    fn passing(&self, p: &Program, scan: &MoveScan, symbols: &[u32]) -> u64 {
        let batch = &scan.batch;
        let fixed = self.value_of(p, &batch.fixed);
        if fixed == INVALID {
            self.fault.set(None);
            return u64::MAX;
        }
        let read = &batch.read;
        let data: &[u32] = match read.space {
            Space::State => &self.values,
            Space::Pool => &p.pool,
        };
        if batch.consecutive {
            // Side by side in memory: a loop the compiler vectorizes.
            let start = (read.base + (symbols[0] - read.min)) as usize;
            let mut mask = 0;
            for (k, &value) in data[start..start + symbols.len()].iter().enumerate() {
                mask |= u64::from((value == fixed) != scan.negated) << k;
            }
            return mask;
        }
        let mut mask = 0;
        for (k, &symbol) in symbols.iter().enumerate() {
            let index =
                eval::key_slot(p, symbol, read.contiguous, read.min, read.count, read.table);
            let passes = index == INVALID
                || (data[(read.base + index * read.stride) as usize] == fixed) != scan.negated;
            mask |= u64::from(passes) << k;
        }
        mask
    }

    /// Evaluates a `tests_only` node's comparisons on the current
    /// semistate: bit `k` set when edge `k` passes. `(false, _)` when one
    /// faults: the search then tries the edges one by one and reports the
    /// fault when it reaches it.
    fn test_edges(&self, p: &Program, edges: &[CompiledEdge]) -> (bool, u64) {
        let mut passing = 0;
        for (k, edge) in edges.iter().enumerate() {
            let Action::CompareScalars { negated, lhs, rhs } = &edge.action else {
                return (false, 0);
            };
            let (l, r) = (self.value_of(p, lhs), self.value_of(p, rhs));
            if l == INVALID || r == INVALID {
                self.fault.set(None);
                return (false, 0);
            }
            passing |= u64::from((l == r) != *negated) << k;
        }
        (true, passing)
    }

    /// Performs a non-tag, non-player action; returns whether it is legal.
    /// `depth` is the nesting level for reachability checks.
    #[inline(always)]
    fn perform(&mut self, p: &Program, action: &Action, depth: usize) -> Result<bool, Fault> {
        match action {
            Action::Skip | Action::Tag(_) | Action::VarTag(_) => Ok(true),
            Action::CompareScalars { negated, lhs, rhs } => {
                let (l, r) = (self.value_of(p, lhs), self.value_of(p, rhs));
                if l == INVALID || r == INVALID {
                    return Err(self.take_fault());
                }
                Ok((l == r) != *negated)
            }
            Action::Assign {
                target,
                value: Operand::Scalar(value),
            } if target.steps.is_empty() => {
                let v = self.value_of(p, value);
                if v == INVALID {
                    return Err(self.take_fault());
                }
                self.set(target.base, v);
                Ok(true)
            }
            other => self.perform_other(p, other, depth),
        }
    }

    /// The less frequent actions, kept out of the hot loop.
    #[inline(never)]
    fn perform_other(&mut self, p: &Program, action: &Action, depth: usize) -> Result<bool, Fault> {
        match action {
            Action::Skip | Action::Tag(_) | Action::VarTag(_) => Ok(true),
            Action::CompareScalars { .. } => self.perform(p, action, depth),
            Action::Compare { negated, lhs, rhs } => Ok(self.equal(p, lhs, rhs)? != *negated),
            Action::Assign { target, value } => {
                self.assign(p, target, value)?;
                Ok(true)
            }
            Action::AssignPlayer(value) => {
                let v = self.scalar(p, value)?;
                self.set(p.player_slot, v);
                Ok(true)
            }
            Action::AssignAny { .. } => unreachable!("handled by the caller"),
            Action::Reach { negated, from, to } => {
                Ok(self.reachable(p, *from, *to, depth)? != *negated)
            }
        }
    }

    #[inline(always)]
    fn push_tag(&mut self, p: &Program, tag: u32, node: u32) -> Result<(), ModelError> {
        let position = self.tags.len();
        if position >= MAX_MOVE_TAGS {
            return Err(too_many_tags(p, node));
        }
        self.tags.push(tag);
        if p.visibility_changes {
            self.record_visibility(p, position);
        }
        Ok(())
    }

    /// Notes which players see the tag at `position` (rg.md §5.6).
    #[inline(never)]
    fn record_visibility(&mut self, p: &Program, position: usize) {
        {
            let table = &p.key_tables[p.visible_table as usize];
            let mut mask = 0u64;
            for (k, &player) in p.players.iter().enumerate().take(64) {
                if let Some(slot) = table.slot(player) {
                    if self.values[(p.visible_base + slot) as usize] == p.one {
                        mask |= 1 << k;
                    }
                }
            }
            self.tag_visibility.truncate(position);
            self.tag_visibility.push(mask);
        }
    }

    fn truncate_tags(&mut self, len: usize) {
        self.tags.truncate(len);
        self.prefix_hashes.truncate(len);
    }

    fn complete_move(
        &mut self,
        p: &Program,
        target: u32,
        player: u32,
        sink: &mut Sink<'_>,
    ) -> Result<(), ModelError> {
        let prefix = self.prefix_hash();
        match sink {
            Sink::CountWalks { walks } => **walks += 1,
            Sink::Count { seen } => {
                seen.insert(prefix);
            }
            Sink::Moves { index, found } => {
                let slot = p.player_slot;
                let old = self.values[slot as usize];
                let hash = self.state_hash() ^ contribution(slot, old) ^ contribution(slot, player);
                if let Some(&existing) = index.get(&prefix) {
                    let previous = &found[existing].next;
                    let same = previous.node == target
                        && previous.hash == hash
                        && previous.values.iter().enumerate().all(|(k, &v)| {
                            v == if k as u32 == slot {
                                player
                            } else {
                                self.values[k]
                            }
                        });
                    if !same {
                        let difference = if previous.node != target {
                            format!(
                                "the walks end at nodes {} and {}",
                                p.node_name(previous.node),
                                p.node_name(target)
                            )
                        } else {
                            let slot = (0..self.values.len())
                                .find(|&k| {
                                    k != slot as usize && previous.values[k] != self.values[k]
                                })
                                .unwrap_or(slot as usize);
                            let variable = p
                                .variables
                                .iter()
                                .filter(|(_, base, _)| *base as usize <= slot)
                                .max_by_key(|(_, base, _)| *base)
                                .map_or("?", |(name, _, _)| name.as_str());
                            format!("variable {variable} differs")
                        };
                        return Err(ModelError::new(format!(
                            "ambiguous move: the tag sequence \"{}\" leads to different states ({difference})",
                            self.tags
                                .iter()
                                .map(|&t| p.symbol(t))
                                .collect::<Vec<_>>()
                                .join(" ")
                        )));
                    }
                    return Ok(());
                }
                let mut values = match self.spare_values.pop() {
                    Some(mut spare) if spare.len() == self.values.len() => {
                        spare.copy_from_slice(&self.values);
                        spare
                    }
                    _ => self.values.clone().into_boxed_slice(),
                };
                values[slot as usize] = player;
                index.insert(prefix, found.len());
                found.push(FoundMove {
                    tags: match self.spare_tags.get_mut(self.tags.len()).and_then(Vec::pop) {
                        Some(mut spare) => {
                            spare.copy_from_slice(&self.tags);
                            spare
                        }
                        None => self.tags.clone().into_boxed_slice(),
                    },
                    visibility: p.visibility_changes.then(|| {
                        self.tag_visibility[..self.tags.len()]
                            .to_vec()
                            .into_boxed_slice()
                    }),
                    next: State {
                        node: target,
                        values,
                        hash,
                    },
                });
            }
        }
        Ok(())
    }

    /// `? from -> to` on the current semistate (restored afterwards).
    fn reachable(&mut self, p: &Program, from: u32, to: u32, depth: usize) -> Result<bool, Fault> {
        if from == to {
            return Ok(true);
        }
        // Checks nest through the call stack (a check whose sub-automaton
        // checks itself recurses forever): bounded, so that the search
        // reports it instead of overflowing the stack.
        if depth > MAX_CHECK_NESTING {
            return Err(eval::TOO_DEEP);
        }
        let key = (from, to, self.state_hash());
        if let Some(&known) = self.reach_cache.get(&key) {
            return Ok(known);
        }
        let mut level = self.level(depth);
        let result = self.search_reach(p, from, to, &mut level, depth);
        self.levels[depth] = level;
        let found = result?;
        if self.reach_cache.len() < 1 << 20 {
            self.reach_cache.insert(key, found);
        }
        Ok(found)
    }

    /// Enters `node` in a reachability search (following single-edge chains
    /// inline); `Found` when the target is met.
    #[inline]
    fn enter_reach(
        &mut self,
        p: &Program,
        level: &mut Level,
        mut node: u32,
        target: u32,
        mark: usize,
        depth: usize,
    ) -> Result<Enter, Fault> {
        loop {
            if node == target {
                return Ok(Enter::Found);
            }
            let info = p.node_info[node as usize];
            if info.visit_in_reach
                && !p.skips_visit(info.reach_guard, &self.values)
                && !level.visited.insert(self.visited_key(node, false))
            {
                return Ok(Enter::Skipped);
            }
            if !info.single_step {
                break;
            }
            self.tick()?;
            let edge = &p.edges[p.edge_start[node as usize] as usize];
            if !self.perform(p, &edge.action, depth + 1)? {
                return Ok(Enter::Skipped);
            }
            node = edge.target;
        }
        let range = p.edges_of(node);
        level.stack.push(Frame {
            node,
            edge: range.start as u32,
            edge_end: range.end as u32,
            alternative: 0,
            undo_mark: mark as u32,
            tags_len: 0,
            passing: 0,
            tested: false,
            plain_scan: false,
        });
        Ok(Enter::Pushed)
    }

    fn search_reach(
        &mut self,
        p: &Program,
        from: u32,
        to: u32,
        level: &mut Level,
        depth: usize,
    ) -> Result<bool, Fault> {
        let base_mark = self.log.len();
        match self.enter_reach(p, level, from, to, base_mark, depth) {
            Ok(Enter::Found) => {
                self.undo_to(base_mark);
                return Ok(true);
            }
            // The single-step chain from `from` failed part-way: its writes
            // must not leak out of the check (it runs on a copy). (Only
            // move searches complete moves.)
            Ok(Enter::Skipped | Enter::Completed) => {
                self.undo_to(base_mark);
                return Ok(false);
            }
            Ok(Enter::Pushed) => {}
            Err(fault) => {
                self.undo_to(base_mark);
                return Err(fault);
            }
        }
        while let Some(frame) = level.stack.last_mut() {
            if frame.edge == frame.edge_end {
                let frame = level.stack.pop().expect("non-empty");
                self.undo_to(frame.undo_mark as usize);
                continue;
            }
            if let Err(fault) = self.tick() {
                self.undo_to(base_mark);
                return Err(fault);
            }
            let edge = &p.edges[frame.edge as usize];
            let from = frame.node;
            let mark = self.log.len();
            let passes = match &edge.action {
                Action::AssignAny { target, symbols } => {
                    // (Asked at the first symbol only: a scan tried in
                    // place finishes its edge or the search.)
                    let fast = if frame.alternative == 0 {
                        scan_test(p, edge, to)
                    } else {
                        None
                    };
                    if let Some(test) = fast {
                        // Its first step is counted above.
                        let found = self.scan(p, target.base, symbols, frame, test, depth);
                        if !matches!(found, Ok(false)) {
                            self.undo_to(base_mark);
                            return found;
                        }
                        continue;
                    }
                    let symbol = symbols[frame.alternative as usize];
                    frame.alternative += 1;
                    if frame.alternative as usize == symbols.len() {
                        frame.alternative = 0;
                        frame.edge += 1;
                    }
                    self.assign_symbol(p, target, symbol)?;
                    true
                }
                action => {
                    frame.edge += 1;
                    match self.perform(p, action, depth + 1) {
                        Ok(passes) => passes,
                        Err(fault) => {
                            self.undo_to(base_mark);
                            return Err(fault);
                        }
                    }
                }
            };
            if passes
                && p.node_info[from as usize].disjoint
                && !matches!(edge.action, Action::AssignAny { .. })
            {
                let frame = level.stack.last_mut().expect("non-empty");
                frame.edge = frame.edge_end;
            }
            if passes {
                match self.enter_reach(p, level, edge.target, to, mark, depth) {
                    Ok(Enter::Found) => {
                        self.undo_to(base_mark);
                        return Ok(true);
                    }
                    Ok(Enter::Skipped | Enter::Completed) => self.undo_to(mark),
                    Ok(Enter::Pushed) => {}
                    Err(fault) => {
                        self.undo_to(base_mark);
                        return Err(fault);
                    }
                }
            } else {
                self.undo_to(mark);
            }
        }
        Ok(false)
    }

    /// A check's scan whose square only has to pass one test to reach
    /// the check's target (`scan_test`): the symbols from the frame's
    /// alternative on, tried in place, each with the two steps the
    /// search would count (the any-assignment's, the test node's) and
    /// without the undo log (the slot is put back). True at the first
    /// that passes; the frame moves past its edge when none does. The
    /// first step of the first symbol is the caller's.
    fn scan(
        &mut self,
        p: &Program,
        slot: u32,
        symbols: &[u32],
        frame: &mut Frame,
        test: &Action,
        depth: usize,
    ) -> Result<bool, Fault> {
        if let (Some(batch), Action::CompareScalars { negated, .. }) =
            (&p.check_scan_batches[frame.edge as usize], test)
        {
            if let Some(found) = self.first_passing(p, batch, *negated, symbols, frame) {
                return Ok(found);
            }
        }
        let old = self.values[slot as usize];
        let mut first = true;
        let result = loop {
            let k = frame.alternative as usize;
            if k == symbols.len() {
                frame.alternative = 0;
                frame.edge += 1;
                break Ok(false);
            }
            if !first {
                if let Err(fault) = self.tick() {
                    break Err(fault);
                }
            }
            first = false;
            frame.alternative += 1;
            self.values[slot as usize] = symbols[k];
            if let Err(fault) = self.tick() {
                break Err(fault);
            }
            match self.perform(p, test, depth + 1) {
                Ok(false) => {}
                other => break other,
            }
        };
        self.values[slot as usize] = old;
        result
    }

    /// [`Self::scan`] for a batched test, from the first symbol: finds the
    /// first passing square in one tight loop and counts the steps the
    /// square-by-square scan would (two per square, the first one the
    /// caller's). `None` when a key lies outside the read's key type, the
    /// fixed side faults, or a limit check falls among the steps: the
    /// square-by-square scan then does it all.
    fn first_passing(
        &mut self,
        p: &Program,
        batch: &Batch,
        negated: bool,
        symbols: &[u32],
        frame: &mut Frame,
    ) -> Option<bool> {
        let fixed = self.value_of(p, &batch.fixed);
        if fixed == INVALID || symbols.is_empty() {
            self.fault.set(None);
            return None;
        }
        let read = &batch.read;
        let data: &[u32] = match read.space {
            Space::State => &self.values,
            Space::Pool => &p.pool,
        };
        let mut k = 0;
        while k < symbols.len() {
            let index = eval::key_slot(
                p,
                symbols[k],
                read.contiguous,
                read.min,
                read.count,
                read.table,
            );
            if index == INVALID {
                return None;
            }
            if (data[(read.base + index * read.stride) as usize] == fixed) != negated {
                break;
            }
            k += 1;
        }
        let found = k < symbols.len();
        let steps = if found { 2 * k + 1 } else { 2 * k - 1 } as u64;
        if self.steps + steps > self.check_at {
            return None;
        }
        self.steps += steps;
        if found {
            frame.alternative = k as u32 + 1;
        } else {
            frame.alternative = 0;
            frame.edge += 1;
        }
        Some(found)
    }

    // ---- state access ------------------------------------------------------------

    #[inline(always)]
    fn set(&mut self, slot: u32, value: u32) {
        let old = self.values[slot as usize];
        if old != value {
            self.log.push((slot, old, value));
            self.values[slot as usize] = value;
        }
    }

    #[inline(always)]
    fn undo_to(&mut self, mark: usize) {
        while self.log.len() > mark {
            let (slot, old, new) = self.log.pop().expect("non-empty");
            if self.log.len() < self.hashed_upto {
                // This write was folded into the hash: unfold it.
                self.hash ^= contribution(slot, old) ^ contribution(slot, new);
            }
            self.values[slot as usize] = old;
        }
        self.hashed_upto = self.hashed_upto.min(mark);
    }
}
