//! Replaying the loaded recording against the live server, row by row: the ignore list,
//! the run button, the tool drift (breaking first) and one row per recorded request with
//! its structural diff; and the confirmation of recorded calls that may write.

use leptos::prelude::*;
use shared::replay::{ChangeKind, ReplayRow};

use crate::store::{ReplayView, Store};

lazy_view!(
    /// [`ReplayPanel`], in a chunk of its own loaded on first use.
    replay_panel() => view! { <ReplayPanel /> }.into_any()
);

#[component]
pub fn ReplayPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let view = move || store.replay_view.get();
    let can_run = move || store.live_connected() && !store.replay_view.with(|v| v.running);
    view! {
        <Show when=move || store.in_playback()>
            <section class="panel replay-panel">
                <div class="panel-head">
                    <h2 class="panel-title">"Replay against the live server"</h2>
                    <div class="actions-inline">
                        <Show when=move || store.replay_view.with(|v| v.running)>
                            <button class="button small" data-testid="replay-stop" on:click=move |_| store.replay_stop()>"Stop"</button>
                        </Show>
                        <button class="button small primary" data-testid="replay-run" prop:disabled=move || !can_run()
                            title=move || if store.live_connected() { "Send the recorded requests again and compare the answers" } else { "Connect to a server first: back to live, connect, then open the recording again" }
                            on:click=move |_| store.replay_run()>
                            {move || if store.replay_view.with(|v| v.running) { "Replaying…" } else { "Run" }}
                        </button>
                    </div>
                </div>
                {move || (!store.live_connected()).then(|| view! {
                    <p class="hint small">"No live server is connected. Go back to live, connect, then open the recording again to compare."</p>
                })}
                <label class="field-label" for="replay-ignore">"Ignore " <span class="hint">"JSON Pointers, one per line; * is any index or key (saved with the recording)"</span></label>
                <textarea id="replay-ignore" class="input mono" data-testid="replay-ignore" rows="2" spellcheck="false"
                    placeholder="/result/content/*/text/timestamp"
                    prop:value=move || store.replay_ignore.get()
                    on:input=move |ev| store.replay_ignore.set(event_target_value(&ev))></textarea>
                {move || {
                    let v = view();
                    (v.running || v.done).then(|| {
                        let state = if v.running { "running" } else { "done" };
                        let counts = summary(&v);
                        let breaking = v.drift.iter().filter(|d| d.class == shared::replay::DriftClass::Breaking).count();
                        let drift_title = if v.drift.is_empty() {
                            "Tools: no drift".to_owned()
                        } else {
                            format!("Tools: {breaking} breaking, {} compatible", v.drift.len() - breaking)
                        };
                        view! {
                            <h3 class="replay-subhead">{drift_title}</h3>
                            <div class="replay-drift" data-testid="replay-drift">
                                {v.drift.iter().map(|d| {
                                    let class = if d.class == shared::replay::DriftClass::Breaking { "breaking" } else { "compatible" };
                                    view! {
                                        <div class=format!("drift-item drift-{class}") data-testid="replay-drift-item" data-class=class data-tool-name=d.tool.clone()>
                                            <span class=format!("badge badge-{class}")>{class}</span>
                                            <span class="mono">{d.tool.clone()}</span>" "{d.what.clone()}
                                        </div>
                                    }
                                }).collect_view()}
                            </div>
                            <h3 class="replay-subhead">"Requests " <span class="hint small">{counts}</span></h3>
                            <div class="replay-diff" data-testid="replay-diff" data-state=state>
                                <For each=move || 0..store.replay_view.with(|v| v.rows) key=|i| *i let:i>
                                    {move || store.replay_row(i).map(|row| view! { <DiffRow row /> })}
                                </For>
                            </div>
                        }
                    })
                }}
            </section>
        </Show>
        <ReplayConfirmDialog />
    }
}

fn summary(v: &ReplayView) -> String {
    let [same, different, missing, error, skipped] = v.counts;
    let stopped = if v.stopped { " (stopped)" } else { "" };
    format!(
        "{} of {} requests{stopped}: {same} same, {different} different, {missing} missing, {error} errors, {skipped} skipped",
        v.rows, v.total
    )
}

#[component]
fn DiffRow(row: ReplayRow) -> impl IntoView {
    let open = RwSignal::new(false);
    let state = row.state.as_str();
    let label = match &row.tool {
        Some(t) => format!("{} {t}", row.method),
        None => row.method.clone(),
    };
    let changes = row.changes.clone();
    let note = row.note.clone();
    let has_detail = !changes.is_empty() || note.is_some();
    view! {
        <div class=format!("diff-row diff-{state}") data-testid="replay-diff-row" data-state=state
            data-method=row.method.clone() data-tool-name=row.tool.clone()>
            <button class="diff-head" on:click=move |_| open.update(|o| *o = !*o) prop:disabled=!has_detail
                aria-expanded=move || open.get().to_string()>
                <span class=format!("badge badge-{state}")>{state}</span>
                <span class="mono">{label}</span>
                <span class="hint small">{format!("line {}", row.line)}</span>
            </button>
            <Show when=move || open.get()>
                <div class="diff-body">
                    {note.clone().map(|n| view! { <p class="hint small">{n}</p> })}
                    <ul class="diff-changes mono">
                        {changes.clone().into_iter().map(|c| {
                            let (sign, class) = match c.kind {
                                ChangeKind::Added => ("+", "added"),
                                ChangeKind::Removed => ("−", "removed"),
                                ChangeKind::Changed => ("~", "changed"),
                            };
                            let show = |v: &Option<serde_json::Value>| v.as_ref().map(|v| v.to_string()).unwrap_or_default();
                            let text = match c.kind {
                                ChangeKind::Added => show(&c.live),
                                ChangeKind::Removed => show(&c.recorded),
                                ChangeKind::Changed => format!("{} → {}", show(&c.recorded), show(&c.live)),
                            };
                            view! {
                                <li class=format!("change change-{class}") data-kind=class>
                                    <span class="change-sign">{sign}</span>
                                    <span class="change-pointer">{if c.pointer.is_empty() { "/".to_owned() } else { c.pointer.clone() }}</span>
                                    <span class="change-value">{text}</span>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </div>
            </Show>
        </div>
    }
}

/// Recorded calls of tools that may write are sent again only after a person says so.
#[component]
fn ReplayConfirmDialog() -> impl IntoView {
    let store = expect_context::<Store>();
    move || {
        store.replay_confirm.get().map(|c| {
            let n = c.calls.len();
            let dialog = NodeRef::new();
            // Skipping is the safe answer, and what Esc means.
            let on_key =
                super::modal::own_keyboard(dialog, "[data-testid=confirm-cancel]", move || store.replay_confirmed(false));
            view! {
                <div class="modal-backdrop" on:keydown=on_key>
                    <div class="modal" role="dialog" aria-modal="true" data-testid="confirm-dialog" data-replay="true"
                        node_ref=dialog>
                        <h2>{format!("Send {n} recorded call{} that may write again?", if n == 1 { "" } else { "s" })}</h2>
                        <p class="hint small">"The recording calls tools the server does not mark read-only. They run against the live server exactly as below."</p>
                        <div data-testid="confirm-arguments">
                            {c.calls.into_iter().map(|(tool, args)| view! {
                                <div class="field-label mono">{tool}</div>
                                <pre class="code">{serde_json::to_string_pretty(&args).unwrap_or_default()}</pre>
                            }).collect_view()}
                        </div>
                        <div class="actions">
                            <button class="button" data-testid="confirm-cancel" on:click=move |_| store.replay_confirmed(false)>"Skip them"</button>
                            <button class="button primary" data-testid="confirm-accept" on:click=move |_| store.replay_confirmed(true)>"Send them"</button>
                        </div>
                    </div>
                </div>
            }
        })
    }
}
