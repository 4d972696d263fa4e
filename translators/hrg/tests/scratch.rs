#[test]
fn scratch() {
    for f in std::fs::read_dir("../../../shared/corpus/hrg").unwrap() {
        let p = f.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        match hrg::parse::parse_program(&text) {
            Ok(_) => println!("ok {}", p.display()),
            Err(e) => println!("FAIL {}\n{}", p.display(), rg_core::diag::render_all(&e, "x", &text)),
        }
    }
}
