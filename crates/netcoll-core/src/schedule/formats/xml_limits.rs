//! Bounds on an XML file's shape, checked by a linear pre-scan before the parser sees it: a
//! file nested 100,000 elements deep overflowed the stack (a segfault) in code that walks the
//! tree, and element or attribute counts without a bound grow memory with the file's whim.
//! msccl-tools' programs nest 5 deep (`algo/gpu/tb/step`) and carry at most 10 attributes per
//! element, so the limits below leave a wide margin and still refuse the pathological file
//! with one line naming the limit. Entities need no bound here: the parser refuses DTDs
//! (`allow_dtd = false`), so only the five predefined entities exist.

use crate::error::{Error, Result};

/// The deepest element nesting accepted.
pub const MAX_DEPTH: usize = 64;
/// The most attributes one element may carry.
pub const MAX_ATTRIBUTES: usize = 64;
/// The most nodes (elements, text, comments) a document may hold; also given to the parser.
pub const MAX_NODES: u32 = 50_000_000;

/// Refuses `text` (named `file` in the error) when its nesting or an element's attribute
/// count exceeds the limits. The scan is lexical: comments, CDATA, processing instructions
/// and declarations are skipped; quoted attribute values are skipped whole.
pub fn check(text: &str, file: &str) -> Result<()> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0usize;
    let line_at = |at: usize| b[..at.min(b.len())].iter().filter(|&&c| c == b'\n').count() + 1;
    while let Some(off) = b[i..].iter().position(|&c| c == b'<') {
        let start = i + off;
        let rest = &b[start..];
        if rest.starts_with(b"<!--") {
            i = skip_past(b, start + 4, b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i = skip_past(b, start + 9, b"]]>");
        } else if rest.starts_with(b"<?") {
            i = skip_past(b, start + 2, b"?>");
        } else if rest.starts_with(b"<!") {
            i = skip_past(b, start + 2, b">");
        } else if rest.starts_with(b"</") {
            depth = depth.saturating_sub(1);
            i = skip_past(b, start + 2, b">");
        } else {
            let (end, attributes, self_closing) = scan_tag(b, start + 1);
            if attributes > MAX_ATTRIBUTES {
                return Err(Error::Io(format!(
                    "{file}: line {}: an element has {attributes} attributes; the limit is \
                     {MAX_ATTRIBUTES}",
                    line_at(start)
                )));
            }
            if !self_closing {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(Error::Io(format!(
                        "{file}: line {}: XML nesting deeper than the limit of {MAX_DEPTH} \
                         elements (an MSCCL program nests 5 deep)",
                        line_at(start)
                    )));
                }
            }
            i = end;
        }
    }
    Ok(())
}

/// The index just past the first `pat` at or after `from` (the end of `b` when absent).
fn skip_past(b: &[u8], from: usize, pat: &[u8]) -> usize {
    if from >= b.len() {
        return b.len();
    }
    b[from..]
        .windows(pat.len())
        .position(|w| w == pat)
        .map_or(b.len(), |p| from + p + pat.len())
}

/// Scans a start tag from just after its `<`: (index past its `>`, attributes, self-closing).
fn scan_tag(b: &[u8], from: usize) -> (usize, usize, bool) {
    let mut i = from;
    let mut attributes = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                let quote = b[i];
                i = b[i + 1..]
                    .iter()
                    .position(|&c| c == quote)
                    .map_or(b.len(), |p| i + 1 + p + 1);
                continue;
            }
            b'=' => attributes += 1,
            b'>' => return (i + 1, attributes, i > from && b[i - 1] == b'/'),
            // A `<` inside a tag is malformed; the parser names it. Stop the tag here.
            b'<' => return (i, attributes, false),
            _ => {}
        }
        i += 1;
    }
    (b.len(), attributes, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_deep_nesting_naming_the_limit() {
        let deep = "<a>".repeat(100_000) + &"</a>".repeat(100_000);
        let e = check(&deep, "f.xml").unwrap_err().to_string();
        assert!(e.contains("nesting") && e.contains("64"), "{e}");
    }

    #[test]
    fn accepts_msccl_shape_with_comments_and_self_closing_elements() {
        let ok = "<?xml version=\"1.0\"?><!-- <x><x><x> -->\n<algo a=\"1\"><gpu id='0'>\
                  <tb><step s=\"a>b\"/><step/></tb></gpu></algo>";
        check(ok, "f.xml").unwrap();
        let shallow = "<a>".repeat(MAX_DEPTH) + &"</a>".repeat(MAX_DEPTH);
        check(&shallow, "f.xml").unwrap();
    }

    #[test]
    fn refuses_too_many_attributes() {
        let attrs: String = (0..100).map(|i| format!(" a{i}=\"1\"")).collect();
        let e = check(&format!("<x{attrs}/>"), "f.xml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("100 attributes"), "{e}");
    }
}
