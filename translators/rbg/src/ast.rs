//! The low-level RBG abstract syntax tree (rbg.md §2): plain data.
//!
//! Names are kept as strings (they become RG symbols in the lowering); the
//! checker guarantees they resolve. Every node carries the span of the text
//! it came from — for high-level input, in the ORIGINAL source.

use rg_core::diag::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Players in declaration order (the canonical player order).
    pub players: Vec<BoundedName>,
    pub pieces: Vec<Name>,
    pub variables: Vec<BoundedName>,
    /// Vertices in board order; the first is the initial position.
    pub board: Vec<Vertex>,
    pub rules: Rule,
}

/// An identifier occurrence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub name: String,
    pub span: Span,
}

/// A player or variable declaration `name(bound)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundedName {
    pub name: String,
    pub bound: u32,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vertex {
    pub name: Name,
    pub piece: Name,
    pub edges: Vec<Edge>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub label: Name,
    pub target: Name,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub kind: RuleKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleKind {
    /// `r1 + r2 + ...` (at least two alternatives after flattening).
    Sum(Vec<Rule>),
    /// `r1 r2 ...` (at least two items after flattening).
    Concat(Vec<Rule>),
    Star(Box<Rule>),
    Action(Action),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub kind: ActionKind,
    /// The canonical modifier index (rbg.md §3.1): 1-based, textual order,
    /// only for modifiers outside patterns; `None` otherwise.
    pub modifier_index: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionKind {
    Shift(Name),
    /// `{p1, ..., pk}`; empty is never valid.
    On(Vec<Name>),
    Off(Name),
    Assign {
        target: Name,
        value: Expr,
    },
    Compare {
        left: Expr,
        op: CompareOp,
        right: Expr,
    },
    Switch(Name),
    KeeperSwitch,
    Pattern {
        negated: bool,
        rule: Box<Rule>,
    },
    Noop,
}

impl ActionKind {
    /// Offs, assignments and switches are modifiers (rbg.md §2.8).
    pub fn is_modifier(&self) -> bool {
        matches!(
            self,
            ActionKind::Off(_)
                | ActionKind::Assign { .. }
                | ActionKind::Switch(_)
                | ActionKind::KeeperSwitch
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    Less,
    LessEq,
    Equal,
    NotEqual,
    Greater,
    GreaterEq,
}

impl CompareOp {
    pub fn text(self) -> &'static str {
        match self {
            CompareOp::Less => "<",
            CompareOp::LessEq => "<=",
            CompareOp::Equal => "==",
            CompareOp::NotEqual => "!=",
            CompareOp::Greater => ">",
            CompareOp::GreaterEq => ">=",
        }
    }

    pub fn holds(self, left: i128, right: i128) -> bool {
        match self {
            CompareOp::Less => left < right,
            CompareOp::LessEq => left <= right,
            CompareOp::Equal => left == right,
            CompareOp::NotEqual => left != right,
            CompareOp::Greater => left > right,
            CompareOp::GreaterEq => left >= right,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Number(u32),
    /// A variable, a player (its score) or a piece (its count on the board).
    Name(String),
    Binary {
        op: ArithOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
}

impl Expr {
    pub fn map_spans(&mut self, f: &mut dyn FnMut(Span) -> Span) {
        self.span = f(self.span);
        if let ExprKind::Binary { left, right, .. } = &mut self.kind {
            left.map_spans(f);
            right.map_spans(f);
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
}

impl ArithOp {
    pub fn text(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
        }
    }
}

/// What an identifier used in `#rules` denotes (rbg.md §2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    Piece(usize),
    Player(usize),
    Variable(usize),
}

impl Game {
    /// Resolves a name: piece, else player, else variable (rbg.md §2.6).
    pub fn symbol(&self, name: &str) -> Option<Symbol> {
        if let Some(i) = self.pieces.iter().position(|p| p.name == name) {
            return Some(Symbol::Piece(i));
        }
        if let Some(i) = self.players.iter().position(|p| p.name == name) {
            return Some(Symbol::Player(i));
        }
        self.variables
            .iter()
            .position(|v| v.name == name)
            .map(Symbol::Variable)
    }

    pub fn vertex_index(&self, name: &str) -> Option<usize> {
        self.board.iter().position(|v| v.name.name == name)
    }

    /// All edge labels (`Dirs`), sorted, without duplicates.
    pub fn directions(&self) -> Vec<String> {
        let mut labels: Vec<String> = self
            .board
            .iter()
            .flat_map(|v| v.edges.iter().map(|e| e.label.name.clone()))
            .collect();
        labels.sort();
        labels.dedup();
        labels
    }

    /// Number of modifiers outside patterns (the largest modifier index).
    pub fn modifier_count(&self) -> u32 {
        let mut max = 0;
        self.rules.visit_actions(&mut |action, in_pattern| {
            if !in_pattern {
                if let Some(i) = action.modifier_index {
                    max = max.max(i);
                }
            }
        });
        max
    }
}

impl Game {
    /// Applies `f` to every span (e.g. to map spans to another text, or to
    /// erase them for structural comparisons).
    pub fn map_spans(&mut self, f: &mut dyn FnMut(Span) -> Span) {
        for p in self.players.iter_mut().chain(self.variables.iter_mut()) {
            p.span = f(p.span);
        }
        for p in &mut self.pieces {
            p.span = f(p.span);
        }
        for v in &mut self.board {
            v.span = f(v.span);
            v.name.span = f(v.name.span);
            v.piece.span = f(v.piece.span);
            for e in &mut v.edges {
                e.span = f(e.span);
                e.label.span = f(e.label.span);
                e.target.span = f(e.target.span);
            }
        }
        self.rules.map_spans(f);
    }
}

impl Rule {
    /// The number of rule nodes (actions, sums, concatenations, stars,
    /// patterns' rules included): what copying the rule costs.
    pub fn size(&self) -> usize {
        1 + match &self.kind {
            RuleKind::Sum(items) | RuleKind::Concat(items) => items.iter().map(Rule::size).sum(),
            RuleKind::Star(inner) => inner.size(),
            RuleKind::Action(Action {
                kind: ActionKind::Pattern { rule, .. },
                ..
            }) => rule.size(),
            RuleKind::Action(_) => 0,
        }
    }

    pub fn map_spans(&mut self, f: &mut dyn FnMut(Span) -> Span) {
        self.span = f(self.span);
        match &mut self.kind {
            RuleKind::Sum(items) | RuleKind::Concat(items) => {
                for item in items {
                    item.map_spans(f);
                }
            }
            RuleKind::Star(inner) => inner.map_spans(f),
            RuleKind::Action(action) => match &mut action.kind {
                ActionKind::Shift(n) | ActionKind::Off(n) | ActionKind::Switch(n) => {
                    n.span = f(n.span);
                }
                ActionKind::On(pieces) => {
                    for p in pieces {
                        p.span = f(p.span);
                    }
                }
                ActionKind::Assign { target, value } => {
                    target.span = f(target.span);
                    value.map_spans(f);
                }
                ActionKind::Compare { left, right, .. } => {
                    left.map_spans(f);
                    right.map_spans(f);
                }
                ActionKind::Pattern { rule, .. } => rule.map_spans(f),
                ActionKind::KeeperSwitch | ActionKind::Noop => {}
            },
        }
    }

    pub fn action(kind: ActionKind, span: Span) -> Rule {
        Rule {
            kind: RuleKind::Action(Action {
                kind,
                modifier_index: None,
            }),
            span,
        }
    }

    /// Calls `f(action, inside_pattern)` for every action in textual order,
    /// including actions inside patterns.
    pub fn visit_actions(&self, f: &mut dyn FnMut(&Action, bool)) {
        self.visit_actions_in(false, f);
    }

    fn visit_actions_in(&self, in_pattern: bool, f: &mut dyn FnMut(&Action, bool)) {
        match &self.kind {
            RuleKind::Sum(items) | RuleKind::Concat(items) => {
                for item in items {
                    item.visit_actions_in(in_pattern, f);
                }
            }
            RuleKind::Star(inner) => inner.visit_actions_in(in_pattern, f),
            RuleKind::Action(action) => {
                f(action, in_pattern);
                if let ActionKind::Pattern { rule, .. } = &action.kind {
                    rule.visit_actions_in(true, f);
                }
            }
        }
    }

    /// Numbers the modifiers outside patterns 1, 2, ... in textual order and
    /// clears indices inside patterns (rbg.md §3.1).
    pub fn assign_modifier_indices(&mut self) {
        let mut next = 0;
        self.assign_in(false, &mut next);
    }

    fn assign_in(&mut self, in_pattern: bool, next: &mut u32) {
        match &mut self.kind {
            RuleKind::Sum(items) | RuleKind::Concat(items) => {
                for item in items {
                    item.assign_in(in_pattern, next);
                }
            }
            RuleKind::Star(inner) => inner.assign_in(in_pattern, next),
            RuleKind::Action(action) => {
                action.modifier_index = if !in_pattern && action.kind.is_modifier() {
                    *next += 1;
                    Some(*next)
                } else {
                    None
                };
                if let ActionKind::Pattern { rule, .. } = &mut action.kind {
                    rule.assign_in(true, next);
                }
            }
        }
    }
}
