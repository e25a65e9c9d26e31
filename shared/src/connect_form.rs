//! The connection form as text fields, and the [`Target`] it describes: what the page's
//! form and a saved or preset server turn into each other.

use crate::cmdline::{self, InputError};
use crate::relay::{Target, Transport};

/// What a person typed into the connection form.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConnectForm {
    pub transport: Transport,
    /// stdio: the command line, shell-like quoting.
    pub command: String,
    /// stdio: `KEY=VALUE` lines.
    pub env: String,
    /// stdio: the working directory; empty for the relay's own.
    pub cwd: String,
    /// Remote: the URL.
    pub url: String,
    /// Remote: `Name: value` lines.
    pub headers: String,
}

impl ConnectForm {
    /// The server these fields describe, or what is wrong with them.
    pub fn target(&self) -> Result<Target, InputError> {
        match self.transport {
            Transport::Demo => Ok(Target::Demo),
            Transport::Stdio => {
                let words = cmdline::split_command_line(&self.command)?;
                let env = cmdline::parse_env(&self.env)?;
                let (command, args) = words.split_first().expect("split_command_line never returns nothing");
                let cwd = Some(self.cwd.trim()).filter(|c| !c.is_empty()).map(str::to_owned);
                Ok(Target::Stdio { command: command.clone(), args: args.to_vec(), env, cwd })
            }
            Transport::Http | Transport::Sse | Transport::Auto => {
                let url = self.url.trim().to_owned();
                let lower = url.to_ascii_lowercase();
                if !(lower.starts_with("http://") || lower.starts_with("https://")) {
                    return Err(InputError::NotHttpUrl);
                }
                let headers = cmdline::parse_headers(&self.headers)?;
                Ok(match self.transport {
                    Transport::Http => Target::Http { url, headers },
                    Transport::Sse => Target::Sse { url, headers },
                    _ => Target::Auto { url, headers },
                })
            }
        }
    }

    /// Fills the fields of `target`'s transport from it; the other fields keep their text.
    pub fn fill(&mut self, target: &Target) {
        self.transport = target.transport();
        match target {
            Target::Stdio { command, args, env, cwd } => {
                let mut words = vec![command.clone()];
                words.extend(args.iter().cloned());
                self.command = cmdline::join_command_line(&words);
                self.env = cmdline::format_env(env);
                self.cwd = cwd.clone().unwrap_or_default();
            }
            Target::Http { url, headers } | Target::Sse { url, headers } | Target::Auto { url, headers } => {
                self.url = url.clone();
                self.headers = cmdline::format_headers(headers);
            }
            Target::Demo => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(transport: Transport) -> ConnectForm {
        ConnectForm { transport, ..Default::default() }
    }

    #[test]
    fn every_target_survives_the_form() {
        let targets = [
            Target::Demo,
            Target::Stdio {
                command: "node".into(),
                args: vec!["my server.js".into(), "--flag".into()],
                env: [("A".to_string(), "b c".to_string())].into(),
                cwd: Some("/srv/app".into()),
            },
            Target::Stdio { command: "x".into(), args: vec![], env: Default::default(), cwd: None },
            Target::Http {
                url: "http://127.0.0.1:1/mcp".into(),
                headers: [("X-Key".to_string(), "v".to_string())].into(),
            },
            Target::Sse { url: "https://example.com/sse".into(), headers: Default::default() },
            Target::Auto { url: "http://127.0.0.1:2/mcp".into(), headers: Default::default() },
        ];
        for t in targets {
            let mut f = ConnectForm::default();
            f.fill(&t);
            assert_eq!(f.target().as_ref(), Ok(&t), "{f:?}");
        }
    }

    #[test]
    fn bad_fields_are_named() {
        let mut f = form(Transport::Stdio);
        assert_eq!(f.target().unwrap_err(), InputError::EmptyCommand);
        f.command = "node 'unterminated".into();
        assert_eq!(f.target().unwrap_err(), InputError::UnclosedQuote('\''), "{:?}", f.target());
        f.command = "node s.js".into();
        f.env = "NOEQUALS".into();
        assert!(f.target().is_err());
        let mut f = form(Transport::Http);
        f.url = "ftp://x".into();
        assert_eq!(f.target().unwrap_err().to_string(), "enter an http:// or https:// URL");
        f.url = "  HTTP://127.0.0.1:1/mcp ".into();
        f.headers = "no colon".into();
        assert!(f.target().is_err());
        f.headers = String::new();
        assert_eq!(f.target(), Ok(Target::Http { url: "HTTP://127.0.0.1:1/mcp".into(), headers: Default::default() }));
    }

    #[test]
    fn filling_keeps_the_other_transports_text() {
        let mut f = form(Transport::Stdio);
        f.command = "node s.js".into();
        f.fill(&Target::Auto { url: "http://h/mcp".into(), headers: Default::default() });
        assert_eq!((f.transport, f.command.as_str(), f.url.as_str()), (Transport::Auto, "node s.js", "http://h/mcp"));
    }
}
