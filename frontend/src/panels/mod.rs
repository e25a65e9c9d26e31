//! The page's panels, one feature per file.

/// Declares a part of the page whose code is a chunk of its own (cut there by `cargo xtask
/// page`): `name(args)` loads the chunk, once, and draws `body`; `name::preload()` only
/// loads it. A load that fails is an `Err` to show (never a panic, which would stop the
/// whole page), and the next call tries again.
macro_rules! lazy_view {
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),* $(,)?) => $body:expr) => {
        pub mod $name {
            use super::*;
            #[::leptos::wasm_split::wasm_split($name, wasm_split_path = ::leptos::wasm_split, fallible, preload(preload))]
            pub fn load($($arg: $ty),*) -> Result<AnyView, ::leptos::wasm_split::SplitLoaderError> {
                Ok($body)
            }
        }
        $(#[$doc])*
        pub async fn $name($($arg: $ty),*) -> Result<AnyView, String> {
            $name::load($($arg),*).await.map_err(|e| e.to_string())
        }
    };
}

pub mod app_view;
pub mod asks;
pub mod call;
pub mod catalog_list;
pub mod completion;
pub mod confirm;
pub mod connection;
pub mod copy_call;
pub mod form;
pub mod header;
pub mod icon;
pub mod json;
pub mod modal;
pub mod notes;
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

/// A part of the page whose code is a chunk of its own (`load`: a [`lazy_view`] function's
/// call), shown once the chunk has arrived: milliseconds on loopback, once per page. When
/// it cannot arrive (the relay is gone, or was rebuilt since the page loaded), the place
/// says so and offers a reload.
pub fn later(load: impl Future<Output = Result<AnyView, String>> + Send + 'static) -> impl IntoView {
    let shown = async move {
        load.await.unwrap_or_else(|why| {
            view! {
                <p class="notice small" role="alert" data-testid="part-failed" title=why>
                    "This part of the page could not be loaded from the playground. Is it still running? "
                    <button class="button small" on:click=|_| { let _ = window().location().reload(); }>"Reload the page"</button>
                </p>
            }
            .into_any()
        })
    };
    view! { <Suspense>{Suspend::new(shown)}</Suspense> }
}
