//! The page's uses of HTTP besides its socket: fetching the relay's recording, having it
//! make a recording a web page; and reading files a person picked.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The body of `GET url`, to be read a slice at a time, and the value of its header
/// `name` (percent-decoded), or why not.
pub async fn blob(url: &str, name: &str) -> Result<(web_sys::Blob, Option<String>), String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(describe)?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a response".to_owned())?;
    if !response.ok() {
        return Err(format!("HTTP {} {}", response.status(), response.status_text()));
    }
    let header = response.headers().get(name).ok().flatten();
    let header = header.and_then(|h| js_sys::decode_uri_component(&h).ok()).map(String::from);
    let body = JsFuture::from(response.blob().map_err(describe)?).await.map_err(describe)?;
    Ok((body.dyn_into().map_err(|_| "the body is not a blob".to_owned())?, header))
}

/// The body of `POST url` with `text`, or why not (the relay's own words on a refusal).
pub async fn post(url: &str, text: &str) -> Result<web_sys::Blob, String> {
    let window = web_sys::window().ok_or("no window")?;
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&text.into());
    let response = JsFuture::from(window.fetch_with_str_and_init(url, &init)).await.map_err(describe)?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a response".to_owned())?;
    if !response.ok() {
        let said = match response.text() {
            Ok(p) => JsFuture::from(p).await.ok().and_then(|t| t.as_string()).unwrap_or_default(),
            Err(_) => String::new(),
        };
        let said = said.trim();
        return Err(if said.is_empty() { format!("HTTP {}", response.status()) } else { said.to_owned() });
    }
    let body = JsFuture::from(response.blob().map_err(describe)?).await.map_err(describe)?;
    body.dyn_into().map_err(|_| "the body is not a blob".to_owned())
}

/// The bytes of a blob (a slice of a file a person picked or dropped).
pub async fn blob_bytes(blob: &web_sys::Blob) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(blob.array_buffer()).await.map_err(describe)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

fn describe(e: wasm_bindgen::JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(&e, &"message".into()).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| "the browser refused".to_owned())
}
