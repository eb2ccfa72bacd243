//! [`Zeroed`]: an owned slice of values whose all-zero bytes are a valid value, taken from the
//! allocator already zeroed and never written at creation (issue 41: `analyze --hash 4096`).
//!
//! Why not `alloc_zeroed` with the values' own layout: for an alignment over the allocator's
//! minimum (16 bytes on x86-64; the table's buckets are aligned to 32), Rust's system allocator
//! allocates, then writes every byte to zero, so a 4 GiB table became resident at once. With an
//! alignment of 8 it asks `calloc`, which takes fresh pages from the kernel (zero until first
//! touched) for a large block; the slice starts at the first aligned address inside.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;

/// `len` values of `T` in zeroed memory, aligned to `T`'s alignment.
pub(crate) struct Zeroed<T> {
    ptr: NonNull<T>,
    len: usize,
    base: NonNull<u8>,
    layout: Layout,
}

// SAFETY: `Zeroed<T>` owns its values as a `Vec<T>` would.
unsafe impl<T: Send> Send for Zeroed<T> {}
// SAFETY: shared access gives `&[T]` only.
unsafe impl<T: Sync> Sync for Zeroed<T> {}

impl<T> Zeroed<T> {
    /// `len` (at least 1) zeroed values; `None` when the memory cannot be had or the size
    /// overflows.
    ///
    /// # Safety
    /// All-zero bytes must be a valid `T`.
    pub(crate) unsafe fn new(len: usize) -> Option<Zeroed<T>> {
        let align = std::mem::align_of::<T>();
        let size = std::mem::size_of::<T>()
            .checked_mul(len.max(1))?
            .checked_add(align)?;
        let layout = Layout::from_size_align(size, 8).ok()?;
        // SAFETY: the size is not zero.
        let base = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        let offset = base.as_ptr().align_offset(align);
        if offset >= align {
            // SAFETY: allocated above with `layout`.
            unsafe { dealloc(base.as_ptr(), layout) };
            return None;
        }
        // SAFETY: `offset < align`, and `align` spare bytes were allocated past the values.
        let ptr = NonNull::new(unsafe { base.as_ptr().add(offset) }.cast::<T>())?;
        Some(Zeroed {
            ptr,
            len: len.max(1),
            base,
            layout,
        })
    }
}

impl<T> std::ops::Deref for Zeroed<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` values, zeroed (valid by `new`'s contract) and aligned, owned here.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for Zeroed<T> {
    fn drop(&mut self) {
        // SAFETY: the values are owned here and dropped once; the block was allocated with
        // `layout` at `base`.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ));
            dealloc(self.base.as_ptr(), self.layout);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Zeroed;

    #[repr(align(32))]
    struct Wide([u64; 4]);

    #[test]
    fn values_are_zero_and_aligned() {
        // SAFETY: all-zero bytes are a valid `Wide`.
        let z = unsafe { Zeroed::<Wide>::new(1000) }.expect("memory");
        assert_eq!(z.len(), 1000);
        assert_eq!(z.as_ptr() as usize % 32, 0);
        assert!(z.iter().all(|w| w.0 == [0; 4]));
    }
}
