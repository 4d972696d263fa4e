//! Control positions (hrg.md §4.14): where a walk is in the program.
//!
//! A position is a *continuation*: the frame being executed (a block and
//! the index of its next statement, with the environment of `branch x in`
//! / `repeat` copies and graph instances) and, below it, the frames to
//! resume when it finishes (loop heads, repeat iterations, graph returns).
//! Frames, environments, instances and call sites are interned, so a
//! position is one `u32` and search states hash cheaply.
//!
//! Instances and call sites mirror the *copies* the RG translation makes
//! (an inlined graph per call site, a body per `repeat`/`branch x in`
//! value, one body per reusable graph): the return address of a reusable
//! graph is a variable of the RG game (§5.7), so the interpreter stores
//! the equivalent call-site identity in the state, and needs it to be
//! equal exactly when the RG symbols are.

use std::collections::HashMap;
use std::hash::Hash;

use super::ir::{BlockId, Cond, GraphId, Ir, Stmt, StmtId};
use crate::limits::{LIMITS_FILE, MAX_EXPANDED_STATEMENTS};

/// "No frame": the walk left `rules` (it reaches `end` without completing
/// a move and dies, rg.md §5.4).
pub(super) const NONE: u32 = u32::MAX;
/// The terminal position (`end()` was executed).
pub(super) const END: u32 = 0;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Env {
    pub graph: GraphId,
    pub instance: u32,
    /// The `repeat`/`branch x in` copies entered in this graph body:
    /// (statement, iteration).
    pub path: Vec<(StmtId, u32)>,
    /// Their variables' values (innermost last).
    pub subs: Vec<(String, u32)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Instance {
    Root,
    Reusable(GraphId),
    /// A non-reusable graph called at a site.
    Inline(u32),
    /// A non-reusable graph's copy for one `reachable` test.
    Test(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Site {
    Call { env: u32, stmt: StmtId },
    Reach { env: u32, id: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Frame {
    End,
    /// Run `block[index..]`.
    Seq {
        block: BlockId,
        index: u32,
        env: u32,
    },
    /// Run the loop body (again).
    Loop {
        stmt: StmtId,
        env: u32,
    },
    /// Test the condition of a `while` (again).
    While {
        stmt: StmtId,
        env: u32,
    },
    /// Start iteration `next` of a `repeat`, or leave it.
    Repeat {
        stmt: StmtId,
        next: u32,
        env: u32,
    },
    /// The end of a graph instance (target of `return()`).
    Graph,
    /// The end of the graph tested by `reachable`: reaching it succeeds.
    Goal,
}

#[derive(Debug)]
struct Interner<T> {
    items: Vec<T>,
    ids: HashMap<T, u32>,
}

impl<T: Clone + Eq + Hash> Interner<T> {
    fn new() -> Self {
        Interner {
            items: Vec::new(),
            ids: HashMap::new(),
        }
    }

    fn intern(&mut self, item: T) -> u32 {
        if let Some(&id) = self.ids.get(&item) {
            return id;
        }
        let id = self.items.len() as u32;
        self.items.push(item.clone());
        self.ids.insert(item, id);
        id
    }
}

#[derive(Debug)]
pub(super) struct Control {
    envs: Interner<Env>,
    instances: Interner<Instance>,
    sites: Interner<Site>,
    konts: Interner<(Frame, u32)>,
}

impl Control {
    pub fn new() -> Control {
        let mut control = Control {
            envs: Interner::new(),
            instances: Interner::new(),
            sites: Interner::new(),
            konts: Interner::new(),
        };
        let end = control.kont(Frame::End, NONE);
        debug_assert_eq!(end, END);
        control
    }

    pub fn kont(&mut self, frame: Frame, parent: u32) -> u32 {
        self.konts.intern((frame, parent))
    }

    pub fn frame(&self, kont: u32) -> (Frame, u32) {
        self.konts.items[kont as usize]
    }

    pub fn env(&self, env: u32) -> &Env {
        &self.envs.items[env as usize]
    }

    pub fn site(&mut self, site: Site) -> u32 {
        self.sites.intern(site)
    }

    /// The environment of a graph body entered as `instance`.
    pub fn graph_env(&mut self, graph: GraphId, instance: Instance) -> u32 {
        let instance = self.instances.intern(instance);
        self.envs.intern(Env {
            graph,
            instance,
            path: Vec::new(),
            subs: Vec::new(),
        })
    }

    /// The environment of copy `iteration` of a `repeat`/`branch x in`.
    pub fn copy_env(
        &mut self,
        env: u32,
        stmt: StmtId,
        iteration: u32,
        sub: Option<(&str, u32)>,
    ) -> u32 {
        let mut e = self.envs.items[env as usize].clone();
        e.path.push((stmt, iteration));
        if let Some((name, symbol)) = sub {
            e.subs.push((name.to_string(), symbol));
        }
        self.envs.intern(e)
    }

    /// The instance a call or test at `site` enters.
    pub fn callee_env(&mut self, ir: &Ir, graph: GraphId, site: Site) -> u32 {
        if ir.graphs[graph as usize].reusable {
            return self.graph_env(graph, Instance::Reusable(graph));
        }
        let site_id = self.site(site);
        let instance = match site {
            Site::Call { .. } => Instance::Inline(site_id),
            Site::Reach { .. } => Instance::Test(site_id),
        };
        self.graph_env(graph, instance)
    }

    pub fn root_env(&mut self, ir: &Ir) -> u32 {
        self.graph_env(ir.rules, Instance::Root)
    }
}

/// The initial return address of each reusable graph: its first call
/// site in the translation's order (hrg.md §5.1, §5.5–5.8: the statements
/// of `rules` in order, inlined graphs and tested copies expanded where
/// they occur, a reusable body once, conditions before the blocks they
/// guard), which is the initial value of `h_return` in RG (§5.7).
///
/// The walk visits every copy the translation makes, so it fails past
/// [`MAX_EXPANDED_STATEMENTS`] statements, like the translation.
pub(super) fn first_call_sites(ir: &Ir, control: &mut Control) -> Result<Vec<(u32, u32)>, String> {
    let mut walk = FirstCalls {
        ir,
        control,
        instantiated: vec![false; ir.graphs.len()],
        first: vec![None; ir.graphs.len()],
        statements: 0,
    };
    let env = walk.control.root_env(ir);
    walk.instantiated[ir.rules as usize] = true;
    walk.block(ir.graphs[ir.rules as usize].body, env);
    if walk.statements > MAX_EXPANDED_STATEMENTS {
        return Err(format!(
            "The game expands to more than {MAX_EXPANDED_STATEMENTS} statements (copies of \
             repeat and branch bodies and of inlined graphs) (raise MAX_EXPANDED_STATEMENTS \
             in {LIMITS_FILE} to allow more)."
        ));
    }
    let first = walk.first;
    Ok(ir
        .graphs
        .iter()
        .zip(first)
        .filter_map(|(g, site)| Some((g.return_slot?, site?)))
        .collect())
}

struct FirstCalls<'a> {
    ir: &'a Ir,
    control: &'a mut Control,
    instantiated: Vec<bool>,
    first: Vec<Option<u32>>,
    /// Statements visited, copies included; the walk stops past the limit.
    statements: u64,
}

impl FirstCalls<'_> {
    fn block(&mut self, block: BlockId, env: u32) {
        for &stmt in &self.ir.blocks[block as usize] {
            self.statements += 1;
            if self.statements > MAX_EXPANDED_STATEMENTS {
                return;
            }
            self.stmt(stmt, env);
        }
    }

    fn copies(
        &mut self,
        stmt: StmtId,
        env: u32,
        body: BlockId,
        count: usize,
        var: Option<(&str, &[u32])>,
    ) {
        for i in 0..count {
            if self.statements > MAX_EXPANDED_STATEMENTS {
                return;
            }
            let sub = var.map(|(name, symbols)| (name, symbols[i]));
            let copy = self.control.copy_env(env, stmt, i as u32, sub);
            self.block(body, copy);
        }
    }

    fn stmt(&mut self, stmt: StmtId, env: u32) {
        let ir = self.ir;
        match &ir.stmts[stmt as usize] {
            Stmt::Check(c) => self.cond(c, env),
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                self.cond(cond, env);
                self.block(*then, env);
                if let Some(b) = otherwise {
                    self.block(*b, env);
                }
            }
            Stmt::While { cond, body } => {
                self.cond(cond, env);
                self.block(*body, env);
            }
            Stmt::Loop(body) => self.block(*body, env),
            Stmt::Branch(arms) => {
                for &arm in arms {
                    self.block(arm, env);
                }
            }
            Stmt::Repeat { count, body } => {
                self.copies(stmt, env, *body, *count as usize, None);
            }
            Stmt::BranchIn { var, symbols, body } | Stmt::RepeatIn { var, symbols, body } => {
                self.copies(stmt, env, *body, symbols.len(), Some((var, symbols)));
            }
            Stmt::Call { graph, .. } => {
                let site = Site::Call { env, stmt };
                self.enter(*graph, site, true);
            }
            _ => {}
        }
    }

    fn enter(&mut self, graph: GraphId, site: Site, is_call: bool) {
        let g = &self.ir.graphs[graph as usize];
        if g.reusable {
            if is_call && self.first[graph as usize].is_none() {
                self.first[graph as usize] = Some(self.control.site(site));
            }
            if !self.instantiated[graph as usize] {
                self.instantiated[graph as usize] = true;
                let env = self.control.callee_env(self.ir, graph, site);
                self.block(g.body, env);
            }
        } else {
            let env = self.control.callee_env(self.ir, graph, site);
            self.block(g.body, env);
        }
    }

    fn cond(&mut self, c: &Cond, env: u32) {
        match c {
            Cond::And(a, b) | Cond::Or(a, b) => {
                self.cond(a, env);
                self.cond(b, env);
            }
            Cond::Not(a) => self.cond(a, env),
            Cond::Reach { graph, id, .. } => {
                self.enter(*graph, Site::Reach { env, id: *id }, false);
            }
            Cond::Eq { .. } | Cond::True | Cond::False => {}
        }
    }
}
