//! The comment-preserving printer mode (`rgw fmt`): the canonical form of
//! a game with every `//` comment of its source kept.
//!
//! The canonical printer regroups declarations by kind, so a comment
//! cannot stay where it was in the text; it travels with a declaration or
//! edge instead:
//! - a comment on the line where a declaration ends (after it, with no
//!   other declaration starting in between) trails that declaration;
//! - any other comment, including one inside a declaration, leads the
//!   declaration that follows it in the source, on lines of its own;
//! - comments after the last declaration end the file.
//!
//! Printing again gives the same text: each comment is printed where the
//! rules above attach it to the same declaration.

use super::printed_items;
use crate::ast::Game;
use crate::diag::Span;
use crate::syntax::skip_trivia;

/// A `//` comment of an RG source: its text (from `//`, without the line
/// break and trailing whitespace) and its byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub start: usize,
    pub text: String,
}

/// Every comment of an RG source, in order. RG has no string literals, so
/// every `//` outside a comment starts one.
pub fn source_comments(source: &str) -> Vec<Comment> {
    let mut comments = Vec::new();
    let mut offset = 0;
    while let Some(found) = source[offset..].find("//") {
        let start = offset + found;
        let length = source[start..]
            .find(['\n', '\r'])
            .unwrap_or(source.len() - start);
        let text = source[start..start + length].trim_end();
        comments.push(Comment {
            start,
            text: text.to_string(),
        });
        offset = start + length;
    }
    comments
}

/// Prints `game`, parsed from `source`, in canonical form with the
/// source's comments attached as the module documentation describes.
pub fn print_game_with_comments(game: &Game, source: &str) -> String {
    let items = printed_items(game);
    let mut leading: Vec<Vec<String>> = vec![Vec::new(); items.len()];
    let mut trailing: Vec<Option<String>> = vec![None; items.len()];
    let mut at_end = Vec::new();

    // Items in source order, each as (first token, end, printed index).
    // A span may start with trivia (edges read their leading comments), so
    // its start is moved to the first token.
    let mut by_source: Vec<(usize, usize, usize)> = items
        .iter()
        .enumerate()
        .filter_map(|(index, item)| {
            let Span { start, end } = item.span?;
            let start = source.len() - skip_trivia(&source[start..]).len();
            Some((start, end, index))
        })
        .collect();
    by_source.sort_unstable();

    for comment in source_comments(source) {
        // The first item starting after the comment, and the one before.
        let next = by_source.partition_point(|&(start, _, _)| start < comment.start);
        let previous = next.checked_sub(1).map(|k| by_source[k]);
        match previous {
            Some((_, end, index))
                if end <= comment.start && !source[end..comment.start].contains(['\n', '\r']) =>
            {
                trailing[index] = Some(comment.text);
            }
            // Inside the previous item: it leads that item, unless the
            // item prints its raw text, comments included.
            Some((_, end, index)) if comment.start < end => {
                if !items[index].raw {
                    leading[index].push(comment.text);
                }
            }
            _ => match by_source.get(next) {
                Some(&(_, _, index)) => leading[index].push(comment.text),
                None => at_end.push(comment.text),
            },
        }
    }

    let mut out = String::new();
    for (index, item) in items.iter().enumerate() {
        if !leading[index].is_empty() {
            if !out.is_empty() {
                out.push('\n');
            }
            for comment in &leading[index] {
                out.push_str(comment);
                out.push('\n');
            }
        }
        out.push_str(&item.text);
        if let Some(comment) = &trailing[index] {
            out.push(' ');
            out.push_str(comment);
        }
        out.push('\n');
    }
    if !at_end.is_empty() && !out.is_empty() {
        out.push('\n');
    }
    for comment in at_end {
        out.push_str(&comment);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_game;

    fn format(source: &str) -> String {
        print_game_with_comments(&parse_game(source).unwrap(), source)
    }

    #[test]
    fn comments_are_found_up_to_the_line_break() {
        let comments = source_comments("a, b: ; // one  \r\n// two\n//\n");
        let texts: Vec<_> = comments.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["// one", "// two", "//"]);
        assert_eq!(comments[0].start, 8);
    }

    #[test]
    fn comments_travel_with_their_declarations() {
        let source = "// the edges\na, b: ; // first\n\n// the type\ntype T = {x}; var v: T = x;\n";
        assert_eq!(
            format(source),
            "// the type\ntype T = { x };\nvar v: T = x;\n\n// the edges\na, b: ; // first\n"
        );
    }

    #[test]
    fn comments_inside_a_declaration_lead_it_and_final_comments_end_the_file() {
        let source = "const c: T = { // the default\n :x };\n// the end\n";
        assert_eq!(
            format(source),
            "// the default\nconst c: T = { :x };\n\n// the end\n"
        );
    }

    #[test]
    fn a_file_of_comments_only_keeps_them() {
        assert_eq!(format("// nothing\n// here\n"), "// nothing\n// here\n");
    }

    #[test]
    fn comments_in_an_unknown_pragma_stay_in_its_raw_text() {
        let source = "@future a // note\n b;\n";
        assert_eq!(format(source), source);
        assert_eq!(format(&format(source)), source);
    }

    #[test]
    fn formatting_is_idempotent() {
        let source =
            "// head\n@repeat n :; // why\ntype T = {x};\n// lead\na, b: x = T(*); // tail\n// end";
        let once = format(source);
        assert_eq!(format(&once), once);
        assert_eq!(source_comments(&once).len(), source_comments(source).len());
    }
}
