//! The interpreter's own static evaluation (hrg.md §2.4, §2.5, §3.2),
//! written from the specification as a small compiler and virtual machine.
//!
//! Every constant function is compiled once, when the game is set up, into
//! a decision list: per case, a flat list of match instructions over the
//! argument positions (each addressed by a path into the arguments) that
//! store pattern variables into numbered slots of a frame, and a body whose
//! variable references are those slot numbers. Applying a function walks
//! the list, runs the instructions of each case in turn and evaluates the
//! body of the first case whose instructions all succeed. Map literals
//! enumerate their `where` combinations with an odometer over the binding
//! columns. Everything that can only fail (an unknown name, a chained call,
//! a map access...) is compiled into a failure node that reports when, and
//! only if, evaluation reaches it.
//!
//! No function is turned into a table: the interpreter applies functions
//! on demand, at run time, to the arguments a walk actually produces
//! (memoized per argument list by the caller).

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use rg_core::ast as rg;
use rg_core::diag::{Diagnostic, Span};

use crate::ast::{BinaryOp, BindingValues, Expr, ExprKind, FunctionDecl, MapLiteral, Pattern};
use crate::eval::Domains;
use crate::value::{compare, MapValue, Value};

/// How many applications may be nested (a function that calls itself
/// forever fails instead of overflowing the stack).
const NESTING_LIMIT: usize = 200;

fn refuse<T>(message: impl Into<String>, span: Span) -> Result<T, Diagnostic> {
    Err(Diagnostic::error(message, span))
}

/// A compiled static expression.
enum Code {
    Lit(Value),
    Slot(usize),
    Build(String, Vec<Code>),
    Apply(usize, Vec<Code>, Span),
    Arith(BinaryOp, Box<[Code; 2]>, Span),
    Choose(Box<Test>, Box<[Code; 2]>),
    Table(Box<TableCode>),
    /// Evaluating this reports the message.
    Fail(String, Span),
}

/// A compiled static condition.
enum Test {
    Both(Box<[Test; 2]>),
    Either(Box<[Test; 2]>),
    /// Membership in the numbered domain (`None`: not a domain, false).
    Member(Code, Option<usize>),
    Order(Box<[Code; 2]>, fn(Ordering) -> bool, Span),
    Fail(String, Span),
}

/// A compiled map literal.
struct TableCode {
    default: Option<Code>,
    parts: Vec<Part>,
}

enum Part {
    Fail(String, Span),
    Rows {
        /// Per `where` binding: its slot and its values, in written order.
        columns: Vec<(usize, Vec<Value>)>,
        key: Code,
        key_span: Span,
        value: Code,
    },
}

/// One match instruction: what the argument found at `path` (argument
/// index, then constructor argument indices) must satisfy.
struct Step {
    path: Vec<usize>,
    test: Shape,
}

enum Shape {
    /// A constructor with this name and number of arguments.
    Built(String, usize),
    /// This very symbol.
    Sym(String),
    /// Anything; stored into the slot.
    Store(usize),
    /// Equal to what the slot holds (a variable repeated in one case).
    Again(usize),
}

struct Clause {
    steps: Vec<Step>,
    frame: usize,
    body: Code,
}

struct Function {
    name: String,
    arity: usize,
    clauses: Vec<Clause>,
}

/// The compiled constant functions, with what compiling further static
/// expressions needs: the domains (for `in D`), and the plain symbols that
/// domains contain (an unbound upper-case name that is one of them is that
/// symbol, e.g. `STOP` of `domain C = STOP | GO`).
pub(super) struct Statics {
    functions: Vec<Function>,
    function_ids: HashMap<String, usize>,
    sets: Vec<HashSet<Value>>,
    set_ids: HashMap<String, usize>,
    symbols: HashSet<String>,
}

/// Name resolution while compiling: the visible variables and their slots
/// (innermost last), and the frame size reached so far.
struct Compiler<'s> {
    statics: &'s Statics,
    visible: Vec<(String, usize)>,
    width: usize,
}

impl Compiler<'_> {
    fn fresh(&mut self, name: &str) -> usize {
        let slot = self.width;
        self.width += 1;
        self.visible.push((name.to_string(), slot));
        slot
    }

    fn lookup(&self, name: &str) -> Option<usize> {
        self.visible
            .iter()
            .rev()
            .find_map(|(n, slot)| (n == name).then_some(*slot))
    }

    fn unknown_variable(name: &str, span: Span) -> Code {
        Code::Fail(format!("Unknown variable \"{name}\"."), span)
    }

    fn code(&mut self, e: &Expr) -> Code {
        let pair = |c: &mut Self, l: &Expr, r: &Expr| Box::new([c.code(l), c.code(r)]);
        match &e.kind {
            ExprKind::Paren(inner) => self.code(inner),
            ExprKind::Name(name) => {
                if let Some(slot) = self.lookup(&name.text) {
                    Code::Slot(slot)
                } else if name.is_upper() && !self.statics.symbols.contains(&name.text) {
                    Self::unknown_variable(&name.text, name.span)
                } else {
                    Code::Lit(Value::symbol(&name.text))
                }
            }
            ExprKind::Constructor(name, args) => Code::Build(
                name.text.clone(),
                args.iter().map(|a| self.code(a)).collect(),
            ),
            ExprKind::Call(callee, args) => match &callee.kind {
                ExprKind::Name(name) => match self.statics.function_ids.get(&name.text) {
                    Some(&id) => {
                        Code::Apply(id, args.iter().map(|a| self.code(a)).collect(), e.span)
                    }
                    None => Code::Fail(format!("Unknown function \"{}\".", name.text), name.span),
                },
                _ => Code::Fail(
                    "Chained calls such as f(a)(b) cannot be evaluated statically.".into(),
                    e.span,
                ),
            },
            ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mod), l, r) => {
                Code::Arith(*op, pair(self, l, r), e.span)
            }
            ExprKind::Binary(op, ..) => Code::Fail(
                format!(
                    "A condition (\"{}\") is not a value; use if ... then ... else.",
                    op.text()
                ),
                e.span,
            ),
            ExprKind::If(c, then, otherwise) => {
                let test = self.test(c);
                Code::Choose(Box::new(test), pair(self, then, otherwise))
            }
            ExprKind::Map(map) => Code::Table(Box::new(self.table(map))),
            ExprKind::Access(..) => {
                Code::Fail("Map access cannot be evaluated statically.".into(), e.span)
            }
        }
    }

    fn test(&mut self, e: &Expr) -> Test {
        let order: Option<fn(Ordering) -> bool> = match &e.kind {
            ExprKind::Binary(op, ..) => match op {
                BinaryOp::Eq => Some(Ordering::is_eq),
                BinaryOp::Ne => Some(Ordering::is_ne),
                BinaryOp::Lt => Some(Ordering::is_lt),
                BinaryOp::Le => Some(Ordering::is_le),
                BinaryOp::Gt => Some(Ordering::is_gt),
                BinaryOp::Ge => Some(Ordering::is_ge),
                _ => None,
            },
            _ => None,
        };
        match (&e.kind, order) {
            (ExprKind::Paren(inner), _) => self.test(inner),
            (ExprKind::Binary(_, l, r), Some(holds)) => {
                Test::Order(Box::new([self.code(l), self.code(r)]), holds, e.span)
            }
            (ExprKind::Binary(BinaryOp::And, l, r), None) => {
                Test::Both(Box::new([self.test(l), self.test(r)]))
            }
            (ExprKind::Binary(BinaryOp::Or, l, r), None) => {
                Test::Either(Box::new([self.test(l), self.test(r)]))
            }
            (ExprKind::Binary(BinaryOp::In, l, r), None) => {
                let set = match &r.kind {
                    ExprKind::Name(d) => self.statics.set_ids.get(&d.text).copied(),
                    _ => None,
                };
                Test::Member(self.code(l), set)
            }
            _ => Test::Fail(
                format!(
                    "Expression \"{}\" is not a valid condition.",
                    crate::display::expr(e)
                ),
                e.span,
            ),
        }
    }

    fn table(&mut self, map: &MapLiteral) -> TableCode {
        let default = map.default.as_deref().map(|d| self.code(d));
        let parts = map.parts.iter().map(|part| {
            if let Pattern::Wildcard(span) = part.key {
                return Part::Fail(
                    "The wildcard \"_\" is only allowed in the form { _ = v } of a whole initializer."
                        .into(),
                    span,
                );
            }
            for (k, binding) in part.bindings.iter().enumerate() {
                let name = &binding.variable;
                if part.bindings[..k].iter().any(|b| b.variable.text == name.text) {
                    return Part::Fail(
                        format!("Duplicated domain value \"{}\".", name.text),
                        name.span,
                    );
                }
            }
            let depth = self.visible.len();
            let columns = part
                .bindings
                .iter()
                .map(|binding| {
                    let values = match &binding.values {
                        BindingValues::Range(lo, hi) => {
                            (*lo..=*hi).map(|n| Value::symbol(n.to_string())).collect()
                        }
                        BindingValues::List(names) => {
                            names.iter().map(|n| Value::symbol(&n.text)).collect()
                        }
                    };
                    (self.fresh(&binding.variable.text), values)
                })
                .collect();
            let key = self.key(&part.key);
            let value = self.code(&part.value);
            self.visible.truncate(depth);
            Part::Rows {
                columns,
                key,
                key_span: part.key.span(),
                value,
            }
        });
        let parts = parts.collect();
        TableCode { default, parts }
    }

    /// A map key: a pattern read as a value. Lower-case names are always
    /// symbols here; upper-case ones are variables, or domain symbols.
    fn key(&mut self, p: &Pattern) -> Code {
        match p {
            Pattern::Wildcard(span) => {
                Code::Fail("The wildcard \"_\" cannot be a map key here.".into(), *span)
            }
            Pattern::Name(name) if !name.is_upper() => Code::Lit(Value::symbol(&name.text)),
            Pattern::Name(name) => match self.lookup(&name.text) {
                Some(slot) => Code::Slot(slot),
                None if self.statics.symbols.contains(&name.text) => {
                    Code::Lit(Value::symbol(&name.text))
                }
                None => Self::unknown_variable(&name.text, name.span),
            },
            Pattern::Constructor(name, args, _) => Code::Build(
                name.text.clone(),
                args.iter().map(|a| self.key(a)).collect(),
            ),
        }
    }

    /// The match instructions of one argument's pattern, in pre-order (a
    /// constructor's shape is checked before its arguments are visited).
    fn steps(&mut self, p: &Pattern, path: &mut Vec<usize>, out: &mut Vec<Step>) {
        let test = match p {
            Pattern::Wildcard(_) => return,
            Pattern::Name(name) if name.is_upper() => match self.lookup(&name.text) {
                Some(slot) => Shape::Again(slot),
                None => Shape::Store(self.fresh(&name.text)),
            },
            Pattern::Name(name) => Shape::Sym(name.text.clone()),
            Pattern::Constructor(name, args, _) => Shape::Built(name.text.clone(), args.len()),
        };
        out.push(Step {
            path: path.clone(),
            test,
        });
        if let Pattern::Constructor(_, args, _) = p {
            for (i, arg) in args.iter().enumerate() {
                path.push(i);
                self.steps(arg, path, out);
                path.pop();
            }
        }
    }
}

/// The value found at `path` among the arguments, if there is one.
fn locate<'v>(args: &'v [Value], path: &[usize]) -> Option<&'v Value> {
    let (&first, rest) = path.split_first()?;
    let mut here = args.get(first)?;
    for &i in rest {
        let Value::Constructor(_, inner) = here else {
            return None;
        };
        here = inner.get(i)?;
    }
    Some(here)
}

impl Clause {
    /// Runs the match instructions, filling `frame`; false on a mismatch.
    fn admits(&self, args: &[Value], frame: &mut [Value]) -> bool {
        self.steps.iter().all(|step| {
            let Some(v) = locate(args, &step.path) else {
                return false;
            };
            match &step.test {
                Shape::Built(name, n) => {
                    matches!(v, Value::Constructor(c, inner) if c == name && inner.len() == *n)
                }
                Shape::Sym(s) => matches!(v, Value::Symbol(t) if t == s),
                Shape::Store(slot) => {
                    frame[*slot] = v.clone();
                    true
                }
                Shape::Again(slot) => frame[*slot] == *v,
            }
        })
    }
}

/// A symbol read as a signed 32-bit integer (§1.4).
fn as_number(v: &Value) -> Option<i64> {
    let Value::Symbol(text) = v else {
        return None;
    };
    text.parse::<i32>().ok().map(i64::from)
}

fn blank() -> Value {
    Value::Symbol(String::new())
}

impl Statics {
    /// Compiles the constant functions (already checked by the setup: one
    /// name each, every case with the same number of patterns).
    pub fn new(domains: &Domains, functions: &[&FunctionDecl]) -> Statics {
        let mut statics = Statics {
            functions: Vec::new(),
            function_ids: HashMap::new(),
            sets: Vec::new(),
            set_ids: HashMap::new(),
            symbols: HashSet::new(),
        };
        for (name, values) in &domains.values {
            statics.set_ids.insert(name.clone(), statics.sets.len());
            statics.sets.push(values.iter().cloned().collect());
            for v in values {
                if let Value::Symbol(s) = v {
                    statics.symbols.insert(s.clone());
                }
            }
        }
        for (id, f) in functions.iter().enumerate() {
            statics.function_ids.insert(f.name.text.clone(), id);
        }
        let compiled: Vec<Function> = functions.iter().map(|f| statics.compile(f)).collect();
        statics.functions = compiled;
        statics
    }

    fn compiler(&self) -> Compiler<'_> {
        Compiler {
            statics: self,
            visible: Vec::new(),
            width: 0,
        }
    }

    fn compile(&self, f: &FunctionDecl) -> Function {
        let clauses = f.cases.iter().map(|case| {
            let mut c = self.compiler();
            let mut steps = Vec::new();
            for (i, p) in case.patterns.iter().enumerate() {
                c.steps(p, &mut vec![i], &mut steps);
            }
            let body = c.code(&case.body);
            Clause {
                steps,
                frame: c.width,
                body,
            }
        });
        Function {
            name: f.name.text.clone(),
            arity: f.cases.first().map_or(0, |c| c.patterns.len()),
            clauses: clauses.collect(),
        }
    }

    /// Evaluates a static expression in which the given names are bound.
    pub fn eval_bound(&self, e: &Expr, bound: Vec<(String, Value)>) -> Result<Value, Diagnostic> {
        let mut c = self.compiler();
        let mut frame = Vec::with_capacity(bound.len());
        for (name, v) in bound {
            c.fresh(&name);
            frame.push(v);
        }
        let code = c.code(e);
        frame.resize_with(c.width, blank);
        self.run(&code, &mut frame, 0)
    }

    /// Evaluates a static expression without variables.
    pub fn eval(&self, e: &Expr) -> Result<Value, Diagnostic> {
        self.eval_bound(e, Vec::new())
    }

    /// Applies function number `f` (the order of the functions given to
    /// [`Statics::new`]) to one argument per pattern (§2.5).
    pub fn apply(&self, f: usize, args: &[Value], span: Span) -> Result<Value, Diagnostic> {
        self.call(f, args, span, 1)
    }

    fn call(
        &self,
        f: usize,
        args: &[Value],
        span: Span,
        nesting: usize,
    ) -> Result<Value, Diagnostic> {
        let func = &self.functions[f];
        if nesting > NESTING_LIMIT {
            return refuse(
                format!("Function \"{}\" calls itself without end.", func.name),
                span,
            );
        }
        if func.arity != args.len() {
            return refuse(
                format!(
                    "Function \"{}\" expected {} arguments but got {}.",
                    func.name,
                    func.arity,
                    args.len()
                ),
                span,
            );
        }
        let mut frame = Vec::new();
        for clause in &func.clauses {
            frame.clear();
            frame.resize_with(clause.frame, blank);
            if clause.admits(args, &mut frame) {
                return self.run(&clause.body, &mut frame, nesting);
            }
        }
        let listed = args
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        refuse(format!("No case for {}({listed})", func.name), span)
    }

    fn run(
        &self,
        code: &Code,
        frame: &mut Vec<Value>,
        nesting: usize,
    ) -> Result<Value, Diagnostic> {
        match code {
            Code::Lit(v) => Ok(v.clone()),
            Code::Slot(slot) => Ok(frame[*slot].clone()),
            Code::Build(name, args) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.run(a, frame, nesting)?);
                }
                Ok(Value::Constructor(name.clone(), values))
            }
            Code::Apply(f, args, span) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.run(a, frame, nesting)?);
                }
                self.call(*f, &values, *span, nesting + 1)
            }
            Code::Arith(op, operands, span) => {
                let left = self.run(&operands[0], frame, nesting)?;
                let right = self.run(&operands[1], frame, nesting)?;
                let Some((m, n)) = as_number(&left).zip(as_number(&right)) else {
                    return refuse(
                        format!(
                            "Values \"{left}\" and \"{right}\" are not both integers, so \"{}\" cannot be computed.",
                            op.text()
                        ),
                        *span,
                    );
                };
                let number = if *op == BinaryOp::Add {
                    m + n
                } else if *op == BinaryOp::Sub {
                    m - n
                } else if n == 0 {
                    return refuse("Modulo by zero.", *span);
                } else {
                    // hrg.md §3.2: ((e1 + e2) rem e2).
                    (m + n) % n
                };
                Ok(Value::symbol(number.to_string()))
            }
            Code::Choose(test, branches) => {
                let pick = usize::from(!self.check(test, frame, nesting)?);
                self.run(&branches[pick], frame, nesting)
            }
            Code::Table(table) => self.fill(table, frame, nesting).map(Value::Map),
            Code::Fail(message, span) => refuse(message.clone(), *span),
        }
    }

    fn check(
        &self,
        test: &Test,
        frame: &mut Vec<Value>,
        nesting: usize,
    ) -> Result<bool, Diagnostic> {
        match test {
            Test::Both(sides) => {
                Ok(self.check(&sides[0], frame, nesting)?
                    && self.check(&sides[1], frame, nesting)?)
            }
            Test::Either(sides) => {
                Ok(self.check(&sides[0], frame, nesting)?
                    || self.check(&sides[1], frame, nesting)?)
            }
            Test::Member(code, set) => {
                let v = self.run(code, frame, nesting)?;
                Ok(set.is_some_and(|s| self.sets[s].contains(&v)))
            }
            Test::Order(sides, holds, span) => {
                let left = self.run(&sides[0], frame, nesting)?;
                let right = self.run(&sides[1], frame, nesting)?;
                match compare(&left, &right) {
                    Some(order) => Ok(holds(order)),
                    None => refuse(
                        format!("Values \"{left}\" and \"{right}\" are not comparable."),
                        *span,
                    ),
                }
            }
            Test::Fail(message, span) => refuse(message.clone(), *span),
        }
    }

    /// A map literal (§2.4): per part, one entry per combination of its
    /// `where` values, the last binding turning fastest (an odometer).
    fn fill(
        &self,
        table: &TableCode,
        frame: &mut Vec<Value>,
        nesting: usize,
    ) -> Result<MapValue, Diagnostic> {
        let default = match &table.default {
            Some(code) => Some(Box::new(self.run(code, frame, nesting)?)),
            None => None,
        };
        let mut keys = HashSet::new();
        let mut entries = Vec::new();
        for part in &table.parts {
            let (columns, key, key_span, value) = match part {
                Part::Fail(message, span) => return refuse(message.clone(), *span),
                Part::Rows {
                    columns,
                    key,
                    key_span,
                    value,
                } => (columns, key, *key_span, value),
            };
            if columns.iter().any(|(_, values)| values.is_empty()) {
                continue;
            }
            let mut dial = vec![0usize; columns.len()];
            'rows: loop {
                for ((slot, values), &at) in columns.iter().zip(&dial) {
                    frame[*slot] = values[at].clone();
                }
                let k = self.run(key, frame, nesting)?;
                let text = k.serialize();
                if keys.contains(&text) {
                    return refuse(format!("Duplicated map key \"{k}\"."), key_span);
                }
                keys.insert(text.clone());
                entries.push((text, self.run(value, frame, nesting)?));
                // Turn the odometer; done when every wheel wrapped around.
                let mut wheel = dial.len();
                loop {
                    if wheel == 0 {
                        break 'rows;
                    }
                    wheel -= 1;
                    dial[wheel] += 1;
                    if dial[wheel] < columns[wheel].1.len() {
                        continue 'rows;
                    }
                    dial[wheel] = 0;
                }
            }
        }
        Ok(MapValue { default, entries })
    }

    /// A variable's initial value as an RG literal (§2.3): the `{ _ = v }`
    /// form maps every key to `v`; other map literals are compressed by
    /// the shared rule of §2.4 ([`MapValue::to_rg`]).
    pub fn initializer(&self, init: &Expr) -> Result<rg::Value, Diagnostic> {
        let everywhere = match &init.kind {
            ExprKind::Map(MapLiteral {
                default: None,
                parts,
            }) if parts.len() == 1 => {
                let only = &parts[0];
                let plain = only.bindings.is_empty() && matches!(only.key, Pattern::Wildcard(_));
                plain.then_some(&only.value)
            }
            _ => None,
        };
        Ok(match everywhere {
            Some(value) => rg::Value::map(self.eval(value)?.to_rg(), []),
            None => self.eval(init)?.to_rg(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Domains, FunctionDecl, Statics, Value};
    use crate::ast::{Expr, Program};
    use crate::parse::parse_program;

    const GAME: &str = "domain D = a | b | c\ndomain C = STOP | GO\n\
        domain Pos = P(I, J) where I in { a, b }, J in 0..1\n\
        same : D -> D -> D\nsame(X, X) = a\nsame(_, _) = b\n\
        spin : D -> D\nspin(X) = spin(X)\n\
        pick : D -> D\npick(a) = a\npick(X) = if X == b then b else Y\n\
        down : Pos -> Pos\ndown(P(I, J)) = if P(I, J - 1) in Pos then P(I, (J - 1) % 2) else P(I, 9)\n\
        v0 : Pos -> D = { P(I, J) = a where J in 0..1, I in { a, b } }\n\
        v1 : Pos -> D = { :c; P(X, X) = a where X in 0..2 }\n\
        v2 : Pos -> D = { :c; P(_, I) = a where I in 1..0 }\n\
        v3 : C = STOP\n";

    fn setup() -> (Program, Statics) {
        let program = parse_program(GAME).unwrap();
        let domains = Domains::evaluate(&program).unwrap();
        let functions: Vec<&FunctionDecl> = program.functions().collect();
        let statics = Statics::new(&domains, &functions);
        (program, statics)
    }

    fn init(program: &Program, k: usize) -> &Expr {
        program.variables().nth(k).unwrap().init.as_ref().unwrap()
    }

    fn call(s: &Statics, f: usize, args: &[&str]) -> Result<String, String> {
        let args: Vec<Value> = args.iter().map(|a| Value::symbol(*a)).collect();
        s.apply(f, &args, rg_core::diag::Span::default())
            .map(|v| v.serialize())
            .map_err(|d| d.message)
    }

    #[test]
    fn functions_select_the_first_matching_case() {
        let (_, s) = setup();
        assert_eq!(call(&s, 0, &["a", "a"]).unwrap(), "a");
        assert_eq!(call(&s, 0, &["a", "b"]).unwrap(), "b");
        assert_eq!(
            call(&s, 1, &["a"]).unwrap_err(),
            "Function \"spin\" calls itself without end."
        );
        assert_eq!(call(&s, 2, &["b"]).unwrap(), "b");
        assert_eq!(call(&s, 2, &["c"]).unwrap_err(), "Unknown variable \"Y\".");
        assert_eq!(
            call(&s, 2, &["a", "b"]).unwrap_err(),
            "Function \"pick\" expected 1 arguments but got 2."
        );
        let p = |i: &str, j: &str| {
            Value::Constructor("P".into(), vec![Value::symbol(i), Value::symbol(j)])
        };
        let down = |i, j| {
            s.apply(3, &[p(i, j)], rg_core::diag::Span::default())
                .unwrap()
                .serialize()
        };
        assert_eq!(down("a", "1"), "P__a_0");
        assert_eq!(down("b", "0"), "P__b_9");
        assert_eq!(call(&s, 3, &["x"]).unwrap_err(), "No case for down(x)");
    }

    #[test]
    fn map_literals_turn_the_last_binding_fastest() {
        let (program, s) = setup();
        let keys = |k: usize| match s.eval(init(&program, k)).unwrap() {
            Value::Map(m) => m
                .entries
                .into_iter()
                .map(|(key, _)| key)
                .collect::<Vec<_>>(),
            other => panic!("not a map: {other}"),
        };
        assert_eq!(keys(0), ["P__a_0", "P__b_0", "P__a_1", "P__b_1"]);
        assert_eq!(keys(1), ["P__0_0", "P__1_1", "P__2_2"]);
        assert!(keys(2).is_empty());
        assert_eq!(s.eval(init(&program, 3)).unwrap().serialize(), "STOP");
    }
}
