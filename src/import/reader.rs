//! Bounds-checked reading of a `.bsp`'s header, lumps and fixed-size records.
//!
//! Takes the file's bytes and the format's lump layout; gives each lump as a byte slice and
//! its records as an iterator of fixed-size byte arrays. Guarantees: no read outside the
//! file, every lump's length a whole number of records, every record count at most the
//! file's size divided by the record size (so memory follows the file), and every failure
//! an [`ImportError::Lump`] naming the lump.

use super::ImportError;

/// A lump's place in the header's directory and its name for errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lump {
    /// Its index in the header's directory.
    pub(crate) index: usize,
    /// Its name in errors (`planes`, `brushes`...).
    pub(crate) name: &'static str,
}

/// A file's lump directory: `count` pairs of `i32` offset and length after `header_len`
/// bytes (the magic and version).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lumps<'a> {
    bytes: &'a [u8],
    format: &'static str,
    header_len: usize,
    count: usize,
}

impl<'a> Lumps<'a> {
    /// The directory of `count` lumps after `header_len` bytes; an error naming the header
    /// when the file is too short to hold it.
    pub(crate) fn new(
        bytes: &'a [u8],
        format: &'static str,
        header_len: usize,
        count: usize,
    ) -> Result<Lumps<'a>, ImportError> {
        let lumps = Lumps {
            bytes,
            format,
            header_len,
            count,
        };
        if bytes.len() < header_len + 8 * count {
            return Err(lumps.error("header", "the file ends inside the lump directory"));
        }
        Ok(lumps)
    }

    /// The whole file.
    pub(crate) fn file(&self) -> &'a [u8] {
        self.bytes
    }

    /// An error in `lump` of this file.
    pub(crate) fn error(&self, lump: &'static str, problem: impl Into<String>) -> ImportError {
        ImportError::Lump {
            format: self.format,
            lump,
            problem: problem.into(),
        }
    }

    /// The offset and length the directory gives `lump`, unchecked against the file.
    pub(crate) fn entry(&self, lump: Lump) -> Result<(usize, usize), ImportError> {
        if lump.index >= self.count {
            return Err(self.error(lump.name, "no such lump in this format's directory"));
        }
        let at = self.header_len + 8 * lump.index;
        let offset = read_i32(self.bytes, at);
        let length = read_i32(self.bytes, at + 4);
        match (offset, length) {
            (Some(o), Some(l)) if o >= 0 && l >= 0 => Ok((o as usize, l as usize)),
            _ => Err(self.error(lump.name, "negative offset or length")),
        }
    }

    /// The bytes of `lump`, checked to lie inside the file.
    pub(crate) fn bytes(&self, lump: Lump) -> Result<&'a [u8], ImportError> {
        let (offset, length) = self.entry(lump)?;
        offset
            .checked_add(length)
            .and_then(|end| self.bytes.get(offset..end))
            .ok_or_else(|| {
                self.error(
                    lump.name,
                    format!(
                        "offset {offset} and length {length} reach past the end of the file ({} bytes)",
                        self.bytes.len()
                    ),
                )
            })
    }

    /// The records of `lump`, each `size` bytes; an error when the length is not a whole
    /// number of records.
    pub(crate) fn records(&self, lump: Lump, size: usize) -> Result<Records<'a>, ImportError> {
        let bytes = self.bytes(lump)?;
        if size == 0 || bytes.len() % size != 0 {
            return Err(self.error(
                lump.name,
                format!(
                    "length {} is not a whole number of {size}-byte records",
                    bytes.len()
                ),
            ));
        }
        Ok(Records {
            bytes,
            size,
            lump: lump.name,
            format: self.format,
        })
    }
}

/// A lump's fixed-size records.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Records<'a> {
    bytes: &'a [u8],
    size: usize,
    lump: &'static str,
    format: &'static str,
}

impl<'a> Records<'a> {
    /// How many records the lump holds.
    pub(crate) fn len(&self) -> usize {
        self.bytes.len() / self.size
    }

    /// Whether the lump is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Record `index`, or an error naming the lump when it is out of range.
    pub(crate) fn get(&self, index: usize) -> Result<Record<'a>, ImportError> {
        index
            .checked_mul(self.size)
            .and_then(|at| self.bytes.get(at..at + self.size))
            .map(|bytes| Record { bytes })
            .ok_or_else(|| {
                self.error(format!(
                    "index {index} is out of range ({} records)",
                    self.len()
                ))
            })
    }

    /// Every record in order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = Record<'a>> + 'a {
        self.bytes
            .chunks_exact(self.size)
            .map(|bytes| Record { bytes })
    }

    /// An error in this lump.
    pub(crate) fn error(&self, problem: impl Into<String>) -> ImportError {
        ImportError::Lump {
            format: self.format,
            lump: self.lump,
            problem: problem.into(),
        }
    }
}

/// One record's bytes, read little-endian by field offset. A read past the record's end
/// gives zero: the callers read fields inside the record size their lump was checked
/// against, so this never happens on a checked lump.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Record<'a> {
    bytes: &'a [u8],
}

impl<'a> Record<'a> {
    /// A record over `bytes` (a lump read field by field, such as a miptex directory).
    pub(crate) fn new(bytes: &'a [u8]) -> Record<'a> {
        Record { bytes }
    }

    /// The `i32` at byte `at`.
    pub(crate) fn i32(&self, at: usize) -> i32 {
        read_i32(self.bytes, at).unwrap_or(0)
    }

    /// The `u32` at byte `at`.
    pub(crate) fn u32(&self, at: usize) -> u32 {
        self.i32(at) as u32
    }

    /// The `i16` at byte `at`.
    pub(crate) fn i16(&self, at: usize) -> i16 {
        self.bytes
            .get(at..at + 2)
            .map_or(0, |b| i16::from_le_bytes([b[0], b[1]]))
    }

    /// The `u16` at byte `at`.
    pub(crate) fn u16(&self, at: usize) -> u16 {
        self.i16(at) as u16
    }

    /// The `f32` at byte `at`.
    pub(crate) fn f32(&self, at: usize) -> f32 {
        f32::from_bits(self.u32(at))
    }

    /// The NUL-terminated (or full-width) name of `len` bytes at `at`, as lossy UTF-8.
    pub(crate) fn name(&self, at: usize, len: usize) -> String {
        let raw = self.bytes.get(at..at + len).unwrap_or(&[]);
        let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
        String::from_utf8_lossy(&raw[..end]).into_owned()
    }
}

/// The little-endian `i32` at `at`, or `None` past the end.
fn read_i32(bytes: &[u8], at: usize) -> Option<i32> {
    bytes
        .get(at..at.checked_add(4)?)
        .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}
