//! Recording and playback: the record switch, the indicator, export and import (a file
//! picker, or a file dropped anywhere on the page), and the playback bar with its step,
//! back, play and speed controls (→ and ← step too, see `shortcuts.rs`).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use shared::recording::Speed;

use crate::store::{FileJob, Store};

/// The record switch, the indicator, export and open, for the top bar.
#[component]
pub fn RecordControls() -> impl IntoView {
    let store = expect_context::<Store>();
    let on = move || store.recording.get();
    // The relay's own recording is said first: it keeps every session, whatever the page does.
    let source = move || {
        if store.relay_recording.get() {
            Some("relay")
        } else if on() && store.conn.with(|c| c.is_live()) && !store.in_playback() {
            Some("page")
        } else {
            None
        }
    };
    let picker = NodeRef::<leptos::html::Input>::new();
    let saving = RwSignal::new(false);
    view! {
        <div class="record-controls">
            {move || source().map(|s| view! {
                <span class="rec-indicator" data-testid="recording-indicator" data-source=s
                    title=if s == "relay" { "The relay writes every session to a file (--record)" } else { "This session is being recorded in the page" }>
                    <span class="rec-dot"></span>{if s == "relay" { "Relay recording" } else { "Recording" }}
                </span>
            })}
            <Show when=move || !store.offline()>
            <button class="button small ghost rec-toggle" data-testid="record-toggle"
                data-state=move || if on() { "on" } else { "off" }
                aria-pressed=move || on().to_string()
                title="Record the session in the page (on by default from the first message)"
                on:click=move |_| store.toggle_recording()>
                <span class="rec-dot" class:off=move || !on()></span>{move || if on() { "Rec on" } else { "Rec off" }}
            </button>
            </Show>
            <button class="button small ghost" data-testid="recording-export" title="Download the recording (JSON Lines)"
                on:click=move |_| store.file_job(FileJob::Save)>"Save"</button>
            <Show when=move || !store.offline()>
                <button class="button small ghost" data-testid="recording-export-html"
                    title="Download the recording as one web page that plays it anywhere, with no server and no network"
                    prop:disabled=move || saving.get() aria-busy=move || saving.get().to_string()
                    on:click=move |_| store.file_job(FileJob::SaveWebPage(saving))>
                    <span class="wide-only">"Save as web page"</span><span class="narrow-only">"Web page"</span>
                </button>
            </Show>
            <label class="button small ghost" title="Play a recording back (or drop the file on the page)">
                "Open…"
                <input type="file" class="visually-hidden" data-testid="recording-import" accept=".jsonl,.json,.ndjson,application/x-ndjson"
                    node_ref=picker
                    on:change=move |ev| {
                        if let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                            && let Some(file) = input.files().and_then(|f| f.get(0))
                        {
                            store.file_job(FileJob::Open { name: file.name(), blob: file.into() });
                            input.set_value("");
                        }
                    } />
            </label>
        </div>
    }
}

lazy_view!(
    /// [`PlaybackBar`], in a chunk of its own loaded on first use.
    playback_bar() => view! { <PlaybackBar /> }.into_any()
);

/// The playback bar: what is playing, where, and the controls; `replay-mode` says live or
/// playback either way.
#[component]
pub fn PlaybackBar() -> impl IntoView {
    let store = expect_context::<Store>();
    let view_of = move || store.playback.get();
    let mode = move || if store.in_playback() { "playback" } else { "live" };
    view! {
        <div data-testid="replay-mode" data-state=mode class="replay-mode" class:active=move || store.in_playback()>
            {move || store.loading.get().map(|l| view! {
                <div class="banner banner-info" role="status">
                    <span class="spinner"></span>{format!("Reading {}… {}%", l.name, l.percent)}
                </div>
            })}
            {move || view_of().map(|p| {
                let playing = p.playing;
                view! {
                    <div class="banner playback-bar" role="region" aria-label="Playback">
                        <span class="playback-badge">"Playback"</span>
                        <span class="playback-title" title=p.name.clone()>{p.summary.clone()}</span>
                        <div class="playback-controls">
                            <button class="button small" data-testid="replay-back" title="Back one message (←)"
                                prop:disabled={p.index == 0} on:click=move |_| store.playback_back()>"◀"</button>
                            <button class="button small primary" data-testid="replay-play"
                                data-state=if playing { "playing" } else { "paused" }
                                title=if playing { "Pause" } else { "Play at the recorded pace" }
                                on:click=move |_| store.playback_toggle()>{if playing { "❚❚ Pause" } else { "▶ Play" }}</button>
                            <button class="button small" data-testid="replay-step" title="Forward one message (→)"
                                prop:disabled={p.index >= p.total} on:click=move |_| store.playback_step()>"▶|"</button>
                            <select class="input compact" data-testid="replay-speed" aria-label="Speed"
                                prop:value=p.speed.as_str()
                                on:change=move |ev| store.playback_set_speed(Speed::parse(&event_target_value(&ev)))>
                                <option value="1">"1×"</option>
                                <option value="4">"4×"</option>
                                <option value="max" title="as fast as possible">"fastest"</option>
                            </select>
                            <span class="playback-position mono" data-testid="replay-position"
                                data-index=p.index.to_string() data-total=p.total.to_string()>
                                {format!("{} / {}", p.index, p.total)}
                            </span>
                            <progress max=p.total.max(1).to_string() value=p.index.to_string()></progress>
                        </div>
                        <super::notes::PresenterToggle />
                        <Show when=move || !store.offline()>
                            <button class="button small ghost" data-testid="replay-exit" on:click=move |_| store.playback_exit()>"Back to live"</button>
                        </Show>
                    </div>
                }
            })}
        </div>
    }
}

/// Drop handlers for the whole page: a recording dropped anywhere plays.
pub fn on_drag_over(ev: web_sys::DragEvent) {
    if carries_files(&ev) {
        ev.prevent_default();
    }
}

pub fn on_drop(store: Store, ev: web_sys::DragEvent) {
    if !carries_files(&ev) {
        return;
    }
    ev.prevent_default();
    if let Some(file) = ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
        store.file_job(FileJob::Open { name: file.name(), blob: file.into() });
    }
}

fn carries_files(ev: &web_sys::DragEvent) -> bool {
    ev.data_transfer().is_some_and(|d| d.types().iter().any(|t| t.as_string().as_deref() == Some("Files")))
}
