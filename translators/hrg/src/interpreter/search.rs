//! Walks (hrg.md §4.14, rg.md §5.3–5.8): the depth-first search of the
//! move walks of a state, and of `reachable(...)` walks.
//!
//! A search state is (control position, semistate, tag prefix); a move
//! search keeps a visited set over all three (rg.md §5.7), a reachability
//! search over position and semistate only (tags are ignored there, and
//! `player` assignments are ordinary assignments). Every expanded search
//! state counts against the step limit.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use rg_core::model::ModelError;

use super::control::{Frame, Site, END, NONE};
use super::expr::Runtime;
use super::ir::{Cond, GraphId, RExpr, Stmt, StmtId};
use super::setup::Game;
use super::values::{Ty, Values};

/// A move found by a search: its tags and the state it leads to.
pub(super) struct Found {
    pub tags: Vec<u32>,
    pub kont: u32,
    pub values: Values,
}

/// Tag sequences of one search, as a trie of interned prefixes (id 0 is
/// the empty sequence).
struct Trie {
    nodes: Vec<(u32, u32)>,
    ids: HashMap<(u32, u32), u32>,
}

impl Trie {
    fn new() -> Trie {
        Trie {
            nodes: vec![(u32::MAX, u32::MAX)],
            ids: HashMap::new(),
        }
    }

    fn child(&mut self, parent: u32, tag: u32) -> u32 {
        let next = self.nodes.len() as u32;
        *self.ids.entry((parent, tag)).or_insert_with(|| {
            self.nodes.push((parent, tag));
            next
        })
    }

    fn sequence(&self, mut id: u32) -> Vec<u32> {
        let mut out = Vec::new();
        while id != 0 {
            let (parent, tag) = self.nodes[id as usize];
            out.push(tag);
            id = parent;
        }
        out.reverse();
        out
    }
}

/// A pending search state.
struct Item {
    kont: u32,
    values: Rc<Values>,
    tags: u32,
}

/// What a step produces.
enum Event {
    Push(Item),
    Complete(u32, u32, Values),
    Found,
}

/// How a move search reports.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Collect {
    /// Moves with their states; an error when one tag sequence leads to
    /// different states (rg.md §5.7, move unambiguity).
    Moves,
    /// Only the number of distinct tag sequences.
    Count,
}

pub(super) struct Search<'a> {
    pub game: &'a Game,
    pub rt: &'a mut Runtime,
    pub lenient: bool,
    steps: u64,
    limit: u64,
    reach_cache: HashMap<(u32, u128), bool>,
}

impl<'a> Search<'a> {
    pub fn new(game: &'a Game, rt: &'a mut Runtime, lenient: bool, limit: u64) -> Search<'a> {
        Search {
            game,
            rt,
            lenient,
            steps: 0,
            limit,
            reach_cache: HashMap::new(),
        }
    }

    fn tick(&mut self) -> Result<(), ModelError> {
        self.steps += 1;
        if self.steps > self.limit {
            return Err(ModelError::new(format!(
                "move search does not terminate: more than {} steps",
                self.limit
            )));
        }
        Ok(())
    }

    /// The distinct moves from position `kont` in `values`.
    pub fn moves(
        &mut self,
        kont: u32,
        values: &Values,
        collect: Collect,
    ) -> Result<(Vec<Found>, usize), ModelError> {
        let mut trie = Trie::new();
        let mut visited: HashSet<(u32, u32, u128)> = HashSet::new();
        let mut index: HashMap<u32, usize> = HashMap::new();
        let mut found: Vec<Found> = Vec::new();
        let mut stack = vec![Item {
            kont,
            values: Rc::new(values.clone()),
            tags: 0,
        }];
        let mut events = Vec::new();
        while let Some(item) = stack.pop() {
            if !visited.insert((item.kont, item.tags, item.values.hash128())) {
                continue;
            }
            self.tick()?;
            self.step(item, false, &mut trie, &mut events)?;
            for event in events.drain(..) {
                match event {
                    Event::Push(item) => stack.push(item),
                    Event::Found => {}
                    Event::Complete(tags, kont, values) => match index.get(&tags) {
                        Some(&k) => {
                            if collect == Collect::Moves
                                && (found[k].kont != kont || found[k].values != values)
                            {
                                let text: Vec<&str> = trie
                                    .sequence(tags)
                                    .iter()
                                    .map(|&t| self.rt.symbols.name(t))
                                    .collect();
                                return Err(ModelError::new(format!(
                                    "ambiguous move: the tag sequence \"{}\" leads to different states",
                                    text.join(" ")
                                )));
                            }
                        }
                        None => {
                            index.insert(tags, found.len());
                            if collect == Collect::Moves {
                                found.push(Found {
                                    tags: trie.sequence(tags),
                                    kont,
                                    values,
                                });
                            } else {
                                found.push(Found {
                                    tags: Vec::new(),
                                    kont,
                                    values: Values::new(Vec::new()),
                                });
                            }
                        }
                    },
                }
            }
        }
        let count = found.len();
        Ok((found, count))
    }

    /// Whether some walk of `graph` (arguments assigned) reaches its end.
    fn reach(
        &mut self,
        graph: GraphId,
        args: &[RExpr],
        site: Site,
        env: u32,
        values: &Values,
    ) -> Result<bool, ModelError> {
        let game = self.game;
        let g = &game.ir.graphs[graph as usize];
        let mut start_values = values.clone();
        for (a, p) in args.iter().zip(&g.params) {
            let v = self.eval(a, env, &start_values)?;
            let before = start_values.clone();
            self.write(&mut start_values, p.slot, &p.ty, &v, &before)?;
        }
        let control = &mut self.rt.control;
        let genv = control.callee_env(&game.ir, graph, site);
        let goal = control.kont(Frame::Goal, NONE);
        let end = control.kont(Frame::Graph, goal);
        let start = control.kont(
            Frame::Seq {
                block: g.body,
                index: 0,
                env: genv,
            },
            end,
        );
        let key = (start, start_values.hash128());
        if let Some(&known) = self.reach_cache.get(&key) {
            return Ok(known);
        }
        let mut trie = Trie::new();
        let mut visited: HashSet<(u32, u128)> = HashSet::new();
        let mut stack = vec![Item {
            kont: start,
            values: Rc::new(start_values),
            tags: 0,
        }];
        let mut events = Vec::new();
        let mut result = false;
        'search: while let Some(item) = stack.pop() {
            if !visited.insert((item.kont, item.values.hash128())) {
                continue;
            }
            self.tick()?;
            self.step(item, true, &mut trie, &mut events)?;
            for event in events.drain(..) {
                match event {
                    Event::Push(item) => stack.push(item),
                    Event::Found => {
                        result = true;
                        break 'search;
                    }
                    Event::Complete(..) => {}
                }
            }
        }
        self.reach_cache.insert(key, result);
        Ok(result)
    }

    fn kont(&mut self, frame: Frame, parent: u32) -> u32 {
        self.rt.control.kont(frame, parent)
    }

    /// Runs one search state up to its next statement's effect.
    fn step(
        &mut self,
        item: Item,
        reach: bool,
        trie: &mut Trie,
        out: &mut Vec<Event>,
    ) -> Result<(), ModelError> {
        let game = self.game;
        let Item {
            mut kont,
            values,
            tags,
        } = item;
        loop {
            if kont == NONE {
                // Left `rules` without a `player` assignment: the walk dies.
                return Ok(());
            }
            let (frame, parent) = self.rt.control.frame(kont);
            match frame {
                Frame::End => return Ok(()),
                Frame::Goal => {
                    if reach {
                        out.push(Event::Found);
                    }
                    return Ok(());
                }
                Frame::Graph => kont = parent,
                Frame::Seq { block, index, env } => {
                    let stmts = &game.ir.blocks[block as usize];
                    match stmts.get(index as usize) {
                        None => kont = parent,
                        Some(&stmt) => {
                            let rest = self.kont(
                                Frame::Seq {
                                    block,
                                    index: index + 1,
                                    env,
                                },
                                parent,
                            );
                            return self.exec(stmt, env, rest, values, tags, reach, trie, out);
                        }
                    }
                }
                Frame::Loop { stmt, env } => {
                    let Stmt::Loop(body) = game.ir.stmts[stmt as usize] else {
                        return Err(ModelError::new("internal: loop frame without a loop"));
                    };
                    let k = self.kont(
                        Frame::Seq {
                            block: body,
                            index: 0,
                            env,
                        },
                        kont,
                    );
                    out.push(Event::Push(Item {
                        kont: k,
                        values,
                        tags,
                    }));
                    return Ok(());
                }
                Frame::While { stmt, env } => {
                    let Stmt::While { cond, body } = &game.ir.stmts[stmt as usize] else {
                        return Err(ModelError::new("internal: while frame without a while"));
                    };
                    let next = if self.cond(cond, env, &values, true, true)? {
                        self.kont(
                            Frame::Seq {
                                block: *body,
                                index: 0,
                                env,
                            },
                            kont,
                        )
                    } else {
                        parent
                    };
                    out.push(Event::Push(Item {
                        kont: next,
                        values,
                        tags,
                    }));
                    return Ok(());
                }
                Frame::Repeat { stmt, next, env } => {
                    let (count, var, body) = match &game.ir.stmts[stmt as usize] {
                        Stmt::Repeat { count, body } => (*count as usize, None, *body),
                        Stmt::RepeatIn { var, symbols, body } => (
                            symbols.len(),
                            symbols.get(next as usize).map(|&s| (var.as_str(), s)),
                            *body,
                        ),
                        _ => {
                            return Err(ModelError::new("internal: repeat frame without a repeat"))
                        }
                    };
                    if next as usize >= count {
                        kont = parent;
                        continue;
                    }
                    let copy = self.rt.control.copy_env(env, stmt, next, var);
                    let after = self.kont(
                        Frame::Repeat {
                            stmt,
                            next: next + 1,
                            env,
                        },
                        parent,
                    );
                    let k = self.kont(
                        Frame::Seq {
                            block: body,
                            index: 0,
                            env: copy,
                        },
                        after,
                    );
                    out.push(Event::Push(Item {
                        kont: k,
                        values,
                        tags,
                    }));
                    return Ok(());
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn exec(
        &mut self,
        stmt: StmtId,
        env: u32,
        rest: u32,
        values: Rc<Values>,
        tags: u32,
        reach: bool,
        trie: &mut Trie,
        out: &mut Vec<Event>,
    ) -> Result<(), ModelError> {
        let game = self.game;
        let push = |out: &mut Vec<Event>, kont: u32, values: Rc<Values>, tags: u32| {
            out.push(Event::Push(Item { kont, values, tags }));
        };
        match &game.ir.stmts[stmt as usize] {
            Stmt::Assign { target, value } => {
                let (slot, ty) = self.location(target, env, &values)?;
                let v = self.eval(value, env, &values)?;
                let mut next = (*values).clone();
                self.write(&mut next, slot, &ty, &v, &values)?;
                push(out, rest, Rc::new(next), tags);
            }
            Stmt::AssignPlayer(value) => {
                let who = self.eval_symbol(value, env, &values)?;
                let mut next = (*values).clone();
                next.set(game.player_slot, who);
                if reach {
                    push(out, rest, Rc::new(next), tags);
                } else {
                    out.push(Event::Complete(tags, rest, next));
                }
            }
            Stmt::AssignAny { target, symbols } => {
                let (slot, ty) = self.location(target, env, &values)?;
                if !matches!(*ty, Ty::Set(_)) {
                    return Err(ModelError::new("a map cannot be assigned any symbol"));
                }
                for &s in symbols {
                    let mut next = (*values).clone();
                    next.set(slot, s);
                    push(out, rest, Rc::new(next), tags);
                }
            }
            Stmt::Branch(arms) => {
                for &arm in arms {
                    let k = self.kont(
                        Frame::Seq {
                            block: arm,
                            index: 0,
                            env,
                        },
                        rest,
                    );
                    push(out, k, values.clone(), tags);
                }
            }
            Stmt::BranchIn { var, symbols, body } => {
                for (i, &s) in symbols.iter().enumerate() {
                    let copy = self
                        .rt
                        .control
                        .copy_env(env, stmt, i as u32, Some((var, s)));
                    let k = self.kont(
                        Frame::Seq {
                            block: *body,
                            index: 0,
                            env: copy,
                        },
                        rest,
                    );
                    push(out, k, values.clone(), tags);
                }
            }
            Stmt::Repeat { .. } | Stmt::RepeatIn { .. } => {
                let k = self.kont(Frame::Repeat { stmt, next: 0, env }, rest);
                push(out, k, values, tags);
            }
            Stmt::Loop(_) => {
                let k = self.kont(Frame::Loop { stmt, env }, rest);
                push(out, k, values, tags);
            }
            Stmt::While { .. } => {
                let k = self.kont(Frame::While { stmt, env }, rest);
                push(out, k, values, tags);
            }
            Stmt::Call { graph, args } => {
                let g = &game.ir.graphs[*graph as usize];
                let site = Site::Call { env, stmt };
                let mut next = (*values).clone();
                if let Some(slot) = g.return_slot {
                    let id = self.rt.control.site(site);
                    next.set(slot, id);
                }
                // Arguments are assigned one after the other (hrg.md §5.6).
                for (a, p) in args.iter().zip(&g.params) {
                    let v = self.eval(a, env, &next)?;
                    let before = next.clone();
                    self.write(&mut next, p.slot, &p.ty, &v, &before)?;
                }
                let genv = self.rt.control.callee_env(&game.ir, *graph, site);
                let end = self.kont(Frame::Graph, rest);
                let k = self.kont(
                    Frame::Seq {
                        block: g.body,
                        index: 0,
                        env: genv,
                    },
                    end,
                );
                push(out, k, Rc::new(next), tags);
            }
            Stmt::Check(c) => {
                if self.cond(c, env, &values, true, false)? {
                    push(out, rest, values, tags);
                }
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                let block = if self.cond(cond, env, &values, true, true)? {
                    Some(*then)
                } else {
                    *otherwise
                };
                let k = match block {
                    Some(b) => self.kont(
                        Frame::Seq {
                            block: b,
                            index: 0,
                            env,
                        },
                        rest,
                    ),
                    None => rest,
                };
                push(out, k, values, tags);
            }
            Stmt::End => {
                if reach {
                    out.push(Event::Found);
                } else {
                    let mut next = (*values).clone();
                    next.set(game.player_slot, game.keeper);
                    out.push(Event::Complete(tags, END, next));
                }
            }
            Stmt::Return => {
                let mut k = rest;
                loop {
                    if k == NONE {
                        return Err(ModelError::new("internal: return() outside a graph"));
                    }
                    let (frame, parent) = self.rt.control.frame(k);
                    if frame == Frame::Graph {
                        push(out, parent, values, tags);
                        break;
                    }
                    k = parent;
                }
            }
            Stmt::Break | Stmt::Continue => {
                let is_break = matches!(game.ir.stmts[stmt as usize], Stmt::Break);
                let mut k = rest;
                loop {
                    if k == NONE {
                        return Err(ModelError::new(
                            "internal: break()/continue() outside a loop",
                        ));
                    }
                    let (frame, parent) = self.rt.control.frame(k);
                    match frame {
                        Frame::Seq { .. } => k = parent,
                        Frame::Loop { .. } | Frame::While { .. } | Frame::Repeat { .. } => {
                            push(out, if is_break { parent } else { k }, values, tags);
                            break;
                        }
                        _ => {
                            return Err(ModelError::new(
                                "internal: break()/continue() outside a loop",
                            ))
                        }
                    }
                }
            }
            Stmt::VarTag(var) => {
                let symbol = values.get(game.vars[*var as usize].base);
                let tags = if reach {
                    tags
                } else {
                    trie.child(tags, symbol)
                };
                push(out, rest, values, tags);
            }
            Stmt::Tag(parts) => {
                let symbol = match parts.fixed {
                    Some(s) => s,
                    None => {
                        let mut texts = Vec::new();
                        for p in &parts.parts {
                            let text = match self.substitution(env, p) {
                                Ok(s) => self.rt.symbols.name(s).to_string(),
                                Err(_) => p.clone(),
                            };
                            texts.push(text);
                        }
                        self.rt.symbols.intern(&texts.join("__"))
                    }
                };
                let tags = if reach {
                    tags
                } else {
                    trie.child(tags, symbol)
                };
                push(out, rest, values, tags);
            }
        }
        Ok(())
    }

    /// A condition with its then/else targets present or not (§4.13):
    /// this decides only whether both sides of `||` are evaluated (two
    /// parallel edges when there is no else target), which matters for
    /// faults; the truth value is the usual one.
    fn cond(
        &mut self,
        c: &Cond,
        env: u32,
        values: &Values,
        then: bool,
        otherwise: bool,
    ) -> Result<bool, ModelError> {
        match c {
            Cond::Eq {
                left,
                right,
                negated,
            } => {
                let a = self.eval(left, env, values)?;
                let b = self.eval(right, env, values)?;
                Ok(self.equal(&a, &b, values)? != *negated)
            }
            Cond::And(a, b) => Ok(self.cond(a, env, values, true, otherwise)?
                && self.cond(b, env, values, then, otherwise)?),
            Cond::Or(a, b) if otherwise => Ok(self.cond(a, env, values, then, true)?
                || self.cond(b, env, values, then, otherwise)?),
            Cond::Or(a, b) => {
                let x = self.cond(a, env, values, then, false)?;
                let y = self.cond(b, env, values, then, false)?;
                Ok(x || y)
            }
            Cond::Not(a) => Ok(!self.cond(a, env, values, otherwise, then)?),
            Cond::True => Ok(true),
            Cond::False => Ok(false),
            Cond::Reach { graph, args, id } => {
                self.reach(*graph, args, Site::Reach { env, id: *id }, env, values)
            }
        }
    }
}
