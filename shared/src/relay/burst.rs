//! A burst: what the relay has for the page at one time goes as one socket message, a JSON
//! array of its messages, so a flood of a server's messages costs the page one event (and one
//! text) per burst, not one per message. A message that comes alone goes as it is.

use serde_json::value::RawValue;

use super::{ReadError, ServerMsg};

/// One socket message of the relay's `texts` (each a serialized [`ServerMsg`]).
pub fn burst(texts: &[String]) -> String {
    match texts {
        [one] => one.clone(),
        _ => {
            let mut out = String::with_capacity(texts.iter().map(|t| t.len() + 1).sum::<usize>() + 2);
            out.push('[');
            for (i, t) in texts.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(t);
            }
            out.push(']');
            out
        }
    }
}

/// Whether a socket message of the relay is a burst.
fn is_burst(text: &str) -> bool {
    text.trim_start().starts_with('[')
}

impl ServerMsg {
    /// Reads a socket message of the relay: one message, or each of a burst, in order.
    pub fn read_all(text: &str) -> Result<Vec<ServerMsg>, ReadError> {
        if is_burst(text) { serde_json::from_str(text) } else { Ok(vec![ServerMsg::read(text)?]) }
    }
}

/// The messages of a socket message of the relay, each as the text the relay wrote.
pub fn split(text: &str) -> Result<Vec<String>, ReadError> {
    if !is_burst(text) {
        return Ok(vec![text.to_owned()]);
    }
    let parts: Vec<&RawValue> = serde_json::from_str(text)?;
    Ok(parts.into_iter().map(|p| p.get().to_owned()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relay::Direction;

    fn message(n: usize) -> ServerMsg {
        ServerMsg::Message {
            direction: Direction::In,
            at_ms: n as f64,
            size: 2,
            frame: format!(r#"{{"jsonrpc":"2.0","method":"m{n}"}}"#),
        }
    }

    #[test]
    fn a_burst_reads_back_as_its_messages_in_order_and_a_lone_message_goes_as_it_is() {
        let msgs: Vec<ServerMsg> = (0..3).map(message).collect();
        let texts: Vec<String> = msgs.iter().map(|m| serde_json::to_string(m).unwrap()).collect();
        let one = burst(&texts[..1]);
        assert_eq!(one, texts[0], "a lone message is not wrapped");
        assert_eq!(ServerMsg::read_all(&one).unwrap(), msgs[..1]);
        let all = burst(&texts);
        assert!(all.starts_with('[') && all.ends_with(']'));
        assert_eq!(ServerMsg::read_all(&all).unwrap(), msgs);
        assert_eq!(split(&all).unwrap(), texts, "each text as the relay wrote it");
        assert_eq!(split(&one).unwrap(), texts[..1]);
    }

    #[test]
    fn a_broken_burst_is_an_error_not_a_part() {
        assert!(ServerMsg::read_all(r#"[{"type":"nonsense"}]"#).is_err());
        assert!(ServerMsg::read_all("[").is_err());
        assert!(split("[1,").is_err());
    }
}
