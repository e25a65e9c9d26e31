//! The server's tools: filter, refresh, and one item per tool with its annotation badges.

use leptos::prelude::*;
use shared::apps;
use shared::listbox::{self, TypeAhead};
use shared::mcp::Tool;
use shared::tasks::TaskSupport;
use wasm_bindgen::JsCast;

use crate::store::{ConnState, Store};

/// Annotation badges of a tool, as small labels.
#[component]
pub fn Badges(tool: Tool) -> impl IntoView {
    let badges = tool.annotations.as_ref().map(|a| a.stated_badges()).unwrap_or_default();
    let support = TaskSupport::of(&tool);
    let task = (support != TaskSupport::Forbidden).then(|| {
        let (label, title) = match support {
            TaskSupport::Required => ("task", "Always runs as a task: called now, its outcome fetched later"),
            _ => ("task?", "May run as a task: see \"Run as task\" beside Call"),
        };
        view! { <span class="badge badge-task" data-testid="task-support" data-support=support.as_str() title=title>{label}</span> }
    });
    let annotations = badges
        .into_iter()
        .map(|b| view! { <span class=format!("badge badge-{}", b.label())>{b.label()}</span> })
        .collect_view();
    view! { {task} {annotations} }
}

/// Up to this many tools, every item is in the page (tests and find-in-page see them all);
/// beyond it, only those in view and a margin (the list scrolls as if all were there).
const ALL_TOOLS_UP_TO: usize = 2000;
/// One item's height and the gap under it (`.tool-item` is 40 px tall, the list's gap 2 px).
const ITEM_PITCH: f64 = 42.0;
const GAP: f64 = 2.0;
/// Items drawn beyond the visible ones, above and below.
const OVERSCAN: usize = 20;

#[component]
pub fn ToolList() -> impl IntoView {
    let store = expect_context::<Store>();
    let connected = move || store.conn.get() == ConnState::Connected;
    // Tools made for an App's view alone are listed apart, under the others. The matching
    // tools are kept as positions: a filter over 10,000 tools copies none of them.
    let matching = move |app_only: bool| {
        let filter = store.tool_filter.get();
        store.tools.with(|tools| {
            tools
                .iter()
                .enumerate()
                .filter(|(_, t)| t.matches(&filter) && apps::app_only(t) == app_only)
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        })
    };
    let main = Memo::new(move |_| matching(false));
    let for_views = move || {
        let at = matching(true);
        store.tools.with(|tools| at.iter().map(|i| tools[*i].clone()).collect::<Vec<_>>())
    };
    let scroll_top = RwSignal::new(0.0f64);
    let viewport = RwSignal::new(600.0f64);
    // The slice of the matching tools drawn, and the space left for the rest above and below.
    let window = Memo::new(move |_| {
        let n = main.with(Vec::len);
        if n <= ALL_TOOLS_UP_TO {
            return (0..n, 0.0, 0.0);
        }
        let first = ((scroll_top.get() / ITEM_PITCH) as usize).saturating_sub(OVERSCAN).min(n);
        let last = (first + (viewport.get() / ITEM_PITCH).ceil() as usize + 2 * OVERSCAN).min(n);
        let space = |count: usize| if count == 0 { 0.0 } else { count as f64 * ITEM_PITCH - GAP };
        (first..last, space(first), space(n - last))
    });
    let visible = move || {
        let (range, ..) = window.get();
        main.with(|at| store.tools.with(|tools| at[range].iter().map(|i| tools[*i].clone()).collect::<Vec<_>>()))
    };
    let on_scroll = move |ev: web_sys::Event| {
        if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
            scroll_top.set(f64::from(el.scroll_top()));
            viewport.set(f64::from(el.client_height()).max(ITEM_PITCH));
        }
    };
    let total = move || store.tools.with(Vec::len);
    let shown = Memo::new(move |_| main.with(Vec::len) + for_views().len());
    let filtering = move || !store.tool_filter.with(|f| f.trim().is_empty());
    // "3 of 12" while a filter is typed, else the number of tools.
    let count = move || if filtering() { format!("{} of {}", shown.get(), total()) } else { total().to_string() };
    let none_found = move || total() != 0 && filtering() && shown.get() == 0;
    // The one item Tab reaches: the picked tool where it is drawn, else the first drawn (a
    // windowed list may not draw the picked one).
    let first_name = Memo::new(move |_| {
        let (range, ..) = window.get();
        let picked = store.selected.get();
        main.with(|at| {
            store.tools.with(|tools| {
                let drawn: Vec<&str> = at[range.clone()].iter().map(|i| tools[*i].name.as_str()).collect();
                let in_view = picked
                    .as_deref()
                    .filter(|p| drawn.contains(p) || tools.iter().any(|t| t.name == *p && apps::app_only(t)));
                in_view.or(drawn.first().copied()).map(str::to_owned)
            })
        })
        .or_else(|| for_views().first().map(|t| t.name.clone()))
    });
    let type_ahead = StoredValue::new(TypeAhead::default());
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
                aria-controls="tool-list"
                prop:value=move || store.tool_filter.get()
                on:input=move |ev| store.tool_filter.set(event_target_value(&ev))
                on:keydown=move |ev: web_sys::KeyboardEvent| {
                    // ↓ from the filter goes into the list.
                    if ev.key() == "ArrowDown" && let Some(first) = items().into_iter().next() {
                        ev.prevent_default();
                        let _ = first.focus();
                    }
                } />
            {move || store.tools_error.get().map(|e| view! { <p class="error-text">{e}</p> })}
            <ListFacts />
            <ul class="tool-list" id="tool-list" data-testid="tool-list" role="listbox" aria-label="Tools"
                on:keydown=move |ev| on_list_key(store, &type_ahead, ev) on:scroll=on_scroll>
                {move || {
                    let above = window.with(|w| w.1);
                    (above > 0.0).then(|| view! { <li class="tool-space" aria-hidden="true" style=format!("height: {above}px")></li> })
                }}
                <For each=visible key=|t| t.name.clone() let:tool>
                    <ToolItem tool first=first_name />
                </For>
                {move || {
                    let below = window.with(|w| w.2);
                    (below > 0.0).then(|| view! { <li class="tool-space" aria-hidden="true" style=format!("height: {below}px")></li> })
                }}
            </ul>
            <Show when=move || !for_views().is_empty()>
                <div class="app-only" data-testid="app-only-tools">
                    <h3 class="group-title" title="Visible to the App's view only: its view calls them; you may call them here to debug">
                        "For the App's view only"
                    </h3>
                    <ul class="tool-list" role="listbox" aria-label="Tools for the App's view"
                        on:keydown=move |ev| on_list_key(store, &type_ahead, ev)>
                        <For each=for_views key=|t| t.name.clone() let:tool>
                            <ToolItem tool first=first_name />
                        </For>
                    </ul>
                </div>
            </Show>
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

/// The list's items as the page shows them, in order.
fn items() -> Vec<web_sys::HtmlElement> {
    let Ok(found) = document().query_selector_all(".tools [data-testid=tool-item]") else {
        return Vec::new();
    };
    (0..found.length()).filter_map(|i| found.item(i)?.dyn_into::<web_sys::HtmlElement>().ok()).collect()
}

/// The list's keys (WAI-ARIA listbox): ↑/↓, Home/End and type-ahead move the focus, Enter
/// opens the tool (on the item), and Tab from a picked tool goes straight to its first field.
fn on_list_key(store: Store, type_ahead: &StoredValue<TypeAhead>, ev: web_sys::KeyboardEvent) {
    if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
        return;
    }
    let items = items();
    let focused = document().active_element();
    let current = items.iter().position(|el| focused.as_ref().is_some_and(|f| f.is_same_node(Some(el))));
    let key = ev.key();
    let target = if key == "Tab" {
        if ev.shift_key() || store.selected.with_untracked(Option::is_none) {
            return;
        }
        let first = [
            "[data-testid=tool-form] :is([data-testid=field], [data-testid=field-include], [data-testid=field-variant]):not(:disabled)",
            "[data-testid=raw-args-editor]",
            "[data-testid=call-button]",
        ]
            .iter()
            .find_map(|css| document().query_selector(css).ok().flatten())
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(first) = first {
            ev.prevent_default();
            let _ = first.focus();
        }
        return;
    } else if let Some(i) = listbox::step(&key, current, items.len()) {
        Some(i)
    } else if key == "Enter" || (key == " " && !type_ahead.with_value(|t| t.typing(crate::store::now_ms()))) {
        // Opens the tool that has the focus.
        if let Some(name) = current.and_then(|i| items[i].get_attribute("data-tool-name")) {
            ev.prevent_default();
            store.select_tool(name);
        }
        return;
    } else if let Some(ch) = key.chars().next().filter(|_| key.chars().count() == 1) {
        let labels: Vec<String> = items.iter().map(|el| el.get_attribute("data-label").unwrap_or_default()).collect();
        type_ahead.try_update_value(|t| t.find(ch, crate::store::now_ms(), &labels, current)).flatten()
    } else {
        return;
    };
    ev.prevent_default();
    if let Some(el) = target.and_then(|i| items.get(i)) {
        let _ = el.focus();
        el.scroll_into_view_with_bool(false);
    }
}

#[component]
fn ToolItem(tool: Tool, first: Memo<Option<String>>) -> impl IntoView {
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
    let display = tool.display_name().to_owned();
    let show_name = display != tool.name;
    // The description is read on hover here, and in full in the tool's detail.
    let hover = match &tool.description {
        Some(d) if show_name => format!("{}\n{d}", tool.name),
        Some(d) => d.clone(),
        None => tool.name.clone(),
    };
    // One Tab stop for the list: the picked tool, else the first one (as the list says).
    let tab_stop = {
        let name = name.clone();
        move || first.get().as_deref() == Some(name.as_str())
    };
    let label = display.clone();
    view! {
        <li class="tool-item" data-testid="tool-item" data-tool-name=name.clone() data-label=label
            tabindex=move || if tab_stop() { "0" } else { "-1" } role="option" title=hover
            class:selected=selected.clone() aria-selected=move || selected().to_string()
            on:click=move |_| select()>
            <super::icon::ItemIcon icons=tool.icons() test_id="tool-icon" />
            <span class="tool-title">{display}</span>
            {show_name.then(|| view! { <span class="tool-name mono">{name.clone()}</span> })}
            <span class="tool-badges">
                {apps::resource_uri(&tool).map(|uri| view! {
                    <span class="badge badge-app" data-testid="app-badge" title=format!("Shows an interactive view: {uri}")>"App"</span>
                })}
                <Badges tool=tool.clone() />
            </span>
        </li>
    }
}
