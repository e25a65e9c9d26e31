//! An entry's `"oauth"` object: `{"clientId", "clientSecret", "scopes"}` (scopes as an array
//! or one space-separated string). Strings expand `${VAR}` like the rest of the entry, so a
//! secret can come from the environment instead of the file.

use serde_json::Value;

use super::{ConfigError, Env, expand};
use crate::relay::OAuthSettings;

/// The settings and the client secret of `entry`, or why its `oauth` cannot be read.
pub(super) fn read(name: &str, entry: &Value, env: Env<'_>) -> Result<(OAuthSettings, Option<String>), ConfigError> {
    let err = |problem: String| ConfigError::Server { server: name.into(), problem };
    let Some(oauth) = entry.get("oauth") else { return Ok((OAuthSettings::default(), None)) };
    let obj = oauth.as_object().ok_or_else(|| err("\"oauth\" must be an object".into()))?;
    if let Some(key) = obj.keys().find(|k| !matches!(k.as_str(), "clientId" | "clientSecret" | "scopes")) {
        return Err(err(format!("\"oauth\".{key:?} is not one of \"clientId\", \"clientSecret\", \"scopes\"")));
    }
    let string = |key: &str| -> Result<Option<String>, ConfigError> {
        match obj.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => {
                let s = expand(s, env).map_err(|e| err(format!("\"oauth\".{key:?}: {e}")))?;
                Ok(Some(s.trim().to_owned()).filter(|s| !s.is_empty()))
            }
            Some(_) => Err(err(format!("\"oauth\".{key:?} must be a string"))),
        }
    };
    let scopes = match obj.get("scopes") {
        None => Vec::new(),
        Some(Value::String(s)) => s.split_whitespace().map(str::to_owned).collect(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| i.as_str().map(str::to_owned).ok_or_else(|| err("\"oauth\".\"scopes\" must hold strings".into())))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(err("\"oauth\".\"scopes\" must be an array of strings or one string".into())),
    };
    if let Some(bad) = scopes.iter().find(|s| s.is_empty() || s.contains(char::is_whitespace)) {
        return Err(err(format!("\"oauth\".\"scopes\": {bad:?} is not a scope")));
    }
    let settings = OAuthSettings { client_id: string("clientId")?, scopes };
    let secret = string("clientSecret")?;
    if secret.is_some() && settings.client_id.is_none() {
        return Err(err("\"oauth\".\"clientSecret\" needs a \"clientId\"".into()));
    }
    Ok((settings, secret))
}
