//! GFM tables: a paragraph's first line with pipes over a delimiter row (`|---|:-:|`) with
//! as many columns. Every row gets the header's number of cells; each cell is inline text.

use super::blocks::{Node, Parser};
use super::inlines::{Mode, Source};
use super::lines::{Cursor, blank_line, interrupts_text, line_end, spaces};

/// A table's delimiter row (`|---|:-:|`): its length with the line end, and its columns.
fn delimiter_row(b: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    let mut indent = 0;
    while i < b.len() && indent < 4 {
        match b[i] {
            b' ' => indent += 1,
            b'\t' => indent += 4 - indent % 4,
            _ => break,
        }
        i += 1;
    }
    if indent > 3 || i == b.len() {
        return None;
    }
    let (mut cols, mut in_col, mut pipe, mut dash, mut col_dash) = (0, false, false, false, false);
    if b[i] == b'|' {
        i += 1;
        pipe = true;
    }
    while i < b.len() {
        match b[i] {
            b'\n' => {
                i += 1;
                break;
            }
            b' ' => {}
            b':' => in_col = true,
            b'-' => (in_col, dash, col_dash) = (true, true, true),
            b'|' => {
                if !col_dash {
                    return None;
                }
                (cols, in_col, pipe, col_dash) = (cols + 1, false, true, false);
            }
            _ => return None,
        }
        i += 1;
    }
    if in_col {
        cols += 1;
    }
    (pipe && dash).then_some((i, cols))
}

/// The `|` that separate cells in `line`: those without a backslash just before.
fn pipes(line: &[u8]) -> impl Iterator<Item = usize> + '_ {
    (0..line.len()).filter(|&i| line[i] == b'|' && (i == 0 || line[i - 1] != b'\\'))
}

/// How many cells a header row has: its pipes, less a leading one, plus a last cell when
/// something follows the last pipe.
fn header_cells(line: &[u8]) -> usize {
    let Some(last) = pipes(line).last() else { return 0 };
    let count = pipes(line).count() - usize::from(line[spaces(line)] == b'|');
    count + usize::from(blank_line(&line[last + 1..]).is_none())
}

impl Parser<'_> {
    /// A table whose header row is the line at `at`: its columns and where its body starts.
    pub(super) fn table_at(&self, at: usize) -> Option<(usize, usize)> {
        let b = self.text.as_bytes();
        let end = line_end(b, at);
        let line = &b[at..end];
        if end == b.len() || pipes(line).next().is_none() {
            return None;
        }
        let mut cur = Cursor::new(&b[end + 1..]);
        if self.containers(&mut cur) < self.stack.len() {
            return None;
        }
        let row = end + 1 + cur.i;
        let (len, cols) = delimiter_row(&b[row..])?;
        (cols == header_cells(line)).then_some((cols, row + len))
    }

    pub(super) fn table(&mut self, head: usize, cols: usize, body: usize) -> usize {
        let b = self.text.as_bytes();
        // Missing cells are filled in, up to a limit, so a wide header cannot blow up.
        let mut budget = 1 << 18;
        let mut cells = self.row(head, cols, &mut budget).map(|(_, row)| row).unwrap_or_default();
        let mut at = body;
        loop {
            let mut cur = Cursor::new(&b[at..]);
            if self.containers(&mut cur) < self.stack.len() {
                break;
            }
            cur.all_space();
            let row_at = at + cur.i;
            // Inside a table, any list item ends it.
            if interrupts_text(&b[row_at..], false) {
                break;
            }
            let Some((next, row)) = self.row(row_at, cols, &mut budget) else { break };
            cells.extend(row);
            at = next;
        }
        self.append(Node::Table(cells));
        at
    }

    /// One table row at `at`: its cells (as many as the header has) and where it ends.
    fn row(&self, at: usize, cols: usize, budget: &mut usize) -> Option<(usize, Vec<Source>)> {
        let b = self.text.as_bytes();
        let mut cells = Vec::new();
        let mut i = at;
        loop {
            if b.get(i) == Some(&b'|') {
                i += 1;
            }
            i += spaces(&b[i..]);
            match b.get(i) {
                None => break,
                Some(b'\n') => {
                    i += 1;
                    break;
                }
                _ => {}
            }
            let from = i;
            while i < b.len() && b[i] != b'\n' && !(b[i] == b'|' && b[i - 1] != b'\\') {
                i += 1;
            }
            let mut cell = Source::new(Mode::Cell);
            cell.push_line(&self.text[from..i], 0);
            cell.then = self.text[i..].chars().next();
            cells.push(cell);
        }
        if cells.is_empty() {
            return None;
        }
        while cells.len() < cols {
            *budget = budget.checked_sub(1)?;
            let mut cell = Source::new(Mode::Cell);
            cell.push_line("", 0);
            cells.push(cell);
        }
        cells.truncate(cols);
        Some((i, cells))
    }
}
