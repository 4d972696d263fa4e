//! Normalize types (E): arrow types appear only in alias definitions, one
//! level deep, between alias names, with generated aliases:
//! `type X = { x } -> { y };` →
//! `type X = __gen_Type_1 -> __gen_Type_2; type __gen_Type_1 = { x }; type __gen_Type_2 = { y };`,
//! and `var m: K -> V = …;` gets an alias for `K -> V`. Types are compared
//! by structure, so the game is unchanged. Available by name only.
//!
//! A written type equal (as written) to an existing alias's definition
//! reuses that alias. Set types outside aliases (declarations, `T(*)`) are
//! left as they are.

use crate::ast::{Game, Label, Type, TypeDef};

use crate::opt::analysis::names::Fresh;
use crate::opt::Pass;

pub struct NormalizeTypes;

impl Pass for NormalizeTypes {
    fn name(&self) -> &'static str {
        "normalize-types"
    }

    fn description(&self) -> &'static str {
        "arrow types only in aliases, one level deep between alias names"
    }

    fn run(&self, game: &mut Game) -> bool {
        let fresh = Fresh::for_game(game);
        let mut namer = Namer {
            typedefs: std::mem::take(&mut game.typedefs),
            fresh,
        };
        let mut changed = namer.aliases();
        for c in &mut game.constants {
            changed |= namer.declared(&mut c.ty);
        }
        for v in &mut game.variables {
            changed |= namer.declared(&mut v.ty);
        }
        for e in &mut game.edges {
            if let Label::AssignAny { ty, .. } = &mut e.label {
                changed |= namer.declared(ty);
            }
        }
        game.typedefs = namer.typedefs;
        changed
    }
}

struct Namer {
    typedefs: Vec<TypeDef>,
    fresh: Fresh,
}

impl Namer {
    /// Normalizes the definitions of the game's aliases (new ones are
    /// made normalized).
    fn aliases(&mut self) -> bool {
        let mut changed = false;
        for k in 0..self.typedefs.len() {
            let Type::Arrow(key, value) = self.typedefs[k].ty.clone() else {
                continue;
            };
            let (key, value) = (self.name_of(&key), self.name_of(&value));
            let ty = Type::arrow(Type::name(key), Type::name(value));
            if ty != self.typedefs[k].ty {
                self.typedefs[k].ty = ty;
                changed = true;
            }
        }
        changed
    }

    /// A declaration's type: arrows become alias names.
    fn declared(&mut self, ty: &mut Type) -> bool {
        if !matches!(ty, Type::Arrow(..)) {
            return false;
        }
        *ty = Type::name(self.name_of(ty));
        true
    }

    /// An alias name for a written type: the name itself, an alias defined
    /// exactly so (before or after normalization), or a new alias.
    fn name_of(&mut self, ty: &Type) -> String {
        let normal = match ty {
            Type::Name(name, _) => return name.clone(),
            Type::Set(..) => ty.clone(),
            Type::Arrow(key, value) => Type::arrow(
                Type::name(self.name_of(key)),
                Type::name(self.name_of(value)),
            ),
        };
        if let Some(t) = self.typedefs.iter().find(|t| t.ty == *ty || t.ty == normal) {
            return t.name.clone();
        }
        let name = self.fresh.numbered("__gen_Type");
        self.typedefs.push(TypeDef {
            name: name.clone(),
            ty: normal,
            at: ty.at(),
        });
        name
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn arrows_get_aliases() {
        let (changed, out) = after(
            &NormalizeTypes,
            "type X = { p } -> { y };\ntype B = { 0, 1 };\ntype M = B -> B -> { y };\n\
             var m: B -> { y } = { :y };\nvar b: { 0, 1 } = 0;\nbegin, a: b = { 0, 1 }(*);\na, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type X = __gen_Type_1 -> __gen_Type_2;
        type B = { 0, 1 };
        type M = B -> __gen_Type_3;
        type __gen_Type_1 = { p };
        type __gen_Type_2 = { y };
        type __gen_Type_3 = B -> __gen_Type_2;
        var m: __gen_Type_3 = { :y };
        var b: { 0, 1 } = 0;
        begin, a: b = { 0, 1 }(*);
        a, end: player = keeper;
        ");
        super::super::test_support::assert_checks(&out);
        let (changed, _) = after(&NormalizeTypes, &out);
        assert!(!changed);
    }
}
