#[test]
#[ignore]
fn dump() {
    let name = std::env::var("GAME").unwrap();
    let path = format!("/work/shared/corpus/kif/{name}.kif");
    let source = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
    let t = gdl::translate(&source, &propnet::GroundingLimits::default()).unwrap();
    std::fs::write(format!("/tmp/exp/{name}.rg"), rg_core::print::print_game(&t.game)).unwrap();
    println!("{:?}", t.stats);
}
