//! MSCCL algorithm XML (msccl-tools' `ir_to_xml`, read by the MSCCL/RCCL runtimes): its data
//! model, parser and printer.
//!
//! ```xml
//! <algo name="ring" proto="Simple" nchannels="1" nchunksperloop="4" ngpus="4"
//!       coll="allgather" inplace="1">
//!   <gpu id="0" i_chunks="0" o_chunks="4" s_chunks="0">
//!     <tb id="0" send="1" recv="3" chan="0">
//!       <step s="0" type="s" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1"
//!             depid="-1" deps="-1" hasdep="0"/>
//! ```
//! A GPU runs its threadblocks concurrently, each its steps in order; a step may wait for one
//! step of another threadblock of its GPU (`depid`, `deps`). A threadblock sends to one peer
//! and receives from one peer on one channel; the k-th send on a connection (sender, receiver,
//! channel) is the k-th receive there. Parsing checks the structure (attributes, ranges, the
//! references between steps); meaning is checked by lowering onto the IR (`msccl_lower`).

use crate::error::{Error, Result};

/// The three buffers of a GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Buf {
    Input,
    Output,
    Scratch,
}

impl Buf {
    pub fn code(self) -> &'static str {
        match self {
            Buf::Input => "i",
            Buf::Output => "o",
            Buf::Scratch => "s",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Buf::Input => "input",
            Buf::Output => "output",
            Buf::Scratch => "scratch",
        }
    }

    fn parse(s: &str) -> Option<Buf> {
        match s {
            "i" => Some(Buf::Input),
            "o" => Some(Buf::Output),
            "s" => Some(Buf::Scratch),
            _ => None,
        }
    }
}

/// Step types (msccl-tools' `Instruction`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    Send,
    Recv,
    RecvCopySend,
    RecvReduceSend,
    RecvReduceCopy,
    RecvReduceCopySend,
    Copy,
    Reduce,
    Nop,
    Delete,
    Start,
}

impl StepKind {
    pub const ALL: [StepKind; 11] = [
        StepKind::Send,
        StepKind::Recv,
        StepKind::RecvCopySend,
        StepKind::RecvReduceSend,
        StepKind::RecvReduceCopy,
        StepKind::RecvReduceCopySend,
        StepKind::Copy,
        StepKind::Reduce,
        StepKind::Nop,
        StepKind::Delete,
        StepKind::Start,
    ];

    pub fn code(self) -> &'static str {
        match self {
            StepKind::Send => "s",
            StepKind::Recv => "r",
            StepKind::RecvCopySend => "rcs",
            StepKind::RecvReduceSend => "rrs",
            StepKind::RecvReduceCopy => "rrc",
            StepKind::RecvReduceCopySend => "rrcs",
            StepKind::Copy => "cpy",
            StepKind::Reduce => "re",
            StepKind::Nop => "nop",
            StepKind::Delete => "d",
            StepKind::Start => "st",
        }
    }

    pub fn sends(self) -> bool {
        matches!(
            self,
            StepKind::Send
                | StepKind::RecvCopySend
                | StepKind::RecvReduceSend
                | StepKind::RecvReduceCopySend
        )
    }

    pub fn receives(self) -> bool {
        matches!(
            self,
            StepKind::Recv
                | StepKind::RecvCopySend
                | StepKind::RecvReduceSend
                | StepKind::RecvReduceCopy
                | StepKind::RecvReduceCopySend
        )
    }

    /// Whether the step reads its source chunks locally (msccl-tools' `_local_src_insts`,
    /// plus the receive-reduce steps, which reduce into a local source).
    pub fn reads_src(self) -> bool {
        matches!(
            self,
            StepKind::Send
                | StepKind::Copy
                | StepKind::Reduce
                | StepKind::RecvReduceSend
                | StepKind::RecvReduceCopy
                | StepKind::RecvReduceCopySend
        )
    }

    /// Whether the step writes its destination chunks locally (`_local_dst_insts`, less
    /// `rrs`, which forwards the sum without storing it).
    pub fn writes_dst(self) -> bool {
        matches!(
            self,
            StepKind::Recv
                | StepKind::RecvCopySend
                | StepKind::RecvReduceCopy
                | StepKind::RecvReduceCopySend
                | StepKind::Copy
                | StepKind::Reduce
        )
    }

    fn parse(s: &str) -> Option<StepKind> {
        StepKind::ALL.into_iter().find(|k| k.code() == s)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub kind: StepKind,
    pub src: (Buf, i64),
    pub dst: (Buf, i64),
    pub cnt: u32,
    /// The threadblock and step this one waits for, if any.
    pub dep: Option<(u32, u32)>,
    pub hasdep: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threadblock {
    pub id: u32,
    /// Peer GPU it sends to / receives from (`None`: -1).
    pub send: Option<u32>,
    pub recv: Option<u32>,
    pub chan: u32,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gpu {
    pub i_chunks: u32,
    pub o_chunks: u32,
    pub s_chunks: u32,
    /// Threadblocks indexed by id.
    pub tbs: Vec<Threadblock>,
}

impl Gpu {
    pub fn chunks(&self, b: Buf) -> u32 {
        match b {
            Buf::Input => self.i_chunks,
            Buf::Output => self.o_chunks,
            Buf::Scratch => self.s_chunks,
        }
    }
}

/// An MSCCL algorithm; GPU `r` at `gpus[r]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Msccl {
    pub name: String,
    pub proto: String,
    pub nchannels: u32,
    pub nchunksperloop: u32,
    pub coll: String,
    pub inplace: bool,
    pub gpus: Vec<Gpu>,
}

impl Msccl {
    pub fn ngpus(&self) -> u32 {
        self.gpus.len() as u32
    }

    /// Parses MSCCL XML; `file` prefixes every error, which names the line and element.
    pub fn parse(text: &str, file: &str) -> Result<Msccl> {
        super::xml_limits::check(text, file)?;
        let options = roxmltree::ParsingOptions {
            allow_dtd: false,
            nodes_limit: super::xml_limits::MAX_NODES,
        };
        let doc = roxmltree::Document::parse_with_options(text, options)
            .map_err(|e| malformed(file, text, &e))?;
        Reader { doc: &doc, file }.algo(doc.root_element())
    }
}

/// The parser's error as one line naming the line (the file's last for a truncated one).
fn malformed(file: &str, text: &str, e: &roxmltree::Error) -> Error {
    use roxmltree::Error as E;
    let pos = e.pos();
    let truncated = matches!(e, E::UnclosedRootNode | E::UnexpectedEndOfStream);
    let (line, hint) = if truncated {
        let last = text.lines().count().max(1);
        (last as u32, ": the file ends early (truncated?)")
    } else {
        (pos.row, "")
    };
    Error::Io(format!("{file}: line {line}: malformed XML: {e}{hint}"))
}

struct Reader<'d, 'i> {
    doc: &'d roxmltree::Document<'i>,
    file: &'d str,
}

type Node<'d, 'i> = roxmltree::Node<'d, 'i>;

impl<'d, 'i> Reader<'d, 'i> {
    fn err<T>(&self, node: Node<'_, '_>, what: String) -> Result<T> {
        let pos = self.doc.text_pos_at(node.range().start);
        let tag = node.tag_name().name();
        Err(Error::Io(format!(
            "{}: line {}: <{tag}>: {what}",
            self.file, pos.row
        )))
    }

    fn attr<'a>(&self, node: Node<'a, '_>, name: &str) -> Result<&'a str> {
        match node.attribute(name) {
            Some(v) => Ok(v),
            None => self.err(node, format!("attribute '{name}' is missing")),
        }
    }

    fn int(&self, node: Node<'_, '_>, name: &str) -> Result<i64> {
        let v = self.attr(node, name)?;
        match v.trim().parse::<i64>() {
            Ok(x) if x.unsigned_abs() <= u32::MAX as u64 => Ok(x),
            _ => self.err(node, format!("{name}=\"{v}\" is not an integer in range")),
        }
    }

    fn count(&self, node: Node<'_, '_>, name: &str) -> Result<u32> {
        let x = self.int(node, name)?;
        if x < 0 {
            return self.err(node, format!("{name}=\"{x}\" must not be negative"));
        }
        Ok(x as u32)
    }

    fn peer(&self, node: Node<'_, '_>, name: &str, ngpus: u32) -> Result<Option<u32>> {
        match self.int(node, name)? {
            -1 => Ok(None),
            x if x >= 0 && (x as u64) < ngpus as u64 => Ok(Some(x as u32)),
            x => self.err(
                node,
                format!("{name}=\"{x}\" is not a GPU (ngpus = {ngpus}) nor -1"),
            ),
        }
    }

    fn children<'a>(&self, node: Node<'a, 'i>, tag: &str) -> Result<Vec<Node<'a, 'i>>> {
        let mut out = Vec::new();
        for c in node.children().filter(|c| c.is_element()) {
            if c.tag_name().name() != tag {
                return self.err(
                    c,
                    format!(
                        "unexpected element inside <{}>: expected <{tag}>",
                        node.tag_name().name()
                    ),
                );
            }
            out.push(c);
        }
        Ok(out)
    }

    fn algo(&self, node: Node<'_, 'i>) -> Result<Msccl> {
        if node.tag_name().name() != "algo" {
            return self.err(
                node,
                "the root element must be <algo> (an MSCCL algorithm)".into(),
            );
        }
        let ngpus = self.count(node, "ngpus")?;
        if ngpus == 0 || ngpus > 1 << 20 {
            return self.err(
                node,
                format!("ngpus=\"{ngpus}\" is out of range: use 1 to 2^20"),
            );
        }
        let mut gpus: Vec<Option<Gpu>> = vec![None; ngpus as usize];
        for g in self.children(node, "gpu")? {
            let id = self.count(g, "id")?;
            if id >= ngpus {
                return self.err(g, format!("id=\"{id}\" is out of range (ngpus = {ngpus})"));
            }
            if gpus[id as usize].is_some() {
                return self.err(g, format!("GPU {id} is given twice"));
            }
            gpus[id as usize] = Some(self.gpu(g, ngpus)?);
        }
        let gpus = match gpus.iter().position(Option::is_none) {
            Some(missing) => {
                return self.err(
                    node,
                    format!("GPU {missing} has no <gpu> element (ngpus = {ngpus})"),
                )
            }
            None => gpus.into_iter().flatten().collect(),
        };
        let inplace = match self.attr(node, "inplace")? {
            "0" => false,
            "1" => true,
            v => return self.err(node, format!("inplace=\"{v}\" must be 0 or 1")),
        };
        Ok(Msccl {
            name: node.attribute("name").unwrap_or("").to_string(),
            proto: node.attribute("proto").unwrap_or("Simple").to_string(),
            nchannels: self.count(node, "nchannels")?,
            nchunksperloop: match node.attribute("nchunksperloop") {
                // 0 stands for "absent" below; a written 0 would divide the buffers into
                // no chunks per loop, which no runtime can execute.
                Some(_) => match self.count(node, "nchunksperloop")? {
                    0 => {
                        return self.err(
                            node,
                            "nchunksperloop=\"0\": a loop holds at least 1 chunk".into(),
                        )
                    }
                    n => n,
                },
                None => 0,
            },
            coll: self.attr(node, "coll")?.to_string(),
            inplace,
            gpus,
        })
    }

    fn gpu(&self, node: Node<'_, 'i>, ngpus: u32) -> Result<Gpu> {
        let mut gpu = Gpu {
            i_chunks: self.count(node, "i_chunks")?,
            o_chunks: self.count(node, "o_chunks")?,
            s_chunks: self.count(node, "s_chunks")?,
            tbs: Vec::new(),
        };
        let nodes = self.children(node, "tb")?;
        let mut tbs: Vec<Option<Threadblock>> = vec![None; nodes.len()];
        for t in &nodes {
            let id = self.count(*t, "id")?;
            if id as usize >= nodes.len() {
                return self.err(
                    *t,
                    format!(
                        "id=\"{id}\": threadblock ids must be 0 to {}",
                        nodes.len() - 1
                    ),
                );
            }
            if tbs[id as usize].is_some() {
                return self.err(*t, format!("threadblock {id} is given twice"));
            }
            tbs[id as usize] = Some(Threadblock {
                id,
                send: self.peer(*t, "send", ngpus)?,
                recv: self.peer(*t, "recv", ngpus)?,
                chan: self.count(*t, "chan")?,
                steps: Vec::new(),
            });
        }
        gpu.tbs = tbs.into_iter().flatten().collect();
        for t in &nodes {
            let id = self.count(*t, "id")? as usize;
            let steps = self.steps(*t, &gpu, id)?;
            gpu.tbs[id].steps = steps;
        }
        Ok(gpu)
    }

    fn steps(&self, tb: Node<'_, 'i>, gpu: &Gpu, id: usize) -> Result<Vec<Step>> {
        let nodes: Vec<_> = tb.children().filter(|c| c.is_element()).collect();
        let mut out = Vec::with_capacity(nodes.len());
        for (i, s) in nodes.into_iter().enumerate() {
            let tag = s.tag_name().name();
            if tag != "step" && tag != "op" {
                return self.err(s, "unexpected element inside <tb>: expected <step>".into());
            }
            let index = if s.has_attribute("s") {
                self.count(s, "s")?
            } else {
                self.count(s, "step")?
            };
            if index as usize != i {
                return self.err(s, format!("step number {index} out of order: expected {i}"));
            }
            out.push(self.step(s, gpu, id)?);
        }
        Ok(out)
    }

    fn step(&self, s: Node<'_, 'i>, gpu: &Gpu, tb: usize) -> Result<Step> {
        let code = self.attr(s, "type")?;
        let Some(kind) = StepKind::parse(code) else {
            return self.err(
                s,
                format!("unknown step type \"{code}\": expected s, r, rcs, rrs, rrc, rrcs, cpy, re, nop, d or st"),
            );
        };
        let buf = |name: &str| -> Result<Buf> {
            let v = self.attr(s, name)?;
            Buf::parse(v).map_or_else(
                || self.err(s, format!("{name}=\"{v}\" is not a buffer: use i, o or s")),
                Ok,
            )
        };
        let step = Step {
            kind,
            src: (buf("srcbuf")?, self.int(s, "srcoff")?),
            dst: (buf("dstbuf")?, self.int(s, "dstoff")?),
            cnt: match s.attribute("cnt") {
                Some(_) => self.count(s, "cnt")?,
                None => 1,
            },
            dep: self.dep(s, gpu)?,
            hasdep: s.attribute("hasdep") == Some("1"),
        };
        self.check_ranges(s, gpu, &step, tb)?;
        Ok(step)
    }

    fn dep(&self, s: Node<'_, 'i>, gpu: &Gpu) -> Result<Option<(u32, u32)>> {
        let (depid, deps) = (
            s.attribute("depid")
                .map_or(Ok(-1), |_| self.int(s, "depid"))?,
            s.attribute("deps")
                .map_or(Ok(-1), |_| self.int(s, "deps"))?,
        );
        if depid < 0 {
            return Ok(None);
        }
        if depid as usize >= gpu.tbs.len() || deps < 0 {
            return self.err(
                s,
                format!(
                    "depid=\"{depid}\" deps=\"{deps}\" names no step of this GPU ({} threadblocks)",
                    gpu.tbs.len()
                ),
            );
        }
        Ok(Some((depid as u32, deps as u32)))
    }

    fn check_ranges(&self, s: Node<'_, 'i>, gpu: &Gpu, step: &Step, tb: usize) -> Result<()> {
        let t = &gpu.tbs[tb];
        if step.kind.sends() && t.send.is_none() {
            return self.err(
                s,
                format!(
                    "a '{}' step sends, but its threadblock has send=\"-1\"",
                    step.kind.code()
                ),
            );
        }
        if step.kind.receives() && t.recv.is_none() {
            return self.err(
                s,
                format!(
                    "a '{}' step receives, but its threadblock has recv=\"-1\"",
                    step.kind.code()
                ),
            );
        }
        let check = |(b, off): (Buf, i64), what: &str| -> Result<()> {
            let size = gpu.chunks(b) as i64;
            if off < 0 || off + step.cnt as i64 > size {
                return self.err(
                    s,
                    format!(
                        "{what} chunks {off} to {} lie outside the {} buffer ({size} chunks)",
                        off + step.cnt as i64 - 1,
                        b.name()
                    ),
                );
            }
            Ok(())
        };
        if step.kind.reads_src() {
            check(step.src, "source")?;
        }
        if step.kind.writes_dst() {
            check(step.dst, "destination")?;
        }
        Ok(())
    }
}

impl Msccl {
    /// The XML text, with msccl-tools' element and attribute set (its `old_format`).
    pub fn to_xml(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<algo name=\"{}\" proto=\"{}\" nchannels=\"{}\" nchunksperloop=\"{}\" ngpus=\"{}\" coll=\"{}\" inplace=\"{}\">",
            escape(&self.name),
            escape(&self.proto),
            self.nchannels,
            self.nchunksperloop,
            self.ngpus(),
            escape(&self.coll),
            u8::from(self.inplace)
        );
        for (id, g) in self.gpus.iter().enumerate() {
            let _ = writeln!(
                out,
                "  <gpu id=\"{id}\" i_chunks=\"{}\" o_chunks=\"{}\" s_chunks=\"{}\">",
                g.i_chunks, g.o_chunks, g.s_chunks
            );
            for t in &g.tbs {
                let peer = |p: Option<u32>| p.map_or(-1, |x| x as i64);
                let _ = writeln!(
                    out,
                    "    <tb id=\"{}\" send=\"{}\" recv=\"{}\" chan=\"{}\">",
                    t.id,
                    peer(t.send),
                    peer(t.recv),
                    t.chan
                );
                for (i, s) in t.steps.iter().enumerate() {
                    let (depid, deps) = s.dep.map_or((-1, -1), |(a, b)| (a as i64, b as i64));
                    let _ = writeln!(
                        out,
                        "      <step s=\"{i}\" type=\"{}\" srcbuf=\"{}\" srcoff=\"{}\" dstbuf=\"{}\" dstoff=\"{}\" cnt=\"{}\" depid=\"{depid}\" deps=\"{deps}\" hasdep=\"{}\"/>",
                        s.kind.code(),
                        s.src.0.code(),
                        s.src.1,
                        s.dst.0.code(),
                        s.dst.1,
                        s.cnt,
                        u8::from(s.hasdep)
                    );
                }
                out.push_str("    </tb>\n");
            }
            out.push_str("  </gpu>\n");
        }
        out.push_str("</algo>\n");
        out
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
