//! Property tests of the engine on generated proper games: every legal
//! move applies, perft(d + 1) is the sum over moves (distinct outcomes for
//! `random`) of perft(d), both keeper modes agree, and playouts end within
//! the game's turn bound.

use std::collections::HashSet;

use proptest::prelude::*;
use rand::SeedableRng;
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, playout, Budget, ForwardModel, Player};

/// One action of a move branch.
#[derive(Clone, Debug)]
enum Step {
    /// `vK == c`
    Test(usize, u8),
    /// `vK != c`
    TestNot(usize, u8),
    /// `vK = c`
    Set(usize, u8),
    /// `vK = rot[vJ]`
    Rotate(usize, usize),
    /// `vK = V(*)` then `$$ vK` (the tag keeps moves unambiguous)
    Choose(usize),
    /// `? sub -> subEnd` where the sub-automaton tests `vK == c`
    Check(bool, usize, u8),
}

#[derive(Clone, Debug)]
struct Spec {
    players: usize,
    turns: u8,
    variables: usize,
    branches: Vec<Vec<Step>>,
    random_turns: bool,
}

fn step(variables: usize) -> impl Strategy<Value = Step> {
    let v = 0..variables;
    prop_oneof![
        (v.clone(), 0u8..3).prop_map(|(k, c)| Step::Test(k, c)),
        (v.clone(), 0u8..3).prop_map(|(k, c)| Step::TestNot(k, c)),
        (v.clone(), 0u8..3).prop_map(|(k, c)| Step::Set(k, c)),
        (v.clone(), v.clone()).prop_map(|(k, j)| Step::Rotate(k, j)),
        v.clone().prop_map(Step::Choose),
        (any::<bool>(), v, 0u8..3).prop_map(|(n, k, c)| Step::Check(n, k, c)),
    ]
}

fn spec() -> impl Strategy<Value = Spec> {
    (1usize..=3, 1u8..=4, 1usize..=3, any::<bool>()).prop_flat_map(
        |(players, turns, variables, random_turns)| {
            prop::collection::vec(prop::collection::vec(step(variables), 0..4), 1..4).prop_map(
                move |branches| Spec {
                    players,
                    turns,
                    variables,
                    branches,
                    random_turns,
                },
            )
        },
    )
}

/// Writes the game: players take turns (with a `random` turn between them
/// when `random_turns`); a move is a branch tag, then the branch's steps; a
/// `pass` branch is always legal; the keeper counts turns and ends the game.
fn render(spec: &Spec) -> String {
    let players: Vec<String> = (0..spec.players).map(|k| format!("p{k}")).collect();
    let turns: Vec<String> = (0..=spec.turns).map(|k| format!("t{k}")).collect();
    let mut out = String::new();
    out.push_str(&format!("type Player = {{ {} }};\n", players.join(", ")));
    out.push_str("type Score = { 0, 1, 2 };\ntype V = { 0, 1, 2 };\n");
    out.push_str(&format!("type T = {{ {} }};\n", turns.join(", ")));
    let next: Vec<String> = (0..spec.players)
        .map(|k| format!("p{k}: p{}", (k + 1) % spec.players))
        .collect();
    out.push_str(&format!(
        "const nextPlayer: Player -> Player = {{ :p0, {} }};\n",
        next.join(", ")
    ));
    let incr: Vec<String> = (0..spec.turns)
        .map(|k| format!("t{k}: t{}", k + 1))
        .collect();
    out.push_str(&format!(
        "const incr: T -> T = {{ :t{}, {} }};\n",
        spec.turns,
        incr.join(", ")
    ));
    out.push_str("const rot: V -> V = { :0, 0: 1, 1: 2 };\n");
    for k in 0..spec.variables {
        out.push_str(&format!("var v{k}: V = 0;\n"));
    }
    out.push_str("var who: Player = p0;\nvar t: T = t0;\n");
    out.push_str("begin, turn: ;\nturn, move: player = PlayerOrSystem(who);\n");
    let mut checks = 0;
    for (b, steps) in spec.branches.iter().enumerate() {
        let mut node = format!("b{b}_0");
        out.push_str(&format!("move, {node}: $ m{b};\n"));
        for (s, step) in steps.iter().enumerate() {
            let next = format!("b{b}_{}", s + 1);
            match step {
                Step::Test(k, c) => out.push_str(&format!("{node}, {next}: v{k} == {c};\n")),
                Step::TestNot(k, c) => out.push_str(&format!("{node}, {next}: v{k} != {c};\n")),
                Step::Set(k, c) => out.push_str(&format!("{node}, {next}: v{k} = {c};\n")),
                Step::Rotate(k, j) => out.push_str(&format!("{node}, {next}: v{k} = rot[v{j}];\n")),
                Step::Choose(k) => {
                    out.push_str(&format!(
                        "{node}, {node}c: v{k} = V(*);\n{node}c, {next}: $$ v{k};\n"
                    ));
                }
                Step::Check(negated, k, c) => {
                    let sign = if *negated { '!' } else { '?' };
                    out.push_str(&format!(
                        "{node}, {next}: {sign} chk{checks} -> chk{checks}e;\nchk{checks}, chk{checks}m: v{k} = rot[v{k}];\nchk{checks}m, chk{checks}e: v{k} == {c};\n"
                    ));
                    checks += 1;
                }
            }
            node = next;
        }
        out.push_str(&format!("{node}, moved: player = keeper;\n"));
    }
    out.push_str("move, passed: $ pass;\npassed, moved: player = keeper;\n");
    if spec.random_turns {
        out.push_str("moved, toss: player = random;\ntoss, tossed: $ heads;\ntoss, tossed1: $ tails;\ntossed1, tossed: v0 = rot[v0];\ntoss, tossed: $ edge;\ntossed, counted0: player = keeper;\n");
    } else {
        out.push_str("moved, counted0: ;\n");
    }
    out.push_str(&format!(
        "counted0, counted: t = incr[t];\ncounted, over: t == t{last};\ncounted, again: t != t{last};\nagain, turn: who = nextPlayer[who];\nover, scored: goals[who] = Score(v0);\nscored, end: player = keeper;\n",
        last = spec.turns
    ));
    out
}

fn engine(source: &str, expose_keeper: bool) -> Engine {
    Engine::from_source(
        source,
        EngineOptions {
            expose_keeper,
            ..EngineOptions::default()
        },
    )
    .unwrap_or_else(|d| panic!("generated game rejected: {d:?}\n{source}"))
}

/// Checks perft(s, d + 1) = Σ perft(children, d) and that every move
/// applies, recursively below `s`.
fn check_recursion(
    e: &Engine,
    s: &<Engine as ForwardModel>::State,
    depth: u32,
) -> Result<(), TestCaseError> {
    let mut moves = Vec::new();
    e.legal_moves(s, &mut moves)
        .map_err(|err| TestCaseError::fail(err.to_string()))?;
    let mut children = Vec::new();
    for m in &moves {
        let mut child = s.clone();
        e.apply(&mut child, m)
            .map_err(|err| TestCaseError::fail(err.to_string()))?;
        children.push(child);
    }
    if e.current_player(s) == Player::Random {
        let mut seen = HashSet::new();
        children.retain(|c| seen.insert(c.clone()));
    }
    let keeper = e.current_player(s) == Player::Keeper;
    let below = if keeper { depth + 1 } else { depth };
    let total: u64 = children
        .iter()
        .map(|c| perft(e, c, below, &mut Budget::unlimited()).unwrap())
        .sum();
    prop_assert_eq!(
        perft(e, s, depth + 1, &mut Budget::unlimited()).unwrap(),
        total
    );
    if depth > 0 {
        for c in &children {
            check_recursion(e, c, if keeper { depth } else { depth - 1 })?;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn engine_invariants(spec in spec(), seed in any::<u64>()) {
        let source = render(&spec);
        let hidden = engine(&source, false);
        let exposed = engine(&source, true);
        let initial = hidden.initial().unwrap();
        check_recursion(&hidden, &initial, 3)?;
        let exposed_initial = exposed.initial().unwrap();
        for depth in 0..5 {
            prop_assert_eq!(
                perft(&hidden, &initial, depth, &mut Budget::unlimited()).unwrap(),
                perft(&exposed, &exposed_initial, depth, &mut Budget::unlimited()).unwrap(),
                "keeper modes disagree at depth {}", depth
            );
        }
        // Every play has exactly `turns` real-player moves (plus random ones).
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        for _ in 0..5 {
            let result = playout(&hidden, initial.clone(), &mut rng, 1000).unwrap();
            prop_assert_eq!(result.turns, u64::from(spec.turns));
            prop_assert_eq!(result.goals.len(), spec.players);
        }
    }
}
