//! Prints a game as low-level RBG text (rbg.md §4.7 conventions), recording
//! for every printed token the original span it stands for.

use rg_core::diag::Span;

use super::source_map::SourceMap;
use crate::ast::{ActionKind, Expr, ExprKind, Game, Rule, RuleKind};

/// Lines of rules are wrapped after this many characters.
const WRAP: usize = 100;

/// Low-level text of `game`, and the map from its tokens to `game`'s spans.
pub fn print_ll(game: &Game) -> (String, SourceMap) {
    let mut p = Printer::default();
    p.header(
        "board",
        game.board.first().map_or(Span::default(), |v| v.span),
    );
    for vertex in &game.board {
        p.newline("  ");
        p.token(&vertex.name.name, vertex.name.span);
        p.glued("[", vertex.span);
        p.glued(&vertex.piece.name, vertex.piece.span);
        p.glued("]", vertex.span);
        p.glued("{", vertex.span);
        for (i, edge) in vertex.edges.iter().enumerate() {
            if i > 0 {
                p.glued(",", edge.span);
            }
            p.glued(&edge.label.name, edge.label.span);
            p.glued(":", edge.span);
            p.glued(&edge.target.name, edge.target.span);
        }
        p.glued("}", vertex.span);
    }
    p.newline("");
    p.header(
        "players",
        game.players.first().map_or(Span::default(), |v| v.span),
    );
    for (i, player) in game.players.iter().enumerate() {
        p.bounded(i, &player.name, player.bound, player.span);
    }
    p.newline("");
    p.header(
        "pieces",
        game.pieces.first().map_or(Span::default(), |v| v.span),
    );
    for (i, piece) in game.pieces.iter().enumerate() {
        if i > 0 {
            p.glued(",", piece.span);
        }
        p.token(&piece.name, piece.span);
    }
    p.newline("");
    p.header(
        "variables",
        game.variables.first().map_or(Span::default(), |v| v.span),
    );
    for (i, variable) in game.variables.iter().enumerate() {
        p.bounded(i, &variable.name, variable.bound, variable.span);
    }
    p.newline("");
    p.header("rules", game.rules.span);
    p.rule(&game.rules, Context::Top);
    p.out.push('\n');
    (p.out, p.map)
}

#[derive(Default)]
struct Printer {
    out: String,
    map: SourceMap,
    line_start: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Top,
    Concat,
    Star,
}

impl Printer {
    fn emit(&mut self, text: &str, origin: Span) {
        let start = self.out.len();
        self.out.push_str(text);
        self.map.push(Span::new(start, self.out.len()), origin);
    }

    /// A token separated from the previous one by a space (or a line break).
    fn token(&mut self, text: &str, origin: Span) {
        let last = self.out.chars().last();
        if matches!(last, Some(c) if c != ' ' && c != '\n' && c != '(' && c != '[' && c != '{') {
            if self.out.len() - self.line_start > WRAP {
                self.newline("    ");
            } else {
                self.out.push(' ');
            }
        }
        self.emit(text, origin);
    }

    /// A token written directly after the previous one.
    fn glued(&mut self, text: &str, origin: Span) {
        self.emit(text, origin);
    }

    fn newline(&mut self, indent: &str) {
        self.out.push('\n');
        self.line_start = self.out.len();
        self.out.push_str(indent);
    }

    fn header(&mut self, name: &str, origin: Span) {
        self.emit("#", origin);
        self.glued(name, origin);
        self.out.push(' ');
        self.emit("=", origin);
    }

    fn bounded(&mut self, index: usize, name: &str, bound: u32, origin: Span) {
        if index > 0 {
            self.glued(",", origin);
        }
        self.token(name, origin);
        self.glued("(", origin);
        self.glued(&bound.to_string(), origin);
        self.glued(")", origin);
    }

    fn rule(&mut self, rule: &Rule, context: Context) {
        match &rule.kind {
            RuleKind::Sum(items) => {
                let parens = context != Context::Top;
                if parens {
                    self.token("(", rule.span);
                }
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.token("+", rule.span);
                    }
                    self.rule(item, Context::Concat);
                }
                if parens {
                    self.glued(")", rule.span);
                }
            }
            RuleKind::Concat(items) => {
                let parens = context == Context::Star;
                if parens {
                    self.token("(", rule.span);
                }
                for item in items {
                    self.rule(item, Context::Concat);
                }
                if parens {
                    self.glued(")", rule.span);
                }
            }
            RuleKind::Star(inner) => {
                // `x**` is not LL: a starred star gets parentheses.
                if matches!(inner.kind, RuleKind::Star(_)) {
                    self.token("(", rule.span);
                    self.rule(inner, Context::Top);
                    self.glued(")", rule.span);
                } else {
                    self.rule(inner, Context::Star);
                }
                self.glued("*", rule.span);
            }
            RuleKind::Action(action) => {
                // `{e}*` is legal LL but not HL; `({e})*` is both, so the
                // output can be read back by either reader.
                let bare = matches!(
                    action.kind,
                    ActionKind::Shift(_)
                        | ActionKind::Switch(_)
                        | ActionKind::KeeperSwitch
                        | ActionKind::Noop
                );
                let parens = context == Context::Star && !bare;
                if parens {
                    self.token("(", rule.span);
                }
                self.action(&action.kind, rule.span);
                if parens {
                    self.glued(")", rule.span);
                }
            }
        }
    }

    fn action(&mut self, kind: &ActionKind, span: Span) {
        match kind {
            ActionKind::Shift(label) => self.token(&label.name, label.span),
            ActionKind::On(pieces) => {
                self.token("{", span);
                for (i, piece) in pieces.iter().enumerate() {
                    if i > 0 {
                        self.glued(",", span);
                        self.token(&piece.name, piece.span);
                    } else {
                        self.glued(&piece.name, piece.span);
                    }
                }
                self.glued("}", span);
            }
            ActionKind::Off(piece) => {
                self.token("[", span);
                self.glued(&piece.name, piece.span);
                self.glued("]", span);
            }
            ActionKind::Assign { target, value } => {
                self.token("[$", span);
                self.token(&target.name, target.span);
                self.token("=", span);
                self.expr(value);
                self.glued("]", span);
            }
            ActionKind::Compare { left, op, right } => {
                self.token("{$", span);
                self.expr(left);
                self.token(op.text(), span);
                self.expr(right);
                self.glued("}", span);
            }
            ActionKind::Switch(player) => {
                self.token("->", span);
                self.glued(&player.name, player.span);
            }
            ActionKind::KeeperSwitch => self.token("->>", span),
            ActionKind::Pattern { negated, rule } => {
                self.token(if *negated { "{!" } else { "{?" }, span);
                self.rule(rule, Context::Top);
                self.glued("}", span);
            }
            ActionKind::Noop => self.token(".", span),
        }
    }

    /// Every binary operation is parenthesized, so any reader's precedence
    /// reproduces the tree.
    fn expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Number(n) => self.token(&n.to_string(), expr.span),
            ExprKind::Name(name) => self.token(name, expr.span),
            ExprKind::Binary { op, left, right } => {
                self.token("(", expr.span);
                self.expr(left);
                self.token(op.text(), expr.span);
                self.expr(right);
                self.glued(")", expr.span);
            }
        }
    }
}
