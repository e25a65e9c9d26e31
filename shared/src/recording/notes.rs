//! Presenter notes: a title and a short text on any step of a recording (the number of
//! entries played when it shows; 0 is before the first), kept in the header's `notes`
//! since format version 3. Files without them read as they always did.

use serde::{Deserialize, Serialize};

/// The longest title, in characters.
pub const MAX_TITLE: usize = 120;
/// The longest text, in characters: a note is read aloud, not a document.
pub const MAX_TEXT: usize = 2000;
/// The format version that added notes: a file saved with notes says at least this.
pub const NOTES_SINCE: u32 = 3;

/// One step's note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// The step it belongs to: entries played when it shows.
    pub at: usize,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

/// Why a note was not kept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoteError {
    #[error("the title has {0} characters; a note's title has {MAX_TITLE} at most")]
    TitleTooLong(usize),
    #[error("the text has {0} characters; a note's text has {MAX_TEXT} at most")]
    TextTooLong(usize),
    #[error("step {at} is past the recording's end ({total})")]
    PastTheEnd { at: usize, total: usize },
}

/// The note of step `at`, if it has one.
pub fn at(notes: &[Note], at: usize) -> Option<&Note> {
    notes.iter().find(|n| n.at == at)
}

/// Writes step `at`'s note (trimmed), or removes it when both parts are empty; the notes
/// stay in step order. `total`: the recording's steps.
pub fn set(notes: &mut Vec<Note>, at: usize, total: usize, title: &str, text: &str) -> Result<(), NoteError> {
    let (title, text) = (title.trim(), text.trim());
    if at > total {
        return Err(NoteError::PastTheEnd { at, total });
    }
    let count = |s: &str| s.chars().count();
    if count(title) > MAX_TITLE {
        return Err(NoteError::TitleTooLong(count(title)));
    }
    if count(text) > MAX_TEXT {
        return Err(NoteError::TextTooLong(count(text)));
    }
    notes.retain(|n| n.at != at);
    if !title.is_empty() || !text.is_empty() {
        let place = notes.partition_point(|n| n.at < at);
        notes.insert(place, Note { at, title: title.to_owned(), text: text.to_owned() });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_written_in_step_order_replaced_and_removed() {
        let mut notes = Vec::new();
        set(&mut notes, 5, 10, " The weather ", "Lisbon, live.\n").unwrap();
        set(&mut notes, 0, 10, "Welcome", "").unwrap();
        set(&mut notes, 10, 10, "", "The end").unwrap();
        assert_eq!(notes.iter().map(|n| n.at).collect::<Vec<_>>(), [0, 5, 10]);
        assert_eq!(at(&notes, 5).map(|n| (n.title.as_str(), n.text.as_str())), Some(("The weather", "Lisbon, live.")));
        set(&mut notes, 5, 10, "Weather", "again").unwrap();
        assert_eq!(at(&notes, 5).unwrap().title, "Weather");
        assert_eq!(notes.len(), 3);
        set(&mut notes, 5, 10, "  ", "").unwrap();
        assert!(at(&notes, 5).is_none());
        assert_eq!(notes.len(), 2);
    }

    #[test]
    fn what_is_too_long_or_past_the_end_is_refused_and_nothing_changes() {
        let mut notes = vec![Note { at: 1, title: "kept".into(), text: String::new() }];
        let long = "é".repeat(MAX_TITLE + 1);
        assert_eq!(set(&mut notes, 1, 3, &long, ""), Err(NoteError::TitleTooLong(MAX_TITLE + 1)));
        assert_eq!(set(&mut notes, 1, 3, "", &"x".repeat(MAX_TEXT + 1)), Err(NoteError::TextTooLong(MAX_TEXT + 1)));
        assert_eq!(set(&mut notes, 4, 3, "t", ""), Err(NoteError::PastTheEnd { at: 4, total: 3 }));
        assert_eq!(notes, [Note { at: 1, title: "kept".into(), text: String::new() }]);
        // Exactly at the limits is fine.
        set(&mut notes, 2, 3, &"é".repeat(MAX_TITLE), &"x".repeat(MAX_TEXT)).unwrap();
    }
}
