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
//! type share one constant.

use std::collections::HashMap;

use crate::ast::{Constant, Game, MapEntry, Type, Value};
use crate::builtins::with_builtins;

use super::names::Fresh;
use super::Pass;

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
            made: HashMap::new(),
            out: Vec::new(),
        };
        let mut changed = false;
        let mut constants = Vec::with_capacity(game.constants.len());
        for mut c in std::mem::take(&mut game.constants) {
            let value = hoister.nested(&c.value, &c.ty);
            changed |= value != c.value;
            c.value = value;
            constants.append(&mut hoister.out);
            constants.push(c);
        }
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
    typedefs: HashMap<String, Type>,
    fresh: Fresh,
    /// (type, literal) → the constant holding it.
    made: HashMap<(Type, Value), String>,
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
        let key = (ty.clone(), literal.clone());
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
        super::super::names::assert_checks(&out);
        let (changed, _) = after(&NormalizeConstants, &out);
        assert!(!changed);
    }
}
