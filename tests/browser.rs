//! Headless Chromium through chromedriver (both from Debian), driven with fantoccini, and
//! helpers that address the page only through its `data-testid` hooks.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

/// How long a test waits for the page to show something.
pub const PATIENCE: Duration = Duration::from_secs(20);

fn tool(env: &str, default: &str) -> Result<String> {
    let path = std::env::var(env).unwrap_or_else(|_| default.to_owned());
    if !std::path::Path::new(&path).is_file() {
        bail!("{path} is missing: install Debian's chromium and chromium-driver (cargo xtask test does)");
    }
    Ok(path)
}

/// chromedriver and the Chromium it starts (one process group), ended on drop: also when
/// a test fails before its browser session exists.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let pgid = nix::unistd::Pid::from_raw(self.0.id() as i32);
        let _ = nix::sys::signal::killpg(pgid, nix::sys::signal::Signal::SIGKILL);
        let _ = self.0.wait();
    }
}

/// A browser session; chromedriver and the profile folder go away on drop.
pub struct Browser {
    _driver: Driver,
    profile: PathBuf,
    pub client: Client,
}

impl Browser {
    pub async fn start() -> Result<Self> {
        Self::start_with(&[], false).await
    }

    /// A browser with extra Chromium flags; with `eager_goto`, `goto` returns as soon as
    /// navigation starts (page load strategy `none`), so a caller can time the load itself.
    pub async fn start_with(extra_args: &[&str], eager_goto: bool) -> Result<Self> {
        let chromium = tool("CHROME_BIN", "/usr/bin/chromium")?;
        let chromedriver = tool("CHROMEDRIVER", "/usr/bin/chromedriver")?;
        // Port 0: chromedriver picks a free port and says which, so none is guessed.
        let mut cmd = Command::new(chromedriver);
        cmd.arg("--port=0").stdout(Stdio::piped()).stderr(Stdio::null()).stdin(Stdio::null());
        // Its own process group, so that Chromium goes down with it even if a test fails.
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        #[allow(clippy::disallowed_methods, reason = "tests start chromedriver")]
        let mut driver = Driver(cmd.spawn().context("starting chromedriver")?);
        let stdout = crate::lines(driver.0.stdout.take().expect("piped"));
        // "ChromeDriver was started successfully on port 39523."
        let port = crate::first_line(&stdout, Duration::from_secs(30), |l| {
            l.split_once("started successfully on port ")?.1.trim_end_matches('.').trim().parse::<u16>().ok()
        })
        .context("chromedriver did not say its port within 30 s")?;

        let profile = std::env::temp_dir().join(format!("mcp-playground-e2e-{}-{port}", std::process::id()));
        let mut caps = serde_json::Map::new();
        let mut args = vec![
            "--headless=new".to_owned(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            "--window-size=1440,900".into(),
            "--autoplay-policy=no-user-gesture-required".into(),
            format!("--user-data-dir={}", profile.display()),
        ];
        args.extend(extra_args.iter().map(|a| a.to_string()));
        let downloads = profile.join("downloads");
        let prefs = json!({
            "download.default_directory": downloads,
            "download.prompt_for_download": false,
            "download.directory_upgrade": true,
        });
        caps.insert("goog:chromeOptions".into(), json!({"binary": chromium, "args": args, "prefs": prefs}));
        if eager_goto {
            caps.insert("pageLoadStrategy".into(), json!("none"));
        }
        // With several TLS backends in one build, rustls needs to be told which to use.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = ClientBuilder::rustls()?
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .context("opening a Chromium session")?;
        Ok(Self { _driver: driver, profile, client })
    }

    /// The element with this test id, once it exists.
    pub async fn id(&self, testid: &str) -> Result<Element> {
        self.css(&format!("[data-testid=\"{testid}\"]")).await
    }

    /// The first element matching `css`, once it exists.
    pub async fn css(&self, css: &str) -> Result<Element> {
        self.client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css(css))
            .await
            .with_context(|| format!("no element {css} within {PATIENCE:?}"))
    }

    /// All elements matching `css` now.
    pub async fn all(&self, css: &str) -> Result<Vec<Element>> {
        Ok(self.client.find_all(Locator::Css(css)).await?)
    }

    /// Waits until an element matching `css` exists and returns it.
    pub async fn wait_for(&self, css: &str) -> Result<Element> {
        self.css(css).await
    }

    /// Sets an input's or textarea's value as typing would, firing `input` and `change`.
    pub async fn set_value(&self, el: &Element, value: &str) -> Result<()> {
        let script = "const [el, v] = arguments; el.focus(); el.value = v; \
            el.dispatchEvent(new Event('input', {bubbles: true})); \
            el.dispatchEvent(new Event('change', {bubbles: true}));";
        self.client.execute(script, vec![serde_json::to_value(el)?, json!(value)]).await?;
        Ok(())
    }

    /// Runs `source` in every document this browser opens from now on, before the page's
    /// own scripts (the DevTools protocol's `Page.addScriptToEvaluateOnNewDocument`).
    pub async fn on_new_document(&self, source: &str) -> Result<()> {
        let params = json!({"source": source});
        self.client
            .issue_cmd(Cdp { cmd: "Page.addScriptToEvaluateOnNewDocument", params })
            .await
            .context("chromedriver refused a DevTools command")?;
        Ok(())
    }

    /// Makes the page's `prefers-color-scheme` dark (DevTools `Emulation.setEmulatedMedia`).
    pub async fn prefer_dark(&self) -> Result<()> {
        let params = json!({"features": [{"name": "prefers-color-scheme", "value": "dark"}]});
        self.cdp("Emulation.setEmulatedMedia", params).await?;
        Ok(())
    }

    /// Fails every request whose URL matches one of `patterns` (`*` matches anything), as a
    /// network that lost them would (DevTools `Network.setBlockedURLs`).
    pub async fn block_urls(&self, patterns: &[&str]) -> Result<()> {
        self.cdp("Network.enable", json!({})).await?;
        self.cdp("Network.setBlockedURLs", json!({"urls": patterns})).await?;
        Ok(())
    }

    /// Every URL of this tab's history, oldest first (DevTools `Page.getNavigationHistory`).
    pub async fn history(&self) -> Result<Vec<String>> {
        let history = self.cdp("Page.getNavigationHistory", json!({})).await?;
        let entries = history["entries"].as_array().context("no history entries")?;
        Ok(entries.iter().filter_map(|e| e["url"].as_str().map(str::to_owned)).collect())
    }

    /// Sends one DevTools command to this tab and returns its answer.
    pub async fn cdp(&self, cmd: &'static str, params: serde_json::Value) -> Result<serde_json::Value> {
        self.client.issue_cmd(Cdp { cmd, params }).await.context("chromedriver refused a DevTools command")
    }

    /// Sends DevTools `Browser.setDownloadBehavior` so downloads land in the profile's `downloads`
    /// (headless Chromium needs telling), then returns that folder.
    pub async fn allow_downloads(&self) -> Result<PathBuf> {
        let dir = self.profile.join("downloads");
        std::fs::create_dir_all(&dir)?;
        let params = json!({"behavior": "allow", "downloadPath": dir});
        self.client
            .issue_cmd(Cdp { cmd: "Browser.setDownloadBehavior", params })
            .await
            .context("chromedriver refused a DevTools command")?;
        Ok(dir)
    }

    /// The one finished download whose name ends with `suffix`, once it is whole: Chromium
    /// may create the file under its final name before it writes it (an empty file was read
    /// once), so it counts when it is not empty, nothing is still downloading, and its size
    /// held between two looks.
    pub async fn downloaded(&self, suffix: &str) -> Result<PathBuf> {
        let dir = self.profile.join("downloads");
        let last = std::cell::Cell::new((None::<PathBuf>, 0u64));
        crate::eventually(Duration::from_secs(20), "the download", || async {
            let entries: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            if entries.iter().any(|p| p.to_string_lossy().ends_with(".crdownload")) {
                return Ok(None);
            }
            let Some(found) = entries.into_iter().find(|p| p.to_string_lossy().ends_with(suffix)) else {
                return Ok(None);
            };
            let size = std::fs::metadata(&found).map(|m| m.len()).unwrap_or(0);
            let seen = last.replace((Some(found.clone()), size));
            Ok((size > 0 && seen == (Some(found.clone()), size)).then_some(found))
        })
        .await
    }

    /// Saves a screenshot under `target/e2e/NAME.png`.
    pub async fn screenshot(&self, name: &str) -> Result<PathBuf> {
        let png = self.client.screenshot().await?;
        let path = crate::artifacts().join(format!("{name}.png"));
        std::fs::write(&path, png)?;
        Ok(path)
    }

    /// Ends the WebDriver session (Chromium quits); drop ends chromedriver.
    pub async fn close(self) -> Result<()> {
        self.client.clone().close().await.context("closing the browser")?;
        Ok(())
    }
}

/// A DevTools protocol command through chromedriver's `goog/cdp/execute`.
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: serde_json::Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(json!({"cmd": self.cmd, "params": self.params}).to_string()))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
