use crate::validate;
use crate::{GeomError, GeomResult, Point, Real, Vector};

/// A discrete oriented polytope: the intersection of `N` slabs `min[i] ≤ nᵢ·x ≤ max[i]` over a
/// fixed set of `N` directions (so a "k-DOP" has `k = 2N` planes).
///
/// The directions are the standard integer sets of [`kdop_directions`] (components in
/// {-1, 0, 1}, not normalized, as in Klosowski et al. 1998): the slab values are in units of
/// each direction's length. Use the aliases [`Dop6`], [`Dop14`], [`Dop18`], [`Dop26`] (3D) and
/// [`Dop4`], [`Dop8`] (2D).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        into = "KdopRepr<T>",
        try_from = "KdopRepr<T>",
        bound = "T: Real + serde::Serialize + serde::de::DeserializeOwned"
    )
)]
pub struct Kdop<T: Real, const D: usize, const N: usize> {
    min: [T; N],
    max: [T; N],
}

/// 3D 6-DOP (an AABB as a DOP).
pub type Dop6<T> = Kdop<T, 3, 3>;
/// 3D 14-DOP: axes plus the four cube diagonals.
pub type Dop14<T> = Kdop<T, 3, 7>;
/// 3D 18-DOP: axes plus the six edge diagonals.
pub type Dop18<T> = Kdop<T, 3, 9>;
/// 3D 26-DOP: axes, edge diagonals and corner diagonals.
pub type Dop26<T> = Kdop<T, 3, 13>;
/// 2D 4-DOP (an AABB as a DOP).
pub type Dop4<T> = Kdop<T, 2, 2>;
/// 2D 8-DOP: axes plus both diagonals.
pub type Dop8<T> = Kdop<T, 2, 4>;

// Direction tables (Klosowski et al. 1998). 2D sets use the first two components.
static DOP6: [[i8; 3]; 3] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
static DOP14: [[i8; 3]; 7] =
    [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1], [1, -1, 1], [1, 1, -1], [1, -1, -1]];
static DOP18: [[i8; 3]; 9] =
    [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1], [0, 1, 1], [1, -1, 0], [1, 0, -1], [0, 1, -1]];
static DOP26: [[i8; 3]; 13] = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 1, 0],
    [1, 0, 1],
    [0, 1, 1],
    [1, -1, 0],
    [1, 0, -1],
    [0, 1, -1],
    [1, 1, 1],
    [1, -1, 1],
    [1, 1, -1],
    [1, -1, -1],
];
static DOP4: [[i8; 3]; 2] = [[1, 0, 0], [0, 1, 0]];
static DOP8: [[i8; 3]; 4] = [[1, 0, 0], [0, 1, 0], [1, 1, 0], [1, -1, 0]];

fn table(d: usize, n: usize) -> Option<&'static [[i8; 3]]> {
    match (d, n) {
        (3, 3) => Some(&DOP6),
        (3, 7) => Some(&DOP14),
        (3, 9) => Some(&DOP18),
        (3, 13) => Some(&DOP26),
        (2, 2) => Some(&DOP4),
        (2, 4) => Some(&DOP8),
        _ => None,
    }
}

/// The standard direction set for a `D`-dimensional DOP with `N` slabs, as integer vectors, or
/// `None` for an unsupported `(D, N)`.
///
/// Supported `(D, N)`: (3, 3), (3, 7), (3, 9), (3, 13), (2, 2), (2, 4) — the aliases below.
#[inline]
pub fn kdop_directions<T: Real, const D: usize, const N: usize>() -> Option<[Vector<T, D>; N]> {
    let rows = table(D, N)?;
    Some(core::array::from_fn(|k| Vector::from_fn(|i, _| T::lit(rows[k][i] as f64))))
}

impl<T: Real, const D: usize, const N: usize> Kdop<T, D, N> {
    /// A DOP from its slab intervals. Errors: non-finite values, values beyond `D` times the
    /// coordinate limit (a diagonal slab of valid points reaches at most that), `min > max`,
    /// an unsupported `(D, N)`.
    pub fn new(min: [T; N], max: [T; N]) -> GeomResult<Self> {
        kdop_directions::<T, D, N>().ok_or(GeomError::UnsupportedDirectionSet)?;
        let limit = T::coord_limit() * T::lit(D as f64);
        for i in 0..N {
            for x in [min[i], max[i]] {
                if !x.is_finite() {
                    return Err(GeomError::NonFinite);
                }
                if x.abs() > limit {
                    return Err(GeomError::OutOfRange);
                }
            }
            if min[i] > max[i] {
                return Err(GeomError::InvertedBounds);
            }
        }
        Ok(Kdop { min, max })
    }
    /// The tightest DOP of this type around a point set. Errors: empty set, bad coordinates.
    pub fn from_points(points: &[Point<T, D>]) -> GeomResult<Self> {
        let dirs = kdop_directions::<T, D, N>().ok_or(GeomError::UnsupportedDirectionSet)?;
        if points.is_empty() {
            return Err(GeomError::TooFewPoints);
        }
        let mut min = [T::infinity(); N];
        let mut max = [-T::infinity(); N];
        for p in points {
            validate::point(p)?;
            for k in 0..N {
                let s = dirs[k].dot(&p.coords);
                min[k] = min[k].min(s);
                max[k] = max[k].max(s);
            }
        }
        Ok(Kdop { min, max })
    }
    /// A DOP from already-validated slabs (crate-internal; never fails).
    #[inline(always)]
    pub(crate) fn new_unchecked(min: [T; N], max: [T; N]) -> Self {
        Kdop { min, max }
    }
    /// Lower slab values.
    #[inline(always)]
    pub fn min(&self) -> &[T; N] {
        &self.min
    }
    /// Upper slab values.
    #[inline(always)]
    pub fn max(&self) -> &[T; N] {
        &self.max
    }
    /// The direction set of this DOP type (a value exists only for supported sets, so this
    /// never fails; unsupported sets have no constructor that succeeds).
    #[inline]
    pub fn directions(&self) -> [Vector<T, D>; N] {
        let rows = table(D, N).unwrap_or(&[]);
        core::array::from_fn(|k| {
            Vector::from_fn(|i, _| rows.get(k).map_or(T::zero(), |r| T::lit(r[i] as f64)))
        })
    }
    /// Is `p` inside or on every slab?
    pub fn contains_point(&self, p: &Point<T, D>) -> bool {
        let dirs = self.directions();
        (0..N).all(|k| {
            let s = dirs[k].dot(&p.coords);
            self.min[k] <= s && s <= self.max[k]
        })
    }
}

/// Serialized form of a [`Kdop`]: slab vectors (serde cannot derive for `[T; N]` with generic
/// `N`), validated on the way back in.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct KdopRepr<T> {
    min: Vec<T>,
    max: Vec<T>,
}

#[cfg(feature = "serde")]
impl<T: Real, const D: usize, const N: usize> From<Kdop<T, D, N>> for KdopRepr<T> {
    fn from(k: Kdop<T, D, N>) -> Self {
        KdopRepr { min: k.min.to_vec(), max: k.max.to_vec() }
    }
}

#[cfg(feature = "serde")]
impl<T: Real, const D: usize, const N: usize> TryFrom<KdopRepr<T>> for Kdop<T, D, N> {
    type Error = GeomError;
    fn try_from(r: KdopRepr<T>) -> GeomResult<Self> {
        let min: [T; N] = r.min.try_into().map_err(|_| GeomError::UnsupportedDirectionSet)?;
        let max: [T; N] = r.max.try_into().map_err(|_| GeomError::UnsupportedDirectionSet)?;
        Kdop::new(min, max)
    }
}
