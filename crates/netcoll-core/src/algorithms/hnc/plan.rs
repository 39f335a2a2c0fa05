//! The settings of an HNC schedule, parsed from `--set key=value`, and their resolution to a
//! concrete [`Level`] (group shape, intermediate offset, optional inner level).

use crate::algorithms::{ParamDoc, Params};
use crate::error::Result;
use crate::spec_err;

pub const PARAMS: &[ParamDoc] = &[
    ParamDoc {
        name: "group",
        default: "auto",
        help: "group shape AxB.. (nodes per dimension, dimension 0 first; each divides the \
               radix; 2 <= group size <= N/2); auto: the shape with the fewest aggregate hops; \
               paper: the paper's configuration, 8x4 groups of 32 nodes on a 2-D mesh or torus \
               (s4.3, s5.5, s6.5); compact: the group size of the auto shape, in the shape of \
               that size with the shortest longest path inside a group (s4.3's rule; what \
               group=paper meant before it named the paper's 8x4)",
    },
    ParamDoc {
        name: "place",
        default: "auto",
        help: "offset of the intermediate node inside every group (the same in every group): \
               auto (the paper's choice, s4.3: the offset with the fewest hops, i.e. of the \
               intra-group delivery (e), ties to the center; alias paper), center, corner, or \
               offsets AxB..",
    },
    ParamDoc {
        name: "base",
        default: "tree",
        help: "base multicast: tree (binomial, farthest half first, dimension by dimension) or \
               all-at-once (the source unicasts to every destination)",
    },
    ParamDoc {
        name: "receiver",
        default: "corresponding",
        help: "step (f): every node sends its data to the node at the same place in every other \
               group (corresponding, Fig. 3), or the intermediate node sends its own data to the \
               other intermediates, which deliver it with the encoded packets (intermediate)",
    },
    ParamDoc {
        name: "encode",
        default: "one",
        help: "one: the intermediate node encodes and multicasts (Fig. 4); all: every group node \
               encodes and sends to its corresponding nodes, no step (e) (the s3 variant)",
    },
    ParamDoc {
        name: "mode",
        default: "code",
        help: "code: XOR network coding; combine: the intermediate sends its group's data \
               combined in one message instead (message combining, s6.5)",
    },
    ParamDoc {
        name: "inner",
        default: "none",
        help: "recursive HNC (s6.4): sub-group shape AxB.. inside each group for step (b), \
               auto (best sub-grouping, or none if none helps), or none",
    },
    ParamDoc {
        name: "steps",
        default: "level",
        help: "how ops are numbered into communication steps (for per-step VCs and barriers): \
               level (every tree level of every phase its own step) or phase (one step per \
               phase b, d, e, f of Fig. 4: s3's four VCs for four steps)",
    },
    ParamDoc {
        name: "step_e",
        default: "tree",
        help: "step (e), the intermediate's delivery of the other groups' encoded pieces in its \
               group: tree (the paper's: the base multicast rooted at the intermediate, one \
               message per source group), scatter-allgather (the intermediate sends each \
               non-intermediate member its share of the pieces, then they circulate on a ring \
               in snake order), or pipelined (every piece its own message, forwarded node to \
               node along the snake order both ways from the intermediate)",
    },
];

/// The paper's group: "with the group size of 32, our recommendation configuration is 8 x 4
/// or 4 x 8" (s4.3), the best size it uses "in the rest of this paper" (s5.5, s6.5).
pub const PAPER_GROUP: [usize; 2] = [8, 4];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    Tree,
    AllAtOnce,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Receiver {
    Corresponding,
    Intermediate,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encode {
    One,
    All,
}

/// How step (e) delivers the encoded pieces inside a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepE {
    Tree,
    ScatterAllgather,
    Pipelined,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Code,
    Combine,
}

/// Settings shared by every level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opts {
    pub base: Base,
    pub receiver: Receiver,
    pub encode: Encode,
    pub mode: Mode,
    pub step_e: StepE,
}

/// A shape or offset as given: fixed, or to be searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    Auto,
    /// s4.3's rule: the best group size by hops, in the shape with the shortest longest path.
    Compact,
    /// The paper's configuration, [`PAPER_GROUP`].
    Paper,
    Fixed(Vec<usize>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Auto,
    Center,
    Corner,
    Fixed(Vec<usize>),
}

/// What the user asked for.
#[derive(Clone, Debug)]
pub struct Request {
    pub opts: Opts,
    pub group: Choice,
    pub place: Place,
    /// None: no recursion.
    pub inner: Option<Choice>,
}

/// One resolved level of HNC inside a region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub shape: Vec<usize>,
    pub place: Vec<usize>,
    pub inner: Option<Box<Level>>,
}

impl Request {
    pub fn parse(p: &Params, ndims: usize) -> Result<Request> {
        let base = match p.text("base", "tree") {
            "tree" => Base::Tree,
            "all-at-once" | "aao" => Base::AllAtOnce,
            v => return spec_err!("base={v} is unknown: use tree or all-at-once"),
        };
        let receiver = match p.text("receiver", "corresponding") {
            "corresponding" => Receiver::Corresponding,
            "intermediate" => Receiver::Intermediate,
            v => return spec_err!("receiver={v} is unknown: use corresponding or intermediate"),
        };
        let encode = match p.text("encode", "one") {
            "one" | "intermediate" => Encode::One,
            "all" => Encode::All,
            v => return spec_err!("encode={v} is unknown: use one or all"),
        };
        let mode = match p.text("mode", "code") {
            "code" => Mode::Code,
            "combine" => Mode::Combine,
            v => return spec_err!("mode={v} is unknown: use code or combine"),
        };
        let step_e = match p.text("step_e", "tree") {
            "tree" => StepE::Tree,
            "scatter-allgather" => StepE::ScatterAllgather,
            "pipelined" => StepE::Pipelined,
            v => {
                return spec_err!("step_e={v} is unknown: use tree, scatter-allgather or pipelined")
            }
        };
        if step_e != StepE::Tree && encode == Encode::All {
            return spec_err!(
                "step_e={} needs a step (e), which encode=all does not have: use encode=one",
                p.text("step_e", "tree")
            );
        }
        if encode == Encode::All && (receiver != Receiver::Corresponding || mode != Mode::Code) {
            return spec_err!(
                "encode=all has no step (e) to deliver the intermediate's data: use it with \
                 receiver=corresponding and mode=code"
            );
        }
        let group = match p.text("group", "auto") {
            "auto" => Choice::Auto,
            "paper" => Choice::Paper,
            "compact" => Choice::Compact,
            v => Choice::Fixed(parse_shape("group", v, ndims)?),
        };
        let place = match p.text("place", "auto") {
            "auto" | "paper" => Place::Auto,
            "center" | "centre" => Place::Center,
            "corner" => Place::Corner,
            v => Place::Fixed(parse_offsets(v, ndims)?),
        };
        let inner = match p.text("inner", "none") {
            "none" => None,
            "auto" => Some(Choice::Auto),
            v => Some(Choice::Fixed(parse_shape("inner", v, ndims)?)),
        };
        let opts = Opts {
            base,
            receiver,
            encode,
            mode,
            step_e,
        };
        Ok(Request {
            opts,
            group,
            place,
            inner,
        })
    }
}

/// `AxB..` with one positive factor per dimension.
pub fn parse_shape(key: &str, v: &str, ndims: usize) -> Result<Vec<usize>> {
    let parts: Vec<&str> = v.split('x').collect();
    let shape: Option<Vec<usize>> = parts
        .iter()
        .map(|s| s.trim().parse::<usize>().ok().filter(|&x| x > 0))
        .collect();
    match shape {
        Some(s) if s.len() == ndims => Ok(s),
        _ => spec_err!(
            "{key}={v} is not a shape: give {ndims} positive sizes joined by x (e.g. {})",
            vec!["4"; ndims].join("x")
        ),
    }
}

fn parse_offsets(v: &str, ndims: usize) -> Result<Vec<usize>> {
    let parts: Option<Vec<usize>> = v.split('x').map(|s| s.trim().parse().ok()).collect();
    match parts {
        Some(s) if s.len() == ndims => Ok(s),
        _ => spec_err!(
            "place={v} is not an offset: use auto, center, corner or {ndims} non-negative \
             offsets joined by x (e.g. {})",
            vec!["0"; ndims].join("x")
        ),
    }
}

/// `4x8` from `[4, 8]`.
pub fn show(v: &[usize]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("x")
}
