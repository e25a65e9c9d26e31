//! The resources view: the list (every page, filterable) with the templates under it, and
//! the picked one: its facts, Read, Subscribe, a template's form with completions, and the
//! contents with the same previews as a tool's result.

use leptos::prelude::*;
use shared::catalog::{ListKind, Subscription, Target, uri_template};
use shared::mcp::catalog::{Resource, ResourceTemplate};
use shared::render::Body;

use super::catalog_list::{ListHead, on_list_key};
use super::completion::{CompletedField, FieldInfo};
use super::icon::ItemIcon;
use super::result::content::BodyView;
use crate::store::{ConnState, Picked, ReadState, Store};

lazy_view!(
    /// [`ResourceList`], in a chunk of its own loaded on first use.
    resource_list() => view! { <ResourceList /> }.into_any()
);

#[component]
pub fn ResourceList() -> impl IntoView {
    let store = expect_context::<Store>();
    let data = store.catalog.data;
    let filter = store.catalog.filter;
    let resources = move || {
        let f = filter.get();
        data.with(|c| c.resources.items.iter().filter(|r| r.matches(&f)).cloned().collect::<Vec<_>>())
    };
    let templates = move || {
        let f = filter.get();
        data.with(|c| c.templates.items.iter().filter(|t| t.matches(&f)).cloned().collect::<Vec<_>>())
    };
    let total = move || data.with(|c| c.resources.items.len() + c.templates.items.len());
    let shown = move || resources().len() + templates().len();
    let count = Signal::derive(move || {
        if filter.with(|f| f.trim().is_empty()) { total().to_string() } else { format!("{} of {}", shown(), total()) }
    });
    let loading =
        Signal::derive(move || data.with(|c| c.is_loading(ListKind::Resources) || c.is_loading(ListKind::Templates)));
    let disabled = Signal::derive(move || store.conn.get() != ConnState::Connected || store.in_playback());
    let errors = move || {
        data.with(|c| [c.resources.error.clone(), c.templates.error.clone()].into_iter().flatten().collect::<Vec<_>>())
    };
    let refresh = move || {
        store.list_again(ListKind::Resources);
        store.list_again(ListKind::Templates);
    };
    view! {
        <section class="panel tools resources">
            <ListHead title="Resources" count loading disabled refresh_title="List the resources and templates again" on_refresh=refresh />
            <input class="input" type="search" data-testid="resource-filter" placeholder="Filter: words of a name, title, URI or description"
                prop:value=move || filter.get() on:input=move |ev| filter.set(event_target_value(&ev)) />
            {move || errors().into_iter().map(|e| view! { <p class="error-text">{e}</p> }).collect_view()}
            <ul class="tool-list" id="resource-list" role="listbox" aria-label="Resources"
                on:keydown=move |ev| on_list_key("#resource-list", ev)>
                <For each=resources key=|r| r.uri.clone() let:resource>
                    <ResourceItem resource />
                </For>
            </ul>
            <Show when=move || !templates().is_empty()>
                <h3 class="group-title">"Templates"</h3>
                <ul class="tool-list" id="template-list" role="listbox" aria-label="Resource templates"
                    on:keydown=move |ev| on_list_key("#template-list", ev)>
                    <For each=templates key=|t| t.uri_template.clone() let:template>
                        <TemplateItem template />
                    </For>
                </ul>
            </Show>
            <Show when=move || !loading.get() && data.with(|c| c.resources.loaded) && total() == 0>
                <p class="empty">"This server lists no resources."</p>
            </Show>
            <Show when=move || total() != 0 && shown() == 0>
                <p class="empty">{move || format!("Nothing has every word of “{}”.", filter.get().trim())}</p>
            </Show>
        </section>
    }
}

#[component]
fn ResourceItem(resource: Resource) -> impl IntoView {
    let store = expect_context::<Store>();
    let uri = resource.uri.clone();
    let selected = {
        let uri = uri.clone();
        move || store.catalog.picked.with(|p| p.as_ref() == Some(&Picked::Resource(uri.clone())))
    };
    let updated = {
        let uri = uri.clone();
        move || store.catalog.data.with(|c| c.is_updated(&uri))
    };
    let pick = uri.clone();
    let title = resource.description.clone().unwrap_or_else(|| uri.clone());
    let shown = uri.clone();
    view! {
        <li class="tool-item" role="option" tabindex="0" data-testid="resource-item" data-uri=uri title=title
            class:selected=selected.clone() aria-selected=move || selected().to_string()
            on:click=move |_| store.pick_resource(pick.clone())>
            <ItemIcon icons=resource.icons.clone() />
            <span class="tool-title">{resource.display_name().to_owned()}</span>
            <span class="tool-name mono">{shown}</span>
            <span class="tool-badges">
                {resource.mime_type.clone().map(|m| view! { <span class="badge">{m}</span> })}
                <Show when=updated.clone()>
                    <span class="badge badge-updated" data-testid="resource-updated" title="The server said it changed since it was last read">"updated"</span>
                </Show>
            </span>
        </li>
    }
}

#[component]
fn TemplateItem(template: ResourceTemplate) -> impl IntoView {
    let store = expect_context::<Store>();
    let t = template.uri_template.clone();
    let selected = {
        let t = t.clone();
        move || store.catalog.picked.with(|p| p.as_ref() == Some(&Picked::Template(t.clone())))
    };
    let pick = t.clone();
    let shown = t.clone();
    view! {
        <li class="tool-item" role="option" tabindex="0" data-testid="resource-template-item" data-uri-template=t
            title=template.description.clone().unwrap_or_default()
            class:selected=selected.clone() aria-selected=move || selected().to_string()
            on:click=move |_| store.pick_template(pick.clone())>
            <ItemIcon icons=template.icons.clone() />
            <span class="tool-title">{template.display_name().to_owned()}</span>
            <span class="tool-name mono">{shown}</span>
        </li>
    }
}

lazy_view!(
    /// [`ResourcePanel`], in a chunk of its own loaded on first use.
    resource_panel() => view! { <ResourcePanel /> }.into_any()
);

/// The picked resource or template.
#[component]
pub fn ResourcePanel() -> impl IntoView {
    let store = expect_context::<Store>();
    view! {
        <div class="call-panel">
            {move || match store.catalog.picked.get() {
                Some(Picked::Resource(uri)) => view! { <ResourceDetail uri /> }.into_any(),
                Some(Picked::Template(t)) => view! { <TemplateDetail template=t /> }.into_any(),
                None => view! {
                    <div class="panel empty-state">
                        <h2>"Pick a resource"</h2>
                        <p>"Choose a resource on the left to read it, or a template to fill its variables."</p>
                    </div>
                }
                .into_any(),
            }}
            <Contents />
        </div>
    }
}

#[component]
fn ResourceDetail(uri: String) -> impl IntoView {
    let store = expect_context::<Store>();
    // As listed now: a list that arrives later (a reload's pick) or changes fills it in.
    let listed = {
        let uri = uri.clone();
        Memo::new(move |_| store.catalog.data.with(|c| c.resources.items.iter().find(|r| r.uri == uri).cloned()))
    };
    let name = {
        let uri = uri.clone();
        move || listed.with(|l| l.as_ref().map_or_else(|| uri.clone(), |r| r.display_name().to_owned()))
    };
    let facts = move || {
        listed.with(|l| {
            let r = l.as_ref()?;
            let mut f: Vec<String> = Vec::new();
            f.extend(r.mime_type.clone());
            f.extend(r.size.map(|s| shared::render::media::human_size(s as usize)));
            f.extend(r.annotations.as_ref().and_then(|a| a.summary()));
            Some(f.join(" · ")).filter(|f| !f.is_empty())
        })
    };
    let description = move || listed.with(|l| l.as_ref().and_then(|r| r.description.clone()));
    let subscribable = move || store.server.with(|s| s.as_ref().is_some_and(|i| i.resource_subscribe));
    let live = move || store.conn.get() == ConnState::Connected && !store.in_playback();
    let sub = {
        let uri = uri.clone();
        move || store.catalog.data.with(|c| c.subscription(&uri))
    };
    let updated = {
        let uri = uri.clone();
        move || store.catalog.data.with(|c| c.is_updated(&uri))
    };
    let (read_uri, sub_uri) = (uri.clone(), uri.clone());
    let sub_state = {
        let sub = sub.clone();
        move || {
            if matches!(sub(), Some(Subscription::Subscribed | Subscription::Unsubscribing)) {
                "subscribed"
            } else {
                "unsubscribed"
            }
        }
    };
    let subscribe_button = {
        let sub = sub.clone();
        let busy = sub.clone();
        let state = sub_state.clone();
        let label = sub_state.clone();
        move || {
            let (sub, busy, state, label, uri) =
                (sub.clone(), busy.clone(), state.clone(), label.clone(), sub_uri.clone());
            view! {
                <button class="button small" data-testid="resource-subscribe" data-state=state
                    title="Ask the server to say when this resource changes"
                    prop:disabled=move || !live() || matches!(busy(), Some(Subscription::Subscribing | Subscription::Unsubscribing))
                    on:click=move |_| {
                        let on = !matches!(sub(), Some(Subscription::Subscribed | Subscription::Subscribing));
                        store.subscribe(uri.clone(), on);
                    }>
                    {move || if label() == "subscribed" { "Unsubscribe" } else { "Subscribe" }}
                </button>
            }
        }
    };
    view! {
        <section class="panel tool-detail" data-testid="resource-detail">
            <div class="detail-head">
                <h2 class="detail-title">{name}</h2>
                <span class="spacer"></span>
                {move || subscribable().then(subscribe_button.clone())}
                <button class="button primary" data-testid="resource-read" prop:disabled=move || !live()
                    on:click=move |_| store.read_shown(read_uri.clone())>"Read"</button>
            </div>
            <p class="mono small">{uri.clone()}</p>
            {move || description().map(|d| view! { <p class="description">{d}</p> })}
            {move || facts().map(|f| view! { <p class="small muted">{f}</p> })}
            <Show when=updated>
                <p class="notice small">"The server says this resource changed since it was read. Read it again to see the change."</p>
            </Show>
            {move || store.catalog.data.with(|c| c.subscription_error.clone()).map(|e| view! { <p class="error-text">{e}</p> })}
        </section>
    }
}

#[component]
fn TemplateDetail(template: String) -> impl IntoView {
    let store = expect_context::<Store>();
    let listed = {
        let template = template.clone();
        Memo::new(move |_| {
            store.catalog.data.with(|c| c.templates.items.iter().find(|t| t.uri_template == template).cloned())
        })
    };
    let name = {
        let template = template.clone();
        move || listed.with(|l| l.as_ref().map_or_else(|| template.clone(), |t| t.display_name().to_owned()))
    };
    let description = move || listed.with(|l| l.as_ref().and_then(|t| t.description.clone()));
    let variables = uri_template::variables(&template);
    let live = move || store.conn.get() == ConnState::Connected && !store.in_playback();
    let uri = move || store.template_uri();
    let fields = match &variables {
        Ok(vars) => vars
            .iter()
            .map(|v| {
                let help = if v.explode {
                    Some("A list: values separated by commas, or key=value pairs".to_owned())
                } else {
                    v.prefix.map(|n| format!("Only the first {n} characters are used"))
                };
                let info =
                    FieldInfo { name: v.name.clone(), label: v.name.clone(), description: help, required: false };
                view! { <CompletedField target=Target::Template(template.clone()) info /> }
            })
            .collect_view()
            .into_any(),
        Err(e) => view! { <p class="error-text">{e.clone()}</p> }.into_any(),
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter"
            && (ev.ctrl_key() || ev.meta_key())
            && let Some(Ok(u)) = uri()
        {
            ev.prevent_default();
            store.read_shown(u);
        }
    };
    view! {
        <section class="panel tool-detail" data-testid="resource-template-detail" on:keydown=on_key>
            <div class="detail-head">
                <h2 class="detail-title">{name}</h2>
            </div>
            <p class="mono small">{template.clone()}</p>
            {move || description().map(|d| view! { <p class="description">{d}</p> })}
            <div class="tool-form" data-testid="template-form">{fields}</div>
            <div class="call-row">
                {move || match uri() {
                    Some(Ok(u)) => view! { <code class="mono small" data-testid="template-uri">{u}</code> }.into_any(),
                    Some(Err(e)) => view! { <span class="error-text">{e}</span> }.into_any(),
                    None => ().into_any(),
                }}
                <span class="spacer"></span>
                <button class="button primary" data-testid="resource-read"
                    prop:disabled=move || !live() || !matches!(uri(), Some(Ok(_)))
                    on:click=move |_| if let Some(Ok(u)) = uri() { store.read_shown(u) }>"Read"</button>
            </div>
        </section>
    }
}

/// The contents of the resource shown, one `result-content` each.
#[component]
fn Contents() -> impl IntoView {
    let store = expect_context::<Store>();
    move || {
        let uri = store.catalog.shown.get()?;
        let state = store.reads.with(|r| r.get(&uri).cloned())?;
        Some(match state {
            ReadState::Loading => {
                view! { <section class="panel result"><p class="muted">"Reading…"</p></section> }.into_any()
            }
            ReadState::Failed(e) => view! {
                <section class="panel result" data-testid="resource-contents" data-state="error">
                    <p class="error-text">{e}</p>
                </section>
            }
            .into_any(),
            ReadState::Done(contents) => {
                let n = contents.len();
                view! {
                    <section class="panel result" data-testid="resource-contents" data-state="ok">
                        <div class="panel-head">
                            <h2 class="panel-title" title=uri.clone()>"Contents"</h2>
                            <span class="muted small">{format!("{n} item{}", if n == 1 { "" } else { "s" })}</span>
                        </div>
                        {(n == 0).then(|| view! { <p class="small muted">"The server returned no contents."</p> })}
                        {contents.into_iter().map(|c| {
                            let (uri, mime) = (c.uri.clone(), c.mime_type.clone());
                            let kind = if c.blob.is_some() { "blob" } else { "text" };
                            view! {
                                <div class="content-item" data-testid="result-content" data-content-type="resource" data-resource-kind=kind>
                                    <div class="resource-meta"><span class="mono small">{uri.clone()}</span>" "<span class="muted small">{mime.clone()}</span></div>
                                    <BodyView body=Body::of(&c) uri mime />
                                </div>
                            }
                        }).collect_view()}
                    </section>
                }
                .into_any()
            }
        })
    }
}
