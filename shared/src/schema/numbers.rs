//! `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (numbers, and draft 4's
//! booleans beside `minimum`/`maximum`) and `multipleOf`.

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

use super::compile::{Compiled, Compiler, bad, number};
use super::{Run, show};

pub(super) enum Keyword {
    Minimum(Number),
    Maximum(Number),
    ExclusiveMinimum(Number),
    ExclusiveMaximum(Number),
    MultipleOf(Number),
}

pub(super) fn compile(_: &Compiler, key: &str, map: &Map<String, Value>, loc: &str) -> Compiled<Option<Keyword>> {
    // Draft 4 writes an exclusive bound as `minimum` plus `exclusiveMinimum: true`.
    let flag = |name: &str| map.get(name).and_then(Value::as_bool).unwrap_or(false);
    Ok(Some(match key {
        "minimum" if flag("exclusiveMinimum") => Keyword::ExclusiveMinimum(number(map, loc, key)?),
        "minimum" => Keyword::Minimum(number(map, loc, key)?),
        "maximum" if flag("exclusiveMaximum") => Keyword::ExclusiveMaximum(number(map, loc, key)?),
        "maximum" => Keyword::Maximum(number(map, loc, key)?),
        "exclusiveMinimum" | "exclusiveMaximum" if map[key].is_boolean() => return Ok(None),
        "exclusiveMinimum" => Keyword::ExclusiveMinimum(number(map, loc, key)?),
        "exclusiveMaximum" => Keyword::ExclusiveMaximum(number(map, loc, key)?),
        "multipleOf" => {
            let n = number(map, loc, key)?;
            if n.as_f64().is_none_or(|f| f <= 0.0) {
                return Err(bad(loc, key, "must be greater than 0"));
            }
            Keyword::MultipleOf(n)
        }
        _ => return Ok(None),
    }))
}

impl Keyword {
    pub(super) fn check(&self, run: &mut Run, n: &Number, path: &str) {
        let cmp = |bound: &Number| compare(n, bound).unwrap_or(Ordering::Equal);
        let shown = || show(&Value::Number(n.clone()));
        match self {
            Keyword::Minimum(m) if cmp(m).is_lt() => {
                run.report(path, || format!("{} is less than the minimum of {m}", shown()));
            }
            Keyword::Maximum(m) if cmp(m).is_gt() => {
                run.report(path, || format!("{} is greater than the maximum of {m}", shown()));
            }
            Keyword::ExclusiveMinimum(m) if cmp(m).is_le() => {
                run.report(path, || format!("{} is less than or equal to the minimum of {m}", shown()));
            }
            Keyword::ExclusiveMaximum(m) if cmp(m).is_ge() => {
                run.report(path, || format!("{} is greater than or equal to the maximum of {m}", shown()));
            }
            Keyword::MultipleOf(m) if !is_multiple(n, m) => {
                run.report(path, || format!("{} is not a multiple of {m}", shown()));
            }
            _ => {}
        }
    }
}

/// Compares two numbers: integers exactly, anything else as floats.
pub(super) fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    match (integer(a), integer(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

fn integer(n: &Number) -> Option<i128> {
    n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from))
}

/// Whether `n` is a multiple of `m`. Both are taken as the decimals they are written as, so
/// `0.3` is a multiple of `0.1` exactly; when that does not fit in 128 bits, as floats with
/// a tolerance relative to the quotient.
fn is_multiple(n: &Number, m: &Number) -> bool {
    if let (Some((a, ea)), Some((b, eb))) = (decimal(n), decimal(m)) {
        let e = ea.min(eb);
        let scale = |x: i128, by: i32| 10i128.checked_pow(u32::try_from(by - e).ok()?)?.checked_mul(x);
        if let (Some(a), Some(b)) = (scale(a, ea), scale(b, eb))
            && b != 0
        {
            return a % b == 0;
        }
    }
    let (Some(a), Some(b)) = (n.as_f64(), m.as_f64()) else { return false };
    if a == 0.0 {
        return true;
    }
    let q = a / b;
    if q.is_infinite() {
        // Far beyond what a quotient can show: the remainder, which floats compute exactly.
        return a % b == 0.0;
    }
    q.round() != 0.0 && (q - q.round()).abs() <= 1e-9 * q.abs()
}

/// `n` as `mantissa × 10^exponent`, read from its shortest decimal form.
fn decimal(n: &Number) -> Option<(i128, i32)> {
    let text = n.to_string();
    let (digits, exp) = match text.split_once(['e', 'E']) {
        Some((d, e)) => (d.to_owned(), e.parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((&digits, ""));
    let frac = frac.trim_end_matches('0');
    let mantissa: i128 = format!("{int}{frac}").parse().ok()?;
    Some((mantissa, exp.checked_sub(i32::try_from(frac.len()).ok()?)?))
}
