//! Character references (`&amp;`, `&#233;`, `&#xE9;`) and backslash escapes.
//!
//! Only the HTML 4 named entities (plus `&apos;`) are known: they cover what tools and models
//! write, and the full HTML 5 table (over 2,000 names) would cost the page more than all the
//! rest of this parser. An unknown name stays literal text, as CommonMark asks.

/// Named entities as runs of consecutive code points: the first code point and the names, in
/// order, separated by spaces. `-` marks a code point without a name.
const RUNS: &[(u32, &str)] = &[
    (34, "quot"),
    (38, "amp apos"),
    (60, "lt - gt"),
    (
        160,
        "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 \
         sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc \
         Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve \
         Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute \
         acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde \
         ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml",
    ),
    (338, "OElig oelig"),
    (352, "Scaron scaron"),
    (376, "Yuml"),
    (402, "fnof"),
    (710, "circ"),
    (732, "tilde"),
    (
        913,
        "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho - Sigma Tau \
         Upsilon Phi Chi Psi Omega",
    ),
    (
        945,
        "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma \
         tau upsilon phi chi psi omega",
    ),
    (977, "thetasym upsih"),
    (982, "piv"),
    (8194, "ensp emsp"),
    (8201, "thinsp"),
    (8204, "zwnj zwj lrm rlm"),
    (8211, "ndash mdash"),
    (8216, "lsquo rsquo sbquo"),
    (8220, "ldquo rdquo bdquo"),
    (8224, "dagger Dagger bull"),
    (8230, "hellip"),
    (8240, "permil"),
    (8242, "prime Prime"),
    (8249, "lsaquo rsaquo"),
    (8254, "oline"),
    (8260, "frasl"),
    (8364, "euro"),
    (8465, "image"),
    (8472, "weierp"),
    (8476, "real"),
    (8482, "trade"),
    (8501, "alefsym"),
    (8592, "larr uarr rarr darr harr"),
    (8629, "crarr"),
    (8656, "lArr uArr rArr dArr hArr"),
    (8704, "forall - part exist - empty - nabla isin notin - ni"),
    (8719, "prod - sum minus"),
    (8727, "lowast"),
    (8730, "radic"),
    (8733, "prop infin - ang"),
    (8743, "and or cap cup int"),
    (8756, "there4"),
    (8764, "sim"),
    (8773, "cong"),
    (8776, "asymp"),
    (8800, "ne equiv - - le ge"),
    (8834, "sub sup nsub - sube supe"),
    (8853, "oplus - otimes"),
    (8869, "perp"),
    (8901, "sdot"),
    (8968, "lceil rceil lfloor rfloor"),
    (9674, "loz"),
    (9824, "spades - - clubs - hearts diams"),
    (10216, "lang rang"),
];

fn named(name: &str) -> Option<char> {
    RUNS.iter().find_map(|&(first, names)| {
        let at = names.split(' ').position(|n| n == name)?;
        char::from_u32(first + at as u32)
    })
}

/// Reads a character reference at the start of `s` (which starts with `&`): its length and the
/// text it stands for. Numbers take at most 7 decimal or 6 hex digits; zero and values that are
/// not characters become U+FFFD.
pub(super) fn scan(s: &str) -> Option<(usize, char)> {
    let b = s.as_bytes();
    if b.get(1) == Some(&b'#') {
        let hex = matches!(b.get(2), Some(b'x' | b'X'));
        let digits_at = if hex { 3 } else { 2 };
        let (radix, max) = if hex { (16, 6) } else { (10, 7) };
        let n = b[digits_at..].iter().take(max).take_while(|c| (**c as char).is_digit(radix)).count();
        let end = digits_at + n;
        if n == 0 || b.get(end) != Some(&b';') {
            return None;
        }
        let value = u32::from_str_radix(&s[digits_at..end], radix).ok()?;
        let c = char::from_u32(value).filter(|c| *c != '\0').unwrap_or('\u{FFFD}');
        return Some((end + 1, c));
    }
    let n = b[1..].iter().take_while(|c| c.is_ascii_alphanumeric()).count();
    if n == 0 || b.get(1 + n) != Some(&b';') {
        return None;
    }
    named(&s[1..1 + n]).map(|c| (n + 2, c))
}

/// Removes backslash escapes and resolves character references, as in link destinations,
/// titles and info strings. In a table cell, `\|` was only there to keep the cell whole.
pub(super) fn unescape(s: &str, in_table: bool) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut mark = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if in_table && b.get(i + 1) == Some(&b'\\') && b.get(i + 2) == Some(&b'|') => {
                out.push_str(&s[mark..i]);
                mark = i + 2;
                i += 3;
            }
            b'\\' if b.get(i + 1).is_some_and(u8::is_ascii_punctuation) => {
                out.push_str(&s[mark..i]);
                mark = i + 1;
                i += 2;
            }
            b'&' => match scan(&s[i..]) {
                Some((n, c)) => {
                    out.push_str(&s[mark..i]);
                    out.push(c);
                    i += n;
                    mark = i;
                }
                None => i += 1,
            },
            _ => i += 1,
        }
    }
    out.push_str(&s[mark..]);
    out
}

/// Every name we know, for the test that checks them against the parser we replaced.
#[cfg(test)]
pub(super) fn names() -> impl Iterator<Item = &'static str> {
    RUNS.iter().flat_map(|(_, names)| names.split(' ')).filter(|n| *n != "-")
}
