//! The Quake 3 shader script reader: `.shader` text to resolved shader flags.
//!
//! Takes the bytes of one `scripts/*.shader` file and its name (for messages); gives every
//! definition in file order ([`ShaderDef`]: lower-cased name, the three flag words, where it
//! starts) and [`ShaderDiagnostic`]s for what q3map2 would warn about, or a [`ShaderError`]
//! when the braces do not balance. Guarantees: it never panics, on any bytes; it reads
//! exactly what q3map2's `ParseShaderFile` (`shaders.cpp`) reads for flags, with the
//! tokenizer of its `scriplib.cpp` `GetToken`:
//!
//! - tokens are separated by bytes up to 32 and end at `;`; a `"quoted"` token may hold
//!   anything but `"`; comments are `//`, `/* */`, and a token starting with `;` or `#`
//!   (the rest of the line), so `#` inside a name is kept;
//! - a file is `NAME { BODY }` repeated; a `:q3map` suffix on the name is dropped;
//! - in a body, `{ … }` is a stage, whose tokens are skipped up to the first `}`; anything
//!   else is a directive: a keyword and arguments up to the end of its line (the rest of the
//!   line is skipped, braces included, as q3map2 does);
//! - the directives that change flags: `surfaceparm NAME`; `q3map_NAME` when NAME is a
//!   surfaceparm (`q3map_nolightmap`); `deformVertexes autosprite…` (detail);
//!   `q3map_sun`, `q3map_sunExt` and `sun` (sky); `q3map_onlyVertexLighting` (pointlight).
//!   Every other directive is skipped.
//!
//! Names compare ASCII case-insensitively: definitions are stored lower case.

use std::borrow::Cow;
use std::fmt;

use super::q3_flags::{ShaderFlags, surface_parm};

/// A position in a script: 1-based line and column (the column counts bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ScriptPos {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1, in bytes.
    pub column: u32,
}

impl fmt::Display for ScriptPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// One shader definition, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderDef {
    /// The name, lower case, without a `:q3map` suffix (`textures/common/caulk`).
    pub name: String,
    /// The flags after applying every flag-changing directive, in file order, to
    /// [`ShaderFlags::DEFAULT`].
    pub flags: ShaderFlags,
    /// Where the name is.
    pub pos: ScriptPos,
}

/// What a [`ShaderDiagnostic`] reports.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShaderDiagnosticKind {
    /// `surfaceparm NAME` with a name q3map2 does not know (it warns and ignores it).
    UnknownSurfaceParm(String),
    /// `surfaceparm` with nothing after it on its line.
    MissingSurfaceParm,
    /// A `q3map_*` keyword that is neither a q3map2 directive nor `q3map_` + a surfaceparm.
    UnknownQ3mapDirective(String),
    /// A directive q3map2 follows that this reader does not (`q3map_baseShader`,
    /// `q3map_material`, `$include`); flags it would bring are missing.
    Unsupported(String),
}

/// A problem q3map2 would warn about; the definition is still read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderDiagnostic {
    /// The script's name as given to [`parse_shader_script`].
    pub file: String,
    /// Where the offending token is.
    pub pos: ScriptPos,
    /// The shader being defined (empty outside a definition).
    pub shader: String,
    /// What is wrong.
    pub kind: ShaderDiagnosticKind,
}

impl fmt::Display for ShaderDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: warning: ", self.file, self.pos)?;
        match &self.kind {
            ShaderDiagnosticKind::UnknownSurfaceParm(name) => {
                write!(f, "unknown surfaceparm \"{name}\"")?
            }
            ShaderDiagnosticKind::MissingSurfaceParm => write!(f, "surfaceparm without a name")?,
            ShaderDiagnosticKind::UnknownQ3mapDirective(name) => {
                write!(f, "unknown q3map_* directive \"{name}\"")?
            }
            ShaderDiagnosticKind::Unsupported(name) => {
                write!(f, "\"{name}\" is not supported, ignored")?
            }
        }
        if self.shader.is_empty() {
            Ok(())
        } else {
            write!(f, " (in {})", self.shader)
        }
    }
}

/// What went wrong in a [`ShaderError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShaderErrorKind {
    /// A shader name not followed by `{` (q3map2: "{ not found!").
    #[error("expected '{{' after shader name {name}, found {found}")]
    MissingOpenBrace {
        /// The shader name.
        name: String,
        /// What came instead (`end of file` at the end).
        found: String,
    },
    /// A `{` where a shader name belongs.
    #[error("'{{' without a shader name")]
    MissingName,
    /// A `}` where a shader name belongs.
    #[error("'}}' without a matching '{{'")]
    UnexpectedCloseBrace,
    /// The file ends inside a shader or stage opened at the error's position.
    #[error("'{{' of {name} is never closed")]
    Unclosed {
        /// The shader being defined.
        name: String,
    },
    /// The file ends inside a `/*` comment opened at the error's position.
    #[error("unterminated /* comment")]
    UnterminatedComment,
    /// The file ends inside a quoted token opened at the error's position.
    #[error("unterminated quoted token")]
    UnterminatedQuote,
}

/// A script that cannot be read: unbalanced braces, an unterminated comment or quote.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{pos}: {kind}")]
#[non_exhaustive]
pub struct ShaderError {
    /// The script's name as given to [`parse_shader_script`].
    pub file: String,
    /// Where the problem is (for an unclosed block, its opening brace).
    pub pos: ScriptPos,
    /// What is wrong.
    pub kind: ShaderErrorKind,
}

/// One script, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShaderScript {
    /// Every definition, in file order (a name may repeat; the first one counts).
    pub defs: Vec<ShaderDef>,
    /// Warnings, in file order.
    pub diagnostics: Vec<ShaderDiagnostic>,
}

/// Reads one shader script.
///
/// `file` names the script in messages. The bytes need not be UTF-8 (a byte that is not
/// becomes U+FFFD in names).
///
/// # Errors
///
/// [`ShaderError`] for a `{` never closed, a `}` or `{` where a name belongs, a name not
/// followed by `{`, an unterminated `/*` comment or quoted token.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "internals")] {
/// use planeshift::game::q3_flags::{contents, surf};
/// use planeshift::game::shader::parse_shader_script;
/// let script = parse_shader_script("a.shader", b"Textures/Liquids/Pool\n{\n surfaceparm water\n surfaceparm nolightmap\n}\n").unwrap();
/// assert_eq!(script.defs[0].name, "textures/liquids/pool");
/// assert_eq!(script.defs[0].flags.contents, contents::WATER);
/// assert_eq!(script.defs[0].flags.surface, surf::NOLIGHTMAP | surf::POINTLIGHT);
/// # }
/// ```
pub fn parse_shader_script(file: &str, text: &[u8]) -> Result<ShaderScript, ShaderError> {
    Parser {
        lexer: Lexer::new(text),
        file,
        out: ShaderScript::default(),
    }
    .run()
}

/// The file names a `shaderlist.txt` lists, in order, each ending in `.shader` (q3map2's
/// `LoadShaderInfo` adds the extension when missing) and each once (compared ASCII
/// case-insensitively). Tokens and comments as in scripts; reading stops at a malformed
/// token (an unterminated quote or comment).
pub fn shader_list(text: &[u8]) -> Vec<String> {
    let mut lexer = Lexer::new(text);
    let mut files: Vec<String> = Vec::new();
    while let Ok(Some(token)) = lexer.next(true) {
        let mut file = token.text.into_owned();
        if !file.to_ascii_lowercase().ends_with(".shader") {
            file.push_str(".shader");
        }
        if !files.iter().any(|f| f.eq_ignore_ascii_case(&file)) {
            files.push(file);
        }
    }
    files
}

/// The suffix q3map2 strips from a definition's name (a shader only q3map2 reads).
const Q3MAP_ONLY_SUFFIX: &str = ":q3map";

/// The key a name is stored and looked up under: ASCII lower case.
pub fn shader_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// The key a texture name is looked up under: [`shader_key`] without an image extension
/// (what follows the last `.` of the last path component, as q3map2's `PathExtensionless`
/// in `ShaderInfoForShader`).
pub fn lookup_key(name: &str) -> String {
    let start = name.rfind(['/', '\\']).map_or(0, |slash| slash + 1);
    let stem = match name[start..].rfind('.') {
        Some(dot) => &name[..start + dot],
        None => name,
    };
    shader_key(stem)
}

/// q3map2's named `q3map_*` directives (`shaders.cpp`), lower case: none of them changes
/// flags except through the entries handled by name in [`Parser::directive`]; a `q3map_X`
/// outside this list is tried as `surfaceparm X`.
const Q3MAP_DIRECTIVES: [&str; 67] = [
    "q3map_alphagen",
    "q3map_alphamod",
    "q3map_backshader",
    "q3map_backsplash",
    "q3map_baseshader",
    "q3map_bounce",
    "q3map_bouncescale",
    "q3map_clipmodel",
    "q3map_cloneshader",
    "q3map_colorgen",
    "q3map_colormod",
    "q3map_deprecateshader",
    "q3map_flare",
    "q3map_flareshader",
    "q3map_floodlight",
    "q3map_fogdir",
    "q3map_foliage",
    "q3map_forcemeta",
    "q3map_forcesunlight",
    "q3map_fur",
    "q3map_globaltexture",
    "q3map_indexed",
    "q3map_invert",
    "q3map_lightimage",
    "q3map_lightmapaxis",
    "q3map_lightmapbrightness",
    "q3map_lightmapfilterradius",
    "q3map_lightmapgamma",
    "q3map_lightmapmergable",
    "q3map_lightmapsampleoffset",
    "q3map_lightmapsamplesize",
    "q3map_lightmapsize",
    "q3map_lightrgb",
    "q3map_lightstyle",
    "q3map_lightsubdivide",
    "q3map_material",
    "q3map_nodirty",
    "q3map_nofast",
    "q3map_nofog",
    "q3map_noclip",
    "q3map_nonplanar",
    "q3map_normalimage",
    "q3map_notjunc",
    "q3map_novertexlight",
    "q3map_novertexshadows",
    "q3map_offset",
    "q3map_onlyvertexlighting",
    "q3map_patchshadows",
    "q3map_remapshader",
    "q3map_rgbgen",
    "q3map_rgbmod",
    "q3map_shadeangle",
    "q3map_skylight",
    "q3map_splotchfix",
    "q3map_stylemarker",
    "q3map_stylemarker2",
    "q3map_sun",
    "q3map_sunext",
    "q3map_surfacelight",
    "q3map_surfacemodel",
    "q3map_tcgen",
    "q3map_tcmod",
    "q3map_tesssize",
    "q3map_terrain",
    "q3map_texturesize",
    "q3map_vertexscale",
    "q3map_vertexshadows",
];

/// One token and where it starts.
struct Token<'a> {
    text: Cow<'a, str>,
    pos: ScriptPos,
}

/// q3map2's `GetToken` over bytes.
struct Lexer<'a> {
    bytes: &'a [u8],
    at: usize,
    line: u32,
    line_start: usize,
}

/// Byte values up to this one separate tokens (`scriplib.cpp`: `*script_p <= 32`).
const SPACE: u8 = b' ';

impl<'a> Lexer<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Lexer {
            bytes,
            at: 0,
            line: 1,
            line_start: 0,
        }
    }

    fn pos(&self) -> ScriptPos {
        let column = self.at.saturating_sub(self.line_start) + 1;
        ScriptPos {
            line: self.line,
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.at + ahead).copied()
    }

    /// Steps over one byte, counting lines.
    fn bump(&mut self) {
        if self.peek(0) == Some(b'\n') {
            self.line = self.line.saturating_add(1);
            self.line_start = self.at + 1;
        }
        self.at += 1;
    }

    /// Skips to the newline ending this line (not past it).
    fn skip_line(&mut self) {
        while let Some(b) = self.peek(0) {
            if b == b'\n' {
                break;
            }
            self.at += 1;
        }
    }

    /// The next token; with `crossline` false, `None` at the end of the line (q3map2's
    /// `GetToken(false)` after `TokenAvailable`). `None` at the end of the input.
    fn next(&mut self, crossline: bool) -> Result<Option<Token<'a>>, (ScriptPos, ShaderErrorKind)> {
        loop {
            let Some(b) = self.peek(0) else {
                return Ok(None);
            };
            if b <= SPACE {
                if b == b'\n' && !crossline {
                    return Ok(None);
                }
                self.bump();
            } else if b == b';' || b == b'#' || (b == b'/' && self.peek(1) == Some(b'/')) {
                self.skip_line();
            } else if b == b'/' && self.peek(1) == Some(b'*') {
                let open = self.pos();
                let line = self.line;
                self.at += 2;
                loop {
                    match (self.peek(0), self.peek(1)) {
                        (Some(b'*'), Some(b'/')) => {
                            self.at += 2;
                            break;
                        }
                        (Some(_), _) => self.bump(),
                        (None, _) => return Err((open, ShaderErrorKind::UnterminatedComment)),
                    }
                }
                if !crossline && self.line != line {
                    return Ok(None);
                }
            } else {
                return self.token().map(Some);
            }
        }
    }

    /// The token starting here (not a space or comment).
    fn token(&mut self) -> Result<Token<'a>, (ScriptPos, ShaderErrorKind)> {
        let pos = self.pos();
        let bytes = self.bytes;
        if self.peek(0) == Some(b'"') {
            self.at += 1;
            let start = self.at;
            loop {
                match self.peek(0) {
                    Some(b'"') => break,
                    Some(_) => self.bump(),
                    None => return Err((pos, ShaderErrorKind::UnterminatedQuote)),
                }
            }
            let text = String::from_utf8_lossy(bytes.get(start..self.at).unwrap_or_default());
            self.at += 1;
            Ok(Token { text, pos })
        } else {
            let start = self.at;
            while let Some(b) = self.peek(0) {
                if b <= SPACE || b == b';' {
                    break;
                }
                self.at += 1;
            }
            let text = String::from_utf8_lossy(bytes.get(start..self.at).unwrap_or_default());
            Ok(Token { text, pos })
        }
    }
}

/// The reader's state: the lexer and what it has produced.
struct Parser<'a, 'f> {
    lexer: Lexer<'a>,
    file: &'f str,
    out: ShaderScript,
}

impl<'a> Parser<'a, '_> {
    fn error(&self, pos: ScriptPos, kind: ShaderErrorKind) -> ShaderError {
        ShaderError {
            file: self.file.to_string(),
            pos,
            kind,
        }
    }

    fn next(&mut self, crossline: bool) -> Result<Option<Token<'a>>, ShaderError> {
        self.lexer
            .next(crossline)
            .map_err(|(pos, kind)| self.error(pos, kind))
    }

    fn run(mut self) -> Result<ShaderScript, ShaderError> {
        while let Some(name) = self.next(true)? {
            match name.text.as_ref() {
                "{" => return Err(self.error(name.pos, ShaderErrorKind::MissingName)),
                "}" => return Err(self.error(name.pos, ShaderErrorKind::UnexpectedCloseBrace)),
                "$include" => {
                    // q3map2 splices the file in; this reader does not.
                    self.warn(name.pos, "", ShaderDiagnosticKind::Unsupported("$include".into()));
                    self.skip_rest_of_line()?;
                    continue;
                }
                _ => {}
            }
            let mut key = shader_key(&name.text);
            if key.ends_with(Q3MAP_ONLY_SUFFIX) {
                key.truncate(key.len() - Q3MAP_ONLY_SUFFIX.len());
            }
            let open = match self.next(true)? {
                Some(t) if t.text == "{" => t.pos,
                found => {
                    let found = found.map_or_else(|| "end of file".to_string(), |t| t.text.into_owned());
                    return Err(self.error(
                        name.pos,
                        ShaderErrorKind::MissingOpenBrace { name: key, found },
                    ));
                }
            };
            let flags = self.body(&key, open)?;
            self.out.defs.push(ShaderDef {
                name: key,
                flags,
                pos: name.pos,
            });
        }
        Ok(self.out)
    }

    fn warn(&mut self, pos: ScriptPos, shader: &str, kind: ShaderDiagnosticKind) {
        self.out.diagnostics.push(ShaderDiagnostic {
            file: self.file.to_string(),
            pos,
            shader: shader.to_string(),
            kind,
        });
    }

    fn unclosed(&self, name: &str, open: ScriptPos) -> ShaderError {
        self.error(
            open,
            ShaderErrorKind::Unclosed {
                name: name.to_string(),
            },
        )
    }

    /// The body after `{` up to its `}`: stages skipped, directives applied.
    fn body(&mut self, name: &str, open: ScriptPos) -> Result<ShaderFlags, ShaderError> {
        let mut flags = ShaderFlags::DEFAULT;
        loop {
            let Some(token) = self.next(true)? else {
                return Err(self.unclosed(name, open));
            };
            match token.text.as_ref() {
                "}" => return Ok(flags),
                "{" => loop {
                    // A stage: q3map2 reads only image names here, up to the first `}`.
                    match self.next(true)? {
                        Some(t) if t.text == "}" => break,
                        Some(_) => {}
                        None => return Err(self.unclosed(name, token.pos)),
                    }
                },
                keyword => {
                    let keyword = keyword.to_ascii_lowercase();
                    self.directive(name, &keyword, token.pos, &mut flags)?;
                    self.skip_rest_of_line()?;
                }
            }
        }
    }

    fn skip_rest_of_line(&mut self) -> Result<(), ShaderError> {
        while self.next(false)?.is_some() {}
        Ok(())
    }

    /// Applies the named surfaceparm, which is known to exist.
    fn apply(flags: &mut ShaderFlags, parm: &str) {
        if let Some(parm) = surface_parm(parm) {
            parm.apply(flags);
        }
    }

    /// One directive (`keyword` lower case): the ones that change flags, per q3map2's
    /// `ParseShaderFile`.
    fn directive(
        &mut self,
        name: &str,
        keyword: &str,
        pos: ScriptPos,
        flags: &mut ShaderFlags,
    ) -> Result<(), ShaderError> {
        match keyword {
            "surfaceparm" => match self.next(false)? {
                Some(arg) => match surface_parm(&arg.text) {
                    Some(parm) => parm.apply(flags),
                    None => self.warn(
                        arg.pos,
                        name,
                        ShaderDiagnosticKind::UnknownSurfaceParm(arg.text.into_owned()),
                    ),
                },
                None => self.warn(pos, name, ShaderDiagnosticKind::MissingSurfaceParm),
            },
            "deformvertexes" => {
                if let Some(arg) = self.next(false)?
                    && arg
                        .text
                        .get(..AUTOSPRITE.len())
                        .is_some_and(|p| p.eq_ignore_ascii_case(AUTOSPRITE))
                {
                    Self::apply(flags, "detail");
                }
            }
            "q3map_sun" | "q3map_sunext" | "sun" => Self::apply(flags, "sky"),
            "q3map_onlyvertexlighting" => Self::apply(flags, "pointlight"),
            "q3map_baseshader" | "q3map_material" => {
                self.warn(pos, name, ShaderDiagnosticKind::Unsupported(keyword.into()))
            }
            _ => {
                if let Some(parm) = keyword.strip_prefix("q3map_")
                    && !Q3MAP_DIRECTIVES.contains(&keyword)
                {
                    match surface_parm(parm) {
                        Some(parm) => parm.apply(flags),
                        None => self.warn(
                            pos,
                            name,
                            ShaderDiagnosticKind::UnknownQ3mapDirective(keyword.into()),
                        ),
                    }
                }
            }
        }
        Ok(())
    }
}

/// The prefix of `deformVertexes autosprite` and `autosprite2` (q3map2 matches the prefix).
const AUTOSPRITE: &str = "autosprite";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::q3_flags::{compile, contents, surf};

    fn parse(text: &str) -> ShaderScript {
        match parse_shader_script("t.shader", text.as_bytes()) {
            Ok(script) => script,
            Err(e) => panic!("unexpected error {e}"),
        }
    }

    fn error(text: &str) -> String {
        match parse_shader_script("t.shader", text.as_bytes()) {
            Ok(script) => panic!("expected an error, read {script:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn names_lower_case_and_q3map_suffix_dropped() {
        let s = parse("Textures/A/B:Q3MAP { }\n\"textures/c d\"\n{\n}\n");
        let names: Vec<&str> = s.defs.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["textures/a/b", "textures/c d"]);
        // `x/#teleport{` is one token (braces do not end tokens): the name lacks its `{`.
        assert!(parse_shader_script("t", b"x/#teleport{\n}").is_err());
        let s = parse("x/#teleport\n{\nsurfaceparm water\n}\n");
        assert_eq!(s.defs[0].name, "x/#teleport");
        assert_eq!(s.defs[0].flags.contents, contents::WATER);
        assert_eq!(s.defs[0].pos, ScriptPos { line: 1, column: 1 });
    }

    #[test]
    fn comments_of_every_kind() {
        let s = parse(
            "// c\n/* a\n { b } */ s1 // t\n{\n  surfaceparm nodraw // x\n  ; y\n  # z\n /* { */ surfaceparm nomarks\n}\n",
        );
        assert_eq!(s.defs.len(), 1);
        assert_eq!(s.defs[0].name, "s1");
        assert_eq!(s.defs[0].flags.surface, surf::NODRAW | surf::NOMARKS);
    }

    #[test]
    fn a_directive_takes_its_line_only() {
        // The argument must be on the keyword's line; the rest of the line is skipped.
        let s = parse("s\n{\nsurfaceparm\nnonsolid\nsurfaceparm water lava\n}\n");
        assert_eq!(s.defs[0].flags.contents, contents::WATER);
        assert_eq!(s.diagnostics.len(), 1);
        assert_eq!(s.diagnostics[0].kind, ShaderDiagnosticKind::MissingSurfaceParm);
        // `nonsolid` alone on a line is an unknown directive, skipped.
        assert_eq!(s.defs[0].flags.surface, 0);
    }

    #[test]
    fn semicolon_ends_a_token() {
        let s = parse("s\n{\nsurfaceparm nodraw;surfaceparm water\n}\n");
        assert_eq!(s.defs[0].flags.surface, surf::NODRAW);
        assert_eq!(s.defs[0].flags.contents, contents::SOLID);
    }

    #[test]
    fn stages_are_skipped_even_with_surfaceparms() {
        let s = parse("s\n{\n{\nmap $lightmap\nsurfaceparm water\n}\n{ map x.tga }\n}\n");
        assert_eq!(s.defs[0].flags, ShaderFlags::DEFAULT);
    }

    #[test]
    fn aliases_and_implied_parms() {
        let s = parse(
            "a { q3map_nolightmap\n}\nb {\ndeformVertexes AutoSprite2\n}\nc {\nq3map_sunExt 1 1 1 100 0 90 2 16\n}\nd {\nq3map_onlyVertexLighting\n}\ne {\nq3map_surfacelight 100\nq3map_bogus\nQ3MAP_WATER\n}\n",
        );
        let flags: Vec<ShaderFlags> = s.defs.iter().map(|d| d.flags).collect();
        assert_eq!(flags[0].surface, surf::VERTEXLIT);
        assert_eq!(flags[1].contents, contents::SOLID | contents::DETAIL);
        assert_eq!(flags[1].compile, compile::SOLID | compile::DETAIL);
        assert_eq!(flags[2].surface, surf::SKY);
        assert_eq!(flags[3].surface, surf::VERTEXLIT);
        assert_eq!(flags[4].contents, contents::WATER);
        assert_eq!(s.diagnostics.len(), 1);
        assert_eq!(
            s.diagnostics[0].to_string(),
            "t.shader:14:1: warning: unknown q3map_* directive \"q3map_bogus\" (in e)"
        );
    }

    #[test]
    fn unknown_surfaceparm_is_located() {
        let s = parse("s\n{\n\tsurfaceparm  nobotclip\n}\n");
        assert_eq!(
            s.diagnostics[0].to_string(),
            "t.shader:3:15: warning: unknown surfaceparm \"nobotclip\" (in s)"
        );
        assert_eq!(s.defs[0].flags, ShaderFlags::DEFAULT);
    }

    #[test]
    fn unbalanced_braces_are_errors() {
        assert_eq!(error("s\n{\nsurfaceparm nodraw\n"), "t.shader:2:1: '{' of s is never closed");
        assert_eq!(error("s\n{\n {\n map x\n"), "t.shader:3:2: '{' of s is never closed");
        assert_eq!(error("s { }\n}\n"), "t.shader:2:1: '}' without a matching '{'");
        assert_eq!(error("{ }"), "t.shader:1:1: '{' without a shader name");
        assert_eq!(
            error("s t { }"),
            "t.shader:1:1: expected '{' after shader name s, found t"
        );
        assert_eq!(
            error("s"),
            "t.shader:1:1: expected '{' after shader name s, found end of file"
        );
        assert_eq!(error("s { /* }"), "t.shader:1:5: unterminated /* comment");
        assert_eq!(error("s { \"}"), "t.shader:1:5: unterminated quoted token");
    }

    #[test]
    fn include_is_reported_and_skipped() {
        let s = parse("$include \"other.shader\"\ns\n{\n}\n");
        assert_eq!(s.defs.len(), 1);
        assert_eq!(
            s.diagnostics[0].to_string(),
            "t.shader:1:1: warning: \"$include\" is not supported, ignored"
        );
    }

    #[test]
    fn lookup_key_strips_an_image_extension() {
        assert_eq!(lookup_key("Textures/Base/Floor.TGA"), "textures/base/floor");
        assert_eq!(lookup_key("textures/a.b/c"), "textures/a.b/c");
        assert_eq!(lookup_key("textures/x/light1.5"), "textures/x/light1");
        assert_eq!(lookup_key(""), "");
    }

    #[test]
    fn odd_bytes_never_panic() {
        for text in [&b"\xff\xfe {"[..], b"a{\"", b"a {\n\x00}", b"/", b"*/", b"a { q3map_ }", b"\"\"{}"] {
            let _ = parse_shader_script("t", text);
        }
    }
}
