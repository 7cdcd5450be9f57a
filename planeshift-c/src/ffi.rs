//! The plain types every entry point shares and the checked reading of the host's
//! pointers: vectors, handles, C strings, caller-owned output buffers.
//!
//! Takes raw pointers and lengths from the host; gives Rust values or a [`PsStatus`] error.
//! Guarantees: a null pointer is [`PsStatus::NullPointer`], never dereferenced; text that is
//! not UTF-8 is [`PsStatus::Utf8`]; a non-finite vector where a finite one is needed is
//! [`PsStatus::InvalidArgument`]; an output buffer is written only up to its capacity, and
//! the needed length is always reported. What cannot be checked is the host's promise that
//! a non-null pointer points at as many bytes as it says (C has no way to tell).

use std::ffi::{CStr, c_char};

use glam::Vec3;

use crate::status::{Error, PsStatus};

/// A vector in map units (Quake's: about an inch, Z up).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PsVec3 {
    /// x.
    pub x: f32,
    /// y.
    pub y: f32,
    /// z.
    pub z: f32,
}

impl From<PsVec3> for Vec3 {
    fn from(v: PsVec3) -> Vec3 {
        Vec3::new(v.x, v.y, v.z)
    }
}

impl From<Vec3> for PsVec3 {
    fn from(v: Vec3) -> PsVec3 {
        PsVec3 {
            x: v.x,
            y: v.y,
            z: v.z,
        }
    }
}

/// A finite vector, or [`PsStatus::InvalidArgument`] naming `what`.
pub fn finite(v: PsVec3, what: &str) -> Result<Vec3, Error> {
    let v = Vec3::from(v);
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Error::new(
            PsStatus::InvalidArgument,
            format!("{what} must be finite, got {v}"),
        ))
    }
}

/// The null-pointer error for argument `what`.
pub fn null(what: &str) -> Error {
    Error::new(PsStatus::NullPointer, format!("`{what}` is null"))
}

/// `&T` behind `ptr`, or the null-pointer error.
///
/// # Safety
/// A non-null `ptr` points at a valid `T`.
pub unsafe fn read_ref<'a, T>(ptr: *const T, what: &str) -> Result<&'a T, Error> {
    // SAFETY: the caller promises a non-null pointer is valid; null is refused here.
    unsafe { ptr.as_ref() }.ok_or_else(|| null(what))
}

/// Writes `value` to `out`, or gives the null-pointer error.
///
/// # Safety
/// A non-null `out` points at writable memory for a `T`.
pub unsafe fn write_out<T>(out: *mut T, value: T, what: &str) -> Result<(), Error> {
    if out.is_null() {
        return Err(null(what));
    }
    // SAFETY: non-null, and the caller promises it is writable.
    unsafe { out.write(value) };
    Ok(())
}

/// The UTF-8 text of the NUL-terminated string `ptr`.
///
/// # Safety
/// A non-null `ptr` points at a NUL-terminated string.
pub unsafe fn text<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Error> {
    if ptr.is_null() {
        return Err(null(what));
    }
    // SAFETY: non-null, and the caller promises the string ends in NUL.
    unsafe { CStr::from_ptr(ptr) }
        .to_str()
        .map_err(|_| Error::new(PsStatus::Utf8, format!("`{what}` is not UTF-8")))
}

/// The bytes `ptr[0..len]` (`len` 0 allows a null `ptr`).
///
/// # Safety
/// A non-null `ptr` points at `len` readable bytes.
pub unsafe fn bytes<'a>(ptr: *const u8, len: usize, what: &str) -> Result<&'a [u8], Error> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(null(what));
    }
    if len > isize::MAX as usize {
        return Err(Error::new(
            PsStatus::InvalidArgument,
            format!("`{what}` length {len} is larger than any buffer"),
        ));
    }
    // SAFETY: non-null, length checked against isize::MAX, and the caller promises `len`
    // readable bytes.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Copies `data` into the caller's buffer `buf` of `cap` bytes and writes `data`'s length
/// to `len_out` (`nul`: one more byte for a terminating NUL, which the length excludes).
/// A null `buf` or a short `cap` gives [`PsStatus::BufferTooSmall`] with the length
/// written, so a host can ask for the size first.
///
/// # Safety
/// A non-null `buf` points at `cap` writable bytes; a non-null `len_out` at a `usize`.
pub unsafe fn fill(
    data: &[u8],
    nul: bool,
    buf: *mut u8,
    cap: usize,
    len_out: *mut usize,
) -> Result<(), Error> {
    if len_out.is_null() {
        return Err(null("len_out"));
    }
    // SAFETY: non-null, the caller promises it is writable.
    unsafe { len_out.write(data.len()) };
    let need = data.len() + usize::from(nul);
    if buf.is_null() || cap < need {
        return Err(Error::new(
            PsStatus::BufferTooSmall,
            format!("the output needs {need} bytes, the buffer holds {cap}"),
        ));
    }
    // SAFETY: `buf` holds `cap >= need` writable bytes (the caller's promise), and `data`
    // is ours: they cannot overlap.
    unsafe {
        std::ptr::copy_nonoverlapping(data.as_ptr(), buf, data.len());
        if nul {
            buf.add(data.len()).write(0);
        }
    }
    Ok(())
}
