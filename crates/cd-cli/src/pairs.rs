//! `collide pairs`: boxes over frames through a broad phase, pairs and events out.
//!
//! Input: `{"frames": [[BOX, ...], ...]}`, `BOX = [minx, miny, minz, maxx, maxy, maxz]` or
//! `null` (the object is absent in that frame). Object `i` of every frame is the same object:
//! it is inserted when it first appears, updated while present, removed when it becomes `null`
//! (or when a later frame is shorter than its index).
//!
//! Output: `{"frames": [{"pairs": [[i, j], ...], "added": [...], "removed": [...]}, ...]}`
//! with `i < j`, each list sorted.

use cd::broad::BroadPhase;
use cd::geom::Aabb;
use nalgebra::Point3;
use serde_json::{json, Value};

use crate::CliError;

/// One frame's answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameResult {
    /// Every overlapping pair, sorted.
    pub pairs: Vec<[u32; 2]>,
    /// Pairs that started overlapping this frame, sorted.
    pub added: Vec<[u32; 2]>,
    /// Pairs that stopped overlapping (or lost an object) this frame, sorted.
    pub removed: Vec<[u32; 2]>,
}

/// Parses the document into frames of optional boxes. Errors name the frame and object.
pub fn parse(text: &str) -> Result<Vec<Vec<Option<Aabb<f64, 3>>>>, CliError> {
    let bad = |m: String| CliError::Input(m);
    let doc: Value =
        serde_json::from_str(text).map_err(|e| bad(format!("the pairs document is not JSON: {e}")))?;
    let frames = doc
        .get("frames")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("the document needs \"frames\": an array of frames".into()))?;
    let mut out = Vec::with_capacity(frames.len());
    for (f, frame) in frames.iter().enumerate() {
        let boxes = frame.as_array().ok_or_else(|| bad(format!("frame {f} is not an array of boxes")))?;
        if boxes.len() > u32::MAX as usize {
            return Err(bad(format!("frame {f} has too many objects")));
        }
        let mut parsed = Vec::with_capacity(boxes.len());
        for (i, b) in boxes.iter().enumerate() {
            if b.is_null() {
                parsed.push(None);
                continue;
            }
            let numbers: Vec<f64> = b
                .as_array()
                .filter(|a| a.len() == 6)
                .and_then(|a| a.iter().map(Value::as_f64).collect())
                .ok_or_else(|| bad(format!("frame {f}, object {i}: a box is six numbers [minx, miny, minz, maxx, maxy, maxz] or null")))?;
            let aabb = Aabb::new(
                Point3::new(numbers[0], numbers[1], numbers[2]),
                Point3::new(numbers[3], numbers[4], numbers[5]),
            )
            .map_err(|e| bad(format!("frame {f}, object {i}: invalid box: {e}")))?;
            parsed.push(Some(aabb));
        }
        out.push(parsed);
    }
    Ok(out)
}

/// Feeds the frames to `broad` and collects each frame's pairs and events.
pub fn run(
    frames: &[Vec<Option<Aabb<f64, 3>>>],
    broad: &mut dyn BroadPhase<f64, 3>,
) -> Result<Vec<FrameResult>, CliError> {
    let run_err = |e: cd::broad::BroadPhaseError| CliError::Run(format!("broad phase: {e}"));
    let mut present: Vec<bool> = Vec::new();
    let mut results = Vec::with_capacity(frames.len());
    let bar = crate::progress::bar(frames.len() as u64, "frames");
    for frame in frames {
        let objects = frame.len().max(present.len());
        present.resize(objects, false);
        for (i, was) in present.iter_mut().enumerate() {
            let id = i as u32;
            match (frame.get(i).copied().flatten(), *was) {
                (Some(b), false) => broad.insert(id, b).map_err(run_err)?,
                (Some(b), true) => broad.update(id, b).map_err(run_err)?,
                (None, true) => broad.remove(id).map_err(run_err)?,
                (None, false) => {}
            }
            *was = frame.get(i).copied().flatten().is_some();
        }
        broad.find_pairs();
        let list = |pairs: &[(u32, u32)]| {
            let mut v: Vec<[u32; 2]> = pairs.iter().map(|&(a, b)| [a.min(b), a.max(b)]).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        results.push(FrameResult {
            pairs: list(broad.pairs()),
            added: list(broad.added()),
            removed: list(broad.removed()),
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(results)
}

/// The output document.
pub fn to_json(results: &[FrameResult]) -> Value {
    let frames: Vec<Value> =
        results.iter().map(|r| json!({"pairs": r.pairs, "added": r.added, "removed": r.removed})).collect();
    json!({ "frames": frames })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_appear_move_and_vanish() {
        let text = r#"{"frames": [
            [[0,0,0,1,1,1], [0.5,0.5,0.5,2,2,2], null],
            [[0,0,0,1,1,1], [5,5,5,6,6,6], [0.9,0,0,3,1,1]],
            [[0,0,0,1,1,1]]
        ]}"#;
        let frames = parse(text).unwrap();
        for name in crate::strategy::NAMES {
            let mut broad = crate::strategy::by_name(name).unwrap();
            let r = run(&frames, broad.as_mut()).unwrap();
            assert_eq!(
                r[0],
                FrameResult { pairs: vec![[0, 1]], added: vec![[0, 1]], removed: vec![] },
                "{name}"
            );
            assert_eq!(
                r[1],
                FrameResult { pairs: vec![[0, 2]], added: vec![[0, 2]], removed: vec![[0, 1]] },
                "{name}"
            );
            assert_eq!(r[2], FrameResult { pairs: vec![], added: vec![], removed: vec![[0, 2]] }, "{name}");
        }
    }

    #[test]
    fn bad_boxes_name_their_place() {
        let e = parse(r#"{"frames": [[[0,0,0,1,1,1]], [[0,0,0,1,1]]]}"#).unwrap_err();
        assert!(e.to_string().contains("frame 1, object 0"), "{e}");
        let e = parse(r#"{"frames": [[[2,0,0,1,1,1]]]}"#).unwrap_err();
        assert!(e.to_string().contains("invalid box"), "{e}");
        assert!(parse("[1, 2]").is_err());
    }
}
