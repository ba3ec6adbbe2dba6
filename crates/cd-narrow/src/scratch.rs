//! Working memory that queries reuse from call to call on the same thread.
//!
//! A query that needs lists sized by its input (EPA's polytope, SAT's transformed vertices)
//! would otherwise allocate and free them on every call: a few hundred instructions each,
//! a noticeable share of a narrow-phase query that runs millions of times per second. Each
//! thread keeps one idle scratch per type; a query takes it out of the pool while it runs,
//! so a query nested inside another (a user's support map that runs its own) just gets a
//! fresh one.

use std::any::Any;
use std::cell::RefCell;

/// Lists a query fills afresh on every run.
pub(crate) trait Scratch: Any {
    /// An empty scratch with room for a typical run.
    fn new() -> Self;
    /// Empties every list for the next run, keeping the memory. Returns `false` when a
    /// pathological run grew them so large that the thread should not hold on to them.
    fn reset(&mut self) -> bool;
}

thread_local! {
    /// Idle scratches of this thread, one per type in use (type-erased: a thread-local
    /// cannot be generic).
    static POOL: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` on an empty scratch of type `S`: this thread's idle one if there is one, else a
/// new one; it is put back afterwards.
pub(crate) fn with_scratch<S: Scratch, R>(f: impl FnOnce(&mut S) -> R) -> R {
    let idle = POOL
        .try_with(|pool| {
            let mut pool = pool.try_borrow_mut().ok()?;
            let at = pool.iter().position(|s| s.is::<S>())?;
            pool.swap_remove(at).downcast::<S>().ok()
        })
        .ok()
        .flatten();
    let mut scratch = idle.unwrap_or_else(|| Box::new(S::new()));
    let result = f(&mut scratch);
    if scratch.reset() {
        // Put back unless the thread is ending or the pool is borrowed (a nested run).
        let _ = POOL.try_with(|pool| {
            if let Ok(mut pool) = pool.try_borrow_mut() {
                pool.push(scratch);
            }
        });
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Numbers(Vec<u32>);

    impl Scratch for Numbers {
        fn new() -> Self {
            Numbers(Vec::with_capacity(8))
        }
        fn reset(&mut self) -> bool {
            self.0.clear();
            self.0.capacity() <= 64
        }
    }

    #[test]
    fn a_scratch_comes_back_empty_with_its_memory() {
        let first = with_scratch(|s: &mut Numbers| {
            assert!(s.0.is_empty());
            s.0.extend(0..32);
            s.0.as_ptr() as usize
        });
        let second = with_scratch(|s: &mut Numbers| {
            assert!(s.0.is_empty(), "reset before reuse");
            s.0.as_ptr() as usize
        });
        assert_eq!(first, second, "the same memory is reused");
    }

    #[test]
    fn a_nested_run_gets_its_own_scratch() {
        with_scratch(|outer: &mut Numbers| {
            outer.0.push(1);
            with_scratch(|inner: &mut Numbers| {
                assert!(inner.0.is_empty());
                inner.0.push(2);
            });
            assert_eq!(outer.0, [1]);
        });
    }

    #[test]
    fn an_oversized_scratch_is_dropped() {
        with_scratch(|s: &mut Numbers| s.0.extend(0..1000));
        with_scratch(|s: &mut Numbers| assert!(s.0.capacity() < 1000, "a fresh scratch, not the grown one"));
    }
}
