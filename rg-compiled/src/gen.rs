//! Emits `game.rs`: the game's tables and one function per automaton node
//! and search kind (`m<id>` for move searches, `r<id>` for reachability
//! searches), each edge compiled to straight-line code that changes the
//! values in place, enters the target node and restores what it changed.
//!
//! User names (symbols, nodes, variables) appear only as escaped string
//! literals in tables; identifiers are made from numeric ids, so a game
//! file cannot inject code.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use rg_core::engine::program::{
    Action, Code, Indexed, KeyStep, Layout, Op, Operand, Path as VPath, Program, Scalar, Space,
    Step, Target,
};

use crate::analysis::{
    branch_safety, check_writes, dead_values, fused_checks, loop_guards, needs_hash, reach_nodes,
    small_move_visits, small_visits, tautologies, unfailing_move_visits, written_slots,
    CheckWrites, Context, FusedCheck, Safety, Written,
};

fn rust_str(s: &str) -> String {
    // Debug formatting of `str` is a valid Rust string literal with every
    // quote, backslash and control character escaped.
    format!("{s:?}")
}

fn list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let mut out = String::new();
    for (k, item) in items.into_iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(out, "{item}");
    }
    out
}

/// The `for` header of a loop over symbols (a range when they are
/// consecutive ids), and an expression: how many symbols come after the
/// current one.
fn loop_over(symbols: &[u32]) -> (String, String) {
    let consecutive = symbols.windows(2).all(|w| w[1] == w[0] + 1);
    match (symbols.first(), symbols.last()) {
        // An exclusive range: LLVM bounds `sym` in its loop (and drops
        // key checks it implies), which it does not for `..=`.
        (Some(first), Some(last)) if consecutive && *last < u32::MAX => (
            format!("for sym in {first}u32..{}u32", last + 1),
            format!("u64::from({last}u32 - sym)"),
        ),
        _ => (
            format!("for (i, &sym) in [{}u32].iter().enumerate()", list(symbols)),
            format!("({} - 1 - i) as u64", symbols.len()),
        ),
    }
}

/// Games with at most this many tag edges test a local flag around each tag
/// (faster code, longer builds: see the tag edges in `Generator::node_fn`).
const FEW_TAGS: usize = 64;

/// Games with more automaton edges than this are built for build time
/// rather than speed ([`Build::Quick`]).
pub const LARGE_GAME_EDGES: usize = 4000;

/// Automaton edges per module of node functions, and the most modules
/// (see `Generator::game`).
const EDGES_PER_MODULE: usize = 600;
const MAX_MODULES: usize = 16;

/// Quick builds: the most edges of node functions LLVM may merge into one
/// by inlining. It inlines a function with one caller whatever its size,
/// so long call chains (KIF translations) became single functions that
/// took one core over a minute to optimize; a function past this size is
/// kept out of line.
const QUICK_INLINE_EDGES: u64 = 64;

/// What a node function's attribute says about inlining it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Inlining {
    /// Left to the compiler.
    Free,
    Always,
    Never,
}

/// How a generated crate trades build time against speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// `opt-level = 2`, one codegen unit, small node functions inlined by
    /// force, checks' targets as const generics.
    Speed,
    /// For large games: `opt-level = 1`, no forced inlining, checks'
    /// targets as arguments, node functions spread over several modules so
    /// that rustc builds them on all cores (arimaa, 10,273 edges: 45 s
    /// instead of several minutes, and still 3.6x the interpreter; at
    /// level 0 it is slower than the interpreter).
    Quick,
}

impl Build {
    /// `Quick` for games with more than [`LARGE_GAME_EDGES`] edges.
    pub fn for_program(p: &Program) -> Build {
        if p.edges.len() > LARGE_GAME_EDGES {
            Build::Quick
        } else {
            Build::Speed
        }
    }

    pub fn opt_level(self) -> u32 {
        match self {
            Build::Speed => 2,
            Build::Quick => 1,
        }
    }

    /// One codegen unit lets LLVM inline and lay out the node functions
    /// and the runtime together (measured side by side, englishDraughts
    /// perft 13% faster, chess playouts 3%, chess's build 8.5 s → 10.3 s);
    /// large games keep 16 so that both cores build.
    pub fn codegen_units(self) -> u32 {
        match self {
            Build::Speed => 1,
            Build::Quick => 16,
        }
    }
}

/// The slots of the nodes that have one, with each such node's index
/// among them.
fn numbered(slots: &[Option<u32>]) -> Vec<Option<(u32, usize)>> {
    let mut k = 0;
    slots
        .iter()
        .map(|x| {
            x.map(|slot| {
                k += 1;
                (slot, k - 1)
            })
        })
        .collect()
}

/// A node's visit guard: the variable's slot and the bitset of its values
/// for which the visited check is skipped.
type Guard = Option<(u32, Vec<u64>)>;

/// Visit guards with their bitsets interned: per search kind and node, the
/// guard's slot and the index of its bitset in `Guards::sets` (large games
/// have thousands of guards but only a few distinct bitsets).
struct Guards {
    at: [Vec<Option<(u32, usize)>>; 2],
    sets: Vec<Vec<u64>>,
}

impl Guards {
    fn intern(guards: [Vec<Guard>; 2]) -> Guards {
        let mut index: HashMap<Vec<u64>, usize> = HashMap::new();
        let mut sets = Vec::new();
        let at = guards.map(|per_node| {
            per_node
                .into_iter()
                .map(|guard| {
                    let (slot, bits) = guard?;
                    let k = *index.entry(bits).or_insert_with_key(|bits| {
                        sets.push(bits.clone());
                        sets.len() - 1
                    });
                    Some((slot, k))
                })
                .collect()
        });
        Guards { at, sets }
    }
}

pub struct Generator<'a> {
    p: &'a Program,
    labels: std::cell::Cell<usize>,
    layouts: Vec<(String, String)>,
    layout_index: HashMap<String, usize>,
    /// The search kind of the function being generated (what a stop
    /// returns).
    ctx: Context,
    /// While compiling a fused test: the slot whose reads are replaced by
    /// the loop variable `sym` (the value the any-assignment would write).
    subst: Option<u32>,
    /// In an edge of a reachability function that may leave its slot
    /// changed: a local holding that slot's current value (the function's
    /// `x0` argument, or the value the edge just wrote), which reads of
    /// the slot use and the callee is passed: a ray's square stays in a
    /// register from step to step instead of a store and a reload.
    reg: Option<(u32, &'static str)>,
    /// Slots of scalar variables (no map region covers them, so no
    /// computed map read can reach them).
    scalar_slots: Vec<bool>,
    /// Per search kind, nodes below which the state hash may be read.
    needs_hash: [Vec<bool>; 2],
    reach_nodes: Vec<bool>,
    safety: Vec<Safety>,
    /// Per node, the check a move search replaces by walking on.
    fused: Vec<Option<FusedCheck>>,
    /// The same for keeper walks run in place: they make no visited
    /// check (a first walk counts its joins' steps alone, `enter_move`,
    /// and `keeper_walks` takes no walk with a check on a cycle), so a
    /// walk may be fused across joins a move search checks (reversi's
    /// flips).
    fused_keeper: Vec<Option<FusedCheck>>,
    /// Checks that always hold (`analysis::tautologies`): not evaluated.
    tautologies: HashSet<(u32, u32)>,
    /// Whether some node function was generated with its check fused (the
    /// runtime counts completed walks only then).
    walks_counted: bool,
    /// Per node, the slots a move walk may have written on arriving there
    /// (`analysis::written_slots`).
    written: Vec<Option<Written>>,
    /// The distinct lists of slots a sampling search keeps at a
    /// completion (`KEPT<k>` in the generated code).
    kept_lists: Vec<Vec<u32>>,
    /// Branch proofs that depend on a variable: (slot, bitset) tables.
    safe_tables: Vec<(u32, Vec<u64>)>,
    /// Reachability nodes whose visited sets are keyed by one slot: the
    /// slot and the node's index among them.
    small: Vec<Option<(u32, usize)>>,
    /// Move-search nodes whose visited sets are keyed by the tag prefix
    /// instance and one slot (`analysis::small_move_visits`).
    small_move: Vec<Option<(u32, usize)>>,
    /// Per search kind and node, the visit guard: the slot and the values
    /// for which its visited check is skipped (`gen::guards`).
    guards: Guards,
    /// Per search kind, nodes on a cycle of calls.
    cyclic: [Vec<bool>; 2],
    /// Checks' targets are const generics of the reachability functions
    /// (folding `node == to`); large games pass them as arguments, since
    /// instantiating the functions per target takes rustc long.
    const_to: bool,
    build: Build,
    /// Inside a check's any-assignment loop: the statement giving back the
    /// steps of the symbols not tried, run when the loop finds the target.
    loop_exit: Option<String>,
    /// Per search kind, node functions inlined by force, or kept out of line.
    inlining: [Vec<Inlining>; 2],
    /// Per search kind, node functions that may return with one scalar
    /// slot changed (`move_clobbers`, `clobbers`): their callers restore
    /// it, unless they may leave it changed too.
    clobber: [Vec<Option<u32>>; 2],
    /// Reachability nodes whose functions keep their slot in registers
    /// alone (`registers_only`): they never store it, so the values in
    /// memory stay as they were and no caller restores them.
    registers_only: Vec<bool>,
    /// The slot the node function being generated may leave changed.
    clobbering: Option<u32>,
    /// Whether the edge being generated is the last a reachability
    /// function tries (the last edge, or any of a disjoint node's).
    tail: bool,
    /// Move-search nodes whose visited check can ever be made
    /// (`move_visits`).
    move_visits: Vec<bool>,
    /// Move-search nodes whose visited check never fails
    /// (`analysis::unfailing_move_visits`): only their step is counted.
    unfailing: Vec<bool>,
    /// Per node, whether a reachability check's visited check can ever be
    /// made there (`reach_visits`).
    reach_visits: Vec<bool>,
    /// Whether the game has at most `FEW_TAGS` tag edges (see the tag
    /// edges in `node_fn`).
    few_tags: bool,
    /// Per node, whether a tag edge into it opens a tag prefix instance
    /// (`tracked_tags`).
    tag_tracked: Vec<bool>,
    /// Per edge, whether the tag it emits is counted (`counted_tags`).
    counted_tags: Vec<bool>,
    /// Keeper walks run in place (`keeper_walks`): per node, whether the
    /// keeper's walk from it runs in place, and whether the node has a
    /// keeper-walk function (`k{node}`).
    keeper_entry: Vec<bool>,
    keeper_node: Vec<bool>,
    /// Whether the function being generated is a keeper-walk function.
    in_keeper_walk: bool,
}

impl<'a> Generator<'a> {
    pub fn new(p: &'a Program, build: Build) -> Self {
        let mut scalar_slots = vec![false; p.initial.len()];
        for (_, base, layout) in &p.variables {
            if matches!(**layout, Layout::Scalar) {
                if let Some(slot) = scalar_slots.get_mut(*base as usize) {
                    *slot = true;
                }
            }
        }
        let invariants = crate::invariants::invariants(p);
        let constant = invariants.constant.clone();
        let guards = Guards::intern(guards(p, &constant));
        let move_visits = move_visits(p, &guards, &invariants);
        let mut small_move = small_move_visits(p);
        // The stamp tables have a row of all symbols per node (and depth).
        if small_move.iter().flatten().count() * p.symbols.len() > 1 << 22 {
            small_move = vec![None; p.nodes.len()];
        }
        let reach_visits = reach_visits(p, &guards, &invariants);
        let mut small = small_visits(p);
        for (k, made) in small.iter_mut().zip(&reach_visits) {
            if !made {
                *k = None;
            }
        }
        // The stamp tables have a row of all symbols per node.
        if small.iter().flatten().count() * p.symbols.len() > 1 << 24 {
            small = vec![None; p.nodes.len()];
        }
        let needs_hash = needs_hash(p, &reach_visits, &small, &small_move);
        let possible = |node, slot| invariants.possible(node, slot);
        let fused = fused_checks(p, &move_visits, &possible);
        let fused_keeper = fused_checks(p, &vec![false; p.nodes.len()], &possible);
        // A node fused in either kind of function leaves no slot changed.
        let fused_anywhere: Vec<Option<FusedCheck>> = fused
            .iter()
            .zip(&fused_keeper)
            .map(|(m, k)| m.or(*k))
            .collect();
        let move_clobber = move_clobbers(p, &needs_hash[0], &fused_anywhere, &scalar_slots);
        let reach_clobber = clobbers(p, &needs_hash[1]);
        Generator {
            p,
            labels: std::cell::Cell::new(0),
            layouts: Vec::new(),
            layout_index: HashMap::new(),
            ctx: Context::Move,
            subst: None,
            reg: None,
            scalar_slots,
            registers_only: registers_only(p, &reach_clobber),
            clobber: [move_clobber, reach_clobber],
            clobbering: None,
            tail: false,
            unfailing: vec![false; p.nodes.len()],
            move_visits,
            reach_visits,
            few_tags: p
                .edges
                .iter()
                .filter(|e| matches!(e.action, Action::Tag(_) | Action::VarTag(_)))
                .count()
                <= FEW_TAGS,
            counted_tags: counted_tags(p),
            tag_tracked: Vec::new(),
            keeper_entry: Vec::new(),
            keeper_node: Vec::new(),
            in_keeper_walk: false,
            needs_hash,
            small_move: numbered(&small_move),
            small: numbered(&small),
            reach_nodes: reach_nodes(p),
            safety: branch_safety(p, &invariants),
            fused,
            fused_keeper,
            tautologies: tautologies(p, &|node, slot| invariants.possible_in_check(node, slot)),
            walks_counted: false,
            written: written_slots(p),
            kept_lists: Vec::new(),
            guards,
            safe_tables: Vec::new(),
            cyclic: [Vec::new(), Vec::new()],
            inlining: [Vec::new(), Vec::new()],
            const_to: build == Build::Speed,
            build,
            loop_exit: None,
        }
    }

    fn ctx_index(&self) -> usize {
        self.ctx.index()
    }

    /// Every node function, in depth-first order of calls from the move
    /// searches' entries, then from the checks' sources (then any left):
    /// cut into consecutive modules, callers and callees mostly share one,
    /// and calls within a module can be inlined.
    fn call_order(&mut self, entries: &[bool]) -> Vec<(Context, u32)> {
        let p = self.p;
        let n = p.nodes.len();
        let saved = self.ctx;
        let mut order = Vec::new();
        let mut placed = [vec![false; n], vec![false; n]];
        let exists = |g: &Self, ctx: Context, node: usize| match ctx {
            Context::Move => p.node_info[node].can_finish_move,
            Context::Reach => g.reach_nodes[node],
        };
        let mut roots: Vec<(Context, u32)> = Vec::new();
        for (node, &entry) in entries.iter().enumerate() {
            if entry {
                roots.push((Context::Move, node as u32));
            }
        }
        for e in &p.edges {
            if let Action::Reach { from, .. } = e.action {
                roots.push((Context::Reach, from));
            }
        }
        for ctx in [Context::Move, Context::Reach] {
            roots.extend((0..n as u32).map(|node| (ctx, node)));
        }
        for (ctx, root) in roots {
            let k = ctx.index();
            self.ctx = ctx;
            let mut stack = vec![root];
            while let Some(node) = stack.pop() {
                if placed[k][node as usize] || !exists(self, ctx, node as usize) {
                    continue;
                }
                placed[k][node as usize] = true;
                order.push((ctx, node));
                let mut callees = self.callees(node);
                callees.reverse();
                stack.extend(callees);
            }
        }
        self.ctx = saved;
        order
    }

    /// The node functions a node's function calls directly.
    fn callees(&self, node: u32) -> Vec<u32> {
        let p = self.p;
        let mut out = Vec::new();
        if self.ctx == Context::Move && node == p.end {
            return out;
        }
        for e in &p.edges[p.edges_of(node)] {
            let t = e.target;
            let called = match self.ctx {
                Context::Move => {
                    !matches!(e.action, Action::AssignPlayer(_))
                        && t != p.end
                        && p.node_info[t as usize].can_finish_move
                }
                Context::Reach => self.reach_nodes[t as usize],
            };
            if called {
                out.push(t);
            }
        }
        out
    }

    /// Chooses the node functions to inline into their callers: those on
    /// no cycle of calls whose body, with what it inlines, stays small.
    /// Calls and their register saves are most of the cost of a short
    /// edge; inlining small acyclic parts removes them with little growth.
    /// Large games inline nothing by force: their build time grows faster
    /// than their speed (LLVM's own inlining remains).
    fn plan_inlining(&mut self) {
        let p = self.p;
        let limit: u64 = match self.build {
            Build::Speed => 24,
            Build::Quick => 0,
        };
        let n = p.nodes.len();
        let saved = self.ctx;
        for ctx in [Context::Move, Context::Reach] {
            self.ctx = ctx;
            let exists = |node: usize| match ctx {
                Context::Move => p.node_info[node].can_finish_move,
                Context::Reach => self.reach_nodes[node],
            };
            let mut graph = petgraph::graph::DiGraph::<(), ()>::new();
            let ids: Vec<_> = (0..n).map(|_| graph.add_node(())).collect();
            let callees: Vec<Vec<u32>> = (0..n as u32)
                .map(|node| {
                    if exists(node as usize) {
                        self.callees(node)
                    } else {
                        Vec::new()
                    }
                })
                .collect();
            for (node, out) in callees.iter().enumerate() {
                for &t in out {
                    graph.add_edge(ids[node], ids[t as usize], ());
                }
            }
            let mut cyclic = vec![false; n];
            for scc in petgraph::algo::tarjan_scc(&graph) {
                let single_loop =
                    scc.len() == 1 && callees[scc[0].index()].contains(&(scc[0].index() as u32));
                if scc.len() > 1 || single_loop {
                    for id in scc {
                        cyclic[id.index()] = true;
                    }
                }
            }
            // Sizes in reverse topological order (tarjan_scc lists callees
            // first): of the node and of the callees that may be inlined
            // into it.
            let mut size = vec![0u64; n];
            let mut inlining = vec![Inlining::Free; n];
            for scc in petgraph::algo::tarjan_scc(&graph) {
                for id in scc {
                    let node = id.index();
                    let own = p.edges_of(node as u32).len() as u64;
                    // Speed builds count the callees inlined by force;
                    // quick builds those the compiler may inline, and past
                    // the bound the largest of them go out of line.
                    let counted = |i: Inlining| match self.build {
                        Build::Speed => i == Inlining::Always,
                        Build::Quick => i != Inlining::Never,
                    };
                    size[node] = own
                        + callees[node]
                            .iter()
                            .filter(|&&t| counted(inlining[t as usize]))
                            .map(|&t| size[t as usize])
                            .sum::<u64>();
                    if self.build == Build::Quick {
                        while size[node] > QUICK_INLINE_EDGES {
                            let largest = callees[node]
                                .iter()
                                .map(|&t| t as usize)
                                .filter(|&t| inlining[t] != Inlining::Never && t != node)
                                .max_by_key(|&t| size[t]);
                            let Some(t) = largest else { break };
                            inlining[t] = Inlining::Never;
                            size[node] -= size[t].min(size[node]);
                        }
                    }
                    inlining[node] = if exists(node) && !cyclic[node] && size[node] <= limit {
                        Inlining::Always
                    } else {
                        Inlining::Free
                    };
                }
            }
            self.inlining[self.ctx_index()] = inlining;
            self.cyclic[self.ctx_index()] = cyclic;
        }
        self.ctx = saved;
    }

    fn label(&self) -> String {
        self.labels.set(self.labels.get() + 1);
        format!("'l{}", self.labels.get())
    }

    /// The check `node`'s function replaces by walking on, in the kind of
    /// function being generated (move search or keeper walk in place).
    fn fused_here(&self, node: u32) -> Option<FusedCheck> {
        if self.in_keeper_walk {
            self.fused_keeper[node as usize]
        } else {
            self.fused[node as usize]
        }
    }

    /// What a function of the current kind returns to stop the search.
    fn halt(&self) -> &'static str {
        match self.ctx {
            Context::Move => "true",
            Context::Reach => "HALT",
        }
    }

    /// The static name of a layout (declared once per distinct layout).
    fn layout(&mut self, layout: &Layout) -> String {
        let key = format!("{layout:?}");
        if let Some(&k) = self.layout_index.get(&key) {
            return format!("L{k}");
        }
        let def = match layout {
            Layout::Scalar => "Layout::Scalar".to_string(),
            Layout::Map { table, inner, size } => {
                let inner = self.layout(inner);
                format!("Layout::Map {{ table: {table}, inner: &{inner}, size: {size} }}")
            }
        };
        let k = self.layouts.len();
        self.layouts.push((format!("L{k}"), def));
        self.layout_index.insert(key, k);
        format!("L{k}")
    }

    /// Whether the node's state can be a game state's (where move searches
    /// start): `begin` and the targets of `player` assignments.
    fn move_entries(&self) -> Vec<bool> {
        let p = self.p;
        let mut entry = vec![false; p.nodes.len()];
        entry[p.begin as usize] = true;
        for e in &p.edges {
            if matches!(e.action, Action::AssignPlayer(_)) {
                entry[e.target as usize] = true;
            }
        }
        entry
    }

    pub fn game(mut self) -> String {
        let p = self.p;
        let mut out = String::new();
        out.push_str(
            "// Generated by rgw compile from the RG engine's compiled program. Do not edit.\n\
             use crate::runtime::{count_bits, nth_bit, KeyTable, Layout, Search, INVALID, NOT_FOUND, FOUND, HALT};\n\n",
        );
        let _ = writeln!(
            out,
            "pub static SYMBOLS: &[&str] = &[{}];",
            list(p.symbols.iter().map(|s| rust_str(s)))
        );
        let _ = writeln!(
            out,
            "pub static NODES: &[&str] = &[{}];",
            list(p.nodes.iter().map(|s| rust_str(s)))
        );
        let _ = writeln!(
            out,
            "pub static VARIABLES: &[(&str, u32)] = &[{}];",
            list(
                p.variables
                    .iter()
                    .map(|(name, base, _)| format!("({}, {base})", rust_str(name)))
            )
        );
        let _ = writeln!(out, "pub const SLOTS: usize = {};", p.initial.len());
        let _ = writeln!(out, "pub const SYMBOL_COUNT: usize = {};", p.symbols.len());
        let _ = writeln!(out, "pub type Val = {};", value_type(p));
        let _ = writeln!(
            out,
            "pub const SMALL_VISIT_NODES: usize = {};",
            self.small.iter().flatten().count()
        );
        let _ = writeln!(
            out,
            "pub const SMALL_MOVE_NODES: usize = {};",
            self.small_move.iter().flatten().count()
        );
        let _ = writeln!(out, "pub const BEGIN: u32 = {};", p.begin);
        let _ = writeln!(out, "pub const END: u32 = {};", p.end);
        let _ = writeln!(out, "pub const PLAYER_SLOT: u32 = {};", p.player_slot);
        let _ = writeln!(out, "pub const KEEPER: u32 = {};", p.keeper);
        let _ = writeln!(out, "pub const RANDOM: u32 = {};", p.random);
        let _ = writeln!(out, "pub const ONE: u32 = {};", p.one);
        let _ = writeln!(
            out,
            "pub const VISIBILITY_CHANGES: bool = {};",
            p.visibility_changes
        );
        let _ = writeln!(out, "pub static PLAYERS: &[u32] = &[{}];", list(&p.players));
        // Whether `random` may ever be on move (perft then merges its
        // children by state, which needs them collected).
        let may_be_random = p.initial[p.player_slot as usize] == p.random
            || p.edges.iter().any(|e| match &e.action {
                Action::AssignPlayer(Scalar::Symbol(s)) => *s == p.random,
                Action::AssignPlayer(_) => true,
                Action::Assign { target, .. } | Action::AssignAny { target, .. } => {
                    target.base == p.player_slot
                }
                _ => false,
            });
        let _ = writeln!(out, "pub const MAY_BE_RANDOM: bool = {may_be_random};");
        let slots_of = |base: u32, table: u32| {
            let table = &p.key_tables[table as usize];
            list(p.players.iter().map(|&player| {
                table
                    .slot(player)
                    .map_or("INVALID".to_string(), |s| (base + s).to_string())
            }))
        };
        let _ = writeln!(
            out,
            "pub static GOAL_SLOTS: &[u32] = &[{}];",
            slots_of(p.goals_base, p.goals_table)
        );
        let _ = writeln!(
            out,
            "pub static VISIBLE_SLOTS: &[u32] = &[{}];",
            slots_of(p.visible_base, p.visible_table)
        );
        // Per symbol, its value as a score (0 if none): a playout's goals
        // are read without a search (connect4: 2% of its playouts).
        let mut score_of = vec![0i64; p.symbols.len()];
        for &(id, v) in &p.score_values {
            score_of[id as usize] = v;
        }
        let _ = writeln!(out, "pub static SCORE_OF: &[i64] = &[{}];", list(&score_of));
        let _ = writeln!(out, "pub static INITIAL: &[Val] = &[{}];", list(&p.initial));
        // An array, not a slice: its length is known where it is indexed
        // (chess perft 8% faster, reversi 5%).
        let _ = writeln!(
            out,
            "pub static POOL: [Val; {}] = [{}];",
            p.pool.len(),
            list(&p.pool)
        );
        out.push_str("pub static KEY_TABLES: &[KeyTable] = &[\n");
        for t in &p.key_tables {
            let index = list(t.index.iter().map(|&i| {
                if i == u32::MAX {
                    "INVALID".to_string()
                } else {
                    i.to_string()
                }
            }));
            let _ = writeln!(
                out,
                "    KeyTable {{ min: {}, index: &[{index}], symbols: &[{}] }},",
                t.min,
                list(&t.symbols)
            );
        }
        out.push_str("];\n");
        // The visit guards of ray loops (rg-core's `VisitGuard`): the
        // variable's slot and the bitset of values where the check is skipped.
        for (k, safe) in self.guards.sets.iter().enumerate() {
            let _ = writeln!(
                out,
                "static GUARD{k}: [u64; {}] = [{}];",
                safe.len(),
                list(safe)
            );
        }
        out.push('\n');

        let n = p.nodes.len();
        let entries = self.move_entries();
        self.plan_inlining();
        // A join off every cycle is checked only inside risky branches.
        if self.safety.iter().all(|s| *s == Safety::Always) {
            for node in 0..n {
                if !self.cyclic[0][node] {
                    self.move_visits[node] = false;
                }
            }
        }
        // Checks that never fail count their step alone; the tags are
        // then tracked for the checks left.
        let tracked = tracked_tags(p, &self.move_visits);
        self.unfailing = unfailing_move_visits(p, &self.move_visits, &tracked, &entries);
        for (visit, &unfailing) in self.move_visits.iter_mut().zip(&self.unfailing) {
            *visit &= !unfailing;
        }
        self.tag_tracked = tracked_tags(p, &self.move_visits);
        (self.keeper_entry, self.keeper_node) = keeper_walks(p, &self.cyclic[0], &self.move_visits);
        let mut body = String::new();
        self.ctx = Context::Move;
        body.push_str("pub fn moves_from(s: &mut Search, node: u32) -> bool {\n    match node {\n");
        for (node, &entry) in entries.iter().enumerate() {
            if entry && p.node_info[node].can_finish_move && node as u32 != p.end {
                let _ = writeln!(body, "        {node} => {},", self.enter(node as u32));
            }
        }
        body.push_str("        _ => false,\n    }\n}\n\n");
        // The keeper walks run in place (`keeper_walks`), for playouts.
        let walks: Vec<usize> = (0..n).filter(|&k| self.keeper_entry[k]).collect();
        let _ = writeln!(
            body,
            "pub fn has_keeper_walk(node: u32) -> bool {{\n    matches!(node, {})\n}}\n",
            match walks.is_empty() {
                true => "u32::MAX".to_string(),
                false => walks
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" | "),
            }
        );
        body.push_str(
            "pub fn keeper_walk(s: &mut Search, node: u32) -> bool {\n    match node {\n",
        );
        // As `moves_from`: a walk that may leave a slot changed is undone
        // unless it stopped with its state in place.
        self.in_keeper_walk = true;
        for &k in &walks {
            let _ = writeln!(body, "        {k} => {},", self.enter(k as u32));
        }
        self.in_keeper_walk = false;
        body.push_str("        _ => false,\n    }\n}\n\n");
        // The node functions of a large game go to several modules: rustc
        // gives each module its own codegen units, so it builds on all
        // cores (in one module, one unit took nearly all of the build).
        // Only large games: across modules nothing is inlined without LTO
        // (chess split in two ran 25% slower; unsplit it builds in 9 s).
        let parts = match self.build {
            Build::Speed => 1,
            Build::Quick => (p.edges.len() / EDGES_PER_MODULE).clamp(1, MAX_MODULES),
        };
        let order = self.call_order(&entries);
        let total: usize = order
            .iter()
            .map(|&(_, node)| p.edges_of(node).len() + 1)
            .sum();
        let mut modules = vec![String::new(); parts];
        let mut done = 0;
        for (ctx, node) in order {
            let module = &mut modules[(done * parts / total.max(1)).min(parts - 1)];
            done += p.edges_of(node).len() + 1;
            self.ctx = ctx;
            let f = self.node_fn(node);
            module.push_str(&f);
        }
        self.ctx = Context::Move;
        self.in_keeper_walk = true;
        for node in 0..n as u32 {
            if self.keeper_node[node as usize] {
                let f = self.node_fn(node);
                modules[0].push_str(&f);
            }
        }
        self.in_keeper_walk = false;
        let imports: Vec<String> = (0..parts).map(|k| format!("part{k}::*")).collect();
        let _ = writeln!(body, "use self::{{{}}};\n", imports.join(", "));
        for (k, code) in modules.iter().enumerate() {
            let others: Vec<&str> = imports
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, i)| i.as_str())
                .collect();
            let _ = writeln!(
                body,
                "mod part{k} {{\nuse super::*;\nuse crate::runtime::{{count_bits, nth_bit, KeyTable, Layout, Search, INVALID, NOT_FOUND, FOUND, HALT}};\nuse super::{{{}}};\n\n{code}}}\n",
                others.join(", ")
            );
        }
        for (name, def) in &self.layouts {
            let _ = writeln!(out, "static {name}: Layout = {def};");
        }
        // What the runtime needs to reset per search (known after the
        // node functions are generated).
        let _ = writeln!(
            out,
            "pub const MAY_BE_RISKY: bool = {};",
            self.safety.iter().any(|s| *s != Safety::Always)
        );
        let hashed_move_visits =
            (0..n).any(|k| self.move_visits[k] && self.small_move[k].is_none());
        let _ = writeln!(
            out,
            "pub const TRACK_PREFIX: bool = {};",
            self.move_visits.contains(&true)
        );
        let _ = writeln!(
            out,
            "pub const HASHED_MOVE_VISITS: bool = {hashed_move_visits};"
        );
        let _ = writeln!(
            out,
            "pub const COUNTS_WALKS: bool = {};",
            self.walks_counted
        );
        for (k, slots) in self.kept_lists.iter().enumerate() {
            let _ = writeln!(
                out,
                "static KEPT{k}: [u32; {}] = [{}];",
                slots.len(),
                list(slots)
            );
        }
        for (k, (_, bits)) in self.safe_tables.iter().enumerate() {
            let _ = writeln!(
                out,
                "static SAFE{k}: [u64; {}] = [{}];",
                bits.len(),
                list(bits)
            );
        }
        out.push('\n');
        out.push_str(&body);
        out
    }

    /// The start of a visited check's condition at `node`: a guarded
    /// check is skipped when the guard's variable holds a safe value.
    fn guard_test(&self, ctx: Context, node: u32) -> String {
        match self.guards.at[ctx.index()][node as usize] {
            Some((slot, set)) => format!(
                "{{ let x = {}; GUARD{set}.get((x >> 6) as usize).is_some_and(|w| (w >> (x & 63)) & 1 != 0) }} || ",
                self.read(slot)
            ),
            None => String::new(),
        }
    }

    /// Expression entering `node` in a search of the current kind: a move
    /// search's is `true` to stop; a reachability search's is `FOUND`,
    /// `NOT_FOUND` or `HALT`.
    fn enter(&self, node: u32) -> String {
        match self.ctx {
            Context::Move => {
                let enter = self.enter_move(node);
                match self.clobber[0][node as usize] {
                    // A stopped first keeper walk keeps its state in place.
                    Some(y) if self.clobbering != Some(y) && enter != "false" => format!(
                        "{{ let y0 = s.v[{y}]; let h = {enter}; if !h || s.undo_on_stop {{ s.v[{y}] = y0; }} h }}"
                    ),
                    _ => enter,
                }
            }
            Context::Reach => self.enter_reach(
                node,
                if self.const_to { "TO" } else { "to" },
                self.clobbering,
            ),
        }
    }

    /// `enter` in a move search, for a callee that restores what it writes.
    fn enter_move(&self, node: u32) -> String {
        let info = self.p.node_info[node as usize];
        // A keeper walk's visited checks are at joins off every cycle,
        // made only where completions are deduplicated: a first walk
        // counts their steps alone (`keeper_walks`).
        if self.in_keeper_walk {
            return match info.can_finish_move && node != self.p.end {
                false => "false".into(),
                // (On a cycle only where the check never fails.)
                true if info.visit_in_move => format!("(!s.tick(1, {node}) && k{node}(s))"),
                true => format!("k{node}(s)"),
            };
        }
        if !info.can_finish_move || node == self.p.end {
            "false".into()
        } else if info.visit_in_move && self.unfailing[node as usize] {
            format!("(!s.tick(1, {node}) && m{node}(s))")
        } else if info.visit_in_move && !self.move_visits[node as usize] {
            // The guard skips every check (see `move_visits`).
            if self.cyclic[0][node as usize] {
                format!("m{node}(s)")
            } else {
                format!("((s.dedups() || !s.tick(1, {node})) && m{node}(s))")
            }
        } else if info.visit_in_move {
            let skip = self.guard_test(Context::Move, node);
            let visit = match self.small_move[node as usize] {
                Some((slot, k)) => {
                    format!("s.visit_move_small({k}, u32::from(s.v[{slot}]), {node})")
                }
                None => format!("s.visit_move({node})"),
            };
            if self.cyclic[0][node as usize] {
                format!("(({skip}{visit}) && m{node}(s))")
            } else {
                // A join off every cycle: outside risky branches two
                // arrivals with the same state and tags cannot both
                // complete a move, so only the step is counted.
                format!(
                    "((if s.dedups() {{ {skip}{visit} }} else {{ !s.tick(1, {node}) }}) && m{node}(s))"
                )
            }
        } else {
            format!("m{node}(s)")
        }
    }

    /// Expression entering `node` in a reachability search for target
    /// `to` (a constant expression): `FOUND`, `NOT_FOUND` or `HALT`. The
    /// caller may leave slot `leaves` changed; a slot the callee may
    /// change besides is restored after it.
    fn enter_reach(&self, node: u32, to: &str, leaves: Option<u32>) -> String {
        let info = self.p.node_info[node as usize];
        // The call: the target as a const generic, or an argument.
        let arg = match self.clobber[1][node as usize] {
            Some(y) => format!(", {}", self.read(y)),
            None => String::new(),
        };
        let call = if self.const_to {
            format!("r{node}::<{{ {to} }}>(s, d{arg})")
        } else {
            format!("r{node}(s, {to}, d{arg})")
        };
        let search = if !self.reach_visits[node as usize] {
            call
        } else if let Some((slot, k)) = self.small[node as usize] {
            let skip = self.guard_test(Context::Reach, node);
            let pass = self.passes(node);
            let value = self.read(slot);
            format!(
                "if {pass}({skip}s.visit_small(d, {k}, {value}, {node})) {{ {call} }} else {{ NOT_FOUND }}"
            )
        } else if info.visit_in_reach {
            let skip = self.guard_test(Context::Reach, node);
            let pass = self.passes(node);
            format!("if {pass}({skip}s.visit_reach(d, {node})) {{ {call} }} else {{ NOT_FOUND }}")
        } else {
            call
        };
        let enter = format!("(if {node} == {to} {{ FOUND }} else {{ {search} }})");
        match self.clobber[1][node as usize] {
            Some(y) if leaves != Some(y) && !self.registers_only[node as usize] => {
                format!("{{ let y0 = s.v[{y}]; let r = {enter}; s.v[{y}] = y0; r }}")
            }
            _ => enter,
        }
    }

    /// The start of a reachability visit at `node` when every edge of the
    /// node is a comparison of symbols: `(tests) && `, so that a state
    /// where all fail (the flood fill's neighbour without a stone of the
    /// player's) is neither marked visited nor entered. The node does
    /// nothing else, and a later arrival in the same state would fail the
    /// same tests; fewer steps are counted, never more (hex_9x9 perft
    /// +16%, playouts +12%). Not where the visit guard skips the visit on
    /// most squares the tests read (reversi's rays): there the node tests
    /// the square anyway, and testing it twice was 4-6% slower.
    fn passes(&self, node: u32) -> String {
        let p = self.p;
        let edges = &p.edges[p.edges_of(node)];
        if node == p.end || edges.is_empty() || edges.len() > 4 {
            return String::new();
        }
        let mut tests = Vec::new();
        for e in edges {
            let Action::CompareScalars { negated, lhs, rhs } = &e.action else {
                return String::new();
            };
            if let Some((_, set)) = self.guards.at[1][node as usize] {
                let safe = &self.guards.sets[set];
                let ((Scalar::Indexed(read), _) | (_, Scalar::Indexed(read))) = (lhs, rhs) else {
                    return String::new();
                };
                let keys = read.min..read.min.saturating_add(read.count);
                if keys.clone().filter(|&x| in_bitset(safe, x)).count() * 2 >= keys.len() {
                    return String::new();
                }
            }
            tests.push(self.compare(*negated, lhs, rhs, node));
        }
        format!("({}) && ", tests.join(" || "))
    }

    /// Which visited sets of its own depth a check from `from` may meet
    /// (and so clears): (hashed, small).
    fn check_visits(&self, from: u32) -> (bool, bool) {
        let p = self.p;
        let mut seen = vec![false; p.nodes.len()];
        let mut stack = vec![from];
        let (mut hashed, mut small) = (false, false);
        while let Some(node) = stack.pop() {
            if std::mem::replace(&mut seen[node as usize], true) {
                continue;
            }
            if self.reach_visits[node as usize] {
                match self.small[node as usize] {
                    Some(_) => small = true,
                    None => hashed = true,
                }
            }
            stack.extend(p.edges[p.edges_of(node)].iter().map(|e| e.target));
        }
        (hashed, small)
    }

    /// Statement: enters `node` after an edge, with `restore` run after it
    /// returns; stops (or reports the target found) as the result says.
    fn enter_then(&self, node: u32, restore: &str) -> String {
        self.pass_on(&self.enter(node), restore)
    }

    /// Statement: evaluates `result` (a search function's result), runs
    /// `restore`, then stops (or reports the target found) as it says: a
    /// check that found its target, or a search that stopped, leaves the
    /// values as they were.
    fn pass_on(&self, result: &str, restore: &str) -> String {
        match self.ctx {
            Context::Move => {
                // A keeper's first walk stops with its state in place
                // (`Search::undo_on_stop`): the undo is skipped then.
                if restore.is_empty() {
                    format!("if {result} {{ return true; }}")
                } else {
                    format!(
                        "let h = {result}; if h {{ if s.undo_on_stop {{ {restore} }} return true; }} {restore}"
                    )
                }
            }
            Context::Reach => {
                // Leaving an any-assignment's loop early (see `assign_any`).
                let exit = match &self.loop_exit {
                    Some(exit) => format!("if r == FOUND {{ {exit} }} "),
                    None if self.tail && restore.is_empty() => {
                        // Nothing follows: the result is the node's.
                        return format!("return {result};");
                    }
                    None => String::new(),
                };
                format!("let r = {result}; {restore} if r != NOT_FOUND {{ {exit}return r; }}")
            }
        }
    }

    /// The slots a sampling search keeps when a move completes at `node`:
    /// `Some(&KEPT<k>)` when its walks write few slots, else `None` (the
    /// whole state).
    fn kept_slots(&mut self, node: u32) -> String {
        self.kept_list(node)
            .map_or_else(|| "None".into(), |list| format!("Some({list})"))
    }

    /// `&KEPT<k>`, the list of the few slots the walks completing at
    /// `node` may write (`None`: not few).
    fn kept_list(&mut self, node: u32) -> Option<String> {
        let Some(Written::Few(slots)) = &self.written[node as usize] else {
            return None;
        };
        let k = match self.kept_lists.iter().position(|l| l == slots) {
            Some(k) => k,
            None => {
                self.kept_lists.push(slots.clone());
                self.kept_lists.len() - 1
            }
        };
        Some(format!("&KEPT{k}"))
    }

    /// Whether writes into `node` must keep the state hash current.
    fn hashed(&self, node: u32) -> bool {
        self.needs_hash[self.ctx_index()][node as usize]
    }

    /// Statement: writes `v` to the slot `x` the function may leave
    /// changed, then enters `node` (a reachability callee gets the value
    /// in a register, see `reg`).
    fn write_own_slot(&mut self, x: u32, v: &str, node: u32) -> String {
        if self.reg.is_some() {
            self.reg = Some((x, "nv"));
            let store = match self.registers_only[node as usize] {
                true => String::new(),
                false => format!(" s.v[{x}] = nv as Val;"),
            };
            format!("let nv: u32 = {v};{store} {}", self.enter_then(node, ""))
        } else {
            format!("s.v[{x}] = ({v}) as Val; {}", self.enter_then(node, ""))
        }
    }

    /// Code writing `v` (an expression) at offset expression `o`, entering
    /// `node`, and undoing the write.
    fn write_enter(&self, o: &str, v: &str, node: u32) -> String {
        if self.hashed(node) {
            format!(
                "let o = {o} as usize; let v: u32 = {v}; let old = s.write(o, v); {}",
                self.enter_then(node, "s.unwrite(o, old);")
            )
        } else {
            format!(
                "let o = {o} as usize; let v: u32 = {v}; let old = s.v[o]; s.v[o] = v as Val; {}",
                self.enter_then(node, "s.v[o] = old;")
            )
        }
    }

    /// The risk prologue of a move-search branch: opens deduplication
    /// below it unless its alternatives are proven distinct.
    fn risk_prologue(&mut self, node: u32) -> Option<String> {
        // A keeper walk stops at its first completion: nothing to
        // deduplicate.
        if self.in_keeper_walk {
            return None;
        }
        match self.safety[node as usize].clone() {
            Safety::Always => None,
            Safety::Never => Some("let opened = s.open_risk();".into()),
            Safety::When { slot, safe } => {
                let k = self.safe_tables.len();
                self.safe_tables.push((slot, safe));
                Some(format!(
                    "let opened = !s.is_risky() && {{ let x = u32::from(s.v[{slot}]); !SAFE{k}.get((x >> 6) as usize).is_some_and(|w| (w >> (x & 63)) & 1 != 0) }} && s.open_risk();"
                ))
            }
        }
    }

    fn node_fn(&mut self, node: u32) -> String {
        let p = self.p;
        let info = p.node_info[node as usize];
        let ctx = self.ctx;
        let mut f = String::new();
        // A keeper walk's entry is called from every move completing to
        // it: inlined there, it multiplied breakthrough's build time.
        let inlining = match self.in_keeper_walk && self.keeper_entry[node as usize] {
            true => Inlining::Never,
            false => self.inlining[self.ctx_index()][node as usize],
        };
        match inlining {
            Inlining::Free => {}
            Inlining::Always => f.push_str("#[inline(always)]\n"),
            Inlining::Never => f.push_str("#[inline(never)]\n"),
        }
        match ctx {
            Context::Move => {
                let name = if self.in_keeper_walk { 'k' } else { 'm' };
                let _ = writeln!(f, "pub(crate) fn {name}{node}(s: &mut Search) -> bool {{");
            }
            Context::Reach => {
                // The target as a const generic, or an argument; the slot
                // the function may leave changed comes in `x0`.
                let (generic, to) = match self.const_to {
                    true => ("<const TO: u32>", ""),
                    false => ("", " to: u32,"),
                };
                let x0 = match self.clobber[1][node as usize] {
                    Some(_) => ", x0: u32",
                    None => "",
                };
                let _ = writeln!(
                    f,
                    "pub(crate) fn r{node}{generic}(s: &mut Search,{to} d: usize{x0}) -> u8 {{"
                );
            }
        }
        // Move searches never leave the end node.
        let edges = if ctx == Context::Move && node == p.end {
            0..0
        } else {
            p.edges_of(node)
        };
        let risk = if ctx == Context::Move {
            self.risk_prologue(node)
        } else {
            None
        };
        if let Some(prologue) = &risk {
            let _ = writeln!(f, "    {prologue}");
        }
        // `? P` holds exactly when the walk from its target completes a move
        // (`analysis::fused_checks`): the node walks on, and follows `! P`
        // only if no move was completed.
        let fused = match (ctx, &risk) {
            (Context::Move, None) => self.fused_here(node),
            _ => None,
        };
        // A walk that may fail after the check's end still tests `! P`
        // when it completed no move: that edge alone is generated, below.
        // A pass (`! P` after the moves `P` copies) is followed when the
        // edges before it completed no move (below).
        let pass = fused.filter(|f| f.positive.is_none());
        let edges = match fused {
            Some(f) if f.positive.is_none() => edges,
            Some(f) if f.sure => 0..0,
            Some(f) => f.negative..f.negative + 1,
            None => edges,
        };
        // Checks asked by several edges are evaluated once (the state is
        // the same for every edge of the node).
        let mut checks: Vec<(u32, u32)> = Vec::new();
        let mut repeated: Vec<(u32, u32)> = Vec::new();
        for e in &p.edges[edges.clone()] {
            if let Action::Reach { from, to, .. } = e.action {
                if checks.contains(&(from, to)) {
                    if !repeated.contains(&(from, to)) {
                        repeated.push((from, to));
                    }
                } else {
                    checks.push((from, to));
                }
            }
        }
        for k in 0..repeated.len() {
            let _ = writeln!(f, "    let mut c{k}: u8 = 0;");
        }
        // Steps are counted where a search can come back: at nodes on a
        // cycle or with a visited set, and per any-assignment symbol.
        // Between two counted steps a search walks a tree of at most the
        // automaton's size, so the count bounds the work.
        let visits = match ctx {
            Context::Move => info.visit_in_move,
            Context::Reach => info.visit_in_reach,
        };
        // (Visited checks count their step themselves, when not skipped.)
        if !visits && self.cyclic[self.ctx_index()][node as usize] {
            let _ = writeln!(f, "    if s.tick(1, {node}) {{ return {}; }}", self.halt());
        }
        let tick = "";
        let (done, fallthrough) = match ctx {
            Context::Move => ("break 'b false;", "false"),
            Context::Reach => ("break 'b NOT_FOUND;", "NOT_FOUND"),
        };
        let halt = self.halt();
        f.push_str("    let result = 'b: {\n");
        if fused.is_some() {
            self.walks_counted = true;
            f.push_str("    let w = s.walks;\n");
        }
        if let Some((fused, positive)) = fused.and_then(|f| Some((f, f.positive?))) {
            let on = self.enter_then(p.edges[positive].target, "");
            let _ = writeln!(f, "    {on}");
            if fused.sure {
                let otherwise = self.enter_then(p.edges[fused.negative].target, "");
                let _ = writeln!(f, "    if s.walks == w {{ {otherwise} }}");
            } else {
                f.push_str("    if s.walks == w {\n");
            }
        }
        // A function that may leave its slot changed (`clobbers`) does not
        // undo its writes of it, nor its callees': it puts the slot back
        // before each further edge. The last edge's call becomes a tail
        // call, and a ray a loop of jumps.
        self.clobbering = self.clobber[self.ctx_index()][node as usize];
        // (A function keeping it in registers alone never stores it.)
        let restores = self.clobbering.filter(|_| {
            !info.disjoint
                && edges.len() > 1
                && !(ctx == Context::Reach && self.registers_only[node as usize])
        });
        // (A reachability function gets it as its argument.)
        if let (Some(x), Context::Move) = (restores, ctx) {
            let _ = writeln!(f, "    let x0 = u32::from(s.v[{x}]);");
        }
        for e in edges.clone() {
            let edge = &p.edges[e];
            let t = edge.target;
            f.push_str("    {\n");
            if let (Some(x), true) = (restores, e > edges.start) {
                let _ = writeln!(f, "        s.v[{x}] = x0 as Val;");
            }
            self.tail = ctx == Context::Reach && (info.disjoint || e + 1 == edges.end);
            // Until the edge writes the slot, it holds `x0`.
            self.reg = match (ctx, self.clobbering) {
                (Context::Reach, Some(x)) => Some((x, "x0")),
                _ => None,
            };
            match &edge.action {
                Action::AssignAny { target, symbols } => {
                    if self
                        .reg
                        .is_some_and(|(x, _)| target.steps.is_empty() && target.base == x)
                    {
                        self.reg = None;
                    }
                    let code = self.assign_any(node, t, target, symbols);
                    f.push_str(&code);
                }
                Action::AssignPlayer(value) if ctx == Context::Move => {
                    let v = self.scalar(value, node);
                    let kept = self.kept_slots(node);
                    let complete = if self.in_keeper_walk {
                        format!("if s.keeper_complete({t}, pl) {{ return true; }}")
                    } else {
                        format!("if s.complete({t}, pl, {kept}) {{ return true; }}")
                    };
                    let _ = writeln!(f, "        {tick}let pl: u32 = {v};\n        {complete}");
                    if info.disjoint {
                        let _ = writeln!(f, "        {done}");
                    }
                }
                Action::Tag(_) | Action::VarTag(_) if ctx == Context::Move => {
                    let tag = match &edge.action {
                        Action::Tag(t) => format!("{t}u32"),
                        Action::VarTag(v) => self.scalar(v, node),
                        _ => unreachable!("tag actions"),
                    };
                    // `push_tag` and `pop_tag` test whether tags are
                    // recorded themselves (see `push_tag`). A game with few
                    // tags tests a local flag instead: LLVM then threads it
                    // through the walk below, which it duplicates into a
                    // version without any tag code (amazons perft 30%
                    // faster, breakthrough 10%), at a cost in build time
                    // that doubles with each tag on a path (chess, 146
                    // tags: 80 s instead of 9 s).
                    let tracked = self.tag_tracked[t as usize];
                    let counted = self.counted_tags[e];
                    let (rec, pop) = if self.few_tags && !counted {
                        (
                            format!("let rec = s.recording({tracked});\n        if rec && "),
                            format!("if rec {{ s.pop_tag({tracked}, false); }}"),
                        )
                    } else {
                        (
                            "if ".to_string(),
                            format!("s.pop_tag({tracked}, {counted});"),
                        )
                    };
                    let then = self.enter_then(t, &pop);
                    let _ = writeln!(
                        f,
                        "        {tick}let t: u32 = {tag};\n        {rec}s.push_tag(t, {node}, {tracked}, {counted}) {{ return true; }}\n        {then}"
                    );
                    if info.disjoint {
                        let _ = writeln!(f, "        {done}");
                    }
                }
                Action::Assign {
                    target,
                    value: Operand::Scalar(value),
                } => {
                    let offset = self.offset(target, node);
                    let v = self.scalar(value, node);
                    let code = match self.clobbering {
                        Some(x) if target.steps.is_empty() && target.base == x => {
                            self.write_own_slot(x, &v, t)
                        }
                        _ => self.write_enter(&offset, &v, t),
                    };
                    let _ = writeln!(f, "        {tick}{code}");
                    if info.disjoint {
                        let _ = writeln!(f, "        {done}");
                    }
                }
                Action::AssignPlayer(value) => {
                    // Reachability searches treat it as a plain assignment.
                    let v = self.scalar(value, node);
                    let code = match self.clobbering {
                        Some(x) if x == p.player_slot => self.write_own_slot(x, &v, t),
                        _ => self.write_enter("crate::game::PLAYER_SLOT", &v, t),
                    };
                    let _ = writeln!(f, "        {tick}{code}");
                    if info.disjoint {
                        let _ = writeln!(f, "        {done}");
                    }
                }
                Action::Assign {
                    target,
                    value: Operand::Region(r),
                } => {
                    let offset = self.offset(target, node);
                    let layout = self.layout(&target.layout);
                    let src = self.region(&r.path, &r.layout, node);
                    let then = self.enter_then(t, "s.restore_region(saved);");
                    let _ = writeln!(
                        f,
                        "        {tick}let o: u32 = {offset}; let src = {src};\n        let Some(saved) = s.assign_region(o, &{layout}, src, {node}) else {{ return {halt}; }};\n        {then}"
                    );
                    if info.disjoint {
                        let _ = writeln!(f, "        {done}");
                    }
                }
                action => {
                    // Tests (and tags, which reachability searches ignore):
                    // nothing to undo.
                    let ok = match pass {
                        Some(pass) if pass.negative == e && pass.sure => "s.walks == w".into(),
                        Some(pass) if pass.negative == e => {
                            format!("s.walks == w && {}", self.test(action, node, &repeated))
                        }
                        _ => self.test(action, node, &repeated),
                    };
                    let then = self.enter_then(t, "");
                    let exit = if info.disjoint {
                        format!(" {done}")
                    } else {
                        String::new()
                    };
                    let _ = writeln!(
                        f,
                        "        {tick}let ok: bool = {ok};\n        if ok {{ {then}{exit} }}"
                    );
                }
            }
            f.push_str("    }\n");
            self.reg = None;
        }
        if fused.is_some_and(|f| f.positive.is_some() && !f.sure) {
            f.push_str("    }\n");
        }
        self.clobbering = None;
        self.tail = false;
        let _ = writeln!(f, "    {fallthrough}\n    }};");
        if risk.is_some() {
            f.push_str("    if opened { s.close_risk(); }\n");
        }
        f.push_str("    result\n}\n\n");
        f
    }

    /// An any-assignment edge: a loop over its symbols.
    fn assign_any(&mut self, node: u32, t: u32, target: &Target, symbols: &[u32]) -> String {
        let halt = self.halt();
        // A loop counts its symbols' steps at once. A check stops at its
        // target, often at the first symbol: leaving the loop so, it gives
        // back the steps of the symbols it did not try (without that, a
        // check asked 130,000 times in one connect6 move search counted
        // 94M steps where the engine counts about 1M).
        let (header, rest) = loop_over(symbols);
        let tick = format!("if s.tick({}, {node}) {{ return {halt}; }}", symbols.len());
        self.loop_exit = match self.ctx {
            Context::Move => None,
            Context::Reach => Some(format!("s.untick({rest});")),
        };
        let code = match self.board_scan(t, target, symbols) {
            Some(code) => format!("        {tick}\n{code}"),
            None => {
                let header = format!("{tick}\n        {header}");
                self.assign_any_body(node, t, target, &header)
            }
        };
        self.loop_exit = None;
        code
    }

    /// A scan over consecutive board squares whose next node only tests
    /// the square's piece (`x = T(*); board[x] == c`, or several such
    /// tests, `==` or `!=`), as a loop that does not branch per square:
    ///
    /// a loop over the set bits of `Search::mask_in`, the tests of up to
    /// 64 squares at once, four per SSE2 comparison. The branch per
    /// square mispredicts on the random boards of playouts (playouts of
    /// hex_9x9 +29%, breakthrough +18%, englishDraughts +12% with masks
    /// gathered eight tests per multiplication; SSE2 comparisons then
    /// made chess playouts +12% and perft +16%, where its king search had
    /// compared eight squares at a time for the first king). A check
    /// stops at the first square that passes, so where most pass on the
    /// initial board it keeps the plain loop (reversi perft was 6%
    /// slower).
    ///
    /// `None` when the loop is not of that kind.
    fn board_scan(&mut self, t: u32, target: &Target, symbols: &[u32]) -> Option<String> {
        let p = self.p;
        let slot = self.substitutable(target)?;
        if !self.all_tests(t) {
            return None;
        }
        let mut board: Option<&Indexed> = None;
        let mut tests = Vec::new();
        for e in &p.edges[p.edges_of(t)] {
            let Action::CompareScalars { negated, lhs, rhs } = &e.action else {
                return None;
            };
            let (ix, c) = match (lhs, rhs) {
                (Scalar::Indexed(ix), Scalar::Symbol(c))
                | (Scalar::Symbol(c), Scalar::Indexed(ix)) => (ix, *c),
                _ => return None,
            };
            if board.is_some_and(|b| (b.base, b.min) != (ix.base, ix.min)) {
                return None;
            }
            board = Some(ix);
            tests.push((*negated, c));
        }
        let ix = board?;
        let (first, last) = (*symbols.first()?, *symbols.last()?);
        let consecutive = symbols.windows(2).all(|w| w[1] == w[0] + 1);
        // Every square a key of the board (no key faults to keep).
        if !(ix.space == Space::State
            && ix.key_slot == slot
            && ix.contiguous
            && ix.stride == 1
            && consecutive
            && first >= ix.min
            && u64::from(last) < u64::from(ix.min) + u64::from(ix.count))
        {
            return None;
        }
        let (from, to) = (ix.base + (first - ix.min), ix.base + (last + 1 - ix.min));
        // A check whose target is the test's node finds it at the first
        // square, as the plain loop does.
        let found = match self.ctx {
            Context::Move => String::new(),
            Context::Reach => format!(
                "if {t} == {} {{ s.untick(u64::from({last}u32 - {first}u32)); return FOUND; }}",
                if self.const_to { "TO" } else { "to" }
            ),
        };
        // One test: it passed, so on to its target; several: the node
        // tells which passed.
        let next = match tests.len() {
            1 => p.edges[p.edges_of(t).start].target,
            _ => t,
        };
        let body = self.write_enter(&format!("{slot}"), "sym", next);
        let (base, min) = (ix.base, ix.min);
        // A check stops at the first square that passes: where most do
        // (reversi's empty squares), that is soon, and the mask of all
        // squares costs more than it saves (perft 6% slower). Judged by
        // the initial board.
        let passing = |x: u32| tests.iter().any(|&(negated, c)| (x == c) != negated);
        let initial = p.initial.get(from as usize..to as usize)?;
        if self.ctx == Context::Reach
            && initial.iter().filter(|&&x| passing(x)).count() * 2 > initial.len()
        {
            return None;
        }
        // The `==` tests in one mask, each `!=` in its own.
        let equal: Vec<String> = tests
            .iter()
            .filter(|&&(negated, _)| !negated)
            .map(|&(_, c)| c.to_string())
            .collect();
        let mut tests: Vec<String> = tests
            .iter()
            .filter(|&&(negated, _)| negated)
            .map(|&(_, c)| format!("(!s.mask_in(lo, n, [{c}]) & (u64::MAX >> (64 - n)))"))
            .collect();
        if !equal.is_empty() {
            tests.insert(0, format!("s.mask_in(lo, n, [{}])", equal.join(", ")));
        }
        let mut mask = tests.join(" | ");
        if let Some(filter) = self.neighbor_filter(next, slot, ix, first, (from, to)) {
            mask = format!("({mask}) & {filter}");
        }
        let blocks: Vec<String> = (from..to)
            .step_by(64)
            .map(|lo| format!("({lo}u32, {}u32)", (to - lo).min(64)))
            .collect();
        let bulk = self.bulk_completions(next, slot, base, min);
        Some(format!(
            "        {found}\n        for (lo, n) in [{}] {{\n            let mut m: u64 = {};\n{bulk}            while m != 0 {{\n                let k: u32 = lo + m.trailing_zeros();\n                m &= m - 1;\n                let sym: u32 = k - {base} + {min};\n                {body}\n            }}\n        }}\n",
            blocks.join(", "),
            mask
        ))
    }

    /// The expression of a move search's scan filter (one block of the
    /// board, `analysis::neighbor_filter`), if its squares' next node is
    /// one: the pieces' masks, shifted, and the tests of the neighbours
    /// outside the scan. Not in checks, whose nesting limit a dropped
    /// square might have reached.
    fn neighbor_filter(
        &self,
        next: u32,
        slot: u32,
        board: &Indexed,
        first: u32,
        (from, to): (u32, u32),
    ) -> Option<String> {
        let p = self.p;
        if self.ctx != Context::Move
            || p.edges[p.edges_of(next)].iter().any(|e| match e.action {
                Action::Reach { from, to, .. } => self.tautologies.contains(&(from, to)),
                _ => false,
            })
        {
            return None;
        }
        let filter = crate::analysis::neighbor_filter(p, next, slot, board, first, (from, to))?;
        let mut pieces: Vec<u32> = filter.shifted.iter().map(|t| t.0).collect();
        pieces.sort_unstable();
        pieces.dedup();
        let masks: String = pieces
            .iter()
            .map(|c| format!("let o{c}: u64 = s.mask_in(lo, n, [{c}]); "))
            .collect();
        let mut terms: Vec<String> = filter
            .shifted
            .iter()
            .map(|&(c, shift, squares)| match shift {
                0 => format!("(o{c} & {squares:#x})"),
                s if s > 0 => format!("((o{c} >> {s}) & {squares:#x})"),
                s => format!("((o{c} << {}) & {squares:#x})", -s),
            })
            .collect();
        terms.extend(filter.outside.iter().map(|&(at, c, squares)| {
            format!("(if u32::from(s.v[{at}]) == {c} {{ {squares:#x}u64 }} else {{ 0 }})")
        }));
        Some(format!("{{ {masks}{} }}", terms.join(" | ")))
    }

    /// In a masked scan of a move search whose every square that passes
    /// completes a move at once (`node` leads through tags alone to a
    /// `player` assignment of a constant: placement games such as hex),
    /// the moves of a block need no walk while tags are not recorded: a
    /// counting search adds the mask's bits, a sampling search draws
    /// once for the whole block (`Search::sample_block`) and writes the
    /// square only for a move it keeps. Empty when the walk does more.
    fn bulk_completions(&mut self, node: u32, slot: u32, base: u32, min: u32) -> String {
        let p = self.p;
        if self.ctx != Context::Move {
            return String::new();
        }
        let mut at = node;
        let mut seen = 0;
        let (target, player) = loop {
            let info = p.node_info[at as usize];
            let edges = p.edges_of(at);
            if seen > p.nodes.len()
                || edges.len() != 1
                || at == p.end
                || !info.can_finish_move
                || info.visit_in_move
                || self.fused_here(at).is_some()
                || self.safety[at as usize] != Safety::Always
            {
                return String::new();
            }
            let edge = &p.edges[edges.start];
            match &edge.action {
                Action::Tag(_) | Action::VarTag(_) => at = edge.target,
                Action::AssignPlayer(Scalar::Symbol(player)) => break (edge.target, *player),
                _ => return String::new(),
            }
            seen += 1;
        };
        // One keep per block (not one per completion site, as
        // `keep_sampled`): inline, when its few slots are known (connect4
        // playouts +3%).
        let keep = match self.kept_list(at) {
            Some(kept) => format!("s.keep_block({target}, {player}u32, {kept})"),
            None => format!("s.keep_sampled({target}, {player}u32, None)"),
        };
        format!(
            "            if s.counts_only() {{ s.complete_counted(u64::from(count_bits(m, n))); m = 0; }} else if s.samples_only() {{\n                if let Some(j) = s.sample_block(count_bits(m, n)) {{ let k: u32 = lo + nth_bit(m, j, n); let old = s.v[{slot}]; s.v[{slot}] = (k - {base} + {min}) as Val; {keep}; s.v[{slot}] = old; }}\n                m = 0;\n            }}\n"
        )
    }

    /// The loop of `assign_any` under `header`.
    fn assign_any_body(&mut self, node: u32, t: u32, target: &Target, header: &str) -> String {
        let p = self.p;
        let exit = self.loop_exit.clone().unwrap_or_default();
        if self.fusible(t) {
            // The test at `t` runs inline for every symbol: no call, and
            // for a scalar target no write of a rejected symbol (the hot
            // loop of "find the square where ..." checks).
            let test_edge = &p.edges[p.edges_of(t).start];
            let found = match self.ctx {
                Context::Move => String::new(),
                Context::Reach => format!(
                    "if {t} == {} {{ {exit} return FOUND; }}",
                    if self.const_to { "TO" } else { "to" }
                ),
            };
            if let Some(slot) = self.substitutable(target) {
                let test = self.test_with_symbol(slot, &test_edge.action, t);
                let write = self.write_enter(&format!("{slot}"), "sym", test_edge.target);
                return format!(
                    "        {header} {{\n            {found}\n            let ok: bool = {test};\n            if ok {{ {write} }}\n        }}\n"
                );
            }
            let offset = self.offset(target, node);
            let test = self.test(&test_edge.action, t, &[]);
            let enter = self.enter(test_edge.target);
            let (write, restore) = if self.hashed(t) {
                ("let old = s.write(o, sym);", "s.unwrite(o, old);")
            } else {
                ("let old = s.v[o]; s.v[o] = sym as Val;", "s.v[o] = old;")
            };
            let result = match self.ctx {
                Context::Move => format!("if {test} {{ {enter} }} else {{ false }}"),
                Context::Reach => format!(
                    "if {t} == {} {{ FOUND }} else if {test} {{ {enter} }} else {{ NOT_FOUND }}",
                    if self.const_to { "TO" } else { "to" }
                ),
            };
            let then = self.pass_on(&result, restore);
            return format!(
                "        {header} {{\n            let o = {offset} as usize;\n            {write}\n            {then}\n        }}\n"
            );
        }
        let offset = self.offset(target, node);
        let code = self.write_enter(&offset, "sym", t);
        if let (Some(slot), true) = (self.substitutable(target), self.all_tests(t)) {
            // Every edge at `t` is a test: a symbol none of them passes is
            // skipped without its write and call (the tests are pure, and
            // `t` does nothing else when all fail). Scans of the board
            // for a piece of several kinds ("a king or a man") are mostly
            // such symbols.
            let tests: Vec<String> = p.edges[p.edges_of(t)]
                .iter()
                .map(|e| self.test_with_symbol(slot, &e.action, t))
                .collect();
            let arrived = match self.ctx {
                Context::Move => String::new(),
                Context::Reach => {
                    format!("{t} == {} || ", if self.const_to { "TO" } else { "to" })
                }
            };
            return format!(
                "        {header} {{\n            if {arrived}{} {{ {code} }}\n        }}\n",
                tests.join(" || ")
            );
        }
        format!("        {header} {{\n            {code}\n        }}\n")
    }

    /// `test` with the loop's symbol `sym` read in place of `slot` (the
    /// value an any-assignment's loop would write there).
    fn test_with_symbol(&mut self, slot: u32, action: &Action, node: u32) -> String {
        self.subst = Some(slot);
        let test = self.test(action, node, &[]);
        self.subst = None;
        test
    }

    /// Expression (block): whether a test passes. Reachability checks in
    /// `memo` are evaluated once per node visit.
    fn test(&mut self, action: &Action, node: u32, memo: &[(u32, u32)]) -> String {
        let halt = self.halt();
        let depth = match self.ctx {
            Context::Move => "1",
            Context::Reach => "d + 1",
        };
        match action {
            Action::Skip | Action::Tag(_) | Action::VarTag(_) => "true".into(),
            Action::CompareScalars { negated, lhs, rhs } => self.compare(*negated, lhs, rhs, node),
            Action::Compare { negated, lhs, rhs } => match (lhs, rhs) {
                (Operand::Scalar(a), Operand::Scalar(b)) => self.compare(*negated, a, b, node),
                (Operand::Region(a), Operand::Region(b)) => {
                    let ra = self.region(&a.path, &a.layout, node);
                    let rb = self.region(&b.path, &b.layout, node);
                    format!(
                        "{{ let a = {ra}; let b = {rb}; match s.equal_regions(a, b, {node}) {{ Some(eq) => eq != {negated}, None => return {halt} }} }}"
                    )
                }
                _ => format!(
                    "{{ s.fail_at(\"a map compared with a symbol\", {node}); return {halt} }}"
                ),
            },
            Action::Reach { negated, from, to } if self.tautologies.contains(&(*from, *to)) => {
                (!negated).to_string()
            }
            Action::Reach { negated, from, to } => {
                let (clear, clear_small) = self.check_visits(*from);
                // A check leaves the values as they were.
                let enter = self.enter_reach(*from, &format!("{to}u32"), None);
                let call = format!(
                    "{{ let d: usize = {depth}; let r = if {from} == {to} {{ FOUND }} else if s.begin_check(d, {from}, {clear}, {clear_small}) {{ HALT }} else {{ {enter} }}; if r == HALT {{ return {halt}; }} r }}"
                );
                match memo.iter().position(|&c| c == (*from, *to)) {
                    Some(k) => format!(
                        "{{ if c{k} == 0 {{ c{k} = 1 + {call}; }} (c{k} == 2) != {negated} }}"
                    ),
                    None => format!("(({call}) == FOUND) != {negated}"),
                }
            }
            Action::Assign { .. } | Action::AssignAny { .. } | Action::AssignPlayer(_) => {
                unreachable!("assignments are compiled by node_fn")
            }
        }
    }

    /// Expression (block): a comparison of two scalars.
    fn compare(&self, negated: bool, lhs: &Scalar, rhs: &Scalar, node: u32) -> String {
        let (l, r) = (self.scalar(lhs, node), self.scalar(rhs, node));
        let op = if negated { "!=" } else { "==" };
        format!("{{ let l: u32 = {l}; let r: u32 = {r}; l {op} r }}")
    }

    /// Whether the node after an any-assignment is a lone scalar test that
    /// can run inline in the assignment's loop: one edge, a comparison of
    /// symbols, no visited set (entering it has no other effect).
    fn fusible(&self, t: u32) -> bool {
        self.p.edges_of(t).len() == 1 && self.all_tests(t)
    }

    /// Whether `t` is entered by a search without a visited set (so
    /// entering it has no other effect) and every edge leaving it (one at
    /// least) is a test of symbols.
    fn all_tests(&self, t: u32) -> bool {
        let p = self.p;
        let info = p.node_info[t as usize];
        let entered = match self.ctx {
            Context::Move => info.can_finish_move && !info.visit_in_move,
            Context::Reach => !info.visit_in_reach,
        };
        t != p.end
            && entered
            && !p.edges_of(t).is_empty()
            && p.edges[p.edges_of(t)]
                .iter()
                .all(|e| matches!(e.action, Action::CompareScalars { .. }))
    }

    /// The slot of an any-assignment's target when it is a scalar
    /// variable: reads of it are then exactly the reads of that slot
    /// (`Scalar::Slot`, `Op::Slot`, an indexed read's key slot).
    fn substitutable(&self, target: &Target) -> Option<u32> {
        (target.steps.is_empty() && self.scalar_slots.get(target.base as usize) == Some(&true))
            .then_some(target.base)
    }

    /// Expression reading a state slot (or the fused test's `sym`).
    fn slot(&self, slot: u32) -> String {
        if self.subst == Some(slot) {
            "sym".into()
        } else {
            self.read(slot)
        }
    }

    /// Expression: the current value of a state slot (see `reg`).
    fn read(&self, slot: u32) -> String {
        match self.reg {
            Some((x, local)) if x == slot => local.into(),
            _ => format!("u32::from(s.v[{slot}])"),
        }
    }

    /// `(is_pool, offset, &layout)` of a map operand.
    fn region(&mut self, path: &VPath, layout: &Layout, node: u32) -> String {
        let offset = self.offset_steps(path.base, &path.steps, node);
        let layout = self.layout(layout);
        format!("({}, {offset}, &{layout})", path.space == Space::Pool)
    }

    fn offset(&mut self, target: &Target, node: u32) -> String {
        self.offset_steps(target.base, &target.steps, node)
    }

    /// Expression: the slot reached by access steps (keys outside the key
    /// type are faults, never lenient: the engine's `offset_of`).
    fn offset_steps(&mut self, base: u32, steps: &[Step], node: u32) -> String {
        if steps.is_empty() {
            return format!("{base}u32");
        }
        let halt = self.halt();
        let mut code = format!("{{ let mut o: u32 = {base};");
        for step in steps {
            let key = self.scalar(&step.key, node);
            let slot = slot_expr("k", step.contiguous, step.min, step.count, step.table);
            let _ = write!(
                code,
                " let k: u32 = {key}; let i = {slot}; if i == INVALID {{ s.fail_key(k, {}, {node}); return {halt}; }} o += i * {};",
                step.table, step.stride
            );
        }
        code.push_str(" o }");
        code
    }

    /// Expression of type `u32` evaluating a scalar (faults stop the search).
    fn scalar(&self, s: &Scalar, node: u32) -> String {
        match s {
            Scalar::Symbol(id) => format!("{id}u32"),
            Scalar::Slot(slot) => self.slot(*slot),
            Scalar::Indexed(ix) => {
                let step = ix.key_step();
                self.load(ix.space, ix.base, &[self.slot(ix.key_slot)], &[step], node)
            }
            Scalar::Code(code) => self.code(code, node),
            Scalar::Access(path) => {
                let keys: Vec<String> = path
                    .steps
                    .iter()
                    .map(|step| self.scalar(&step.key, node))
                    .collect();
                let steps: Vec<KeyStep> = path.steps.iter().map(Step::key_step).collect();
                self.load(path.space, path.base, &keys, &steps, node)
            }
        }
    }

    /// Postfix access code turned back into nested expressions.
    fn code(&self, code: &Code, node: u32) -> String {
        let mut stack: Vec<String> = Vec::new();
        for op in &code.ops {
            match *op {
                Op::Symbol(id) => stack.push(format!("{id}u32")),
                Op::Slot(slot) => stack.push(self.slot(slot)),
                Op::Load {
                    space,
                    base,
                    first,
                    count,
                } => {
                    let keys = stack.split_off(stack.len() - count as usize);
                    let steps = &code.steps[first as usize..(first + count) as usize];
                    let e = self.load(space, base, &keys, steps, node);
                    stack.push(e);
                }
            }
        }
        stack.pop().unwrap_or_else(|| "INVALID".into())
    }

    /// A (lenient-aware) map read `space[base + Σ slot(key_i) * stride_i]`.
    fn load(
        &self,
        space: Space,
        base: u32,
        keys: &[String],
        steps: &[KeyStep],
        node: u32,
    ) -> String {
        let label = self.label();
        let halt = self.halt();
        let mut code = format!("{label}: {{");
        for (k, key) in keys.iter().enumerate() {
            let _ = write!(code, " let k{k}: u32 = {key};");
        }
        let _ = write!(code, " let mut o: u32 = {base};");
        for (k, step) in steps.iter().enumerate() {
            let slot = slot_expr(
                &format!("k{k}"),
                step.contiguous,
                step.min,
                step.count,
                step.table,
            );
            // A bad key: the lenient default (when the step has one), else
            // a fault. In a check or a keeper walk in place, the path that
            // goes on calls nothing, so LLVM knows the values are
            // unchanged below it: a ray's step reloads neither the board
            // nor the square, and does not put the square back (checks:
            // chess playouts +12%, connect4 and englishDraughts +5%;
            // keeper walks: connect4 perft +5%, playouts +3%). Move
            // searches keep the call that returns the default (there the
            // same form made amazons' playouts 4% slower, through code
            // layout).
            let fault = format!("s.fail_key(k{k}, {}, {node}); return {halt};", step.table);
            let no_call = self.ctx == Context::Reach || self.in_keeper_walk;
            let bad = match (no_call, step.fallback) {
                (true, u32::MAX) => fault,
                (true, fallback) => {
                    format!("if s.options.lenient {{ break {label} {fallback}u32; }} {fault}")
                }
                (false, fallback) => {
                    let fallback = match fallback {
                        u32::MAX => "INVALID".to_string(),
                        f => f.to_string(),
                    };
                    format!(
                        "match s.bad_key(k{k}, {}, {fallback}, {node}) {{ Some(v) => break {label} v, None => return {halt} }}",
                        step.table
                    )
                }
            };
            let _ = write!(
                code,
                " let i = {slot}; if i == INVALID {{ {bad} }} o += i * {};",
                step.stride
            );
        }
        match space {
            Space::State => code.push_str(" u32::from(s.v[o as usize]) }"),
            Space::Pool => code.push_str(" u32::from(POOL[o as usize]) }"),
        }
        code
    }
}

/// Reachability nodes whose functions may return with one scalar slot
/// changed instead of restoring it: every check through the node writes
/// at most that slot (`check_writes`), and no visited set below the
/// node's edges reads the state hash, which raw writes would not keep.
/// Every caller either may leave the slot changed too or restores it, and
/// a check restores it before its result is used, so a check still leaves
/// the values as they were.
fn clobbers(p: &Program, needs_hash: &[bool]) -> Vec<Option<u32>> {
    check_writes(p)
        .into_iter()
        .enumerate()
        .map(|(node, writes)| match writes {
            Some(CheckWrites::One(x))
                if p.edges[p.edges_of(node as u32)]
                    .iter()
                    .all(|e| !needs_hash[e.target as usize]) =>
            {
                Some(x)
            }
            _ => None,
        })
        .collect()
}

/// The type of a state slot and a constant pool entry (`runtime::Val`):
/// the narrowest unsigned integer whose greatest value is above every
/// symbol id (and every value of the state and the pool, which are
/// symbols), so that a lenient read's `INVALID`, narrowed to it, is no
/// symbol either.
fn value_type(p: &Program) -> &'static str {
    let values = p.initial.iter().chain(&p.pool).map(|&v| v as usize + 1);
    let bound = values.fold(p.symbols.len(), usize::max);
    if bound <= usize::from(u8::MAX) {
        "u8"
    } else if bound <= usize::from(u16::MAX) {
        "u16"
    } else {
        "u32"
    }
}

/// Reachability nodes whose functions need not store the slot they may
/// leave changed (`clobbers`): each reads it only through its `x0`
/// argument or the value its edge just wrote, and passes it on only to
/// functions that do the same. Not across a nested check, whose functions
/// read the state in memory, nor an any-assignment of the slot, whose
/// loop writes it there. Nothing between a check's entry and its result
/// then reads the slot in memory, so the stores and the restores of it
/// are dropped (reversi's rays, draughts' jump tests).
fn registers_only(p: &Program, clobber: &[Option<u32>]) -> Vec<bool> {
    let mut only: Vec<bool> = clobber.iter().map(Option::is_some).collect();
    // The greatest set closed under the edges: drop nodes until none
    // leads out of it.
    loop {
        let mut changed = false;
        for node in 0..p.nodes.len() {
            if only[node]
                && p.edges[p.edges_of(node as u32)].iter().any(|e| {
                    matches!(
                        e.action,
                        Action::Reach { .. }
                            | Action::AssignAny { .. }
                            | Action::Assign {
                                value: Operand::Region(_),
                                ..
                            }
                    ) || !only[e.target as usize]
                        || clobber[e.target as usize] != clobber[node]
                })
            {
                only[node] = false;
                changed = true;
            }
        }
        if !changed {
            return only;
        }
    }
}

/// Move-search nodes whose visited check can ever be made: it has one
/// (`visit_in_move`), and its visit guard does not skip it for every value
/// the guard's variable may hold there (`Invariants::possible`: amazons'
/// rays test the square before they step, so the off-board square, the
/// one value the guard lets through, never arrives). Where no move-search
/// check is ever made, tags need not be pushed for prefix instances
/// (`TRACK_PREFIX`).
fn move_visits(
    p: &Program,
    guards: &Guards,
    invariants: &crate::invariants::Invariants,
) -> Vec<bool> {
    visits_made(p, guards, Context::Move, |node, slot| {
        invariants.possible(node, slot)
    })
}

/// Reachability-check nodes whose visited check can ever be made, as
/// `move_visits` with the values a check may hold
/// (`Invariants::possible_in_check`: chess's attack rays and reversi's
/// `({w} up left)*` step only from squares, never from the off-board
/// square the guard lets through). Where a check makes no visit, its sets
/// are not cleared either.
fn reach_visits(
    p: &Program,
    guards: &Guards,
    invariants: &crate::invariants::Invariants,
) -> Vec<bool> {
    // Unknown values (the analysis gave up): any symbol, so that a guard
    // that skips them all still drops the visit (chess's attack rays).
    let any: Vec<u32> = (0..p.symbols.len() as u32).collect();
    visits_made(p, guards, Context::Reach, |node, slot| {
        Some(
            invariants
                .possible_in_check(node, slot)
                .unwrap_or_else(|| any.clone()),
        )
    })
}

/// Per node, whether a search of kind `ctx` ever makes its visited
/// check: the node has one, and the guard does not skip every value its
/// variable may hold there (`possible`; `None`: unknown).
fn visits_made(
    p: &Program,
    guards: &Guards,
    ctx: Context,
    possible: impl Fn(u32, u32) -> Option<Vec<u32>>,
) -> Vec<bool> {
    (0..p.nodes.len() as u32)
        .map(|node| {
            let info = p.node_info[node as usize];
            let has_visit = match ctx {
                Context::Move => info.visit_in_move && info.can_finish_move,
                Context::Reach => info.visit_in_reach,
            };
            if !has_visit {
                return false;
            }
            let Some((slot, set)) = guards.at[ctx.index()][node as usize] else {
                return true;
            };
            let safe = &guards.sets[set];
            match possible(node, slot) {
                Some(values) => !values.iter().all(|&x| in_bitset(safe, x)),
                None => true,
            }
        })
        .collect()
}

/// Per node, whether a tag edge into it is tracked: a walk from it may
/// meet a move-search visited check (`move_visits`) before it passes
/// another tag or completes the move. Only a tracked tag opens a tag
/// prefix instance (`Search::push_tag`): after an untracked one, the
/// next check met is behind a tracked tag, which opens a fresh instance
/// anyway.
fn tracked_tags(p: &Program, move_visits: &[bool]) -> Vec<bool> {
    let n = p.nodes.len();
    let mut into: Vec<Vec<u32>> = vec![Vec::new(); n];
    for from in 0..n as u32 {
        for e in &p.edges[p.edges_of(from)] {
            if !matches!(
                e.action,
                Action::Tag(_) | Action::VarTag(_) | Action::AssignPlayer(_)
            ) {
                into[e.target as usize].push(from);
            }
        }
    }
    let mut tracked = move_visits.to_vec();
    let mut work: Vec<u32> = (0..n as u32).filter(|&k| tracked[k as usize]).collect();
    while let Some(node) = work.pop() {
        for &from in &into[node as usize] {
            if !tracked[from as usize] {
                tracked[from as usize] = true;
                work.push(from);
            }
        }
    }
    tracked
}

/// Per edge, whether it is a tag edge on a cycle of the move graph: the
/// tags a walk counts (`Search::push_tag`), so that a walk going round a
/// tagged loop stops after `MAX_MOVE_TAGS` of them, as the engine stops
/// after that many tags of any kind. A walk passes every other tag edge
/// at most once, so it counts at most that many fewer tags than the
/// engine: like steps, a resource limit the reasoner may reach later,
/// never sooner. (Counting every tag cost englishDraughts' playouts 4%.)
fn counted_tags(p: &Program) -> Vec<bool> {
    let n = p.nodes.len();
    let walked = |node: u32| crate::analysis::walked(p, node);
    let is_tag = |a: &Action| matches!(a, Action::Tag(_) | Action::VarTag(_));
    let mut graph = petgraph::graph::DiGraph::<(), ()>::new();
    let ids: Vec<_> = (0..n).map(|_| graph.add_node(())).collect();
    let mut tags = Vec::new();
    for node in (0..n as u32).filter(|&k| walked(k)) {
        for k in p.edges_of(node) {
            let e = &p.edges[k];
            if walked(e.target) && !matches!(e.action, Action::AssignPlayer(_)) {
                graph.add_edge(ids[node as usize], ids[e.target as usize], ());
                if is_tag(&e.action) {
                    tags.push((k, node as usize, e.target as usize));
                }
            }
        }
    }
    let mut component = vec![usize::MAX; n];
    for (k, scc) in petgraph::algo::tarjan_scc(&graph).into_iter().enumerate() {
        for id in scc {
            component[id.index()] = k;
        }
    }
    // (An edge within a component is on a cycle, a loop edge too.)
    let mut counted = vec![false; p.edges.len()];
    for (k, u, v) in tags {
        counted[k] = component[u] == component[v];
    }
    counted
}

/// Most edges of a keeper walk run in place: each node of one gets a
/// second function (`k{node}`).
const KEEPER_WALK_EDGES: usize = 512;

/// Keeper walks that perft and playouts run in place, where the keeper's
/// first walk is taken (`Search::keeper_walk_in_place`,
/// `Search::apply_keeper_walk`), rather than in a search of their own: a
/// first walk needs no deduplication, so the visited checks at joins off
/// every cycle are not made (only their steps are counted), and when no
/// node of the walk (those a walk from the entry reaches before a
/// completion) is on a cycle with a visited check made, neither the
/// search's sets nor its tag prefix are read there (reversi's flips
/// branch and join at every direction).
///
/// Returns, per node, whether the keeper's walk from it runs in place
/// (`game::keeper_walk`), and whether the node has a keeper-walk function
/// (connect4: its keeper drops the piece and tests for four in a row;
/// perft 25% faster, playouts 8%).
fn keeper_walks(p: &Program, cyclic: &[bool], move_visits: &[bool]) -> (Vec<bool>, Vec<bool>) {
    let n = p.nodes.len();
    let mut entry = vec![false; n];
    let mut node_of_walk = vec![false; n];
    let entries: std::collections::BTreeSet<u32> = p
        .edges
        .iter()
        .filter(|e| matches!(e.action, Action::AssignPlayer(Scalar::Symbol(x)) if x == p.keeper))
        .map(|e| e.target)
        .filter(|&t| t != p.end)
        .collect();
    // The walk being explored marks its nodes with its number.
    let mut mark = vec![0usize; n];
    for (k, start) in entries.into_iter().enumerate() {
        mark[start as usize] = k + 1;
        let mut seen = vec![start];
        let mut work = vec![start];
        let mut edges = 0;
        let mut fits = true;
        while let Some(node) = work.pop() {
            edges += p.edges_of(node).len();
            let checked = cyclic[node as usize] && move_visits[node as usize];
            if checked || edges > KEEPER_WALK_EDGES {
                fits = false;
                break;
            }
            for e in &p.edges[p.edges_of(node)] {
                if !matches!(e.action, Action::AssignPlayer(_)) && mark[e.target as usize] != k + 1
                {
                    mark[e.target as usize] = k + 1;
                    seen.push(e.target);
                    work.push(e.target);
                }
            }
        }
        if fits {
            entry[start as usize] = true;
            for node in seen {
                node_of_walk[node as usize] = true;
            }
        }
    }
    (entry, node_of_walk)
}

/// Move-search nodes whose functions may return with one scalar slot
/// changed: their edges write no other slot (scalar assignments and
/// any-assignments of it, which restore it per symbol anyway), no visited
/// set below them reads the state hash, and their check is not fused
/// (that walks on twice from the same values). A node that writes nothing
/// takes the slot its clobbering callees share, so that a ray's test node
/// and its step node call each other in tail position. Callers that may
/// not leave the slot changed restore it (unless a first keeper walk
/// stopped, leaving its state in place), and so does the search's entry:
/// the state a search leaves behind is the one it started from.
fn move_clobbers(
    p: &Program,
    needs_hash: &[bool],
    fused: &[Option<FusedCheck>],
    scalar: &[bool],
) -> Vec<Option<u32>> {
    let n = p.nodes.len();
    // Per node: `Err(())` cannot clobber; `Ok(None)` writes nothing;
    // `Ok(Some(x))` writes only scalar `x`.
    let own: Vec<Result<Option<u32>, ()>> = (0..n as u32)
        .map(|node| {
            if fused[node as usize].is_some() || node == p.end {
                return Err(());
            }
            let mut written = None;
            for e in &p.edges[p.edges_of(node)] {
                if needs_hash[e.target as usize] {
                    return Err(());
                }
                let slot = match &e.action {
                    Action::Assign {
                        target,
                        value: Operand::Scalar(_),
                    }
                    | Action::AssignAny { target, .. }
                        if target.steps.is_empty()
                            && scalar.get(target.base as usize) == Some(&true) =>
                    {
                        target.base
                    }
                    Action::Assign { .. } | Action::AssignAny { .. } => return Err(()),
                    _ => continue,
                };
                match written {
                    None => written = Some(slot),
                    Some(x) if x == slot => {}
                    Some(_) => return Err(()),
                }
            }
            Ok(written)
        })
        .collect();
    let mut clobber: Vec<Option<u32>> = own.iter().map(|o| o.ok().flatten()).collect();
    loop {
        let mut changed = false;
        for node in 0..n {
            if own[node] != Ok(None) || clobber[node].is_some() {
                continue;
            }
            // The slot the callees clobber, if they agree (a `player`
            // assignment completes the move: no call).
            let mut slots = p.edges[p.edges_of(node as u32)]
                .iter()
                .filter(|e| !matches!(e.action, Action::AssignPlayer(_)))
                .filter_map(|e| clobber[e.target as usize]);
            if let Some(x) = slots.next() {
                if slots.all(|y| y == x) {
                    clobber[node] = Some(x);
                    changed = true;
                }
            }
        }
        if !changed {
            return clobber;
        }
    }
}

/// Per search kind and node, the visit guard: rg-core's (values on no
/// cycle of a ray loop's maps), else one of `analysis::loop_guards`
/// (loops that branch or write other variables), joined with the values
/// for which every edge of the node fails, so the walk ends there.
fn guards(p: &Program, constant: &[bool]) -> [Vec<Guard>; 2] {
    let per_kind = |ctx: Context, pick: fn(&rg_core::engine::program::NodeInfo) -> Option<u32>| {
        let loops = loop_guards(p, ctx);
        (0..p.nodes.len() as u32)
            .map(|node| {
                let (slot, mut safe) = match pick(&p.node_info[node as usize]) {
                    Some(g) => {
                        let g = &p.visit_guards[g as usize];
                        (g.slot, g.safe.to_vec())
                    }
                    None => loops[node as usize].clone()?,
                };
                if let Some((s, more)) = &loops[node as usize] {
                    if *s == slot {
                        merge(&mut safe, more);
                    }
                }
                merge(&mut safe, &dead_values(p, constant, node, slot));
                Some((slot, safe))
            })
            .collect()
    };
    [
        per_kind(Context::Move, |i| i.move_guard),
        per_kind(Context::Reach, |i| i.reach_guard),
    ]
}

/// `a |= b` on bitsets of possibly different lengths.
/// Whether bit `x` of a bitset of symbols is set.
fn in_bitset(set: &[u64], x: u32) -> bool {
    set.get((x >> 6) as usize)
        .is_some_and(|w| (w >> (x & 63)) & 1 != 0)
}

fn merge(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (w, x) in a.iter_mut().zip(b) {
        *w |= x;
    }
}

/// Expression: the slot of key variable `k` in a key table, or `INVALID`.
fn slot_expr(k: &str, contiguous: bool, min: u32, count: u32, table: u32) -> String {
    if contiguous {
        format!("{{ let i = {k}.wrapping_sub({min}); if i < {count} {{ i }} else {{ INVALID }} }}")
    } else {
        format!("KEY_TABLES[{table}].slot({k})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::program;

    #[test]
    fn equal_guard_bitsets_are_declared_once() {
        let guards = Guards::intern([
            vec![Some((3, vec![1, 2])), None, Some((4, vec![1, 2]))],
            vec![Some((3, vec![5])), Some((3, vec![1, 2]))],
        ]);
        assert_eq!(guards.sets, vec![vec![1, 2], vec![5]]);
        assert_eq!(guards.at[0], vec![Some((3, 0)), None, Some((4, 0))]);
        assert_eq!(guards.at[1], vec![Some((3, 1)), Some((3, 0))]);
    }

    /// The ray check of rg-core's `ray_check.rg` steps to the next cell,
    /// then tests it: the visit at the test's node (`s1`) is skipped for
    /// every symbol (no cell is on a cycle of `right` there, the blocked
    /// `null` stops the ray), so no check is made; the loop's join (`s0`)
    /// keeps its guarded one, as the guard misses `null`.
    #[test]
    fn visits_the_guard_always_skips_are_dropped_in_checks() {
        let p = program(include_str!(
            "../../rg-core/src/engine/testdata/ray_check.rg"
        ));
        let s1 = crate::test_games::node(&p, "s1");
        let s0 = crate::test_games::node(&p, "s0");
        let generator = Generator::new(&p, Build::Speed);
        assert!(!generator.reach_visits[s1]);
        assert!(generator.reach_visits[s0]);
        let game = generator.game();
        let probe = crate::test_games::slot(&p, "probe");
        let visit = |node: usize| format!("u32::from(s.v[{probe}]), {node}))");
        assert!(!game.contains(&visit(s1)), "{game}");
        assert!(game.contains(&visit(s0)), "{game}");
    }

    /// A keeper walk runs in place unless one of its nodes is on a cycle
    /// whose visited check is made: a walk that may step right any number
    /// of times comes back to its loop node, with the same state once it
    /// is off the board (`null` is its own neighbour), so the node keeps
    /// its check and the walk gets no keeper-walk functions; the player's
    /// walk before it gets none either.
    #[test]
    fn keeper_walks_with_visited_checks_keep_their_search() {
        let walk = |steps: &str| {
            format!(
                "{}
                var board: SquareOrNull -> Piece = {{ :e, null: null }};
                var at: SquareOrNull = a;
                begin, p: player = one;
                p, q: at = Square(*);
                q, k: player = keeper;
                {steps}
                k1, k2: board[at] == e;
                k2, k3: board[at] = x;
                k3, p: player = one;
                p, end: player = keeper;",
                crate::test_games::HEADER
            )
        };
        let straight = program(&walk("k, k1: at = right[at];"));
        let looping = program(&walk("k, k1: at = right[at];\n k1, k: ;"));
        for (p, in_place) in [(straight, true), (looping, false)] {
            let mut generator = Generator::new(&p, Build::Speed);
            generator.plan_inlining();
            let (entry, nodes) = keeper_walks(&p, &generator.cyclic[0], &generator.move_visits);
            let k = crate::test_games::node(&p, "k");
            let q = crate::test_games::node(&p, "q");
            assert_eq!(entry[k], in_place);
            assert_eq!(nodes[k], in_place);
            assert!(!entry[q] && !nodes[q]);
        }
    }

    /// A ray that only steps and tests keeps its square in registers; a
    /// ray with a nested check on its way stores it (the nested check
    /// reads the state), and so do the nodes leading to it.
    #[test]
    fn rays_keep_their_square_in_registers_unless_a_nested_check_reads_it() {
        let ray = |step: &str| {
            format!(
                "{}
                var board: SquareOrNull -> Piece = {{ :e, null: null }};
                var at: SquareOrNull = a;
                begin, p: player = one;
                p, q: at = Square(*);
                q, m: ? r0 -> rt;
                m, end: player = keeper;
                r0, r1: at = right[at];
                {step}
                r2, r0: board[at] == e;
                r2, rt: board[at] == x;
                n0, nt: board[at] == null;",
                crate::test_games::HEADER
            )
        };
        let plain = program(&ray("r1, r2: at != null;"));
        let nested = program(&ray("r1, r2: ? n0 -> nt;"));
        for (p, only) in [(plain, true), (nested, false)] {
            let generator = Generator::new(&p, Build::Speed);
            for name in ["r0", "r1"] {
                let node = crate::test_games::node(&p, name);
                assert!(generator.clobber[1][node].is_some(), "{name}");
                assert_eq!(generator.registers_only[node], only, "{name}");
            }
            // The nested check's own nodes write nothing.
            let n0 = crate::test_games::node(&p, "n0");
            assert!(!generator.registers_only[n0]);
        }
    }

    /// Slots are bytes while every symbol id is below `u8::MAX` (the
    /// narrowed `INVALID`), else `u16`: 255 symbols fit a byte, 256 do not.
    #[test]
    fn slots_are_the_narrowest_type_above_every_symbol() {
        let game = |symbols: usize| {
            let names: Vec<String> = (0..symbols).map(|k| format!("s{k}")).collect();
            program(&format!(
                "type Player = {{ one }};
                type Score = {{ 0 }};
                type S = {{ {} }};
                var x: S = s0;
                begin, end: player = keeper;",
                names.join(", ")
            ))
        };
        // (The game's own symbols: one, 0, keeper, random, and S's.)
        let own = game(1).symbols.len() - 1;
        assert_eq!(value_type(&game(255 - own)), "u8");
        assert_eq!(value_type(&game(256 - own)), "u16");
    }

    /// A loop of jumps, each tagged, checks nothing: every arrival at its
    /// nodes is the first of its tag prefix instance. A ring walk without
    /// tags, and a walk whose two branches join before a tag, keep their
    /// checks (the search comes back, or arrives twice, in one instance).
    #[test]
    fn visits_made_in_vain_are_dropped() {
        let jumps = |loop_back: &str| {
            format!(
                "{}
                var board: SquareOrNull -> Piece = {{ :e, a: x, null: null }};
                var pos: SquareOrNull = a;
                begin, p: player = one;
                p, p1: pos = Square(*);
                p1, p2: board[pos] == e;
                p2, j: $$ pos;
                j, j1: pos = right[pos];
                j1, j2: board[pos] == x;
                j2, j3: board[pos] = e;
                j3, j4: pos = left[pos];
                {loop_back}
                j4, q: $ stop;
                q, end: player = keeper;",
                crate::test_games::HEADER
            )
        };
        let tagged = program(&jumps("j4, j: $$ pos;"));
        let j = crate::test_games::node(&tagged, "j");
        assert!(tagged.node_info[j].visit_in_move);
        let game = Generator::new(&tagged, Build::Speed).game();
        assert!(!game.contains("s.visit_move"), "{game}");
        assert!(game.contains("TRACK_PREFIX: bool = false"), "{game}");
        // The same loop without its tag comes back to `j` in one instance.
        let untagged = program(&jumps("j4, j: ;"));
        let game = Generator::new(&untagged, Build::Speed).game();
        assert!(game.contains("s.visit_move"), "{game}");
        // Two ways from `j` to `j4` join before the tag.
        let joined = program(&jumps("j4, j: $$ pos;\n j1, j3: board[pos] == e;"));
        let game = Generator::new(&joined, Build::Speed).game();
        assert!(game.contains("s.visit_move"), "{game}");
    }

    /// Loops over consecutive symbols are exclusive ranges (LLVM bounds
    /// the symbol in them; with `..=` breakthrough and chess perft were
    /// 20–27% slower), other symbol lists are iterated.
    #[test]
    fn symbol_loops_are_exclusive_ranges() {
        assert_eq!(loop_over(&[4, 5, 6]).0, "for sym in 4u32..7u32");
        assert!(loop_over(&[4, 6]).0.contains(".iter()"));
        assert!(loop_over(&[u32::MAX - 1, u32::MAX]).0.contains(".iter()"));
    }

    /// A chain of `n` assignments between a move's start and its end.
    fn chain(n: usize) -> String {
        let mut source = String::from(
            "type Player = { one };\ntype Score = { 0 };\ntype V = { v0, v1 };\nvar x: V = v0;\nbegin, n0: player = one;\n",
        );
        for k in 0..n {
            source.push_str(&format!("n{k}, n{}: x = v{};\n", k + 1, (k + 1) % 2));
        }
        source.push_str(&format!("n{n}, end: player = keeper;\n"));
        source
    }

    fn out_of_line(code: &str) -> usize {
        code.matches("#[inline(never)]").count()
    }

    /// LLVM merges a function into its only caller whatever its size: a
    /// quick build keeps every `QUICK_INLINE_EDGES` edges of a chain out of
    /// line, so no function grows past that bound; a speed build leaves
    /// inlining to the compiler.
    #[test]
    fn quick_builds_cut_long_call_chains() {
        let n = 1000;
        let p = program(&chain(n));
        let quick = Generator::new(&p, Build::Quick).game();
        let cuts = out_of_line(&quick);
        let least = n / QUICK_INLINE_EDGES as usize;
        assert!(
            (least..=2 * least).contains(&cuts),
            "{cuts} out-of-line functions for {n} edges"
        );
        let speed = Generator::new(&p, Build::Speed).game();
        assert_eq!(out_of_line(&speed), 0);
    }

    /// A scan for a square holding one of two pieces, in a move search and
    /// in a check: the check's loop (most squares hold a piece) tests both
    /// pieces for each square before it writes the square and calls the
    /// node after the choice; the move search tests them for all squares
    /// at once into a mask.
    #[test]
    fn scans_test_every_way_on_before_writing() {
        let p = program(include_str!("../tests/games/scan.rg"));
        let game = Generator::new(&p, Build::Speed).game();
        let prefiltered = game
            .lines()
            .filter(|l| l.trim_start().starts_with("if ") && l.contains("} || {"))
            .count();
        assert_eq!(prefiltered, 1, "{game}");
        let masks: Vec<&str> = game.lines().filter(|l| l.contains("s.mask_in(")).collect();
        assert_eq!(masks.len(), 1, "{game}");
        assert!(
            masks[0].matches("s.mask_in(").count() == 1 && masks[0].contains(", ["),
            "both tests in one mask: {}",
            masks[0]
        );
    }
}
