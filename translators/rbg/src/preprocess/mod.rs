//! The high-level RBG preprocessor (rbg.md §4): tokens → items → macro
//! expansion → declarations, board and typed rules → low-level text.
//!
//! Every diagnostic points into the original source. The emitted text comes
//! with a [`SourceMap`] so that errors found later in the low-level text (by
//! the parser or the checker) can be reported at the original location too.

#![warn(clippy::cast_possible_truncation)] // user data is read here

mod board;
mod cursor;
mod declarations;
mod emit;
mod expand;
mod items;
mod rules;
mod source_map;

use std::collections::HashSet;

use rg_core::diag::Diagnostic;

use crate::ast::Game;
use crate::lexer::{tokenize, Keyword};
use cursor::Cursor;
use expand::Expander;
use items::{collect_macros, split_items, Item, ItemKind};

pub use emit::print_ll;
pub use expand::paste;
pub use source_map::SourceMap;

/// The result of preprocessing: low-level text and where its tokens came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preprocessed {
    /// Low-level RBG (canonical layout of rbg.md §4.7).
    pub text: String,
    pub source_map: SourceMap,
}

/// Expands a high-level (or low-level) description into low-level text.
pub fn preprocess(source: &str) -> Result<Preprocessed, Vec<Diagnostic>> {
    let game = expand_to_game(source)?;
    let (text, source_map) = print_ll(&game);
    Ok(Preprocessed { text, source_map })
}

/// The five sections of a file, by keyword.
struct Sections<'i, 'a> {
    players: &'i Item<'a>,
    pieces: &'i Item<'a>,
    variables: &'i Item<'a>,
    board: &'i Item<'a>,
    rules: &'i Item<'a>,
}

fn find_sections<'i, 'a>(
    items: &'i [Item<'a>],
    errors: &mut Vec<Diagnostic>,
) -> Option<Sections<'i, 'a>> {
    let find = |keyword: Keyword, errors: &mut Vec<Diagnostic>| -> Option<&'i Item<'a>> {
        let mut found = items
            .iter()
            .filter(|i| matches!(i.kind, ItemKind::Section(k) if k == keyword));
        let first = found.next();
        for duplicate in found {
            errors.push(
                Diagnostic::error(
                    format!("section `#{}` appears twice", keyword.text()),
                    duplicate.header,
                )
                .with_label("second definition")
                .with_note("each section must appear exactly once"),
            );
        }
        if first.is_none() {
            errors.push(
                Diagnostic::error(format!("section `#{}` is missing", keyword.text()), None)
                    .with_note("every game needs #players, #pieces, #variables, #board and #rules"),
            );
        }
        first
    };
    let players = find(Keyword::Players, errors);
    let pieces = find(Keyword::Pieces, errors);
    let variables = find(Keyword::Variables, errors);
    let board = find(Keyword::Board, errors);
    let rules = find(Keyword::Rules, errors);
    Some(Sections {
        players: players?,
        pieces: pieces?,
        variables: variables?,
        board: board?,
        rules: rules?,
    })
}

/// Runs the preprocessor up to the low-level AST (spans in `source`).
pub fn expand_to_game(source: &str) -> Result<Game, Vec<Diagnostic>> {
    let tokens = tokenize(source)?;
    let mut errors = Vec::new();
    let items = split_items(&tokens, &mut errors);
    let macros = collect_macros(&items, &mut errors);
    let sections = find_sections(&items, &mut errors);
    let Some(sections) = sections else {
        return Err(errors);
    };
    let expander = Expander { macros: &macros };
    let expand = |item: &Item<'_>, errors: &mut Vec<Diagnostic>| match expander
        .expand_section(item.body, item.order)
    {
        Ok(tokens) => Some(tokens),
        Err(e) => {
            errors.push(e);
            None
        }
    };

    let run = |item: &Item<'_>,
               errors: &mut Vec<Diagnostic>,
               f: &mut dyn FnMut(&mut Cursor<'_>) -> Result<(), Diagnostic>| {
        let Some(expanded) = expand(item, errors) else {
            return;
        };
        let mut cursor = Cursor::new(source, &expanded, item.header);
        if let Err(e) = f(&mut cursor) {
            errors.push(e);
        }
    };

    let mut players = None;
    let mut pieces = None;
    let mut variables = None;
    run(sections.players, &mut errors, &mut |c| {
        players = Some(declarations::bounded_names(c, "player", false)?);
        Ok(())
    });
    run(sections.pieces, &mut errors, &mut |c| {
        pieces = Some(declarations::pieces(c)?);
        Ok(())
    });
    run(sections.variables, &mut errors, &mut |c| {
        variables = Some(declarations::bounded_names(c, "variable", true)?);
        Ok(())
    });
    let (Some(players), Some(mut pieces), Some(mut variables)) = (players, pieces, variables)
    else {
        return Err(errors);
    };
    let declared: HashSet<String> = pieces
        .iter()
        .map(|p| p.name.clone())
        .chain(players.iter().map(|p| p.name.clone()))
        .chain(variables.iter().map(|v| v.name.clone()))
        .collect();

    let mut board = None;
    run(sections.board, &mut errors, &mut |c| {
        board = Some(board::board(c, &declared)?);
        Ok(())
    });
    let Some(board) = board else {
        return Err(errors);
    };

    let mut rules = None;
    if let Some(expanded) = expand(sections.rules, &mut errors) {
        let mut cursor = Cursor::new(source, &expanded, sections.rules.header);
        let mut parser = rules::RulesParser::new(&mut cursor, &declared, &board.labels);
        let parsed = parser.rules();
        errors.append(&mut parser.soft_errors);
        match parsed {
            Ok(rule) => rules = Some(rule),
            Err(e) => errors.push(e),
        }
    }
    let Some(mut rules) = rules else {
        return Err(errors);
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    rules.assign_modifier_indices();
    // Conventional order: pieces and variables sorted (rbg.md §4.7).
    pieces.sort_by(|a, b| a.name.cmp(&b.name));
    variables.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Game {
        players,
        pieces,
        variables,
        board: board.vertices,
        rules,
    })
}
