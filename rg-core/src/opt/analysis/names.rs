//! Helpers for the passes that add declarations, nodes or edges: fresh
//! names and expressions for symbols.

use crate::fx_hash::{FxMap, FxSet};

use crate::ast::{Constant, Expr, Game, Label, PatternTag, PragmaKind, Type, Value};

/// The names of the game's constants and variables: a symbol written with
/// one of these names reads as the declaration, not as the symbol.
pub fn declared_names(game: &Game) -> FxSet<&str> {
    game.constants
        .iter()
        .map(|c| c.name.as_str())
        .chain(game.variables.iter().map(|v| v.name.as_str()))
        .collect()
}

/// Every identifier written anywhere in the game (names of every
/// namespace, symbols, nodes, pragma contents). A name outside this set
/// cannot clash with, or shadow, anything.
pub fn identifiers(game: &Game) -> FxSet<String> {
    let mut out = FxSet::default();
    // `0` and `1` are the symbols of the built-in `Bool`.
    for name in crate::builtins::reserved_words().chain(["0", "1"]) {
        out.insert(name.to_string());
    }
    for t in &game.typedefs {
        out.insert(t.name.clone());
        type_names(&t.ty, &mut out);
    }
    for c in &game.constants {
        out.insert(c.name.clone());
        type_names(&c.ty, &mut out);
        value_names(&c.value, &mut out);
    }
    for v in &game.variables {
        out.insert(v.name.clone());
        type_names(&v.ty, &mut out);
        value_names(&v.value, &mut out);
    }
    for e in &game.edges {
        out.insert(e.from.clone());
        out.insert(e.to.clone());
        match &e.label {
            Label::Skip => {}
            Label::Tag(t) | Label::VarTag(t) => {
                out.insert(t.clone());
            }
            Label::Reach { from, to, .. } => {
                out.insert(from.clone());
                out.insert(to.clone());
            }
            Label::Compare { lhs, rhs, .. } | Label::Assign { lhs, rhs } => {
                expr_names(lhs, &mut out);
                expr_names(rhs, &mut out);
            }
            Label::AssignAny { lhs, ty } => {
                expr_names(lhs, &mut out);
                type_names(ty, &mut out);
            }
        }
    }
    for p in &game.pragmas {
        match &p.kind {
            PragmaKind::Disjoint { node, targets, .. } => {
                out.insert(node.clone());
                out.extend(targets.iter().cloned());
            }
            PragmaKind::ArtificialTag(names)
            | PragmaKind::Unique(names)
            | PragmaKind::TagIndex { nodes: names, .. }
            | PragmaKind::Integer { symbols: names, .. } => out.extend(names.iter().cloned()),
            PragmaKind::Repeat { nodes, variables } => {
                out.extend(nodes.iter().cloned());
                out.extend(variables.iter().cloned());
            }
            PragmaKind::Iterator { nodes, variable } => {
                out.extend(nodes.iter().cloned());
                out.insert(variable.clone());
            }
            PragmaKind::SimpleApply(sa) => {
                out.insert(sa.from.clone());
                out.insert(sa.to.clone());
                for t in &sa.tags {
                    match t {
                        PatternTag::Symbol(s) => {
                            out.insert(s.clone());
                        }
                        PatternTag::Bind(name, ty) => {
                            out.insert(name.clone());
                            type_names(ty, &mut out);
                        }
                    }
                }
                for (l, r) in &sa.assignments {
                    expr_names(l, &mut out);
                    expr_names(r, &mut out);
                }
            }
            PragmaKind::TranslatedFromRbg => {}
            PragmaKind::Unknown(raw) => {
                for word in raw.split(|c: char| !crate::ast::is_ident_char(c)) {
                    if !word.is_empty() {
                        out.insert(word.to_string());
                    }
                }
            }
        }
    }
    out
}

fn type_names(t: &Type, out: &mut FxSet<String>) {
    match t {
        Type::Set(symbols, _) => out.extend(symbols.iter().cloned()),
        Type::Name(name, _) => {
            out.insert(name.clone());
        }
        Type::Arrow(k, v) => {
            type_names(k, out);
            type_names(v, out);
        }
    }
}

fn value_names(v: &Value, out: &mut FxSet<String>) {
    match v {
        Value::Symbol(name, _) => {
            out.insert(name.clone());
        }
        Value::Map(entries, _) => {
            for e in entries {
                if let Some(k) = &e.key {
                    out.insert(k.clone());
                }
                value_names(&e.value, out);
            }
        }
    }
}

fn expr_names(e: &Expr, out: &mut FxSet<String>) {
    match e {
        Expr::Ref(name, _) => {
            out.insert(name.clone());
        }
        Expr::Cast(ty, inner, _) => {
            out.insert(ty.clone());
            expr_names(inner, out);
        }
        Expr::Access(m, k, _) => {
            expr_names(m, out);
            expr_names(k, out);
        }
    }
}

/// Generates names not in a taken set (and remembers them as taken).
pub struct Fresh {
    taken: FxSet<String>,
}

impl Fresh {
    pub fn new(taken: FxSet<String>) -> Fresh {
        Fresh { taken }
    }

    /// For a game: avoids every identifier it contains.
    pub fn for_game(game: &Game) -> Fresh {
        Fresh::new(identifiers(game))
    }

    /// `base` itself when free, otherwise `base_2`, `base_3`, ….
    pub fn name(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 1;
        while self.taken.contains(&name) {
            k += 1;
            name = format!("{base}_{k}");
        }
        self.taken.insert(name.clone());
        name
    }

    /// `base_1`, `base_2`, …: the first free one.
    pub fn numbered(&mut self, base: &str) -> String {
        let mut k = 1;
        loop {
            let name = format!("{base}_{k}");
            if self.taken.insert(name.clone()) {
                return name;
            }
            k += 1;
        }
    }
}

/// Expressions that evaluate to a given symbol. A symbol written in an
/// expression is read as a constant or variable of the same name when one
/// exists (rg.md §3.1); such a shadowed symbol is reached through a new
/// constant `const __gen_sym_s: { s } = s;`, declared before every other
/// constant so that its value is read as the symbol.
pub struct SymbolExprs {
    shadowing: FxSet<String>,
    made: FxMap<String, String>,
    new_constants: Vec<Constant>,
}

impl SymbolExprs {
    pub fn new(game: &Game) -> SymbolExprs {
        SymbolExprs {
            shadowing: game
                .constants
                .iter()
                .map(|c| c.name.clone())
                .chain(game.variables.iter().map(|v| v.name.clone()))
                .chain(
                    [
                        crate::builtins::PLAYER_VAR,
                        crate::builtins::GOALS_VAR,
                        crate::builtins::VISIBLE_VAR,
                    ]
                    .map(String::from),
                )
                .collect(),
            made: FxMap::default(),
            new_constants: Vec::new(),
        }
    }

    /// An expression with the value `symbol`.
    pub fn expr(&mut self, symbol: &str, fresh: &mut Fresh) -> Expr {
        if !self.shadowing.contains(symbol) {
            return Expr::name(symbol);
        }
        if let Some(name) = self.made.get(symbol) {
            return Expr::name(name.clone());
        }
        let name = fresh.name(&format!("__gen_sym_{symbol}"));
        self.new_constants.push(Constant {
            name: name.clone(),
            ty: Type::set([symbol]),
            value: Value::symbol(symbol),
            at: Default::default(),
        });
        self.made.insert(symbol.to_string(), name.clone());
        Expr::name(name)
    }

    /// Declares the constants that were needed (first in the game).
    pub fn finish(self, game: &mut Game) {
        game.constants.splice(0..0, self.new_constants);
    }
}
