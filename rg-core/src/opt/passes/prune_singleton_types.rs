//! Prune singleton types (E): a variable whose type has a single symbol
//! always holds it, so reads become that symbol, assignments to it become
//! skips, `$$` of it becomes a plain tag, and the variable goes.

use crate::fx_hash::{FxMap, FxSet};

use crate::ast::{Expr, Game, Label};
use crate::builtins;

use crate::opt::analysis::typing::Typing;
use crate::opt::Pass;

pub struct PruneSingletonTypes;

impl Pass for PruneSingletonTypes {
    fn name(&self) -> &'static str {
        "prune-singleton-types"
    }

    fn description(&self) -> &'static str {
        "variables of one-symbol types are replaced by that symbol"
    }

    fn run(&self, game: &mut Game) -> bool {
        let typing = Typing::new(game);
        let declared: FxSet<&str> = game
            .constants
            .iter()
            .map(|c| c.name.as_str())
            .chain(game.variables.iter().map(|v| v.name.as_str()))
            .collect();
        let builtin = [
            builtins::PLAYER_VAR,
            builtins::GOALS_VAR,
            builtins::VISIBLE_VAR,
        ];
        let singletons: FxMap<String, String> = game
            .variables
            .iter()
            .filter(|v| !builtin.contains(&v.name.as_str()))
            .filter_map(|v| {
                let symbols = typing.variables.get(&v.name)?.symbols()?.to_vec();
                match symbols.as_slice() {
                    // The symbol must be writable: no constant or variable shadows it.
                    [only] if !declared.contains(only.as_str()) => {
                        Some((v.name.clone(), only.clone()))
                    }
                    _ => None,
                }
            })
            .collect();
        if singletons.is_empty() {
            return false;
        }
        for e in &mut game.edges {
            e.label = match std::mem::replace(&mut e.label, Label::Skip) {
                Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. }
                    if lhs
                        .target_root()
                        .is_some_and(|r| singletons.contains_key(r)) =>
                {
                    Label::Skip
                }
                Label::Assign { lhs, rhs } => Label::Assign {
                    lhs: replace_keys(lhs, &singletons),
                    rhs: replace(rhs, &singletons),
                },
                Label::AssignAny { lhs, ty } => Label::AssignAny {
                    lhs: replace_keys(lhs, &singletons),
                    ty,
                },
                Label::Compare { negated, lhs, rhs } => Label::Compare {
                    negated,
                    lhs: replace(lhs, &singletons),
                    rhs: replace(rhs, &singletons),
                },
                Label::VarTag(v) => match singletons.get(&v) {
                    Some(symbol) => Label::Tag(symbol.clone()),
                    None => Label::VarTag(v),
                },
                other => other,
            };
        }
        game.variables.retain(|v| !singletons.contains_key(&v.name));
        true
    }
}

fn replace(e: Expr, singletons: &FxMap<String, String>) -> Expr {
    match e {
        Expr::Ref(name, at) => match singletons.get(&name) {
            Some(symbol) => Expr::Ref(symbol.clone(), at),
            None => Expr::Ref(name, at),
        },
        Expr::Cast(t, inner, at) => Expr::Cast(t, Box::new(replace(*inner, singletons)), at),
        Expr::Access(m, k, at) => Expr::Access(
            Box::new(replace(*m, singletons)),
            Box::new(replace(*k, singletons)),
            at,
        ),
    }
}

/// An assignment target with singleton variables replaced in its keys only.
fn replace_keys(e: Expr, singletons: &FxMap<String, String>) -> Expr {
    match e {
        Expr::Ref(..) => e,
        Expr::Cast(t, inner, at) => Expr::Cast(t, Box::new(replace_keys(*inner, singletons)), at),
        Expr::Access(m, k, at) => Expr::Access(
            Box::new(replace_keys(*m, singletons)),
            Box::new(replace(*k, singletons)),
            at,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn one_symbol_variables_disappear() {
        let (changed, out) = after(
            &PruneSingletonTypes,
            "type One = { only };\nvar s: One = only;\nvar m: One -> Bool = { :0 };\n\
             begin, a: s = only;\na, b: m[s] == 0;\nb, c: $$ s;\nc, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type One = { only };
        var m: One -> Bool = { :0 };
        begin, a: ;
        a, b: m[only] == 0;
        b, c: $ only;
        c, end: player = keeper;
        ");
    }
}
