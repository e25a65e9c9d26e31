//! Choosing a server and connecting: transport, command line and environment, protocol
//! revision, OAuth client id and scopes; the connection's state, where signing in stands,
//! the server's identity (and the revision it speaks, with why) and its stderr.

use leptos::prelude::*;

use shared::auth_view::{self, Link};
use shared::relay::Transport;
use shared::revision::{ProtocolChoice, Revision};

use crate::store::{ConnState, Store};

/// Once connected, the form folds into a summary (server, transport, revision, Disconnect),
/// so that the tools get the column; "Details" unfolds it.
#[component]
pub fn ConnectionPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let unfolded = RwSignal::new(false);
    // An exported recording has no form to show: the server it played, and no more.
    let folded = move || {
        store.offline() || (store.conn.get() == ConnState::Connected && !store.in_playback() && !unfolded.get())
    };
    // Each connection starts folded once it is up.
    Effect::new(move |_| {
        if store.conn.get() != ConnState::Connected {
            unfolded.set(false);
        }
    });
    let folded = Signal::derive(folded);
    view! {
        <section class="panel connection" class:folded=folded>
            <ConnectionForm unfolded folded />
        </section>
    }
}

/// The folded panel's second line: how the server is reached, and the way back to the form.
#[component]
fn FoldedMore(unfolded: RwSignal<bool>) -> impl IntoView {
    let store = expect_context::<Store>();
    view! {
        <div class="conn-more">
            <span class="muted small">{move || store.transport.get().label()}</span>
            <span class="spacer"></span>
            <button class="button small ghost" aria-expanded="false" on:click=move |_| unfolded.set(true)
                title="The connection form, the server's facts and its stderr">"Details"</button>
            <super::views::Ping />
        </div>
    }
}

/// The connection form, with the state of the connection, the sign-in, the server's facts
/// and its stderr under it. Folded, its fields stay (hidden, their values readable) and the
/// rest is the summary's.
#[component]
fn ConnectionForm(unfolded: RwSignal<bool>, folded: Signal<bool>) -> impl IntoView {
    let store = expect_context::<Store>();
    let busy = move || store.in_playback() || matches!(store.conn.get(), ConnState::Connecting | ConnState::Connected);
    let is_stdio = move || store.transport.get() == Transport::Stdio;
    let is_remote = move || store.transport.get().is_remote();
    let on_button = move |_| if busy() { store.disconnect() } else { store.connect() };
    let on_enter = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" && !busy() {
            store.connect();
        }
    };
    view! {
        <div class="conn-form" class:hidden=move || folded.get()>
            <div class="panel-head">
                <h2 class="panel-title">"Server"</h2>
                <Show when=move || unfolded.get() && store.conn.get() == ConnState::Connected>
                    <button class="button small ghost" aria-expanded="true" on:click=move |_| unfolded.set(false)>"Fold"</button>
                </Show>
            </div>
            <super::saved::SavedServers />
            <label class="field-label" for="transport">"Transport"</label>
            <select id="transport" class="input" data-testid="connect-transport"
                prop:value=move || store.transport.get().as_str()
                on:change=move |ev| {
                    if let Some(t) = Transport::parse(&event_target_value(&ev)) {
                        store.transport.set(t);
                    }
                }
                prop:disabled=busy>
                {Transport::ALL.map(|t| view! { <option value=t.as_str()>{t.label()}</option> })}
            </select>
            <Show when=is_stdio>
                <label class="field-label" for="command">"Command"</label>
                <input id="command" class="input mono" data-testid="connect-command" type="text"
                    placeholder="npx -y @modelcontextprotocol/server-everything" spellcheck="false"
                    prop:value=move || store.command.get()
                    on:input=move |ev| store.command.set(event_target_value(&ev))
                    on:keydown=on_enter
                    prop:disabled=busy />
                <label class="field-label" for="env">"Environment " <span class="hint">"KEY=VALUE per line"</span></label>
                <textarea id="env" class="input mono" data-testid="connect-env" rows="2" spellcheck="false"
                    prop:value=move || store.env.get()
                    on:input=move |ev| store.env.set(event_target_value(&ev))
                    prop:disabled=busy></textarea>
                <label class="field-label" for="cwd">"Working directory " <span class="hint">"optional"</span></label>
                <input id="cwd" class="input mono" data-testid="connect-cwd" type="text" spellcheck="false"
                    placeholder="the relay's own"
                    prop:value=move || store.cwd.get()
                    on:input=move |ev| store.cwd.set(event_target_value(&ev))
                    on:keydown=on_enter
                    prop:disabled=busy />
            </Show>
            <Show when=is_remote>
                <label class="field-label" for="url">"URL"</label>
                <input id="url" class="input mono" data-testid="connect-url" type="url" spellcheck="false"
                    placeholder="http://127.0.0.1:3001/mcp"
                    prop:value=move || store.url.get()
                    on:input=move |ev| store.url.set(event_target_value(&ev))
                    on:keydown=on_enter
                    prop:disabled=busy />
                <label class="field-label" for="headers">"Headers " <span class="hint">"Name: value per line"</span></label>
                <textarea id="headers" class="input mono" data-testid="connect-headers" rows="2" spellcheck="false"
                    placeholder="Authorization: Bearer …"
                    prop:value=move || store.headers.get()
                    on:input=move |ev| store.headers.set(event_target_value(&ev))
                    prop:disabled=busy></textarea>
                <OAuthFields disabled=Signal::derive(busy) />
            </Show>
            <Show when=move || is_stdio() || is_remote()>
                <RememberSecrets disabled=Signal::derive(busy) />
            </Show>
            <ProtocolSelect disabled=Signal::derive(busy) />
            <super::asks::RootsEditor />
        </div>
        // The button and the status are the same elements folded or not: the summary's line
        // is the one under the form, drawn in a row.
        <div class="conn-line">
            <Show when=move || !store.offline()>
                <button class="button primary wide" data-testid="connect-button" on:click=on_button
                    class:danger=move || busy() && !store.in_playback() prop:disabled=move || store.in_playback()
                    title=move || if store.in_playback() { "A recording is playing: go back to live to connect" } else { "" }>
                    {move || if store.in_playback() { "Playing a recording" } else { match store.conn.get() {
                        ConnState::Connected => "Disconnect",
                        ConnState::Connecting => "Cancel",
                        _ => "Connect",
                    } }}
                </button>
            </Show>
            <div class="status-line" data-testid="connection-status" data-state=move || store.conn.with(|c| c.as_str())
                class:playback=move || store.in_playback()>
                <span class="dot"></span>
                <span class="status-text">{move || match store.conn.get() {
                    _ if store.in_playback() => {
                        store.playback.with(|p| p.as_ref().map(|p| format!("Playing back {}", p.name)).unwrap_or_default())
                    }
                    ConnState::Disconnected => "Disconnected".to_owned(),
                    ConnState::Connecting => "Connecting…".to_owned(),
                    ConnState::Connected => "Connected".to_owned(),
                    ConnState::Error(why) => why,
                }}</span>
            </div>
            <Show when=move || folded.get()>
                <ServerInfoCard compact=true />
            </Show>
        </div>
        <Show when=move || folded.get() && !store.offline()>
            <FoldedMore unfolded />
            <Show when=move || store.auth.state.with(Option::is_some)>
                <AuthStatus />
            </Show>
            <StderrView />
        </Show>
        <Show when=move || !folded.get()>
            // A played recording's sign-in shows too, whatever the form's transport. A server
            // that could not be reached asked for no sign-in: OAuth only follows a 401.
            <Show when=move || {
                store.auth.state.with(Option::is_some)
                    || (is_remote() && !store.conn.with(|c| matches!(c, ConnState::Error(_))))
            }>
                <AuthStatus />
            </Show>
            <ServerInfoCard compact=false />
            <StderrView />
        </Show>
    }
}

/// Whether the values of env and headers are remembered with the saved server (by the
/// relay, never in this browser); their names always are.
#[component]
fn RememberSecrets(disabled: Signal<bool>) -> impl IntoView {
    let store = expect_context::<Store>();
    let on = store.saved.remember_secrets;
    view! {
        <label class="remember-secrets">
            <input type="checkbox" data-testid="connect-remember-secrets" prop:checked=move || on.get()
                on:change=move |ev| on.set(event_target_checked(&ev)) prop:disabled=disabled />
            "Remember secrets"
        </label>
        <p class="hint small" data-testid="connect-secrets-where">{move || if on.get() {
            "Values of the environment and headers are kept by the relay in a file only you can read (~/.local/state/mcp-playground/secrets.json), never in this browser."
        } else {
            "The server is saved when it connects, with the names of its environment and headers, not their values."
        }}</p>
    }
}

/// The client id and scopes the relay signs in with if the server asks (folded away: most
/// servers need neither, the relay registers itself).
#[component]
fn OAuthFields(disabled: Signal<bool>) -> impl IntoView {
    let store = expect_context::<Store>();
    let auth = store.auth;
    let set = move || !auth.client_id.get().trim().is_empty() || !auth.scopes.get().trim().is_empty();
    // Unfolded when something fills the fields (a preset, a picked server); emptying them
    // by hand does not fold them away under the cursor.
    let open = Memo::new(move |was: Option<&bool>| was.copied().unwrap_or(false) || set());
    view! {
        <details class="oauth-fields" prop:open=open>
            <summary>"OAuth " <span class="hint">{move || if set() { "client id or scopes set" } else { "optional" }}</span></summary>
            <label class="field-label" for="oauth-client-id">"Client ID " <span class="hint">"registered beforehand"</span></label>
            <input id="oauth-client-id" class="input mono" data-testid="connect-oauth-client-id" type="text" spellcheck="false"
                autocomplete="off" placeholder="none: the relay registers itself"
                prop:value=move || auth.client_id.get()
                on:input=move |ev| auth.client_id.set(event_target_value(&ev))
                prop:disabled=disabled />
            <label class="field-label" for="oauth-scopes">"Scopes " <span class="hint">"space-separated"</span></label>
            <input id="oauth-scopes" class="input mono" data-testid="connect-oauth-scopes" type="text" spellcheck="false"
                autocomplete="off" placeholder="the server's own"
                prop:value=move || auth.scopes.get()
                on:input=move |ev| auth.scopes.set(event_target_value(&ev))
                prop:disabled=disabled />
        </details>
    }
}

/// Where signing in stands, with the buttons to sign in (open the approval page) and out.
#[component]
fn AuthStatus() -> impl IntoView {
    let store = expect_context::<Store>();
    // A token's expiry reads "in N min": the clock moves it on twice a minute.
    let now = RwSignal::new(js_sys::Date::now());
    if let Ok(tick) = set_interval_with_handle(move || now.set(js_sys::Date::now()), std::time::Duration::from_secs(30))
    {
        on_cleanup(move || tick.clear());
    }
    let offset = -(js_sys::Date::new_0().get_timezone_offset() as i32);
    let shown = Memo::new(move |_| {
        let link = match store.conn.get() {
            ConnState::Connected => Link::Connected,
            ConnState::Connecting => Link::Connecting,
            ConnState::Disconnected | ConnState::Error(_) => Link::Idle,
        };
        let link = if store.in_playback() { Link::Connected } else { link };
        store.auth.state.with(|a| auth_view::view(a.as_ref(), link, now.get(), offset))
    });
    view! {
        <div class="auth-status" data-testid="auth-status" data-state=move || shown.with(|v| v.state) role="status">
            <div class="auth-line">
                <span class="auth-icon" aria-hidden="true"></span>
                <span class="auth-title">{move || shown.with(|v| v.title.clone())}</span>
            </div>
            <For each=move || shown.with(|v| v.details.clone().into_iter().enumerate().collect::<Vec<_>>()) key=|d| d.clone() let:d>
                <div class="auth-detail">{d.1}</div>
            </For>
            <div class="auth-actions">
                <Show when=move || shown.with(|v| v.sign_in.is_some())>
                    <button class="button small" data-testid="auth-sign-in"
                        class:primary=move || shown.with(|v| v.state == "signing-in" && !v.sign_in_busy)
                        prop:disabled=move || shown.with(|v| v.sign_in_busy) || store.in_playback()
                        title="Opens the authorization server's page in a new tab"
                        on:click=move |_| store.sign_in()>
                        {move || shown.with(|v| v.sign_in.unwrap_or_default())}
                        <span class="auth-external" aria-hidden="true">"↗"</span>
                    </button>
                </Show>
                <Show when=move || shown.with(|v| v.sign_out)>
                    <button class="button small ghost" data-testid="auth-sign-out" prop:disabled=move || store.in_playback()
                        title="The relay forgets the tokens and ends the connection"
                        on:click=move |_| store.sign_out()>"Sign out"</button>
                </Show>
            </div>
        </div>
    }
}

/// The revision to speak: `auto` unless a person pins one (the server must then speak it).
#[component]
fn ProtocolSelect(disabled: Signal<bool>) -> impl IntoView {
    let store = expect_context::<Store>();
    let choices = std::iter::once(ProtocolChoice::Auto).chain(Revision::ALL.map(ProtocolChoice::Pinned));
    let label = |c: ProtocolChoice| match c {
        ProtocolChoice::Auto => "auto: the newest the server speaks".to_owned(),
        ProtocolChoice::Pinned(r) if !r.has_initialize() => format!("{r} (stateless)"),
        ProtocolChoice::Pinned(r) => r.to_string(),
    };
    view! {
        <label class="field-label" for="protocol">"Protocol revision"</label>
        <select id="protocol" class="input" data-testid="connect-protocol"
            prop:value=move || store.protocol.get().as_str()
            on:change=move |ev| {
                if let Ok(c) = ProtocolChoice::parse(&event_target_value(&ev)) {
                    store.protocol.set(c);
                }
            }
            prop:disabled=disabled>
            {choices.map(|c| view! { <option value=c.as_str()>{label(c)}</option> }).collect_view()}
        </select>
    }
}

/// Who the server is and the revision it speaks (and why); `compact`, in one line.
#[component]
fn ServerInfoCard(compact: bool) -> impl IntoView {
    let store = expect_context::<Store>();
    move || {
        store.server.get().map(|s| {
            if compact {
                let how = s.negotiated.map(|n| n.how()).unwrap_or_default();
                let why = s.negotiated.map(|n| n.reason()).unwrap_or_default();
                let title = format!("{} {} · {} · {why}", s.name, s.version, s.protocol_version);
                return view! {
                    <div class="server-info compact" data-testid="server-info" data-protocol-version=s.protocol_version.clone()
                        title=title>
                        <div class="server-name">{s.title.clone().unwrap_or_else(|| s.name.clone())}</div>
                        <div class="server-sub muted">
                            <span class="mono">{s.name.clone()}" "{s.version.clone()}</span>" · "
                            <span class="mono">{s.protocol_version.clone()}</span>" "{how}
                        </div>
                    </div>
                }
                .into_any();
            }
            let caps = s.capabilities.join(", ");
            view! {
                <div class="server-info" data-testid="server-info" data-protocol-version=s.protocol_version.clone()>
                    <div class="server-name">{s.title.clone().unwrap_or_else(|| s.name.clone())}</div>
                    <dl class="facts">
                        <dt>"Name"</dt><dd class="mono">{s.name.clone()}</dd>
                        <dt>"Version"</dt><dd class="mono">{s.version.clone()}</dd>
                        <dt>"Protocol"</dt>
                        <dd>
                            <span class="mono">{s.protocol_version.clone()}</span>
                            {s.negotiated.map(|n| view! { <span class="protocol-why">{n.reason()}</span> })}
                        </dd>
                        <dt>"Offers"</dt><dd>{if caps.is_empty() { "nothing declared".to_owned() } else { caps }}</dd>
                    </dl>
                    {s.instructions.map(|i| view! { <details class="instructions"><summary>"Instructions"</summary><p>{i}</p></details> })}
                </div>
            }
            .into_any()
        })
    }
}

#[component]
fn StderrView() -> impl IntoView {
    let store = expect_context::<Store>();
    let count = move || store.stderr.with(Vec::len);
    view! {
        <Show when=move || { count() > 0 }>
            <details class="stderr">
                <summary>"Server stderr " <span class="count">{count}</span></summary>
                <div class="stderr-lines mono" data-testid="server-stderr">
                    <For each=move || store.stderr.get().into_iter().enumerate() key=|(i, _)| *i let:item>
                        <div class="stderr-line">{item.1}</div>
                    </For>
                </div>
            </details>
        </Show>
    }
}
