//! The kinds of server connection, named once: the connection form's options, the
//! `transport` tag of a [`Target`](super::Target), and the command line's `--transport`.

/// How the relay reaches a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Transport {
    /// The built-in demo server, over stdio.
    #[default]
    Demo,
    /// A local command over stdio.
    Stdio,
    /// Streamable HTTP.
    Http,
    /// Legacy HTTP+SSE.
    Sse,
    /// A URL whose transport is found out.
    Auto,
}

impl Transport {
    /// Every kind, in the order the connection form offers them.
    pub const ALL: [Transport; 5] =
        [Transport::Demo, Transport::Stdio, Transport::Http, Transport::Sse, Transport::Auto];

    /// The wire name (`transport` tag, `<option value>`, `--transport`).
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::Demo => "demo",
            Transport::Stdio => "stdio",
            Transport::Http => "http",
            Transport::Sse => "sse",
            Transport::Auto => "auto",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// What a person reads in the connection form.
    pub fn label(self) -> &'static str {
        match self {
            Transport::Demo => "Built-in demo server",
            Transport::Stdio => "Local command (stdio)",
            Transport::Http => "Streamable HTTP",
            Transport::Sse => "HTTP+SSE (legacy)",
            Transport::Auto => "Remote URL (detect)",
        }
    }

    /// Whether the server is reached by URL.
    pub fn is_remote(self) -> bool {
        matches!(self, Transport::Http | Transport::Sse | Transport::Auto)
    }
}

impl std::fmt::Display for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_distinct() {
        let names: Vec<&str> = Transport::ALL.iter().map(|t| t.as_str()).collect();
        assert_eq!(names, ["demo", "stdio", "http", "sse", "auto"]);
        for t in Transport::ALL {
            assert_eq!(Transport::parse(t.as_str()), Some(t));
        }
        assert_eq!(Transport::parse("ws"), None);
        let remote: Vec<bool> = Transport::ALL.iter().map(|t| t.is_remote()).collect();
        assert_eq!(remote, [false, false, true, true, true]);
    }
}
