//! Formats of the network: `email` (RFC 5321 mailboxes: dot-atoms, quoted local parts and
//! address literals), `hostname` (RFC 1123), IPv4 and IPv6 addresses, and URIs and IRIs
//! (RFC 3986/3987 syntax). The `idn-` forms accept any non-ASCII letter where ASCII ones
//! go, without IDNA's finer rules: a lenient check, not a registry lookup.

/// A mailbox: `local@domain`.
pub(super) fn email(s: &str, idn: bool) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else { return false };
    let local_ok = match local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
        Some(quoted) => quoted_text(quoted, idn),
        None => {
            !local.is_empty()
                && local.split('.').all(|atom| {
                    !atom.is_empty()
                        && atom.chars().all(|c| {
                            c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || (idn && !c.is_ascii())
                        })
                })
        }
    };
    let domain_ok = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.strip_prefix("IPv6:") {
            Some(v6) => ipv6(v6),
            None => ipv4(literal),
        },
        None => hostname(domain, idn),
    };
    local_ok && domain_ok
}

/// The inside of a quoted local part: printable characters, `"` and `\` only escaped.
fn quoted_text(s: &str, idn: bool) -> bool {
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        let ok = match c {
            '\\' => chars.next().is_some_and(|e| e == ' ' || e.is_ascii_graphic()),
            '"' => false,
            c => c == ' ' || c.is_ascii_graphic() || (idn && !c.is_ascii() && !c.is_control()),
        };
        if !ok {
            return false;
        }
    }
    true
}

/// Dot-separated labels of letters, digits and inner hyphens, 63 octets each, 253 in all.
/// `idn` also accepts non-ASCII letters and the ideographic full stops as separators.
pub(super) fn hostname(s: &str, idn: bool) -> bool {
    let dots: &[char] = if idn { &['.', '\u{3002}', '\u{FF0E}', '\u{FF61}'] } else { &['.'] };
    if s.is_empty() || s.chars().count() > 253 {
        return false;
    }
    s.split(dots).all(|label| {
        let (Some(first), Some(last)) = (label.chars().next(), label.chars().last()) else { return false };
        let letter = |c: char| c.is_ascii_alphanumeric() || (idn && !c.is_ascii() && c.is_alphanumeric());
        let length = if idn { label.chars().count() } else { label.len() };
        // `ab--…` is reserved for encodings such as punycode's `xn--`.
        let reserved =
            label.len() >= 4 && &label.as_bytes()[2..4] == b"--" && !label.as_bytes()[..2].eq_ignore_ascii_case(b"xn");
        length <= 63
            && !reserved
            && first != '-'
            && last != '-'
            && label
                .chars()
                .all(|c| c == '-' || letter(c) || (idn && !c.is_ascii() && !c.is_whitespace() && !c.is_control()))
    })
}

/// Four decimal octets without leading zeros.
pub(super) fn ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

/// Eight groups of up to four hex digits, one `::` standing for zero or more of them, and
/// optionally an IPv4 address for the last two.
pub(super) fn ipv6(s: &str) -> bool {
    let text = match s.rfind(':') {
        Some(i) if s[i + 1..].contains('.') => {
            if !ipv4(&s[i + 1..]) {
                return false;
            }
            format!("{}0:0", &s[..=i])
        }
        _ => s.to_owned(),
    };
    let groups = |part: &str| -> Option<usize> {
        if part.is_empty() {
            return Some(0);
        }
        let all = part.split(':').all(|g| (1..=4).contains(&g.len()) && g.bytes().all(|b| b.is_ascii_hexdigit()));
        all.then(|| part.split(':').count())
    };
    match text.split("::").collect::<Vec<_>>()[..] {
        [whole] => !whole.is_empty() && groups(whole) == Some(8),
        [head, tail] => match (groups(head), groups(tail)) {
            (Some(a), Some(b)) => a + b <= 7,
            _ => false,
        },
        _ => false,
    }
}

/// A URI (`reference`: or a relative reference); `iri` also accepts non-ASCII characters.
pub(super) fn uri(s: &str, iri: bool, reference: bool) -> bool {
    let (rest, fragment) = s.split_once('#').unwrap_or((s, ""));
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    if !allowed(fragment, "/?:@", iri) || !allowed(query, "/?:@", iri) {
        return false;
    }
    let hier = match scheme_end(rest) {
        Some(end) => &rest[end + 1..],
        // Without a scheme, the first segment must not hold a `:` (it would read as one).
        None if reference && !rest.split('/').next().unwrap_or_default().contains(':') => rest,
        None => return false,
    };
    match hier.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            authority(&after[..end], iri) && allowed(&after[end..], "/:@", iri)
        }
        None => allowed(hier, "/:@", iri),
    }
}

/// Where the scheme's `:` is, if `s` starts with a scheme.
fn scheme_end(s: &str) -> Option<usize> {
    let end = s.find(':')?;
    let scheme = &s[..end];
    let mut chars = scheme.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(end)
}

/// `[userinfo@]host[:port]`, where the host may be an IP literal in brackets.
fn authority(s: &str, iri: bool) -> bool {
    let (userinfo, hostport) = s.rsplit_once('@').unwrap_or(("", s));
    if !allowed(userinfo, ":", iri) {
        return false;
    }
    let (host_ok, port) = match hostport.strip_prefix('[') {
        Some(literal) => {
            let Some((inside, after)) = literal.split_once(']') else { return false };
            let future = inside.strip_prefix(['v', 'V']).and_then(|v| v.split_once('.')).is_some_and(|(ver, rest)| {
                !ver.is_empty()
                    && ver.bytes().all(|b| b.is_ascii_hexdigit())
                    && !rest.is_empty()
                    && allowed(rest, ":", false)
            });
            let port = match after.strip_prefix(':') {
                Some(port) => port,
                None if after.is_empty() => "",
                None => return false,
            };
            (ipv6(inside) || future, port)
        }
        None => {
            let (host, port) = hostport.split_once(':').unwrap_or((hostport, ""));
            (allowed(host, "", iri), port)
        }
    };
    host_ok && port.bytes().all(|b| b.is_ascii_digit())
}

/// Whether every character of `s` is unreserved, a sub-delimiter, one of `extra`, a
/// percent-encoded octet, or (for IRIs) a non-ASCII character.
fn allowed(s: &str, extra: &str, iri: bool) -> bool {
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        let ok = match c {
            '%' => {
                chars.next().is_some_and(|h| h.is_ascii_hexdigit())
                    && chars.next().is_some_and(|l| l.is_ascii_hexdigit())
            }
            c if c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=".contains(c) || extra.contains(c) => true,
            c => iri && !c.is_ascii() && !c.is_control() && !c.is_whitespace(),
        };
        if !ok {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_formats_accept_and_refuse() {
        for s in [
            "joe.bloggs@example.com",
            "~joe@example.com",
            "\"joe bloggs\"@example.com",
            "\"a@b\"@x.org",
            "joe@[127.0.0.1]",
            "joe@[IPv6:::1]",
            "te.s.t@x.org",
        ] {
            assert!(email(s, false), "{s}");
        }
        for s in [
            "2962",
            ".joe@x.org",
            "joe.@x.org",
            "jo..e@x.org",
            "joe@[127.0.0.300]",
            "joe@invalid=domain.com",
            "joé@x.org",
        ] {
            assert!(!email(s, false), "{s}");
        }
        assert!(email("joé@exämple.org", true));
        for s in ["www.example.com", "xn--4gbwdl.xn--wgbh1c", "a", "a-b1"] {
            assert!(hostname(s, false), "{s}");
        }
        for s in ["-a-host", "not_a_host", "a..b", ".", "", "ab--cd.com", "example.", &"a".repeat(64), "exämple.org"] {
            assert!(!hostname(s, false), "{s}");
        }
        assert!(hostname("実例。テスト", true));
        for s in ["192.168.0.1", "0.0.0.0", "255.255.255.255"] {
            assert!(ipv4(s), "{s}");
        }
        for s in ["256.0.0.1", "1.2.3", "01.2.3.4", "1.2.3.4.5", "a.b.c.d", "1.2.3.০"] {
            assert!(!ipv4(s), "{s}");
        }
        for s in ["::1", "::", "1:2:3:4:5:6:7:8", "fe80::a:b", "::ffff:192.168.0.1", "1::8", "1:2:3:4:5:6:1.2.3.4"] {
            assert!(ipv6(s), "{s}");
        }
        for s in [
            ":::",
            "1::2::3",
            "12345::",
            "fe80::a%eth1",
            "1:2:3:4:5:6:7",
            "::ffff:1.2.3",
            "[::1]",
            "1:2:3:4:5:6:7:1.2.3.4",
            "",
        ] {
            assert!(!ipv6(s), "{s}");
        }
        for s in [
            "http://foo.bar/?baz=qux#quux",
            "mailto:J.Doe@example.com",
            "urn:oasis:names:a:b",
            "ldap://[2001:db8::7]/c=GB?one",
            "http://x.org:80/a%20b",
            "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
        ] {
            assert!(uri(s, false, false), "{s}");
        }
        for s in [
            "//foo.bar/?baz",
            "/abc",
            "abc",
            "http:// x",
            "bar,baz:foo",
            ":// should fail",
            "https://[@example.org/t",
            "http://x.org:8a/",
            "http://ex.org/%zz",
        ] {
            assert!(!uri(s, false, false), "{s}");
        }
        for s in ["//foo.bar/?baz", "/abc", "abc", "#frag", ""] {
            assert!(uri(s, false, true), "{s}");
        }
        assert!(!uri("\\\\WINDOWS\\fileshare", false, true));
        assert!(!uri("#frag\\ment", false, true));
        assert!(uri("http://ƒøø.ßår/?∂éœ=πîx#πîüx", true, false));
        assert!(!uri("http://ƒøø.ßår/", false, false));
    }
}
