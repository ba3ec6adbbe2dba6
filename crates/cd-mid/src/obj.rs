//! Wavefront OBJ loading into a [`TriMesh`].
//!
//! Accepted: `v x y z [w]` vertices; `f` faces of three or more corners (fanned into triangles
//! around the first corner), each corner `i`, `i/t`, `i//n` or `i/t/n`, 1-based or negative
//! (relative to the vertices read so far); the variant FCL's test data uses, whose first line is
//! two integers (vertex and face counts). Other statements (`vn`, `vt`, `o`, `g`, `s`, `usemtl`,
//! comments, …) are skipped.

use crate::error::{MidError, MidResult};
use crate::mesh::TriMesh;
use cd_geom::{Point, Real};

impl<T: Real> TriMesh<T> {
    /// Parses OBJ text (see the module documentation for the accepted subset). Errors name the
    /// line: malformed numbers, faces with fewer than three corners, indices that do not exist,
    /// invalid coordinates.
    pub fn from_obj(text: &str) -> MidResult<Self> {
        let mut vertices: Vec<Point<T, 3>> = Vec::new();
        let mut triangles: Vec<[u32; 3]> = Vec::new();
        let err = |line: usize, message: String| MidError::Obj { line, message };
        for (n, raw) in text.lines().enumerate() {
            let line_no = n + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            let mut words = line.split_whitespace();
            let Some(head) = words.next() else { continue };
            match head {
                "v" => {
                    let mut c = [T::zero(); 3];
                    for (k, slot) in c.iter_mut().enumerate() {
                        let w = words
                            .next()
                            .ok_or_else(|| err(line_no, format!("vertex has {k} coordinates")))?;
                        let x: f64 = w.parse().map_err(|_| err(line_no, format!("bad number {w:?}")))?;
                        *slot = T::lit(x);
                    }
                    vertices.push(Point::from(c));
                }
                "f" => {
                    let mut corners = Vec::with_capacity(4);
                    for w in words {
                        let idx = w.split('/').next().unwrap_or("");
                        let i: i64 =
                            idx.parse().map_err(|_| err(line_no, format!("bad face index {w:?}")))?;
                        let resolved = if i > 0 {
                            i - 1
                        } else if i < 0 {
                            vertices.len() as i64 + i
                        } else {
                            return Err(err(line_no, "face index 0 (OBJ indices start at 1)".into()));
                        };
                        if resolved < 0 || resolved >= vertices.len() as i64 {
                            return Err(err(line_no, format!("face index {i} does not name a vertex")));
                        }
                        corners.push(resolved as u32);
                    }
                    if corners.len() < 3 {
                        return Err(err(line_no, format!("face has {} corners", corners.len())));
                    }
                    for k in 1..corners.len() - 1 {
                        triangles.push([corners[0], corners[k], corners[k + 1]]);
                    }
                }
                // FCL's header line "N M": two integers and nothing else, first line only.
                _ if line_no == 1
                    && line.split_whitespace().count() == 2
                    && line.split_whitespace().all(|w| w.parse::<u64>().is_ok()) => {}
                _ => {}
            }
        }
        TriMesh::new(vertices, triangles).map_err(|e| match e {
            MidError::Geom(g) => MidError::Obj { line: 0, message: format!("invalid vertex: {g}") },
            other => other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_fans_negative_indices_and_fcl_header() {
        let text =
            "2 1\n# quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1 4//1\nf -4 -3 -1\n";
        let m = TriMesh::<f64>::from_obj(text).unwrap();
        assert_eq!(m.vertices().len(), 4);
        assert_eq!(m.indices(), &[[0, 1, 2], [0, 2, 3], [0, 1, 3]]);
    }

    #[test]
    fn reports_bad_lines() {
        assert!(matches!(TriMesh::<f64>::from_obj("v 0 0\n"), Err(MidError::Obj { line: 1, .. })));
        assert!(matches!(TriMesh::<f64>::from_obj("v 0 0 0\nf 1 2 3\n"), Err(MidError::Obj { line: 2, .. })));
        assert!(matches!(TriMesh::<f64>::from_obj("v 0 0 0\nf 1 1\n"), Err(MidError::Obj { line: 2, .. })));
        assert!(matches!(TriMesh::<f64>::from_obj("v nan 0 0\n"), Err(MidError::Obj { .. })));
    }
}
