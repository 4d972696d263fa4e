//! Parser support shared by the nom parsers of RG ([`crate::parse`]) and
//! HRG (the `hrg` crate): both read `&str` with the same trivia, identifier
//! characters and punctuation tokens, and report errors the same way.
//!
//! Positions are suffixes of the source text: a parser holds the whole
//! source and turns a suffix into a byte offset with [`offset`].

mod error;
mod lexical;
mod lists;
mod nesting;
mod recovery;

pub use error::{commit, error, failure, PResult, SyntaxError};
pub use lexical::{
    offset, peek_token, skip_trivia, span, split_word, starts_with_trivia, token, WHITESPACE,
};
pub use lists::{delimited_list, separated0_until, separated1};
pub use nesting::{is_nesting_limit, Level, Nesting, MAX_NESTING, NESTING_MESSAGE};
pub use recovery::parse_sequence;
