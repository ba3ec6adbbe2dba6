//! The optional features: validated serde round trips and bytemuck casts.

#[cfg(feature = "serde")]
mod serde_round_trips {
    use cd_geom::*;
    use nalgebra::{Matrix3, Point2, Point3, Vector3};

    fn round_trip<S: serde::Serialize + serde::de::DeserializeOwned + PartialEq + core::fmt::Debug>(x: &S) {
        let json = serde_json::to_string(x).unwrap();
        let back: S = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, x, "{json}");
    }

    #[test]
    fn every_primitive_round_trips() {
        let (o, x, y) = (Point3::new(0.5f64, -1.0, 2.0), Vector3::x(), Vector3::y());
        round_trip(&Ray::new(o, x).unwrap().with_max_t(3.0).unwrap());
        round_trip(&Segment::new(o, Point3::origin()).unwrap());
        round_trip(&Line::new(o, y).unwrap());
        round_trip(&Plane::new(Vector3::new(0.0, 3.0, 4.0), 1.0).unwrap());
        round_trip(&Triangle::new(o, Point3::origin(), Point3::new(1.0, 1.0, 1.0)).unwrap());
        round_trip(&Ball::new(Point2::new(1.0f32, 2.0), 0.5).unwrap());
        let b = Aabb::new(Point3::origin(), Point3::new(1.0, 2.0, 3.0)).unwrap();
        round_trip(&b);
        round_trip(&Obb::from_aabb(&b));
        round_trip(&Capsule::new(o, Point3::origin(), 0.25).unwrap());
        round_trip(&Lozenge::new(o, x, y, 0.1).unwrap());
        round_trip(&Cylinder::new(o, Point3::origin(), 1.0).unwrap());
        round_trip(&Cone::new(o, Point3::origin(), 1.0).unwrap());
        round_trip(&Dop14::<f64>::from_points(&[o, Point3::origin()]).unwrap());
        let m = nalgebra::Matrix4::new_perspective(1.0, 1.0, 0.1, 10.0);
        round_trip(&Frustum::from_view_projection(&m).unwrap());
        round_trip(
            &Polygon::new(vec![Point2::new(0.0, 0.0), Point2::new(1.0, 0.0), Point2::new(0.0, 1.0)]).unwrap(),
        );
        round_trip(&ConvexPolyhedron::from_aabb(&b).unwrap());
    }

    #[test]
    fn invalid_documents_are_rejected() {
        assert!(serde_json::from_str::<Ball<f64, 3>>(r#"{"center":[0,0,0],"radius":-1}"#).is_err());
        assert!(serde_json::from_str::<Ball<f64, 3>>(r#"{"center":[0,0,0],"radius":1}"#).is_ok());
        assert!(serde_json::from_str::<Aabb<f64, 2>>(r#"{"min":[1,0],"max":[0,1]}"#).is_err());
        assert!(serde_json::from_str::<Ray<f64, 2>>(r#"{"origin":[0,0],"dir":[0,0],"max_t":1}"#).is_err());
        let skew = Matrix3::new(1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
        let doc = format!(
            r#"{{"center":[0,0,0],"axes":{},"half_extents":[1,1,1]}}"#,
            serde_json::to_string(&skew).unwrap()
        );
        assert!(serde_json::from_str::<Obb<f64, 3>>(&doc).is_err());
        assert!(serde_json::from_str::<Dop6<f64>>(r#"{"min":[0,0,0],"max":[1,1]}"#).is_err());
        assert!(serde_json::from_str::<Polygon<f64, 2>>(r#"{"vertices":[[0,0],[1,0],[2,0]]}"#).is_err());
        // A dented cube is not convex.
        let doc = r#"{"vertices":[[0,0,0],[1,0,0],[0,1,0],[1,1,0],[0,0,1],[1,0,1],[0,1,1],[0.5,0.5,0.2]],
            "faces":[[0,2,6,4],[1,5,7,3],[0,4,5,1],[2,3,7,6],[0,1,3,2],[4,6,7,5]]}"#;
        assert!(serde_json::from_str::<ConvexPolyhedron<f64>>(doc).is_err());
    }
}

#[cfg(feature = "bytemuck")]
mod bytemuck_casts {
    use cd_geom::*;
    use nalgebra::Point3;

    #[test]
    fn slices_of_primitives_cast_to_bytes_and_back() {
        let boxes: Vec<Aabb<f32, 3>> = (0..4)
            .map(|i| {
                Aabb::new(Point3::new(i as f32, 0.0, 0.0), Point3::new(i as f32 + 1.0, 1.0, 1.0)).unwrap()
            })
            .collect();
        let bytes: &[u8] = bytemuck::cast_slice(&boxes);
        assert_eq!(bytes.len(), 4 * 6 * 4);
        let floats: &[f32] = bytemuck::cast_slice(&boxes);
        assert_eq!(&floats[6..12], &[1.0, 0.0, 0.0, 2.0, 1.0, 1.0]);
        let back: &[Aabb<f32, 3>] = bytemuck::cast_slice(bytes);
        assert_eq!(back, &boxes[..]);
        let z: Obb<f64, 3> = bytemuck::Zeroable::zeroed();
        assert_eq!(z.half_extents().norm(), 0.0);
    }
}
