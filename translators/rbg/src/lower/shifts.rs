//! Shift-only parts of the rules as table lookups (rbg.md §5.8).
//!
//! A rule built from shifts, `.`, `+`, concatenation, `*` and patterns over
//! such rules only moves the current vertex, so it denotes a static relation
//! `R` (see [`Relation`]). Moves record modifier applications only, so any
//! walk ending on the same vertex is as good as another, and the rule can be
//! replaced by a lookup with the same reachable vertices:
//!
//! * `R` empty everywhere: no edge;
//! * `R(v) ⊆ {v}` (a test such as `{! up}`): `at[coord] == 1` over a
//!   Boolean vertex map (`!= 1` for the complement, so `{? p}` and `{! p}`
//!   use the same map), or a skip when it always holds;
//! * `|R(v)| ≤ 1` (e.g. `up`, `up^7 left^7`): `coord = M[coord]`, then
//!   `coord != null` unless `M` is total;
//! * few distinct reachable sets (e.g. "any square"): per set `S`,
//!   `sel[coord] == 1` (unless every vertex reaches `S`) then `coord = S(*)`;
//! * otherwise `K = max |R(v)|` parallel lookups `coord = M_j[coord]`.

use std::rc::Rc;

use rg_core::ast::{Expr, Type, Value};
use rg_core::build::label::{assign, assign_any, eq, ne};

use super::graph::{Kind, NodeId, Step};
use super::relation::Relation;
use super::text::rule_key;
use super::Lowerer;
use crate::ast::{ActionKind, Rule, RuleKind};

/// How a relation is walked: parallel chains of steps.
#[derive(Clone, Debug)]
pub(crate) enum Encoding {
    Never,
    Always,
    Paths(Vec<Vec<Step>>),
}

/// Whether `rule` only moves the current vertex (§5.8).
pub(crate) fn is_shift_only(rule: &Rule) -> bool {
    match &rule.kind {
        RuleKind::Sum(items) | RuleKind::Concat(items) => items.iter().all(is_shift_only),
        RuleKind::Star(inner) => is_shift_only(inner),
        RuleKind::Action(action) => match &action.kind {
            ActionKind::Shift(_) | ActionKind::Noop => true,
            ActionKind::Pattern { rule, .. } => is_shift_only(rule),
            _ => false,
        },
    }
}

/// Limit on `K × |V|` entries of parallel lookup maps before falling back
/// to reachable-set assignments.
const MAX_PARALLEL_ENTRIES: usize = 1 << 20;

impl Lowerer<'_> {
    /// The relation of a shift-only rule.
    pub(crate) fn relation(&mut self, rule: &Rule) -> Rc<Relation> {
        let key = rule_key(rule);
        if let Some(r) = self.relations.get(&key) {
            return r.clone();
        }
        let n = self.game.board.len();
        let relation = match &rule.kind {
            RuleKind::Sum(items) => items.iter().fold(Relation::empty(n), |acc, item| {
                acc.union(&self.relation(item))
            }),
            RuleKind::Concat(items) => self.run_relation(items),
            RuleKind::Star(inner) => self.relation(inner).star(),
            RuleKind::Action(action) => match &action.kind {
                ActionKind::Shift(label) => match self.neighbours.get(&label.name) {
                    Some(targets) => Relation::function(targets),
                    None => Relation::empty(n),
                },
                ActionKind::Pattern { negated, rule } => self.relation(rule).test(*negated),
                _ => Relation::identity(n),
            },
        };
        let relation = Rc::new(relation);
        self.relations.insert(key, relation.clone());
        relation
    }

    /// The relation of consecutive shift-only items.
    pub(crate) fn run_relation(&mut self, items: &[Rule]) -> Relation {
        let n = self.game.board.len();
        items.iter().fold(Relation::identity(n), |acc, item| {
            acc.then(&self.relation(item))
        })
    }

    /// Emits the lookup edges of `relation` from `from` to `to`. `single`
    /// names the direction when the relation is one shift.
    pub(crate) fn emit_relation(
        &mut self,
        relation: &Relation,
        single: Option<&str>,
        from: NodeId,
        to: NodeId,
    ) {
        let encoding = match self.encodings.get(relation) {
            Some(e) => e.clone(),
            None => {
                let e = Rc::new(self.encode(relation, single));
                self.encodings.insert(relation.clone(), e.clone());
                e
            }
        };
        match &*encoding {
            Encoding::Never => {}
            Encoding::Always => self.g.skip(from, to),
            Encoding::Paths(paths) => {
                for path in paths {
                    self.g.chain(from, to, path);
                }
            }
        }
    }

    fn coord(&self) -> Expr {
        Expr::name(self.coord.clone())
    }

    fn vertex_map(&mut self, hint: &str, targets: impl Iterator<Item = Option<u32>>) -> Expr {
        let entries: Vec<(String, Value)> = targets
            .enumerate()
            .filter_map(|(v, t)| {
                t.map(|t| {
                    (
                        self.names.vertices[v].clone(),
                        Value::symbol(self.names.vertices[t as usize].clone()),
                    )
                })
            })
            .collect();
        let ty = Type::arrow(
            self.coord_or_null_type.clone(),
            self.coord_or_null_type.clone(),
        );
        self.b.constant(
            hint,
            ty,
            Value::map(Value::symbol(self.names.null.clone()), entries),
        )
    }

    /// A Boolean map over vertices, 1 on `marked`.
    fn selector(&mut self, hint: &str, marked: impl Iterator<Item = bool>) -> Expr {
        let entries: Vec<(String, Value)> = marked
            .enumerate()
            .filter(|(_, m)| *m)
            .map(|(v, _)| (self.names.vertices[v].clone(), Value::symbol("1")))
            .collect();
        let ty = Type::arrow(self.coord_or_null_type.clone(), Type::name("Bool"));
        self.b
            .constant(hint, ty, Value::map(Value::symbol("0"), entries))
    }

    fn lookup_steps(&mut self, map: Expr, total: bool) -> Vec<Step> {
        let coord = self.coord();
        let mut steps = vec![(
            assign(coord.clone(), map.at_key(coord.clone())),
            Kind::CoordLookup,
        )];
        if !total {
            steps.push((
                ne(coord, Expr::name(self.names.null.clone())),
                Kind::NullCheck,
            ));
        }
        steps
    }

    fn encode(&mut self, relation: &Relation, single: Option<&str>) -> Encoding {
        let n = relation.len();
        let width = relation.width();
        if width == 0 {
            return Encoding::Never;
        }
        let defined: Vec<bool> = relation.succ.iter().map(|s| !s.is_empty()).collect();
        let total = defined.iter().all(|&d| d);
        if relation.is_partial_identity() {
            if total {
                return Encoding::Always;
            }
            let count = defined.iter().filter(|&&d| d).count();
            // One map per complementary pair: it marks the smaller side
            // (ties: the side without vertex 0).
            let mark_domain = count < n - count || (2 * count == n && !defined[0]);
            let marked: Vec<bool> = defined.iter().map(|&d| d == mark_domain).collect();
            let map = self.selector("at", marked.into_iter());
            let tested = map.at_key(self.coord());
            return Encoding::Paths(vec![vec![if mark_domain {
                (eq(tested, Expr::name("1")), Kind::CoordTest)
            } else {
                (ne(tested, Expr::name("1")), Kind::Check)
            }]]);
        }
        if width == 1 {
            let hint = single.map_or_else(|| "step".to_string(), |d| format!("direction_{d}"));
            let map = self.vertex_map(&hint, relation.succ.iter().map(|s| s.first().copied()));
            return Encoding::Paths(vec![self.lookup_steps(map, total)]);
        }
        let mut sets: Vec<&Vec<u32>> = Vec::new();
        for s in &relation.succ {
            if !s.is_empty() && !sets.contains(&s) {
                sets.push(s);
            }
        }
        let parallel_too_big = width.saturating_mul(n) > MAX_PARALLEL_ENTRIES;
        if 2 * sets.len() <= width + 1 || parallel_too_big {
            let sets: Vec<Vec<u32>> = sets.into_iter().cloned().collect();
            let paths = sets
                .iter()
                .map(|set| {
                    let mut steps = Vec::new();
                    let everywhere = relation.succ.iter().all(|s| s == set);
                    if !everywhere {
                        let marked: Vec<bool> = relation.succ.iter().map(|s| s == set).collect();
                        let map = self.selector("from", marked.into_iter());
                        steps.push((
                            eq(map.at_key(self.coord()), Expr::name("1")),
                            Kind::CoordTest,
                        ));
                    }
                    let ty = if set.len() == n {
                        self.coord_type.clone()
                    } else {
                        let symbols: Vec<String> = set
                            .iter()
                            .map(|&v| self.names.vertices[v as usize].clone())
                            .collect();
                        self.set_type("Area", symbols)
                    };
                    steps.push((assign_any(self.coord(), ty), Kind::Assign));
                    steps
                })
                .collect();
            return Encoding::Paths(paths);
        }
        let paths = (0..width)
            .map(|j| {
                let complete = relation.succ.iter().all(|s| s.len() > j);
                let map = self.vertex_map("reach", relation.succ.iter().map(|s| s.get(j).copied()));
                self.lookup_steps(map, complete)
            })
            .collect();
        Encoding::Paths(paths)
    }
}
