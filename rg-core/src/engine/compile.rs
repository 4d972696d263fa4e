//! Compiles a checked game (built-ins added) into a [`Program`].

use std::collections::HashMap;
use std::rc::Rc;

use crate::ast::{Expr, Game, Label, Value};
use crate::builtins;
use crate::types::{RType, TypeEnv};

use super::program::{
    Action, CompiledEdge, KeyTable, Layout, NodeInfo, Operand, Path, Program, Region, Scalar,
    Space, Step, Target, VisitGuard,
};
use super::visit_guard::Memory;

/// A failure to compile a game that passed the checker (e.g. a constant map
/// copied into a map whose keys it lacks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError(pub String);

/// The default of [`super::EngineOptions::max_state_slots`]: 2^26 slots
/// (256 MB of `u32`), far above the corpus's largest state.
pub const DEFAULT_MAX_STATE_SLOTS: u64 = 1 << 26;

pub fn compile(game: &Game, max_slots: u64) -> Result<Program, CompileError> {
    let env = TypeEnv::new(game);
    let mut c = Compiler {
        game,
        max_slots,
        env,
        symbols: Vec::new(),
        symbol_ids: HashMap::new(),
        key_tables: Vec::new(),
        key_table_ids: HashMap::new(),
        pool: Vec::new(),
        constants: HashMap::new(),
        variables: HashMap::new(),
        fallbacks: HashMap::new(),
        state_size: 0,
    };
    c.intern_declared_symbols();
    c.compile_constants()?;
    let initial = c.compile_variables()?;
    let (nodes, edge_start, edges) = c.compile_edges()?;
    let memory = Memory {
        pool: &c.pool,
        key_tables: &c.key_tables,
        symbol_count: c.symbols.len(),
        variables: c
            .variables
            .values()
            .map(|(base, layout)| (*base, layout.size()))
            .collect(),
        player_slot: c.variables[builtins::PLAYER_VAR].0,
    };
    let (mut node_info, visit_guards) =
        super::analysis::node_info(&nodes, &edge_start, &edges, 1, memory);
    mark_disjoint_nodes(game, &nodes, &edge_start, &edges, &mut node_info);
    c.finish(initial, (nodes, edge_start, edges), node_info, visit_guards)
}

/// Node names, CSR edge offsets per node, and the edges.
type Automaton = (Vec<String>, Vec<u32>, Vec<CompiledEdge>);

struct Compiler<'g> {
    game: &'g Game,
    /// The most slots the state vector, the constant pool, or one value may
    /// take ([`super::EngineOptions::max_state_slots`]).
    max_slots: u64,
    env: TypeEnv<'g>,
    symbols: Vec<String>,
    symbol_ids: HashMap<String, u32>,
    key_tables: Vec<KeyTable>,
    key_table_ids: HashMap<Vec<u32>, u32>,
    pool: Vec<u32>,
    /// Constant name → (declaration index, pool offset, layout).
    constants: HashMap<&'g str, (usize, u32, Rc<Layout>)>,
    /// Variable name → (state offset, layout).
    variables: HashMap<&'g str, (u32, Rc<Layout>)>,
    /// Map constants and variables → the innermost default of their value
    /// (what lenient reads of keys outside the key type yield).
    fallbacks: HashMap<&'g str, u32>,
    state_size: u32,
}

fn err<T>(message: impl Into<String>) -> Result<T, CompileError> {
    Err(CompileError(message.into()))
}

impl<'g> Compiler<'g> {
    fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.symbol_ids.get(name) {
            return id;
        }
        let id = self.symbols.len() as u32;
        self.symbols.push(name.to_string());
        self.symbol_ids.insert(name.to_string(), id);
        id
    }

    /// Symbols of set types first, in declaration order, so that each
    /// type's symbols get consecutive ids (compact key tables).
    fn intern_declared_symbols(&mut self) {
        for def in &self.game.typedefs {
            if let Ok(t) = self.env.resolve_name(&def.name) {
                self.intern_type_symbols(&t);
            }
        }
    }

    fn intern_type_symbols(&mut self, t: &RType) {
        match t.arrow() {
            None => {
                for s in t.symbols().unwrap_or(&[]) {
                    self.intern(s);
                }
            }
            Some((k, v)) => {
                self.intern_type_symbols(k);
                self.intern_type_symbols(v);
            }
        }
    }

    fn key_table(&mut self, symbols: &[String]) -> u32 {
        let ids: Vec<u32> = symbols.iter().map(|s| self.intern(s)).collect();
        if let Some(&t) = self.key_table_ids.get(&ids) {
            return t;
        }
        let min = ids.iter().copied().min().unwrap_or(0);
        let max = ids.iter().copied().max().unwrap_or(0);
        let mut index = vec![u32::MAX; (max - min + 1) as usize];
        let mut unique = Vec::new();
        for &id in &ids {
            let slot = &mut index[(id - min) as usize];
            if *slot == u32::MAX {
                *slot = unique.len() as u32;
                unique.push(id);
            }
        }
        let t = self.key_tables.len() as u32;
        self.key_tables.push(KeyTable {
            min,
            index,
            symbols: unique,
        });
        self.key_table_ids.insert(ids, t);
        t
    }

    /// The layout of a value of type `t`, refused when it needs more than
    /// `max_slots` slots (`what` names the variable or constant).
    fn layout(&mut self, t: &RType, what: &str) -> Result<Rc<Layout>, CompileError> {
        match t.arrow() {
            None => Ok(Rc::new(Layout::Scalar)),
            Some((key, value)) => {
                let table = self.key_table(key.symbols().unwrap_or(&[]));
                let inner = self.layout(value, what)?;
                let count = self.key_tables[table as usize].symbols.len() as u64;
                let size = count
                    .checked_mul(u64::from(inner.size()))
                    .filter(|&size| size <= self.max_slots)
                    .ok_or_else(|| self.too_many_slots(what))?;
                let size = u32::try_from(size).map_err(|_| self.too_many_slots(what))?;
                Ok(Rc::new(Layout::Map { table, inner, size }))
            }
        }
    }

    /// The refusal of a value, state or constant pool larger than the limit.
    fn too_many_slots(&self, what: &str) -> CompileError {
        CompileError(format!(
            "{what} needs more than {} slots, the engine's limit on the size of the state \
             and of the constants (EngineOptions::max_state_slots)",
            self.max_slots
        ))
    }

    /// `base + size` slots, refused past the limit.
    fn grown(&self, base: usize, size: u32, what: &str) -> Result<usize, CompileError> {
        let total = base as u64 + u64::from(size);
        if total > self.max_slots.min(u64::from(u32::MAX)) {
            return Err(self.too_many_slots(what));
        }
        Ok(base + size as usize)
    }

    fn resolve(&self, ty: &crate::ast::Type, what: &str) -> Result<RType, CompileError> {
        self.env
            .resolve(ty)
            .map_err(|e| CompileError(format!("{what}: {e}")))
    }

    fn compile_constants(&mut self) -> Result<(), CompileError> {
        for (index, constant) in self.game.constants.iter().enumerate() {
            if self.constants.contains_key(constant.name.as_str()) {
                continue;
            }
            let t = self.resolve(&constant.ty, &constant.name)?;
            let layout = self.layout(&t, &format!("constant {}", constant.name))?;
            self.grown(self.pool.len(), layout.size(), "the constant pool")?;
            let mut value = vec![0; layout.size() as usize];
            self.fill(&mut value, 0, &layout, &constant.value, index)?;
            let base = self.pool.len() as u32;
            self.pool.extend(value);
            self.constants.insert(&constant.name, (index, base, layout));
        }
        Ok(())
    }

    fn compile_variables(&mut self) -> Result<Vec<u32>, CompileError> {
        let mut initial = Vec::new();
        for variable in &self.game.variables {
            if self.variables.contains_key(variable.name.as_str()) {
                continue;
            }
            let t = self.resolve(&variable.ty, &variable.name)?;
            let layout = self.layout(&t, &format!("variable {}", variable.name))?;
            let base = initial.len() as u32;
            initial.resize(self.grown(initial.len(), layout.size(), "the state")?, 0);
            self.fill(&mut initial, base, &layout, &variable.value, usize::MAX)?;
            let fallback = self.innermost_default(&variable.value, usize::MAX);
            self.fallbacks.insert(&variable.name, fallback);
            self.variables.insert(&variable.name, (base, layout));
        }
        self.state_size = initial.len() as u32;
        Ok(initial)
    }

    /// The symbol reached by following default entries down a map value
    /// (through constants declared before `visible`); `u32::MAX` if the
    /// value is not a map.
    fn innermost_default(&mut self, value: &Value, visible: usize) -> u32 {
        let mut current = value;
        let mut seen_map = false;
        loop {
            match current {
                Value::Map(entries, _) => match entries.iter().find(|e| e.key.is_none()) {
                    Some(default) => {
                        seen_map = true;
                        current = &default.value;
                    }
                    None => return u32::MAX,
                },
                Value::Symbol(name, _) => {
                    let constant = self
                        .game
                        .constants
                        .iter()
                        .take(visible)
                        .find(|c| &c.name == name);
                    match constant {
                        Some(c) => current = &c.value,
                        None if seen_map => return self.intern(name),
                        None => return u32::MAX,
                    }
                }
            }
        }
    }

    /// Writes `value` (a literal; names refer to constants declared before
    /// `visible`) at `offset` of `out`.
    fn fill(
        &mut self,
        out: &mut [u32],
        offset: u32,
        layout: &Rc<Layout>,
        value: &Value,
        visible: usize,
    ) -> Result<(), CompileError> {
        if let Value::Symbol(name, _) = value {
            if let Some((index, base, source_layout)) = self.constants.get(name.as_str()).cloned() {
                if index < visible {
                    return copy_value(
                        &self.key_tables,
                        &self.pool,
                        base,
                        &source_layout,
                        out,
                        offset,
                        layout,
                    )
                    .map_err(|e| CompileError(format!("constant {name}: {e}")));
                }
            }
        }
        match (&**layout, value) {
            (Layout::Scalar, Value::Symbol(name, _)) => {
                out[offset as usize] = self.intern(name);
                Ok(())
            }
            (Layout::Map { table, inner, .. }, Value::Map(entries, _)) => {
                let count = self.key_tables[*table as usize].symbols.len() as u32;
                let stride = inner.size();
                if let Some(default) = entries.iter().find(|e| e.key.is_none()) {
                    for k in 0..count {
                        self.fill(out, offset + k * stride, inner, &default.value, visible)?;
                    }
                }
                for entry in entries {
                    let Some(key) = &entry.key else { continue };
                    let id = self.intern(key);
                    let Some(slot) = self.key_tables[*table as usize].slot(id) else {
                        return err(format!("map key {key} is outside the map's key type"));
                    };
                    self.fill(out, offset + slot * stride, inner, &entry.value, visible)?;
                }
                Ok(())
            }
            (Layout::Scalar, Value::Map(..)) => {
                err(format!("a map {value} where a symbol is expected"))
            }
            (Layout::Map { .. }, Value::Symbol(name, _)) => {
                err(format!("symbol {name} where a map is expected"))
            }
        }
    }

    /// Node names, CSR offsets and edges.
    fn compile_edges(&mut self) -> Result<Automaton, CompileError> {
        let mut node_ids: HashMap<String, u32> = HashMap::new();
        let mut nodes: Vec<String> = Vec::new();
        let node = |name: &str, nodes: &mut Vec<String>, ids: &mut HashMap<String, u32>| -> u32 {
            if let Some(&id) = ids.get(name) {
                return id;
            }
            let id = nodes.len() as u32;
            nodes.push(name.to_string());
            ids.insert(name.to_string(), id);
            id
        };
        node(builtins::BEGIN, &mut nodes, &mut node_ids);
        node(builtins::END, &mut nodes, &mut node_ids);
        let mut compiled: Vec<(u32, CompiledEdge)> = Vec::with_capacity(self.game.edges.len());
        for edge in &self.game.edges {
            let from = node(&edge.from, &mut nodes, &mut node_ids);
            let to = node(&edge.to, &mut nodes, &mut node_ids);
            let action = match &edge.label {
                Label::Skip => Action::Skip,
                Label::Tag(t) => Action::Tag(self.intern(t)),
                Label::VarTag(v) => match self.operand(&Expr::name(v.clone()))? {
                    Operand::Scalar(s) => Action::VarTag(s.specialized()),
                    Operand::Region(_) => return err(format!("$$ {v}: {v} is a map")),
                },
                Label::Reach { negated, from, to } => Action::Reach {
                    negated: *negated,
                    from: node(from, &mut nodes, &mut node_ids),
                    to: node(to, &mut nodes, &mut node_ids),
                },
                Label::Compare { negated, lhs, rhs } => {
                    match (self.operand(lhs)?, self.operand(rhs)?) {
                        (Operand::Scalar(lhs), Operand::Scalar(rhs)) => Action::CompareScalars {
                            negated: *negated,
                            lhs: lhs.specialized(),
                            rhs: rhs.specialized(),
                        },
                        (lhs, rhs) => Action::Compare {
                            negated: *negated,
                            lhs,
                            rhs,
                        },
                    }
                }
                Label::Assign { lhs, rhs } if lhs.is_player_target() => match self.operand(rhs)? {
                    Operand::Scalar(s) => Action::AssignPlayer(s.specialized()),
                    Operand::Region(_) => return err("player assigned a map"),
                },
                Label::Assign { lhs, rhs } => Action::Assign {
                    target: self.target(lhs)?,
                    value: match self.operand(rhs)? {
                        Operand::Scalar(s) => Operand::Scalar(s.specialized()),
                        region => region,
                    },
                },
                Label::AssignAny { lhs, ty } => {
                    let t = self.resolve(ty, "any-assignment")?;
                    let symbols = t
                        .symbols()
                        .unwrap_or(&[])
                        .iter()
                        .map(|s| self.intern(s))
                        .collect();
                    Action::AssignAny {
                        target: self.target(lhs)?,
                        symbols,
                    }
                }
            };
            compiled.push((from, CompiledEdge { target: to, action }));
        }
        // CSR, keeping each node's edges in source order.
        let mut edge_start = vec![0u32; nodes.len() + 1];
        for (from, _) in &compiled {
            edge_start[*from as usize + 1] += 1;
        }
        for k in 0..nodes.len() {
            edge_start[k + 1] += edge_start[k];
        }
        let mut fill = edge_start.clone();
        let mut slots: Vec<Option<CompiledEdge>> = vec![None; compiled.len()];
        for (from, edge) in compiled {
            let at = &mut fill[from as usize];
            slots[*at as usize] = Some(edge);
            *at += 1;
        }
        let edges = slots
            .into_iter()
            .map(|e| e.expect("every slot filled"))
            .collect();
        Ok((nodes, edge_start, edges))
    }

    /// Compiles an expression to a scalar or a map region; constant parts
    /// are folded.
    fn operand(&mut self, e: &Expr) -> Result<Operand, CompileError> {
        match e {
            Expr::Ref(name, _) => {
                if let Some((_, base, layout)) = self.constants.get(name.as_str()).cloned() {
                    return Ok(match *layout {
                        Layout::Scalar => Operand::Scalar(Scalar::Symbol(self.pool[base as usize])),
                        Layout::Map { .. } => Operand::Region(Region {
                            path: Path {
                                space: Space::Pool,
                                base,
                                steps: Box::new([]),
                            },
                            layout,
                            fallback: self
                                .fallbacks
                                .get(name.as_str())
                                .copied()
                                .unwrap_or(u32::MAX),
                        }),
                    });
                }
                if let Some((base, layout)) = self.variables.get(name.as_str()).cloned() {
                    return Ok(match *layout {
                        Layout::Scalar => Operand::Scalar(Scalar::Slot(base)),
                        Layout::Map { .. } => Operand::Region(Region {
                            path: Path {
                                space: Space::State,
                                base,
                                steps: Box::new([]),
                            },
                            layout,
                            fallback: self
                                .fallbacks
                                .get(name.as_str())
                                .copied()
                                .unwrap_or(u32::MAX),
                        }),
                    });
                }
                Ok(Operand::Scalar(Scalar::Symbol(self.intern(name))))
            }
            Expr::Cast(_, inner, _) => self.operand(inner),
            Expr::Access(map, key, _) => {
                let Operand::Region(region) = self.operand(map)? else {
                    return err(format!("access on a non-map: {e}"));
                };
                let Operand::Scalar(key) = self.operand(key)? else {
                    return err(format!("map used as a key: {e}"));
                };
                let Layout::Map { table, inner, .. } = &*region.layout else {
                    return err(format!("access on a non-map: {e}"));
                };
                let (table, inner) = (*table, inner.clone());
                let stride = inner.size();
                let fallback = region.fallback;
                let mut path = region.path;
                // Fold a constant key into a constant path's base offset.
                let folded = match (&key, path.steps.is_empty()) {
                    (Scalar::Symbol(symbol), true) => {
                        match self.key_tables[table as usize].slot(*symbol) {
                            Some(slot) => {
                                path.base += slot * stride;
                                true
                            }
                            None => false,
                        }
                    }
                    _ => false,
                };
                if !folded {
                    let mut steps = path.steps.into_vec();
                    let keys = &self.key_tables[table as usize];
                    steps.push(Step {
                        key,
                        table,
                        contiguous: keys.is_contiguous(),
                        min: keys.min,
                        count: keys.symbols.len() as u32,
                        stride,
                        fallback,
                    });
                    path.steps = steps.into_boxed_slice();
                }
                Ok(match *inner {
                    Layout::Scalar if path.space == Space::Pool && path.steps.is_empty() => {
                        Operand::Scalar(Scalar::Symbol(self.pool[path.base as usize]))
                    }
                    Layout::Scalar if path.space == Space::State && path.steps.is_empty() => {
                        Operand::Scalar(Scalar::Slot(path.base))
                    }
                    Layout::Scalar => Operand::Scalar(Scalar::Access(Box::new(path))),
                    Layout::Map { .. } => Operand::Region(Region {
                        path,
                        layout: inner,
                        fallback,
                    }),
                })
            }
        }
    }

    fn target(&mut self, lhs: &Expr) -> Result<Target, CompileError> {
        let (path, layout) = match self.operand(lhs)? {
            Operand::Scalar(Scalar::Slot(base)) => (
                Path {
                    space: Space::State,
                    base,
                    steps: Box::new([]),
                },
                Rc::new(Layout::Scalar),
            ),
            Operand::Scalar(Scalar::Access(path)) => (*path, Rc::new(Layout::Scalar)),
            Operand::Region(region) => (region.path, region.layout),
            Operand::Scalar(Scalar::Symbol(_) | Scalar::Indexed(_) | Scalar::Code(_)) => {
                return err(format!("cannot assign to {lhs}"))
            }
        };
        if path.space != Space::State {
            return err(format!("cannot assign to the constant {lhs}"));
        }
        Ok(Target {
            base: path.base,
            steps: path.steps,
            layout,
        })
    }

    fn finish(
        mut self,
        initial: Vec<u32>,
        (nodes, edge_start, edges): Automaton,
        node_info: Vec<NodeInfo>,
        visit_guards: Vec<VisitGuard>,
    ) -> Result<Program, CompileError> {
        let player_type = self
            .env
            .resolve_name(builtins::PLAYER)
            .map_err(|e| CompileError(e.to_string()))?;
        let players: Vec<u32> = player_type
            .symbols()
            .unwrap_or(&[])
            .to_vec()
            .iter()
            .map(|s| self.intern(s))
            .collect();
        let keeper = self.intern(builtins::KEEPER);
        let random = self.intern(builtins::RANDOM);
        let score_type = self
            .env
            .resolve_name(builtins::SCORE)
            .map_err(|e| CompileError(e.to_string()))?;
        let score_values = score_type
            .symbols()
            .unwrap_or(&[])
            .to_vec()
            .iter()
            .enumerate()
            .map(|(k, s)| (self.intern(s), s.parse::<i64>().unwrap_or(k as i64)))
            .collect();
        let (player_slot, _) = self.variables[builtins::PLAYER_VAR].clone();
        let map_var = |name: &str| -> Result<(u32, u32), CompileError> {
            match self.variables.get(name) {
                Some((base, layout)) => match &**layout {
                    Layout::Map { table, .. } => Ok((*base, *table)),
                    Layout::Scalar => err(format!("{name} must be a map")),
                },
                None => err(format!("missing built-in variable {name}")),
            }
        };
        let (goals_base, goals_table) = map_var(builtins::GOALS_VAR)?;
        let (visible_base, visible_table) = map_var(builtins::VISIBLE_VAR)?;
        let visibility_changes = self.game.edges.iter().any(|e| match &e.label {
            Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. } => lhs
                .target_root()
                .is_some_and(|r| r == builtins::VISIBLE_VAR),
            _ => false,
        });
        let mut variables: Vec<(String, u32, Rc<Layout>)> = self
            .variables
            .iter()
            .map(|(name, (base, layout))| (name.to_string(), *base, layout.clone()))
            .collect();
        variables.sort_by_key(|v| v.1);
        let one = self.intern("1");
        let begin = 0;
        let end = 1;
        let move_scans = super::move_scan::move_scans(&edge_start, &edges, &node_info);
        let check_scan_batches = super::move_scan::check_scan_batches(&edge_start, &edges);
        Ok(Program {
            symbols: self.symbols,
            nodes,
            begin,
            end,
            edge_start,
            edges,
            node_info,
            move_scans,
            check_scan_batches,
            visit_guards,
            key_tables: self.key_tables,
            pool: self.pool,
            initial,
            players,
            keeper,
            random,
            player_slot,
            goals_base,
            goals_table,
            visible_base,
            visible_table,
            visibility_changes,
            one,
            score_values,
            variables,
        })
    }
}

/// Copies a value between two layouts of assignable types: slot by slot
/// when the layouts agree, key by key otherwise.
pub fn copy_value(
    tables: &[KeyTable],
    source: &[u32],
    source_offset: u32,
    source_layout: &Layout,
    out: &mut [u32],
    out_offset: u32,
    out_layout: &Layout,
) -> Result<(), String> {
    if source_layout == out_layout {
        let n = out_layout.size() as usize;
        let (s, o) = (source_offset as usize, out_offset as usize);
        out[o..o + n].copy_from_slice(&source[s..s + n]);
        return Ok(());
    }
    match (source_layout, out_layout) {
        (
            Layout::Map {
                table: source_table,
                inner: source_inner,
                ..
            },
            Layout::Map {
                table: out_table,
                inner: out_inner,
                ..
            },
        ) => {
            let out_keys = &tables[*out_table as usize].symbols;
            for (slot, &key) in out_keys.iter().enumerate() {
                let Some(source_slot) = tables[*source_table as usize].slot(key) else {
                    return Err("the source map has no entry for a key of the target".to_string());
                };
                copy_value(
                    tables,
                    source,
                    source_offset + source_slot * source_inner.size(),
                    source_inner,
                    out,
                    out_offset + slot as u32 * out_inner.size(),
                    out_inner,
                )?;
            }
            Ok(())
        }
        _ => Err("a map and a symbol are not assignable".to_string()),
    }
}

/// Nodes whose every outgoing edge leads to a node listed by a `@disjoint`
/// (or `@disjointExhaustive`) pragma about them.
fn mark_disjoint_nodes(
    game: &Game,
    nodes: &[String],
    edge_start: &[u32],
    edges: &[CompiledEdge],
    info: &mut [NodeInfo],
) {
    let index: HashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(k, n)| (n.as_str(), k))
        .collect();
    for pragma in &game.pragmas {
        let crate::ast::PragmaKind::Disjoint { node, targets, .. } = &pragma.kind else {
            continue;
        };
        let Some(&n) = index.get(node.as_str()) else {
            continue;
        };
        let listed: std::collections::HashSet<usize> = targets
            .iter()
            .filter_map(|t| index.get(t.as_str()).copied())
            .collect();
        let out = &edges[edge_start[n] as usize..edge_start[n + 1] as usize];
        if out.len() > 1 && out.iter().all(|e| listed.contains(&(e.target as usize))) {
            info[n].disjoint = true;
        }
    }
}
