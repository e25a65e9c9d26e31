//! What a person types in the connection panel: a command line with shell-like quoting and
//! `KEY=VALUE` environment lines. Errors say where the input went wrong.

use std::collections::BTreeMap;

/// Why a command line or an env block could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error("the command is empty")]
    EmptyCommand,
    #[error("unclosed {0} quote in the command")]
    UnclosedQuote(char),
    #[error("the command ends with a lone backslash")]
    TrailingBackslash,
    #[error("env line {line}: expected KEY=VALUE, got {text:?}")]
    EnvLine { line: usize, text: String },
    #[error("env line {line}: {key:?} is not a valid variable name")]
    EnvKey { line: usize, key: String },
    #[error("header line {line}: expected Name: value, got {text:?}")]
    HeaderLine { line: usize, text: String },
    #[error("enter an http:// or https:// URL")]
    NotHttpUrl,
}

/// Splits a command line into program and arguments: whitespace separates words; single
/// quotes keep everything literally; double quotes allow `\"` and `\\`; a backslash outside
/// quotes escapes the next character. No expansion of any kind happens.
pub fn split_command_line(input: &str) -> Result<Vec<String>, InputError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = input.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => word.push(ch),
                        None => return Err(InputError::UnclosedQuote('\'')),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(ch @ ('"' | '\\' | '$' | '`')) => word.push(ch),
                            Some(ch) => {
                                word.push('\\');
                                word.push(ch);
                            }
                            None => return Err(InputError::UnclosedQuote('"')),
                        },
                        Some(ch) => word.push(ch),
                        None => return Err(InputError::UnclosedQuote('"')),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(ch) => word.push(ch),
                    None => return Err(InputError::TrailingBackslash),
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(InputError::EmptyCommand);
    }
    Ok(words)
}

/// Quotes words so that [`split_command_line`] gives them back (for showing a preset).
pub fn join_command_line<S: AsRef<str>>(words: &[S]) -> String {
    words
        .iter()
        .map(|w| {
            let w = w.as_ref();
            let plain = !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c));
            if plain { w.to_owned() } else { format!("'{}'", w.replace('\'', r"'\''")) }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads `KEY=VALUE` lines; blank lines and lines starting with `#` are skipped.
pub fn parse_env(input: &str) -> Result<BTreeMap<String, String>, InputError> {
    let mut env = BTreeMap::new();
    for (i, raw) in input.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(InputError::EnvLine { line: i + 1, text: line.to_owned() });
        };
        let key = key.trim();
        let valid = !key.is_empty()
            && !key.starts_with(|c: char| c.is_ascii_digit())
            && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(InputError::EnvKey { line: i + 1, key: key.to_owned() });
        }
        env.insert(key.to_owned(), value.to_owned());
    }
    Ok(env)
}

/// Reads `Name: value` header lines; blank lines and `#` comments are skipped.
pub fn parse_headers(input: &str) -> Result<BTreeMap<String, String>, InputError> {
    let mut out = BTreeMap::new();
    for (i, raw) in input.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || InputError::HeaderLine { line: i + 1, text: line.to_owned() };
        let (name, value) = line.split_once(':').ok_or_else(bad)?;
        let name = name.trim();
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_!#$%&'*+.^`|~".contains(&b)) {
            return Err(bad());
        }
        out.insert(name.to_owned(), value.trim().to_owned());
    }
    Ok(out)
}

/// Shows headers as the lines [`parse_headers`] reads.
pub fn format_headers(headers: &BTreeMap<String, String>) -> String {
    headers.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("\n")
}

/// Shows an env map as the lines [`parse_env`] reads.
pub fn format_env(env: &BTreeMap<String, String>) -> String {
    env.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    #[test]
    fn splits_like_a_shell_without_expansion() {
        let cases = [
            "npx -y @modelcontextprotocol/server-everything",
            r#"python3 -c 'print("hi there")' "a b" c\ d"#,
            r#"node "C:\dir\x.js" --name="it's" $HOME"#,
            "  spaced   out  ",
            "''",
            "'open",
            "\"open",
            "trailing\\",
            "   ",
        ];
        let out: Vec<String> = cases
            .iter()
            .map(|c| match split_command_line(c) {
                Ok(w) => format!("{w:?}"),
                Err(e) => format!("error: {e}"),
            })
            .collect();
        expect![[r#"
            ["npx", "-y", "@modelcontextprotocol/server-everything"]
            ["python3", "-c", "print(\"hi there\")", "a b", "c d"]
            ["node", "C:\\dir\\x.js", "--name=it's", "$HOME"]
            ["spaced", "out"]
            [""]
            error: unclosed ' quote in the command
            error: unclosed " quote in the command
            error: the command ends with a lone backslash
            error: the command is empty"#]]
        .assert_eq(&out.join("\n"));
    }

    #[test]
    fn join_round_trips() {
        let words = ["node", "my server.js", "it's", "", "--x=1"];
        let line = join_command_line(&words);
        assert_eq!(split_command_line(&line).unwrap(), words);
    }

    #[test]
    fn header_lines() {
        let h = parse_headers("Authorization: Bearer abc:def\n\nX-Trace:1").unwrap();
        expect![[r#"{"Authorization": "Bearer abc:def", "X-Trace": "1"}"#]].assert_eq(&format!("{h:?}"));
        assert_eq!(parse_headers(&format_headers(&h)).unwrap(), h);
        expect![[r#"header line 1: expected Name: value, got "no colon""#]]
            .assert_eq(&parse_headers("no colon").unwrap_err().to_string());
        assert!(parse_headers("Bad Name: x").is_err());
    }

    #[test]
    fn env_lines() {
        let env = parse_env("# comment\nA=1\n\n B = two words \nC=x=y").unwrap();
        expect![[r#"{"A": "1", "B": " two words", "C": "x=y"}"#]].assert_eq(&format!("{env:?}"));
        assert_eq!(parse_env(&format_env(&env)).unwrap(), env);
        expect!["env line 2: expected KEY=VALUE, got \"oops\""]
            .assert_eq(&parse_env("A=1\noops").unwrap_err().to_string());
        expect!["env line 1: \"1X\" is not a valid variable name"]
            .assert_eq(&parse_env("1X=2").unwrap_err().to_string());
    }
}
