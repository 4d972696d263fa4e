//! Demand filters (magic sets) for the instantiation of derived dynamic
//! relations: a relation whose every use binds some of its arguments is
//! instantiated only for the bindings its users can ask for, instead of
//! for every binding relaxed reachability allows.
//!
//! ```text
//! (<= (pinned ?m ?dir) (between ?l ?m ?r ?dir) (owner ?p ?m) (owner ?p ?l)
//!     (istype ?l king) (owner ?o ?r) (istype ?r rook) (straight ?dir) (distinct ?p ?o))
//! ```
//!
//! asks `between` only for a king, a piece of its owner and an opposing
//! rook: the filter `between_demand(?l ?m ?r ?dir)` is computed from the
//! static literals, and the rules of `between` get it as a first literal.
//! On alexChess this takes `between` from 2.7 million instances (every
//! piece on every square, three at a time; the rule limit stopped it) to
//! 74,000. Recursive relations called with bound arguments are cut the
//! same way: merrills counts its stones with `(count_loop inner ne 0 0 ?w
//! ?b)`, and only the partial counts reachable from `0 0` are instantiated
//! (2.8 million atoms before, when the atom limit stopped it; 118,000 now).
//!
//! The bound positions of a relation (its adornment, one per relation) are
//! those bound in every use, negative uses included; a position is bound
//! when its variables occur in the head's bound positions (if the head is
//! filtered itself), in a positive static literal, in a positive dynamic
//! literal written before the use (a negative use: in any positive
//! literal), or are fixed by an equality with such terms. The rule that
//! computes a filter holds those literals, connected to the use by shared
//! variables. The filters only restrict which instances are formed: they
//! are not part of the ground program (the grounder skips them when it
//! emits rules), so the semantics is unchanged — every instance a user can
//! need has its demand derived in the relaxed fixpoint, which over-
//! approximates every reachable state.

use std::collections::{BTreeMap, BTreeSet};

use crate::datalog::{Atom, Literal, Rule, Symbol, SymbolTable, Term, Vocabulary};

use super::decompose::{classify, renumbered};

type Key = (Symbol, usize);

/// The rules with demand filters added, and the filter relations.
pub(super) fn add_filters(
    rules: &[Rule],
    v: Vocabulary,
    symbols: &mut SymbolTable,
    on_demand: &[Key],
) -> (Vec<Rule>, Vec<Key>) {
    let (dynamic, _) = classify(rules, v);
    let reserved = [
        v.role, v.init, v.true_, v.does, v.next, v.legal, v.goal, v.terminal, v.base, v.input,
    ];
    let defined: BTreeSet<Key> = rules.iter().map(|r| r.head.key()).collect();
    // Static literals bind; relations asked on demand cannot be listed.
    let kind = |k: &Key| -> Option<bool> {
        if on_demand.contains(k) {
            None
        } else {
            Some(!dynamic.contains(k))
        }
    };
    let mut adornment: BTreeMap<Key, BTreeSet<usize>> = BTreeMap::new();
    for k in &dynamic {
        if k.1 > 0 && defined.contains(k) && !reserved.contains(&k.0) {
            adornment.insert(*k, (0..k.1).collect());
        }
    }
    // Greatest fixpoint: positions bound in every use.
    let mut used: BTreeSet<Key> = BTreeSet::new();
    loop {
        let mut changed = false;
        for rule in rules {
            for (i, l) in rule.body.iter().enumerate() {
                let (Literal::Positive(a) | Literal::Negative(a)) = l else {
                    continue;
                };
                let Some(current) = adornment.get(&a.key()) else {
                    continue;
                };
                used.insert(a.key());
                let (bound, _) = binders(rule, i, &adornment, &kind);
                let keep: BTreeSet<usize> = current
                    .iter()
                    .copied()
                    .filter(|&p| vars(&a.args[p]).is_subset(&bound))
                    .collect();
                if keep.len() < current.len() {
                    adornment.insert(a.key(), keep);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    adornment.retain(|k, positions| !positions.is_empty() && used.contains(k));
    if adornment.is_empty() {
        return (rules.to_vec(), Vec::new());
    }
    let mut filter: BTreeMap<Key, Symbol> = BTreeMap::new();
    for k in adornment.keys() {
        let name = (0..)
            .map(|n| {
                let base = format!("{}_demand", symbols.name(k.0));
                if n == 0 {
                    base
                } else {
                    format!("{base}{n}")
                }
            })
            .find(|name| symbols.lookup(name).is_none())
            .unwrap_or_default();
        filter.insert(*k, symbols.intern(&name));
    }
    let demand_atom = |k: Key, args: &[Term]| -> Atom {
        Atom {
            relation: filter[&k],
            args: adornment[&k].iter().map(|&p| args[p].clone()).collect(),
        }
    };
    let mut out = Vec::with_capacity(rules.len() * 2);
    for rule in rules {
        // The rules computing the demand of each filtered use.
        for (i, l) in rule.body.iter().enumerate() {
            let (Literal::Positive(a) | Literal::Negative(a)) = l else {
                continue;
            };
            if !adornment.contains_key(&a.key()) {
                continue;
            }
            let head = demand_atom(a.key(), &a.args);
            let (_, literals) = binders(rule, i, &adornment, &kind);
            // Keep the binders connected to the demanded arguments.
            let mut reach = vars_atom(&head);
            let mut chosen: Vec<usize> = Vec::new();
            loop {
                let before = chosen.len();
                for &j in &literals {
                    if chosen.contains(&j) {
                        continue;
                    }
                    let vs = literal_vars(rule, j, &demand_atom);
                    if !vs.is_disjoint(&reach) {
                        reach.extend(vs);
                        chosen.push(j);
                    }
                }
                if chosen.len() == before {
                    break;
                }
            }
            chosen.sort_unstable();
            let mut body: Vec<Literal> = Vec::new();
            for j in chosen {
                if j == usize::MAX {
                    body.push(Literal::Positive(demand_atom(
                        rule.head.key(),
                        &rule.head.args,
                    )));
                } else {
                    body.push(rule.body[j].clone());
                }
            }
            // Inequalities whose variables are all bound filter further.
            let bound: BTreeSet<u32> = body.iter().flat_map(lit_vars).collect();
            for l in &rule.body {
                if let Literal::Distinct(..) = l {
                    if lit_vars(l).is_subset(&bound) {
                        body.push(l.clone());
                    }
                }
            }
            out.push(renumbered(&Rule {
                head,
                body,
                variable_names: rule.variable_names.clone(),
            }));
        }
        // The rule itself, behind its filter.
        if adornment.contains_key(&rule.head.key()) {
            let mut filtered = rule.clone();
            filtered.body.insert(
                0,
                Literal::Positive(demand_atom(rule.head.key(), &rule.head.args)),
            );
            out.push(filtered);
        } else {
            out.push(rule.clone());
        }
    }
    let keys = filter
        .iter()
        .map(|(k, &s)| (s, adornment[k].len()))
        .collect();
    (out, keys)
}

fn vars(t: &Term) -> BTreeSet<u32> {
    let mut out = Vec::new();
    t.collect_variables(&mut out);
    out.into_iter().collect()
}

fn vars_atom(a: &Atom) -> BTreeSet<u32> {
    let mut out = Vec::new();
    a.collect_variables(&mut out);
    out.into_iter().collect()
}

fn lit_vars(l: &Literal) -> BTreeSet<u32> {
    let mut out = Vec::new();
    l.collect_variables(&mut out);
    out.into_iter().collect()
}

/// The variables of binder `j` (`usize::MAX` is the head's filter).
fn literal_vars(
    rule: &Rule,
    j: usize,
    demand_atom: &dyn Fn(Key, &[Term]) -> Atom,
) -> BTreeSet<u32> {
    if j == usize::MAX {
        vars_atom(&demand_atom(rule.head.key(), &rule.head.args))
    } else {
        lit_vars(&rule.body[j])
    }
}

/// The variables bound before body literal `use_` in the sideways order
/// (head filter, static literals, earlier positive dynamic literals — all
/// positive literals for a negative use — and equalities), and the
/// literals that bind them (`usize::MAX` standing for the head's filter).
fn binders(
    rule: &Rule,
    use_: usize,
    adornment: &BTreeMap<Key, BTreeSet<usize>>,
    kind: &dyn Fn(&Key) -> Option<bool>,
) -> (BTreeSet<u32>, Vec<usize>) {
    let mut bound = BTreeSet::new();
    let mut literals = Vec::new();
    if let Some(positions) = adornment.get(&rule.head.key()) {
        if !positions.is_empty() {
            for &p in positions {
                bound.extend(vars(&rule.head.args[p]));
            }
            literals.push(usize::MAX);
        }
    }
    let negative_use = matches!(rule.body[use_], Literal::Negative(_));
    for (j, l) in rule.body.iter().enumerate() {
        if j == use_ {
            continue;
        }
        if let Literal::Positive(a) = l {
            let Some(is_static) = kind(&a.key()) else {
                continue;
            };
            if is_static || j < use_ || negative_use {
                bound.extend(vars_atom(a));
                literals.push(j);
            }
        }
    }
    // Equalities propagate bindings.
    loop {
        let mut changed = false;
        for (j, l) in rule.body.iter().enumerate() {
            if let Literal::Equal(s, t) = l {
                if literals.contains(&j) {
                    continue;
                }
                let (vs, vt) = (vars(s), vars(t));
                if vs.is_subset(&bound) || vt.is_subset(&bound) {
                    bound.extend(vs);
                    bound.extend(vt);
                    literals.push(j);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    (bound, literals)
}
