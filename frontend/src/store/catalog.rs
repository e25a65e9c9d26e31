//! The Resources and Prompts views: which view is shown, what is picked, the forms of a
//! template's variables and a prompt's arguments (completed as a person types), and the
//! actions on the session. Where the person was is remembered per server.

use std::collections::BTreeMap;

use leptos::prelude::*;
use serde_json::{Map, Value};
use shared::catalog::{Activity, Catalog, Field, ListKind, Target, uri_template};
use shared::saved::{self, Place};
use shared::session::Session;

use super::{ConnState, Store, now_ms};

/// The three views of one connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    #[default]
    Tools,
    Resources,
    Prompts,
}

impl View {
    pub const ALL: [View; 3] = [View::Tools, View::Resources, View::Prompts];

    pub fn as_str(self) -> &'static str {
        match self {
            View::Tools => "tools",
            View::Resources => "resources",
            View::Prompts => "prompts",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            View::Tools => "Tools",
            View::Resources => "Resources",
            View::Prompts => "Prompts",
        }
    }

    fn of(text: &str) -> View {
        View::ALL.into_iter().find(|v| v.as_str() == text).unwrap_or_default()
    }

    /// The capability a view needs (tools are always shown).
    fn capability(self) -> Option<&'static str> {
        match self {
            View::Tools => None,
            View::Resources => Some("resources"),
            View::Prompts => Some("prompts"),
        }
    }
}

/// What is picked in the resources view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Picked {
    Resource(String),
    Template(String),
}

#[derive(Clone, Copy)]
pub struct CatalogUi {
    pub data: RwSignal<Catalog>,
    pub view: RwSignal<View>,
    pub filter: RwSignal<String>,
    pub picked: RwSignal<Option<Picked>>,
    /// The template's variables as typed.
    pub values: RwSignal<BTreeMap<String, String>>,
    pub prompt: RwSignal<Option<String>>,
    /// The prompt's arguments as typed.
    pub arguments: RwSignal<BTreeMap<String, String>>,
    /// The URI whose contents the resources view shows.
    pub shown: RwSignal<Option<String>>,
    /// The least severe log level shown (`log-view`).
    pub log_floor: RwSignal<usize>,
}

impl CatalogUi {
    pub fn new() -> Self {
        Self {
            data: RwSignal::new(Catalog::default()),
            view: RwSignal::new(View::Tools),
            filter: RwSignal::new(String::new()),
            picked: RwSignal::new(None),
            values: RwSignal::new(BTreeMap::new()),
            prompt: RwSignal::new(None),
            arguments: RwSignal::new(BTreeMap::new()),
            shown: RwSignal::new(None),
            log_floor: RwSignal::new(0),
        }
    }

    /// What is typed in the form of `target`: a template's variables or a prompt's arguments.
    pub fn values_of(&self, target: &Target) -> RwSignal<BTreeMap<String, String>> {
        match target {
            Target::Template(_) => self.values,
            Target::Prompt(_) => self.arguments,
        }
    }
}

impl Default for CatalogUi {
    fn default() -> Self {
        Self::new()
    }
}

/// Values as the `arguments` of a request (empty ones left out).
fn filled(values: &BTreeMap<String, String>) -> Map<String, Value> {
    values.iter().filter(|(_, v)| !v.is_empty()).map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect()
}

impl Store {
    /// Whether the server offers `view`.
    pub fn offers(self, view: View) -> bool {
        match view.capability() {
            None => true,
            Some(c) => self.server.with(|s| s.as_ref().is_some_and(|s| s.has(c))),
        }
    }

    /// Shows `view`, listing what it shows the first time.
    pub fn open_view(self, view: View) {
        let view = if self.offers(view) { view } else { View::Tools };
        self.catalog.view.set(view);
        let kinds: &[ListKind] = match view {
            View::Tools => &[],
            View::Resources => &[ListKind::Resources, ListKind::Templates],
            View::Prompts => &[ListKind::Prompts],
        };
        let playing = self.in_playback();
        for kind in kinds {
            let todo = self.catalog.data.with_untracked(|c| !c.loaded(*kind) && !c.is_loading(*kind));
            if todo && !playing && self.conn.get_untracked() == ConnState::Connected {
                self.act(|s| s.list(*kind));
            }
        }
        self.remember_place();
    }

    pub fn list_again(self, kind: ListKind) {
        self.act(|s| s.list(kind));
    }

    /// Picks a resource and reads it.
    pub fn pick_resource(self, uri: String) {
        self.catalog.picked.set(Some(Picked::Resource(uri.clone())));
        self.remember_place();
        self.read_shown(uri);
    }

    /// Picks a template: its form starts empty.
    pub fn pick_template(self, template: String) {
        self.catalog.values.set(BTreeMap::new());
        self.catalog.shown.set(None);
        self.catalog.picked.set(Some(Picked::Template(template)));
        self.remember_place();
    }

    /// The URI the picked template gives with the values typed, or why not.
    pub fn template_uri(self) -> Option<Result<String, String>> {
        let Some(Picked::Template(t)) = self.catalog.picked.get() else { return None };
        Some(self.catalog.values.with(|v| uri_template::expand(&t, v)))
    }

    /// Reads `uri` and shows its contents in the view (not in playback, nor unconnected:
    /// the session says so).
    pub fn read_shown(self, uri: String) {
        self.catalog.shown.set(Some(uri.clone()));
        if !self.in_playback() {
            self.read_resource(uri);
        }
    }

    /// A `resource_link` of a result, opened in the resources view.
    pub fn open_link(self, uri: String) {
        self.open_view(View::Resources);
        self.pick_resource(uri);
    }

    pub fn subscribe(self, uri: String, on: bool) {
        self.act(|s| s.subscribe(&uri, on, now_ms())).unwrap_or_else(|e| self.notice(e.to_string()));
    }

    /// A person typed in a template variable (`template`) or a prompt argument.
    pub fn type_value(self, target: Target, name: String, value: String) {
        let values = self.catalog.values_of(&target);
        values.update(|v| {
            v.insert(name.clone(), value.clone());
        });
        let context = values.with_untracked(filled);
        let asks = self.server.with_untracked(|s| s.as_ref().is_some_and(|s| s.has("completions")));
        if asks && !self.in_playback() {
            self.act(|s| s.complete((target, name), value, context, now_ms()));
        }
    }

    /// A suggestion was picked: it fills the field, and its list goes.
    pub fn take_suggestion(self, field: Field, value: String) {
        let values = self.catalog.values_of(&field.0);
        values.update(|v| {
            v.insert(field.1.clone(), value);
        });
        self.dismiss_suggestions(field);
    }

    pub fn dismiss_suggestions(self, field: Field) {
        self.act(|s| s.dismiss_completion(&field));
    }

    pub fn pick_prompt(self, name: String) {
        if self.catalog.prompt.get_untracked().as_deref() != Some(name.as_str()) {
            self.catalog.arguments.set(BTreeMap::new());
        }
        self.catalog.prompt.set(Some(name));
        self.remember_place();
    }

    pub fn get_prompt(self) {
        let Some(name) = self.catalog.prompt.get_untracked() else { return };
        let arguments = self.catalog.arguments.with_untracked(filled);
        self.act(|s| s.get_prompt(&name, arguments, now_ms())).unwrap_or_else(|e| self.notice(e.to_string()));
    }

    pub fn set_log_level(self, level: String) {
        self.act(|s| s.set_log_level(&level, now_ms())).unwrap_or_else(|e| self.notice(e.to_string()));
    }

    pub fn ping(self) {
        self.act(|s| s.ping(now_ms())).unwrap_or_else(|e| self.notice(e.to_string()));
    }

    /// Copies the catalog; in playback, a new read or prompt of the recording to follow.
    pub(super) fn show_catalog(self, s: &Session) -> Option<Activity> {
        let before = self.catalog.data.with_untracked(|c| c.last.as_ref().map(|(n, _)| *n));
        self.catalog.data.set(s.catalog().clone());
        let (n, activity) = s.catalog().last.clone()?;
        (s.is_playback() && before != Some(n)).then_some(activity)
    }

    /// Playback: the view shows what the recording read or got, as the person had it.
    pub(super) fn follow_activity(self, activity: Activity) {
        match activity {
            Activity::Read(uri) => {
                self.open_view(View::Resources);
                let from_template = self.catalog.picked.with_untracked(|p| matches!(p, Some(Picked::Template(_))))
                    && self.template_uri().and_then(Result::ok).as_deref() == Some(uri.as_str());
                if !from_template {
                    self.catalog.picked.set(Some(Picked::Resource(uri.clone())));
                }
                self.catalog.shown.set(Some(uri));
            }
            Activity::Prompt(name, arguments) => {
                self.open_view(View::Prompts);
                self.catalog.prompt.set(Some(name));
                let typed =
                    arguments.into_iter().map(|(k, v)| (k, v.as_str().map_or_else(|| v.to_string(), str::to_owned)));
                self.catalog.arguments.set(typed.collect());
            }
        }
    }

    /// A recording starts playing: the views start from the tools, nothing picked.
    pub(super) fn reset_views(self) {
        self.catalog.view.set(View::Tools);
        self.catalog.picked.set(None);
        self.catalog.prompt.set(None);
        self.catalog.values.set(BTreeMap::new());
        self.catalog.arguments.set(BTreeMap::new());
        self.catalog.shown.set(None);
    }

    /// The view to show: the one chosen, where the server offers it, else the tools.
    pub fn shown_view(self) -> View {
        let view = self.catalog.view.get();
        if self.offers(view) { view } else { View::Tools }
    }

    /// A connection came up: the view and picks this server had last time come back.
    pub(super) fn restore_place(self, target: &shared::relay::Target) {
        let place = self.saved.place(&saved::key(target));
        self.catalog.picked.set(match (place.resource, place.template) {
            (Some(r), _) => Some(Picked::Resource(r)),
            (None, Some(t)) => Some(Picked::Template(t)),
            _ => None,
        });
        self.catalog.prompt.set(place.prompt);
        self.catalog.shown.set(None);
        self.catalog.values.set(BTreeMap::new());
        self.catalog.arguments.set(BTreeMap::new());
        self.catalog.view.set(View::Tools);
        self.open_view(View::of(&place.view));
    }

    fn remember_place(self) {
        if self.in_playback() {
            return;
        }
        let Some(key) = self.with_session(|s| s.target().map(saved::key)) else { return };
        let (resource, template) = match self.catalog.picked.get_untracked() {
            Some(Picked::Resource(r)) => (Some(r), None),
            Some(Picked::Template(t)) => (None, Some(t)),
            None => (None, None),
        };
        let place = Place {
            view: self.catalog.view.get_untracked().as_str().to_owned(),
            resource,
            template,
            prompt: self.catalog.prompt.get_untracked(),
        };
        self.remember_where(|l| l.set_place(key, place));
    }
}
