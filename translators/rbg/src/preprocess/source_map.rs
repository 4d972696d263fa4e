//! Maps spans of the emitted low-level text back to the original source.

use rg_core::diag::{Diagnostic, Span};

use crate::ast::Game;

/// One entry per emitted token: its span in the LL text and the span of the
/// original text it stands for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    entries: Vec<(Span, Span)>,
}

impl SourceMap {
    pub fn push(&mut self, ll: Span, original: Span) {
        self.entries.push((ll, original));
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The original span of an LL span: from its first token's origin to its
    /// last token's origin when those are in order (the usual case), else
    /// the first token's origin alone.
    pub fn original(&self, ll: Span) -> Span {
        if self.entries.is_empty() {
            return Span::default();
        }
        // First token ending after ll.start (the token containing or following it).
        let first = self.entries.partition_point(|(t, _)| t.end <= ll.start);
        let Some(&(_, first_origin)) = self.entries.get(first) else {
            let end = self.entries.last().map_or(0, |(_, o)| o.end);
            return Span::new(end, end);
        };
        if ll.is_empty() {
            return first_origin;
        }
        // Last token starting before ll.end.
        let last = self.entries.partition_point(|(t, _)| t.start < ll.end);
        let last_origin = match last.checked_sub(1).and_then(|i| self.entries.get(i)) {
            Some(&(_, o)) if last > first => o,
            _ => first_origin,
        };
        if last_origin.start >= first_origin.start {
            first_origin.join(last_origin)
        } else {
            first_origin
        }
    }

    pub fn diagnostic(&self, mut diagnostic: Diagnostic) -> Diagnostic {
        diagnostic.span = diagnostic.span.map(|s| self.original(s));
        diagnostic
    }

    /// Rewrites every span of `game` (parsed from the LL text) to original
    /// coordinates.
    pub fn remap_game(&self, game: &mut Game) {
        game.map_spans(&mut |s| self.original(s));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_token_spans_and_joins_ordered_ranges() {
        let mut map = SourceMap::default();
        // LL "a b c" from original tokens at 10, 20 and (from a macro body) 2.
        map.push(Span::new(0, 1), Span::new(10, 11));
        map.push(Span::new(2, 3), Span::new(20, 21));
        map.push(Span::new(4, 5), Span::new(2, 3));
        assert_eq!(map.original(Span::new(2, 3)), Span::new(20, 21));
        assert_eq!(map.original(Span::new(0, 3)), Span::new(10, 21));
        // Out of order: the first token's origin alone.
        assert_eq!(map.original(Span::new(2, 5)), Span::new(20, 21));
        // Past the end: an empty span at the end of the last origin.
        assert_eq!(map.original(Span::new(9, 9)), Span::new(3, 3));
    }
}
