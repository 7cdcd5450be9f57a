//! Glob patterns for texture and entity class names: `*` any run of characters, `?` one,
//! `\\` making the next `*`, `?`, `\\`, `[` or `]` literal; `[` and `]` are reserved.
//!
//! Takes a pattern and a length limit; gives a checked, lowercase [`Glob`] or a
//! [`GlobError`], and whole-name matching. Guarantees: never panics; matching is the greedy
//! star match, linear in the pattern times the name.

/// Why a pattern is not a glob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GlobError {
    /// The pattern is empty.
    Empty,
    /// Longer than the limit.
    TooLong,
    /// It ends in a lone `\`.
    DanglingEscape,
    /// `\` before a character that needs no escape.
    NeedlessEscape(char),
    /// `[` or `]`, reserved for character classes.
    Reserved(char),
    /// A control character.
    ControlCharacter(char),
}

/// One element of a glob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// This character (lowercase).
    Char(char),
    /// `?`: any one character.
    One,
    /// `*`: any run of characters, empty included.
    Star,
}

/// A checked glob (module docs), lowercase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Glob {
    tokens: Vec<Token>,
    /// Whether it has a literal `/`, so that it matches only whole names.
    pub has_slash: bool,
}

impl Glob {
    /// Checks `pattern` (at most `max_len` bytes) into a glob.
    pub(crate) fn new(pattern: &str, max_len: usize) -> Result<Glob, GlobError> {
        if pattern.is_empty() {
            return Err(GlobError::Empty);
        }
        if pattern.len() > max_len {
            return Err(GlobError::TooLong);
        }
        let mut tokens = Vec::with_capacity(pattern.len());
        let mut chars = pattern.chars();
        while let Some(c) = chars.next() {
            let token = match c {
                '\\' => match chars.next() {
                    None => return Err(GlobError::DanglingEscape),
                    Some(e @ ('*' | '?' | '\\' | '[' | ']')) => Token::Char(e),
                    Some(e) => return Err(GlobError::NeedlessEscape(e)),
                },
                '[' | ']' => return Err(GlobError::Reserved(c)),
                c if c.is_control() => return Err(GlobError::ControlCharacter(c)),
                '*' => Token::Star,
                '?' => Token::One,
                c => Token::Char(c.to_ascii_lowercase()),
            };
            // `**` matches what `*` does; one star keeps duplicates recognisable.
            if !(token == Token::Star && tokens.last() == Some(&Token::Star)) {
                tokens.push(token);
            }
        }
        let has_slash = tokens.contains(&Token::Char('/'));
        Ok(Glob { tokens, has_slash })
    }

    /// Whether the glob matches all of `text` (lowercase characters): the greedy match
    /// that, on a mismatch, lets the last star take one more character. Linear in the
    /// pattern times the text.
    pub(crate) fn matches(&self, text: &[char]) -> bool {
        let pattern = &self.tokens;
        let (mut p, mut t) = (0, 0);
        let mut star: Option<(usize, usize)> = None;
        while t < text.len() {
            match pattern.get(p) {
                Some(Token::Star) => {
                    star = Some((p, t));
                    p += 1;
                }
                Some(Token::One) => {
                    p += 1;
                    t += 1;
                }
                Some(Token::Char(c)) if Some(c) == text.get(t) => {
                    p += 1;
                    t += 1;
                }
                _ => match star {
                    Some((star_p, star_t)) => {
                        p = star_p + 1;
                        t = star_t + 1;
                        star = Some((star_p, star_t + 1));
                    }
                    None => return false,
                },
            }
        }
        pattern.get(p..).is_some_and(|rest| rest.iter().all(|t| *t == Token::Star))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limit the tests check patterns against.
    const LIMIT: usize = 256;

    fn glob_matches(pattern: &str, text: &str) -> bool {
        let glob = Glob::new(pattern, LIMIT).unwrap_or_else(|e| panic!("{pattern}: {e:?}"));
        let text: Vec<char> = text.chars().map(|c| c.to_ascii_lowercase()).collect();
        glob.matches(&text)
    }

    #[test]
    fn globs_match_stars_and_question_marks() {
        assert!(glob_matches("lava_*", "LAVA_hot"));
        assert!(glob_matches("lava_*", "lava_"));
        assert!(!glob_matches("lava_*", "lava"));
        assert!(glob_matches("*clip", "tools/playerclip"));
        assert!(glob_matches("a*b*c", "aXXbYYbZc"));
        assert!(!glob_matches("a*b*c", "aXXbYYbZ"));
        assert!(glob_matches("sky?", "sky4"));
        assert!(!glob_matches("sky?", "sky"));
        assert!(glob_matches("\\**", "*water0"));
        assert!(!glob_matches("\\**", "water0"));
        assert!(glob_matches("a\\?", "a?"));
        assert!(!glob_matches("a\\?", "ab"));
        assert!(glob_matches("***", ""));
        assert!(!glob_matches("?", ""));
    }

    #[test]
    fn bad_globs_are_refused() {
        assert_eq!(Glob::new("", LIMIT), Err(GlobError::Empty));
        assert_eq!(Glob::new("a\\", LIMIT), Err(GlobError::DanglingEscape));
        assert_eq!(Glob::new("a\\b", LIMIT), Err(GlobError::NeedlessEscape('b')));
        assert_eq!(Glob::new("[ab]", LIMIT), Err(GlobError::Reserved('[')));
        assert_eq!(Glob::new("a\tb", LIMIT), Err(GlobError::ControlCharacter('\t')));
        let long = "a".repeat(LIMIT + 1);
        assert_eq!(Glob::new(&long, LIMIT), Err(GlobError::TooLong));
        assert!(Glob::new(&long[1..], LIMIT).is_ok());
    }

}
