//! The typed error every constructor returns on bad input.

use core::fmt;

/// Why a primitive could not be built. Constructors validate; queries never fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GeomError {
    /// A coordinate or scalar was NaN or infinite.
    NonFinite,
    /// A coordinate's magnitude exceeded [`Real::coord_limit`](crate::Real::coord_limit).
    OutOfRange,
    /// A radius, extent or length that must be non-negative was negative.
    Negative,
    /// A direction or normal that must be non-zero was (numerically) zero.
    ZeroDirection,
    /// Axes that must be orthonormal were not (within a relative tolerance of 1e-4).
    NotOrthonormal,
    /// A box's `min` exceeded its `max` on some axis.
    InvertedBounds,
    /// A point set or index list that must be non-empty had too few elements.
    TooFewPoints,
    /// Three or more points that must span a plane (or a face) were collinear or coincident.
    Degenerate,
    /// A polygon's vertices were not coplanar.
    NotPlanar,
    /// A shape declared convex was not.
    NotConvex,
    /// A face referenced a vertex index that does not exist.
    IndexOutOfBounds,
    /// A k-DOP of a dimension and slab count with no standard direction set.
    UnsupportedDirectionSet,
}

impl fmt::Display for GeomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            GeomError::NonFinite => "a coordinate or scalar is NaN or infinite",
            GeomError::OutOfRange => "a coordinate exceeds the supported magnitude",
            GeomError::Negative => "a radius, extent or length is negative",
            GeomError::ZeroDirection => "a direction or normal is zero",
            GeomError::NotOrthonormal => "the axes are not orthonormal",
            GeomError::InvertedBounds => "a box minimum exceeds its maximum",
            GeomError::TooFewPoints => "too few points or indices",
            GeomError::Degenerate => "the points are collinear or coincident",
            GeomError::NotPlanar => "the polygon's vertices are not coplanar",
            GeomError::NotConvex => "the shape is not convex",
            GeomError::IndexOutOfBounds => "a face index is out of bounds",
            GeomError::UnsupportedDirectionSet => {
                "no standard k-DOP direction set for this dimension and size"
            }
        };
        f.write_str(s)
    }
}

impl std::error::Error for GeomError {}

/// Result alias for constructors.
pub type GeomResult<T> = Result<T, GeomError>;
