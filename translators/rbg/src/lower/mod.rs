//! The RBG → RG lowering (rbg.md §5).
//!
//! A checked [`ast::Game`] becomes an RG game whose moves correspond one to
//! one to the RBG moves: every modifier application of a real player emits
//! the tags `$$ coord` and `$ index_i` (the canonical modifier index), so an
//! RG move prints exactly as [`crate::Interpreter`] prints the RBG move.
//!
//! Scheme (details in each module):
//! * declarations (§5.2–5.4, [`names`]): `Player`, `Score`, `Coord`,
//!   `CoordOrNull`, `Piece`, the `board`, `coord` and (only when an
//!   expression counts pieces) `counters` variables, one variable per RBG
//!   variable, player scores in `goals`;
//! * the rules by Thompson's construction on the edges ([`rules`]), with
//!   shift-only parts as table lookups (§5.8, [`shifts`]), exact arithmetic
//!   tables (§5.6, [`arith`]) and one shared sub-automaton per distinct
//!   pattern body;
//! * no tags for keeper moves (§5.10(b), [`owners`]), and "no legal move
//!   ends the game" (§5.10(c), [`stuck`]);
//! * optionally, `coord != null` checks dropped where an on-test follows
//!   (§5.9, [`nulls`]).
//!
//! Lowering never panics and does no I/O; limits (huge arithmetic tables or
//! bounds) are reported as diagnostics.

mod arith;
mod choice;
mod graph;
mod names;
mod nulls;
mod owners;
mod relation;
mod rules;
mod shifts;
mod stuck;
mod text;

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use rg_core::ast::{Expr, Game, Label, Type, Value};
use rg_core::build::label::eq;
use rg_core::build::GameBuilder;
use rg_core::diag::{has_errors, Diagnostic};

use crate::ast::{self, ActionKind, ExprKind, Name, Rule, RuleKind, Symbol};
use graph::{Graph, Kind, BEGIN, END};
use names::{number, Names};
use relation::Relation;
use rules::Place;
use shifts::Encoding;

/// Choices that never change the game, only the shape (and speed) of the
/// translation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LowerOptions {
    /// Translate shift-only parts as table lookups (rbg.md §5.8).
    pub shift_lookups: bool,
    /// Drop `coord != null` checks followed by an on-test (rbg.md §5.9).
    pub drop_null_checks: bool,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            shift_lookups: true,
            drop_null_checks: true,
        }
    }
}

/// A translated game and the RG checker's warnings about it.
#[derive(Clone, Debug)]
pub struct Translation {
    pub game: Game,
    pub warnings: Vec<Diagnostic>,
}

/// Translates a checked game with the default options.
pub fn lower(game: &ast::Game) -> Result<Game, Vec<Diagnostic>> {
    lower_with(game, &LowerOptions::default())
}

/// Translates a checked game.
pub fn lower_with(game: &ast::Game, options: &LowerOptions) -> Result<Game, Vec<Diagnostic>> {
    Lowerer::new(game, *options).run()
}

/// Parses, checks and lowers RBG source (high- or low-level), then checks
/// the RG result: the translation is returned only if the RG checker finds
/// no error; its warnings come along.
pub fn translate(source: &str) -> Result<Translation, Vec<Diagnostic>> {
    translate_with(source, &LowerOptions::default())
}

/// [`translate`] with explicit options.
pub fn translate_with(
    source: &str,
    options: &LowerOptions,
) -> Result<Translation, Vec<Diagnostic>> {
    let game = crate::parse_and_check(source)?;
    let rg = lower_with(&game, options)?;
    let diagnostics = rg_core::check::check_game(&rg);
    if has_errors(&diagnostics) {
        return Err(diagnostics
            .into_iter()
            .filter(Diagnostic::is_error)
            .map(|d| d.with_note("in the RG translation (a translator bug; please report it)"))
            .collect());
    }
    Ok(Translation {
        game: rg,
        warnings: diagnostics,
    })
}

pub(crate) struct Lowerer<'g> {
    game: &'g ast::Game,
    options: LowerOptions,
    b: GameBuilder,
    g: Graph,
    names: Names,
    errors: Vec<Diagnostic>,
    // Types.
    score_type: Type,
    coord_type: Type,
    coord_or_null_type: Type,
    piece_type: Type,
    set_types: HashMap<Vec<String>, Type>,
    // Generated variable names.
    board: String,
    coord: String,
    counters: String,
    /// Whether an expression counts pieces (then offs keep `counters`).
    counted: bool,
    /// Per edge label, the target of each vertex.
    neighbours: HashMap<String, Vec<Option<u32>>>,
    relations: HashMap<String, Rc<Relation>>,
    encodings: HashMap<Relation, Rc<Encoding>>,
    patterns: HashMap<String, Option<(graph::NodeId, graph::NodeId)>>,
    /// Switch edges (and the start link) for §5.10(c).
    links: Vec<stuck::Link>,
}

impl<'g> Lowerer<'g> {
    fn new(game: &'g ast::Game, options: LowerOptions) -> Lowerer<'g> {
        let names = Names::new(game);
        let mut b = GameBuilder::new();
        b.reserve_names(names.taken.iter().cloned());
        let mut lowerer = Lowerer {
            game,
            options,
            b,
            g: Graph::new(),
            errors: Vec::new(),
            score_type: Type::name("Score"),
            coord_type: Type::name("Coord"),
            coord_or_null_type: Type::name("CoordOrNull"),
            piece_type: Type::name("Piece"),
            set_types: HashMap::new(),
            board: String::new(),
            coord: String::new(),
            counters: String::new(),
            counted: false,
            neighbours: HashMap::new(),
            relations: HashMap::new(),
            encodings: HashMap::new(),
            patterns: HashMap::new(),
            links: Vec::new(),
            names,
        };
        lowerer.declare_types();
        lowerer.board = lowerer.preferred_name("board");
        lowerer.coord = lowerer.preferred_name("coord");
        lowerer.counters = lowerer.preferred_name("counters");
        lowerer.counted = counts_pieces(game);
        let index: HashMap<&str, u32> = game
            .board
            .iter()
            .enumerate()
            .map(|(k, v)| (v.name.name.as_str(), k as u32))
            .collect();
        for (k, vertex) in game.board.iter().enumerate() {
            for edge in &vertex.edges {
                let targets = lowerer
                    .neighbours
                    .entry(edge.label.name.clone())
                    .or_insert_with(|| vec![None; game.board.len()]);
                targets[k] = index.get(edge.target.name.as_str()).copied();
            }
        }
        lowerer
    }

    /// `name` unless something already uses it.
    fn preferred_name(&mut self, name: &str) -> String {
        if self.b.is_name_taken(name) {
            self.b.fresh_name(name)
        } else {
            self.b.reserve_names([name]);
            name.to_string()
        }
    }

    /// A set type with these symbols (shared by identical symbol lists).
    fn set_type(&mut self, preferred: &str, symbols: Vec<String>) -> Type {
        if let Some(t) = self.set_types.get(&symbols) {
            return t.clone();
        }
        let name = self.preferred_name(preferred);
        let ty = self
            .b
            .define_type(&name, Type::Set(symbols.clone(), Default::default()));
        self.set_types.insert(symbols, ty.clone());
        ty
    }

    fn numbers(upto: u32) -> Vec<String> {
        (0..=i128::from(upto)).map(number).collect()
    }

    fn bound_type(&mut self, bound: u32) -> Type {
        self.set_type(&format!("Upto{bound}"), Self::numbers(bound))
    }

    fn counter_type(&mut self) -> Type {
        self.set_type("Counter", Self::numbers(self.game.board.len() as u32))
    }

    fn declare_types(&mut self) {
        let players = self.names.players.clone();
        self.b.define_type("Player", Type::set(players));
        let max_bound = self.game.players.iter().map(|p| p.bound).max().unwrap_or(0);
        for p in &self.game.players {
            self.check_bound(p.bound, p.span, "player");
        }
        for v in &self.game.variables {
            self.check_bound(v.bound, v.span, "variable");
        }
        if self.errors.is_empty() {
            let scores = Self::numbers(max_bound);
            self.score_type = self
                .b
                .define_type("Score", Type::Set(scores.clone(), Default::default()));
            self.set_types.insert(scores, self.score_type.clone());
        } else {
            self.score_type = self.b.define_type("Score", Type::set(["0"]));
        }
        let vertices = self.names.vertices.clone();
        self.coord_type = self.set_type("Coord", vertices.clone());
        let mut with_null = vec![self.names.null.clone()];
        with_null.extend(vertices);
        self.coord_or_null_type = self.set_type("CoordOrNull", with_null);
        let mut pieces = self.names.pieces.clone();
        if self.options.drop_null_checks {
            pieces.push(self.names.null.clone());
        }
        self.piece_type = self.set_type("Piece", pieces);
    }

    fn check_bound(&mut self, bound: u32, span: rg_core::diag::Span, what: &str) {
        if bound as usize >= arith::MAX_VALUES {
            self.errors.push(
                Diagnostic::error(
                    format!("the bound {bound} is too large to translate to RG"),
                    span,
                )
                .with_label(format!("this {what}"))
                .with_note(format!(
                    "the RG translation writes every value as a symbol; at most {} are supported",
                    arith::MAX_VALUES - 1
                )),
            );
        }
    }

    fn piece_symbol(&self, piece: &Name) -> String {
        match self.game.symbol(&piece.name) {
            Some(Symbol::Piece(i)) => self.names.pieces[i].clone(),
            _ => piece.name.clone(),
        }
    }

    fn player_symbol(&self, player: &Name) -> String {
        match self.game.symbol(&player.name) {
            Some(Symbol::Player(i)) => self.names.players[i].clone(),
            _ => player.name.clone(),
        }
    }

    /// `increment` (`delta` 1) or `decrement` (-1) over piece counts.
    fn counter_map(&mut self, delta: i128) -> Expr {
        let n = self.game.board.len() as i128;
        let ty = self.counter_type();
        let (hint, default, entries): (&str, i128, Vec<(String, Value)>) = if delta > 0 {
            (
                "increment",
                n,
                (0..n)
                    .map(|v| (number(v), Value::symbol(number(v + 1))))
                    .collect(),
            )
        } else {
            (
                "decrement",
                0,
                (1..=n)
                    .map(|v| (number(v), Value::symbol(number(v - 1))))
                    .collect(),
            )
        };
        self.b.constant(
            hint,
            Type::arrow(ty.clone(), ty),
            Value::map(Value::symbol(number(default)), entries),
        )
    }

    fn run(mut self) -> Result<Game, Vec<Diagnostic>> {
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        let rules_start = self.g.node();
        let rules_end = self.g.node_with_hint("done");
        self.g.origin = Some(self.game.rules.span);
        self.g.skip(BEGIN, rules_start);
        self.links.push(stuck::Link {
            edge: self.g.edges.len() - 1,
            soft: true,
        });
        self.rule(&self.game.rules, rules_start, rules_end, Place::Main);
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        owners::resolve(&mut self.g, &mut self.links);
        let types: HashMap<String, Vec<String>> = self
            .set_types
            .iter()
            .filter_map(|(symbols, ty)| match ty {
                Type::Name(name, _) => Some((name.clone(), symbols.clone())),
                _ => None,
            })
            .collect();
        let symbols = |ty: &Type| match ty {
            Type::Name(name, _) => types.get(name).cloned(),
            Type::Set(symbols, _) => Some(symbols.clone()),
            Type::Arrow(..) => None,
        };
        let coord = self.coord.clone();
        let null = self.names.null.clone();
        let mut successor = |values: &[String]| {
            let entries: Vec<(String, Value)> = values
                .windows(2)
                .map(|w| (w[0].clone(), Value::symbol(w[1].clone())))
                .collect();
            let ty = Type::arrow(
                self.coord_or_null_type.clone(),
                self.coord_or_null_type.clone(),
            );
            self.b
                .constant("next", ty, Value::map(Value::symbol(null.clone()), entries))
        };
        choice::order_keeper_choices(
            &mut self.g,
            &mut choice::Scan {
                variable: &coord,
                none: &self.names.null.clone(),
                symbols: &symbols,
                successor: &mut successor,
            },
        );
        stuck::end_when_stuck(&mut self.g, &self.links);
        self.g.remove_deleted();
        if self.options.drop_null_checks {
            nulls::drop_null_checks(&mut self.g);
        }
        self.g.prune_unreachable();
        self.g.guard_reach_starts();
        if !self.g.end_reachable() {
            // A game that never ends still needs a path to `end` (rg.md
            // §4.5); this one is never legal (the keeper starts).
            self.g.origin = None;
            let never = self.g.node_with_hint("never");
            self.g.edge(
                BEGIN,
                never,
                eq(Expr::name("player"), Expr::name("random")),
                Kind::Test,
            );
            self.g.edge(
                never,
                END,
                rg_core::build::label::switch("keeper"),
                Kind::Switch,
            );
        }
        self.declare_variables();
        graph::emit(&self.g, &mut self.b);
        Ok(self.b.finish())
    }

    /// Declares the variables the edges use.
    fn declare_variables(&mut self) {
        let mut used: HashSet<String> = HashSet::new();
        for e in &self.g.edges {
            match &e.label {
                Label::Compare { lhs, rhs, .. } | Label::Assign { lhs, rhs } => {
                    names_in(lhs, &mut used);
                    names_in(rhs, &mut used);
                }
                Label::AssignAny { lhs, .. } => names_in(lhs, &mut used),
                Label::VarTag(v) => {
                    used.insert(v.clone());
                }
                _ => {}
            }
        }
        let game = self.game;
        if used.contains(&self.board) {
            let key = if self.options.drop_null_checks {
                self.coord_or_null_type.clone()
            } else {
                self.coord_type.clone()
            };
            let board_name = self.preferred_name("Board");
            let board_type = self
                .b
                .define_type(&board_name, Type::arrow(key, self.piece_type.clone()));
            let mut counts: HashMap<&str, usize> = HashMap::new();
            for v in &game.board {
                *counts.entry(v.piece.name.as_str()).or_default() += 1;
            }
            let common = game
                .pieces
                .iter()
                .map(|p| p.name.as_str())
                .max_by_key(|p| (counts.get(p).copied().unwrap_or(0), std::cmp::Reverse(*p)))
                .unwrap_or_default();
            let common_symbol = self.piece_symbol_by_name(common);
            let mut entries: Vec<(String, Value)> = game
                .board
                .iter()
                .enumerate()
                .filter(|(_, v)| v.piece.name != common)
                .map(|(k, v)| {
                    (
                        self.names.vertices[k].clone(),
                        Value::symbol(self.piece_symbol_by_name(&v.piece.name)),
                    )
                })
                .collect();
            if self.options.drop_null_checks {
                entries.push((
                    self.names.null.clone(),
                    Value::symbol(self.names.null.clone()),
                ));
            }
            let board = self.board.clone();
            self.b.variable(
                &board,
                board_type,
                Value::map(Value::symbol(common_symbol), entries),
            );
        }
        if used.contains(&self.coord) {
            let first = self.names.vertices.first().cloned().unwrap_or_default();
            let coord = self.coord.clone();
            let ty = self.coord_or_null_type.clone();
            self.b.variable(&coord, ty, Value::symbol(first));
        }
        if used.contains(&self.counters) {
            let counter = self.counter_type();
            let counters_name = self.preferred_name("Counters");
            let counters_type = self.b.define_type(
                &counters_name,
                Type::arrow(self.piece_type.clone(), counter),
            );
            let entries: Vec<(String, Value)> = game
                .pieces
                .iter()
                .enumerate()
                .filter_map(|(i, p)| {
                    let count = game.board.iter().filter(|v| v.piece.name == p.name).count();
                    (count > 0).then(|| {
                        (
                            self.names.pieces[i].clone(),
                            Value::symbol(number(count as i128)),
                        )
                    })
                })
                .collect();
            let counters = self.counters.clone();
            self.b.variable(
                &counters,
                counters_type,
                Value::map(Value::symbol("0"), entries),
            );
        }
        for (i, v) in game.variables.iter().enumerate() {
            let name = self.names.variables[i].clone();
            if used.contains(&name) {
                let ty = self.bound_type(v.bound);
                self.b.set_origin(Some(v.span));
                self.b.variable(&name, ty, Value::symbol("0"));
                self.b.set_origin(None);
            }
        }
    }

    fn piece_symbol_by_name(&self, name: &str) -> String {
        match self.game.symbol(name) {
            Some(Symbol::Piece(i)) => self.names.pieces[i].clone(),
            _ => name.to_string(),
        }
    }
}

fn names_in(e: &Expr, used: &mut HashSet<String>) {
    match e {
        Expr::Ref(n, _) => {
            used.insert(n.clone());
        }
        Expr::Cast(_, inner, _) => names_in(inner, used),
        Expr::Access(m, k, _) => {
            names_in(m, used);
            names_in(k, used);
        }
    }
}

/// Whether an expression anywhere in the rules names a piece.
fn counts_pieces(game: &ast::Game) -> bool {
    fn in_expr(game: &ast::Game, e: &ast::Expr) -> bool {
        match &e.kind {
            ExprKind::Number(_) => false,
            ExprKind::Name(n) => matches!(game.symbol(n), Some(Symbol::Piece(_))),
            ExprKind::Binary { left, right, .. } => in_expr(game, left) || in_expr(game, right),
        }
    }
    fn in_rule(game: &ast::Game, rule: &Rule) -> bool {
        match &rule.kind {
            RuleKind::Sum(items) | RuleKind::Concat(items) => {
                items.iter().any(|r| in_rule(game, r))
            }
            RuleKind::Star(inner) => in_rule(game, inner),
            RuleKind::Action(action) => match &action.kind {
                ActionKind::Assign { value, .. } => in_expr(game, value),
                ActionKind::Compare { left, right, .. } => {
                    in_expr(game, left) || in_expr(game, right)
                }
                ActionKind::Pattern { rule, .. } => in_rule(game, rule),
                _ => false,
            },
        }
    }
    in_rule(game, &game.rules)
}
