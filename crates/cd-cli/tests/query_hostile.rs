//! Hostile query documents, in process: random mixes of valid and broken shapes, poses and
//! fields (wrong types, wrong lengths, zero, negative, huge and subnormal numbers, degenerate
//! geometry). `query::run` must never panic, must answer every query in order with its id, and
//! every answer is either an error message or a complete result.

use proptest::prelude::*;
use serde_json::{json, Value};

/// A number from the awkward set or a plain one.
fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(0.0)),
        Just(json!(-1.0)),
        Just(json!(1e308)),
        Just(json!(-1e308)),
        Just(json!(5e-324)),
        Just(json!(1e-300)),
        Just(json!(1e20)),
        (-3.0f64..3.0).prop_map(|x| json!(x)),
        (-3.0f64..3.0).prop_map(|x| json!(x)),
        (-3.0f64..3.0).prop_map(|x| json!(x)),
    ]
}

/// A vector, or something that is not one.
fn vector() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => prop::collection::vec(number(), 3).prop_map(Value::from),
        1 => prop::collection::vec(number(), 0..5).prop_map(Value::from),
        1 => Just(json!("up")),
        1 => Just(Value::Null),
    ]
}

fn pose() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        vector().prop_map(|t| json!({"translation": t})),
        (vector(), prop::collection::vec(number(), 4))
            .prop_map(|(t, q)| json!({"translation": t, "rotation": q})),
        (vector(), -3.0f64..3.0, -1.0f64..1.0).prop_map(|(t, a, s)| {
            let (c, n) = ((a / 2.0).cos(), (a / 2.0).sin());
            json!({"translation": t, "rotation": [c, n * s, n * (1.0 - s * s).sqrt(), 0.0]})
        }),
        Just(json!({"rotation": "none"})),
    ]
}

fn shape() -> impl Strategy<Value = Value> {
    prop_oneof![
        number().prop_map(|r| json!({"type": "sphere", "radius": r})),
        vector().prop_map(|h| json!({"type": "cuboid", "half_extents": h})),
        (number(), number()).prop_map(|(h, r)| json!({"type": "capsule", "half_height": h, "radius": r})),
        (number(), number()).prop_map(|(h, r)| json!({"type": "cylinder", "half_height": h, "radius": r})),
        prop::collection::vec(vector(), 3).prop_map(|v| json!({"type": "triangle", "vertices": v})),
        prop::collection::vec(vector(), 0..9).prop_map(|p| json!({"type": "convex", "points": p})),
        (
            prop::collection::vec(vector(), 0..6),
            prop::collection::vec(prop::collection::vec(0u32..8, 3), 0..5)
        )
            .prop_map(|(v, t)| json!({"type": "mesh", "vertices": v, "triangles": t})),
        Just(json!({"type": "mesh", "obj": "/definitely/not/here.obj"})),
        Just(json!({"type": "blob"})),
        Just(json!("ball")),
        Just(json!("nothing-by-this-name")),
        Just(json!(42)),
    ]
}

fn query() -> impl Strategy<Value = Value> {
    let kind = prop_oneof![
        Just("intersects"),
        Just("distance"),
        Just("contact"),
        Just("ray"),
        Just("toi"),
        Just("warp"),
    ];
    (kind, shape(), pose(), shape(), pose(), vector(), vector(), number(), any::<bool>(), vector(), vector())
        .prop_map(|(kind, a, pa, b, pb, v1, v2, t, solid, w1, w2)| {
            json!({
                "id": kind, "query": kind,
                "a": a, "pose_a": pa, "b": b, "pose_b": pb,
                "shape": a, "pose": pa, "origin": v1, "direction": v2, "max_toi": t, "solid": solid,
                "velocity_a": v1, "velocity_b": v2, "angular_velocity_a": w1, "angular_velocity_b": w2,
            })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn hostile_documents_never_panic_and_answer_every_query(queries in prop::collection::vec(query(), 1..6)) {
        let doc = json!({"shapes": {"ball": {"type": "sphere", "radius": 1.0}}, "queries": queries});
        let out = cd_cli::query::run(&doc.to_string(), std::path::Path::new(".")).expect("a JSON object with queries is readable");
        let results = out["results"].as_array().unwrap();
        prop_assert_eq!(results.len(), queries.len());
        for (r, q) in results.iter().zip(&queries) {
            prop_assert_eq!(&r["id"], &q["id"]);
            if let Some(message) = r.get("error") {
                prop_assert!(message.as_str().is_some_and(|m| !m.is_empty()));
                continue;
            }
            let fields: &[&str] = match q["query"].as_str().unwrap() {
                "intersects" => &["intersects"],
                "distance" => &["distance", "point_a", "point_b"],
                "contact" => &["intersects", "depth", "normal", "point_a", "point_b", "distance"],
                "ray" => &["hit", "toi", "normal", "point"],
                "toi" => &["hit", "toi", "normal", "point_a", "point_b"],
                other => return Err(TestCaseError::fail(format!("query kind {other} answered"))),
            };
            for f in fields {
                prop_assert!(r.get(*f).is_some(), "{} lacks {}: {}", q["query"], f, r);
            }
            if r.get("hit") == Some(&json!(true)) || r.get("distance").is_some() {
                // A hit or a distance carries numbers, never null.
                for f in fields.iter().filter(|f| **f != "hit" && **f != "intersects") {
                    prop_assert!(!r[*f].is_null(), "{} has null {}: {}", q["query"], f, r);
                }
            }
        }
    }
}
