//! Schedules in other tools' formats: MSCCL algorithm XML (msccl-tools, MSCCL/RCCL runtimes)
//! and GOAL (LogGOPSim, Schedgen). docs/formats.md describes both and their mapping onto the
//! IR.

pub mod goal;
pub mod goal_check;
pub mod goal_write;
pub mod msccl;
pub mod msccl_layout;
pub mod msccl_lower;

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
        let goal_line = text
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
