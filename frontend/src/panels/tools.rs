//! The server's tools: filter, refresh, and one item per tool with its annotation badges.

use leptos::prelude::*;
use shared::mcp::Tool;

use crate::store::{ConnState, Store};

/// Annotation badges of a tool, as small labels.
#[component]
pub fn Badges(tool: Tool) -> impl IntoView {
    let badges = tool.annotations.as_ref().map(|a| a.stated_badges()).unwrap_or_default();
    badges
        .into_iter()
        .map(|b| view! { <span class=format!("badge badge-{}", b.label())>{b.label()}</span> })
        .collect_view()
}

#[component]
pub fn ToolList() -> impl IntoView {
    let store = expect_context::<Store>();
    let connected = move || store.conn.get() == ConnState::Connected;
    let visible = move || {
        let filter = store.tool_filter.get();
        store.tools.with(|tools| tools.iter().filter(|t| t.matches(&filter)).cloned().collect::<Vec<_>>())
    };
    let total = move || store.tools.with(Vec::len);
    view! {
        <section class="panel tools">
            <div class="panel-head">
                <h2 class="panel-title">"Tools " <span class="count">{total}</span></h2>
                <button class="button small ghost" data-testid="tool-refresh" title="List the tools again"
                    prop:disabled=move || !connected() on:click=move |_| store.refresh_tools()>
                    {move || if store.tools_loading.get() { "Loading…" } else { "Refresh" }}
                </button>
            </div>
            <input class="input" type="search" data-testid="tool-filter" placeholder="Filter by name or description"
                prop:value=move || store.tool_filter.get()
                on:input=move |ev| store.tool_filter.set(event_target_value(&ev)) />
            {move || store.tools_error.get().map(|e| view! { <p class="error-text">{e}</p> })}
            <ul class="tool-list" data-testid="tool-list" role="listbox" aria-label="Tools">
                <For each=visible key=|t| t.name.clone() let:tool>
                    <ToolItem tool />
                </For>
            </ul>
            <Show when=move || connected() && total() == 0 && !store.tools_loading.get()>
                <p class="empty">"This server offers no tools."</p>
            </Show>
            <Show when=move || !connected()>
                <p class="empty">"Connect to a server to see its tools."</p>
            </Show>
        </section>
    }
}

#[component]
fn ToolItem(tool: Tool) -> impl IntoView {
    let store = expect_context::<Store>();
    let name = tool.name.clone();
    let selected = {
        let name = name.clone();
        move || store.selected.get().as_deref() == Some(name.as_str())
    };
    let select = {
        let name = name.clone();
        move || store.select_tool(name.clone())
    };
    let on_key = {
        let select = select.clone();
        move |ev: web_sys::KeyboardEvent| {
            if ev.key() == "Enter" || ev.key() == " " {
                ev.prevent_default();
                select();
            }
        }
    };
    let display = tool.display_name().to_owned();
    let show_name = display != tool.name;
    let description = tool.description.clone().unwrap_or_default();
    view! {
        <li class="tool-item" data-testid="tool-item" data-tool-name=name.clone() tabindex="0" role="option"
            class:selected=selected.clone() aria-selected=move || selected().to_string()
            on:click=move |_| select() on:keydown=on_key>
            <div class="tool-item-head">
                <span class="tool-title">{display}</span>
                <Badges tool=tool.clone() />
            </div>
            {show_name.then(|| view! { <div class="tool-name mono">{name.clone()}</div> })}
            <div class="tool-desc">{description}</div>
        </li>
    }
}
