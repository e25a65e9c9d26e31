//! `${VAR}` references in `mcpServers` values, as Claude Code (`${VAR}`, `${VAR:-default}`)
//! and Cursor (`${env:VAR}`) write them, looked up through a function so that the relay (its
//! process environment) and the page (no environment) read a file the same way.

/// Finds the value of an environment variable; the page passes one that knows none.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Why a value could not be expanded. Shown after the key it was found in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExpandError {
    #[error("variable {0} is not set")]
    Unset(String),
    #[error(
        "\"${{{0}}}\" is not a variable reference (write ${{VAR}}, ${{env:VAR}} or ${{VAR:-default}}; $${{ for a literal ${{)"
    )]
    NotAVariable(String),
    #[error("\"${{\" is not closed by \"}}\" (write $${{ for a literal ${{)")]
    Unclosed,
}

/// Replaces every `${VAR}`, `${env:VAR}` and `${VAR:-default}` (the default when VAR is
/// unset, as Claude Code does) in `value`; `$${` stands for a literal `${`. Any other `$` is
/// kept as it is, so `$HOME` or a password with `$$` in it pass unchanged. Values read
/// from the environment are not expanded again.
pub fn expand(value: &str, env: Env<'_>) -> Result<String, ExpandError> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(after) = tail.strip_prefix("$${") {
            out.push_str("${");
            rest = after;
        } else if let Some(after) = tail.strip_prefix("${") {
            let end = after.find('}').ok_or(ExpandError::Unclosed)?;
            out.push_str(&lookup(&after[..end], env)?);
            rest = &after[end + 1..];
        } else {
            out.push('$');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// The value of one reference: what is between `${` and `}`.
fn lookup(reference: &str, env: Env<'_>) -> Result<String, ExpandError> {
    let inner = reference.strip_prefix("env:").unwrap_or(reference);
    let (name, default) = match inner.split_once(":-") {
        Some((name, default)) => (name, Some(default)),
        None => (inner, None),
    };
    let valid = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(ExpandError::NotAVariable(reference.to_owned()));
    }
    match (env(name), default) {
        (Some(v), _) => Ok(v),
        (None, Some(d)) => Ok(d.to_owned()),
        (None, None) => Err(ExpandError::Unset(name.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    fn env(name: &str) -> Option<String> {
        match name {
            "TOKEN" => Some("s3cret".into()),
            "EMPTY" => Some(String::new()),
            "NESTED" => Some("${TOKEN}".into()),
            _ => None,
        }
    }

    #[test]
    fn expands_the_ecosystems_forms() {
        let cases = [
            "Bearer ${TOKEN}",
            "${env:TOKEN}/${TOKEN}",
            "${MISSING:-fallback} ${TOKEN:-unused} ${env:MISSING:-a:-b}",
            "[${EMPTY:-default}]",
            "$${TOKEN} and $${ and a lone $$ or $HOME or $",
            "${NESTED}",
            "no references",
            "${MISSING}",
            "${1ABC}",
            "${input:api-key}",
            "${}",
            "Bearer ${TOKEN",
        ];
        let out: Vec<String> = cases
            .iter()
            .map(|c| match expand(c, &env) {
                Ok(v) => format!("{c} => {v}"),
                Err(e) => format!("{c} => error: {e}"),
            })
            .collect();
        expect![[r#"
            Bearer ${TOKEN} => Bearer s3cret
            ${env:TOKEN}/${TOKEN} => s3cret/s3cret
            ${MISSING:-fallback} ${TOKEN:-unused} ${env:MISSING:-a:-b} => fallback s3cret a:-b
            [${EMPTY:-default}] => []
            $${TOKEN} and $${ and a lone $$ or $HOME or $ => ${TOKEN} and ${ and a lone $$ or $HOME or $
            ${NESTED} => ${TOKEN}
            no references => no references
            ${MISSING} => error: variable MISSING is not set
            ${1ABC} => error: "${1ABC}" is not a variable reference (write ${VAR}, ${env:VAR} or ${VAR:-default}; $${ for a literal ${)
            ${input:api-key} => error: "${input:api-key}" is not a variable reference (write ${VAR}, ${env:VAR} or ${VAR:-default}; $${ for a literal ${)
            ${} => error: "${}" is not a variable reference (write ${VAR}, ${env:VAR} or ${VAR:-default}; $${ for a literal ${)
            Bearer ${TOKEN => error: "${" is not closed by "}" (write $${ for a literal ${)"#]]
        .assert_eq(&out.join("\n"));
    }
}
