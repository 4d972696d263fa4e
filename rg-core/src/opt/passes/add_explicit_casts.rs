//! Add explicit casts (E): every compared or assigned expression gets a
//! cast to its type: `t == t` → `T(t) == T(t)`, `x = y` → `x = X(y)`.
//! Casts only guide typing (rg.md §5.2), so the game is unchanged; a
//! normal form for tools that want every operand's type spelled out.
//! Available by name only.
//!
//! - A comparison casts each side to its own type, except that a bare
//!   symbol is cast to the other side's type when it belongs to it
//!   (`x == 1` → `Bool(x) == Bool(1)`).
//! - An assignment casts its right side to the type of its target (in a
//!   proper description the assigned value belongs to it).
//! - Sides that already are casts are left alone.
//!
//! The cast names an alias with an equal type (built-ins included); when
//! there is none, an alias `__gen_Type_k` is added.

use crate::fx_hash::{FxMap, FxSet};

use crate::ast::{Expr, Game, Label, Type, TypeDef};
use crate::builtins::with_builtins;
use crate::types::{RType, TypeEnv};

use crate::opt::analysis::names::Fresh;
use crate::opt::analysis::typing::Typing;
use crate::opt::Pass;

pub struct AddExplicitCasts;

impl Pass for AddExplicitCasts {
    fn name(&self) -> &'static str {
        "add-explicit-casts"
    }

    fn description(&self) -> &'static str {
        "every compared or assigned expression gets a cast to its type (normal form)"
    }

    fn run(&self, game: &mut Game) -> bool {
        let typing = Typing::new(game);
        let full = with_builtins(game);
        let env = TypeEnv::new(&full);
        let mut aliases = Aliases {
            known: full
                .typedefs
                .iter()
                .filter_map(|t| Some((t.name.clone(), env.resolve_name(&t.name).ok()?)))
                .collect(),
            defined: full.typedefs.iter().map(|t| t.name.clone()).collect(),
            fresh: Fresh::for_game(game),
            added: Vec::new(),
            memo: FxMap::default(),
        };
        let declared: FxSet<&str> = game
            .constants
            .iter()
            .map(|c| c.name.as_str())
            .chain(game.variables.iter().map(|v| v.name.as_str()))
            .chain(typing.variables.keys().map(String::as_str))
            .collect();
        let bare_symbol = |e: &Expr| match e {
            Expr::Ref(name, _) if !declared.contains(name.as_str()) => Some(name.clone()),
            _ => None,
        };
        let mut changed = false;
        for e in &mut game.edges {
            match &mut e.label {
                Label::Compare { lhs, rhs, .. } => {
                    let (Some(lt), Some(rt)) = (typing.of(lhs), typing.of(rhs)) else {
                        continue;
                    };
                    let target = |side: &Expr, own: &RType, other: &RType| match bare_symbol(side) {
                        Some(symbol) if other.contains(&symbol) => other.clone(),
                        _ => own.clone(),
                    };
                    let (l_to, r_to) = (target(lhs, &lt, &rt), target(rhs, &rt, &lt));
                    changed |= cast(lhs, &l_to, &mut aliases);
                    changed |= cast(rhs, &r_to, &mut aliases);
                }
                Label::Assign { lhs, rhs } => {
                    let Some(lt) = typing.of(lhs) else {
                        continue;
                    };
                    changed |= cast(rhs, &lt, &mut aliases);
                }
                _ => {}
            }
        }
        game.typedefs.extend(aliases.added);
        changed
    }
}

/// Wraps `e` in a cast to `ty` unless it already is a cast.
fn cast(e: &mut Expr, ty: &RType, aliases: &mut Aliases) -> bool {
    if matches!(e, Expr::Cast(..)) {
        return false;
    }
    let name = aliases.name_for(ty);
    let inner = std::mem::replace(e, Expr::name(""));
    *e = Expr::cast(name, inner);
    true
}

struct Aliases {
    /// Every alias with its resolved type, built-ins included.
    known: Vec<(String, RType)>,
    defined: FxSet<String>,
    fresh: Fresh,
    added: Vec<TypeDef>,
    /// Canonical form of a type (see [`canonical`]) → its alias.
    memo: FxMap<String, String>,
}

/// A string equal for equal types (symbols sorted).
fn canonical(ty: &RType) -> String {
    match ty.arrow() {
        None => {
            let mut symbols: Vec<&String> = ty.symbols().unwrap_or_default().iter().collect();
            symbols.sort();
            symbols.dedup();
            let names: Vec<&str> = symbols.into_iter().map(String::as_str).collect();
            format!("{{{}}}", names.join(","))
        }
        Some((key, value)) => format!("({})->({})", canonical(key), canonical(value)),
    }
}

impl Aliases {
    /// An alias whose type equals `ty`, added when there is none.
    fn name_for(&mut self, ty: &RType) -> String {
        let key = canonical(ty);
        if let Some(name) = self.memo.get(&key) {
            return name.clone();
        }
        if let Some((name, _)) = self.known.iter().find(|(_, t)| t.equals(ty)) {
            self.memo.insert(key, name.clone());
            return name.clone();
        }
        let name = self.fresh.numbered("__gen_Type");
        let written = self.written(ty);
        self.added.push(TypeDef {
            name: name.clone(),
            ty: written,
            at: Default::default(),
        });
        self.known.push((name.clone(), ty.clone()));
        self.defined.insert(name.clone());
        self.memo.insert(key, name.clone());
        name
    }

    /// `ty` as a type expression, through the aliases it was reached by.
    fn written(&self, ty: &RType) -> Type {
        match ty.arrow() {
            None => Type::set(ty.symbols().unwrap_or_default().iter().cloned()),
            Some((key, value)) => Type::arrow(self.part(key), self.part(value)),
        }
    }

    fn part(&self, ty: &RType) -> Type {
        match &ty.name {
            Some(name) if self.defined.contains(name) => Type::name(name.clone()),
            _ => self.written(ty),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn operands_get_casts() {
        let (changed, out) = after(
            &AddExplicitCasts,
            "type T = { a, b };\nvar t: T = a;\nvar m: T -> Bool = { :0 };\nvar n: T -> Bool = { :0 };\n\
             begin, s: t == t;\ns, u: m[t] == 1;\nu, w: m = n;\nw, y: t = T(b);\ny, z: q == q;\nz, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type T = { a, b };
        type __gen_Type_1 = T -> Bool;
        type __gen_Type_2 = { q };
        var t: T = a;
        var m: T -> Bool = { :0 };
        var n: T -> Bool = { :0 };
        begin, s: T(t) == T(t);
        s, u: Bool(m[t]) == Bool(1);
        u, w: m = __gen_Type_1(n);
        w, y: t = T(b);
        y, z: __gen_Type_2(q) == __gen_Type_2(q);
        z, end: player = PlayerOrSystem(keeper);
        ");
        super::super::test_support::assert_checks(&out);
        let (changed, _) = after(&AddExplicitCasts, &out);
        assert!(!changed);
    }
}
