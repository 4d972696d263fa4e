//! The rules as RG edges (rbg.md §5.5): Thompson's construction directly on
//! the automaton, one translation per action occurrence.
//!
//! `rule(E, from, to)` never adds an edge into `from` or out of `to`, so
//! alternatives share both ends without connecting skips, and a star is a
//! fresh hub `h` with `from -> h -> to` skips and its body translated from
//! `h` back to `h` (walks from `h` to `h` are exactly repetitions of the
//! body, because the body never re-enters its own start).

use rg_core::ast::{Expr, Value};
use rg_core::build::label::{assign, eq, switch, tag, var_tag};

use super::arith::Cond;
use super::graph::{reach, Kind, NodeId, Step};
use super::names::index_tag;
use super::shifts::is_shift_only;
use super::text::rule_key;
use super::Lowerer;
use crate::ast::{Action, ActionKind, Name, Rule, RuleKind, Symbol};

/// Where a rule is translated.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// The main rules: modifiers are exposed as tags.
    Main,
    /// A pattern's sub-automaton: no tags.
    Pattern,
}

/// Alternative step chains, applied one after the other.
type Parts = Vec<Vec<Vec<Step>>>;

impl Lowerer<'_> {
    pub(crate) fn rule(&mut self, rule: &Rule, from: NodeId, to: NodeId, place: Place) {
        let saved = self.g.origin;
        self.g.origin = Some(rule.span);
        if self.options.shift_lookups && is_shift_only(rule) {
            let relation = self.relation(rule);
            let single = match &rule.kind {
                RuleKind::Action(Action {
                    kind: ActionKind::Shift(label),
                    ..
                }) => Some(label.name.as_str()),
                _ => None,
            };
            self.emit_relation(&relation, single, from, to);
            self.g.origin = saved;
            return;
        }
        match &rule.kind {
            RuleKind::Concat(items) => self.concatenation(items, from, to, place),
            RuleKind::Sum(items) => {
                let (shifts, others): (Vec<&Rule>, Vec<&Rule>) = items
                    .iter()
                    .partition(|item| self.options.shift_lookups && is_shift_only(item));
                if !shifts.is_empty() {
                    let n = self.game.board.len();
                    let relation = shifts
                        .iter()
                        .fold(super::relation::Relation::empty(n), |acc, item| {
                            acc.union(&self.relation(item))
                        });
                    self.emit_relation(&relation, None, from, to);
                }
                for item in others {
                    self.rule(item, from, to, place);
                }
            }
            RuleKind::Star(inner) => {
                let hub = self.g.node();
                self.g.skip(from, hub);
                self.g.skip(hub, to);
                self.rule(inner, hub, hub, place);
            }
            RuleKind::Action(action) => self.action(action, from, to, place),
        }
        self.g.origin = saved;
    }

    fn concatenation(&mut self, items: &[Rule], from: NodeId, to: NodeId, place: Place) {
        // Group maximal runs of shift-only items (§5.8).
        let mut groups: Vec<&[Rule]> = Vec::new();
        let mut start = 0;
        while start < items.len() {
            let mut end = start + 1;
            if self.options.shift_lookups && is_shift_only(&items[start]) {
                while end < items.len() && is_shift_only(&items[end]) {
                    end += 1;
                }
            }
            groups.push(&items[start..end]);
            start = end;
        }
        let mut current = from;
        for (k, group) in groups.iter().enumerate() {
            let next = if k + 1 == groups.len() {
                to
            } else {
                self.g.node()
            };
            if group.len() == 1 {
                self.rule(&group[0], current, next, place);
            } else {
                let saved = self.g.origin;
                self.g.origin = Some(group[0].span.join(group[group.len() - 1].span));
                let relation = self.run_relation(group);
                self.emit_relation(&relation, None, current, next);
                self.g.origin = saved;
            }
            current = next;
        }
    }

    fn action(&mut self, action: &Action, from: NodeId, to: NodeId, place: Place) {
        let expose = match (place, action.modifier_index) {
            (Place::Main, Some(index)) => Some(index),
            _ => None,
        };
        match &action.kind {
            ActionKind::Shift(label) => {
                let n = self.game.board.len();
                let relation = match self.neighbours.get(&label.name) {
                    Some(targets) => super::relation::Relation::function(targets),
                    None => super::relation::Relation::empty(n),
                };
                self.emit_relation(&relation, Some(&label.name), from, to);
            }
            ActionKind::Noop => self.g.skip(from, to),
            ActionKind::On(pieces) => {
                if let Some(step) = self.on(pieces) {
                    self.emit_parts(from, to, vec![vec![step]]);
                }
            }
            ActionKind::Off(piece) => {
                let mut before = Vec::new();
                if self.counted {
                    // Piece counters follow the board (rbg.md §5.5).
                    let counters = Expr::name(self.counters.clone());
                    let board = Expr::name(self.board.clone());
                    let coord = Expr::name(self.coord.clone());
                    let old = counters.clone().at_key(board.at_key(coord));
                    let decrement = self.counter_map(-1);
                    before.push((assign(old.clone(), decrement.at_key(old)), Kind::Assign));
                    let new = counters.at_key(Expr::name(self.piece_symbol(piece)));
                    let increment = self.counter_map(1);
                    before.push((assign(new.clone(), increment.at_key(new)), Kind::Assign));
                }
                let set = (
                    assign(
                        Expr::name(self.board.clone()).at_key(Expr::name(self.coord.clone())),
                        Expr::name(self.piece_symbol(piece)),
                    ),
                    Kind::Assign,
                );
                let mut parts: Parts = vec![vec![before]];
                parts.extend(self.expose(expose));
                parts.push(vec![vec![set]]);
                self.emit_parts(from, to, parts);
            }
            ActionKind::Assign { target, value } => match self.assignment(&target.name, value) {
                Ok(Cond::Steps(steps)) => {
                    let mut parts: Parts = vec![vec![steps]];
                    parts.extend(self.expose(expose));
                    self.emit_parts(from, to, parts);
                }
                Ok(Cond::Always) => {
                    let parts = self.expose(expose);
                    self.emit_parts(from, to, parts);
                }
                Ok(Cond::Never) => {}
                Err(e) => self.errors.push(e),
            },
            ActionKind::Compare { left, op, right } => match self.comparison(left, *op, right) {
                Ok(Cond::Steps(steps)) => self.emit_parts(from, to, vec![vec![steps]]),
                Ok(Cond::Always) => self.g.skip(from, to),
                Ok(Cond::Never) => {}
                Err(e) => self.errors.push(e),
            },
            ActionKind::Switch(_) | ActionKind::KeeperSwitch => {
                let target = match &action.kind {
                    ActionKind::Switch(player) => self.player_symbol(player),
                    _ => "keeper".to_string(),
                };
                let mut parts = self.expose(expose);
                parts.push(vec![vec![(switch(&target), Kind::Switch)]]);
                self.emit_parts(from, to, parts);
                // The switch edge is the last one emitted.
                self.links.push(super::stuck::Link {
                    edge: self.g.edges.len() - 1,
                    soft: false,
                });
            }
            ActionKind::Pattern {
                negated,
                rule: body,
            } => {
                match self.pattern(body) {
                    Some((start, end)) => {
                        self.g
                            .edge(from, to, reach(*negated, start, end), Kind::Check);
                    }
                    // The body can never reach its end.
                    None => {
                        if *negated {
                            self.g.skip(from, to);
                        }
                    }
                }
            }
        }
    }

    /// `{p1, ..., pk}`: `None` when it never holds, an empty chain when it
    /// always holds.
    fn on(&mut self, pieces: &[Name]) -> Option<Vec<Step>> {
        let mut wanted: Vec<usize> = pieces
            .iter()
            .filter_map(|p| match self.game.symbol(&p.name) {
                Some(Symbol::Piece(i)) => Some(i),
                _ => None,
            })
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        let here = Expr::name(self.board.clone()).at_key(Expr::name(self.coord.clone()));
        match wanted.len() {
            0 => None,
            n if n == self.game.pieces.len() => Some(vec![]),
            1 => Some(vec![(
                eq(here, Expr::name(self.names.pieces[wanted[0]].clone())),
                Kind::CoordTest,
            )]),
            _ => {
                let entries: Vec<(String, Value)> = wanted
                    .iter()
                    .map(|&i| (self.names.pieces[i].clone(), Value::symbol("1")))
                    .collect();
                let ty = rg_core::ast::Type::arrow(
                    self.piece_type.clone(),
                    rg_core::ast::Type::name("Bool"),
                );
                let map = self
                    .b
                    .constant("on", ty, Value::map(Value::symbol("0"), entries));
                Some(vec![(
                    eq(map.at_key(here), Expr::name("1")),
                    Kind::CoordTest,
                )])
            }
        }
    }

    /// The tags of modifier `index` (rbg.md §5.7), behind a fork on who
    /// moves that `owners::resolve` settles (§5.10(b)).
    fn expose(&mut self, index: Option<u32>) -> Parts {
        let Some(index) = index else {
            return Vec::new();
        };
        let player = Expr::name("player");
        let keeper = Expr::name("keeper");
        let with_tags = vec![
            (
                rg_core::build::label::ne(player.clone(), keeper.clone()),
                Kind::ExposePlayer,
            ),
            (var_tag(&self.coord), Kind::Tag),
            (tag(&index_tag(index)), Kind::Tag),
        ];
        vec![vec![
            vec![(eq(player, keeper), Kind::ExposeKeeper)],
            with_tags,
        ]]
    }

    /// Emits `parts` in sequence from `from` to `to`; each part is a set of
    /// alternative chains. Empty single chains are merged away.
    fn emit_parts(&mut self, from: NodeId, to: NodeId, parts: Parts) {
        let mut merged: Parts = Vec::new();
        for part in parts {
            if part.len() == 1 {
                if let Some(last) = merged.last_mut() {
                    if last.len() == 1 {
                        last[0].extend(part.into_iter().flatten());
                        continue;
                    }
                }
            }
            merged.push(part);
        }
        merged.retain(|part| !(part.len() == 1 && part[0].is_empty()));
        if merged.is_empty() {
            self.g.skip(from, to);
            return;
        }
        let mut current = from;
        let count = merged.len();
        for (k, part) in merged.into_iter().enumerate() {
            let next = if k + 1 == count { to } else { self.g.node() };
            for chain in part {
                self.g.chain(current, next, &chain);
            }
            current = next;
        }
    }

    /// The sub-automaton of a pattern body, shared by identical bodies;
    /// `None` when its end is unreachable (the pattern never holds).
    fn pattern(&mut self, body: &Rule) -> Option<(NodeId, NodeId)> {
        let key = rule_key(body);
        if let Some(known) = self.patterns.get(&key) {
            return *known;
        }
        let hint = std::mem::replace(&mut self.g.hint, "p");
        let start = self.g.node();
        let end = self.g.node();
        let first = self.g.edges.len();
        self.rule(body, start, end, Place::Pattern);
        self.g.hint = hint;
        let reachable = self.g.connects_within(first, start, end);
        let result = reachable.then_some((start, end));
        self.patterns.insert(key, result);
        result
    }
}
