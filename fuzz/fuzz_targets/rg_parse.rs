//! The RG parser: any text gives a game or diagnostics inside the text; a
//! game prints and re-parses to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rgw_fuzz::{diagnostics_point_into, round_trips, text, MAX_PARSE_BYTES};

fuzz_target!(|data: &[u8]| {
    let Some(source) = text(data, MAX_PARSE_BYTES) else {
        return;
    };
    match rg_core::parse::parse_game(source) {
        Ok(game) => round_trips(&game),
        Err(diagnostics) => diagnostics_point_into(&diagnostics, source),
    }
});
