//! Size limits of static evaluation, of the translation and of the native
//! interpreter (docs/reliability.md): inputs that would need more are
//! refused with a diagnostic naming the limit, instead of exhausting memory
//! or time. Shared by `eval`, `lower` and `interpreter`.

/// Most elements of one domain, of one `where` range and of one generator's
/// combinations (the largest domain of the corpus has 626). A bound, so that
/// `X in 0..4294967296` is refused instead of exhausting memory.
pub const MAX_DOMAIN_ELEMENTS: u64 = 100_000;
/// Most entries of one tabulated constant function (the product of its key
/// domains' sizes).
pub const MAX_TABLE_ENTRIES: u64 = 10_000_000;
/// Most slots of the native interpreter's state, all variables (and graph
/// parameters) together; each map variable is also bounded by
/// [`MAX_TABLE_ENTRIES`]. The corpus's largest state has a few thousand
/// slots; states are copied for every move.
pub const MAX_STATE_SLOTS: u64 = 10_000_000;
/// Largest count of a `repeat n` (its body is copied `n` times).
pub const MAX_REPEAT_COUNT: u64 = 10_000;
/// Most statements one translation expands into (copies of `repeat` and
/// `branch x in` bodies and of inlined graphs included).
pub const MAX_EXPANDED_STATEMENTS: u64 = 2_000_000;

/// Where a limit is set, for the messages naming it.
pub const LIMITS_FILE: &str = "translators/hrg/src/limits.rs";

/// The number of elements of `lo..hi` (none when `hi < lo`), without
/// overflow.
pub fn range_len(lo: i64, hi: i64) -> u64 {
    u64::try_from(i128::from(hi) - i128::from(lo) + 1).unwrap_or(0)
}

/// The refusal of `repeat count`, if the count is over
/// [`MAX_REPEAT_COUNT`] (the lowering and the native interpreter both
/// expand `repeat`, and refuse it with the same words).
pub fn repeat_count_refusal(count: u32) -> Option<String> {
    (u64::from(count) > MAX_REPEAT_COUNT).then(|| {
        format!(
            "repeat {count} copies its body more than {MAX_REPEAT_COUNT} times, \
             the limit of a repeat count (raise MAX_REPEAT_COUNT in {LIMITS_FILE} \
             to allow more)."
        )
    })
}
