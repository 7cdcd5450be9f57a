//! The `.map` grammar: bytes to [`MapFile`], written with nom 8 combinators.
//!
//! Takes the raw bytes of a file, gives a [`MapFile`] or the first [`ParseError`].
//! Guarantees: never panics on any input; never returns a partial parse; errors point inside
//! the input. The dialect is detected per face (`[` after the texture name means Valve 220),
//! as ericw-tools does, so files that mix dialects read correctly.
//!
//! Lexical rules (as TrenchBroom, NetRadiant and the Quake compilers read them): whitespace includes `\r`; `//` starts a comment
//! outside quotes; `;` starts a comment where a token is expected (QuArK); quoted strings may
//! hold braces, `//` and `\"` escapes; texture names are read positionally as the rest of the
//! word, so `{trigger`, `*water0` and `666` are names, never tokens.
//!
//! The editor header (TrenchBroom's `// Game: NAME` and `// Format: NAME` lines) is read by
//! a separate pass over the comments before the first entity ([`editor_header`]), which never
//! fails and never moves the grammar's position, so it changes no error and no location.

use glam::DVec3;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_till, take_while, take_while1};
use nom::character::complete::char;

use super::error::{LineIndex, ParseError, ParseErrorKind};
use super::syntax::{
    BrushSyntax, FaceExtension, MapBrush, MapEntity, MapFace, MapFile, MapPatch, SourceLoc,
    SurfaceTriple, TextureMapping,
};

/// The grammar's internal error: where (the remaining input) and what.
#[derive(Debug)]
pub(crate) struct GrammarError<'a> {
    rest: &'a [u8],
    kind: ParseErrorKind,
}

impl<'a> nom::error::ParseError<&'a [u8]> for GrammarError<'a> {
    fn from_error_kind(rest: &'a [u8], _kind: nom::error::ErrorKind) -> Self {
        GrammarError {
            rest,
            kind: ParseErrorKind::Expected("valid map syntax"),
        }
    }

    fn append(_rest: &'a [u8], _kind: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

type PResult<'a, T> = nom::IResult<&'a [u8], T, GrammarError<'a>>;

/// A committed failure at `rest`: the grammar never backtracks past it.
fn fail<T>(rest: &[u8], kind: ParseErrorKind) -> PResult<'_, T> {
    Err(nom::Err::Failure(GrammarError { rest, kind }))
}

/// Longest excerpt of offending text quoted in an error message, in bytes.
const MAX_FOUND_LEN: usize = 24;

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

fn is_horizontal_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// Bytes that end a bare word (a number or an unquoted texture name ends at whitespace; a
/// number also ends at a bracket).
fn ends_number(b: u8) -> bool {
    is_space(b) || matches!(b, b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'"')
}

/// Text for an error message: the word at `rest`, shortened and made printable.
fn found_word(rest: &[u8]) -> String {
    let end = rest
        .iter()
        .position(|&b| is_space(b))
        .unwrap_or(rest.len())
        .clamp(1.min(rest.len()), MAX_FOUND_LEN);
    decode_text(&rest[..end])
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// Bytes to text without loss: UTF-8 when valid, else one char per byte (Latin-1).
fn decode_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Skips whitespace, `//` comments and `;` comments.
fn skip_space(input: &[u8]) -> &[u8] {
    let mut rest = input;
    loop {
        let (after, _) = take_while::<_, _, ()>(is_space)
            .parse(rest)
            .unwrap_or((rest, &[][..]));
        rest = after;
        if rest.starts_with(b"//") || rest.first() == Some(&b';') {
            let (after, _) = take_till::<_, _, ()>(|b| b == b'\n')
                .parse(rest)
                .unwrap_or((rest, &[][..]));
            rest = after;
        } else {
            return rest;
        }
    }
}

/// Which editor header line a comment is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HeaderKey {
    /// `// Game: NAME`.
    Game,
    /// `// Format: NAME`.
    Format,
}

/// The editor header of a file: the first `// Game: NAME` and the first `// Format: NAME`
/// among the comment lines before the first entity (`;` comments are skipped too, as
/// [`skip_space`] does), each value trimmed and `None` when empty. Keys compare without
/// case and may have spaces before the colon (TrenchBroom writes `// Game: ` exactly, as
/// the first line). Never fails: a file without a header, or whose first token is not a
/// comment, has none.
fn editor_header(src: &[u8]) -> (Option<String>, Option<String>) {
    let (mut game, mut format) = (None, None);
    let mut rest = src;
    loop {
        let (after, _) = take_while::<_, _, ()>(is_space)
            .parse(rest)
            .unwrap_or((rest, &[][..]));
        let Ok((after, (marker, line))) = (
            alt((tag::<_, _, ()>("//"), tag(";"))),
            take_till(|b| b == b'\n'),
        )
            .parse(after)
        else {
            return (game, format);
        };
        rest = after;
        if marker != b"//" {
            continue;
        }
        let Some((key, value)) = header_field(line) else {
            continue;
        };
        let slot = match key {
            HeaderKey::Game => &mut game,
            HeaderKey::Format => &mut format,
        };
        if slot.is_none() {
            *slot = Some(value);
        }
    }
}

/// `Game: NAME` or `Format: NAME` (the text of a `//` comment after the slashes), with the
/// value trimmed and decoded; `None` for any other comment or an empty value.
fn header_field(line: &[u8]) -> Option<(HeaderKey, String)> {
    let key = alt((
        tag_no_case::<_, _, ()>("game").map(|_| HeaderKey::Game),
        tag_no_case("format").map(|_| HeaderKey::Format),
    ));
    let (value, (key, _, _)) = (key, take_while(is_horizontal_space), char(':'))
        .parse(line.trim_ascii_start())
        .ok()?;
    let value = value.trim_ascii();
    (!value.is_empty()).then(|| (key, decode_text(value)))
}

/// Skips spaces and a trailing `//` comment on the current line, stopping before `\n`.
fn skip_line_space(input: &[u8]) -> &[u8] {
    let (mut rest, _) = take_while::<_, _, ()>(is_horizontal_space)
        .parse(input)
        .unwrap_or((input, &[][..]));
    if rest.starts_with(b"//") {
        let (after, _) = take_till::<_, _, ()>(|b| b == b'\n')
            .parse(rest)
            .unwrap_or((rest, &[][..]));
        rest = after;
    }
    rest
}

/// `c` after optional whitespace, or a committed failure naming `what`.
fn expect_char<'a>(input: &'a [u8], c: char, what: &'static str) -> PResult<'a, ()> {
    let rest = skip_space(input);
    match char::<_, GrammarError<'a>>(c).parse(rest) {
        Ok((rest, _)) => Ok((rest, ())),
        Err(_) if rest.is_empty() => fail(rest, ParseErrorKind::Expected(what)),
        Err(_) => fail(
            rest,
            ParseErrorKind::ExpectedFound {
                expected: what,
                found: found_word(rest),
            },
        ),
    }
}

/// One finite number (f64, exponents allowed). `nan`, `inf` and overflow are errors.
fn number(input: &[u8]) -> PResult<'_, f64> {
    let rest = skip_space(input);
    let Ok((after, token)) = take_while1::<_, _, ()>(|b| !ends_number(b)).parse(rest) else {
        return fail(rest, expected_number(rest));
    };
    let numeric = token
        .iter()
        .all(|&b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E'));
    // A numeric token is ASCII, so it is read in place; the text is copied only for an error.
    let ascii = std::str::from_utf8(token).ok().filter(|_| numeric);
    let Some(ascii) = ascii else {
        let text = decode_text(token);
        let lower = text.to_ascii_lowercase();
        let word = lower.trim_start_matches(['+', '-']);
        if matches!(word, "nan" | "inf" | "infinity") || word.starts_with("1.#") {
            return fail(rest, ParseErrorKind::NonFiniteNumber(text));
        }
        return fail(rest, expected_number(rest));
    };
    match ascii.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok((after, value + 0.0)),
        Ok(_) => fail(rest, ParseErrorKind::NonFiniteNumber(decode_text(token))),
        Err(_) => fail(rest, expected_number(rest)),
    }
}

fn expected_number(rest: &[u8]) -> ParseErrorKind {
    if rest.is_empty() {
        ParseErrorKind::Expected("a number")
    } else {
        ParseErrorKind::ExpectedFound {
            expected: "a number",
            found: found_word(rest),
        }
    }
}

/// Largest magnitude accepted for an integer field: whole f64 values are exact up to 2^53.
const MAX_EXACT_INTEGER: f64 = 9_007_199_254_740_992.0;

/// A whole number (contents and flag fields).
fn integer(input: &[u8]) -> PResult<'_, i64> {
    let start = skip_space(input);
    let (rest, value) = number(start)?;
    if value.fract() != 0.0 || value.abs() > MAX_EXACT_INTEGER {
        return fail(start, ParseErrorKind::NotAnInteger(found_word(start)));
    }
    // In range and whole: the conversion is exact.
    Ok((rest, value as i64))
}

/// A quoted string after optional whitespace; `\"` is an escaped quote unless it ends the line
/// (TrenchBroom's "trailing backslash" rule: `"c:\a\b\"` is `c:\a\b\`).
fn quoted(input: &[u8]) -> PResult<'_, String> {
    let open = skip_space(input);
    let (body, _) = char::<_, GrammarError<'_>>('"').parse(open).or_else(|_| {
        fail(
            open,
            ParseErrorKind::ExpectedFound {
                expected: "'\"'",
                found: found_word(open),
            },
        )
    })?;
    let mut text = Vec::new();
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            b'"' => return Ok((&body[i + 1..], decode_text(&text))),
            b'\\' if body.get(i + 1) == Some(&b'"') && !quote_ends_line(&body[i + 2..]) => {
                text.push(b'"');
                i += 2;
            }
            b => {
                text.push(b);
                i += 1;
            }
        }
    }
    fail(open, ParseErrorKind::UnterminatedString)
}

/// Whether only horizontal space stands between here and the end of the line or input.
fn quote_ends_line(after_quote: &[u8]) -> bool {
    after_quote
        .iter()
        .find(|&&b| !is_horizontal_space(b))
        .is_none_or(|&b| b == b'\n')
}

/// A texture name: a quoted string, or the rest of the word up to whitespace.
fn texture_name(input: &[u8]) -> PResult<'_, String> {
    let rest = skip_space(input);
    if rest.first() == Some(&b'"') {
        return quoted(rest);
    }
    match take_while1::<_, _, ()>(|b| !is_space(b)).parse(rest) {
        Ok((after, name)) => Ok((after, decode_text(name))),
        Err(_) => fail(rest, ParseErrorKind::Expected("a texture name")),
    }
}

/// `( x y z )`.
fn point<'a>(input: &'a [u8], which: &'static str) -> PResult<'a, DVec3> {
    let (rest, ()) = expect_char(input, '(', which)?;
    let (rest, x) = number(rest)?;
    let (rest, y) = number(rest)?;
    let (rest, z) = number(rest)?;
    let (rest, ()) = expect_char(rest, ')', "')' to close the plane point")?;
    Ok((rest, DVec3::new(x, y, z)))
}

fn numbers<const N: usize>(mut rest: &[u8]) -> PResult<'_, [f64; N]> {
    let mut out = [0.0; N];
    for slot in &mut out {
        let (after, value) = number(rest)?;
        *slot = value;
        rest = after;
    }
    Ok((rest, out))
}

/// `[ a b c d ]` of a Valve 220 axis.
fn valve_axis(input: &[u8]) -> PResult<'_, [f64; 4]> {
    let (rest, ()) = expect_char(input, '[', "'[' to start a Valve 220 texture axis")?;
    let (rest, axis) = numbers::<4>(rest)?;
    let (rest, ()) = expect_char(rest, ']', "']' to close the Valve 220 texture axis")?;
    Ok((rest, axis))
}

/// The numbers after a face's mapping, up to the end of its line.
fn face_extension<'a>(input: &'a [u8]) -> PResult<'a, FaceExtension> {
    let mut rest = input;
    let mut found: Vec<(&'a [u8], f64)> = Vec::new();
    loop {
        let here = skip_line_space(rest);
        match here.first() {
            None | Some(b'\n' | b'(' | b'}') => {
                rest = here;
                break;
            }
            Some(_) => {
                let (after, value) = number(here)?;
                found.push((here, value));
                rest = after;
            }
        }
    }
    fn triple<'a>(found: &[(&'a [u8], f64)]) -> Result<SurfaceTriple, nom::Err<GrammarError<'a>>> {
        Ok(SurfaceTriple {
            contents: integer(found[0].0)?.1,
            flags: integer(found[1].0)?.1,
            value: found[2].1,
        })
    }
    let extension = match found.len() {
        0 => FaceExtension::None,
        1 => FaceExtension::Hexen2(found[0].1),
        3 => FaceExtension::Quake2(triple(&found)?),
        6 => FaceExtension::Daikatana(triple(&found)?, [found[3].1, found[4].1, found[5].1]),
        n => return fail(found[0].0, ParseErrorKind::ExtraFaceNumbers(n)),
    };
    Ok((rest, extension))
}

/// Turns offsets into locations; shared by every rule.
struct Reader<'a> {
    src: &'a [u8],
    lines: LineIndex,
}

impl<'a> Reader<'a> {
    fn loc(&self, rest: &[u8]) -> SourceLoc {
        self.lines.locate(self.src.len() - rest.len())
    }

    fn file(&self) -> PResult<'a, MapFile> {
        let (editor_game, editor_format) = editor_header(self.src);
        let mut map = MapFile {
            editor_game,
            editor_format,
            ..MapFile::default()
        };
        let mut rest = self.src;
        loop {
            rest = skip_space(rest);
            match rest.first() {
                None => return Ok((rest, map)),
                Some(b'{') => {
                    let open = rest;
                    let inner = skip_space(&rest[1..]);
                    if matches!(inner.first(), Some(b'(')) || starts_with_word(inner) {
                        let (after, block) = self.brush_block(open)?;
                        match block {
                            Block::Brush(brush) => map.loose_brushes.push(brush),
                            Block::Patch(_) => {
                                // A patch outside any entity has nothing to belong to and is
                                // never solid; it is read (so syntax errors still surface) and
                                // dropped.
                            }
                        }
                        rest = after;
                    } else {
                        let (after, entity) = self.entity(open)?;
                        map.entities.push(entity);
                        rest = after;
                    }
                }
                Some(b'}') => return fail(rest, ParseErrorKind::UnmatchedCloseBrace),
                Some(_) => {
                    return fail(
                        rest,
                        ParseErrorKind::ExpectedFound {
                            expected: "'{' to start an entity",
                            found: found_word(rest),
                        },
                    );
                }
            }
        }
    }

    fn entity(&self, open: &'a [u8]) -> PResult<'a, MapEntity> {
        let mut entity = MapEntity {
            loc: self.loc(open),
            ..MapEntity::default()
        };
        let mut rest = &open[1..];
        loop {
            rest = skip_space(rest);
            match rest.first() {
                None => {
                    return fail(
                        rest,
                        ParseErrorKind::UnclosedBlock {
                            what: "entity",
                            opened: entity.loc,
                        },
                    );
                }
                Some(b'}') => return Ok((&rest[1..], entity)),
                Some(b'"') => {
                    let (after, key) = quoted(rest)?;
                    let (after, value) = quoted(after)?;
                    entity.properties.push((key, value));
                    rest = after;
                }
                Some(b'{') => {
                    let (after, block) = self.brush_block(rest)?;
                    match block {
                        Block::Brush(brush) => entity.brushes.push(brush),
                        Block::Patch(patch) => entity.patches.push(patch),
                    }
                    rest = after;
                }
                Some(_) => {
                    return fail(
                        rest,
                        ParseErrorKind::ExpectedFound {
                            expected: "'\"', '{' or '}' in an entity",
                            found: found_word(rest),
                        },
                    );
                }
            }
        }
    }

    /// `{ faces }`, `{ brushDef { ... } }` or `{ patchDef2 { ... } }`, starting at the `{`.
    fn brush_block(&self, open: &'a [u8]) -> PResult<'a, Block> {
        let loc = self.loc(open);
        let inner = skip_space(&open[1..]);
        if starts_with_word(inner) {
            let (after, word) =
                take_while1::<_, _, ()>(|b: u8| b.is_ascii_alphanumeric() || b == b'_')
                    .parse(inner)
                    .unwrap_or((inner, &[][..]));
            let block = match word {
                b"brushDef" => {
                    let (after, ()) = expect_char(after, '{', "'{' after brushDef")?;
                    let (after, faces) = self.faces(after, loc, true)?;
                    let brush = MapBrush {
                        faces,
                        syntax: BrushSyntax::BrushDef,
                        loc,
                    };
                    (after, Block::Brush(brush))
                }
                b"patchDef2" | b"patchDef3" => {
                    let (after, patch) = self.patch(after, decode_text(word), loc)?;
                    (after, Block::Patch(patch))
                }
                other => {
                    return fail(inner, ParseErrorKind::UnsupportedBlock(decode_text(other)));
                }
            };
            let (after, ()) = self.close(block.0, "brush", loc)?;
            return Ok((after, block.1));
        }
        let (after, faces) = self.faces(inner, loc, false)?;
        let brush = MapBrush {
            faces,
            syntax: BrushSyntax::Faces,
            loc,
        };
        Ok((after, Block::Brush(brush)))
    }

    /// A closing `}` of a block opened at `opened`.
    fn close(&self, input: &'a [u8], what: &'static str, opened: SourceLoc) -> PResult<'a, ()> {
        let rest = skip_space(input);
        match rest.first() {
            Some(b'}') => Ok((&rest[1..], ())),
            None => fail(rest, ParseErrorKind::UnclosedBlock { what, opened }),
            Some(_) => fail(
                rest,
                ParseErrorKind::ExpectedFound {
                    expected: "'}'",
                    found: found_word(rest),
                },
            ),
        }
    }

    /// Faces up to and including the closing `}`.
    fn faces(
        &self,
        input: &'a [u8],
        opened: SourceLoc,
        primitive: bool,
    ) -> PResult<'a, Vec<MapFace>> {
        let mut faces = Vec::new();
        let mut rest = input;
        loop {
            rest = skip_space(rest);
            match rest.first() {
                Some(b'}') => return Ok((&rest[1..], faces)),
                Some(b'(') => {
                    let (after, face) = self.face(rest, primitive)?;
                    faces.push(face);
                    rest = after;
                }
                None => {
                    return fail(
                        rest,
                        ParseErrorKind::UnclosedBlock {
                            what: "brush",
                            opened,
                        },
                    );
                }
                Some(_) => {
                    return fail(
                        rest,
                        ParseErrorKind::ExpectedFound {
                            expected: "'(' to start a face or '}' to close the brush",
                            found: found_word(rest),
                        },
                    );
                }
            }
        }
    }

    fn face(&self, start: &'a [u8], primitive: bool) -> PResult<'a, MapFace> {
        let loc = self.loc(start);
        let (rest, p0) = point(start, "'(' to start plane point 1")?;
        let (rest, p1) = point(rest, "'(' to start plane point 2")?;
        let (rest, p2) = point(rest, "'(' to start plane point 3")?;
        let (rest, texture, mapping) = if primitive {
            let (rest, ()) = expect_char(rest, '(', "'(' to start the texture matrix")?;
            let (rest, row0) = matrix_row(rest)?;
            let (rest, row1) = matrix_row(rest)?;
            let (rest, ()) = expect_char(rest, ')', "')' to close the texture matrix")?;
            let (rest, texture) = texture_name(rest)?;
            let mapping = TextureMapping::BrushPrimitive {
                matrix: [row0, row1],
            };
            (rest, texture, mapping)
        } else {
            let (rest, texture) = texture_name(rest)?;
            if skip_space(rest).first() == Some(&b'[') {
                let (rest, u) = valve_axis(rest)?;
                let (rest, v) = valve_axis(rest)?;
                let (rest, [rotation, sx, sy]) = numbers::<3>(rest)?;
                let mapping = TextureMapping::Valve220 {
                    u,
                    v,
                    rotation,
                    scale: [sx, sy],
                };
                (rest, texture, mapping)
            } else {
                let (rest, [ox, oy, rotation, sx, sy]) = numbers::<5>(rest)?;
                let mapping = TextureMapping::Standard {
                    offset: [ox, oy],
                    rotation,
                    scale: [sx, sy],
                };
                (rest, texture, mapping)
            }
        };
        let (rest, extension) = face_extension(rest)?;
        let face = MapFace {
            points: [p0, p1, p2],
            texture,
            mapping,
            extension,
            loc,
        };
        Ok((rest, face))
    }

    /// `{ texture ( header ) ( rows ) }` after the patch keyword.
    fn patch(&self, input: &'a [u8], kind: String, loc: SourceLoc) -> PResult<'a, MapPatch> {
        let (rest, ()) = expect_char(input, '{', "'{' after the patch keyword")?;
        let (rest, texture) = texture_name(rest)?;
        let (rest, header) = number_list(rest)?;
        let (mut rest, ()) = expect_char(rest, '(', "'(' to start the patch control points")?;
        let mut rows = Vec::new();
        loop {
            rest = skip_space(rest);
            if rest.first() == Some(&b')') {
                rest = &rest[1..];
                break;
            }
            let (after, ()) = expect_char(rest, '(', "'(' to start a patch row")?;
            let mut row = Vec::new();
            let mut inner = after;
            loop {
                inner = skip_space(inner);
                if inner.first() == Some(&b')') {
                    inner = &inner[1..];
                    break;
                }
                let (after, control) = number_list(inner)?;
                row.push(control);
                inner = after;
            }
            rows.push(row);
            rest = inner;
        }
        let (rest, ()) = self.close(rest, "patch", loc)?;
        let declared = (
            header.first().copied().unwrap_or(0.0),
            header.get(1).copied().unwrap_or(0.0),
        );
        let found = (rows.len(), rows.first().map_or(0, Vec::len));
        let uniform = rows.iter().all(|row| row.len() == found.1);
        if declared != (found.0 as f64, found.1 as f64) || !uniform {
            return fail(
                input,
                ParseErrorKind::PatchShape {
                    declared: (count_of(declared.0), count_of(declared.1)),
                    found,
                },
            );
        }
        let patch = MapPatch {
            kind,
            texture,
            header,
            rows,
            loc,
        };
        Ok((rest, patch))
    }
}

/// A declared patch dimension as a count; negative or fractional values become 0.
fn count_of(value: f64) -> usize {
    if value >= 0.0 && value.fract() == 0.0 && value <= MAX_EXACT_INTEGER {
        value as usize
    } else {
        0
    }
}

enum Block {
    Brush(MapBrush),
    Patch(MapPatch),
}

fn starts_with_word(rest: &[u8]) -> bool {
    rest.first().is_some_and(|b| b.is_ascii_alphabetic())
}

/// `( a b c )` of a brush-primitive texture matrix.
fn matrix_row(input: &[u8]) -> PResult<'_, [f64; 3]> {
    let (rest, ()) = expect_char(input, '(', "'(' to start a texture matrix row")?;
    let (rest, row) = numbers::<3>(rest)?;
    let (rest, ()) = expect_char(rest, ')', "')' to close the texture matrix row")?;
    Ok((rest, row))
}

/// `( n n ... )` of any length.
fn number_list(input: &[u8]) -> PResult<'_, Vec<f64>> {
    let (mut rest, ()) = expect_char(input, '(', "'('")?;
    let mut values = Vec::new();
    loop {
        rest = skip_space(rest);
        if rest.first() == Some(&b')') {
            return Ok((&rest[1..], values));
        }
        let (after, value) = number(rest)?;
        values.push(value);
        rest = after;
    }
}

/// Reads a whole `.map` file.
pub(crate) fn parse(src: &[u8]) -> Result<MapFile, ParseError> {
    let reader = Reader {
        src,
        lines: LineIndex::new(src),
    };
    match reader.file() {
        Ok((_, map)) => Ok(map),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(ParseError {
            loc: reader.loc(e.rest),
            kind: e.kind,
        }),
        Err(nom::Err::Incomplete(_)) => Err(ParseError {
            loc: reader.loc(&[]),
            kind: ParseErrorKind::Expected("more input"),
        }),
    }
}
