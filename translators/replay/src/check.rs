//! The static checker (replay.md §3, §5.3): names and types of the whole
//! program — functions that are never called and branches never taken
//! included — before anything runs. It reports every error it finds; the
//! evaluator then only meets errors that depend on values (indices,
//! division by zero, ranges, null objects, state labels of `change`).

use std::collections::HashMap;

use rg_core::diag::{line_column, Diagnostic, Span};

use crate::ast::{
    Base, BinaryOp, Expr, ExprKind, Function, Item, Name, Param, Pattern, Program, Stmt, StmtKind,
    UnaryOp,
};
use crate::value::{base_name, Ty};

const INT: Ty = Ty::Base(Base::Int);
const FLOAT: Ty = Ty::Base(Base::Float);
const BOOL: Ty = Ty::Base(Base::Bool);
const STRING: Ty = Ty::Base(Base::String);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Variable,
    Strat,
    Label,
}

#[derive(Clone, Copy)]
struct Var {
    ty: Ty,
    kind: Kind,
    span: Span,
}

type Scope = HashMap<String, Var>;

/// Checks `program`; every error found, or nothing.
pub fn check(program: &Program, source: &str) -> Result<(), Vec<Diagnostic>> {
    let mut c = Checker {
        source,
        functions: HashMap::new(),
        scopes: vec![Scope::new()],
        returns: None,
        errors: Vec::new(),
        top_level_names: program
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Stmt(Stmt {
                    kind: StmtKind::Decl { name, .. },
                    ..
                }) => Some(name.text.as_str()),
                _ => None,
            })
            .collect(),
    };
    for item in &program.items {
        if let Item::Function(f) = item {
            // Duplicates are reported by the evaluator's declaration pass.
            c.functions.entry(f.name.text.as_str()).or_insert(f);
        }
    }
    for item in &program.items {
        match item {
            Item::Stmt(s) => c.stmt(s),
            Item::Function(f) => c.function(f),
        }
    }
    if c.errors.is_empty() {
        Ok(())
    } else {
        Err(c.errors)
    }
}

struct Checker<'p> {
    source: &'p str,
    functions: HashMap<&'p str, &'p Function>,
    /// scopes[0] holds the globals declared so far.
    scopes: Vec<Scope>,
    /// The running function's result type (`None` at top level).
    returns: Option<Ty>,
    errors: Vec<Diagnostic>,
    /// Names of top-level declarations, to tell "read before its
    /// declaration ran" from "unknown".
    top_level_names: std::collections::HashSet<&'p str>,
}

impl<'p> Checker<'p> {
    fn error(&mut self, message: impl Into<String>, span: Span) {
        self.errors.push(Diagnostic::error(message, span));
    }

    fn lookup(&self, name: &str) -> Option<Var> {
        self.scopes.iter().rev().find_map(|s| s.get(name)).copied()
    }

    fn declare(&mut self, name: &Name, ty: Ty, kind: Kind) {
        let scope = self.scopes.last_mut().expect("a scope");
        if let Some(previous) = scope.get(&name.text) {
            let (line, column) = line_column(self.source, previous.span.start);
            let message = format!(
                "{} is already declared in this scope (at {line}:{column})",
                name.text
            );
            self.error(message, name.span);
            return;
        }
        scope.insert(
            name.text.clone(),
            Var {
                ty,
                kind,
                span: name.span,
            },
        );
    }

    fn scoped(&mut self, f: impl FnOnce(&mut Self)) {
        self.scopes.push(Scope::new());
        f(self);
        self.scopes.pop();
    }

    /// A function body sees its parameters, the globals declared before
    /// it, and every function (§3.7).
    fn function(&mut self, f: &'p Function) {
        let globals = self.scopes[0].clone();
        let saved = std::mem::replace(&mut self.scopes, vec![globals, Scope::new()]);
        let result = f.returns.map_or(Ty::Void, |t| Ty::of(&t));
        self.returns = Some(result);
        for (ty, name) in &f.params {
            self.declare(name, Ty::of(ty), Kind::Variable);
        }
        self.scoped(|c| {
            for s in &f.body {
                c.stmt(s);
            }
        });
        if result != Ty::Void
            && !matches!(
                f.body.last(),
                Some(Stmt {
                    kind: StmtKind::Return(Some(_)),
                    ..
                })
            )
        {
            self.error(
                format!(
                    "function {} must end with return (it returns {result})",
                    f.name.text
                ),
                f.name.span,
            );
        }
        self.returns = None;
        self.scopes = saved;
    }

    fn expect(&mut self, e: &'p Expr, ty: Ty, what: &str) {
        if let Some(got) = self.expr(e) {
            if got != ty {
                self.error(format!("{what} must be {ty}, got {got}"), e.span);
            }
        }
    }

    fn stmt(&mut self, s: &'p Stmt) {
        match &s.kind {
            StmtKind::Decl { ty, name, init } => {
                let ty = Ty::of(ty);
                if let Some(e) = init {
                    if let Some(got) = self.expr(e) {
                        if got != ty {
                            let message = format!(
                                "{} is declared {ty} but initialized with {got}",
                                name.text
                            );
                            self.error(message, e.span);
                        }
                    }
                }
                self.declare(name, ty, Kind::Variable);
            }
            StmtKind::Strat(names) => {
                for n in names {
                    self.declare(n, INT, Kind::Strat);
                }
            }
            StmtKind::Play { players, game } => {
                for p in players {
                    self.expect(p, Ty::Base(Base::Player), "a player of \"%\"");
                }
                self.expect(game, Ty::Base(Base::Game), "the game of \"%\"");
            }
            StmtKind::Mutate { target, rate } => {
                self.expect(target, Ty::Base(Base::Player), "the target of \"~\"");
                self.expect(rate, FLOAT, "the rate of \"~\"");
            }
            StmtKind::Crossover {
                left,
                fraction,
                right,
            } => {
                self.expect(left, Ty::Base(Base::Player), "a player of \"#\"");
                self.expect(fraction, FLOAT, "the fraction of \"#\"");
                self.expect(right, Ty::Base(Base::Player), "a player of \"#\"");
            }
            StmtKind::Assign { target, value } => self.assign(target, value),
            StmtKind::Call(e) => {
                self.expr(e);
            }
            StmtKind::Return(e) => {
                let got = match e {
                    Some(e) => self.expr(e),
                    None => Some(Ty::Void),
                };
                match self.returns {
                    None => self.error("return is only allowed inside a function", s.span),
                    Some(expected) => {
                        if let Some(got) = got.filter(|g| *g != expected) {
                            self.error(
                                format!(
                                    "this function returns {expected}, but this return gives {got}"
                                ),
                                s.span,
                            );
                        }
                    }
                }
            }
            StmtKind::If {
                condition,
                then,
                otherwise,
            } => {
                if let Some(t) = self.expr(condition) {
                    if t != BOOL {
                        self.error(
                            format!("an if condition must be bool, got {t}"),
                            condition.span,
                        );
                    }
                }
                self.scoped(|c| c.stmt(then));
                if let Some(o) = otherwise {
                    self.scoped(|c| c.stmt(o));
                }
            }
            StmtKind::For {
                var,
                iterable,
                body,
            } => {
                let elem = match self.expr(iterable) {
                    Some(Ty::Array(b)) => Some(Ty::Base(b)),
                    Some(t) => {
                        self.error(format!("for … in needs an array, got {t}"), iterable.span);
                        None
                    }
                    None => None,
                };
                self.scoped(|c| {
                    if let Some(elem) = elem {
                        c.declare(var, elem, Kind::Variable);
                    }
                    c.stmt(body);
                });
            }
            StmtKind::Block(stmts) => self.scoped(|c| {
                for s in stmts {
                    c.stmt(s);
                }
            }),
        }
    }

    fn assign(&mut self, target: &'p Expr, value: &'p Expr) {
        let value_ty = self.expr(value);
        let target_ty = match &target.kind {
            ExprKind::Var(name) => match self.lookup(name) {
                None => {
                    self.error(format!("unknown variable {name}"), target.span);
                    None
                }
                Some(v) if v.kind != Kind::Variable => {
                    let what = if v.kind == Kind::Strat {
                        "a strat constant"
                    } else {
                        "a state label"
                    };
                    self.error(
                        format!("{name} is {what} and cannot be assigned"),
                        target.span,
                    );
                    None
                }
                Some(v) => Some(v.ty),
            },
            ExprKind::Index(array, index) => {
                self.expect(index, INT, "an index");
                match self.expr(array) {
                    Some(Ty::Array(b)) => Some(Ty::Base(b)),
                    Some(t) => {
                        self.error(format!("only arrays can be indexed, not {t}"), array.span);
                        None
                    }
                    None => None,
                }
            }
            ExprKind::Field(_, name) | ExprKind::Method { name, .. } => {
                self.error(
                    format!(
                        "attribute {} is read-only and cannot be assigned",
                        name.text
                    ),
                    target.span,
                );
                None
            }
            _ => {
                self.error(
                    "only variables and array elements can be assigned",
                    target.span,
                );
                None
            }
        };
        if let (Some(t), Some(v)) = (target_ty, value_ty) {
            if t != v {
                self.error(
                    format!("cannot assign {v} to a target of type {t}"),
                    value.span,
                );
            }
        }
    }

    /// The type of `e`, or `None` after reporting an error in it.
    fn expr(&mut self, e: &'p Expr) -> Option<Ty> {
        match &e.kind {
            ExprKind::Int(_) => Some(INT),
            ExprKind::Float(_) | ExprKind::Rand => Some(FLOAT),
            ExprKind::Str(_) => Some(STRING),
            ExprKind::Bool(_) => Some(BOOL),
            ExprKind::Var(name) => match self.lookup(name) {
                Some(v) => Some(v.ty),
                None => {
                    let message = if self.returns.is_none()
                        && self.top_level_names.contains(name.as_str())
                    {
                        format!(
                            "{name} is read before its declaration ran (globals are visible after their declaration)"
                        )
                    } else {
                        format!("unknown variable {name}")
                    };
                    self.error(message, e.span);
                    None
                }
            },
            ExprKind::Call { name, args } => self.call(name, args, e.span),
            ExprKind::Index(array, index) => {
                self.expect(index, INT, "an index");
                match self.expr(array)? {
                    Ty::Array(b) => Some(Ty::Base(b)),
                    t => {
                        self.error(format!("only arrays can be indexed, not {t}"), array.span);
                        None
                    }
                }
            }
            ExprKind::Field(target, name) => {
                let t = self.expr(target)?;
                self.attribute(t, name, None)
            }
            ExprKind::Method { target, name, args } => {
                let t = self.expr(target)?;
                self.attribute(t, name, Some(args))
            }
            ExprKind::Range(a, b) => {
                self.expect(a, INT, "a range bound");
                self.expect(b, INT, "a range bound");
                Some(Ty::Array(Base::Int))
            }
            ExprKind::Construct { base, params } => self.construct(*base, params, e.span),
            ExprKind::Unary(op, operand) => {
                let t = self.expr(operand)?;
                match (op, t) {
                    (UnaryOp::Neg, INT | FLOAT) | (UnaryOp::Not, BOOL) => Some(t),
                    (UnaryOp::Neg, t) => {
                        self.error(
                            format!("unary \"-\" needs an int or float operand, got {t}"),
                            operand.span,
                        );
                        None
                    }
                    (UnaryOp::Not, t) => {
                        self.error(format!("\"!\" needs a bool operand, got {t}"), operand.span);
                        None
                    }
                }
            }
            ExprKind::Binary(op, l, r) => {
                let (a, b) = (self.expr(l), self.expr(r));
                let (a, b) = (a?, b?);
                self.binary(*op, a, b, e.span)
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, a: Ty, b: Ty, span: Span) -> Option<Ty> {
        use BinaryOp::*;
        let sym = op.symbol();
        let number = |t: Ty| t == INT || t == FLOAT;
        match op {
            And | Or => {
                let bad = if a != BOOL { a } else { b };
                if bad != BOOL {
                    self.error(format!("\"{sym}\" needs bool operands, got {bad}"), span);
                    return None;
                }
                Some(BOOL)
            }
            Eq | Ne => {
                let ok = (number(a) && number(b)) || (a == b && (a == BOOL || a == STRING));
                if !ok {
                    let objects = [a, b].iter().any(|t| {
                        matches!(t, Ty::Array(_))
                            || matches!(t, Ty::Base(Base::Game | Base::Strategy | Base::Player))
                    });
                    let what = if objects {
                        " (objects cannot be compared)"
                    } else {
                        ""
                    };
                    self.error(format!("\"{sym}\" cannot compare {a} with {b}{what}"), span);
                    return None;
                }
                Some(BOOL)
            }
            Lt | Le | Gt | Ge => {
                if !(number(a) && number(b)) {
                    self.error(
                        format!("\"{sym}\" needs int or float operands, got {a} and {b}"),
                        span,
                    );
                    return None;
                }
                Some(BOOL)
            }
            Add | Sub | Mul | Div => {
                if !(number(a) && number(b)) {
                    let bad = if number(a) { b } else { a };
                    self.error(
                        format!("\"{sym}\" needs int or float operands, got {bad}"),
                        span,
                    );
                    return None;
                }
                Some(if a == INT && b == INT { INT } else { FLOAT })
            }
        }
    }

    /// Argument types, or `None` after an error (blocks are errors here).
    fn args(&mut self, args: &'p [Param], what: &str) -> Option<Vec<(Ty, Span)>> {
        let mut out = Vec::new();
        let mut ok = true;
        for a in args {
            match a {
                Param::Expr(e) => match self.expr(e) {
                    Some(t) => out.push((t, e.span)),
                    None => ok = false,
                },
                Param::States(_, span) | Param::Outcomes(_, span) => {
                    self.error(
                        format!("a block is not an argument of {what}; blocks are only allowed as the last parameter of Strategy[…]/Game[…] or in .change(…)"),
                        *span,
                    );
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    fn arity(&mut self, got: usize, n: usize, what: &str, span: Span) -> bool {
        if got != n {
            let s = if n == 1 { "" } else { "s" };
            self.error(format!("{what} takes {n} argument{s}, got {got}"), span);
            return false;
        }
        true
    }

    fn call(&mut self, name: &'p Name, args: &'p [Param], span: Span) -> Option<Ty> {
        let values = self.args(args, &name.text)?;
        let builtin = match name.text.as_str() {
            "print" | "println" => Some((None, Ty::Void)),
            "tofloat" => Some((Some(INT), FLOAT)),
            "toint" => Some((Some(FLOAT), INT)),
            _ => None,
        };
        if let Some((param, result)) = builtin {
            if !self.arity(values.len(), 1, &name.text, span) {
                return None;
            }
            let (t, s) = values[0];
            match param {
                None if t == Ty::Void => {
                    self.error("print needs a value, got void", s);
                    return None;
                }
                Some(p) if p != t => {
                    self.error(
                        format!("{} needs {} {p}, got {t}", name.text, article(p)),
                        s,
                    );
                    return None;
                }
                _ => {}
            }
            return Some(result);
        }
        let Some(&f) = self.functions.get(name.text.as_str()) else {
            self.error(format!("unknown function {}", name.text), name.span);
            return None;
        };
        if !self.arity(values.len(), f.params.len(), &name.text, span) {
            return None;
        }
        for ((ty, pname), (t, s)) in f.params.iter().zip(&values) {
            if *t != Ty::of(ty) {
                self.error(
                    format!(
                        "argument {} of {} must be {}, got {t}",
                        pname.text,
                        name.text,
                        Ty::of(ty)
                    ),
                    *s,
                );
            }
        }
        Some(f.returns.map_or(Ty::Void, |t| Ty::of(&t)))
    }

    fn attribute(&mut self, t: Ty, name: &'p Name, args: Option<&'p Vec<Param>>) -> Option<Ty> {
        let attr = name.text.as_str();
        // (is a method, result type)
        let (method, result) = match (t, attr) {
            (_, "string") => (true, STRING),
            (Ty::Base(Base::String) | Ty::Array(_), "len") => (false, INT),
            (Ty::Base(Base::Strategy), "size" | "moves" | "term") => (false, INT),
            (Ty::Base(Base::Strategy), "inacc") => (true, INT),
            (Ty::Base(Base::Strategy), "change") => (true, Ty::Void),
            (Ty::Base(Base::Game), "players" | "moves") => (false, INT),
            (Ty::Base(Base::Game), "payoff") => (true, INT),
            (Ty::Base(Base::Game), "change") => (true, Ty::Void),
            (Ty::Base(Base::Player), "strategy") => (false, Ty::Base(Base::Strategy)),
            (Ty::Base(Base::Player), "state" | "rounds") => (false, INT),
            (Ty::Base(Base::Player), "delta" | "output" | "input" | "payoff") => (false, FLOAT),
            (Ty::Base(Base::Player), "reset") => (true, Ty::Void),
            _ => {
                self.error(format!("{t} has no attribute {attr}"), name.span);
                return None;
            }
        };
        match (method, args) {
            (true, None) => {
                let hint = match (t, attr) {
                    (Ty::Base(Base::Game), "payoff") => ": payoff(player, profile)".to_string(),
                    (Ty::Base(Base::Game), "change") => ": change(profile, payoffs)".to_string(),
                    (Ty::Base(Base::Strategy), "change") => {
                        ": change(state, { label: … })".to_string()
                    }
                    _ => format!(": write {attr}()"),
                };
                self.error(
                    format!("{attr} of a {t} is a method and takes arguments{hint}"),
                    name.span,
                );
                return None;
            }
            (false, Some(_)) => {
                self.error(
                    format!("{attr} of a {t} is a field: write .{attr} without parentheses"),
                    name.span,
                );
                return None;
            }
            (false, None) => return Some(result),
            (true, Some(_)) => {}
        }
        let args = args.expect("a method");
        let expected: &[Ty] = match (t, attr) {
            (Ty::Base(Base::Game), "payoff") => &[INT, Ty::Array(Base::Int)],
            (Ty::Base(Base::Game), "change") => &[Ty::Array(Base::Int), Ty::Array(Base::Int)],
            (Ty::Base(Base::Strategy), "change") => {
                // The block's labels are the strategy's state names, known
                // only when it runs: the evaluator checks it.
                match args.as_slice() {
                    [Param::Expr(i), Param::States(..)] => {
                        self.expect(i, INT, "the state of change");
                        return Some(result);
                    }
                    _ => {
                        self.error(
                            "change of a Strategy takes a state number and a one-state block: change(i, { label: … })",
                            name.span,
                        );
                        return None;
                    }
                }
            }
            _ => &[],
        };
        let values = self.args(args, attr)?;
        if !self.arity(values.len(), expected.len(), attr, name.span) {
            return None;
        }
        for (k, ((got, span), want)) in values.iter().zip(expected).enumerate() {
            if got != want {
                self.error(
                    format!("argument {} of {attr} must be {want}, got {got}", k + 1),
                    *span,
                );
            }
        }
        Some(result)
    }

    fn construct(&mut self, base: Base, params: &'p [Param], span: Span) -> Option<Ty> {
        if let [Param::Expr(e)] = params {
            let t = self.expr(e)?;
            if t == INT {
                return Some(Ty::Array(base));
            }
            if base != Base::Player {
                self.error(
                    format!(
                        "{}[…] with one parameter is an array and needs an int length, got {t}",
                        base_name(base)
                    ),
                    e.span,
                );
                return None;
            }
        }
        match base {
            Base::Game => self.game(params, span),
            Base::Strategy => self.strategy(params, span),
            Base::Player => {
                let values = self.args(params, "Player[…]")?;
                if values.is_empty() || values.len() > 4 {
                    self.error("a Player is written Player[strategy | delta | output noise | input noise] (the last three optional)", span);
                    return None;
                }
                for (k, ((t, s), p)) in values.iter().zip(params).enumerate() {
                    let want = if k == 0 {
                        Ty::Base(Base::Strategy)
                    } else {
                        FLOAT
                    };
                    if *t == want {
                        continue;
                    }
                    let hint = match p {
                        Param::Expr(Expr {
                            kind: ExprKind::Int(v),
                            ..
                        }) if k > 0 => format!(" (write {v}.0)"),
                        _ if *t == INT && k > 0 => " (use tofloat)".to_string(),
                        _ => String::new(),
                    };
                    let want = if k == 0 { "a Strategy" } else { "float" };
                    self.error(
                        format!("Player parameter {} must be {want}, got {t}{hint}", k + 1),
                        *s,
                    );
                }
                Some(Ty::Base(Base::Player))
            }
            _ => {
                self.error(
                    format!(
                        "{}[…] takes one int parameter (an array length)",
                        base_name(base)
                    ),
                    span,
                );
                None
            }
        }
    }

    fn game(&mut self, params: &'p [Param], span: Span) -> Option<Ty> {
        let [Param::Expr(m), Param::Outcomes(outcomes, _)] = params else {
            self.error(
                "a Game is written Game[moves | { (patterns) -> (payoffs) | … }]",
                span,
            );
            return None;
        };
        self.expect(m, INT, "the number of moves of a Game");
        let n = outcomes[0].patterns.len();
        for o in outcomes {
            if o.patterns.len() != n {
                let message = format!(
                    "this outcome has {} patterns, the first has {n}",
                    o.patterns.len()
                );
                self.error(message, o.span);
            }
            if o.payoffs.len() != n {
                let message = format!(
                    "this outcome has {} payoffs for {n} players",
                    o.payoffs.len()
                );
                self.error(message, o.span);
            }
            let mut binders: Vec<&Name> = Vec::new();
            for p in &o.patterns {
                let Pattern::Name(name) = p else { continue };
                match self.lookup(&name.text) {
                    Some(v) if v.ty == INT => {}
                    Some(v) => self.error(
                        format!(
                            "{} is {} and cannot be a pattern (patterns are moves)",
                            name.text, v.ty
                        ),
                        name.span,
                    ),
                    None => {
                        if binders.iter().any(|b| b.text == name.text) {
                            self.error(
                                format!("{} is bound twice in this pattern", name.text),
                                name.span,
                            );
                        } else {
                            binders.push(name);
                        }
                    }
                }
            }
            self.scoped(|c| {
                for b in &binders {
                    c.declare(b, INT, Kind::Variable);
                }
                for e in &o.payoffs {
                    if let Some(t) = c.expr(e) {
                        if t != INT {
                            let hint = if t == FLOAT { " (use toint)" } else { "" };
                            c.error(format!("payoffs must be int, got {t}{hint}"), e.span);
                        }
                    }
                }
            });
        }
        Some(Ty::Base(Base::Game))
    }

    fn strategy(&mut self, params: &'p [Param], span: Span) -> Option<Ty> {
        let [Param::Expr(size), Param::Expr(moves), Param::States(states, _)] = params else {
            self.error(
                "a Strategy is written Strategy[states | moves | { label: output, (…) -> label | …; … }]",
                span,
            );
            return None;
        };
        self.expect(size, INT, "the number of states of a Strategy");
        self.expect(moves, INT, "the number of moves of a Strategy");
        self.scoped(|c| {
            for st in states {
                // Duplicate labels are reported by the evaluator.
                c.scopes.last_mut().expect("a scope").insert(
                    st.label.text.clone(),
                    Var {
                        ty: INT,
                        kind: Kind::Label,
                        span: st.label.span,
                    },
                );
            }
            let mut arity: Option<usize> = None;
            for st in states {
                if let Some(t) = c.expr(&st.output) {
                    if t != INT {
                        c.error(format!("state outputs must be int, got {t}"), st.output.span);
                    }
                }
                for t in &st.transitions {
                    match arity {
                        Some(a) if a != t.patterns.len() => c.error(
                            format!(
                                "these transitions have {} entries, earlier ones have {a}",
                                t.patterns.len()
                            ),
                            t.span,
                        ),
                        _ => arity = Some(t.patterns.len()),
                    }
                    if !states.iter().any(|s| s.label.text == t.target.text) {
                        c.error(
                            format!(
                                "unknown state \"{}\" in a transition of this strategy",
                                t.target.text
                            ),
                            t.target.span,
                        );
                    }
                    for p in &t.patterns {
                        let Pattern::Name(name) = p else { continue };
                        match c.lookup(&name.text) {
                            Some(v) if v.ty == INT => {}
                            Some(v) => c.error(
                                format!(
                                    "{} is {} and cannot be a pattern (patterns are moves)",
                                    name.text, v.ty
                                ),
                                name.span,
                            ),
                            None => c.error(
                                format!(
                                    "unknown name {} in a transition (binders are only allowed in outcomes)",
                                    name.text
                                ),
                                name.span,
                            ),
                        }
                    }
                }
            }
        });
        Some(Ty::Base(Base::Strategy))
    }
}

fn article(t: Ty) -> &'static str {
    if t == INT {
        "an"
    } else {
        "a"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(text: &str) -> Vec<String> {
        let parsed = crate::parse::parse(text).unwrap();
        match check(&parsed.program, text) {
            Ok(()) => Vec::new(),
            Err(d) => d.into_iter().map(|d| d.message).collect(),
        }
    }

    #[test]
    fn uncalled_functions_and_untaken_branches_are_checked() {
        assert_eq!(
            errors("int f() { return true; }"),
            ["this function returns int, but this return gives bool"]
        );
        assert_eq!(
            errors("if (false) { int x = 1.5; }"),
            ["x is declared int but initialized with float"]
        );
        assert_eq!(
            errors("void f(Player p, Game g) { p, p % g; p ~ 1; }"),
            ["the rate of \"~\" must be float, got int"]
        );
    }

    #[test]
    fn every_error_is_reported_once() {
        let found = errors("int x = true;\nfloat y = 1;\nbool z = 1 < \"a\";\n");
        assert_eq!(found.len(), 3, "{found:?}");
    }

    #[test]
    fn functions_see_globals_declared_before_them_only() {
        assert!(errors("int g = 1;\nint f() { return g; }").is_empty());
        assert_eq!(
            errors("int f() { return g; }\nint g = 1;"),
            ["unknown variable g"]
        );
        // Calls may come before the function (hoisting).
        assert!(errors("int y = f();\nint f() { return 1; }").is_empty());
    }

    #[test]
    fn well_typed_programs_pass() {
        let text = "strat {C, D};\nint mod3(int v) { return v - (v / 3) * 3; }\n\
            Game g = Game[2 | { (x,y) -> (x - y, mod3(y)) | (C,_) -> (0, 0) }];\n\
            Strategy s = Strategy[3 | 2 | { a: C, (_,D) -> b; b: D; }];\n\
            s.change(2, { c: D, (_,_) -> a; });\n\
            Player p = Player[s | 0.5 | 0.1 | 0.2];\n\
            float d = p.delta + tofloat(g.payoff(0, [0:2]));\n\
            for i in [0:3] { println(i); }\n";
        assert_eq!(errors(text), Vec::<String>::new());
    }
}
