//! The page's panels, one feature per file.

pub mod app_view;
pub mod asks;
pub mod call;
pub mod catalog_list;
pub mod completion;
pub mod confirm;
pub mod connection;
pub mod form;
pub mod header;
pub mod json;
pub mod modal;
pub mod notices;
pub mod prompts;
pub mod recording;
pub mod relay_banner;
pub mod replay;
pub mod resources;
pub mod result;
pub mod saved;
pub mod sequence;
pub mod tasks;
pub mod timeline;
pub mod tools;
pub mod views;

use leptos::prelude::*;

/// A part of the page whose code is a chunk of its own (`load`: a `#[lazy]` function's
/// call), shown once the chunk has arrived: milliseconds on loopback, once per page.
pub fn later(load: impl Future<Output = AnyView> + Send + 'static) -> impl IntoView {
    view! { <Suspense>{Suspend::new(load)}</Suspense> }
}
