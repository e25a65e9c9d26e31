//! The page remembers: every server connected to joins the saved servers by itself (names
//! of its env and headers only; their values go to the relay's secrets file when the person
//! ticks "remember secrets", never to this browser's storage), and the last server, tool
//! and timeline view come back after a reload of the tab. `shared::saved` holds the rules.

use leptos::prelude::*;
use shared::relay::{ClientMsg, Secrets, Target};
use shared::saved::{self, Last, SavedServer};

use super::Store;

const SERVERS_KEY: &str = "mcp-playground.servers.v1";
const LAST_KEY: &str = "mcp-playground.last.v1";

/// The saved servers and what the form has to do with them.
#[derive(Clone, Copy)]
pub struct SavedState {
    pub list: RwSignal<Vec<SavedServer>>,
    /// The saved server the form was filled from (or kept as), by name.
    pub current: RwSignal<Option<String>>,
    /// `connect-remember-secrets`: the relay keeps the values of env and headers.
    pub remember_secrets: RwSignal<bool>,
    /// Connect as soon as the relay gives back the secrets of this server (by key).
    connect_after_recall: StoredValue<Option<String>>,
    /// What the connection under way was asked with, kept when it comes up.
    connecting: StoredValue<Option<SavedServer>>,
    /// Where the person was, as last stored.
    last: StoredValue<Last>,
    /// The tool to pick once the tool list arrives (a reload's).
    pub(super) pending_tool: StoredValue<Option<String>>,
}

impl SavedState {
    pub fn new() -> Self {
        let stored = |key: &str| crate::storage::local().and_then(|s| s.get_item(key).ok().flatten());
        // Where the person was comes back on a reload of this tab; a new visit starts on the
        // server the relay was started on, as the README says.
        let last = crate::storage::session()
            .and_then(|s| s.get_item(LAST_KEY).ok().flatten())
            .map(|t| Last::read(&t))
            .unwrap_or_default();
        Self {
            list: RwSignal::new(stored(SERVERS_KEY).map(|t| saved::read(&t)).unwrap_or_default()),
            current: RwSignal::new(None),
            remember_secrets: RwSignal::new(false),
            connect_after_recall: StoredValue::new(None),
            connecting: StoredValue::new(None),
            pending_tool: StoredValue::new(last.tool.clone()),
            last: StoredValue::new(last),
        }
    }

    /// What was shown of the server of `key` last time.
    pub fn place(self, key: &str) -> shared::saved::Place {
        self.last.with_value(|l| l.places.get(key).cloned()).unwrap_or_default()
    }

    /// Where the timeline was: its flow view, or the list.
    pub fn flow(self) -> bool {
        self.last.with_value(|l| l.flow)
    }
}

impl Default for SavedState {
    fn default() -> Self {
        Self::new()
    }
}

impl Store {
    /// Writes the list to the browser's storage.
    pub fn save_servers(self) {
        if let (Some(s), Ok(text)) = (crate::storage::local(), self.saved.list.with_untracked(|l| saved::write(l))) {
            let _ = s.set_item(SERVERS_KEY, &text);
        }
    }

    /// Changes where the person is, and stores it.
    pub fn remember_where(self, change: impl FnOnce(&mut Last)) {
        self.saved.last.update_value(change);
        if let Some(s) = crate::storage::session() {
            let _ = s.set_item(LAST_KEY, &self.saved.last.with_value(Last::write));
        }
    }

    /// The relay's first hello: the server to offer is the one the person was on under
    /// this same relay command line, else the relay's own. Whether one was found.
    pub(super) fn restore_last(self, preset: &Target) -> bool {
        let name = self.saved.last.with_value(|l| l.server_under(preset).map(str::to_owned));
        self.remember_where(|l| l.preset = saved::key(preset));
        let Some(name) = name.filter(|n| self.saved.list.with_untracked(|l| saved::find(l, n).is_some())) else {
            return false;
        };
        self.pick_saved(&name, true);
        true
    }

    /// Fills the form from the saved server `name`; its secrets are asked of the relay when
    /// it remembers them, and with `connect` the connection starts once they are in.
    pub fn pick_saved(self, name: &str, connect: bool) {
        let Some(server) = self.saved.list.with_untracked(|l| saved::find(l, name).cloned()) else { return };
        // The relay's own servers (its preset, its --config) come with their values.
        let mut target = server.target.clone();
        if let Some(relay_target) = self.relay_target(&saved::key(&target)) {
            Secrets::of(&relay_target).fill(&mut target);
        }
        self.apply_target(&target);
        self.protocol.set(server.protocol);
        self.apply_oauth(&server.oauth);
        self.saved.current.set(Some(server.name.clone()));
        self.saved.remember_secrets.set(server.remember_secrets);
        let key = saved::key(&server.target);
        if server.remember_secrets && !Secrets::of(&server.target).is_empty() {
            self.saved.connect_after_recall.set_value(connect.then_some(key.clone()));
            self.send_to_relay(&ClientMsg::RecallSecrets { server: key });
        } else if connect {
            self.connect();
        }
    }

    /// The relay's target of the server with `key`: its preset, or one of its `--config`.
    fn relay_target(self, key: &str) -> Option<Target> {
        let preset = self.with_session(|s| s.relay().map(|r| r.preset.clone()));
        let offered =
            self.offered.with_untracked(|o| o.iter().filter_map(|s| s.target.clone().ok()).collect::<Vec<_>>());
        preset.into_iter().chain(offered).find(|t| saved::key(t) == key)
    }

    /// The relay's answer about a saved server's secrets (empty when it has none, or could
    /// not read them): the values fill the form when it still shows that server, and a
    /// connection waiting for them starts either way.
    pub(super) fn on_secrets(self, server: String, secrets: Secrets) {
        let waiting = self.saved.connect_after_recall.with_value(|w| w.as_deref() == Some(&server));
        if let Ok(mut target) = self.form().target()
            && saved::key(&target) == server
        {
            secrets.fill(&mut target);
            self.apply_target(&target);
        }
        if waiting {
            self.saved.connect_after_recall.set_value(None);
            self.connect();
        }
    }

    /// A connection is being made from the form as it is: what to keep of it once it is up.
    pub(super) fn note_connecting(self, target: &Target) {
        let server = SavedServer {
            name: String::new(),
            target: target.clone(),
            protocol: self.protocol.get_untracked(),
            oauth: if target.url().is_some() { self.oauth_settings() } else { Default::default() },
            remember_secrets: self.saved.remember_secrets.get_untracked(),
        };
        self.saved.connecting.set_value(Some(server));
    }

    /// Imports servers from an `mcpServers` paste: the values of their env and headers go
    /// to the relay, as if "remember secrets" were ticked, never to this browser.
    pub fn import_servers(self, found: Vec<SavedServer>) {
        let mut kept = Vec::new();
        for mut server in found {
            let secrets = Secrets::of(&server.target);
            if secrets.env.values().chain(secrets.headers.values()).any(|v| !v.is_empty()) {
                server.remember_secrets = true;
                self.send_to_relay(&ClientMsg::KeepSecrets { server: saved::key(&server.target), secrets });
            }
            kept.push(server);
        }
        self.saved.list.update(|list| saved::merge(list, kept));
        self.save_servers();
    }

    /// A connection came up: the server joins the saved ones (or refreshes its entry), and
    /// its secrets are kept by the relay or forgotten as the person chose when connecting.
    /// Only a connect the person (or the first screen) made counts: nothing was noted for
    /// a live session coming back from playback.
    pub(super) fn keep_connected(self) {
        let Some(server) = self.saved.connecting.try_update_value(Option::take).flatten() else { return };
        let remember = server.remember_secrets;
        let key = saved::key(&server.target);
        let secrets = Secrets::of(&server.target);
        let was_remembered =
            self.saved.list.with_untracked(|l| l.iter().any(|s| s.remember_secrets && saved::key(&s.target) == key));
        let mut name = String::new();
        self.saved.list.update(|l| name = saved::keep(l, server));
        self.save_servers();
        self.saved.current.set(Some(name.clone()));
        self.remember_where(|l| l.server = Some(name));
        if remember && !secrets.is_empty() {
            self.send_to_relay(&ClientMsg::KeepSecrets { server: key, secrets });
        } else if was_remembered && !remember {
            self.send_to_relay(&ClientMsg::KeepSecrets { server: key, secrets: Secrets::default() });
        }
    }

    /// Renames the saved server `from`; why not, when it cannot be.
    pub fn rename_saved(self, from: &str, to: &str) -> Result<(), saved::RenameError> {
        let mut result = Ok(String::new());
        self.saved.list.update(|l| result = saved::rename(l, from, to));
        let name = result?;
        self.save_servers();
        if self.saved.current.get_untracked().as_deref() == Some(from) {
            self.saved.current.set(Some(name.clone()));
        }
        if self.saved.last.with_value(|l| l.server.as_deref() == Some(from)) {
            self.remember_where(|l| l.server = Some(name));
        }
        Ok(())
    }

    /// Forgets the saved server `name`, and the secrets the relay keeps for it.
    pub fn forget_saved(self, name: &str) {
        let Some(server) = self.saved.list.with_untracked(|l| saved::find(l, name).cloned()) else { return };
        self.saved.list.update(|l| saved::forget(l, name));
        self.save_servers();
        if server.remember_secrets {
            let key = saved::key(&server.target);
            self.send_to_relay(&ClientMsg::KeepSecrets { server: key, secrets: Secrets::default() });
        }
        if self.saved.current.get_untracked().as_deref() == Some(name) {
            self.saved.current.set(None);
        }
    }

    /// A message of the page's own to the relay (not the session's).
    fn send_to_relay(self, msg: &ClientMsg) {
        self.socket.with_value(|s| s.as_ref().is_some_and(|s| s.send(msg)));
    }
}
