//! One content item (`result-content`, `data-content-type`) with its annotation badges:
//! text, image, audio, resource link (opened in the Resources view when the server offers
//! resources), embedded resource, or an unknown type shown raw.

use leptos::prelude::*;
use shared::render::download::{file_name, text_file_name};
use shared::render::media::MediaKind;
use shared::render::{Body, Item, ItemView, LinkView};

use super::json_tree::JsonTree;
use super::media::media_view;
use super::text::TextBlock;
use crate::download;
use crate::panels::later;
use crate::store::Store;

#[component]
pub fn ContentItem(item: Item) -> impl IntoView {
    let labels = item.badges.labels();
    let inner = match item.view {
        ItemView::Text(t) => view! { <TextBlock text=t name="text.txt".to_owned() /> }.into_any(),
        ItemView::Media { kind, info, data } => later(media_view(kind == MediaKind::Image, info, data, None)).into_any(),
        ItemView::Link(link) => view! { <LinkCard link /> }.into_any(),
        ItemView::Resource { uri, mime, body } => view! {
            <div class="resource-card">
                <div class="resource-meta"><span class="mono small">{uri.clone()}</span> <span class="muted small">{mime.clone()}</span></div>
                <BodyView body uri mime />
            </div>
        }
        .into_any(),
        ItemView::Unknown(v) => view! {
            <p class="small muted">"A content type this playground does not know, shown as sent:"</p>
            <JsonTree value=v />
        }
        .into_any(),
    };
    view! {
        // The type label is drawn by CSS from data-content-type, so the item's text is the content's.
        <div class="content-item" data-testid="result-content" data-content-type=item.content_type>
            {(!labels.is_empty()).then(|| view! {
                <div class="annotations">{labels.into_iter().map(|l| view! { <span class="badge" data-testid="content-annotation">{l}</span> }).collect_view()}</div>
            })}
            {inner}
        </div>
    }
}

/// The contents of a resource: text by mime type, image or audio previews, or a download.
/// A download's name takes a harmless part of the URI, its extension the allow-list's.
#[component]
pub fn BodyView(body: Body, uri: String, mime: Option<String>) -> impl IntoView {
    match body {
        Body::Text(t) => {
            let name = text_file_name(Some(&uri), "resource", mime.as_deref().unwrap_or_default());
            view! { <TextBlock text=t name /> }.into_any()
        }
        Body::Media { kind, info, data } => {
            later(media_view(kind == MediaKind::Image, info, data, Some(uri))).into_any()
        }
        Body::Download { info, data } => {
            let name = file_name(Some(&uri), "resource", &info.mime);
            let mime = info.mime.clone();
            view! {
                <div class="download-row">
                    <span class="small">{format!("Binary contents, {}", shared::render::media::human_size(info.bytes))}</span>
                    {info.notice.map(|n| view! { <span class="notice small">{n}</span> })}
                    <button class="button small" data-testid="download" on:click=move |_| download::base64(&name, &data, &mime)>"Download"</button>
                </div>
            }
            .into_any()
        }
        Body::Empty => view! { <p class="small muted">"No contents."</p> }.into_any(),
    }
}

#[component]
fn LinkCard(link: LinkView) -> impl IntoView {
    let store = expect_context::<Store>();
    let LinkView { uri, href, name, title, description, mime, size } = link;
    let shown = title.clone().unwrap_or_else(|| name.clone());
    let uri_view = match href {
        Some(h) => {
            view! { <a class="mono small" href=h target="_blank" rel="noopener noreferrer nofollow">{uri.clone()}</a> }
                .into_any()
        }
        None => view! { <span class="mono small">{uri.clone()}</span> }.into_any(),
    };
    let facts = [mime, size.map(|s| shared::render::media::human_size(s as usize))]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ");
    let open_uri = uri.clone();
    view! {
        <div class="resource-card link-card">
            <div class="link-head">
                <span class="resource-name">{shown}</span>
                {title.is_some().then(|| view! { <span class="mono small muted">{name.clone()}</span> })}
                <span class="spacer"></span>
                <Show when=move || store.has_resources()>
                    {
                        let open_uri = open_uri.clone();
                        view! { <button class="button small" data-testid="resource-open" on:click=move |_| store.open_link(open_uri.clone())
                            title="Read it in the Resources view">"Open"</button> }
                    }
                </Show>
            </div>
            {uri_view}
            {description.map(|d| view! { <div class="small">{d}</div> })}
            {(!facts.is_empty()).then(|| view! { <div class="small muted">{facts}</div> })}
        </div>
    }
}
