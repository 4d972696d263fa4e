//! Lexical and syntax diagnostics of replay.md §5.4, one case each,
//! rendered with file:line:column and pinned by a snapshot.

use rg_core::diag::render_all;

fn rendered(source: &str) -> String {
    match replay::parse::parse(source) {
        Ok(_) => panic!("expected a diagnostic for {source:?}"),
        Err(d) => render_all(&d, "case.replay", source),
    }
}

macro_rules! case {
    ($name:ident, $source:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(rendered($source));
        }
    };
}

case!(quote_character, "int x = 'a';");
case!(lone_ampersand, "bool b = true & false;");
case!(caret, "int x = 2 ^ 3;");
case!(at_sign, "int x = @;");
case!(bad_escape, "string s = \"a\\qb\";");
case!(int_out_of_range, "int x = 99999999999999999999;");
case!(underscore_identifier, "int _x = 1;");
case!(unterminated_comment, "int x = 1;\n/* never closed\n");
case!(unterminated_string, "string s = \"abc");
case!(newline_in_string, "string s = \"ab\ncd\";");
case!(line_comment, "int x = 1; // a comment\n");
case!(while_keyword, "while (true) { }");
case!(string_type, "String s = \"a\";");
case!(block_not_last, "Strategy s = Strategy[{ a: 0; } | 2 | 1];");
case!(empty_block, "Game g = Game[2 | { }];");
case!(expression_statement, "int x = 1;\nx + 1;");
case!(function_in_block, "void f() { int g() { return 1; } }");
case!(nested_array, "int[][] a;");
case!(missing_semicolon, "int x = 1\nint y = 2;");
case!(upper_case_exponent, "float f = 1E5;");
