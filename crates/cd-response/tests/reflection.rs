//! The reflection response: energy conserved with k = 1 and no friction, lost with k < 1,
//! friction never reverses sliding; a ball bouncing in a box for 10,000 steps keeps its energy
//! (k = 1) and never leaves the box.

use cd_response::{advance_with_bounce, reflect, Material};
use nalgebra::{Point3, Vector3};

struct Rng(u64);
impl Rng {
    fn f(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn v(&mut self, s: f64) -> Vector3<f64> {
        Vector3::new(self.f() - 0.5, self.f() - 0.5, self.f() - 0.5) * (2.0 * s)
    }
}

#[test]
fn energy_is_kept_with_k_1_and_lost_with_k_below_1() {
    let mut rng = Rng(1);
    for _ in 0..1000 {
        let v = rng.v(10.0);
        let n = rng.v(1.0).normalize();
        let e0 = v.norm_squared();
        let elastic = reflect(&v, &n, &Material::elastic());
        assert!((elastic.norm_squared() - e0).abs() <= 1e-12 * e0.max(1.0));
        let k = rng.f();
        let damped = reflect(&v, &n, &Material::new(k, 0.0).unwrap());
        let vn = v.dot(&n);
        if vn < 0.0 {
            // |v'|² = |v_p|² + k² v_n²: exactly the normal energy lost.
            let expected = e0 - vn * vn * (1.0 - k * k);
            assert!((damped.norm_squared() - expected).abs() <= 1e-9 * e0.max(1.0));
            assert!(damped.dot(&n) >= 0.0, "the body leaves the surface");
        } else {
            assert_eq!(damped, v, "a separating body is not touched");
        }
    }
}

#[test]
fn friction_slows_sliding_but_never_reverses_it() {
    let mut rng = Rng(2);
    for _ in 0..1000 {
        let n = Vector3::y();
        let v = Vector3::new(rng.f() * 10.0 - 5.0, -rng.f() * 5.0, rng.f() * 10.0 - 5.0);
        let m = Material::new(rng.f(), rng.f() * 2.0).unwrap();
        let out = reflect(&v, &n, &m);
        let (tin, tout) = (Vector3::new(v.x, 0.0, v.z), Vector3::new(out.x, 0.0, out.z));
        assert!(tout.norm() <= tin.norm() + 1e-12);
        assert!(tout.dot(&tin) >= -1e-12, "friction reversed the sliding direction");
        let slowed_by = tin.norm() - tout.norm();
        assert!(
            slowed_by <= m.friction() * (1.0 + m.restitution()) * -v.y + 1e-12,
            "more than Coulomb allows"
        );
    }
}

#[test]
fn a_ball_bouncing_in_a_box_keeps_its_energy_and_stays_inside() {
    // A ball of radius 0.5 in the box [-5, 5]³ at up to 40 units per step: it hits a wall most
    // steps and sometimes two in one step, each hit found exactly (plane crossing of the centre
    // against the wall moved in by the radius) and answered by the reflection.
    let (half, r): (f64, f64) = (5.0, 0.5);
    let mut rng = Rng(3);
    let mut p: Point3<f64> = Point3::origin();
    let mut v = rng.v(40.0);
    let e0 = v.norm_squared();
    let material = Material::elastic();
    for _ in 0..10_000 {
        let mut remaining = 1.0;
        for _ in 0..8 {
            // The earliest wall the centre reaches within the remaining time.
            let mut hit: Option<(f64, Vector3<f64>)> = None;
            for axis in 0..3 {
                for side in [-1.0, 1.0] {
                    let speed = v[axis] * side;
                    if speed > 0.0 {
                        let t = ((half - r) - p[axis] * side) / speed;
                        if t <= remaining && hit.is_none_or(|(best, _)| t < best) {
                            let mut n = Vector3::zeros();
                            n[axis] = -side;
                            hit = Some((t.max(0.0), n));
                        }
                    }
                }
            }
            match hit {
                Some((t, n)) => {
                    let (np, nv) = advance_with_bounce(&p, &v, t, Some((t, n)), &material);
                    (p, v) = (np, nv);
                    remaining -= t;
                }
                None => {
                    let (np, nv) = advance_with_bounce(&p, &v, remaining, None, &material);
                    (p, v) = (np, nv);
                    break;
                }
            }
        }
        assert!(p.iter().all(|x| x.abs() <= half - r + 1e-9), "left the box at {p:?}");
    }
    assert!((v.norm_squared() - e0).abs() <= 1e-9 * e0, "energy drifted: {} vs {e0}", v.norm_squared());
}

#[test]
fn bad_materials_are_typed_errors() {
    use cd_geom::GeomError;
    assert_eq!(Material::new(f64::NAN, 0.0).unwrap_err(), GeomError::NonFinite);
    assert_eq!(Material::new(0.5, f64::INFINITY).unwrap_err(), GeomError::NonFinite);
    assert_eq!(Material::new(-0.1, 0.0).unwrap_err(), GeomError::Negative);
    assert_eq!(Material::new(0.5, -1.0).unwrap_err(), GeomError::Negative);
    assert_eq!(Material::new(1.5, 0.0).unwrap_err(), GeomError::OutOfRange);
    // A NaN normal or a zero one gives no response rather than NaN.
    let v = Vector3::new(1.0, -1.0, 0.0);
    assert_eq!(reflect(&v, &Vector3::new(f64::NAN, 0.0, 0.0), &Material::elastic()), v);
    assert_eq!(reflect(&v, &Vector3::zeros(), &Material::elastic()), v);
}
