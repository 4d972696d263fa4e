//! Property tests of the syntax layer: the canonical printer and the parser
//! round-trip over generated games, and neither the parser nor the checker
//! panics on mutated real games.

use proptest::prelude::*;
use rg_core::ast::*;
use rg_core::check::check_game;
use rg_core::parse::parse_game;
use rg_core::print::{print_game, print_game_with_comments, source_comments};

/// Identifiers, including the awkward but valid ones of rg.md §1.
fn ident() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-zA-Z0-9_]{0,6}",
        "[0-9]{1,3}",
        "[0-9][a-z_]{1,3}",
        "_[A-Z0-9_]{0,4}",
        Just("é1".to_string()),
        Just("C__2_s".to_string()),
    ]
    .prop_filter("keywords are reserved", |s| !KEYWORDS.contains(&s.as_str()))
}

fn idents(max: usize) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(ident(), 1..=max)
}

/// Types whose arrows nest to the right only (the grammar has no parentheses).
fn ty() -> impl Strategy<Value = Type> {
    let base = prop_oneof![idents(4).prop_map(Type::set), ident().prop_map(Type::name)];
    base.clone().prop_recursive(3, 8, 1, move |inner| {
        (base.clone(), inner).prop_map(|(key, value)| Type::arrow(key, value))
    })
}

fn value() -> impl Strategy<Value = Value> {
    ident()
        .prop_map(Value::symbol)
        .prop_recursive(3, 16, 4, |inner| {
            prop::collection::vec((prop::option::of(ident()), inner), 0..4).prop_map(|entries| {
                Value::Map(
                    entries
                        .into_iter()
                        .map(|(key, value)| MapEntry { key, value })
                        .collect(),
                    At::NOWHERE,
                )
            })
        })
}

fn expr() -> impl Strategy<Value = Expr> {
    ident()
        .prop_map(Expr::name)
        .prop_recursive(3, 12, 2, |inner| {
            prop_oneof![
                (ident(), inner.clone()).prop_map(|(t, e)| Expr::cast(t, e)),
                (inner.clone(), inner).prop_map(|(m, k)| Expr::access(m, k)),
            ]
        })
}

fn label() -> impl Strategy<Value = Label> {
    prop_oneof![
        Just(Label::Skip),
        ident().prop_map(Label::Tag),
        ident().prop_map(Label::VarTag),
        (any::<bool>(), ident(), ident()).prop_map(|(negated, from, to)| Label::Reach {
            negated,
            from,
            to
        }),
        (any::<bool>(), expr(), expr()).prop_map(|(negated, lhs, rhs)| Label::Compare {
            negated,
            lhs,
            rhs
        }),
        (expr(), expr()).prop_map(|(lhs, rhs)| Label::Assign { lhs, rhs }),
        (expr(), ty()).prop_map(|(lhs, ty)| Label::AssignAny { lhs, ty }),
    ]
}

fn pragma() -> impl Strategy<Value = Pragma> {
    let tag = prop_oneof![
        ident().prop_map(PatternTag::Symbol),
        (ident(), ty()).prop_map(|(n, t)| PatternTag::Bind(n, t)),
    ];
    let kind = prop_oneof![
        (any::<bool>(), ident(), idents(3)).prop_map(|(exhaustive, node, targets)| {
            PragmaKind::Disjoint {
                exhaustive,
                node,
                targets,
            }
        }),
        idents(3).prop_map(PragmaKind::ArtificialTag),
        (idents(3), prop::collection::vec(ident(), 0..3))
            .prop_map(|(nodes, variables)| PragmaKind::Repeat { nodes, variables }),
        idents(3).prop_map(PragmaKind::Unique),
        (any::<bool>(), idents(3), any::<u32>()).prop_map(|(max, nodes, index)| {
            PragmaKind::TagIndex {
                max,
                nodes,
                index: u64::from(index),
            }
        }),
        (any::<u32>(), idents(3)).prop_map(|(start, symbols)| PragmaKind::Integer {
            start: u64::from(start),
            symbols
        }),
        (ident(), ident(), ident(), ident()).prop_map(|(a, b, c, variable)| PragmaKind::Iterator {
            nodes: [a, b, c],
            variable
        }),
        (
            any::<bool>(),
            ident(),
            ident(),
            prop::collection::vec(tag, 0..3),
            prop::collection::vec((expr(), expr()), 0..3)
        )
            .prop_map(|(exhaustive, from, to, tags, assignments)| {
                PragmaKind::SimpleApply(SimpleApply {
                    exhaustive,
                    from,
                    to,
                    tags,
                    assignments,
                })
            }),
        Just(PragmaKind::TranslatedFromRbg),
        "[a-z]{0,5}( [a-z0-9 /*\n]{0,10})?"
            .prop_filter("known pragma names have their own syntax", |raw| {
                let name: String = raw
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                ![
                    "disjoint",
                    "disjointExhaustive",
                    "artificialTag",
                    "repeat",
                    "unique",
                    "tagIndex",
                    "tagMaxIndex",
                    "integer",
                    "iterator",
                    "simpleApply",
                    "simpleApplyExhaustive",
                    "translatedFromRbg",
                ]
                .contains(&name.as_str())
            })
            .prop_map(PragmaKind::Unknown),
    ];
    kind.prop_map(Pragma::new)
}

prop_compose! {
    fn game()(
        pragmas in prop::collection::vec(pragma(), 0..4),
        typedefs in prop::collection::vec((ident(), ty()), 0..4),
        constants in prop::collection::vec((ident(), ty(), value()), 0..4),
        variables in prop::collection::vec((ident(), ty(), value()), 0..4),
        edges in prop::collection::vec((ident(), ident(), label()), 0..8),
    ) -> Game {
        Game {
            pragmas,
            typedefs: typedefs.into_iter().map(|(name, ty)| TypeDef { name, ty, at: At::NOWHERE }).collect(),
            constants: constants.into_iter().map(|(name, ty, value)| Constant { name, ty, value, at: At::NOWHERE }).collect(),
            variables: variables.into_iter().map(|(name, ty, value)| Variable { name, ty, value, at: At::NOWHERE }).collect(),
            edges: edges.into_iter().map(|(from, to, label)| Edge::new(from, to, label)).collect(),
        }
    }
}

/// Real games to mutate.
const SEEDS: [&str; 2] = [
    include_str!("../../corpus/rg/ticTacToe.rg"),
    include_str!("../../corpus/rg/breakthrough.rg"),
];

/// One random edit of a text: delete, duplicate or replace a short range,
/// or insert a character from RG's alphabet (or a stranger one).
fn mutate(text: &str, position: usize, length: usize, kind: u8, insert: char) -> String {
    let chars: Vec<char> = text.chars().collect();
    let start = position % (chars.len() + 1);
    let end = (start + length % 8).min(chars.len());
    let mut out: Vec<char> = chars[..start].to_vec();
    match kind % 4 {
        0 => {}
        1 => {
            out.extend_from_slice(&chars[start..end]);
            out.extend_from_slice(&chars[start..end]);
        }
        2 => out.push(insert),
        _ => {
            out.push(insert);
            out.extend_from_slice(&chars[start..end]);
        }
    }
    out.extend_from_slice(&chars[end..]);
    out.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn print_then_parse_is_identity(g in game()) {
        let printed = print_game(&g);
        let parsed = parse_game(&printed);
        prop_assert!(parsed.is_ok(), "printed game does not parse:\n{printed}\n{parsed:?}");
        let parsed = parsed.unwrap();
        prop_assert_eq!(&parsed, &g, "parse(print(g)) != g for:\n{}", printed);
        prop_assert_eq!(print_game(&parsed), printed);
    }

    #[test]
    fn formatting_keeps_comments_anywhere_between_tokens(
        g in game(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..8),
    ) {
        // Spaces and line ends between tokens, outside pragmas (an
        // unknown pragma keeps its raw text, comments included).
        let printed = print_game(&g);
        let mut places = Vec::new();
        let mut in_pragma = false;
        for (offset, c) in printed.char_indices() {
            match c {
                '@' => in_pragma = true,
                ';' => in_pragma = false,
                ' ' | '\n' if !in_pragma => places.push(offset),
                _ => {}
            }
        }
        prop_assume!(!places.is_empty());
        let mut chosen: Vec<usize> = picks.iter().map(|p| places[p.index(places.len())]).collect();
        chosen.sort_unstable();
        chosen.dedup();
        let mut text = printed;
        for (k, &offset) in chosen.iter().enumerate().rev() {
            text.insert_str(offset, &format!(" // note {k}\n"));
        }
        let parsed = parse_game(&text).unwrap();
        prop_assert_eq!(&parsed, &g);
        let once = print_game_with_comments(&parsed, &text);
        let reparsed = parse_game(&once).unwrap();
        prop_assert_eq!(&reparsed, &g, "formatting changed the game:\n{}", once);
        let texts = |t: &str| {
            let mut v: Vec<_> = source_comments(t).into_iter().map(|c| c.text).collect();
            v.sort();
            v
        };
        prop_assert_eq!(texts(&once), texts(&text), "a comment was lost:\n{}", once);
        prop_assert_eq!(print_game_with_comments(&reparsed, &once), once);
    }

    #[test]
    fn parser_and_checker_never_panic_on_mutations(
        seed in 0usize..SEEDS.len(),
        edits in prop::collection::vec((any::<usize>(), any::<usize>(), any::<u8>(),
            prop::sample::select(vec![';', ',', ':', '=', '[', ']', '{', '}', '(', ')', '*', '$', '?', '!', '@', '-', '>', '/', ' ', '\n', 'x', '0', '→', '\u{a0}'])), 1..6),
    ) {
        let mut text = SEEDS[seed].to_string();
        for (position, length, kind, insert) in edits {
            text = mutate(&text, position, length, kind, insert);
        }
        if let Ok(g) = parse_game(&text) {
            let diagnostics = check_game(&g);
            // Checked games must also compile and start without panicking.
            if !rg_core::diag::has_errors(&diagnostics) {
                if let Ok(engine) = rg_core::engine::Engine::new(&g, Default::default()) {
                    let _ = rg_core::model::ForwardModel::initial(&engine);
                }
            }
        }
    }

    #[test]
    fn parser_never_panics_on_arbitrary_text(text in "\\PC{0,200}") {
        let _ = parse_game(&text);
    }
}
