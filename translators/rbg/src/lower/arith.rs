//! Arithmetic (rbg.md §5.6) as table lookups, exactly as §2.8 evaluates.
//!
//! Every sub-expression gets the finite set of integers it can take (a
//! variable `0..=bound`, a player's score `0..=bound`, a piece count
//! `0..=|V|`, a literal itself; an operation combines its operands' sets).
//! Operations with a non-literal operand become constant maps from those
//! sets to the result set, so intermediate values are exact integers —
//! negative ones included (symbols `negK`) — and nothing is clipped to a
//! common limit. Division by zero gives the `nan` symbol, which propagates
//! through every map. An assignment's range check is folded into the map
//! of its outermost operation (out-of-range results become `nan`), so
//! `[$ v = e]` is `E != nan` (only when `nan` is possible) then `v = E`.
//! Literal-only parts are folded.

use std::collections::BTreeSet;

use rg_core::ast::{Expr, Label, Type, Value};
use rg_core::diag::{Diagnostic, Span};

use super::graph::{Kind, Step};
use super::names::number;
use super::Lowerer;
use crate::ast::{self, ArithOp, CompareOp, ExprKind, Symbol};

/// Values, can-be-nan flag, result type and default symbol of a table.
type Tabulated = (BTreeSet<i128>, bool, Type, String);

/// Largest constant map built for one operation.
pub(crate) const MAX_TABLE_ENTRIES: usize = 1 << 20;
/// Most values a number type may have.
pub(crate) const MAX_VALUES: usize = 1 << 17;

/// The value of an expression at translation time.
#[derive(Clone, Debug)]
pub(crate) enum Num {
    /// A literal result; `None` when undefined (division by zero).
    Const(Option<i128>),
    Dyn(Dyn),
}

/// A value known only at run time.
#[derive(Clone, Debug)]
pub(crate) struct Dyn {
    pub expr: Expr,
    /// Its RG type (a set type holding every symbol of `values`, and `nan`
    /// when `nan` is set).
    pub ty: Type,
    /// The integers it can take, ascending.
    pub values: Vec<i128>,
    /// Whether it can be undefined.
    pub nan: bool,
}

/// A condition at translation time.
pub(crate) enum Cond {
    Always,
    Never,
    Steps(Vec<Step>),
}

fn apply(op: ArithOp, x: i128, y: i128) -> Option<i128> {
    match op {
        ArithOp::Add => x.checked_add(y),
        ArithOp::Sub => x.checked_sub(y),
        ArithOp::Mul => x.checked_mul(y),
        ArithOp::Div => {
            if y == 0 {
                None
            } else {
                x.checked_div(y)
            }
        }
    }
}

fn flip(op: CompareOp) -> CompareOp {
    match op {
        CompareOp::Less => CompareOp::Greater,
        CompareOp::LessEq => CompareOp::GreaterEq,
        CompareOp::Greater => CompareOp::Less,
        CompareOp::GreaterEq => CompareOp::LessEq,
        other => other,
    }
}

fn op_hint(op: ArithOp, constant: Option<i128>) -> &'static str {
    match (op, constant) {
        (ArithOp::Add, Some(1)) => "increment",
        (ArithOp::Sub, Some(1)) => "decrement",
        (ArithOp::Add, _) => "add",
        (ArithOp::Sub, _) => "subtract",
        (ArithOp::Mul, _) => "multiply",
        (ArithOp::Div, _) => "divide",
    }
}

fn compare_hint(op: CompareOp) -> &'static str {
    match op {
        CompareOp::Less => "less",
        CompareOp::LessEq => "lessOrEqual",
        CompareOp::Greater => "greater",
        CompareOp::GreaterEq => "greaterOrEqual",
        CompareOp::Equal => "equal",
        CompareOp::NotEqual => "different",
    }
}

fn test(label: Label) -> Step {
    (label, Kind::Test)
}

fn too_large(what: &str, span: Span) -> Diagnostic {
    Diagnostic::error(format!("arithmetic too large to translate: {what}"), span)
        .with_label("in this expression")
        .with_note(
            "the RG translation tabulates every operation over the values its operands can take",
        )
}

impl Lowerer<'_> {
    /// The RG form of `expr`; `restrict` (inclusive) turns results of the
    /// outermost operation outside the range into `nan`.
    pub(crate) fn eval(
        &mut self,
        expr: &ast::Expr,
        restrict: Option<(i128, i128)>,
    ) -> Result<Num, Diagnostic> {
        match &expr.kind {
            ExprKind::Number(n) => Ok(Num::Const(Some(i128::from(*n)))),
            ExprKind::Name(name) => self.leaf(name, expr.span),
            ExprKind::Binary { op, left, right } => {
                let l = self.eval(left, None)?;
                let r = self.eval(right, None)?;
                let op = *op;
                match (l, r) {
                    (Num::Const(None), _) | (_, Num::Const(None)) => Ok(Num::Const(None)),
                    (Num::Const(Some(x)), Num::Const(Some(y))) => Ok(Num::Const(apply(op, x, y))),
                    (Num::Dyn(a), Num::Const(Some(c))) => self.unary(
                        &a,
                        &|v| apply(op, v, c),
                        restrict,
                        op_hint(op, Some(c)),
                        expr.span,
                    ),
                    (Num::Const(Some(c)), Num::Dyn(b)) => self.unary(
                        &b,
                        &|v| apply(op, c, v),
                        restrict,
                        op_hint(op, None),
                        expr.span,
                    ),
                    (Num::Dyn(a), Num::Dyn(b)) => self.binary(
                        &a,
                        &b,
                        &|x, y| apply(op, x, y),
                        restrict,
                        op_hint(op, None),
                        expr.span,
                    ),
                }
            }
        }
    }

    fn leaf(&mut self, name: &str, span: Span) -> Result<Num, Diagnostic> {
        let unknown = || Diagnostic::error(format!("undeclared name `{name}`"), span);
        Ok(Num::Dyn(
            match self.game.symbol(name).ok_or_else(unknown)? {
                Symbol::Variable(i) => {
                    let bound = self.game.variables[i].bound;
                    Dyn {
                        expr: Expr::name(self.names.variables[i].clone()),
                        ty: self.bound_type(bound),
                        values: (0..=i128::from(bound)).collect(),
                        nan: false,
                    }
                }
                Symbol::Player(i) => Dyn {
                    expr: Expr::name("goals").at_key(Expr::name(self.names.players[i].clone())),
                    ty: self.score_type.clone(),
                    values: (0..=i128::from(self.game.players[i].bound)).collect(),
                    nan: false,
                },
                Symbol::Piece(i) => Dyn {
                    expr: Expr::name(self.counters.clone())
                        .at_key(Expr::name(self.names.pieces[i].clone())),
                    ty: self.counter_type(),
                    values: (0..=self.game.board.len() as i128).collect(),
                    nan: false,
                },
            },
        ))
    }

    /// The type of a result: `nan` (if possible) then the values.
    fn result_type(&mut self, values: &BTreeSet<i128>, nan: bool) -> Type {
        let mut symbols = Vec::with_capacity(values.len() + 1);
        if nan {
            symbols.push(self.names.nan.clone());
        }
        symbols.extend(values.iter().map(|&v| number(v)));
        self.set_type("Values", symbols)
    }

    /// The outcome of a tabulated operation: its values, whether it can be
    /// undefined (nan), its type and the default symbol of its tables.
    fn finish(
        &mut self,
        results: &[Option<i128>],
        span: Span,
    ) -> Result<Option<Tabulated>, Diagnostic> {
        let values: BTreeSet<i128> = results.iter().flatten().copied().collect();
        let nan = results.iter().any(Option::is_none);
        if values.len() > MAX_VALUES {
            return Err(too_large(
                &format!("{} possible values", values.len()),
                span,
            ));
        }
        if values.is_empty() {
            return Ok(None);
        }
        let ty = self.result_type(&values, nan);
        let default = if nan {
            self.names.nan.clone()
        } else {
            number(*values.iter().next().unwrap_or(&0))
        };
        Ok(Some((values, nan, ty, default)))
    }

    fn symbol_of(&self, result: Option<i128>) -> String {
        result.map_or_else(|| self.names.nan.clone(), number)
    }

    fn unary(
        &mut self,
        a: &Dyn,
        f: &dyn Fn(i128) -> Option<i128>,
        restrict: Option<(i128, i128)>,
        hint: &str,
        span: Span,
    ) -> Result<Num, Diagnostic> {
        let within = |r: &i128| restrict.is_none_or(|(lo, hi)| lo <= *r && *r <= hi);
        let mut results: Vec<Option<i128>> =
            a.values.iter().map(|&v| f(v).filter(within)).collect();
        if a.nan {
            results.push(None);
        }
        let Some((values, nan, ty, default)) = self.finish(&results, span)? else {
            return Ok(Num::Const(None));
        };
        if values.len() == 1 && !nan {
            return Ok(Num::Const(values.into_iter().next()));
        }
        let entries: Vec<(String, Value)> = a
            .values
            .iter()
            .zip(&results)
            .map(|(&v, &r)| (number(v), self.symbol_of(r)))
            .filter(|(_, r)| *r != default)
            .map(|(k, r)| (k, Value::symbol(r)))
            .collect();
        let table = self.b.constant(
            hint,
            Type::arrow(a.ty.clone(), ty.clone()),
            Value::map(Value::symbol(default), entries),
        );
        Ok(Num::Dyn(Dyn {
            expr: table.at_key(a.expr.clone()),
            ty,
            values: values.into_iter().collect(),
            nan,
        }))
    }

    fn binary(
        &mut self,
        a: &Dyn,
        b: &Dyn,
        f: &dyn Fn(i128, i128) -> Option<i128>,
        restrict: Option<(i128, i128)>,
        hint: &str,
        span: Span,
    ) -> Result<Num, Diagnostic> {
        let size = a.values.len().saturating_mul(b.values.len());
        if size > MAX_TABLE_ENTRIES {
            return Err(too_large(&format!("a table of {size} entries"), span));
        }
        let within = |r: &i128| restrict.is_none_or(|(lo, hi)| lo <= *r && *r <= hi);
        let rows: Vec<Vec<Option<i128>>> = a
            .values
            .iter()
            .map(|&x| b.values.iter().map(|&y| f(x, y).filter(within)).collect())
            .collect();
        let mut all: Vec<Option<i128>> = rows.iter().flatten().copied().collect();
        if a.nan || b.nan {
            all.push(None);
        }
        let Some((values, nan, ty, default)) = self.finish(&all, span)? else {
            return Ok(Num::Const(None));
        };
        if values.len() == 1 && !nan {
            return Ok(Num::Const(values.into_iter().next()));
        }
        let inner_default = Value::map(Value::symbol(default.clone()), []);
        let mut entries = Vec::new();
        for (&x, row) in a.values.iter().zip(&rows) {
            let inner: Vec<(String, Value)> = b
                .values
                .iter()
                .zip(row)
                .map(|(&y, &r)| (number(y), self.symbol_of(r)))
                .filter(|(_, r)| *r != default)
                .map(|(k, r)| (k, Value::symbol(r)))
                .collect();
            if !inner.is_empty() {
                entries.push((number(x), Value::map(Value::symbol(default.clone()), inner)));
            }
        }
        let table = self.b.constant(
            hint,
            Type::arrow(a.ty.clone(), Type::arrow(b.ty.clone(), ty.clone())),
            Value::map(inner_default, entries),
        );
        Ok(Num::Dyn(Dyn {
            expr: table.at_key(a.expr.clone()).at_key(b.expr.clone()),
            ty,
            values: values.into_iter().collect(),
            nan,
        }))
    }

    /// `[$ target = value]` (rbg.md §2.8: valid iff defined and within
    /// `0..=bound(target)`).
    pub(crate) fn assignment(
        &mut self,
        target: &str,
        value: &ast::Expr,
    ) -> Result<Cond, Diagnostic> {
        let (lhs, bound) = match self.game.symbol(target) {
            Some(Symbol::Variable(i)) => (
                Expr::name(self.names.variables[i].clone()),
                self.game.variables[i].bound,
            ),
            Some(Symbol::Player(i)) => (
                Expr::name("goals").at_key(Expr::name(self.names.players[i].clone())),
                self.game.players[i].bound,
            ),
            _ => {
                return Err(Diagnostic::error(
                    format!("cannot assign to `{target}`"),
                    value.span,
                ))
            }
        };
        let range = (0, i128::from(bound));
        let mut num = self.eval(value, Some(range))?;
        if let Num::Dyn(d) = &num {
            if d.values.iter().any(|&v| v < range.0 || v > range.1) {
                num = self.unary(&d.clone(), &|v| Some(v), Some(range), "inRange", value.span)?;
            }
        }
        Ok(match num {
            Num::Const(Some(c)) if range.0 <= c && c <= range.1 => Cond::Steps(vec![(
                label_assign(lhs, Expr::name(number(c))),
                Kind::Assign,
            )]),
            Num::Const(_) => Cond::Never,
            Num::Dyn(d) => {
                let mut steps = Vec::new();
                if d.nan {
                    steps.push(test(ne(d.expr.clone(), Expr::name(self.names.nan.clone()))));
                }
                steps.push((label_assign(lhs, d.expr), Kind::Assign));
                Cond::Steps(steps)
            }
        })
    }

    /// `{$ left op right}`: false when a side is undefined.
    pub(crate) fn comparison(
        &mut self,
        left: &ast::Expr,
        op: CompareOp,
        right: &ast::Expr,
    ) -> Result<Cond, Diagnostic> {
        let l = self.eval(left, None)?;
        let r = self.eval(right, None)?;
        let span = left.span.join(right.span);
        Ok(match (l, r) {
            (Num::Const(None), _) | (_, Num::Const(None)) => Cond::Never,
            (Num::Const(Some(x)), Num::Const(Some(y))) => {
                if op.holds(x, y) {
                    Cond::Always
                } else {
                    Cond::Never
                }
            }
            (Num::Dyn(a), Num::Const(Some(c))) => self.compare_constant(&a, op, c)?,
            (Num::Const(Some(c)), Num::Dyn(b)) => self.compare_constant(&b, flip(op), c)?,
            (Num::Dyn(a), Num::Dyn(b)) => self.compare_both(&a, op, &b, span)?,
        })
    }

    fn nan_guard(&self, d: &Dyn) -> Option<Step> {
        d.nan
            .then(|| test(ne(d.expr.clone(), Expr::name(self.names.nan.clone()))))
    }

    fn compare_constant(&mut self, a: &Dyn, op: CompareOp, c: i128) -> Result<Cond, Diagnostic> {
        let holding: Vec<i128> = a
            .values
            .iter()
            .copied()
            .filter(|&v| op.holds(v, c))
            .collect();
        let failing: Vec<i128> = a
            .values
            .iter()
            .copied()
            .filter(|&v| !op.holds(v, c))
            .collect();
        if holding.is_empty() {
            return Ok(Cond::Never);
        }
        let mut steps: Vec<Step> = Vec::new();
        if failing.is_empty() {
            steps.extend(self.nan_guard(a));
            return Ok(if steps.is_empty() {
                Cond::Always
            } else {
                Cond::Steps(steps)
            });
        }
        // One value passes (`nan` never equals a number), or one fails.
        if let [v] = holding.as_slice() {
            if *v >= 0 {
                return Ok(Cond::Steps(vec![test(eq(
                    a.expr.clone(),
                    Expr::name(number(*v)),
                ))]));
            }
        }
        if let [v] = failing.as_slice() {
            if *v >= 0 {
                steps.extend(self.nan_guard(a));
                steps.push(test(ne(a.expr.clone(), Expr::name(number(*v)))));
                return Ok(Cond::Steps(steps));
            }
        }
        let entries: Vec<(String, Value)> = holding
            .iter()
            .map(|&v| (number(v), Value::symbol("1")))
            .collect();
        let table = self.b.constant(
            compare_hint(op),
            Type::arrow(a.ty.clone(), Type::name("Bool")),
            Value::map(Value::symbol("0"), entries),
        );
        Ok(Cond::Steps(vec![test(eq(
            table.at_key(a.expr.clone()),
            Expr::name("1"),
        ))]))
    }

    fn compare_both(
        &mut self,
        a: &Dyn,
        op: CompareOp,
        b: &Dyn,
        span: Span,
    ) -> Result<Cond, Diagnostic> {
        let mut guards: Vec<Step> = Vec::new();
        guards.extend(self.nan_guard(a));
        guards.extend(self.nan_guard(b));
        if matches!(op, CompareOp::Equal | CompareOp::NotEqual) {
            let common = a.values.iter().any(|v| b.values.binary_search(v).is_ok());
            let never_equal = !common;
            let always_equal = a.values.len() == 1 && b.values == a.values;
            let holds = match (op, never_equal, always_equal) {
                (CompareOp::Equal, true, _) | (CompareOp::NotEqual, _, true) => false,
                (CompareOp::Equal, _, true) | (CompareOp::NotEqual, true, _) => true,
                _ => {
                    guards.push(test(if op == CompareOp::Equal {
                        eq(a.expr.clone(), b.expr.clone())
                    } else {
                        ne(a.expr.clone(), b.expr.clone())
                    }));
                    return Ok(Cond::Steps(guards));
                }
            };
            return Ok(match (holds, guards.is_empty()) {
                (false, _) => Cond::Never,
                (true, true) => Cond::Always,
                (true, false) => Cond::Steps(guards),
            });
        }
        let size = a.values.len().saturating_mul(b.values.len());
        if size > MAX_TABLE_ENTRIES {
            return Err(too_large(&format!("a table of {size} entries"), span));
        }
        let mut any_holds = false;
        let mut all_hold = true;
        let mut entries = Vec::new();
        for &x in &a.values {
            let inner: Vec<(String, Value)> = b
                .values
                .iter()
                .filter(|&&y| op.holds(x, y))
                .map(|&y| (number(y), Value::symbol("1")))
                .collect();
            any_holds |= !inner.is_empty();
            all_hold &= inner.len() == b.values.len();
            if !inner.is_empty() {
                entries.push((number(x), Value::map(Value::symbol("0"), inner)));
            }
        }
        if !any_holds {
            return Ok(Cond::Never);
        }
        if all_hold {
            return Ok(if guards.is_empty() {
                Cond::Always
            } else {
                Cond::Steps(guards)
            });
        }
        let table = self.b.constant(
            compare_hint(op),
            Type::arrow(a.ty.clone(), Type::arrow(b.ty.clone(), Type::name("Bool"))),
            Value::map(Value::map(Value::symbol("0"), []), entries),
        );
        Ok(Cond::Steps(vec![test(eq(
            table.at_key(a.expr.clone()).at_key(b.expr.clone()),
            Expr::name("1"),
        ))]))
    }
}

fn label_assign(lhs: Expr, rhs: Expr) -> Label {
    rg_core::build::label::assign(lhs, rhs)
}

fn eq(lhs: Expr, rhs: Expr) -> Label {
    rg_core::build::label::eq(lhs, rhs)
}

fn ne(lhs: Expr, rhs: Expr) -> Label {
    rg_core::build::label::ne(lhs, rhs)
}
