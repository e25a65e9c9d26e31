//! Saving and copying what a server returned: downloads through Blob URLs (never a
//! navigation), and the clipboard. Names come from `shared::render::download` (an
//! extension from its allow-list); the Blob's type too, never the server's string.

use base64::Engine;
use shared::render::download::blob_type;
use wasm_bindgen::JsCast;

fn save(name: &str, bytes: &[u8], mime: &str) -> Option<()> {
    let array = js_sys::Uint8Array::from(bytes);
    let parts = js_sys::Array::of1(&array);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(blob_type(mime));
    blob(name, &web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).ok()?)
}

/// Downloads a Blob as a file.
pub fn blob(name: &str, blob: &web_sys::Blob) -> Option<()> {
    let url = web_sys::Url::create_object_url_with_blob(blob).ok()?;
    let document = web_sys::window()?.document()?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Some(())
}

/// Downloads text as a file.
pub fn text(name: &str, text: &str, mime: &str) {
    let _ = save(name, text.as_bytes(), mime);
}

/// Downloads base64 data as a file (decoded).
pub fn base64(name: &str, data: &str, mime: &str) {
    if let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(data.trim()) {
        let _ = save(name, &bytes, mime);
    }
}

/// Copies text to the clipboard (when the page may).
pub fn copy(text: &str) {
    let Some(window) = web_sys::window() else { return };
    let clipboard = js_sys::Reflect::get(&window.navigator(), &"clipboard".into()).ok();
    let write = clipboard.as_ref().and_then(|c| js_sys::Reflect::get(c, &"writeText".into()).ok());
    if let (Some(c), Some(f)) = (clipboard, write.and_then(|f| f.dyn_into::<js_sys::Function>().ok())) {
        let _ = f.call1(&c, &text.into());
    }
}
