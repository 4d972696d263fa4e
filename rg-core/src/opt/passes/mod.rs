//! The optimization passes, one module per pass, each named like the pass
//! (`compact-skip-edges` lives in `compact_skip_edges`).

pub mod add_explicit_casts;
pub mod compact_comparisons;
pub mod compact_reachability;
pub mod compact_skip_edges;
pub mod expand_any_assignment;
pub mod expand_variable_tags;
pub mod infer_disjoint;
pub mod infer_tag_index;
pub mod inline_assignment;
pub mod inline_check_assignments;
pub mod inline_reachability;
pub mod join_exclusive_edges;
pub mod join_fork_prefixes;
pub mod join_fork_suffixes;
pub mod mangle_symbols;
pub mod merge_accesses;
pub mod normalize_constants;
pub mod normalize_types;
pub mod propagate_compared_values;
pub mod propagate_constants;
pub mod prune_self_loops;
pub mod prune_singleton_types;
pub mod prune_subsumed_checks;
pub mod prune_unreachable;
pub mod prune_unused;
pub mod reorder_conditions;
pub mod skip_artificial_tags;
pub mod skip_dead_assignments;
pub mod skip_redundant_tags;
pub mod skip_self_assignments;
pub mod skip_unread_entries;
pub mod skip_unused_tags;

#[cfg(test)]
pub(crate) mod test_support {
    use crate::ast::Game;
    use crate::parse::parse_game;
    use crate::print::print_game;

    pub const HEADER: &str = "type Player = { x };\ntype Score = { 0 };\n";

    /// Runs one pass once and prints the result.
    pub fn after(pass: &dyn crate::opt::Pass, source: &str) -> (bool, String) {
        let mut game: Game = parse_game(&format!("{HEADER}{source}")).unwrap();
        let changed = pass.run(&mut game);
        let printed = print_game(&game);
        (
            changed,
            printed.strip_prefix(HEADER).unwrap_or(&printed).to_string(),
        )
    }

    /// The printed output of [`after`] checks without errors.
    pub fn assert_checks(printed: &str) {
        let source = if printed.contains("type Player") {
            printed.to_string()
        } else {
            format!("{HEADER}{printed}")
        };
        let game = parse_game(&source).unwrap();
        let diagnostics = crate::check::check_game(&game);
        assert!(
            crate::check::is_clean(&diagnostics),
            "{diagnostics:?}\n{source}"
        );
    }
}
