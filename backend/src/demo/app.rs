//! The demo server's App: `show_weather_chart` shows a seven-day forecast in an interactive
//! view (`ui://demo/weather-chart`, plain HTML and JavaScript written here), whose button
//! calls `refresh_forecast`, a tool for the view alone. Forecasts are made up, repeatable
//! for a city and a seed.

use rmcp::model::{
    CallToolResult, ContentBlock, MetaObject, ReadResourceResult, Resource, ResourceContents, Tool, ToolAnnotations,
    object,
};
use serde_json::{Value, json};

use super::args::Args;
use super::tools::ToolOutcome;

/// The view's resource.
pub(super) const VIEW_URI: &str = "ui://demo/weather-chart";
const VIEW: &str = include_str!("weather_chart.html");
const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// The App's two tools: the one a person calls, and the one its view calls.
pub(super) fn tools() -> Vec<Tool> {
    let input = |seed: bool| {
        let mut props = json!({"city": {"type": "string", "description": "Any city", "default": "Lisbon"}});
        if seed {
            props["seed"] = json!({"type": "integer", "minimum": 0, "description": "Another forecast for each seed"});
        }
        object(json!({"type": "object", "properties": props}))
    };
    let harmless = ToolAnnotations::new().read_only(true).open_world(false);
    let meta = |ui: Value| MetaObject(json!({"ui": ui}).as_object().cloned().unwrap_or_default());
    vec![
        Tool::new(
            "show_weather_chart",
            "Shows a seven-day forecast as an interactive chart (an MCP App).",
            input(false),
        )
        .with_title("Weather chart (App)")
        .with_annotations(harmless.clone())
        .with_meta(meta(json!({"resourceUri": VIEW_URI}))),
        Tool::new("refresh_forecast", "Another forecast for the chart; called by its view.", input(true))
            .with_title("Refresh the forecast")
            .with_annotations(harmless)
            .with_meta(meta(json!({"resourceUri": VIEW_URI, "visibility": ["app"]}))),
    ]
}

/// A made-up forecast for `city`, the same for the same seed.
fn forecast(city: &str, seed: u64) -> Value {
    let mut state = city.bytes().fold(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let days: Vec<Value> = DAYS
        .iter()
        .map(|day| {
            let temp = 8.0 + (next() % 220) as f64 / 10.0;
            let rain = (next() % 120) as f64 / 10.0;
            json!({"day": day, "temp_c": temp, "rain_mm": rain})
        })
        .collect();
    json!({"city": city, "days": days})
}

fn result(forecast: Value) -> CallToolResult {
    let city = forecast["city"].as_str().unwrap_or_default().to_owned();
    let temps: Vec<String> = forecast["days"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| format!("{} {:.0}°C", d["day"].as_str().unwrap_or("?"), d["temp_c"].as_f64().unwrap_or(0.0)))
        .collect();
    let mut r = CallToolResult::success(vec![ContentBlock::text(format!("Forecast for {city}: {}", temps.join(", ")))]);
    r.structured_content = Some(forecast);
    r
}

pub(super) fn show(args: &Args<'_>) -> ToolOutcome {
    let city = args.optional_str("city")?.unwrap_or("Lisbon");
    Ok(result(forecast(city, 0)))
}

pub(super) fn refresh(args: &Args<'_>) -> ToolOutcome {
    let city = args.optional_str("city")?.unwrap_or("Lisbon");
    let seed = args.int_in("seed", 0..=i64::MAX, 1)? as u64;
    Ok(result(forecast(city, seed)))
}

/// The view, as `resources/list` names it.
pub(super) fn resource() -> Resource {
    Resource::new(VIEW_URI, "weather-chart")
        .with_title("Weather chart view")
        .with_description("The interactive view of show_weather_chart")
        .with_mime_type(shared::apps::MIME)
}

/// The view's HTML, as `resources/read` gives it; `None` for any other URI.
pub(super) fn read(uri: &str) -> Option<ReadResourceResult> {
    (uri == VIEW_URI).then(|| {
        let meta = json!({"ui": {"prefersBorder": true}}).as_object().cloned().map(MetaObject);
        ReadResourceResult::new(vec![ResourceContents::TextResourceContents {
            uri: VIEW_URI.into(),
            mime_type: Some(shared::apps::MIME.into()),
            text: VIEW.into(),
            meta,
        }])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_is_a_resource_the_host_accepts_and_forecasts_repeat_by_seed() {
        let read = read(VIEW_URI).expect("the view");
        let contents: Vec<Value> = read.contents.iter().map(|c| serde_json::to_value(c).unwrap()).collect();
        let view = shared::apps::UiResource::read(VIEW_URI, &contents).expect("a view the host shows");
        assert!(view.html.contains("ui/initialize") && view.csp.is_none(), "no network, so no CSP to declare");
        assert!(read_other().is_none());
        assert_eq!(forecast("Porto", 3), forecast("Porto", 3));
        assert_ne!(forecast("Porto", 3), forecast("Porto", 4));
        assert_ne!(forecast("Porto", 0), forecast("Lisbon", 0));
        let days = forecast("Oslo", 9)["days"].as_array().unwrap().clone();
        assert_eq!(days.len(), 7);
        assert!(days.iter().all(|d| (8.0..30.0).contains(&d["temp_c"].as_f64().unwrap())));
        let tools = tools();
        assert!(shared::apps::app_only(&serde_json::from_value(serde_json::to_value(&tools[1]).unwrap()).unwrap()));
    }

    fn read_other() -> Option<ReadResourceResult> {
        read("ui://demo/other")
    }
}
