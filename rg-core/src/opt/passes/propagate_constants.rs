//! Propagate constants (E): constants, and variables whose value is known
//! at a point (a data-flow analysis), are replaced by their values, and
//! constant expressions are evaluated: with `x` known to be `3`,
//! `y == down[x]` becomes `y == 2`. Decided comparisons become skips or
//! disappear; `$$ v` with `v` known becomes `$ value`.
//!
//! Only scalar variables are tracked. A symbol is only written where it
//! cannot be mistaken for a constant or variable of the same name; a
//! constant map is only read at keys of its key type (so a strict engine's
//! invalid-access errors are not folded away).

use crate::fx_hash::{FxMap, FxSet};
use std::borrow::Cow;

use crate::ast::{Constant, Edge, Expr, Game, Label, Value};
use crate::types::{RType, TypeEnv};

use crate::opt::analysis::dataflow::{solve_by_edge, Analysis};

use crate::opt::analysis::typing::types_with_builtins;
use crate::opt::Pass;

pub struct PropagateConstants;

/// Most (node × tracked variable) facts kept, so huge games stay cheap.
const FACT_BUDGET: usize = 8_000_000;
const UNKNOWN: u32 = u32::MAX;

impl Pass for PropagateConstants {
    fn name(&self) -> &'static str {
        "propagate-constants"
    }

    fn description(&self) -> &'static str {
        "replace constants and variables of known value by symbols, evaluate constant expressions"
    }

    fn run(&self, game: &mut Game) -> bool {
        let full = types_with_builtins(game);
        let env = Env::new(&full, &game.constants, &game.edges);
        let facts = solve_by_edge(game, &env);
        let mut changed = false;
        let mut keep = Vec::with_capacity(game.edges.len());
        for (k, e) in game.edges.iter_mut().enumerate() {
            let Some(fact) = facts.before(k) else {
                keep.push(true);
                continue;
            };
            let rewritten = match &e.label {
                Label::Compare { negated, lhs, rhs } => {
                    match (env.fold(lhs, Some(fact)), env.fold(rhs, Some(fact))) {
                        (Folded::Symbol(a), Folded::Symbol(b)) => {
                            if (a == b) != *negated {
                                Some(Label::Skip)
                            } else {
                                keep.push(false);
                                changed = true;
                                continue;
                            }
                        }
                        (l, r) => Some(Label::Compare {
                            negated: *negated,
                            lhs: env.expr(l, lhs),
                            rhs: env.expr(r, rhs),
                        }),
                    }
                }
                Label::Assign { lhs, rhs } => Some(Label::Assign {
                    lhs: env.target(lhs, fact),
                    rhs: env.expr(env.fold(rhs, Some(fact)), rhs),
                }),
                Label::AssignAny { lhs, ty } => Some(Label::AssignAny {
                    lhs: env.target(lhs, fact),
                    ty: ty.clone(),
                }),
                Label::VarTag(v) => env.known(v, fact).map(Label::Tag),
                _ => None,
            };
            if let Some(label) = rewritten {
                if label != e.label {
                    e.label = label;
                    changed = true;
                }
            }
            keep.push(true);
        }
        let mut k = 0;
        game.edges.retain(|_| {
            k += 1;
            keep[k - 1]
        });
        changed
    }
}

/// The result of evaluating an expression as far as possible.
enum Folded<'a> {
    Symbol(String),
    /// A constant map (possibly a sub-map reached by constant keys),
    /// borrowed: constant maps can be big.
    Map(&'a Value, &'a RType),
    /// Not constant: the expression with its constant parts folded.
    Expr(Expr),
}

struct Env<'g> {
    /// Constant name → (type, value with constant names resolved).
    constants: Constants<'g>,
    /// Scalar variables tracked by the analysis, by index.
    tracked: FxMap<&'g str, usize>,
    initial: Vec<u32>,
    symbols: std::cell::RefCell<Interner>,
    /// Names that a symbol must not collide with.
    declared: FxSet<&'g str>,
}

#[derive(Default)]
struct Interner {
    ids: FxMap<String, u32>,
    names: Vec<String>,
}

impl Interner {
    fn id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        id
    }
}

impl<'g> Env<'g> {
    /// `game`: the types and variables (built-ins included).
    fn new(game: &'g Game, game_constants: &'g [Constant], edges: &[Edge]) -> Env<'g> {
        let types = TypeEnv::new(game);
        let mut constants = Constants::default();
        for c in game_constants {
            if constants.contains_key(c.name.as_str()) {
                continue;
            }
            if let Ok(t) = types.resolve(&c.ty) {
                let value = resolve_value(&c.value, &constants);
                constants.insert(&c.name, (t, value));
            }
        }
        let mut declared: FxSet<&str> = game_constants.iter().map(|c| c.name.as_str()).collect();
        declared.extend(game.variables.iter().map(|v| v.name.as_str()));
        // Scalar variables, most read first, within the fact budget.
        let mut reads: FxMap<&str, usize> = FxMap::default();
        for e in edges {
            label_reads(&e.label, &mut |name| *reads.entry(name).or_insert(0) += 1);
        }
        let mut scalars: Vec<(&str, &Value)> = game
            .variables
            .iter()
            .filter(|v| types.resolve(&v.ty).is_ok_and(|t| t.symbols().is_some()))
            .map(|v| (v.name.as_str(), &v.value))
            .collect();
        scalars.sort_by_key(|(name, _)| std::cmp::Reverse(reads.get(name).copied().unwrap_or(0)));
        let limit = FACT_BUDGET / (edges.len() + 1).max(1);
        scalars.truncate(limit.max(1));
        let mut interner = Interner::default();
        let mut tracked = FxMap::default();
        let mut initial = Vec::new();
        for (k, (name, value)) in scalars.into_iter().enumerate() {
            tracked.insert(name, k);
            let v = match resolve_value(value, &constants).as_ref() {
                Value::Symbol(s, _) => interner.id(s),
                Value::Map(..) => UNKNOWN,
            };
            initial.push(v);
        }
        Env {
            constants,
            tracked,
            initial,
            symbols: std::cell::RefCell::new(interner),
            declared,
        }
    }

    /// The known symbol of a tracked variable at a point.
    fn known(&self, name: &str, fact: &[u32]) -> Option<String> {
        let &k = self.tracked.get(name)?;
        let id = fact[k];
        (id != UNKNOWN).then(|| self.symbols.borrow().names[id as usize].clone())
    }

    /// A symbol usable in an expression: one no constant or variable shadows.
    fn usable(&self, symbol: &str) -> bool {
        !self.declared.contains(symbol)
    }

    fn fold(&self, e: &Expr, fact: Option<&[u32]>) -> Folded<'_> {
        match e {
            Expr::Ref(name, _) => {
                if let Some((t, value)) = self.constants.get(name.as_str()) {
                    let value: &Value = value;
                    return match value {
                        Value::Symbol(s, _) if self.usable(s) => Folded::Symbol(s.clone()),
                        Value::Symbol(..) => Folded::Expr(e.clone()),
                        Value::Map(..) => Folded::Map(value, t),
                    };
                }
                if self.declared.contains(name.as_str()) {
                    return match fact.and_then(|f| self.known(name, f)) {
                        Some(s) if self.usable(&s) => Folded::Symbol(s),
                        _ => Folded::Expr(e.clone()),
                    };
                }
                Folded::Symbol(name.clone())
            }
            Expr::Cast(ty, inner, at) => match self.fold(inner, fact) {
                Folded::Expr(x) => Folded::Expr(Expr::Cast(ty.clone(), Box::new(x), *at)),
                other => other,
            },
            Expr::Access(map, key, at) => {
                let m = self.fold(map, fact);
                let k = self.fold(key, fact);
                if let (Folded::Map(value, t), Folded::Symbol(s)) = (&m, &k) {
                    if let Some(found) = lookup(value, t, s) {
                        return match found {
                            (Value::Symbol(x, _), _) if self.usable(x) => Folded::Symbol(x.clone()),
                            (Value::Map(..), sub) => Folded::Map(found.0, sub),
                            _ => Folded::Expr(e.clone()),
                        };
                    }
                }
                Folded::Expr(Expr::Access(
                    Box::new(self.expr(m, map)),
                    Box::new(self.expr(k, key)),
                    *at,
                ))
            }
        }
    }

    /// The expression for a folding result (`original` when a map or a
    /// symbol cannot be written directly).
    fn expr(&self, folded: Folded, original: &Expr) -> Expr {
        match folded {
            Folded::Symbol(s) => match original {
                // Keep casts: they may be what makes the expression typecheck.
                Expr::Cast(ty, _, at) => Expr::Cast(ty.clone(), Box::new(Expr::name(s)), *at),
                _ => Expr::name(s),
            },
            Folded::Expr(x) => x,
            Folded::Map(..) => original.clone(),
        }
    }

    /// An assignment target with its keys folded (the root stays).
    fn target(&self, e: &Expr, fact: &[u32]) -> Expr {
        match e {
            Expr::Ref(..) => e.clone(),
            Expr::Cast(ty, inner, at) => {
                Expr::Cast(ty.clone(), Box::new(self.target(inner, fact)), *at)
            }
            Expr::Access(map, key, at) => Expr::Access(
                Box::new(self.target(map, fact)),
                Box::new(self.expr(self.fold(key, Some(fact)), key)),
                *at,
            ),
        }
    }

    fn set(&self, fact: &mut [u32], name: &str, value: Option<String>) {
        if let Some(&k) = self.tracked.get(name) {
            fact[k] = value.map_or(UNKNOWN, |s| self.symbols.borrow_mut().id(&s));
        }
    }
}

impl Analysis for Env<'_> {
    type Fact = Vec<u32>;

    fn entry(&self) -> Vec<u32> {
        self.initial.clone()
    }

    fn transfer(&self, edge: &Edge, fact: &Vec<u32>) -> Vec<u32> {
        let symbol = |e: &Expr| match self.fold(e, Some(fact)) {
            Folded::Symbol(s) => Some(s),
            _ => None,
        };
        match &edge.label {
            Label::Assign { lhs, rhs } => match lhs.without_casts() {
                Expr::Ref(name, _) if self.tracked.contains_key(name.as_str()) => {
                    let mut out = fact.clone();
                    self.set(&mut out, name, symbol(rhs));
                    out
                }
                _ => fact.clone(),
            },
            Label::AssignAny { lhs, .. } => match lhs.without_casts() {
                Expr::Ref(name, _) if self.tracked.contains_key(name.as_str()) => {
                    let mut out = fact.clone();
                    self.set(&mut out, name, None);
                    out
                }
                _ => fact.clone(),
            },
            // After `v == c` (a test that passed) v is known to be c.
            Label::Compare {
                negated: false,
                lhs,
                rhs,
            } => {
                let mut out = fact.clone();
                for (var, other) in [(lhs, rhs), (rhs, lhs)] {
                    if let Expr::Ref(name, _) = var.without_casts() {
                        if self.tracked.contains_key(name.as_str()) {
                            if let Some(s) = symbol(other) {
                                self.set(&mut out, name, Some(s));
                            }
                        }
                    }
                }
                out
            }
            _ => fact.clone(),
        }
    }

    fn join(&self, into: &mut Vec<u32>, other: &Vec<u32>) -> bool {
        let mut changed = false;
        for (a, b) in into.iter_mut().zip(other) {
            if *a != *b && *a != UNKNOWN {
                *a = UNKNOWN;
                changed = true;
            }
        }
        changed
    }
}

type Constants<'g> = FxMap<&'g str, (RType, Cow<'g, Value>)>;

/// A constant's value with the names of earlier constants replaced
/// (borrowed when it names none: constant maps can be big).
fn resolve_value<'g>(value: &'g Value, constants: &Constants<'g>) -> Cow<'g, Value> {
    fn names_constant(value: &Value, constants: &Constants) -> bool {
        match value {
            Value::Symbol(name, _) => constants.contains_key(name.as_str()),
            Value::Map(entries, _) => entries.iter().any(|e| names_constant(&e.value, constants)),
        }
    }
    if names_constant(value, constants) {
        Cow::Owned(resolved(value, constants))
    } else {
        Cow::Borrowed(value)
    }
}

fn resolved(value: &Value, constants: &Constants) -> Value {
    match value {
        Value::Symbol(name, at) => match constants.get(name.as_str()) {
            Some((_, v)) => v.as_ref().clone(),
            None => Value::Symbol(name.clone(), *at),
        },
        Value::Map(entries, at) => Value::Map(
            entries
                .iter()
                .map(|e| crate::ast::MapEntry {
                    key: e.key.clone(),
                    value: resolved(&e.value, constants),
                })
                .collect(),
            *at,
        ),
    }
}

/// `value[key]` for a map value of type `t`, if `key` is in the key type.
fn lookup<'a>(value: &'a Value, t: &'a RType, key: &str) -> Option<(&'a Value, &'a RType)> {
    let (key_type, value_type) = t.arrow()?;
    if !key_type.contains(key) {
        return None;
    }
    let Value::Map(entries, _) = value else {
        return None;
    };
    let found = entries
        .iter()
        .find(|e| e.key.as_deref() == Some(key))
        .or_else(|| entries.iter().find(|e| e.key.is_none()))?;
    Some((&found.value, value_type))
}

/// Calls `read` with every identifier a label reads.
fn label_reads<'a>(label: &'a Label, read: &mut dyn FnMut(&'a str)) {
    fn expr<'a>(e: &'a Expr, read: &mut dyn FnMut(&'a str)) {
        match e {
            Expr::Ref(n, _) => read(n),
            Expr::Cast(_, inner, _) => expr(inner, read),
            Expr::Access(m, k, _) => {
                expr(m, read);
                expr(k, read);
            }
        }
    }
    match label {
        Label::Compare { lhs, rhs, .. } | Label::Assign { lhs, rhs } => {
            expr(lhs, read);
            expr(rhs, read);
        }
        Label::AssignAny { lhs, .. } => expr(lhs, read),
        Label::VarTag(v) => read(v),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn known_values_and_constant_maps_fold() {
        let (changed, out) = after(
            &PropagateConstants,
            "type N = { 1, 2, 3 };\nconst down: N -> N = { :1, 3: 2, 2: 1 };\nvar x: N = 3;\nvar y: N = 1;\n\
             begin, s: y = N(*);\ns, a: y == down[x];\na, b: x == 3;\nb, c: x != 3;\nc, d: $$ x;\nb, d: y = down[down[x]];\nd, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type N = { 1, 2, 3 };
        const down: N -> N = { :1, 3: 2, 2: 1 };
        var x: N = 3;
        var y: N = 1;
        begin, s: y = N(*);
        s, a: y == 2;
        a, b: ;
        c, d: $ 3;
        b, d: y = 1;
        d, end: player = keeper;
        ");
    }

    #[test]
    fn unknown_after_a_join_and_never_across_a_shadowing_name() {
        // x is 1 or 2 at `j`. `m`'s default is the symbol q (the constant q
        // is declared later), so after `w = m[1]` w holds the symbol q,
        // which cannot be written: `q` in an expression is the constant.
        let (_, out) = after(
            &PropagateConstants,
            "type N = { 1, 2, q };\nconst m: N -> N = { :q };\nconst q: N = 1;\nvar x: N = 1;\nvar w: N = 1;\n\
             begin, j: x = 1;\nbegin, j: x = 2;\nj, k: w = m[1];\nk, l: x == w;\nl, end: player = keeper;\n",
        );
        insta::assert_snapshot!(out, @r"
        type N = { 1, 2, q };
        const m: N -> N = { :q };
        const q: N = 1;
        var x: N = 1;
        var w: N = 1;
        begin, j: x = 1;
        begin, j: x = 2;
        j, k: w = m[1];
        k, l: x == w;
        l, end: player = keeper;
        ");
    }
}
