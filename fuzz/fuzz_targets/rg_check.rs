//! The RG checker, then the engine: a parsed game is checked; a clean one
//! compiles (or is refused) and runs its first plies under small limits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rg_core::check::check_game;
use rgw_fuzz::{diagnostics_point_into, run_briefly, text, MAX_PARSE_BYTES};

fuzz_target!(|data: &[u8]| {
    let Some(source) = text(data, MAX_PARSE_BYTES) else {
        return;
    };
    let Ok(game) = rg_core::parse::parse_game(source) else {
        return;
    };
    let diagnostics = check_game(&game);
    diagnostics_point_into(&diagnostics, source);
    if !diagnostics.iter().any(|d| d.is_error()) {
        run_briefly(&game);
    }
});
