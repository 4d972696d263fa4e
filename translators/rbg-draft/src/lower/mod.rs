//! The draft → RG translation (rbg-draft.md §10). It shares nothing with
//! [`crate::interpreter`] beyond the checked [`ast`](crate::ast).
//!
//! One RG move is one draft turn: the semimoves proper loop inside the move
//! through the priority chain of the player, a marker ends the move in a
//! keeper node that counts the turn, evaluates the goals and checks the
//! mobility of the next player. Player moves are tagged with the trace
//! (`$$ coord`, `$ piece` per write, then `$ semi` or `$ to_q`), so RG moves
//! print like the interpreter's moves; the cursor `coord` is reset before a
//! move ends so that equal tags lead to equal states.

mod prune;

use std::collections::HashMap;

use rg_core::ast::{Expr, Game as RgGame, Label, Type, Value};
use rg_core::build::label::{assign, assign_any, eq, ne, switch, tag, var_tag};
use rg_core::build::{Fragment, GameBuilder};
use rg_core::builtins::is_reserved_word;
use rg_core::diag::Diagnostic;

use crate::ast::{Expr as Move, Formula, Game, PlayerId, Relation, Target, Value as DValue};

/// Most values of the saturating `Turn` type (a goal comparing `$turn`
/// with a huge constant would need a huge table).
const MAX_TURN_VALUES: i64 = 100_000;
/// Most entries of the table of a comparison between two counters.
const MAX_COMPARISON_ENTRIES: usize = 1_000_000;

/// Translates a checked description.
pub fn lower(game: &Game) -> Result<RgGame, Vec<Diagnostic>> {
    let mut lowerer = Lowerer::new(game)?;
    lowerer.rules();
    if !lowerer.errors.is_empty() {
        return Err(lowerer.errors);
    }
    let mut rg = lowerer.b.finish();
    prune::prune(&mut rg);
    Ok(rg)
}

/// Where a marker leads.
#[derive(Clone)]
enum Exit {
    /// A real move: tag the target and hand over to its keeper node.
    Keeper,
    /// A reachability sub-automaton: the word is complete.
    Node(String),
}

struct Lowerer<'g> {
    game: &'g Game,
    b: GameBuilder,
    pieces: Vec<String>,
    players: Vec<String>,
    squares: Vec<String>,
    board: Expr,
    coord: Expr,
    coord_type: Type,
    turn: Option<(Expr, i64)>,
    counters: Option<(Expr, i64)>,
    shifts: HashMap<(i64, i64), Expr>,
    /// Per player, the keeper node its markers lead to (made on demand).
    keeper_nodes: Vec<Option<String>>,
    /// Per player and level, the "level has a semimove" sub-automaton.
    levels: Vec<Vec<Fragment>>,
    /// Per player, "can move".
    mobility: Vec<Fragment>,
    /// The saturating successor and predecessor tables.
    incr_turn: Expr,
    incr_cnt: Expr,
    decr_cnt: Expr,
    /// Descriptions too large to translate.
    errors: Vec<Diagnostic>,
}

impl<'g> Lowerer<'g> {
    fn new(game: &'g Game) -> Result<Lowerer<'g>, Vec<Diagnostic>> {
        let mut b = GameBuilder::new();
        // The draft's names are symbols; generated names must not shadow them.
        b.reserve_names(game.pieces.iter().chain(&game.players).cloned());
        let pieces: Vec<String> = game.pieces.iter().map(|n| mangle(&mut b, n)).collect();
        let players: Vec<String> = game.players.iter().map(|n| mangle(&mut b, n)).collect();
        let squares: Vec<String> = (0..game.board.len()).map(|k| game.square_name(k)).collect();
        b.reserve_names(squares.iter().cloned());
        b.reserve_names(["null", "semi"]);

        let mut scores: Vec<u32> = game.goals.iter().map(|g| g.score).collect();
        scores.push(0);
        scores.sort_unstable();
        scores.dedup();
        b.define_type("Player", Type::set(players.iter().cloned()));
        b.define_type("Score", Type::set(scores.iter().map(u32::to_string)));
        let piece_type = b.define_type("Piece", Type::set(pieces.iter().cloned()));
        let coord_type = b.define_type("Coord", Type::set(squares.iter().cloned()));
        let coord_or_null = b.define_type(
            "CoordOrNull",
            Type::set(std::iter::once("null".to_string()).chain(squares.iter().cloned())),
        );

        // The initial position, with the most frequent piece as default.
        let mut frequency = vec![0usize; pieces.len()];
        for &p in &game.board {
            frequency[p] += 1;
        }
        let common = (0..pieces.len()).max_by_key(|&p| (frequency[p], usize::MAX - p));
        let common = common.unwrap_or(0);
        let entries = game
            .board
            .iter()
            .enumerate()
            .filter(|(_, &p)| p != common)
            .map(|(k, &p)| (squares[k].clone(), Value::symbol(pieces[p].clone())));
        let board_name = preferred(&mut b, "board");
        let board = b.variable(
            &board_name,
            Type::arrow(coord_type.clone(), piece_type.clone()),
            Value::map(Value::symbol(pieces[common].clone()), entries),
        );
        let coord_name = preferred(&mut b, "coord");
        let coord = b.variable(
            &coord_name,
            coord_or_null,
            Value::symbol(squares[0].clone()),
        );

        let (uses_turn, turn_bound, uses_counts) = value_uses(game);
        let cells = i64::from(game.width) * i64::from(game.height);
        let turn = if uses_turn {
            let top = 1 + turn_bound.max(1).max(if uses_counts { cells } else { 1 });
            if top > MAX_TURN_VALUES {
                return Err(vec![Diagnostic::error(
                    format!(
                        "`$turn` is compared with a number too large to translate (the limit \
                         is {MAX_TURN_VALUES})"
                    ),
                    None,
                )]);
            }
            let ty = b.define_type("Turn", Type::set((1..=top).map(|v| v.to_string())));
            let name = preferred(&mut b, "turn");
            Some((b.variable(&name, ty, Value::symbol("1")), top))
        } else {
            None
        };
        let counters = if uses_counts {
            let ty = b.define_type("Count", Type::set((0..=cells).map(|v| v.to_string())));
            let entries = (0..pieces.len())
                .filter(|&p| frequency[p] > 0)
                .map(|p| (pieces[p].clone(), Value::symbol(frequency[p].to_string())));
            let name = preferred(&mut b, "counters");
            let var = b.variable(
                &name,
                Type::arrow(piece_type, ty),
                Value::map(Value::symbol("0"), entries),
            );
            Some((var, cells))
        } else {
            None
        };
        Ok(Lowerer {
            game,
            b,
            pieces,
            players,
            squares,
            board,
            coord,
            coord_type,
            turn,
            counters,
            shifts: HashMap::new(),
            keeper_nodes: vec![None; game.players.len()],
            levels: Vec::new(),
            mobility: Vec::new(),
            incr_turn: Expr::name("incr_turn"),
            incr_cnt: Expr::name("incr_cnt"),
            decr_cnt: Expr::name("decr_cnt"),
            errors: Vec::new(),
        })
    }

    fn piece(&self, p: usize) -> Expr {
        Expr::name(self.pieces[p].clone())
    }

    fn at_coord(&self) -> Expr {
        self.board.clone().at_key(self.coord.clone())
    }

    /// `shift_dx_dy: Coord -> CoordOrNull`.
    fn shift(&mut self, dx: i64, dy: i64) -> Expr {
        if let Some(e) = self.shifts.get(&(dx, dy)) {
            return e.clone();
        }
        let (w, h) = (i64::from(self.game.width), i64::from(self.game.height));
        let mut entries = Vec::new();
        for (k, name) in self.squares.iter().enumerate() {
            let k = i64::try_from(k).unwrap_or(i64::MAX);
            let (x, y) = (k % w + dx, k / w + dy);
            if (0..w).contains(&x) && (0..h).contains(&y) {
                let target = usize::try_from(y * w + x).unwrap_or(0);
                entries.push((name.clone(), Value::symbol(self.squares[target].clone())));
            }
        }
        let signed = |v: i64| {
            if v < 0 {
                format!("m{}", v.unsigned_abs())
            } else {
                v.to_string()
            }
        };
        let ty = Type::arrow(self.coord_type.clone(), Type::name("CoordOrNull"));
        let e = self.b.constant(
            &format!("shift_{}_{}", signed(dx), signed(dy)),
            ty,
            Value::map(Value::symbol("null"), entries),
        );
        self.shifts.insert((dx, dy), e.clone());
        e
    }

    /// The keeper node that a marker of player `to` leads to.
    fn keeper_node(&mut self, to: PlayerId) -> String {
        if let Some(node) = &self.keeper_nodes[to] {
            return node.clone();
        }
        let node = self.b.node(&format!("keeper_{}", self.players[to]));
        self.keeper_nodes[to] = Some(node.clone());
        node
    }

    /// Thompson's construction of `e` from `a` to `b` (§10.3) for player
    /// `p`; `tags` for real moves.
    fn tr(&mut self, e: &Move, a: &str, b: &str, p: PlayerId, exit: &Exit) {
        match e {
            Move::Step(step) => {
                let mut current = a.to_string();
                if (step.dx, step.dy) != (0, 0) {
                    let shift = self.shift(step.dx, step.dy);
                    let moved = self.b.node("moved");
                    let shifted = assign(self.coord.clone(), shift.at_key(self.coord.clone()));
                    self.b.edge(&current, &moved, shifted);
                    let on_board = self.b.node("on_board");
                    self.b.edge(
                        &moved,
                        &on_board,
                        ne(self.coord.clone(), Expr::name("null")),
                    );
                    current = on_board;
                }
                let after_on = if step.off.is_some() {
                    self.b.node("tested")
                } else {
                    b.to_string()
                };
                match &step.on {
                    Some(set) => {
                        for &piece in set {
                            let test = eq(self.at_coord(), self.piece(piece));
                            self.b.edge(&current, &after_on, test);
                        }
                    }
                    None => self.b.skip(&current, &after_on),
                }
                if let Some(set) = &step.off {
                    for &piece in set {
                        let labels = self.write(piece, matches!(exit, Exit::Keeper));
                        self.b.sequence(&after_on, b, labels);
                    }
                }
            }
            Move::Marker(target, _) => {
                let to = match *target {
                    Target::Player(q) => q,
                    Target::Offset(k) => {
                        let n = self.game.players.len() as i64;
                        usize::try_from((p as i64 + k % n + n) % n).unwrap_or(0)
                    }
                };
                match exit {
                    Exit::Keeper => {
                        let keeper = self.keeper_node(to);
                        let labels = vec![
                            tag(&format!("to_{}", self.players[to])),
                            assign(self.coord.clone(), Expr::name(self.squares[0].clone())),
                            switch("keeper"),
                        ];
                        self.b.sequence(a, &keeper, labels);
                    }
                    Exit::Node(node) => self.b.skip(a, node),
                }
            }
            Move::Alt(parts) => {
                for part in parts {
                    self.tr(part, a, b, p, exit);
                }
            }
            Move::Concat(parts) => {
                let mut current = a.to_string();
                for (k, part) in parts.iter().enumerate() {
                    let next = if k + 1 == parts.len() {
                        b.to_string()
                    } else {
                        self.b.node("then")
                    };
                    self.tr(part, &current, &next, p, exit);
                    current = next;
                }
            }
            Move::Power(inner, n, _) => {
                let mut current = a.to_string();
                for k in 0..*n {
                    let next = if k + 1 == *n {
                        b.to_string()
                    } else {
                        self.b.node("again")
                    };
                    self.tr(inner, &current, &next, p, exit);
                    current = next;
                }
            }
            Move::Star(inner, _) => {
                let pre = self.b.node("loop");
                let post = self.b.node("looped");
                self.b.skip(a, &pre);
                self.b.skip(a, b);
                self.tr(inner, &pre, &post, p, exit);
                self.b.skip(&post, &pre);
                self.b.skip(&post, b);
            }
        }
    }

    /// The labels of writing `piece` at `coord`: counters first (they read
    /// the old piece), then the board, then the trace tags.
    fn write(&self, piece: usize, tags: bool) -> Vec<Label> {
        let mut labels = Vec::new();
        if let (true, Some((counters, _))) = (tags, &self.counters) {
            let old = counters.clone().at_key(self.at_coord());
            let new = counters.clone().at_key(self.piece(piece));
            labels.push(assign(old.clone(), self.decr_cnt.clone().at_key(old)));
            labels.push(assign(new.clone(), self.incr_cnt.clone().at_key(new)));
        }
        labels.push(assign(self.at_coord(), self.piece(piece)));
        if tags {
            labels.push(var_tag(&expr_name(&self.coord)));
            labels.push(tag(&self.pieces[piece]));
        }
        labels
    }

    /// The skeleton of §10.4.
    fn rules(&mut self) {
        self.counter_tables();
        let game = self.game;
        // Reachability sub-automata: "level i of p has a semimove", "p can move".
        for (p, levels) in game.levels.iter().enumerate() {
            let mut fragments = Vec::new();
            for (i, level) in levels.iter().enumerate() {
                let hint = format!("level_{}_{}", self.players[p], i + 1);
                let fragment = self.b.fragment(&hint);
                let start = self.b.node(&format!("{hint}_start"));
                let any = assign_any(self.coord.clone(), self.coord_type.clone());
                self.b.edge(&fragment.start, &start, any);
                let exit = Exit::Node(fragment.end.clone());
                self.tr(level, &start, &fragment.end, p, &exit);
                fragments.push(fragment);
            }
            let any = self.b.fragment(&format!("can_move_{}", self.players[p]));
            for fragment in &fragments {
                self.b.skip(&any.start, &fragment.start);
                self.b.skip(&fragment.end, &any.end);
            }
            self.levels.push(fragments);
            self.mobility.push(any);
        }
        // Goals.
        let mut goal_fragments = Vec::new();
        for (r, goal) in game.goals.iter().enumerate() {
            let fragment = self.b.fragment(&format!("goal_{}", self.players[r]));
            self.formula(&goal.formula, &fragment.start, &fragment.end);
            goal_fragments.push(fragment);
        }
        let goal_any = self.b.fragment("some_goal");
        for fragment in &goal_fragments {
            self.b.skip(&goal_any.start, &fragment.start);
            self.b.skip(&fragment.end, &goal_any.end);
        }
        // Turns of every player.
        let turn_nodes: Vec<String> = self
            .players
            .clone()
            .iter()
            .map(|p| self.b.node(&format!("turn_{p}")))
            .collect();
        self.enter_turn("begin", 0, &turn_nodes);
        for (p, levels) in game.levels.iter().enumerate() {
            let mut current = turn_nodes[p].clone();
            for (i, level) in levels.iter().enumerate() {
                let fragment = self.levels[p][i].clone();
                let chosen = self.b.node(&format!("play_{}_{}", self.players[p], i + 1));
                self.b.check(&current, &chosen, &fragment, false);
                let next = self.b.node(&format!("not_{}_{}", self.players[p], i + 1));
                self.b.check(&current, &next, &fragment, true);
                current = next;
                let start = self.b.node("start");
                let any = assign_any(self.coord.clone(), self.coord_type.clone());
                self.b.edge(&chosen, &start, any);
                let finished = self.b.node(&format!("semimove_{}", self.players[p]));
                self.tr(level, &start, &finished, p, &Exit::Keeper);
                let reset = vec![
                    tag("semi"),
                    assign(self.coord.clone(), Expr::name(self.squares[0].clone())),
                ];
                self.b.sequence(&finished, &turn_nodes[p], reset);
            }
            // Stuck after a semimove proper: the move ends and p loses.
            let stuck = self.b.node(&format!("stuck_{}", self.players[p]));
            self.b.edge(&current, &stuck, switch("keeper"));
            self.loses(&stuck, p);
        }
        // Keeper nodes: count the turn, goals, then mobility of the next player.
        for q in 0..game.players.len() {
            let Some(node) = self.keeper_nodes[q].clone() else {
                continue;
            };
            let counted = match self.turn.clone() {
                Some((turn, _)) => {
                    let counted = self.b.node("counted");
                    let increment = assign(turn.clone(), self.incr_turn.clone().at_key(turn));
                    self.b.edge(&node, &counted, increment);
                    counted
                }
                None => node,
            };
            let won = self.b.node("game_over");
            self.b.check(&counted, &won, &goal_any, false);
            let mut current = won;
            for (r, fragment) in goal_fragments.iter().enumerate() {
                let next = self.b.node("scored");
                let holds = self.b.node("holds");
                self.b.check(&current, &holds, fragment, false);
                let score = Expr::name(game.goals[r].score.to_string());
                let goals = Expr::name("goals").at_key(Expr::name(self.players[r].clone()));
                self.b.edge(&holds, &next, assign(goals, score));
                self.b.check(&current, &next, fragment, true);
                current = next;
            }
            self.b.edge(&current, "end", switch("keeper"));
            let going_on = self.b.node("going_on");
            self.b.check(&counted, &going_on, &goal_any, true);
            self.enter_turn(&going_on, q, &turn_nodes);
        }
    }

    /// From `from` (a keeper node): the turn of `q` if it can move, else
    /// the end of the game with `q` losing.
    fn enter_turn(&mut self, from: &str, q: PlayerId, turn_nodes: &[String]) {
        let mobility = self.mobility[q].clone();
        let moves = self.b.node(&format!("to_{}", self.players[q]));
        self.b.check(from, &moves, &mobility, false);
        self.b
            .edge(&moves, &turn_nodes[q], switch(&self.players[q].clone()));
        let blocked = self.b.node(&format!("blocked_{}", self.players[q]));
        self.b.check(from, &blocked, &mobility, true);
        self.loses(&blocked, q);
    }

    /// The keeper's end of the game from `from`: `loser` 0, others their N.
    fn loses(&mut self, from: &str, loser: PlayerId) {
        let mut labels = Vec::new();
        for (r, goal) in self.game.goals.iter().enumerate() {
            if r != loser && goal.score != 0 {
                let goals = Expr::name("goals").at_key(Expr::name(self.players[r].clone()));
                labels.push(assign(goals, Expr::name(goal.score.to_string())));
            }
        }
        labels.push(switch("keeper"));
        self.b.sequence(from, "end", labels);
    }

    /// `incr_turn`, `incr_cnt`, `decr_cnt` (saturating).
    fn counter_tables(&mut self) {
        if let Some((_, top)) = self.turn {
            let entries = (1..top).map(|v| (v.to_string(), Value::symbol((v + 1).to_string())));
            let ty = Type::arrow(Type::name("Turn"), Type::name("Turn"));
            let map = Value::map(Value::symbol(top.to_string()), entries);
            self.incr_turn = self.b.constant("incr_turn", ty, map);
        }
        if let Some((_, cells)) = self.counters {
            let ty = Type::arrow(Type::name("Count"), Type::name("Count"));
            let up = (0..cells).map(|v| (v.to_string(), Value::symbol((v + 1).to_string())));
            let map = Value::map(Value::symbol(cells.to_string()), up);
            self.incr_cnt = self.b.constant("incr_cnt", ty.clone(), map);
            let down = (1..=cells).map(|v| (v.to_string(), Value::symbol((v - 1).to_string())));
            let map = Value::map(Value::symbol("0"), down);
            self.decr_cnt = self.b.constant("decr_cnt", ty, map);
        }
    }

    /// A goal formula from `a` to `b`: `or` parallel, `and` a chain, `not`
    /// a negated check of its own sub-automaton.
    fn formula(&mut self, f: &Formula, a: &str, b: &str) {
        match f {
            Formula::Or(parts) => {
                for part in parts {
                    self.formula(part, a, b);
                }
            }
            Formula::And(parts) => {
                let mut current = a.to_string();
                for (k, part) in parts.iter().enumerate() {
                    let next = if k + 1 == parts.len() {
                        b.to_string()
                    } else {
                        self.b.node("and")
                    };
                    self.formula(part, &current, &next);
                    current = next;
                }
            }
            Formula::Not(inner) => {
                let fragment = self.b.fragment("negated");
                self.formula(inner, &fragment.start, &fragment.end);
                self.b.check(a, b, &fragment, true);
            }
            Formula::Move(pattern, _) => {
                let start = self.b.node("pattern");
                let any = assign_any(self.coord.clone(), self.coord_type.clone());
                self.b.edge(a, &start, any);
                self.tr(pattern, &start, b, 0, &Exit::Node(b.to_string()));
            }
            Formula::At(piece, x, y, _) => {
                let square = self.game.square(*x, *y).unwrap_or(0);
                let square = self
                    .board
                    .clone()
                    .at_key(Expr::name(self.squares[square].clone()));
                let test = eq(square, self.piece(*piece));
                self.b.edge(a, b, test);
            }
            Formula::Compare(x, relation, y, span) => {
                let size = |v: DValue| self.domain(v).map_or(1, |(_, values)| values.len());
                if size(*x).saturating_mul(size(*y)) > MAX_COMPARISON_ENTRIES {
                    self.errors.push(
                        Diagnostic::error(
                            "this comparison needs too large a table to translate",
                            *span,
                        )
                        .with_label(format!(
                            "more than {MAX_COMPARISON_ENTRIES} pairs of values on this board"
                        )),
                    );
                    return;
                }
                self.compare(*x, *relation, *y, a, b);
            }
        }
    }

    /// The variable and value domain of a draft value, or its constant.
    fn domain(&self, v: DValue) -> Result<(Expr, Vec<i64>), i64> {
        match v {
            DValue::Int(n) => Err(n),
            DValue::Turn => {
                let (turn, top) = self.turn.clone().unwrap_or((Expr::name("turn"), 1));
                Ok((turn, (1..=top).collect()))
            }
            DValue::Count(p) => {
                let (counters, cells) =
                    self.counters.clone().unwrap_or((Expr::name("counters"), 0));
                Ok((counters.at_key(self.piece(p)), (0..=cells).collect()))
            }
        }
    }

    fn domain_type(v: DValue) -> Type {
        match v {
            DValue::Turn => Type::name("Turn"),
            _ => Type::name("Count"),
        }
    }

    fn compare(&mut self, x: DValue, relation: Relation, y: DValue, a: &str, b: &str) {
        let bool_of = |h: bool| Value::symbol(if h { "1" } else { "0" });
        let true_ = Expr::name("1");
        match (self.domain(x), self.domain(y)) {
            (Err(m), Err(n)) => {
                if relation.holds(m, n) {
                    self.b.skip(a, b);
                }
            }
            (Ok((e, values)), Err(n)) | (Err(n), Ok((e, values))) => {
                let var_left = self.domain(x).is_ok();
                let entries = values.iter().map(|&v| {
                    let h = if var_left {
                        relation.holds(v, n)
                    } else {
                        relation.holds(n, v)
                    };
                    (v.to_string(), bool_of(h))
                });
                let ty = Type::arrow(
                    Self::domain_type(if var_left { x } else { y }),
                    Type::name("Bool"),
                );
                let table = self.b.constant(
                    "cmp",
                    ty,
                    Value::map(bool_of(false), entries.collect::<Vec<_>>()),
                );
                self.b.edge(a, b, eq(table.at_key(e), true_));
            }
            (Ok((e1, v1)), Ok((e2, v2))) => {
                let rows = v1.iter().map(|&m| {
                    let row = v2
                        .iter()
                        .map(|&n| (n.to_string(), bool_of(relation.holds(m, n))))
                        .collect::<Vec<_>>();
                    (m.to_string(), Value::map(bool_of(false), row))
                });
                let ty = Type::arrow(
                    Self::domain_type(x),
                    Type::arrow(Self::domain_type(y), Type::name("Bool")),
                );
                let default = Value::map(bool_of(false), []);
                let table =
                    self.b
                        .constant("cmp", ty, Value::map(default, rows.collect::<Vec<_>>()));
                self.b.edge(a, b, eq(table.at_key(e1).at_key(e2), true_));
            }
        }
    }
}

/// Whether goals use `$turn` (and the largest constant compared with it)
/// and whether they count pieces.
fn value_uses(game: &Game) -> (bool, i64, bool) {
    let mut turn = false;
    let mut bound = 1;
    let mut counts = false;
    for goal in &game.goals {
        goal.formula.for_each_atom(&mut |atom| {
            if let Formula::Compare(x, _, y, _) = atom {
                for (v, other) in [(x, y), (y, x)] {
                    match v {
                        DValue::Turn => {
                            turn = true;
                            if let DValue::Int(n) = other {
                                bound = bound.max(*n);
                            }
                        }
                        DValue::Count(_) => counts = true,
                        DValue::Int(_) => {}
                    }
                }
            }
        });
    }
    (turn, bound, counts)
}

/// A draft name as an RG symbol: names RG reserves get a fresh variant.
fn mangle(b: &mut GameBuilder, name: &str) -> String {
    if is_reserved_word(name) {
        b.fresh_name(&format!("{name}_"))
    } else {
        name.to_string()
    }
}

/// `name`, unless a draft symbol already uses it.
fn preferred(b: &mut GameBuilder, name: &str) -> String {
    if b.is_name_taken(name) {
        b.fresh_name(name)
    } else {
        b.reserve_names([name]);
        name.to_string()
    }
}

fn expr_name(e: &Expr) -> String {
    match e {
        Expr::Ref(name, _) => name.clone(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use rg_core::print::print_game;

    fn rg(source: &str) -> String {
        let checked = crate::parse_and_check(source).unwrap();
        print_game(&super::lower(&checked.game).unwrap())
    }

    #[test]
    fn counters_and_turn_only_when_goals_use_them() {
        let plain =
            rg("#game g\n#board 2 1 a b\n#order p\n#player p (a/b)[p]\n#goal p 1 @ b 0 0\n");
        assert!(
            !plain.contains("counters") && !plain.contains("var turn"),
            "{plain}"
        );
        let counted =
            rg("#game g\n#board 2 1 a b\n#order p\n#player p (a/b)[p]\n#goal p 1 $b > $turn\n");
        assert!(
            counted.contains("var counters") && counted.contains("var turn"),
            "{counted}"
        );
    }

    #[test]
    fn shifts_are_named_by_their_deltas() {
        let text = rg("#game g\n#board 3 2 a b a b a b\n#order p\n\
                       #player p (a/b)(-1,1)(1,-1,a)[p]\n#goal p 1 $turn > 2\n");
        assert!(
            text.contains("shift_m1_1") && text.contains("shift_1_m1"),
            "{text}"
        );
    }
}
