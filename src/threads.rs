//! The compiler's two ways of sharing work between threads: two independent stages side by
//! side ([`join`]), and one pure function over many items ([`map_all`]).
//!
//! Takes closures, gives their results. Guarantees: results come back in the order asked
//! (each item's result at its index), whatever thread made them, so a compile's output never
//! depends on threads. With the `parallel` feature the work runs on rayon's pool; without it,
//! in order on the calling thread.

/// `a()` and `b()`, side by side with the `parallel` feature.
pub(crate) fn join<A, B>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B)
where
    A: Send,
    B: Send,
{
    #[cfg(feature = "parallel")]
    {
        rayon::join(a, b)
    }
    #[cfg(not(feature = "parallel"))]
    {
        (a(), b())
    }
}

/// `f` of every item, in the items' order, on every core with the `parallel` feature.
pub(crate) fn map_all<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        items.par_iter().map(f).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        items.iter().map(f).collect()
    }
}
