//! The formats we assert: dates and times (RFC 3339, with leap seconds checked against UTC),
//! ISO 8601 durations, UUIDs, JSON Pointers and regular expressions here; network names and
//! URIs in [`super::net`]. A format we do not know is not compiled, so it allows anything.

use super::net;
use super::pattern::Pattern;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    Date,
    DateTime,
    Time,
    Duration,
    Email,
    IdnEmail,
    Hostname,
    IdnHostname,
    Ipv4,
    Ipv6,
    Uri,
    UriReference,
    Iri,
    IriReference,
    Uuid,
    JsonPointer,
    RelativeJsonPointer,
    Regex,
}

const NAMES: [(&str, Format); 18] = [
    ("date", Format::Date),
    ("date-time", Format::DateTime),
    ("time", Format::Time),
    ("duration", Format::Duration),
    ("email", Format::Email),
    ("idn-email", Format::IdnEmail),
    ("hostname", Format::Hostname),
    ("idn-hostname", Format::IdnHostname),
    ("ipv4", Format::Ipv4),
    ("ipv6", Format::Ipv6),
    ("uri", Format::Uri),
    ("uri-reference", Format::UriReference),
    ("iri", Format::Iri),
    ("iri-reference", Format::IriReference),
    ("uuid", Format::Uuid),
    ("json-pointer", Format::JsonPointer),
    ("relative-json-pointer", Format::RelativeJsonPointer),
    ("regex", Format::Regex),
];

impl Format {
    pub(super) fn named(name: &str) -> Option<Format> {
        NAMES.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
    }

    pub(super) fn name(self) -> &'static str {
        NAMES.iter().find(|(_, f)| *f == self).map_or("", |(n, _)| n)
    }

    pub(super) fn accepts(self, s: &str) -> bool {
        match self {
            Format::Date => date(s),
            Format::DateTime => {
                s.len() > 10 && matches!(s.as_bytes()[10], b'T' | b't') && date(&s[..10]) && time(&s[11..])
            }
            Format::Time => time(s),
            Format::Duration => duration(s),
            Format::Email => net::email(s, false),
            Format::IdnEmail => net::email(s, true),
            Format::Hostname => net::hostname(s, false),
            Format::IdnHostname => net::hostname(s, true),
            Format::Ipv4 => net::ipv4(s),
            Format::Ipv6 => net::ipv6(s),
            Format::Uri => net::uri(s, false, false),
            Format::UriReference => net::uri(s, false, true),
            Format::Iri => net::uri(s, true, false),
            Format::IriReference => net::uri(s, true, true),
            Format::Uuid => uuid(s),
            Format::JsonPointer => json_pointer(s),
            Format::RelativeJsonPointer => relative_json_pointer(s),
            Format::Regex => Pattern::new(s).is_ok(),
        }
    }
}

/// The number written by exactly `digits.len()` ASCII digits.
fn digits(text: &[u8]) -> Option<u32> {
    if text.is_empty() || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    text.iter().try_fold(0u32, |n, d| n.checked_mul(10)?.checked_add(u32::from(d - b'0')))
}

/// `full-date`: `YYYY-MM-DD`, a day that exists.
fn date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (digits(&b[..4]), digits(&b[5..7]), digits(&b[8..])) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// `full-time`: `HH:MM:SS[.frac](Z|±HH:MM)`; second 60 only where it is 23:59:60 in UTC.
fn time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (digits(&b[..2]), digits(&b[3..5]), digits(&b[6..8])) else {
        return false;
    };
    let mut rest = &b[8..];
    if let Some(frac) = rest.strip_prefix(b".") {
        let n = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    // The offset in minutes east of UTC.
    let offset: i64 = match rest {
        b"Z" | b"z" => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (Some(h), Some(m)) = (digits(&[*h1, *h2]), digits(&[*m1, *m2])) else { return false };
            if h > 23 || m > 59 {
                return false;
            }
            let minutes = i64::from(h * 60 + m);
            if *sign == b'-' { -minutes } else { minutes }
        }
        _ => return false,
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let utc = (i64::from(hour * 60 + minute) - offset).rem_euclid(24 * 60);
    second < 60 || utc == 23 * 60 + 59
}

/// An ISO 8601 duration as RFC 3339 appendix A writes it: `P1Y2M3DT4H5M6S`, `P2W`.
fn duration(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('P') else { return false };
    if let Some(weeks) = rest.strip_suffix('W') {
        return digits(weeks.as_bytes()).is_some();
    }
    let (date, time) = match rest.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (rest, None),
    };
    (!date.is_empty() || time.is_some()) && units(date, "YMD") && time.is_none_or(|t| !t.is_empty() && units(t, "HMS"))
}

/// Numbers each followed by a unit: a run of consecutive units of `order` (`Y`, `YM`, `MD`,
/// but not `YD`: the grammar has no gaps).
fn units(s: &str, order: &str) -> bool {
    let mut next: Option<&str> = None;
    let mut rest = s;
    while !rest.is_empty() {
        let n = rest.bytes().take_while(u8::is_ascii_digit).count();
        let Some(unit) = rest[n..].chars().next() else { return false };
        let at = match next {
            None => order.find(unit),
            Some(allowed) => allowed.starts_with(unit).then_some(order.len() - allowed.len()),
        };
        let Some(at) = at else { return false };
        if n == 0 {
            return false;
        }
        next = Some(&order[at + 1..]);
        rest = &rest[n + unit.len_utf8()..];
    }
    true
}

/// `8-4-4-4-12` hexadecimal digits, any version.
fn uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter()
            .enumerate()
            .all(|(i, c)| if matches!(i, 8 | 13 | 18 | 23) { *c == b'-' } else { c.is_ascii_hexdigit() })
}

/// RFC 6901: empty, or `/`-separated tokens where `~` is always `~0` or `~1`.
fn json_pointer(s: &str) -> bool {
    (s.is_empty() || s.starts_with('/')) && s.split('~').skip(1).all(|t| t.starts_with(['0', '1']))
}

/// A non-negative integer without leading zeros, then `#` or a JSON Pointer.
fn relative_json_pointer(s: &str) -> bool {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 || (n > 1 && s.starts_with('0')) {
        return false;
    }
    let rest = &s[n..];
    rest == "#" || json_pointer(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_accepts_and_refuses() {
        let cases: &[(&str, &[&str], &[&str])] = &[
            (
                "date",
                &["2024-02-29", "2000-02-29", "1999-12-31"],
                &["2023-02-29", "1900-02-29", "2024-1-05", "2024-13-01", "", "2024-04-31", "2024-०1-01"],
            ),
            (
                "date-time",
                &[
                    "1963-06-19T08:30:06.283185Z",
                    "1963-06-19t08:30:06z",
                    "1998-12-31T23:59:60Z",
                    "1998-12-31T15:59:60.123-08:00",
                ],
                &[
                    "1998-12-31T22:59:60Z",
                    "1990-02-31T15:59:59-08:00",
                    "1963-06-19T08:30:06+01:00Z",
                    "1963-06-19 08:30:06Z",
                    "2013-350T01:01:01",
                ],
            ),
            (
                "time",
                &["08:30:06Z", "23:20:50.52+00:20", "01:29:60+01:30", "00:29:60-23:30"],
                &[
                    "12:00:00",
                    "24:00:00Z",
                    "08:30:06 PST",
                    "01:02:03+24:00",
                    "23:59:60+01:00",
                    "01:01:01,1111Z",
                    "08:30:06.Z",
                ],
            ),
            (
                "duration",
                &["P4Y", "PT0S", "P1Y2M3DT4H5M6S", "P2W", "PT36H", "P1M"],
                &["P", "PT", "P1Y2W", "P1Y2D", "PT1H2S", "P2S", "PT1D", "P1D2H", "P2D1Y", "P1", "P1YT", "1Y"],
            ),
            (
                "uuid",
                &["2EB8AA08-AA98-11EA-B4AA-73B441D16380", "00000000-0000-0000-0000-000000000000"],
                &[
                    "2eb8aa08-aa98-11ea-b4aa-73b441d1638",
                    "2eb8aa08aa9811eab4aa73b441d16380",
                    "2eb8-aa08-aa98-11ea-b4aa73b44-1d16380",
                    "2eb8aa08-aa98-11ea-b4ga-73b441d16380",
                ],
            ),
            ("json-pointer", &["", "/", "/foo/0", "/a~1b/m~0n"], &["foo", "/a~", "/a~2"]),
            ("relative-json-pointer", &["0", "1/a", "0#", "120/foo/bar"], &["", "01/a", "-1/a", "+1/a", "0##", "/a"]),
            (
                "regex",
                &["^[a-z]+$", "([abc])+\\s+$", "(?<n>a)\\k<n>", "\\cA", "(?=a)"],
                &["^(abc]", "[z-a]", "\\a", "(?i)abc", "(?P<n>x)"],
            ),
        ];
        for (name, good, bad) in cases {
            let f = Format::named(name).unwrap();
            assert_eq!(f.name(), *name);
            for s in *good {
                assert!(f.accepts(s), "{name} refuses {s:?}");
            }
            for s in *bad {
                assert!(!f.accepts(s), "{name} accepts {s:?}");
            }
        }
        assert_eq!(Format::named("color"), None);
    }
}
