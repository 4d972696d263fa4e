//! Every optimization pass (rg.md §9) keeps perft: on generated games
//! (any-assignments, `$$` tags, constant and variable maps, nested maps,
//! reachability checks with unconditional ends, artificial and redundant
//! tags, forks of shared conditions, random turns), on the team's RG
//! corpus and on the shared corpus. Exact (E) and relabeling (L) passes
//! both keep the tree shape, hence perft. The unsafe `reorder-conditions`
//! is only required to produce a game that checks. Every run checks the
//! game after each change (`optimize_checked`), so a pass that breaks it
//! fails naming itself.

use std::path::Path;
use std::time::Duration;

use proptest::prelude::*;
use rg_core::ast::Game;
use rg_core::check::check_game;
use rg_core::diag::has_errors;
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};
use rg_core::opt::{all_passes, default_pipeline, optimize_checked, Pass};
use rg_core::parse::parse_game;
use rg_core::print::print_game;
use testkit::{files_with_extension, shared_corpus, team_corpus};

/// The pass that may change the game.
const UNSAFE: &str = "reorder-conditions";

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
    /// `vK = vJ` (a self-assignment when `K = J`)
    Copy(usize, usize),
    /// `vK == vJ`
    Same(usize, usize),
    /// `vK == c` or `vK != c` (two parallel edges: always passes)
    Either(usize, u8),
    /// `vK == c` or `vK == d` (two parallel edges)
    OneOf(usize, u8, u8),
    /// `rot[rot[vK]] == c`
    Twice(usize, u8),
    /// a self-loop `vK != c` at the step's node, then a skip
    SelfLoop(usize, u8),
    /// `? sub -> subEnd` (or `!`) over a pure sub-automaton: `vK == c`
    /// then `vJ != d`
    PureCheck(bool, usize, u8, usize, u8),
    /// `vK = V(*)` then `$$ vK` (the tag keeps moves unambiguous)
    Choose(usize),
    /// `? sub -> subEnd` (or `!`): the sub-automaton starts with a skip and
    /// an (ignored) tag, rotates `vK`, tests it against `c`, then resets it
    /// and ends with a skip (leading and trailing unconditional edges;
    /// writes that must not leak out of the check)
    Check(bool, usize, u8),
    /// `m[vK] = c` on the map variable `m`
    SetMap(usize, u8),
    /// `m[vK] == c`
    TestMap(usize, u8),
    /// `grid[vJ][vK] = c` on the nested map variable `grid`
    SetGrid(usize, usize, u8),
    /// `table[vJ][vK] == c` on the nested constant map `table`
    TestTable(usize, usize, u8),
    /// a plain tag `$ tC`
    Tag(u8),
    /// two tagged alternatives testing the same conditions in opposite
    /// orders: `vK == c, vJ == d, $ fa` or `vJ == d, vK != c, $ fb`
    Fork(usize, u8, usize, u8),
    /// `m[vK] = rot[m[vK]]` (a counter-like self-update with a computed
    /// key)
    Bump(usize),
    /// `m[c] = d` (an entry with a symbol key)
    SetMapAt(u8, u8),
    /// `m[c] == d`
    TestMapAt(u8, u8),
    /// `? sub -> subEnd` (or `!`) over a loop: rotate `vK`, then either
    /// loop back (on `vK != c` when `same`, else on `vK == c`) or succeed
    /// on `vK != c`
    LoopCheck(bool, usize, u8, bool),
    /// `? sub -> subEnd` (or `!`): `m[vK] = c`, `vK = rot[vK]`, then
    /// `m[vK] == c` (the written entry is never read back: `rot` has no
    /// fixed point)
    Peek(bool, usize, u8),
}

#[derive(Clone, Debug)]
struct Spec {
    players: usize,
    turns: u8,
    variables: usize,
    branches: Vec<Vec<Step>>,
    random_turns: bool,
    /// Every move starts with the tag `go` (a redundant tag).
    go_tag: bool,
}

fn step(variables: usize) -> impl Strategy<Value = Step> {
    let v = 0..variables;
    let c = 0u8..3;
    prop_oneof![
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::Test(k, c)),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::TestNot(k, c)),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::Set(k, c)),
        (v.clone(), v.clone()).prop_map(|(k, j)| Step::Rotate(k, j)),
        (v.clone(), v.clone()).prop_map(|(k, j)| Step::Copy(k, j)),
        (v.clone(), v.clone()).prop_map(|(k, j)| Step::Same(k, j)),
        v.clone().prop_map(Step::Choose),
        (any::<bool>(), v.clone(), c.clone()).prop_map(|(n, k, c)| Step::Check(n, k, c)),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::SetMap(k, c)),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::TestMap(k, c)),
        (v.clone(), v.clone(), c.clone()).prop_map(|(j, k, c)| Step::SetGrid(j, k, c)),
        (v.clone(), v.clone(), c.clone()).prop_map(|(j, k, c)| Step::TestTable(j, k, c)),
        c.clone().prop_map(Step::Tag),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::Either(k, c)),
        (v.clone(), c.clone(), c.clone()).prop_map(|(k, c, d)| Step::OneOf(k, c, d)),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::Twice(k, c)),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::SelfLoop(k, c)),
        (any::<bool>(), v.clone(), c.clone(), v.clone(), c.clone())
            .prop_map(|(n, k, c, j, d)| Step::PureCheck(n, k, c, j, d)),
        (v.clone(), c.clone(), v.clone(), c.clone())
            .prop_map(|(k, c, j, d)| Step::Fork(k, c, j, d)),
        v.clone().prop_map(Step::Bump),
        (c.clone(), c.clone()).prop_map(|(k, d)| Step::SetMapAt(k, d)),
        (c.clone(), c.clone()).prop_map(|(k, d)| Step::TestMapAt(k, d)),
        (any::<bool>(), v.clone(), c.clone(), any::<bool>())
            .prop_map(|(n, k, c, same)| Step::LoopCheck(n, k, c, same)),
        (any::<bool>(), v, c).prop_map(|(n, k, c)| Step::Peek(n, k, c)),
    ]
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        1usize..=3,
        1u8..=3,
        1usize..=3,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_flat_map(|(players, turns, variables, random_turns, go_tag)| {
            prop::collection::vec(prop::collection::vec(step(variables), 0..4), 1..4).prop_map(
                move |branches| Spec {
                    players,
                    turns,
                    variables,
                    branches,
                    random_turns,
                    go_tag,
                },
            )
        })
}

/// Writes the game: players take turns (with a `random` turn between them
/// when `random_turns`); a move is a branch tag and the artificial tag
/// `mark`, then the branch's steps; a `pass` branch is always legal; the
/// keeper counts turns and ends the game.
fn render(spec: &Spec) -> String {
    let players: Vec<String> = (0..spec.players).map(|k| format!("p{k}")).collect();
    let turns: Vec<String> = (0..=spec.turns).map(|k| format!("t{k}")).collect();
    let mut out = String::new();
    out.push_str("@artificialTag mark;\n");
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
    out.push_str("const table: V -> V -> V = { :{ :0, 1: 2 }, 2: { :1, 0: 2 } };\n");
    for k in 0..spec.variables {
        out.push_str(&format!("var v{k}: V = 0;\n"));
    }
    out.push_str(
        "var m: V -> V = { :0, 2: 1 };\nvar grid: V -> V -> V = { :{ :0 }, 1: { :2 } };\n",
    );
    out.push_str("var who: Player = p0;\nvar t: T = t0;\n");
    out.push_str("begin, turn: ;\nlimbo, turn: ;\n");
    if spec.go_tag {
        out.push_str("turn, start: player = PlayerOrSystem(who);\nstart, move: $ go;\n");
    } else {
        out.push_str("turn, move: player = PlayerOrSystem(who);\n");
    }
    let mut checks = 0;
    for (b, steps) in spec.branches.iter().enumerate() {
        out.push_str(&format!("move, b{b}_m: $ m{b};\nb{b}_m, b{b}_0: $ mark;\n"));
        let mut node = format!("b{b}_0");
        for (s, step) in steps.iter().enumerate() {
            let next = format!("b{b}_{}", s + 1);
            let line = match step {
                Step::Test(k, c) => format!("{node}, {next}: v{k} == {c};\n"),
                Step::TestNot(k, c) => format!("{node}, {next}: v{k} != {c};\n"),
                Step::Set(k, c) => format!("{node}, {next}: v{k} = {c};\n"),
                Step::Rotate(k, j) => format!("{node}, {next}: v{k} = rot[v{j}];\n"),
                Step::Copy(k, j) => format!("{node}, {next}: v{k} = v{j};\n"),
                Step::Same(k, j) => format!("{node}, {next}: v{k} == v{j};\n"),
                Step::Choose(k) => {
                    format!("{node}, {node}c: v{k} = V(*);\n{node}c, {next}: $$ v{k};\n")
                }
                Step::Peek(negated, k, c) => {
                    let sign = if *negated { '!' } else { '?' };
                    checks += 1;
                    let x = format!("chk{checks}");
                    format!(
                        "{node}, {next}: {sign} {x} -> {x}e;\n{x}, {x}w: m[v{k}] = {c};\n{x}w, {x}r: v{k} = rot[v{k}];\n{x}r, {x}e: m[v{k}] == {c};\n"
                    )
                }
                Step::Check(negated, k, c) => {
                    let sign = if *negated { '!' } else { '?' };
                    checks += 1;
                    let x = format!("chk{checks}");
                    format!(
                        "{node}, {next}: {sign} {x} -> {x}e;\n{x}, {x}a: ;\n{x}a, {x}t: $ inner;\n{x}t, {x}m: v{k} = rot[v{k}];\n{x}m, {x}b: v{k} == {c};\n{x}b, {x}n: v{k} = 0;\n{x}n, {x}e: ;\n"
                    )
                }
                Step::SetMap(k, c) => format!("{node}, {next}: m[v{k}] = {c};\n"),
                Step::TestMap(k, c) => format!("{node}, {next}: m[v{k}] == {c};\n"),
                Step::SetGrid(j, k, c) => format!("{node}, {next}: grid[v{j}][v{k}] = {c};\n"),
                Step::TestTable(j, k, c) => {
                    format!("{node}, {next}: table[v{j}][v{k}] == {c};\n")
                }
                Step::Tag(c) => format!("{node}, {next}: $ t{c};\n"),
                Step::Either(k, c) => {
                    format!("{node}, {next}: v{k} == {c};\n{node}, {next}: v{k} != {c};\n")
                }
                Step::OneOf(k, c, d) => {
                    format!("{node}, {next}: v{k} == {c};\n{node}, {next}: v{k} == {d};\n")
                }
                Step::Twice(k, c) => format!("{node}, {next}: rot[rot[v{k}]] == {c};\n"),
                Step::SelfLoop(k, c) => {
                    format!("{node}, {node}: v{k} != {c};\n{node}, {next}: ;\n")
                }
                Step::PureCheck(negated, k, c, j, d) => {
                    let sign = if *negated { '!' } else { '?' };
                    checks += 1;
                    let x = format!("chk{checks}");
                    format!(
                        "{node}, {next}: {sign} {x} -> {x}e;\n{x}, {x}m: v{k} == {c};\n{x}m, {x}e: v{j} != {d};\n"
                    )
                }
                Step::Bump(k) => format!("{node}, {next}: m[v{k}] = rot[m[v{k}]];\n"),
                Step::SetMapAt(k, d) => format!("{node}, {next}: m[{k}] = {d};\n"),
                Step::TestMapAt(k, d) => format!("{node}, {next}: m[{k}] == {d};\n"),
                Step::LoopCheck(negated, k, c, same) => {
                    let sign = if *negated { '!' } else { '?' };
                    let back = if *same { "!=" } else { "==" };
                    checks += 1;
                    let x = format!("chk{checks}");
                    format!(
                        "{node}, {next}: {sign} {x} -> {x}e;\n{x}, {x}h: ;\n{x}h, {x}y: v{k} = rot[v{k}];\n{x}y, {x}h: v{k} {back} {c};\n{x}y, {x}e: v{k} != {c};\n"
                    )
                }
                Step::Fork(k, c, j, d) => format!(
                    "{node}, {node}f1: v{k} == {c};\n{node}f1, {node}f2: v{j} == {d};\n{node}f2, {next}: $ fa;\n\
                     {node}, {node}f3: v{j} == {d};\n{node}f3, {node}f4: v{k} != {c};\n{node}f4, {next}: $ fb;\n"
                ),
            };
            out.push_str(&line);
            node = next;
        }
        out.push_str(&format!("{node}, moved: player = keeper;\n"));
    }
    out.push_str(
        "move, passed: $ pass;\npassed, passed1: $ mark;\npassed1, moved: player = keeper;\n",
    );
    if spec.random_turns {
        out.push_str("moved, toss: player = random;\ntoss, tossed: $ heads;\ntoss, tossed1: $ tails;\ntossed1, tossed: v0 = rot[v0];\ntoss, tossed: $ edge;\ntossed, counted0: player = keeper;\n");
    } else {
        out.push_str("moved, counted0: ;\n");
    }
    out.push_str(&format!(
        "counted0, counted: t = incr[t];\ncounted, over: t == t{last};\ncounted, again: t != t{last};\nagain, turn: who = nextPlayer[who];\nover, scored: goals[who] = Score(grid[v0][m[v0]]);\nscored, end: player = keeper;\n",
        last = spec.turns
    ));
    out
}

fn engine(game: &Game) -> Result<Engine, String> {
    Engine::new(game, EngineOptions::default()).map_err(|d| format!("{d:?}"))
}

/// perft at depths `0..=depth` (`Err` with the message on a runtime error).
fn perfts(game: &Game, depth: u32) -> Result<Vec<u64>, String> {
    let e = engine(game)?;
    let initial = e.initial().map_err(|err| err.to_string())?;
    (0..=depth)
        .map(|d| perft(&e, &initial, d, &mut Budget::unlimited()).map_err(|err| err.to_string()))
        .collect()
}

/// Runs `passes` (to their fixpoint, as `--passes` does) with the checker
/// after every change, so that a pass breaking the game fails naming
/// itself; returns the result with the time the passes took.
fn optimized(game: &Game, passes: &[Box<dyn Pass>], what: &str) -> (Game, Duration) {
    let mut took = Duration::ZERO;
    let out = optimize_checked(game, passes, &mut |run| took += run.elapsed).unwrap_or_else(|e| {
        panic!(
            "{what}: {e}\n{:?}\n--- input\n{}",
            e.diagnostics,
            print_game(game)
        )
    });
    (out, took)
}

fn assert_same_perft(original: &Game, expected: &[u64], passes: &[Box<dyn Pass>], what: &str) {
    let (out, _) = optimized(original, passes, what);
    let got = perfts(&out, expected.len() as u32 - 1)
        .unwrap_or_else(|e| panic!("{what}: {e}\n{}", print_game(&out)));
    assert_eq!(
        got,
        expected,
        "{what} changed perft\n--- before\n{}--- after\n{}",
        print_game(original),
        print_game(&out)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_pass_preserves_perft(spec in spec()) {
        let source = render(&spec);
        let game = parse_game(&source).unwrap();
        let diagnostics = check_game(&game);
        prop_assert!(!has_errors(&diagnostics), "{:?}\n{}", diagnostics, source);
        let expected = perfts(&game, 3).unwrap_or_else(|e| panic!("{e}\n{source}"));
        for pass in all_passes() {
            let name = pass.name();
            let single = std::slice::from_ref(&pass);
            if name == UNSAFE {
                optimized(&game, single, name);
            } else {
                assert_same_perft(&game, &expected, single, name);
            }
        }
    }

    #[test]
    fn default_pipeline_preserves_perft(spec in spec()) {
        let game = parse_game(&render(&spec)).unwrap();
        let expected = perfts(&game, 3).unwrap();
        assert_same_perft(&game, &expected, &default_pipeline(), "default pipeline");
    }

    #[test]
    fn all_safe_passes_together_preserve_perft(spec in spec()) {
        let game = parse_game(&render(&spec)).unwrap();
        let expected = perfts(&game, 3).unwrap();
        let safe: Vec<Box<dyn Pass>> =
            all_passes().into_iter().filter(|p| p.name() != UNSAFE).collect();
        assert_same_perft(&game, &expected, &safe, "every safe pass");
    }
}

/// The generator exercises every pass: each one changes some of a fixed
/// sample of generated games.
#[test]
fn every_pass_fires_on_some_generated_game() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
    );
    let strategy = spec();
    let games: Vec<Game> = (0..200)
        .map(|_| {
            let spec = strategy.new_tree(&mut runner).unwrap().current();
            parse_game(&render(&spec)).unwrap()
        })
        .collect();
    let idle: Vec<&str> = all_passes()
        .iter()
        .filter(|pass| {
            !games.iter().any(|g| {
                let mut changed = false;
                optimize_checked(g, std::slice::from_ref(*pass), &mut |run| {
                    changed |= run.changed;
                })
                .unwrap_or_else(|e| panic!("{e}\n--- input\n{}", print_game(g)));
                changed
            })
        })
        .map(|pass| pass.name())
        .collect();
    assert!(idle.is_empty(), "never change a generated game: {idle:?}");
}

/// Each pass alone on each file: perft up to `depth` unchanged, and quick.
fn check_files(files: &[std::path::PathBuf], depth: u32) {
    for path in files {
        let text = std::fs::read_to_string(path).unwrap();
        let game = parse_game(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        let expected = perfts(&game, depth).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for pass in all_passes() {
            let what = format!("{} on {}", pass.name(), short(path));
            let single = std::slice::from_ref(&pass);
            let (out, took) = optimized(&game, single, &what);
            assert!(
                took < Duration::from_secs(5),
                "{what} took {took:?} (limit 5 s)"
            );
            if pass.name() == UNSAFE {
                continue;
            }
            let got = perfts(&out, depth).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(got, expected, "{what} changed perft");
        }
    }
}

fn short(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().to_string()
}

#[test]
fn every_pass_preserves_perft_on_the_team_corpus() {
    let files = files_with_extension(&team_corpus().join("rg"), "rg");
    assert!(files.len() >= 2);
    check_files(&files, 3);
}

#[test]
fn every_pass_preserves_perft_on_the_shared_corpus() {
    let Some(corpus) = shared_corpus("every_pass_preserves_perft_on_the_shared_corpus") else {
        return;
    };
    let files = files_with_extension(&corpus.join("rg"), "rg");
    assert!(files.len() >= 17, "found {} games", files.len());
    check_files(&files, 2);
}

#[test]
fn reorder_conditions_is_by_name_only_and_says_unsafe() {
    let default: Vec<&str> = default_pipeline().iter().map(|p| p.name()).collect();
    assert!(!default.contains(&UNSAFE));
    let all = all_passes();
    let reorder = all.iter().find(|p| p.name() == UNSAFE).unwrap();
    assert!(reorder.description().contains("UNSAFE"));
    // Names are unique, and every default pass is listed.
    let mut names: Vec<&str> = all.iter().map(|p| p.name()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all.len());
    assert!(default.iter().all(|d| names.contains(d)));
}
