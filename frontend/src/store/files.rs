//! Recording files in and out: one read a slice at a time and played, the session saved
//! as a file or as a web page. Their code is a chunk of its own, cut at [`run_now`] by
//! `cargo xtask page` and fetched the first time a file is opened or saved: the first
//! screen carries none of it.

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;

use super::Store;
use crate::download;

/// What is done with a recording file.
pub enum FileJob {
    /// Read a file (picked, dropped, the relay's, or the one an exported page holds) and
    /// play it.
    Open { name: String, blob: web_sys::Blob },
    /// Download the recording (JSON Lines).
    Save,
    /// Have the relay make the recording one web page, then download it; the signal is on
    /// meanwhile.
    SaveWebPage(RwSignal<bool>),
}

#[leptos::wasm_split::wasm_split(recording_files, wasm_split_path = ::leptos::wasm_split, fallible)]
fn run_now(store: Store, job: FileJob) -> Result<(), SplitLoaderError> {
    match job {
        FileJob::Open { name, blob } => leptos::task::spawn_local(async move {
            if let Err(e) = store.read_recording(name.clone(), &blob).await {
                store.loading.set(None);
                store.notice(format!("{name} could not be read: {e}"));
            }
        }),
        FileJob::Save => store.download_recording(),
        FileJob::SaveWebPage(saving) => store.save_web_page(saving),
    }
    Ok(())
}

impl Store {
    /// Does `job` once its code has arrived; says so when it cannot.
    pub fn file_job(self, job: FileJob) {
        leptos::task::spawn_local(async move {
            if let Err(e) = run_now(self, job).await {
                self.notice(format!("the part of the page that reads and saves recordings could not be loaded: {e}"));
            }
        });
    }

    /// The recording to save, or `None` (said) when nothing is recorded.
    fn to_save(self) -> Option<String> {
        let text = self.export_recording();
        if text.is_none() {
            self.notice("nothing is recorded yet: connect with Rec on, or switch it on".into());
        }
        text
    }

    /// Downloads the recording; says so when there is nothing to save.
    fn download_recording(self) {
        let Some(text) = self.to_save() else { return };
        let mime = "application/x-ndjson";
        let name = shared::render::download::file_name(Some(&stamped_name()), "recording", mime);
        download::text(&name, &text, mime);
    }

    /// The recording as one web page (the relay's offline player with the file in it),
    /// named after the file played, else as Save names it.
    fn save_web_page(self, saving: RwSignal<bool>) {
        let Some(text) = self.to_save() else { return };
        let name = self
            .playback
            .with_untracked(|p| p.as_ref().map(|p| p.name.clone()))
            .unwrap_or_else(|| format!("{}.jsonl", stamped_name()));
        saving.set(true);
        leptos::task::spawn_local(async move {
            let url = format!("/api/export?name={}", String::from(js_sys::encode_uri_component(&name)));
            match crate::fetch::post(&url, &text).await {
                Ok(page) => {
                    let _ = download::blob(&shared::render::download::page_name(Some(&name)), &page);
                }
                Err(e) => self.notice(format!("the web page could not be made: {e}")),
            }
            saving.set(false);
        });
    }
}

/// `mcp-playground-` and now, the name of a recording saved from the page.
fn stamped_name() -> String {
    format!("mcp-playground-{}", shared::recording::utc_stamp(js_sys::Date::now()))
}
