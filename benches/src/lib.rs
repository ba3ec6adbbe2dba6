//! Shared input generators for the benchmarks.
