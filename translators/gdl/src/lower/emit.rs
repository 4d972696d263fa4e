//! The RG game of gdl.md §7, emitted through [`GameBuilder`].
//!
//! Declarations (§7.3): `Player` (roles sorted by RG name), `Score`, one
//! action type and `does_<role>` variable per role whose choice some rule
//! reads, and the state as one Bool variable `F_prev` per base fact plus
//! `F_next` for the facts whose next value depends on the state (plain
//! variables keep every comparison's types tiny, which the checker needs
//! on games with thousands of facts).
//!
//! The turn automaton (§7.4), for roles P1 … Pn in turn order:
//!
//! ```text
//! begin ─ player = P1 ─▶ choose_P1            (or ─▶ goals if the initial state is terminal)
//! choose_P ─ legal bodies of P (a shared prefix tree) ─▶ act_P_A
//! act_P_A ─ does_P = A ─ $ A ─▶ done_P
//! done_P ─ visible[P] = 0 ─ visible[P'] = 1 ─ player = P' ─▶ choose_P'   (the next role)
//! done_Pn ─ player = keeper ─▶ update
//! update: per fact F   ? next_F → F_next = 1  |  ! next_F → F_next = 0;   then F_prev = F_next, …
//! terminal: ! terminal → visible… ─ player = P1 ─▶ choose_P1  |  ? terminal ─▶ goals
//! goals: per role, values by decreasing priority, default 0 ─ player = keeper ─▶ end
//! ```
//!
//! A role's move hands the turn directly to the next role (setting the
//! visibility after its own tag, so nobody else sees it), which saves one
//! keeper move per role; only the step's last role hands over to the keeper
//! for the update.

use std::collections::HashMap;

use propnet::ground::{AtomId, GroundProgram, TermId};
use propnet::naming::{turn_order, NameTable};
use rg_core::ast::{Expr, Game, Label, Type, Value};
use rg_core::build::{label, Fragment, GameBuilder};
use rg_core::diag::Diagnostic;

use super::analysis::{Analysis, AtomKind, Cond, CycleShape, Resolved};
use super::runtime::{Context, RuntimeLowering};
use super::trie::{emit_bodies, Body, TrieSink};

/// The emitted game and the lowering's warnings.
pub struct Emitted {
    pub game: Game,
    pub warnings: Vec<Diagnostic>,
}

struct Names {
    /// Role names in turn order.
    roles: Vec<String>,
    /// File index of each role in turn order.
    file_index: Vec<usize>,
    /// Per role (turn order): (action term, RG name).
    actions: Vec<Vec<(TermId, String)>>,
    facts: Vec<(TermId, String)>,
}

struct Emitter<'g> {
    b: GameBuilder,
    an: Analysis<'g>,
    names: Names,
    /// Per fact: `F_prev`.
    prev: Vec<Expr>,
    does: Vec<Option<Expr>>,
    /// Per role: the type of `does_<role>`.
    does_types: Vec<Option<Type>>,
    /// Interned action sets of `DoesIn` conditions: (role, actions).
    action_sets: Vec<(u32, Vec<u32>)>,
    action_set_ids: HashMap<(u32, Vec<u32>), u32>,
    /// Check targets by (atom, level): `? start -> end`.
    fragments: HashMap<(AtomId, u32), Fragment>,
    pending: Vec<(AtomId, u32)>,
    pending_cycles: Vec<u32>,
    atom_names: HashMap<AtomId, String>,
    runtime: RuntimeLowering,
    /// The first run-time relation that could not be lowered.
    runtime_error: Option<String>,
}

const ONE: &str = "1";
const ZERO: &str = "0";

/// Lowers a ground program (see the module documentation).
pub fn emit(ground: &GroundProgram) -> Result<Emitted, Vec<Diagnostic>> {
    let names = names(ground)?;
    let an = analyse(ground, &names)?;
    let outputs = OutputAtoms::collect(ground, &an, names.roles.len());
    let scores = scores(ground, &outputs.goals);
    let mut e = Emitter::declare(ground, an, names, &scores, &outputs.does_read);
    let turn = e.turn_automaton(ground, &outputs);
    e.keeper_next_state(&outputs, &turn);
    let warnings = e.keeper_outcome(ground, &outputs, turn.goals);
    e.flush();
    if let Some(error) = e.runtime_error.take() {
        return Err(vec![Diagnostic::error(
            format!("cannot translate a relation evaluated at run time: {error}"),
            None,
        )]);
    }
    Ok(Emitted {
        game: e.b.finish(),
        warnings,
    })
}

/// The analysis of the ground program, with roles, actions and facts
/// indexed in the emitted order.
fn analyse<'g>(ground: &'g GroundProgram, names: &Names) -> Result<Analysis<'g>, Vec<Diagnostic>> {
    let role_turn_index: HashMap<TermId, u32> = names
        .file_index
        .iter()
        .enumerate()
        .map(|(k, &i)| (ground.roles[i], k as u32))
        .collect();
    let action_index: Vec<HashMap<TermId, u32>> = names
        .actions
        .iter()
        .map(|list| {
            list.iter()
                .enumerate()
                .map(|(k, (t, _))| (*t, k as u32))
                .collect()
        })
        .collect();
    let fact_index: HashMap<TermId, u32> = names
        .facts
        .iter()
        .enumerate()
        .map(|(k, (t, _))| (*t, k as u32))
        .collect();
    Analysis::new(ground, &role_turn_index, &action_index, &fact_index)
        .map_err(|e| vec![Diagnostic::error(e.0, None)])
}

/// The output atoms (`legal`, `goal`, `next`, `terminal`) by their
/// arguments, and which roles' choices some rule reads.
struct OutputAtoms {
    legal: HashMap<(TermId, TermId), AtomId>,
    goals: HashMap<TermId, Vec<(TermId, AtomId)>>,
    next: HashMap<TermId, AtomId>,
    terminal: Option<AtomId>,
    /// Per role (turn order): whether a `does` of the role is read.
    does_read: Vec<bool>,
}

impl OutputAtoms {
    fn collect(ground: &GroundProgram, an: &Analysis, roles: usize) -> OutputAtoms {
        let v = ground.vocabulary;
        let mut outputs = OutputAtoms {
            legal: HashMap::new(),
            goals: HashMap::new(),
            next: HashMap::new(),
            terminal: None,
            does_read: vec![false; roles],
        };
        for (i, atom) in ground.atoms.iter().enumerate() {
            let i = i as AtomId;
            match (atom.relation, atom.args.as_slice()) {
                (s, [r, a]) if s == v.legal => {
                    outputs.legal.insert((*r, *a), i);
                }
                (s, [r, x]) if s == v.goal => outputs.goals.entry(*r).or_default().push((*x, i)),
                (s, [f]) if s == v.next => {
                    outputs.next.insert(*f, i);
                }
                (s, []) if s == v.terminal => outputs.terminal = Some(i),
                _ => {}
            }
            if let AtomKind::Does { role, .. } = an.kinds[i as usize] {
                outputs.does_read[role as usize] = true;
            }
        }
        outputs
    }
}

/// Every goal value, numbers ascending (0 first: the default).
fn scores(ground: &GroundProgram, goals: &HashMap<TermId, Vec<(TermId, AtomId)>>) -> Vec<String> {
    let mut scores: Vec<String> = vec![ZERO.to_string()];
    for list in goals.values() {
        for &(value, _) in list {
            let name = ground.rg_name(value);
            if !scores.contains(&name) {
                scores.push(name);
            }
        }
    }
    scores.sort_by(|a, b| score_order(a).cmp(&score_order(b)).then(a.cmp(b)));
    scores
}

/// The nodes the turn automaton hands over to the keeper's parts.
struct Turn {
    /// Per role (turn order): where it chooses its move.
    choose: Vec<String>,
    /// Where the keeper computes the next state.
    update: String,
    /// Where the keeper scores a terminal state.
    goals: String,
    terminal: Resolved,
}

impl<'g> Emitter<'g> {
    /// The declarations (§7.3): types, `does_<role>`, the state variables
    /// and `visible`.
    fn declare(
        ground: &GroundProgram,
        an: Analysis<'g>,
        names: Names,
        scores: &[String],
        does_read: &[bool],
    ) -> Emitter<'g> {
        let mut b = GameBuilder::new();
        // Symbols used in expressions must never be shadowed by generated
        // constants or variables (rg.md §3.1).
        b.reserve_names(names.roles.iter().cloned());
        b.reserve_names(names.facts.iter().map(|(_, n)| n.clone()));
        for list in &names.actions {
            b.reserve_names(list.iter().map(|(_, n)| n.clone()));
        }
        b.reserve_names(scores.iter().cloned());
        b.reserve_names([ZERO, ONE]);
        b.define_type("Player", Type::set(names.roles.iter().cloned()));
        b.define_type("Score", Type::set(scores.iter().cloned()));
        let mut does = Vec::new();
        let mut does_types = Vec::new();
        for (k, role) in names.roles.iter().enumerate() {
            if !does_read[k] {
                does.push(None);
                does_types.push(None);
                continue;
            }
            let ty = b.set_type(
                &format!("does_{role}_type"),
                names.actions[k].iter().map(|(_, n)| n.clone()),
            );
            let name = b.fresh_name(&format!("does_{role}"));
            let first = names.actions[k][0].1.clone();
            does.push(Some(b.variable(&name, ty.clone(), Value::symbol(first))));
            does_types.push(Some(ty));
        }
        let initial: std::collections::HashSet<TermId> = ground.initial.iter().copied().collect();
        let prev: Vec<Expr> = names
            .facts
            .iter()
            .map(|(t, n)| {
                let name = b.fresh_name(&format!("{n}_prev"));
                let value = if initial.contains(t) { ONE } else { ZERO };
                b.variable(&name, Type::name("Bool"), Value::symbol(value))
            })
            .collect();
        if names.roles.len() > 1 {
            b.variable(
                "visible",
                Type::name("Visibility"),
                Value::map(
                    Value::symbol(ZERO),
                    [(names.roles[0].clone(), Value::symbol(ONE))],
                ),
            );
        }
        let facts: Vec<TermId> = names.facts.iter().map(|(t, _)| *t).collect();
        let runtime = RuntimeLowering::new(&mut b, ground, &facts);
        Emitter {
            runtime,
            runtime_error: None,
            b,
            an,
            names,
            prev,
            does,
            does_types,
            action_sets: Vec::new(),
            action_set_ids: HashMap::new(),
            fragments: HashMap::new(),
            pending: Vec::new(),
            pending_cycles: Vec::new(),
            atom_names: HashMap::new(),
        }
    }

    /// The turn automaton (§7.4): from `begin`, each role in turn order
    /// chooses among its legal moves and hands over to the next role, the
    /// last one to the keeper.
    fn turn_automaton(&mut self, ground: &GroundProgram, outputs: &OutputAtoms) -> Turn {
        let choose: Vec<String> = self
            .names
            .roles
            .clone()
            .iter()
            .map(|r| self.b.node(&format!("choose_{r}")))
            .collect();
        let update = self.b.node("update");
        let goals = self.b.node("goals");
        let terminal = match outputs.terminal {
            Some(t) => self.an.resolve(propnet::ground::GroundLiteral {
                atom: t,
                positive: true,
            }),
            None => Resolved::Const(false),
        };
        let initially_terminal = match terminal {
            Resolved::Const(b) => b,
            Resolved::Cond(_) => outputs
                .terminal
                .is_some_and(|t| self.an.initial_value[t as usize]),
        };
        if initially_terminal {
            self.b.skip("begin", &goals);
        } else {
            let first = self.names.roles[0].clone();
            self.b.edge("begin", &choose[0], label::switch(&first));
        }
        for k in 0..self.names.roles.len() {
            self.role_moves(ground, outputs, k, &choose, &update);
        }
        Turn {
            choose,
            update,
            goals,
            terminal,
        }
    }

    /// Role `k`'s choice among its legal moves, and the hand-over to the
    /// next role (or to the keeper after the last one).
    fn role_moves(
        &mut self,
        ground: &GroundProgram,
        outputs: &OutputAtoms,
        k: usize,
        choose: &[String],
        update: &str,
    ) {
        let n = self.names.roles.len();
        let role = self.names.roles[k].clone();
        let file = self.names.file_index[k];
        let role_term = ground.roles[file];
        let actions = self.names.actions[k].clone();
        let mut targets = Vec::with_capacity(actions.len());
        let mut bodies = Vec::new();
        let done = self.b.node(&format!("done_{role}"));
        for (a, (term, name)) in actions.iter().enumerate() {
            let act = self.b.node(&format!("act_{role}_{name}"));
            targets.push(act.clone());
            let Some(&atom) = outputs.legal.get(&(role_term, *term)) else {
                continue;
            };
            if self.an.cycle_of[atom as usize].is_some() {
                bodies.push(Body {
                    conds: vec![Cond::Check {
                        atom,
                        level: 0,
                        positive: true,
                    }],
                    target: a as u32,
                });
            } else {
                for r in self.an.rules_of[atom as usize].clone() {
                    if let Some((alternatives, _)) = self.an.resolve_body(r, None) {
                        bodies.extend(alternatives.into_iter().map(|conds| Body {
                            conds,
                            target: a as u32,
                        }));
                    }
                }
            }
            let mut chain = Vec::new();
            if let Some(var) = &self.does[k] {
                chain.push(label::assign(var.clone(), Expr::name(name.clone())));
            }
            chain.push(label::tag(name));
            self.b.sequence(&act, &done, chain);
        }
        let hint = format!("legal_{role}");
        let mut sink = BodySink {
            e: self,
            targets: &targets,
        };
        emit_bodies(&mut sink, &choose[k], &hint, bodies);
        // Hand over.
        let mut chain = Vec::new();
        if k + 1 < n {
            let next = self.names.roles[k + 1].clone();
            chain.push(self.visibility(&role, ZERO));
            chain.push(self.visibility(&next, ONE));
            chain.push(label::switch(&next));
            self.b.sequence(&done, &choose[k + 1], chain);
        } else {
            chain.push(label::switch("keeper"));
            self.b.sequence(&done, update, chain);
        }
    }

    /// The keeper's next state: every fact's next value into `F_next`, then
    /// copied into `F_prev`; then the terminal test, which either starts the
    /// next round or goes to scoring.
    fn keeper_next_state(&mut self, outputs: &OutputAtoms, turn: &Turn) {
        let n = self.names.roles.len();
        let mut at = turn.update.clone();
        let mut copies = Vec::new();
        for f in 0..self.names.facts.len() {
            let (term, name) = self.names.facts[f].clone();
            let next = match outputs.next.get(&term) {
                Some(&atom) => self.an.resolve(propnet::ground::GroundLiteral {
                    atom,
                    positive: true,
                }),
                None => Resolved::Const(false),
            };
            let prev = self.prev[f].clone();
            match next {
                Resolved::Const(b) => {
                    copies.push(label::assign(prev, Expr::name(if b { ONE } else { ZERO })));
                }
                Resolved::Cond(c) => {
                    let var_name = self.b.fresh_name(&format!("{name}_next"));
                    let var = self
                        .b
                        .variable(&var_name, Type::name("Bool"), Value::symbol(ZERO));
                    let to = self.b.node("update");
                    let hit = self.b.node(&format!("next_{name}"));
                    let miss = self.b.node(&format!("not_next_{name}"));
                    self.emit_condition(&at, &hit, c);
                    self.b
                        .edge(&hit, &to, label::assign(var.clone(), Expr::name(ONE)));
                    self.emit_condition(&at, &miss, c.negated());
                    self.b
                        .edge(&miss, &to, label::assign(var.clone(), Expr::name(ZERO)));
                    copies.push(label::assign(prev, var));
                    at = to;
                }
            }
        }
        let check_terminal = self.b.node("terminal_check");
        self.b.sequence(&at, &check_terminal, copies);
        let next_round = self.b.node("turn");
        let mut chain = Vec::new();
        if n > 1 {
            let last = self.names.roles[n - 1].clone();
            let first = self.names.roles[0].clone();
            chain.push(self.visibility(&last, ZERO));
            chain.push(self.visibility(&first, ONE));
        }
        chain.push(label::switch(&self.names.roles[0].clone()));
        self.b.sequence(&next_round, &turn.choose[0], chain);
        match turn.terminal {
            Resolved::Const(true) => self.b.skip(&check_terminal, &turn.goals),
            Resolved::Const(false) => {
                self.b.skip(&check_terminal, &next_round);
                // Never taken (the keeper is on move), but `end` must stay
                // reachable in the graph (rg.md §4.5).
                self.b.edge(
                    &check_terminal,
                    &turn.goals,
                    label::ne(Expr::name("player"), Expr::name("keeper")),
                );
            }
            Resolved::Cond(c) => {
                self.emit_condition(&check_terminal, &next_round, c.negated());
                self.emit_condition(&check_terminal, &turn.goals, c);
            }
        }
    }

    /// The keeper's outcome: each role's goal value, by decreasing priority
    /// (0 when none holds), then `end`. Returns the warnings about roles
    /// without or with several certain goal values.
    fn keeper_outcome(
        &mut self,
        ground: &GroundProgram,
        outputs: &OutputAtoms,
        goals: String,
    ) -> Vec<Diagnostic> {
        let mut warnings = Vec::new();
        let mut at = goals;
        for k in 0..self.names.roles.len() {
            let role = self.names.roles[k].clone();
            let role_term = ground.roles[self.names.file_index[k]];
            let mut values: Vec<(TermId, AtomId)> =
                outputs.goals.get(&role_term).cloned().unwrap_or_default();
            if values.is_empty() {
                warnings.push(Diagnostic::warning(
                    format!("role {role} has no goal value; the translation scores it 0"),
                    None,
                ));
            }
            // Priority: the largest value first (as the native models do for an
            // ill-formed state with several values), 0 when none holds.
            values.sort_by(|x, y| {
                let (a, b) = (ground.rg_name(x.0), ground.rg_name(y.0));
                score_order(&b).cmp(&score_order(&a)).then(b.cmp(&a))
            });
            let out = self.b.node("goals");
            let assign = |value: &str| {
                label::assign(
                    Expr::name("goals").at_key(Expr::name(role.clone())),
                    Expr::name(value),
                )
            };
            let mut always = 0;
            for (value, atom) in values {
                let value_name = ground.rg_name(value);
                let r = self.an.resolve(propnet::ground::GroundLiteral {
                    atom,
                    positive: true,
                });
                match r {
                    Resolved::Const(false) => {}
                    Resolved::Const(true) => {
                        always += 1;
                        if always == 1 {
                            self.b.edge(&at, &out, assign(&value_name));
                        }
                    }
                    Resolved::Cond(c) if always == 0 => {
                        let hit = self.b.node(&format!("goal_{role}_{value_name}"));
                        self.emit_condition(&at, &hit, c);
                        self.b.edge(&hit, &out, assign(&value_name));
                        let miss = self.b.node("goals");
                        self.emit_condition(&at, &miss, c.negated());
                        at = miss;
                    }
                    Resolved::Cond(_) => {}
                }
            }
            if always > 1 {
                warnings.push(Diagnostic::warning(
                    format!(
                        "role {role} has several goal values in every terminal state; the translation uses the largest"
                    ),
                    None,
                ));
            }
            if always == 0 {
                self.b.edge(&at, &out, assign(ZERO));
            }
            at = out;
        }
        self.b.edge(&at, "end", label::switch("keeper"));
        warnings
    }
}

fn score_order(name: &str) -> (u8, i64) {
    match name.parse::<i64>() {
        Ok(n) => (0, n),
        Err(_) => (1, 0),
    }
}

fn names(ground: &GroundProgram) -> Result<Names, Vec<Diagnostic>> {
    let file_names = ground.role_names();
    let order = turn_order(&file_names);
    let mut role_table: NameTable<usize> = NameTable::new();
    let roles: Vec<String> = order
        .iter()
        .map(|&i| role_table.name(i, &file_names[i]))
        .collect();
    let mut errors = Vec::new();
    let mut actions = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let mut table: NameTable<TermId> = NameTable::new();
        let list: Vec<(TermId, String)> = ground
            .actions
            .get(i)
            .map(|l| {
                l.iter()
                    .map(|&t| (t, table.name(t, &ground.rg_name(t))))
                    .collect()
            })
            .unwrap_or_default();
        if list.is_empty() {
            errors.push(Diagnostic::error(
                format!("role {} never has a legal move", roles[k]),
                None,
            ));
        }
        actions.push(list);
    }
    if roles.is_empty() {
        errors.push(Diagnostic::error("no role is defined", None));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut fact_table: NameTable<TermId> = NameTable::new();
    let facts = ground
        .base_facts
        .iter()
        .map(|&t| (t, fact_table.name(t, &ground.rg_name(t))))
        .collect();
    Ok(Names {
        roles,
        file_index: order,
        actions,
        facts,
    })
}

struct BodySink<'e, 'g> {
    e: &'e mut Emitter<'g>,
    targets: &'e [String],
}

impl TrieSink for BodySink<'_, '_> {
    fn node(&mut self, hint: &str) -> String {
        self.e.b.node(hint)
    }

    fn edge(&mut self, from: &str, to: &str, cond: Option<Cond>) {
        match cond {
            None => self.e.b.skip(from, to),
            Some(c) => {
                let l = self.e.cond_label(c);
                self.e.b.edge(from, to, l);
            }
        }
    }

    fn target(&self, target: u32) -> String {
        self.targets
            .get(target as usize)
            .cloned()
            .unwrap_or_default()
    }
}

impl Emitter<'_> {
    fn visibility(&self, role: &str, value: &str) -> Label {
        label::assign(
            Expr::name("visible").at_key(Expr::name(role)),
            Expr::name(value),
        )
    }

    fn atom_name(&mut self, atom: AtomId) -> String {
        if let Some(n) = self.atom_names.get(&atom) {
            return n.clone();
        }
        let g = self.an.ground;
        let a = &g.atoms[atom as usize];
        let mut words = vec![g.symbols.name(a.relation)];
        for &t in &a.args {
            g.terms.words(&g.symbols, t, &mut words);
        }
        let name = propnet::naming::rg_name(words);
        self.atom_names.insert(atom, name.clone());
        name
    }

    /// The label testing a condition; checks create their subautomaton
    /// on first use.
    fn cond_label(&mut self, c: Cond) -> Label {
        match c {
            Cond::Fact { fact, positive } => {
                let lhs = self.prev[fact as usize].clone();
                if positive {
                    label::eq(lhs, Expr::name(ONE))
                } else {
                    label::ne(lhs, Expr::name(ONE))
                }
            }
            Cond::Does {
                role,
                action,
                positive,
            } => {
                let value =
                    Expr::name(self.names.actions[role as usize][action as usize].1.clone());
                let var = self.does[role as usize]
                    .clone()
                    .unwrap_or_else(|| Expr::name("player"));
                if positive {
                    label::eq(var, value)
                } else {
                    label::ne(var, value)
                }
            }
            Cond::DoesIn {
                role,
                set,
                positive,
            } => {
                let (var, ty) = match (&self.does[role as usize], &self.does_types[role as usize]) {
                    (Some(v), Some(t)) => (v.clone(), t.clone()),
                    _ => (Expr::name("player"), Type::name("Bool")),
                };
                let actions = &self.action_sets[set as usize].1;
                let entries: Vec<(String, Value)> = actions
                    .iter()
                    .map(|&a| {
                        (
                            self.names.actions[role as usize][a as usize].1.clone(),
                            Value::symbol(ONE),
                        )
                    })
                    .collect();
                let role_name = self.names.roles[role as usize].clone();
                let map = self.b.constant(
                    &format!("{role_name}_moves"),
                    Type::arrow(ty, Type::name("Bool")),
                    Value::map(Value::symbol(ZERO), entries),
                );
                let lhs = map.at_key(var);
                if positive {
                    label::eq(lhs, Expr::name(ONE))
                } else {
                    label::ne(lhs, Expr::name(ONE))
                }
            }
            Cond::Check {
                atom,
                level,
                positive,
            } => {
                let f = self.fragment(atom, level);
                Label::Reach {
                    negated: !positive,
                    from: f.start,
                    to: f.end,
                }
            }
        }
    }

    /// Edges from `from` to `to` that can be taken exactly when condition
    /// `c` holds: one edge, or the inlined bodies of a small view.
    fn emit_condition(&mut self, from: &str, to: &str, c: Cond) {
        if let Cond::Check {
            atom,
            level: 0,
            positive,
        } = c
        {
            if self.an.cycle_of[atom as usize].is_none() {
                if let Some(dnf) = self.an.literal_dnf(atom, positive, 0) {
                    let bodies: Vec<Body> = dnf
                        .iter()
                        .map(|conds| Body {
                            conds: conds.clone(),
                            target: 0,
                        })
                        .collect();
                    let bodies = self.merge_does(bodies);
                    let targets = [to.to_string()];
                    let hint = format!("{from}_if");
                    let mut sink = BodySink {
                        e: self,
                        targets: &targets,
                    };
                    emit_bodies(&mut sink, from, &hint, bodies);
                    return;
                }
            }
        }
        let l = self.cond_label(c);
        self.b.edge(from, to, l);
    }

    /// Replaces several `does` tests of one role by one set membership
    /// test: negative ones within a body (`not does(P, a1) … not does(P,
    /// ak)`), and positive ones across bodies that are otherwise equal
    /// (`…, does(P, a1)` | … | `…, does(P, ak)`).
    fn merge_does(&mut self, bodies: Vec<Body>) -> Vec<Body> {
        const MIN: usize = 2;
        let mut out = Vec::with_capacity(bodies.len());
        let mut groups: HashMap<(u32, Vec<Cond>, u32), Vec<u32>> = HashMap::new();
        let mut order: Vec<(u32, Vec<Cond>, u32)> = Vec::new();
        for mut body in bodies {
            // Negative tests of one role within the body.
            let mut negative: HashMap<u32, Vec<u32>> = HashMap::new();
            for c in &body.conds {
                if let Cond::Does {
                    role,
                    action,
                    positive: false,
                } = *c
                {
                    negative.entry(role).or_default().push(action);
                }
            }
            for (role, mut actions) in negative {
                if actions.len() < MIN {
                    continue;
                }
                body.conds.retain(
                    |c| !matches!(c, Cond::Does { role: r, positive: false, .. } if *r == role),
                );
                actions.sort_unstable();
                actions.dedup();
                let set = self.action_set(role, actions);
                body.conds.push(Cond::DoesIn {
                    role,
                    set,
                    positive: false,
                });
            }
            let first_positive = body
                .conds
                .iter()
                .position(|c| matches!(c, Cond::Does { positive: true, .. }));
            match first_positive {
                Some(k) => {
                    let Cond::Does { role, action, .. } = body.conds[k] else {
                        out.push(body);
                        continue;
                    };
                    let mut rest = body.conds.clone();
                    rest.remove(k);
                    rest.sort_unstable();
                    let key = (body.target, rest, role);
                    let entry = groups.entry(key.clone()).or_default();
                    if entry.is_empty() {
                        order.push(key);
                    }
                    entry.push(action);
                }
                None => out.push(body),
            }
        }
        for key in order {
            let Some(mut actions) = groups.remove(&key) else {
                continue;
            };
            let (target, mut conds, role) = key;
            actions.sort_unstable();
            actions.dedup();
            if actions.len() < MIN {
                conds.extend(actions.iter().map(|&action| Cond::Does {
                    role,
                    action,
                    positive: true,
                }));
            } else {
                let set = self.action_set(role, actions);
                conds.push(Cond::DoesIn {
                    role,
                    set,
                    positive: true,
                });
            }
            out.push(Body { conds, target });
        }
        out
    }

    fn action_set(&mut self, role: u32, actions: Vec<u32>) -> u32 {
        let key = (role, actions);
        if let Some(&id) = self.action_set_ids.get(&key) {
            return id;
        }
        let id = self.action_sets.len() as u32;
        self.action_sets.push(key.clone());
        self.action_set_ids.insert(key, id);
        id
    }

    /// The check target of an atom (at a level of an unrolled cycle).
    fn fragment(&mut self, atom: AtomId, level: u32) -> Fragment {
        let mut level = level;
        let cycle = self.an.cycle_of[atom as usize];
        if let Some(c) = cycle {
            if let CycleShape::Unrolled { levels } = self.an.cycles[c as usize].shape {
                if level == 0 {
                    level = levels;
                }
            }
        }
        if let Some(f) = self.fragments.get(&(atom, level)) {
            return f.clone();
        }
        let name = self.atom_name(atom);
        match cycle.map(|c| (c, self.an.cycles[c as usize].shape.clone())) {
            Some((c, CycleShape::Linear)) => {
                let atoms = self.an.cycles[c as usize].atoms.clone();
                let end = self.b.node(&format!("{name}_derived"));
                for a in atoms {
                    let n = self.atom_name(a);
                    let start = self.b.node(&format!("{n}_begin"));
                    self.fragments.insert(
                        (a, 0),
                        Fragment {
                            start,
                            end: end.clone(),
                        },
                    );
                }
                self.pending_cycles.push(c);
            }
            _ => {
                let suffix = if level > 0 {
                    format!("_level{level}")
                } else {
                    String::new()
                };
                let f = Fragment {
                    start: self.b.node(&format!("{name}{suffix}_begin")),
                    end: self.b.node(&format!("{name}{suffix}_end")),
                };
                self.fragments.insert((atom, level), f);
                self.pending.push((atom, level));
            }
        }
        self.fragments
            .get(&(atom, level))
            .cloned()
            .unwrap_or_else(|| Fragment {
                start: "begin".into(),
                end: "begin".into(),
            })
    }

    /// Emits every subautomaton that has been referenced.
    fn flush(&mut self) {
        loop {
            if let Some((atom, level)) = self.pending.pop() {
                self.emit_atom(atom, level);
            } else if let Some(c) = self.pending_cycles.pop() {
                self.emit_linear_cycle(c);
            } else {
                break;
            }
        }
        let cx = Context {
            ground: self.an.ground,
            prev: &self.prev,
        };
        if let Err(error) = self.runtime.finish(&mut self.b, &cx) {
            self.runtime_error.get_or_insert(error);
        }
    }

    fn emit_atom(&mut self, atom: AtomId, level: u32) {
        let Some(f) = self.fragments.get(&(atom, level)).cloned() else {
            return;
        };
        if self.an.kinds[atom as usize] == AtomKind::Runtime {
            let cx = Context {
                ground: self.an.ground,
                prev: &self.prev,
            };
            if let Err(error) = self.runtime.emit_atom(&mut self.b, &cx, atom, &f) {
                self.runtime_error.get_or_insert(error);
            }
            return;
        }
        let cycle = self.an.cycle_of[atom as usize];
        let mut bodies = Vec::new();
        for r in self.an.rules_of[atom as usize].clone() {
            let keep = if level > 0 { cycle } else { None };
            let Some((alternatives, inside)) = self.an.resolve_body(r, keep) else {
                continue;
            };
            if !inside.is_empty() && level <= 1 {
                continue;
            }
            for mut conds in alternatives {
                conds.extend(inside.iter().map(|&a| Cond::Check {
                    atom: a,
                    level: level - 1,
                    positive: true,
                }));
                bodies.push(Body { conds, target: 0 });
            }
        }
        let bodies = self.merge_does(bodies);
        let name = self.atom_name(atom);
        let targets = [f.end.clone()];
        let mut sink = BodySink {
            e: self,
            targets: &targets,
        };
        emit_bodies(&mut sink, &f.start, &name, bodies);
    }

    fn emit_linear_cycle(&mut self, c: u32) {
        let atoms = self.an.cycles[c as usize].atoms.clone();
        let Some(end) = atoms
            .first()
            .and_then(|a| self.fragments.get(&(*a, 0)))
            .map(|f| f.end.clone())
        else {
            return;
        };
        // Target 0 is the shared end; target k + 1 is the start of atoms[k].
        let mut targets = vec![end];
        let mut position = HashMap::new();
        for (k, &a) in atoms.iter().enumerate() {
            position.insert(a, k as u32 + 1);
            targets.push(
                self.fragments
                    .get(&(a, 0))
                    .map(|f| f.start.clone())
                    .unwrap_or_default(),
            );
        }
        for &a in &atoms {
            let mut bodies = Vec::new();
            for r in self.an.rules_of[a as usize].clone() {
                let Some((alternatives, inside)) = self.an.resolve_body(r, Some(c)) else {
                    continue;
                };
                let target = match inside.first() {
                    Some(y) => position.get(y).copied().unwrap_or(0),
                    None => 0,
                };
                bodies.extend(alternatives.into_iter().map(|conds| Body { conds, target }));
            }
            let bodies = self.merge_does(bodies);
            let start = position
                .get(&a)
                .and_then(|&k| targets.get(k as usize))
                .cloned()
                .unwrap_or_default();
            let name = self.atom_name(a);
            let mut sink = BodySink {
                e: self,
                targets: &targets,
            };
            emit_bodies(&mut sink, &start, &name, bodies);
        }
    }
}
