//! Upper-case domain elements (`domain Choice = STOP | GO`) used by name
//! in graph bodies and initializers are those symbols (hrg.md §3.3), in
//! the translation and in the native interpreter alike.

use std::time::Duration;

use hrg::Interpreter;
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{list_moves, Budget, ForwardModel};
use rg_core::verify::verify;

const GAME: &str = "
domain Player = WHITE | BLACK
domain Score = 0 | 50 | 100
domain Choice = STOP | GO | WAIT
domain Count = N(K) where K in 0..3

choice : Choice = STOP
last : Player -> Choice = { WHITE = GO; BLACK = STOP }
counts : Choice -> Count = { :N(0); STOP = N(1) }
me : Player = WHITE

other : Player -> Player
other(WHITE) = BLACK
other(BLACK) = WHITE

next : Count -> Count
next(N(K)) = if K == 3 then N(3) else N(K + 1)

graph turn() {
  player = me
  branch {
    choice = GO
    $ GO
  } or {
    choice = Choice(*)
    check(choice != GO && last[me] != STOP)
    $$ choice
  } or {
    check(me == BLACK)
    choice = STOP
    $ (STOP WAIT)
  }
  player = keeper
  last[me] = choice
  counts[choice] = next(counts[choice])
  if counts[STOP] == N(3) || counts[GO] == N(3) {
    if choice == STOP {
      goals[me] = 100
      goals[other(me)] = 0
    } else {
      goals[WHITE] = 50
      goals[BLACK] = 50
    }
    end()
  }
  me = other(me)
}

graph rules() {
  loop {
    turn()
  }
}
";

#[test]
fn upper_case_domain_elements_are_symbols_in_both_models() {
    let game = match hrg::translate(GAME) {
        Ok(t) => t.game,
        Err(d) => panic!("{}", rg_core::diag::render_all(&d, "upper.hrg", GAME)),
    };
    let engine = Engine::new(&game, EngineOptions::default()).unwrap();
    let native = match Interpreter::new(GAME) {
        Ok(n) => n,
        Err(d) => panic!("{}", rg_core::diag::render_all(&d, "upper.hrg", GAME)),
    };
    assert_eq!(native.player_names(), vec!["WHITE", "BLACK"]);
    let initial = native.initial().unwrap();
    assert_eq!(
        list_moves(&native, &initial).unwrap(),
        vec!["GO", "STOP", "WAIT"]
    );
    assert_eq!(
        list_moves(&engine, &engine.initial().unwrap()).unwrap(),
        vec!["GO", "STOP", "WAIT"]
    );
    let verdict = verify(
        &native,
        &engine,
        7,
        &mut Budget::with_time_limit(Duration::from_secs(30)),
    );
    assert!(verdict.agrees(), "{verdict}");
    // The game ends (goal expressions ran) within seven moves.
    assert!(verdict.agreed()[7] < verdict.agreed()[6] * 3, "{verdict}");
}

#[test]
fn unknown_upper_case_names_are_still_errors() {
    let text = "domain Player = x\ndomain Score = 0\nc : Player = x\n\
                graph rules() { check(c == NOPE) player = keeper }";
    let message = |d: Vec<rg_core::diag::Diagnostic>| d[0].message.clone();
    let e = hrg::translate(text).err().map(message);
    assert_eq!(e.as_deref(), Some("Unknown variable \"NOPE\"."));
    let e = Interpreter::new(text).err().map(message);
    assert_eq!(e.as_deref(), Some("Unknown variable \"NOPE\"."));
}
