//! Times as the timeline shows them: short and relative (`+1.2 s`, `+3 min 22 s`) in fixed
//! columns, with the wall-clock time of the relay's stamp for a tooltip.

/// Time since the session began: `+420 ms`, `+1.2 s`, `+3 min 22 s`, `+1 h 4 min`.
pub fn elapsed(ms: f64) -> String {
    let ms = ms.max(0.0);
    if ms < 1000.0 {
        return format!("+{ms:.0} ms");
    }
    if ms < 60_000.0 {
        // Tenths, cut rather than rounded, so 59.96 s does not read "60.0 s".
        return format!("+{:.1} s", (ms / 100.0).floor() / 10.0);
    }
    let s = (ms / 1000.0) as u64;
    if s < 3600 { format!("+{} min {} s", s / 60, s % 60) } else { format!("+{} h {} min", s / 3600, s % 3600 / 60) }
}

/// How long a request took, in at most six characters: `3 ms`, `1.3 s`, `42 s`, `3 min`.
pub fn took(ms: f64) -> String {
    let ms = ms.max(0.0);
    match ms {
        _ if ms < 1000.0 => format!("{ms:.0} ms"),
        _ if ms < 10_000.0 => format!("{:.1} s", (ms / 100.0).floor() / 10.0),
        _ if ms < 60_000.0 => format!("{:.0} s", (ms / 1000.0).floor()),
        _ if ms < 3_600_000.0 => format!("{:.0} min", (ms / 60_000.0).floor()),
        _ => format!("{:.0} h", (ms / 3_600_000.0).floor()),
    }
}

/// The wall-clock time of `epoch_ms` in a zone `offset_min` minutes east of UTC:
/// `2026-11-24 12:03:04.123`.
pub fn wall_clock(epoch_ms: f64, offset_min: i32) -> String {
    let local = epoch_ms as i64 + i64::from(offset_min) * 60_000;
    let days = local.div_euclid(86_400_000);
    let in_day = local.rem_euclid(86_400_000);
    let (y, m, d) = civil(days);
    let (h, min, s, milli) = (in_day / 3_600_000, in_day / 60_000 % 60, in_day / 1000 % 60, in_day % 1000);
    format!("{y:04}-{m:02}-{d:02} {h:02}:{min:02}:{s:02}.{milli:03}")
}

/// Year, month and day of a day count from 1970-01-01 (the proleptic Gregorian calendar;
/// Howard Hinnant's algorithm, so no calendar crate is needed).
pub(crate) fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elapsed_reads_short() {
        assert_eq!(elapsed(0.0), "+0 ms");
        assert_eq!(elapsed(420.4), "+420 ms");
        assert_eq!(elapsed(1234.0), "+1.2 s");
        assert_eq!(elapsed(59_960.0), "+59.9 s");
        assert_eq!(elapsed(202_000.0), "+3 min 22 s");
        assert_eq!(elapsed(3_840_000.0), "+1 h 4 min");
        assert_eq!(elapsed(-3.0), "+0 ms", "a clock that stepped back reads as the start");
    }

    #[test]
    fn took_fits_its_column() {
        for (ms, want) in [(3.2, "3 ms"), (1349.0, "1.3 s"), (42_700.0, "42 s"), (202_000.0, "3 min"), (7.3e6, "2 h")] {
            assert_eq!(took(ms), want);
            assert!(took(ms).len() <= 6, "{want}");
        }
    }

    #[test]
    fn wall_clock_in_a_zone() {
        // 2026-11-24T12:03:04.123Z
        let at = 1_795_521_784_123.0;
        assert_eq!(wall_clock(at, 0), "2026-11-24 12:03:04.123");
        assert_eq!(wall_clock(at, 60), "2026-11-24 13:03:04.123");
        assert_eq!(wall_clock(at, -13 * 60), "2026-11-23 23:03:04.123", "across midnight");
        assert_eq!(wall_clock(951_782_400_000.0, 0), "2000-02-29 00:00:00.000", "a leap day");
    }
}
