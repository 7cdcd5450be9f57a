//! The reader's typed error and the byte-offset to line/column conversion.
//!
//! Takes byte offsets into the source, gives [`ParseError`] values that carry a 1-based line
//! and column inside the input. Guarantees: every error the reader returns points at a
//! position within the input (the end of the input counts), never past it.

use super::syntax::SourceLoc;

/// A syntax error in a `.map` file: where, and what. Displays as `LINE:COL: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{loc}: {kind}")]
#[non_exhaustive]
pub struct ParseError {
    /// Where the problem is (1-based line and byte column).
    pub loc: SourceLoc,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What went wrong while reading a `.map` file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A token was required here; the text says which.
    #[error("expected {0}")]
    Expected(&'static str),
    /// A token was required here, and something else stands there.
    #[error("expected {expected}, found '{found}'")]
    ExpectedFound {
        /// What the grammar wanted.
        expected: &'static str,
        /// The text that stands there instead (shortened).
        found: String,
    },
    /// A number is `nan`, `inf` or overflows to infinity.
    #[error("number '{0}' is not finite (nan and inf are not allowed)")]
    NonFiniteNumber(String),
    /// A number that must be whole (contents, flags) has a fraction or is out of range.
    #[error("expected an integer, found '{0}'")]
    NotAnInteger(String),
    /// A `"` string has no closing quote.
    #[error("unterminated string")]
    UnterminatedString,
    /// A `}` appears at top level, closing nothing.
    #[error("'}}' without a matching '{{'")]
    UnmatchedCloseBrace,
    /// The file ends inside a block.
    #[error("end of file inside the {what} opened at {opened}")]
    UnclosedBlock {
        /// Which block: "entity", "brush", "patch".
        what: &'static str,
        /// Where the block was opened.
        opened: SourceLoc,
    },
    /// A face line ends with a count of numbers that no dialect writes.
    #[error("expected 0, 1, 3 or 6 numbers after the texture mapping, found {0}")]
    ExtraFaceNumbers(usize),
    /// A named block inside a brush that is not `brushDef`, `patchDef2` or `patchDef3`.
    #[error("unsupported block '{0}' (known: brushDef, patchDef2, patchDef3)")]
    UnsupportedBlock(String),
    /// A patch's control points do not match its declared width and height.
    #[error("patch declares {}x{} control points but has {}x{}", declared.0, declared.1, found.0, found.1)]
    PatchShape {
        /// Width and height from the header.
        declared: (usize, usize),
        /// Rows and columns found.
        found: (usize, usize),
    },
}

/// Converts byte offsets into 1-based lines and columns.
///
/// Built once per file from the positions of `\n`; a lookup is a binary search. A `\r` before
/// `\n` belongs to the line it ends, so CRLF files count lines exactly like LF files.
#[derive(Debug)]
pub(crate) struct LineIndex {
    newlines: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub(crate) fn new(src: &[u8]) -> Self {
        let newlines = src
            .iter()
            .enumerate()
            .filter_map(|(i, &b)| (b == b'\n').then_some(i))
            .collect();
        LineIndex {
            newlines,
            len: src.len(),
        }
    }

    /// The location of byte `offset`, clamped to the end of the input.
    pub(crate) fn locate(&self, offset: usize) -> SourceLoc {
        let offset = offset.min(self.len);
        let line_index = self.newlines.partition_point(|&nl| nl < offset);
        let line_start = if line_index == 0 {
            0
        } else {
            self.newlines[line_index - 1] + 1
        };
        SourceLoc {
            line: saturate(line_index + 1),
            column: saturate(offset - line_start + 1),
        }
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let index = LineIndex::new(b"ab\r\ncd\nx");
        assert_eq!(index.locate(0), SourceLoc { line: 1, column: 1 });
        assert_eq!(index.locate(2), SourceLoc { line: 1, column: 3 });
        assert_eq!(index.locate(4), SourceLoc { line: 2, column: 1 });
        assert_eq!(index.locate(7), SourceLoc { line: 3, column: 1 });
        assert_eq!(index.locate(99), SourceLoc { line: 3, column: 2 });
    }
}
