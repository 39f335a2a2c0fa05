//! Schedules in other tools' formats: MSCCL algorithm XML (msccl-tools, MSCCL/RCCL runtimes)
//! and GOAL (LogGOPSim, Schedgen). docs/formats.md describes both and their mapping onto the
//! IR.

pub mod goal;
pub mod goal_check;
pub mod goal_lower;
pub mod goal_write;
pub mod msccl;
pub mod msccl_layout;
pub mod msccl_lower;
pub mod msccl_write;
pub mod xml_limits;

#[cfg(test)]
mod tests;

/// The formats a schedule file may be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    MscclXml,
    Goal,
    Json,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::MscclXml => "msccl-xml",
            Format::Goal => "goal",
            Format::Json => "json",
        }
    }

    /// Parses a format name as the CLI spells it.
    pub fn parse(name: &str) -> crate::Result<Format> {
        match name {
            "msccl-xml" | "msccl" | "xml" => Ok(Format::MscclXml),
            "goal" => Ok(Format::Goal),
            "json" => Ok(Format::Json),
            _ => crate::spec_err!("unknown schedule format '{name}': use json, msccl-xml or goal"),
        }
    }

    /// Detects the format from the content: XML starts with `<`, JSON with `{`, GOAL has a
    /// `num_ranks` line. `name` (the file) prefixes the error for anything else.
    pub fn detect(bytes: &[u8], name: &str) -> crate::Result<Format> {
        let unreadable = |what: &str| Err(crate::Error::Io(format!("{name}: {what}")));
        if bytes.is_empty() {
            return unreadable("the file is empty");
        }
        if bytes.contains(&0) || std::str::from_utf8(bytes).is_err() {
            return unreadable(
                "a binary file, not a schedule (give GOAL text, not txt2bin's binary output; \
                 MSCCL XML or netcoll JSON)",
            );
        }
        let text = std::str::from_utf8(bytes).unwrap_or("");
        let body = text.trim_start_matches('\u{feff}').trim_start();
        if body.starts_with('<') {
            return Ok(Format::MscclXml);
        }
        if body.starts_with('{') {
            return Ok(Format::Json);
        }
        // Editors may open the file with a UTF-8 byte-order mark; the body starts after it.
        let goal_line = body
            .lines()
            .any(|l| l.trim_start().starts_with("num_ranks"));
        if goal_line {
            return Ok(Format::Goal);
        }
        unreadable(
            "not a schedule: expected MSCCL XML (<algo ...>), GOAL (num_ranks N) or netcoll JSON",
        )
    }
}

use crate::error::{Error, Result};
use crate::schedule::{CollectiveKind, Schedule};

/// What `netcoll verify` reports on a file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Verdict {
    pub verified: bool,
    pub format: &'static str,
    pub op: &'static str,
    pub ranks: u32,
    /// Point-to-point messages (a message to k destinations counts k).
    pub messages: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<String>,
}

/// How to read a file: the collective when the file does not say (or to override MSCCL's
/// `coll`), its root, and its size in bytes (GOAL: the volume check; MSCCL: bytes per chunk).
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    pub op: Option<CollectiveKind>,
    pub root: u32,
    pub bytes: Option<u64>,
    /// LogGOPSim's eager/rendezvous threshold for GOAL's deadlock check.
    pub rendezvous: Option<u64>,
}

fn text<'a>(bytes: &'a [u8], name: &str) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|_| Error::Io(format!("{name}: not UTF-8 text")))
}

/// Reads and proves a schedule file in any format (detected from its content).
pub fn verify_file(bytes: &[u8], name: &str, opt: ReadOptions) -> Result<Verdict> {
    let format = Format::detect(bytes, name)?;
    if format == Format::Goal {
        let goal = goal::Goal::parse(text(bytes, name)?, name)?;
        let Some(kind) = opt.op else {
            return crate::spec_err!("{name}: a GOAL file does not name its collective: give --op");
        };
        let rdv = opt.rendezvous.unwrap_or(65535);
        let r = goal_check::check(&goal, kind, opt.root, opt.bytes, rdv)?;
        return Ok(Verdict {
            verified: r.diagnosis.is_none(),
            format: format.name(),
            op: kind.name(),
            ranks: goal.num_ranks(),
            messages: r.messages,
            diagnosis: r.diagnosis,
        });
    }
    let s = match load_ir_checked(bytes, name, format, opt)? {
        Ok(s) => s,
        Err((d, kind, p)) => {
            return Ok(Verdict {
                verified: false,
                format: format.name(),
                op: kind.name(),
                ranks: p,
                messages: 0,
                diagnosis: Some(d),
            })
        }
    };
    let report = s.verify();
    Ok(Verdict {
        verified: report.ok,
        format: format.name(),
        op: s.collective().kind.name(),
        ranks: s.p(),
        messages: report.counts.messages,
        diagnosis: report.diagnosis,
    })
}

type Loaded = std::result::Result<Schedule, (String, CollectiveKind, u32)>;

fn load_ir_checked(bytes: &[u8], name: &str, format: Format, opt: ReadOptions) -> Result<Loaded> {
    let t = text(bytes, name)?;
    match format {
        Format::Json => {
            let s = Schedule::from_json(t).map_err(|e| Error::Io(format!("{name}: {e}")))?;
            Ok(Ok(s))
        }
        Format::MscclXml => {
            let x = msccl::Msccl::parse(t, name)?;
            let layout = msccl_layout::Layout::from_file(&x, opt.op, opt.root)
                .map_err(|e| Error::Io(format!("{name}: {e}")))?;
            let kind = layout.collective.kind;
            let lowered = msccl_lower::lower(&x, opt.op, opt.root, opt.bytes.unwrap_or(1))
                .map_err(|e| match e {
                    Error::Io(m) if m.starts_with(name) => Error::Io(m),
                    other => Error::Io(format!("{name}: {other}")),
                })?;
            Ok(lowered.map_err(|d| (d, kind, x.ngpus())))
        }
        Format::Goal => {
            let goal = goal::Goal::parse(t, name)?;
            let Some(kind) = opt.op else {
                return crate::spec_err!(
                    "{name}: a GOAL file does not name its collective: give the operation"
                );
            };
            let rdv = opt.rendezvous.unwrap_or(65535);
            match goal_lower::lower(&goal, kind, opt.root, rdv) {
                Ok((s, _)) => Ok(Ok(s)),
                Err(Error::Invalid(d)) => Ok(Err((d, kind, goal.num_ranks()))),
                Err(Error::Spec(m)) => Err(Error::Spec(format!("{name}: {m}"))),
                Err(e) => Err(e),
            }
        }
    }
}

/// A schedule file as the IR (netcoll JSON, MSCCL XML, or GOAL with opaque pieces: see
/// [`goal_lower`]); a wrong MSCCL algorithm, or a GOAL file that cannot run, is an
/// `Error::Invalid` with its diagnosis. A GOAL file whose information flow fails still
/// loads: its [`Schedule::is_correct`] is false.
pub fn load_ir(bytes: &[u8], name: &str, opt: ReadOptions) -> Result<Schedule> {
    let format = Format::detect(bytes, name)?;
    match load_ir_checked(bytes, name, format, opt)? {
        Ok(s) => Ok(s),
        Err((d, ..)) => Err(Error::Invalid(format!("{name}: {d}"))),
    }
}

/// A schedule file as GOAL: GOAL text as it is, anything else through [`goal_write::to_goal`].
pub fn load_goal(bytes: &[u8], name: &str, opt: ReadOptions) -> Result<goal::Goal> {
    match Format::detect(bytes, name)? {
        Format::Goal => goal::Goal::parse(text(bytes, name)?, name),
        _ => Ok(goal_write::to_goal(&load_ir(bytes, name, opt)?, 0)?.0),
    }
}

/// `s` in format `f`.
pub fn write(s: &Schedule, f: Format) -> Result<String> {
    match f {
        Format::Json => Ok(s.to_json_pretty()),
        Format::Goal => Ok(goal_write::to_goal(s, 0)?.0.to_text()),
        Format::MscclXml => Ok(msccl_write::to_msccl(s)?.to_xml()),
    }
}
