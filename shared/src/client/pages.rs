//! Paging, once for every `*/list`: each page's `nextCursor` followed, and a listing that
//! repeats a cursor or never ends stopped with what came before it kept.

use std::collections::HashSet;

/// Pages followed before giving up on a server that never stops paging.
pub const MAX_PAGES: usize = 1000;

/// What follows a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// Ask for the page at this cursor.
    Page(String),
    /// The listing is complete.
    Done,
    /// The listing stops here, and why (the pages so far stand).
    Stopped(String),
}

/// The pages of one listing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pages {
    cursors_seen: HashSet<String>,
    /// Pages read so far.
    pub count: usize,
}

impl Pages {
    /// A page of `method` came with `next_cursor`: what to do next.
    pub fn read(&mut self, method: &str, next_cursor: Option<String>) -> Next {
        self.count += 1;
        match next_cursor {
            None => Next::Done,
            Some(cursor) if self.cursors_seen.contains(&cursor) => {
                Next::Stopped(format!("{method} repeated cursor {cursor:?}; stopped paging"))
            }
            Some(_) if self.count >= MAX_PAGES => {
                Next::Stopped(format!("{method} still paging after {MAX_PAGES} pages; stopped"))
            }
            Some(cursor) => {
                self.cursors_seen.insert(cursor.clone());
                Next::Page(cursor)
            }
        }
    }

    /// Why a listing failed, naming the page and what was kept of the pages before it.
    pub fn failed(&self, method: &str, why: &str, kept: usize, noun: &str) -> String {
        if self.count == 0 {
            return format!("{method} {why}");
        }
        let plural = if kept == 1 { "" } else { "s" };
        format!("{method} page {} {why}; showing the {kept} {noun}{plural} of the pages before it", self.count + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_followed_to_the_end_and_a_loop_or_an_endless_listing_stops() {
        let mut p = Pages::default();
        assert_eq!(p.read("resources/list", Some("a".into())), Next::Page("a".into()));
        assert_eq!(p.read("resources/list", Some("b".into())), Next::Page("b".into()));
        assert_eq!(p.read("resources/list", None), Next::Done);
        assert_eq!(p.count, 3);

        let mut p = Pages::default();
        p.read("prompts/list", Some("a".into()));
        let Next::Stopped(why) = p.read("prompts/list", Some("a".into())) else { panic!("a loop was followed") };
        assert_eq!(why, r#"prompts/list repeated cursor "a"; stopped paging"#);

        let mut p = Pages::default();
        let mut last = Next::Done;
        for i in 0..MAX_PAGES {
            last = p.read("tools/list", Some(i.to_string()));
        }
        assert!(matches!(last, Next::Stopped(ref w) if w.contains("1000 pages")), "{last:?}");
        assert_eq!(
            p.failed("tools/list", "failed: boom", 1, "tool"),
            "tools/list page 1001 failed: boom; showing the 1 tool of the pages before it"
        );
        assert_eq!(Pages::default().failed("tools/list", "failed: boom", 0, "tool"), "tools/list failed: boom");
    }
}
