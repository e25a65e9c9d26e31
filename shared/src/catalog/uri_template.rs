//! A resource template's URI (RFC 6570, levels 1 to 4) as a form: its variables, and the
//! URI they expand to. Expansion is the `iri-string` crate's; what a person typed becomes
//! a value here: empty is undefined, and an exploded variable (`{/path*}`, `{?list*}`)
//! takes a comma-separated list, or `key=value` pairs.

use std::collections::BTreeMap;

use iri_string::spec::UriSpec;
use iri_string::template::UriTemplateStr;
use iri_string::template::simple_context::{SimpleContext, Value as TemplateValue};

/// One variable of a template, in the order it first appears.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    /// Written with `*` somewhere: it takes a list (or `key=value` pairs).
    pub explode: bool,
    /// Written with a prefix length (`{var:3}`): only the first characters are used.
    pub prefix: Option<usize>,
}

/// The variables of `template`, each once; why it is not a template otherwise.
pub fn variables(template: &str) -> Result<Vec<Variable>, String> {
    UriTemplateStr::new(template).map_err(|e| format!("not a URI template: {e}"))?;
    let mut out: Vec<Variable> = Vec::new();
    for expr in expressions(template) {
        let body = expr.trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
        for spec in body.split(',') {
            let (name, explode, prefix) = match spec.split_once(':') {
                Some((name, len)) => (name, false, len.parse().ok()),
                None => match spec.strip_suffix('*') {
                    Some(name) => (name, true, None),
                    None => (spec, false, None),
                },
            };
            match out.iter_mut().find(|v| v.name == name) {
                Some(v) => v.explode |= explode,
                None => out.push(Variable { name: name.to_owned(), explode, prefix }),
            }
        }
    }
    Ok(out)
}

/// The text of each `{…}` expression.
fn expressions(template: &str) -> impl Iterator<Item = &str> {
    template.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(expr, _)| expr))
}

/// The URI `template` gives with `values` (a variable's typed text). A template that does
/// not parse says why.
pub fn expand(template: &str, values: &BTreeMap<String, String>) -> Result<String, String> {
    let parsed = UriTemplateStr::new(template).map_err(|e| format!("not a URI template: {e}"))?;
    let vars = variables(template)?;
    let mut context = SimpleContext::new();
    for var in &vars {
        let Some(text) = values.get(&var.name).filter(|t| !t.is_empty()) else { continue };
        context.insert(var.name.clone(), value_of(text, var.explode));
    }
    parsed.expand::<UriSpec, _>(&context).map(|e| e.to_string()).map_err(|e| format!("cannot expand: {e}"))
}

/// A typed value: a list (comma-separated) or pairs (`k=v,k2=v2`) where the variable is
/// exploded, the text itself otherwise.
fn value_of(text: &str, explode: bool) -> TemplateValue {
    if !explode {
        return TemplateValue::String(text.to_owned());
    }
    let items: Vec<&str> = text.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    if !items.is_empty() && items.iter().all(|i| i.contains('=')) {
        let pairs = items
            .iter()
            .filter_map(|i| i.split_once('='))
            .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
            .collect();
        return TemplateValue::Assoc(pairs);
    }
    TemplateValue::List(items.into_iter().map(str::to_owned).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The RFC's variables (section 3.2), typed as a person would.
    fn rfc() -> BTreeMap<String, String> {
        [
            ("var", "value"),
            ("hello", "Hello World!"),
            ("path", "/foo/bar"),
            ("x", "1024"),
            ("y", "768"),
            ("list", "red,green,blue"),
            ("keys", "semi=;,dot=.,comma=%2C"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
    }

    #[test]
    fn the_rfc_examples_of_every_level() {
        let v = rfc();
        let cases = [
            // Level 1
            ("{var}", "value"),
            ("{hello}", "Hello%20World%21"),
            // Level 2
            ("{+var}", "value"),
            ("{+hello}", "Hello%20World!"),
            ("{+path}/here", "/foo/bar/here"),
            ("X{#var}", "X#value"),
            ("X{#hello}", "X#Hello%20World!"),
            // Level 3
            ("map?{x,y}", "map?1024,768"),
            ("{x,hello,y}", "1024,Hello%20World%21,768"),
            ("{+x,hello,y}", "1024,Hello%20World!,768"),
            ("X{.var}", "X.value"),
            ("{/var,x}/here", "/value/1024/here"),
            ("{;x,y}", ";x=1024;y=768"),
            ("{?x,y}", "?x=1024&y=768"),
            ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
            ("{&x,y}", "&x=1024&y=768"),
            // Level 4
            ("{var:3}", "val"),
            ("{/list*}", "/red/green/blue"),
            ("{?list*}", "?list=red&list=green&list=blue"),
            ("{;list*}", ";list=red;list=green;list=blue"),
            ("{.list*}", ".red.green.blue"),
            ("{?keys*}", "?semi=%3B&dot=.&comma=%252C"),
            ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
        ];
        for (template, want) in cases {
            assert_eq!(expand(template, &v).as_deref(), Ok(want), "{template}");
        }
    }

    #[test]
    fn an_empty_field_is_undefined_and_a_bad_template_says_why() {
        let none = BTreeMap::new();
        assert_eq!(expand("demo://x/{id}{?q}", &none).as_deref(), Ok("demo://x/"));
        assert!(expand("demo://x/{id", &none).unwrap_err().contains("not a URI template"));
        assert!(variables("demo://{a b}").is_err());
    }

    #[test]
    fn variables_in_order_once_with_their_modifiers() {
        let vars = variables("file:///{+path}{?list*,q}{&q}{/name:2}").unwrap();
        let shown: Vec<(&str, bool, Option<usize>)> =
            vars.iter().map(|v| (v.name.as_str(), v.explode, v.prefix)).collect();
        assert_eq!(shown, [("path", false, None), ("list", true, None), ("q", false, None), ("name", false, Some(2))]);
        assert_eq!(variables("demo://resource/dynamic/text/{resourceId}").unwrap()[0].name, "resourceId");
    }
}
