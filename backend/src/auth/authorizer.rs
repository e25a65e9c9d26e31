//! One connection's sign-in: the [`Authorizer`] the remote transport asks for a token before
//! each request and hands every 401 and 403 to. Flows are one at a time: requests that were
//! refused together wait for the one sign-in, then go again with its token.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::Digest as _;
use shared::relay::{AuthExchange, AuthState, RelayEvent};

use super::challenge::{self, Challenge};
use super::discovery::{self, ResourceMeta, ServerMeta};
use super::exchange::{Basic, Exchanges, mask_url_query};
use super::register;
use super::store::{Registration, SignIn, Tokens};
use super::{APPROVAL_WAIT, Hub, Signing};
use crate::upstream::EventSender;

/// Fresh sign-ins a connection may need within [`WINDOW`] before it stops: a server that
/// refuses every token it is given must not send the person to approve forever.
const MAX_SIGN_INS: u32 = 3;
/// Scope step-ups within [`WINDOW`].
const MAX_STEP_UPS: u32 = 2;
const WINDOW: Duration = Duration::from_secs(300);
/// A token this close to its expiry is refreshed before it is used.
const EXPIRY_MARGIN_MS: u64 = 30_000;

/// Where a sign-in stopped and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub step: &'static str,
    pub message: String,
}

impl Failure {
    pub fn new(step: &'static str, message: impl std::fmt::Display) -> Self {
        Self { step, message: message.to_string() }
    }
}

/// Signing in failed, at a step, after the server refused a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "signing in failed at {step}: {message} (the server answered HTTP {status}{})",
    www.as_ref().map(|w| format!(", WWW-Authenticate: {w}")).unwrap_or_default()
)]
pub struct SignInFailed {
    pub step: &'static str,
    pub message: String,
    pub status: u16,
    /// The refusal's `WWW-Authenticate`, when it had one.
    pub www: Option<String>,
}

/// What signing in learnt, kept between its runs.
struct Memory {
    /// The authorization server of the current tokens.
    meta: Option<ServerMeta>,
    /// The scopes the last sign-in asked for.
    requested: Vec<String>,
    /// The token a refresh gave: refused too, it is not refreshed again.
    refreshed: Option<String>,
    sign_ins: u32,
    step_ups: u32,
    since: Instant,
}

/// Signs one connection in, and keeps its tokens fresh.
pub struct Authorizer {
    hub: Arc<Hub>,
    /// The MCP server's URL, as given.
    server: String,
    settings: shared::relay::OAuthSettings,
    exchanges: Exchanges,
    current: Mutex<Option<SignIn>>,
    memory: tokio::sync::Mutex<Memory>,
}

fn now_ms() -> u64 {
    crate::upstream::now_ms() as u64
}

fn random(bytes: usize) -> String {
    let mut b = vec![0u8; bytes];
    getrandom::fill(&mut b).expect("the operating system provides randomness");
    URL_SAFE_NO_PAD.encode(b)
}

/// The PKCE S256 challenge of `verifier`.
pub fn s256(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier.as_bytes()))
}

fn union(a: &[String], b: &[String]) -> Vec<String> {
    let mut all = a.to_vec();
    all.extend(b.iter().filter(|s| !a.contains(s)).cloned());
    all
}

impl Authorizer {
    /// The sign-in of a connection to `server`; a kept sign-in for it is used at once.
    pub fn new(signing: Signing, server: &str, events: EventSender) -> Self {
        let current = signing.hub.store.find(server);
        let exchanges = Exchanges { client: signing.hub.http.clone(), events };
        let memory = Memory {
            meta: None,
            requested: Vec::new(),
            refreshed: None,
            sign_ins: 0,
            step_ups: 0,
            since: Instant::now(),
        };
        Self {
            hub: signing.hub,
            server: server.trim().to_owned(),
            settings: signing.settings,
            exchanges,
            current: Mutex::new(current),
            memory: tokio::sync::Mutex::new(memory),
        }
    }

    /// Says so when a kept sign-in is in use.
    pub async fn announce(&self) {
        let current = self.current.lock().expect("auth lock").clone();
        if let Some(saved) = current {
            self.tell(signed_in(&saved)).await;
        }
    }

    /// The access token to send now, if any.
    pub fn bearer(&self) -> Option<String> {
        self.current.lock().expect("auth lock").as_ref().map(|s| s.tokens.access_token.clone())
    }

    /// The token to send, refreshed first when it is about to expire.
    pub async fn fresh(&self) -> Option<String> {
        let expiring = |s: &SignIn| {
            s.tokens.refresh_token.is_some() && s.tokens.expires_at_ms.is_some_and(|t| t <= now_ms() + EXPIRY_MARGIN_MS)
        };
        let due = self.current.lock().expect("auth lock").as_ref().is_some_and(expiring);
        if due {
            let mut memory = self.memory.lock().await;
            let still = self.current.lock().expect("auth lock").as_ref().is_some_and(expiring);
            if still {
                // A refresh that fails leaves the old token: its 401 starts a sign-in.
                let _ = self.refresh(&mut memory).await;
            }
        }
        self.bearer()
    }

    /// A request sent with `used` was refused with `status` (401 or 403) and this
    /// `WWW-Authenticate`: signs in (again), after which the request may go again. An error
    /// says why not, and the page has been told the step that failed.
    pub async fn challenged(&self, status: u16, www: Option<&str>, used: Option<&str>) -> Result<(), SignInFailed> {
        let mut memory = self.memory.lock().await;
        if self.bearer().as_deref() != used {
            // Another request signed in meanwhile: its token is the one to try.
            return Ok(());
        }
        if memory.since.elapsed() > WINDOW {
            (memory.sign_ins, memory.step_ups, memory.since) = (0, 0, Instant::now());
        }
        let ch = www.and_then(challenge::parse).unwrap_or_default();
        let result = if status == 403 {
            self.step_up(&mut memory, &ch).await
        } else {
            self.unauthorized(&mut memory, &ch, used).await
        };
        match result {
            Ok(()) => Ok(()),
            Err(f) => {
                self.tell(RelayEvent::Auth {
                    auth: AuthState::Failed { step: f.step.into(), message: f.message.clone() },
                })
                .await;
                Err(SignInFailed { step: f.step, message: f.message, status, www: www.map(str::to_owned) })
            }
        }
    }

    async fn unauthorized(&self, memory: &mut Memory, ch: &Challenge, used: Option<&str>) -> Result<(), Failure> {
        if let Some(used) = used {
            let can_refresh =
                self.current.lock().expect("auth lock").as_ref().is_some_and(|s| s.tokens.refresh_token.is_some());
            if can_refresh && memory.refreshed.as_deref() != Some(used) && self.refresh(memory).await.is_ok() {
                return Ok(());
            }
            *self.current.lock().expect("auth lock") = None;
        }
        if memory.sign_ins >= MAX_SIGN_INS {
            return Err(Failure::new(
                "authorization",
                format!("the server refused {MAX_SIGN_INS} fresh sign-ins in a row; stopped so as not to loop"),
            ));
        }
        memory.sign_ins += 1;
        self.sign_in(memory, ch, None).await
    }

    async fn step_up(&self, memory: &mut Memory, ch: &Challenge) -> Result<(), Failure> {
        if !ch.insufficient_scope() {
            let why =
                ch.error_description.as_deref().or(ch.error.as_deref()).map(|d| format!(": {d}")).unwrap_or_default();
            return Err(Failure::new("authorization", format!("the server refused access (HTTP 403){why}")));
        }
        let granted =
            self.current.lock().expect("auth lock").as_ref().map(|s| s.tokens.scopes.clone()).unwrap_or_default();
        let had = union(&memory.requested, &granted);
        let wanted = union(&had, &ch.scopes());
        if wanted.len() == had.len() || memory.step_ups >= MAX_STEP_UPS {
            let asked = ch.scope.as_deref().unwrap_or("(none named)");
            return Err(Failure::new(
                "scope step-up",
                format!(
                    "the server still asks for scope {asked} after the sign-in asked for {}; stopped so as not to loop",
                    memory.requested.join(" ")
                ),
            ));
        }
        memory.step_ups += 1;
        self.sign_in(memory, ch, Some(wanted)).await
    }

    /// Discovery, registration, approval and the token request, from the start.
    async fn sign_in(&self, memory: &mut Memory, ch: &Challenge, scopes: Option<Vec<String>>) -> Result<(), Failure> {
        self.step("discovery").await;
        let prm = self.resource_meta(ch).await?;
        if let Some(p) = &prm
            && !discovery::resource_covers(&p.resource, &self.server)
        {
            return Err(Failure::new(
                "discovery",
                format!(
                    "the server's metadata names the resource {}, which is not this server ({})",
                    p.resource, self.server
                ),
            ));
        }
        let issuer = match &prm {
            Some(p) => p
                .authorization_servers
                .first()
                .cloned()
                .ok_or_else(|| Failure::new("discovery", "the resource metadata names no authorization server"))?,
            None => discovery::origin(&self.server).map_err(|e| Failure::new("discovery", e))?,
        };
        let meta = self.server_meta(&issuer, prm.is_none()).await?;
        match &meta.code_challenge_methods_supported {
            Some(methods) if methods.iter().any(|m| m == "S256") => {}
            None if prm.is_none() => {}
            _ => {
                return Err(Failure::new(
                    "metadata",
                    "the authorization server does not say it supports PKCE with S256 (code_challenge_methods_supported); signing in without it is not safe",
                ));
            }
        }
        self.step("registration").await;
        let redirect = self.hub.redirect_uri().await.map_err(|e| Failure::new("registration", e))?;
        let client = register::client(
            &self.hub,
            &self.exchanges,
            &self.server,
            &meta,
            &redirect,
            self.settings.client_id.as_deref(),
        )
        .await?;
        let mut scopes = scopes.unwrap_or_else(|| {
            if !self.settings.scopes.is_empty() {
                self.settings.scopes.clone()
            } else if !ch.scopes().is_empty() {
                ch.scopes()
            } else {
                prm.as_ref().map(|p| p.scopes_supported.clone()).unwrap_or_default()
            }
        });
        if meta.scopes_supported.iter().any(|s| s == "offline_access") && !scopes.iter().any(|s| s == "offline_access")
        {
            scopes.push("offline_access".into());
        }
        let resource = prm.map(|p| p.resource).unwrap_or_else(|| self.server.clone());
        let (code, verifier) = self.approve(&meta, &client, &redirect, &resource, &scopes).await?;
        self.step("token").await;
        let fields = [
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", redirect.as_str()),
            ("code_verifier", verifier.as_str()),
            ("resource", resource.as_str()),
        ];
        let tokens = self.token_request("token", &meta, &client, &fields, &scopes).await?;
        let saved = SignIn { issuer: meta.issuer.clone(), resource, client, tokens };
        self.hub.store.put(saved.clone());
        *self.current.lock().expect("auth lock") = Some(saved.clone());
        memory.meta = Some(meta);
        memory.requested = scopes;
        memory.refreshed = None;
        self.tell(signed_in(&saved)).await;
        Ok(())
    }

    /// Sends the person to approve; returns the code and the PKCE verifier it goes with.
    async fn approve(
        &self,
        meta: &ServerMeta,
        client: &Registration,
        redirect: &str,
        resource: &str,
        scopes: &[String],
    ) -> Result<(String, String), Failure> {
        let verifier = random(48);
        let state = random(32);
        let mut url = url::Url::parse(&meta.authorization_endpoint)
            .map_err(|e| Failure::new("metadata", format!("the authorization endpoint is not a URL: {e}")))?;
        {
            let mut q = url.query_pairs_mut();
            q.append_pair("response_type", "code")
                .append_pair("client_id", &client.client_id)
                .append_pair("redirect_uri", redirect)
                .append_pair("code_challenge", &s256(&verifier))
                .append_pair("code_challenge_method", "S256")
                .append_pair("state", &state)
                .append_pair("resource", resource);
            if !scopes.is_empty() {
                q.append_pair("scope", &scopes.join(" "));
            }
        }
        let answer = self.hub.pending.wait(&state);
        let started = Instant::now();
        self.tell(RelayEvent::Auth { auth: AuthState::Approve { issuer: meta.issuer.clone(), url: url.to_string() } })
            .await;
        let callback = match tokio::time::timeout(APPROVAL_WAIT, answer).await {
            Ok(Ok(c)) => c,
            _ => {
                let minutes = APPROVAL_WAIT.as_secs() / 60;
                return Err(Failure::new("approval", format!("nobody approved within {minutes} min")));
            }
        };
        let shown = {
            let mut shown = url::form_urlencoded::Serializer::new(String::new());
            for (k, v) in [("code", &callback.code), ("iss", &callback.iss), ("error", &callback.error)] {
                if let Some(v) = v {
                    shown.append_pair(k, v);
                }
            }
            shown.finish()
        };
        let exchange = AuthExchange {
            step: "authorization".into(),
            method: "GET".into(),
            url: mask_url_query(&format!("{redirect}?{shown}")),
            status: Some(200),
            request: mask_url_query(url.as_str()),
            response: String::new(),
            ms: started.elapsed().as_millis() as u64,
        };
        self.tell(RelayEvent::AuthExchange { exchange }).await;
        if let Some(error) = &callback.error {
            let desc = callback.error_description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default();
            return Err(Failure::new("approval", format!("the authorization server answered {error}{desc}")));
        }
        match (&callback.iss, meta.iss_parameter_supported) {
            (Some(iss), _) if *iss != meta.issuer => {
                return Err(Failure::new(
                    "approval",
                    format!("the answer names issuer {iss}, not {} (RFC 9207): refused", meta.issuer),
                ));
            }
            (None, true) => {
                return Err(Failure::new(
                    "approval",
                    "the authorization server promises to name itself in its answer (RFC 9207) but did not: refused",
                ));
            }
            _ => {}
        }
        let code = callback.code.ok_or_else(|| Failure::new("approval", "the answer carried no code"))?;
        Ok((code, verifier))
    }

    /// Trades a refresh token for new tokens.
    async fn refresh(&self, memory: &mut Memory) -> Result<(), Failure> {
        let Some(saved) = self.current.lock().expect("auth lock").clone() else {
            return Err(Failure::new("refresh", "nothing to refresh"));
        };
        let Some(refresh_token) = saved.tokens.refresh_token.clone() else {
            return Err(Failure::new("refresh", "no refresh token"));
        };
        let meta = match &memory.meta {
            Some(m) if m.issuer == saved.issuer => m.clone(),
            _ => self.server_meta(&saved.issuer, false).await?,
        };
        let fields = [
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token.as_str()),
            ("resource", saved.resource.as_str()),
        ];
        let mut tokens = self.token_request("refresh", &meta, &saved.client, &fields, &saved.tokens.scopes).await?;
        if tokens.refresh_token.is_none() {
            tokens.refresh_token = Some(refresh_token);
        }
        memory.refreshed = Some(tokens.access_token.clone());
        let saved = SignIn { tokens, ..saved };
        self.hub.store.put(saved.clone());
        *self.current.lock().expect("auth lock") = Some(saved.clone());
        memory.meta = Some(meta);
        self.tell(signed_in(&saved)).await;
        Ok(())
    }

    async fn token_request(
        &self,
        step: &'static str,
        meta: &ServerMeta,
        client: &Registration,
        fields: &[(&str, &str)],
        asked: &[String],
    ) -> Result<Tokens, Failure> {
        let (fields, basic) = client_auth(client, fields);
        let answer = self
            .exchanges
            .post_form(step, &meta.token_endpoint, &fields, basic)
            .await
            .map_err(|e| Failure::new(step, e))?;
        if !answer.ok() {
            return Err(Failure::new(
                step,
                format!("the token endpoint refused (HTTP {}){}", answer.status, register::said(&answer.body)),
            ));
        }
        let v = answer.json().unwrap_or_default();
        let access_token = v["access_token"]
            .as_str()
            .filter(|t| !t.is_empty())
            .ok_or_else(|| Failure::new(step, "the token endpoint's answer has no access_token"))?;
        if let Some(kind) = v["token_type"].as_str().filter(|t| !t.eq_ignore_ascii_case("bearer")) {
            return Err(Failure::new(step, format!("the token is of type {kind}; only Bearer tokens are supported")));
        }
        let scopes = match v["scope"].as_str() {
            Some(s) => s.split_whitespace().map(str::to_owned).collect(),
            None => asked.to_vec(),
        };
        Ok(Tokens {
            access_token: access_token.to_owned(),
            refresh_token: v["refresh_token"].as_str().map(str::to_owned),
            expires_at_ms: v["expires_in"].as_u64().map(|s| now_ms() + s.saturating_mul(1000)),
            scopes,
        })
    }

    /// The protected resource metadata: where the challenge says, else at the well-known
    /// URLs; none when the server publishes none (a 2025-03-26 server).
    async fn resource_meta(&self, ch: &Challenge) -> Result<Option<ResourceMeta>, Failure> {
        let mut urls: Vec<String> = ch.resource_metadata.iter().cloned().collect();
        urls.extend(discovery::resource_meta_urls(&self.server).map_err(|e| Failure::new("discovery", e))?);
        urls.dedup();
        for url in urls {
            match self.exchanges.get("resource metadata", &url).await {
                Ok(a) if a.ok() => {
                    return ResourceMeta::read(&a.body)
                        .map(Some)
                        .map_err(|e| Failure::new("discovery", format!("the resource metadata at {url}: {e}")));
                }
                _ => continue,
            }
        }
        Ok(None)
    }

    /// The authorization server's metadata, its `issuer` checked (RFC 8414 §3.3). `guessed`:
    /// the issuer is the MCP server's origin, as a server without resource metadata implies.
    async fn server_meta(&self, issuer: &str, guessed: bool) -> Result<ServerMeta, Failure> {
        let urls = discovery::server_meta_urls(issuer).map_err(|e| Failure::new("metadata", e))?;
        for url in &urls {
            match self.exchanges.get("server metadata", url).await {
                Ok(a) if a.ok() => {
                    let meta = ServerMeta::read(&a.body)
                        .map_err(|e| Failure::new("metadata", format!("the metadata at {url}: {e}")))?;
                    if meta.issuer != issuer {
                        return Err(Failure::new(
                            "metadata",
                            format!(
                                "the metadata at {url} names issuer {}, not {issuer} (RFC 8414): refused",
                                meta.issuer
                            ),
                        ));
                    }
                    return Ok(meta);
                }
                _ => continue,
            }
        }
        if guessed {
            return Err(Failure::new(
                "discovery",
                "the server publishes no OAuth metadata (RFC 9728 or RFC 8414), so there is nothing to sign in to: it wants a token given another way, in an Authorization header",
            ));
        }
        Err(Failure::new("metadata", format!("no authorization server metadata at {}", urls.join(" or "))))
    }

    async fn step(&self, step: &str) {
        self.tell(RelayEvent::Auth { auth: AuthState::SigningIn { step: step.into() } }).await;
    }

    async fn tell(&self, event: RelayEvent) {
        self.exchanges.tell(event).await;
    }
}

/// A token request's form fields and Basic credentials for `client`. The `client_id` is in
/// the body whatever the method (RFC 6749 §3.2.1 lets a client identify itself so; the
/// Python SDK's authorization server requires it even beside Basic credentials); the secret
/// goes in the Authorization header (`client_secret_basic`) or the body (`client_secret_post`),
/// never both.
pub(super) fn client_auth<'a>(
    client: &'a Registration,
    fields: &[(&'a str, &'a str)],
) -> (Vec<(&'a str, &'a str)>, Option<Basic<'a>>) {
    let mut fields = fields.to_vec();
    fields.push(("client_id", &client.client_id));
    let secret = client.client_secret.as_deref();
    let basic = match (client.auth_method.as_str(), secret) {
        ("client_secret_basic", Some(secret)) => Some(Basic { id: &client.client_id, secret }),
        ("client_secret_post", Some(secret)) => {
            fields.push(("client_secret", secret));
            None
        }
        _ => None,
    };
    (fields, basic)
}

fn signed_in(saved: &SignIn) -> RelayEvent {
    RelayEvent::Auth {
        auth: AuthState::SignedIn {
            issuer: saved.issuer.clone(),
            scopes: saved.tokens.scopes.clone(),
            expires_at_ms: saved.tokens.expires_at_ms,
        },
    }
}
