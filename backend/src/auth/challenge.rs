//! `WWW-Authenticate: Bearer …` (RFC 6750 §3, RFC 9728 §5.1): the parameters a client acts
//! on. Several challenges may share one header; only the `Bearer` one is read.

/// What a `Bearer` challenge asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challenge {
    /// `invalid_token`, `insufficient_scope`…
    pub error: Option<String>,
    pub error_description: Option<String>,
    /// The scopes the server wants, space-separated.
    pub scope: Option<String>,
    /// Where the protected resource metadata is (RFC 9728).
    pub resource_metadata: Option<String>,
}

impl Challenge {
    /// The scopes asked for, one by one.
    pub fn scopes(&self) -> Vec<String> {
        self.scope.as_deref().unwrap_or("").split_whitespace().map(str::to_owned).collect()
    }

    pub fn insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

/// The `Bearer` challenge of a `WWW-Authenticate` value; none when it has no such scheme.
pub fn parse(header: &str) -> Option<Challenge> {
    let mut challenge = Challenge::default();
    let (mut bearer, mut found) = (false, false);
    let mut rest = header;
    loop {
        rest = rest.trim_start_matches([' ', '\t', ',']);
        if rest.is_empty() {
            break;
        }
        let end = rest.find(['=', ' ', '\t', ',']).unwrap_or(rest.len());
        let token = &rest[..end];
        let after = rest[end..].trim_start_matches([' ', '\t']);
        let Some(value_on) = after.strip_prefix('=').filter(|_| !token.is_empty()) else {
            // A new scheme (or a token68 of one).
            bearer = token.eq_ignore_ascii_case("bearer");
            found |= bearer;
            rest = &rest[end..];
            continue;
        };
        let value_on = value_on.trim_start_matches([' ', '\t']);
        let (value, next) = match value_on.strip_prefix('"') {
            Some(quoted) => quoted_string(quoted),
            None => {
                let end = value_on.find(',').unwrap_or(value_on.len());
                (value_on[..end].trim().to_owned(), &value_on[end..])
            }
        };
        if bearer {
            let slot = match token.to_ascii_lowercase().as_str() {
                "error" => Some(&mut challenge.error),
                "error_description" => Some(&mut challenge.error_description),
                "scope" => Some(&mut challenge.scope),
                "resource_metadata" => Some(&mut challenge.resource_metadata),
                _ => None,
            };
            if let Some(slot) = slot {
                *slot = Some(value);
            }
        }
        rest = next;
    }
    found.then_some(challenge)
}

/// A quoted string's value (escapes undone) and what follows its closing quote.
fn quoted_string(s: &str) -> (String, &str) {
    let mut value = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return (value, &s[i + 1..]),
            '\\' => {
                if let Some((_, escaped)) = chars.next() {
                    value.push(escaped);
                }
            }
            c => value.push(c),
        }
    }
    (value, "")
}
