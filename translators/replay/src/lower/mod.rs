//! The lowering of an [`Instance`] to RG (replay.md §7): rounds unrolled,
//! each a chain of keeper edges around the free seats' one-tag moves and
//! `random`'s noise draws, a payoff trie that adds tabulated increments to
//! the goals, the fixed seats' Moore machines as constant maps, and a
//! public reveal of the reported profile.

mod tables;

use std::collections::{BTreeSet, HashMap};

use rg_core::ast::{self as rg, At, MapEntry, PragmaKind, Type, Value};
use rg_core::build::{label, GameBuilder};
use rg_core::diag::Diagnostic;

use crate::instance::{Instance, Machine, Seat};
use tables::{draw_counts, tables, MAX_SCORE_TABLE};

pub use tables::Tables;

/// The most edges a translation may have (estimated before building).
pub const MAX_EDGES: u128 = 10_000_000;

/// A checked RG game and the warnings of the translation.
pub struct Translation {
    pub game: rg::Game,
    pub warnings: Vec<Diagnostic>,
}

/// One noise draw of a round: node prefix, distorted value, target
/// variable and copy counts.
struct Draw {
    node: String,
    truth: String,
    target: String,
    ok: i128,
    err: i128,
}

/// Translates an instance; errors are limits (§6.5, §7.5) or, never
/// expected, a checker complaint about the output.
pub fn lower(inst: &Instance) -> Result<Translation, Vec<Diagnostic>> {
    let mut warnings = Vec::new();
    let t = tables(inst, &mut warnings).map_err(|d| vec![d])?;
    let n = inst.players;
    let m = inst.moves;
    let fixed: Vec<Option<&Machine>> = inst
        .seats
        .iter()
        .map(|s| match s {
            Seat::Fixed(machine) => Some(machine),
            Seat::Free => None,
        })
        .collect();
    let noisy_out = |k: usize| fixed[k].is_some_and(|f| f.eps_out.num() != 0 && m >= 2);
    let noisy_in = |j: usize| fixed[j].is_some_and(|f| f.eps_in.num() != 0 && m >= 2);
    // What seat k made public: its report if it has output noise.
    let public = |k: usize| {
        if noisy_out(k) {
            format!("b{k}")
        } else {
            format!("a{k}")
        }
    };

    // The draws of one round, in schedule order (§6.1), with limits.
    let mut errors = Vec::new();
    let mut draws_of_round: Vec<(String, String, String, i128, i128)> = Vec::new();
    let mut check_limit = |what: String, eps: crate::ratio::Ratio, f: &Machine| -> (i128, i128) {
        let (ok, err) = draw_counts(eps, m);
        let moves = ok + (m as i128 - 1) * err;
        if moves > inst.max_random_moves as i128 {
            errors.push(Diagnostic::error(
                format!(
                    "{what} {} of {} needs {moves} random moves (limit {}); use --noise-denominator",
                    eps.decimal(), f.name, inst.max_random_moves
                ),
                f.span,
            ));
        }
        (ok, err)
    };
    for k in (0..n).filter(|&k| noisy_out(k)) {
        let f = fixed[k].expect("fixed");
        let (ok, err) = check_limit("output noise".into(), f.eps_out, f);
        draws_of_round.push((format!("out{k}"), format!("a{k}"), format!("b{k}"), ok, err));
    }
    for j in (0..n).filter(|&j| noisy_in(j)) {
        let f = fixed[j].expect("fixed");
        let (ok, err) = check_limit("input noise".into(), f.eps_in, f);
        for k in (0..n).filter(|&k| k != j) {
            draws_of_round.push((
                format!("in{j}_{k}"),
                public(k),
                format!("o{j}_{k}"),
                ok,
                err,
            ));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // The output's size, before building it: per round a trie edge per
    // profile prefix and goal edge, m² edges per draw, a few per seat.
    let m128 = m as u128;
    let per_round = (inst.profiles() as u128) * (n as u128 + 2)
        + (draws_of_round.len() as u128) * (m128 * m128 + m128 + 8)
        + 8 * n as u128
        + 4;
    let edges = per_round.saturating_mul(inst.rounds as u128);
    if edges > MAX_EDGES {
        return Err(vec![Diagnostic::error(
            format!("the RG output would have about {edges} edges (limit {MAX_EDGES}); use fewer rounds, moves or noisy seats"),
            inst.span,
        )]);
    }
    let h = t.h;
    let mut increments = BTreeSet::new();
    for round in &t.d {
        for row in round {
            increments.extend(row.iter().copied().filter(|&d| d > 0));
        }
    }
    if (h + 1) * increments.len() as i128 > MAX_SCORE_TABLE {
        return Err(vec![Diagnostic::error(
            format!(
                "the goal tables need {} entries (limit {MAX_SCORE_TABLE}); use fewer rounds or --scale",
                (h + 1) * increments.len() as i128
            ),
            inst.span,
        )]);
    }
    let mut counts = BTreeSet::new();
    for &(_, _, _, ok, err) in &draws_of_round {
        counts.extend([ok, err].into_iter().filter(|&c| c > 0));
    }

    let mut b = GameBuilder::new();
    b.set_origin(Some(inst.span));
    let note: Vec<String> = (0..n)
        .map(|k| format!("p{k} scale {} offset {}", t.scale[k], t.offset[k]))
        .collect();
    b.pragma(PragmaKind::Unknown(format!(
        "replayGoals {}",
        note.join(" ")
    )));

    // Types.
    b.define_type("Player", Type::set((0..n).map(|k| format!("p{k}"))));
    b.define_type("Score", Type::set((0..=h).map(|x| x.to_string())));
    b.define_type("Move", Type::set((0..m).map(|x| x.to_string())));
    let mut reachable: HashMap<usize, Vec<usize>> = HashMap::new();
    for (k, f) in fixed.iter().enumerate() {
        let Some(f) = f else { continue };
        let states = reachable_states(f);
        b.define_type(
            &format!("Q{k}"),
            Type::set(states.iter().map(|q| format!("q{q}"))),
        );
        reachable.insert(k, states);
    }
    for c in &counts {
        b.define_type(&format!("N{c}"), Type::set((0..*c).map(|i| i.to_string())));
    }

    // Constants.
    let sym = |s: &str| Value::symbol(s);
    b.named_constant(
        "hidden",
        Type::name("Visibility"),
        compressed(&[("p".into(), sym("0"))], true),
    );
    b.named_constant(
        "shown",
        Type::name("Visibility"),
        compressed(&[("p".into(), sym("1"))], true),
    );
    let score = Type::name("Score");
    for d in &increments {
        let entries: Vec<_> = (0..=h)
            .map(|x| (x.to_string(), sym(&(x + d).min(h).to_string())))
            .collect();
        b.named_constant(
            &format!("plus{d}"),
            Type::arrow(score.clone(), score.clone()),
            compressed(&entries, false),
        );
    }
    for (k, f) in fixed.iter().enumerate() {
        let Some(f) = f else { continue };
        let states = &reachable[&k];
        let q = Type::name(format!("Q{k}"));
        let out: Vec<_> = states
            .iter()
            .map(|&s| (format!("q{s}"), sym(&f.outputs[s].to_string())))
            .collect();
        b.named_constant(
            &format!("out{k}"),
            Type::arrow(q.clone(), Type::name("Move")),
            compressed(&out, false),
        );
        let mut next_ty = q.clone();
        for _ in 0..n {
            next_ty = Type::arrow(Type::name("Move"), next_ty);
        }
        let next: Vec<_> = states
            .iter()
            .map(|&s| (format!("q{s}"), transition_map(f, s, m, n, &mut Vec::new())))
            .collect();
        b.named_constant(
            &format!("next{k}"),
            Type::arrow(q, next_ty),
            compressed(&next, false),
        );
    }

    // Variables.
    let zero = || Value::symbol("0");
    for k in 0..n {
        b.variable(&format!("a{k}"), Type::name("Move"), zero());
    }
    for k in (0..n).filter(|&k| noisy_out(k)) {
        b.variable(&format!("b{k}"), Type::name("Move"), zero());
    }
    for j in (0..n).filter(|&j| noisy_in(j)) {
        for k in (0..n).filter(|&k| k != j) {
            b.variable(&format!("o{j}_{k}"), Type::name("Move"), zero());
        }
    }
    for k in (0..n).filter(|&k| fixed[k].is_some()) {
        b.variable(&format!("state{k}"), Type::name(format!("Q{k}")), sym("q0"));
    }
    if let Some(max) = counts.last() {
        b.variable("copy", Type::name(format!("N{max}")), zero());
    }
    b.variable(
        "goals",
        Type::name("Goals"),
        compressed(&[("p".into(), zero())], true),
    );

    // Edges.
    let name = |s: &str| rg::Expr::name(s);
    b.skip("begin", "r0");
    for r in 0..inst.rounds {
        let mut cur = format!("r{r}");
        let step = |b: &mut GameBuilder, cur: &mut String, to: String, l: rg::Label| {
            b.edge(cur, &to, l);
            *cur = to;
        };
        step(
            &mut b,
            &mut cur,
            format!("r{r}_h"),
            label::assign(name("visible"), name("hidden")),
        );
        for k in (0..n).filter(|&k| fixed[k].is_some()) {
            let out = name(&format!("out{k}")).at_key(name(&format!("state{k}")));
            step(
                &mut b,
                &mut cur,
                format!("r{r}_f{k}"),
                label::assign(name(&format!("a{k}")), out),
            );
        }
        for k in (0..n).filter(|&k| fixed[k].is_none()) {
            let a = format!("a{k}");
            step(
                &mut b,
                &mut cur,
                format!("r{r}_t{k}"),
                label::switch(&format!("p{k}")),
            );
            step(
                &mut b,
                &mut cur,
                format!("r{r}_c{k}"),
                label::assign_any(name(&a), Type::name("Move")),
            );
            step(&mut b, &mut cur, format!("r{r}_m{k}"), label::var_tag(&a));
            step(
                &mut b,
                &mut cur,
                format!("r{r}_d{k}"),
                label::switch("keeper"),
            );
        }
        let paid = format!("r{r}_paid");
        payoff_trie(
            &mut b,
            &cur,
            &format!("r{r}_pay"),
            &mut Vec::new(),
            &t.d[r],
            m,
            n,
            &paid,
        );
        cur = paid;
        for (node, truth, target, ok, err) in &draws_of_round {
            let draw = Draw {
                node: format!("r{r}_{node}"),
                truth: truth.clone(),
                target: target.clone(),
                ok: *ok,
                err: *err,
            };
            cur = noise_draw(&mut b, &cur, &draw, m);
        }
        for j in (0..n).filter(|&j| fixed[j].is_some()) {
            let mut next = name(&format!("next{j}")).at_key(name(&format!("state{j}")));
            for k in 0..n {
                let x = if k == j {
                    format!("a{j}")
                } else if noisy_in(j) {
                    format!("o{j}_{k}")
                } else {
                    public(k)
                };
                next = next.at_key(name(&x));
            }
            step(
                &mut b,
                &mut cur,
                format!("r{r}_u{j}"),
                label::assign(name(&format!("state{j}")), next),
            );
        }
        step(
            &mut b,
            &mut cur,
            format!("r{r}_v"),
            label::assign(name("visible"), name("shown")),
        );
        for k in 0..n {
            let to = if k + 1 == n && r + 1 < inst.rounds {
                format!("r{}", r + 1)
            } else {
                format!("r{r}_v{k}")
            };
            step(&mut b, &mut cur, to, label::var_tag(&public(k)));
        }
        if r + 1 == inst.rounds {
            b.edge(&cur, "end", label::switch("keeper"));
        }
    }

    let game = b.finish();
    let problems = rg_core::check::check_game(&game);
    if !rg_core::check::is_clean(&problems) {
        return Err(problems
            .into_iter()
            .map(|mut d| {
                d.message = format!(
                    "internal error, the RG output fails its check: {}",
                    d.message
                );
                d
            })
            .collect());
    }
    Ok(Translation { game, warnings })
}

/// States reachable from state 0 over every tuple, ascending.
fn reachable_states(f: &Machine) -> Vec<usize> {
    let mut seen = vec![false; f.outputs.len()];
    seen[0] = true;
    let mut stack = vec![0];
    while let Some(q) = stack.pop() {
        for &next in &f.next[q] {
            if !seen[next] {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    (0..seen.len()).filter(|&q| seen[q]).collect()
}

/// `next[q][x0]…[x{n−1}]` below the given prefix, as nested maps.
fn transition_map(f: &Machine, q: usize, m: usize, n: usize, prefix: &mut Vec<usize>) -> Value {
    if prefix.len() == n {
        let index = prefix.iter().fold(0, |acc, &x| acc * m + x);
        return Value::symbol(format!("q{}", f.next[q][index]));
    }
    let mut entries: Vec<(String, Value)> = Vec::with_capacity(m);
    for v in 0..m {
        prefix.push(v);
        entries.push((v.to_string(), transition_map(f, q, m, n, prefix)));
        prefix.pop();
    }
    compressed(&entries, false)
}

/// A map literal in the unique compressed form of §7.1: the default is
/// the most frequent value (ties: the first key's), then only the keys
/// with other values, in type order, printed before the default.
/// `default_only` keeps just the default (a constant map).
fn compressed(entries: &[(String, Value)], default_only: bool) -> Value {
    let mut tally: Vec<(&Value, usize)> = Vec::new();
    for (_, v) in entries {
        match tally.iter_mut().find(|(x, _)| *x == v) {
            Some((_, c)) => *c += 1,
            None => tally.push((v, 1)),
        }
    }
    // max_by_key returns the last maximum; scan for the first instead.
    let mut best = 0;
    for (i, (_, c)) in tally.iter().enumerate() {
        if *c > tally[best].1 {
            best = i;
        }
    }
    let default = tally[best].0.clone();
    let mut out: Vec<MapEntry> = Vec::new();
    if !default_only {
        for (k, v) in entries {
            if *v != default {
                out.push(MapEntry {
                    key: Some(k.clone()),
                    value: v.clone(),
                });
            }
        }
    }
    out.push(MapEntry {
        key: None,
        value: default,
    });
    Value::Map(out, At::NOWHERE)
}

/// The payoff trie of one round: a test edge per seat and value, depth
/// first; at each leaf the goal increments of that profile.
#[allow(clippy::too_many_arguments)]
fn payoff_trie(
    b: &mut GameBuilder,
    from: &str,
    prefix_name: &str,
    prefix: &mut Vec<usize>,
    d: &[Vec<i128>],
    m: usize,
    n: usize,
    paid: &str,
) {
    let i = prefix.len();
    for v in 0..m {
        let node = format!("{prefix_name}_{v}");
        b.edge(
            from,
            &node,
            label::eq(
                rg::Expr::name(format!("a{i}")),
                rg::Expr::name(v.to_string()),
            ),
        );
        prefix.push(v);
        if i + 1 == n {
            let profile = prefix.iter().fold(0, |acc, &x| acc * m + x);
            let gains: Vec<(usize, i128)> = (0..n)
                .map(|k| (k, d[profile][k]))
                .filter(|&(_, x)| x > 0)
                .collect();
            if gains.is_empty() {
                b.skip(&node, paid);
            }
            let mut cur = node.clone();
            for (idx, &(k, x)) in gains.iter().enumerate() {
                let to = if idx + 1 == gains.len() {
                    paid.to_string()
                } else {
                    format!("{node}_g{k}")
                };
                let goal = rg::Expr::name("goals").at_key(rg::Expr::name(format!("p{k}")));
                let plus = rg::Expr::name(format!("plus{x}")).at_key(goal.clone());
                b.edge(&cur, &to, label::assign(goal, plus));
                cur = to;
            }
        } else {
            payoff_trie(b, &node, &node, prefix, d, m, n, paid);
        }
        prefix.pop();
    }
}

/// A noise draw as one `random` move (§7.5); returns the node after it.
fn noise_draw(b: &mut GameBuilder, from: &str, draw: &Draw, m: usize) -> String {
    let d = &draw.node;
    let x = rg::Expr::name(draw.target.as_str());
    b.edge(from, d, label::switch("random"));
    for v in 0..m {
        let dv = format!("{d}_v{v}");
        b.edge(
            d,
            &dv,
            label::eq(
                rg::Expr::name(draw.truth.as_str()),
                rg::Expr::name(v.to_string()),
            ),
        );
        for w in 0..m {
            let (to, count) = if w == v {
                (format!("{d}_ok"), draw.ok)
            } else {
                (format!("{d}_err"), draw.err)
            };
            if count > 0 {
                b.edge(
                    &dv,
                    &to,
                    label::assign(x.clone(), rg::Expr::name(w.to_string())),
                );
            }
        }
    }
    let copy = rg::Expr::name("copy");
    for (kind, count) in [("ok", draw.ok), ("err", draw.err)] {
        if count > 0 {
            b.edge(
                &format!("{d}_{kind}"),
                &format!("{d}_{kind}t"),
                label::var_tag(&draw.target),
            );
            b.edge(
                &format!("{d}_{kind}t"),
                &format!("{d}_c"),
                label::assign_any(copy.clone(), Type::name(format!("N{count}"))),
            );
        }
    }
    b.edge(
        &format!("{d}_c"),
        &format!("{d}_ct"),
        label::var_tag("copy"),
    );
    b.edge(
        &format!("{d}_ct"),
        &format!("{d}_z"),
        label::assign(copy, rg::Expr::name("0")),
    );
    let done = format!("{d}_done");
    b.edge(&format!("{d}_z"), &done, label::switch("keeper"));
    done
}
