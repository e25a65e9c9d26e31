//! The headless CLI signs in to a real OAuth-protected MCP server: the Python SDK's own
//! authorization and resource server (`tests/servers/python/oauth_server.py`), with
//! `tests/servers/approve.py` as `$BROWSER` standing in for the person who clicks Approve
//! (or Deny) on its page. Real processes only: dynamic registration, PKCE, the loopback
//! callback, the token request, `--remember`'s private file and the refresh of an expired
//! token, with no token, refresh token or code ever printed.

use std::collections::HashMap;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, ensure};
use serde_json::Value;
use tests::{NodeServer, root};

use tests::command::{Run, run_in};

/// What a person must never see printed: the server's access tokens, refresh tokens and
/// authorization codes.
const SECRET_PREFIXES: [&str; 3] = ["pyat_", "pyrt_", "pyac_"];

/// One test's server and its own folder: the server's log, the approvals made, and the
/// `XDG_STATE_HOME` the CLI runs with; removed (and the server ended) on drop.
struct Setup {
    server: NodeServer,
    dir: PathBuf,
}

impl Setup {
    fn new(name: &str, token_ttl: u32) -> Result<Self> {
        let dir = std::env::temp_dir().join(format!("mcp-playground-oauth-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("state"))?;
        let server = NodeServer::python_oauth(token_ttl, &dir.join("server.log"))?;
        Ok(Self { server, dir })
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.server.port)
    }

    fn state(&self) -> PathBuf {
        self.dir.join("state")
    }

    fn token_file(&self) -> PathBuf {
        self.state().join("mcp-playground/tokens.json")
    }

    /// `mcp-playground call whoami OPTIONS… URL` with approve.py as the browser (denying
    /// when `deny`), its approvals logged, and the test's own `XDG_STATE_HOME`.
    fn whoami(&self, options: &[&str], deny: bool) -> Result<Run> {
        let browser = format!("python3 {}", root().join("tests/servers/approve.py").display());
        let log = self.dir.join("approvals.log").display().to_string();
        let state = self.state().display().to_string();
        let url = self.url();
        let mut argv = vec!["call", "whoami"];
        argv.extend_from_slice(options);
        argv.push(&url);
        let action = if deny { "deny" } else { "approve" };
        let env = [
            ("BROWSER", browser.as_str()),
            ("APPROVE_LOG", log.as_str()),
            ("APPROVE_ACTION", action),
            ("XDG_STATE_HOME", state.as_str()),
        ];
        let r = run_in(&root(), &argv, &env)?;
        for secret in SECRET_PREFIXES {
            ensure!(!r.stdout.contains(secret) && !r.stderr.contains(secret), "{secret}… printed: {r}");
        }
        Ok(r)
    }

    /// The authorization URLs approve.py was given, in order: one per approval.
    fn approvals(&self) -> Result<Vec<String>> {
        match std::fs::read_to_string(self.dir.join("approvals.log")) {
            Ok(text) => Ok(text.lines().map(str::to_owned).collect()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(e.into()),
        }
    }

    /// The server's log lines that contain `what` (e.g. `POST /token 200`).
    fn logged(&self, what: &str) -> Result<usize> {
        let text = std::fs::read_to_string(self.dir.join("server.log"))?;
        Ok(text.lines().filter(|l| l.contains(what)).count())
    }

    /// Every access token the server issued so far expires now (the server's clock, moved).
    fn expire_tokens(&self) -> Result<()> {
        use std::io::{Read, Write};
        let mut conn = std::net::TcpStream::connect(("127.0.0.1", self.server.port))?;
        let request =
            "POST /test/expire-tokens HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        conn.write_all(request.as_bytes())?;
        let mut answer = String::new();
        conn.read_to_string(&mut answer)?;
        ensure!(answer.starts_with("HTTP/1.1 204"), "the server did not expire its tokens: {answer}");
        Ok(())
    }

    /// Rewrites the kept sign-in's tokens with `change`.
    fn edit_kept_tokens(&self, change: impl FnOnce(&mut serde_json::Map<String, Value>)) -> Result<()> {
        let mut file: Value = serde_json::from_str(&std::fs::read_to_string(self.token_file())?)?;
        change(file["signed_in"][0]["tokens"].as_object_mut().context("tokens")?);
        std::fs::write(self.token_file(), serde_json::to_string(&file)?)?;
        Ok(())
    }

    /// The one sign-in kept in the token file.
    fn kept(&self) -> Result<Value> {
        let file = self.token_file();
        let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
        let v: Value = serde_json::from_str(&text)?;
        let signed_in = v["signed_in"].as_array().context("no signed_in list")?;
        ensure!(signed_in.len() == 1, "one sign-in kept: {v:#}");
        Ok(signed_in[0].clone())
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The query of a URL as a map.
fn query(url: &str) -> Result<HashMap<String, String>> {
    Ok(url::Url::parse(url)?.query_pairs().into_owned().collect())
}

/// The client id `whoami` reports (the one the token was issued to).
fn client_of(r: &Run) -> Result<String> {
    let line =
        r.stdout.lines().find(|l| l.starts_with("client_id=")).with_context(|| format!("no whoami line: {r}"))?;
    let id = line.trim_start_matches("client_id=").split_whitespace().next().unwrap_or_default();
    Ok(id.to_owned())
}

fn mode(path: &Path) -> Result<u32> {
    Ok(std::fs::metadata(path).with_context(|| format!("{}", path.display()))?.permissions().mode() & 0o777)
}

#[test]
fn the_cli_signs_in_with_dynamic_registration_at_both_revisions() -> Result<()> {
    // The SDK (mcp 2.3) answers server/discover: auto settles on 2026-07-28.
    for (protocol, said) in [
        ("auto", "protocol 2026-07-28 (the server answered server/discover)"),
        ("2025-11-25", "protocol 2025-11-25 (pinned)"),
    ] {
        let s = Setup::new(&format!("both-{protocol}"), 3600)?;
        let r = s.whoami(&["--protocol", protocol], false)?;
        ensure!(r.code == 0 && r.stdout.contains("scopes=mcp:tools") && r.stderr.contains(said), "{protocol}: {r}");
        let approvals = s.approvals()?;
        ensure!(approvals.len() == 1, "{protocol}: approved once: {approvals:?}");
        // The token is the one of the client registered for this sign-in (RFC 7591).
        ensure!(s.logged("POST /register 201")? == 1, "{protocol}: registered once");
        let asked = query(&approvals[0])?;
        ensure!(asked.get("client_id") == Some(&client_of(&r)?), "{protocol}: {asked:?} / {r}");
        ensure!(
            s.logged("POST /token 200")? >= 1 && s.logged("POST /mcp 401")? == 1,
            "{protocol}: one refusal, then tokens"
        );
        // Without --remember, nothing is written under XDG_STATE_HOME.
        let written: Vec<_> = std::fs::read_dir(s.state())?.collect();
        ensure!(written.is_empty(), "{protocol}: nothing kept without --remember: {written:?}");
    }
    Ok(())
}

#[test]
fn a_denied_approval_fails_at_the_approval_step_with_access_denied() -> Result<()> {
    let s = Setup::new("deny", 3600)?;
    let r = s.whoami(&[], true)?;
    ensure!(r.code != 0 && !r.stdout.contains("client_id="), "{r}");
    ensure!(
        r.stderr.contains("signing in failed at approval") && r.stderr.contains("access_denied"),
        "the failed step and the server's error are named: {r}"
    );
    ensure!(s.approvals()?.len() == 1, "asked once, not again");
    ensure!(s.logged("POST /deny 302")? == 1 && s.logged("POST /token")? == 0, "no token request after a denial");
    Ok(())
}

#[test]
fn remember_keeps_the_sign_in_in_a_private_file_and_the_next_run_needs_no_approval() -> Result<()> {
    let s = Setup::new("remember", 3600)?;
    let r = s.whoami(&["--remember"], false)?;
    ensure!(r.code == 0 && r.stdout.contains("scopes=mcp:tools"), "{r}");
    ensure!(s.approvals()?.len() == 1, "approved once");
    let file = s.token_file();
    ensure!(mode(&file)? == 0o600, "the token file is the user's only: {:o}", mode(&file)?);
    let folder = file.parent().context("a folder")?;
    ensure!(mode(folder)? == 0o700, "its folder too: {:o}", mode(folder)?);
    let kept = s.kept()?;
    ensure!(kept["resource"] == s.url().as_str(), "{kept:#}");
    ensure!(kept["tokens"]["access_token"].as_str().is_some_and(|t| t.starts_with("pyat_")), "{kept:#}");
    ensure!(kept["tokens"]["refresh_token"].as_str().is_some_and(|t| t.starts_with("pyrt_")), "{kept:#}");
    ensure!(kept["client"]["client_id"] == client_of(&r)?.as_str(), "{kept:#}");

    // A second run uses what was kept: same client, no approval, no registration, no token request.
    let tokens = s.logged("POST /token")?;
    let again = s.whoami(&["--remember"], false)?;
    ensure!(again.code == 0 && client_of(&again)? == client_of(&r)?, "{again}");
    ensure!(s.approvals()?.len() == 1, "no second approval: {:?}", s.approvals()?);
    ensure!(s.logged("POST /register")? == 1 && s.logged("POST /token")? == tokens, "nothing asked of the AS again");
    ensure!(s.kept()? == kept, "the file is unchanged");
    ensure!(mode(&file)? == 0o600, "still private after being written again");
    Ok(())
}

#[test]
fn an_expired_remembered_token_is_refreshed_without_approval() -> Result<()> {
    let s = Setup::new("refresh", 3600)?;
    let r = s.whoami(&["--remember"], false)?;
    ensure!(r.code == 0 && r.stdout.contains("scopes=mcp:tools"), "{r}");
    ensure!(s.approvals()?.len() == 1, "approved once");
    let first = s.kept()?;

    // The access token expires, on the server's side and by the kept expiry alike.
    s.expire_tokens()?;
    s.edit_kept_tokens(|t| {
        t.insert("expires_at_ms".into(), 1.into());
    })?;
    let refreshes = s.logged("POST /token 200")?;
    let r = s.whoami(&["--remember"], false)?;
    ensure!(r.code == 0 && client_of(&r)? == first["client"]["client_id"].as_str().unwrap_or_default(), "{r}");
    ensure!(s.approvals()?.len() == 1, "refreshed, not approved again: {:?}", s.approvals()?);
    ensure!(s.logged("POST /token 200")? > refreshes && s.logged("POST /register")? == 1, "a refresh, no new client");
    let second = s.kept()?;
    ensure!(second["tokens"]["access_token"] != first["tokens"]["access_token"], "a new access token kept");
    ensure!(second["tokens"]["refresh_token"] != first["tokens"]["refresh_token"], "the rotated refresh token kept");

    // Not knowing when it expires, the CLI sends the expired token, is refused (401) and
    // refreshes then: the other way to the same end.
    s.edit_kept_tokens(|t| {
        t.remove("expires_at_ms");
    })?;
    s.expire_tokens()?;
    let refused = s.logged("POST /mcp 401")?;
    let r = s.whoami(&["--remember"], false)?;
    ensure!(r.code == 0 && r.stdout.contains("scopes=mcp:tools"), "{r}");
    ensure!(s.logged("POST /mcp 401")? == refused + 1, "the expired token was sent and refused once");
    ensure!(s.approvals()?.len() == 1, "refreshed after the 401, not approved again");
    let third = s.kept()?;
    ensure!(third["tokens"]["access_token"] != second["tokens"]["access_token"], "{third:#}");
    Ok(())
}

#[test]
fn the_authorization_request_carries_the_scope_the_resource_and_pkce_s256() -> Result<()> {
    let s = Setup::new("scope", 3600)?;
    let r = s.whoami(&["--scope", "mcp:tools"], false)?;
    ensure!(r.code == 0 && r.stdout.contains("scopes=mcp:tools"), "{r}");
    let approvals = s.approvals()?;
    ensure!(approvals.len() == 1, "{approvals:?}");
    let url = &approvals[0];
    ensure!(url.starts_with(&format!("http://127.0.0.1:{}/authorize?", s.server.port)), "{url}");
    let q = query(url)?;
    let is = |k: &str, v: &str| q.get(k).map(String::as_str) == Some(v);
    ensure!(is("scope", "mcp:tools"), "the scope asked for: {q:?}");
    ensure!(is("resource", &s.url()), "RFC 8707 resource: {q:?}");
    ensure!(is("code_challenge_method", "S256") && is("response_type", "code"), "{q:?}");
    // A SHA-256 digest in base64url without padding; 32 random bytes of state likewise.
    ensure!(q.get("code_challenge").is_some_and(|c| c.len() == 43), "{q:?}");
    ensure!(q.get("state").is_some_and(|st| st.len() == 43), "{q:?}");
    let redirect = q.get("redirect_uri").context("no redirect_uri")?;
    ensure!(
        redirect.starts_with("http://127.0.0.1:") && redirect.ends_with("/callback"),
        "a loopback callback: {redirect}"
    );
    Ok(())
}
