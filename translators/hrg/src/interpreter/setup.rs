//! Building the interpreter's game from a parsed program: symbols and
//! types, the slots and initial values of the variables (evaluated by the
//! interpreter's own [`Statics`]), the constant functions' signatures, and
//! the checked statement tree ([`Ir`]) of every graph reachable from
//! `rules`, with the checks of hrg.md §4 and appendix B that the
//! translator also makes.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use rg_core::ast as rg;
use rg_core::diag::{Diagnostic, Span};

use crate::ast::{
    BinaryOp, Expr, ExprKind, FunctionDecl, GraphDecl, Name, Program, Stmt, StmtKind, TypeExpr,
};
use crate::eval::Domains;
use crate::limits::{LIMITS_FILE, MAX_STATE_SLOTS};
use crate::value::Value;

use super::ir::{self, Cond, Global, GraphId, Ir, RExpr, TagParts, Target};
use super::statics::Statics;
use super::values::{KeyTable, Symbols, Ty, Values};

/// A constant function's signature.
pub(super) struct Func {
    pub name: String,
    /// Number of patterns of its cases (arguments consumed per call).
    pub patterns: usize,
    /// Key tables of its first `patterns` arrows.
    pub keys: Vec<Rc<KeyTable>>,
    /// Total number of arrows of its type.
    pub arrows: usize,
}

/// A variable: its slots and type, and what a lenient read outside its
/// key type yields (the innermost default of its initial value).
pub(super) struct Var {
    pub name: String,
    pub base: u32,
    pub ty: Rc<Ty>,
    pub fallback: Option<Global>,
}

/// Everything about a game that does not change while it is played.
pub(super) struct Game {
    /// The compiled constant functions (numbered like `funcs`).
    pub statics: Statics,
    pub funcs: Vec<Func>,
    pub vars: Vec<Var>,
    /// How a symbol produced at run time (a substituted value, a
    /// constructor, a function result) resolves as a name (rg.md §3.1).
    pub sym_global: HashMap<u32, Global>,
    /// The HRG value of each domain element's symbol, for matching
    /// function patterns against it.
    pub sym_value: HashMap<u32, Value>,
    pub ir: Ir,
    pub initial: Values,
    pub player_slot: u32,
    pub keeper: u32,
    pub random: u32,
    pub players: Vec<u32>,
    pub goals_base: u32,
    pub goals_keys: Rc<KeyTable>,
    pub score_values: HashMap<u32, i64>,
}

impl Game {
    pub fn global(&self, symbol: u32) -> Global {
        self.sym_global
            .get(&symbol)
            .copied()
            .unwrap_or(Global::Sym(symbol))
    }
}

fn error<T>(message: impl Into<String>, span: Span) -> Result<T, Diagnostic> {
    Err(Diagnostic::error(message, span))
}

/// The map type `keys -> value` written at `span`, refused past the table
/// limit.
fn map_type(keys: Rc<KeyTable>, value: Rc<Ty>, span: Span) -> Result<Ty, Diagnostic> {
    Ty::map(keys, value).or_else(|message| error(message, span))
}

/// Builds the game; the symbols interned so far go to the runtime.
pub(super) fn build(program: &Program) -> Result<(Game, Symbols), Vec<Diagnostic>> {
    let domains = Domains::evaluate(program)?;
    let mut b = Builder {
        program,
        symbols: Symbols::default(),
        functions: HashMap::new(),
        domain_symbols: HashSet::new(),
        sym_value: HashMap::new(),
        tables: HashMap::new(),
        func_index: HashMap::new(),
        funcs: Vec::new(),
        var_index: HashMap::new(),
        vars: Vec::new(),
        slots: Vec::new(),
        ir: Ir::default(),
        graph_ids: HashMap::new(),
        building: Vec::new(),
        next_id: 0,
        statics: Statics::new(&domains, &[]),
        domains,
    };
    b.symbols_and_functions().map_err(|e| vec![e])?;
    b.variables().map_err(|e| vec![e])?;
    let rules = program
        .graphs()
        .find(|g| g.name.text == "rules")
        .ok_or_else(|| {
            vec![Diagnostic::error(
                "Unknown automaton function \"rules\".",
                None,
            )]
        })?;
    b.ir.rules = b.graph(&rules.name).map_err(|e| vec![e])?;
    b.finish()
}

struct Builder<'p> {
    program: &'p Program,
    domains: Domains,
    symbols: Symbols,
    functions: HashMap<String, FunctionDecl>,
    domain_symbols: HashSet<String>,
    sym_value: HashMap<u32, Value>,
    tables: HashMap<String, Rc<KeyTable>>,
    func_index: HashMap<String, u32>,
    funcs: Vec<Func>,
    var_index: HashMap<String, u32>,
    vars: Vec<Var>,
    slots: Vec<u32>,
    ir: Ir,
    graph_ids: HashMap<String, GraphId>,
    building: Vec<String>,
    next_id: u32,
    statics: Statics,
}

/// What is in scope in a graph body.
#[derive(Clone)]
struct Scope<'p> {
    graph: &'p GraphDecl,
    params: Vec<(u32, Rc<Ty>)>,
    subs: Vec<String>,
    in_loop: bool,
}

impl Scope<'_> {
    fn is_sub(&self, name: &str) -> bool {
        self.subs.iter().any(|s| s == name)
    }
}

impl<'p> Builder<'p> {
    fn symbols_and_functions(&mut self) -> Result<(), Diagnostic> {
        for values in self.domains.values.values() {
            for v in values {
                let id = self.symbols.intern(&v.serialize());
                self.sym_value.entry(id).or_insert_with(|| v.clone());
                if let Value::Symbol(s) = v {
                    self.domain_symbols.insert(s.clone());
                }
            }
        }
        for name in ["Player", "Score"] {
            if !self.domains.contains(name) {
                return error(
                    format!("The game must declare \"domain {name} = ...\"."),
                    Span::default(),
                );
            }
        }
        for f in self.program.functions() {
            if self.functions.contains_key(&f.name.text) {
                return error(
                    format!("Function \"{}\" is declared twice.", f.name.text),
                    f.name.span,
                );
            }
            let keys = f.ty.arrows().0;
            if keys.is_empty() {
                let message = format!(
                    "Function \"{}\" must have an arrow type (there are no 0-ary constants).",
                    f.name.text
                );
                return error(message, f.ty.span());
            }
            // §2.5: every case has as many patterns as the first, and at
            // least one but no more than the type has arrows.
            let counts: Vec<usize> = f.cases.iter().map(|c| c.patterns.len()).collect();
            let patterns = counts.first().copied().unwrap_or_default();
            if let Some(odd) = counts.iter().position(|&n| n != patterns) {
                let span = f.cases[odd].span;
                let message = format!(
                    "Every case of \"{}\" must have {patterns} patterns, like the first one.",
                    f.name.text
                );
                return error(message, span);
            }
            if !(1..=keys.len()).contains(&patterns) {
                let most = keys.len();
                let message = format!(
                    "Cases of \"{}\" must have between 1 and {most} patterns.",
                    f.name.text
                );
                return error(message, f.span);
            }
            let mut tables = Vec::new();
            for key in &keys[..patterns] {
                if !self.domains.contains(&key.text) {
                    return error(format!("Unknown type \"{}\".", key.text), key.span);
                }
                tables.push(self.key_table(key)?);
            }
            self.func_index
                .insert(f.name.text.clone(), self.funcs.len() as u32);
            self.funcs.push(Func {
                name: f.name.text.clone(),
                patterns,
                keys: tables,
                arrows: keys.len(),
            });
            self.functions.insert(f.name.text.clone(), f.clone());
        }
        let declared: Vec<&FunctionDecl> = self.program.functions().collect();
        self.statics = Statics::new(&self.domains, &declared);
        Ok(())
    }

    /// The symbols of a named set type: a domain or an RG built-in.
    fn key_table(&mut self, name: &Name) -> Result<Rc<KeyTable>, Diagnostic> {
        if let Some(t) = self.tables.get(&name.text) {
            return Ok(t.clone());
        }
        let symbols: Vec<u32> = match (self.domains.get(&name.text), name.text.as_str()) {
            (Some(values), _) => {
                let names: Vec<String> = values.iter().map(Value::serialize).collect();
                names.iter().map(|s| self.symbols.intern(s)).collect()
            }
            (None, "Bool") => vec![self.symbols.intern("0"), self.symbols.intern("1")],
            (None, "PlayerOrSystem") => {
                let mut all = self
                    .key_table(&Name {
                        text: "Player".into(),
                        span: name.span,
                    })?
                    .symbols
                    .clone();
                all.push(self.symbols.intern("keeper"));
                all.push(self.symbols.intern("random"));
                all
            }
            _ => return error(format!("Unknown type \"{}\".", name.text), name.span),
        };
        let table = Rc::new(KeyTable::new(symbols));
        self.tables.insert(name.text.clone(), table.clone());
        Ok(table)
    }

    fn builtin(&mut self, name: &str) -> Result<Rc<KeyTable>, Diagnostic> {
        self.key_table(&Name {
            text: name.into(),
            span: Span::default(),
        })
    }

    fn resolve(&mut self, ty: &TypeExpr) -> Result<Rc<Ty>, Diagnostic> {
        Ok(Rc::new(match ty {
            TypeExpr::Set(names, _) => {
                let symbols = names.iter().map(|n| self.symbols.intern(&n.text)).collect();
                Ty::Set(Rc::new(KeyTable::new(symbols)))
            }
            TypeExpr::Named(name, None)
                if !self.domains.contains(&name.text) && name.text == "Goals" =>
            {
                let score = Rc::new(Ty::Set(self.builtin("Score")?));
                map_type(self.builtin("Player")?, score, name.span)?
            }
            TypeExpr::Named(name, None)
                if !self.domains.contains(&name.text) && name.text == "Visibility" =>
            {
                let boolean = Rc::new(Ty::Set(self.builtin("Bool")?));
                map_type(self.builtin("Player")?, boolean, name.span)?
            }
            TypeExpr::Named(name, None) => Ty::Set(self.key_table(name)?),
            TypeExpr::Named(name, Some(target)) => {
                let keys = self.key_table(name)?;
                map_type(keys, self.resolve(target)?, name.span)?
            }
        }))
    }

    /// The default value of a type (§2.3) as an RG literal.
    fn default_literal(&mut self, ty: &Ty, span: Span) -> Result<rg::Value, Diagnostic> {
        match ty {
            Ty::Set(table) => match table.symbols.first() {
                Some(&s) => Ok(rg::Value::symbol(self.symbols.name(s))),
                None => error("An empty type has no default value.", span),
            },
            Ty::Map { value, .. } => Ok(rg::Value::map(self.default_literal(value, span)?, [])),
        }
    }

    /// Slots of a value of type `ty` given as an RG literal.
    /// Refuses a value of type `ty` (declared at `span`) that would take the
    /// state past [`MAX_STATE_SLOTS`].
    fn reserve(&self, ty: &Ty, span: Span) -> Result<(), Diagnostic> {
        let total = self.slots.len() as u64 + u64::from(ty.size());
        if total > MAX_STATE_SLOTS {
            return error(
                format!(
                    "The state would have more than {MAX_STATE_SLOTS} slots, the limit of the \
                     native interpreter's state (raise MAX_STATE_SLOTS in {LIMITS_FILE} to allow \
                     more)."
                ),
                span,
            );
        }
        Ok(())
    }

    fn densify(
        &mut self,
        v: &rg::Value,
        ty: &Ty,
        out: &mut Vec<u32>,
        span: Span,
    ) -> Result<(), Diagnostic> {
        match (ty, v) {
            (Ty::Set(_), rg::Value::Symbol(name, _)) => {
                out.push(self.symbols.intern(name));
                Ok(())
            }
            (Ty::Set(_), rg::Value::Map(..)) => error("A map where a symbol is expected.", span),
            (Ty::Map { keys, value, .. }, rg::Value::Map(entries, _)) => {
                let default = entries.iter().find(|e| e.key.is_none()).map(|e| &e.value);
                for &k in &keys.symbols {
                    let key = self.symbols.name(k).to_string();
                    let entry = entries
                        .iter()
                        .find(|e| e.key.as_deref() == Some(key.as_str()))
                        .map(|e| &e.value)
                        .or(default);
                    match entry {
                        Some(entry) => {
                            let entry = entry.clone();
                            self.densify(&entry, value, out, span)?;
                        }
                        None => {
                            return error(format!("The map has no value for key \"{key}\"."), span)
                        }
                    }
                }
                Ok(())
            }
            (Ty::Map { .. }, rg::Value::Symbol(name, _)) => {
                match self.func_index.get(name).copied() {
                    Some(f) => self.densify_function(f, &mut Vec::new(), ty, out, span),
                    None => error(
                        format!("The symbol \"{name}\" where a map is expected."),
                        span,
                    ),
                }
            }
        }
    }

    /// Slots of a constant function's value (a variable initialized with
    /// a function's name), applying it key by key.
    fn densify_function(
        &mut self,
        f: u32,
        args: &mut Vec<Value>,
        ty: &Ty,
        out: &mut Vec<u32>,
        span: Span,
    ) -> Result<(), Diagnostic> {
        if args.len() == self.funcs[f as usize].patterns {
            let result = self.statics.apply(f as usize, args, span)?.serialize();
            return self.densify(&rg::Value::symbol(result), ty, out, span);
        }
        let Ty::Map { keys, value, .. } = ty else {
            return error("A function where a symbol is expected.", span);
        };
        for &k in &keys.symbols {
            let v = self
                .sym_value
                .get(&k)
                .cloned()
                .unwrap_or_else(|| Value::symbol(self.symbols.name(k)));
            args.push(v);
            self.densify_function(f, args, value, out, span)?;
            args.pop();
        }
        Ok(())
    }

    /// The lenient-read fallback: the innermost default of a literal.
    fn fallback(&mut self, v: &rg::Value) -> Option<Global> {
        let mut current = v;
        let mut seen_map = false;
        loop {
            match current {
                rg::Value::Map(entries, _) => {
                    current = &entries.iter().find(|e| e.key.is_none())?.value;
                    seen_map = true;
                }
                rg::Value::Symbol(name, _) => {
                    if let Some(&f) = self.func_index.get(name) {
                        return Some(Global::Func(f));
                    }
                    return seen_map.then(|| Global::Sym(self.symbols.intern(name)));
                }
            }
        }
    }

    fn allocate(
        &mut self,
        name: &str,
        ty: Rc<Ty>,
        literal: &rg::Value,
        span: Span,
    ) -> Result<u32, Diagnostic> {
        self.reserve(&ty, span)?;
        let base = self.slots.len() as u32;
        let mut out = Vec::new();
        self.densify(literal, &ty, &mut out, span)?;
        self.slots.extend(out);
        let fallback = self.fallback(literal);
        self.var_index
            .insert(name.to_string(), self.vars.len() as u32);
        self.vars.push(Var {
            name: name.to_string(),
            base,
            ty,
            fallback,
        });
        Ok(base)
    }

    fn variables(&mut self) -> Result<(), Diagnostic> {
        for v in self.program.variables() {
            if self.var_index.contains_key(&v.name.text) {
                return error(
                    format!("Variable \"{}\" is declared twice.", v.name.text),
                    v.name.span,
                );
            }
            let ty = self.resolve(&v.ty)?;
            let literal = match (&v.init, &v.ty) {
                (Some(init), _) => self.statics.initializer(init)?,
                (None, TypeExpr::Set(_, span)) => {
                    return error(
                        "A variable of a set-literal type needs an initializer (set literals have no default value).",
                        *span,
                    )
                }
                (None, _) => self.default_literal(&ty, v.span)?,
            };
            self.allocate(&v.name.text, ty, &literal, v.span)?;
        }
        // The built-in variables the game did not declare (rg.md §3.2).
        if !self.var_index.contains_key("goals") {
            let keys = self.builtin("Player")?;
            let score = self.builtin("Score")?;
            let first = self.symbols.name(score.symbols[0]).to_string();
            let ty = Rc::new(map_type(keys, Rc::new(Ty::Set(score)), Span::default())?);
            self.allocate(
                "goals",
                ty,
                &rg::Value::map(rg::Value::symbol(first), []),
                Span::default(),
            )?;
        }
        if !self.var_index.contains_key("player") {
            let ty = Rc::new(Ty::Set(self.builtin("PlayerOrSystem")?));
            self.allocate("player", ty, &rg::Value::symbol("keeper"), Span::default())?;
        }
        if !self.var_index.contains_key("visible") {
            let keys = self.builtin("Player")?;
            let boolean = Rc::new(Ty::Set(self.builtin("Bool")?));
            let ty = Rc::new(map_type(keys, boolean, Span::default())?);
            self.allocate(
                "visible",
                ty,
                &rg::Value::map(rg::Value::symbol("1"), []),
                Span::default(),
            )?;
        }
        Ok(())
    }

    fn fresh_id(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id
    }

    fn global(&mut self, name: &str) -> Global {
        if let Some(&f) = self.func_index.get(name) {
            Global::Func(f)
        } else if let Some(&v) = self.var_index.get(name) {
            Global::Var(v)
        } else {
            Global::Sym(self.symbols.intern(name))
        }
    }

    /// The graph named `name`, built on first use (only graphs reachable
    /// from `rules` are built and checked, like the translation).
    fn graph(&mut self, name: &Name) -> Result<GraphId, Diagnostic> {
        if self.building.contains(&name.text) {
            return error(
                format!(
                    "Graph \"{}\" is used inside itself; recursion is not supported.",
                    name.text
                ),
                name.span,
            );
        }
        if let Some(&id) = self.graph_ids.get(&name.text) {
            return Ok(id);
        }
        let Some(decl) = self.program.graphs().find(|g| g.name.text == name.text) else {
            return error(
                format!("Unknown automaton function \"{}\".", name.text),
                name.span,
            );
        };
        self.building.push(name.text.clone());
        let mut params = Vec::new();
        let mut scope_params = Vec::new();
        for p in &decl.params {
            if let TypeExpr::Set(_, span) = p.ty {
                return error("A graph parameter cannot have a set-literal type.", span);
            }
            let ty = self.resolve(&p.ty)?;
            let literal = self.default_literal(&ty, p.name.span)?;
            self.reserve(&ty, p.name.span)?;
            let slot = self.slots.len() as u32;
            let mut out = Vec::new();
            self.densify(&literal, &ty, &mut out, p.name.span)?;
            self.slots.extend(out);
            scope_params.push((slot, ty.clone()));
            params.push(ir::Param { slot, ty });
        }
        let return_slot = decl.reusable.then(|| {
            self.slots.push(u32::MAX);
            self.slots.len() as u32 - 1
        });
        let scope = Scope {
            graph: decl,
            params: scope_params,
            subs: Vec::new(),
            in_loop: false,
        };
        let body = self.block(&decl.body, &scope)?;
        self.building.pop();
        let id = self.ir.graphs.len() as GraphId;
        self.ir.graphs.push(ir::Graph {
            reusable: decl.reusable,
            params,
            body,
            return_slot,
        });
        self.graph_ids.insert(name.text.clone(), id);
        Ok(id)
    }

    fn block(&mut self, stmts: &'p [Stmt], scope: &Scope<'p>) -> Result<u32, Diagnostic> {
        let mut ids = Vec::new();
        for (k, s) in stmts.iter().enumerate() {
            if k + 1 < stmts.len() {
                if let StmtKind::Call { callee, .. } = &s.kind {
                    if matches!(
                        callee.text.as_str(),
                        "end" | "return" | "break" | "continue"
                    ) {
                        return error(
                            format!(
                                "\"{}()\" must be the last statement of its block.",
                                callee.text
                            ),
                            s.span,
                        );
                    }
                }
            }
            ids.push(self.stmt(s, scope)?);
        }
        self.ir.blocks.push(ids);
        Ok(self.ir.blocks.len() as u32 - 1)
    }

    fn push(&mut self, s: ir::Stmt) -> u32 {
        self.ir.stmts.push(s);
        self.ir.stmts.len() as u32 - 1
    }

    fn target(
        &mut self,
        target: &Name,
        accessors: &[Expr],
        scope: &Scope<'p>,
    ) -> Result<Target, Diagnostic> {
        if scope.is_sub(&target.text) {
            return error(
                format!(
                    "Cannot substitute \"{}\" in assigned variable.",
                    target.text
                ),
                target.span,
            );
        }
        let Some(&var) = self.var_index.get(&target.text) else {
            let what = if self.functions.contains_key(&target.text) {
                "is a constant function and cannot be assigned"
            } else {
                "is not a declared variable and cannot be assigned"
            };
            return error(format!("\"{}\" {what}.", target.text), target.span);
        };
        let accessors = accessors
            .iter()
            .map(|a| self.expr(a, scope))
            .collect::<Result<_, _>>()?;
        Ok(Target { var, accessors })
    }

    /// The symbols of a type enumerated by `branch`/`repeat x in` and
    /// any-assignments: a set literal or a named set type.
    fn enumerate(&mut self, ty: &TypeExpr) -> Result<Vec<u32>, Diagnostic> {
        match ty {
            TypeExpr::Set(names, _) => {
                Ok(names.iter().map(|n| self.symbols.intern(&n.text)).collect())
            }
            TypeExpr::Named(name, None) => Ok(self.key_table(name)?.symbols.clone()),
            TypeExpr::Named(name, Some(_)) => {
                error("An arrow type cannot be enumerated here.", name.span)
            }
        }
    }

    fn arity(callee: &Name, args: &[Expr], expected: usize) -> Result<(), Diagnostic> {
        if args.len() != expected {
            return error(
                format!(
                    "Function \"{}\" expected {expected} arguments but got {}.",
                    callee.text,
                    args.len()
                ),
                callee.span,
            );
        }
        Ok(())
    }

    fn stmt(&mut self, s: &'p Stmt, scope: &Scope<'p>) -> Result<u32, Diagnostic> {
        let stmt = match &s.kind {
            StmtKind::Assign {
                target,
                accessors,
                value,
            } => {
                let t = self.target(target, accessors, scope)?;
                let value = self.expr(value, scope)?;
                if target.text == "player" && accessors.is_empty() {
                    ir::Stmt::AssignPlayer(value)
                } else {
                    ir::Stmt::Assign { target: t, value }
                }
            }
            StmtKind::AssignAny {
                target,
                accessors,
                ty,
            } => {
                if target.text == "player" && accessors.is_empty() {
                    return error(
                        "\"player\" cannot be assigned any value (player = T(*)).",
                        s.span,
                    );
                }
                let target = self.target(target, accessors, scope)?;
                let symbols = self.enumerate(ty)?;
                ir::Stmt::AssignAny { target, symbols }
            }
            StmtKind::BranchIn { variable, ty, body }
            | StmtKind::RepeatIn { variable, ty, body } => {
                let symbols = self.enumerate(ty)?;
                let mut inner = scope.clone();
                inner.subs.push(variable.text.clone());
                let is_repeat = matches!(s.kind, StmtKind::RepeatIn { .. });
                if is_repeat {
                    inner.in_loop = true;
                }
                let body = self.block(body, &inner)?;
                let var = variable.text.clone();
                if is_repeat {
                    ir::Stmt::RepeatIn { var, symbols, body }
                } else {
                    ir::Stmt::BranchIn { var, symbols, body }
                }
            }
            StmtKind::Branch(arms) => {
                let arms = arms
                    .iter()
                    .map(|a| self.block(a, scope))
                    .collect::<Result<_, _>>()?;
                ir::Stmt::Branch(arms)
            }
            StmtKind::Call { callee, args } => match callee.text.as_str() {
                "check" => {
                    Self::arity(callee, args, 1)?;
                    ir::Stmt::Check(self.cond(&args[0], scope)?)
                }
                "end" | "return" | "break" | "continue" => {
                    Self::arity(callee, args, 0)?;
                    match callee.text.as_str() {
                        "end" => ir::Stmt::End,
                        "return" => ir::Stmt::Return,
                        word if !scope.in_loop => {
                            return error(
                                format!(
                                    "\"{word}()\" is only allowed inside a loop of the same graph."
                                ),
                                s.span,
                            )
                        }
                        "break" => ir::Stmt::Break,
                        _ => ir::Stmt::Continue,
                    }
                }
                _ => {
                    if scope.is_sub(&callee.text) {
                        return error(
                            format!("Cannot substitute \"{}\" in function name.", callee.text),
                            callee.span,
                        );
                    }
                    let graph = self.graph(callee)?;
                    let expected = self.ir.graphs[graph as usize].params.len();
                    Self::arity(callee, args, expected)?;
                    let args = args
                        .iter()
                        .map(|a| self.expr(a, scope))
                        .collect::<Result<_, _>>()?;
                    ir::Stmt::Call { graph, args }
                }
            },
            StmtKind::If {
                condition,
                then_block,
                else_block,
            } => {
                let cond = self.cond(condition, scope)?;
                let then = self.block(then_block, scope)?;
                let otherwise = match else_block {
                    Some(b) => Some(self.block(b, scope)?),
                    None => None,
                };
                ir::Stmt::If {
                    cond,
                    then,
                    otherwise,
                }
            }
            StmtKind::Loop(body) => {
                let mut inner = scope.clone();
                inner.in_loop = true;
                ir::Stmt::Loop(self.block(body, &inner)?)
            }
            StmtKind::Repeat { count, body } => {
                if let Some(refusal) = crate::limits::repeat_count_refusal(*count) {
                    return error(refusal, s.span);
                }
                let mut inner = scope.clone();
                inner.in_loop = true;
                let body = self.block(body, &inner)?;
                ir::Stmt::Repeat {
                    count: *count,
                    body,
                }
            }
            StmtKind::While { condition, body } => {
                let cond = self.cond(condition, scope)?;
                let mut inner = scope.clone();
                inner.in_loop = true;
                let body = self.block(body, &inner)?;
                ir::Stmt::While { cond, body }
            }
            StmtKind::VarTag(variable) => {
                if scope.is_sub(&variable.text) {
                    return error(
                        format!("Cannot substitute \"{}\" in tag variable.", variable.text),
                        variable.span,
                    );
                }
                let Some(&var) = self.var_index.get(&variable.text) else {
                    return error(
                        format!("\"$$ {}\" needs a declared variable.", variable.text),
                        variable.span,
                    );
                };
                if !matches!(*self.vars[var as usize].ty, Ty::Set(_)) {
                    return error(
                        format!(
                            "\"$$ {}\" needs a variable of a set type, not a map.",
                            variable.text
                        ),
                        variable.span,
                    );
                }
                ir::Stmt::VarTag(var)
            }
            StmtKind::Tag { symbols, .. } => {
                let parts: Vec<String> = symbols.iter().map(|n| n.text.clone()).collect();
                let fixed = (!parts.iter().any(|p| scope.is_sub(p)))
                    .then(|| self.symbols.intern(&parts.join("__")));
                ir::Stmt::Tag(TagParts { parts, fixed })
            }
        };
        Ok(self.push(stmt))
    }

    /// A runtime expression (§3.3).
    fn expr(&mut self, e: &Expr, scope: &Scope<'p>) -> Result<RExpr, Diagnostic> {
        match &e.kind {
            ExprKind::Name(name) => {
                if scope.is_sub(&name.text) {
                    return Ok(RExpr::Sub(name.text.clone()));
                }
                if let Some(i) = scope.graph.params.iter().position(|p| p.name.text == name.text) {
                    let (slot, ty) = scope.params[i].clone();
                    return Ok(RExpr::Param(slot, ty));
                }
                // An upper-case name that is not bound must be a variable, a
                // function or a domain symbol (e.g. `STOP`): then it denotes
                // itself like any other name.
                if name.is_upper()
                    && !self.var_index.contains_key(&name.text)
                    && !self.func_index.contains_key(&name.text)
                    && !self.domain_symbols.contains(&name.text)
                {
                    return error(format!("Unknown variable \"{}\".", name.text), name.span);
                }
                Ok(RExpr::Global(self.global(&name.text)))
            }
            ExprKind::Paren(inner) => self.expr(inner, scope),
            ExprKind::Access(m, k) => Ok(RExpr::Access(
                Box::new(self.expr(m, scope)?),
                Box::new(self.expr(k, scope)?),
            )),
            ExprKind::Call(callee, args) => {
                let mut out = self.expr(callee, scope)?;
                for a in args {
                    out = RExpr::Access(Box::new(out), Box::new(self.expr(a, scope)?));
                }
                Ok(out)
            }
            ExprKind::Constructor(..) => {
                if scope.subs.is_empty() {
                    // No substitution can change it: evaluate it now.
                    let value = self.statics.eval(e)?.serialize();
                    return Ok(RExpr::Global(self.global(&value)));
                }
                Ok(RExpr::Ctor {
                    id: self.fresh_id(),
                    expr: e.clone(),
                })
            }
            _ => error(
                format!(
                    "\"{}\" cannot be computed while the game runs; use a constant function instead.",
                    crate::display::expr(e)
                ),
                e.span,
            ),
        }
    }

    /// A condition (§4.13).
    fn cond(&mut self, e: &Expr, scope: &Scope<'p>) -> Result<Cond, Diagnostic> {
        match &e.kind {
            ExprKind::Paren(inner) => self.cond(inner, scope),
            ExprKind::Binary(BinaryOp::And, l, r) => Ok(Cond::And(
                Box::new(self.cond(l, scope)?),
                Box::new(self.cond(r, scope)?),
            )),
            ExprKind::Binary(BinaryOp::Or, l, r) => Ok(Cond::Or(
                Box::new(self.cond(l, scope)?),
                Box::new(self.cond(r, scope)?),
            )),
            ExprKind::Binary(op @ (BinaryOp::Eq | BinaryOp::Ne), l, r) => Ok(Cond::Eq {
                left: self.expr(l, scope)?,
                right: self.expr(r, scope)?,
                negated: *op == BinaryOp::Ne,
            }),
            ExprKind::Call(callee, args) => {
                let ExprKind::Name(name) = &callee.kind else {
                    return self.invalid_condition(e);
                };
                match name.text.as_str() {
                    "not" => {
                        Self::arity(name, args, 1)?;
                        Ok(Cond::Not(Box::new(self.cond(&args[0], scope)?)))
                    }
                    "true" | "false" => {
                        Self::arity(name, args, 0)?;
                        Ok(if name.text == "true" {
                            Cond::True
                        } else {
                            Cond::False
                        })
                    }
                    "reachable" => {
                        Self::arity(name, args, 1)?;
                        let ExprKind::Call(g, g_args) = &args[0].kind else {
                            return self.invalid_condition(e);
                        };
                        let ExprKind::Name(g) = &g.kind else {
                            return self.invalid_condition(e);
                        };
                        if scope.is_sub(&g.text) {
                            return error(
                                format!("Cannot substitute \"{}\" in function name.", g.text),
                                g.span,
                            );
                        }
                        let graph = self.graph(g)?;
                        Self::arity(g, g_args, self.ir.graphs[graph as usize].params.len())?;
                        let args = g_args
                            .iter()
                            .map(|a| self.expr(a, scope))
                            .collect::<Result<_, _>>()?;
                        Ok(Cond::Reach {
                            graph,
                            args,
                            id: self.fresh_id(),
                        })
                    }
                    _ => self.invalid_condition(e),
                }
            }
            _ => self.invalid_condition(e),
        }
    }

    fn invalid_condition<T>(&self, e: &Expr) -> Result<T, Diagnostic> {
        error(
            format!(
                "Expression \"{}\" is not a valid condition.",
                crate::display::expr(e)
            ),
            e.span,
        )
    }

    fn finish(mut self) -> Result<(Game, Symbols), Vec<Diagnostic>> {
        let mut sym_global = HashMap::new();
        let names: Vec<String> = self
            .func_index
            .keys()
            .chain(self.var_index.keys())
            .cloned()
            .collect();
        for name in names {
            let id = self.symbols.intern(&name);
            let g = self.global(&name);
            sym_global.insert(id, g);
        }
        let var = |name: &str| self.vars[self.var_index[name] as usize].base;
        let player_slot = var("player");
        let goals_base = var("goals");
        let keeper = self.symbols.intern("keeper");
        let random = self.symbols.intern("random");
        let players = self.builtin("Player").map_err(|e| vec![e])?.symbols.clone();
        let goals_keys = match &*self.vars[self.var_index["goals"] as usize].ty {
            Ty::Map { keys, value, .. } if matches!(**value, Ty::Set(_)) => keys.clone(),
            _ => {
                return Err(vec![Diagnostic::error(
                    "\"goals\" must have the type Player -> Score.",
                    None,
                )])
            }
        };
        let score = self.builtin("Score").map_err(|e| vec![e])?;
        let score_values = score
            .symbols
            .iter()
            .enumerate()
            .map(|(k, &s)| (s, self.symbols.name(s).parse::<i64>().unwrap_or(k as i64)))
            .collect();
        let game = Game {
            statics: self.statics,
            funcs: self.funcs,
            vars: self.vars,
            sym_global,
            sym_value: self.sym_value,
            ir: self.ir,
            initial: Values::new(self.slots),
            player_slot,
            keeper,
            random,
            players,
            goals_base,
            goals_keys,
            score_values,
        };
        Ok((game, self.symbols))
    }
}
