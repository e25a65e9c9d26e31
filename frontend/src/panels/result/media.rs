//! Images and audio from base64: shown from a `data:` URL we build (never server markup),
//! at natural size with zoom, with their real dimensions or duration, a download, and a
//! clear notice when the data or its mime type is wrong.

use leptos::prelude::*;
use shared::render::download::file_name;
use shared::render::media::{MediaInfo, human_size};
use wasm_bindgen::JsCast;

use crate::download;

lazy_view!(
    /// An image or a sound, in a chunk of its own loaded on first use.
    media_view(image: bool, info: MediaInfo, data: String, hint: Option<String>) => if image {
        view! { <ImageView info data hint /> }.into_any()
    } else {
        view! { <AudioView info data hint /> }.into_any()
    }
);

#[component]
/// `hint`: where the image came from (a resource's URI), for the name it is saved under.
fn ImageView(info: MediaInfo, data: String, hint: Option<String>) -> impl IntoView {
    let zoom = RwSignal::new(false);
    let dims = RwSignal::new(None::<(u32, u32)>);
    let broken = RwSignal::new(false);
    let file = file_name(hint.as_deref(), "image", &info.mime);
    let mime = info.mime.clone();
    let src = info.playable.then(|| format!("data:{};base64,{}", info.mime, data));
    let data = StoredValue::new(data);
    let on_load = move |ev: web_sys::Event| {
        if let Some(img) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlImageElement>().ok()) {
            dims.set(Some((img.natural_width(), img.natural_height())));
        }
    };
    view! {
        {info.notice.clone().map(|n| view! { <p class="notice small" data-testid="media-notice">{n}</p> })}
        {src.map(|src| view! {
            <div class="media-frame" class:zoomed=move || zoom.get()>
                <img class="media" src=src alt="image returned by the tool" on:load=on_load
                    on:error=move |_| broken.set(true)
                    on:click=move |_| zoom.update(|z| *z = !*z)
                    title="Click to switch between fit and actual size" />
            </div>
        })}
        {move || broken.get().then(|| view! { <p class="notice small" data-testid="media-notice">"The browser could not decode this image."</p> })}
        <div class="media-facts small muted">
            <span>{info.mime.clone()}</span>
            <span>{human_size(info.bytes)}</span>
            {move || dims.get().map(|(w, h)| view! { <span>{format!("{w}×{h} px")}</span> })}
            <span class="spacer"></span>
            <button class="button small ghost" on:click=move |_| zoom.update(|z| *z = !*z)>{move || if zoom.get() { "Fit" } else { "Actual size" }}</button>
            <button class="button small" data-testid="download" on:click=move |_| data.with_value(|d| download::base64(&file, d, &mime))>"Download"</button>
        </div>
    }
}

#[component]
/// `hint`: where the audio came from (a resource's URI), for the name it is saved under.
fn AudioView(info: MediaInfo, data: String, hint: Option<String>) -> impl IntoView {
    let duration = RwSignal::new(None::<f64>);
    let file = file_name(hint.as_deref(), "audio", &info.mime);
    let mime = info.mime.clone();
    let src = info.playable.then(|| format!("data:{};base64,{}", info.mime, data));
    let data = StoredValue::new(data);
    let on_meta = move |ev: web_sys::Event| {
        if let Some(a) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlMediaElement>().ok()) {
            duration.set(Some(a.duration()));
        }
    };
    view! {
        {info.notice.clone().map(|n| view! { <p class="notice small" data-testid="media-notice">{n}</p> })}
        {src.map(|src| view! { <audio controls=true preload="metadata" src=src on:loadedmetadata=on_meta></audio> })}
        <div class="media-facts small muted">
            <span>{info.mime.clone()}</span>
            <span>{human_size(info.bytes)}</span>
            {move || duration.get().filter(|d| d.is_finite()).map(|d| view! { <span>{format!("{d:.2} s")}</span> })}
            <span class="spacer"></span>
            <button class="button small" data-testid="download" on:click=move |_| data.with_value(|d| download::base64(&file, d, &mime))>"Download"</button>
        </div>
    }
}
