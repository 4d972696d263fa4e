//! Checks that ask whether the walk after them can go on.
//!
//! The RBG translation decides a keeper's turn with a node of two edges,
//! `? P -> a` and `! P -> b`, where the check `P` is a copy of the walk
//! from `a` up to where the move is sure to complete (hex: the stone and
//! the connection tests; reversi: the flips). A move search then walks
//! that part twice: once in the check, once for real. When the check's
//! automaton mirrors the walk from `a` edge for edge, and every node where
//! the check succeeds is sure to complete a move, `P` holds exactly when
//! the walk from `a` completes a move: the reasoner walks from `a` and
//! follows `b` only if no move was completed on the way.
//!
//! The pass of a player who cannot move is the same test the other way
//! round: a node whose last edge is `! P -> b`, where `P` copies the walk
//! along the node's other edges (reversi's `! p_162` after its moves):
//! the walk along them completes a move exactly when `P` holds, so `b` is
//! followed only if none was completed.
//!
//! The walk may also make assignments the check leaves out (reversi's
//! piece counters), to variables the check (nested checks included) never
//! mentions, when they cannot fault: a fixed slot assigned a symbol, a
//! variable, or a constant map's entry at a key the value analysis shows
//! always in the map. The fused walk makes them even where `P` fails, so
//! one that could fault would stop a search the engine goes on with; and
//! what they write cannot change the check's course.

use std::collections::{HashMap, HashSet};

use rg_core::engine::program::{Action, Op, Operand, Path, Program, Scalar, Space, Target};

/// A node whose check can be replaced by walking on: its `? P` edge and
/// its `! P` edge (indices into `Program::edges`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FusedCheck {
    /// The `? P` edge whose target the walk starts from; `None`: the walk
    /// is along the node's own edges before `negative`, its last.
    pub positive: Option<usize>,
    pub negative: usize,
    /// Whether every walk node paired with the check's end is sure to
    /// complete a move. Then a walk that completed none means `P` fails;
    /// otherwise `! P` is still tested then (reversi: the scores after the
    /// last move are compared three ways, which the analysis does not
    /// know to be exhaustive).
    pub sure: bool,
}

/// Most node pairs compared per candidate (keeps the analysis linear).
const MAX_PAIRS: usize = 4096;

/// Per node, the check its move search may replace by walking on.
/// `visits`: per node, whether a move search ever makes its visited check
/// (`gen::move_visits`: reversi's flipping rays have one on their cycle,
/// which no arrival ever needs). `possible(node, slot)`: the symbols a
/// scalar slot may hold at a node (`Invariants::possible`; `None`:
/// unknown).
pub fn fused_checks(
    p: &Program,
    visits: &[bool],
    possible: &dyn Fn(u32, u32) -> Option<Vec<u32>>,
) -> Vec<Option<FusedCheck>> {
    let keys: Vec<String> = p.edges.iter().map(|e| format!("{:?}", e.action)).collect();
    let completes = sure_to_complete(p, visits);
    (0..p.nodes.len() as u32)
        .map(|node| {
            // (Only where a move search goes: a check's node has no walk.)
            if !p.node_info[node as usize].can_finish_move {
                return None;
            }
            let fused = candidate(p, node).or_else(|| pass_candidate(p, node))?;
            let Action::Reach { from, to, .. } = p.edges[fused.negative].action else {
                return None;
            };
            let mentioned = check_variables(p, from, to)?;
            let walk = Walk {
                keys: &keys,
                completes: &completes,
                visits,
                mentioned: &mentioned,
                possible,
                moves: true,
            };
            let start = match fused.positive {
                Some(e) => Start::Edge(p.edges[e].target),
                None => Start::Before(node, fused.negative),
            };
            let sure = mirrors(p, &walk, (from, to), start)?;
            Some(FusedCheck { sure, ..fused })
        })
        .collect()
}

/// The checks `(from, to)` that always hold: their first node's last edge
/// is `! P -> to`, and `P` copies the walk along its other edges up to
/// `to` (reversi's "can black move or pass"), so the check is `P or not
/// P`. Only where no read in it can fault (`faultless`): a fault is the
/// one outcome skipping the check would change. (Skipping also takes
/// fewer steps towards the limit, as fused checks do.)
/// `possible_in_check(node, slot)`: the symbols a scalar slot may hold at
/// a check's node (`None`: unknown).
pub fn tautologies(
    p: &Program,
    possible_in_check: &dyn Fn(u32, u32) -> Option<Vec<u32>>,
) -> HashSet<(u32, u32)> {
    let keys: Vec<String> = p.edges.iter().map(|e| format!("{:?}", e.action)).collect();
    let none = vec![false; p.nodes.len()];
    super::check_regions(p)
        .into_iter()
        .filter(|&(from, to)| {
            let Some(pass) = pass_candidate(p, from) else {
                return false;
            };
            let negative = &p.edges[pass.negative];
            let Action::Reach {
                from: pf, to: pt, ..
            } = negative.action
            else {
                return false;
            };
            let mut completes = vec![false; p.nodes.len()];
            completes[to as usize] = true;
            let Some(mentioned) = check_variables(p, pf, pt) else {
                return false;
            };
            let walk = Walk {
                keys: &keys,
                completes: &completes,
                visits: &none,
                mentioned: &mentioned,
                possible: possible_in_check,
                moves: false,
            };
            negative.target == to
                && mirrors(p, &walk, (pf, pt), Start::Before(from, pass.negative)) == Some(true)
                && faultless(p, from, to, possible_in_check)
        })
        .collect()
}

/// Whether no read or write in the check from `from` to `to` (its nested
/// checks included) can fault: every map access is at a key its map
/// surely has, by the values the key may hold there
/// (`possible_in_check`) or ever (`ever_held`), and no check nests itself
/// (the engine stops endless nesting with a fault).
fn faultless(
    p: &Program,
    from: u32,
    to: u32,
    possible_in_check: &dyn Fn(u32, u32) -> Option<Vec<u32>>,
) -> bool {
    // Per region met: the regions its nodes check.
    let mut nested: HashMap<(u32, u32), Vec<(u32, u32)>> = HashMap::new();
    let mut regions = vec![(from, to)];
    while let Some(region) = regions.pop() {
        if nested.contains_key(&region) {
            continue;
        }
        let (start, end) = region;
        let mut inner = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![start];
        while let Some(node) = stack.pop() {
            if node == end || !seen.insert(node) {
                continue;
            }
            for edge in &p.edges[p.edges_of(node)] {
                let read = |x: &Scalar| scalar_faultless(p, node, x, possible_in_check);
                let safe = match &edge.action {
                    Action::Skip | Action::Tag(_) => true,
                    Action::Reach { from, to, .. } => {
                        inner.push((*from, *to));
                        regions.push((*from, *to));
                        true
                    }
                    Action::VarTag(x) | Action::AssignPlayer(x) => read(x),
                    Action::CompareScalars { lhs, rhs, .. }
                    | Action::Compare {
                        lhs: Operand::Scalar(lhs),
                        rhs: Operand::Scalar(rhs),
                        ..
                    } => read(lhs) && read(rhs),
                    Action::Assign {
                        target,
                        value: Operand::Scalar(value),
                    } => target.steps.is_empty() && read(value),
                    Action::AssignAny { target, .. } => target.steps.is_empty(),
                    Action::Compare { .. } | Action::Assign { .. } => false,
                };
                if !safe {
                    return false;
                }
                stack.push(edge.target);
            }
        }
        nested.insert(region, inner);
    }
    !nests_itself(&nested, (from, to))
}

/// Whether a cycle of regions checking each other is reachable from
/// `root` in `nested` (depth-first, with the regions on the path marked).
fn nests_itself(nested: &HashMap<(u32, u32), Vec<(u32, u32)>>, root: (u32, u32)) -> bool {
    let mut on_path = HashSet::new();
    let mut done = HashSet::new();
    // (region, index of its next nested region to visit)
    let mut path = vec![(root, 0)];
    on_path.insert(root);
    while let Some((region, k)) = path.last_mut() {
        let region = *region;
        match nested.get(&region).and_then(|inner| inner.get(*k)) {
            Some(&next) => {
                *k += 1;
                if on_path.contains(&next) {
                    return true;
                }
                if done.insert(next) {
                    on_path.insert(next);
                    path.push((next, 0));
                }
            }
            None => {
                on_path.remove(&region);
                done.insert(region);
                path.pop();
            }
        }
    }
    false
}

/// Whether reading `x` at `node` cannot fault: a symbol, a variable, or a
/// map's entry at a key variable whose every value is in the map.
fn scalar_faultless(
    p: &Program,
    node: u32,
    x: &Scalar,
    possible_in_check: &dyn Fn(u32, u32) -> Option<Vec<u32>>,
) -> bool {
    match x {
        Scalar::Symbol(_) | Scalar::Slot(_) => true,
        Scalar::Indexed(ix) => {
            let table = &p.key_tables[ix.table as usize];
            let in_map = |values: Option<Vec<u32>>| {
                values.is_some_and(|values| values.iter().all(|&v| table.slot(v).is_some()))
            };
            // (A check's entry may hold anything by the first.)
            in_map(possible_in_check(node, ix.key_slot)) || in_map(ever_held(p, ix.key_slot))
        }
        Scalar::Access(_) | Scalar::Code(_) => false,
    }
}

/// A node with exactly the two edges `? P -> a` and `! P -> b`.
fn candidate(p: &Program, node: u32) -> Option<FusedCheck> {
    let edges = p.edges_of(node);
    if edges.len() != 2 || node == p.end {
        return None;
    }
    let reach = |k: usize| match p.edges[k].action {
        Action::Reach { negated, from, to } => Some((negated, from, to)),
        _ => None,
    };
    let (first, second) = (reach(edges.start)?, reach(edges.start + 1)?);
    if first.1 != second.1 || first.2 != second.2 || first.0 == second.0 {
        return None;
    }
    let (positive, negative) = if first.0 {
        (edges.start + 1, edges.start)
    } else {
        (edges.start, edges.start + 1)
    };
    Some(FusedCheck {
        positive: Some(positive),
        negative,
        sure: true,
    })
}

/// A node whose last edge is `! P -> b` after other edges, none of them a
/// test of `P`.
fn pass_candidate(p: &Program, node: u32) -> Option<FusedCheck> {
    let edges = p.edges_of(node);
    if edges.len() < 2 || node == p.end {
        return None;
    }
    let negative = edges.end - 1;
    let Action::Reach {
        negated: true,
        from,
        to,
    } = p.edges[negative].action
    else {
        return None;
    };
    let tests_p = p.edges[edges.start..negative]
        .iter()
        .any(|e| matches!(e.action, Action::Reach { from: f, to: t, .. } if (f, t) == (from, to)));
    (!tests_p).then_some(FusedCheck {
        positive: None,
        negative,
        sure: true,
    })
}

/// Where the walk a check is compared with starts.
#[derive(Clone, Copy)]
enum Start {
    /// At a node, along all its edges.
    Edge(u32),
    /// At a node, along its edges before the given one (which the walk
    /// never comes back to).
    Before(u32, usize),
}

/// What `mirrors` compares a check with: the program's edges as keys,
/// the nodes sure to complete a move, the move visits made, and the
/// variables the check mentions.
struct Walk<'a> {
    keys: &'a [String],
    completes: &'a [bool],
    visits: &'a [bool],
    mentioned: &'a HashSet<usize>,
    possible: &'a dyn Fn(u32, u32) -> Option<Vec<u32>>,
    /// Whether the walk is a move search's, which the engine never takes
    /// into a node that cannot finish a move: a check evaluates its copy
    /// of such a node's edges, and a fault there would be lost.
    moves: bool,
}

/// Whether the check from `from` to `to` mirrors the move walk from `a`:
/// paired nodes have the same edges in the same order (no tags, no
/// `player` assignments, no visited sets on the walk's side, and a move
/// walk's nodes can finish a move: the walk evaluates all the check
/// does, so faults the same), but for
/// walk nodes whose one edge assigns a variable the check does not
/// mention (`mentioned`), which the walk passes alone. `None` if not;
/// else whether every walk node paired with `to` is sure to complete a
/// move.
fn mirrors(p: &Program, walk: &Walk, (from, to): (u32, u32), start: Start) -> Option<bool> {
    let Walk {
        keys,
        completes,
        visits,
        mentioned,
        possible,
        moves,
    } = walk;
    let mut seen = HashSet::new();
    let mut sure = true;
    let (a, root_edges) = match start {
        Start::Edge(a) => (a, p.edges_of(a)),
        Start::Before(a, last) => (a, p.edges_of(a).start..last),
    };
    let mut stack = vec![(from, a)];
    while let Some((x, y)) = stack.pop() {
        let root = (x, y) == (from, a) && seen.is_empty();
        if !seen.insert((x, y)) {
            continue;
        }
        if seen.len() > MAX_PAIRS {
            return None;
        }
        if x == to {
            sure &= completes[y as usize];
            continue;
        }
        let revisits_root = matches!(start, Start::Before(..)) && y == a && !root;
        let unwalked = *moves && !p.node_info[y as usize].can_finish_move;
        if visits[y as usize] || y == p.end || revisits_root || unwalked {
            return None;
        }
        let (xs, ys) = match root {
            true => (p.edges_of(x), root_edges.clone()),
            false => (p.edges_of(x), p.edges_of(y)),
        };
        let same = xs.len() == ys.len()
            && xs
                .clone()
                .zip(ys.clone())
                .all(|(ex, ey)| keys[ex] == keys[ey]);
        let silent = |e: usize| assigns_safely(p, y, &p.edges[e].action, mentioned, possible);
        if !same && ys.len() == 1 && silent(ys.start) {
            stack.push((x, p.edges[ys.start].target));
            continue;
        }
        if xs.len() != ys.len() || xs.is_empty() {
            return None;
        }
        for (ex, ey) in xs.zip(ys) {
            if matches!(
                p.edges[ex].action,
                Action::Tag(_) | Action::VarTag(_) | Action::AssignPlayer(_)
            ) || keys[ex] != keys[ey]
            {
                return None;
            }
            stack.push((p.edges[ex].target, p.edges[ey].target));
        }
    }
    Some(sure)
}

/// Whether `action`, at `node`, assigns a fixed slot of a variable outside
/// `mentioned` a value that cannot fault: a symbol, a variable's value, or
/// a constant map's entry at a key every value `possible` there is in the
/// map's key type (`player` is never assigned so).
fn assigns_safely(
    p: &Program,
    node: u32,
    action: &Action,
    mentioned: &HashSet<usize>,
    possible: &dyn Fn(u32, u32) -> Option<Vec<u32>>,
) -> bool {
    let Action::Assign {
        target,
        value: Operand::Scalar(value),
    } = action
    else {
        return false;
    };
    let unmentioned = variable_of(p, target.base).is_some_and(|v| !mentioned.contains(&v));
    let faultless = match value {
        Scalar::Symbol(_) | Scalar::Slot(_) => true,
        Scalar::Indexed(ix) => {
            let values = possible(node, ix.key_slot).or_else(|| ever_held(p, ix.key_slot));
            ix.space == Space::Pool
                && values.is_some_and(|values| {
                    values
                        .iter()
                        .all(|&v| p.key_tables[ix.table as usize].slot(v).is_some())
                })
        }
        _ => false,
    };
    target.steps.is_empty() && unmentioned && faultless
}

/// Every symbol `slot` can ever hold, when each assignment that may write
/// it writes a symbol or a constant map's entry (reversi's counters: the
/// entries of `increment` and `decrement`); `None` otherwise. Every write
/// that may reach the slot counts: `player` assignments of the player's
/// slot, and writes of a whole map covering it (which give `None`).
fn ever_held(p: &Program, slot: u32) -> Option<Vec<u32>> {
    let variable = variable_of(p, slot)?;
    let mut values = vec![*p.initial.get(slot as usize)?];
    for edge in &p.edges {
        let (target, written) = match &edge.action {
            Action::Assign { target, value } => (target, Some(value)),
            Action::AssignAny { target, .. } => (target, None),
            Action::AssignPlayer(x) if slot == p.player_slot => match x {
                Scalar::Symbol(x) => {
                    values.push(*x);
                    continue;
                }
                _ => return None,
            },
            _ => continue,
        };
        if variable_of(p, target.base) != Some(variable) {
            continue;
        }
        if !target.steps.is_empty() {
            return None;
        }
        let size = target.layout.size();
        if !(target.base..target.base + size).contains(&slot) {
            continue;
        }
        if size != 1 {
            return None;
        }
        match (&edge.action, written) {
            (Action::AssignAny { symbols, .. }, _) => values.extend_from_slice(symbols),
            (_, Some(Operand::Scalar(Scalar::Symbol(x)))) => values.push(*x),
            (_, Some(Operand::Scalar(Scalar::Indexed(ix)))) if ix.space == Space::Pool => {
                for k in 0..ix.count {
                    values.push(*p.pool.get((ix.base + k * ix.stride) as usize)?);
                }
            }
            _ => return None,
        }
    }
    values.sort_unstable();
    values.dedup();
    Some(values)
}

/// The variables the check from `from` to `to` (its nested checks
/// included) reads or writes; `None` when some access cannot be placed
/// in a variable.
fn check_variables(p: &Program, from: u32, to: u32) -> Option<HashSet<usize>> {
    let mut mentioned = HashSet::new();
    // Per region: a node a nested check reaches past the outer check's end
    // is still read.
    let mut seen = HashSet::new();
    let mut stack = vec![(from, to)];
    while let Some((node, to)) = stack.pop() {
        if node == to || !seen.insert((node, to)) {
            continue;
        }
        for edge in &p.edges[p.edges_of(node)] {
            match &edge.action {
                Action::Reach { from, to, .. } => stack.push((*from, *to)),
                action => action_variables(p, action, &mut mentioned)?,
            }
            stack.push((edge.target, to));
        }
    }
    Some(mentioned)
}

/// Adds the variables `action` reads or writes (not a check's).
fn action_variables(p: &Program, action: &Action, out: &mut HashSet<usize>) -> Option<()> {
    match action {
        Action::Skip | Action::Tag(_) | Action::Reach { .. } => Some(()),
        Action::VarTag(x) => scalar_variables(p, x, out),
        Action::AssignPlayer(x) => {
            out.insert(variable_of(p, p.player_slot)?);
            scalar_variables(p, x, out)
        }
        Action::CompareScalars { lhs, rhs, .. } => {
            scalar_variables(p, lhs, out)?;
            scalar_variables(p, rhs, out)
        }
        Action::Compare { lhs, rhs, .. } => {
            operand_variables(p, lhs, out)?;
            operand_variables(p, rhs, out)
        }
        Action::Assign { target, value } => {
            target_variables(p, target, out)?;
            operand_variables(p, value, out)
        }
        Action::AssignAny { target, .. } => target_variables(p, target, out),
    }
}

fn target_variables(p: &Program, target: &Target, out: &mut HashSet<usize>) -> Option<()> {
    out.insert(variable_of(p, target.base)?);
    for step in &target.steps {
        scalar_variables(p, &step.key, out)?;
    }
    Some(())
}

fn operand_variables(p: &Program, operand: &Operand, out: &mut HashSet<usize>) -> Option<()> {
    match operand {
        Operand::Scalar(x) => scalar_variables(p, x, out),
        Operand::Region(region) => path_variables(p, &region.path, out),
    }
}

fn scalar_variables(p: &Program, x: &Scalar, out: &mut HashSet<usize>) -> Option<()> {
    match x {
        Scalar::Symbol(_) => Some(()),
        Scalar::Slot(slot) => {
            out.insert(variable_of(p, *slot)?);
            Some(())
        }
        Scalar::Indexed(ix) => {
            out.insert(variable_of(p, ix.key_slot)?);
            if ix.space == Space::State {
                out.insert(variable_of(p, ix.base)?);
            }
            Some(())
        }
        Scalar::Code(code) => {
            for op in &code.ops {
                match op {
                    Op::Slot(slot) => {
                        out.insert(variable_of(p, *slot)?);
                    }
                    Op::Load {
                        space: Space::State,
                        base,
                        ..
                    } => {
                        out.insert(variable_of(p, *base)?);
                    }
                    _ => {}
                }
            }
            Some(())
        }
        Scalar::Access(path) => path_variables(p, path, out),
    }
}

fn path_variables(p: &Program, path: &Path, out: &mut HashSet<usize>) -> Option<()> {
    if path.space == Space::State {
        out.insert(variable_of(p, path.base)?);
    }
    for step in &path.steps {
        scalar_variables(p, &step.key, out)?;
    }
    Some(())
}

/// The variable whose slots include `slot`: the one with the last base
/// at or below it (each variable's slots run up to the next one's base).
fn variable_of(p: &Program, slot: u32) -> Option<usize> {
    if slot as usize >= p.initial.len() {
        return None;
    }
    (0..p.variables.len())
        .filter(|&k| p.variables[k].1 <= slot)
        .max_by_key(|&k| p.variables[k].1)
}

/// Nodes from which every move walk surely reaches a `player` assignment
/// (or stops the search on a fault): an unconditional edge (a tag, an
/// assignment) leads to one
/// or to such a node, or a check and its negation both lead to such
/// nodes. No node on the way keeps a visited set, so no arrival is cut.
fn sure_to_complete(p: &Program, visits: &[bool]) -> Vec<bool> {
    let n = p.nodes.len();
    let mut sure = vec![false; n];
    loop {
        let mut changed = false;
        for node in 0..n as u32 {
            let k = node as usize;
            if sure[k] || node == p.end || visits[k] {
                continue;
            }
            let edges = &p.edges[p.edges_of(node)];
            let unconditional = edges.iter().any(|e| match &e.action {
                Action::AssignPlayer(_) => true,
                Action::Skip | Action::Assign { .. } | Action::Tag(_) | Action::VarTag(_) => {
                    sure[e.target as usize]
                }
                _ => false,
            });
            let both_ways = edges.iter().any(|e| match e.action {
                Action::Reach {
                    negated: false,
                    from,
                    to,
                } => {
                    sure[e.target as usize]
                        && edges.iter().any(|f| {
                            matches!(f.action, Action::Reach { negated: true, from: g, to: t }
                                if g == from && t == to)
                                && sure[f.target as usize]
                        })
                }
                _ => false,
            });
            if unconditional || both_ways {
                sure[k] = true;
                changed = true;
            }
        }
        if !changed {
            return sure;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::{node, program, HEADER};

    /// A keeper's turn as the RBG translation writes it: `? can` copies
    /// the walk from `k1` up to `k3`, where the move completes either way.
    const KEEPER_TURN: &str = "
        var board: SquareOrNull -> Piece = { :e, null: null };
        var sq: SquareOrNull = a;
        begin, n1: sq = Square(*);
        n1, n2: board[sq] == e;
        n2, k0: player = keeper;
        k0, k1: ? c0 -> c3;
        k0, k5: ! c0 -> c3;
        k1, k2: board[sq] = x;
        k2, k3: sq = right[sq];
        k3, k4: ? r0 -> r1;
        k3, k5: ! r0 -> r1;
        k4, begin: player = one;
        k5, end: player = keeper;
        c0, c1: board[sq] = x;
        c1, c3: sq = right[sq];
        r0, r1: board[sq] == e;
    ";

    /// `fused_checks` with the value analysis's possible values.
    fn fused_with(p: &Program, visits: &[bool]) -> Vec<Option<FusedCheck>> {
        let invariants = crate::invariants::invariants(p);
        fused_checks(p, visits, &|node, slot| invariants.possible(node, slot))
    }

    /// The engine's move-search visited checks (all kept).
    fn engine_visits(p: &Program) -> Vec<bool> {
        p.node_info.iter().map(|i| i.visit_in_move).collect()
    }

    #[test]
    fn a_check_copying_the_walk_after_it_is_fused() {
        let p = program(&format!("{HEADER}{KEEPER_TURN}"));
        let fused = fused_with(&p, &engine_visits(&p));
        let k0 = node(&p, "k0");
        let f = fused[k0].expect("k0's check is fused");
        assert!(matches!(
            p.edges[f.positive.expect("a `? P` edge")].action,
            Action::Reach { negated: false, .. }
        ));
        assert!(matches!(
            p.edges[f.negative].action,
            Action::Reach { negated: true, .. }
        ));
        assert_eq!(fused.iter().flatten().count(), 1);
    }

    #[test]
    fn a_check_that_differs_from_the_walk_is_kept() {
        // The copy steps left where the walk steps right.
        let source = KEEPER_TURN.replace("c1, c3: sq = right[sq];", "c1, c3: sq = left[sq];");
        let p = program(&format!("{HEADER}{source}"));
        assert!(fused_with(&p, &engine_visits(&p))
            .iter()
            .all(Option::is_none));
    }

    #[test]
    fn a_walk_that_may_stop_before_completing_is_fused_unsure() {
        // At k3 the walk goes on only when the square is empty: the check
        // can succeed where no move completes, so `! P` is still tested
        // when the walk completed none.
        let p = program(&format!("{HEADER}{KEEPER_TURN}"));
        assert!(fused_with(&p, &engine_visits(&p))[node(&p, "k0")].is_some_and(|f| f.sure));
        let source = KEEPER_TURN.replace("k3, k5: ! r0 -> r1;", "");
        let p = program(&format!("{HEADER}{source}"));
        let fused = fused_with(&p, &engine_visits(&p));
        assert!(fused[node(&p, "k0")].is_some_and(|f| !f.sure), "{fused:?}");
    }

    /// The walk of `KEEPER_TURN` with a count of placed stones the check
    /// leaves out (as reversi's piece counters).
    fn counting_turn(check_reads_count: bool) -> String {
        let mut turn = KEEPER_TURN
            .replace("k1, k2: board[sq] = x;", "k1, k1a: board[sq] = x;\n        k1a, k2: count = next[count];")
            .replace("var sq:", "var count: Square = a;\n        const next: Square -> Square = { :a, a: b, b: c };\n        var sq:");
        if check_reads_count {
            // Both test the count after the step: skipping the walk's
            // assignment would pair them, but the check reads the count
            // before the walk assigns it.
            turn = turn
                .replace(
                    "c1, c3: sq = right[sq];",
                    "c1, c2: sq = right[sq];\n        c2, c3: count != c;",
                )
                .replace(
                    "k2, k3: sq = right[sq];",
                    "k2, k2b: sq = right[sq];\n        k2b, k3: count != c;",
                );
        }
        format!("{HEADER}{turn}")
    }

    #[test]
    fn a_walk_may_assign_what_the_check_does_not_mention() {
        let p = program(&counting_turn(false));
        let fused = fused_with(&p, &engine_visits(&p));
        assert!(fused[node(&p, "k0")].is_some(), "{fused:?}");
    }

    #[test]
    fn a_walk_assigning_what_the_check_reads_is_not_fused() {
        let p = program(&counting_turn(true));
        let fused = fused_with(&p, &engine_visits(&p));
        assert!(fused.iter().all(Option::is_none), "{fused:?}");
    }

    #[test]
    fn a_walk_assigning_what_a_nested_check_reads_is_not_fused() {
        // No visits (as in a keeper walk run in place): only the assigned
        // count keeps the check from being fused.
        let source = include_str!("../../tests/games/nested_check_reads.rg");
        let p = program(source);
        let none = vec![false; p.nodes.len()];
        assert!(fused_with(&p, &none)[node(&p, "k0")].is_none());
    }

    #[test]
    fn a_walk_write_that_may_fault_is_not_silent() {
        let source = include_str!("../../tests/games/faulting_write.rg");
        let p = program(source);
        let none = vec![false; p.nodes.len()];
        assert!(fused_with(&p, &none)[node(&p, "k0")].is_none());
        // A fixed slot assigned a constant map's entry at a key always in
        // the map is silent (the counting turn above).
        let p = program(&counting_turn(false));
        assert!(fused_with(&p, &engine_visits(&p))[node(&p, "k0")].is_some());
    }

    /// A player's turn with a pass, and a keeper's check that it can
    /// place or pass.
    const PASS_TURN: &str = include_str!("../../tests/games/pass_turn.rg");

    #[test]
    fn a_pass_copying_the_moves_before_it_is_fused() {
        let p = program(PASS_TURN);
        let fused = fused_with(&p, &engine_visits(&p));
        let f = fused[node(&p, "p0")].expect("p0's pass is fused");
        assert_eq!(f.positive, None);
        assert!(f.sure, "the tag and the player assignment always complete");
        assert!(matches!(
            p.edges[f.negative].action,
            Action::Reach { negated: true, .. }
        ));
        assert_eq!(fused.iter().flatten().count(), 1);
        // The copy tests another square's content: not the same walk.
        let source = PASS_TURN.replace("c1, c2: board[sq] == e;", "c1, c2: board[sq] == x;");
        let p = program(&source);
        assert!(fused_with(&p, &engine_visits(&p))
            .iter()
            .all(Option::is_none));
    }

    #[test]
    fn a_pass_is_fused_only_after_the_moves() {
        // The pass tried first: the walk cannot know yet whether it holds.
        let source = PASS_TURN.replace("p0, n4: ! c0 -> c2;\n", "").replace(
            "begin, p0: player = one;",
            "begin, p0: player = one;\n        p0, n4: ! c0 -> c2;",
        );
        let p = program(&source);
        assert!(fused_with(&p, &engine_visits(&p))[node(&p, "p0")].is_none());
    }

    fn tautologies_of(p: &Program) -> HashSet<(u32, u32)> {
        let invariants = crate::invariants::invariants(p);
        tautologies(p, &|node, slot| invariants.possible_in_check(node, slot))
    }

    #[test]
    fn a_check_of_p_or_not_p_always_holds() {
        let p = program(PASS_TURN);
        let t0 = node(&p, "t0") as u32;
        let t2 = node(&p, "t2") as u32;
        assert_eq!(tautologies_of(&p), HashSet::from([(t0, t2)]));
        // "Place, or pass when no square is taken": not the same walk.
        let source = PASS_TURN.replace("t1, t2: board[sq] == e;", "t1, t2: board[sq] == x;");
        let p = program(&source);
        assert!(tautologies_of(&p).is_empty());
    }

    #[test]
    fn a_check_that_may_fault_is_evaluated() {
        // `marks` has no entry for c: reading it there faults (unless
        // lenient), which skipping the check would hide.
        let source = PASS_TURN
            .replace("var sq:", "var marks: Inner -> Piece = { :e };\nvar sq:")
            .replace("c1, c2: board[sq] == e;", "c1, c2: marks[sq] == e;")
            .replace("t1, t2: board[sq] == e;", "t1, t2: marks[sq] == e;");
        let p = program(&format!("type Inner = {{ b, c }};\n{source}"));
        assert!(tautologies_of(&p).is_empty());
        // The same with a key type covering every square.
        let p = program(&format!("type Inner = {{ a, b, c }};\n{source}"));
        assert_eq!(tautologies_of(&p).len(), 1);
    }

    #[test]
    fn a_check_reading_what_may_fault_by_other_writes_is_evaluated() {
        // The key's slot is also written by `player` assignments (the
        // keeper is no key of the map), or by a write of its whole map.
        for source in [
            include_str!("../../tests/games/lost_fault_player.rg"),
            include_str!("../../tests/games/lost_fault_map_write.rg"),
        ] {
            let p = program(source);
            assert!(tautologies_of(&p).is_empty(), "{source}");
        }
    }

    #[test]
    fn a_check_nesting_itself_is_evaluated() {
        let p = program(include_str!("../../tests/games/lost_fault_nesting.rg"));
        assert!(tautologies_of(&p).is_empty());
    }

    #[test]
    fn a_pass_copying_a_branch_no_move_search_enters_is_not_fused() {
        let source = include_str!("../../tests/games/lost_fault_unwalked.rg");
        let p = program(source);
        assert!(fused_with(&p, &engine_visits(&p))
            .iter()
            .all(Option::is_none));
        // Without that branch (on both sides) the pass fuses.
        let source = source
            .replace("n1, z1: board[sq] == x;\n", "")
            .replace("c1, d1: board[sq] == x;\n", "");
        let p = program(&source);
        assert!(fused_with(&p, &engine_visits(&p))[node(&p, "p0")].is_some());
    }

    #[test]
    fn a_visit_made_on_the_walk_prevents_fusing() {
        let p = program(&format!("{HEADER}{KEEPER_TURN}"));
        let k2 = node(&p, "k2");
        let mut visits = vec![false; p.nodes.len()];
        assert!(fused_with(&p, &visits)[node(&p, "k0")].is_some());
        visits[k2] = true;
        assert!(fused_with(&p, &visits).iter().all(Option::is_none));
    }
}
