//! The high-level RBG preprocessor (macros, boards, `^n`), then the
//! low-level parser and checker on its output, with errors mapped back to
//! the original text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rgw_fuzz::{diagnostics_point_into, text, MAX_PARSE_BYTES};

fuzz_target!(|data: &[u8]| {
    let Some(source) = text(data, MAX_PARSE_BYTES) else {
        return;
    };
    match rbg::parse_and_check(source) {
        Ok(_) => {}
        Err(diagnostics) => diagnostics_point_into(&diagnostics, source),
    }
});
