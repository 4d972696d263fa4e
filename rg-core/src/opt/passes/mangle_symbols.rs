//! Mangle symbols (L): user names are replaced by short generated names —
//! nodes `n0, n1, …`, symbols `s0, …`, constants `c0, …`, variables
//! `v0, …`, type aliases `T0, …` — numbered in order of first appearance
//! (declarations first, then edges, then pragmas), so that mangling a
//! mangled game changes nothing. Tags are renamed with their symbols, so
//! moves change names but not the tree shape. Available by name only.
//!
//! Kept: `begin`, `end`; the built-in types and variables; the symbols of
//! `Player` (players are reported by name), of `Score` (outcomes are read
//! as numbers) and of `Bool`, and `keeper`, `random`. No generated name
//! equals a kept one. Every occurrence is renamed according to what it
//! denotes (rg.md §3.1: in expressions a constant, else a variable, else a
//! symbol; in a constant's value a constant only when declared earlier).
//! Pragmas are renamed too, except `@simpleApply` (removed: its pattern
//! variables would need scoping) and unknown pragmas (kept verbatim).

use crate::fx_hash::{FxMap, FxSet};

use crate::ast::{
    Edge, Expr, Game, Label, MapEntry, Pragma, PragmaKind, Type, TypeDef, Value, Variable,
};
use crate::builtins::{self, with_builtins};
use crate::types::TypeEnv;

use crate::opt::Pass;

pub struct MangleSymbols;

impl Pass for MangleSymbols {
    fn name(&self) -> &'static str {
        "mangle-symbols"
    }

    fn description(&self) -> &'static str {
        "relabeling: user names (nodes, symbols, constants, variables, types) become short generated ones"
    }

    fn run(&self, game: &mut Game) -> bool {
        let mangled = Mangler::new(game).game(game);
        if mangled == *game {
            return false;
        }
        *game = mangled;
        true
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Node,
    Symbol,
    Constant,
    Variable,
    Type,
}

impl Kind {
    fn index(self) -> usize {
        self as usize
    }

    fn prefix(self) -> &'static str {
        match self {
            Kind::Node => "n",
            Kind::Symbol => "s",
            Kind::Constant => "c",
            Kind::Variable => "v",
            Kind::Type => "T",
        }
    }
}

struct Mangler {
    /// Names kept, per kind.
    kept: [FxSet<String>; 5],
    /// Every kept name: generated names avoid them all.
    avoid: FxSet<String>,
    /// Constant name → index of its first declaration.
    constants: FxMap<String, usize>,
    variables: FxSet<String>,
    names: [FxMap<String, String>; 5],
    counters: [usize; 5],
}

impl Mangler {
    fn new(game: &Game) -> Mangler {
        let full = with_builtins(game);
        let env = TypeEnv::new(&full);
        // `0` and `1` are the symbols of the built-in `Bool`.
        let mut symbols: FxSet<String> = builtins::SYSTEM_PLAYERS
            .into_iter()
            .chain(["0", "1"])
            .map(String::from)
            .collect();
        for t in [builtins::PLAYER, builtins::SCORE, builtins::BOOL] {
            if let Some(s) = env
                .resolve_name(t)
                .ok()
                .and_then(|t| t.symbols().map(<[_]>::to_vec))
            {
                symbols.extend(s);
            }
        }
        let nodes: FxSet<String> = builtins::RESERVED_NODES
            .map(String::from)
            .into_iter()
            .collect();
        let types: FxSet<String> = builtins::BUILTIN_TYPES
            .map(String::from)
            .into_iter()
            .collect();
        let fixed_variables: FxSet<String> = builtins::BUILTIN_VARIABLES
            .map(String::from)
            .into_iter()
            .collect();
        let avoid = symbols
            .iter()
            .chain(&nodes)
            .chain(&types)
            .chain(&fixed_variables)
            .cloned()
            .collect();
        let mut constants = FxMap::default();
        for (k, c) in game.constants.iter().enumerate() {
            constants.entry(c.name.clone()).or_insert(k);
        }
        let variables = game
            .variables
            .iter()
            .map(|v| v.name.clone())
            .chain(fixed_variables.iter().cloned())
            .collect();
        Mangler {
            kept: [nodes, symbols, FxSet::default(), fixed_variables, types],
            avoid,
            constants,
            variables,
            names: Default::default(),
            counters: [0; 5],
        }
    }

    fn rename(&mut self, kind: Kind, name: &str) -> String {
        let k = kind.index();
        if self.kept[k].contains(name) {
            return name.to_string();
        }
        if let Some(new) = self.names[k].get(name) {
            return new.clone();
        }
        let new = loop {
            let candidate = format!("{}{}", kind.prefix(), self.counters[k]);
            self.counters[k] += 1;
            if !self.avoid.contains(&candidate) {
                break candidate;
            }
        };
        self.names[k].insert(name.to_string(), new.clone());
        new
    }

    fn game(&mut self, game: &Game) -> Game {
        let typedefs = game
            .typedefs
            .iter()
            .map(|t| TypeDef {
                name: self.rename(Kind::Type, &t.name),
                ty: self.ty(&t.ty),
                at: t.at,
            })
            .collect();
        let constants = game
            .constants
            .iter()
            .enumerate()
            .map(|(k, c)| crate::ast::Constant {
                name: self.rename(Kind::Constant, &c.name),
                ty: self.ty(&c.ty),
                value: self.value(&c.value, k),
                at: c.at,
            })
            .collect();
        let variables = game
            .variables
            .iter()
            .map(|v| Variable {
                name: self.rename(Kind::Variable, &v.name),
                ty: self.ty(&v.ty),
                value: self.value(&v.value, usize::MAX),
                at: v.at,
            })
            .collect();
        let edges = game
            .edges
            .iter()
            .map(|e| Edge {
                from: self.rename(Kind::Node, &e.from),
                to: self.rename(Kind::Node, &e.to),
                label: self.label(&e.label),
                at: e.at,
            })
            .collect();
        let pragmas = game
            .pragmas
            .iter()
            .filter_map(|p| {
                Some(Pragma {
                    kind: self.pragma(&p.kind)?,
                    at: p.at,
                })
            })
            .collect();
        Game {
            pragmas,
            typedefs,
            constants,
            variables,
            edges,
        }
    }

    fn ty(&mut self, t: &Type) -> Type {
        match t {
            Type::Set(symbols, at) => Type::Set(
                symbols
                    .iter()
                    .map(|s| self.rename(Kind::Symbol, s))
                    .collect(),
                *at,
            ),
            Type::Name(name, at) => Type::Name(self.rename(Kind::Type, name), *at),
            Type::Arrow(k, v) => Type::arrow(self.ty(k), self.ty(v)),
        }
    }

    /// A value written in the declaration of constant number `index`
    /// (`usize::MAX` for variables, which see every constant).
    fn value(&mut self, v: &Value, index: usize) -> Value {
        match v {
            Value::Symbol(name, at) => {
                let is_constant = self.constants.get(name).is_some_and(|&k| k < index);
                let kind = if is_constant {
                    Kind::Constant
                } else {
                    Kind::Symbol
                };
                Value::Symbol(self.rename(kind, name), *at)
            }
            Value::Map(entries, at) => Value::Map(
                entries
                    .iter()
                    .map(|e| MapEntry {
                        key: e.key.as_ref().map(|k| self.rename(Kind::Symbol, k)),
                        value: self.value(&e.value, index),
                    })
                    .collect(),
                *at,
            ),
        }
    }

    fn expr(&mut self, e: &Expr) -> Expr {
        match e {
            Expr::Ref(name, at) => {
                let kind = if self.constants.contains_key(name) {
                    Kind::Constant
                } else if self.variables.contains(name) {
                    Kind::Variable
                } else {
                    Kind::Symbol
                };
                Expr::Ref(self.rename(kind, name), *at)
            }
            Expr::Cast(ty, inner, at) => {
                Expr::Cast(self.rename(Kind::Type, ty), Box::new(self.expr(inner)), *at)
            }
            Expr::Access(m, k, at) => {
                Expr::Access(Box::new(self.expr(m)), Box::new(self.expr(k)), *at)
            }
        }
    }

    fn label(&mut self, l: &Label) -> Label {
        match l {
            Label::Skip => Label::Skip,
            Label::Tag(t) => Label::Tag(self.rename(Kind::Symbol, t)),
            Label::VarTag(v) => Label::VarTag(self.rename(Kind::Variable, v)),
            Label::Reach { negated, from, to } => Label::Reach {
                negated: *negated,
                from: self.rename(Kind::Node, from),
                to: self.rename(Kind::Node, to),
            },
            Label::Compare { negated, lhs, rhs } => Label::Compare {
                negated: *negated,
                lhs: self.expr(lhs),
                rhs: self.expr(rhs),
            },
            Label::Assign { lhs, rhs } => Label::Assign {
                lhs: self.expr(lhs),
                rhs: self.expr(rhs),
            },
            Label::AssignAny { lhs, ty } => Label::AssignAny {
                lhs: self.expr(lhs),
                ty: self.ty(ty),
            },
        }
    }

    fn all(&mut self, kind: Kind, names: &[String]) -> Vec<String> {
        names.iter().map(|n| self.rename(kind, n)).collect()
    }

    fn pragma(&mut self, p: &PragmaKind) -> Option<PragmaKind> {
        Some(match p {
            PragmaKind::Disjoint {
                exhaustive,
                node,
                targets,
            } => PragmaKind::Disjoint {
                exhaustive: *exhaustive,
                node: self.rename(Kind::Node, node),
                targets: self.all(Kind::Node, targets),
            },
            PragmaKind::ArtificialTag(tags) => {
                PragmaKind::ArtificialTag(self.all(Kind::Symbol, tags))
            }
            PragmaKind::Repeat { nodes, variables } => PragmaKind::Repeat {
                nodes: self.all(Kind::Node, nodes),
                variables: self.all(Kind::Variable, variables),
            },
            PragmaKind::Unique(nodes) => PragmaKind::Unique(self.all(Kind::Node, nodes)),
            PragmaKind::TagIndex { max, nodes, index } => PragmaKind::TagIndex {
                max: *max,
                nodes: self.all(Kind::Node, nodes),
                index: *index,
            },
            PragmaKind::Integer { start, symbols } => PragmaKind::Integer {
                start: *start,
                symbols: self.all(Kind::Symbol, symbols),
            },
            PragmaKind::Iterator { nodes, variable } => PragmaKind::Iterator {
                nodes: [
                    self.rename(Kind::Node, &nodes[0]),
                    self.rename(Kind::Node, &nodes[1]),
                    self.rename(Kind::Node, &nodes[2]),
                ],
                variable: self.rename(Kind::Variable, variable),
            },
            PragmaKind::SimpleApply(_) => return None,
            PragmaKind::TranslatedFromRbg | PragmaKind::Unknown(_) => p.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn names_become_short_and_stay_consistent() {
        let (changed, out) = after(
            &MangleSymbols,
            "@artificialTag mark;\n@disjoint turn : left right;\ntype Side = { left, right, x };\nconst other: Side -> Side = { :left, left: right };\n\
             const left: Side = right;\nvar side: Side = left;\nvar count: Score = 0;\n\
             begin, turn: player = x;\nturn, left: side == left;\nturn, right: side = other[side];\nleft, done: $ mark;\nright, done: $$ side;\n\
             done, end: player = keeper;\n",
        );
        assert!(changed);
        // `left` is a symbol in types, in `other` and in `left`'s own value
        // (a constant is visible only after it), and the constant `left`
        // in expressions and in `side`'s initial value.
        insta::assert_snapshot!(out, @r"
        @artificialTag s2;
        @disjoint n0 : n1 n2;
        type Player = { x };
        type Score = { 0 };
        type T0 = { s0, s1, x };
        const c0: T0 -> T0 = { :s0, s0: s1 };
        const c1: T0 = s1;
        var v0: T0 = c1;
        var v1: Score = 0;
        begin, n0: player = x;
        n0, n1: v0 == c1;
        n0, n2: v0 = c0[v0];
        n1, n3: $ s2;
        n2, n3: $$ v0;
        n3, end: player = keeper;
        ");
        super::super::test_support::assert_checks(&out);
        let (changed, again) = after(&MangleSymbols, &out);
        assert!(!changed, "{again}");
    }
}
