//! BookSim 2 configuration files as they are: `key = value;` statements, `//` and `/* */`
//! comments, numbers, bare words (BookSim's `StrConst`, which may carry parentheses and
//! braces, as `hotspot({0,5})`), quoted strings and `{a, b}` lists. Every problem is an error
//! with its line and column; nothing is silently dropped (an unterminated comment, quote or
//! brace is an error at the line where it opened). Files are checked before they are read:
//! at most [`MAX_CONFIG_BYTES`], no NUL byte (binary), UTF-8 text.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Largest configuration file read (BookSim's shipped runfiles are under 3 kB).
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// One `key = value;` statement: the value as written (quotes removed), and where it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub key: String,
    pub value: String,
    pub line: usize,
    pub column: usize,
}

/// A configuration file's statements and the folder it is in (`network_file` is also looked
/// up there).
#[derive(Debug, Clone)]
pub struct ConfigFile {
    pub statements: Vec<Statement>,
    pub dir: PathBuf,
}

/// Reads and parses the BookSim configuration file at `path`.
pub fn read_config_file(path: &Path) -> Result<ConfigFile> {
    let text = read_text(path, "configuration file", MAX_CONFIG_BYTES)?;
    let statements = parse(&text, &path.display().to_string())?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok(ConfigFile { statements, dir })
}

/// The text of a small input file, its size checked before reading; binary and non-UTF-8
/// content refused by name.
pub fn read_text(path: &Path, what: &str, limit: u64) -> Result<String> {
    let shown = path.display();
    let io = |e: std::io::Error| Error::Io(format!("cannot read {what} {shown}: {e}"));
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(Error::Io(format!("{what} {shown} is not a regular file")));
    }
    if meta.len() > limit {
        return Err(Error::Io(format!(
            "{what} {shown} has {} bytes, more than the {limit} a {what} may have: is it the \
             right file?",
            meta.len()
        )));
    }
    let bytes = std::fs::read(path).map_err(io)?;
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(Error::Io(format!(
            "{what} {shown} is binary (a NUL byte at offset {at}): give a BookSim text file"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        Error::Io(format!(
            "{what} {shown} is not UTF-8 text (invalid byte at offset {}): save it as \
             UTF-8 or ASCII",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Parses configuration text; `origin` names it in errors (`origin:line:column: ...`).
pub fn parse(text: &str, origin: &str) -> Result<Vec<Statement>> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        line: 1,
        col: 1,
        origin,
    };
    let mut out = Vec::new();
    loop {
        p.skip_blank()?;
        if p.i >= p.s.len() {
            return Ok(out);
        }
        out.push(p.statement()?);
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    line: usize,
    col: usize,
    origin: &'a str,
}

impl Parser<'_> {
    fn err<T>(&self, line: usize, col: usize, msg: impl std::fmt::Display) -> Result<T> {
        Err(Error::Spec(format!("{}:{line}:{col}: {msg}", self.origin)))
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn bump(&mut self) {
        if self.s[self.i] == b'\n' {
            self.line += 1;
            self.col = 1;
        } else if self.s[self.i] & 0xc0 != 0x80 {
            self.col += 1;
        }
        self.i += 1;
    }

    /// Skips whitespace and comments.
    fn skip_blank(&mut self) -> Result<()> {
        while let Some(c) = self.peek() {
            if c.is_ascii_whitespace() {
                self.bump();
            } else if self.s[self.i..].starts_with(b"//") {
                while self.peek().is_some_and(|c| c != b'\n') {
                    self.bump();
                }
            } else if self.s[self.i..].starts_with(b"/*") {
                let (l, c) = (self.line, self.col);
                self.bump();
                self.bump();
                while !self.s[self.i..].starts_with(b"*/") {
                    if self.peek().is_none() {
                        return self.err(l, c, "unterminated /* comment: close it with */");
                    }
                    self.bump();
                }
                self.bump();
                self.bump();
            } else {
                break;
            }
        }
        Ok(())
    }

    fn statement(&mut self) -> Result<Statement> {
        let (line, col) = (self.line, self.col);
        let start = self.i;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.bump();
        }
        let key = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        if key.is_empty() || key.as_bytes()[0].is_ascii_digit() {
            let what = self
                .peek()
                .map_or("the end".into(), |c| format!("'{}'", c as char));
            return self.err(
                line,
                col,
                format!("expected a key (as num_vcs), found {what}"),
            );
        }
        let key = key.to_string();
        self.skip_blank()?;
        if self.peek() != Some(b'=') {
            return self.err(self.line, self.col, format!("expected '=' after {key}"));
        }
        self.bump();
        self.skip_blank()?;
        let (vl, vc) = (self.line, self.col);
        let value = self.value(&key)?;
        if value.is_empty() {
            return self.err(vl, vc, format!("{key} has no value: write {key} = VALUE;"));
        }
        self.skip_blank()?;
        if self.peek() != Some(b';') {
            let what = self
                .peek()
                .map_or("the end of the file".into(), |c| format!("'{}'", c as char));
            return self.err(
                self.line,
                self.col,
                format!("expected ';' after {key} = {value}, found {what}"),
            );
        }
        self.bump();
        Ok(Statement {
            key,
            value,
            line,
            column: col,
        })
    }

    /// A quoted string, or a bare value up to whitespace or ';' whose brackets balance
    /// (spaces are allowed inside `{...}` and `(...)`).
    fn value(&mut self, key: &str) -> Result<String> {
        if let Some(q @ (b'"' | b'\'')) = self.peek() {
            let (l, c) = (self.line, self.col);
            self.bump();
            let start = self.i;
            while self.peek() != Some(q) {
                if self.peek().is_none_or(|c| c == b'\n') {
                    return self.err(l, c, format!("unterminated quote in the value of {key}"));
                }
                self.bump();
            }
            let v = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
            self.bump();
            return Ok(v);
        }
        let start = self.i;
        let mut open: Vec<(u8, usize, usize)> = Vec::new();
        while let Some(c) = self.peek() {
            match c {
                b'{' | b'(' => open.push((c, self.line, self.col)),
                b'}' | b')' => {
                    let want = if c == b'}' { b'{' } else { b'(' };
                    if open.pop().map(|o| o.0) != Some(want) {
                        return self.err(
                            self.line,
                            self.col,
                            format!("unbalanced '{}' in the value of {key}", c as char),
                        );
                    }
                }
                b';' if open.is_empty() => break,
                c if c.is_ascii_whitespace() && open.is_empty() => break,
                b'/' if open.is_empty() && self.s[self.i..].starts_with(b"//") => break,
                _ => {}
            }
            self.bump();
        }
        if let Some(&(c, l, col)) = open.last() {
            let close = if c == b'{' { '}' } else { ')' };
            return self.err(
                l,
                col,
                format!(
                    "unterminated '{}' in the value of {key}: close it with '{close}'",
                    c as char
                ),
            );
        }
        let v = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        // Spaces inside a list are layout, as in `{0, 5}`.
        Ok(v.split_whitespace().collect::<Vec<_>>().join(""))
    }
}
