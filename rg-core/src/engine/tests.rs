//! Engine tests on the self-contained games of rg.md §8.2.

use super::*;
use crate::model::{list_moves, perft, Budget, LimitError};

const TIC_TAC_TOE: &str = include_str!("testdata/tictactoe.rg");
const BIASED_COIN: &str = include_str!("testdata/coin.rg");
const RING_WALK: &str = include_str!("testdata/ring.rg");
const MINIMAL: &str = "type Player = { x };\ntype Score = { 0 };\nbegin, end: player = keeper;\n";

fn engine(source: &str, expose_keeper: bool) -> Engine {
    Engine::from_source(
        source,
        EngineOptions {
            expose_keeper,
            ..EngineOptions::default()
        },
    )
    .unwrap_or_else(|d| panic!("{d:?}"))
}

fn perfts(source: &str, depth: u32, expose_keeper: bool) -> Vec<u64> {
    let e = engine(source, expose_keeper);
    let initial = e.initial().unwrap();
    (0..=depth)
        .map(|d| perft(&e, &initial, d, &mut Budget::unlimited()).unwrap())
        .collect()
}

#[test]
fn tic_tac_toe_perft_both_keeper_modes() {
    let expected = vec![1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
    assert_eq!(perfts(TIC_TAC_TOE, 9, true), expected);
    assert_eq!(perfts(TIC_TAC_TOE, 9, false), expected);
}

#[test]
fn biased_coin_merges_random_outcomes() {
    assert_eq!(perfts(BIASED_COIN, 4, true), vec![1, 1, 2, 0, 0]);
    assert_eq!(perfts(BIASED_COIN, 4, false), vec![1, 1, 2, 0, 0]);
}

#[test]
fn ring_walk_needs_the_visited_set() {
    assert_eq!(perfts(RING_WALK, 4, true), vec![1, 4, 16, 0, 0]);
}

#[test]
fn minimal_game() {
    assert_eq!(perfts(MINIMAL, 3, true), vec![1, 0, 0, 0]);
    assert_eq!(perfts(MINIMAL, 3, false), vec![1, 0, 0, 0]);
}

#[test]
fn moves_of_the_reference_states() {
    let e = engine(TIC_TAC_TOE, true);
    let s0 = e.initial().unwrap();
    // At `/` the keeper has one empty move.
    assert_eq!(e.current_player(&s0), Player::Keeper);
    assert_eq!(list_moves(&e, &s0).unwrap(), vec![String::new()]);
    let mut moves = Vec::new();
    e.legal_moves(&s0, &mut moves).unwrap();
    let mut s1 = s0.clone();
    e.apply(&mut s1, &moves[0]).unwrap();
    let listed = list_moves(&e, &s1).unwrap();
    assert_eq!(listed.len(), 9);
    assert_eq!(listed[0], "0 0");
    assert_eq!(listed[8], "2 2");
    let coin = engine(BIASED_COIN, false);
    let s = coin.initial().unwrap();
    assert_eq!(list_moves(&coin, &s).unwrap(), vec![String::new()]);
    let mut moves = Vec::new();
    coin.legal_moves(&s, &mut moves).unwrap();
    let mut s2 = s.clone();
    coin.apply(&mut s2, &moves[0]).unwrap();
    assert_eq!(coin.current_player(&s2), Player::Random);
    assert_eq!(list_moves(&coin, &s2).unwrap(), vec!["h1", "h2", "t"]);
    let ring = engine(RING_WALK, false);
    let s = ring.initial().unwrap();
    assert_eq!(list_moves(&ring, &s).unwrap(), vec!["c0", "c1", "c2", "c3"]);
}

#[test]
fn keeper_with_two_moves_is_an_error() {
    let source = "type Player = { x };\ntype Score = { 0 };\nbegin, a: $ t;\nbegin, a: $ u;\na, end: player = keeper;\n";
    let e = engine(source, false);
    let err = e.initial().unwrap_err();
    assert_eq!(
        err.message,
        "keeper had 2 moves in node begin; it must have exactly one"
    );
}

#[test]
fn stuck_keeper_is_an_error() {
    let source = "type Player = { x };\ntype Score = { 0 };\nvar v: Bool = 0;\nbegin, a: v == 1;\na, end: player = keeper;\nbegin, end: ;\n";
    let err = engine(source, false).initial().unwrap_err();
    assert!(err.message.starts_with("game unexpectedly ended"), "{err}");
}

/// A reachability check runs on a copy: writes of a single-edge chain that
/// fails part-way (before any branching) must not leak into the walk, and
/// neither must those of a move search that fails the same way.
#[test]
fn failed_chains_do_not_leak_writes() {
    let source = "type Player = { x };\ntype Score = { 0 };\nvar v: Bool = 0;\n\
        begin, a: player = x;\na, b: ! r0 -> r2;\nr0, r1: v = 1;\nr1, r2: v == 0;\n\
        b, c: $ t;\nc, d: v == 0;\nd, end: player = keeper;\n";
    let e = engine(source, false);
    let s = e.initial().unwrap();
    assert_eq!(list_moves(&e, &s).unwrap(), vec!["t".to_string()]);
    let mut moves = Vec::new();
    e.legal_moves(&s, &mut moves).unwrap();
    let mut after = s.clone();
    e.apply(&mut after, &moves[0]).unwrap();
    assert!(e.is_terminal(&after));
    // The same chain as a whole move: the search fails, the state is kept.
    let stuck = "type Player = { x };\ntype Score = { 0 };\nvar v: Bool = 0;\n\
        begin, a: player = x;\na, b: v = 1;\nb, c: v == 0;\nc, end: player = keeper;\n";
    let e = engine(stuck, false);
    let s = e.initial().unwrap();
    assert!(list_moves(&e, &s).unwrap().is_empty());
    assert_eq!(list_moves(&e, &s).unwrap(), Vec::<String>::new());
}

#[test]
fn ambiguous_moves_are_reported() {
    let source = "type Player = { x };\ntype Score = { 0 };\nvar v: Bool = 0;\nbegin, a: player = x;\na, b: $ t;\nb, c: v = 1;\nb, c: ;\nc, end: player = keeper;\n";
    let e = engine(source, false);
    let s = e.initial().unwrap();
    let err = e.legal_moves(&s, &mut Vec::new()).unwrap_err();
    assert!(err.message.contains("ambiguous move"), "{err}");
}

#[test]
fn invalid_access_is_reported_with_its_node() {
    let source = "type Player = { x };\ntype Score = { 0 };\ntype K = { a, b };\nvar m: K -> K = { :a };\nvar k: { a, b, c } = c;\nbegin, n: m[k] == a;\nn, end: player = keeper;\n";
    let err = engine(source, false).initial().unwrap_err();
    assert!(
        err.message.starts_with(
            "invalid access in node begin: key c is not in the map's key type { a, b }"
        ),
        "{err}"
    );
}

#[test]
fn a_tag_cycle_hits_the_guard() {
    let source = "type Player = { x };\ntype Score = { 0 };\nbegin, a: player = x;\na, b: $ t;\nb, a: ;\nb, c: player = keeper;\nc, end: player = keeper;\n";
    let e = Engine::from_source(
        source,
        EngineOptions {
            expose_keeper: false,
            step_limit: 10_000,
            ..EngineOptions::default()
        },
    )
    .unwrap();
    let s = e.initial().unwrap();
    let err = e.legal_moves(&s, &mut Vec::new()).unwrap_err();
    assert!(err.message.contains("does not terminate"), "{err}");
}

#[test]
fn map_values_compare_extensionally_and_copy() {
    let source = "type Player = { x };\ntype Score = { 0, 1 };\ntype K = { a, b };\n\
        const full: K -> Bool = { :1 };\nconst sparse: K -> Bool = { :0, a: 1, b: 1 };\n\
        var m: K -> Bool = { :0 };\n\
        begin, c: m = full;\nc, d: m == sparse;\nd, e: goals[x] = 1;\ne, end: player = keeper;\n";
    let e = engine(source, false);
    let s = e.initial().unwrap();
    assert!(e.is_terminal(&s));
    assert_eq!(e.goals(&s), vec![1]);
}

#[test]
fn visibility_hides_tags() {
    let source = "type Player = { a, b };\ntype Score = { 0 };\nbegin, s: player = a;\n\
        s, h: visible[b] = 0;\nh, t: $ secret;\nt, v: visible[b] = 1;\nv, p: $ open;\np, q: player = keeper;\nq, end: player = keeper;\n";
    let e = engine(source, false);
    let s = e.initial().unwrap();
    let mut moves = Vec::new();
    e.legal_moves(&s, &mut moves).unwrap();
    assert_eq!(e.format_move(&moves[0]), "secret open");
    assert_eq!(e.obfuscated(&moves[0], 0), vec!["secret", "open"]);
    assert_eq!(e.obfuscated(&moves[0], 1), vec!["open"]);
}

#[test]
fn lenient_reads_yield_the_innermost_default() {
    // Keys outside { a, b } read m's default `a` (for the nested map n, the
    // innermost default `z`), through every evaluation path: one-step,
    // multi-step and nested accesses. Writes stay strict.
    let source = "type Player = { x };\ntype Score = { 0, 1 };\ntype K = { a, b };\n\
        var m: K -> K = { :a, b: b };\nvar n: K -> K -> { y, z } = { :{ :z }, a: { a: y, :z } };\n\
        var k: { a, b, c } = c;\nconst toC: K -> { a, b, c } = { :c };\n\
        begin, n1: m[k] == a;\nn1, n2: n[k][a] == z;\nn2, n3: n[a][k] == z;\nn3, n4: m[toC[m[a]]] == a;\n\
        n4, n5: goals[x] = 1;\nn5, end: player = keeper;\n";
    let lenient_options = EngineOptions {
        lenient: true,
        ..EngineOptions::default()
    };
    let lenient = Engine::from_source(source, lenient_options).unwrap();
    let s = lenient.initial().unwrap();
    assert!(lenient.is_terminal(&s));
    assert_eq!(lenient.goals(&s), vec![1]);
    assert!(engine(source, false).initial().is_err());
    let write =
        "type Player = { x };\ntype Score = { 0 };\ntype K = { a, b };\nvar m: K -> K = { :a };\n\
        var k: { a, b, c } = c;\nbegin, n1: m[k] = b;\nn1, end: player = keeper;\n";
    let lenient = Engine::from_source(write, lenient_options).unwrap();
    assert!(lenient.initial().is_err());
}

/// The keeper sets twelve bits one at a time, in any order, then hands the
/// move to `x`: a proper keeper (every order ends in the same state), but
/// 2^12 intermediate states for a search of every walk.
const KEEPER_IN_ANY_ORDER: &str = "type Player = { x };\ntype Score = { 0, 1 };\ntype Bit = { 0, 1 };\n\
    type I = { i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11 };\n\
    var bits: I -> Bit = { :0 };\nvar i: I = i0;\n\
    begin, again: ;\nagain, pick: i = I(*);\npick, set: bits[i] == Bit(0);\nset, more: bits[i] = Bit(1);\n\
    more, again: ? any0 -> any0e;\nmore, done: ! any0 -> any0e;\n\
    any0, a1: i = I(*);\na1, any0e: bits[i] == Bit(0);\n\
    done, reset: i = I(i0);\nreset, m: player = x;\nm, w: $ win;\nw, g: goals[x] = 1;\ng, end: player = keeper;\n";

#[test]
fn the_first_keeper_walk_avoids_searching_every_order() {
    let options = EngineOptions {
        step_limit: 10_000,
        ..EngineOptions::default()
    };
    // Every walk: the 4096 subsets of set bits exceed the step limit.
    let strict = Engine::from_source(KEEPER_IN_ANY_ORDER, options).unwrap();
    let error = strict.initial().unwrap_err();
    assert!(error.message.contains("does not terminate"), "{error:?}");
    // The first walk: twelve picks.
    let first = Engine::from_source(
        KEEPER_IN_ANY_ORDER,
        EngineOptions {
            first_keeper_walk: true,
            ..options
        },
    )
    .unwrap();
    let s = first.initial().unwrap();
    assert_eq!(list_moves(&first, &s).unwrap(), vec!["win"]);
    assert_eq!(
        (0..=2)
            .map(|d| perft(&first, &s, d, &mut Budget::unlimited()).unwrap())
            .collect::<Vec<_>>(),
        vec![1, 1, 0]
    );
    // Real players' moves are still all found.
    let ttt = Engine::from_source(
        TIC_TAC_TOE,
        EngineOptions {
            first_keeper_walk: true,
            ..EngineOptions::default()
        },
    )
    .unwrap();
    let root = ttt.initial().unwrap();
    assert_eq!(
        perft(&ttt, &root, 4, &mut Budget::unlimited()).unwrap(),
        3024
    );
}

#[test]
fn checks_nested_without_end_stop_at_the_bound() {
    // `? x -> y` inside the sub-automaton of `? x -> y`: each evaluation
    // needs itself. On a test thread's default stack, the bound must come
    // before the stack runs out.
    let source = "type Player = { a };\ntype Score = { 0 };\nbegin, s: player = a;\n\
                  s, t: ? x -> y;\nt, u: $ m;\nu, end: player = keeper;\nx, y: ? x -> y;\n";
    let e = engine(source, false);
    let initial = e.initial().unwrap();
    let error = perft(&e, &initial, 1, &mut Budget::unlimited()).unwrap_err();
    assert!(
        error.to_string().contains("nested more than 1000 deep"),
        "{error}"
    );
}

/// A cycle that emits one of two tags per turn, 40 turns deep (a counter
/// bounds it): every walk is a new (node, state, tag prefix), so the search
/// tree has 2^40 leaves.
fn branching_tag_cycle() -> String {
    let numbers: Vec<String> = (0..40).map(|k| k.to_string()).collect();
    let successors: Vec<String> = (0..39).map(|k| format!("{k}: {}", k + 1)).collect();
    format!(
        "type Player = {{ x }};\ntype Score = {{ 0 }};\ntype N = {{ {} }};\n\
         const next: N -> N = {{ :39, {} }};\nvar n: N = 0;\nbegin, a: player = x;\n\
         a, c: $ t;\na, c: $ s;\nc, d: n != 39;\nd, a: n = next[n];\na, b: $ u;\n\
         b, end: player = keeper;\n",
        numbers.join(", "),
        successors.join(", ")
    )
}

/// A cycle that emits a tag and changes a variable: the state repeats every
/// three turns, the tag prefix never does.
const ASSIGNMENT_CYCLE: &str = "type Player = { x };\ntype Score = { 0 };\ntype N = { 0, 1, 2 };\n\
    const next: N -> N = { :0, 0: 1, 1: 2, 2: 0 };\nvar n: N = 0;\nbegin, a: player = x;\n\
    a, c: $ t;\nc, a: n = next[n];\na, b: $ u;\nb, end: player = keeper;\n";

fn stops_quickly(source: &str, expected: &str) {
    let e = engine(source, false);
    let s = e.initial().unwrap();
    let start = std::time::Instant::now();
    let error = e.legal_moves(&s, &mut Vec::new()).unwrap_err();
    assert!(error.message.contains(expected), "{error}");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(15),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn a_branching_tag_cycle_stops_at_the_default_step_limit() {
    stops_quickly(
        &branching_tag_cycle(),
        &format!("move search does not terminate: more than {DEFAULT_STEP_LIMIT} steps (in node "),
    );
}

#[test]
fn an_assignment_cycle_stops_at_the_tag_limit() {
    stops_quickly(
        ASSIGNMENT_CYCLE,
        "move search does not terminate: a move has more than 100000 tags (in node ",
    );
}

#[test]
fn a_move_search_observes_the_deadline() {
    let e = engine(&branching_tag_cycle(), false);
    let s = e.initial().unwrap();
    let start = std::time::Instant::now();
    let error = perft(
        &e,
        &s,
        1,
        &mut Budget::with_time_limit(std::time::Duration::from_millis(200)),
    )
    .unwrap_err();
    assert!(matches!(error, LimitError::Time(_)), "{error}");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(2),
        "took {:?}",
        start.elapsed()
    );
    // The deadline was for that computation only.
    assert_eq!(e.searcher.borrow().deadline, None);
}

/// A game with one variable of type `Bool -> … -> Bool` (`depth` arrows)
/// and initial value `{:{:…0}}`.
fn nested_bool_map(depth: usize) -> String {
    format!(
        "type Player = {{ x }};\ntype Score = {{ 0 }};\nvar m: {}Bool = {}0{};\nbegin, end: player = keeper;\n",
        "Bool -> ".repeat(depth),
        "{:".repeat(depth),
        "}".repeat(depth)
    )
}

#[test]
fn a_state_past_the_slot_limit_is_refused_with_the_limit_named() {
    // 2^200 slots (the product overflows 64 bits) and 2^30 slots: refused,
    // not an overflowed size and a panic.
    for depth in [200, 30] {
        let Err(errors) = Engine::from_source(&nested_bool_map(depth), EngineOptions::default())
        else {
            panic!("a state of 2^{depth} slots was compiled");
        };
        let message = &errors[0].message;
        assert!(
            message.contains("variable m needs more than 67108864 slots")
                && message.contains("EngineOptions::max_state_slots"),
            "{message}"
        );
    }
    // 2^10 slots fit; with a limit of 1000 they do not.
    assert!(Engine::from_source(&nested_bool_map(10), EngineOptions::default()).is_ok());
    let small = EngineOptions {
        max_state_slots: 1000,
        ..EngineOptions::default()
    };
    let errors = Engine::from_source(&nested_bool_map(10), small)
        .err()
        .unwrap();
    assert!(
        errors[0].message.contains("more than 1000 slots"),
        "{errors:?}"
    );
    // The sum of several variables is bounded too.
    let two = "type Player = { x };\ntype Score = { 0 };\nvar a: Bool -> Bool -> Bool -> Bool = {:{:{:0}}};\n\
        var b: Bool -> Bool -> Bool -> Bool = {:{:{:0}}};\nbegin, end: player = keeper;\n";
    let tight = EngineOptions {
        max_state_slots: 12,
        ..EngineOptions::default()
    };
    let errors = Engine::from_source(two, tight).err().unwrap();
    assert!(
        errors[0]
            .message
            .contains("the state needs more than 12 slots"),
        "{errors:?}"
    );
    // Constants likewise.
    let constant = "type Player = { x };\ntype Score = { 0 };\nconst c: Bool -> Bool -> Bool -> Bool -> Bool = {:{:{:{:0}}}};\n\
        begin, end: player = keeper;\n";
    let errors = Engine::from_source(constant, tight).err().unwrap();
    assert!(
        errors[0]
            .message
            .contains("constant c needs more than 12 slots"),
        "{errors:?}"
    );
    let constants = "type Player = { x };\ntype Score = { 0 };\nconst c: Bool -> Bool -> Bool -> Bool = {:{:{:0}}};\n\
        const d: Bool -> Bool -> Bool -> Bool = {:{:{:1}}};\nbegin, end: player = keeper;\n";
    let errors = Engine::from_source(constants, tight).err().unwrap();
    assert!(
        errors[0]
            .message
            .contains("the constant pool needs more than 12 slots"),
        "{errors:?}"
    );
    // Slots are u32 offsets: past 2^32, a game is refused whatever the limit.
    let unbounded = EngineOptions {
        max_state_slots: u64::MAX,
        ..EngineOptions::default()
    };
    let errors = Engine::from_source(&nested_bool_map(40), unbounded)
        .err()
        .unwrap();
    assert!(
        errors[0].message.contains("variable m needs more than"),
        "{errors:?}"
    );
}

const RAY: &str = include_str!("testdata/ray.rg");

fn guarded_nodes(e: &Engine) -> Vec<&str> {
    let p = e.program();
    (0..p.nodes.len())
        .filter(|&k| p.node_info[k].move_guard.is_some())
        .map(|k| p.nodes[k].as_str())
        .collect()
}

#[test]
fn a_ray_loop_checks_visits_only_where_its_square_can_repeat() {
    let e = engine(RAY, false);
    assert_eq!(guarded_nodes(&e), vec!["ray", "empty"]);
    let p = e.program();
    let ray = p.nodes.iter().position(|n| n == "ray").unwrap();
    let guard = &p.visit_guards[p.node_info[ray].move_guard.unwrap() as usize];
    let id = |name: &str| p.symbols.iter().position(|s| s == name).unwrap() as u32;
    let with_pos = |square: &str| {
        let mut values = p.initial.clone();
        values[guard.slot as usize] = id(square);
        values
    };
    // c0..c3 lead off the board; `null` is its own right neighbour.
    for square in ["c0", "c1", "c2", "c3"] {
        assert!(guard.skips(&with_pos(square)), "{square}");
    }
    assert!(!guard.skips(&with_pos("null")));
    assert_eq!(
        list_moves(&e, &e.initial().unwrap()).unwrap(),
        vec!["c1", "c2", "c3"]
    );
}

#[test]
fn a_ray_that_walks_into_the_null_square_still_terminates() {
    // With `board[null] == e` the walk reaches `null` and stays there: the
    // guard must let the visited check run.
    let open = RAY.replace("{ :e, null: null }", "{ :e }");
    let e = engine(&open, false);
    assert_eq!(guarded_nodes(&e), vec!["ray", "empty"]);
    assert_eq!(
        list_moves(&e, &e.initial().unwrap()).unwrap(),
        vec!["c1", "c2", "c3", "null"]
    );
}

#[test]
fn loops_that_branch_or_reset_their_square_keep_plain_visited_checks() {
    // Two loops on one node: walks around it branch.
    assert!(guarded_nodes(&engine(RING_WALK, false)).is_empty());
    // A second write of `pos` on the loop brings the state back: without
    // its check the walk would go round forever.
    let reset = RAY.replace(
        "empty, ray: pos = right[pos];",
        "empty, back: pos = right[pos];\nback, ray: pos = c0;",
    );
    let e = engine(&reset, false);
    assert!(guarded_nodes(&e).is_empty());
    assert_eq!(
        list_moves(&e, &e.initial().unwrap()).unwrap(),
        vec!["c0", "c1"]
    );
    // An any-assignment on the loop branches; both branches meet again.
    let branching = RAY
        .replace(
            "empty, ray: pos = right[pos];",
            "empty, pick: piece = Piece(*);\npick, drop: piece = e;\ndrop, ray: pos = right[pos];",
        )
        .replace("var pos", "var piece: Piece = e;\nvar pos");
    let e = engine(&branching, false);
    assert!(guarded_nodes(&e).is_empty());
    assert_eq!(
        list_moves(&e, &e.initial().unwrap()).unwrap(),
        vec!["c1", "c2", "c3"]
    );
}

const RAY_CHECK: &str = include_str!("testdata/ray_check.rg");

#[test]
fn a_ray_inside_a_check_is_guarded_in_the_reachability_search() {
    let e = engine(RAY_CHECK, false);
    let p = e.program();
    let guarded: Vec<&str> = (0..p.nodes.len())
        .filter(|&k| p.node_info[k].reach_guard.is_some())
        .map(|k| p.nodes[k].as_str())
        .collect();
    assert_eq!(guarded, vec!["s0", "s1", "s2"]);
    // The ray from c0 meets the piece on c3.
    assert_eq!(list_moves(&e, &e.initial().unwrap()).unwrap(), vec!["seen"]);
    // No piece: the ray ends at the blocked `null`; with `null` open it
    // stays there, and the check still terminates.
    for board in ["{ :e, null: null }", "{ :e }"] {
        let source = RAY_CHECK.replace("{ :e, c3: x, null: null }", board);
        let e = engine(&source, false);
        assert!(
            list_moves(&e, &e.initial().unwrap()).unwrap().is_empty(),
            "{board}"
        );
    }
}

/// The least step limit under which the first move search of `source`
/// succeeds.
fn least_step_limit(source: &str) -> u64 {
    let fits = |limit: u64| {
        let e = Engine::from_source(
            source,
            EngineOptions {
                step_limit: limit,
                ..EngineOptions::default()
            },
        )
        .unwrap_or_else(|d| panic!("{d:?}"));
        e.initial()
            .and_then(|s| e.legal_moves(&s, &mut Vec::new()))
            .is_ok()
    };
    let mut limit = 1;
    while !fits(limit) {
        limit += 1;
        assert!(limit < 1000, "no limit below 1000 fits");
    }
    limit
}

/// A check's scan whose square reaches the target through one test is
/// tried square by square in place (`search::scan_test`), counting the
/// steps the search would: the any-assignment's and the test node's per
/// square. The same scan with one more node after the test (no fast
/// path) counts one step more, at the square that passes, and both
/// find the piece on the seventh square.
#[test]
fn scans_in_place_count_the_search_s_steps() {
    let scan = "type Player = { x };\ntype Score = { 0 };\ntype Sq = { a, b, c, d, e, f, g, h };\n\
        var board: Sq -> Sq = { :a, g: b };\nvar pos: Sq = a;\n\
        begin, m: ? r -> t;\nbegin, z: ! r -> t;\nz, end: player = keeper;\n\
        m, n: player = x;\nn, end: player = keeper;\n\
        r, r1: pos = Sq(*);\nr1, t: board[pos] == b;\n";
    let longer = scan.replace(
        "r1, t: board[pos] == b;",
        "r1, r2: board[pos] == b;\nr2, t: ;",
    );
    let (fast, slow) = (least_step_limit(scan), least_step_limit(&longer));
    assert_eq!(fast + 1, slow, "{fast} {slow}");
    let missing = scan.replace("g: b", "g: a");
    let e = engine(&missing, false);
    let s = e.initial().unwrap();
    assert!(e.is_terminal(&s), "no square holds b: the check fails");
}

/// A move search rejects an any-assignment's squares in place
/// (`move_scan`) with the steps the full search counts: per square, the
/// any-assignment's, the tag node's and the test node's, then for each of
/// the two squares that pass the `$ go` node's and the completing node's:
/// 8 + 16 + 2 + 2 = 28. Dropping the chain's steps would give 12.
#[test]
fn move_scans_count_the_search_s_steps() {
    let game = "type Player = { x };\ntype Score = { 0 };\ntype Sq = { a, b, c, d, e, f, g, h };\n\
        var board: Sq -> Sq = { :a, c: b, g: b };\nvar pos: Sq = a;\n\
        begin, pick: player = x;\npick, tagged: pos = Sq(*);\ntagged, test: $$ pos;\n\
        test, own: board[pos] == b;\nown, done: $ go;\ndone, end: player = keeper;\n";
    assert_eq!(least_step_limit(game), 28);
    let e = engine(game, false);
    let s = e.initial().unwrap();
    let mut moves = Vec::new();
    e.legal_moves(&s, &mut moves).unwrap();
    let shown: Vec<String> = moves.iter().map(|m| e.format_move(m)).collect();
    assert_eq!(shown, ["c go", "g go"]);
}

/// A square whose test reads a key outside its map's key type is left
/// to the full search, which reports the fault at the test's node (or,
/// lenient, reads the default); squares before it are still rejected.
#[test]
fn move_scans_leave_faults_to_the_search() {
    let game = "type Player = { x };\ntype Score = { 0 };\ntype K = { a, b };\n\
        var m: K -> K = { :a };\nvar k: { a, b, c } = a;\n\
        begin, pick: player = x;\npick, tagged: k = { a, b, c }(*);\ntagged, test: $$ k;\n\
        test, own: m[k] == b;\nown, end: player = keeper;\n";
    let e = engine(game, false);
    let s = e.initial().unwrap();
    let err = e.legal_moves(&s, &mut Vec::new()).unwrap_err();
    assert!(
        err.message
            .starts_with("invalid access in node test: key c is not in the map's key type"),
        "{err}"
    );
    let lenient = Engine::from_source(
        &game.replace("m[k] == b", "m[k] == a"),
        EngineOptions {
            lenient: true,
            ..EngineOptions::default()
        },
    )
    .unwrap();
    let s = lenient.initial().unwrap();
    let mut moves = Vec::new();
    lenient.legal_moves(&s, &mut moves).unwrap();
    let shown: Vec<String> = moves.iter().map(|m| lenient.format_move(m)).collect();
    assert_eq!(shown, ["a", "b", "c"], "c reads m's default a");
}

/// A check's batched scan (`first_passing`) leaves a key outside the
/// read's key type to the square-by-square scan, which reports it (at
/// the check's node, as for any fault inside a check); before that key
/// it finds a passing square as usual.
#[test]
fn batched_check_scans_leave_faults_to_the_scan() {
    let game = "type Player = { x };\ntype Score = { 0 };\ntype K = { a, b };\n\
        var m: K -> K = { :a };\nvar k: { a, b, c } = a;\n\
        begin, m1: ? r -> t;\nbegin, z: ! r -> t;\nz, end: player = keeper;\n\
        m1, n: player = x;\nn, end: player = keeper;\n\
        r, r1: k = { a, b, c }(*);\nr1, t: m[k] == b;\n";
    let err = engine(game, false).initial().unwrap_err();
    assert!(
        err.message
            .starts_with("invalid access in node begin: key c is not in the map's key type"),
        "{err}"
    );
    let found = engine(&game.replace("{ :a }", "{ :a, b: b }"), false);
    let s = found.initial().unwrap();
    assert!(!found.is_terminal(&s), "m[b] == b passes before c is read");
}

/// A node whose edges are all comparisons is tested at once when its
/// frame is pushed (`NodeInfo::tests_only`); a failing edge still counts
/// its step: 3 edges + 2 steps for each of the two that pass = 7 (6 if
/// the failing edge's step were dropped).
#[test]
fn tested_frames_count_every_edge_s_step() {
    let game = "type Player = { x };\ntype Score = { 0 };\ntype Sq = { a, b, c };\n\
        var v: Sq = b;\nbegin, s: player = x;\n\
        s, t1: v == a;\ns, t2: v == b;\ns, t3: v != c;\n\
        t1, e1: $ one;\nt2, e2: $ two;\nt3, e3: $ three;\n\
        e1, end: player = keeper;\ne2, end: player = keeper;\ne3, end: player = keeper;\n";
    assert_eq!(least_step_limit(game), 7);
    let e = engine(game, false);
    let s = e.initial().unwrap();
    let mut moves = Vec::new();
    e.legal_moves(&s, &mut moves).unwrap();
    let shown: Vec<String> = moves.iter().map(|m| e.format_move(m)).collect();
    assert_eq!(shown, ["two", "three"]);
    // A test that faults is reported when the search reaches it, after
    // the edge before it has been taken.
    let faulting = game
        .replace(
            "var v: Sq = b;",
            "var v: Sq = a;\nvar w: Sq = c;\nvar m: { a, b } -> Sq = { :a };",
        )
        .replace("s, t2: v == b;", "s, t2: m[w] == b;");
    let e = engine(&faulting, false);
    let err = e
        .initial()
        .and_then(|s| e.legal_moves(&s, &mut Vec::new()))
        .unwrap_err();
    assert!(
        err.message
            .starts_with("invalid access in node s: key c is not in the map's key type"),
        "{err}"
    );
}

/// A scanned board of `size` squares with pawns on `pawns`: moves are
/// the pawns' squares (tag `$$ pos`, test, `$ go`). `prelude` goes first
/// (a type that interns some squares out of order makes the board's key
/// table non-contiguous).
fn scanned_board(size: usize, pawns: &[usize], prelude: &str) -> String {
    let squares: Vec<String> = (0..size).map(|k| format!("s{k}")).collect();
    let board: Vec<String> = pawns.iter().map(|k| format!("s{k}: p")).collect();
    format!(
        "{prelude}type Player = {{ x }};\ntype Score = {{ 0 }};\ntype Sq = {{ {} }};\n\
         type Piece = {{ e, p }};\nvar board: Sq -> Piece = {{ {}, :e }};\nvar pos: Sq = s0;\n\
         begin, pick: player = x;\npick, tagged: pos = Sq(*);\ntagged, test: $$ pos;\n\
         test, own: board[pos] == p;\nown, done: $ go;\ndone, end: player = keeper;\n",
        squares.join(", "),
        board.join(", ")
    )
}

/// Scans of more than 64 squares (two windows of the bit set), scans
/// where most squares pass (left to the full search), and boards whose
/// key table is not contiguous all find the pawns' moves with the steps
/// of the full search: per square 3 (the any-assignment's, the tag's, the
/// test's), per move 2 more.
#[test]
fn move_scans_agree_across_windows_and_layouts() {
    let cases: [(usize, Vec<usize>, &str); 4] = [
        (70, vec![3, 63, 64, 69], ""),
        (70, (0..60).collect(), ""),
        (10, vec![0, 9], ""),
        (70, vec![2, 65], "type Early = { s65, s2, s40 };\n"),
    ];
    for (size, pawns, prelude) in cases {
        let game = scanned_board(size, &pawns, prelude);
        let e = engine(&game, false);
        let s = e.initial().unwrap();
        let mut moves = Vec::new();
        e.legal_moves(&s, &mut moves).unwrap();
        let shown: Vec<String> = moves.iter().map(|m| e.format_move(m)).collect();
        let expected: Vec<String> = pawns.iter().map(|k| format!("s{k} go")).collect();
        assert_eq!(shown, expected, "{size} squares, pawns {pawns:?}");
        let steps = 3 * size as u64 + 2 * pawns.len() as u64;
        assert_eq!(
            least_step_limit(&game),
            steps,
            "{size} squares, pawns {pawns:?}"
        );
        let scan = e
            .program()
            .move_scans
            .iter()
            .flatten()
            .next()
            .expect("planned");
        assert_eq!(scan.batch.read.contiguous, prelude.is_empty(), "{prelude}");
    }
}
