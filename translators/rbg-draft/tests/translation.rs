//! Properties of the RG translation beyond perft: it passes the RG checker
//! without warnings, draft names that RG reserves are renamed, and RG moves
//! print like the interpreter's moves.

use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{list_moves, perft, Budget, ForwardModel};

fn corpus_files() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/rbg-draft");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("corpus dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rbgd"))
        .collect();
    files.sort();
    files
}

#[test]
fn corpus_translations_have_no_rg_warnings() {
    let files = corpus_files();
    assert!(files.len() >= 12);
    for path in files {
        let source = std::fs::read_to_string(&path).expect("readable");
        let translation = rbg_draft::translate(&source).expect("translates");
        assert!(
            translation.warnings.is_empty(),
            "{}: {:?}",
            path.display(),
            translation.warnings
        );
    }
}

#[test]
fn rg_moves_print_like_native_moves() {
    for name in [
        "chess.rbgd",
        "englishDraughts.rbgd",
        "offsets.rbgd",
        "semimovePriority.rbgd",
    ] {
        let path = corpus_files()
            .into_iter()
            .find(|p| p.ends_with(name))
            .expect("corpus game");
        let source = std::fs::read_to_string(path).expect("readable");
        let checked = rbg_draft::parse_and_check(&source).expect("valid");
        let native = rbg_draft::Interpreter::new(&checked.game);
        let engine = Engine::new(
            &rbg_draft::translate(&source).expect("translates").game,
            EngineOptions::default(),
        )
        .expect("engine");
        let mut a = list_moves(&native, &native.initial().unwrap()).unwrap();
        let mut b = list_moves(&engine, &engine.initial().unwrap()).unwrap();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{name}");
    }
}

/// Pieces and players named like RG keywords, built-ins and the
/// translation's own variables still translate, and perft agrees.
#[test]
fn names_rg_reserves_are_renamed() {
    let source = "#game \"names\"\n#board 3 1 keeper visible type\n#order random goals\n\
                  #player random (keeper/counters)(1,0,{visible,coord}/keeper)[goals] + (type/var)[goals]\n\
                  #player goals ({counters,var}/const)[random]\n\
                  #goal random 1 $const > 1 or @ counters 0 0\n#goal goals 2 $turn > 3\n";
    let checked = rbg_draft::parse_and_check(source).expect("valid");
    let native = rbg_draft::Interpreter::new(&checked.game);
    let translation = rbg_draft::translate(source).expect("translates");
    let engine = Engine::new(&translation.game, EngineOptions::default()).expect("engine");
    let series = |m: &dyn Fn(u32) -> u64| (0..=4).map(m).collect::<Vec<_>>();
    let s0 = native.initial().unwrap();
    let e0 = engine.initial().unwrap();
    let a = series(&|d| perft(&native, &s0, d, &mut Budget::unlimited()).unwrap());
    let b = series(&|d| perft(&engine, &e0, d, &mut Budget::unlimited()).unwrap());
    assert_eq!(a, b);
    assert!(a[1] > 0 && a[2] > 0, "{a:?}");
}
