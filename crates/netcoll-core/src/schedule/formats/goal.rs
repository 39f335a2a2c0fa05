//! GOAL, the text schedule language of LogGOPSim and Schedgen: its data model and parser.
//!
//! ```text
//! num_ranks 2
//! rank 0 {
//!   l1: send 8b to 1 tag 0
//!   l2: calc 100 cpu 0
//!   l2 requires l1
//! }
//! rank 1 {
//!   l1: recv 8b from 0 tag 0
//! }
//! ```
//! The grammar is the one of LogGOPSim's `txt2bin` (txt2bin.re): one item per line,
//! `label: send|recv SIZEb to|from PEER [tag T] [cpu C] [nic N]`, `label: calc TIME [cpu C]`,
//! `a requires b` (a starts after b is done), `a irequires b` (a starts after b started),
//! `//` and `/* */` comments; a receive may name peer or tag `-1` (any). Ops keep their file
//! order, and dependencies their statement order, because LogGOPSim's event order (and so its
//! finish times) depends on both.

use crate::error::{Error, Result};

/// Peer or tag `-1`: any source / any tag (receives only).
pub const ANY: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalKind {
    Send,
    Recv,
    Calc,
}

impl GoalKind {
    pub fn name(self) -> &'static str {
        match self {
            GoalKind::Send => "send",
            GoalKind::Recv => "recv",
            GoalKind::Calc => "calc",
        }
    }
}

/// One operation of one rank. `size` is bytes for send/recv and time for calc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalOp {
    pub kind: GoalKind,
    pub size: u64,
    /// Destination of a send, source of a receive (or [`ANY`]); 0 for calc.
    pub peer: u32,
    pub tag: u32,
    pub cpu: u8,
    pub nic: u8,
}

/// A dependency: op `op` waits for op `on` to be done (`requires`) or started (`irequires`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoalDep {
    pub op: u32,
    pub on: u32,
    pub start: bool,
}

/// The ops and dependencies of one rank, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoalRank {
    pub ops: Vec<GoalOp>,
    pub deps: Vec<GoalDep>,
    /// Label of every op, for diagnoses and writing back.
    pub labels: Labels,
}

impl GoalRank {
    /// The name of op `i` in diagnoses: its label, else its position.
    pub fn name(&self, i: u32) -> String {
        match self.labels.get(i) {
            Some(l) => l.into_owned(),
            None => format!("op #{i}"),
        }
    }
}

/// The labels of a rank's ops, one byte per op: Schedgen labels its ops `l1`, `l2`, ... in
/// file order, so a label that is its op's position plus one after an `l` is a mark, and
/// only other labels are kept as text (a 270 MB Schedgen file has 8 million labels).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels {
    /// Per op: 0 unlabelled, 1 `l<i+1>`, 2 text in `text`.
    kind: Vec<u8>,
    /// (op, label) for the labels of kind 2, in op order.
    text: Vec<(u32, Box<str>)>,
}

impl Labels {
    /// Appends the label of the next op (`None`: unlabelled).
    pub fn push(&mut self, label: Option<&str>) {
        let i = self.kind.len();
        let kind = match label {
            None => 0,
            Some(l) if l.strip_prefix('l') == Some(&(i + 1).to_string()) => 1,
            Some(l) => {
                self.text.push((i as u32, l.into()));
                2
            }
        };
        self.kind.push(kind);
    }

    /// The label of op `i`, if it has one.
    pub fn get(&self, i: u32) -> Option<std::borrow::Cow<'_, str>> {
        match self.kind.get(i as usize)? {
            1 => Some(format!("l{}", i + 1).into()),
            2 => {
                let k = self.text.binary_search_by_key(&i, |t| t.0).ok()?;
                Some(self.text[k].1.as_ref().into())
            }
            _ => None,
        }
    }

    pub fn len(&self) -> usize {
        self.kind.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }
}

/// A GOAL schedule: `num_ranks` ranks, rank `r` at `ranks[r]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Goal {
    pub ranks: Vec<GoalRank>,
}

impl Goal {
    pub fn num_ranks(&self) -> u32 {
        self.ranks.len() as u32
    }

    /// Total number of ops.
    pub fn num_ops(&self) -> usize {
        self.ranks.iter().map(|r| r.ops.len()).sum()
    }

    /// Number of send ops (each is one point-to-point message).
    pub fn num_sends(&self) -> usize {
        let sends = |r: &GoalRank| r.ops.iter().filter(|o| o.kind == GoalKind::Send).count();
        self.ranks.iter().map(sends).sum()
    }

    /// Parses GOAL text; `name` (the file) prefixes every error, which names the line.
    pub fn parse(text: &str, name: &str) -> Result<Goal> {
        Parser::new(name).run(text)
    }

    /// GOAL text that `txt2bin` reads: ranks in order, labels `l<i>` where the file had none.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut out = format!("num_ranks {}\n", self.num_ranks());
        for (r, rank) in self.ranks.iter().enumerate() {
            let label = |i: u32| match rank.labels.get(i) {
                Some(l) => l.into_owned(),
                None => format!("l{i}"),
            };
            let _ = writeln!(out, "\nrank {r} {{");
            for (i, op) in rank.ops.iter().enumerate() {
                let _ = writeln!(out, "{}: {}", label(i as u32), op_text(op));
            }
            for d in &rank.deps {
                let verb = if d.start { "irequires" } else { "requires" };
                let _ = writeln!(out, "{} {verb} {}", label(d.op), label(d.on));
            }
            out.push_str("}\n");
        }
        out
    }
}

fn op_text(op: &GoalOp) -> String {
    let num = |x: u32| {
        if x == ANY {
            "-1".to_string()
        } else {
            x.to_string()
        }
    };
    let mut s = match op.kind {
        GoalKind::Calc => format!("calc {}", op.size),
        GoalKind::Send => format!("send {}b to {} tag {}", op.size, op.peer, num(op.tag)),
        GoalKind::Recv => format!(
            "recv {}b from {} tag {}",
            op.size,
            num(op.peer),
            num(op.tag)
        ),
    };
    if op.cpu != 0 || op.nic != 0 {
        s.push_str(&format!(" cpu {}", op.cpu));
    }
    if op.nic != 0 && op.kind != GoalKind::Calc {
        s.push_str(&format!(" nic {}", op.nic));
    }
    s
}

/// Line-oriented parser; state is the rank being read and its label table.
struct Parser<'a> {
    name: &'a str,
    line: usize,
    num_ranks: Option<u32>,
    current: Option<(u32, GoalRank, std::collections::HashMap<String, u32>)>,
    ranks: Vec<Option<GoalRank>>,
}

type Tokens<'t> = std::iter::Peekable<std::vec::IntoIter<&'t str>>;

impl<'a> Parser<'a> {
    fn new(name: &'a str) -> Self {
        Parser {
            name,
            line: 0,
            num_ranks: None,
            current: None,
            ranks: Vec::new(),
        }
    }

    fn err<T>(&self, what: String) -> Result<T> {
        Err(Error::Io(format!(
            "{}: line {}: {what}",
            self.name, self.line
        )))
    }

    fn run(mut self, text: &str) -> Result<Goal> {
        let stripped = strip_block_comments(text);
        for (i, raw) in stripped.lines().enumerate() {
            self.line = i + 1;
            let line = raw.split("//").next().unwrap_or("");
            let tokens = tokenize(line);
            if !tokens.is_empty() {
                self.item(tokens.into_iter().peekable())?;
            }
        }
        self.finish()
    }

    fn finish(mut self) -> Result<Goal> {
        self.line += 1;
        if let Some((r, ..)) = &self.current {
            return self.err(format!(
                "the file ends inside rank {r}: a closing '}}' is missing (truncated file?)"
            ));
        }
        let Some(n) = self.num_ranks else {
            return self.err("no 'num_ranks N' line: this is not a GOAL schedule".into());
        };
        let mut ranks = Vec::with_capacity(n as usize);
        for (r, rank) in std::mem::take(&mut self.ranks).into_iter().enumerate() {
            match rank {
                Some(rank) => ranks.push(rank),
                None => {
                    return self.err(format!(
                        "rank {r} has no 'rank {r} {{ ... }}' block (num_ranks is {n}; truncated file?)"
                    ))
                }
            }
        }
        Ok(Goal { ranks })
    }

    fn item(&mut self, mut t: Tokens<'_>) -> Result<()> {
        let first = t.next().unwrap_or("");
        match first {
            "num_ranks" => self.num_ranks_line(t),
            "rank" => self.open_rank(t),
            "}" => self.close_rank(t),
            _ => {
                if self.current.is_none() {
                    return self.err(format!(
                        "'{first}' outside a rank block: expected 'num_ranks N', 'rank R {{' or '}}'"
                    ));
                }
                self.op_or_dep(first, t)
            }
        }
    }

    fn num_ranks_line(&mut self, mut t: Tokens<'_>) -> Result<()> {
        if self.num_ranks.is_some() {
            return self.err("num_ranks given twice".into());
        }
        let n = self.number(t.next(), "the number of ranks after num_ranks")?;
        if n == 0 || n > u32::MAX as u64 / 2 {
            return self.err(format!("num_ranks {n} is out of range: use 1 to 2^31"));
        }
        // A rank costs a few words; refuse counts that would not fit in memory.
        if n > 1 << 26 {
            return self.err(format!("num_ranks {n} is too large to load (at most 2^26)"));
        }
        self.num_ranks = Some(n as u32);
        self.ranks = vec![None; n as usize];
        self.end(t)
    }

    fn open_rank(&mut self, mut t: Tokens<'_>) -> Result<()> {
        let Some(n) = self.num_ranks else {
            return self.err("'rank' before 'num_ranks N'".into());
        };
        if let Some((r, ..)) = &self.current {
            return self.err(format!(
                "rank block opened inside rank {r}: close it with '}}' first"
            ));
        }
        let r = self.number(t.next(), "a rank number after 'rank'")?;
        if r >= n as u64 {
            return self.err(format!("rank {r} is out of range: num_ranks is {n}"));
        }
        if self.ranks[r as usize].is_some() {
            return self.err(format!("rank {r} is given twice"));
        }
        if t.next() != Some("{") {
            return self.err(format!("expected '{{' after 'rank {r}'"));
        }
        self.current = Some((r as u32, GoalRank::default(), Default::default()));
        self.end(t)
    }

    fn close_rank(&mut self, t: Tokens<'_>) -> Result<()> {
        let Some((r, rank, _)) = self.current.take() else {
            return self.err("'}' without an open rank block".into());
        };
        self.ranks[r as usize] = Some(rank);
        self.end(t)
    }

    fn op_or_dep(&mut self, first: &str, mut t: Tokens<'_>) -> Result<()> {
        let (label, verb) = match first {
            "send" | "recv" | "calc" => (None, first),
            _ => {
                self.check_ident(first)?;
                match t.next() {
                    Some(":") => (Some(first), t.next().unwrap_or("")),
                    Some(v @ ("requires" | "irequires")) => return self.dep(first, v, t),
                    other => {
                        return self.err(format!(
                            "expected ':', 'requires' or 'irequires' after '{first}', found {}",
                            shown(other)
                        ))
                    }
                }
            }
        };
        let op = match verb {
            "send" => self.comm(GoalKind::Send, &mut t)?,
            "recv" => self.comm(GoalKind::Recv, &mut t)?,
            "calc" => self.calc(&mut t)?,
            other => {
                return self.err(format!(
                    "unknown operation '{other}': expected send, recv or calc"
                ))
            }
        };
        self.end(t)?;
        self.push(label, op)
    }

    fn push(&mut self, label: Option<&str>, op: GoalOp) -> Result<()> {
        let line = self.line;
        let (_, rank, table) = self.current.as_mut().expect("inside a rank");
        let i = rank.ops.len() as u32;
        if let Some(l) = label {
            if table.insert(l.to_string(), i).is_some() {
                return Err(Error::Io(format!(
                    "{}: line {line}: label '{l}' is defined twice in this rank",
                    self.name
                )));
            }
        }
        rank.ops.push(op);
        rank.labels.push(label);
        Ok(())
    }

    fn dep(&mut self, a: &str, verb: &str, mut t: Tokens<'_>) -> Result<()> {
        let b = t.next().unwrap_or("");
        self.check_ident(b)?;
        self.end(t)?;
        let (r, rank, table) = self.current.as_mut().expect("inside a rank");
        let (r, find) = (*r, |l: &str| table.get(l).copied());
        let (Some(op), Some(on)) = (find(a), find(b)) else {
            let missing = if find(a).is_none() { a } else { b };
            return self.err(format!(
                "'{a} {verb} {b}' names label '{missing}', which rank {r} has not defined above"
            ));
        };
        rank.deps.push(GoalDep {
            op,
            on,
            start: verb == "irequires",
        });
        Ok(())
    }

    fn comm(&mut self, kind: GoalKind, t: &mut Tokens<'_>) -> Result<GoalOp> {
        let size = self.size(t.next())?;
        let (word, verb) = match kind {
            GoalKind::Send => ("to", "send"),
            _ => ("from", "recv"),
        };
        if t.next() != Some(word) {
            return self.err(format!("expected '{word}' after the size of a {verb}"));
        }
        let peer = self.peer(t.next(), kind)?;
        let mut op = GoalOp {
            kind,
            size,
            peer,
            tag: 0,
            cpu: 0,
            nic: 0,
        };
        if t.peek() == Some(&"tag") {
            t.next();
            op.tag = match t.next() {
                Some("-1") if kind == GoalKind::Recv => ANY,
                other => self.number(other, "a tag")?.min(u32::MAX as u64 - 1) as u32,
            };
        }
        self.cpu_nic(t, &mut op, true)?;
        Ok(op)
    }

    fn calc(&mut self, t: &mut Tokens<'_>) -> Result<GoalOp> {
        let size = self.number(t.next(), "the time of a calc")?;
        let mut op = GoalOp {
            kind: GoalKind::Calc,
            size,
            peer: 0,
            tag: 0,
            cpu: 0,
            nic: 0,
        };
        self.cpu_nic(t, &mut op, false)?;
        Ok(op)
    }

    fn cpu_nic(&mut self, t: &mut Tokens<'_>, op: &mut GoalOp, nic: bool) -> Result<()> {
        if t.peek() == Some(&"cpu") {
            t.next();
            op.cpu = self.small(t.next(), "cpu")?;
        }
        if nic && t.peek() == Some(&"nic") {
            t.next();
            op.nic = self.small(t.next(), "nic")?;
        }
        Ok(())
    }

    fn small(&self, tok: Option<&str>, what: &str) -> Result<u8> {
        let n = self.number(tok, &format!("a {what} number"))?;
        if n > 255 {
            return self.err(format!("{what} {n} is out of range: use 0 to 255"));
        }
        Ok(n as u8)
    }

    /// `8b` arrives as the tokens `8` and `b`.
    fn size(&self, tok: Option<&str>) -> Result<u64> {
        let n = self.number(tok, "a size in bytes (like 8b)")?;
        Ok(n)
    }

    fn peer(&self, tok: Option<&str>, kind: GoalKind) -> Result<u32> {
        if tok == Some("-1") && kind == GoalKind::Recv {
            return Ok(ANY);
        }
        let p = self.number(tok, "a peer rank")?;
        let n = self.num_ranks.unwrap_or(0) as u64;
        if p >= n {
            return self.err(format!("peer rank {p} is out of range: num_ranks is {n}"));
        }
        Ok(p as u32)
    }

    fn number(&self, tok: Option<&str>, what: &str) -> Result<u64> {
        match tok {
            Some(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => match s.parse() {
                Ok(n) => Ok(n),
                Err(_) => self.err(format!("{s} is too large for {what}")),
            },
            other => self.err(format!("expected {what}, found {}", shown(other))),
        }
    }

    fn check_ident(&self, s: &str) -> Result<()> {
        let mut b = s.bytes();
        let ok = b.next().is_some_and(|c| c.is_ascii_alphabetic())
            && b.all(|c| c.is_ascii_alphanumeric() || c == b'_');
        if ok {
            Ok(())
        } else {
            self.err(format!(
                "'{s}' is not a label (a letter, then letters, digits or '_') nor an operation"
            ))
        }
    }

    fn end(&self, mut t: Tokens<'_>) -> Result<()> {
        match t.next() {
            None => Ok(()),
            Some(extra) => self.err(format!("unexpected '{extra}' at the end of the line")),
        }
    }
}

fn shown(tok: Option<&str>) -> String {
    match tok {
        Some(s) => format!("'{s}'"),
        None => "the end of the line".into(),
    }
}

/// Splits a line into words, numbers and the punctuation `:`, `{`, `}`; a size `8b` becomes
/// `8` (the `b` is dropped after a number, as txt2bin reads it).
fn tokenize(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if matches!(c, b':' | b'{' | b'}') {
            out.push(&line[i..i + 1]);
            i += 1;
        } else if c.is_ascii_digit() || (c == b'-' && bytes.get(i + 1) == Some(&b'1')) {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            out.push(&line[start..i]);
            if bytes.get(i) == Some(&b'b') && !ident_byte(bytes.get(i + 1)) {
                i += 1;
            }
        } else {
            let start = i;
            while i < bytes.len() && (ident_byte(Some(&bytes[i])) || !is_break(bytes[i])) {
                i += 1;
            }
            out.push(&line[start..i.max(start + 1)]);
            i = i.max(start + 1);
        }
    }
    out
}

fn ident_byte(b: Option<&u8>) -> bool {
    b.is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

fn is_break(c: u8) -> bool {
    c.is_ascii_whitespace() || matches!(c, b':' | b'{' | b'}')
}

/// Removes `/* ... */` comments, keeping their newlines so that line numbers stay right.
fn strip_block_comments(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("/*") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("/*") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let close = after.find("*/").map_or(after.len(), |c| c + 2);
        out.extend(after[..close].chars().filter(|&c| c == '\n'));
        rest = &after[close.min(after.len())..];
    }
    out.push_str(rest);
    out.into()
}
