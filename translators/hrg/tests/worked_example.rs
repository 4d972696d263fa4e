//! The worked example of hrg.md §6 translates to exactly the RG listed
//! there (node naming, declaration order and map compression included).

#[test]
fn four_cell_strip_translates_byte_for_byte() {
    let source = include_str!("data/strip.hrg");
    let expected = include_str!("data/strip.rg");
    let translation = hrg::translate(source)
        .unwrap_or_else(|d| panic!("{}", rg_core::diag::render_all(&d, "strip.hrg", source)));
    let printed = rg_core::print::print_game(&translation.game);
    assert_eq!(printed, expected);
}
