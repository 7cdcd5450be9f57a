//! The boundary: every entry point's status code, the per-thread last error message, and
//! the guard that keeps a panic from crossing into the host.
//!
//! Takes an entry point's body (a closure giving `Ok(())` or an [`Error`]); gives a
//! [`PsStatus`] and, for anything but [`PsStatus::Ok`], a message that `ps_last_error`
//! returns on the same thread. Guarantees: a panic in the body is caught and becomes
//! [`PsStatus::Panic`] (the process goes on; the handle involved may hold a half-done
//! tick, never freed memory); the message is the body's own, never truncated.

use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What every entry point returns. 0 is success; every failure is negative, and
/// `ps_last_error()` then says what went wrong on the calling thread.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PsStatus {
    /// Done.
    Ok = 0,
    /// A pointer the call needs was null.
    NullPointer = -1,
    /// A handle that was never made, was freed already (a double free) or is of another kind.
    BadHandle = -2,
    /// The output buffer is too small (or null with a capacity): the length it needs was
    /// written to the call's length output.
    BufferTooSmall = -3,
    /// An argument is out of its range: a non-finite vector, a bad shape, an unknown name.
    InvalidArgument = -4,
    /// A file could not be read or written.
    Io = -5,
    /// The bytes are not a level (`.map`, `.bsp`, `.pbsp`) or not a saved state, or a
    /// replay line breaks the contract.
    BadData = -6,
    /// Text that must be UTF-8 is not.
    Utf8 = -7,
    /// Nothing of that index or key (an entity, a key, a spawn point, a material).
    NotFound = -8,
    /// planeshift panicked inside the call; the panic was caught at the boundary.
    Panic = -9,
}

/// A failure: its status and its message.
#[derive(Debug)]
pub struct Error {
    /// The status the entry point returns.
    pub status: PsStatus,
    /// What `ps_last_error()` says.
    pub message: String,
}

impl Error {
    /// A failure of `status` saying `message`.
    pub fn new(status: PsStatus, message: impl Into<String>) -> Error {
        Error {
            status,
            message: message.into(),
        }
    }
}

thread_local! {
    /// This thread's last message, NUL-terminated for `ps_last_error`.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Sets this thread's last message (an interior NUL ends it there).
fn set_last_error(message: &str) {
    let text = message.split('\0').next().unwrap_or_default();
    let c = CString::new(text).unwrap_or_default();
    LAST_ERROR.with(|slot| *slot.borrow_mut() = c);
}

/// Runs an entry point's body: its status, its message kept for `ps_last_error`, a panic
/// caught.
pub fn guard(body: impl FnOnce() -> Result<(), Error>) -> PsStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => PsStatus::Ok,
        Ok(Err(e)) => {
            set_last_error(&e.message);
            e.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            set_last_error(&format!("planeshift panicked: {what}"));
            PsStatus::Panic
        }
    }
}

/// The message of the last failed call on the calling thread, or `""` when none failed.
///
/// The text stays valid until the next call that fails on this thread; copy it to keep it.
/// Safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn ps_last_error() -> *const c_char {
    LAST_ERROR.with(|slot| slot.borrow().as_ptr())
}
