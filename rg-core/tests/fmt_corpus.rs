//! The comment-preserving printer over every RG file of both corpora: the
//! game is unchanged, every comment is kept, and formatting is idempotent.

use std::path::{Path, PathBuf};

use rg_core::parse::parse_game;
use rg_core::print::{print_game_with_comments, source_comments};

fn rg_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rg_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rg") {
            found.push(path);
        }
    }
}

fn comment_texts(text: &str) -> Vec<String> {
    let mut texts: Vec<_> = source_comments(text).into_iter().map(|c| c.text).collect();
    texts.sort();
    texts
}

fn check_file(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let game = parse_game(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
    let once = print_game_with_comments(&game, &text);
    let reparsed = parse_game(&once).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
    assert_eq!(
        reparsed,
        game,
        "{}: formatting changed the game",
        path.display()
    );
    assert_eq!(
        comment_texts(&once),
        comment_texts(&text),
        "{}: formatting lost or changed a comment",
        path.display()
    );
    assert_eq!(
        print_game_with_comments(&reparsed, &once),
        once,
        "{}: formatting is not idempotent",
        path.display()
    );
}

#[test]
fn formatting_the_team_corpus_keeps_games_and_comments() {
    let mut files = Vec::new();
    rg_files(&testkit::team_corpus(), &mut files);
    assert!(!files.is_empty());
    files.iter().for_each(|f| check_file(f));
}

#[test]
fn formatting_the_shared_corpus_keeps_games_and_comments() {
    let Some(corpus) = testkit::shared_corpus("formatting_the_shared_corpus") else {
        return;
    };
    let mut files = Vec::new();
    rg_files(&corpus, &mut files);
    let commented = files
        .iter()
        .filter(|f| std::fs::read_to_string(f).unwrap().contains("//"))
        .count();
    assert!(commented > 0, "the shared corpus has commented RG files");
    files.iter().for_each(|f| check_file(f));
}
