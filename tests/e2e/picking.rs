//! Picking another tool shows that tool's last result, or none; never the previous tool's
//! (issue 23, item 5).

use std::time::Duration;

use anyhow::{Result, ensure};
use tests::{Playground, eventually, page};

#[tokio::test]
async fn a_picked_tool_shows_its_own_last_result_or_none() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    ensure!(page::call_tool(&b, "echo", r#"{"message": "from echo"}"#).await? == "ok");
    let pick = |tool: &'static str| {
        let b = &b;
        async move {
            b.css(&format!("[data-testid=tool-item][data-tool-name=\"{tool}\"]")).await?.click().await?;
            b.css(&format!("[data-testid=tool-detail][data-tool-name=\"{tool}\"]")).await?;
            anyhow::Ok(())
        }
    };
    // Never called: no result, and not echo's.
    pick("get_weather").await?;
    ensure!(b.all("[data-testid=result-pane]").await?.is_empty(), "echo's result shows under get_weather");
    // Back to echo: its own result again.
    pick("echo").await?;
    let text = eventually(Duration::from_secs(5), "echo's result", || async {
        let panes = b.all("[data-testid=result-pane]").await?;
        Ok(match panes.first() {
            Some(p) => Some(p.text().await?),
            None => None,
        })
    })
    .await?;
    ensure!(text.contains("from echo"), "{text}");
    b.close().await?;
    Ok(())
}
