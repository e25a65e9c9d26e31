//! The page as an exported recording (`mcp-playground export`, "Save as web page"): there
//! is no relay to reach; the recording the file holds is played at once. The file's boot
//! script leaves it in `globalThis.mcpPlayerRecording` (`xtask/src/player.rs`).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::Store;
use crate::ws::SocketState;

/// The recording an exported page holds: its file's name and its text.
pub(super) fn recording() -> Option<(String, web_sys::Blob)> {
    let held = js_sys::Reflect::get(&js_sys::global(), &"mcpPlayerRecording".into()).ok()?;
    let name = js_sys::Reflect::get(&held, &"name".into()).ok()?.as_string()?;
    let blob = js_sys::Reflect::get(&held, &"blob".into()).ok()?.dyn_into::<web_sys::Blob>().ok()?;
    Some((name, blob))
}

impl Store {
    /// Plays the recording the page holds; nothing is fetched, nothing is connected.
    pub(super) fn play_held(self, name: String, blob: web_sys::Blob) {
        self.relay.set(SocketState::Offline);
        self.conn.set(super::ConnState::Disconnected);
        self.file_job(super::FileJob::Open { name, blob });
    }

    /// Whether the page is an exported recording, with no relay behind it.
    pub fn offline(self) -> bool {
        self.relay.with(|r| *r == SocketState::Offline)
    }
}
