//! Helpers shared by the replay integration tests: loading, the RG engine
//! of a translation, and the census / expected goals of any model.

#![allow(dead_code)]

use std::collections::{BTreeMap, HashSet};

use replay::ratio::Ratio;
use replay::{Instance, Native, Options};
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{ForwardModel, Player};

/// Loads a source with its own directives, panicking with rendered
/// diagnostics.
pub fn instance(name: &str, source: &str, options: &Options) -> Instance {
    match replay::load(source, options) {
        Ok(l) => l.instance,
        Err(d) => panic!("{}", rg_core::diag::render_all(&d, name, source)),
    }
}

pub fn native(inst: &Instance) -> Native {
    Native::new(inst).unwrap_or_else(|d| panic!("native model: {}", d.message))
}

pub fn engine(inst: &Instance) -> Engine {
    let t = replay::lower::lower(inst).unwrap_or_else(|d| panic!("lowering: {d:?}"));
    Engine::new(&t.game, EngineOptions::default()).unwrap_or_else(|d| panic!("engine: {d:?}"))
}

/// The multiset of terminal goal vectors over the plays perft counts:
/// every move of a real player, distinct resulting states of `random`.
pub fn census<M: ForwardModel>(model: &M) -> BTreeMap<Vec<i64>, u64> {
    let mut out = BTreeMap::new();
    let s = model.initial().expect("initial state");
    walk(model, &s, &mut out);
    out
}

fn walk<M: ForwardModel>(model: &M, s: &M::State, out: &mut BTreeMap<Vec<i64>, u64>) {
    if model.is_terminal(s) {
        *out.entry(model.goals(s)).or_insert(0) += 1;
        return;
    }
    let mut moves = Vec::new();
    model.legal_moves(s, &mut moves).expect("moves");
    assert!(!moves.is_empty(), "a non-terminal state without moves");
    let random = model.current_player(s) == Player::Random;
    let mut seen = HashSet::new();
    for mv in &moves {
        let mut child = s.clone();
        model.apply(&mut child, mv).expect("apply");
        if random && !seen.insert(child.clone()) {
            continue;
        }
        walk(model, &child, out);
    }
}

/// Exact expected goals with uniform real players and `random` choosing
/// uniformly among its moves (copies included: that is the distribution).
pub fn expected_goals<M: ForwardModel>(model: &M) -> Vec<Ratio> {
    let s = model.initial().expect("initial state");
    expect(model, &s)
}

fn expect<M: ForwardModel>(model: &M, s: &M::State) -> Vec<Ratio> {
    if model.is_terminal(s) {
        return model
            .goals(s)
            .into_iter()
            .map(|g| Ratio::int(g as i128))
            .collect();
    }
    let mut moves = Vec::new();
    model.legal_moves(s, &mut moves).expect("moves");
    let weight = Ratio::new(1, moves.len() as i128).unwrap();
    let mut total: Option<Vec<Ratio>> = None;
    for mv in &moves {
        let mut child = s.clone();
        model.apply(&mut child, mv).expect("apply");
        let e = expect(model, &child);
        let sum = total.get_or_insert_with(|| vec![Ratio::ZERO; e.len()]);
        for (acc, x) in sum.iter_mut().zip(e) {
            *acc = acc.checked_add(x.checked_mul(weight).unwrap()).unwrap();
        }
    }
    total.expect("a move")
}

/// Parses a census written as in replay.md §8: `(0,10)×1 (2,7)×2 …`.
pub fn parse_census(text: &str) -> BTreeMap<Vec<i64>, u64> {
    text.split_whitespace()
        .map(|item| {
            let (vector, count) = item.split_once('×').expect("vector×count");
            let vector = vector
                .trim_matches(|c| c == '(' || c == ')')
                .split(',')
                .map(|x| x.parse().expect("goal"))
                .collect();
            (vector, count.parse().expect("count"))
        })
        .collect()
}
