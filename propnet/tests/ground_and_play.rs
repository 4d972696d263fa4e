//! Grounding and playing a hand-built Datalog game (gdl.md §7.8's coin
//! game), without the GDL front end.

use propnet::datalog::{Literal, Program, Term};
use propnet::{ground, GroundingError, GroundingLimits, PropnetModel};
use rg_core::model::{perft, Budget, ForwardModel};

mod common;
use common::Builder;

/// (role alice) (role bob) (init fresh) (coin h) (coin t)
/// (<= (legal ?r (pick ?c)) (role ?r) (coin ?c) (true fresh))
/// (<= same (does alice (pick ?c)) (does bob (pick ?c)))
/// (<= (next (won alice)) same) (<= (next (won bob)) (not same))
/// (<= terminal (not (true fresh)))
/// (<= (goal ?r 100) (true (won ?r))) (<= (goal ?r 0) (role ?r) (not (true (won ?r))))
fn coin_game() -> Program {
    let mut b = Builder::new();
    let (v0, v1) = (Term::Variable(0), Term::Variable(1));
    for role in ["alice", "bob"] {
        let r = b.c(role);
        let head = b.atom("role", vec![r]);
        b.rule(head, vec![], &[]);
    }
    let fresh = b.c("fresh");
    let head = b.atom("init", vec![fresh.clone()]);
    b.rule(head, vec![], &[]);
    for coin in ["h", "t"] {
        let c = b.c(coin);
        let head = b.atom("coin", vec![c]);
        b.rule(head, vec![], &[]);
    }
    let pick = b.f("pick", vec![v1.clone()]);
    let head = b.atom("legal", vec![v0.clone(), pick]);
    let body = vec![
        Literal::Positive(b.atom("role", vec![v0.clone()])),
        Literal::Positive(b.atom("coin", vec![v1])),
        Literal::Positive(b.atom("true", vec![fresh.clone()])),
    ];
    b.rule(head, body, &["?r", "?c"]);
    let (alice, bob) = (b.c("alice"), b.c("bob"));
    let pick = b.f("pick", vec![v0.clone()]);
    let same = b.atom("same", vec![]);
    let body = vec![
        Literal::Positive(b.atom("does", vec![alice.clone(), pick.clone()])),
        Literal::Positive(b.atom("does", vec![bob.clone(), pick])),
    ];
    b.rule(same.clone(), body, &["?c"]);
    let won_alice = b.f("won", vec![alice]);
    let head = b.atom("next", vec![won_alice]);
    b.rule(head, vec![Literal::Positive(same.clone())], &[]);
    let won_bob = b.f("won", vec![bob]);
    let head = b.atom("next", vec![won_bob]);
    b.rule(head, vec![Literal::Negative(same)], &[]);
    let head = b.atom("terminal", vec![]);
    let body = vec![Literal::Negative(b.atom("true", vec![fresh]))];
    b.rule(head, body, &[]);
    let won = b.f("won", vec![v0.clone()]);
    let (hundred, zero) = (b.c("100"), b.c("0"));
    let head = b.atom("goal", vec![v0.clone(), hundred]);
    let body = vec![Literal::Positive(b.atom("true", vec![won.clone()]))];
    b.rule(head, body, &["?r"]);
    let head = b.atom("goal", vec![v0.clone(), zero]);
    let body = vec![
        Literal::Positive(b.atom("role", vec![v0])),
        Literal::Negative(b.atom("true", vec![won])),
    ];
    b.rule(head, body, &["?r"]);
    b.program
}

#[test]
fn the_coin_game_grounds_as_in_the_specification() {
    let program = ground(&coin_game(), &GroundingLimits::default()).unwrap();
    assert_eq!(program.role_names(), vec!["alice", "bob"]);
    let names = |terms: &[u32]| -> Vec<String> {
        let mut v: Vec<String> = terms.iter().map(|&t| program.rg_name(t)).collect();
        v.sort();
        v
    };
    assert_eq!(
        names(&program.base_facts),
        vec!["fresh", "won_alice", "won_bob"]
    );
    assert_eq!(names(&program.actions[0]), vec!["pick_h", "pick_t"]);
    assert_eq!(names(&program.actions[1]), vec!["pick_h", "pick_t"]);
    assert_eq!(names(&program.goal_values[0]), vec!["0", "100"]);
    let rules: Vec<String> = program
        .rules
        .iter()
        .map(|r| program.display_rule(r))
        .collect();
    assert!(
        rules.contains(&"(<= terminal (not (true fresh)))".to_string()),
        "{rules:#?}"
    );
    assert!(
        rules.contains(&"(<= (next (won bob)) (not same))".to_string()),
        "{rules:#?}"
    );
}

#[test]
fn the_coin_game_plays_with_hidden_sequential_choices() {
    let model = PropnetModel::new(&coin_game(), &GroundingLimits::default()).unwrap();
    let initial = model.initial().unwrap();
    let counts: Vec<u64> = (0..5)
        .map(|d| perft(&model, &initial, d, &mut Budget::unlimited()).unwrap())
        .collect();
    // gdl.md §7.8: RG (alice, bob) perft 1, 2, 4, 0, 0.
    assert_eq!(counts, vec![1, 2, 4, 0, 0]);
    assert_eq!(
        rg_core::joint::joint_perft(&model, 1, &mut Budget::unlimited()).unwrap(),
        4
    );
    let mut state = initial;
    let mut moves = Vec::new();
    for _ in 0..2 {
        model.legal_moves(&state, &mut moves).unwrap();
        let pick_h = *moves
            .iter()
            .find(|m| model.format_move(m) == "pick_h")
            .unwrap();
        model.apply(&mut state, &pick_h).unwrap();
    }
    assert!(model.is_terminal(&state));
    assert_eq!(model.goals(&state), vec![100, 0]);
}

#[test]
fn grounding_limits_name_the_relation() {
    let limits = GroundingLimits {
        max_atoms: 5,
        ..GroundingLimits::default()
    };
    match ground(&coin_game(), &limits) {
        Err(GroundingError::TooManyAtoms { relation, .. }) => assert!(!relation.is_empty()),
        other => panic!("expected an atom limit error, got {other:?}"),
    }
}
