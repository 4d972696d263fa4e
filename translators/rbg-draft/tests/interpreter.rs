//! The native interpreter on hand-made cases: printed move traces
//! (rbg-draft.md §5.6), improper descriptions reported as errors instead of
//! looping, stuck players and scores (§6).

use rg_core::model::{list_moves, ForwardModel};

fn model(source: &str) -> rbg_draft::Interpreter {
    let checked = rbg_draft::parse_and_check(source)
        .unwrap_or_else(|e| panic!("{}", rg_core::diag::render_all(&e, "t.rbgd", source)));
    rbg_draft::Interpreter::new(&checked.game)
}

fn corpus(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../corpus/rbg-draft/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("corpus file")
}

#[test]
fn chess_double_step_prints_as_its_trace() {
    let m = model(&corpus("chess.rbgd"));
    let moves = list_moves(&m, &m.initial().unwrap()).unwrap();
    assert_eq!(moves.len(), 20);
    assert!(
        moves.contains(&"x4y2 empty x4y4 wpawnd to_black".to_string()),
        "{moves:?}"
    );
}

#[test]
fn black_clears_its_double_step_pawn_in_a_semimove_proper() {
    let m = model(&corpus("chess.rbgd"));
    let mut state = m.initial().unwrap();
    let mut moves = Vec::new();
    m.legal_moves(&state, &mut moves).unwrap();
    let e4 = moves
        .iter()
        .find(|mv| m.format_move(mv) == "x4y2 empty x4y4 wpawnd to_black")
        .unwrap()
        .clone();
    m.apply(&mut state, &e4).unwrap();
    m.legal_moves(&state, &mut moves).unwrap();
    let e5 = moves
        .iter()
        .find(|mv| m.format_move(mv) == "x4y7 empty x4y5 bpawnd to_white")
        .unwrap()
        .clone();
    m.apply(&mut state, &e5).unwrap();
    // White's turns now start with the forced semimove wpawnd -> wpawn.
    m.legal_moves(&state, &mut moves).unwrap();
    assert!(moves
        .iter()
        .all(|mv| m.format_move(mv).starts_with("x4y4 wpawn semi ")));
}

#[test]
fn move_identity_by_traces() {
    let m = model(&corpus("moveIdentity.rbgd"));
    let mut moves = list_moves(&m, &m.initial().unwrap()).unwrap();
    moves.sort();
    assert_eq!(moves, ["x0y0 e x2y0 b to_q", "x0y0 e x2y0 c to_q"]);
}

#[test]
fn stuck_player_loses_and_others_score() {
    let m = model(&corpus("stuckAfterSemimove.rbgd"));
    let mut state = m.initial().unwrap();
    let mut moves = Vec::new();
    m.legal_moves(&state, &mut moves).unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(m.format_move(&moves[0]), "x0y0 b semi");
    m.apply(&mut state, &moves[0]).unwrap();
    assert!(m.is_terminal(&state));
    assert_eq!(m.goals(&state), [0]);
}

#[test]
fn first_player_without_moves_loses_at_once() {
    let m = model(
        "#game \"g\"\n#board 1 1 e\n#order p q\n#player p (x/e)[q]\n#player q (e/x)[p]\n\
         #goal p 3 $turn > 9\n#goal q 2 $turn > 9\n",
    );
    let state = m.initial().unwrap();
    assert!(m.is_terminal(&state));
    assert_eq!(m.goals(&state), [0, 2]);
}

#[test]
fn goals_are_checked_after_the_turn_counter() {
    // R28: after the only turn `$turn` is 2, so both goals hold: a draw.
    let m = model(
        "#game \"g\"\n#board 1 1 e\n#order p q\n#player p (e/x)[q]\n#player q (x/e)[p]\n\
         #goal p 1 $turn > 1\n#goal q 5 $turn == 2\n",
    );
    let mut state = m.initial().unwrap();
    let mut moves = Vec::new();
    m.legal_moves(&state, &mut moves).unwrap();
    m.apply(&mut state, &moves[0]).unwrap();
    assert!(m.is_terminal(&state));
    assert_eq!(m.goals(&state), [1, 5]);
}

#[test]
fn semimove_proper_that_repeats_the_board_is_improper() {
    let m = model("#game \"g\"\n#board 1 1 e\n#order p\n#player p (e/e)\n#goal p 1 $turn > 3\n");
    let mut moves = Vec::new();
    let error = m
        .legal_moves(&m.initial().unwrap(), &mut moves)
        .unwrap_err();
    assert!(error.message.contains("improper"), "{error}");
}

#[test]
fn endless_writes_in_one_semimove_are_improper() {
    let m = model(
        "#game \"g\"\n#board 1 1 e\n#order p\n#player p ((e/a)(a/e))^*(x)[p]\n\
         #goal p 1 $turn > 3\n",
    );
    // Found already by the initial mobility check.
    let error = m.initial().unwrap_err();
    assert!(error.message.contains("more than"), "{error}");
}

#[test]
fn a_passed_deadline_stops_a_long_move_search() {
    let m = model(&corpus("chess.rbgd"));
    let state = m.initial().unwrap();
    m.set_deadline(Some(std::time::Instant::now()));
    std::thread::sleep(std::time::Duration::from_millis(2));
    let mut moves = Vec::new();
    let error = m.legal_moves(&state, &mut moves).unwrap_err();
    assert!(error.message.contains("time limit"), "{error}");
    m.set_deadline(None);
    m.legal_moves(&state, &mut moves).unwrap();
    assert_eq!(moves.len(), 20);
}

/// Fuzzing regression (translate_rbgd): connect four whose drop may write
/// any of three pieces on every row ends each drop with a semimove proper,
/// so a turn chains drops and its moves multiply by thousands per link.
/// Enumerating them exhausted memory (19 GB in a minute); now the turn
/// stops at the size limit with an error.
#[test]
fn a_turn_of_exponentially_many_moves_stops_at_the_limit() {
    let source = corpus("connect4.rbgd");
    let drop = "#def DROP(md) = (empty/me)>(0,-1,{red,yellow,zone})";
    let original = source
        .lines()
        .find(|line| line.starts_with("#def DROP"))
        .expect("connect four defines DROP");
    let m = model(&source.replace(original, drop));
    let started = std::time::Instant::now();
    let mut moves = Vec::new();
    let error = m
        .legal_moves(&m.initial().unwrap(), &mut moves)
        .expect_err("the turn is too large");
    assert!(
        error.to_string().contains("more than 1000000 semimoves"),
        "{error}"
    );
    assert!(started.elapsed().as_secs() < 60, "stopping took too long");
}
