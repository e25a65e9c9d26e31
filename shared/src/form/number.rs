//! Numbers as a person typed them. A number field sends `1` for `1` (not `1.0`, which a
//! strict server reads as a float) and `2.5` for `2.50`; an integer field sends an integer
//! literal (`1e3` is `1000`), computed exactly from the decimal text, never through a
//! float that would round or saturate. An integer beyond 64 bits is refused with a reason:
//! a JSON integer that large would reach most servers changed.

use serde_json::Value;

/// What a number field's text means.
#[derive(Debug, Clone, PartialEq)]
pub enum Typed {
    /// The JSON number to send.
    Number(Value),
    /// Not a number at all (empty, or letters): kept as text so validation says so.
    NotANumber,
    /// A number that cannot be sent as the schema asks; the reason is shown on the field.
    Refused(String),
}

impl Typed {
    /// What the arguments hold for `text`: the number, or the text itself, so that
    /// validation holds the call back.
    pub fn value(&self, text: &str) -> Value {
        match self {
            Typed::Number(v) => v.clone(),
            Typed::NotANumber | Typed::Refused(_) => Value::String(text.to_owned()),
        }
    }
}

/// Reads `text` for a field of type `integer` (when `integer`) or `number`.
pub fn parse(text: &str, integer: bool) -> Typed {
    let t = text.trim();
    let Some(dec) = Decimal::read(t) else { return Typed::NotANumber };
    if !dec.has_point
        && !dec.has_exponent
        && let Some(v) = exact_integer(t)
    {
        return Typed::Number(v);
    }
    // An integer field always sends an integer literal; a number field does when the text
    // has no point (`1e3` is `1000`, `1.0` stays `1.0`).
    match dec.integer_digits() {
        Some(digits) if integer || !dec.has_point => {
            let literal = if dec.negative && digits != "0" { format!("-{digits}") } else { digits };
            match exact_integer(&literal) {
                Some(v) => Typed::Number(v),
                None if integer && dec.negative => {
                    Typed::Refused(format!("{t} is too small for a 64-bit integer: the smallest is {}", i64::MIN))
                }
                None if integer => {
                    Typed::Refused(format!("{t} is too large for a 64-bit integer: the largest is {}", u64::MAX))
                }
                None => float(t),
            }
        }
        // A fraction: a float, which an integer field's validation then refuses plainly.
        _ => float(t),
    }
}

fn exact_integer(literal: &str) -> Option<Value> {
    if let Ok(i) = literal.parse::<i64>() {
        return Some(Value::from(i));
    }
    literal.parse::<u64>().ok().map(Value::from)
}

fn float(t: &str) -> Typed {
    match t.parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
        Some(n) if n.as_f64().is_some_and(f64::is_finite) => Typed::Number(Value::Number(n)),
        _ => Typed::Refused(format!("{t} is beyond the range of a JSON number a server can read")),
    }
}

/// A decimal literal as HTML number inputs and JSON write them: `-12.50e+3`.
struct Decimal {
    negative: bool,
    /// The significant digits with the point removed.
    digits: String,
    /// The power of ten to apply to `digits`.
    exponent: i64,
    has_point: bool,
    has_exponent: bool,
}

impl Decimal {
    fn read(t: &str) -> Option<Self> {
        let (negative, rest) = match t.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (mantissa, exp) = match rest.find(['e', 'E']) {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        let (whole, frac) = match mantissa.split_once('.') {
            Some((w, f)) => (w, Some(f)),
            None => (mantissa, None),
        };
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(whole) || !frac.is_none_or(all_digits) || (whole.is_empty() && frac.is_none_or(str::is_empty)) {
            return None;
        }
        let exponent = match exp {
            Some(e) => {
                let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if digits.is_empty() || !all_digits(digits) {
                    return None;
                }
                // Beyond this the number is zero or infinite anyway; keeps the arithmetic small.
                e.parse::<i64>().unwrap_or(if e.starts_with('-') { -100_000 } else { 100_000 })
            }
            None => 0,
        };
        let frac = frac.unwrap_or("");
        let exponent = exponent.checked_sub(i64::try_from(frac.len()).ok()?)?;
        Some(Self {
            negative,
            digits: format!("{whole}{frac}"),
            exponent,
            has_point: mantissa.contains('.'),
            has_exponent: exp.is_some(),
        })
    }

    /// The integer this literal equals, as digits, or `None` if it has a fraction.
    fn integer_digits(&self) -> Option<String> {
        let digits = self.digits.trim_start_matches('0');
        if digits.is_empty() {
            return Some("0".into());
        }
        if self.exponent >= 0 {
            // Bounded: anything longer than 40 digits is beyond 64 bits anyway.
            let zeros = usize::try_from(self.exponent).ok()?.min(41);
            return Some(format!("{digits}{}", "0".repeat(zeros)));
        }
        let cut = usize::try_from(-self.exponent).ok()?;
        if cut >= digits.len() {
            return None;
        }
        let (int, frac) = digits.split_at(digits.len() - cut);
        frac.bytes().all(|b| b == b'0').then(|| int.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    fn show(text: &str, integer: bool) -> String {
        match parse(text, integer) {
            Typed::Number(v) => serde_json::to_string(&v).unwrap(),
            Typed::NotANumber => "not a number".into(),
            Typed::Refused(why) => format!("refused: {why}"),
        }
    }

    #[test]
    fn numbers_are_sent_as_typed() {
        let cases = [
            "1",
            "-1",
            "0",
            "-0",
            "2.50",
            "1.0",
            "0.1",
            ".5",
            "1e20",
            "1E3",
            "-2.5e-3",
            "12345678901234567890",
            "123456789012345678901234",
            "1e400",
            "",
            "abc",
            "1.2.3",
            "--1",
            "e5",
            "1e",
            "Infinity",
            "NaN",
        ];
        let out: Vec<String> = cases.iter().map(|c| format!("{c:?} → {}", show(c, false))).collect();
        expect![[r#"
            "1" → 1
            "-1" → -1
            "0" → 0
            "-0" → 0
            "2.50" → 2.5
            "1.0" → 1.0
            "0.1" → 0.1
            ".5" → 0.5
            "1e20" → 1e+20
            "1E3" → 1000
            "-2.5e-3" → -0.0025
            "12345678901234567890" → 12345678901234567890
            "123456789012345678901234" → 1.2345678901234569e+23
            "1e400" → refused: 1e400 is beyond the range of a JSON number a server can read
            "" → not a number
            "abc" → not a number
            "1.2.3" → not a number
            "--1" → not a number
            "e5" → not a number
            "1e" → not a number
            "Infinity" → not a number
            "NaN" → not a number"#]]
        .assert_eq(&out.join("\n"));
    }

    #[test]
    fn integers_are_exact_or_refused() {
        let cases = [
            "1",
            "-7",
            "1e3",
            "2.0",
            "2.50",
            "1.5",
            "-1e2",
            "9223372036854775807",
            "-9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775809",
            "1e20",
            "1.8e19",
            "1e-3",
            "0e999999999999999999999",
        ];
        let out: Vec<String> = cases.iter().map(|c| format!("{c:?} → {}", show(c, true))).collect();
        expect![[r#"
            "1" → 1
            "-7" → -7
            "1e3" → 1000
            "2.0" → 2
            "2.50" → 2.5
            "1.5" → 1.5
            "-1e2" → -100
            "9223372036854775807" → 9223372036854775807
            "-9223372036854775808" → -9223372036854775808
            "18446744073709551615" → 18446744073709551615
            "18446744073709551616" → refused: 18446744073709551616 is too large for a 64-bit integer: the largest is 18446744073709551615
            "-9223372036854775809" → refused: -9223372036854775809 is too small for a 64-bit integer: the smallest is -9223372036854775808
            "1e20" → refused: 1e20 is too large for a 64-bit integer: the largest is 18446744073709551615
            "1.8e19" → 18000000000000000000
            "1e-3" → 0.001
            "0e999999999999999999999" → 0"#]]
        .assert_eq(&out.join("\n"));
    }
}
