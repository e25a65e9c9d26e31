//! The mock's transports over in-memory streams and the router called directly.

use std::sync::{Arc, Mutex};

use reqwest::StatusCode;
use shared::recording::{Mock, parse};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::{http, serve_stdio};

fn recording() -> super::Shared {
    let lines = [
        r#"{"format":"mcp-playground-recording","version":1,"started_at_ms":0,"recorded_by":"cli","relay_version":"0","target":{"transport":"demo"}}"#,
        r#"{"t":1,"dir":"out","frame":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\",\"_meta\":{\"progressToken\":\"p\"}}}"}"#,
        r#"{"t":2,"dir":"in","frame":"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"p\",\"progress\":1}}"}"#,
        r#"{"t":30,"dir":"in","frame":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}"}"#,
        r#"{"t":31,"dir":"out","frame":"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}"}"#,
        r#"{"t":32,"dir":"in","frame":"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[]}}"}"#,
    ];
    let text = lines.join("\n") + "\n";
    Arc::new(Mutex::new(Mock::new(&parse(&text).expect("a recording"))))
}

#[tokio::test]
async fn stdio_answers_each_line_and_ends_with_its_input() {
    let (mut client, server) = tokio::io::duplex(1024);
    let (read, write) = tokio::io::split(server);
    let serving = tokio::spawn(serve_stdio(recording(), read, write));
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"slow","_meta":{"progressToken":5}}}"#,
        "\n\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\nnot json\n",
    );
    client.write_all(input.as_bytes()).await.unwrap();
    client.shutdown().await.unwrap();
    let mut lines = BufReader::new(client).lines();
    let mut got = Vec::new();
    while let Some(line) = lines.next_line().await.unwrap() {
        got.push(line);
    }
    serving.await.unwrap().unwrap();
    got.sort();
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(got.iter().any(|l| l.contains(r#""progressToken":5"#)), "{got:?}");
    assert!(got.iter().any(|l| l.contains(r#""id":"a","result""#)), "{got:?}");
    assert!(got.iter().any(|l| l.contains("-32700")), "{got:?}");
}

/// The router served on a free loopback port; its `/mcp` URL.
async fn serve_router() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, http::router(recording())).await });
    format!("http://{addr}/mcp")
}

async fn post(url: &str, body: &str) -> (StatusCode, String, String) {
    let client = reqwest::Client::new();
    let response =
        client.post(url).header("content-type", "application/json").body(body.to_owned()).send().await.unwrap();
    let status = response.status();
    let kind = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (status, kind, response.text().await.unwrap())
}

#[tokio::test]
async fn http_answers_json_streams_notifications_and_accepts_notifications() {
    let app = serve_router().await;
    let (status, kind, body) = post(&app, r#"{"jsonrpc":"2.0","id":9,"method":"tools/list"}"#).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "application/json"));
    assert_eq!(body, r#"{"jsonrpc":"2.0","id":9,"result":{"tools":[]}}"#);

    let call =
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"q"}}}"#;
    let (status, kind, body) = post(&app, call).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "text/event-stream"));
    let data: Vec<&str> = body.lines().filter_map(|l| l.strip_prefix("data: ")).collect();
    assert_eq!(data.len(), 2, "{body}");
    assert!(data[0].contains(r#""progressToken":"q""#) && data[1].contains(r#""id":3"#), "{body}");

    let (status, _, _) = post(&app, r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let get = reqwest::get(&app).await.unwrap();
    assert_eq!(get.status(), StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn a_file_that_is_no_recording_is_refused() {
    let dir = std::env::temp_dir().join(format!("mock-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("x.jsonl");
    std::fs::write(&file, "{\"hello\":1}\n").unwrap();
    let e = super::load(&file).unwrap_err();
    assert!(e.to_string().contains("not a recording"), "{e}");
    let e = super::load(&dir.join("missing.jsonl")).unwrap_err();
    assert!(e.to_string().contains("cannot read"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}
