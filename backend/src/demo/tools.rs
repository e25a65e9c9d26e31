//! What each demo tool does once its arguments are read.
//!
//! `Err(message)` is a tool error: the caller turns it into `isError: true`.

use std::time::Duration;

use base64::{Engine, engine::general_purpose::STANDARD as BASE64};
use rmcp::{
    RoleServer,
    model::{CallToolResult, ContentBlock, ProgressNotificationParam, Resource, ResourceContents},
    service::RequestContext,
};
use serde_json::json;

use super::{args::Args, media};

pub(super) type ToolOutcome = Result<CallToolResult, String>;

pub(super) fn echo(args: &Args<'_>) -> ToolOutcome {
    let message = args.required_str("message")?;
    Ok(CallToolResult::success(vec![ContentBlock::text(message)]))
}

pub(super) fn get_image(args: &Args<'_>) -> ToolOutcome {
    let width = args.int_in("width", 8..=512, 96)? as u32;
    let height = args.int_in("height", 8..=512, 96)? as u32;
    let png = media::png_pattern(width, height).map_err(|error| format!("could not encode the image: {error}"))?;
    Ok(CallToolResult::success(vec![
        ContentBlock::image(BASE64.encode(&png), "image/png"),
        ContentBlock::text(format!("a {width}×{height} PNG ({} bytes): a hue gradient with rings", png.len())),
    ]))
}

pub(super) fn get_audio(args: &Args<'_>) -> ToolOutcome {
    let frequency = args.number_in("frequency", 50.0..=4000.0, 440.0)?;
    let duration_ms = args.int_in("duration_ms", 100..=5000, 800)? as u32;
    let wav = media::wav_tone(frequency as f32, duration_ms);
    Ok(CallToolResult::success(vec![
        ContentBlock::audio(BASE64.encode(&wav), "audio/wav"),
        ContentBlock::text(format!(
            "a {frequency} Hz sine tone, {duration_ms} ms, 16-bit mono WAV at {} Hz",
            media::SAMPLE_RATE
        )),
    ]))
}

const README: &str = "# Demo notes\n\nThis resource only exists as a link in a tool result.\n";

pub(super) fn get_resources() -> ToolOutcome {
    let link = Resource::new("demo://notes/readme.md", "readme.md")
        .with_title("Demo notes")
        .with_description("A short markdown note, returned as a link only")
        .with_mime_type("text/markdown")
        .with_size(README.len() as u64);
    let config = json!({"theme": "dark", "retries": 3, "features": ["images", "audio"]});
    let config_text =
        serde_json::to_string_pretty(&config).map_err(|error| format!("could not serialize the config: {error}"))?;
    let blob: [u8; 12] = [0x00, 0x01, 0x02, 0x03, 0xDE, 0xAD, 0xBE, 0xEF, 0xCA, 0xFE, 0xFF, 0x7F];
    Ok(CallToolResult::success(vec![
        ContentBlock::resource_link(link),
        ContentBlock::resource(
            ResourceContents::text(config_text, "demo://config.json").with_mime_type("application/json"),
        ),
        ContentBlock::resource(
            ResourceContents::blob(BASE64.encode(blob), "demo://blob.bin").with_mime_type("application/octet-stream"),
        ),
    ]))
}

pub(super) fn get_weather(args: &Args<'_>) -> ToolOutcome {
    let city = args.required_str("city")?;
    let report = weather(city);
    // The spec asks tools with structured output to repeat it as text for older clients.
    let text = serde_json::to_string(&report).map_err(|error| format!("could not serialize the report: {error}"))?;
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(report);
    Ok(result)
}

/// Made-up weather, stable for a given city name (FNV-1a, which unlike std's hasher is
/// the same on every run and every Rust version).
fn weather(city: &str) -> serde_json::Value {
    let hash = city
        .trim()
        .to_lowercase()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3));
    const CONDITIONS: [&str; 5] = ["sunny", "partly cloudy", "overcast", "light rain", "windy"];
    let temperature = -10.0 + (hash % 450) as f64 / 10.0;
    json!({
        "city": city,
        "temperature": temperature,
        "conditions": CONDITIONS[((hash >> 16) % CONDITIONS.len() as u64) as usize],
        "humidity": (hash >> 32) % 101,
    })
}

pub(super) fn fail(args: &Args<'_>) -> ToolOutcome {
    let reason = args.optional_str("reason")?.unwrap_or("no reason given");
    Err(format!("the tool failed on purpose: {reason}"))
}

pub(super) fn delete_everything(args: &Args<'_>) -> ToolOutcome {
    let phrase = args.required_str("confirm_phrase")?;
    Ok(CallToolResult::success(vec![ContentBlock::text(format!(
        "nothing was deleted (confirm phrase {phrase:?}); for real this would have removed \
         every file, every database table and every backup"
    ))]))
}

pub(super) async fn slow_task(args: &Args<'_>, context: &RequestContext<RoleServer>) -> ToolOutcome {
    let steps = args.int_in("steps", 1..=50, 5)?;
    let delay = Duration::from_millis(args.int_in("delay_ms", 0..=5000, 500)? as u64);
    let progress_token = context.meta.get_progress_token();
    for step in 1..=steps {
        tokio::select! {
            biased;
            () = context.ct.cancelled() => {
                tracing::info!(step, steps, "slow_task cancelled");
                return Err(format!("cancelled before step {step} of {steps}"));
            }
            () = tokio::time::sleep(delay) => {}
        }
        if let Some(token) = &progress_token {
            let progress = ProgressNotificationParam::new(token.clone(), step as f64)
                .with_total(steps as f64)
                .with_message(format!("step {step} of {steps}"));
            if let Err(error) = context.peer.notify_progress(progress).await {
                tracing::warn!(%error, "could not send a progress notification");
            }
        }
    }
    Ok(CallToolResult::success(vec![ContentBlock::text(format!("done after {steps} steps"))]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weather_is_repeatable_and_in_range() {
        let lisbon = weather("Lisbon");
        let trimmed = weather(" lisbon ");
        for field in ["temperature", "conditions", "humidity"] {
            assert_eq!(lisbon[field], trimmed[field]);
        }
        assert_ne!(lisbon["temperature"], weather("Oslo")["temperature"]);
        for city in ["", "Lisbon", "Tokyo", "東京", "Reykjavík"] {
            let report = weather(city);
            let humidity = report["humidity"].as_u64().unwrap();
            let temperature = report["temperature"].as_f64().unwrap();
            assert!(humidity <= 100, "{report}");
            assert!((-10.0..=35.0).contains(&temperature), "{report}");
        }
    }
}
