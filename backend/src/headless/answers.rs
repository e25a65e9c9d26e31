//! `--answers FILE`: canned answers to what a server asks of the user, for scripts and CI.
//! Without it, the headless commands decline every elicitation and sampling request and
//! say so on stderr; the call goes on with whatever the server makes of a refusal.
//!
//! ```json
//! {"elicitation": [{"action": "accept", "content": {"name": "Ann"}}, {"action": "decline"}],
//!  "sampling": ["the reply a model would give", null],
//!  "roots": ["file:///home/me/project"]}
//! ```
//! Each list is consumed in order; `null` in `sampling` declines one request; when a list
//! runs out, further requests are declined. An accepted form gets the schema's defaults
//! for the fields it leaves out.

#![allow(clippy::print_stderr, reason = "a command line's output")]

use std::collections::VecDeque;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;
use shared::asks::{AskKind, ElicitAnswer, SampleAnswer, parse_roots};
use shared::session::Session;

/// The file as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    elicitation: Vec<Elicit>,
    #[serde(default)]
    sampling: Vec<Option<String>>,
    #[serde(default)]
    roots: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Elicit {
    action: Action,
    #[serde(default)]
    content: Option<Value>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Action {
    Accept,
    Decline,
    Cancel,
}

/// What is left of the canned answers; empty (decline everything) without `--answers`.
#[derive(Debug, Default)]
pub struct Answers {
    /// The file named on the command line, for the messages; `None` without `--answers`.
    source: Option<String>,
    elicitation: VecDeque<ElicitAnswer>,
    sampling: VecDeque<SampleAnswer>,
    /// The roots to offer.
    pub roots: Vec<String>,
}

/// Why `--answers FILE` cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum AnswersError {
    #[error("cannot read {path}: {source}")]
    Unreadable { path: String, source: std::io::Error },
    #[error("{path} is not an answers file: {reason}")]
    NotAnswers { path: String, reason: String },
    #[error("{path}: roots: {reason}")]
    Roots { path: String, reason: String },
}

impl Answers {
    /// Reads `--answers FILE`; the error says what is wrong with it.
    pub fn load(path: &Path) -> Result<Answers, AnswersError> {
        let source = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|e| AnswersError::Unreadable { source: e, path: source.clone() })?;
        Answers::parse(&text, &source)
    }

    fn parse(text: &str, source: &str) -> Result<Answers, AnswersError> {
        let file: File = serde_json::from_str(text)
            .map_err(|e| AnswersError::NotAnswers { path: source.to_owned(), reason: e.to_string() })?;
        let roots = parse_roots(&file.roots.join("\n"))
            .map_err(|e| AnswersError::Roots { path: source.to_owned(), reason: e.to_string() })?;
        let elicitation = file
            .elicitation
            .into_iter()
            .map(|e| match e.action {
                Action::Accept => ElicitAnswer::Accept(e.content.unwrap_or(Value::Object(Default::default()))),
                Action::Decline => ElicitAnswer::Decline,
                Action::Cancel => ElicitAnswer::Cancel,
            })
            .collect();
        let sampling =
            file.sampling.into_iter().map(|s| s.map_or(SampleAnswer::Decline, SampleAnswer::Reply)).collect();
        Ok(Answers { source: Some(source.to_owned()), elicitation, sampling, roots })
    }

    /// Answers every request the server is waiting on, saying each on stderr.
    pub fn answer_waiting(&mut self, session: &mut Session, now_ms: f64) {
        while let Some(ask) = session.asks().first().cloned() {
            let what = ask.what();
            let said = match &ask.kind {
                AskKind::Elicit(_) => {
                    let answer = self.elicitation.pop_front();
                    let (answer, said) = self.said(answer, ElicitAnswer::Decline, |a| match a {
                        ElicitAnswer::Accept(_) => "accepted",
                        ElicitAnswer::Decline => "declined",
                        ElicitAnswer::Cancel => "cancelled",
                    });
                    session.answer_elicitation(&ask.id, answer, now_ms).map(|()| said)
                }
                AskKind::Sample(_) => {
                    let answer = self.sampling.pop_front();
                    let (answer, said) = self.said(answer, SampleAnswer::Decline, |a| match a {
                        SampleAnswer::Reply(_) => "replied",
                        SampleAnswer::Decline => "declined",
                    });
                    session.answer_sampling(&ask.id, answer, now_ms).map(|()| said)
                }
            };
            match said {
                Ok(said) => eprintln!("the server asked for {what}; {said}"),
                // Not waiting any more: it cannot stay first in the queue.
                Err(e) => {
                    eprintln!("note: {e}");
                    break;
                }
            }
        }
    }

    /// The answer to give and how to say it: the next canned one, or a refusal that says
    /// how to answer instead.
    fn said<A>(&self, next: Option<A>, refusal: A, verb: impl Fn(&A) -> &'static str) -> (A, String) {
        match (next, &self.source) {
            (Some(a), Some(source)) => {
                let said = format!("{} from {source}", verb(&a));
                (a, said)
            }
            (None, Some(source)) => (refusal, format!("declined: {source} has no answer left for it")),
            (_, None) => (refusal, "declined: run with --answers FILE to answer".to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_file_strictly() {
        let a = Answers::parse(
            r#"{"elicitation":[{"action":"accept","content":{"x":1}},{"action":"cancel"}],"sampling":["hi",null],"roots":["file:///a/b"]}"#,
            "a.json",
        )
        .unwrap();
        assert_eq!(a.elicitation, [ElicitAnswer::Accept(serde_json::json!({"x": 1})), ElicitAnswer::Cancel]);
        assert_eq!(a.sampling, [SampleAnswer::Reply("hi".into()), SampleAnswer::Decline]);
        assert_eq!(a.roots, ["file:///a/b"]);
        let e = Answers::parse(r#"{"sampling":["x"],"elicit":[]}"#, "a.json").unwrap_err();
        assert!(e.to_string().contains("unknown field `elicit`"), "{e}");
        let e = Answers::parse(r#"{"elicitation":[{"action":"maybe"}]}"#, "a.json").unwrap_err();
        assert!(e.to_string().contains("unknown variant `maybe`"), "{e}");
        let e = Answers::parse(r#"{"roots":["/home"]}"#, "a.json").unwrap_err();
        assert!(e.to_string().contains("roots: line 1"), "{e}");
    }
}
