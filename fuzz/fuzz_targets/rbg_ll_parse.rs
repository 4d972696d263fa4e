//! The low-level RBG parser and checker.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rgw_fuzz::{diagnostics_point_into, text, MAX_PARSE_BYTES};

fuzz_target!(|data: &[u8]| {
    let Some(source) = text(data, MAX_PARSE_BYTES) else {
        return;
    };
    match rbg::parse::parse_ll(source) {
        Ok(game) => diagnostics_point_into(&rbg::check::check(&game), source),
        Err(diagnostics) => diagnostics_point_into(&diagnostics, source),
    }
});
