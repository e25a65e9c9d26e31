//! The headless client: the page's own [`Session`] from `shared`, driven in-process by the
//! relay's own [`Bridge`] instead of a WebSocket: what the session asks the relay to do is
//! done by the same code a relay session runs, and every upstream event reaches the
//! session as the same relay message the page reads.
//! With `--record FILE`, each of those messages is recorded as it reaches the session.

use std::time::{Duration, Instant};

use shared::relay::{AuthState, Limits, RelayEvent, ServerMsg, Target};
use shared::revision::ProtocolChoice;
use shared::session::{Changed, ConnState, Session};

use super::Answers;
use crate::record::RecordFile;
use crate::upstream::bridge::{Bridge, Setup};
use crate::upstream::process::Inherit;

/// How long the server gets to end when the command is done.
const GOODBYE: Duration = Duration::from_secs(3);

/// How long a server process gets to exit on its own once the command is done (and again
/// after SIGTERM): a script waits for the command, so less than the relay's grace.
const EXIT_GRACE: Duration = Duration::from_millis(300);

/// Why waiting stopped before the session got where it was going.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// The connection ended or failed; the reason as the page would show it.
    Connection(String),
    /// Nothing happened for this long.
    TimedOut(Duration),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Connection(why) => f.write_str(why),
            Stop::TimedOut(d) => write!(f, "timed out after {:.0} s", d.as_secs_f64()),
        }
    }
}

/// Sees the session after every change.
type Watch = Box<dyn FnMut(&Session, Changed) + Send>;

/// A session and the server it reaches.
pub struct Driver {
    pub session: Session,
    bridge: Bridge,
    clock: Instant,
    /// Called with the session after every change (progress lines, logs, stderr).
    watch: Watch,
    /// Where every relay message fed to the session is recorded (`--record FILE`).
    recording: Option<RecordFile>,
    /// What the server's requests of the user get (`--answers FILE`, else a refusal).
    answers: Answers,
    /// What the bridge said, on its way to the session.
    said: Vec<ServerMsg>,
}

impl Driver {
    pub fn new(limits: Limits, demo_command: (String, Vec<String>), inherit: Inherit) -> Self {
        Self {
            session: Session::new(env!("CARGO_PKG_VERSION")),
            // A script waits for the command: a process gets less time to exit than on the relay.
            bridge: Bridge::new(Setup { limits, demo_command, inherit, signing: None, grace: Some(EXIT_GRACE) }),
            clock: Instant::now(),
            watch: Box::new(|_, _| {}),
            recording: None,
            answers: Answers::default(),
            said: Vec::new(),
        }
    }

    /// Signs in with `signing` when a remote server asks for OAuth: the approval page is
    /// printed and opened (`$BROWSER`, else the system's opener).
    pub fn sign_in_with(&mut self, signing: crate::auth::Signing) {
        self.bridge.sign_in_with(signing);
    }

    /// Answers the server's requests of the user from `answers`, and offers its roots.
    pub fn answer_with(&mut self, answers: Answers) {
        self.session.set_roots(answers.roots.clone());
        self.answers = answers;
    }

    /// Records every relay message the session reads from now on into `file`, until
    /// [`disconnect`](Self::disconnect) (or the driver's end) finishes it.
    pub fn record(&mut self, file: RecordFile) {
        self.recording = Some(file);
    }

    /// Sees every change as it happens.
    pub fn on_change(&mut self, watch: impl FnMut(&Session, Changed) + Send + 'static) {
        self.watch = Box::new(watch);
    }

    /// The session's clock: milliseconds since the driver started.
    pub fn now_ms(&self) -> f64 {
        self.clock.elapsed().as_secs_f64() * 1000.0
    }

    /// Connects speaking the revision `protocol` asks for, and waits until the tool list is
    /// in (or the connection failed).
    pub async fn connect(&mut self, target: Target, protocol: ProtocolChoice, patience: Duration) -> Result<(), Stop> {
        self.session.connect_with(target, protocol, false);
        self.until(|s| *s.conn() == ConnState::Connected && !s.tools_loading(), patience).await
    }

    /// Runs until `done` holds for the session, the connection ends, or nothing at all
    /// happened for `patience` (the session's own deadlines fire on time meanwhile).
    pub async fn until(&mut self, done: impl Fn(&Session) -> bool, patience: Duration) -> Result<(), Stop> {
        let mut quiet_since = Instant::now();
        loop {
            self.pump().await;
            if done(&self.session) {
                return Ok(());
            }
            match self.session.conn() {
                ConnState::Error(why) => return Err(Stop::Connection(why.clone())),
                ConnState::Disconnected => return Err(Stop::Connection("the connection to the server ended".into())),
                _ => {}
            }
            let due =
                self.session.next_deadline_ms().map(|d| Duration::from_secs_f64((d - self.now_ms()).max(0.0) / 1000.0));
            let quiet_left = patience.saturating_sub(quiet_since.elapsed());
            let wait = due.map_or(quiet_left, |d| d.min(quiet_left));
            let next = match self.bridge.is_connected() {
                true => tokio::time::timeout(wait, self.bridge.next_event()).await.ok(),
                false => {
                    tokio::time::sleep(wait).await;
                    None
                }
            };
            match next {
                Some((event, _share)) => {
                    quiet_since = Instant::now();
                    self.bridge.on_event(event, &mut self.said).await;
                    self.tell_session();
                }
                None => {
                    let now = self.now_ms();
                    self.session.tick(now);
                    // A person approving a sign-in takes as long as it takes (the flow has its own limit).
                    let approving = matches!(
                        self.session.auth(),
                        Some(shared::relay::AuthState::SigningIn { .. } | shared::relay::AuthState::Approve { .. })
                    );
                    if quiet_since.elapsed() >= patience && !self.session.call().is_pending() && !approving {
                        return Err(Stop::TimedOut(patience));
                    }
                }
            }
        }
    }

    /// Ends the connection the way the page does, waits (briefly) for the close, and
    /// finishes the recording.
    pub async fn disconnect(&mut self) {
        if self.bridge.is_connected() {
            // The command has said what it had to; what the server does while it goes is not news.
            self.watch = Box::new(|_, _| {});
            self.session.disconnect();
            let _ = self.until(|s| !s.conn().is_live(), GOODBYE).await;
            self.bridge.end().await;
        }
        if let Some(mut file) = self.recording.take() {
            file.finish();
        }
    }

    /// Carries out what the session asked for, until it asks for nothing more.
    async fn pump(&mut self) {
        loop {
            if !self.session.asks().is_empty() {
                let now = self.now_ms();
                self.answers.answer_waiting(&mut self.session, now);
            }
            let fx = self.session.drain();
            if fx.changed.any() {
                (self.watch)(&self.session, fx.changed);
            }
            if fx.send.is_empty() {
                return;
            }
            for msg in fx.send {
                self.bridge.handle(msg, &mut self.said).await;
                self.tell_session();
            }
        }
    }

    /// What the bridge said, fed to the session; a sign-in to approve is printed and opened
    /// (`$BROWSER`, else the system's opener).
    fn tell_session(&mut self) {
        let said = std::mem::take(&mut self.said);
        for msg in said {
            if let ServerMsg::Event { event: RelayEvent::Auth { auth: AuthState::Approve { url, .. } }, .. } = &msg {
                #[allow(clippy::print_stderr, reason = "a command line's output: where to approve")]
                {
                    eprintln!("sign in: approve access at {url}");
                }
                crate::auth::browser::open(url);
            }
            self.feed(msg);
        }
    }

    /// The one way a relay message reaches the session: recorded, then read.
    fn feed(&mut self, msg: ServerMsg) {
        if let Some(file) = &mut self.recording {
            file.push(&msg);
        }
        let now = self.now_ms();
        self.session.receive(msg, now);
    }
}
