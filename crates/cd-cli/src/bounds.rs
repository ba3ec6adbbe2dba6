//! `collide bounds`: every bounding volume cd-bv builds for a mesh's vertices, in f64.
//!
//! The JSON form is a contract (see [`Bounds::to_json`]); the text form is for people.
//!
//! What each entry is:
//! * `spheres.aabb`: centred at the AABB's centre, radius to the farthest vertex (the tight
//!   sphere for that centre; the half-diagonal sphere is never smaller);
//! * `spheres.ritter`: Ritter 1990; `spheres.epos`: EPOS with the s = 49 direction set
//!   (98 extremal points); `spheres.welzl`: the exact minimal enclosing sphere;
//! * `obbs.pca` (covariance of the vertices), `obbs.pca_hull` (of the hull's vertices),
//!   `obbs.dito14`, `obbs.dito26` (Larsson–Källberg), `obbs.tight` (minimum volume over the
//!   hull's face and edge directions: the reference the others are measured against);
//! * `kdops`: slab values over cd-geom's direction tables (integer directions, not normalised:
//!   each value is in units of its direction's length);
//! * `hull`: the convex hull's vertex and (merged, polygonal) face counts, volume and surface
//!   area. A flat mesh's hull is a polygon: one face, no volume, and twice the polygon's area
//!   (the limit of a flattened solid's surface).

use std::fmt::Write as _;

use cd::bv::{
    aabb_from_points, ball_aabb_farthest, convex_hull, epos_ball, kdop_from_points, minimal_ball, obb_dito14,
    obb_dito26, obb_pca, obb_pca_hull, obb_reference, ritter_ball, EposSet, Hull, ObbMetric,
};
use cd::geom::{kdop_directions, Aabb, Ball, GeomError, Kdop, Obb};
use cd::mid::TriMesh;
use nalgebra::{Point3, Vector3};
use serde_json::{json, Map, Value};

use crate::json::{number, numbers, point, vector};

/// Every bounding volume of one point set.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// Distinct vertex positions.
    pub vertices: usize,
    /// Triangles of the mesh.
    pub triangles: usize,
    /// The axis-aligned box.
    pub aabb: Aabb<f64, 3>,
    /// Spheres by method, in the JSON order.
    pub spheres: Vec<(&'static str, Ball<f64, 3>)>,
    /// Oriented boxes by method, in the JSON order.
    pub obbs: Vec<(&'static str, Obb<f64, 3>)>,
    /// The 14-, 18- and 26-DOPs as (k, min slabs, max slabs).
    pub kdops: Vec<(usize, Vec<f64>, Vec<f64>)>,
    /// The convex hull's summary.
    pub hull: HullSummary,
}

/// What `bounds` reports of the convex hull.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullSummary {
    /// Hull vertices.
    pub vertices: usize,
    /// Polygonal faces (coplanar triangles merged).
    pub faces: usize,
    /// Enclosed volume.
    pub volume: f64,
    /// Surface area.
    pub area: f64,
}

/// An OBB's volume.
pub fn obb_volume(o: &Obb<f64, 3>) -> f64 {
    let h = o.half_extents();
    8.0 * h.x * h.y * h.z
}

/// An OBB's full surface area.
pub fn obb_area(o: &Obb<f64, 3>) -> f64 {
    let h = o.half_extents();
    8.0 * (h.x * h.y + h.y * h.z + h.z * h.x)
}

fn kdop<const N: usize>(points: &[Point3<f64>]) -> Result<(usize, Vec<f64>, Vec<f64>), String> {
    let k: Kdop<f64, 3, N> = kdop_from_points(points).map_err(|e| format!("{}-DOP: {e}", 2 * N))?;
    Ok((2 * N, k.min().to_vec(), k.max().to_vec()))
}

/// The hull summary; lower-dimensional hulls report no volume (see the module documentation).
fn hull_summary(points: &[Point3<f64>]) -> Result<HullSummary, GeomError> {
    Ok(match convex_hull(points)? {
        Hull::Point(_) => HullSummary { vertices: 1, faces: 0, volume: 0.0, area: 0.0 },
        Hull::Segment(..) => HullSummary { vertices: 2, faces: 0, volume: 0.0, area: 0.0 },
        Hull::Polygon(ps) => {
            // Fan area of a planar convex polygon.
            let mut twice: Vector3<f64> = Vector3::zeros();
            for k in 1..ps.len().saturating_sub(1) {
                twice += (ps[k] - ps[0]).cross(&(ps[k + 1] - ps[0]));
            }
            HullSummary { vertices: ps.len(), faces: 1, volume: 0.0, area: twice.norm() }
        }
        Hull::Polyhedron(p) => HullSummary {
            vertices: p.vertices().len(),
            faces: p.faces().len(),
            volume: p.volume(),
            area: p.surface_area(),
        },
    })
}

impl Bounds {
    /// Computes every volume for a mesh. Errors name the volume that failed.
    pub fn of_mesh(mesh: &TriMesh<f64>) -> Result<Bounds, String> {
        let points = mesh.vertices();
        let named = |what: &'static str| move |e: GeomError| format!("{what}: {e}");
        let spheres = vec![
            ("aabb", ball_aabb_farthest(points).map_err(named("AABB sphere"))?),
            ("ritter", ritter_ball(points).map_err(named("Ritter sphere"))?),
            ("epos", epos_ball(points, EposSet::Epos98).map_err(named("EPOS sphere"))?),
            ("welzl", minimal_ball(points).map_err(named("Welzl sphere"))?),
        ];
        let obbs = vec![
            ("pca", obb_pca(points).map_err(named("PCA OBB"))?),
            ("pca_hull", obb_pca_hull(points).map_err(named("hull PCA OBB"))?),
            ("dito14", obb_dito14(points).map_err(named("DiTO-14 OBB"))?),
            ("dito26", obb_dito26(points).map_err(named("DiTO-26 OBB"))?),
            ("tight", obb_reference(points, ObbMetric::Volume).map_err(named("tight OBB"))?),
        ];
        Ok(Bounds {
            vertices: crate::mesh_io::unique_vertex_count(mesh),
            triangles: mesh.len(),
            aabb: aabb_from_points(points).map_err(named("AABB"))?,
            spheres,
            obbs,
            kdops: vec![kdop::<7>(points)?, kdop::<9>(points)?, kdop::<13>(points)?],
            hull: hull_summary(points).map_err(named("convex hull"))?,
        })
    }

    /// The JSON contract of `collide bounds --json`:
    ///
    /// ```text
    /// {"vertices": n, "triangles": n,
    ///  "aabb": {"min": V, "max": V},
    ///  "spheres": {"aabb": S, "ritter": S, "epos": S, "welzl": S},
    ///  "obbs": {"pca": O, "pca_hull": O, "dito14": O, "dito26": O, "tight": O},
    ///  "kdops": {"14": K, "18": K, "26": K},
    ///  "hull": {"vertices": n, "faces": n, "volume": x, "area": x}}
    /// ```
    /// with `S = {"center": V, "radius": x}`, `O = {"center": V, "axes": [V, V, V],
    /// "half_extents": V, "volume": x, "area": x}` (axes: the box's unit column directions)
    /// and `K = {"min": [..], "max": [..]}` (one value per direction, in cd-geom's table order).
    pub fn to_json(&self) -> Result<Value, String> {
        let mut spheres = Map::new();
        for (name, b) in &self.spheres {
            spheres.insert(
                name.to_string(),
                json!({"center": point(b.center(), "sphere centre")?, "radius": number(b.radius(), "radius")?}),
            );
        }
        let mut obbs = Map::new();
        for (name, o) in &self.obbs {
            let axes = (0..3).map(|i| vector(&o.axis(i), "OBB axis")).collect::<Result<Vec<_>, _>>()?;
            obbs.insert(
                name.to_string(),
                json!({
                    "center": point(o.center(), "OBB centre")?,
                    "axes": axes,
                    "half_extents": vector(o.half_extents(), "half extent")?,
                    "volume": number(obb_volume(o), "OBB volume")?,
                    "area": number(obb_area(o), "OBB area")?,
                }),
            );
        }
        let mut kdops = Map::new();
        for (k, min, max) in &self.kdops {
            kdops.insert(k.to_string(), json!({"min": numbers(min, "slab")?, "max": numbers(max, "slab")?}));
        }
        Ok(json!({
            "vertices": self.vertices,
            "triangles": self.triangles,
            "aabb": {"min": point(self.aabb.min(), "AABB corner")?, "max": point(self.aabb.max(), "AABB corner")?},
            "spheres": spheres,
            "obbs": obbs,
            "kdops": kdops,
            "hull": {
                "vertices": self.hull.vertices,
                "faces": self.hull.faces,
                "volume": number(self.hull.volume, "hull volume")?,
                "area": number(self.hull.area, "hull area")?,
            },
        }))
    }

    /// A table for people: each volume's size, and how it compares with the tightest of its kind.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let v = |p: &Vector3<f64>| format!("({:.6}, {:.6}, {:.6})", p.x, p.y, p.z);
        let _ = writeln!(s, "{} vertices, {} triangles", self.vertices, self.triangles);
        let _ =
            writeln!(s, "AABB        min {}  max {}", v(&self.aabb.min().coords), v(&self.aabb.max().coords));
        let best_r = self.spheres.iter().map(|(_, b)| b.radius()).fold(f64::INFINITY, f64::min);
        let _ = writeln!(s, "\nsphere      radius        vs smallest  centre");
        for (name, b) in &self.spheres {
            let _ = writeln!(
                s,
                "{name:<11} {:<13.6} {:<12.4} {}",
                b.radius(),
                b.radius() / best_r,
                v(&b.center().coords)
            );
        }
        let best_v = self.obbs.iter().map(|(_, o)| obb_volume(o)).fold(f64::INFINITY, f64::min);
        let _ = writeln!(s, "\nOBB         volume        vs smallest  area          half extents");
        for (name, o) in &self.obbs {
            let vol = obb_volume(o);
            let _ = writeln!(
                s,
                "{name:<11} {vol:<13.6} {:<12.4} {:<13.6} {}",
                vol / best_v,
                obb_area(o),
                v(o.half_extents())
            );
        }
        let _ = writeln!(s, "\nk-DOP       slabs (min..max per direction)");
        for (k, min, max) in &self.kdops {
            let dirs: Vec<String> =
                directions(*k).iter().map(|d| format!("{:+}{:+}{:+}", d[0], d[1], d[2])).collect();
            let slabs: Vec<String> =
                min.iter().zip(max).zip(&dirs).map(|((a, b), d)| format!("{d}: {a:.4}..{b:.4}")).collect();
            let _ = writeln!(s, "{:<11} {}", format!("{k}-DOP"), slabs.join("  "));
        }
        let h = &self.hull;
        let _ = writeln!(
            s,
            "\nhull        {} vertices, {} faces, volume {:.6}, area {:.6}",
            h.vertices, h.faces, h.volume, h.area
        );
        s
    }
}

/// The integer directions of the k-DOP (for the text table).
fn directions(k: usize) -> Vec<[i32; 3]> {
    fn table<const N: usize>() -> Vec<[i32; 3]> {
        kdop_directions::<f64, 3, N>()
            .map(|d| d.iter().map(|v| [v.x as i32, v.y as i32, v.z as i32]).collect())
            .unwrap_or_default()
    }
    match k {
        14 => table::<7>(),
        18 => table::<9>(),
        26 => table::<13>(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube() -> TriMesh<f64> {
        let v: Vec<Point3<f64>> = (0..8)
            .map(|i| Point3::new((i & 1) as f64 * 2.0, (i >> 1 & 1) as f64, (i >> 2 & 1) as f64))
            .collect();
        let t = vec![
            [0, 2, 1],
            [1, 2, 3],
            [4, 5, 6],
            [5, 7, 6],
            [0, 1, 4],
            [1, 5, 4],
            [2, 6, 3],
            [3, 6, 7],
            [0, 4, 2],
            [2, 4, 6],
            [1, 3, 5],
            [3, 7, 5],
        ];
        TriMesh::new(v, t).unwrap()
    }

    #[test]
    fn a_box_mesh_gets_exact_volumes() {
        let b = Bounds::of_mesh(&cube()).unwrap();
        assert_eq!((b.vertices, b.triangles), (8, 12));
        assert_eq!(b.hull, HullSummary { vertices: 8, faces: 6, volume: 2.0, area: 10.0 });
        let welzl = b.spheres.iter().find(|s| s.0 == "welzl").unwrap().1;
        assert!((welzl.radius() - 6f64.sqrt() / 2.0).abs() < 1e-12);
        for (name, o) in &b.obbs {
            assert!(obb_volume(o) >= 2.0 - 1e-9, "{name}");
        }
        let tight = b.obbs.iter().find(|o| o.0 == "tight").unwrap().1;
        assert!((obb_volume(&tight) - 2.0).abs() < 1e-9 && (obb_area(&tight) - 10.0).abs() < 1e-9);
        let json = b.to_json().unwrap();
        assert_eq!(json["kdops"]["14"]["min"].as_array().unwrap().len(), 7);
        assert_eq!(json["kdops"]["26"]["max"][0], 2.0);
        assert!(b.to_text().contains("26-DOP"));
    }

    #[test]
    fn a_flat_mesh_has_a_polygon_hull() {
        let m = TriMesh::new(
            vec![
                Point3::new(0.0, 0.0, 0.0),
                Point3::new(1.0, 0.0, 0.0),
                Point3::new(1.0, 1.0, 0.0),
                Point3::new(0.0, 1.0, 0.0),
            ],
            vec![[0, 1, 2], [0, 2, 3]],
        )
        .unwrap();
        let b = Bounds::of_mesh(&m).unwrap();
        assert_eq!(b.hull, HullSummary { vertices: 4, faces: 1, volume: 0.0, area: 2.0 });
        // The boxes are flat too, and still hold every vertex.
        for (name, o) in &b.obbs {
            assert!(obb_volume(o) < 1e-9, "{name}");
        }
    }
}
