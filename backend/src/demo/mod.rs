//! The built-in demo MCP server: one tool for each kind of content and behaviour the
//! playground can show (text, image, audio, resources, structured output, tool errors,
//! destructive hints, progress and cancellation, and a tool list that changes), an MCP App
//! (an interactive chart, `app.rs`), and tools for every shape a result can take, broken
//! or hostile ones included.
//!
//! Built on `rmcp` with a hand-written [`ServerHandler`] so that every tool's JSON (raw
//! schemas, annotations, content items) is exactly what we wrote. Results that rmcp's
//! types cannot express are rewritten on their way out (see [`rewrite`]).

mod app;
mod args;
mod catalog;
mod media;
mod order;
mod rewrite;
mod shapes;
mod tools;

#[cfg(test)]
mod tests;

use std::{
    borrow::Cow,
    sync::atomic::{AtomicBool, Ordering},
};

use rmcp::{
    ErrorData, RoleServer, ServerHandler, ServiceExt,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListResourcesResult,
        ListToolsResult, PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
        ServerCapabilities, ServerConfig,
    },
    service::RequestContext,
};
use tokio::io::{AsyncRead, AsyncWrite};

use args::Args;

use crate::error::Error;

/// Runs the demo server over this process's stdin/stdout until stdin closes.
pub async fn run_stdio() -> crate::error::Result<()> {
    let (stdin, stdout) = rmcp::transport::stdio();
    serve(stdin, stdout).await
}

/// Buffer of the pipe between rmcp and [`rewrite::forward`].
const PIPE_BUFFER: usize = 256 * 1024;

/// Runs the demo server over any byte stream pair until `read` reaches end of file.
///
/// rmcp writes into a pipe rather than to `write`; a task forwards its output to `write`,
/// rewriting placeholder results, and ends when rmcp closes the pipe.
pub async fn serve<R, W>(read: R, write: W) -> crate::error::Result<()>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let (rmcp_output, forwarder_input) = tokio::io::duplex(PIPE_BUFFER);
    let forwarding = tokio::spawn(rewrite::forward(forwarder_input, write));
    let demo = |e: &dyn std::fmt::Display| Error::Demo(e.to_string());
    let running = DemoServer::default().serve((read, rmcp_output)).await.map_err(|e| demo(&e))?;
    let reason = running.waiting().await.map_err(|e| demo(&e))?;
    tracing::info!(?reason, "demo server stopped");
    forwarding.await.map_err(|e| demo(&e))?.map_err(|e| demo(&format!("could not forward its output: {e}")))?;
    Ok(())
}

/// The handler; rmcp shares one instance between all concurrent requests.
#[derive(Debug, Default)]
pub struct DemoServer {
    /// Whether `extra_tool` is currently listed (flipped by `toggle_extra_tool`).
    extra_enabled: AtomicBool,
}

impl DemoServer {
    /// Flips `extra_tool` in or out of the list, then tells the client to re-list.
    async fn toggle_extra_tool(&self, context: &RequestContext<RoleServer>) -> CallToolResult {
        let enabled = !self.extra_enabled.fetch_xor(true, Ordering::SeqCst);
        if let Err(error) = context.peer.notify_tool_list_changed().await {
            tracing::warn!(%error, "could not send notifications/tools/list_changed");
        }
        let text =
            if enabled { "extra_tool was added to the tool list" } else { "extra_tool was removed from the tool list" };
        CallToolResult::success(vec![ContentBlock::text(text)])
    }
}

impl ServerHandler for DemoServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder().enable_tools().enable_tool_list_changed().enable_resources().build(),
        )
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
        .with_server_info(
            Implementation::new("mcp-playground-demo", env!("CARGO_PKG_VERSION"))
                .with_title("MCP Playground demo server"),
        )
        .with_instructions(
            "A harmless demo server for trying out MCP clients. Each tool shows one feature: \
             echo (text), get_image, get_audio, get_resources, get_weather (structured output), \
             fail (tool errors), delete_everything (destructive hints; deletes nothing), \
             slow_task (progress and cancellation), submit_order (a nested input schema) and \
             toggle_extra_tool (list_changed). The get_annotated, get_unusual_content, \
             get_invalid_structured, get_missing_structured, get_legacy_result, get_large_image, \
             get_hostile_content, get_long_text and get_markdown tools return every shape a \
             result can take, including invalid and hostile ones. show_weather_chart is an MCP \
             App: its result comes with an interactive chart.",
        )
    }

    /// Only revisions with the `initialize` handshake: there `list_changed` is a plain
    /// notification, while 2026-07-28 would require `subscriptions/listen`.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::LATEST_WITH_INITIALIZE))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut tools = catalog::tools(self.extra_enabled.load(Ordering::SeqCst));
        // The App's tools before the one that comes and goes.
        let at = tools.iter().position(|t| t.name == catalog::EXTRA_TOOL).unwrap_or(tools.len());
        tools.splice(at..at, app::tools());
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![app::resource()]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match app::read(&request.uri) {
            Some(result) => Ok(result.into()),
            None => Err(ErrorData::resource_not_found(format!("no resource {}", request.uri), None)),
        }
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = Args::new(request.arguments.as_ref());
        let name = request.name.as_ref();
        tracing::debug!(tool = name, "demo tool called");
        if name == "fail" && args.flag("as_protocol_error") {
            let reason = args.optional_str("reason").ok().flatten().unwrap_or("no reason given");
            return Err(ErrorData::internal_error(
                format!("the tool failed on purpose: {reason}"),
                Some(serde_json::json!({"reason": reason})),
            ));
        }
        let outcome = match name {
            "echo" => tools::echo(&args),
            "get_image" => tools::get_image(&args),
            "get_audio" => tools::get_audio(&args),
            "get_resources" => tools::get_resources(),
            "get_weather" => tools::get_weather(&args),
            "fail" => tools::fail(&args),
            "delete_everything" => tools::delete_everything(&args),
            "slow_task" => tools::slow_task(&args, &context).await,
            "submit_order" => order::submit_order(request.arguments.as_ref()),
            "toggle_extra_tool" => Ok(self.toggle_extra_tool(&context).await),
            "get_annotated" => shapes::get_annotated(),
            "get_unusual_content" => shapes::get_unusual_content(),
            "get_invalid_structured" => shapes::get_invalid_structured(),
            "get_missing_structured" => shapes::get_missing_structured(),
            "get_legacy_result" => shapes::get_legacy_result(),
            "get_large_image" => shapes::get_large_image(&args),
            "get_hostile_content" => shapes::get_hostile_content(),
            "get_long_text" => shapes::get_long_text(&args),
            "get_markdown" => shapes::get_markdown(),
            "show_weather_chart" => app::show(&args),
            "refresh_forecast" => app::refresh(&args),
            catalog::EXTRA_TOOL if self.extra_enabled.load(Ordering::SeqCst) => {
                Ok(CallToolResult::success(vec![ContentBlock::text("extra tool called")]))
            }
            unknown => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool `{unknown}`; call tools/list to see the tools"),
                    None,
                ));
            }
        };
        let result = outcome.unwrap_or_else(|message| {
            tracing::debug!(tool = name, %message, "demo tool returned an error");
            CallToolResult::error(vec![ContentBlock::text(message)])
        });
        Ok(result.into())
    }
}
