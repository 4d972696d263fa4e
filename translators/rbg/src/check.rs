//! Static checks of a low-level game (rbg.md §2.2–2.7): declared names,
//! disjoint name spaces, a well-formed board and no switch inside a pattern.
//! All problems are collected, not just the first.

#![warn(clippy::cast_possible_truncation)] // user data is read here

use std::collections::{HashMap, HashSet};

use rg_core::diag::{Diagnostic, Span};

use crate::ast::{ActionKind, Expr, ExprKind, Game, Name, Rule, RuleKind, Symbol};

/// Returns every static error of `game` (empty when the game is valid).
pub fn check(game: &Game) -> Vec<Diagnostic> {
    let mut checker = Checker {
        game,
        errors: Vec::new(),
    };
    checker.declarations();
    checker.board();
    checker.rule(&game.rules, None);
    checker.errors
}

struct Checker<'a> {
    game: &'a Game,
    errors: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn error(&mut self, diagnostic: Diagnostic) {
        self.errors.push(diagnostic);
    }

    fn declarations(&mut self) {
        // kind of the first declaration of each name, to report duplicates and clashes
        let mut seen: HashMap<&str, (&str, Span)> = HashMap::new();
        let entries = self
            .game
            .pieces
            .iter()
            .map(|p| ("piece", p.name.as_str(), p.span))
            .chain(
                self.game
                    .players
                    .iter()
                    .map(|p| ("player", p.name.as_str(), p.span)),
            )
            .chain(
                self.game
                    .variables
                    .iter()
                    .map(|v| ("variable", v.name.as_str(), v.span)),
            );
        let mut problems = Vec::new();
        for (kind, name, span) in entries {
            match seen.get(name) {
                Some((first_kind, _)) if *first_kind == kind => problems.push(
                    Diagnostic::error(format!("duplicate {kind} `{name}`"), span)
                        .with_label("declared again here"),
                ),
                Some((first_kind, _)) => problems.push(
                    Diagnostic::error(
                        format!("`{name}` is declared both as a {first_kind} and as a {kind}"),
                        span,
                    )
                    .with_note("pieces, players and variables must have distinct names"),
                ),
                None => {
                    seen.insert(name, (kind, span));
                }
            }
        }
        for problem in problems {
            self.error(problem);
        }
    }

    fn board(&mut self) {
        let mut vertex_names: HashSet<&str> = HashSet::new();
        for vertex in &self.game.board {
            if !vertex_names.insert(&vertex.name.name) {
                self.error(
                    Diagnostic::error(
                        format!("duplicate vertex `{}`", vertex.name.name),
                        vertex.name.span,
                    )
                    .with_label("declared again here")
                    .with_note("vertex names must be unique"),
                );
            }
        }
        for vertex in &self.game.board {
            if !matches!(self.game.symbol(&vertex.piece.name), Some(Symbol::Piece(_))) {
                self.undeclared_piece(&vertex.piece);
            }
            let mut labels = HashSet::new();
            for edge in &vertex.edges {
                if !labels.insert(edge.label.name.as_str()) {
                    self.error(
                        Diagnostic::error(
                            format!(
                                "vertex `{}` has two edges labelled `{}`",
                                vertex.name.name, edge.label.name
                            ),
                            edge.label.span,
                        )
                        .with_note("a vertex has at most one outgoing edge per label"),
                    );
                }
                if let Some(symbol) = self.game.symbol(&edge.label.name) {
                    self.error(
                        Diagnostic::error(
                            format!(
                                "edge label `{}` is already the name of a {}",
                                edge.label.name,
                                symbol_kind(symbol)
                            ),
                            edge.label.span,
                        )
                        .with_note("edge labels must differ from pieces, players and variables"),
                    );
                }
                if !vertex_names.contains(edge.target.name.as_str()) {
                    self.error(
                        Diagnostic::error(
                            format!("edge leads to unknown vertex `{}`", edge.target.name),
                            edge.target.span,
                        )
                        .with_label("no vertex with this name"),
                    );
                }
            }
        }
    }

    fn undeclared_piece(&mut self, name: &Name) {
        let message = match self.game.symbol(&name.name) {
            Some(symbol) => format!("`{}` is a {}, not a piece", name.name, symbol_kind(symbol)),
            None => format!("undeclared piece `{}`", name.name),
        };
        self.error(Diagnostic::error(message, name.span).with_note("declare it in #pieces"));
    }

    /// `pattern` is the span of the innermost enclosing pattern, if any.
    fn rule(&mut self, rule: &Rule, pattern: Option<Span>) {
        match &rule.kind {
            RuleKind::Sum(items) | RuleKind::Concat(items) => {
                for item in items {
                    self.rule(item, pattern);
                }
            }
            RuleKind::Star(inner) => self.rule(inner, pattern),
            RuleKind::Action(action) => match &action.kind {
                ActionKind::Shift(label) => {
                    if let Some(symbol) = self.game.symbol(&label.name) {
                        self.error(
                            Diagnostic::error(
                                format!(
                                    "`{}` is a {}, not a direction",
                                    label.name,
                                    symbol_kind(symbol)
                                ),
                                label.span,
                            )
                            .with_label("used as a shift here"),
                        );
                    }
                }
                ActionKind::On(pieces) => {
                    for piece in pieces {
                        if !matches!(self.game.symbol(&piece.name), Some(Symbol::Piece(_))) {
                            self.undeclared_piece(piece);
                        }
                    }
                }
                ActionKind::Off(piece) => {
                    if !matches!(self.game.symbol(&piece.name), Some(Symbol::Piece(_))) {
                        self.undeclared_piece(piece);
                    }
                }
                ActionKind::Assign { target, value } => {
                    match self.game.symbol(&target.name) {
                        Some(Symbol::Player(_) | Symbol::Variable(_)) => {}
                        Some(Symbol::Piece(_)) => self.error(
                            Diagnostic::error(
                                format!("cannot assign to piece `{}`", target.name),
                                target.span,
                            )
                            .with_note("only variables and players (scores) can be assigned"),
                        ),
                        None => self.error(
                            Diagnostic::error(
                                format!("undeclared variable `{}`", target.name),
                                target.span,
                            )
                            .with_note("declare it in #variables or #players"),
                        ),
                    }
                    self.expr(value);
                }
                ActionKind::Compare { left, right, .. } => {
                    self.expr(left);
                    self.expr(right);
                }
                ActionKind::Switch(player) => {
                    if !matches!(self.game.symbol(&player.name), Some(Symbol::Player(_))) {
                        self.error(
                            Diagnostic::error(
                                format!("`->{}` does not name a player", player.name),
                                player.span,
                            )
                            .with_note("declare it in #players, or use `->>` for the keeper"),
                        );
                    }
                    self.switch_in_pattern(rule.span, pattern);
                }
                ActionKind::KeeperSwitch => self.switch_in_pattern(rule.span, pattern),
                ActionKind::Pattern { rule: inner, .. } => self.rule(inner, Some(rule.span)),
                ActionKind::Noop => {}
            },
        }
    }

    fn switch_in_pattern(&mut self, span: Span, pattern: Option<Span>) {
        if pattern.is_some() {
            self.error(
                Diagnostic::error("switch inside a pattern", span)
                    .with_label("patterns cannot switch players")
                    .with_note("`{? ...}` and `{! ...}` only test; move the switch outside"),
            );
        }
    }

    fn expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Number(_) => {}
            ExprKind::Name(name) => {
                if self.game.symbol(name).is_none() {
                    self.error(
                        Diagnostic::error(
                            format!("undeclared name `{name}` in an expression"),
                            expr.span,
                        )
                        .with_note(
                            "expressions use variables, players (scores) and pieces (counts)",
                        ),
                    );
                }
            }
            ExprKind::Binary { left, right, .. } => {
                self.expr(left);
                self.expr(right);
            }
        }
    }
}

fn symbol_kind(symbol: Symbol) -> &'static str {
    match symbol {
        Symbol::Piece(_) => "piece",
        Symbol::Player(_) => "player",
        Symbol::Variable(_) => "variable",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_ll;

    fn errors(source: &str) -> Vec<String> {
        check(&parse_ll(source).unwrap())
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn valid_game_has_no_errors() {
        let source = "#board = a[e]{r:b} b[e]{l:a} #players = x(1), y(1) #pieces = e, p \
                      #variables = t(2) #rules = ->x r* {e} [p] [$ t = t + 1] ->> {? l} ->y";
        assert!(errors(source).is_empty());
    }

    #[test]
    fn reports_all_problems() {
        let source = "#board = a[q]{r:b, r:a, e:a} #players = x(1), e(1) #pieces = e, e \
                      #variables = t(2) #rules = ->z {? ->x} [y] [$ u = w] e";
        let found = errors(source);
        for expected in [
            "duplicate piece `e`",
            "`e` is declared both as a piece and as a player",
            "undeclared piece `q`",
            "vertex `a` has two edges labelled `r`",
            "edge label `e` is already the name of a piece",
            "edge leads to unknown vertex `b`",
            "`->z` does not name a player",
            "switch inside a pattern",
            "undeclared piece `y`",
            "undeclared variable `u`",
            "undeclared name `w` in an expression",
            "`e` is a piece, not a direction",
        ] {
            assert!(
                found.iter().any(|m| m == expected),
                "missing {expected}: {found:?}"
            );
        }
    }
}
