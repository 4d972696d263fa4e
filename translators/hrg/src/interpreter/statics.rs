//! The interpreter's own static evaluation (hrg.md §2.4, §2.5, §3.2):
//! static expressions and conditions, pattern matching, constant-function
//! application by selecting the first matching case, and map literals.
//!
//! No function is turned into a table: the interpreter applies functions
//! on demand, at run time, to the arguments a walk actually produces
//! (memoized per argument list by the caller).

use std::collections::{HashMap, HashSet};

use rg_core::ast as rg;
use rg_core::diag::{Diagnostic, Span};

use crate::ast::{
    BinaryOp, Binding, BindingValues, Expr, ExprKind, FunctionDecl, MapLiteral, Pattern,
};
use crate::eval::Domains;
use crate::value::{compare, MapValue, Value};

/// Pattern, `where` and `branch`/`repeat` variables.
pub(super) type Bindings = HashMap<String, Value>;

/// Nesting bound for function calls inside function bodies.
const MAX_DEPTH: usize = 200;

fn fail<T>(message: impl Into<String>, span: Span) -> Result<T, Diagnostic> {
    Err(Diagnostic::error(message, span))
}

/// What static evaluation needs: the domains, the constant functions and
/// the plain symbols that domains contain (an unbound upper-case name that
/// is one of them is that symbol, e.g. `STOP` of `domain C = STOP | GO`).
pub(super) struct Statics<'a> {
    pub domains: &'a Domains,
    pub functions: &'a HashMap<String, FunctionDecl>,
    pub domain_symbols: &'a HashSet<String>,
}

impl Statics<'_> {
    pub fn eval(&self, e: &Expr, b: &Bindings, depth: usize) -> Result<Value, Diagnostic> {
        match &e.kind {
            ExprKind::Name(name) => match b.get(&name.text) {
                Some(v) => Ok(v.clone()),
                None if name.is_upper() && !self.domain_symbols.contains(&name.text) => {
                    fail(format!("Unknown variable \"{}\".", name.text), name.span)
                }
                None => Ok(Value::symbol(&name.text)),
            },
            ExprKind::Paren(inner) => self.eval(inner, b, depth),
            ExprKind::Constructor(name, args) => {
                let args = args
                    .iter()
                    .map(|a| self.eval(a, b, depth))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Value::Constructor(name.text.clone(), args))
            }
            ExprKind::Call(callee, args) => {
                let ExprKind::Name(name) = &callee.kind else {
                    return fail(
                        "Chained calls such as f(a)(b) cannot be evaluated statically.",
                        e.span,
                    );
                };
                let Some(f) = self.functions.get(&name.text) else {
                    return fail(format!("Unknown function \"{}\".", name.text), name.span);
                };
                let args = args
                    .iter()
                    .map(|a| self.eval(a, b, depth))
                    .collect::<Result<Vec<_>, _>>()?;
                self.apply(f, &args, e.span, depth + 1)
            }
            ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mod), l, r) => {
                let (x, y) = (self.eval(l, b, depth)?, self.eval(r, b, depth)?);
                let (Some(m), Some(n)) = (integer(&x), integer(&y)) else {
                    return fail(
                        format!(
                            "Values \"{x}\" and \"{y}\" are not both integers, so \"{}\" cannot be computed.",
                            op.text()
                        ),
                        e.span,
                    );
                };
                let result = match op {
                    BinaryOp::Add => m + n,
                    BinaryOp::Sub => m - n,
                    _ if n == 0 => return fail("Modulo by zero.", e.span),
                    // hrg.md §3.2: ((e1 + e2) rem e2).
                    _ => (m + n) % n,
                };
                Ok(Value::symbol(result.to_string()))
            }
            ExprKind::If(c, x, y) => {
                if self.condition(c, b, depth)? {
                    self.eval(x, b, depth)
                } else {
                    self.eval(y, b, depth)
                }
            }
            ExprKind::Map(map) => self.map_literal(map, b, depth).map(Value::Map),
            ExprKind::Access(..) => fail("Map access cannot be evaluated statically.", e.span),
            ExprKind::Binary(op, ..) => fail(
                format!(
                    "A condition (\"{}\") is not a value; use if ... then ... else.",
                    op.text()
                ),
                e.span,
            ),
        }
    }

    pub fn condition(&self, e: &Expr, b: &Bindings, depth: usize) -> Result<bool, Diagnostic> {
        match &e.kind {
            ExprKind::Paren(inner) => self.condition(inner, b, depth),
            ExprKind::Binary(BinaryOp::And, l, r) => {
                Ok(self.condition(l, b, depth)? && self.condition(r, b, depth)?)
            }
            ExprKind::Binary(BinaryOp::Or, l, r) => {
                Ok(self.condition(l, b, depth)? || self.condition(r, b, depth)?)
            }
            ExprKind::Binary(BinaryOp::In, l, r) => {
                let v = self.eval(l, b, depth)?;
                Ok(match &r.kind {
                    ExprKind::Name(d) => {
                        self.domains.get(&d.text).is_some_and(|vs| vs.contains(&v))
                    }
                    _ => false,
                })
            }
            ExprKind::Binary(
                op @ (BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge),
                l,
                r,
            ) => {
                let (x, y) = (self.eval(l, b, depth)?, self.eval(r, b, depth)?);
                let Some(order) = compare(&x, &y) else {
                    return fail(
                        format!("Values \"{x}\" and \"{y}\" are not comparable."),
                        e.span,
                    );
                };
                Ok(match op {
                    BinaryOp::Eq => order.is_eq(),
                    BinaryOp::Ne => order.is_ne(),
                    BinaryOp::Lt => order.is_lt(),
                    BinaryOp::Le => order.is_le(),
                    BinaryOp::Gt => order.is_gt(),
                    _ => order.is_ge(),
                })
            }
            _ => fail(
                format!(
                    "Expression \"{}\" is not a valid condition.",
                    crate::display::expr(e)
                ),
                e.span,
            ),
        }
    }

    /// Applies `f` to as many arguments as its cases have patterns: the
    /// first case whose patterns all match is evaluated (§2.5).
    pub fn apply(
        &self,
        f: &FunctionDecl,
        args: &[Value],
        span: Span,
        depth: usize,
    ) -> Result<Value, Diagnostic> {
        if depth > MAX_DEPTH {
            return fail(
                format!("Function \"{}\" calls itself without end.", f.name.text),
                span,
            );
        }
        let arity = f.cases.first().map_or(0, |c| c.patterns.len());
        if args.len() != arity {
            return fail(
                format!(
                    "Function \"{}\" expected {arity} arguments but got {}.",
                    f.name.text,
                    args.len()
                ),
                span,
            );
        }
        for case in &f.cases {
            let mut bindings = Bindings::new();
            if case
                .patterns
                .iter()
                .zip(args)
                .all(|(p, v)| matches(p, v, &mut bindings))
            {
                return self.eval(&case.body, &bindings, depth);
            }
        }
        let shown: Vec<String> = args.iter().map(ToString::to_string).collect();
        fail(
            format!("No case for {}({})", f.name.text, shown.join(", ")),
            span,
        )
    }

    /// A map literal (§2.4): one entry per combination of each part's
    /// bindings (cartesian product in the order written).
    pub fn map_literal(
        &self,
        map: &MapLiteral,
        b: &Bindings,
        depth: usize,
    ) -> Result<MapValue, Diagnostic> {
        let default = match &map.default {
            Some(d) => Some(Box::new(self.eval(d, b, depth)?)),
            None => None,
        };
        let mut entries: Vec<(String, Value)> = Vec::new();
        let mut seen = HashSet::new();
        for part in &map.parts {
            if let Pattern::Wildcard(span) = part.key {
                return fail(
                    "The wildcard \"_\" is only allowed in the form { _ = v } of a whole initializer.",
                    span,
                );
            }
            let mut names: Vec<&str> = Vec::new();
            let mut columns: Vec<Vec<Value>> = Vec::new();
            for binding in &part.bindings {
                if names.contains(&binding.variable.text.as_str()) {
                    return fail(
                        format!("Duplicated domain value \"{}\".", binding.variable.text),
                        binding.variable.span,
                    );
                }
                names.push(&binding.variable.text);
                columns.push(binding_values(binding));
            }
            let mut rows: Vec<Vec<Value>> = vec![Vec::new()];
            for column in &columns {
                rows = rows
                    .iter()
                    .flat_map(|row| {
                        column.iter().map(move |v| {
                            let mut r = row.clone();
                            r.push(v.clone());
                            r
                        })
                    })
                    .collect();
            }
            for row in rows {
                let mut local = b.clone();
                for (name, v) in names.iter().zip(row) {
                    local.insert((*name).to_string(), v);
                }
                let key = self.key(&part.key, &local)?;
                let serialized = key.serialize();
                if !seen.insert(serialized.clone()) {
                    return fail(format!("Duplicated map key \"{key}\"."), part.key.span());
                }
                entries.push((serialized, self.eval(&part.value, &local, depth)?));
            }
        }
        Ok(MapValue { default, entries })
    }

    /// A map key from a pattern whose variables are bound (an unbound
    /// upper-case name that is a domain symbol stands for itself).
    fn key(&self, p: &Pattern, b: &Bindings) -> Result<Value, Diagnostic> {
        match p {
            Pattern::Wildcard(span) => fail("The wildcard \"_\" cannot be a map key here.", *span),
            Pattern::Name(name) if name.is_upper() => match b.get(&name.text) {
                Some(v) => Ok(v.clone()),
                None if self.domain_symbols.contains(&name.text) => Ok(Value::symbol(&name.text)),
                None => fail(format!("Unknown variable \"{}\".", name.text), name.span),
            },
            Pattern::Name(name) => Ok(Value::symbol(&name.text)),
            Pattern::Constructor(name, args, _) => Ok(Value::Constructor(
                name.text.clone(),
                args.iter()
                    .map(|a| self.key(a, b))
                    .collect::<Result<_, _>>()?,
            )),
        }
    }

    /// A variable's initial value as an RG literal (§2.3): the `{ _ = v }`
    /// form maps every key to `v`; other map literals are compressed by
    /// the shared rule of §2.4 ([`MapValue::to_rg`]).
    pub fn initializer(&self, init: &Expr) -> Result<rg::Value, Diagnostic> {
        if let ExprKind::Map(MapLiteral {
            default: None,
            parts,
        }) = &init.kind
        {
            if let [part] = parts.as_slice() {
                if matches!(part.key, Pattern::Wildcard(_)) && part.bindings.is_empty() {
                    let value = self.eval(&part.value, &Bindings::new(), 0)?;
                    return Ok(rg::Value::map(value.to_rg(), []));
                }
            }
        }
        Ok(self.eval(init, &Bindings::new(), 0)?.to_rg())
    }
}

/// The values of a `where` binding.
fn binding_values(b: &Binding) -> Vec<Value> {
    match &b.values {
        BindingValues::Range(lo, hi) => (*lo..=*hi).map(|n| Value::symbol(n.to_string())).collect(),
        BindingValues::List(names) => names.iter().map(|n| Value::symbol(&n.text)).collect(),
    }
}

/// A symbol read as a signed 32-bit integer (§1.4).
fn integer(v: &Value) -> Option<i64> {
    match v {
        Value::Symbol(s) => s.parse::<i32>().ok().map(i64::from),
        _ => None,
    }
}

/// Matches a value against a pattern (§2.5); a variable repeated in one
/// case must match equal values.
pub(super) fn matches(p: &Pattern, v: &Value, b: &mut Bindings) -> bool {
    match p {
        Pattern::Wildcard(_) => true,
        Pattern::Name(name) if name.is_upper() => match b.get(&name.text) {
            Some(bound) => bound == v,
            None => {
                b.insert(name.text.clone(), v.clone());
                true
            }
        },
        Pattern::Name(name) => matches!(v, Value::Symbol(s) if *s == name.text),
        Pattern::Constructor(name, args, _) => match v {
            Value::Constructor(c, values) if *c == name.text && values.len() == args.len() => {
                args.iter().zip(values).all(|(p, v)| matches(p, v, b))
            }
            _ => false,
        },
    }
}
