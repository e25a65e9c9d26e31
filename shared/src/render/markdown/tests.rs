//! The Markdown tree: a snapshot of every document of the corpus in `testdata/markdown/`
//! (what tools and models write), and of the cases that matter for safety and layout.

use std::path::Path;

use expect_test::{expect, expect_file};

use super::*;

#[test]
fn builds_a_tree_and_keeps_html_as_text() {
    let md = "# Title\n\nSome *em* and **strong** with `code` and [a link](https://x.org) \
              and [bad](javascript:alert(1)).\n\n- one\n- two <b onclick=\"x()\">raw</b>\n\n\
              ```rust\nfn main() {}\n```\n\n> quoted\n\n<script>alert(1)</script>\n";
    expect![[r#"
        [
            Heading(
                1,
                [
                    Text(
                        "Title",
                    ),
                ],
            ),
            Paragraph(
                [
                    Text(
                        "Some ",
                    ),
                    Emphasis(
                        [
                            Text(
                                "em",
                            ),
                        ],
                    ),
                    Text(
                        " and ",
                    ),
                    Strong(
                        [
                            Text(
                                "strong",
                            ),
                        ],
                    ),
                    Text(
                        " with ",
                    ),
                    Code(
                        "code",
                    ),
                    Text(
                        " and ",
                    ),
                    Link {
                        href: Some(
                            "https://x.org",
                        ),
                        children: [
                            Text(
                                "a link",
                            ),
                        ],
                    },
                    Text(
                        " and ",
                    ),
                    Link {
                        href: None,
                        children: [
                            Text(
                                "bad",
                            ),
                        ],
                    },
                    Text(
                        ".",
                    ),
                ],
            ),
        ]"#]]
    .assert_eq(&format!("{:#?}", &parse(md)[..2]));
    let all = format!("{:?}", parse(md));
    assert!(all.contains(r#"Text("<b onclick=\"x()\">")"#), "{all}");
    assert!(all.contains(r#"Code { lang: Some("rust"), text: "fn main() {}\n" }"#), "{all}");
    assert!(all.contains("Quote([Paragraph([Text(\"quoted\")])])"), "{all}");
    assert!(all.contains("<script>alert(1)</script>"), "{all}");
    assert!(all.contains("List { ordered: false, items: [[Paragraph([Text(\"one\")])]"), "{all}");
}

/// Every document of the corpus, as the page gets it: one snapshot file, reviewed on change.
#[test]
fn the_corpus_parses_as_the_snapshot_says() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/markdown");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    let mut out = String::new();
    for path in names.iter().filter(|p| p.extension().is_some_and(|e| e == "md")) {
        let text = std::fs::read_to_string(path).unwrap();
        out.push_str(&format!("=== {}\n{}", path.file_name().unwrap().to_string_lossy(), show(&parse(&text))));
    }
    assert!(out.matches("=== ").count() >= 60, "the corpus is too small");
    expect_file!["../../../testdata/markdown/trees.txt"].assert_eq(&out);
}

/// A compact picture of a tree: one block per line, inlines as `"text"`, `*em*`, `**strong**`,
/// `~~strike~~`, `` `code` ``, `[children](href)` and `⏎` for a hard break.
fn show(blocks: &[Block]) -> String {
    fn inlines(v: &[Inline]) -> String {
        v.iter()
            .map(|i| match i {
                Inline::Text(t) => format!("{t:?}"),
                Inline::Code(t) => format!("`{t}`"),
                Inline::Emphasis(c) => format!("*{}*", inlines(c)),
                Inline::Strong(c) => format!("**{}**", inlines(c)),
                Inline::Strike(c) => format!("~~{}~~", inlines(c)),
                Inline::Link { href, children } => {
                    format!("[{}]({})", inlines(children), href.as_deref().unwrap_or("-"))
                }
                Inline::Break => "⏎".into(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
    fn walk(blocks: &[Block], depth: usize, out: &mut String) {
        for b in blocks {
            let pad = "  ".repeat(depth);
            match b {
                Block::Heading(level, i) => out.push_str(&format!("{pad}h{level} {}\n", inlines(i))),
                Block::Paragraph(i) => out.push_str(&format!("{pad}p {}\n", inlines(i))),
                Block::Code { lang, text } => out.push_str(&format!("{pad}code {lang:?} {text:?}\n")),
                Block::Quote(inner) => {
                    out.push_str(&format!("{pad}quote\n"));
                    walk(inner, depth + 1, out);
                }
                Block::List { ordered, items } => {
                    out.push_str(&format!("{pad}{}\n", if *ordered { "ol" } else { "ul" }));
                    for item in items {
                        out.push_str(&format!("{pad}- item\n"));
                        walk(item, depth + 2, out);
                    }
                }
                Block::Rule => out.push_str(&format!("{pad}rule\n")),
            }
        }
    }
    let mut out = String::new();
    walk(blocks, 0, &mut out);
    out
}

#[test]
fn list_items_hold_paragraphs_tight_or_loose_and_html_joins_them() {
    let md = "- tight\n- items\n  <div>raw</div>\n\n1. loose\n\n2. items\n   - nested\n";
    expect![[r#"
        ul
        - item
            p "tight"
        - item
            p "items" "<div>raw</div>\n"
        ol
        - item
            p "loose"
        - item
            p "items"
            ul
            - item
                p "nested"
    "#]]
    .assert_eq(&show(&parse(md)));
}

#[test]
fn tables_become_one_paragraph_per_cell() {
    let md = "| a | `b \\| c` |\n|---|:-:|\n| *1* |\n| 2 | 3 | 4 |\n";
    expect![[r#"
        p "a"
        p `b | c`
        p *"1"*
        p 
        p "2"
        p "3"
    "#]]
    .assert_eq(&show(&parse(md)));
}

#[test]
fn delimiters_pair_by_the_commonmark_rules_and_leftovers_stay_separate_text() {
    let md = "***both*** *a**b**c* snake_case_name 2*3*4 **open *x* ~~gone~~ ~one~ a~~~b~~~";
    expect![[r#"
        p ***"both"*** " " *"a" **"b"** "c"* " snake_case_name 2" *"3"* "4 " "*" "*" "open " *"x"* " " ~~"gone"~~ " " ~~"one"~~ " a~~~b~~~"
    "#]]
    .assert_eq(&show(&parse(md)));
}

#[test]
fn links_resolve_references_and_keep_only_safe_schemes() {
    let md = "[a][ID] [b] [c][] <https://x.y/z> <me@x.y> ![img](http://i/p.png \"t\") [js](javascript:x)\n\
              [d](<u v> 'title') \\[e\\]\n\n[id]: https://one.example\n[B]: mailto:b@example.com\n[c]: ftp://c\n";
    expect![[r#"
        p ["a"](https://one.example) " " ["b"](mailto:b@example.com) " " ["c"](-) " " ["https://x.y/z"](https://x.y/z) " " ["me@x.y"](-) " " ["img"](http://i/p.png) " " ["js"](-) " " ["d"](-) " " "[e" "]"
    "#]]
    .assert_eq(&show(&parse(md)));
}

#[test]
fn entities_escapes_and_breaks() {
    let md = "&copy; &#169; &#x1F600; &nope; &amp\\*x\\* a  \nb\\\nc\nd";
    expect![[r#"
        p "©" " " "©" " " "😀" " &nope; &amp" "*x" "* a" ⏎ "b" ⏎ "c" " " "d"
    "#]]
    .assert_eq(&show(&parse(md)));
}

#[test]
fn raw_html_closing_a_quote_keeps_the_quote_and_what_follows() {
    let md = "> quoted\n> <div>raw</div>\n\nafter\n";
    expect![[r#"
        quote
          p "quoted"
          p "<div>raw</div>\n"
        p "after"
    "#]]
    .assert_eq(&show(&parse(md)));
}

/// Nesting is capped, so hostile input cannot exhaust the stack while parsing.
#[test]
fn deep_nesting_is_cut() {
    let blocks = parse(&format!("{}a", "> ".repeat(10_000)));
    let mut depth = 0;
    let mut level = &blocks;
    while let [Block::Quote(inner)] = level.as_slice() {
        depth += 1;
        level = inner;
    }
    assert!(depth <= MAX_DEPTH, "{depth}");
    let inline = parse(&format!("{}a{}", "[".repeat(5_000), "](u)".repeat(5_000)));
    assert_eq!(inline.len(), 1);
    // Emphasis nested without end is cut too.
    let Block::Paragraph(mut level) = parse(&format!("{}a{}", "*".repeat(4_000), "*".repeat(4_000))).remove(0) else {
        panic!()
    };
    let mut depth = 0;
    while let [Inline::Emphasis(inner) | Inline::Strong(inner)] = level.as_slice() {
        depth += 1;
        level = inner.clone();
    }
    assert!((1..=MAX_DEPTH).contains(&depth), "{depth}");
}
