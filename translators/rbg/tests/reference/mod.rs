//! A deliberately naive RBG interpreter, written literally from rbg.md §3.8
//! (raw Thompson NFA with ε-edges, per-level visited sets of NFA states,
//! copied states instead of undo, and every keeper completion enumerated).
//! It shares only the parser and AST with `rbg::Interpreter`, so agreeing
//! with it is evidence that the fast search is right.

use std::collections::HashSet;
use std::rc::Rc;

use rbg::ast::{ActionKind, ArithOp, Expr, ExprKind, Game, Rule, RuleKind, Symbol};

#[derive(Clone, Debug)]
enum Label {
    Epsilon,
    Shift(String),
    On(Vec<usize>),
    Off(usize, u32),
    Assign(usize, Expr, u32),
    Compare(Expr, rbg::ast::CompareOp, Expr),
    /// `None` = keeper.
    Switch(Option<usize>, u32),
    Pattern(bool, Rc<Nfa>),
    Noop,
}

#[derive(Debug, Default)]
struct Nfa {
    edges: Vec<Vec<(Label, usize)>>,
    start: usize,
    end: usize,
}

impl Nfa {
    fn build(game: &Game, rule: &Rule) -> Nfa {
        let mut nfa = Nfa::default();
        let (s, e) = nfa.fragment(game, rule);
        nfa.start = s;
        nfa.end = e;
        nfa
    }

    fn state(&mut self) -> usize {
        self.edges.push(Vec::new());
        self.edges.len() - 1
    }

    fn fragment(&mut self, game: &Game, rule: &Rule) -> (usize, usize) {
        match &rule.kind {
            RuleKind::Action(action) => {
                let index = action.modifier_index.unwrap_or(0);
                let label = match &action.kind {
                    ActionKind::Shift(d) => Label::Shift(d.name.clone()),
                    ActionKind::On(pieces) => {
                        Label::On(pieces.iter().map(|p| piece(game, &p.name)).collect())
                    }
                    ActionKind::Off(p) => Label::Off(piece(game, &p.name), index),
                    ActionKind::Assign { target, value } => {
                        Label::Assign(slot(game, &target.name), value.clone(), index)
                    }
                    ActionKind::Compare { left, op, right } => {
                        Label::Compare(left.clone(), *op, right.clone())
                    }
                    ActionKind::Switch(p) => match game.symbol(&p.name) {
                        Some(Symbol::Player(i)) => Label::Switch(Some(i), index),
                        _ => panic!("checked game"),
                    },
                    ActionKind::KeeperSwitch => Label::Switch(None, index),
                    ActionKind::Pattern { negated, rule } => {
                        Label::Pattern(*negated, Rc::new(Nfa::build(game, rule)))
                    }
                    ActionKind::Noop => Label::Noop,
                };
                let (s, e) = (self.state(), self.state());
                self.edges[s].push((label, e));
                (s, e)
            }
            RuleKind::Concat(items) => {
                let parts: Vec<_> = items.iter().map(|i| self.fragment(game, i)).collect();
                for w in parts.windows(2) {
                    self.edges[w[0].1].push((Label::Epsilon, w[1].0));
                }
                (parts[0].0, parts[parts.len() - 1].1)
            }
            RuleKind::Sum(items) => {
                let (s, e) = (self.state(), self.state());
                for item in items {
                    let (is, ie) = self.fragment(game, item);
                    self.edges[s].push((Label::Epsilon, is));
                    self.edges[ie].push((Label::Epsilon, e));
                }
                (s, e)
            }
            RuleKind::Star(inner) => {
                let (s, e) = (self.state(), self.state());
                let (is, ie) = self.fragment(game, inner);
                self.edges[s].push((Label::Epsilon, is));
                self.edges[s].push((Label::Epsilon, e));
                self.edges[ie].push((Label::Epsilon, is));
                self.edges[ie].push((Label::Epsilon, e));
                (s, e)
            }
        }
    }
}

fn piece(game: &Game, name: &str) -> usize {
    game.pieces
        .iter()
        .position(|p| p.name == name)
        .expect("checked game")
}

fn slot(game: &Game, name: &str) -> usize {
    match game.symbol(name) {
        Some(Symbol::Player(i)) => i,
        Some(Symbol::Variable(i)) => game.players.len() + i,
        _ => panic!("checked game"),
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RState {
    board: Vec<usize>,
    vars: Vec<i64>,
    pos: usize,
    player: Option<usize>,
    q: usize,
}

pub struct Reference<'g> {
    game: &'g Game,
    nfa: Nfa,
    bounds: Vec<i64>,
}

/// Why the reference gave up.
#[derive(Debug, PartialEq, Eq)]
pub enum Stop {
    /// Two keeper completions differ (rbg.md §3.7): not comparable.
    Improper,
    TooDeep,
}

pub type Move = Vec<(u32, usize)>;

impl<'g> Reference<'g> {
    pub fn new(game: &'g Game) -> Self {
        let mut bounds: Vec<i64> = game.players.iter().map(|p| i64::from(p.bound)).collect();
        bounds.extend(game.variables.iter().map(|v| i64::from(v.bound)));
        Reference {
            game,
            nfa: Nfa::build(game, &game.rules),
            bounds,
        }
    }

    pub fn initial(&self) -> Result<RState, Stop> {
        let state = RState {
            board: self
                .game
                .board
                .iter()
                .map(|v| piece(self.game, &v.piece.name))
                .collect(),
            vars: vec![0; self.bounds.len()],
            pos: 0,
            player: None,
            q: self.nfa.start,
        };
        self.complete(state, 0)
    }

    fn neighbor(&self, v: usize, label: &str) -> Option<usize> {
        let edge = self.game.board[v]
            .edges
            .iter()
            .find(|e| e.label.name == label)?;
        self.game
            .board
            .iter()
            .position(|w| w.name.name == edge.target.name)
    }

    fn eval(&self, s: &RState, e: &Expr) -> Option<i64> {
        Some(match &e.kind {
            ExprKind::Number(n) => i64::from(*n),
            ExprKind::Name(name) => match self.game.symbol(name)? {
                Symbol::Piece(p) => s.board.iter().filter(|&&x| x == p).count() as i64,
                Symbol::Player(i) => s.vars[i],
                Symbol::Variable(i) => s.vars[self.game.players.len() + i],
            },
            ExprKind::Binary { op, left, right } => {
                let (a, b) = (self.eval(s, left)?, self.eval(s, right)?);
                match op {
                    ArithOp::Add => a + b,
                    ArithOp::Sub => a - b,
                    ArithOp::Mul => a * b,
                    ArithOp::Div => a.checked_div(b)?,
                }
            }
        })
    }

    /// All moves with their successor states (before keeper completion).
    pub fn moves(&self, s: &RState) -> Result<Vec<(Move, RState)>, Stop> {
        let mut results = Vec::new();
        let mut prefix = Vec::new();
        self.level(&self.nfa, s, s.q, s.pos, &mut prefix, &mut results, 0)?;
        Ok(results)
    }

    #[allow(clippy::too_many_arguments)]
    fn level(
        &self,
        nfa: &Nfa,
        s: &RState,
        q0: usize,
        v0: usize,
        prefix: &mut Move,
        results: &mut Vec<(Move, RState)>,
        depth: usize,
    ) -> Result<(), Stop> {
        if depth > 60 {
            return Err(Stop::TooDeep);
        }
        let mut visited = HashSet::from([(q0, v0)]);
        let mut stack = vec![(q0, v0)];
        while let Some((q, v)) = stack.pop() {
            for (label, t) in &nfa.edges[q] {
                let mut push = |t: usize, w: usize| {
                    if visited.insert((t, w)) {
                        stack.push((t, w));
                    }
                };
                match label {
                    Label::Epsilon | Label::Noop => push(*t, v),
                    Label::Shift(d) => {
                        if let Some(w) = self.neighbor(v, d) {
                            push(*t, w);
                        }
                    }
                    Label::On(set) => {
                        if set.contains(&s.board[v]) {
                            push(*t, v);
                        }
                    }
                    Label::Compare(a, op, b) => {
                        if let (Some(a), Some(b)) = (self.eval(s, a), self.eval(s, b)) {
                            if op.holds(i128::from(a), i128::from(b)) {
                                push(*t, v);
                            }
                        }
                    }
                    Label::Pattern(negated, inner) => {
                        if self.pattern(inner, s, inner.start, v, 0)? != *negated {
                            push(*t, v);
                        }
                    }
                    Label::Off(p, i) => {
                        let mut s2 = s.clone();
                        s2.board[v] = *p;
                        prefix.push((*i, v));
                        self.level(nfa, &s2, *t, v, prefix, results, depth + 1)?;
                        prefix.pop();
                    }
                    Label::Assign(x, e, i) => {
                        if let Some(val) = self.eval(s, e) {
                            if (0..=self.bounds[*x]).contains(&val) {
                                let mut s2 = s.clone();
                                s2.vars[*x] = val;
                                prefix.push((*i, v));
                                self.level(nfa, &s2, *t, v, prefix, results, depth + 1)?;
                                prefix.pop();
                            }
                        }
                    }
                    Label::Switch(p, i) => {
                        let mut m = prefix.clone();
                        m.push((*i, v));
                        let mut s2 = s.clone();
                        s2.player = *p;
                        s2.pos = v;
                        s2.q = *t;
                        results.push((m, s2));
                    }
                }
            }
        }
        Ok(())
    }

    fn pattern(
        &self,
        nfa: &Nfa,
        s: &RState,
        q0: usize,
        v0: usize,
        depth: usize,
    ) -> Result<bool, Stop> {
        if depth > 60 {
            return Err(Stop::TooDeep);
        }
        let mut visited = HashSet::from([(q0, v0)]);
        let mut stack = vec![(q0, v0)];
        while let Some((q, v)) = stack.pop() {
            if q == nfa.end {
                return Ok(true);
            }
            for (label, t) in &nfa.edges[q] {
                let mut next = None;
                match label {
                    Label::Epsilon | Label::Noop => next = Some(v),
                    Label::Shift(d) => next = self.neighbor(v, d),
                    Label::On(set) => next = set.contains(&s.board[v]).then_some(v),
                    Label::Compare(a, op, b) => {
                        if let (Some(a), Some(b)) = (self.eval(s, a), self.eval(s, b)) {
                            next = op.holds(i128::from(a), i128::from(b)).then_some(v);
                        }
                    }
                    Label::Pattern(negated, inner) => {
                        next = (self.pattern(inner, s, inner.start, v, depth)? != *negated)
                            .then_some(v);
                    }
                    Label::Off(p, _) => {
                        let mut s2 = s.clone();
                        s2.board[v] = *p;
                        if self.pattern(nfa, &s2, *t, v, depth + 1)? {
                            return Ok(true);
                        }
                    }
                    Label::Assign(x, e, _) => {
                        if let Some(val) = self.eval(s, e) {
                            if (0..=self.bounds[*x]).contains(&val) {
                                let mut s2 = s.clone();
                                s2.vars[*x] = val;
                                if self.pattern(nfa, &s2, *t, v, depth + 1)? {
                                    return Ok(true);
                                }
                            }
                        }
                    }
                    Label::Switch(..) => panic!("checked game: no switch in a pattern"),
                }
                if let Some(w) = next {
                    if visited.insert((*t, w)) {
                        stack.push((*t, w));
                    }
                }
            }
        }
        Ok(false)
    }

    /// Keeper completion, checking that every keeper choice agrees.
    pub fn complete(&self, s: RState, chain: usize) -> Result<RState, Stop> {
        if s.player.is_some() {
            return Ok(s);
        }
        if chain > 20 {
            return Err(Stop::TooDeep);
        }
        let moves = self.moves(&s)?;
        if moves.is_empty() {
            return Ok(s);
        }
        let mut outcomes = HashSet::new();
        for (_, next) in moves {
            outcomes.insert(self.complete(next, chain + 1)?);
        }
        if outcomes.len() > 1 {
            return Err(Stop::Improper);
        }
        Ok(outcomes.into_iter().next().expect("one outcome"))
    }

    pub fn perft(&self, s: &RState, depth: u32) -> Result<u64, Stop> {
        if depth == 0 {
            return Ok(1);
        }
        if s.player.is_none() {
            return Ok(0);
        }
        let mut total = 0;
        for (_, next) in self.moves(s)? {
            total += self.perft(&self.complete(next, 0)?, depth - 1)?;
        }
        Ok(total)
    }

    /// Moves in the RG tag form of rbg.md §5.7, sorted.
    pub fn formatted_moves(&self, s: &RState) -> Result<Vec<String>, Stop> {
        let mut out: Vec<String> = self
            .moves(s)?
            .into_iter()
            .map(|(m, _)| {
                m.iter()
                    .map(|(i, v)| format!("{} index_{i}", self.game.board[*v].name.name))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        out.sort();
        Ok(out)
    }
}
