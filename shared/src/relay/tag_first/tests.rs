//! `tag_first!` against serde's own reading of the same enum: the same JSON written, the same
//! values read back, the same refusals when the tag comes first, and a reason when it does not.

use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Details {
    name: String,
    #[serde(default)]
    size: u32,
}

super::tag_first! {
    #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
    /// The enum under test.
    #[derive(Debug, Clone, PartialEq)]
    enum Event {
        Started { pid: u32, #[serde(default, skip_serializing_if = "Vec::is_empty")] args: Vec<String> },
        Info(Details),
        Stopped,
        #[serde(rename = "gone")]
        Ended {},
    }
}

/// The same enum as serde reads it by itself: the oracle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum Plain {
    Started {
        pid: u32,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        args: Vec<String>,
    },
    Info(Details),
    Stopped,
    #[serde(rename = "gone")]
    Ended {},
}

fn both(text: &str) -> (Result<Event, String>, Result<Plain, String>) {
    let ours = serde_json::from_str::<Event>(text).map_err(|e| e.to_string());
    let plain = serde_json::from_str::<Plain>(text).map_err(|e| e.to_string());
    (ours, plain)
}

#[test]
fn writes_what_serde_writes_and_reads_it_back() {
    let cases = [
        (Event::Started { pid: 7, args: vec!["a".into()] }, Plain::Started { pid: 7, args: vec!["a".into()] }),
        (Event::Started { pid: 7, args: vec![] }, Plain::Started { pid: 7, args: vec![] }),
        (Event::Info(Details { name: "x".into(), size: 2 }), Plain::Info(Details { name: "x".into(), size: 2 })),
        (Event::Stopped, Plain::Stopped),
        (Event::Ended {}, Plain::Ended {}),
    ];
    for (ours, plain) in cases {
        let text = serde_json::to_string(&ours).unwrap();
        assert_eq!(text, serde_json::to_string(&plain).unwrap());
        assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), ours, "{text}");
        // From a `Value` too (a saved server's target is read so), and from a byte slice.
        assert_eq!(serde_json::from_value::<Event>(serde_json::from_str(&text).unwrap()).unwrap(), ours);
        assert_eq!(serde_json::from_slice::<Event>(text.as_bytes()).unwrap(), ours);
    }
}

#[test]
fn accepts_and_refuses_what_serde_does_when_the_tag_is_first() {
    let texts = [
        r#"{"kind":"started","pid":1}"#,
        r#"{"kind":"started","pid":1,"args":["x"],"more":1}"#,
        r#"{"kind":"started","pid":-1}"#,
        r#"{"kind":"started"}"#,
        r#"{"kind":"info","name":"n"}"#,
        r#"{"kind":"info","name":"n","size":"big"}"#,
        r#"{"kind":"info","name":"n","other":true}"#,
        r#"{"kind":"stopped"}"#,
        r#"{"kind":"gone"}"#,
        r#"{"kind":"gone","x":1}"#,
        r#"{"kind":"ended"}"#,
        r#"{"kind":7}"#,
        r#"{"kind":null}"#,
    ];
    for text in texts {
        let (ours, plain) = both(text);
        // serde's messages lose the position when it buffers; ours keep it.
        let strip = |e: &String| e.split(" at line").next().unwrap_or_default().to_owned();
        match (&ours, &plain) {
            (Ok(o), Ok(p)) => assert_eq!(serde_json::to_value(o).unwrap(), serde_json::to_value(p).unwrap(), "{text}"),
            (Err(o), Err(p)) => assert_eq!(strip(o), strip(p), "{text}"),
            _ => {}
        }
        assert_eq!(ours.is_ok(), plain.is_ok(), "{text}");
    }
}

#[test]
fn says_why_it_refuses_what_serde_would_read() {
    let texts = [
        // The tag later than first: serde's buffering would find it; this reader will not.
        r#"{"pid":1,"kind":"started"}"#,
        // No tag at all, or no object.
        r#"{"pid":1}"#,
        r#"{}"#,
        r#""started""#,
        r#"[1]"#,
        // A variant without fields has nothing after its tag (serde lets any field by).
        r#"{"kind":"stopped","extra":1}"#,
    ];
    let out: Vec<String> = texts.iter().map(|t| serde_json::from_str::<Event>(t).expect_err(t).to_string()).collect();
    expect_test::expect![[r#"
        `kind` must be the first field at line 1 column 6
        `kind` must be the first field at line 1 column 6
        missing field `kind` at line 1 column 2
        invalid type: string "started", expected an object with `kind` first at line 1 column 9
        invalid type: sequence, expected an object with `kind` first at line 1 column 0
        unknown field `extra`, there are no fields at line 1 column 25"#]]
    .assert_eq(&out.join("\n"));
    assert!(serde_json::from_value::<Event>(json!({"kind": "stopped"})).is_ok());
}
