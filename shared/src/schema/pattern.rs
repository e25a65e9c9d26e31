//! Regular expressions for `pattern`, `patternProperties` and the `regex` format. JSON
//! Schema means ECMA-262, so in the browser the browser's own `RegExp` decides; natively
//! (tests, command-line tools) the `regex` crate stands in, after the escapes whose meaning
//! differs (`\d`, `\w`, `\b` are ASCII-only in ECMA-262) are rewritten.

/// Why a pattern does not compile, in the engine's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct BadPattern(pub String);

/// A compiled pattern; matches anywhere in the text (patterns are not anchored).
pub(crate) struct Pattern {
    source: String,
    engine: Engine,
}

impl Pattern {
    /// Compiles `source`; the error is the engine's.
    pub(crate) fn new(source: &str) -> Result<Pattern, BadPattern> {
        Ok(Pattern { source: source.to_owned(), engine: Engine::new(source)? })
    }

    pub(crate) fn is_match(&self, text: &str) -> bool {
        self.engine.is_match(text)
    }

    /// The pattern as the schema wrote it.
    pub(super) fn source(&self) -> &str {
        &self.source
    }
}

#[cfg(target_arch = "wasm32")]
struct Engine(js_sys::RegExp);

#[cfg(target_arch = "wasm32")]
impl Engine {
    fn new(source: &str) -> Result<Engine, BadPattern> {
        use js_sys::wasm_bindgen::{JsCast, JsValue};
        // `RegExp::new` cannot report a syntax error (it would throw through Wasm), so the
        // constructor is called through `Reflect.construct`, which returns the exception.
        let constructor = js_sys::RegExp::new("", "").constructor();
        let build = |flags: &str| {
            let args = js_sys::Array::new();
            args.push(&JsValue::from_str(source));
            args.push(&JsValue::from_str(flags));
            js_sys::Reflect::construct(&constructor, &args)
        };
        // The `u` flag is what JSON Schema asks for; some patterns written for the older
        // grammar (`\-` outside a class, a lone `{`) only compile without it.
        match build("u").or_else(|_| build("")) {
            Ok(re) => Ok(Engine(re.unchecked_into())),
            Err(e) => Err(BadPattern(
                e.dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
                    .unwrap_or_else(|| "not a valid ECMA-262 pattern".to_owned()),
            )),
        }
    }

    fn is_match(&self, text: &str) -> bool {
        self.0.test(text)
    }
}

#[cfg(not(target_arch = "wasm32"))]
struct Engine(Option<regex::Regex>);

#[cfg(not(target_arch = "wasm32"))]
impl Engine {
    fn new(source: &str) -> Result<Engine, BadPattern> {
        let Some(translated) = translate(source)? else { return Ok(Engine(None)) };
        match regex::Regex::new(&translated) {
            Ok(re) => Ok(Engine(Some(re))),
            Err(e) if e.to_string().contains("not supported") => Ok(Engine(None)),
            Err(e) => {
                let text = e.to_string();
                let last = text.lines().last().unwrap_or_default().trim();
                Err(BadPattern(last.strip_prefix("error: ").unwrap_or(last).to_owned()))
            }
        }
    }

    fn is_match(&self, text: &str) -> bool {
        self.0.as_ref().is_none_or(|re| re.is_match(text))
    }
}

/// `source` in the regex crate's syntax with ECMA-262's meaning, or `None` when it uses
/// what the crate lacks (look-around, backreferences): valid ECMA-262 that natively
/// matches everything rather than making the schema unusable. Syntax the crate accepts
/// but ECMA-262 does not (`\a`, `(?i)`, `(?P<n>…)`) is refused, as a browser would.
#[cfg(not(target_arch = "wasm32"))]
fn translate(source: &str) -> Result<Option<String>, BadPattern> {
    let mut out = String::with_capacity(source.len());
    let mut in_class = false;
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('d') => out.push_str("[0-9]"),
                Some('D') => out.push_str("[^0-9]"),
                Some('w') => out.push_str("[0-9A-Za-z_]"),
                Some('W') => out.push_str("[^0-9A-Za-z_]"),
                // ECMA-262's white space also has U+FEFF, which Unicode's does not.
                Some('s') if in_class => out.push_str("\\s\\x{FEFF}"),
                Some('s') => out.push_str("[\\s\\x{FEFF}]"),
                Some('S') => out.push_str("[^\\s\\x{FEFF}]"),
                Some('b') if in_class => out.push_str("\\x08"),
                Some('b') => out.push_str("(?-u:\\b)"),
                Some('B') => out.push_str("(?-u:\\B)"),
                Some('c') => match chars.next() {
                    Some(l) if l.is_ascii_alphabetic() => out.push_str(&format!("\\x{:02X}", l as u32 % 32)),
                    _ => return Err(BadPattern("\\c must be followed by a letter".to_owned())),
                },
                Some('0') => out.push_str("\\x00"),
                Some('k' | '1'..='9') => return Ok(None),
                Some(l) if l.is_ascii_alphabetic() && !"fnrtvxupP".contains(l) => {
                    return Err(BadPattern(format!("invalid escape \\{l}")));
                }
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => return Err(BadPattern("\\ at end of pattern".to_owned())),
            },
            '(' if !in_class && chars.as_str().starts_with('?') => {
                let rest = &chars.as_str()[1..];
                if !rest.starts_with([':', '=', '!', '<']) {
                    return Err(BadPattern("invalid group".to_owned()));
                }
                out.push(c);
            }
            // ECMA-262's `[]` matches nothing and `[^]` anything; the regex crate would read
            // the `]` as a literal.
            '[' if !in_class && chars.as_str().starts_with(']') => {
                out.push_str("[^\\x{0}-\\x{10FFFF}]");
                chars.next();
            }
            '[' if !in_class && chars.as_str().starts_with("^]") => {
                out.push_str("(?s:.)");
                chars.nth(1);
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
            }
            // Literal in an ECMA-262 class, nesting and set operators in the regex crate.
            '[' | '&' | '~' if in_class => {
                out.push('\\');
                out.push(c);
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            _ => out.push(c),
        }
    }
    Ok(Some(out))
}
