//! Normalize constants (E): nested map literals are hoisted into top-level
//! constants, so that every map literal is one level deep and every
//! variable's initial value is a symbol or a constant name:
//! `var X: B -> B -> B = { :{ :0 } };` →
//! `const __gen_hoisted_1: B -> B = { :0 }; const __gen_hoisted_2: B -> B -> B = { :__gen_hoisted_1 }; var X: B -> B -> B = __gen_hoisted_2;`.
//! Values are unchanged (a constant name in a value stands for its value).
//! Available by name only.
//!
//! A constant's value may only name constants declared before it, so the
//! constants hoisted out of a constant are declared right before it; those
//! hoisted out of variables' values come last. Equal literals of the same
//! type share one constant, unless a name in them could be read
//! differently at the two places (a symbol that is also the name of a
//! constant declared in between).

use crate::fx_hash::{FxMap, FxSet};

use crate::ast::{Constant, Game, MapEntry, Type, Value};
use crate::builtins::with_builtins;

use crate::opt::analysis::names::Fresh;
use crate::opt::Pass;

pub struct NormalizeConstants;

impl Pass for NormalizeConstants {
    fn name(&self) -> &'static str {
        "normalize-constants"
    }

    fn description(&self) -> &'static str {
        "hoist nested map literals (and variables' map values) into top-level constants"
    }

    fn run(&self, game: &mut Game) -> bool {
        let full = with_builtins(game);
        let mut hoister = Hoister {
            typedefs: full
                .typedefs
                .iter()
                .map(|t| (t.name.clone(), t.ty.clone()))
                .collect(),
            fresh: Fresh::for_game(game),
            constant_names: game.constants.iter().map(|c| c.name.clone()).collect(),
            scope: 0,
            made: FxMap::default(),
            out: Vec::new(),
        };
        let mut changed = false;
        let mut constants = Vec::with_capacity(game.constants.len());
        for (k, mut c) in std::mem::take(&mut game.constants).into_iter().enumerate() {
            hoister.scope = k;
            let value = hoister.nested(&c.value, &c.ty);
            changed |= value != c.value;
            c.value = value;
            constants.append(&mut hoister.out);
            constants.push(c);
        }
        hoister.scope = usize::MAX;
        for v in &mut game.variables {
            if matches!(v.value, Value::Map(..)) {
                v.value = hoister.constant(&v.value, &v.ty);
                changed = true;
            }
        }
        constants.append(&mut hoister.out);
        game.constants = constants;
        changed
    }
}

struct Hoister {
    typedefs: FxMap<String, Type>,
    fresh: Fresh,
    constant_names: FxSet<String>,
    /// The declaration being normalized (constants' index; `usize::MAX`
    /// for variables): where names in its literals are read.
    scope: usize,
    /// (type, literal, scope when it matters) → the constant holding it.
    made: FxMap<(Type, Value, Option<usize>), String>,
    /// Constants made since the last drain.
    out: Vec<Constant>,
}

impl Hoister {
    /// `value` (of type `ty`) with every map nested in it replaced by a
    /// constant; the top level stays a literal.
    fn nested(&mut self, value: &Value, ty: &Type) -> Value {
        let Value::Map(entries, at) = value else {
            return value.clone();
        };
        let Some(inner) = self.value_type(ty) else {
            return value.clone();
        };
        let entries = entries
            .iter()
            .map(|e| MapEntry {
                key: e.key.clone(),
                value: match &e.value {
                    Value::Map(..) => self.constant(&e.value, &inner),
                    other => other.clone(),
                },
            })
            .collect();
        Value::Map(entries, *at)
    }

    /// A constant holding the literal `value` of type `ty` (normalized
    /// itself), as a value naming it.
    fn constant(&mut self, value: &Value, ty: &Type) -> Value {
        let literal = self.nested(value, ty);
        let scope = self.names_constant(&literal).then_some(self.scope);
        let key = (ty.clone(), literal.clone(), scope);
        if let Some(name) = self.made.get(&key) {
            return Value::symbol(name.clone());
        }
        let name = self.fresh.numbered("__gen_hoisted");
        self.out.push(Constant {
            name: name.clone(),
            ty: ty.clone(),
            value: literal,
            at: value.at(),
        });
        self.made.insert(key, name.clone());
        Value::symbol(name)
    }

    /// Whether a literal mentions a name that is also a constant's (so its
    /// meaning depends on where it is written).
    fn names_constant(&self, value: &Value) -> bool {
        match value {
            Value::Symbol(name, _) => self.constant_names.contains(name),
            Value::Map(entries, _) => entries.iter().any(|e| self.names_constant(&e.value)),
        }
    }

    /// The value type of an arrow type, as written (through aliases).
    fn value_type(&self, ty: &Type) -> Option<Type> {
        let mut ty = ty;
        for _ in 0..=self.typedefs.len() {
            match ty {
                Type::Arrow(_, v) => return Some((**v).clone()),
                Type::Name(n, _) => ty = self.typedefs.get(n)?,
                Type::Set(..) => return None,
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn nested_maps_become_constants() {
        let (changed, out) = after(
            &NormalizeConstants,
            "type B = { 0, 1 };\ntype M = B -> B -> B;\nconst c: B -> B = { :0 };\nconst d: M = { :{ :1 }, 1: c, 0: { :1 } };\n\
             var X: B -> B -> B = { :{ :0 } };\nvar y: B = 0;\nvar z: M = d;\nbegin, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type B = { 0, 1 };
        type M = B -> B -> B;
        const c: B -> B = { :0 };
        const __gen_hoisted_1: B -> B = { :1 };
        const d: M = { :__gen_hoisted_1, 1: c, 0: __gen_hoisted_1 };
        const __gen_hoisted_2: B -> B = { :0 };
        const __gen_hoisted_3: B -> B -> B = { :__gen_hoisted_2 };
        var X: B -> B -> B = __gen_hoisted_3;
        var y: B = 0;
        var z: M = d;
        begin, end: player = keeper;
        ");
        super::super::test_support::assert_checks(&out);
        let (changed, _) = after(&NormalizeConstants, &out);
        assert!(!changed);
    }

    #[test]
    fn literals_naming_constants_are_shared_only_in_one_scope() {
        // In `a`, `c` is the symbol (the constant `c` comes later); in `b`
        // it is the constant: the two `{ :c }` are different maps.
        let (_, out) = after(
            &NormalizeConstants,
            "type S = { c, d };\nconst a: S -> S -> S = { :{ :c } };\nconst c: S = d;\nconst b: S -> S -> S = { :{ :c } };\nbegin, end: player = keeper;\n",
        );
        insta::assert_snapshot!(out, @r"
        type S = { c, d };
        const __gen_hoisted_1: S -> S = { :c };
        const a: S -> S -> S = { :__gen_hoisted_1 };
        const c: S = d;
        const __gen_hoisted_2: S -> S = { :c };
        const b: S -> S -> S = { :__gen_hoisted_2 };
        begin, end: player = keeper;
        ");
        super::super::test_support::assert_checks(&out);
    }
}
