//! Random stage games, strategies and players, written as replay source:
//! the native model and the RG translation agree on perft at every depth
//! and on the census of terminal goal vectors (payoff accumulation,
//! discounting and noise included).

mod common;

use common::{census, engine, instance, native};
use proptest::prelude::*;
use replay::Options;
use rg_core::model::{perft, Budget, ForwardModel};

#[derive(Clone, Debug)]
struct Machine {
    states: usize,
    outputs: Vec<usize>,
    /// (state, pattern per seat (None = `_`), target state)
    transitions: Vec<(usize, Vec<Option<usize>>, usize)>,
    delta: &'static str,
    eps_out: &'static str,
    eps_in: &'static str,
}

#[derive(Clone, Debug)]
struct Case {
    moves: usize,
    players: usize,
    payoffs: Vec<Vec<i64>>,
    rounds: usize,
    seats: Vec<Option<Machine>>,
}

const DELTAS: [&str; 5] = ["1.0", "0.5", "0.9", "0.25", "0.0"];
const NOISES: [&str; 5] = ["0.0", "0.5", "0.25", "0.1", "1.0"];

fn machine(moves: usize, players: usize) -> impl Strategy<Value = Machine> {
    (1usize..=3).prop_flat_map(move |states| {
        let transition = (
            0..states,
            prop::collection::vec(prop::option::of(0..moves), players),
            0..states,
        );
        (
            prop::collection::vec(0..moves, states),
            prop::collection::vec(transition, 0..4),
            prop::sample::select(&DELTAS[..]),
            prop::sample::select(&NOISES[..]),
            prop::sample::select(&NOISES[..]),
            Just(states),
        )
            .prop_map(
                |(outputs, transitions, delta, eps_out, eps_in, states)| Machine {
                    states,
                    outputs,
                    transitions,
                    delta,
                    eps_out,
                    eps_in,
                },
            )
    })
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..=3, 1usize..=3, 1usize..=3).prop_flat_map(|(moves, players, rounds)| {
        let profiles = moves.pow(players as u32);
        (
            prop::collection::vec(prop::collection::vec(-5i64..=5, players), profiles),
            prop::collection::vec(prop::option::of(machine(moves, players)), players),
        )
            .prop_map(move |(payoffs, seats)| Case {
                moves,
                players,
                payoffs,
                rounds,
                seats,
            })
    })
}

fn literal(v: i64) -> String {
    if v < 0 {
        format!("-{}", -v)
    } else {
        v.to_string()
    }
}

/// The case as a replay program with its directive.
fn source(c: &Case) -> String {
    let mut fix = String::new();
    let mut text = String::new();
    for (k, seat) in c.seats.iter().enumerate() {
        let Some(m) = seat else { continue };
        fix.push_str(&format!(" fix={k}:p{k}"));
        let mut states = Vec::new();
        for q in 0..m.outputs.len() {
            let ts: Vec<String> = m
                .transitions
                .iter()
                .filter(|(from, _, _)| *from == q)
                .map(|(_, pats, to)| {
                    let p: Vec<String> = pats
                        .iter()
                        .map(|x| x.map_or("_".to_string(), |v| v.to_string()))
                        .collect();
                    format!("({}) -> s{to}", p.join(","))
                })
                .collect();
            if ts.is_empty() {
                states.push(format!("s{q}: {}", m.outputs[q]));
            } else {
                states.push(format!("s{q}: {}, {}", m.outputs[q], ts.join(" | ")));
            }
        }
        text.push_str(&format!(
            "Strategy m{k} = Strategy[{} | {} | {{ {} }}];\nPlayer p{k} = Player[m{k} | {} | {} | {}];\n",
            m.states,
            c.moves,
            states.join("; "),
            m.delta,
            m.eps_out,
            m.eps_in
        ));
    }
    let outcomes: Vec<String> = c
        .payoffs
        .iter()
        .enumerate()
        .map(|(i, pays)| {
            let prof = replay::value::profile(i, c.moves, c.players);
            let p: Vec<String> = prof.iter().map(usize::to_string).collect();
            let q: Vec<String> = pays.iter().map(|&v| literal(v)).collect();
            format!("({}) -> ({})", p.join(","), q.join(","))
        })
        .collect();
    format!(
        "/*@rgw game=g rounds={}{fix} */\nGame g = Game[{} | {{ {} }}];\n{text}",
        c.rounds,
        c.moves,
        outcomes.join(" | ")
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn native_and_rg_agree(c in case()) {
        let text = source(&c);
        let inst = instance("case.replay", &text, &Options::default());
        let n = native(&inst);
        // Keep the trees small: at most m^(R·P) leaves.
        let plies = (n.plies_per_round() * inst.rounds) as u32;
        prop_assume!((inst.moves as u64).pow(plies) <= 5_000);
        let e = engine(&inst);
        let (ni, ei) = (n.initial().unwrap(), e.initial().unwrap());
        for depth in 0..=plies + 1 {
            let a = perft(&n, &ni, depth, &mut Budget::unlimited()).unwrap();
            let b = perft(&e, &ei, depth, &mut Budget::unlimited()).unwrap();
            prop_assert_eq!(a, b, "perft({}) of\n{}", depth, text);
        }
        prop_assert_eq!(census(&n), census(&e), "census of\n{}", text);
    }
}
