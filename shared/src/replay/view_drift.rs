//! App drift: how the App parts of a server differ between a recording and the live server.
//! Per tool, from the tool lists: its view added, removed or moved to another `ui://`
//! resource, and its visibility (a tool that becomes the view's only is gone for a model).
//! Per view, from the re-sent `resources/read` of its resource: the HTML changed
//! (compatible), its CSP, permissions or domain changed (breaking: the view may stop
//! working, or reach further), or the resource no longer reads (breaking).

use serde_json::Value;

use super::{Drift, DriftClass, ReplayRow, RowState};
use crate::apps::{self, Visibility};
use crate::mcp::Tool;

/// The App drift of each tool `r` (recorded) and `l` (live) of the same name.
pub(super) fn tool_view_drift(r: &Tool, l: &Tool, say: &mut impl FnMut(DriftClass, String)) {
    let (ru, lu) = (apps::tool_ui(r), apps::tool_ui(l));
    let uri = |u: &Option<apps::ToolUi>| u.as_ref().and_then(|u| u.resource_uri.clone());
    match (uri(&ru), uri(&lu)) {
        (Some(a), None) => say(DriftClass::Breaking, format!("App view removed (was {a})")),
        (None, Some(b)) => say(DriftClass::Compatible, format!("App view added ({b})")),
        (Some(a), Some(b)) if a != b => say(DriftClass::Compatible, format!("App view moved from {a} to {b}")),
        _ => {}
    }
    let vis = |u: &Option<apps::ToolUi>| u.as_ref().map_or(Visibility::DEFAULT, |u| u.visibility);
    let (rv, lv) = (vis(&ru), vis(&lu));
    if rv.model && !lv.model {
        say(DriftClass::Breaking, "now for the App's view only (hidden from the model)".into());
    } else if rv.app && !lv.app {
        say(DriftClass::Breaking, "no longer callable by the App's view".into());
    } else if rv != lv {
        say(DriftClass::Compatible, "visibility widened".into());
    }
}

/// The drift of each App view whose resource the recording read, by how its re-sent read
/// compares; named after the recorded tools that show it (or its URI when none does).
pub fn view_drift(recorded: &[Tool], rows: &[ReplayRow]) -> Vec<Drift> {
    let mut out = Vec::new();
    for row in rows.iter().filter(|r| r.method == "resources/read") {
        let Some(uri) = row.recorded.pointer("/result/contents/0/uri").and_then(Value::as_str) else { continue };
        if !uri.starts_with("ui://") {
            continue;
        }
        let what = match row.state {
            RowState::Same | RowState::Skipped => continue,
            RowState::Missing | RowState::Error => {
                (DriftClass::Breaking, format!("its App view's resource {uri} cannot be read live"))
            }
            RowState::Different if row.changes.iter().any(|c| c.pointer.contains("/_meta")) => {
                (DriftClass::Breaking, format!("its App view's CSP, permissions or domain changed ({uri})"))
            }
            RowState::Different => (DriftClass::Compatible, format!("its App view's resource changed ({uri})")),
        };
        let mut tools: Vec<&str> = recorded
            .iter()
            .filter(|t| apps::resource_uri(t).as_deref() == Some(uri))
            .map(|t| t.name.as_str())
            .collect();
        if tools.is_empty() {
            tools.push(uri);
        }
        out.extend(tools.into_iter().map(|t| Drift { tool: t.to_owned(), class: what.0, what: what.1.clone() }));
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::replay::{Change, ChangeKind, drift};

    fn tool(meta: Value) -> Tool {
        serde_json::from_value(json!({"name": "chart", "inputSchema": {"type": "object"}, "_meta": meta})).unwrap()
    }

    fn lines(d: &[Drift]) -> Vec<String> {
        d.iter().map(|d| format!("{:?} {}: {}", d.class, d.tool, d.what)).collect()
    }

    #[test]
    fn a_tools_view_and_visibility_drift_with_it() {
        let view = |uri: &str, vis: Value| tool(json!({"ui": {"resourceUri": uri, "visibility": vis}}));
        let a = view("ui://w/a.html", json!(["model", "app"]));
        let cases = [
            (tool(json!({})), "Breaking chart: App view removed (was ui://w/a.html)"),
            (
                view("ui://w/b.html", json!(["model", "app"])),
                "Compatible chart: App view moved from ui://w/a.html to ui://w/b.html",
            ),
            (
                view("ui://w/a.html", json!(["app"])),
                "Breaking chart: now for the App's view only (hidden from the model)",
            ),
            (view("ui://w/a.html", json!(["model"])), "Breaking chart: no longer callable by the App's view"),
        ];
        for (live, said) in cases {
            assert_eq!(lines(&drift(std::slice::from_ref(&a), &[live])), [said]);
        }
        assert_eq!(
            lines(&drift(&[tool(json!({}))], std::slice::from_ref(&a))),
            ["Compatible chart: App view added (ui://w/a.html)"]
        );
        // The deprecated flat key is the same view.
        let flat = tool(json!({"ui/resourceUri": "ui://w/a.html"}));
        assert!(drift(&[a], &[flat]).is_empty());
    }

    #[test]
    fn a_views_resource_drifts_by_its_re_sent_read() {
        let recorded = [tool(json!({"ui": {"resourceUri": "ui://w/a.html"}}))];
        let row = |state, pointer: &str| ReplayRow {
            index: 0,
            line: 2,
            method: "resources/read".into(),
            tool: None,
            state,
            changes: vec![Change { pointer: pointer.into(), kind: ChangeKind::Changed, recorded: None, live: None }],
            truncated: false,
            note: None,
            recorded: json!({"result": {"contents": [{"uri": "ui://w/a.html", "text": "<p>1</p>"}]}}),
            live: None,
        };
        let rows = [
            row(RowState::Different, "/result/contents/0/text"),
            row(RowState::Different, "/result/contents/0/_meta/ui/csp/connectDomains/0"),
            row(RowState::Error, ""),
            row(RowState::Same, ""),
        ];
        assert_eq!(
            lines(&view_drift(&recorded, &rows)),
            [
                "Compatible chart: its App view's resource changed (ui://w/a.html)",
                "Breaking chart: its App view's CSP, permissions or domain changed (ui://w/a.html)",
                "Breaking chart: its App view's resource ui://w/a.html cannot be read live",
            ]
        );
        assert_eq!(
            lines(&view_drift(&[], &rows[..1])),
            ["Compatible ui://w/a.html: its App view's resource changed (ui://w/a.html)"]
        );
    }
}
