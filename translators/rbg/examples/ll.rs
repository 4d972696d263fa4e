//! Prints the canonical low-level form of a (high- or low-level) RBG file:
//! `cargo run -p rbg --example ll -- FILE`.

fn main() {
    for file in std::env::args().skip(1) {
        let source = match std::fs::read_to_string(&file) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{file}: {e}");
                continue;
            }
        };
        match rbg::parse_and_check(&source) {
            Ok(game) => print!("{}", rbg::preprocess::print_ll(&game).0),
            Err(errors) => eprintln!("{}", rg_core::diag::render_all(&errors, &file, &source)),
        }
    }
}
