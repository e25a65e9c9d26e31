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
    let shown = Memo::new(move |_| visible().len());
    let filtering = move || !store.tool_filter.with(|f| f.trim().is_empty());
    // "3 of 12" while a filter is typed, else the number of tools.
    let count = move || if filtering() { format!("{} of {}", shown.get(), total()) } else { total().to_string() };
    let none_found = move || total() != 0 && filtering() && shown.get() == 0;
    view! {
        <section class="panel tools">
            <div class="panel-head">
                <h2 class="panel-title">"Tools " <span class="count" data-testid="tool-count">{count}</span></h2>
                <button class="button small ghost" data-testid="tool-refresh" title="List the tools again"
                    prop:disabled=move || !connected() on:click=move |_| store.refresh_tools()>
                    {move || if store.tools_loading.get() { "Loading…" } else { "Refresh" }}
                </button>
            </div>
            <input class="input" type="search" data-testid="tool-filter" placeholder="Filter: words of a name, title or description"
                prop:value=move || store.tool_filter.get()
                on:input=move |ev| store.tool_filter.set(event_target_value(&ev)) />
            {move || store.tools_error.get().map(|e| view! { <p class="error-text">{e}</p> })}
            <ListFacts />
            <ul class="tool-list" data-testid="tool-list" role="listbox" aria-label="Tools">
                <For each=visible key=|t| t.name.clone() let:tool>
                    <ToolItem tool />
                </For>
            </ul>
            <Show when=move || connected() && total() == 0 && !store.tools_loading.get()>
                <p class="empty">"This server offers no tools."</p>
            </Show>
            <Show when=none_found>
                <p class="empty" data-testid="tool-filter-empty">
                    {move || format!("No tool has every word of “{}” in its name, title or description.", store.tool_filter.get().trim())}
                </p>
            </Show>
            <Show when=move || !connected()>
                <p class="empty">"Connect to a server to see its tools."</p>
            </Show>
        </section>
    }
}

/// What a 2026-07-28 list says beyond its tools: how long it may be cached and for whom,
/// and the tools left out because their `x-mcp-header` marks break the rules.
#[component]
fn ListFacts() -> impl IntoView {
    let store = expect_context::<Store>();
    move || {
        let facts = store.list_facts.get()?;
        let cache = match (facts.ttl_ms, facts.cache_scope.as_deref()) {
            (None, None) => None,
            (ttl, scope) => {
                let ttl = ttl.map(|ms| format!("cache {}", ttl_text(ms)));
                let parts: Vec<String> = ttl.into_iter().chain(scope.map(str::to_owned)).collect();
                Some(parts.join(" · "))
            }
        };
        let title = "How long the server says this list may be kept, and whether it may be shared across users";
        let left_out = facts.left_out.clone();
        let n = left_out.len();
        Some(view! {
            {cache.map(|c| view! { <p class="list-facts" data-testid="tool-list-cache" title=title>{c}</p> })}
            {(n > 0).then(|| view! {
                <details class="left-out" data-testid="tools-left-out">
                    <summary>{format!("{n} tool{} left out: invalid x-mcp-header", if n == 1 { "" } else { "s" })}</summary>
                    <ul>
                        {left_out.into_iter().map(|(name, why)| {
                            let shown = name.clone();
                            view! {
                                <li data-testid="tool-left-out" data-tool-name=name>
                                    <code>{shown}</code>" "<span class="muted">{why}</span>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </details>
            })}
        })
    }
}

/// A cache time as a person reads it: `stale at once`, `250 ms`, `45 s`, `5 min`, `2 h`.
fn ttl_text(ms: u64) -> String {
    match ms {
        0 => "stale at once".to_owned(),
        1..=999 => format!("{ms} ms"),
        1000..=119_999 => format!("{} s", ms / 1000),
        120_000..=7_199_999 => format!("{} min", ms / 60_000),
        _ => format!("{} h", ms / 3_600_000),
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
