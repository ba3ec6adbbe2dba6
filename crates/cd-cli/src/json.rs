//! Small helpers for writing answers as JSON: vectors as `[x, y, z]` arrays.
//!
//! JSON has no NaN or infinity (serde_json would write `null`), so every writer here refuses a
//! non-finite number with an error instead of losing it silently.

use nalgebra::{Point3, Vector3};
use serde_json::Value;

/// A finite number, or an error naming what it was. Negative zero is written as `0.0`.
pub fn number(x: f64, what: &str) -> Result<Value, String> {
    if x.is_finite() {
        // -0.0 + 0.0 = +0.0: a normal of (1, -0, -0) reads as (1, 0, 0).
        Ok(Value::from(x + 0.0))
    } else {
        Err(format!("the {what} is not a finite number ({x})"))
    }
}

/// A vector as `[x, y, z]`, every component finite.
pub fn vector(v: &Vector3<f64>, what: &str) -> Result<Value, String> {
    Ok(Value::Array(vec![number(v.x, what)?, number(v.y, what)?, number(v.z, what)?]))
}

/// A point as `[x, y, z]`, every coordinate finite.
pub fn point(p: &Point3<f64>, what: &str) -> Result<Value, String> {
    vector(&p.coords, what)
}

/// Numbers as an array, every one finite.
pub fn numbers(xs: &[f64], what: &str) -> Result<Value, String> {
    xs.iter().map(|&x| number(x, what)).collect::<Result<Vec<_>, _>>().map(Value::Array)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn vectors_are_arrays_and_non_finite_numbers_are_refused() {
        assert_eq!(point(&Point3::new(1.0, -2.5, 0.0), "p").unwrap(), json!([1.0, -2.5, 0.0]));
        assert_eq!(numbers(&[1.0, 2.0], "k").unwrap(), json!([1.0, 2.0]));
        let err = vector(&Vector3::new(0.0, f64::NAN, 0.0), "normal").unwrap_err();
        assert!(err.contains("normal"), "{err}");
        assert!(number(f64::INFINITY, "depth").is_err());
        assert_eq!(number(-0.0, "x").unwrap().to_string(), "0.0");
    }
}
