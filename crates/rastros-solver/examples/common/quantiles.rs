//! The summary of a series of times that the examples print: count, median, p90, p99, max.

use serde_json::json;

/// The `q` quantile (0 to 1) of sorted `xs`, nearest rank; NaN for an empty series.
pub fn quantile(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let i = ((q * xs.len() as f64).ceil() as usize).clamp(1, xs.len()) - 1;
    xs[i]
}

/// `n`, `median_UNIT`, `p90_UNIT`, `p99_UNIT` and `max_UNIT` of `xs`, in the unit of its
/// values.
pub fn summary(mut xs: Vec<f64>, unit: &str) -> serde_json::Value {
    xs.sort_by(f64::total_cmp);
    json!({
        "n": xs.len(),
        format!("median_{unit}"): quantile(&xs, 0.5),
        format!("p90_{unit}"): quantile(&xs, 0.9),
        format!("p99_{unit}"): quantile(&xs, 0.99),
        format!("max_{unit}"): xs.last().copied().unwrap_or(f64::NAN),
    })
}
