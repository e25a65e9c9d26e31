//! Signing in to a remote server: where it stands (`auth-status`), the client id and scopes
//! of the connection form, and the approval tab. The relay is the OAuth client and keeps
//! the tokens; the page only opens the authorization server's page for the person.
//!
//! Popup blockers let a page open a tab only from a click, so `auth-sign-in` opens one at
//! once: the approval page itself when the relay has named it, otherwise a blank tab that
//! is sent to the approval page when the relay names it (and closed if it never does).

use leptos::prelude::*;
use shared::auth_view::openable;
use shared::relay::{AuthState, OAuthSettings};
use shared::session::Session;
use wasm_bindgen::JsValue;

use super::{ConnState, Store};

#[derive(Clone, Copy)]
pub struct AuthUi {
    /// Where signing in stands; `None`: the server asked for no sign-in (yet).
    pub state: RwSignal<Option<AuthState>>,
    /// `connect-oauth-client-id`: a client id registered beforehand, or empty.
    pub client_id: RwSignal<String>,
    /// `connect-oauth-scopes`: space-separated, or empty for the server's own.
    pub scopes: RwSignal<String>,
    /// The tab opened by a click on sign-in, waiting for the approval URL.
    tab: StoredValue<Option<web_sys::Window>, LocalStorage>,
}

impl AuthUi {
    pub fn new() -> Self {
        Self {
            state: RwSignal::new(None),
            client_id: RwSignal::new(String::new()),
            scopes: RwSignal::new(String::new()),
            tab: StoredValue::new_local(None),
        }
    }
}

impl Default for AuthUi {
    fn default() -> Self {
        Self::new()
    }
}

impl Store {
    /// The client id and scopes of the connection form.
    pub(super) fn oauth_settings(self) -> OAuthSettings {
        let id = self.auth.client_id.get_untracked();
        let scopes = self.auth.scopes.get_untracked();
        OAuthSettings {
            client_id: Some(id.trim().to_owned()).filter(|s| !s.is_empty()),
            scopes: scopes.split_whitespace().map(str::to_owned).collect(),
        }
    }

    /// Fills the form's OAuth fields (a preset or a configured server).
    pub fn apply_oauth(self, oauth: &OAuthSettings) {
        self.auth.client_id.set(oauth.client_id.clone().unwrap_or_default());
        self.auth.scopes.set(oauth.scopes.join(" "));
    }

    /// `auth-sign-in`: opens the approval page when the relay has named it; otherwise
    /// opens a tab for it now, from this click, and connects.
    pub fn sign_in(self) {
        let Some(window) = web_sys::window() else { return };
        if let Some(AuthState::Approve { url, .. }) = self.auth.state.get_untracked() {
            if let Some(url) = openable(&url) {
                // `noopener`: the authorization server's page gets no handle on this one.
                let _ = window.open_with_url_and_target_and_features(url, "_blank", "noopener,noreferrer");
            }
            return;
        }
        self.close_tab();
        if let Ok(Some(tab)) = window.open_with_url_and_target("about:blank", "_blank") {
            // The handle is ours; the tab gets none on this page (what `noopener` does).
            let _ = tab.set_opener(&JsValue::NULL);
            if let Some(body) = tab.document().and_then(|d| d.body()) {
                body.set_text_content(Some("Opening the sign-in page…"));
            }
            self.auth.tab.set_value(Some(tab));
        }
        self.connect();
        if matches!(self.conn.get_untracked(), ConnState::Error(_)) {
            self.close_tab();
        }
    }

    /// `auth-sign-out`: the relay forgets the tokens and ends the connection.
    pub fn sign_out(self) {
        self.close_tab();
        self.act(Session::sign_out);
    }

    /// The session's sign-in state changed: show it, and send a waiting tab on.
    pub(super) fn show_auth(self, s: &Session) {
        let auth = s.auth().cloned();
        match &auth {
            Some(AuthState::Approve { url, .. }) => {
                if let (Some(tab), Some(url)) = (self.auth.tab.get_value(), openable(url)) {
                    let _ = tab.location().set_href(url);
                    self.auth.tab.set_value(None);
                }
            }
            None | Some(AuthState::SigningIn { .. }) => {}
            // Signed in from tokens the relay kept, or failed: the tab has nothing to show.
            _ => self.close_tab(),
        }
        self.auth.state.set(auth);
    }

    /// The connection moved on: a tab still waiting for an approval URL will not get one
    /// once the handshake is done or the connection is over.
    pub(super) fn settle_auth_tab(self, s: &Session) {
        let over = matches!(s.conn(), ConnState::Disconnected | ConnState::Error(_)) || s.server().is_some();
        if over {
            self.close_tab();
        }
    }

    fn close_tab(self) {
        if let Some(tab) = self.auth.tab.try_update_value(Option::take).flatten() {
            let _ = tab.close();
        }
    }
}
