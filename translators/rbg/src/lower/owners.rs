//! Who applies each modifier (rbg.md §5.10(b)): a forward data-flow over
//! the rules tree from "the keeper moves" at the start. A switch `->p`
//! hands the following actions to a real player, `->>` to the keeper;
//! patterns never switch. Keeper modifiers get no tags, so that every keeper
//! walk has the empty labelling and the keeper has exactly one RG move.

use crate::ast::{ActionKind, Rule, RuleKind};

/// A set of possible movers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Owners {
    pub keeper: bool,
    pub player: bool,
}

impl Owners {
    pub(crate) const KEEPER: Owners = Owners {
        keeper: true,
        player: false,
    };
    pub(crate) const PLAYER: Owners = Owners {
        keeper: false,
        player: true,
    };

    fn union(self, other: Owners) -> Owners {
        Owners {
            keeper: self.keeper || other.keeper,
            player: self.player || other.player,
        }
    }
}

/// The movers that can apply each modifier, indexed by modifier index
/// (index 0 unused).
pub(crate) fn modifier_owners(rules: &Rule, modifier_count: u32) -> Vec<Owners> {
    let mut owners = vec![Owners::default(); modifier_count as usize + 1];
    flow(rules, Owners::KEEPER, &mut owners);
    owners
}

/// Records the movers reaching every modifier of `rule` when `input` can
/// move at its start; returns the movers at its end.
fn flow(rule: &Rule, input: Owners, owners: &mut [Owners]) -> Owners {
    match &rule.kind {
        RuleKind::Concat(items) => items
            .iter()
            .fold(input, |current, item| flow(item, current, owners)),
        RuleKind::Sum(items) => items.iter().fold(Owners::default(), |acc, item| {
            acc.union(flow(item, input, owners))
        }),
        RuleKind::Star(inner) => {
            // The least fixpoint of x = input ∪ f(x) is input ∪ gen(f).
            let body_input = input.union(summary(inner).1);
            flow(inner, body_input, owners);
            body_input
        }
        RuleKind::Action(action) => {
            if let Some(index) = action.modifier_index {
                if let Some(slot) = owners.get_mut(index as usize) {
                    *slot = slot.union(input);
                }
            }
            match action.kind {
                ActionKind::Switch(_) => Owners::PLAYER,
                ActionKind::KeeperSwitch => Owners::KEEPER,
                _ => input,
            }
        }
    }
}

/// The transfer function of `rule` as `f(x) = (x if passes) ∪ gen`.
fn summary(rule: &Rule) -> (bool, Owners) {
    match &rule.kind {
        RuleKind::Concat(items) => items.iter().fold((true, Owners::default()), |acc, item| {
            let (passes, gen) = summary(item);
            (acc.0 && passes, if passes { acc.1.union(gen) } else { gen })
        }),
        RuleKind::Sum(items) => items.iter().fold((false, Owners::default()), |acc, item| {
            let (passes, gen) = summary(item);
            (acc.0 || passes, acc.1.union(gen))
        }),
        RuleKind::Star(inner) => (true, summary(inner).1),
        RuleKind::Action(action) => match action.kind {
            ActionKind::Switch(_) => (false, Owners::PLAYER),
            ActionKind::KeeperSwitch => (false, Owners::KEEPER),
            _ => (true, Owners::default()),
        },
    }
}
