//! Naming a server on the command line, the same way for the playground and the headless
//! commands: as the official inspector's users type it (a URL, or a command and its
//! arguments), after `--`, with `--url`, or as an entry of an `mcpServers` file; then `-e`,
//! `--header` and `--cwd` on top.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, CommandFactory};
use shared::cmdline::{self, InputError};
use shared::config::{self, Config, Env};
use shared::relay::{ConfiguredServer, OAuthSettings, Target, Transport};
use shared::revision::ProtocolChoice;

use crate::upstream::process::Inherit;

/// Which server to talk to.
#[derive(Debug, Clone, Default, PartialEq, Args)]
pub struct ServerArgs {
    /// A remote server (http or https); its transport is found out unless --transport says.
    #[arg(long, value_name = "URL", conflicts_with_all = ["config", "server"])]
    pub url: Option<String>,
    /// How to reach the server: stdio (a command), http (Streamable HTTP) or sse (legacy
    /// HTTP+SSE).
    #[arg(long, value_name = "KIND", value_parser = transport_parser())]
    pub transport: Option<Transport>,
    /// An `mcpServers` JSON file (Claude Desktop, Cursor, Claude Code, the inspector).
    #[arg(long, value_name = "FILE", conflicts_with = "server")]
    pub config: Option<PathBuf>,
    /// The server of --config to use (needed when the file has several).
    #[arg(long = "server", id = "server_name", value_name = "NAME", requires = "config")]
    pub server_name: Option<String>,
    /// An environment variable of a local (stdio) server, KEY=VALUE (repeatable).
    #[arg(short = 'e', long = "env", value_name = "KEY=VALUE")]
    pub env: Vec<String>,
    /// A header sent to a remote server, "Name: value" (repeatable).
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// The directory a local (stdio) server starts in.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<String>,
    /// Give a local (stdio) server the relay's whole environment (less its token). Without
    /// it a server gets only HOME, LOGNAME, PATH, SHELL, TERM and USER, plus its `-e` and
    /// config variables, as the official MCP SDKs do: no API key it was not given.
    #[arg(long)]
    pub inherit_env: bool,
    /// The MCP protocol revision to speak: auto (server/discover first for 2026-07-28, then
    /// initialize offering 2025-11-25 and accepting the server's pick) or one date,
    /// 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 or 2026-07-28, which the server must
    /// then speak.
    #[arg(long, value_name = "auto|DATE", value_parser = ProtocolChoice::parse)]
    pub protocol: Option<ProtocolChoice>,
    /// The server: an http(s) URL, or a command and its arguments. Everything from its first
    /// word on belongs to the server, words starting with `-` included; `--` before it works.
    // No `allow_hyphen_values`: it would take a mistyped option for a program's name; once the
    // first word is read, `trailing_var_arg` keeps every later word, `-x` ones too.
    #[arg(value_name = "SERVER", trailing_var_arg = true)]
    pub server: Vec<String>,
    #[command(flatten)]
    pub auth: super::auth::AuthArgs,
}

/// Why the server named on the command line cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ServerArgError {
    #[error("cannot read {file}: {source}")]
    Unreadable { file: String, source: std::io::Error },
    #[error("{file}: {reason}")]
    InFile { file: String, reason: String },
    #[error("{file}: the configuration has no servers")]
    NoServers { file: String },
    #[error("{file} has {count} servers: pick one with --server NAME ({names})")]
    Several { file: String, count: usize, names: String },
    #[error(
        "a URL names a server on its own, but {rest} follows {url}: options go before the server \
         (everything after its first word belongs to it)"
    )]
    WordsAfterUrl { url: String, rest: String },
    #[error(
        "{0:?} is a subcommand: put it first (mcp-playground {0} …); to run a program called {0}, give its path (./{0})"
    )]
    Subcommand(String),
    #[error("--transport stdio needs a command, and {0} is a URL")]
    StdioForUrl(String),
    #[error("--transport {transport} needs a URL (--url or a positional http(s) URL), and {who} is a command")]
    RemoteForCommand { transport: Transport, who: String },
    #[error("-e sets the environment of a local command, and {0} is a remote server (send headers with --header)")]
    EnvForRemote(String),
    #[error("--cwd is for a local command, and {0} is a remote server")]
    CwdForRemote(String),
    #[error("--header is for a remote server, and {0} is a local command (set its environment with -e)")]
    HeaderForCommand(String),
    #[error("{0}")]
    Url(String),
    #[error("{0} applies to one server: name it with --server NAME")]
    OneOfFile(&'static str),
    #[error("{0} needs a server: a URL, a command, --url or --config")]
    NoServer(&'static str),
    #[error("-e {0:?}: expected KEY=VALUE")]
    EnvPair(String),
    #[error("-e {raw:?}: {key:?} is not a valid variable name")]
    EnvKey { raw: String, key: String },
    #[error("--header {0:?}: expected \"Name: value\"")]
    HeaderPair(String),
}

type Result<T> = std::result::Result<T, ServerArgError>;

/// What the playground offers the page: the server to preselect (the demo when `None`)
/// and, with `--config`, every server of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Offer {
    pub preset: Option<Target>,
    /// The revision asked for: `--protocol`, else the picked entry's `protocolVersion`;
    /// `None` when neither says (auto, or what a recording asked for).
    pub protocol: Option<ProtocolChoice>,
    pub servers: Vec<ConfiguredServer>,
    /// The client id and scopes to sign in to the preset with (the options over its entry's).
    pub oauth: OAuthSettings,
    /// Every client secret of the file: server URL, client id, secret.
    pub secrets: Vec<(String, String, String)>,
}

/// `--transport`: the kinds a person can ask for (`auto` is what a URL alone means).
fn transport_parser() -> impl TypedValueParser<Value = Transport> {
    let names = [Transport::Stdio, Transport::Http, Transport::Sse].map(Transport::as_str);
    PossibleValuesParser::new(names).map(|name| Transport::parse(&name).expect("one of the possible values"))
}

impl ServerArgs {
    /// How much of the relay's environment a local server sees.
    pub fn inherit(&self) -> Inherit {
        if self.inherit_env { Inherit::All } else { Inherit::Minimal }
    }

    /// The server named, `None` when none was (the playground then preselects the demo). An
    /// `mcpServers` file with several servers needs `--server`; the error lists their names.
    pub fn target(&self) -> Result<Option<Target>> {
        Ok(self.resolve(&process_env, false)?.preset)
    }

    /// [`target`](Self::target) with the revision asked for it (see [`Offer::protocol`]).
    pub fn target_and_protocol(&self) -> Result<(Option<Target>, Option<ProtocolChoice>)> {
        let offer = self.resolve(&process_env, false)?;
        Ok((offer.preset, offer.protocol))
    }

    /// The server named, as a headless command uses it: [`target`](Self::target) with the
    /// revision, the OAuth settings and the client secrets of the file.
    pub fn command_offer(&self) -> Result<Offer> {
        self.resolve(&process_env, false)
    }

    /// The playground's choice: like [`target`](Self::target), except that a file with
    /// several servers and no `--server` preselects nothing and offers them all.
    pub fn offer(&self) -> Result<Offer> {
        self.resolve(&process_env, true)
    }

    fn resolve(&self, env: Env<'_>, several_ok: bool) -> Result<Offer> {
        let (named, servers, entry_protocol, entry_oauth, secrets) = match &self.config {
            Some(file) => {
                let config = load(file, env)?;
                let named = self.pick(file, &config, several_ok)?;
                let picked = named.as_ref().and_then(|_| {
                    let name = self.server_name.as_deref().or(config.names().first().copied())?;
                    config.servers.iter().find(|e| e.name == name)
                });
                let protocol = picked.map(|e| e.protocol).filter(|p| *p != ProtocolChoice::Auto);
                let oauth = picked.map(|e| e.oauth.clone()).unwrap_or_default();
                let secrets = config
                    .servers
                    .iter()
                    .filter_map(|e| {
                        let url = e.target.as_ref().ok()?.url()?.to_owned();
                        Some((url, e.oauth.client_id.clone()?, e.client_secret.clone()?))
                    })
                    .collect();
                (named, config.servers.iter().map(|e| e.offered()).collect(), protocol, oauth, secrets)
            }
            None => (self.named()?, Vec::new(), None, OAuthSettings::default(), Vec::new()),
        };
        let preset = match named {
            Some((target, who)) => Some(self.adjust(target, &who)?),
            None => {
                self.nothing_to_adjust(self.config.is_some())?;
                None
            }
        };
        let oauth = self.auth.settings(&entry_oauth);
        Ok(Offer { preset, protocol: self.protocol.or(entry_protocol), servers, oauth, secrets })
    }

    /// The server of `--config`, with how errors name it.
    fn pick(&self, file: &Path, config: &Config, several_ok: bool) -> Result<Option<(Target, String)>> {
        let shown = file.display();
        let name = match (&self.server_name, config.servers.as_slice()) {
            (Some(name), _) => name.as_str(),
            (None, []) => return Err(ServerArgError::NoServers { file: shown.to_string() }),
            (None, [only]) => only.name.as_str(),
            (None, _) if several_ok => return Ok(None),
            (None, _) => {
                let (count, names) = (config.servers.len(), config.names().join(", "));
                return Err(ServerArgError::Several { file: shown.to_string(), count, names });
            }
        };
        let target =
            config.get(name).map_err(|e| ServerArgError::InFile { file: shown.to_string(), reason: e.to_string() })?;
        Ok(Some((target, format!("server {name:?} of {shown}"))))
    }

    /// The server of `--url` or of the positional words.
    fn named(&self) -> Result<Option<(Target, String)>> {
        if let Some(url) = &self.url {
            return Ok(Some((Target::Auto { url: url.clone(), headers: BTreeMap::new() }, url.clone())));
        }
        let Some((first, rest)) = self.server.split_first() else { return Ok(None) };
        if looks_like_url(first) {
            if !rest.is_empty() {
                let rest = cmdline::join_command_line(rest);
                return Err(ServerArgError::WordsAfterUrl { url: first.clone(), rest });
            }
            return Ok(Some((Target::Auto { url: first.clone(), headers: BTreeMap::new() }, first.clone())));
        }
        if Self::is_subcommand(first) {
            return Err(ServerArgError::Subcommand(first.clone()));
        }
        let target = Target::Stdio { command: first.clone(), args: rest.to_vec(), env: BTreeMap::new(), cwd: None };
        Ok(Some((target, format!("{first:?}"))))
    }

    fn is_subcommand(word: &str) -> bool {
        super::Cli::command().get_subcommands().any(|s| s.get_name() == word)
    }

    /// Applies `--transport`, `-e`, `--header` and `--cwd` to the server named (`who` says
    /// which, in errors), and checks a URL.
    fn adjust(&self, target: Target, who: &str) -> Result<Target> {
        let remote = target.transport().is_remote();
        let who_ = || who.to_owned();
        match (self.transport, remote) {
            (Some(Transport::Stdio), true) => return Err(ServerArgError::StdioForUrl(who_())),
            (Some(transport), false) if transport != Transport::Stdio => {
                return Err(ServerArgError::RemoteForCommand { transport, who: who_() });
            }
            _ => {}
        }
        if remote {
            if !self.env.is_empty() {
                return Err(ServerArgError::EnvForRemote(who_()));
            }
            if self.cwd.is_some() {
                return Err(ServerArgError::CwdForRemote(who_()));
            }
        } else if !self.headers.is_empty() {
            return Err(ServerArgError::HeaderForCommand(who_()));
        }
        let kind = self.transport.unwrap_or(target.transport());
        Ok(match target {
            Target::Http { url, mut headers }
            | Target::Sse { url, mut headers }
            | Target::Auto { url, mut headers } => {
                if let Err(e) = crate::upstream::remote::parse_url(&url) {
                    let e = e.to_string();
                    return Err(ServerArgError::Url(if e.contains(&url) { e } else { format!("{who}: {e}") }));
                }
                for raw in &self.headers {
                    let (name, value) = header_pair(raw)?;
                    headers.insert(name, value);
                }
                match kind {
                    Transport::Http => Target::Http { url, headers },
                    Transport::Sse => Target::Sse { url, headers },
                    _ => Target::Auto { url, headers },
                }
            }
            Target::Stdio { command, args, mut env, cwd } => {
                for raw in &self.env {
                    let (key, value) = env_pair(raw)?;
                    env.insert(key, value);
                }
                Target::Stdio { command, args, env, cwd: self.cwd.clone().or(cwd) }
            }
            Target::Demo => Target::Demo,
        })
    }

    /// With no server chosen, options that would change one are mistakes.
    fn nothing_to_adjust(&self, from_file: bool) -> Result<()> {
        let given = [
            (self.transport.is_some(), "--transport"),
            (!self.env.is_empty(), "-e"),
            (!self.headers.is_empty(), "--header"),
            (self.cwd.is_some(), "--cwd"),
        ];
        let Some((_, option)) = given.iter().find(|(set, _)| *set) else { return Ok(()) };
        Err(if from_file { ServerArgError::OneOfFile(option) } else { ServerArgError::NoServer(option) })
    }
}

/// The relay's own environment, for `${VAR}` in a configuration.
fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Reads an `mcpServers` file: warnings are logged, and each `cwd` is anchored to the file's
/// folder (with `~` for the home folder), so the file means the same wherever the relay
/// starts.
fn load(file: &Path, env: Env<'_>) -> Result<Config> {
    let shown = || file.display().to_string();
    let text = std::fs::read_to_string(file).map_err(|source| ServerArgError::Unreadable { file: shown(), source })?;
    let mut config =
        config::read(&text, env).map_err(|e| ServerArgError::InFile { file: shown(), reason: e.to_string() })?;
    for warning in &config.warnings {
        tracing::warn!("{}: {warning}", file.display());
    }
    let folder = std::path::absolute(file).ok().and_then(|f| f.parent().map(Path::to_path_buf)).unwrap_or_default();
    let home = env("HOME");
    for entry in &mut config.servers {
        if let Ok(Target::Stdio { cwd: Some(cwd), .. }) = &mut entry.target {
            *cwd = anchor(cwd, &folder, home.as_deref());
        }
    }
    Ok(config)
}

/// A `cwd` of a configuration: `~` or `~/…` under `home`, a relative path under `folder`.
fn anchor(cwd: &str, folder: &Path, home: Option<&str>) -> String {
    let path = match (cwd.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => PathBuf::from(format!("{home}{rest}")),
        _ => folder.join(cwd),
    };
    // `.` parts say nothing; a person reading the form should not see them.
    let tidy: PathBuf = path.components().filter(|c| !matches!(c, std::path::Component::CurDir)).collect();
    tidy.to_string_lossy().into_owned()
}

/// Whether a first positional word is a URL rather than a program: `scheme://…`.
fn looks_like_url(word: &str) -> bool {
    word.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

/// One `-e KEY=VALUE`, read by the rules of the page's env lines.
fn env_pair(raw: &str) -> Result<(String, String)> {
    let bad = || ServerArgError::EnvPair(raw.to_owned());
    if raw.contains('\n') {
        return Err(bad());
    }
    let read = cmdline::parse_env(raw).map_err(|e| match e {
        InputError::EnvKey { key, .. } => ServerArgError::EnvKey { raw: raw.to_owned(), key },
        _ => bad(),
    })?;
    read.into_iter().next().ok_or_else(bad)
}

/// One `--header "Name: value"`, read by the rules of the page's header lines.
fn header_pair(raw: &str) -> Result<(String, String)> {
    let bad = || ServerArgError::HeaderPair(raw.to_owned());
    if raw.contains('\n') {
        return Err(bad());
    }
    cmdline::parse_headers(raw).map_err(|_| bad())?.into_iter().next().ok_or_else(bad)
}

#[cfg(test)]
mod tests;
