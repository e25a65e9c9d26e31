//! Why a remote server could not be reached, in the words a person uses: the connection
//! was refused, the host is unknown, TLS failed, no answer came in time. And the check the
//! relay makes before it calls a remote server connected: a name that does not resolve or a
//! port where nothing listens fails the connection there, before any `connected` event.

use std::error::Error as StdError;
use std::io::ErrorKind;
use std::time::Duration;

use url::Url;

use super::CONNECT_TIMEOUT;

/// `host:port` of `url`, as a person writes it.
fn place(url: &Url) -> String {
    let host = url.host_str().unwrap_or_default();
    match url.port_or_known_default() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    }
}

/// How a connection attempt failed.
enum Failure {
    Refused,
    UnknownHost(String),
    TimedOut,
    Tls(String),
    Other(String),
}

impl Failure {
    fn words(self, url: &Url) -> String {
        let place = place(url);
        let host = url.host_str().unwrap_or_default();
        match self {
            Failure::Refused => format!("connection refused at {place}"),
            Failure::UnknownHost(why) => format!("unknown host {host}: the name did not resolve ({why})"),
            Failure::TimedOut => {
                format!("no answer from {place} within {} s: the connection timed out", CONNECT_TIMEOUT.as_secs())
            }
            Failure::Tls(why) => format!("the TLS handshake with {place} failed: {why}"),
            Failure::Other(why) => format!("could not reach {place}: {why}"),
        }
    }
}

/// The innermost cause of `e`: what actually went wrong, without the layers' prefixes.
fn innermost<'e>(e: &'e (dyn StdError + 'static)) -> &'e (dyn StdError + 'static) {
    let mut cause = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause
}

fn of_io(e: &std::io::Error) -> Failure {
    match e.kind() {
        ErrorKind::ConnectionRefused => Failure::Refused,
        ErrorKind::TimedOut => Failure::TimedOut,
        _ => Failure::Other(e.to_string()),
    }
}

/// A failed request in plain words: which of refused, unknown host, TLS or timeout it was,
/// else what the innermost cause says.
pub(super) fn words(url: &Url, e: &reqwest::Error) -> String {
    let mut chain: Vec<&(dyn StdError + 'static)> = Vec::new();
    let mut cause: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(c) = cause {
        chain.push(c);
        cause = c.source();
    }
    let io = chain.iter().find_map(|c| c.downcast_ref::<std::io::Error>());
    let deepest = innermost(e).to_string();
    let failure =
        if let Some(io) = io.filter(|io| matches!(io.kind(), ErrorKind::ConnectionRefused | ErrorKind::TimedOut)) {
            of_io(io)
        } else if e.is_timeout() {
            Failure::TimedOut
        } else if chain.iter().any(|c| c.to_string().starts_with("dns error")) {
            Failure::UnknownHost(deepest)
        } else if e.is_connect() && url.scheme() == "https" {
            Failure::Tls(deepest)
        } else {
            Failure::Other(deepest)
        };
    failure.words(url)
}

/// Resolves the host of `url` and opens (then closes) a TCP connection to it, within the
/// connect timeout. Skipped when a proxy is configured: then the proxy is what is reached.
pub async fn check(url: &Url) -> Result<(), String> {
    if proxied() {
        return Ok(());
    }
    check_within(url, CONNECT_TIMEOUT).await
}

async fn check_within(url: &Url, limit: Duration) -> Result<(), String> {
    let Some(host) = url.host_str() else { return Ok(()) };
    let Some(port) = url.port_or_known_default() else { return Ok(()) };
    // A bracketed IPv6 literal resolves without its brackets.
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let attempt = async {
        let addrs: Vec<_> = match tokio::net::lookup_host((host, port)).await {
            Ok(addrs) => addrs.collect(),
            Err(e) => return Err(Failure::UnknownHost(innermost(&e).to_string())),
        };
        let mut last = Failure::UnknownHost("it has no address".into());
        for addr in addrs {
            match tokio::net::TcpStream::connect(addr).await {
                Ok(_) => return Ok(()),
                Err(e) => last = of_io(&e),
            }
        }
        Err(last)
    };
    match tokio::time::timeout(limit, attempt).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(failure)) => Err(failure.words(url)),
        Err(_) => Err(Failure::TimedOut.words(url)),
    }
}

/// Whether requests go through a proxy named in the environment (as reqwest reads it).
fn proxied() -> bool {
    ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"]
        .iter()
        .any(|k| std::env::var_os(k).is_some_and(|v| !v.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loopback port where nothing listens (bound, then let go).
    fn closed_port() -> u16 {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    }

    async fn failed_request(url: &str) -> String {
        let url = Url::parse(url).unwrap();
        let client = reqwest::Client::builder().connect_timeout(CONNECT_TIMEOUT).no_proxy().build().unwrap();
        let e = client.post(url.clone()).body("{}").send().await.unwrap_err();
        words(&url, &e)
    }

    #[tokio::test]
    async fn a_refused_connection_says_so_with_where() {
        let port = closed_port();
        let url = format!("http://127.0.0.1:{port}/mcp");
        assert_eq!(failed_request(&url).await, format!("connection refused at 127.0.0.1:{port}"));
        let checked = check_within(&Url::parse(&url).unwrap(), CONNECT_TIMEOUT).await;
        assert_eq!(checked, Err(format!("connection refused at 127.0.0.1:{port}")));
    }

    #[tokio::test]
    async fn an_unknown_host_says_the_name_did_not_resolve() {
        // `.invalid` never resolves (RFC 2606).
        let url = "http://no-such-host.invalid/mcp";
        let said = failed_request(url).await;
        assert!(said.starts_with("unknown host no-such-host.invalid: the name did not resolve ("), "{said}");
        let checked = check_within(&Url::parse(url).unwrap(), CONNECT_TIMEOUT).await.unwrap_err();
        assert!(checked.starts_with("unknown host no-such-host.invalid: the name did not resolve ("), "{checked}");
    }

    #[tokio::test]
    async fn tls_to_a_server_that_speaks_plain_http_names_the_handshake() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            while let Ok((mut s, _)) = listener.accept().await {
                let _ = s.write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n").await;
            }
        });
        let said = failed_request(&format!("https://127.0.0.1:{port}/mcp")).await;
        assert!(said.starts_with(&format!("the TLS handshake with 127.0.0.1:{port} failed: ")), "{said}");
        // The check is TCP only: it passes, and the first request says the rest.
        assert_eq!(
            check_within(&Url::parse(&format!("https://127.0.0.1:{port}/")).unwrap(), CONNECT_TIMEOUT).await,
            Ok(())
        );
    }

    #[tokio::test]
    async fn no_answer_in_time_is_a_timeout() {
        // A server that takes the connection and never says a word.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((s, _)) = listener.accept().await {
                held.push(s);
            }
        });
        let url = Url::parse(&format!("http://127.0.0.1:{port}/mcp")).unwrap();
        let client = reqwest::Client::builder().timeout(Duration::from_millis(100)).no_proxy().build().unwrap();
        let e = client.post(url.clone()).body("{}").send().await.unwrap_err();
        let said = words(&url, &e);
        assert!(said.starts_with(&format!("no answer from 127.0.0.1:{port} within ")), "{said}");
    }
}
