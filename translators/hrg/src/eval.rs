//! Translation-time evaluation (hrg.md §2.1–2.5, §3.2): domains, static
//! expressions and conditions, pattern matching, constant-function
//! application and tabulation, map literals and default values.

#![warn(clippy::cast_possible_truncation)] // user data is read here

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use rg_core::ast as rg;
use rg_core::diag::{Diagnostic, Span};

use crate::ast::{
    BinaryOp, Binding, BindingValues, DomainDecl, Element, Expr, ExprKind, FunctionDecl,
    MapLiteral, Pattern, Program, TypeExpr, VariableDecl,
};
use crate::limits::{range_len, LIMITS_FILE, MAX_DOMAIN_ELEMENTS, MAX_TABLE_ENTRIES};
use crate::value::{compare, compress, MapValue, Value};

/// Variable bindings of a static evaluation (pattern, `where`, and
/// `branch`/`repeat` variables).
pub type Bindings = HashMap<String, Value>;

fn fatal<T>(message: impl Into<String>, span: Span) -> Result<T, Diagnostic> {
    Err(Diagnostic::error(message, span))
}

/// The evaluated domains of a program, in declaration order.
pub struct Domains {
    pub values: IndexMap<String, Vec<Value>>,
    /// `@integer lo : symbols` for integer domains (§2.1).
    pub integer_pragmas: Vec<(u64, Vec<String>)>,
}

impl Domains {
    pub fn evaluate(program: &Program) -> Result<Domains, Vec<Diagnostic>> {
        let mut declarations: IndexMap<&str, &DomainDecl> = IndexMap::new();
        let mut errors = Vec::new();
        for d in program.domains() {
            if declarations.insert(&d.name.text, d).is_some() {
                errors.push(Diagnostic::error(
                    format!("Duplicated domain \"{}\".", d.name.text),
                    d.name.span,
                ));
            }
        }
        let mut domains = Domains {
            values: IndexMap::new(),
            integer_pragmas: Vec::new(),
        };
        for &d in declarations.values() {
            let mut visiting = Vec::new();
            match expand_domain(d, &declarations, &mut visiting) {
                Ok(values) if values.is_empty() => errors.push(Diagnostic::error(
                    format!(
                        "Domain \"{}\" is empty; RG set types need at least one element.",
                        d.name.text
                    ),
                    d.span,
                )),
                Ok(values) => {
                    domains.values.insert(d.name.text.clone(), values);
                    if let Some(pragma) = integer_pragma(d) {
                        domains.integer_pragmas.push(pragma);
                    }
                }
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            Ok(domains)
        } else {
            Err(errors)
        }
    }

    pub fn get(&self, name: &str) -> Option<&[Value]> {
        self.values.get(name).map(Vec::as_slice)
    }

    pub fn contains(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }
}

fn too_large_domain(name: &str, size: u64, span: Span) -> Diagnostic {
    Diagnostic::error(
        format!(
            "Domain \"{name}\" has {size} elements, more than the limit of {MAX_DOMAIN_ELEMENTS} \
             elements per domain (raise MAX_DOMAIN_ELEMENTS in {LIMITS_FILE} to allow more)."
        ),
        span,
    )
}

fn expand_domain<'p>(
    d: &'p DomainDecl,
    all: &IndexMap<&str, &'p DomainDecl>,
    visiting: &mut Vec<&'p str>,
) -> Result<Vec<Value>, Diagnostic> {
    if visiting.contains(&d.name.text.as_str()) {
        return fatal(
            format!("Domain \"{}\" is defined recursively.", d.name.text),
            d.name.span,
        );
    }
    visiting.push(&d.name.text);
    let mut values = Vec::new();
    for element in &d.elements {
        match element {
            Element::Name(name) => match all.get(name.text.as_str()) {
                Some(referenced) => values.extend(expand_domain(referenced, all, visiting)?),
                None => values.push(Value::symbol(&name.text)),
            },
            Element::Generator {
                constructor,
                arguments,
                bindings,
                ..
            } => {
                let sets = binding_sets(bindings)?;
                let mut columns = Vec::new();
                for argument in arguments {
                    if argument.is_upper() {
                        match sets.get(&argument.text) {
                            Some(set) => columns.push(set.clone()),
                            None => {
                                return fatal(
                                    format!(
                                    "Generator variable \"{}\" has no binding in the where clause.",
                                    argument.text
                                ),
                                    argument.span,
                                )
                            }
                        }
                    } else {
                        columns.push(vec![Value::symbol(&argument.text)]);
                    }
                }
                let size = columns
                    .iter()
                    .try_fold(1u64, |n, c| n.checked_mul(c.len() as u64))
                    .filter(|&n| n <= MAX_DOMAIN_ELEMENTS);
                if size.is_none() {
                    return fatal(
                        format!(
                            "Generator \"{}\" has more than {MAX_DOMAIN_ELEMENTS} combinations, \
                             the limit of elements per domain (raise MAX_DOMAIN_ELEMENTS in \
                             {LIMITS_FILE} to allow more).",
                            constructor.text
                        ),
                        constructor.span,
                    );
                }
                // Cartesian product, the first argument varying slowest.
                for combination in product(&columns) {
                    values.push(Value::Constructor(constructor.text.clone(), combination));
                }
            }
        }
        if values.len() as u64 > MAX_DOMAIN_ELEMENTS {
            return Err(too_large_domain(
                &d.name.text,
                values.len() as u64,
                d.name.span,
            ));
        }
    }
    visiting.pop();
    Ok(values)
}

/// The values of each `where` binding, rejecting repeated names.
fn binding_sets(bindings: &[Binding]) -> Result<IndexMap<String, Vec<Value>>, Diagnostic> {
    let mut sets = IndexMap::new();
    for b in bindings {
        let values = match &b.values {
            BindingValues::Range(lo, hi) => {
                let size = range_len(*lo, *hi);
                if size > MAX_DOMAIN_ELEMENTS {
                    return fatal(
                        format!(
                            "The range {lo}..{hi} has {size} elements, more than the limit of \
                             {MAX_DOMAIN_ELEMENTS} elements per domain (raise MAX_DOMAIN_ELEMENTS \
                             in {LIMITS_FILE} to allow more)."
                        ),
                        b.span,
                    );
                }
                (*lo..=*hi).map(|n| Value::symbol(n.to_string())).collect()
            }
            BindingValues::List(names) => names.iter().map(|n| Value::symbol(&n.text)).collect(),
        };
        if sets.insert(b.variable.text.clone(), values).is_some() {
            return fatal(
                format!("Duplicated domain value \"{}\".", b.variable.text),
                b.variable.span,
            );
        }
    }
    Ok(sets)
}

fn product(columns: &[Vec<Value>]) -> Vec<Vec<Value>> {
    let mut rows: Vec<Vec<Value>> = vec![Vec::new()];
    for column in columns {
        let mut next = Vec::with_capacity(rows.len() * column.len());
        for row in &rows {
            for v in column {
                let mut r = row.clone();
                r.push(v.clone());
                next.push(r);
            }
        }
        rows = next;
    }
    rows
}

/// `domain D = C(N) where N in lo..hi` → `@integer lo : C__lo ... C__hi`.
fn integer_pragma(d: &DomainDecl) -> Option<(u64, Vec<String>)> {
    let [Element::Generator {
        constructor,
        arguments,
        bindings,
        ..
    }] = d.elements.as_slice()
    else {
        return None;
    };
    let ([argument], [binding]) = (arguments.as_slice(), bindings.as_slice()) else {
        return None;
    };
    let BindingValues::Range(lo, hi) = binding.values else {
        return None;
    };
    if !argument.is_upper() || argument.text != binding.variable.text || lo < 0 || lo > hi {
        return None;
    }
    let symbols = (lo..=hi)
        .map(|n| format!("{}__{n}", constructor.text))
        .collect();
    Some((lo as u64, symbols))
}

/// Static evaluation over a program's domains and constant functions.
pub struct Evaluator<'p> {
    pub domains: &'p Domains,
    pub functions: HashMap<&'p str, &'p FunctionDecl>,
    /// Domain elements that are plain symbols: an upper-case name that is
    /// not bound but is one of them (`STOP` of `domain C = STOP | GO`)
    /// denotes that symbol (hrg.md §3.3).
    pub symbols: HashSet<String>,
    /// Each domain's elements, for `v in D` in constant time (a function
    /// testing membership over a domain of 65,536 elements took a minute
    /// to tabulate with a linear scan).
    members: HashMap<&'p str, HashSet<&'p Value>>,
}

/// Nesting bound for constant-function calls, so that a function calling
/// itself fails instead of overflowing the stack.
const MAX_CALL_DEPTH: usize = 200;

impl<'p> Evaluator<'p> {
    pub fn new(program: &'p Program, domains: &'p Domains) -> Self {
        Evaluator {
            domains,
            functions: program
                .functions()
                .map(|f| (f.name.text.as_str(), f))
                .collect(),
            symbols: domains
                .values
                .values()
                .flatten()
                .filter_map(|v| match v {
                    Value::Symbol(s) => Some(s.clone()),
                    _ => None,
                })
                .collect(),
            members: domains
                .values
                .iter()
                .map(|(name, values)| (name.as_str(), values.iter().collect()))
                .collect(),
        }
    }

    pub fn eval(&self, e: &Expr, bindings: &Bindings) -> Result<Value, Diagnostic> {
        self.eval_at(e, bindings, 0)
    }

    fn eval_at(&self, e: &Expr, bindings: &Bindings, depth: usize) -> Result<Value, Diagnostic> {
        match &e.kind {
            ExprKind::Name(name) => match bindings.get(&name.text) {
                Some(v) => Ok(v.clone()),
                None if name.is_upper() && !self.symbols.contains(&name.text) => {
                    fatal(format!("Unknown variable \"{}\".", name.text), name.span)
                }
                None => Ok(Value::symbol(&name.text)),
            },
            ExprKind::Paren(inner) => self.eval_at(inner, bindings, depth),
            ExprKind::Constructor(name, args) => {
                let args = args
                    .iter()
                    .map(|a| self.eval_at(a, bindings, depth))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Value::Constructor(name.text.clone(), args))
            }
            ExprKind::Call(callee, args) => {
                let ExprKind::Name(name) = &callee.kind else {
                    return fatal(
                        "Chained calls such as f(a)(b) cannot be evaluated at translation time.",
                        e.span,
                    );
                };
                let Some(f) = self.functions.get(name.text.as_str()) else {
                    return fatal(format!("Unknown function \"{}\".", name.text), name.span);
                };
                let args = args
                    .iter()
                    .map(|a| self.eval_at(a, bindings, depth))
                    .collect::<Result<Vec<_>, _>>()?;
                self.apply(f, &args, e.span, depth + 1)
            }
            ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mod), l, r) => {
                let (a, b) = (
                    self.eval_at(l, bindings, depth)?,
                    self.eval_at(r, bindings, depth)?,
                );
                let (Some(x), Some(y)) = (a.as_integer(), b.as_integer()) else {
                    return fatal(
                        format!("Values \"{a}\" and \"{b}\" are not both integers, so \"{}\" cannot be computed.", op.text()),
                        e.span,
                    );
                };
                let result = match op {
                    BinaryOp::Add => x + y,
                    BinaryOp::Sub => x - y,
                    _ if y == 0 => return fatal("Modulo by zero.", e.span),
                    _ => (x + y) % y,
                };
                Ok(Value::symbol(result.to_string()))
            }
            ExprKind::If(c, a, b) => {
                if self.condition(c, bindings, depth)? {
                    self.eval_at(a, bindings, depth)
                } else {
                    self.eval_at(b, bindings, depth)
                }
            }
            ExprKind::Map(map) => self.map_literal(map, bindings, depth).map(Value::Map),
            ExprKind::Access(..) => fatal(
                "Map access cannot be evaluated at translation time.",
                e.span,
            ),
            ExprKind::Binary(op, ..) => fatal(
                format!(
                    "A condition (\"{}\") is not a value; use if ... then ... else.",
                    op.text()
                ),
                e.span,
            ),
        }
    }

    /// Static conditions: comparisons, `in`, `&&`, `||` (§3.2).
    pub fn condition(
        &self,
        e: &Expr,
        bindings: &Bindings,
        depth: usize,
    ) -> Result<bool, Diagnostic> {
        match &e.kind {
            ExprKind::Paren(inner) => self.condition(inner, bindings, depth),
            ExprKind::Binary(BinaryOp::And, l, r) => {
                Ok(self.condition(l, bindings, depth)? && self.condition(r, bindings, depth)?)
            }
            ExprKind::Binary(BinaryOp::Or, l, r) => {
                Ok(self.condition(l, bindings, depth)? || self.condition(r, bindings, depth)?)
            }
            ExprKind::Binary(BinaryOp::In, l, r) => {
                let v = self.eval_at(l, bindings, depth)?;
                Ok(match &r.kind {
                    ExprKind::Name(d) => self
                        .members
                        .get(d.text.as_str())
                        .is_some_and(|values| values.contains(&v)),
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
                let (a, b) = (
                    self.eval_at(l, bindings, depth)?,
                    self.eval_at(r, bindings, depth)?,
                );
                let Some(order) = compare(&a, &b) else {
                    return fatal(
                        format!("Values \"{a}\" and \"{b}\" are not comparable."),
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
            _ => fatal(
                format!(
                    "Expression \"{}\" is not a valid condition.",
                    crate::display::expr(e)
                ),
                e.span,
            ),
        }
    }

    /// Applies a constant function: the first case whose patterns match.
    pub fn apply(
        &self,
        f: &FunctionDecl,
        args: &[Value],
        span: Span,
        depth: usize,
    ) -> Result<Value, Diagnostic> {
        if depth > MAX_CALL_DEPTH {
            return fatal(
                format!("Function \"{}\" calls itself without end.", f.name.text),
                span,
            );
        }
        let arity = f.cases[0].patterns.len();
        if args.len() != arity {
            return fatal(
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
                .all(|(p, v)| match_pattern(p, v, &mut bindings))
            {
                return self.eval_at(&case.body, &bindings, depth);
            }
        }
        let shown: Vec<String> = args.iter().map(ToString::to_string).collect();
        fatal(
            format!("No case for {}({})", f.name.text, shown.join(", ")),
            span,
        )
    }

    /// The full table of a constant function as an RG map (§2.5), and the
    /// cases that were never selected (for an overlap warning).
    pub fn tabulate(&self, f: &FunctionDecl) -> Result<(rg::Value, Vec<usize>), Diagnostic> {
        let (keys, _) = f.ty.arrows();
        if keys.is_empty() {
            return fatal(
                format!(
                    "Function \"{}\" must have an arrow type (there are no 0-ary constants).",
                    f.name.text
                ),
                f.ty.span(),
            );
        }
        let arity = f.cases[0].patterns.len();
        for case in &f.cases {
            if case.patterns.len() != arity {
                return fatal(
                    format!(
                        "Every case of \"{}\" must have {arity} patterns, like the first one.",
                        f.name.text
                    ),
                    case.span,
                );
            }
        }
        if arity == 0 || arity > keys.len() {
            return fatal(
                format!(
                    "Cases of \"{}\" must have between 1 and {} patterns.",
                    f.name.text,
                    keys.len()
                ),
                f.cases[0].span,
            );
        }
        let mut domains = Vec::new();
        for key in &keys[..arity] {
            match self.domains.get(&key.text) {
                Some(values) => domains.push(values),
                None => return fatal(format!("Unknown type \"{}\".", key.text), key.span),
            }
        }
        let entries = domains
            .iter()
            .try_fold(1u64, |n, d| n.checked_mul(d.len() as u64))
            .filter(|&n| n <= MAX_TABLE_ENTRIES);
        if entries.is_none() {
            return fatal(
                format!(
                    "The table of function \"{}\" would have more than {MAX_TABLE_ENTRIES} entries \
                     (raise MAX_TABLE_ENTRIES in {LIMITS_FILE} to allow more).",
                    f.name.text
                ),
                f.ty.span(),
            );
        }
        let mut used = vec![false; f.cases.len()];
        let table = self.table(f, &domains, &mut Vec::new(), &mut used)?;
        let unused = used
            .iter()
            .enumerate()
            .filter(|(_, u)| !**u)
            .map(|(k, _)| k)
            .collect();
        Ok((table, unused))
    }

    fn table(
        &self,
        f: &FunctionDecl,
        domains: &[&[Value]],
        prefix: &mut Vec<Value>,
        used: &mut [bool],
    ) -> Result<rg::Value, Diagnostic> {
        let level = prefix.len();
        let mut entries = Vec::new();
        for key in domains[level] {
            prefix.push(key.clone());
            let value = if level + 1 == domains.len() {
                let (index, v) = self.select(f, prefix)?;
                used[index] = true;
                if v.is_map() {
                    return fatal(format!("Function \"{}\" returns a map; results must be symbols or constructors.", f.name.text), f.cases[index].body.span);
                }
                v.to_rg()
            } else {
                self.table(f, domains, prefix, used)?
            };
            prefix.pop();
            entries.push((key.serialize(), value));
        }
        Ok(compress(entries))
    }

    fn select(&self, f: &FunctionDecl, args: &[Value]) -> Result<(usize, Value), Diagnostic> {
        for (index, case) in f.cases.iter().enumerate() {
            let mut bindings = Bindings::new();
            if case
                .patterns
                .iter()
                .zip(args)
                .all(|(p, v)| match_pattern(p, v, &mut bindings))
            {
                return Ok((index, self.eval_at(&case.body, &bindings, 1)?));
            }
        }
        let shown: Vec<String> = args.iter().map(ToString::to_string).collect();
        fatal(
            format!("No case for {}({})", f.name.text, shown.join(", ")),
            f.span,
        )
    }

    /// A map literal (§2.4).
    pub fn map_literal(
        &self,
        map: &MapLiteral,
        bindings: &Bindings,
        depth: usize,
    ) -> Result<MapValue, Diagnostic> {
        let default = match &map.default {
            Some(d) => Some(Box::new(self.eval_at(d, bindings, depth)?)),
            None => None,
        };
        let mut entries: Vec<(String, Value)> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        for part in &map.parts {
            if let Pattern::Wildcard(span) = part.key {
                return fatal("The wildcard \"_\" is only allowed in the form { _ = v } of a whole initializer.", span);
            }
            let sets = binding_sets(&part.bindings)?;
            let names: Vec<&String> = sets.keys().collect();
            let columns: Vec<Vec<Value>> = sets.values().cloned().collect();
            for combination in product(&columns) {
                let mut local = bindings.clone();
                for (name, v) in names.iter().zip(combination) {
                    local.insert((*name).clone(), v);
                }
                let key = instantiate(&part.key, &local, &self.symbols)?;
                let serialized = key.serialize();
                if !seen.insert(serialized.clone()) {
                    return fatal(format!("Duplicated map key \"{key}\"."), part.key.span());
                }
                entries.push((serialized, self.eval_at(&part.value, &local, depth)?));
            }
        }
        Ok(MapValue { default, entries })
    }

    /// A variable's initial value: its initializer (the `{ _ = v }` form
    /// meaning "every key maps to v"), or the default of its type.
    pub fn initial_value(&self, v: &VariableDecl) -> Result<rg::Value, Diagnostic> {
        match &v.init {
            Some(Expr {
                kind:
                    ExprKind::Map(MapLiteral {
                        default: None,
                        parts,
                    }),
                ..
            }) if parts.len() == 1
                && matches!(parts[0].key, Pattern::Wildcard(_))
                && parts[0].bindings.is_empty() =>
            {
                let value = self.eval(&parts[0].value, &Bindings::new())?;
                Ok(rg::Value::map(value.to_rg(), []))
            }
            Some(init) => Ok(self.eval(init, &Bindings::new())?.to_rg()),
            None => self.default_value(&v.ty),
        }
    }

    /// The default of a type (§2.3): a domain's first element, or for
    /// `K -> V` the map sending every key to the default of `V`.
    pub fn default_value(&self, ty: &TypeExpr) -> Result<rg::Value, Diagnostic> {
        match ty {
            TypeExpr::Set(_, span) => fatal(
                "A variable of a set-literal type needs an initializer (set literals have no default value).",
                *span,
            ),
            TypeExpr::Named(name, Some(target)) => {
                if !self.domains.contains(&name.text) {
                    return fatal(format!("Unknown type \"{}\".", name.text), name.span);
                }
                Ok(rg::Value::map(self.default_value(target)?, []))
            }
            TypeExpr::Named(name, None) => match self.domains.get(&name.text).and_then(<[Value]>::first) {
                Some(first) => Ok(first.to_rg()),
                None => fatal(format!("Unknown type \"{}\".", name.text), name.span),
            },
        }
    }
}

/// Matches a value against a pattern, extending the bindings (§2.5).
pub fn match_pattern(p: &Pattern, v: &Value, bindings: &mut Bindings) -> bool {
    match p {
        Pattern::Wildcard(_) => true,
        Pattern::Name(name) if name.is_upper() => match bindings.get(&name.text) {
            // A variable repeated in one case must match equal values.
            Some(bound) => bound == v,
            None => {
                bindings.insert(name.text.clone(), v.clone());
                true
            }
        },
        Pattern::Name(name) => matches!(v, Value::Symbol(s) if *s == name.text),
        Pattern::Constructor(name, args, _) => match v {
            Value::Constructor(c, values) if *c == name.text && values.len() == args.len() => args
                .iter()
                .zip(values)
                .all(|(p, v)| match_pattern(p, v, bindings)),
            _ => false,
        },
    }
}

/// A map key from a pattern whose variables are bound (an unbound
/// upper-case name that is a domain symbol is that symbol).
fn instantiate(
    p: &Pattern,
    bindings: &Bindings,
    symbols: &HashSet<String>,
) -> Result<Value, Diagnostic> {
    match p {
        Pattern::Wildcard(span) => fatal("The wildcard \"_\" cannot be a map key here.", *span),
        Pattern::Name(name) if name.is_upper() => match bindings.get(&name.text) {
            Some(v) => Ok(v.clone()),
            None if symbols.contains(&name.text) => Ok(Value::symbol(&name.text)),
            None => fatal(format!("Unknown variable \"{}\".", name.text), name.span),
        },
        Pattern::Name(name) => Ok(Value::symbol(&name.text)),
        Pattern::Constructor(name, args, _) => Ok(Value::Constructor(
            name.text.clone(),
            args.iter()
                .map(|a| instantiate(a, bindings, symbols))
                .collect::<Result<_, _>>()?,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program;

    fn setup(text: &str) -> Program {
        parse_program(text).unwrap()
    }

    #[test]
    fn domains_generators_unions_and_integer_pragmas() {
        let p = setup(
            "domain Player = x | o\ndomain Piece = empty | Player\ndomain Pos = P(I, J) where J in 0..1, I in { a, b }\n\
             domain Dice = D(N) where N in 1..3\ndomain Diag = P(X, X) where X in 0..1\n",
        );
        let d = Domains::evaluate(&p).unwrap();
        let names = |n: &str| {
            d.get(n)
                .unwrap()
                .iter()
                .map(Value::serialize)
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(names("Piece"), "empty x o");
        // First argument varies slowest, whatever the binding order.
        assert_eq!(names("Pos"), "P__a_0 P__a_1 P__b_0 P__b_1");
        assert_eq!(names("Diag"), "P__0_0 P__0_1 P__1_0 P__1_1");
        assert_eq!(
            d.integer_pragmas,
            vec![(1, vec!["D__1".to_string(), "D__2".into(), "D__3".into()])]
        );
    }

    #[test]
    fn domain_errors() {
        let e = |t: &str| {
            Domains::evaluate(&setup(t)).err().unwrap()[0]
                .message
                .clone()
        };
        assert_eq!(
            e("domain A = a\ndomain A = b\n"),
            "Duplicated domain \"A\"."
        );
        assert_eq!(
            e("domain A = C(X, Y) where X in 0..1\n"),
            "Generator variable \"Y\" has no binding in the where clause."
        );
        assert_eq!(
            e("domain A = B\ndomain B = A\n"),
            "Domain \"A\" is defined recursively."
        );
    }

    #[test]
    fn functions_tabulate_with_compression() {
        let p = setup(
            "domain Cell = C(N) where N in 0..3\ndomain CellOrNone = none | Cell\n\
             right : CellOrNone -> CellOrNone\nright(C(N)) = if N == 3 then none else C(N + 1)\nright(none) = none\n\
             domain Player = red | blue\nother : Player -> Player\nother(red) = blue\nother(blue) = red\n\
             m : Cell -> Cell\nm(C(J)) = C((J - 1) % 4)\n",
        );
        let d = Domains::evaluate(&p).unwrap();
        let ev = Evaluator::new(&p, &d);
        let table = |name: &str| ev.tabulate(ev.functions[name]).unwrap().0.to_string();
        assert_eq!(
            table("right"),
            "{ :none, C__0: C__1, C__1: C__2, C__2: C__3 }"
        );
        assert_eq!(table("other"), "{ :red, red: blue }");
        // (J - 1) % 4 with J = 0 is 3; all results tie, the greatest (C__3) is the default.
        assert_eq!(table("m"), "{ :C__3, C__1: C__0, C__2: C__1, C__3: C__2 }");
    }

    #[test]
    fn non_exhaustive_function_is_fatal_and_unused_cases_are_reported() {
        let p = setup("domain D = a | b | c\nf : D -> D\nf(a) = b\nf(b) = a\ng : D -> D\ng(_) = a\ng(b) = b\n");
        let d = Domains::evaluate(&p).unwrap();
        let ev = Evaluator::new(&p, &d);
        assert_eq!(
            ev.tabulate(ev.functions["f"]).unwrap_err().message,
            "No case for f(c)"
        );
        assert_eq!(ev.tabulate(ev.functions["g"]).unwrap().1, vec![1]);
    }

    #[test]
    fn map_literals_and_defaults() {
        let p = setup(
            "domain Pos = P(I) where I in 0..2\ndomain Piece = empty | x\n\
             a : Pos -> Piece = { :empty; P(I) = x where I in 0..1 }\n\
             b : Pos -> Piece = { P(I) = x where I in 0..1; P(2) = empty }\n\
             c : Pos -> Piece = { _ = x }\nd : Pos -> Pos -> Piece\ne : Pos -> Piece = { P(0) = x; P(0) = empty }\n",
        );
        let d = Domains::evaluate(&p).unwrap();
        let ev = Evaluator::new(&p, &d);
        let vars: Vec<&VariableDecl> = p.variables().collect();
        let init = |k: usize| ev.initial_value(vars[k]).map(|v| v.to_string());
        assert_eq!(init(0).unwrap(), "{ :empty, P__0: x, P__1: x }");
        assert_eq!(init(1).unwrap(), "{ :x, P__2: empty }");
        assert_eq!(init(2).unwrap(), "{ :x }");
        assert_eq!(init(3).unwrap(), "{ :{ :P__0 } }".replace("P__0", "empty"));
        assert_eq!(init(4).unwrap_err().message, "Duplicated map key \"P(0)\".");
    }

    #[test]
    fn static_conditions() {
        let p = setup("domain D = V(X) where X in 0..9\nf : D -> D\nf(V(X)) = if V(X + 1) in D && X != 5 then V(X + 1) else V(0)\n");
        let d = Domains::evaluate(&p).unwrap();
        let ev = Evaluator::new(&p, &d);
        let table = ev.tabulate(ev.functions["f"]).unwrap().0.to_string();
        assert!(table.contains("V__4: V__5"), "{table}");
        assert!(!table.contains("V__5: V__6"), "{table}");
        assert!(!table.contains("V__9: V__10"), "{table}");
    }
}
