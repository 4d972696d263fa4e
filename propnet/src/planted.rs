//! Deliberate grounder bugs that a test can switch on for its own thread,
//! to check that differential verification catches a wrong grounding
//! (compiled only with the `planted-bugs` feature, which only the gdl
//! crate's tests enable; inert unless a test plants a bug).

use std::cell::Cell;

/// A bug the grounder can be made to have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlantedBug {
    /// A rule with a negative literal on an atom that can never hold is
    /// dropped, as if the negation were false (it is true).
    DropRulesWithImpossibleNegation,
}

thread_local! {
    static PLANTED: Cell<Option<PlantedBug>> = const { Cell::new(None) };
}

/// Plants `bug` in groundings run on this thread (`None` removes it).
pub fn plant(bug: Option<PlantedBug>) {
    PLANTED.with(|planted| planted.set(bug));
}

pub(crate) fn is_planted(bug: PlantedBug) -> bool {
    PLANTED.with(|planted| planted.get() == Some(bug))
}
