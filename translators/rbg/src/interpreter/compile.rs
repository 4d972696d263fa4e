//! Compiles a checked [`ast::Game`] into interned, index-based tables and the
//! Thompson automata the search runs on.

use std::collections::HashMap;

use rg_core::diag::Diagnostic;

use super::nfa::{Automaton, Builder};
use crate::ast::{self, ActionKind, ArithOp, CompareOp, ExprKind, RuleKind, Symbol};

/// Marks "no such vertex" in the neighbour table and "keeper" as a player.
pub const NONE: u32 = u32::MAX;

/// A set of pieces as a bitset (at most 256 pieces).
#[derive(Clone, Debug)]
pub struct PieceSet([u64; 4]);

impl PieceSet {
    #[inline]
    pub fn contains(&self, piece: u8) -> bool {
        (self.0[(piece >> 6) as usize] >> (piece & 63)) & 1 == 1
    }
}

#[derive(Clone, Debug)]
pub enum Expr {
    Const(i128),
    /// Variable slot (players first, then variables).
    Var(u32),
    /// Number of vertices holding a piece.
    Count(u8),
    Binary(ArithOp, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum Action {
    /// Label index into the neighbour table (`NONE` for a label on no edge).
    Shift(u32),
    On(PieceSet),
    Off {
        piece: u8,
        modifier: u32,
    },
    Assign {
        slot: u32,
        value: Expr,
        modifier: u32,
    },
    Compare(Expr, CompareOp, Expr),
    /// `player` is `NONE` for the keeper.
    Switch {
        player: u32,
        modifier: u32,
    },
    Pattern {
        automaton: u32,
        negated: bool,
    },
    Noop,
}

/// Everything static about a game, in flat arrays.
pub struct Tables {
    pub player_names: Vec<String>,
    pub vertex_names: Vec<String>,
    /// Upper bound of each variable slot (players first).
    pub bounds: Vec<u32>,
    pub piece_count: usize,
    pub label_count: usize,
    /// `neighbors[v * label_count + l]`, `NONE` if absent.
    pub neighbors: Vec<u32>,
    pub initial_board: Vec<u8>,
    /// Automaton 0 is the main rules; the others are pattern bodies.
    pub automata: Vec<Automaton<Action>>,
    /// For modifier index `i` (1-based), the main-automaton transition.
    pub modifiers: Vec<u32>,
    /// Per automaton and transition: whether its target must be recorded in
    /// the level's visited set (see [`Automaton::shared_transitions`]).
    pub needs_mark: Vec<Vec<bool>>,
}

pub fn compile(game: &ast::Game) -> Result<Tables, Diagnostic> {
    if game.pieces.len() > 256 {
        return Err(Diagnostic::error(
            format!(
                "the interpreter supports at most 256 pieces, this game declares {}",
                game.pieces.len()
            ),
            game.pieces.get(256).map(|p| p.span),
        ));
    }
    if game.board.is_empty() || game.board.len() >= NONE as usize {
        return Err(Diagnostic::error(
            "the board must have at least one vertex",
            None,
        ));
    }
    let vertex_index: HashMap<&str, u32> = game
        .board
        .iter()
        .enumerate()
        .map(|(i, v)| (v.name.name.as_str(), i as u32))
        .collect();
    let labels = game.directions();
    let label_index: HashMap<&str, u32> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| (l.as_str(), i as u32))
        .collect();
    let mut neighbors = vec![NONE; game.board.len() * labels.len()];
    let mut initial_board = Vec::with_capacity(game.board.len());
    for (v, vertex) in game.board.iter().enumerate() {
        let piece = piece_of(game, &vertex.piece)?;
        initial_board.push(piece);
        for edge in &vertex.edges {
            let target = *vertex_index.get(edge.target.name.as_str()).ok_or_else(|| {
                Diagnostic::error(
                    format!("edge leads to unknown vertex `{}`", edge.target.name),
                    edge.target.span,
                )
            })?;
            let label = label_index[edge.label.name.as_str()];
            neighbors[v * labels.len() + label as usize] = target;
        }
    }
    let mut bounds: Vec<u32> = game.players.iter().map(|p| p.bound).collect();
    bounds.extend(game.variables.iter().map(|v| v.bound));

    let mut compiler = Compiler {
        game,
        label_index: &label_index,
        automata: Vec::new(),
        patterns: HashMap::new(),
        composites: HashMap::new(),
        label_count: labels.len() as u32,
    };
    // Reserve slot 0 for the main automaton; patterns are appended as found.
    compiler.automata.push(None);
    let main = compiler.automaton(&game.rules)?;
    compiler.automata[0] = Some(main);
    let automata: Vec<Automaton<Action>> = compiler.automata.into_iter().flatten().collect();

    // Widen the neighbour table by one column per composite shift.
    let mut composites: Vec<(u32, Vec<u32>)> = compiler
        .composites
        .into_iter()
        .map(|(path, column)| (column, path))
        .collect();
    composites.sort();
    let stride = labels.len() + composites.len();
    let vertex_count = game.board.len();
    let mut wide = vec![NONE; vertex_count * stride];
    for v in 0..vertex_count {
        wide[v * stride..v * stride + labels.len()]
            .copy_from_slice(&neighbors[v * labels.len()..(v + 1) * labels.len()]);
        for (column, path) in &composites {
            let mut at = v as u32;
            for &label in path {
                if at == NONE || label == NONE {
                    at = NONE;
                    break;
                }
                at = neighbors[at as usize * labels.len() + label as usize];
            }
            wide[v * stride + *column as usize] = at;
        }
    }
    let neighbors = wide;

    let modifier_total = game.modifier_count() as usize;
    let mut modifiers = vec![NONE; modifier_total + 1];
    for (t, action) in automata[0].actions.iter().enumerate() {
        let index = match action {
            Action::Off { modifier, .. }
            | Action::Assign { modifier, .. }
            | Action::Switch { modifier, .. } => *modifier,
            _ => continue,
        };
        if let Some(slot) = modifiers.get_mut(index as usize) {
            *slot = t as u32;
        }
    }
    // A shift along a label that two vertices share as target can merge
    // paths, so its targets are always marked.
    let injective: Vec<bool> = (0..stride)
        .map(|l| {
            let mut targets: Vec<u32> = (0..game.board.len())
                .map(|v| neighbors[v * stride + l])
                .filter(|&w| w != NONE)
                .collect();
            let count = targets.len();
            targets.sort_unstable();
            targets.dedup();
            targets.len() == count
        })
        .collect();
    let needs_mark = automata
        .iter()
        .map(|automaton| {
            let shared = automaton.shared_transitions();
            automaton
                .actions
                .iter()
                .zip(shared)
                .map(|(action, shared)| {
                    shared
                        || matches!(action, Action::Shift(l) if *l != NONE && !injective[*l as usize])
                })
                .collect()
        })
        .collect();
    Ok(Tables {
        needs_mark,
        player_names: game.players.iter().map(|p| p.name.clone()).collect(),
        vertex_names: game.board.iter().map(|v| v.name.name.clone()).collect(),
        bounds,
        piece_count: game.pieces.len(),
        label_count: stride,
        neighbors,
        initial_board,
        automata,
        modifiers,
    })
}

fn piece_of(game: &ast::Game, name: &ast::Name) -> Result<u8, Diagnostic> {
    match game.symbol(&name.name) {
        Some(Symbol::Piece(i)) => Ok(i as u8),
        _ => Err(Diagnostic::error(
            format!("undeclared piece `{}`", name.name),
            name.span,
        )),
    }
}

struct Compiler<'a> {
    game: &'a ast::Game,
    label_index: &'a HashMap<&'a str, u32>,
    automata: Vec<Option<Automaton<Action>>>,
    /// Structurally identical pattern bodies share one automaton, so that
    /// the search's pattern memo recognizes `{! p} + {? p}`.
    patterns: HashMap<String, u32>,
    /// Runs of consecutive shifts (`up left`) become one shift along a
    /// precomputed composite column: label path -> column index.
    composites: HashMap<Vec<u32>, u32>,
    label_count: u32,
}

impl Compiler<'_> {
    fn automaton(&mut self, rule: &ast::Rule) -> Result<Automaton<Action>, Diagnostic> {
        let mut builder = Builder::new();
        let (start, end) = self.fragment(&mut builder, rule)?;
        Ok(builder.finish(start, end))
    }

    /// Thompson construction (rbg.md §3.2); returns (start, end).
    fn fragment(
        &mut self,
        b: &mut Builder<Action>,
        rule: &ast::Rule,
    ) -> Result<(u32, u32), Diagnostic> {
        Ok(match &rule.kind {
            RuleKind::Action(action) => {
                let compiled = self.action(action)?;
                let (s, e) = (b.state(), b.state());
                b.action(s, e, compiled);
                (s, e)
            }
            RuleKind::Concat(items) => {
                let mut first = None;
                let mut last: Option<u32> = None;
                let mut i = 0;
                while i < items.len() {
                    // Shifts leave no trace in moves, so a run of them can be
                    // taken in one step without changing any move or state.
                    let run = items[i..]
                        .iter()
                        .take_while(|item| {
                            matches!(&item.kind, RuleKind::Action(a) if matches!(a.kind, ActionKind::Shift(_)))
                        })
                        .count();
                    let (s, e) = if run >= 2 {
                        let path: Vec<u32> = items[i..i + run]
                            .iter()
                            .map(|item| match &item.kind {
                                RuleKind::Action(ast::Action {
                                    kind: ActionKind::Shift(label),
                                    ..
                                }) => self
                                    .label_index
                                    .get(label.name.as_str())
                                    .copied()
                                    .unwrap_or(NONE),
                                _ => NONE,
                            })
                            .collect();
                        i += run;
                        let next_column = self.label_count + self.composites.len() as u32;
                        let column = *self.composites.entry(path).or_insert(next_column);
                        let (s, e) = (b.state(), b.state());
                        b.action(s, e, Action::Shift(column));
                        (s, e)
                    } else {
                        i += 1;
                        self.fragment(b, &items[i - 1])?
                    };
                    if let Some(previous_end) = last {
                        b.epsilon(previous_end, s);
                    } else {
                        first = Some(s);
                    }
                    last = Some(e);
                }
                match (first, last) {
                    (Some(s), Some(e)) => (s, e),
                    _ => {
                        let s = b.state();
                        (s, s)
                    }
                }
            }
            RuleKind::Sum(items) => {
                let (s, e) = (b.state(), b.state());
                for item in items {
                    let (is, ie) = self.fragment(b, item)?;
                    b.epsilon(s, is);
                    b.epsilon(ie, e);
                }
                (s, e)
            }
            RuleKind::Star(inner) => {
                let (s, e) = (b.state(), b.state());
                let (is, ie) = self.fragment(b, inner)?;
                b.epsilon(s, is);
                b.epsilon(s, e);
                b.epsilon(ie, is);
                b.epsilon(ie, e);
                (s, e)
            }
        })
    }

    fn action(&mut self, action: &ast::Action) -> Result<Action, Diagnostic> {
        let modifier = action.modifier_index.unwrap_or(0);
        Ok(match &action.kind {
            ActionKind::Shift(label) => Action::Shift(
                self.label_index
                    .get(label.name.as_str())
                    .copied()
                    .unwrap_or(NONE),
            ),
            ActionKind::On(pieces) => {
                let mut bits = [0u64; 4];
                for piece in pieces {
                    let p = piece_of(self.game, piece)?;
                    bits[(p >> 6) as usize] |= 1 << (p & 63);
                }
                Action::On(PieceSet(bits))
            }
            ActionKind::Off(piece) => Action::Off {
                piece: piece_of(self.game, piece)?,
                modifier,
            },
            ActionKind::Assign { target, value } => Action::Assign {
                slot: self.slot(target)?,
                value: self.expr(value)?,
                modifier,
            },
            ActionKind::Compare { left, op, right } => {
                Action::Compare(self.expr(left)?, *op, self.expr(right)?)
            }
            ActionKind::Switch(player) => match self.game.symbol(&player.name) {
                Some(Symbol::Player(i)) => Action::Switch {
                    player: i as u32,
                    modifier,
                },
                _ => {
                    return Err(Diagnostic::error(
                        format!("`->{}` does not name a player", player.name),
                        player.span,
                    ))
                }
            },
            ActionKind::KeeperSwitch => Action::Switch {
                player: NONE,
                modifier,
            },
            ActionKind::Pattern { negated, rule } => {
                let mut body = (**rule).clone();
                body.map_spans(&mut |_| rg_core::diag::Span::default());
                let shape = format!("{body:?}");
                if let Some(&automaton) = self.patterns.get(&shape) {
                    return Ok(Action::Pattern {
                        automaton,
                        negated: *negated,
                    });
                }
                let index = self.automata.len();
                self.automata.push(None);
                let automaton = self.automaton(rule)?;
                if automaton
                    .actions
                    .iter()
                    .any(|a| matches!(a, Action::Switch { .. }))
                {
                    return Err(Diagnostic::error("switch inside a pattern", rule.span));
                }
                self.automata[index] = Some(automaton);
                self.patterns.insert(shape, index as u32);
                Action::Pattern {
                    automaton: index as u32,
                    negated: *negated,
                }
            }
            ActionKind::Noop => Action::Noop,
        })
    }

    fn slot(&self, name: &ast::Name) -> Result<u32, Diagnostic> {
        let players = self.game.players.len() as u32;
        match self.game.symbol(&name.name) {
            Some(Symbol::Player(i)) => Ok(i as u32),
            Some(Symbol::Variable(i)) => Ok(players + i as u32),
            _ => Err(Diagnostic::error(
                format!("undeclared variable `{}`", name.name),
                name.span,
            )),
        }
    }

    fn expr(&self, expr: &ast::Expr) -> Result<Expr, Diagnostic> {
        Ok(match &expr.kind {
            ExprKind::Number(n) => Expr::Const(i128::from(*n)),
            ExprKind::Name(name) => {
                let players = self.game.players.len() as u32;
                match self.game.symbol(name) {
                    Some(Symbol::Piece(i)) => Expr::Count(i as u8),
                    Some(Symbol::Player(i)) => Expr::Var(i as u32),
                    Some(Symbol::Variable(i)) => Expr::Var(players + i as u32),
                    None => {
                        return Err(Diagnostic::error(
                            format!("undeclared name `{name}` in an expression"),
                            expr.span,
                        ))
                    }
                }
            }
            ExprKind::Binary { op, left, right } => {
                Expr::Binary(*op, Box::new(self.expr(left)?), Box::new(self.expr(right)?))
            }
        })
    }
}
