//! The values of a saved server's env and headers, which the page never stores: what
//! travels between the page and the relay's secrets file.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Target;

/// The values of a server's env and headers, by name: what the page does not keep.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Secrets {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
}

impl Secrets {
    /// The values `target` holds.
    pub fn of(target: &Target) -> Secrets {
        match target {
            Target::Demo => Secrets::default(),
            Target::Stdio { env, .. } => Secrets { env: env.clone(), headers: BTreeMap::new() },
            Target::Http { headers, .. } | Target::Sse { headers, .. } | Target::Auto { headers, .. } => {
                Secrets { env: BTreeMap::new(), headers: headers.clone() }
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.env.is_empty() && self.headers.is_empty()
    }

    /// `target` with these values for the names it has (names it lacks are not added).
    pub fn fill(&self, target: &mut Target) {
        let put = |mine: &mut BTreeMap<String, String>, kept: &BTreeMap<String, String>| {
            for (name, value) in mine.iter_mut() {
                if let Some(v) = kept.get(name) {
                    value.clone_from(v);
                }
            }
        };
        match target {
            Target::Demo => {}
            Target::Stdio { env, .. } => put(env, &self.env),
            Target::Http { headers, .. } | Target::Sse { headers, .. } | Target::Auto { headers, .. } => {
                put(headers, &self.headers)
            }
        }
    }
}
