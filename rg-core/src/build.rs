//! [`GameBuilder`]: the one API translators use to emit RG.
//!
//! It owns fresh-name generation (nodes, types, constants, variables),
//! deduplicates identical set types and constants, and offers small
//! automaton-shape helpers (sequence, fork, star loop, reachability
//! sub-automaton) so that a translator reads as a description of its scheme
//! and generated names look alike across languages.

use std::collections::{HashMap, HashSet};

use crate::ast::{
    is_ident_char, At, Constant, Edge, Expr, Game, Ident, Label, Pragma, PragmaKind, Type, TypeDef,
    Value, Variable, KEYWORDS,
};
use crate::builtins;

/// A node of the rules automaton under construction.
pub type Node = Ident;

/// An automaton fragment with one entry and one exit node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fragment {
    pub start: Node,
    pub end: Node,
}

/// Builds a [`Game`] step by step.
#[derive(Default)]
pub struct GameBuilder {
    game: Game,
    /// Names in the value/type namespaces (types, constants, variables,
    /// reserved symbols) — fresh names avoid all of them.
    taken_names: HashSet<Ident>,
    taken_nodes: HashSet<Node>,
    counters: HashMap<String, usize>,
    set_types: HashMap<Vec<Ident>, Ident>,
    constants: HashMap<(Type, Value), Ident>,
    /// The source location new edges and declarations are attributed to,
    /// so that checker diagnostics on the output point into the source.
    origin: At,
}

impl GameBuilder {
    pub fn new() -> Self {
        let mut builder = GameBuilder::default();
        // Built-in names and nodes can never be generated. Node names are
        // a namespace of their own, so `begin` and `end` are only taken
        // there.
        let names = builtins::BUILTIN_TYPES
            .into_iter()
            .chain(builtins::SYSTEM_PLAYERS)
            .chain(builtins::BUILTIN_VARIABLES);
        builder.taken_names.extend(names.map(String::from));
        builder
            .taken_nodes
            .extend(builtins::RESERVED_NODES.map(String::from));
        builder
    }

    /// Marks names (e.g. the symbols of the source game) that generated
    /// types, constants and variables must not use: in RG a constant or
    /// variable shadows the symbol of the same name.
    pub fn reserve_names<I: Into<Ident>>(&mut self, names: impl IntoIterator<Item = I>) {
        self.taken_names.extend(names.into_iter().map(Into::into));
    }

    pub fn is_name_taken(&self, name: &str) -> bool {
        self.taken_names.contains(name)
    }

    /// A fresh name for a type, constant or variable, based on `hint`.
    pub fn fresh_name(&mut self, hint: &str) -> Ident {
        let base = sanitize(hint);
        let name = fresh(&base, &self.taken_names, &mut self.counters);
        self.taken_names.insert(name.clone());
        name
    }

    /// A fresh node name based on `hint` (e.g. `move_3`).
    pub fn node(&mut self, hint: &str) -> Node {
        let base = sanitize(hint);
        let name = fresh(&base, &self.taken_nodes, &mut self.counters);
        self.taken_nodes.insert(name.clone());
        name
    }

    /// A fresh fragment `(start, end)`.
    pub fn fragment(&mut self, hint: &str) -> Fragment {
        Fragment {
            start: self.node(&format!("{hint}_in")),
            end: self.node(&format!("{hint}_out")),
        }
    }

    /// Attributes everything emitted from now on to `span` of the source
    /// being translated (`None`: no location).
    pub fn set_origin(&mut self, span: Option<crate::diag::Span>) {
        self.origin = At(span);
    }

    // ---- declarations ------------------------------------------------------

    /// Defines a type alias with exactly this name (e.g. `Player`).
    pub fn define_type(&mut self, name: &str, ty: Type) -> Type {
        self.taken_names.insert(name.to_string());
        if let Type::Set(symbols, _) = &ty {
            self.set_types
                .entry(symbols.clone())
                .or_insert_with(|| name.to_string());
        }
        self.game.typedefs.push(TypeDef {
            name: name.to_string(),
            ty,
            at: self.origin,
        });
        Type::name(name)
    }

    /// A named set type with these symbols; an existing alias with the same
    /// symbols (in the same order) is reused.
    pub fn set_type<I: Into<Ident>>(
        &mut self,
        hint: &str,
        symbols: impl IntoIterator<Item = I>,
    ) -> Type {
        let symbols: Vec<Ident> = symbols.into_iter().map(Into::into).collect();
        if let Some(name) = self.set_types.get(&symbols) {
            return Type::name(name.clone());
        }
        let name = self.fresh_name(hint);
        self.define_type(&name, Type::Set(symbols, At::NOWHERE))
    }

    /// A constant with this type and value; an identical existing constant
    /// is reused. Returns a reference to it.
    pub fn constant(&mut self, hint: &str, ty: Type, value: Value) -> Expr {
        let key = (ty, value);
        if let Some(name) = self.constants.get(&key) {
            return Expr::name(name.clone());
        }
        let name = self.fresh_name(hint);
        self.game.constants.push(Constant {
            name: name.clone(),
            ty: key.0.clone(),
            value: key.1.clone(),
            at: self.origin,
        });
        self.constants.insert(key, name.clone());
        Expr::name(name)
    }

    /// A constant with exactly this name (no deduplication).
    pub fn named_constant(&mut self, name: &str, ty: Type, value: Value) -> Expr {
        self.taken_names.insert(name.to_string());
        self.game.constants.push(Constant {
            name: name.to_string(),
            ty,
            value,
            at: self.origin,
        });
        Expr::name(name)
    }

    /// A variable with exactly this name.
    pub fn variable(&mut self, name: &str, ty: Type, initial: Value) -> Expr {
        self.taken_names.insert(name.to_string());
        self.game.variables.push(Variable {
            name: name.to_string(),
            ty,
            value: initial,
            at: self.origin,
        });
        Expr::name(name)
    }

    pub fn pragma(&mut self, kind: PragmaKind) {
        self.game.pragmas.push(Pragma {
            kind,
            at: self.origin,
        });
    }

    // ---- edges and shapes ----------------------------------------------------

    pub fn edge(&mut self, from: &str, to: &str, label: Label) {
        self.taken_nodes.insert(from.to_string());
        self.taken_nodes.insert(to.to_string());
        self.game.edges.push(Edge {
            at: self.origin,
            ..Edge::new(from, to, label)
        });
    }

    pub fn skip(&mut self, from: &str, to: &str) {
        self.edge(from, to, Label::Skip);
    }

    /// Labels in a chain from `from` to `to` through fresh nodes (a skip edge
    /// when there are none).
    pub fn sequence(&mut self, from: &str, to: &str, labels: impl IntoIterator<Item = Label>) {
        let labels: Vec<Label> = labels.into_iter().collect();
        if labels.is_empty() {
            self.skip(from, to);
            return;
        }
        let last = labels.len() - 1;
        let mut current = from.to_string();
        for (k, label) in labels.into_iter().enumerate() {
            let next = if k == last {
                to.to_string()
            } else {
                self.node(&format!("{from}_seq"))
            };
            self.edge(&current, &next, label);
            current = next;
        }
    }

    /// One chain of labels per alternative, all from `from` to `to`.
    pub fn fork(
        &mut self,
        from: &str,
        to: &str,
        alternatives: impl IntoIterator<Item = Vec<Label>>,
    ) {
        for labels in alternatives {
            self.sequence(from, to, labels);
        }
    }

    /// Thompson's star: zero or more runs of `body` between `from` and
    /// `to`. `body` receives fresh `(pre, post)` nodes to connect.
    pub fn star(&mut self, from: &str, to: &str, body: impl FnOnce(&mut Self, &str, &str)) {
        let pre = self.node(&format!("{from}_loop"));
        let post = self.node(&format!("{from}_looped"));
        self.skip(from, &pre);
        self.skip(from, to);
        body(self, &pre, &post);
        self.skip(&post, &pre);
        self.skip(&post, to);
    }

    /// A sub-automaton, unconnected to the rest, meant to be checked with
    /// `? start -> end`; `body` fills it in.
    pub fn subautomaton(
        &mut self,
        hint: &str,
        body: impl FnOnce(&mut Self, &str, &str),
    ) -> Fragment {
        let fragment = self.fragment(hint);
        body(self, &fragment.start, &fragment.end);
        fragment
    }

    /// A reachability check edge `from, to: ? sub.start -> sub.end;` (or `!`).
    pub fn check(&mut self, from: &str, to: &str, sub: &Fragment, negated: bool) {
        self.edge(
            from,
            to,
            Label::Reach {
                negated,
                from: sub.start.clone(),
                to: sub.end.clone(),
            },
        );
    }

    /// The game so far (for inspection while building).
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn finish(self) -> Game {
        self.game
    }
}

/// Label constructors, so translators read like the RG they emit.
pub mod label {
    use crate::ast::{Expr, Label, Type};

    pub fn assign(lhs: Expr, rhs: Expr) -> Label {
        Label::Assign { lhs, rhs }
    }

    pub fn assign_any(lhs: Expr, ty: Type) -> Label {
        Label::AssignAny { lhs, ty }
    }

    pub fn eq(lhs: Expr, rhs: Expr) -> Label {
        Label::Compare {
            negated: false,
            lhs,
            rhs,
        }
    }

    pub fn ne(lhs: Expr, rhs: Expr) -> Label {
        Label::Compare {
            negated: true,
            lhs,
            rhs,
        }
    }

    pub fn tag(symbol: &str) -> Label {
        Label::Tag(symbol.to_string())
    }

    pub fn var_tag(variable: &str) -> Label {
        Label::VarTag(variable.to_string())
    }

    /// `player = p`
    pub fn switch(player: &str) -> Label {
        assign(Expr::name("player"), Expr::name(player))
    }
}

/// Keeps identifier characters, replacing the rest by `_`, and avoids the
/// keyword prefixes some RG parsers trip over (rg.md §1).
pub fn sanitize(hint: &str) -> String {
    let mut out: String = hint
        .chars()
        .map(|c| if is_ident_char(c) { c } else { '_' })
        .collect();
    if out.is_empty() {
        out.push('n');
    }
    if KEYWORDS.iter().any(|k| out.starts_with(k)) {
        out.insert_str(0, "n_");
    }
    out
}

fn fresh(base: &str, taken: &HashSet<String>, counters: &mut HashMap<String, usize>) -> String {
    if !taken.contains(base) && !base.ends_with(|c: char| c.is_ascii_digit()) {
        return base.to_string();
    }
    let counter = counters.entry(base.to_string()).or_insert(0);
    loop {
        *counter += 1;
        let candidate = format!("{base}_{counter}");
        if !taken.contains(&candidate) {
            return candidate;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::label::*;
    use super::*;
    use crate::check::{check_game, is_clean};
    use crate::print::print_game;

    #[test]
    fn fresh_names_never_collide() {
        let mut b = GameBuilder::new();
        b.reserve_names(["x", "x_1"]);
        assert_eq!(b.fresh_name("x"), "x_2");
        assert_eq!(b.fresh_name("x"), "x_3");
        assert_eq!(b.fresh_name("player"), "player_1");
        assert_eq!(b.node("a"), "a");
        assert_eq!(b.node("a"), "a_1");
        assert_eq!(b.node("end"), "end_1");
        assert_eq!(b.node("type"), "n_type");
        assert_eq!(b.node("a-b.c"), "a_b_c");
        // Names ending in digits get a suffix so that `a1` + counter never
        // meets another base's generated names.
        assert_eq!(b.node("n1"), "n1_1");
    }

    #[test]
    fn set_types_and_constants_are_deduplicated() {
        let mut b = GameBuilder::new();
        let t1 = b.set_type("Coord", ["a", "b"]);
        let t2 = b.set_type("Other", ["a", "b"]);
        assert_eq!(t1, t2);
        let c1 = b.constant(
            "next",
            Type::arrow(t1.clone(), t1.clone()),
            Value::map(Value::symbol("a"), []),
        );
        let c2 = b.constant(
            "next",
            Type::arrow(t1.clone(), t1),
            Value::map(Value::symbol("a"), []),
        );
        assert_eq!(c1, c2);
        assert_eq!(b.game().constants.len(), 1);
    }

    /// Builds tic-tac-toe-like "pick a free cell" with the helpers and checks
    /// the result is a valid RG game.
    #[test]
    fn builds_a_checked_game() {
        let mut b = GameBuilder::new();
        b.define_type("Player", Type::set(["x"]));
        b.define_type("Score", Type::set(["0", "1"]));
        let cell = b.set_type("Cell", ["c0", "c1", "c2"]);
        let board = b.variable(
            "board",
            Type::arrow(cell.clone(), Type::set(["e", "x"])),
            Value::map(Value::symbol("e"), []),
        );
        let pos = b.variable("pos", cell.clone(), Value::symbol("c0"));
        let turn = b.node("turn");
        b.sequence("begin", &turn, [switch("x")]);
        let free = b.subautomaton("free", |b, s, e| {
            let mid = b.node("free_mid");
            b.edge(s, &mid, assign_any(pos.clone(), cell.clone()));
            b.edge(
                &mid,
                e,
                eq(board.clone().at_key(pos.clone()), Expr::name("e")),
            );
        });
        let play = b.node("play");
        b.check(&turn, &play, &free, false);
        let done = b.node("done");
        b.check(&turn, &done, &free, true);
        b.sequence(&done, "end", [switch("keeper")]);
        b.star(&play, &turn, |b, pre, post| {
            b.sequence(
                pre,
                post,
                [
                    assign_any(pos.clone(), cell.clone()),
                    eq(board.clone().at_key(pos.clone()), Expr::name("e")),
                    var_tag("pos"),
                    assign(board.clone().at_key(pos.clone()), Expr::name("x")),
                ],
            );
        });
        b.fork(&turn, &turn, []);
        let game = b.finish();
        let diagnostics = check_game(&game);
        assert!(
            is_clean(&diagnostics),
            "{diagnostics:?}\n{}",
            print_game(&game)
        );
        let printed = print_game(&game);
        assert_eq!(crate::parse::parse_game(&printed).unwrap(), game);
    }
}
