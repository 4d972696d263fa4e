//! Compiled perft equals engine perft on the team's RG games.

mod common;

use rg_core::engine::EngineOptions;
use rg_core::model::{perft, Budget, ForwardModel};

fn team_rg(name: &str) -> String {
    std::fs::read_to_string(testkit::team_corpus().join("rg").join(name)).expect("corpus file")
}

#[test]
fn tic_tac_toe_agrees() {
    let e = common::engine(&team_rg("ticTacToe.rg"), EngineOptions::default());
    common::assert_agrees("ticTacToe", &e, 5, &[]);
}

#[test]
fn breakthrough_agrees() {
    let e = common::engine(&team_rg("breakthrough.rg"), EngineOptions::default());
    common::assert_agrees("breakthrough", &e, 3, &[]);
}

/// Generated games (testkit::rg_games) exercising every kind of step the
/// optimizer tests use: map and nested-map reads and writes, constant maps,
/// reachability checks with loops and leaking writes, any-assignments,
/// self-loops, forks, random turns; unoptimized, so the compiler sees the
/// raw constructs.
#[test]
fn generated_games_agree() {
    use testkit::rg_games::{render, Spec, Step};
    let specs = [
        Spec {
            players: 2,
            turns: 3,
            variables: 3,
            branches: vec![
                vec![Step::Test(0, 1), Step::Set(1, 2), Step::Rotate(2, 1)],
                vec![Step::Choose(0), Step::SetMap(0, 2), Step::TestMap(1, 0)],
                vec![
                    Step::SetGrid(0, 1, 2),
                    Step::TestTable(1, 2, 0),
                    Step::Bump(2),
                ],
                vec![Step::Check(true, 1, 2), Step::PureCheck(false, 0, 1, 2, 0)],
                vec![Step::LoopCheck(true, 2, 1, true), Step::Peek(false, 0, 2)],
                vec![Step::SelfLoop(1, 0), Step::Fork(0, 1, 2, 2), Step::Tag(3)],
                vec![Step::Either(2, 1), Step::OneOf(0, 1, 2), Step::Twice(1, 0)],
                vec![
                    Step::SetMapAt(1, 2),
                    Step::TestMapAt(1, 2),
                    Step::Copy(0, 2),
                ],
                vec![Step::Same(0, 1), Step::TestNot(2, 2)],
            ],
            random_turns: true,
            go_tag: true,
        },
        Spec {
            players: 3,
            turns: 4,
            variables: 2,
            branches: vec![
                vec![Step::Choose(1), Step::Check(false, 0, 1)],
                vec![Step::LoopCheck(false, 1, 2, false), Step::SetMap(1, 1)],
                vec![Step::Peek(true, 1, 0), Step::Bump(0), Step::TestMap(0, 2)],
            ],
            random_turns: false,
            go_tag: false,
        },
    ];
    for (k, spec) in specs.iter().enumerate() {
        let source = render(spec);
        let e = common::engine(&source, EngineOptions::default());
        common::assert_agrees(&format!("generated game {k}"), &e, 4, &[]);
    }
}

/// Keeper options reach the reasoner: exposed keeper states (rg.md §6
/// literally) and the first keeper walk.
#[test]
fn keeper_options_agree() {
    let source = team_rg("ticTacToe.rg");
    let exposed = EngineOptions {
        expose_keeper: true,
        ..EngineOptions::default()
    };
    let e = common::engine(&source, exposed);
    common::assert_agrees("ticTacToe exposed", &e, 4, &["--expose-keeper"]);
    let first = EngineOptions {
        first_keeper_walk: true,
        ..EngineOptions::default()
    };
    let e = common::engine(&source, first);
    common::assert_agrees("ticTacToe first walk", &e, 4, &["--first-keeper-walk"]);
}

/// Runtime faults are reported, not panics: a step limit too small for one
/// move generation.
#[test]
fn step_limit_is_enforced() {
    let e = common::engine(&team_rg("breakthrough.rg"), EngineOptions::default());
    let bin = common::binary(&e);
    let error = common::compiled_perft(&bin, 2, &["--step-limit", "10"]).unwrap_err();
    assert!(error.contains("step limit"), "{error}");
}

/// Ray loops whose visited checks have visit guards (rg-core's ray test
/// games: in a move search and in a reachability check, with the `null`
/// square blocked and open): the counts agree, and the reasoner never
/// counts more steps than the engine — it counts only where a search can
/// come back (visited checks it does not skip, other cycles, any-assignment
/// symbols), so its smallest passing step limit is at most the engine's.
#[test]
fn ray_loops_agree_in_counts_and_steps() {
    let ray = include_str!("../../rg-core/src/engine/testdata/ray.rg");
    let check = include_str!("../../rg-core/src/engine/testdata/ray_check.rg");
    // A check that finds its target at the first symbol of its loop,
    // asked for every symbol of the move's loop (connect6's "can the
    // opponent still play" test): counting the check's whole loop at once
    // once made the reasoner count ten times the engine's steps.
    let early_exit = "
        type Player = { one };
        type Score = { 0 };
        type V = { v0, v1, v2, v3, v4, v5, v6, v7, v8, v9 };
        var x: V = v0;
        var y: V = v0;
        begin, s: player = one;
        s, t: x = V(*);
        t, u: ? c -> c_end;
        u, w: $$ x;
        w, end: player = keeper;
        c, c1: y = V(*);
        c1, c_end: y != x;
    ";
    let games = [
        ray.to_string(),
        ray.replace("{ :e, null: null }", "{ :e }"),
        check.to_string(),
        check.replace("{ :e, c3: x, null: null }", "{ :e }"),
        early_exit.to_string(),
    ];
    for (k, source) in games.iter().enumerate() {
        let name = format!("ray game {k}");
        let e = common::engine(source, EngineOptions::default());
        if k < 4 {
            assert!(!e.program().visit_guards.is_empty(), "{name} has a guard");
        }
        common::assert_agrees(&name, &e, 3, &[]);
        let engine_limit = smallest_limit(|limit| engine_passes(source, 3, limit));
        let bin = common::binary(&e);
        let compiled_limit = smallest_limit(|limit| {
            match common::compiled_perft(&bin, 3, &["--step-limit", &limit.to_string()]) {
                Ok(_) => true,
                Err(error) => {
                    assert!(error.contains("step limit"), "{name}: {error}");
                    false
                }
            }
        });
        assert!(
            compiled_limit <= engine_limit,
            "{name}: reasoner limit {compiled_limit}, engine limit {engine_limit}"
        );
    }
}

/// A move search around a cycle that emits a tag never ends (the game has
/// infinitely many moves): the reasoner stops with an error, as the engine
/// does, instead of running forever.
#[test]
fn endless_tag_cycle_is_stopped() {
    let source = "
        type Player = { one };
        type Score = { 0 };
        begin, a: player = one;
        a, b: $ t;
        b, a: ;
        b, end: player = keeper;
    ";
    let e = common::engine(source, EngineOptions::default());
    let bin = common::binary(&e);
    let error = common::compiled_perft(&bin, 1, &[]).unwrap_err();
    assert!(
        error.contains("does not terminate"),
        "the reasoner reports the endless search: {error}"
    );
}

/// Walks that emit more tags than the engine allows stop with its error,
/// also where their loops' visited checks are dropped (found in review):
/// a keeper's tagged loop that never ends (`games/keeper_tag_loop.rg`:
/// run in place, it recursed forever) and one that ends after 120,000
/// tags (two counters of 400 and 300 values: untracked, its tags went
/// uncounted and the move was made). Both builds, with and without the
/// first keeper walk.
#[test]
fn walks_stop_at_the_engine_s_tag_limit() {
    let counter = |name: &str, n: usize| {
        let values: Vec<String> = (0..n).map(|k| format!("{name}{k}")).collect();
        let next: Vec<String> = (0..n - 1)
            .map(|k| format!("{name}{k}: {name}{}", k + 1))
            .collect();
        format!(
            "type {0} = {{ {1} }};\nconst {name}next: {0} -> {0} = {{ :{name}0, {2} }};\nvar {name}: {0} = {name}0;",
            name.to_uppercase(),
            values.join(", "),
            next.join(", ")
        )
    };
    let long = format!(
        "type Player = {{ one }};
        type Score = {{ 0 }};
        {}
        {}
        begin, p: player = one;
        p, p1: $ go;
        p1, k0: player = keeper;
        k0, k1: b = bnext[b];
        k1, k1t: b != b0;
        k1t, k0: $ t;
        k1, k2: b == b0;
        k2, k3: a = anext[a];
        k3, k3t: a != a0;
        k3t, k0: $ u;
        k3, k4: a == a0;
        k4, end: player = keeper;",
        counter("a", 400),
        counter("b", 300)
    );
    for source in [include_str!("games/keeper_tag_loop.rg").to_string(), long] {
        let e = common::engine(&source, EngineOptions::default());
        let initial = e.initial().expect("initial state");
        let engine =
            rg_core::model::perft(&e, &initial, 2, &mut rg_core::model::Budget::unlimited());
        let message = engine.map(|_| ()).unwrap_err().to_string();
        assert!(message.contains("more than 100000 tags"), "{message}");
        for build in [rg_compiled::Build::Speed, rg_compiled::Build::Quick] {
            let bin = common::binary_with(&e, build);
            for extra in [&[][..], &["--first-keeper-walk"]] {
                let error = common::compiled_perft(&bin, 2, extra).unwrap_err();
                assert!(
                    error.contains("too many tags"),
                    "{build:?} {extra:?}: {error}"
                );
            }
        }
    }
}

/// Whether the engine's perft to `depth` succeeds under `step_limit`.
fn engine_passes(source: &str, depth: u32, step_limit: u64) -> bool {
    use rg_core::model::{perft, Budget, ForwardModel};
    let options = EngineOptions {
        step_limit,
        ..EngineOptions::default()
    };
    let e = common::engine(source, options);
    e.initial().is_ok_and(|initial| {
        (0..=depth).all(|d| perft(&e, &initial, d, &mut Budget::unlimited()).is_ok())
    })
}

/// The smallest step limit that `passes` (which must be monotone).
fn smallest_limit(passes: impl Fn(u64) -> bool) -> u64 {
    let (mut low, mut high) = (1, 10_000);
    assert!(passes(high));
    while low < high {
        let mid = (low + high) / 2;
        if passes(mid) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    low
}

/// Walks that emit the same tags are one move: counted once at the last
/// ply and descended into once above it (a risky branch), as the engine
/// does; the same tags leading to different states are an ambiguous move
/// at inner plies, reported by both.
#[test]
fn equal_tag_walks_are_one_move() {
    let same = "
        type Player = { one, two };
        type Score = { 0 };
        var n: Score = 0;
        begin, a: player = one;
        a, b: $ go;
        a, c: $ go;
        b, d: ;
        c, d: ;
        d, e: $ on;
        d, e: $ on;
        e, begin2: player = two;
        begin2, f: $ back;
        begin2, f: $ forth;
        f, a: player = one;
        a, end: player = keeper;
    ";
    let e = common::engine(same, EngineOptions::default());
    common::assert_agrees("equal tags, equal states", &e, 4, &[]);

    let ambiguous = "
        type Player = { one, two };
        type Score = { 0, 1 };
        var n: Score = 0;
        begin, a: player = one;
        a, b: $ go;
        a, c: $ go;
        b, d: n = 0;
        c, d: n = 1;
        d, begin2: player = two;
        begin2, f: $ back;
        f, a: player = one;
        a, end: player = keeper;
    ";
    let e = common::engine(ambiguous, EngineOptions::default());
    let bin = common::binary(&e);
    let error = common::compiled_perft(&bin, 2, &[]).unwrap_err();
    assert!(error.contains("ambiguous move"), "{error}");
    assert_eq!(
        common::compiled_perft(&bin, 1, &[]).expect("the last ply only counts tags"),
        common::engine_perft(&e, 1)
    );
}

/// A keeper with two walks to the same state has one move; with walks to
/// different states its move is ambiguous (unless the first walk is
/// taken, RBG's rule).
#[test]
fn keeper_walks_are_checked_unless_the_first_is_taken() {
    let same = "
        type Player = { one };
        type Score = { 0, 1 };
        var n: Score = 0;
        begin, k: ;
        k, k1: ;
        k, k2: ;
        k1, a: player = one;
        k2, a: player = one;
        a, b: $ go;
        b, c: n = 1;
        c, end: player = keeper;
    ";
    let e = common::engine(same, EngineOptions::default());
    common::assert_agrees("keeper walks to one state", &e, 2, &[]);

    let different = same.replace(
        "k2, a: player = one;",
        "k2, x: n = 1;\n        x, a: player = one;",
    );
    let e = common::engine(&different, EngineOptions::default());
    let bin = common::binary(&e);
    let error = common::compiled_perft(&bin, 1, &[]).unwrap_err();
    assert!(
        error.contains("keeper had 2 moves") || error.contains("ambiguous"),
        "{error}"
    );
    let first = EngineOptions {
        first_keeper_walk: true,
        ..EngineOptions::default()
    };
    let e = common::engine(&different, first);
    common::assert_agrees("first keeper walk", &e, 2, &["--first-keeper-walk"]);
}

/// Generated games (`testkit::rg_games::random_spec`), optimized as
/// `--via compiled` does, against the engine on the same program: 12 fixed
/// seeds here; `RGW_RANDOM_GAMES=N` (or `A..B`) checks seeds 0..N (A..B)
/// instead (a by-hand run, recorded in docs/compiled.md).
#[test]
fn random_games_agree() {
    use testkit::rg_games::{random_spec, render};
    let seeds: Vec<u64> = match std::env::var("RGW_RANDOM_GAMES") {
        Ok(range) => match range.split_once("..") {
            Some((from, to)) => {
                (from.parse().expect("a number")..to.parse().expect("a number")).collect()
            }
            None => (0..range.parse().expect("a number")).collect(),
        },
        Err(_) => (0..12).map(|k| k * 7919 + 13).collect(),
    };
    for seed in seeds {
        let source = render(&random_spec(seed));
        let game = rg_core::parse::parse_game(&source).expect("parses");
        let passes = rg_core::opt::default_pipeline();
        let game = rg_core::opt::optimize(&game, &passes, &mut |_| {});
        let optimized = rg_core::print::print_game(&game);
        let e = common::engine(&optimized, EngineOptions::default());
        common::assert_agrees(&format!("random game {seed}"), &e, 3, &[]);
    }
}

/// The generation for large games (`Build::Quick`: lighter optimization,
/// no forced inlining, checks' targets as arguments) counts the same, on
/// games with checks, visited sets and keeper moves.
#[test]
fn quick_builds_agree() {
    let ray_check = include_str!("../../rg-core/src/engine/testdata/ray_check.rg");
    let games = [
        ("breakthrough", team_rg("breakthrough.rg")),
        ("ray check", ray_check.to_string()),
    ];
    for (name, source) in games {
        let e = common::engine(&source, EngineOptions::default());
        let bin = common::binary_with(&e, rg_compiled::Build::Quick);
        let compiled =
            common::compiled_perft(&bin, 3, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            compiled,
            common::engine_perft(&e, 3),
            "{name}: quick build vs engine"
        );
    }
}

/// A keeper move with tags, whose search opens a risky branch after its
/// first tag and stops at its first walk, nested below a player's search
/// that records its own tags (a risky branch too): the stop must not
/// disturb the player's tags, or equal moves stop being merged.
#[test]
fn stopped_keeper_search_keeps_the_outer_tags() {
    // As in the optimizer's output, the two ways are declared disjoint
    // (else the node is a branch the distinctness proof may not settle).
    let source = "
        @disjointExhaustive k0 : k1 k7;
        type Player = { one, two };
        type Score = { 0 };
        begin, a: player = one;
        a, b: $ go;
        a, b2: $ go;
        b, c: ;
        b2, c: ;
        c, k: player = keeper;
        k, k1: $ kt;
        k1, k2: ;
        k1, k3: ;
        k2, k4: $ x;
        k3, k4: $ x;
        k4, t: player = two;
        t, t1: $ back;
        t, t2: $ forth;
        t1, a: player = one;
        t2, a: player = one;
        a, end: player = keeper;
    ";
    for (options, flags) in [
        (EngineOptions::default(), &[][..]),
        (
            EngineOptions {
                first_keeper_walk: true,
                ..EngineOptions::default()
            },
            &["--first-keeper-walk"][..],
        ),
    ] {
        let e = common::engine(source, options);
        common::assert_agrees("stopped keeper search", &e, 5, flags);
    }
}

/// A move search around a cycle that writes two variables keeps a hashed
/// visited set; with 300 more symbols and a 300-entry map the hash
/// contributions are computed rather than tabulated (the writes then
/// update the hash out of line). Both builds agree with the engine.
#[test]
fn computed_hashes_agree() {
    let pads: Vec<String> = (0..300).map(|k| format!("p{k}")).collect();
    let source = format!(
        "
        type Player = {{ one }};
        type Score = {{ 0 }};
        type Cell = {{ c0, c1, c2, c3, null }};
        type Piece = {{ e, x, null }};
        type Pad = {{ {} }};
        const right: Cell -> Cell = {{ :null, c0: c1, c1: c2, c2: c3 }};
        var board: Cell -> Piece = {{ :e }};
        var pad: Pad -> Pad = {{ :p0 }};
        var probe: Cell = c0;
        var other: Cell = c0;
        begin, m: player = one;
        m, s0: board[c3] == e;
        m, fin: board[c3] == x;
        fin, end: player = keeper;
        s0, s1: probe = right[probe];
        s1, s2: other = probe;
        s2, s0: board[probe] == e;
        s2, t: board[probe] == e;
        t, u: $$ probe;
        u, w: pad[p7] = p3;
        w, v: board[probe] = x;
        v, m: player = one;
    ",
        pads.join(", ")
    );
    let e = common::engine(&source, EngineOptions::default());
    let expected = common::engine_perft(&e, 3);
    assert!(
        expected[1] > 1,
        "the cycle yields several moves: {expected:?}"
    );
    common::assert_both_builds(&e, 3, &expected, "s.write(", "hashed writes");
}

/// A check that tries every symbol for a map entry and finds its target
/// at once (the compare after the assignment is fused into the loop):
/// the entry it wrote must be restored when the target is found. And a
/// first keeper walk that stops inside such a loop, nested in perft below
/// a player's move, must leave the values as they were for the player's
/// next alternative.
#[test]
fn found_and_stopped_loops_restore_what_they_wrote() {
    let types = "
        type Player = { one };
        type Score = { 0 };
        type Piece = { e, x };
        type Cell = { a, b };
    ";
    let check = types.to_string()
        + "
        var board: Cell -> Piece = { :e };
        begin, s: player = one;
        s, t: ? c -> c_end;
        t, u: board[a] == e;
        u, w: $ go;
        w, s: player = one;
        t, fin: board[a] == x;
        fin, end: player = keeper;
        c, c1: board[a] = Piece(*);
        c1, c_end: board[a] == x;
    ";
    let e = common::engine(&check, EngineOptions::default());
    assert_eq!(common::engine_perft(&e, 3), vec![1, 1, 1, 1]);
    common::assert_agrees("check loop", &e, 3, &[]);
    let keeper = types.to_string()
        + "
        var mark: Cell -> Piece = { :x };
        begin, s: player = one;
        s, t1: $ first;
        t1, k: player = keeper;
        s, t2: mark[a] == x;
        t2, t3: $ second;
        t3, k: player = keeper;
        k, k1: mark[a] = Piece(*);
        k1, k2: mark[a] == e;
        k2, s: player = one;
        k, fin: mark[b] == e;
        fin, end: player = keeper;
    ";
    let e = common::engine(&keeper, EngineOptions::default());
    assert_eq!(common::engine_perft(&e, 2), vec![1, 2, 2]);
    common::assert_agrees("stopped keeper loop", &e, 3, &["--first-keeper-walk"]);
}

/// Playouts take the keeper's first walk with its state left in place (not
/// copied out and back): in a game with one move per ply and a keeper with
/// three walks to different states, the playout's final goals read what
/// the first walk wrote, as the engine's do.
#[test]
fn playouts_keep_the_first_keeper_walk_in_place() {
    let source = "
        type Player = { one };
        type Score = { 0, 1, 2, 3 };
        type N = { n0, n1, n2, n3 };
        const next: N -> N = { :n3, n0: n1, n1: n2, n2: n3 };
        const score: N -> Score = { :0, n1: 1, n2: 2, n3: 3 };
        var c: N = n0;
        var m: N -> N = { :n2 };
        begin, s: player = one;
        s, t: $ go;
        t, k: player = keeper;
        k, k1: m[n1] = N(*);
        k1, k2: m[n1] != n3;
        k2, k3: c = next[c];
        k3, k4: c != n3;
        k4, s: player = one;
        k3, k5: c == n3;
        k5, k6: goals[one] = score[m[n1]];
        k6, end: player = keeper;
    ";
    let options = EngineOptions {
        first_keeper_walk: true,
        ..EngineOptions::default()
    };
    let e = common::engine(source, options);
    // The engine's playout: the only move of every ply.
    let (_, goals) = common::engine_first_moves(&e);
    assert_eq!(goals, vec![0], "the first walk writes n0");
    let bin = common::binary(&e);
    let (text, sums) = common::playouts(&bin, 3, 1, &["--first-keeper-walk"]);
    assert!(text.contains("\"moves\":9,"), "{text}");
    assert_eq!(sums, vec![0.0], "{text}");
}

/// Four squares in a row; the player marks an empty one, and the keeper's
/// turn asks `? c0` (a copy of its walk) and marks the square: the start
/// of the fused-check tests' games.
const KEEPER_PLACES: &str = "
        type Piece = { e, x, null };
        type Square = { a, b, c, d };
        type SquareOrNull = { null, a, b, c, d };
        const right: SquareOrNull -> SquareOrNull = { :null, a: b, b: c, c: d };
        var board: SquareOrNull -> Piece = { :e, null: null };
        var sq: SquareOrNull = a;
        begin, p0: player = one;
        p0, n1: sq = Square(*);
        n1, n2: board[sq] == e;
        n2, n3: $$ sq;
        n3, k0: player = keeper;
        k0, k1: ? c0 -> c3;
        k0, k7: ! c0 -> c3;
        k1, k2: board[sq] = x;";

/// A keeper's turn as the RBG translation writes it: `? c0` copies the
/// walk from `k1`, and fails when the square has no right neighbour (the
/// game then ends through `! c0`). The reasoner walks on instead of asking
/// the check, and must count the same as the engine on both ways.
#[test]
fn fused_keeper_checks_agree() {
    // As in the optimizer's output, the two ways are declared disjoint
    // (else the node is a branch the distinctness proof may not settle).
    let source = &format!(
        "
        @disjointExhaustive k0 : k1 k7;
        type Player = {{ one, two }};
        type Score = {{ 0, 1 }};
        {KEEPER_PLACES}
        k2, k6: right[sq] != null;
        k6, k3: sq = right[sq];
        k3, k4: ? r0 -> r1;
        k3, k5: ! r0 -> r1;
        k4, p0: player = one;
        k5, end: player = keeper;
        k7, end: player = keeper;
        c0, c1: board[sq] = x;
        c1, c2: right[sq] != null;
        c2, c3: sq = right[sq];
        r0, r1: board[sq] == e;
    "
    );
    let e = common::engine(source, EngineOptions::default());
    let expected = common::engine_perft(&e, 4);
    common::assert_both_builds(
        &e,
        4,
        &expected,
        "let w = s.walks;",
        "the keeper's check is fused",
    );
}

/// A move search's check copying the walk after it, where the walk counts
/// what it places (a variable the check leaves out, as reversi's piece
/// counters) and may still fail after the check's end (the square to the
/// right must be empty). The reasoner walks on and, when no move
/// completed, still tests `! c0`: taking the other way then would count
/// moves the engine does not have.
#[test]
fn fused_checks_retest_when_the_walk_may_fail_after_them() {
    let source = "
        @disjointExhaustive k0 : k1 k5;
        type Player = { one };
        type Score = { 0 };
        type Piece = { e, x, null };
        type Square = { a, b, c, d };
        type SquareOrNull = { null, a, b, c, d };
        const right: SquareOrNull -> SquareOrNull = { :null, a: b, b: c, c: d };
        const next: Square -> Square = { :a, a: b, b: c, c: d };
        var board: SquareOrNull -> Piece = { :e, null: null };
        var sq: SquareOrNull = a;
        var count: Square = a;
        begin, p0: player = one;
        p0, n1: sq = Square(*);
        n1, k0: board[sq] == e;
        k0, k1: ? c0 -> c3;
        k0, k5: ! c0 -> c3;
        k1, k1a: board[sq] = x;
        k1a, k2: count = next[count];
        k2, k6: right[sq] != null;
        k6, k3: sq = right[sq];
        k3, k4: board[sq] == e;
        k4, n4: $$ sq;
        n4, p0: player = one;
        k5, n5: $ last;
        n5, end: player = keeper;
        c0, c1: board[sq] = x;
        c1, c2: right[sq] != null;
        c2, c3: sq = right[sq];
    ";
    let e = common::engine(source, EngineOptions::default());
    let expected = common::engine_perft(&e, 4);
    assert!(expected[4] > 0, "{expected:?}");
    common::assert_both_builds(
        &e,
        4,
        &expected,
        "    if s.walks == w {\n",
        "the check is fused and retested",
    );
}

/// Two games where the walk's extra assignment is not silent, as `? P`
/// and the walk after it are fused (found in review; optimized as
/// `--via compiled` does): a nested check past the outer check's end reads
/// the assigned count, and a map write that faults where the check fails
/// (the engine never walks there). Neither is fused; the counts agree.
#[test]
fn fused_checks_keep_the_engine_s_course() {
    let games = [
        (
            "nested check reads",
            include_str!("games/nested_check_reads.rg"),
            4,
        ),
        ("faulting write", include_str!("games/faulting_write.rg"), 4),
    ];
    for (name, source, depth) in games {
        let game = rg_core::parse::parse_game(source).expect("parses");
        let passes = rg_core::opt::default_pipeline();
        let game = rg_core::opt::optimize(&game, &passes, &mut |_| {});
        let e = common::engine(&rg_core::print::print_game(&game), EngineOptions::default());
        common::assert_agrees(name, &e, depth, &[]);
    }
}

/// A keeper's turn whose walk passes a join (two tests that may both
/// hold, as reversi's rays rejoin after flipping or not): a move search
/// keeps a visited check there, so only the keeper walk run in place,
/// which makes none, fuses the check. Both agree with the engine.
#[test]
fn keeper_walks_in_place_fuse_checks_across_joins() {
    let source = format!(
        "
        @disjointExhaustive k0 : k1 k7;
        type Player = {{ one }};
        type Score = {{ 0 }};
        {KEEPER_PLACES}
        k2, k3: sq != d;
        k2, k3: sq != a;
        k3, t0: ;
        WALK_CHAIN
        t25, k6: right[sq] != null;
        k6, k4: sq = right[sq];
        k4, p0: player = one;
        k7, end: player = keeper;
        c0, c2: board[sq] = x;
        c2, c3a: sq != d;
        c2, c3a: sq != a;
        c3a, u0: ;
        CHECK_CHAIN
        u25, c4: right[sq] != null;
        c4, c3: sq = right[sq];
    "
    );
    // A long way after the join: the engine keeps a visited check there.
    let chain = |x: &str| -> String {
        let links: Vec<String> = (0..25)
            .map(|k| format!("{x}{k}, {x}{}: ;", k + 1))
            .collect();
        links.join("\n        ")
    };
    let source = &source
        .replace("WALK_CHAIN", &chain("t"))
        .replace("CHECK_CHAIN", &chain("u"))[..];
    let first = EngineOptions {
        first_keeper_walk: true,
        ..EngineOptions::default()
    };
    let e = common::engine(source, first);
    let program = e.program();
    let k3 = program.nodes.iter().position(|n| n == "k3").expect("k3");
    assert!(
        program.node_info[k3].visit_in_move,
        "the join keeps a check"
    );
    let expected = common::engine_perft(&e, 4);
    assert!(expected[4] > 0, "{expected:?}");
    let krate = rg_compiled::generate(program);
    let game = common::game_source(&krate);
    let fused: Vec<&str> = game
        .split("pub(crate) fn ")
        .filter(|f| f.contains("let w = s.walks;"))
        .collect();
    assert!(
        !fused.is_empty() && fused.iter().all(|f| f.starts_with('k')),
        "only the keeper walk's function is fused: {fused:?}"
    );
    common::assert_builds_count(&e, 4, &expected, &["--first-keeper-walk"]);
    let searched = common::engine(source, EngineOptions::default());
    let expected = common::engine_perft(&searched, 4);
    common::assert_builds_count(&searched, 4, &expected, &[]);
}

/// Playouts draw each distinct move with the same probability: one ply of
/// seven moves, one of them reached by two walks (the same move twice,
/// which must count once), scoring the move's number and its square. Over
/// 70,000 playouts the means are 3 and 13 within six standard deviations
/// (a sampler biased to the first or last moves, or counting the doubled
/// move twice, is far outside).
#[test]
fn playouts_sample_moves_uniformly() {
    let source = "
        type Player = { one, two };
        type Score = { 0, 1, 2, 3, 4, 5, 6, 9, 16, 25, 36 };
        type K = { k0, k1, k2, k3, k4, k5, k6 };
        const value: K -> Score = { :0, k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6 };
        const square: K -> Score = { :0, k1: 1, k2: 4, k3: 9, k4: 16, k5: 25, k6: 36 };
        var k: K = k0;
        begin, s: player = one;
        s, a: k = K(*);
        s, a2: k = k0;
        a, b: $$ k;
        a2, b: $$ k;
        b, c: goals[one] = value[k];
        c, d: goals[two] = square[k];
        d, end: player = keeper;
    ";
    let e = common::engine(source, EngineOptions::default());
    assert_eq!(common::engine_perft(&e, 1), vec![1, 7]);
    let n = 70_000.0;
    let (text, sums) = common::playouts(&common::binary(&e), 70_000, 5, &[]);
    assert!(text.contains("\"branching\":490000,"), "{text}");
    let (mean, mean_square) = (sums[0] / n, sums[1] / n);
    // Standard deviations of the means: 2/√n and √156/√n.
    assert!((mean - 3.0).abs() < 6.0 * 2.0 / n.sqrt(), "{text}");
    assert!(
        (mean_square - 13.0).abs() < 6.0 * 156f64.sqrt() / n.sqrt(),
        "{text}"
    );
}

/// A sampled move whose walk writes two slots of a larger state keeps just
/// those two (`KEPT` in the generated code) and puts both into the next
/// state: the goal reads both, 2 when the choice was `y`, and would be 1
/// had the second slot been left at its start value.
#[test]
fn playouts_keep_the_slots_a_move_writes() {
    let source = "
        type Player = { one };
        type Score = { 0, 1, 2 };
        type B = { x, y };
        const score: B -> B -> Score = { :{ :0 }, y: { :1, y: 2 } };
        var pad: B -> B -> B -> B = { :{ :{ :x } } };
        var a: B = x;
        var b: B = x;
        begin, s: player = one;
        s, s1: a = B(*);
        s1, s2: b = a;
        s2, t: $$ b;
        t, k: player = keeper;
        k, k1: goals[one] = score[a][b];
        k1, end: player = keeper;
    ";
    let e = common::engine(source, EngineOptions::default());
    let game = rg_compiled::generate(e.program());
    assert!(
        common::game_source(&game).contains("Some(&KEPT"),
        "the move keeps few slots"
    );
    let (text, sums) = common::playouts(&common::binary(&e), 1000, 3, &[]);
    let sum = sums[0] as u64;
    // About 500 playouts choose y, each scoring 2 (1 if `b` were lost).
    assert!(sum.is_multiple_of(2) && sum > 800, "{text}");
}

/// Scans for a square holding one of two pieces, in moves and in a check,
/// skip the squares holding neither before writing them; the counts are
/// the engine's.
#[test]
fn prefiltered_scans_agree() {
    let e = common::engine(include_str!("games/scan.rg"), EngineOptions::default());
    // Four moves in all (demote the king, then remove three men), in any
    // order the board allows: 4!/2 orders.
    assert_eq!(common::engine_perft(&e, 5), vec![1, 3, 7, 12, 12, 0]);
    common::assert_agrees("scan game", &e, 5, &[]);
}

/// A scan whose squares must pass a check that first steps to a
/// neighbour and tests for a y: the squares with no y beside them are
/// dropped by a filter of shifted masks (`analysis::neighbor_filter`),
/// and the neighbours outside the scan are tested one by one. Without
/// those tests (s1's y beside s2), the first ply would have two moves.
#[test]
fn neighbor_filtered_scans_agree() {
    let e = common::engine(include_str!("games/neighbors.rg"), EngineOptions::default());
    let expected = common::engine_perft(&e, 7);
    assert_eq!(expected, vec![1, 3, 6, 12, 24, 32, 16, 0]);
    common::assert_both_builds(
        &e,
        7,
        &expected,
        "} else { 0 }) | (if u32::from(s.v[",
        "the scan's mask is filtered, with the outside neighbours tested",
    );
}

/// A one-player game on a line of six squares holding `pieces` (the
/// off-board square holds an x): a move puts an x on an empty square from
/// which the check `r0 -> rt`, given by `check`, holds, or takes a y's
/// square and ends the game.
fn line_check_game(pieces: &str, check: &str) -> String {
    format!(
        "
        type Player = {{ one }};
        type Score = {{ 0 }};
        type Piece = {{ e, x, y }};
        type Sq = {{ null, s1, s2, s3, s4, s5, s6 }};
        const right: Sq -> Sq = {{ :null, s1: s2, s2: s3, s3: s4, s4: s5, s5: s6 }};
        const left: Sq -> Sq = {{ :null, s2: s1, s3: s2, s4: s3, s5: s4, s6: s5 }};
        var board: Sq -> Piece = {{ :e, {pieces}, null: x }};
        var pos: Sq = s1;
        begin, p: player = one;
        p, p1: pos = Sq(*);
        p1, p2: board[pos] == e;
        p2, p3: ? r0 -> rt;
        p3, p4: board[pos] = x;
        p4, p5: $$ pos;
        p5, p: player = one;
        p1, q: board[pos] == y;
        q, q1: $$ pos;
        q1, end: player = keeper;
        {check}"
    )
}

/// Checks whose walks write only the square may leave it changed on the
/// way back (`gen::clobbers`): a node trying a ray to the right and then
/// one to the left must put the square back between them, and the check
/// must leave it as it was for the move's write after it. A move is legal
/// where a `y` is in sight across empty squares on either side (or,
/// choosing the `y`, ends the game); from `s4` the right ray runs off the
/// board, so a left ray starting where the right one ended would miss the
/// `y` at `s1`.
#[test]
fn checks_that_leave_their_square_changed_agree() {
    let source = line_check_game(
        "s1: y",
        "r0, ra: pos = right[pos];
        ra, ra1: board[pos] == e;
        ra1, ra: pos = right[pos];
        ra, rt: board[pos] == y;
        r0, rl: pos = left[pos];
        rl, rl1: board[pos] == e;
        rl1, rl: pos = left[pos];
        rl, rt: board[pos] == y;",
    );
    let e = common::engine(&source, EngineOptions::default());
    let expected = common::engine_perft(&e, 4);
    // Five squares see the y, then those between it and the x do.
    assert_eq!(expected[..3], [1, 6, 15], "{expected:?}");
    common::assert_both_builds(
        &e,
        4,
        &expected,
        "d, nv)",
        "the check's ray nodes pass the square on in a register, never stored",
    );
}

/// A ray whose squares a nested check tests: the ray's functions must
/// store the square they step to, since the nested check reads it from
/// the state (`registers_only` excludes them). Stale, the nested check
/// would test the start square, which never holds the y.
#[test]
fn nested_checks_read_the_square_a_ray_stepped_to() {
    let source = line_check_game(
        "s6: y",
        "r0, ra: pos = right[pos];
        ra, ra1: board[pos] == e;
        ra1, ra: pos = right[pos];
        ra, rt: ? n0 -> nt;
        n0, nt: board[pos] == y;",
    );
    let e = common::engine(&source, EngineOptions::default());
    let expected = common::engine_perft(&e, 3);
    // The five squares left of the y see it, or the y's square ends.
    assert_eq!(expected[..2], [1, 6], "{expected:?}");
    common::assert_both_builds(
        &e,
        3,
        &expected,
        "] = nv as Val;",
        "the ray's nodes store the square for the nested check",
    );
}

/// A scan for a rare piece (one king on 19 squares: four SSE2 comparisons
/// and three squares after them) visits the squares holding it
/// (`Search::mask_in`), in the move search and in checks, one of which
/// targets the test's own node (found at the first square). The king
/// walks over every square, so it is found at every place in and after
/// the blocks of four.
#[test]
fn sparse_scans_agree() {
    let source = "
        type Player = { one };
        type Score = { 0 };
        type Piece = { e, k, m };
        type Sq = { s1, s2, s3, s4, s5, s6, s7, s8, s9, s10,
                    s11, s12, s13, s14, s15, s16, s17, s18, s19 };
        var board: Sq -> Piece = { :e, s3: k, s7: m, s8: m };
        var sq: Sq = s1;
        var dst: Sq = s1;
        begin, p: player = one;
        p, n1: sq = Sq(*);
        n1, n2: board[sq] == k;
        n2, n3: dst = Sq(*);
        n3, n4: board[dst] == e;
        n4, n5: board[sq] = e;
        n5, n6: board[dst] = k;
        n6, n7: $$ dst;
        n7, n8: ? c0 -> c3;
        n8, n9: ? c0 -> c1;
        n9, p: player = one;
        n7, n10: ! c0 -> c3;
        n10, end: player = keeper;
        c0, c1: sq = Sq(*);
        c1, c2: board[sq] == k;
        c2, c3: sq != s1;
    ";
    let e = common::engine(source, EngineOptions::default());
    let expected = common::engine_perft(&e, 3);
    // 16 empty squares; on s1 the game ends.
    assert_eq!(expected[1], 16, "{expected:?}");
    common::assert_both_builds(
        &e,
        3,
        &expected,
        "s.mask_in(",
        "the king's scans are masked",
    );
}

/// Board scans test up to 64 squares at once into a bitmask and visit its
/// set bits (`Search::mask_in`): on a board of 70 squares (a block of 64 and
/// one of 6), for squares that are not empty (a negated test, few squares
/// pass), in the move search and in the checks after it ("a piece is
/// left", and one whose target is the test's node, found at the first
/// square). The moves empty a square, so the pieces left are spread over
/// both blocks, and the game ends when none is left. The counts are the
/// engine's.
#[test]
fn masked_scans_agree() {
    let squares: Vec<String> = (1..=70).map(|k| format!("q{k}")).collect();
    let pieces: Vec<String> = [2, 5, 63, 64, 65, 66, 70]
        .iter()
        .map(|k| format!("q{k}: x"))
        .collect();
    let source = format!(
        "
        type Player = {{ one }};
        type Score = {{ 0 }};
        type Piece = {{ e, x }};
        type Sq = {{ {} }};
        var board: Sq -> Piece = {{ :e, {} }};
        var sq: Sq = q1;
        begin, p: player = one;
        p, n1: sq = Sq(*);
        n1, n2: board[sq] != e;
        n2, n3: board[sq] = e;
        n3, n4: $$ sq;
        n4, n5: ? c0 -> c2;
        n5, n6: ? c0 -> c1;
        n6, p: player = one;
        n4, n7: ! c0 -> c2;
        n7, end: player = keeper;
        c0, c1: sq = Sq(*);
        c1, c2: board[sq] != e;
        ",
        squares.join(", "),
        pieces.join(", ")
    );
    let e = common::engine(&source, EngineOptions::default());
    let expected = common::engine_perft(&e, 4);
    // Seven pieces, one fewer each move.
    assert_eq!(expected, [1, 7, 42, 210, 840]);
    let krate = rg_compiled::generate(e.program());
    let masks = common::game_source(&krate).matches("!s.mask_in(").count();
    assert!(
        masks >= 2,
        "the move search and the check are masked: {masks}"
    );
    common::assert_both_builds(&e, 4, &expected, "!s.mask_in(", "the scans are masked");
}

/// A scan for either of two pieces tests both in one mask
/// (`Search::mask_in`): on 70 squares, pieces in the blocks of sixteen
/// (2, 5, 17, 63, 64), in the block of four after them (65, 66) and in
/// the squares after that (70). The counts are the engine's.
#[test]
fn two_piece_masks_agree() {
    let squares: Vec<String> = (1..=70).map(|k| format!("q{k}")).collect();
    let pieces: Vec<String> = [
        (2, 'k'),
        (5, 'm'),
        (17, 'k'),
        (63, 'm'),
        (64, 'k'),
        (65, 'm'),
        (66, 'k'),
        (70, 'm'),
    ]
    .iter()
    .map(|(k, piece)| format!("q{k}: {piece}"))
    .collect();
    let source = format!(
        "
        type Player = {{ one }};
        type Score = {{ 0 }};
        type Piece = {{ e, k, m }};
        type Sq = {{ {} }};
        var board: Sq -> Piece = {{ :e, {} }};
        var sq: Sq = q1;
        begin, p: player = one;
        p, n1: sq = Sq(*);
        n1, n2: board[sq] == k;
        n1, n2: board[sq] == m;
        n2, n3: board[sq] = e;
        n3, n4: $$ sq;
        n4, p: player = one;
        p, end: player = keeper;
        ",
        squares.join(", "),
        pieces.join(", ")
    );
    let e = common::engine(&source, EngineOptions::default());
    let expected = common::engine_perft(&e, 3);
    // Eight pieces to take, or stop.
    assert_eq!(expected, [1, 9, 64, 392]);
    let krate = rg_compiled::generate(e.program());
    let both = common::game_source(&krate)
        .split("s.mask_in(lo, n, [")
        .skip(1)
        .any(|rest| {
            rest.split(']')
                .next()
                .is_some_and(|values| values.contains(','))
        });
    assert!(both, "both pieces in one mask");
    common::assert_builds_count(&e, 3, &expected, &[]);
}

/// A scan of a board smaller than one SSE2 load reads on past the board
/// (`Search::mask_in`), into slots that hold the piece it looks for: the
/// variables after the board, all set to it. Those bits are dropped; the
/// counts are the engine's.
#[test]
fn scans_ignore_the_slots_after_the_board() {
    let spares: Vec<String> = (1..=20)
        .map(|k| format!("var spare{k}: Piece = k;"))
        .collect();
    let source = format!(
        "
        type Player = {{ one }};
        type Score = {{ 0 }};
        type Piece = {{ e, k }};
        type Sq = {{ a, b, c, d, f, g, h }};
        var board: Sq -> Piece = {{ :e, b: k, h: k }};
        {}
        var sq: Sq = a;
        begin, p: player = one;
        p, n1: sq = Sq(*);
        n1, n2: board[sq] == k;
        n2, n3: board[sq] = e;
        n3, n4: $$ sq;
        n4, p: player = one;
        p, end: player = keeper;
        ",
        spares.join("\n        ")
    );
    let e = common::engine(&source, EngineOptions::default());
    let expected = common::engine_perft(&e, 3);
    // Two pieces to take, or stop.
    assert_eq!(expected, [1, 3, 4, 2]);
    common::assert_both_builds(&e, 3, &expected, "s.mask_in(", "the board is masked");
}

/// Jumps over pieces, each jump tagged, as draughts' captures: the loop's
/// visited checks never fail (every arrival is the first of its tag
/// prefix instance), so none is made and no tag prefix is tracked. The
/// counts are the engine's.
#[test]
fn tagged_jump_loops_agree_without_visited_checks() {
    let source = "
        type Player = { one };
        type Score = { 0 };
        type Piece = { e, x, k };
        type Sq = { null, s1, s2, s3, s4, s5, s6, s7 };
        const right: Sq -> Sq = { :null, s1: s2, s2: s3, s3: s4, s4: s5, s5: s6, s6: s7 };
        const left: Sq -> Sq = { :null, s2: s1, s3: s2, s4: s3, s5: s4, s6: s5, s7: s6 };
        var board: Sq -> Piece = { :e, s2: x, s4: x, s6: x, null: k };
        var pos: Sq = s1;
        begin, p: player = one;
        p, p1: pos = Sq(*);
        p1, p2: board[pos] == e;
        p2, j: $$ pos;
        j, j1: pos = right[pos];
        j1, j2: board[pos] == x;
        j2, j3: board[pos] = e;
        j3, j4: pos = right[pos];
        j4, j5: board[pos] == e;
        j5, j6: $$ pos;
        j, l1: pos = left[pos];
        l1, l2: board[pos] == x;
        l2, l3: board[pos] = e;
        l3, l4: pos = left[pos];
        l4, l5: board[pos] == e;
        l5, j6: $$ pos;
        j6, j: $ more;
        j6, q: $ stop;
        q, p: player = one;
        p, end: player = keeper;
    ";
    let e = common::engine(source, EngineOptions::default());
    let expected = common::engine_perft(&e, 4);
    assert!(expected[1] > 3, "{expected:?}");
    let krate = rg_compiled::generate(e.program());
    let game = common::game_source(&krate);
    assert!(
        game.contains("TRACK_PREFIX: bool = false"),
        "no tag prefix tracked"
    );
    common::assert_builds_count(&e, 4, &expected, &[]);
}

/// Move searches whose walks write only the square may leave it changed on
/// the way back (`gen::move_clobbers`). The player slides a piece along a
/// ray to the right or, from the same square, to the left (the node trying
/// both must put the square back between them), and every search must end
/// with the square it started from, for the next alternative of the search
/// around it (or the player is done): the keeper, after the player's
/// search nested in its completion, tests the square it marked, which is
/// never off the board, where a left ray ends. The counts are the
/// engine's.
#[test]
fn move_searches_that_leave_their_square_changed_agree() {
    let source = include_str!("games/slide.rg");
    let e = common::engine(source, EngineOptions::default());
    let expected = common::engine_perft(&e, 4);
    // From s2: s3 to the right (s4 is blocked), s1 to the left, or done.
    assert_eq!(expected[..2], [1, 3], "{expected:?}");
    common::assert_both_builds(
        &e,
        4,
        &expected,
        "let x0 = u32::from(s.v[",
        "the ray nodes leave the square changed",
    );
}

/// A keeper whose first walk stops with the square it moved (its search
/// may leave the square changed) keeps that state: the playout advances
/// the square each ply and ends when it runs off the board, as the
/// engine's does. Restoring the square would replay the same ply forever.
#[test]
fn stopped_keeper_walks_keep_their_changed_square() {
    let source = "
        type Player = { one };
        type Score = { 0, 1 };
        type Sq = { null, s1, s2, s3, s4, s5 };
        const right: Sq -> Sq = { :null, s1: s2, s2: s3, s3: s4, s4: s5 };
        var pos: Sq = s1;
        begin, s: player = one;
        s, t: $ go;
        t, k: player = keeper;
        k, k1: pos = right[pos];
        k1, k2: pos != null;
        k2, s: player = one;
        k1, k3: pos == null;
        k3, k4: goals[one] = 1;
        k4, end: player = keeper;
    ";
    let options = EngineOptions {
        first_keeper_walk: true,
        ..EngineOptions::default()
    };
    let e = common::engine(source, options);
    assert_eq!(
        common::engine_first_moves(&e),
        (5, vec![1]),
        "the engine's playout"
    );
    let krate = rg_compiled::generate(e.program());
    assert!(
        common::game_source(&krate).contains("if !h || s.undo_on_stop"),
        "the keeper's search may leave the square changed"
    );
    let bin = common::binary(&e);
    let (text, sums) = common::playouts(&bin, 3, 1, &["--first-keeper-walk"]);
    assert!(text.contains("\"moves\":15,"), "five plies each: {text}");
    assert_eq!(sums, vec![3.0], "{text}");
}

/// A placement move (a scan for an empty square, tags, then the keeper's
/// turn) completes at once for every square the scan's mask holds: perft's
/// last ply adds the mask's bits, playouts count them and write the square
/// only for the moves they keep (`Generator::bulk_completions`). The
/// counts are the engine's, and over 20,000 playouts the mean score of the
/// square taken is that of a uniform choice among the seven empty squares
/// (scores 0 to 6; the occupied squares score 9, so keeping a neighbour of
/// the chosen square would be far off).
#[test]
fn placements_complete_in_bulk() {
    let source = "
        type Player = { one };
        type Score = { 0, 1, 2, 3, 4, 5, 6, 9 };
        type Piece = { e, x };
        type Sq = { q1, q2, q3, q4, q5, q6, q7, q8, q9, q10 };
        const score: Sq -> Score = { :9, q2: 0, q3: 1, q4: 2, q6: 3, q7: 4, q8: 5, q10: 6 };
        var board: Sq -> Piece = { :e, q1: x, q5: x, q9: x };
        var sq: Sq = q1;
        begin, p: player = one;
        p, n1: sq = Sq(*);
        n1, n2: board[sq] == e;
        n2, n3: $$ sq;
        n3, n4: $ place;
        n4, k: player = keeper;
        k, k1: board[sq] = x;
        k1, k2: goals[one] = score[sq];
        k2, end: player = keeper;
    ";
    let e = common::engine(source, EngineOptions::default());
    let expected = common::engine_perft(&e, 2);
    assert_eq!(expected, [1, 7, 0]);
    common::assert_both_builds(&e, 2, &expected, "s.samples_only()", "placements in bulk");
    let n = 20_000.0;
    let (text, sums) = common::playouts(&common::binary(&e), 20_000, 3, &[]);
    assert!(text.contains("\"branching\":140000,"), "{text}");
    // Standard deviation of the mean: 2/√n.
    assert!((sums[0] / n - 3.0).abs() < 6.0 * 2.0 / n.sqrt(), "{text}");
}

/// A check's visit of a node whose edges only compare symbols is made
/// only when one of them passes (`Generator::passes`): the flood fill of
/// `games/flood.rg` neither marks nor enters the empty squares next to
/// its stones. The counts are the engine's.
#[test]
fn visits_after_failing_tests_are_skipped() {
    let e = common::engine(include_str!("games/flood.rg"), EngineOptions::default());
    let expected = common::engine_perft(&e, 5);
    // The stones grow from the y both ways (or the player is done).
    assert_eq!(expected, [1, 3, 6, 12, 24, 48]);
    common::assert_both_builds(
        &e,
        5,
        &expected,
        "l == r }) && (",
        "the flood's visits are prefiltered",
    );
}

/// A move search's visited check that its guard skips for every value the
/// guard's variable may hold there is dropped, and with no check left the
/// tags need not open prefix instances (`TRACK_PREFIX`): the slide game's
/// rays test each square before stepping on, so the blocked square off
/// the board never arrives. Opening that square makes its ray come back
/// to it (`null` is its own neighbour), and the check is kept. The counts
/// are the engine's both ways.
#[test]
fn move_visits_the_guards_always_skip_are_dropped() {
    let blocked = include_str!("games/slide.rg");
    let open = blocked.replace("{ :e, null: x, s4: x }", "{ :e, s4: x }");
    assert_ne!(open, blocked);
    for (source, tracked) in [(blocked, false), (&open[..], true)] {
        let e = common::engine(source, EngineOptions::default());
        let expected = common::engine_perft(&e, 4);
        let marker = format!("pub const TRACK_PREFIX: bool = {tracked};");
        common::assert_both_builds(&e, 4, &expected, &marker, "prefix instances");
    }
}

/// Only a tag after which a walk may meet a move-search visited check
/// before the next tag opens a tag prefix instance (`gen::tracked_tags`).
/// The move's first tag (`$ v0`) is followed by two more, `$ v1` and
/// `$ v2`, which both lead to the same cycle, whose join keeps a visited
/// check: the walks after them must stay in instances of their own, or
/// the second would find the cycle visited with the same state and lose
/// its three moves. The first tag and the last (`$$ x`, before the
/// completion) open none. (The way to `end` never passes.) The counts
/// are the engine's.
#[test]
fn tags_open_prefix_instances_only_where_a_visit_follows() {
    let source = "
        type Player = { one };
        type Score = { 0 };
        type V = { v0, v1, v2 };
        const next: V -> V = { :v0, v0: v1, v1: v2 };
        var x: V = v0;
        begin, s: player = one;
        s, t: $ v0;
        t, w: x == v0;
        w, w2: x != v0;
        w2, end: player = keeper;
        t, u1: $ v1;
        t, u2: $ v2;
        u1, j: ;
        u2, j: ;
        j, k: x = next[x];
        k, j: ;
        k, fin: $$ x;
        fin, s: player = one;
    ";
    let e = common::engine(source, EngineOptions::default());
    let expected = common::engine_perft(&e, 3);
    assert_eq!(expected[1], 6, "{expected:?}");
    let krate = rg_compiled::generate(e.program());
    let game = common::game_source(&krate);
    // (`push_tag`'s last flags: tracked, counted; no tag is on a cycle.)
    assert_eq!(game.matches(", true, false) {").count(), 2, "{game}");
    assert_eq!(game.matches(", false, false) {").count(), 2, "{game}");
    common::assert_both_builds(&e, 3, &expected, ", false, false) {", "untracked tags");
}

/// Perft runs a keeper's first walk in place, in the search of the move
/// that leads to it, when the walk has no visited checks
/// (`gen::keeper_walks`, `Search::keeper_walk_in_place`). This keeper marks the
/// cell right of the player's, or (a branch whose walks may end alike,
/// so risky) the player's own when that one is taken; the two ways join
/// before a long way on (where the engine keeps a visited check, which a
/// first walk only counts as a step); a tag, a check and a completion to
/// the end are on its way. Without the second way the
/// keeper is stuck once the cell on the right is taken: the reasoner
/// reports it as the engine does, in perft and in playouts (which apply
/// the keeper's walk in place as well, `Search::apply_keeper_walk`).
#[test]
fn keeper_walks_run_in_place_agree() {
    let source = "
        type Player = { one };
        type Score = { 0, 1 };
        type Cell = { c0, c1, c2, c3 };
        const right: Cell -> Cell = { :c0, c0: c1, c1: c2, c2: c3 };
        var board: Cell -> Score = { :0 };
        var at: Cell = c0;
        begin, p: player = one;
        p, q: at = Cell(*);
        q, r: board[at] == 0;
        r, s: $$ at;
        s, k: player = keeper;
        k, ka: at = right[at];
        k, k1: ;
        ka, k1: ;
        k1, t0: board[at] == 0;
        CHAIN
        t25, k3: board[at] = 1;
        k3, k4: $ marked;
        k4, k5: ? cc -> cd;
        k5, p: player = one;
        k4, k6: ! cc -> cd;
        k6, end: player = keeper;
        cc, cd: board[c3] == 0;
    ";
    // A long way after the join: the engine keeps a visited check there.
    let chain: Vec<String> = (0..25).map(|k| format!("t{k}, t{}: ;", k + 1)).collect();
    let source = &source.replace("CHAIN", &chain.join("\n        "))[..];
    let first = EngineOptions {
        first_keeper_walk: true,
        ..EngineOptions::default()
    };
    let e = common::engine(source, first);
    let expected = common::engine_perft(&e, 4);
    assert_eq!(expected[1], 4, "{expected:?}");
    let program = e.program();
    let k1 = program.nodes.iter().position(|n| n == "k1").expect("k1");
    assert!(
        program.node_info[k1].visit_in_move,
        "the join keeps a check"
    );
    let krate = rg_compiled::generate(program);
    let game = common::game_source(&krate);
    let k = program.nodes.iter().position(|n| n == "k").expect("k");
    let walks = game
        .split("pub fn keeper_walk(")
        .nth(1)
        .expect("keeper_walk");
    let walks = walks.split("\n}\n").next().unwrap_or_default();
    assert!(walks.contains(&format!("k{k}(s)")), "{walks}");
    // In the keeper walk the join's check only counts its step.
    assert!(
        game.contains(&format!("(!s.tick(1, {k1}) && k{k1}(s))")),
        "{game}"
    );
    common::assert_builds_count(&e, 4, &expected, &["--first-keeper-walk"]);

    let stuck = source.replace("        k, k1: ;\n", "");
    assert_ne!(stuck, source);
    let e = common::engine(&stuck, first);
    let initial = e.initial().expect("initial state");
    let engine_error = (0..=3)
        .find_map(|d| perft(&e, &initial, d, &mut Budget::unlimited()).err())
        .expect("the engine finds the stuck keeper");
    let bin = common::binary(&e);
    let error = common::compiled_perft(&bin, 3, &["--first-keeper-walk"]).unwrap_err();
    let message = "the keeper has no legal move in node k";
    assert!(engine_error.to_string().contains(message), "{engine_error}");
    assert!(error.contains(message), "{error}");
    // Playouts apply the keeper's walk in place too: some get stuck.
    let output = common::playouts_output(&bin, 50, 1, &["--first-keeper-walk"]);
    assert!(output.contains(message), "{output}");
}

/// Placement moves over two blocks of the board's mask (squares 1–64 and
/// 65–70): a sampling search draws once per block
/// (`Search::sample_block`), and keeps a square of the second block with
/// probability 5/12, after the 7 moves of the first. Over 20,000 playouts
/// the mean score of the square taken is that of a uniform choice among
/// the 12 empty squares (scores 0 to 11: a second block always taken
/// would give 9, never taken 3).
#[test]
fn blocks_of_placements_are_sampled_uniformly() {
    let squares: Vec<String> = (1..=70).map(|k| format!("q{k}")).collect();
    let empty = [2, 3, 4, 5, 6, 7, 8, 66, 67, 68, 69, 70];
    let scores: Vec<String> = empty
        .iter()
        .enumerate()
        .map(|(score, k)| format!("q{k}: {score}"))
        .collect();
    let empties: Vec<String> = empty.iter().map(|k| format!("q{k}: e")).collect();
    let source = format!(
        "
        type Player = {{ one }};
        type Score = {{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 99 }};
        type Piece = {{ e, x }};
        type Sq = {{ {} }};
        const score: Sq -> Score = {{ :99, {} }};
        var board: Sq -> Piece = {{ :x, {} }};
        var sq: Sq = q1;
        begin, p: player = one;
        p, n1: sq = Sq(*);
        n1, n2: board[sq] == e;
        n2, n3: $$ sq;
        n3, k: player = keeper;
        k, k1: board[sq] = x;
        k1, k2: goals[one] = score[sq];
        k2, end: player = keeper;
        ",
        squares.join(", "),
        scores.join(", "),
        empties.join(", ")
    );
    let e = common::engine(&source, EngineOptions::default());
    let expected = common::engine_perft(&e, 2);
    assert_eq!(expected, [1, 12, 0]);
    common::assert_both_builds(&e, 2, &expected, "s.sample_block(", "placements in bulk");
    let n: f64 = 20_000.0;
    let (text, sums) = common::playouts(&common::binary(&e), 20_000, 7, &[]);
    assert!(text.contains("\"branching\":240000,"), "{text}");
    // Standard deviation of the mean: √(143/12)/√n.
    let sd = (143.0f64 / 12.0).sqrt() / n.sqrt();
    assert!((sums[0] / n - 5.5).abs() < 6.0 * sd, "{text}");
}

/// A keeper walk run in place whose functions leave the square they step
/// changed (`gen::move_clobbers`: its edges write only `at`) is undone
/// after it, as `moves_from` undoes a search's: the player's second move
/// tests the square the first one's keeper walk moved (pentago's keeper,
/// which rotates a quadrant, found this: compiled perft 7,560 against
/// 10,080). In playouts it stays moved, with the next state in place.
#[test]
fn keeper_walks_in_place_put_back_the_slot_they_leave_changed() {
    let source = "
        type Player = { one };
        type Score = { 0, 1 };
        type Cell = { c0, c1, c2, c3 };
        const right: Cell -> Cell = { :c0, c0: c1, c1: c2, c2: c3 };
        var at: Cell = c0;
        begin, p: player = one;
        p, q: at = c0;
        q, r1: $ a;
        r1, k: player = keeper;
        q, r2: $ b;
        r2, r3: at == c0;
        r3, k: player = keeper;
        k, k1: at = right[at];
        k1, k2: at = right[at];
        k2, p: player = one;
        p, x: at == c3;
        x, end: player = keeper;
    ";
    let first = EngineOptions {
        first_keeper_walk: true,
        ..EngineOptions::default()
    };
    let e = common::engine(source, first);
    let expected = common::engine_perft(&e, 3);
    assert_eq!(expected, [1, 2, 4, 8]);
    let krate = rg_compiled::generate(e.program());
    let game = common::game_source(&krate);
    let at = game
        .lines()
        .find(|l| l.contains(" => { let y0 = s.v[") && l.contains("= k"))
        .unwrap_or_else(|| panic!("a keeper walk undone at its entry: {game}"));
    assert!(at.contains("if !h || s.undo_on_stop"), "{at}");
    common::assert_builds_count(&e, 3, &expected, &["--first-keeper-walk"]);
}

/// A ray `x (x)* o` in a check, as reversi's: the loop's visit is at the
/// step after each `x` test, and the off-board square, the only value the
/// guard lets through, has a constant entry, so it never passes the test
/// (`Invariants::possible_in_check`): no visited check is made and the
/// check's sets are not cleared. When the check itself writes the
/// off-board entry first, the ray can loop there, and the visit stops it
/// (without it, the compiled check recursed until the stack overflowed).
#[test]
fn checks_visit_only_where_a_value_can_repeat() {
    let ray = |first: &str, c3: &str| {
        format!(
            "
            type Player = {{ a }};
            type Score = {{ 0 }};
            type Cell = {{ c0, c1, c2, c3, null }};
            type Piece = {{ e, x, o, null }};
            const right: Cell -> Cell = {{ :null, c0: c1, c1: c2, c2: c3 }};
            var board: Cell -> Piece = {{ :x, c0: e, c3: {c3}, null: null }};
            var probe: Cell = c0;
            begin, turn: player = a;
            turn, go: ? w0 -> found;
            w0, s0: {first};
            s0, s1: probe = right[probe];
            s1, s2: board[probe] == x;
            s2, s3: probe = right[probe];
            s3, s2: board[probe] == x;
            s3, found: board[probe] == o;
            go, done: $ seen;
            done, fin: board[c0] = o;
            fin, end: player = keeper;
            "
        )
    };
    for (first, c3, expected, visits) in [
        ("", "o", [1, 1, 0], false),
        ("board[null] = x", "x", [1, 0, 0], true),
    ] {
        let e = common::engine(&ray(first, c3), EngineOptions::default());
        assert_eq!(common::engine_perft(&e, 2), expected, "{first}");
        let krate = rg_compiled::generate(e.program());
        let game = common::game_source(&krate);
        assert_eq!(game.contains("s.visit_"), visits, "{first}: {game}");
        let clears_nothing = game.split("s.begin_check(").skip(1).any(|call| {
            call.split(')')
                .next()
                .is_some_and(|a| a.ends_with("false, false"))
        });
        assert_eq!(clears_nothing, !visits, "{first}: {game}");
        common::assert_builds_count(&e, 2, &expected, &[]);
    }
}

/// A check's walk that may leave only its square changed passes the
/// square's value to the next node's function (`gen::Generator::reg`):
/// after an any-assignment of the square, that is the symbol assigned,
/// not the value the function was called with. The check asks whether a
/// `y` is anywhere on the board; it is at `s3`, while the square starts
/// at `s1`, and the walk tests it again after the any-assignment's
/// (fused) test. Move `a` needs it and covers it; move `b` ends the game.
#[test]
fn checks_pass_on_the_square_an_any_assignment_wrote() {
    let source = "
        type Player = { one };
        type Score = { 0 };
        type Piece = { e, x, y };
        type Sq = { s1, s2, s3 };
        var board: Sq -> Piece = { :e, s3: y };
        var pos: Sq = s1;
        begin, p: player = one;
        p, p1: ? r0 -> rt;
        p1, p2: $ a;
        p2, p3: board[s3] = x;
        p3, p: player = one;
        p, q: $ b;
        q, end: player = keeper;
        r0, r1: pos = Sq(*);
        r1, r2: board[pos] == y;
        r2, rt: pos == s3;
    ";
    let e = common::engine(source, EngineOptions::default());
    let expected = common::engine_perft(&e, 2);
    assert_eq!(expected, [1, 2, 1]);
    common::assert_both_builds(
        &e,
        2,
        &expected,
        "x0: u32) -> u8",
        "the check's square in a register",
    );
}

/// Two squares: `right` steps from the second to `null`, a key `board`
/// does not have (the bad-key tests' games).
const OFF_BOARD_STEP: &str = "
        type Player = { one };
        type Score = { 0 };
        type Piece = { e, x };
        type Sq = { s1, s2 };
        type Pos = { s1, s2, null };
        const right: Pos -> Pos = { :null, s1: s2 };
        var board: Sq -> Piece = { :e, s1: x };
        var pos: Pos = s1;
        begin, p: player = one;";

/// A keeper walk run in place reading a map with a key outside the map's
/// key type: leniently the map's default, strictly a fault, as in the
/// engine. (Keeper walks, like checks, give a bad key a path of its own
/// that calls nothing when it goes on: `Generator::load`.)
#[test]
fn keeper_walks_read_bad_keys_leniently_or_fault() {
    let source = &format!(
        "{OFF_BOARD_STEP}
        p, p1: $ a;
        p1, k: player = keeper;
        k, k1: pos = right[pos];
        k1, k2: pos = right[pos];
        k2, k3: board[pos] == e;
        k3, end: player = keeper;
    "
    );
    let options = |lenient| EngineOptions {
        lenient,
        first_keeper_walk: true,
        ..EngineOptions::default()
    };
    let e = common::engine(source, options(true));
    let expected = common::engine_perft(&e, 2);
    assert_eq!(expected, [1, 1, 0], "board[null] reads as e");
    for build in [rg_compiled::Build::Speed, rg_compiled::Build::Quick] {
        let krate = rg_compiled::generate_with(e.program(), build);
        let walks: Vec<&str> = common::game_source(&krate)
            .split("pub(crate) fn ")
            .filter(|f| f.starts_with('k'))
            .collect();
        assert!(
            walks
                .iter()
                .any(|f| f.contains("if s.options.lenient { break")),
            "{build:?}: the walk's lenient read has a path of its own: {walks:?}"
        );
        assert!(
            walks.iter().all(|f| !f.contains("bad_key")),
            "{build:?}: no keeper-walk function calls bad_key: {walks:?}"
        );
    }
    common::assert_builds_count(&e, 2, &expected, &["--lenient", "--first-keeper-walk"]);
    let strict = common::engine(source, options(false));
    let initial = strict.initial().expect("initial");
    let fault =
        perft(&strict, &initial, 2, &mut Budget::unlimited()).expect_err("the engine faults");
    assert!(format!("{fault:?}").contains("null"), "{fault:?}");
    for build in [rg_compiled::Build::Speed, rg_compiled::Build::Quick] {
        let bin = common::binary_with(&e, build);
        let error = common::compiled_perft(&bin, 2, &["--first-keeper-walk"])
            .expect_err("a strict read of board[null] is a fault");
        assert!(error.contains("null"), "{build:?}: {error}");
    }
}

/// A check reading a map with a key outside the map's key type (an
/// improper description): leniently the map's default, strictly a fault,
/// in the compiled reasoner as in the engine. (A check's bad key has its
/// own path, which calls nothing when it goes on: `Generator::load`.)
#[test]
fn checks_read_bad_keys_leniently_or_fault() {
    let source = &format!(
        "{OFF_BOARD_STEP}
        p, p1: ? c0 -> ct;
        p1, p2: $ a;
        p2, end: player = keeper;
        c0, c1: pos = right[pos];
        c1, c2: pos = right[pos];
        c2, ct: board[pos] == e;
    "
    );
    let lenient = EngineOptions {
        lenient: true,
        ..EngineOptions::default()
    };
    let e = common::engine(source, lenient);
    let expected = common::engine_perft(&e, 2);
    assert_eq!(expected, [1, 1, 0], "board[null] reads as e");
    common::assert_builds_count(&e, 2, &expected, &["--lenient"]);
    for build in [rg_compiled::Build::Speed, rg_compiled::Build::Quick] {
        let bin = common::binary_with(&e, build);
        let strict = common::compiled_perft(&bin, 2, &[]);
        let error = strict.expect_err("a strict read of board[null] is a fault");
        assert!(error.contains("null"), "{build:?}: {error}");
    }
}

/// A pass fused with the moves before it (`! c0` follows only when no
/// stone was placed), and a keeper's check that the player can place or
/// pass, which always holds and is not evaluated: the counts agree with
/// the engine's, the pass on the full board included.
#[test]
fn passes_and_checks_that_always_hold_agree() {
    let source = include_str!("games/pass_turn.rg");
    let e = common::engine(source, EngineOptions::default());
    let expected = common::engine_perft(&e, 5);
    assert_eq!(
        expected,
        [1, 3, 6, 6, 6, 0],
        "three placements, then a pass"
    );
    let t0 = e
        .program()
        .nodes
        .iter()
        .position(|n| n == "t0")
        .expect("t0");
    for build in [rg_compiled::Build::Speed, rg_compiled::Build::Quick] {
        let krate = rg_compiled::generate_with(e.program(), build);
        let game = common::game_source(&krate);
        assert!(
            game.contains("let ok: bool = s.walks == w;"),
            "{build:?}: the pass is fused"
        );
        assert!(
            !game.contains(&format!("r{t0}::<")),
            "{build:?}: the check that always holds is not called"
        );
    }
    common::assert_builds_count(&e, 5, &expected, &[]);
}

/// The keeper's check (and the pass it copies) reading a map that has no
/// entry for some empty square it meets: the engine faults there, and so
/// must the reasoner, which therefore evaluates the check. (The player's
/// pass is a copy of its own: the search, fused with it, reads no map.)
#[test]
fn checks_that_may_fault_are_evaluated() {
    let source = include_str!("games/pass_turn.rg")
        .replace("var sq:", "var marks: Inner -> Piece = { :e };\nvar sq:")
        .replace(
            "t1, t2: board[sq] == e;",
            "t1, t3: board[sq] == e;\nt3, t2: marks[sq] == e;",
        )
        .replace(
            "t0, t2: ! c0 -> c2;",
            "t0, t2: ! d0 -> d2;\nd0, d1: sq = Square(*);\nd1, d3: board[sq] == e;\nd3, d2: marks[sq] == e;",
        );
    let source = format!("type Inner = {{ b, c }};\n{source}");
    let e = common::engine(&source, EngineOptions::default());
    let initial = e.initial().expect("initial");
    let fault = perft(&e, &initial, 2, &mut Budget::unlimited()).expect_err("the engine faults");
    assert!(format!("{fault:?}").contains("key a"), "{fault:?}");
    for build in [rg_compiled::Build::Speed, rg_compiled::Build::Quick] {
        let bin = common::binary_with(&e, build);
        let error = common::compiled_perft(&bin, 2, &[]).expect_err("the check faults");
        assert!(error.contains("key a"), "{build:?}: {error}");
    }
}

/// Games a review built where skipping a check or fusing a pass lost the
/// engine's fault: a key slot also written by `player` assignments or by
/// a write of its whole map, a pass copying a branch no move search
/// enters, a check nesting itself. The reasoner faults where the engine
/// does, with the same message.
#[test]
fn lost_faults_stay_faults() {
    let games = [
        (
            "player",
            include_str!("games/lost_fault_player.rg"),
            3,
            "key keeper",
        ),
        (
            "map write",
            include_str!("games/lost_fault_map_write.rg"),
            2,
            "key null",
        ),
        (
            "unwalked",
            include_str!("games/lost_fault_unwalked.rg"),
            2,
            "key a",
        ),
        (
            "nesting",
            include_str!("games/lost_fault_nesting.rg"),
            1,
            "nested more than 1000 deep",
        ),
    ];
    for (name, source, depth, message) in games {
        let e = common::engine(source, EngineOptions::default());
        let initial = e.initial();
        let fault = match initial {
            Ok(initial) => perft(&e, &initial, depth, &mut Budget::unlimited())
                .expect_err("the engine faults")
                .to_string(),
            Err(fault) => fault.to_string(),
        };
        assert!(fault.contains(message), "{name}: engine: {fault}");
        let bin = common::binary_with(&e, rg_compiled::Build::Speed);
        let error = common::compiled_perft(&bin, depth, &[]).expect_err("the reasoner faults");
        assert!(error.contains(message), "{name}: compiled: {error}");
    }
}
