//! Run-time relations (docs/gdl.md §5.8): a derived relation too large to
//! ground is evaluated against the state. The prover and the propnet model
//! must agree on every state, goals and terminal included.

use std::time::Duration;

use gdl::Prover;
use propnet::{GroundingLimits, PropnetModel};
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};

/// A 2×2 "latin square": one player fills the cells with 1 or 2; goal 100
/// iff each row and column holds both digits. `good` has the shape of
/// sudoku's `goodRow` (cells joined with a static `exactlyOne` check).
const LATIN: &str = r#"
(role p)
(digit 1) (digit 2)
(index 1) (index 2)
(<= (legal p (play ?i ?j ?m)) (digit ?m) (empty ?i ?j))
(<= (next (mark ?i ?j ?m)) (does p (play ?i ?j ?m)))
(<= (next (mark ?i ?j ?m)) (true (mark ?i ?j ?m)))
(<= (empty ?i ?j) (index ?i) (index ?j) (not (true (mark ?i ?j 1))) (not (true (mark ?i ?j 2))))
(<= anyEmpty (empty ?i ?j))
(<= terminal (not anyEmpty))
(same 1 1) (same 2 2)
(<= (one ?z ?a ?b) (same ?z ?a) (digit ?b) (distinct ?z ?b))
(<= (one ?z ?a ?b) (same ?z ?b) (digit ?a) (distinct ?z ?a))
(<= (goodRow ?i) (true (mark ?i 1 ?a)) (true (mark ?i 2 ?b)) (one 1 ?a ?b) (one 2 ?a ?b))
(<= (goodCol ?j) (true (mark 1 ?j ?a)) (true (mark 2 ?j ?b)) (distinct ?a ?b))
(<= win (goodRow 1) (goodRow 2) (goodCol 1) (goodCol 2))
(<= (goal p 100) win)
(<= (goal p 0) (not win))
"#;

fn load(source: &str) -> gdl::Game {
    gdl::load(source).unwrap_or_else(|e| panic!("{}", e[0].message))
}

/// The propnet model with the named relations evaluated at run time
/// (they are small here, so grounding would not choose it by itself).
fn forced(program: &propnet::datalog::Program, names: &[&str]) -> Result<PropnetModel, String> {
    propnet::ground_with_runtime(program, &GroundingLimits::default(), names)
        .map(PropnetModel::from_ground)
        .map_err(|e| e.to_string())
}

/// The RG translation of the program `model` was built from, run by the
/// RG engine.
fn rg_engine(game: &gdl::Game, model: &PropnetModel) -> Engine {
    let t = gdl::lower(game, model.ground_program())
        .unwrap_or_else(|e| panic!("lowering: {}", e[0].message));
    Engine::new(&t.game, EngineOptions::default())
        .unwrap_or_else(|e| panic!("engine: {}", e[0].message))
}

fn names<M: ForwardModel>(m: &M, moves: &[M::Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|x| m.format_move(x)).collect();
    v.sort();
    v
}

/// Walks the whole game tree of the three models in lockstep (moves
/// matched by name), comparing legal moves, terminal and goals on every
/// state; returns (states, terminal states with goal 100, with goal 0).
fn compare_everywhere(game: &gdl::Game, model: &PropnetModel) -> (u64, u64, u64) {
    let prover = Prover::new(&game.description).expect("prover");
    let rg = rg_engine(game, model);
    let mut stack = vec![(
        prover.initial().unwrap(),
        model.initial().unwrap(),
        rg.initial().unwrap(),
    )];
    let (mut states, mut wins, mut losses) = (0, 0, 0);
    while let Some((a, b, c)) = stack.pop() {
        states += 1;
        assert_eq!(prover.is_terminal(&a), model.is_terminal(&b));
        assert_eq!(prover.is_terminal(&a), rg.is_terminal(&c));
        assert_eq!(prover.goals(&a), model.goals(&b));
        assert_eq!(prover.goals(&a), rg.goals(&c));
        if prover.is_terminal(&a) {
            match prover.goals(&a).as_slice() {
                [100] => wins += 1,
                [0] => losses += 1,
                other => panic!("unexpected goals {other:?}"),
            }
            continue;
        }
        let (mut ma, mut mb, mut mc) = (Vec::new(), Vec::new(), Vec::new());
        prover.legal_moves(&a, &mut ma).unwrap();
        model.legal_moves(&b, &mut mb).unwrap();
        rg.legal_moves(&c, &mut mc).unwrap();
        assert_eq!(names(&prover, &ma), names(model, &mb));
        assert_eq!(names(&prover, &ma), names(&rg, &mc));
        for m in &ma {
            let name = prover.format_move(m);
            let k = mb
                .iter()
                .position(|x| model.format_move(x) == name)
                .unwrap();
            let j = mc.iter().position(|x| rg.format_move(x) == name).unwrap();
            let (mut a2, mut b2, mut c2) = (a.clone(), b.clone(), c.clone());
            prover.apply(&mut a2, m).unwrap();
            model.apply(&mut b2, &mb[k]).unwrap();
            rg.apply(&mut c2, &mc[j]).unwrap();
            stack.push((a2, b2, c2));
        }
    }
    (states, wins, losses)
}

#[test]
fn latin_square_runtime_relations_agree_with_the_prover_on_every_state() {
    let game = load(LATIN);
    let program = gdl::to_datalog(&game);
    let model = forced(&program, &["goodrow", "goodcol"]).unwrap();
    let ground = model.ground_program();
    let runtime: Vec<&str> = ground
        .runtime
        .relations
        .iter()
        .map(|&(s, _)| ground.symbols.name(s))
        .collect();
    assert_eq!(runtime, ["goodrow", "goodcol"]);
    assert_eq!(ground.runtime.atoms.len(), 4);
    let (states, wins, losses) = compare_everywhere(&game, &model);
    // 4 cells, 2 digits: 1 + 8 + 48 + 192 + 384 states; 2 of the 16
    // fillings are latin squares, each reached in 4! orders.
    assert_eq!(states, 633);
    assert_eq!(wins, 48);
    assert_eq!(losses, 336);
}

#[test]
fn latin_square_without_runtime_relations_is_the_same_game() {
    let game = load(LATIN);
    let program = gdl::to_datalog(&game);
    let model = PropnetModel::new(&program, &GroundingLimits::default()).unwrap();
    assert!(model.ground_program().runtime.relations.is_empty());
    assert_eq!(compare_everywhere(&game, &model), (633, 48, 336));
}

#[test]
fn forcing_an_ineligible_relation_is_an_error() {
    let game = load(LATIN);
    let program = gdl::to_datalog(&game);
    // `win` reads derived dynamic relations, `legal` is a GDL relation.
    for name in ["win", "legal", "nosuchrelation"] {
        let error = forced(&program, &[name])
            .err()
            .unwrap_or_else(|| panic!("{name}: expected an error"));
        assert!(
            error.contains("cannot be evaluated at run time"),
            "{name}: {error}"
        );
    }
}

fn sudoku() -> Option<gdl::Game> {
    let corpus = testkit::shared_corpus("runtime_relations")?;
    let path = corpus.join("kif/sudoku.kif");
    Some(load(&std::fs::read_to_string(path).expect("sudoku.kif")))
}

#[test]
fn sudoku_grounds_with_runtime_relations_and_agrees_with_the_prover() {
    let Some(game) = sudoku() else { return };
    let program = gdl::to_datalog(&game);
    let start = std::time::Instant::now();
    let model = PropnetModel::new(&program, &GroundingLimits::default()).unwrap();
    let ground = model.ground_program();
    eprintln!(
        "sudoku: grounded in {:.2?}: {} atoms, {} rules, {:?}",
        start.elapsed(),
        ground.atoms.len(),
        ground.rules.len(),
        ground.stats
    );
    let mut runtime: Vec<&str> = ground
        .stats
        .runtime_relations
        .iter()
        .map(|(name, _)| name.as_str())
        .collect();
    runtime.sort_unstable();
    assert_eq!(runtime, ["goodcolumn", "goodrow", "goodsquare"]);
    let prover = Prover::new(&game.description).unwrap();
    let rg = rg_engine(&game, &model);
    let (p0, m0, r0) = (
        prover.initial().unwrap(),
        model.initial().unwrap(),
        rg.initial().unwrap(),
    );
    for (depth, expected) in [(0, 1), (1, 729), (2, 729 * 720)] {
        let budget = || Budget::with_time_limit(Duration::from_secs(120));
        assert_eq!(perft(&prover, &p0, depth, &mut budget()).unwrap(), expected);
        assert_eq!(perft(&model, &m0, depth, &mut budget()).unwrap(), expected);
        assert_eq!(perft(&rg, &r0, depth, &mut budget()).unwrap(), expected);
    }
}

/// `big` joins seven cells of ten digits each, chained by `distinct` (so
/// that decomposition cannot split it; about 5 million instances): its
/// instantiation passes the grounder's step budget, so it becomes
/// run-time by itself. The variant that also reads `does` cannot, and
/// grounding fails with a limit instead.
const BIG: &str = r#"
(role p)
(digit 0) (digit 1) (digit 2) (digit 3) (digit 4) (digit 5) (digit 6) (digit 7) (digit 8) (digit 9)
(cell 1) (cell 2) (cell 3) (cell 4) (cell 5) (cell 6) (cell 7)
(<= (init (c ?i ?d)) (cell ?i) (digit ?d))
(init step0)
(<= (legal p (play ?d)) (digit ?d) (true step0))
(<= (next (c ?i ?d)) (true (c ?i ?d)) (not (does p (play ?d))))
(<= (next step1) (true step0))
(<= big (true (c 1 ?a)) (true (c 2 ?b)) (true (c 3 ?x)) (true (c 4 ?y)) (true (c 5 ?z))
        (true (c 6 ?u)) (true (c 7 ?w)) (distinct ?a ?b) (distinct ?b ?x) (distinct ?x ?y)
        (distinct ?y ?z) (distinct ?z ?u) (distinct ?u ?w))
(<= (next won) big)
(<= terminal (true step1))
(<= (goal p 100) (true won))
(<= (goal p 0) (not (true won)))
"#;

#[test]
fn a_relation_past_the_step_budget_becomes_runtime() {
    let game = load(BIG);
    let program = gdl::to_datalog(&game);
    let model = PropnetModel::new(&program, &GroundingLimits::default()).unwrap();
    let stats = &model.ground_program().stats;
    assert_eq!(stats.runtime_relations.len(), 1, "{stats:?}");
    assert_eq!(stats.runtime_relations[0].0, "big");
    assert!(stats.runtime_relations[0].1.contains("join steps"));
    // Every move removes one digit from every cell: `big` still holds.
    assert_eq!(compare_everywhere(&game, &model), (11, 10, 0));
}

#[test]
fn a_large_relation_that_reads_moves_still_fails_with_a_limit() {
    let source = BIG.replace(
        "(<= big (true (c 1 ?a))",
        "(<= big (does p (play ?a)) (true (c 1 ?a))",
    );
    assert_ne!(source, BIG);
    let game = load(&source);
    let program = gdl::to_datalog(&game);
    let limits = GroundingLimits {
        max_atoms: 100_000,
        max_rules: 100_000,
        max_time: Some(Duration::from_secs(20)),
    };
    let error = PropnetModel::new(&program, &limits).err().expect("a limit");
    assert!(error.to_string().contains("exceeded"), "{error}");
}

/// A run-time rule comparing compound terms built from variables bound at
/// run time has no RG lowering: the translation says so.
#[test]
fn compound_terms_over_runtime_variables_are_refused_by_the_lowering() {
    let source = LATIN.replace(
        "(<= (goodCol ?j) (true (mark 1 ?j ?a)) (true (mark 2 ?j ?b)) (distinct ?a ?b))",
        "(<= (goodCol ?j) (true (mark 1 ?j ?a)) (true (mark 2 ?j ?b)) (distinct (f ?a) (f ?b)))",
    );
    assert_ne!(source, LATIN);
    let game = load(&source);
    let program = gdl::to_datalog(&game);
    let model = forced(&program, &["goodcol"]).unwrap();
    let Err(error) = gdl::lower(&game, model.ground_program()) else {
        panic!("expected a lowering error");
    };
    assert!(
        error[0].message.contains("compound term"),
        "{}",
        error[0].message
    );
}

/// The move of `model` named like `(play i j m)`.
fn find_move<M: ForwardModel>(model: &M, state: &M::State, want: [u32; 3]) -> M::Move {
    let mut moves = Vec::new();
    model.legal_moves(state, &mut moves).unwrap();
    let want: Vec<String> = std::iter::once("play".to_string())
        .chain(want.iter().map(u32::to_string))
        .collect();
    moves
        .into_iter()
        .find(|m| {
            let name = model.format_move(m);
            let tokens: Vec<&str> = name
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|t| !t.is_empty())
                .collect();
            tokens == want
        })
        .unwrap_or_else(|| panic!("no move {want:?}"))
}

/// Fills the board cell by cell in the three models, comparing terminal
/// and goals after every move; returns the final goals.
fn fill_sudoku(board: impl Fn(u32, u32) -> u32) -> Option<Vec<i64>> {
    let game = sudoku()?;
    let program = gdl::to_datalog(&game);
    let model = PropnetModel::new(&program, &GroundingLimits::default()).unwrap();
    let prover = Prover::new(&game.description).unwrap();
    let rg = rg_engine(&game, &model);
    let (mut a, mut b, mut c) = (
        prover.initial().unwrap(),
        model.initial().unwrap(),
        rg.initial().unwrap(),
    );
    for i in 1..=9 {
        for j in 1..=9 {
            let cell = [i, j, board(i, j)];
            let ma = find_move(&prover, &a, cell);
            prover.apply(&mut a, &ma).unwrap();
            let mb = find_move(&model, &b, cell);
            model.apply(&mut b, &mb).unwrap();
            let mc = find_move(&rg, &c, cell);
            rg.apply(&mut c, &mc).unwrap();
            let last = i == 9 && j == 9;
            assert_eq!(prover.is_terminal(&a), last);
            assert_eq!(model.is_terminal(&b), last);
            assert_eq!(rg.is_terminal(&c), last);
            assert_eq!(prover.goals(&a), model.goals(&b), "after {cell:?}");
            assert_eq!(prover.goals(&a), rg.goals(&c), "after {cell:?}");
        }
    }
    Some(prover.goals(&a))
}

/// A solved grid: every row, column and square holds 1 to 9.
fn solved(i: u32, j: u32) -> u32 {
    ((i - 1) * 3 + (i - 1) / 3 + (j - 1)) % 9 + 1
}

#[test]
fn sudoku_solved_grid_scores_100_in_all_three_models() {
    if let Some(goals) = fill_sudoku(solved) {
        assert_eq!(goals, [100]);
    }
}

#[test]
fn sudoku_grid_with_two_cells_swapped_scores_0_in_all_three_models() {
    // Rows still hold 1 to 9; columns 1 and 2 do not.
    let swapped = |i, j| match (i, j) {
        (1, 1) => solved(1, 2),
        (1, 2) => solved(1, 1),
        _ => solved(i, j),
    };
    if let Some(goals) = fill_sudoku(swapped) {
        assert_eq!(goals, [0]);
    }
}

/// Each RG variable of a run-time relation is typed by the values it can
/// take: the latin square's digits (and the initial `unbound`), not every
/// term of the game.
#[test]
fn runtime_variables_are_typed_by_their_values() {
    let game = load(LATIN);
    let program = gdl::to_datalog(&game);
    let model = forced(&program, &["goodrow", "goodcol"]).unwrap();
    let t =
        gdl::lower(&game, model.ground_program()).unwrap_or_else(|e| panic!("{}", e[0].message));
    let symbols_of = |ty: &rg_core::ast::Type| -> Vec<String> {
        let rg_core::ast::Type::Name(name, _) = ty else {
            panic!("expected a named type, got {ty:?}");
        };
        let def = t.game.typedefs.iter().find(|d| &d.name == name).unwrap();
        let rg_core::ast::Type::Set(symbols, _) = &def.ty else {
            panic!("expected a set type");
        };
        let mut v = symbols.clone();
        v.sort();
        v
    };
    let runtime_vars: Vec<_> = t
        .game
        .variables
        .iter()
        .filter(|v| v.name.starts_with("goodrow_") || v.name.starts_with("goodcol_"))
        .collect();
    // goodRow's ?a, ?b; goodCol's ?a, ?b.
    assert_eq!(runtime_vars.len(), 4, "{runtime_vars:?}");
    for v in runtime_vars {
        assert_eq!(symbols_of(&v.ty), ["1", "2", "unbound"], "{}", v.name);
    }
}
