//! What the fuzz targets share: turning bytes into bounded text, checking
//! the properties every front end promises (diagnostics point into the
//! source and render; a translation passes the RG checker, prints and
//! re-parses to itself, and runs under small engine limits).

use rg_core::ast::Game;
use rg_core::check::check_game;
use rg_core::diag::{render_all, Diagnostic};
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};
use rg_core::parse::parse_game;
use rg_core::print::print_game;

/// Longest input a parser target reads (longer inputs are skipped, so that
/// each run stays fast; the corpus's games are smaller).
pub const MAX_PARSE_BYTES: usize = 64 * 1024;
/// Longest input a translation target reads.
pub const MAX_TRANSLATE_BYTES: usize = 16 * 1024;

/// `data` as text, if it is UTF-8 of at most `max` bytes.
pub fn text(data: &[u8], max: usize) -> Option<&str> {
    if data.len() > max {
        return None;
    }
    std::str::from_utf8(data).ok()
}

/// Front-end diagnostics point into `source` (on character boundaries)
/// and render without panicking.
pub fn diagnostics_point_into(diagnostics: &[Diagnostic], source: &str) {
    for d in diagnostics {
        if let Some(span) = d.span {
            assert!(
                span.start <= span.end && span.end <= source.len(),
                "span {span:?} outside the source of {} bytes: {d:?}",
                source.len()
            );
            assert!(
                source.is_char_boundary(span.start) && source.is_char_boundary(span.end),
                "span {span:?} splits a character: {d:?}"
            );
        }
    }
    render(diagnostics, source);
}

/// Renders diagnostics (whatever their spans) as the binary does.
pub fn render(diagnostics: &[Diagnostic], source: &str) {
    let _ = render_all(diagnostics, "fuzz.txt", source);
}

/// A parsed RG game prints to text that parses back to the same game, and
/// printing is idempotent.
pub fn round_trips(game: &Game) {
    let printed = print_game(game);
    let reparsed = parse_game(&printed)
        .unwrap_or_else(|d| panic!("the printed game does not parse: {d:?}\n{printed}"));
    assert!(reparsed == *game, "parse(print(g)) != g for\n{printed}");
    assert_eq!(print_game(&reparsed), printed, "printing is not idempotent");
}

/// Engine limits small enough that one fuzz input stays fast.
pub fn small_engine_options() -> EngineOptions {
    EngineOptions {
        step_limit: 100_000,
        max_state_slots: 1 << 20,
        ..EngineOptions::default()
    }
}

/// Compiles a checked game and explores its first two plies within a
/// small budget; refusals and model errors are fine, panics are not.
pub fn run_briefly(game: &Game) {
    let Ok(engine) = Engine::new(game, small_engine_options()) else {
        return;
    };
    let Ok(initial) = engine.initial() else {
        return;
    };
    let mut budget = Budget::unlimited().max_nodes(2_000);
    let _ = perft(&engine, &initial, 2, &mut budget);
    let mut moves = Vec::new();
    if engine.legal_moves(&initial, &mut moves).is_ok() {
        for m in moves.iter().take(8) {
            let _ = engine.format_move(m);
        }
    }
}

/// What a translator promises: its game passes the RG checker; it also
/// round-trips through the printer and runs.
pub fn translation_is_sound(game: &Game) {
    let diagnostics = check_game(game);
    let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(
        errors.is_empty(),
        "the translation does not check: {errors:?}\n{}",
        print_game(game)
    );
    round_trips(game);
    run_briefly(game);
}
