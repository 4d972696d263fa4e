//! The early RBG draft's macro expansion, parser and checker.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rgw_fuzz::{diagnostics_point_into, text, MAX_PARSE_BYTES};

fuzz_target!(|data: &[u8]| {
    let Some(source) = text(data, MAX_PARSE_BYTES) else {
        return;
    };
    if let Err(diagnostics) = rbg_draft::parse_and_check(source) {
        diagnostics_point_into(&diagnostics, source);
    }
});
