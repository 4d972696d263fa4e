//! The RG text of small translations, pinned with insta, so that a change
//! in the translation scheme shows up as a reviewable diff.

fn translated(name: &str) -> String {
    let path = format!(
        "{}/../../corpus/rbg-draft/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let source = std::fs::read_to_string(path).expect("corpus file");
    let translation = rbg_draft::translate(&source).expect("translates");
    rg_core::print::print_game(&translation.game)
}

#[test]
fn semimove_and_priority() {
    insta::assert_snapshot!(translated("semimovePriority.rbgd"));
}

#[test]
fn offsets_and_move_identity() {
    insta::assert_snapshot!(translated("offsets.rbgd"));
}

#[test]
fn move_identity() {
    insta::assert_snapshot!(translated("moveIdentity.rbgd"));
}

#[test]
fn tic_tac_toe() {
    insta::assert_snapshot!(translated("ticTacToe.rbgd"));
}
