//! Draws the Markdown tree from `shared::render::markdown` with text nodes only: raw HTML in
//! the source is shown as text, and only safe links are links.

use leptos::prelude::*;
use shared::render::markdown::{Block, Inline, parse};

lazy_view!(
    /// [`Markdown`], in a chunk of its own (pulldown-cmark with it) loaded on first use.
    markdown_view(text: String) => view! { <Markdown text /> }.into_any()
);

#[component]
fn Markdown(text: String) -> impl IntoView {
    view! { <div class="markdown">{blocks(parse(&text))}</div> }
}

fn blocks(list: Vec<Block>) -> AnyView {
    list.into_iter().map(block).collect_view().into_any()
}

fn block(b: Block) -> AnyView {
    match b {
        Block::Heading(1, i) => view! { <h3>{inlines(i)}</h3> }.into_any(),
        Block::Heading(2, i) => view! { <h4>{inlines(i)}</h4> }.into_any(),
        Block::Heading(_, i) => view! { <h5>{inlines(i)}</h5> }.into_any(),
        Block::Paragraph(i) => view! { <p>{inlines(i)}</p> }.into_any(),
        Block::Code { lang, text } => view! { <pre class="code" data-lang=lang>{text}</pre> }.into_any(),
        Block::Quote(inner) => view! { <blockquote>{blocks(inner)}</blockquote> }.into_any(),
        Block::List { ordered: true, items } => {
            view! { <ol>{items.into_iter().map(|i| view! { <li>{blocks(i)}</li> }).collect_view()}</ol> }.into_any()
        }
        Block::List { ordered: false, items } => {
            view! { <ul>{items.into_iter().map(|i| view! { <li>{blocks(i)}</li> }).collect_view()}</ul> }.into_any()
        }
        Block::Rule => view! { <hr /> }.into_any(),
    }
}

fn inlines(list: Vec<Inline>) -> AnyView {
    list.into_iter().map(inline).collect_view().into_any()
}

fn inline(i: Inline) -> AnyView {
    match i {
        Inline::Text(t) => t.into_any(),
        Inline::Code(t) => view! { <code>{t}</code> }.into_any(),
        Inline::Emphasis(c) => view! { <em>{inlines(c)}</em> }.into_any(),
        Inline::Strong(c) => view! { <strong>{inlines(c)}</strong> }.into_any(),
        Inline::Strike(c) => view! { <s>{inlines(c)}</s> }.into_any(),
        Inline::Link { href: Some(h), children } => {
            view! { <a href=h target="_blank" rel="noopener noreferrer nofollow">{inlines(children)}</a> }.into_any()
        }
        Inline::Link { href: None, children } => {
            view! { <span class="unsafe-link" title="not a safe link">{inlines(children)}</span> }.into_any()
        }
        Inline::Break => view! { <br /> }.into_any(),
    }
}
