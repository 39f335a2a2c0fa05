//! `--set key=value` parameters of an algorithm, checked against what it declares.

use crate::error::Result;
use crate::spec_err;
use std::collections::BTreeMap;

/// A documented parameter: name, default (as text, "" if required), help.
pub struct ParamDoc {
    pub name: &'static str,
    pub default: &'static str,
    pub help: &'static str,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Params(BTreeMap<String, String>);

impl Params {
    /// Parses `key=value` items (each may hold several, comma-free values).
    pub fn parse<S: AsRef<str>>(items: &[S]) -> Result<Params> {
        let mut map = BTreeMap::new();
        for item in items {
            let item = item.as_ref();
            let Some((k, v)) = item.split_once('=') else {
                return spec_err!("parameter '{item}' is not key=value (e.g. --set k=4)");
            };
            if map
                .insert(k.trim().to_string(), v.trim().to_string())
                .is_some()
            {
                return spec_err!("parameter '{}' is set twice: give it once", k.trim());
            }
        }
        Ok(Params(map))
    }

    pub fn set(&mut self, key: &str, value: impl ToString) {
        self.0.insert(key.to_string(), value.to_string());
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &String)> {
        self.0.iter()
    }

    /// Refuses keys the algorithm does not declare.
    pub fn check_known(&self, algo: &str, docs: &[ParamDoc]) -> Result<()> {
        for k in self.0.keys() {
            if !docs.iter().any(|d| d.name == k) {
                let known: Vec<&str> = docs.iter().map(|d| d.name).collect();
                return if known.is_empty() {
                    spec_err!("algorithm {algo} takes no parameters, but '{k}' was set")
                } else {
                    spec_err!(
                        "algorithm {algo} has no parameter '{k}': it takes {}",
                        known.join(", ")
                    )
                };
            }
        }
        Ok(())
    }

    /// The raw text of a parameter, or the declared default.
    pub fn text<'a>(&'a self, key: &str, default: &'a str) -> &'a str {
        self.0.get(key).map_or(default, |s| s.as_str())
    }

    pub fn get_u64(&self, key: &str, default: u64) -> Result<u64> {
        match self.0.get(key) {
            None => Ok(default),
            Some(v) => match v.parse::<u64>() {
                Ok(x) => Ok(x),
                Err(_) => spec_err!("parameter {key}={v} must be a non-negative integer"),
            },
        }
    }

    pub fn get_f64(&self, key: &str, default: f64) -> Result<f64> {
        match self.0.get(key) {
            None => Ok(default),
            Some(v) => match v.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                _ => spec_err!("parameter {key}={v} must be a number"),
            },
        }
    }
}
