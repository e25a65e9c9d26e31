//! An answer over the size limit is dropped, but its call need not wait for its timeout:
//! when the id of the response can be read off the first bytes kept, that call fails at once.

use serde_json::Value;
use shared::relay::RelayEvent;

/// Bytes of a dropped frame looked at for its id: enough for the top-level keys that
/// usually come first, few enough that a flood of huge frames costs little.
pub const SCAN_BYTES: usize = 4096;

/// The event that fails the call an oversized answer was for, when the first bytes of that
/// answer say which call it was.
pub fn failed_call(head: &[u8], size: usize, limit: usize) -> Option<RelayEvent> {
    let id = response_id(head)?;
    Some(RelayEvent::RequestFailed { id, message: over_limit(size, limit) })
}

/// The message a call gets when its answer was dropped for its size.
pub fn over_limit(size: usize, limit: usize) -> String {
    format!("the answer of {size} bytes is over the limit of {limit} bytes")
}

/// The `id` of a JSON-RPC response from the start of its text: only the top level of the
/// object is read (an `"id"` inside `result` is not the response's), and only when a
/// `result` or `error` key shows it is a response, not a request of the server's.
pub fn response_id(head: &[u8]) -> Option<Value> {
    let mut s = Scan { b: &head[..head.len().min(SCAN_BYTES)], i: 0 };
    s.ws();
    s.eat(b'{')?;
    let (mut id, mut response) = (None, false);
    loop {
        s.ws();
        let key = s.string()?;
        s.ws();
        s.eat(b':')?;
        s.ws();
        match key {
            b"\"id\"" => {
                let start = s.i;
                s.value()?;
                id = serde_json::from_slice::<Value>(&s.b[start..s.i]).ok().filter(|v| v.is_number() || v.is_string());
            }
            b"\"method\"" => return None,
            b"\"result\"" | b"\"error\"" => {
                response = true;
                if id.is_some() {
                    break;
                }
                s.value()?;
            }
            _ => s.value()?,
        }
        if response && id.is_some() {
            break;
        }
        s.ws();
        if s.eat(b',').is_none() {
            break;
        }
    }
    id.filter(|_| response)
}

/// A cursor over bytes that knows JSON's strings and nesting, nothing more.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scan<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// A string with its quotes, as written.
    fn string(&mut self) -> Option<&'a [u8]> {
        let start = self.i;
        self.eat(b'"')?;
        loop {
            match self.peek()? {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    return Some(&self.b[start..self.i]);
                }
                _ => self.i += 1,
            }
        }
    }

    /// Skips one value; `None` when the bytes end first.
    fn value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => depth -= 1,
                        _ => {}
                    }
                    self.i += 1;
                    if depth == 0 {
                        return Some(());
                    }
                }
            }
            _ => {
                let start = self.i;
                while !matches!(self.peek()?, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    self.i += 1;
                }
                (self.i > start).then_some(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_id_of_a_response_from_its_first_bytes() {
        let cases: [(&str, Option<Value>); 9] = [
            (r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"xxxx"#, Some(json!(7))),
            (r#" { "id" : "a\"b" , "jsonrpc":"2.0", "error":{"code":1"#, Some(json!("a\"b"))),
            (r#"{"jsonrpc":"2.0","result":{"id":3,"big":[1,2,{"x":"]}"}]},"id":-4}"#, Some(json!(-4))),
            // A request of the server's carries an id of the server's own.
            (r#"{"jsonrpc":"2.0","id":5,"method":"sampling/createMessage","params":{"#, None),
            // The id is after the part that was cut off: not guessed from `result`.
            (r#"{"jsonrpc":"2.0","result":{"id":3,"text":"xxxxxxx"#, None),
            (r#"{"jsonrpc":"2.0","id":null,"error":{}}"#, None),
            (r#"{"jsonrpc":"2.0","id":9}"#, None),
            (r#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#, None),
            ("not json", None),
        ];
        for (head, id) in cases {
            assert_eq!(response_id(head.as_bytes()), id, "{head}");
        }
    }

    #[test]
    fn only_the_first_bytes_are_read() {
        let head = format!(r#"{{"jsonrpc":"2.0","result":"{}","id":1}}"#, "x".repeat(SCAN_BYTES));
        assert_eq!(response_id(head.as_bytes()), None);
        assert_eq!(
            failed_call(br#"{"id":2,"result":"#, 10, 5),
            Some(RelayEvent::RequestFailed {
                id: json!(2),
                message: "the answer of 10 bytes is over the limit of 5 bytes".into()
            })
        );
    }
}
