//! What a server asks of the user, from the headless command line: declined with a clear
//! word on stderr by default, answered from `--answers FILE` otherwise (server-everything's
//! sampling, elicitation and roots tools), and judged by the conformance suite's SEP-1034
//! scenario (defaults filled in for what an accepted form leaves out).

use anyhow::{Result, ensure};
use tests::server_everything;

use crate::conformance::{failures, scenario};
use tests::command::{bin, run};

/// An answers file in the temporary directory, removed when dropped.
pub struct AnswersFile(std::path::PathBuf);

impl AnswersFile {
    pub fn new(name: &str, json: &str) -> Result<Self> {
        let path = std::env::temp_dir().join(format!("mcp-playground-answers-{name}-{}.json", std::process::id()));
        std::fs::write(&path, json)?;
        Ok(Self(path))
    }

    pub fn path(&self) -> &str {
        self.0.to_str().unwrap_or_default()
    }
}

impl Drop for AnswersFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn without_answers_sampling_and_elicitation_are_declined_and_said() -> Result<()> {
    let entry = server_everything()?.to_string_lossy().into_owned();
    let r = run(&["call", "trigger-sampling-request", "--arg", "prompt=hi", "node", &entry, "stdio"])?;
    ensure!(r.code == 1 && r.stdout.contains("User rejected sampling request"), "{r}");
    ensure!(
        r.stderr.contains(
            "the server asked for a model's reply (sampling/createMessage); declined: run with --answers FILE to answer"
        ),
        "{r}"
    );
    let r = run(&["call", "trigger-elicitation-request", "node", &entry, "stdio"])?;
    ensure!(r.code == 0 && r.stdout.contains(r#""action": "decline""#), "{r}");
    ensure!(r.stderr.contains("asked for information (elicitation/create); declined: run with --answers"), "{r}");
    Ok(())
}

#[test]
fn answers_from_a_file_reach_the_server_in_order() -> Result<()> {
    let entry = server_everything()?.to_string_lossy().into_owned();
    let answers = AnswersFile::new(
        "everything",
        r#"{"sampling": ["Hello from a person", null],
            "elicitation": [{"action": "accept", "content": {"name": "Ann"}}, {"action": "cancel"}],
            "roots": ["file:///srv/project"]}"#,
    )?;
    let call = |tool: &str, args: &[&str]| {
        let mut argv = vec!["call", tool, "--answers", answers.path()];
        argv.extend_from_slice(args);
        argv.extend_from_slice(&["node", &entry, "stdio"]);
        run(&argv)
    };
    let r = call("trigger-sampling-request", &["--arg", "prompt=hi"])?;
    ensure!(r.code == 0 && r.stdout.contains("Hello from a person") && r.stdout.contains("mcp-playground-user"), "{r}");
    ensure!(r.stderr.contains("replied from"), "{r}");
    // Defaults are filled in for what the canned content leaves out (SEP-1034).
    let r = call("trigger-elicitation-request", &[])?;
    ensure!(r.code == 0 && r.stdout.contains("- Name: Ann") && r.stdout.contains("- Favorite Integer: 42"), "{r}");
    let r = call("get-roots-list", &[])?;
    ensure!(r.code == 0 && r.stdout.contains("file:///srv/project"), "{r}");
    // A broken file is refused before anything runs.
    let bad = AnswersFile::new("bad", r#"{"sampling": ["x"], "elicit": []}"#)?;
    let r = run(&["call", "echo", "--arg", "message=x", "--answers", bad.path(), "node", &entry, "stdio"])?;
    ensure!(r.code == 2 && r.stderr.contains("unknown field `elicit`"), "{r}");
    Ok(())
}

#[test]
fn conformance_elicitation_defaults() -> Result<()> {
    let answers = AnswersFile::new("sep1034", r#"{"elicitation": [{"action": "accept"}]}"#)?;
    let command = format!("{} call test_client_elicitation_defaults --answers {}", bin().display(), answers.path());
    let checks = scenario("elicitation-sep1034-client-defaults", &command)?;
    ensure!(failures(&checks).is_empty(), "{:#?}", failures(&checks));
    let judged =
        checks.iter().filter(|c| c["id"].as_str().is_some_and(|id| id.starts_with("client-elicitation-sep1034")));
    ensure!(judged.count() == 5, "every default was judged: {checks:#?}");
    Ok(())
}
