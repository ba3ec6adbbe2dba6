//! [`MidError`]: why a hierarchy or a mesh could not be built.

use cd_geom::GeomError;
use core::fmt;

/// Errors of hierarchy construction, refitting and mesh loading.
#[derive(Clone, Debug, PartialEq)]
pub enum MidError {
    /// A primitive had an invalid coordinate (non-finite or out of range).
    Geom(GeomError),
    /// The primitive set was empty: a hierarchy needs at least one primitive.
    Empty,
    /// More primitives than a `u32` index can address.
    TooManyPrimitives,
    /// A triangle referenced a vertex that does not exist.
    IndexOutOfRange {
        /// The triangle's position in the index list.
        triangle: usize,
        /// The offending vertex index.
        index: u32,
    },
    /// `refit` was given a primitive set of a different size than the hierarchy was built on.
    CountMismatch {
        /// Primitives in the hierarchy.
        expected: usize,
        /// Primitives offered.
        found: usize,
    },
    /// A configuration value was out of its range.
    BadConfig(&'static str),
    /// An OBJ file could not be parsed.
    Obj {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        message: String,
    },
}

impl fmt::Display for MidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MidError::Geom(e) => write!(f, "invalid primitive: {e}"),
            MidError::Empty => write!(f, "the primitive set is empty"),
            MidError::TooManyPrimitives => write!(f, "more than 2^32 - 1 primitives"),
            MidError::IndexOutOfRange { triangle, index } => {
                write!(f, "triangle {triangle} references vertex {index}, which does not exist")
            }
            MidError::CountMismatch { expected, found } => {
                write!(f, "refit with {found} primitives, but the hierarchy holds {expected}")
            }
            MidError::BadConfig(what) => write!(f, "invalid build configuration: {what}"),
            MidError::Obj { line, message } => write!(f, "OBJ line {line}: {message}"),
        }
    }
}

impl std::error::Error for MidError {}

impl From<GeomError> for MidError {
    fn from(e: GeomError) -> Self {
        MidError::Geom(e)
    }
}

/// Result alias of this crate.
pub type MidResult<T> = Result<T, MidError>;
