//! Presenter notes while a recording plays: the note of the step shown (`note-view`), its
//! editor (`note-editor`: in the playground, not in an exported page nor while presenting),
//! and the presenter view's switch (`presenter-toggle`, or the key P; Esc leaves it).

use leptos::prelude::*;

use crate::store::Store;

lazy_view!(
    /// [`NotesPanel`], in a chunk of its own loaded on first use.
    notes_panel() => view! { <NotesPanel /> }.into_any()
);

/// The note of the step shown, and its editor.
#[component]
pub fn NotesPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let note = Memo::new(move |_| store.playback.with(|p| p.as_ref().and_then(|p| p.note.clone())));
    let editing = move || store.in_playback() && !store.offline() && !store.presenter.get();
    view! {
        {move || note.get().map(|n| view! {
            <section class="panel note-view" data-testid="note-view" aria-label="Presenter note">
                {(!n.title.is_empty()).then(|| view! { <h2 class="note-title">{n.title.clone()}</h2> })}
                {(!n.text.is_empty()).then(|| view! { <p class="note-text">{n.text.clone()}</p> })}
            </section>
        })}
        <Show when=editing>
            <NoteEditor />
        </Show>
    }
}

/// The current step's note, to write, change or clear; saved into the recording (Save and
/// "Save as web page" keep it).
#[component]
fn NoteEditor() -> impl IntoView {
    let store = expect_context::<Store>();
    let title = RwSignal::new(String::new());
    let text = RwSignal::new(String::new());
    // Each step shows its own note in the fields.
    let step = Memo::new(move |_| store.playback.with(|p| p.as_ref().map(|p| (p.index, p.note.clone()))));
    Effect::new(move |_| {
        let note = step.get().and_then(|(_, n)| n);
        title.set(note.as_ref().map(|n| n.title.clone()).unwrap_or_default());
        text.set(note.map(|n| n.text).unwrap_or_default());
    });
    let at = move || step.get().map(|(i, _)| i).unwrap_or(0);
    let save = move || store.save_note(&title.get_untracked(), &text.get_untracked());
    view! {
        <section class="panel note-editor" data-testid="note-editor" aria-label="Note of this step">
            <div class="panel-head">
                <h2 class="panel-title">"Note"</h2>
                <span class="hint small">{move || format!("step {}", at())}</span>
                <span class="spacer"></span>
                <button class="button small" data-testid="note-save" on:click=move |_| save()
                    title="Keep this note with the step (Save keeps it in the file)">"Save note"</button>
            </div>
            <input class="input" data-testid="note-title" type="text" placeholder="Title" maxlength="120"
                aria-label="Note title"
                prop:value=move || title.get() on:input=move |ev| title.set(event_target_value(&ev))
                on:keydown=move |ev| if ev.key() == "Enter" { save() } />
            <textarea class="input" data-testid="note-text" rows="2" placeholder="What to say at this step"
                maxlength="2000" aria-label="Note text"
                prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
        </section>
    }
}

/// The presenter view's switch, for the playback bar.
#[component]
pub fn PresenterToggle() -> impl IntoView {
    let store = expect_context::<Store>();
    let on = move || store.presenter.get();
    view! {
        <button class="button small ghost" data-testid="presenter-toggle"
            data-state=move || if on() { "on" } else { "off" } aria-pressed=move || on().to_string()
            title=move || if on() { "Leave the presenter view (P or Esc)" } else { "Presenter view: large type, the note and the result (P)" }
            on:click=move |_| store.presenter.update(|p| *p = !*p)>
            {move || if on() { "Exit presenter" } else { "Present" }}
        </button>
    }
}

impl Store {
    /// Keeps the note of the step shown; what cannot be kept is said.
    pub fn save_note(self, title: &str, text: &str) {
        if let Err(e) = self.set_note(title, text) {
            self.notice(format!("the note was not kept: {e}"));
        }
    }
}
