//! Recognising raw HTML (block starts, inline tags, comments) and autolinks. Nothing here
//! interprets HTML: the tree shows it as the text it is, so recognising it only decides where
//! that text starts and ends.

/// Tags that start an HTML block of CommonMark's kind 6 (matched without regard to case).
#[rustfmt::skip]
const BLOCK_TAGS: &[&str] = &[
    "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup",
    "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame",
    "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link",
    "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section",
    "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
];

/// How an HTML block ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum BlockEnd {
    /// At the first line that contains this text (kinds 1 to 5: `<pre>`, comments, …).
    Marker(&'static str),
    /// At a blank line (kinds 6 and 7).
    BlankLine,
}

/// The kind of HTML block that starts `s` (which starts with `<`), if any. Kind 7 (any
/// complete tag alone on its line) cannot interrupt a paragraph, hence `interrupting`.
pub(super) fn block_start(s: &[u8], interrupting: bool) -> Option<BlockEnd> {
    let after = &s[1..];
    for (tag, end) in [("pre", "</pre>"), ("style", "</style>"), ("script", "</script>"), ("textarea", "</textarea>")] {
        let n = tag.len();
        if after.len() >= n
            && after[..n].eq_ignore_ascii_case(tag.as_bytes())
            && after.get(n).is_none_or(|&c| c.is_ascii_whitespace() || c == b'>')
        {
            return Some(BlockEnd::Marker(end));
        }
    }
    for (start, end) in [("!--", "-->"), ("?", "?>"), ("![CDATA[", "]]>")] {
        if after.starts_with(start.as_bytes()) {
            return Some(BlockEnd::Marker(end));
        }
    }
    if after.len() > 1 && after[0] == b'!' && after[1].is_ascii_alphabetic() {
        return Some(BlockEnd::Marker(">"));
    }
    let slash = usize::from(after.first() == Some(&b'/'));
    let name_len = after[slash..].iter().take_while(|c| c.is_ascii_alphanumeric()).count();
    let name = &after[slash..slash + name_len];
    let known = BLOCK_TAGS.iter().any(|t| t.as_bytes().eq_ignore_ascii_case(name));
    let rest = &after[slash + name_len..];
    if known && (rest.is_empty() || matches!(rest[0], b' ' | b'\t' | b'\n' | b'>') || rest.starts_with(b"/>")) {
        return Some(BlockEnd::BlankLine);
    }
    if interrupting {
        return None;
    }
    // Kind 7: one complete open or closing tag, then nothing but spaces on the line.
    let rest = &s[tag(s, false)?..];
    let spaces = rest.iter().take_while(|c| matches!(c, b' ' | b'\t' | 0x0b | 0x0c)).count();
    matches!(rest.get(spaces), None | Some(b'\n')).then_some(BlockEnd::BlankLine)
}

/// The length of an open or closing tag at the start of `s` (which starts with `<`). Inline,
/// tags may span lines; an HTML block's first line must hold the whole tag.
pub(super) fn tag(s: &[u8], newlines: bool) -> Option<usize> {
    let closing = s.get(1) == Some(&b'/');
    let mut i = 1 + usize::from(closing);
    if !s.get(i)?.is_ascii_alphabetic() {
        return None;
    }
    i += s[i..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'-').count();
    if !closing {
        loop {
            let before = i;
            i = space(s, i, newlines);
            if matches!(s.get(i), Some(b'/' | b'>')) {
                break;
            }
            if before == i {
                return None;
            }
            i = attribute(s, i, newlines)?;
        }
    }
    i = space(s, i, false);
    if !closing && s.get(i) == Some(&b'/') {
        i += 1;
    }
    (s.get(i) == Some(&b'>')).then_some(i + 1)
}

/// Skips spaces (and line ends, where a tag may span lines).
fn space(s: &[u8], mut i: usize, newlines: bool) -> usize {
    while let Some(&c) = s.get(i) {
        match c {
            b' ' | b'\t' | 0x0b | 0x0c => i += 1,
            b'\n' if newlines => i += 1,
            _ => break,
        }
    }
    i
}

fn attribute(s: &[u8], mut i: usize, newlines: bool) -> Option<usize> {
    let first = *s.get(i)?;
    if !(first.is_ascii_alphabetic() || first == b'_' || first == b':') {
        return None;
    }
    i += 1 + s[i + 1..].iter().take_while(|c| c.is_ascii_alphanumeric() || b"_.:-".contains(c)).count();
    let after_name = i;
    let j = space(s, i, newlines);
    if s.get(j) != Some(&b'=') {
        return Some(after_name);
    }
    i = space(s, j + 1, newlines);
    match *s.get(i)? {
        q @ (b'"' | b'\'') => {
            let len = s[i + 1..].iter().position(|&c| c == q || (c == b'\n' && !newlines))?;
            (s[i + 1 + len] == q).then_some(i + len + 2)
        }
        b' ' | b'=' | b'>' | b'<' | b'`' | b'\n' => None,
        _ => Some(i + s[i..].iter().take_while(|c| !b"'\" =><`\n".contains(c)).count()),
    }
}

/// Where scans for the ends of comments and the like already failed: a later scan that would
/// search the same text fails too, so it is not made (else `a <!-- a <!-- …` is quadratic).
#[derive(Debug, Default)]
pub(super) struct Misses {
    comment: Option<usize>,
    instruction: Option<usize>,
    declaration: Option<usize>,
    cdata: Option<usize>,
}

/// The length of inline raw HTML at `s[at..]` (which starts with `<`): a tag, a comment, a
/// processing instruction, a declaration or a CDATA section.
pub(super) fn inline(s: &[u8], at: usize, misses: &mut Misses) -> Option<usize> {
    let rest = &s[at + 1..];
    // Searches for an end marker from `from`, unless one from there on is known to fail.
    let search = |miss: &mut Option<usize>, from: usize, marker: &[u8]| {
        if miss.is_some_and(|m| from >= m) {
            return None;
        }
        let found = find(&s[from..], marker).map(|i| from + i + marker.len() - at);
        if found.is_none() {
            *miss = Some(from);
        }
        found
    };
    if rest.starts_with(b"!--") {
        // The search starts at the opening dashes: `<!-->` and `<!--->` are comments too.
        return search(&mut misses.comment, at + 2, b"-->");
    }
    if rest.starts_with(b"![CDATA[") {
        // Only the first run of `]` may close the section.
        let from = at + 9;
        if misses.cdata.is_some_and(|m| from <= m) {
            return None;
        }
        let bracket = s[from..].iter().position(|&c| c == b']').map_or(s.len(), |i| from + i);
        let run = s[bracket..].iter().take_while(|&&c| c == b']').count();
        if run > 0 && s.get(bracket + run) == Some(&b'>') {
            return Some(bracket + run + 1 - at);
        }
        misses.cdata = Some(bracket);
        return None;
    }
    if rest.first() == Some(&b'!') && rest.get(1).is_some_and(u8::is_ascii_alphabetic) {
        return search(&mut misses.declaration, at + 2, b">");
    }
    if rest.first() == Some(&b'?') {
        return search(&mut misses.instruction, at + 2, b"?>");
    }
    tag(&s[at..], true)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// An autolink at the start of `s` (just after its `<`): the length up to and including `>`
/// and the address. A URI needs a scheme of 2 to 32 characters; an email address, the usual
/// shape.
pub(super) fn autolink(s: &str) -> Option<(usize, &str)> {
    let b = s.as_bytes();
    uri(b).or_else(|| email(b)).map(|n| (n + 1, &s[..n]))
}

fn uri(b: &[u8]) -> Option<usize> {
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let scheme = 1 + b[1..].iter().take_while(|c| c.is_ascii_alphanumeric() || b".+-".contains(c)).count();
    if !(2..=32).contains(&scheme) || b.get(scheme) != Some(&b':') {
        return None;
    }
    let len = b[scheme..].iter().position(|&c| c == b'>' || c <= b' ' || c == b'<')?;
    (b[scheme + len] == b'>').then_some(scheme + len)
}

fn email(b: &[u8]) -> Option<usize> {
    let local = b.iter().take_while(|c| c.is_ascii_alphanumeric() || b".!#$%&'*+/=?^_`{|}~-".contains(c)).count();
    if local == 0 || b.get(local) != Some(&b'@') {
        return None;
    }
    let mut i = local + 1;
    loop {
        let label = b[i..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'-').count();
        if label == 0 || label > 63 || b[i] == b'-' || b[i + label - 1] == b'-' {
            return None;
        }
        i += label;
        if b.get(i) != Some(&b'.') {
            break;
        }
        i += 1;
    }
    (b.get(i) == Some(&b'>')).then_some(i)
}
