//! The benchmark's one table, in Markdown: each figure for the floor (direct), ours and the
//! official inspector, with the ratios that say how far each is from the floor and from
//! each other.

/// One line of figures; `None` is a cell that does not apply or was not measured.
#[derive(Debug, Clone)]
pub struct Row {
    label: String,
    direct: Option<f64>,
    ours: Option<f64>,
    inspector: Option<f64>,
    /// Whether to print the ratios to direct.
    to_direct: bool,
}

impl Row {
    /// A figure measured on all three call paths, with ratios to direct.
    pub fn calls(label: &str, direct: Option<f64>, ours: Option<f64>, inspector: Option<f64>) -> Self {
        Self { label: label.into(), direct, ours, inspector, to_direct: true }
    }

    /// A figure without a meaningful ratio to direct.
    pub fn plain(label: &str, direct: Option<f64>, ours: Option<f64>, inspector: Option<f64>) -> Self {
        Self { label: label.into(), direct, ours, inspector, to_direct: false }
    }

    /// A figure of the pages: ours beside the inspector's.
    pub fn page(label: &str, ours: Option<f64>, inspector: Option<f64>) -> Self {
        Self::plain(label, None, ours, inspector)
    }
}

#[derive(Debug, Default)]
pub struct Table {
    lines: Vec<Result<Row, String>>,
}

fn num(v: Option<f64>) -> String {
    match v {
        None => "–".into(),
        Some(x) if !x.is_finite() => "–".into(),
        Some(x) if x.abs() >= 100.0 => format!("{x:.0}"),
        Some(x) if x.abs() >= 10.0 => format!("{x:.1}"),
        Some(x) => format!("{x:.2}"),
    }
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b != 0.0 && a.is_finite() && b.is_finite() => format!("{:.2}×", a / b),
        _ => "–".into(),
    }
}

impl Table {
    pub fn section(&mut self, title: &str) {
        self.lines.push(Err(title.to_owned()));
    }

    pub fn push(&mut self, row: Row) {
        self.lines.push(Ok(row));
    }

    pub fn render(&self) -> String {
        let mut out = String::from(
            "| figure | direct stdio | this relay / page | official inspector | ours ÷ direct | inspector ÷ direct | ours ÷ inspector |\n\
             |---|---:|---:|---:|---:|---:|---:|\n",
        );
        for line in &self.lines {
            match line {
                Err(title) => out.push_str(&format!("| **{title}** | | | | | | |\n")),
                Ok(r) => {
                    let (od, id) = if r.to_direct {
                        (ratio(r.ours, r.direct), ratio(r.inspector, r.direct))
                    } else {
                        ("–".into(), "–".into())
                    };
                    out.push_str(&format!(
                        "| {} | {} | {} | {} | {od} | {id} | {} |\n",
                        r.label,
                        num(r.direct),
                        num(r.ours),
                        num(r.inspector),
                        ratio(r.ours, r.inspector)
                    ));
                }
            }
        }
        out
    }
}
