//! A bound on how deeply constructs nest, shared by the RG and HRG parsers.
//!
//! The parsers are recursive descent, and so are the stages after them (the
//! checker, type resolution, printing, lowering, even dropping the syntax
//! tree): input nested a hundred thousand levels deep would overflow the
//! stack. Each recursive production enters a [`Nesting`] level first; past
//! [`MAX_NESTING`] levels the parse stops with a final error at the
//! offending position that names the limit.

use std::cell::Cell;

use super::error::SyntaxError;

/// The deepest nesting of types, values, expressions and blocks accepted.
///
/// Left-associative chains (`a + b + c`, `x[i][j]`) count one level per
/// operator, like the syntax tree they build. Parsing at this depth uses
/// well under 1 MB of stack in a debug build.
pub const MAX_NESTING: usize = 256;

/// The message of the error past [`MAX_NESTING`].
pub const NESTING_MESSAGE: &str = "nesting deeper than 256 levels";

/// The current nesting depth of a parse.
#[derive(Debug, Default)]
pub struct Nesting {
    depth: Cell<usize>,
}

/// One entered level; leaving it (dropping the guard) restores the depth.
#[must_use = "the level is left when the guard is dropped"]
#[derive(Debug)]
pub struct Level<'n> {
    depth: &'n Cell<usize>,
}

impl Drop for Level<'_> {
    fn drop(&mut self) {
        self.depth.set(self.depth.get() - 1);
    }
}

impl Nesting {
    /// Enters one more level at `input` (where the nested construct starts),
    /// or fails there with [`NESTING_MESSAGE`] past [`MAX_NESTING`] levels.
    pub fn enter<'a>(&self, input: &'a str) -> Result<Level<'_>, nom::Err<SyntaxError<'a>>> {
        let depth = self.depth.get();
        if depth >= MAX_NESTING {
            return Err(nom::Err::Failure(SyntaxError {
                input,
                message: NESTING_MESSAGE.into(),
            }));
        }
        self.depth.set(depth + 1);
        Ok(Level { depth: &self.depth })
    }
}

/// Whether a parse stopped at the nesting limit: such an error must not be
/// replaced by trying another alternative.
pub fn is_nesting_limit(error: &nom::Err<SyntaxError<'_>>) -> bool {
    matches!(error, nom::Err::Failure(e) if e.message == NESTING_MESSAGE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_the_limit() {
        assert!(NESTING_MESSAGE.contains(&MAX_NESTING.to_string()));
    }

    #[test]
    fn levels_are_left_when_dropped_and_the_limit_is_final() {
        let nesting = Nesting::default();
        let levels: Vec<_> = (0..MAX_NESTING)
            .map(|_| nesting.enter("x").unwrap())
            .collect();
        let Err(nom::Err::Failure(e)) = nesting.enter("y") else {
            panic!("expected the nesting limit")
        };
        assert_eq!((e.input, &*e.message), ("y", NESTING_MESSAGE));
        drop(levels);
        assert_eq!(nesting.depth.get(), 0);
        assert!(nesting.enter("z").is_ok());
    }
}
