//! Skip unread entries (E): a write `m[x] = e` to a map variable, keyed
//! by a set-typed variable `x`, becomes a skip when no later read of `m`
//! can be at the written key — typically a board cell written inside a
//! "can move" check, after which the check only looks at neighbouring
//! cells (`x = direction[x]` through constant maps without fixed points)
//! before it ends and its state is discarded.
//!
//! For each such write, with `c` the written key, a forward exploration
//! from the write tracks the relation between `c` and the current `x`:
//! `x = M[x]` for a constant map `M` composes it, `x == s` / `x != s`
//! filter it, any other assignment to `x` loses it. The write stays as
//! soon as some reachable edge may read `m[c]`: `m[x]` where the relation
//! allows `x = c`, `m[s]` with `c` possibly `s`, `m[k]` with any other
//! key, or `m` as a whole. A path stops where `m[x]` is overwritten while
//! `x = c` certainly, and at nodes without outgoing edges (a check's
//! target, where its state is discarded, or `end`). The possible values
//! of `c` come from a forward analysis of `x`'s values, so that e.g. a
//! preceding `x != null` rules out the fixed point every direction map has
//! at `null`. Games with a random player are left alone (perft merges
//! random outcomes by state, rg.md §6).

use crate::ast::{Edge, Expr, Game, Label, Value};
use crate::builtins;
use crate::fx_hash::{FxMap, FxSet};
use crate::types::TypeEnv;

use crate::opt::analysis::dataflow::{solve_by_edge, Analysis};
use crate::opt::analysis::graph::{NodeId, NodeIndex};
use crate::opt::analysis::{features, typing};
use crate::opt::Pass;

pub struct SkipUnreadEntries;

/// Largest `(possible keys) × (words per row)` tracked per node.
const MAX_RELATION_WORDS: usize = 4096;
/// Most node visits of one write's exploration before it is kept.
const MAX_VISITS: usize = 512;

impl Pass for SkipUnreadEntries {
    fn name(&self) -> &'static str {
        "skip-unread-entries"
    }

    fn description(&self) -> &'static str {
        "writes m[x] = e whose entry no later read can reach (keys moved through maps without fixed points) become skips"
    }

    fn run(&self, game: &mut Game) -> bool {
        let candidates = candidates(game);
        if candidates.is_empty() || features::has_random(game) {
            return false;
        }
        let full = typing::types_with_builtins(game);
        let env = TypeEnv::new(&full);
        let index = NodeIndex::new(game);
        let outgoing = index.outgoing();
        let mut dead = Vec::new();
        let mut by_key: FxMap<&str, Vec<(usize, &str)>> = FxMap::default();
        for &(k, map, key) in &candidates {
            by_key.entry(key).or_default().push((k, map));
        }
        for (key, writes) in by_key {
            let Some(domain) = Domain::of(game, &full, &env, key) else {
                continue;
            };
            let values = solve_by_edge(game, &Values { domain: &domain });
            for (k, map) in writes {
                let Some(keys) = values.before(k) else {
                    continue; // never reached: prune-unreachable's business
                };
                let explorer = Explorer {
                    game,
                    index: &index,
                    outgoing: &outgoing,
                    domain: &domain,
                    map,
                    keys: keys.ones().collect(),
                    stride: domain.len().div_ceil(64),
                };
                if explorer.never_read(index.ends[k].to) {
                    dead.push(k);
                }
            }
        }
        for &k in &dead {
            game.edges[k].label = Label::Skip;
        }
        !dead.is_empty()
    }
}

/// Writes `m[x] = …` (or `m[x] = T(*)`) with `m` a map variable and `x` a
/// variable: (edge index, `m`, `x`).
fn candidates(game: &Game) -> Vec<(usize, &str, &str)> {
    let constants: FxSet<&str> = game.constants.iter().map(|c| c.name.as_str()).collect();
    let variables: FxSet<&str> = game.variables.iter().map(|v| v.name.as_str()).collect();
    let is_variable = |n: &str| variables.contains(n) && !constants.contains(n);
    let engine_read = [
        builtins::PLAYER_VAR,
        builtins::VISIBLE_VAR,
        builtins::GOALS_VAR,
    ];
    game.edges
        .iter()
        .enumerate()
        .filter_map(|(k, e)| {
            let (Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. }) = &e.label else {
                return None;
            };
            let (map, key) = entry_of(lhs)?;
            (is_variable(map) && is_variable(key) && !engine_read.contains(&map))
                .then_some((k, map, key))
        })
        .collect()
}

/// `(m, x)` for the expression `m[x]`.
fn entry_of(e: &Expr) -> Option<(&str, &str)> {
    match e {
        Expr::Access(map, key, _) => match (map.as_ref(), key.as_ref()) {
            (Expr::Ref(m, _), Expr::Ref(x, _)) => Some((m, x)),
            _ => None,
        },
        _ => None,
    }
}

/// A set of symbol indices of the key variable's type.
#[derive(Clone, PartialEq, Debug)]
struct Bits(Vec<u64>);

impl Bits {
    fn empty(len: usize) -> Bits {
        Bits(vec![0; len.div_ceil(64)])
    }

    fn full(len: usize) -> Bits {
        let mut b = Bits::empty(len);
        (0..len).for_each(|i| b.insert(i));
        b
    }

    fn insert(&mut self, i: usize) {
        insert(&mut self.0, i);
    }

    fn union(&mut self, other: &Bits) -> bool {
        union_into(&mut self.0, &other.0)
    }

    fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        ones(&self.0)
    }

    /// Keeps only `i` (when `keep`) or everything but `i`.
    fn filter(&self, i: usize, keep: bool) -> Bits {
        let mut out = Bits(vec![0; self.0.len()]);
        filter_into(&self.0, i, keep, &mut out.0);
        out
    }

    /// The image under a table (`None`: some value leaves the domain).
    fn image(&self, table: &[Option<u32>]) -> Option<Bits> {
        let mut out = Bits::empty(table.len());
        image_into(&self.0, table, &mut out.0).then_some(out)
    }
}

// Bit sets as words, for the value sets and for the rows of relations.

fn insert(words: &mut [u64], i: usize) {
    words[i / 64] |= 1 << (i % 64);
}

fn contains(words: &[u64], i: usize) -> bool {
    words[i / 64] >> (i % 64) & 1 == 1
}

/// Adds `other` to `into`; returns whether it grew.
fn union_into(into: &mut [u64], other: &[u64]) -> bool {
    let mut grew = false;
    for (word, new) in into.iter_mut().zip(other) {
        grew |= *word | new != *word;
        *word |= new;
    }
    grew
}

/// Writes into the empty `out` only `i` of `set` (when `keep`) or all of
/// `set` but `i`.
fn filter_into(set: &[u64], i: usize, keep: bool, out: &mut [u64]) {
    if keep {
        if contains(set, i) {
            insert(out, i);
        }
    } else {
        out.copy_from_slice(set);
        out[i / 64] &= !(1 << (i % 64));
    }
}

/// The set bits of a bit set.
fn ones(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                w * 64 + bit
            })
        })
    })
}

/// Adds the image of `set` under `table` to `out`; false when some value
/// leaves the domain.
fn image_into(set: &[u64], table: &[Option<u32>], out: &mut [u64]) -> bool {
    for i in ones(set) {
        let Some(j) = table[i] else {
            return false;
        };
        insert(out, j as usize);
    }
    true
}

/// The key variable: its symbols, and the constant maps from its type to
/// itself as tables over symbol indices.
struct Domain<'g> {
    name: &'g str,
    symbols: Vec<String>,
    index: FxMap<String, u32>,
    tables: FxMap<&'g str, Vec<Option<u32>>>,
    constants: FxSet<&'g str>,
    variables: FxSet<&'g str>,
    initial: Option<u32>,
    env: &'g TypeEnv<'g>,
}

impl<'g> Domain<'g> {
    fn of(game: &'g Game, full: &'g Game, env: &'g TypeEnv<'g>, name: &'g str) -> Option<Self> {
        let var = full.variables.iter().find(|v| v.name == name)?;
        let symbols = env.resolve(&var.ty).ok()?.symbols()?.to_vec();
        let index: FxMap<String, u32> = symbols
            .iter()
            .enumerate()
            .map(|(i, s)| (s.clone(), i as u32))
            .collect();
        let initial = match &var.value {
            Value::Symbol(s, _) => index.get(s).copied(),
            Value::Map(..) => None,
        };
        let constants: FxSet<&str> = game.constants.iter().map(|c| c.name.as_str()).collect();
        let tables = game
            .constants
            .iter()
            .filter_map(|c| {
                let Value::Map(entries, _) = &c.value else {
                    return None;
                };
                let lookup = |s: &str| match s {
                    s if constants.contains(s) => None,
                    s => index.get(s).copied(),
                };
                let mut table = vec![None; symbols.len()];
                for entry in entries.iter().filter(|e| e.key.is_none()) {
                    let Value::Symbol(v, _) = &entry.value else {
                        return None;
                    };
                    table.iter_mut().for_each(|t| *t = lookup(v));
                }
                for entry in entries {
                    let (Some(key), Value::Symbol(v, _)) = (&entry.key, &entry.value) else {
                        continue;
                    };
                    if let Some(&i) = index.get(key.as_str()) {
                        table[i as usize] = lookup(v);
                    }
                }
                Some((c.name.as_str(), table))
            })
            .collect();
        let words = symbols.len().div_ceil(64);
        (symbols.len().saturating_mul(words) <= MAX_RELATION_WORDS).then_some(Domain {
            name,
            symbols,
            index,
            tables,
            constants,
            variables: game.variables.iter().map(|v| v.name.as_str()).collect(),
            initial,
            env,
        })
    }

    fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Whether `e` is the key variable itself.
    fn is_key(&self, e: &Expr) -> bool {
        matches!(e, Expr::Ref(n, _) if n == self.name)
    }

    /// Whether assigning `lhs` changes the key variable (`lhs` is the
    /// variable itself, or it under casts).
    fn writes_key(&self, lhs: &Expr) -> bool {
        lhs.target_root().is_some_and(|root| root == self.name)
    }

    /// The symbol index of `e` when it is a symbol of the domain.
    fn symbol(&self, e: &Expr) -> Option<usize> {
        match e {
            Expr::Ref(n, _)
                if !self.constants.contains(n.as_str()) && !self.variables.contains(n.as_str()) =>
            {
                self.index.get(n).map(|&i| i as usize)
            }
            _ => None,
        }
    }

    /// The table of `M` in `rhs = M[x]`.
    fn step(&self, rhs: &Expr) -> Option<&[Option<u32>]> {
        match rhs {
            Expr::Access(map, key, _) if self.is_key(key) => match map.as_ref() {
                Expr::Ref(m, _) => self.tables.get(m.as_str()).map(Vec::as_slice),
                _ => None,
            },
            _ => None,
        }
    }

    /// `x == s` (`Some((s, true))`) or `x != s` (`Some((s, false))`).
    fn test(&self, label: &Label) -> Option<(usize, bool)> {
        let Label::Compare { negated, lhs, rhs } = label else {
            return None;
        };
        let s = if self.is_key(lhs) {
            self.symbol(rhs)?
        } else if self.is_key(rhs) {
            self.symbol(lhs)?
        } else {
            return None;
        };
        Some((s, !negated))
    }

    /// The symbols of `T` in `x = T(*)`.
    fn any_of(&self, ty: &crate::ast::Type) -> Option<Bits> {
        let resolved = self.env.resolve(ty).ok()?;
        let mut out = Bits::empty(self.len());
        for s in resolved.symbols()? {
            out.insert(*self.index.get(s)? as usize);
        }
        Some(out)
    }
}

/// Forward "may" analysis: the values the key variable can hold.
struct Values<'d, 'g> {
    domain: &'d Domain<'g>,
}

impl Analysis for Values<'_, '_> {
    type Fact = Bits;

    fn entry(&self) -> Bits {
        let mut b = Bits::empty(self.domain.len());
        match self.domain.initial {
            Some(i) => b.insert(i as usize),
            None => b = Bits::full(self.domain.len()),
        }
        b
    }

    fn transfer(&self, edge: &Edge, fact: &Bits) -> Bits {
        let d = self.domain;
        let full = || Bits::full(d.len());
        if let Some((s, keep)) = d.test(&edge.label) {
            return fact.filter(s, keep);
        }
        match &edge.label {
            Label::Assign { lhs, rhs } if d.writes_key(lhs) => {
                if !d.is_key(lhs) {
                    full()
                } else if let Some(s) = d.symbol(rhs) {
                    let mut out = Bits::empty(d.len());
                    out.insert(s);
                    out
                } else if d.is_key(rhs) {
                    fact.clone()
                } else {
                    d.step(rhs).and_then(|t| fact.image(t)).unwrap_or_else(full)
                }
            }
            Label::AssignAny { lhs, ty } if d.writes_key(lhs) => match d.is_key(lhs) {
                true => d.any_of(ty).unwrap_or_else(full),
                false => full(),
            },
            _ => fact.clone(),
        }
    }

    fn join(&self, into: &mut Bits, other: &Bits) -> bool {
        into.union(other)
    }
}

/// Where the key variable can be, for each possible written key `c`: a
/// row of `stride` words per key, in the order of `keys`, all in one
/// vector; `None` when it is lost.
#[derive(Clone, PartialEq)]
struct Relation(Option<Vec<u64>>);

/// One write's exploration.
struct Explorer<'a, 'g> {
    game: &'a Game,
    index: &'a NodeIndex<'a>,
    outgoing: &'a [Vec<usize>],
    domain: &'a Domain<'g>,
    map: &'a str,
    /// The possible written keys.
    keys: Vec<usize>,
    /// Words per row of a relation.
    stride: usize,
}

/// Some edge may read the written entry.
struct Read;

impl Explorer<'_, '_> {
    /// Whether no walk from `start` (just after the write) reads the
    /// written entry.
    fn never_read(&self, start: NodeId) -> bool {
        let mut identity = vec![0; self.keys.len() * self.stride];
        for (row, &c) in identity.chunks_mut(self.stride).zip(&self.keys) {
            insert(row, c);
        }
        let identity = Relation(Some(identity));
        let mut at: FxMap<NodeId, Relation> = FxMap::default();
        let mut queue = vec![start];
        at.insert(start, identity);
        let mut visits = 0;
        while let Some(node) = queue.pop() {
            visits += 1;
            if visits > MAX_VISITS {
                return false;
            }
            let relation = at[&node].clone();
            for &k in &self.outgoing[node as usize] {
                let ends = self.index.ends[k];
                let Ok(after) = self.transfer(&self.game.edges[k].label, &relation) else {
                    return false;
                };
                let mut targets = Vec::with_capacity(2);
                if let Some(after) = after {
                    targets.push((ends.to, after));
                }
                if let Some((sub, _)) = ends.reach {
                    targets.push((sub, relation.clone()));
                }
                for (target, new) in targets {
                    if join_into(&mut at, target, new) {
                        queue.push(target);
                    }
                }
            }
        }
        true
    }

    /// The relation after an edge (`None`: the written entry is overwritten
    /// there), or `Err` when the edge may read it.
    fn transfer(&self, label: &Label, relation: &Relation) -> Result<Option<Relation>, Read> {
        let d = self.domain;
        match label {
            Label::Skip | Label::Tag(_) | Label::Reach { .. } => Ok(Some(relation.clone())),
            Label::VarTag(v) if v == self.map => Err(Read),
            Label::VarTag(_) => Ok(Some(relation.clone())),
            Label::Compare { lhs, rhs, .. } => {
                self.reads(lhs, relation)?;
                self.reads(rhs, relation)?;
                Ok(Some(match d.test(label) {
                    Some((s, keep)) => self.map_rows(relation, |row, out| {
                        filter_into(row, s, keep, out);
                        true
                    }),
                    None => relation.clone(),
                }))
            }
            Label::Assign { lhs, rhs } => {
                self.reads(rhs, relation)?;
                self.target_reads(lhs, relation)?;
                self.assigned(lhs, relation, || {
                    if let Some(s) = d.symbol(rhs) {
                        self.map_rows(relation, |_, out| {
                            insert(out, s);
                            true
                        })
                    } else if d.is_key(rhs) {
                        relation.clone()
                    } else {
                        match d.step(rhs) {
                            Some(table) => {
                                self.map_rows(relation, |row, out| image_into(row, table, out))
                            }
                            None => Relation(None),
                        }
                    }
                })
            }
            Label::AssignAny { lhs, ty } => {
                self.target_reads(lhs, relation)?;
                self.assigned(lhs, relation, || match d.any_of(ty) {
                    Some(values) => self.map_rows(relation, |_, out| {
                        out.copy_from_slice(&values.0);
                        true
                    }),
                    None => Relation(None),
                })
            }
        }
    }

    /// The relation after assigning `lhs`: overwritten entry, moved key,
    /// or unchanged.
    fn assigned(
        &self,
        lhs: &Expr,
        relation: &Relation,
        moved: impl FnOnce() -> Relation,
    ) -> Result<Option<Relation>, Read> {
        if self.domain.writes_key(lhs) {
            return Ok(Some(match self.domain.is_key(lhs) {
                true => moved(),
                false => Relation(None),
            }));
        }
        let overwritten = entry_of(lhs) == Some((self.map, self.domain.name))
            && relation.0.as_ref().is_some_and(|rows| {
                rows.chunks(self.stride)
                    .zip(&self.keys)
                    .all(|(row, &c)| ones(row).eq(std::iter::once(c)))
            });
        Ok((!overwritten).then(|| relation.clone()))
    }

    /// Fails when evaluating `e` may read the written entry.
    fn reads(&self, e: &Expr, relation: &Relation) -> Result<(), Read> {
        match e {
            Expr::Ref(n, _) => {
                if n == self.map {
                    Err(Read) // the whole map
                } else {
                    Ok(())
                }
            }
            Expr::Cast(_, inner, _) => self.reads(inner, relation),
            Expr::Access(map, key, _) => {
                if matches!(map.as_ref(), Expr::Ref(m, _) if m == self.map) {
                    self.reads(key, relation)?;
                    return if self.may_be_written_key(key, relation) {
                        Err(Read)
                    } else {
                        Ok(())
                    };
                }
                self.reads(map, relation)?;
                self.reads(key, relation)
            }
        }
    }

    /// The reads of an assignment target's keys (the target itself is
    /// written, not read).
    fn target_reads(&self, lhs: &Expr, relation: &Relation) -> Result<(), Read> {
        match lhs {
            Expr::Ref(..) => Ok(()),
            Expr::Cast(_, inner, _) => self.target_reads(inner, relation),
            Expr::Access(map, key, _) => {
                self.target_reads(map, relation)?;
                self.reads(key, relation)
            }
        }
    }

    /// Fills every row of a new relation with `f(old row, new row)` (a
    /// row it cannot compute loses the relation).
    fn map_rows(
        &self,
        relation: &Relation,
        mut f: impl FnMut(&[u64], &mut [u64]) -> bool,
    ) -> Relation {
        let Some(rows) = &relation.0 else {
            return Relation(None);
        };
        let mut out = vec![0; rows.len()];
        for (row, new) in rows.chunks(self.stride).zip(out.chunks_mut(self.stride)) {
            if !f(row, new) {
                return Relation(None);
            }
        }
        Relation(Some(out))
    }

    /// Whether `m[key]` may be the written entry.
    fn may_be_written_key(&self, key: &Expr, relation: &Relation) -> bool {
        let d = self.domain;
        if d.is_key(key) {
            return match &relation.0 {
                None => true,
                Some(rows) => rows
                    .chunks(self.stride)
                    .zip(&self.keys)
                    .any(|(row, &c)| contains(row, c)),
            };
        }
        match d.symbol(key) {
            Some(s) => self.keys.contains(&s),
            None => true,
        }
    }
}

/// Joins `new` into the relation at `node`; returns whether it grew.
fn join_into(at: &mut FxMap<NodeId, Relation>, node: NodeId, new: Relation) -> bool {
    match at.get_mut(&node) {
        None => {
            at.insert(node, new);
            true
        }
        Some(old) => match (&mut old.0, new.0) {
            (None, _) => false,
            (slot @ Some(_), None) => {
                *slot = None;
                true
            }
            (Some(rows), Some(new_rows)) => union_into(rows, &new_rows),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    /// A row of cells `a b c` and `null`, with a move to the right that
    /// has no fixed point except at `null`.
    const BOARD: &str = "type Cell = { null, a, b, c };\ntype Piece = { e, x, o };\n\
        const right: Cell -> Cell = { :null, a: b, b: c };\n\
        const stay: Cell -> Cell = { :null, a: a, b: c };\n\
        var board: Cell -> Piece = { :e, null: o };\nvar pos: Cell = a;\n";

    fn run(edges: &str) -> (bool, String) {
        let (changed, out) = after(&SkipUnreadEntries, &format!("{BOARD}{edges}"));
        let edges = out
            .lines()
            .filter(|l| !l.starts_with("type") && !l.starts_with("const") && !l.starts_with("var"));
        (changed, edges.collect::<Vec<_>>().join("\n"))
    }

    #[test]
    fn a_check_that_looks_only_at_a_neighbour_does_not_read_its_write() {
        let (changed, out) = run(
            "begin, s: ? p -> t;\ns, end: player = keeper;\n\
             p, q: pos != null;\nq, r: board[pos] = x;\nr, r2: pos = right[pos];\nr2, t: board[pos] == e;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        begin, s: ? p -> t;
        s, end: player = keeper;
        p, q: pos != null;
        q, r: ;
        r, r2: pos = right[pos];
        r2, t: board[pos] == e;
        ");
    }

    #[test]
    fn the_null_fixed_point_keeps_the_write_unless_excluded() {
        let (changed, _) = run("begin, s: ? q -> t;\ns, end: player = keeper;\n\
             q, r: board[pos] = x;\nr, r2: pos = right[pos];\nr2, t: board[pos] == e;\n");
        // `pos` may be null only if its initial value could be: it is `a`.
        assert!(changed);
        let (changed, _) = run(
            "begin, s: ? q -> t;\ns, end: player = keeper;\n\
             q, q2: pos = Cell(*);\nq2, r: board[pos] = x;\nr, r2: pos = right[pos];\nr2, t: board[pos] == e;\n",
        );
        assert!(
            !changed,
            "pos may be null: right[null] is null, the written entry"
        );
    }

    #[test]
    fn a_map_with_a_fixed_point_keeps_the_write() {
        let (changed, _) = run(
            "begin, s: ? p -> t;\ns, end: player = keeper;\n\
             p, q: pos != null;\nq, r: board[pos] = x;\nr, r2: pos = stay[pos];\nr2, t: board[pos] == e;\n",
        );
        assert!(!changed);
    }

    #[test]
    fn reading_back_after_two_steps_keeps_the_write() {
        // right[right[a]] is c, never a; but the loop may come back.
        let (changed, _) = run("begin, s: ? p -> t;\ns, end: player = keeper;\n\
             p, q: pos != null;\nq, r: board[pos] = x;\nr, r2: pos = right[pos];\n\
             r2, r: board[pos] == e;\nr2, r3: pos = Cell(*);\nr3, t: board[pos] == x;\n");
        assert!(!changed);
    }

    #[test]
    fn whole_map_reads_and_symbol_keys_keep_the_write() {
        for read in ["$$ board", "board[a] == e", "board == board"] {
            let edges = format!(
                "begin, s: ? p -> t;\ns, end: player = keeper;\n\
                 p, q: pos != null;\nq, r: board[pos] = x;\nr, r2: {read};\nr2, t: ;\n"
            );
            let (changed, _) = run(&edges);
            assert!(!changed, "{read}");
        }
    }

    #[test]
    fn an_overwrite_at_the_same_key_ends_the_search() {
        let (changed, out) = run(
            "begin, p: pos != null;\np, q: board[pos] = x;\nq, r: board[pos] = o;\n\
             r, s: board[pos] == o;\ns, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        begin, p: pos != null;
        p, q: ;
        q, r: board[pos] = o;
        r, s: board[pos] == o;
        s, end: player = keeper;
        ");
    }

    #[test]
    fn writes_in_the_main_automaton_are_read_by_later_turns() {
        let (changed, _) = run(
            "begin, p: pos = Cell(*);\np, p1: board[pos] == e;\np1, q: pos != null;\nq, r: board[pos] = x;\n\
             r, s: $$ pos;\ns, begin: player = keeper;\n",
        );
        assert!(!changed);
    }
}
