//! Every kind of diagnostic of replay.md §5.4 outside the parser (whose
//! errors are tested beside it): one case each, rendered with file:line:
//! column and pinned by a snapshot; each case also states whether the
//! translation must fail.

use replay::Options;
use rg_core::diag::render_all;

const PD: &str = "strat {C, D};
Game pd = Game[2 | { (C,C) -> (-1,-1) | (C,D) -> (-5,0) | (D,C) -> (0,-5) | (D,D) -> (-3,-3) }];
";

const GRIM: &str =
    "Strategy grim = Strategy[2 | 2 | { cooperate: C, (_,D) -> defect; defect: D; }];
";

fn options(words: &str) -> Options {
    let mut o = Options::default();
    for w in words.split_whitespace() {
        let (k, v) = match w.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => (w, None),
        };
        o.set(k, v).unwrap();
    }
    o
}

/// Translates; returns whether it succeeded and every diagnostic rendered.
fn run(source: &str, words: &str) -> (bool, String) {
    match replay::translate(source, &options(words)) {
        Ok((_, t)) => (true, render_all(&t.warnings, "case.replay", source)),
        Err(d) => (false, render_all(&d, "case.replay", source)),
    }
}

macro_rules! case {
    ($name:ident, $ok:expr, $source:expr, $options:expr) => {
        #[test]
        fn $name() {
            let source: String = $source;
            let (ok, text) = run(&source, $options);
            assert_eq!(ok, $ok, "{text}");
            assert!(!text.is_empty(), "no diagnostic");
            insta::assert_snapshot!(text);
        }
    };
}

// ---- replay.md §8, negative tests ----
case!(
    binder_twice,
    false,
    "Game g = Game[2 | { (x,x) -> (1,1) }];".into(),
    "rounds=1"
);
case!(
    unknown_state,
    false,
    format!("{PD}Strategy s = Strategy[2 | 2 | {{ a: C, (_,D) -> defct; b: D; }}];"),
    "rounds=1"
);
case!(
    player_int_parameter,
    false,
    format!("{PD}{GRIM}Player p = Player[grim | 1];"),
    "rounds=1"
);
case!(
    fixed_strategy_wrong_moves,
    false,
    format!("strat {{C, D}};\n{GRIM}Game g = Game[3 | {{ (x,y) -> (x,y) }}];"),
    "rounds=1 fix=0:grim"
);
case!(
    play_at_top_level,
    false,
    format!("{PD}{GRIM}Player p1 = Player[grim];\nPlayer p2 = Player[grim];\np1, p2 % pd;\n"),
    "rounds=1"
);
case!(stop_at_simulation, true, format!("{PD}{GRIM}Player p1 = Player[grim];\nPlayer p2 = Player[grim];\np1, p2 % pd;\nGame later = pd;\n"), "rounds=1 stop-at-simulation");
case!(
    two_games_without_choice,
    false,
    format!("{PD}Game other = pd;"),
    "rounds=1"
);
case!(noise_needs_too_many_moves, false, format!("strat {{A, B, C}};\nGame g = Game[3 | {{ (x,y) -> (x,y) }}];\nStrategy s = Strategy[1 | 3 | {{ a: A; }}];\nPlayer p = Player[s | 1.0 | 0.0123];"), "rounds=1 fix=0:p");
case!(noise_rounded, true, format!("strat {{A, B, C}};\nGame g = Game[3 | {{ (x,y) -> (x,y) }}];\nStrategy s = Strategy[1 | 3 | {{ a: A; }}];\nPlayer p = Player[s | 1.0 | 0.0123];"), "rounds=1 fix=0:p noise-denominator=100");

// ---- other simulation statements ----
case!(
    mutate_executed,
    false,
    format!("{PD}{GRIM}Player p = Player[grim];\np ~ 0.1;"),
    "rounds=1"
);
case!(
    crossover_executed,
    false,
    format!("{PD}{GRIM}Player p = Player[grim];\nPlayer q = Player[grim];\np # 0.5 # q;"),
    "rounds=1"
);

// ---- selection ----
case!(rounds_missing, false, PD.into(), "");
case!(rounds_zero, false, PD.into(), "rounds=0");
case!(no_game, false, "int x = 1;".into(), "rounds=1");
case!(
    game_not_a_game,
    false,
    format!("{PD}int x = 1;"),
    "rounds=1 game=x"
);
case!(game_unknown, false, PD.into(), "rounds=1 game=nope");
case!(game_null, false, "Game g;".into(), "rounds=1");
case!(
    game_index_out_of_range,
    false,
    format!("{PD}Game[] gs = Game[1];\ngs[0] = pd;"),
    "rounds=1 game=gs[3]"
);
case!(
    seat_out_of_range,
    false,
    format!("{PD}{GRIM}"),
    "rounds=1 fix=2:grim"
);
case!(
    seat_fixed_twice,
    false,
    format!("{PD}{GRIM}"),
    "rounds=1 fix=0:grim fix=0:grim"
);
case!(
    strategy_arity_mismatch,
    false,
    format!("{PD}Strategy s = Strategy[1 | 2 | {{ a: 0, (_,_,_) -> a; }}];"),
    "rounds=1 fix=0:s"
);
case!(
    delta_out_of_range,
    false,
    format!("{PD}{GRIM}Player noisy = Player[grim | 1.5];"),
    "rounds=1 fix=0:noisy"
);
case!(
    fix_not_a_player,
    false,
    format!("{PD}int grim = 3;"),
    "rounds=1 fix=0:grim"
);
case!(
    unknown_directive_key,
    false,
    format!("/*@rgw rounds=2 colour=red */\n{PD}"),
    ""
);
case!(
    score_range_too_large,
    false,
    "Game g = Game[2 | { (x,y) -> (100000, 0) | (0,0) -> (0,0) }];".into(),
    "rounds=3"
);

// ---- evaluation ----
case!(division_by_zero, false, "int x = 1 / 0;".into(), "rounds=1");
case!(
    integer_overflow,
    false,
    "int x = 9223372036854775807 + 1;".into(),
    "rounds=1"
);
case!(
    index_out_of_bounds,
    false,
    "int[] a = int[2];\nint x = a[2];".into(),
    "rounds=1"
);
case!(
    negative_length,
    false,
    "int[] a = int[0 - 1];".into(),
    "rounds=1"
);
case!(
    null_strategy,
    false,
    "Strategy s;\nint k = s.size;".into(),
    "rounds=1"
);
case!(
    declaration_type_mismatch,
    false,
    "int x = 1.5;".into(),
    "rounds=1"
);
case!(
    operand_type_mismatch,
    false,
    "int x = 1 + true;".into(),
    "rounds=1"
);
case!(
    condition_not_bool,
    false,
    "if (1) { int x = 1; }".into(),
    "rounds=1"
);
case!(
    objects_compared,
    false,
    format!("{PD}bool same = pd == pd;"),
    "rounds=1"
);
case!(assign_constant, false, format!("{PD}C = 1;"), "rounds=1");
case!(
    assign_attribute,
    false,
    format!("{PD}{GRIM}grim.size = 3;"),
    "rounds=1"
);
case!(
    return_outside_function,
    false,
    "return 1;".into(),
    "rounds=1"
);
case!(
    missing_return,
    false,
    "int f(int x) { if (x > 0) return 1; }\nint y = f(0);".into(),
    "rounds=1"
);
case!(
    argument_type,
    false,
    "int f(float x) { return 1; }\nint y = f(1);".into(),
    "rounds=1"
);
case!(unknown_variable, false, "int y = z + 1;".into(), "rounds=1");
case!(unknown_function, false, "int y = g(1);".into(), "rounds=1");
case!(
    global_read_before_declaration,
    false,
    "int f() { return 1; }\nint y = x;\nint x = 2;".into(),
    "rounds=1"
);
case!(
    redeclared,
    false,
    "int x = 1;\nint x = 2;".into(),
    "rounds=1"
);
case!(
    redeclared_builtin,
    false,
    "void print(int x) { }".into(),
    "rounds=1"
);
case!(
    infinite_recursion,
    false,
    "int f(int x) { return f(x + 1); }\nint y = f(0);".into(),
    "rounds=1"
);
case!(
    toint_of_nan,
    false,
    "int y = toint(0.0 / 0.0);".into(),
    "rounds=1"
);
case!(
    payoff_not_int,
    false,
    "Game g = Game[2 | { (x,y) -> (0.5, 1) }];".into(),
    "rounds=1"
);
case!(
    outcome_arity,
    false,
    "Game g = Game[2 | { (x,y) -> (1, 1) | (x) -> (1) }];".into(),
    "rounds=1"
);
case!(
    pattern_out_of_range,
    false,
    "Game g = Game[2 | { (x,2) -> (1, 1) }];".into(),
    "rounds=1"
);
case!(
    pattern_not_int,
    false,
    "float f = 1.0;\nGame g = Game[2 | { (f,_) -> (1, 1) }];".into(),
    "rounds=1"
);
case!(
    game_without_moves,
    false,
    "Game g = Game[0 | { (x,y) -> (1, 1) }];".into(),
    "rounds=1"
);
case!(
    state_output_out_of_range,
    false,
    "Strategy s = Strategy[1 | 2 | { a: 2; }];".into(),
    "rounds=1"
);
case!(
    strategy_too_small,
    false,
    "Strategy s = Strategy[1 | 2 | { a: 0; b: 1; }];".into(),
    "rounds=1"
);
case!(
    transition_arity,
    false,
    "Strategy s = Strategy[2 | 2 | { a: 0, (_,_) -> b; b: 1, (_) -> a; }];".into(),
    "rounds=1"
);
case!(
    unknown_name_in_transition,
    false,
    "Strategy s = Strategy[2 | 2 | { a: 0, (x,_) -> b; b: 1; }];".into(),
    "rounds=1"
);
case!(
    field_used_as_method,
    false,
    format!("{PD}int n = pd.players();"),
    "rounds=1"
);
case!(
    method_used_as_field,
    false,
    format!("{PD}int u = pd.payoff;"),
    "rounds=1"
);
case!(
    no_such_attribute,
    false,
    format!("{PD}int u = pd.size;"),
    "rounds=1"
);
case!(
    change_names_another_state,
    false,
    format!("strat {{C, D}};\n{GRIM}grim.change(0, {{ defect: D; }});"),
    "rounds=1"
);

// ---- warnings ----
case!(
    uncovered_profile,
    true,
    "Game g = Game[2 | { (0,0) -> (1, 1) }];".into(),
    "rounds=1"
);
case!(
    rand_used,
    true,
    "int k = toint(rand * 2.0);\nGame g = Game[2 | { (x,y) -> (k, k) }];".into(),
    "rounds=1"
);
case!(label_shadows, true, "int a = 1;\nStrategy s = Strategy[1 | 2 | { a: 0; }];\nGame g = Game[2 | { (x,y) -> (1, 1) }];".into(), "rounds=1 fix=0:s");
case!(
    int_variable_as_pattern,
    true,
    "int k = 1;\nGame g = Game[2 | { (k,_) -> (1, 1) | (_,_) -> (0, 0) }];".into(),
    "rounds=1"
);
case!(noise_with_one_move, true, "Game g = Game[1 | { (x,y) -> (1, 1) }];\nStrategy s = Strategy[1 | 1 | { a: 0; }];\nPlayer p = Player[s | 1.0 | 0.5];".into(), "rounds=1 fix=0:p");
case!(
    payoff_terms_rounded,
    true,
    format!("{PD}{GRIM}Player patient = Player[grim | 0.9];"),
    "rounds=4 fix=0:patient"
);

// ---- guards ----
case!(
    allocation_guard,
    false,
    "for i in [0:100] { int[] a = int[1000000]; }".into(),
    "rounds=1"
);
case!(
    step_guard,
    false,
    "int n = 0;\nfor i in [0:1000000] { for j in [0:20] { n = n + 1; } }".into(),
    "rounds=1"
);
case!(
    array_too_long,
    false,
    "int[] a = int[1000001];".into(),
    "rounds=1"
);
case!(
    too_many_profiles,
    false,
    "Game g = Game[1001 | { (x,y) -> (1, 1) }];".into(),
    "rounds=1"
);
case!(
    rounds_times_profiles,
    false,
    "Game g = Game[1000 | { (x,y) -> (1, 1) }];".into(),
    "rounds=2"
);

// ---- static checks reach code that never runs ----
case!(
    error_in_uncalled_function,
    false,
    "int unused(Player p) { return p.delta; }\nGame g = Game[2 | { (x,y) -> (1, 1) }];".into(),
    "rounds=1"
);
case!(several_static_errors, false, "void f() { int x = true; }\nif (false) { bool b = 1 < \"a\"; }\nGame g = Game[2 | { (x,y) -> (1, 1) }];".into(), "rounds=1");
case!(
    rounds_times_players,
    false,
    format!(
        "Game g = Game[1 | {{ ({}) -> ({}) }}];",
        vec!["_"; 200].join(","),
        vec!["0"; 200].join(",")
    ),
    "rounds=5001"
);
case!(output_too_large, false, "Game g = Game[5000 | { (x) -> (x) }];\nStrategy s = Strategy[1 | 5000 | { a: 0; }];\nPlayer p = Player[s | 1.0 | 1.0];".into(), "rounds=1 fix=0:p");
