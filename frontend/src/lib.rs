//! The MCP Playground page: a Leptos app that is the MCP client. [`store`] holds the state
//! and talks to the relay through [`ws`]; each panel is one feature of the page.

use leptos::prelude::*;

mod args;
mod download;
mod fetch;
mod panels;
mod shortcuts;
mod storage;
pub mod store;
mod theme;
mod ws;

use store::Store;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let store = Store::new();
    provide_context(store);
    provide_context(store.args);
    store.start();
    theme::init();
    // The clock of pending calls: timeouts are checked a few times a second.
    let _ = set_interval_with_handle(move || store.tick(), std::time::Duration::from_millis(200));
    // What a person needs first (the server, the connect control, the tools) is drawn in
    // the first frame. The rest, whose code is fetched apart, once the relay has said
    // hello, a frame later: fetched at once, its chunks held up the socket's first
    // messages, and with them the first screen.
    let rest = RwSignal::new(false);
    Effect::new(move |started: Option<bool>| {
        if started == Some(true) || matches!(store.relay.get(), ws::SocketState::Opening) {
            return started.unwrap_or(false);
        }
        request_animation_frame(move || {
            rest.set(true);
            leptos::task::spawn_local(panels::result::preload());
        });
        true
    });
    shortcuts::install(store);
    // The view shown (rebuilt only when it changes, not on each change of the server).
    let shown = Memo::new(move |_| store.shown_view());
    view! {
        <div class="app" class:presenter=move || store.presenter.get() && store.in_playback() on:dragover=panels::recording::on_drag_over on:drop=move |ev| panels::recording::on_drop(store, ev)>
            <panels::header::Header />
            <panels::relay_banner::RelayBanner />
            <Show when=move || rest.get()>{panels::later(panels::recording::playback_bar())}</Show>
            <main class="layout">
                <aside class="sidebar">
                    <panels::connection::ConnectionPanel />
                    <panels::views::ViewTabs />
                    {move || match shown.get() {
                        store::View::Tools => view! { <panels::tools::ToolList /> }.into_any(),
                        store::View::Resources => panels::later(panels::resources::resource_list()).into_any(),
                        store::View::Prompts => panels::later(panels::prompts::prompt_list()).into_any(),
                    }}
                    <Show when=move || rest.get()>{panels::later(panels::tasks::tasks_panel())}</Show>
                </aside>
                <section class="workspace">
                    <panels::notices::Notices />
                    <Show when=move || rest.get() && store.in_playback()>{panels::later(panels::notes::notes_panel())}</Show>
                    <Show when=move || rest.get()>{panels::later(panels::replay::replay_panel())}</Show>
                    {move || match shown.get() {
                        store::View::Tools => view! { <panels::call::CallPanel /> }.into_any(),
                        store::View::Resources => panels::later(panels::resources::resource_panel()).into_any(),
                        store::View::Prompts => panels::later(panels::prompts::prompt_panel()).into_any(),
                    }}
                </section>
                <aside class="timeline-column">
                    <Show when=move || rest.get()>
                        {panels::later(panels::timeline::timeline_panel())}
                        {panels::later(panels::timeline::log_panel())}
                    </Show>
                </aside>
            </main>
            <Show when=move || rest.get()>
                <panels::confirm::ConfirmDialog />
                {panels::later(panels::asks::ask_dialog())}
            </Show>
        </div>
    }
}
