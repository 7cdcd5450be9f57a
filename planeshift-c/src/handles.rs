//! The handle tables: every object the host holds is an index and a generation into one
//! table per kind, never a pointer.
//!
//! Takes a value to keep, or a handle (64 bits: the slot in the low 32, its generation in
//! the high 32); gives the handle, or access to the value under the table's read lock.
//! Guarantees: a handle that was never given, was freed (a double free), or whose slot was
//! reused since (a stale handle) is refused with [`PsStatus::BadHandle`], never followed;
//! the raw value 0 is never a handle (generations start at 1), so a zeroed handle is
//! refused too; freeing takes the write lock, so a value is never dropped while another
//! thread reads it.

use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::status::{Error, PsStatus};

/// One slot: its current generation and the value, if one lives there.
struct Slot<T> {
    generation: u32,
    value: Option<T>,
}

/// One kind's table.
pub struct Table<T> {
    kind: &'static str,
    slots: RwLock<Vec<Slot<T>>>,
}

impl<T> Table<T> {
    /// An empty table of handles of `kind` (the name the messages give).
    pub const fn new(kind: &'static str) -> Table<T> {
        Table {
            kind,
            slots: RwLock::new(Vec::new()),
        }
    }

    fn read(&self) -> RwLockReadGuard<'_, Vec<Slot<T>>> {
        self.slots.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> RwLockWriteGuard<'_, Vec<Slot<T>>> {
        self.slots.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps `value` and gives its handle.
    pub fn insert(&self, value: T) -> Result<u64, Error> {
        let mut slots = self.write();
        let index = match slots.iter().position(|s| s.value.is_none()) {
            Some(i) => i,
            None => {
                slots.push(Slot {
                    generation: 1,
                    value: None,
                });
                slots.len() - 1
            }
        };
        let index32 = u32::try_from(index)
            .map_err(|_| Error::new(PsStatus::InvalidArgument, "too many handles"))?;
        let slot = &mut slots[index];
        slot.value = Some(value);
        Ok(u64::from(index32) | (u64::from(slot.generation) << 32))
    }

    fn bad(&self, handle: u64) -> Error {
        Error::new(
            PsStatus::BadHandle,
            format!(
                "{handle:#x} is not a live {} handle (never made, freed already, or of another kind)",
                self.kind
            ),
        )
    }

    /// Runs `f` on the value of `handle`, under the table's read lock.
    pub fn with<R>(&self, handle: u64, f: impl FnOnce(&T) -> R) -> Result<R, Error> {
        let (index, generation) = split(handle);
        let slots = self.read();
        match slots.get(index) {
            Some(Slot {
                generation: g,
                value: Some(v),
            }) if *g == generation => Ok(f(v)),
            _ => Err(self.bad(handle)),
        }
    }

    /// Drops the value of `handle`; its slot's generation moves on, so the handle (and any
    /// copy of it) is refused from now on.
    pub fn remove(&self, handle: u64) -> Result<(), Error> {
        let (index, generation) = split(handle);
        let taken = {
            let mut slots = self.write();
            match slots.get_mut(index) {
                Some(slot) if slot.generation == generation && slot.value.is_some() => {
                    slot.generation = slot.generation.wrapping_add(1).max(1);
                    slot.value.take()
                }
                _ => return Err(self.bad(handle)),
            }
        };
        // Dropped outside the lock: a level's tables take a while to free.
        drop(taken);
        Ok(())
    }
}

/// A handle's slot index and generation.
fn split(handle: u64) -> (usize, u32) {
    // The low 32 bits are the index; the high 32 the generation (truncation intended).
    ((handle & 0xffff_ffff) as usize, (handle >> 32) as u32)
}
