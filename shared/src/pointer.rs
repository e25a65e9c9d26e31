//! JSON Pointers (RFC 6901), the one module that writes, reads and edits them: the paths
//! of form fields (`data-field-path`) and how the form edits the arguments, where a
//! schema's keyword sits, where a violation is, and the replay's ignore patterns.

use serde_json::Value;

/// Escapes one reference token (`~` → `~0`, `/` → `~1`).
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// The unescaped tokens of `pointer`; `None` when it is not one (no leading `/`).
pub fn parse(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    Some(rest.split('/').map(unescape).collect())
}

/// The pointer of unescaped `tokens`.
pub fn of_tokens(tokens: &[String]) -> String {
    tokens.iter().fold(String::new(), |out, t| child(&out, t))
}

/// `parent` + one more token.
pub fn child(parent: &str, token: &str) -> String {
    format!("{parent}/{}", escape(token))
}

/// `parent` + an array index.
pub fn index(parent: &str, i: usize) -> String {
    format!("{parent}/{i}")
}

/// The pointer's parent and last token, or `None` for the root.
pub fn split_last(pointer: &str) -> Option<(&str, String)> {
    let cut = pointer.rfind('/')?;
    Some((&pointer[..cut], unescape(&pointer[cut + 1..])))
}

/// The value at `pointer`.
pub fn get<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    root.pointer(pointer)
}

/// Sets the value at `pointer`. An object member is created when missing; an array index
/// must exist or be one past the end. Returns false when the parent is not there.
pub fn set(root: &mut Value, pointer: &str, value: Value) -> bool {
    let Some((parent, last)) = split_last(pointer) else {
        *root = value;
        return true;
    };
    match root.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.insert(last, value);
            true
        }
        Some(Value::Array(items)) => match last.parse::<usize>() {
            Ok(i) if i < items.len() => {
                items[i] = value;
                true
            }
            Ok(i) if i == items.len() => {
                items.push(value);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// Removes the value at `pointer` (an object member, or an array item with the rest moving
/// up) and returns it.
pub fn remove(root: &mut Value, pointer: &str) -> Option<Value> {
    let (parent, last) = split_last(pointer)?;
    match root.pointer_mut(parent)? {
        Value::Object(map) => map.shift_remove(&last),
        Value::Array(items) => {
            let i = last.parse::<usize>().ok().filter(|i| *i < items.len())?;
            Some(items.remove(i))
        }
        _ => None,
    }
}

/// Swaps two items of the array at `pointer`.
pub fn swap(root: &mut Value, pointer: &str, a: usize, b: usize) -> bool {
    match root.pointer_mut(pointer) {
        Some(Value::Array(items)) if a < items.len() && b < items.len() => {
            items.swap(a, b);
            true
        }
        _ => false,
    }
}

/// Renames the member `from` of the object at `pointer` to `to`, keeping its place.
pub fn rename(root: &mut Value, pointer: &str, from: &str, to: &str) -> bool {
    let Some(Value::Object(map)) = root.pointer_mut(pointer) else { return false };
    if from == to || map.contains_key(to) || !map.contains_key(from) {
        return false;
    }
    let entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
    for (k, v) in entries {
        map.insert(if k == from { to.to_owned() } else { k }, v);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_writes_and_escapes() {
        let mut v = json!({"a/b": {"x~y": [1, 2]}, "k": 1});
        let p = child(&child("", "a/b"), "x~y");
        assert_eq!(p, "/a~1b/x~0y");
        assert_eq!(get(&v, &index(&p, 1)), Some(&json!(2)));
        assert!(set(&mut v, &index(&p, 2), json!(3)));
        assert!(!set(&mut v, &index(&p, 9), json!(3)));
        assert!(set(&mut v, "/new", json!(true)));
        assert!(!set(&mut v, "/missing/deep", json!(1)));
        assert_eq!(remove(&mut v, &index(&p, 0)), Some(json!(1)));
        assert!(swap(&mut v, &p, 0, 1));
        assert_eq!(get(&v, &p), Some(&json!([3, 2])));
        assert!(rename(&mut v, "", "k", "kk"));
        assert_eq!(v.as_object().unwrap().keys().collect::<Vec<_>>(), ["a/b", "kk", "new"]);
        assert_eq!(split_last("/a~1b/x~0y"), Some(("/a~1b", "x~y".to_string())));
        assert_eq!(split_last(""), None);
        assert_eq!(parse("/a~1b/x~0y/"), Some(vec!["a/b".to_owned(), "x~y".to_owned(), String::new()]));
        assert_eq!((parse(""), parse("a")), (Some(vec![]), None));
        assert_eq!(of_tokens(&parse("/a~1b/x~0y/").unwrap()), "/a~1b/x~0y/");
    }
}
