//! Merge accesses (E): `A[B[e]]` with constant maps `B: X -> Y` and
//! `A: Y -> Z` becomes `AB[e]` with a new constant `AB: X -> Z`
//! (generated names start with `__gen_`), one lookup instead of two. Only
//! done when every value of `B` is a key of `A`, so that no invalid access
//! of the original disappears.

use crate::fx_hash::{FxMap, FxSet};

use crate::ast::{Constant, Expr, Game, Label, Type, Value};

use crate::opt::analysis::typing::Typing;
use crate::opt::Pass;

pub struct MergeAccesses;

impl Pass for MergeAccesses {
    fn name(&self) -> &'static str {
        "merge-accesses"
    }

    fn description(&self) -> &'static str {
        "A[B[e]] with constant maps becomes AB[e] with a new constant AB"
    }

    fn run(&self, game: &mut Game) -> bool {
        if !game.edges.iter().any(|e| has_nested_access(&e.label)) {
            return false;
        }
        let typing = Typing::new(game);
        let mut merger = Merger {
            typing: &typing,
            constants: game
                .constants
                .iter()
                .map(|c| (c.name.as_str(), c))
                .collect(),
            typedefs: game
                .typedefs
                .iter()
                .map(|t| (t.name.as_str(), &t.ty))
                .collect(),
            taken: game
                .constants
                .iter()
                .map(|c| c.name.clone())
                .chain(game.variables.iter().map(|v| v.name.clone()))
                .chain(game.typedefs.iter().map(|t| t.name.clone()))
                .collect(),
            merged: FxMap::default(),
            new_constants: Vec::new(),
        };
        let mut changed = false;
        for e in &mut game.edges {
            if !has_nested_access(&e.label) {
                continue;
            }
            let label = match &e.label {
                Label::Compare { negated, lhs, rhs } => Label::Compare {
                    negated: *negated,
                    lhs: merger.expr(lhs),
                    rhs: merger.expr(rhs),
                },
                Label::Assign { lhs, rhs } => Label::Assign {
                    lhs: merger.target(lhs),
                    rhs: merger.expr(rhs),
                },
                Label::AssignAny { lhs, ty } => Label::AssignAny {
                    lhs: merger.target(lhs),
                    ty: ty.clone(),
                },
                _ => continue,
            };
            if label != e.label {
                e.label = label;
                changed = true;
            }
        }
        let new_constants = merger.new_constants;
        game.constants.extend(new_constants);
        changed
    }
}

/// Whether a label has an access whose key is an access (`A[B[e]]`, casts
/// aside): only such labels can change.
fn has_nested_access(label: &Label) -> bool {
    fn nested(e: &Expr, in_key: bool) -> bool {
        match e {
            Expr::Ref(..) => false,
            Expr::Cast(_, inner, _) => nested(inner, in_key),
            Expr::Access(m, k, _) => in_key || nested(m, false) || nested(k, true),
        }
    }
    match label {
        Label::Compare { lhs, rhs, .. } | Label::Assign { lhs, rhs } => {
            nested(lhs, false) || nested(rhs, false)
        }
        Label::AssignAny { lhs, .. } => nested(lhs, false),
        _ => false,
    }
}

struct Merger<'g> {
    typing: &'g Typing,
    constants: FxMap<&'g str, &'g Constant>,
    typedefs: FxMap<&'g str, &'g Type>,
    taken: FxSet<String>,
    /// (A, B) → the merged constant's name, or `None` when they cannot
    /// be merged.
    merged: FxMap<(String, String), Option<String>>,
    new_constants: Vec<Constant>,
}

impl Merger<'_> {
    fn expr(&mut self, e: &Expr) -> Expr {
        match e {
            Expr::Ref(..) => e.clone(),
            Expr::Cast(t, inner, at) => Expr::Cast(t.clone(), Box::new(self.expr(inner)), *at),
            Expr::Access(map, key, at) => {
                let key = self.expr(key);
                if let (Expr::Ref(a, _), Expr::Access(inner_map, inner_key, _)) =
                    (map.as_ref(), key.without_casts())
                {
                    if let Expr::Ref(b, _) = inner_map.as_ref() {
                        if let Some(ab) = self.merge(a, b) {
                            return Expr::Access(Box::new(Expr::name(ab)), inner_key.clone(), *at);
                        }
                    }
                }
                Expr::Access(Box::new(self.expr(map)), Box::new(key), *at)
            }
        }
    }

    fn target(&mut self, e: &Expr) -> Expr {
        match e {
            Expr::Ref(..) => e.clone(),
            Expr::Cast(t, inner, at) => Expr::Cast(t.clone(), Box::new(self.target(inner)), *at),
            Expr::Access(map, key, at) => {
                Expr::Access(Box::new(self.target(map)), Box::new(self.expr(key)), *at)
            }
        }
    }

    /// The constant `AB = A ∘ B`, created on first use.
    fn merge(&mut self, a: &str, b: &str) -> Option<String> {
        let key = (a.to_string(), b.to_string());
        if let Some(name) = self.merged.get(&key) {
            return name.clone();
        }
        let name = self.compose(a, b);
        self.merged.insert(key, name.clone());
        name
    }

    fn compose(&mut self, a: &str, b: &str) -> Option<String> {
        let (ca, cb) = (*self.constants.get(a)?, *self.constants.get(b)?);
        let (ta, tb) = (self.typing.constants.get(a)?, self.typing.constants.get(b)?);
        let ((a_keys, _), (b_keys, _)) = (ta.arrow()?, tb.arrow()?);
        // The new type: B's key type to A's value type, as written.
        let (b_key_type, _) = self.written_arrow(&cb.ty)?;
        let (_, a_value_type) = self.written_arrow(&ca.ty)?;
        let mut entries = Vec::new();
        for x in b_keys.symbols()? {
            let Value::Symbol(y, _) = lookup(&cb.value, x, &self.constants)? else {
                return None;
            };
            if !a_keys.contains(&y) {
                return None;
            }
            entries.push((x.clone(), lookup(&ca.value, &y, &self.constants)?));
        }
        let name = self.fresh(&format!("__gen_{a}_{b}"));
        self.taken.insert(name.clone());
        self.new_constants.push(Constant {
            name: name.clone(),
            ty: Type::arrow(b_key_type, a_value_type),
            value: compress(entries),
            at: ca.at,
        });
        Some(name)
    }

    /// The key and value types of an arrow type as written (through aliases).
    fn written_arrow(&self, ty: &Type) -> Option<(Type, Type)> {
        match ty {
            Type::Arrow(k, v) => Some(((**k).clone(), (**v).clone())),
            Type::Name(n, _) => self.written_arrow(self.typedefs.get(n.as_str())?),
            Type::Set(..) => None,
        }
    }

    fn fresh(&self, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 1;
        while self.taken.contains(&name) {
            k += 1;
            name = format!("{base}_{k}");
        }
        name
    }
}

/// `value[key]` of a map literal (names of constants resolved).
fn lookup(value: &Value, key: &str, constants: &FxMap<&str, &Constant>) -> Option<Value> {
    match value {
        Value::Symbol(name, _) => lookup(&constants.get(name.as_str())?.value, key, constants),
        Value::Map(entries, _) => entries
            .iter()
            .find(|e| e.key.as_deref() == Some(key))
            .or_else(|| entries.iter().find(|e| e.key.is_none()))
            .map(|e| e.value.clone()),
    }
}

/// A map literal with the most frequent value as the default.
fn compress(entries: Vec<(String, Value)>) -> Value {
    let mut counts: Vec<(Value, usize)> = Vec::new();
    for (_, v) in &entries {
        match counts.iter_mut().find(|(x, _)| x == v) {
            Some(c) => c.1 += 1,
            None => counts.push((v.clone(), 1)),
        }
    }
    let default = counts
        .iter()
        .max_by_key(|(_, n)| *n)
        .map_or_else(|| Value::symbol("_"), |(v, _)| v.clone());
    let rest: Vec<(String, Value)> = entries.into_iter().filter(|(_, v)| *v != default).collect();
    Value::map(default, rest)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn nested_constant_lookups_merge() {
        let (changed, out) = after(
            &MergeAccesses,
            "type K = { a, b, c };\nconst next: K -> K = { :a, a: b, b: c };\nconst score: K -> Bool = { :0, c: 1 };\nvar x: K = a;\n\
             begin, s: x = K(*);\ns, t: score[next[x]] == 1;\nt, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type K = { a, b, c };
        const next: K -> K = { :a, a: b, b: c };
        const score: K -> Bool = { :0, c: 1 };
        const __gen_score_next: K -> Bool = { :0, b: 1 };
        var x: K = a;
        begin, s: x = K(*);
        s, t: __gen_score_next[x] == 1;
        t, end: player = keeper;
        ");
    }
}
