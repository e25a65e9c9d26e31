//! Starting the relay: bind, announce the URL, open a browser, serve until Ctrl-C.

use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;

use shared::relay::{Limits, Target};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

use crate::app::{self, AppState, MAX_SESSIONS};
use crate::cli::RunArgs;
use crate::guard::{self, Guard};
use crate::session::SessionConfig;

/// Longest stderr line kept.
const MAX_STDERR_LINE: usize = 16 * 1024;

/// Where the page is when `--assets` is not given: `dist/` of the workspace this was built in.
fn default_assets() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../dist"))
}

/// Binds and serves until Ctrl-C or SIGTERM. `announce` receives the URL once listening.
pub async fn run(args: RunArgs, announce: impl FnOnce(&str)) -> anyhow::Result<()> {
    // A bad --config or --url fails before anything listens.
    let offer = args.server.offer()?;
    let listener = TcpListener::bind((args.host.as_str(), args.port)).await.map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::AddrInUse { " (pass --port 0 to pick a free port)" } else { "" };
        anyhow::anyhow!("cannot listen on {}:{}: {e}{hint}", args.host, args.port)
    })?;
    let addr = listener.local_addr()?;
    let loopback = args.host.parse::<IpAddr>().map(|ip| ip.is_loopback()).unwrap_or(args.host == "localhost");
    if !loopback {
        tracing::warn!(host = %args.host, "listening beyond loopback: anyone who can reach this address and has the token can start processes here");
    }
    let token = args.token.filter(|t| !t.is_empty()).unwrap_or_else(guard::random_token);
    let guard = Arc::new(Guard::new(token.clone(), &args.host, addr.port()));
    let exe = std::env::current_exe()?.to_string_lossy().into_owned();
    let session = Arc::new(SessionConfig {
        preset: offer.preset.unwrap_or(Target::Demo),
        servers: offer.servers,
        limits: Limits { max_message_bytes: args.max_message_bytes, max_stderr_line_bytes: MAX_STDERR_LINE },
        demo_command: (exe, vec!["demo-server".into()]),
    });
    let (stop, shutdown) = watch::channel(false);
    let state = AppState {
        guard,
        session,
        assets: args.assets.unwrap_or_else(default_assets),
        sessions: Arc::new(Semaphore::new(MAX_SESSIONS)),
        shutdown,
    };
    let shown_host = if addr.ip().is_ipv6() { format!("[{}]", addr.ip()) } else { addr.ip().to_string() };
    let url = format!("http://{shown_host}:{}/?token={token}", addr.port());
    announce(&url);
    if !args.no_open {
        open_browser(&url);
    }
    app::serve(listener, state, stop, stop_signal()).await?;
    tracing::info!("relay stopped");
    Ok(())
}

async fn stop_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("SIGTERM handler");
    tokio::select! {
        _ = ctrl_c => {}
        _ = term.recv() => {}
    }
}

/// Opens the page in the desktop's browser, where there is a desktop.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some() {
        "xdg-open"
    } else {
        return;
    };
    #[allow(
        clippy::disallowed_methods,
        reason = "a browser is not a server: it must outlive nothing and is not killed"
    )]
    let spawned = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        tracing::info!(%e, "could not open a browser; open the URL yourself");
    }
}
