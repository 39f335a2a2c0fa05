//! Large arrays that start all zero, allocated zeroed rather than written: the kernel hands
//! out zero pages on first touch, so an array the run touches only in part (the rings of
//! deep input buffers, which a VC uses from its start: the dragonfly runfile's 256-flit
//! buffers are 46 MiB of rings, mostly never written) costs neither the writing of every
//! slot at the start nor page faults for the pages never touched.

/// Types whose all-zero bytes are a valid value, equal to their `Default`.
///
/// # Safety
/// An implementor must have no padding-sensitive invariants, no references, no niches
/// that exclude zero (bools, integers and structs of them qualify).
pub unsafe trait Zeroable: Copy + Default {}

// SAFETY: integers and bools, all zero is `Flit::default()` (tested below).
unsafe impl Zeroable for super::channel::Flit {}

/// `n` default (all-zero) values, allocated zeroed.
pub fn zeroed_vec<T: Zeroable>(n: usize) -> Vec<T> {
    let layout = std::alloc::Layout::array::<T>(n).expect("an array that fits memory");
    if n == 0 || layout.size() == 0 {
        return vec![T::default(); n];
    }
    // SAFETY: the layout has a non-zero size; the allocation is checked for failure; all
    // zero bytes are `n` valid values of `T` (`Zeroable`), and the pointer, length and
    // capacity are those of this allocation with the global allocator, as `Vec` expects.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout).cast::<T>();
        if p.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(p, n, n)
    }
}

#[cfg(test)]
mod tests {
    use super::super::channel::Flit;
    use super::*;

    #[test]
    fn zeroed_flits_are_default_flits() {
        let v = zeroed_vec::<Flit>(1000);
        assert_eq!(v.len(), 1000);
        assert!(v.iter().all(|f| *f == Flit::default()));
        assert!(zeroed_vec::<Flit>(0).is_empty());
    }
}
