//! The event-to-tree mapping this module had while it used `pulldown-cmark`, kept for tests
//! only: the differential test parses the corpus with both and wants the same trees.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::{Block, Inline};
use crate::render::safe_href;

/// The old `parse`.
pub(super) fn parse(text: &str) -> Vec<Block> {
    let mut b = TreeBuilder::default();
    for event in Parser::new_ext(text, Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TABLES) {
        b.event(event);
    }
    b.finish()
}

/// An open container while parsing.
enum Frame {
    Blocks(Vec<Block>, BlockKind),
    Inlines(Vec<Inline>, InlineKind),
    Code(Option<String>, String),
}

enum BlockKind {
    Root,
    Quote,
    Item,
    List(bool, Vec<Vec<Block>>),
}

enum InlineKind {
    Paragraph,
    Heading(u8),
    Emphasis,
    Strong,
    Strike,
    Link(Option<String>),
}

struct TreeBuilder {
    stack: Vec<Frame>,
}

impl Default for TreeBuilder {
    fn default() -> Self {
        Self { stack: vec![Frame::Blocks(Vec::new(), BlockKind::Root)] }
    }
}

impl TreeBuilder {
    fn push_inline(&mut self, inline: Inline) {
        match self.stack.last_mut() {
            Some(Frame::Inlines(v, _)) => v.push(inline),
            Some(Frame::Code(_, text)) => {
                if let Inline::Text(t) = inline {
                    text.push_str(&t);
                }
            }
            _ => {
                // Inline content directly in a block container (a tight list item): wrap it.
                self.stack.push(Frame::Inlines(vec![inline], InlineKind::Paragraph));
            }
        }
    }

    fn push_block(&mut self, block: Block) {
        // Close a paragraph opened implicitly by a tight list item first.
        if matches!(self.stack.last(), Some(Frame::Inlines(_, InlineKind::Paragraph))) && self.stack.len() > 1 {
            self.close_inlines();
        }
        if let Some(Frame::Blocks(v, _)) = self.stack.last_mut() {
            v.push(block);
        }
    }

    fn close_inlines(&mut self) {
        if let Some(Frame::Inlines(children, kind)) = self.stack.pop() {
            match kind {
                InlineKind::Paragraph => self.push_block(Block::Paragraph(children)),
                InlineKind::Heading(level) => self.push_block(Block::Heading(level, children)),
                InlineKind::Emphasis => self.push_inline(Inline::Emphasis(children)),
                InlineKind::Strong => self.push_inline(Inline::Strong(children)),
                InlineKind::Strike => self.push_inline(Inline::Strike(children)),
                InlineKind::Link(href) => self.push_inline(Inline::Link { href, children }),
            }
        }
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(end) => self.end(end),
            Event::Text(t) => self.push_inline(Inline::Text(t.into_string())),
            Event::Code(t) => self.push_inline(Inline::Code(t.into_string())),
            // Raw HTML is shown as the text it is.
            Event::Html(t) | Event::InlineHtml(t) => self.push_inline(Inline::Text(t.into_string())),
            Event::SoftBreak => self.push_inline(Inline::Text(" ".into())),
            Event::HardBreak => self.push_inline(Inline::Break),
            Event::Rule => self.push_block(Block::Rule),
            Event::TaskListMarker(done) => {
                self.push_inline(Inline::Text(if done { "[x] ".into() } else { "[ ] ".into() }))
            }
            Event::FootnoteReference(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                self.push_inline(Inline::Text(t.into_string()))
            }
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        let frame = match tag {
            Tag::Paragraph | Tag::TableCell => Frame::Inlines(Vec::new(), InlineKind::Paragraph),
            Tag::Heading { level, .. } => {
                let n = match level {
                    HeadingLevel::H1 => 1,
                    HeadingLevel::H2 => 2,
                    HeadingLevel::H3 => 3,
                    HeadingLevel::H4 => 4,
                    HeadingLevel::H5 => 5,
                    HeadingLevel::H6 => 6,
                };
                Frame::Inlines(Vec::new(), InlineKind::Heading(n))
            }
            Tag::Emphasis => Frame::Inlines(Vec::new(), InlineKind::Emphasis),
            Tag::Strong => Frame::Inlines(Vec::new(), InlineKind::Strong),
            Tag::Strikethrough => Frame::Inlines(Vec::new(), InlineKind::Strike),
            Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. } => {
                Frame::Inlines(Vec::new(), InlineKind::Link(safe_href(&dest_url)))
            }
            Tag::CodeBlock(kind) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(l) if !l.is_empty() => Some(l.into_string()),
                    _ => None,
                };
                Frame::Code(lang, String::new())
            }
            Tag::BlockQuote(_) => Frame::Blocks(Vec::new(), BlockKind::Quote),
            Tag::List(start) => Frame::Blocks(Vec::new(), BlockKind::List(start.is_some(), Vec::new())),
            Tag::Item => Frame::Blocks(Vec::new(), BlockKind::Item),
            // Tables, footnotes, metadata and the like: their text flows into paragraphs.
            _ => return,
        };
        if matches!(frame, Frame::Blocks(..) | Frame::Code(..))
            && matches!(self.stack.last(), Some(Frame::Inlines(_, InlineKind::Paragraph)))
            && self.stack.len() > 1
        {
            self.close_inlines();
        }
        self.stack.push(frame);
    }

    fn end(&mut self, end: TagEnd) {
        match end {
            TagEnd::Paragraph
            | TagEnd::TableCell
            | TagEnd::Heading(_)
            | TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Link
            | TagEnd::Image => self.close_inlines(),
            TagEnd::CodeBlock => {
                if let Some(Frame::Code(lang, text)) = self.stack.pop() {
                    self.push_block(Block::Code { lang, text });
                }
            }
            TagEnd::Item => {
                if matches!(self.stack.last(), Some(Frame::Inlines(..))) {
                    self.close_inlines();
                }
                if let Some(Frame::Blocks(blocks, BlockKind::Item)) = self.stack.pop()
                    && let Some(Frame::Blocks(_, BlockKind::List(_, items))) = self.stack.last_mut()
                {
                    items.push(blocks);
                }
            }
            TagEnd::List(_) => {
                if let Some(Frame::Blocks(_, BlockKind::List(ordered, items))) = self.stack.pop() {
                    self.push_block(Block::List { ordered, items });
                }
            }
            TagEnd::BlockQuote(_) => {
                if let Some(Frame::Blocks(blocks, BlockKind::Quote)) = self.stack.pop() {
                    self.push_block(Block::Quote(blocks));
                }
            }
            _ => {}
        }
    }

    fn finish(mut self) -> Vec<Block> {
        while self.stack.len() > 1 {
            match self.stack.last() {
                Some(Frame::Inlines(..)) => self.close_inlines(),
                _ => {
                    self.stack.pop();
                }
            }
        }
        match self.stack.pop() {
            Some(Frame::Blocks(blocks, _)) => blocks,
            _ => Vec::new(),
        }
    }
}
