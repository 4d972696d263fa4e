//! The static evaluator (replay.md §3, §5.3): runs the top-level
//! statements once, in order, and keeps the globals. Types are checked as
//! values flow (every mismatch is an error at the offending expression);
//! the simulation statements `%`, `~`, `#` are rejected when executed, or
//! end the evaluation with `stop-at-simulation`.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use rg_core::diag::{line_column, Diagnostic, Span};

use crate::ast::{
    Base, BinaryOp, Expr, ExprKind, Function, Item, Name, Outcome, Param, Pattern, Program,
    StateDef, Stmt, StmtKind, UnaryOp,
};
use crate::value::{
    base_name, pow, profile, Array, GameVal, PlayerVal, Shared, StrategyVal, Ty, Value,
};

/// Evaluation guards (§5.3).
pub const MAX_STEPS: u64 = 10_000_000;
pub const MAX_CALL_DEPTH: usize = 1_000;
pub const MAX_ARRAY: usize = 1_000_000;
pub const MAX_PROFILES: usize = 1_000_000;
pub const MAX_TRANSITIONS: usize = 1_000_000;
/// Array elements and table entries allocated over the whole evaluation:
/// the per-object limits alone would let a loop exhaust memory.
pub const MAX_ALLOCATED: u64 = 50_000_000;

const BUILTINS: [&str; 4] = ["print", "println", "tofloat", "toint"];

/// What kind of name a variable is: constants cannot be assigned, and an
/// `int` variable used as a pattern draws a warning (⟨A6⟩).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Variable,
    Strat,
    Label,
}

#[derive(Clone, Debug)]
struct Var {
    value: Value,
    ty: Ty,
    kind: Kind,
    span: Span,
}

type Scope = HashMap<String, Var>;

/// Why evaluation stopped early.
pub enum Halt {
    Error(Diagnostic),
    /// `stop-at-simulation` reached a simulation statement.
    Stopped,
}

impl From<Diagnostic> for Halt {
    fn from(d: Diagnostic) -> Self {
        Halt::Error(d)
    }
}

type R<T> = Result<T, Halt>;

fn err<T>(message: impl Into<String>, span: Span) -> R<T> {
    Err(Halt::Error(Diagnostic::error(message, span)))
}

enum Flow {
    Normal,
    Return(Value, Span),
}

/// The globals after evaluation, the captured output and the warnings.
pub struct Globals {
    pub values: Vec<(String, Value, Span)>,
    pub output: String,
    pub warnings: Vec<Diagnostic>,
}

impl Globals {
    pub fn get(&self, name: &str) -> Option<&(String, Value, Span)> {
        self.values.iter().find(|(n, _, _)| n == name)
    }
}

/// Runs `program`; `seed` seeds `rand` (§3.3).
pub fn evaluate(
    program: &Program,
    source: &str,
    seed: u64,
    stop_at_simulation: bool,
) -> Result<Globals, Vec<Diagnostic>> {
    let mut ev = Evaluator::new(program, source, seed, stop_at_simulation);
    ev.declare_functions(program)?;
    let mut warnings = Vec::new();
    for item in &program.items {
        let Item::Stmt(stmt) = item else { continue };
        match ev.exec(stmt) {
            Ok(Flow::Normal) => {}
            Ok(Flow::Return(_, span)) => {
                return Err(vec![Diagnostic::error(
                    "return is only allowed inside a function",
                    span,
                )])
            }
            Err(Halt::Error(d)) => {
                let mut all = ev.warnings;
                all.push(d);
                return Err(all);
            }
            Err(Halt::Stopped) => break,
        }
    }
    warnings.append(&mut ev.warnings);
    let mut values: Vec<(String, Value, Span)> = ev
        .globals
        .into_iter()
        .map(|(name, var)| (name, var.value, var.span))
        .collect();
    values.sort_by_key(|(_, _, span)| span.start);
    Ok(Globals {
        values,
        output: ev.output,
        warnings,
    })
}

struct Evaluator<'p> {
    source: &'p str,
    functions: HashMap<&'p str, &'p Function>,
    /// Names declared by top-level declarations (to tell "read before its
    /// declaration ran" from "unknown").
    top_level_names: HashSet<&'p str>,
    globals: Scope,
    /// Block scopes of the running code (top level or a function body).
    locals: Vec<Scope>,
    /// Start of the running function's text: it sees globals declared
    /// before it (§3.7).
    function_start: Option<usize>,
    depth: usize,
    steps: u64,
    allocated: u64,
    rng: u64,
    rand_warned: bool,
    stop_at_simulation: bool,
    output: String,
    warnings: Vec<Diagnostic>,
}

impl<'p> Evaluator<'p> {
    fn new(program: &'p Program, source: &'p str, seed: u64, stop: bool) -> Self {
        let mut top_level_names = HashSet::new();
        for item in &program.items {
            if let Item::Stmt(Stmt {
                kind: StmtKind::Decl { name, .. },
                ..
            }) = item
            {
                top_level_names.insert(name.text.as_str());
            }
        }
        Evaluator {
            source,
            functions: HashMap::new(),
            top_level_names,
            globals: Scope::new(),
            locals: Vec::new(),
            function_start: None,
            depth: 0,
            steps: 0,
            allocated: 0,
            rng: seed,
            rand_warned: false,
            stop_at_simulation: stop,
            output: String::new(),
            warnings: Vec::new(),
        }
    }

    fn at(&self, span: Span) -> String {
        let (line, column) = line_column(self.source, span.start);
        format!("{line}:{column}")
    }

    fn declare_functions(&mut self, program: &'p Program) -> Result<(), Vec<Diagnostic>> {
        let mut errors = Vec::new();
        for item in &program.items {
            let Item::Function(f) = item else { continue };
            let name = f.name.text.as_str();
            if BUILTINS.contains(&name) {
                errors.push(Diagnostic::error(
                    format!("{name} is a built-in function and cannot be redeclared"),
                    f.name.span,
                ));
            } else if let Some(previous) = self.functions.get(name) {
                errors.push(Diagnostic::error(
                    format!(
                        "function {name} is already declared (at {})",
                        self.at(previous.name.span)
                    ),
                    f.name.span,
                ));
            } else {
                self.functions.insert(name, f);
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    fn tick(&mut self, span: Span) -> R<()> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return err(
                format!("evaluation exceeded {MAX_STEPS} steps (infinite recursion?)"),
                span,
            );
        }
        Ok(())
    }

    fn allocate(&mut self, elements: usize, span: Span) -> R<()> {
        self.allocated = self.allocated.saturating_add(elements as u64);
        if self.allocated > MAX_ALLOCATED {
            return err(
                format!("evaluation allocated more than {MAX_ALLOCATED} array elements and table entries"),
                span,
            );
        }
        Ok(())
    }

    // ---- names -------------------------------------------------------------

    fn lookup(&self, name: &str) -> Option<&Var> {
        for scope in self.locals.iter().rev() {
            if let Some(v) = scope.get(name) {
                return Some(v);
            }
        }
        let var = self.globals.get(name)?;
        match self.function_start {
            Some(start) if var.span.start > start => None,
            _ => Some(var),
        }
    }

    fn lookup_mut(&mut self, name: &str) -> Option<&mut Var> {
        let start = self.function_start;
        for scope in self.locals.iter_mut().rev() {
            if scope.contains_key(name) {
                return scope.get_mut(name);
            }
        }
        let var = self.globals.get_mut(name)?;
        match start {
            Some(start) if var.span.start > start => None,
            _ => Some(var),
        }
    }

    fn unknown(&self, name: &Name) -> Halt {
        let message = if self.function_start.is_none() && self.top_level_names.contains(&*name.text)
        {
            format!(
                "{} is read before its declaration ran (globals are visible after their declaration)",
                name.text
            )
        } else {
            format!("unknown variable {}", name.text)
        };
        Halt::Error(Diagnostic::error(message, name.span))
    }

    fn declare(&mut self, name: &Name, ty: Ty, value: Value, kind: Kind) -> R<()> {
        let scope = match self.locals.last_mut() {
            Some(scope) => scope,
            None => &mut self.globals,
        };
        if let Some(previous) = scope.get(&name.text) {
            let (line, column) = line_column(self.source, previous.span.start);
            return err(
                format!(
                    "{} is already declared in this scope (at {line}:{column})",
                    name.text
                ),
                name.span,
            );
        }
        scope.insert(
            name.text.clone(),
            Var {
                value,
                ty,
                kind,
                span: name.span,
            },
        );
        Ok(())
    }

    fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        self.locals.push(Scope::new());
        let result = f(self);
        self.locals.pop();
        result
    }

    // ---- statements ----------------------------------------------------------

    fn exec_block(&mut self, stmts: &'p [Stmt]) -> R<Flow> {
        for stmt in stmts {
            if let Flow::Return(v, s) = self.exec(stmt)? {
                return Ok(Flow::Return(v, s));
            }
        }
        Ok(Flow::Normal)
    }

    fn exec(&mut self, stmt: &'p Stmt) -> R<Flow> {
        self.tick(stmt.span)?;
        match &stmt.kind {
            StmtKind::Decl { ty, name, init } => {
                let ty = Ty::of(ty);
                let value = match init {
                    Some(e) => {
                        let v = self.expr(e)?;
                        if v.ty() != ty {
                            return err(
                                format!(
                                    "{} is declared {ty} but initialized with {}",
                                    name.text,
                                    v.ty()
                                ),
                                e.span,
                            );
                        }
                        v
                    }
                    None => Value::default_of(ty),
                };
                self.declare(name, ty, value, Kind::Variable)?;
            }
            StmtKind::Strat(names) => {
                for (i, name) in names.iter().enumerate() {
                    let v = Value::Int(i as i64);
                    self.declare(name, Ty::Base(Base::Int), v, Kind::Strat)?;
                }
            }
            StmtKind::Play { .. } => self.simulation(
                stmt.span,
                "\"%\" plays a round: rgw translates definitions only; delete the simulation, \
                 move it into an uncalled function, or use --stop-at-simulation; pair players with --fix",
            )?,
            StmtKind::Mutate { .. } => self.simulation(
                stmt.span,
                "\"~\" mutates a strategy, whose bit representation replay never defines \
                 (⟨A33⟩): rgw translates definitions only; delete it, move it into an uncalled \
                 function, or use --stop-at-simulation",
            )?,
            StmtKind::Crossover { .. } => self.simulation(
                stmt.span,
                "\"#\" crosses strategies over, whose bit representation replay never defines \
                 (⟨A33⟩): rgw translates definitions only; delete it, move it into an uncalled \
                 function, or use --stop-at-simulation",
            )?,
            StmtKind::Assign { target, value } => self.assign(target, value)?,
            StmtKind::Call(e) => {
                self.expr(e)?;
            }
            StmtKind::Return(e) => {
                let v = match e {
                    Some(e) => self.expr(e)?,
                    None => Value::Void,
                };
                if self.function_start.is_none() {
                    return err("return is only allowed inside a function", stmt.span);
                }
                return Ok(Flow::Return(v, stmt.span));
            }
            StmtKind::If {
                condition,
                then,
                otherwise,
            } => {
                let c = self.expr(condition)?;
                let Value::Bool(c) = c else {
                    return err(
                        format!("an if condition must be bool, got {}", c.ty()),
                        condition.span,
                    );
                };
                let branch = if c { Some(then) } else { otherwise.as_ref() };
                if let Some(branch) = branch {
                    return self.scoped(|ev| ev.exec(branch));
                }
            }
            StmtKind::For {
                var,
                iterable,
                body,
            } => {
                let it = self.expr(iterable)?;
                let Value::Array(array) = it else {
                    return err(
                        format!("for … in needs an array, got {}", it.ty()),
                        iterable.span,
                    );
                };
                let (elem, items) = {
                    let a = array.borrow();
                    (a.elem, a.items.clone())
                };
                for item in items {
                    let flow = self.scoped(|ev| {
                        ev.declare(var, Ty::Base(elem), item, Kind::Variable)?;
                        ev.exec(body)
                    })?;
                    if let Flow::Return(v, s) = flow {
                        return Ok(Flow::Return(v, s));
                    }
                }
            }
            StmtKind::Block(stmts) => return self.scoped(|ev| ev.exec_block(stmts)),
        }
        Ok(Flow::Normal)
    }

    fn simulation(&mut self, span: Span, message: &str) -> R<()> {
        if self.stop_at_simulation {
            self.warnings.push(Diagnostic::warning(
                "evaluation stopped at this simulation statement (--stop-at-simulation); \
                 the globals keep the values they had here",
                span,
            ));
            return Err(Halt::Stopped);
        }
        err(message, span)
    }

    fn assign(&mut self, target: &'p Expr, value: &'p Expr) -> R<()> {
        match &target.kind {
            ExprKind::Var(name) => {
                let v = self.expr(value)?;
                let Some(var) = self.lookup_mut(name) else {
                    let name = Name {
                        text: name.clone(),
                        span: target.span,
                    };
                    return Err(self.unknown(&name));
                };
                match var.kind {
                    Kind::Strat => {
                        return err(
                            format!("{name} is a strat constant and cannot be assigned"),
                            target.span,
                        )
                    }
                    Kind::Label => {
                        return err(
                            format!("{name} is a state label and cannot be assigned"),
                            target.span,
                        )
                    }
                    Kind::Variable => {}
                }
                if v.ty() != var.ty {
                    let ty = var.ty;
                    return err(
                        format!("cannot assign {} to {name}, which is {ty}", v.ty()),
                        value.span,
                    );
                }
                var.value = v;
                Ok(())
            }
            ExprKind::Index(array, index) => {
                let a = self.expr(array)?;
                let Value::Array(a) = a else {
                    return err(
                        format!("only arrays can be indexed, not {}", a.ty()),
                        array.span,
                    );
                };
                let i = self.index(index, a.borrow().items.len())?;
                let v = self.expr(value)?;
                let elem = a.borrow().elem;
                if v.ty() != Ty::Base(elem) {
                    return err(
                        format!(
                            "cannot assign {} to an element of a {}[] array",
                            v.ty(),
                            base_name(elem)
                        ),
                        value.span,
                    );
                }
                a.borrow_mut().items[i] = v;
                Ok(())
            }
            ExprKind::Field(_, name) | ExprKind::Method { name, .. } => err(
                format!(
                    "attribute {} is read-only and cannot be assigned",
                    name.text
                ),
                target.span,
            ),
            _ => err(
                "only variables and array elements can be assigned",
                target.span,
            ),
        }
    }

    // ---- expressions -----------------------------------------------------------

    fn expr(&mut self, e: &'p Expr) -> R<Value> {
        self.tick(e.span)?;
        match &e.kind {
            ExprKind::Int(v) => Ok(Value::Int(*v)),
            ExprKind::Float(v) => Ok(Value::Float(*v)),
            ExprKind::Str(s) => Ok(Value::Str(s.as_str().into())),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Rand => {
                if !self.rand_warned {
                    self.rand_warned = true;
                    self.warnings.push(Diagnostic::warning(
                        "rand makes the result depend on the seed (--seed, default 0)",
                        e.span,
                    ));
                }
                Ok(Value::Float(self.next_rand()))
            }
            ExprKind::Var(name) => match self.lookup(name) {
                Some(var) => Ok(var.value.clone()),
                None => Err(self.unknown(&Name {
                    text: name.clone(),
                    span: e.span,
                })),
            },
            ExprKind::Call { name, args } => self.call(name, args, e.span),
            ExprKind::Index(array, index) => {
                let a = self.expr(array)?;
                match a {
                    Value::Array(a) => {
                        let len = a.borrow().items.len();
                        let i = self.index(index, len)?;
                        let v = a.borrow().items[i].clone();
                        Ok(v)
                    }
                    Value::Str(_) => err("strings cannot be indexed", array.span),
                    other => err(
                        format!("only arrays can be indexed, not {}", other.ty()),
                        array.span,
                    ),
                }
            }
            ExprKind::Field(target, name) => {
                let t = self.expr(target)?;
                self.attribute(t, name, None, e.span)
            }
            ExprKind::Method { target, name, args } => {
                let t = self.expr(target)?;
                self.attribute(t, name, Some(args), e.span)
            }
            ExprKind::Range(a, b) => {
                let lo = self.int(a, "a range bound")?;
                let hi = self.int(b, "a range bound")?;
                let len = if hi > lo {
                    (hi as i128 - lo as i128) as u128
                } else {
                    0
                };
                if len > MAX_ARRAY as u128 {
                    return err(
                        format!("range of {len} elements exceeds the limit of {MAX_ARRAY}"),
                        e.span,
                    );
                }
                self.allocate(len as usize, e.span)?;
                let items = (lo..hi.max(lo)).map(Value::Int).collect();
                Ok(new_array(Base::Int, items))
            }
            ExprKind::Construct { base, params } => self.construct(*base, params, e.span),
            ExprKind::Unary(op, operand) => {
                let v = self.expr(operand)?;
                match (op, v) {
                    (UnaryOp::Neg, Value::Int(i)) => match i.checked_neg() {
                        Some(n) => Ok(Value::Int(n)),
                        None => err("integer overflow in unary -", e.span),
                    },
                    (UnaryOp::Neg, Value::Float(f)) => Ok(Value::Float(-f)),
                    (UnaryOp::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
                    (UnaryOp::Neg, v) => err(
                        format!("unary \"-\" needs an int or float operand, got {}", v.ty()),
                        operand.span,
                    ),
                    (UnaryOp::Not, v) => err(
                        format!("\"!\" needs a bool operand, got {}", v.ty()),
                        operand.span,
                    ),
                }
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, e.span),
        }
    }

    /// SplitMix64 (§3.3).
    fn next_rand(&mut self) -> f64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    fn int(&mut self, e: &'p Expr, what: &str) -> R<i64> {
        match self.expr(e)? {
            Value::Int(v) => Ok(v),
            v => err(format!("{what} must be int, got {}", v.ty()), e.span),
        }
    }

    fn index(&mut self, e: &'p Expr, len: usize) -> R<usize> {
        let i = self.int(e, "an index")?;
        if i < 0 || i as u64 >= len as u64 {
            return err(
                format!("index {i} out of bounds for an array of length {len}"),
                e.span,
            );
        }
        Ok(i as usize)
    }

    fn binary(&mut self, op: BinaryOp, l: &'p Expr, r: &'p Expr, span: Span) -> R<Value> {
        use BinaryOp::*;
        if matches!(op, And | Or) {
            let a = self.expr(l)?;
            let Value::Bool(a) = a else {
                return err(
                    format!("\"{}\" needs bool operands, got {}", op.symbol(), a.ty()),
                    l.span,
                );
            };
            // Short-circuit (⟨A25⟩).
            if (op == And && !a) || (op == Or && a) {
                return Ok(Value::Bool(a));
            }
            let b = self.expr(r)?;
            return match b {
                Value::Bool(b) => Ok(Value::Bool(b)),
                b => err(
                    format!("\"{}\" needs bool operands, got {}", op.symbol(), b.ty()),
                    r.span,
                ),
            };
        }
        let a = self.expr(l)?;
        let b = self.expr(r)?;
        let sym = op.symbol();
        match op {
            Eq | Ne => {
                let equal = match (&a, &b) {
                    (Value::Bool(x), Value::Bool(y)) => x == y,
                    (Value::Str(x), Value::Str(y)) => x == y,
                    (Value::Int(x), Value::Int(y)) => x == y,
                    _ => match (number(&a), number(&b)) {
                        (Some(x), Some(y)) => x == y,
                        _ => {
                            let what = if is_object(&a) || is_object(&b) {
                                " (objects cannot be compared)"
                            } else {
                                ""
                            };
                            return err(
                                format!(
                                    "\"{sym}\" cannot compare {} with {}{what}",
                                    a.ty(),
                                    b.ty()
                                ),
                                span,
                            );
                        }
                    },
                };
                Ok(Value::Bool(equal == (op == Eq)))
            }
            Lt | Le | Gt | Ge => {
                let ordering = match (&a, &b) {
                    (Value::Int(x), Value::Int(y)) => x.partial_cmp(y),
                    _ => match (number(&a), number(&b)) {
                        (Some(x), Some(y)) => x.partial_cmp(&y),
                        _ => {
                            return err(
                                format!(
                                    "\"{sym}\" needs int or float operands, got {} and {}",
                                    a.ty(),
                                    b.ty()
                                ),
                                span,
                            )
                        }
                    },
                };
                use std::cmp::Ordering::*;
                let v = match (op, ordering) {
                    (_, None) => false, // NaN
                    (Lt, Some(o)) => o == Less,
                    (Le, Some(o)) => o != Greater,
                    (Gt, Some(o)) => o == Greater,
                    (_, Some(o)) => o != Less,
                };
                Ok(Value::Bool(v))
            }
            Add | Sub | Mul | Div => match (&a, &b) {
                (Value::Int(x), Value::Int(y)) => {
                    let (x, y) = (*x, *y);
                    if op == Div && y == 0 {
                        return err("division by zero", span);
                    }
                    let v = match op {
                        Add => x.checked_add(y),
                        Sub => x.checked_sub(y),
                        Mul => x.checked_mul(y),
                        _ => x.checked_div(y),
                    };
                    match v {
                        Some(v) => Ok(Value::Int(v)),
                        None => err(format!("integer overflow in \"{sym}\""), span),
                    }
                }
                _ => match (number(&a), number(&b)) {
                    (Some(x), Some(y)) => Ok(Value::Float(match op {
                        Add => x + y,
                        Sub => x - y,
                        Mul => x * y,
                        _ => x / y,
                    })),
                    _ => {
                        let bad = if number(&a).is_none() { &a } else { &b };
                        err(
                            format!("\"{sym}\" needs int or float operands, got {}", bad.ty()),
                            span,
                        )
                    }
                },
            },
            And | Or => unreachable_bool(span),
        }
    }

    // ---- calls -----------------------------------------------------------------

    fn args(&mut self, args: &'p [Param], what: &str) -> R<Vec<(Value, Span)>> {
        let mut out = Vec::new();
        for a in args {
            match a {
                Param::Expr(e) => out.push((self.expr(e)?, e.span)),
                Param::States(_, span) | Param::Outcomes(_, span) => {
                    return err(
                        format!("a block is not an argument of {what}; blocks are only allowed as the last parameter of Strategy[…]/Game[…] or in .change(…)"),
                        *span,
                    )
                }
            }
        }
        Ok(out)
    }

    fn call(&mut self, name: &'p Name, args: &'p [Param], span: Span) -> R<Value> {
        let values = self.args(args, &name.text)?;
        let arity = |n: usize| -> R<()> {
            if values.len() != n {
                return err(
                    format!(
                        "{} takes {n} argument{}, got {}",
                        name.text,
                        if n == 1 { "" } else { "s" },
                        values.len()
                    ),
                    span,
                );
            }
            Ok(())
        };
        match name.text.as_str() {
            "print" | "println" => {
                arity(1)?;
                let (v, s) = &values[0];
                if v.ty() == Ty::Void {
                    return err("print needs a value, got void", *s);
                }
                self.output.push_str(&v.show());
                if name.text == "println" {
                    self.output.push('\n');
                }
                return Ok(Value::Void);
            }
            "tofloat" => {
                arity(1)?;
                return match &values[0] {
                    (Value::Int(i), _) => Ok(Value::Float(*i as f64)),
                    (v, s) => err(format!("tofloat needs an int, got {}", v.ty()), *s),
                };
            }
            "toint" => {
                arity(1)?;
                return match &values[0] {
                    (Value::Float(f), s) => {
                        let floor = f.floor();
                        if !floor.is_finite() || floor < -(2f64.powi(63)) || floor >= 2f64.powi(63)
                        {
                            return err(format!("toint({f}) has no int value"), *s);
                        }
                        Ok(Value::Int(floor as i64))
                    }
                    (v, s) => err(format!("toint needs a float, got {}", v.ty()), *s),
                };
            }
            _ => {}
        }
        let Some(&f) = self.functions.get(name.text.as_str()) else {
            return err(format!("unknown function {}", name.text), name.span);
        };
        arity(f.params.len())?;
        for ((ty, pname), (v, s)) in f.params.iter().zip(&values) {
            if v.ty() != Ty::of(ty) {
                return err(
                    format!(
                        "argument {} of {} must be {}, got {}",
                        pname.text,
                        name.text,
                        Ty::of(ty),
                        v.ty()
                    ),
                    *s,
                );
            }
        }
        if self.depth >= MAX_CALL_DEPTH {
            return err(
                format!("call depth exceeded {MAX_CALL_DEPTH} (infinite recursion?)"),
                span,
            );
        }
        // A fresh frame: parameters, then the body's own scopes.
        let saved_locals = std::mem::take(&mut self.locals);
        let saved_start = self.function_start.replace(f.span.start);
        self.depth += 1;
        let mut params = Scope::new();
        for ((ty, pname), (v, _)) in f.params.iter().zip(values) {
            params.insert(
                pname.text.clone(),
                Var {
                    value: v,
                    ty: Ty::of(ty),
                    kind: Kind::Variable,
                    span: pname.span,
                },
            );
        }
        self.locals.push(params);
        let result = self.scoped(|ev| ev.exec_block(&f.body));
        self.depth -= 1;
        self.locals = saved_locals;
        self.function_start = saved_start;
        let expected = f.returns.map_or(Ty::Void, |t| Ty::of(&t));
        match result? {
            Flow::Return(v, s) => {
                if v.ty() != expected {
                    return err(
                        format!(
                            "{} returns {expected}, but this return gives {}",
                            name.text,
                            v.ty()
                        ),
                        s,
                    );
                }
                Ok(v)
            }
            Flow::Normal if expected == Ty::Void => Ok(Value::Void),
            Flow::Normal => err(
                format!(
                    "function {} must end with return (it returns {expected})",
                    name.text
                ),
                f.name.span,
            ),
        }
    }

    // ---- attributes (§3.5) -------------------------------------------------------

    fn attribute(
        &mut self,
        target: Value,
        name: &'p Name,
        args: Option<&'p Vec<Param>>,
        span: Span,
    ) -> R<Value> {
        let attr = name.text.as_str();
        let ty = target.ty();
        // Which attributes are methods (with parentheses) per type.
        let method = match (&target, attr) {
            (_, "string") => true,
            (Value::Strategy(_), "inacc" | "change") => true,
            (Value::Game(_), "payoff" | "change") => true,
            (Value::Player(_), "reset") => true,
            (Value::Str(_) | Value::Array(_), "len") => false,
            (Value::Strategy(_), "size" | "moves" | "term") => false,
            (Value::Game(_), "players" | "moves") => false,
            (
                Value::Player(_),
                "strategy" | "state" | "rounds" | "delta" | "output" | "input" | "payoff",
            ) => false,
            _ => return err(format!("{ty} has no attribute {attr}"), name.span),
        };
        match (method, args) {
            (true, None) => {
                let hint = match (&target, attr) {
                    (Value::Game(_), "payoff") => ": payoff(player, profile)".to_string(),
                    (Value::Game(_), "change") => ": change(profile, payoffs)".to_string(),
                    (Value::Strategy(_), "change") => ": change(state, { label: … })".to_string(),
                    _ => format!(": write {attr}()"),
                };
                return err(
                    format!("{attr} of a {ty} is a method and takes arguments{hint}"),
                    name.span,
                );
            }
            (false, Some(_)) => {
                return err(
                    format!("{attr} of a {ty} is a field: write .{attr} without parentheses"),
                    name.span,
                )
            }
            _ => {}
        }
        if attr == "string" {
            self.expect_args(args, 0, attr, span)?;
            return Ok(Value::Str(target.show().into()));
        }
        match target {
            Value::Str(s) => Ok(Value::Int(s.chars().count() as i64)),
            Value::Array(a) => Ok(Value::Int(a.borrow().items.len() as i64)),
            Value::Game(g) => {
                let g = non_null(g, "Game", span)?;
                match attr {
                    "players" => Ok(Value::Int(g.borrow().players as i64)),
                    "moves" => Ok(Value::Int(g.borrow().moves as i64)),
                    "payoff" => {
                        let args = args.expect("method");
                        let values = self.args(args, "payoff")?;
                        self.count(&values, 2, "payoff", span)?;
                        let seat = as_int(&values[0], "the player of payoff")?;
                        let g = g.borrow();
                        if seat < 0 || seat as u64 >= g.players as u64 {
                            return err(
                                format!(
                                    "player {seat} is not a seat of a {}-player game",
                                    g.players
                                ),
                                values[0].1,
                            );
                        }
                        let p = profile_index(&values[1], &g)?;
                        Ok(Value::Int(g.payoffs[p][seat as usize]))
                    }
                    _ => {
                        let args = args.expect("method");
                        let values = self.args(args, "change")?;
                        self.count(&values, 2, "change", span)?;
                        let p = profile_index(&values[0], &g.borrow())?;
                        let pays = int_array(&values[1], "the payoffs of change")?;
                        let n = g.borrow().players;
                        if pays.len() != n {
                            return err(
                                format!("change needs {n} payoffs, got {}", pays.len()),
                                values[1].1,
                            );
                        }
                        g.borrow_mut().payoffs[p] = pays;
                        Ok(Value::Void)
                    }
                }
            }
            Value::Strategy(s) => {
                let s = non_null(s, "Strategy", span)?;
                match attr {
                    "size" => Ok(Value::Int(s.borrow().size() as i64)),
                    "moves" => Ok(Value::Int(s.borrow().moves as i64)),
                    "term" => {
                        let s = s.borrow();
                        let absorbing = (0..s.size())
                            .filter(|&q| (0..s.tuples()).all(|t| s.successor(q, t) == q))
                            .count();
                        Ok(Value::Int(absorbing as i64))
                    }
                    "inacc" => {
                        self.expect_args(args, 0, attr, span)?;
                        let s = s.borrow();
                        let mut seen = vec![false; s.size()];
                        let mut stack = vec![0];
                        seen[0] = true;
                        while let Some(q) = stack.pop() {
                            for t in 0..s.tuples() {
                                let next = s.successor(q, t);
                                if !seen[next] {
                                    seen[next] = true;
                                    stack.push(next);
                                }
                            }
                        }
                        Ok(Value::Int(seen.iter().filter(|x| !**x).count() as i64))
                    }
                    _ => self.change_state(&s, args.expect("method"), span),
                }
            }
            Value::Player(p) => {
                let p = non_null(p, "Player", span)?;
                let p = p.borrow();
                // No round is ever played at translation time (§5.3).
                Ok(match attr {
                    "strategy" => Value::Strategy(Some(p.strategy.clone())),
                    "state" | "rounds" => Value::Int(0),
                    "delta" => Value::Float(p.delta),
                    "output" => Value::Float(p.output),
                    "input" => Value::Float(p.input),
                    "payoff" => Value::Float(0.0),
                    _ => {
                        self.expect_args(args, 0, attr, span)?;
                        Value::Void
                    }
                })
            }
            _ => err(format!("{ty} has no attribute {attr}"), name.span),
        }
    }

    fn expect_args(
        &mut self,
        args: Option<&Vec<Param>>,
        n: usize,
        what: &str,
        span: Span,
    ) -> R<()> {
        let got = args.map_or(0, Vec::len);
        if got != n {
            return err(format!("{what} takes {n} arguments, got {got}"), span);
        }
        Ok(())
    }

    fn count(&self, values: &[(Value, Span)], n: usize, what: &str, span: Span) -> R<()> {
        if values.len() != n {
            return err(
                format!("{what} takes {n} arguments, got {}", values.len()),
                span,
            );
        }
        Ok(())
    }

    /// `s.change(i, { label: out, transitions })` (§3.5).
    fn change_state(&mut self, s: &Shared<StrategyVal>, args: &'p [Param], span: Span) -> R<Value> {
        let [Param::Expr(index), Param::States(states, block_span)] = args else {
            return err(
                "change of a Strategy takes a state number and a one-state block: change(i, { label: … })",
                span,
            );
        };
        let i = self.int(index, "the state of change")?;
        let size = s.borrow().size();
        if i < 0 || i as u64 >= size as u64 {
            return err(
                format!("state {i} is not a state of a {size}-state strategy"),
                index.span,
            );
        }
        let i = i as usize;
        let [state] = states.as_slice() else {
            return err("change replaces one state: give exactly one", *block_span);
        };
        let mut names = s.borrow().names.clone();
        if let Some(other) = names
            .iter()
            .position(|n| n.as_deref() == Some(state.label.text.as_str()))
        {
            if other != i {
                return err(
                    format!(
                        "{} already names state {other} of this strategy",
                        state.label.text
                    ),
                    state.label.span,
                );
            }
        }
        names[i] = Some(state.label.text.clone());
        let moves = s.borrow().moves;
        let (output, table, arity) = self.scoped(|ev| {
            ev.declare_labels(&names)?;
            let output = ev.state_output(state, moves)?;
            let (table, arity) = ev.transitions(state, i, &names, moves, span)?;
            Ok((output, table, arity))
        })?;
        let mut st = s.borrow_mut();
        if let Some(n) = arity {
            match st.arity {
                Some(a) if a != n => {
                    return err(
                        format!("these transitions have {n} entries, the strategy's have {a}"),
                        state.transitions[0].span,
                    )
                }
                Some(_) => {}
                None => {
                    let tuples = checked_tuples(moves, n, st.size(), span)?;
                    st.next = (0..st.size()).map(|q| vec![q; tuples]).collect();
                    st.arity = Some(n);
                }
            }
        }
        st.outputs[i] = output;
        st.names = names;
        if st.arity.is_some() {
            let tuples = st.tuples();
            st.next[i] = table.unwrap_or_else(|| vec![i; tuples]);
        }
        Ok(Value::Void)
    }

    // ---- constructors (§3.4) --------------------------------------------------------

    fn construct(&mut self, base: Base, params: &'p [Param], span: Span) -> R<Value> {
        // `T[k]` with one int parameter is an array for every base.
        if let [Param::Expr(e)] = params {
            let v = self.expr(e)?;
            if let Value::Int(k) = v {
                if k < 0 {
                    return err(format!("array length {k} is negative"), e.span);
                }
                if k as u64 > MAX_ARRAY as u64 {
                    return err(
                        format!("array of {k} elements exceeds the limit of {MAX_ARRAY}"),
                        e.span,
                    );
                }
                self.allocate(k as usize, e.span)?;
                let items = vec![Value::default_of(Ty::Base(base)); k as usize];
                return Ok(new_array(base, items));
            }
            if base == Base::Player {
                return self.player(&[(v, e.span)], span);
            }
            return err(
                format!(
                    "{}[…] with one parameter is an array and needs an int length, got {}",
                    base_name(base),
                    v.ty()
                ),
                e.span,
            );
        }
        match base {
            Base::Game => self.game(params, span),
            Base::Strategy => self.strategy(params, span),
            Base::Player => {
                let values = self.args(params, "Player[…]")?;
                self.player(&values, span)
            }
            _ => err(
                format!(
                    "{}[…] takes one int parameter (an array length)",
                    base_name(base)
                ),
                span,
            ),
        }
    }

    fn game(&mut self, params: &'p [Param], span: Span) -> R<Value> {
        let [Param::Expr(m), Param::Outcomes(outcomes, _)] = params else {
            return err(
                "a Game is written Game[moves | { (patterns) -> (payoffs) | … }]",
                span,
            );
        };
        let m = self.int(m, "the number of moves of a Game")?;
        if m < 1 {
            return err(
                format!("a Game needs at least 1 move, got {m}"),
                params_span(params),
            );
        }
        let m = m as usize;
        let n = outcomes[0].patterns.len();
        for o in outcomes {
            if o.patterns.len() != n {
                return err(
                    format!(
                        "this outcome has {} patterns, the first has {n}",
                        o.patterns.len()
                    ),
                    o.span,
                );
            }
            if o.payoffs.len() != n {
                return err(
                    format!(
                        "this outcome has {} payoffs for {n} players",
                        o.payoffs.len()
                    ),
                    o.span,
                );
            }
        }
        let profiles = match pow(m, n) {
            Some(p) if p <= MAX_PROFILES => p,
            _ => {
                return err(
                    format!("{m} moves and {n} players make more than {MAX_PROFILES} profiles"),
                    span,
                )
            }
        };
        self.allocate(profiles.saturating_mul(n), span)?;
        let mut table: Vec<Option<Vec<i64>>> = vec![None; profiles];
        for o in outcomes {
            self.outcome(o, m, &mut table)?;
        }
        if let Some(first) = table.iter().position(Option::is_none) {
            let shown: Vec<String> = profile(first, m, n).iter().map(usize::to_string).collect();
            let more = table.iter().filter(|x| x.is_none()).count() - 1;
            let more = if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            };
            self.warnings.push(Diagnostic::warning(
                format!(
                    "profile ({}){more} has no outcome: it pays 0 to every player",
                    shown.join(",")
                ),
                span,
            ));
        }
        let payoffs = table
            .into_iter()
            .map(|p| p.unwrap_or_else(|| vec![0; n]))
            .collect();
        Ok(Value::Game(Some(Rc::new(RefCell::new(GameVal {
            moves: m,
            players: n,
            payoffs,
        })))))
    }

    /// A constant pattern's value, or `None` for `_`; binders are named
    /// in `binders` (outcomes only).
    fn pattern(
        &mut self,
        p: &'p Pattern,
        m: usize,
        binders: Option<&mut Vec<(usize, &'p Name)>>,
        seat: usize,
    ) -> R<Option<usize>> {
        let check = |v: i64, span: Span| -> R<Option<usize>> {
            if v < 0 || v as u64 >= m as u64 {
                return err(
                    format!(
                        "pattern {v} is not a move of a {m}-move game (0 … {})",
                        m - 1
                    ),
                    span,
                );
            }
            Ok(Some(v as usize))
        };
        match p {
            Pattern::Wildcard(_) => Ok(None),
            Pattern::Int(v, span) => check(*v, *span),
            Pattern::Name(name) => match self.lookup(&name.text).cloned() {
                Some(var) => match var.value {
                    Value::Int(v) => {
                        if var.kind == Kind::Variable {
                            self.warnings.push(Diagnostic::warning(
                                format!(
                                    "{} is an int variable used as a constant pattern; \
                                     a binder needs an undeclared name",
                                    name.text
                                ),
                                name.span,
                            ));
                        }
                        check(v, name.span)
                    }
                    v => err(
                        format!(
                            "{} is {} and cannot be a pattern (patterns are moves)",
                            name.text,
                            v.ty()
                        ),
                        name.span,
                    ),
                },
                None => match binders {
                    Some(binders) => {
                        if binders.iter().any(|(_, b)| b.text == name.text) {
                            return err(
                                format!("{} is bound twice in this pattern", name.text),
                                name.span,
                            );
                        }
                        binders.push((seat, name));
                        Ok(None)
                    }
                    None => err(
                        format!(
                            "unknown name {} in a transition (binders are only allowed in outcomes)",
                            name.text
                        ),
                        name.span,
                    ),
                },
            },
        }
    }

    fn outcome(&mut self, o: &'p Outcome, m: usize, table: &mut [Option<Vec<i64>>]) -> R<()> {
        let n = o.patterns.len();
        let mut constants = Vec::with_capacity(n);
        let mut binders = Vec::new();
        for (seat, p) in o.patterns.iter().enumerate() {
            constants.push(self.pattern(p, m, Some(&mut binders), seat)?);
        }
        for (index, slot) in table.iter_mut().enumerate() {
            let prof = profile(index, m, n);
            if !constants
                .iter()
                .zip(&prof)
                .all(|(c, a)| c.is_none_or(|c| c == *a))
            {
                continue;
            }
            let pays = self.scoped(|ev| {
                for (seat, name) in &binders {
                    let v = Value::Int(prof[*seat] as i64);
                    ev.declare(name, Ty::Base(Base::Int), v, Kind::Variable)?;
                }
                let mut pays = Vec::with_capacity(n);
                for e in &o.payoffs {
                    match ev.expr(e)? {
                        Value::Int(v) => pays.push(v),
                        v => {
                            let hint = if v.ty() == Ty::Base(Base::Float) {
                                " (use toint)"
                            } else {
                                ""
                            };
                            return err(
                                format!("payoffs must be int, got {}{hint}", v.ty()),
                                e.span,
                            );
                        }
                    }
                }
                Ok(pays)
            })?;
            *slot = Some(pays);
        }
        Ok(())
    }

    fn strategy(&mut self, params: &'p [Param], span: Span) -> R<Value> {
        let [Param::Expr(size_e), Param::Expr(moves_e), Param::States(states, _)] = params else {
            return err(
                "a Strategy is written Strategy[states | moves | { label: output, (…) -> label | …; … }]",
                span,
            );
        };
        let size = self.int(size_e, "the number of states of a Strategy")?;
        let moves = self.int(moves_e, "the number of moves of a Strategy")?;
        let k = states.len();
        if size < (k.max(1)) as i64 {
            return err(
                format!(
                    "a Strategy with {k} listed states needs at least {} states, got {size}",
                    k.max(1)
                ),
                size_e.span,
            );
        }
        if moves < 1 {
            return err(
                format!("a Strategy needs at least 1 move, got {moves}"),
                moves_e.span,
            );
        }
        let (size, moves) = (size as usize, moves as usize);
        if size > MAX_TRANSITIONS {
            return err(
                format!("{size} states exceed the limit of {MAX_TRANSITIONS}"),
                size_e.span,
            );
        }
        let mut names: Vec<Option<String>> = vec![None; size];
        for (i, st) in states.iter().enumerate() {
            if let Some(j) = names[..i]
                .iter()
                .position(|n| n.as_deref() == Some(st.label.text.as_str()))
            {
                return err(
                    format!(
                        "state label {} is already used (at {})",
                        st.label.text,
                        self.at(states[j].label.span)
                    ),
                    st.label.span,
                );
            }
            names[i] = Some(st.label.text.clone());
        }
        let built = self.scoped(|ev| {
            for st in states {
                if ev.lookup(&st.label.text).is_some() {
                    ev.warnings.push(Diagnostic::warning(
                        format!(
                            "state label {} shadows another name inside this strategy",
                            st.label.text
                        ),
                        st.label.span,
                    ));
                }
            }
            ev.declare_labels(&names)?;
            let mut outputs = vec![0; size];
            let mut tables = Vec::new();
            let mut arity: Option<(usize, Span)> = None;
            for (i, st) in states.iter().enumerate() {
                outputs[i] = ev.state_output(st, moves)?;
                let (table, n) = ev.transitions(st, i, &names, moves, span)?;
                if let (Some(n), Some(first)) = (n, st.transitions.first()) {
                    match arity {
                        Some((a, _)) if a != n => {
                            return err(
                                format!(
                                    "these transitions have {n} entries, earlier ones have {a}"
                                ),
                                first.span,
                            )
                        }
                        _ => arity = Some((n, first.span)),
                    }
                }
                tables.push(table);
            }
            Ok((outputs, tables, arity.map(|(a, _)| a)))
        })?;
        let (outputs, tables, arity) = built;
        let next = match arity {
            None => Vec::new(),
            Some(n) => {
                let tuples = checked_tuples(moves, n, size, span)?;
                (0..size)
                    .map(|q| match tables.get(q) {
                        Some(Some(t)) => t.clone(),
                        _ => vec![q; tuples],
                    })
                    .collect()
            }
        };
        // Each table is within MAX_TRANSITIONS; count it against the total.
        self.allocate(next.iter().map(Vec::len).sum::<usize>() + size, span)?;
        Ok(Value::Strategy(Some(Rc::new(RefCell::new(StrategyVal {
            moves,
            arity,
            outputs,
            next,
            names,
        })))))
    }

    /// Declares the labels of a strategy as int constants (state numbers).
    fn declare_labels(&mut self, names: &[Option<String>]) -> R<()> {
        for (i, n) in names.iter().enumerate() {
            if let Some(n) = n {
                let scope = self.locals.last_mut().expect("a label scope");
                scope.insert(
                    n.clone(),
                    Var {
                        value: Value::Int(i as i64),
                        ty: Ty::Base(Base::Int),
                        kind: Kind::Label,
                        span: Span::default(),
                    },
                );
            }
        }
        Ok(())
    }

    fn state_output(&mut self, st: &'p StateDef, moves: usize) -> R<usize> {
        match self.expr(&st.output)? {
            Value::Int(v) if v >= 0 && (v as u64) < moves as u64 => Ok(v as usize),
            Value::Int(v) => err(
                format!("state output {v} is not a move of a {moves}-move strategy"),
                st.output.span,
            ),
            v => err(
                format!("state outputs must be int, got {}", v.ty()),
                st.output.span,
            ),
        }
    }

    /// The transition table of state `index` (`None` without transitions)
    /// and its arity.
    #[allow(clippy::type_complexity)]
    fn transitions(
        &mut self,
        st: &'p StateDef,
        index: usize,
        names: &[Option<String>],
        moves: usize,
        span: Span,
    ) -> R<(Option<Vec<usize>>, Option<usize>)> {
        let Some(first) = st.transitions.first() else {
            return Ok((None, None));
        };
        let n = first.patterns.len();
        let tuples = checked_tuples(moves, n, 1, span)?;
        let mut table = vec![index; tuples];
        for t in &st.transitions {
            if t.patterns.len() != n {
                return err(
                    format!(
                        "this transition has {} entries, the first of its state has {n}",
                        t.patterns.len()
                    ),
                    t.span,
                );
            }
            let Some(target) = names
                .iter()
                .position(|x| x.as_deref() == Some(t.target.text.as_str()))
            else {
                return err(
                    format!(
                        "unknown state \"{}\" in a transition of this strategy",
                        t.target.text
                    ),
                    t.target.span,
                );
            };
            let mut constants = Vec::with_capacity(n);
            for (seat, p) in t.patterns.iter().enumerate() {
                constants.push(self.pattern(p, moves, None, seat)?);
            }
            for (i, slot) in table.iter_mut().enumerate() {
                let tuple = profile(i, moves, n);
                if constants
                    .iter()
                    .zip(&tuple)
                    .all(|(c, a)| c.is_none_or(|c| c == *a))
                {
                    *slot = target;
                }
            }
        }
        Ok((Some(table), Some(n)))
    }

    fn player(&mut self, values: &[(Value, Span)], span: Span) -> R<Value> {
        if values.is_empty() || values.len() > 4 {
            return err(
                "a Player is written Player[strategy | delta | output noise | input noise] (the last three optional)",
                span,
            );
        }
        let (s, s_span) = &values[0];
        let Value::Strategy(s) = s else {
            return err(
                format!("Player parameter 1 must be a Strategy, got {}", s.ty()),
                *s_span,
            );
        };
        let s = non_null(s.clone(), "Strategy", *s_span)?;
        let mut floats = [1.0, 0.0, 0.0];
        for (i, (v, vspan)) in values.iter().enumerate().skip(1) {
            match v {
                Value::Float(f) => floats[i - 1] = *f,
                Value::Int(k) => {
                    return err(
                        format!(
                            "Player parameter {} must be float, got int (write {k}.0)",
                            i + 1
                        ),
                        *vspan,
                    )
                }
                v => {
                    return err(
                        format!("Player parameter {} must be float, got {}", i + 1, v.ty()),
                        *vspan,
                    )
                }
            }
        }
        let entries = s.borrow().next.len() * s.borrow().tuples() + s.borrow().size();
        self.allocate(entries, span)?;
        let copy = s.borrow().clone();
        Ok(Value::Player(Some(Rc::new(RefCell::new(PlayerVal {
            strategy: Rc::new(RefCell::new(copy)),
            delta: floats[0],
            output: floats[1],
            input: floats[2],
        })))))
    }
}

fn unreachable_bool<T>(span: Span) -> R<T> {
    err("internal: logic operator in arithmetic", span)
}

fn new_array(elem: Base, items: Vec<Value>) -> Value {
    Value::Array(Rc::new(RefCell::new(Array { elem, items })))
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

fn is_object(v: &Value) -> bool {
    matches!(
        v,
        Value::Array(_) | Value::Game(_) | Value::Strategy(_) | Value::Player(_)
    )
}

fn non_null<T>(v: Option<Shared<T>>, what: &str, span: Span) -> R<Shared<T>> {
    v.ok_or_else(|| {
        Halt::Error(Diagnostic::error(
            format!("this {what} is null (declared without a value)"),
            span,
        ))
    })
}

fn as_int((v, span): &(Value, Span), what: &str) -> R<i64> {
    match v {
        Value::Int(i) => Ok(*i),
        v => err(format!("{what} must be int, got {}", v.ty()), *span),
    }
}

fn int_array((v, span): &(Value, Span), what: &str) -> R<Vec<i64>> {
    let Value::Array(a) = v else {
        return err(format!("{what} must be int[], got {}", v.ty()), *span);
    };
    let a = a.borrow();
    if a.elem != Base::Int {
        return err(format!("{what} must be int[], got {}", v.ty()), *span);
    }
    Ok(a.items
        .iter()
        .map(|x| match x {
            Value::Int(i) => *i,
            _ => 0,
        })
        .collect())
}

/// The number of a profile given as an `int[]` of moves.
fn profile_index(arg: &(Value, Span), g: &GameVal) -> R<usize> {
    let moves = int_array(arg, "a profile")?;
    if moves.len() != g.players {
        return err(
            format!(
                "a profile of this game has {} moves, got {}",
                g.players,
                moves.len()
            ),
            arg.1,
        );
    }
    let mut index = 0;
    for &a in &moves {
        if a < 0 || a as u64 >= g.moves as u64 {
            return err(
                format!("move {a} is not a move of a {}-move game", g.moves),
                arg.1,
            );
        }
        index = index * g.moves + a as usize;
    }
    Ok(index)
}

/// m^n tuples for each of `states` states, within the table limit.
fn checked_tuples(moves: usize, n: usize, states: usize, span: Span) -> R<usize> {
    match pow(moves, n).and_then(|t| t.checked_mul(states).map(|all| (t, all))) {
        Some((t, all)) if all <= MAX_TRANSITIONS => Ok(t),
        _ => err(
            format!(
                "the transition table ({states} states × {moves}^{n} tuples) exceeds {MAX_TRANSITIONS} entries"
            ),
            span,
        ),
    }
}

fn params_span(params: &[Param]) -> Span {
    match &params[0] {
        Param::Expr(e) => e.span,
        Param::States(_, s) | Param::Outcomes(_, s) => *s,
    }
}
