//! Skip artificial tags (L): `$ t` edges whose symbol `t` is listed by an
//! `@artificialTag` pragma become skips. The pragma claims such tags are
//! not needed to tell moves apart, so the tree shape is kept when it is
//! true; moves lose those tags. Available by name only (put it last).
//!
//! `$$ x` edges are kept (their symbol is not known statically), and so is
//! the pragma. `@tagIndex`/`@tagMaxIndex` and `@simpleApply` pragmas, which
//! speak about tag positions and patterns, are removed when a tag goes.

use crate::fx_hash::FxSet;

use crate::ast::{Game, Label, PragmaKind};

use crate::opt::analysis::pragmas;
use crate::opt::Pass;

pub struct SkipArtificialTags;

impl Pass for SkipArtificialTags {
    fn name(&self) -> &'static str {
        "skip-artificial-tags"
    }

    fn description(&self) -> &'static str {
        "relabeling: $ t edges with t listed in @artificialTag become skips"
    }

    fn run(&self, game: &mut Game) -> bool {
        let artificial: FxSet<String> = game
            .pragmas
            .iter()
            .filter_map(|p| match &p.kind {
                PragmaKind::ArtificialTag(tags) => Some(tags.iter().cloned()),
                _ => None,
            })
            .flatten()
            .collect();
        if artificial.is_empty() {
            return false;
        }
        let mut changed = false;
        for e in &mut game.edges {
            if matches!(&e.label, Label::Tag(t) if artificial.contains(t)) {
                e.label = Label::Skip;
                changed = true;
            }
        }
        if changed {
            pragmas::drop_tag_pragmas(game);
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn listed_tags_become_skips() {
        let (changed, out) = after(
            &SkipArtificialTags,
            "@artificialTag t u;\n@tagIndex a : 0;\nvar v: Bool = 0;\nbegin, a: player = x;\na, b: $ t;\nb, c: $ kept;\nc, d: $$ v;\nd, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        @artificialTag t u;
        type Player = { x };
        type Score = { 0 };
        var v: Bool = 0;
        begin, a: player = x;
        a, b: ;
        b, c: $ kept;
        c, d: $$ v;
        d, end: player = keeper;
        ");
        super::super::test_support::assert_checks(&out);
        let (changed, _) = after(
            &SkipArtificialTags,
            "begin, a: $ t;\na, end: player = keeper;\n",
        );
        assert!(!changed);
    }
}
