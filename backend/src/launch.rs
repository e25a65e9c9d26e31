//! Starting the relay: check what it was given, bind, announce the URL, open a browser,
//! serve until Ctrl-C. The playground and `play` differ only in what they check first.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::Bytes;
use shared::relay::{ConfiguredServer, Limits, Target};
use shared::revision::ProtocolChoice;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

use crate::app::{self, AppState, MAX_SESSIONS};
use crate::cli::{ListenArgs, PlayArgs, RunArgs};
use crate::error::{Error, Result};
use crate::guard::{self, Guard};
use crate::record;
use crate::session::SessionConfig;
use crate::upstream::process::Inherit;

/// Longest stderr line kept.
const MAX_STDERR_LINE: usize = 16 * 1024;

/// Where the page is when `--assets` is not given: `dist/` of the workspace this was built in.
pub fn default_assets() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../dist"))
}

/// What a relay serves besides the page.
struct Serving {
    preset: Target,
    /// The revision `--protocol` (or the preset's `mcpServers` entry) asks for.
    preset_protocol: ProtocolChoice,
    servers: Vec<ConfiguredServer>,
    record_dir: Option<PathBuf>,
    /// The recording `play` loaded.
    recording: Option<crate::app::Loaded>,
    /// How much of the relay's environment servers see.
    inherit: Inherit,
    /// The preset's OAuth client id and scopes.
    oauth: shared::relay::OAuthSettings,
    /// The OAuth options (store, client secrets).
    auth: crate::cli::AuthArgs,
    secrets: Vec<(String, String, String)>,
    /// The fragment of the printed URL: the tool `--tool` opens (empty without one).
    link: String,
    /// The `--config` file, absolute.
    config: Option<String>,
}

/// The playground: binds and serves until Ctrl-C or SIGTERM. `announce` receives the URL
/// once listening.
pub async fn run(args: RunArgs, announce: impl FnOnce(&str)) -> Result<()> {
    // A bad --host, --config, --url or --record fails before anything listens.
    crate::cli::check_host(&args.listen.host, args.listen.allow_remote)?;
    let offer = args.server.offer()?;
    if let Some(dir) = &args.record {
        record::prepare_dir(dir).map_err(|source| Error::RecordDir { dir: dir.display().to_string(), source })?;
        tracing::info!(dir = %dir.display(), "recording every session");
    }
    let serving = Serving {
        preset: offer.preset.unwrap_or(Target::Demo),
        preset_protocol: offer.protocol.unwrap_or_default(),
        servers: offer.servers,
        record_dir: args.record,
        recording: None,
        inherit: args.server.inherit(),
        oauth: offer.oauth,
        auth: args.server.auth.clone(),
        secrets: offer.secrets,
        link: args.tool.map(|t| shared::deep_link::fragment(&t, args.args.as_ref())).unwrap_or_default(),
        config: args
            .server
            .config
            .as_ref()
            .map(|f| std::path::absolute(f).unwrap_or_else(|_| f.clone()).display().to_string()),
    };
    serve(args.listen, serving, announce).await
}

/// `play FILE`: the playground with a recording loaded for the page to play back.
pub async fn play(args: PlayArgs, announce: impl FnOnce(&str)) -> Result<()> {
    crate::cli::check_host(&args.listen.host, args.listen.allow_remote)?;
    let text = load_recording(&args.file)?;
    let serving = Serving {
        preset: Target::Demo,
        preset_protocol: ProtocolChoice::Auto,
        servers: Vec::new(),
        record_dir: None,
        recording: Some(crate::app::Loaded { name: file_name(&args.file), text: Bytes::from(text) }),
        inherit: Inherit::Minimal,
        oauth: Default::default(),
        auth: Default::default(),
        secrets: Vec::new(),
        link: String::new(),
        config: None,
    };
    serve(args.listen, serving, announce).await
}

/// The last part of a path, as a person named the file.
fn file_name(file: &Path) -> String {
    file.file_name().map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// Reads a recording as the page will: a file that is no recording is refused, one with
/// bad lines is served with its problems logged.
fn load_recording(file: &Path) -> Result<String> {
    let (text, recording) = record::open(file)?;
    tracing::info!(
        file = %file.display(),
        entries = recording.entries.len(),
        problems = recording.problems.len(),
        "recording loaded for playback"
    );
    Ok(text)
}

async fn serve(args: ListenArgs, serving: Serving, announce: impl FnOnce(&str)) -> Result<()> {
    // A token too short to stand, or a host beyond loopback not asked for, is refused
    // before anything listens.
    let token = choose_token(args.token, std::env::var(TOKEN_ENV).ok())?;
    let remote = crate::cli::check_host(&args.host, args.allow_remote)?;
    let listener = TcpListener::bind((args.host.as_str(), args.port)).await.map_err(|source| Error::Listen {
        host: args.host.clone(),
        port: args.port,
        source,
    })?;
    let addr = listener.local_addr()?;
    // App views run behind a second port: another origin than the page's.
    let sandbox_listener = TcpListener::bind((args.host.as_str(), 0)).await.map_err(|source| Error::Listen {
        host: args.host.clone(),
        port: 0,
        source,
    })?;
    let sandbox_port = sandbox_listener.local_addr()?.port();
    if remote {
        tracing::warn!(
            host = %args.host,
            "listening beyond loopback over plain HTTP: the token and the session cookie travel in clear, and whoever holds either can start processes here"
        );
    }
    let guard = Arc::new(Guard::new(token.clone(), &args.host, addr.port()));
    let exe = std::env::current_exe()?.to_string_lossy().into_owned();
    let shown_host = if addr.ip().is_ipv6() { format!("[{}]", addr.ip()) } else { addr.ip().to_string() };
    // The authorization server sends the person back here, to the address the page is on.
    let callback = format!("http://{shown_host}:{}{}", addr.port(), crate::app::OAUTH_CALLBACK);
    let hub = Arc::new(serving.auth.hub(Some(callback), serving.secrets)?);
    if let Some(file) = hub.store.file() {
        tracing::info!(file = %file.display(), "OAuth tokens are remembered");
    }
    let session = Arc::new(SessionConfig {
        preset: serving.preset,
        preset_protocol: serving.preset_protocol,
        servers: serving.servers,
        config: serving.config,
        limits: Limits { max_message_bytes: args.max_message_bytes, max_stderr_line_bytes: MAX_STDERR_LINE },
        demo_command: (exe, vec!["demo-server".into()]),
        record_dir: serving.record_dir,
        playback: serving.recording.is_some(),
        inherit_env: serving.inherit,
        preset_oauth: serving.oauth,
        auth: hub,
        secrets: Arc::new(crate::secrets::SecretStore::user()),
        sandbox: Some(format!("http://{shown_host}:{sandbox_port}")),
    });
    let sandbox = Arc::new(app::sandbox::Sandbox::new(addr.port(), sandbox_port));
    tokio::spawn(async move {
        if let Err(e) = axum::serve(sandbox_listener, app::sandbox::router(sandbox)).await {
            tracing::warn!(error = %e, "the App sandbox stopped");
        }
    });
    let (stop, shutdown) = watch::channel(false);
    let state = AppState {
        guard,
        session,
        assets: args.assets.unwrap_or_else(default_assets),
        sessions: Arc::new(Semaphore::new(MAX_SESSIONS)),
        shutdown,
        recording: serving.recording,
        sandbox: Some(format!("http://{shown_host}:{sandbox_port}")),
    };
    // Encoded as the page will send it back: a token may hold `/`, `+`, `&` or spaces.
    let query: String = url::form_urlencoded::Serializer::new(String::new()).append_pair("token", &token).finish();
    // The tool `--tool` opens: a fragment, which the browser keeps across the door's
    // redirect and never sends.
    let link = serving.link;
    let url = format!("http://{shown_host}:{}/?{query}{link}", addr.port());
    announce(&url);
    if !args.no_open {
        // Not the printed URL: a process's arguments are public on this machine.
        let guard = state.guard.clone();
        open_browser(|| format!("http://{shown_host}:{}/?code={}{link}", addr.port(), guard.issue_code()));
    }
    app::serve(listener, state, stop, stop_signal()).await?;
    tracing::info!("relay stopped");
    Ok(())
}

/// The environment variable that gives the relay its token without showing it in the
/// process list.
const TOKEN_ENV: &str = "MCP_PLAYGROUND_TOKEN";

/// The session token: `--token`, else [`TOKEN_ENV`], else a fresh random one (an empty value
/// counts as none). One given by the user must be at least [`guard::MIN_TOKEN_LEN`]
/// characters; one on the command line works, with a warning.
fn choose_token(from_args: Option<String>, from_env: Option<String>) -> Result<String> {
    let from_args = from_args.filter(|t| !t.is_empty());
    if from_args.is_some() {
        tracing::warn!(
            "the token was given with --token: other users of this machine can read a process's arguments; set {TOKEN_ENV} instead"
        );
    }
    let Some(token) = from_args.or(from_env.filter(|t| !t.is_empty())) else {
        return Ok(guard::random_token());
    };
    let len = token.chars().count();
    if len < guard::MIN_TOKEN_LEN {
        return Err(Error::ShortToken { len, min: guard::MIN_TOKEN_LEN });
    }
    Ok(token)
}

async fn stop_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("SIGTERM handler");
    tokio::select! {
        _ = ctrl_c => {}
        _ = term.recv() => {}
    }
}

/// Opens the page in the desktop's browser, where there is a desktop. `url` makes a URL
/// with a one-time code, never the token (every local user can read the browser's
/// arguments), only when there is a browser to give it to.
fn open_browser(url: impl FnOnce() -> String) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some() {
        "xdg-open"
    } else {
        return;
    };
    let url = url();
    #[allow(
        clippy::disallowed_methods,
        reason = "the one exception to the spawn rule (clippy.toml): a browser is not a server, it is never killed"
    )]
    let spawned = std::process::Command::new(opener)
        .arg(&url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        tracing::info!(%e, "could not open a browser; open the URL yourself");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_token_is_refused_and_the_environment_comes_second() {
        let long = "0123456789abcdef".to_owned();
        assert_eq!(choose_token(Some(long.clone()), Some("from the environment".into())).unwrap(), long);
        assert_eq!(choose_token(None, Some(long.clone())).unwrap(), long);
        assert_eq!(choose_token(Some(String::new()), Some(long.clone())).unwrap(), long);
        assert_eq!(choose_token(None, Some(String::new())).unwrap().len(), 64, "random");
        assert_eq!(choose_token(None, None).unwrap().len(), 64, "random");
        for short in [Some("0123456789abcde".to_owned()), Some("T".to_owned())] {
            let e = choose_token(short.clone(), None).unwrap_err().to_string();
            assert!(e.contains("at least 16"), "{e}");
            assert!(choose_token(None, short).is_err());
        }
    }

    #[test]
    fn play_refuses_what_is_no_recording_and_names_the_line() {
        let dir = std::env::temp_dir().join(format!("mcp-playground-play-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("r.jsonl");
        let header = r#"{"format":"mcp-playground-recording","version":1,"started_at_ms":0,"recorded_by":"cli","relay_version":"0","target":{"transport":"demo"}}"#;
        // Bad lines are logged, the rest is served as it was.
        let text = format!("{header}\n{{\"t\":1,\"dir\":\"out\"}}\nnot json\n");
        std::fs::write(&file, &text).unwrap();
        assert_eq!(load_recording(&file).unwrap(), text);
        std::fs::write(&file, "{\"jsonrpc\":\"2.0\"}\n").unwrap();
        let e = load_recording(&file).unwrap_err().to_string();
        assert!(e.contains("r.jsonl cannot be read as a recording: line 1: not a recording"), "{e}");
        let e = load_recording(&dir.join("missing.jsonl")).unwrap_err();
        assert!(format!("{e:#}").contains("cannot read the recording") && format!("{e:#}").contains("missing.jsonl"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
