//! The synthetic traffic patterns by BookSim's `traffic` names, as BookSim's traffic-pattern
//! factory (`TrafficPattern::New`) keys them: a name, optionally with a parenthesised
//! argument list read as BookSim reads it (`hotspot({{0,63},{1,3}})`: the hot spots, then
//! their weights), maps to a constructor of the pattern; patterns.rs draws the destinations.
//! Adding a pattern: its variant (config_enums.rs) and its destination rule (patterns.rs),
//! one line here.

use super::config::{DigitArgs, Pattern};
use super::registry::Registry;
use crate::error::Result;
use crate::spec_err;

/// Builds a pattern from the text between its name's parentheses (None: no parentheses).
pub type PatternCtor = fn(Option<&str>) -> Result<Pattern>;

pub const TRAFFIC_PATTERNS: Registry<PatternCtor> = Registry {
    key: "traffic",
    entries: &[
        ("uniform", |a| plain(a, "uniform", Pattern::Uniform)),
        ("background", background),
        ("transpose", |a| plain(a, "transpose", Pattern::Transpose)),
        ("bitcomp", |a| plain(a, "bitcomp", Pattern::Bitcomp)),
        ("bitrev", |a| plain(a, "bitrev", Pattern::Bitrev)),
        ("shuffle", |a| plain(a, "shuffle", Pattern::Shuffle)),
        ("neighbor", |a| {
            digits(a, "neighbor", 3).map(Pattern::Neighbor)
        }),
        ("neighbour", |a| {
            digits(a, "neighbor", 3).map(Pattern::Neighbor)
        }),
        ("tornado", |a| digits(a, "tornado", 3).map(Pattern::Tornado)),
        ("badperm_yarc", |a| {
            digits(a, "badperm_yarc", 3).map(Pattern::BadpermYarc)
        }),
        ("bad_dragon", |a| {
            digits(a, "bad_dragon", 2).map(Pattern::BadDragon)
        }),
        ("randperm", randperm),
        ("diagonal", |a| plain(a, "diagonal", Pattern::Diagonal)),
        ("asymmetric", |a| {
            plain(a, "asymmetric", Pattern::Asymmetric)
        }),
        ("taper64", |a| plain(a, "taper64", Pattern::Taper64)),
        ("hotspot", hotspot),
        ("multicast", |a| plain(a, "multicast", Pattern::Multicast)),
    ],
};

/// The pattern of a `traffic` value: `name` or `name(args)`.
pub fn parse_pattern(v: &str) -> Result<Pattern> {
    let (name, args) = match v.split_once('(') {
        Some((n, rest)) => (n.trim(), Some(rest.trim_end().trim_end_matches(')'))),
        None => (v.trim(), None),
    };
    let ctor = TRAFFIC_PATTERNS.get(name)?;
    ctor(args)
}

/// BookSim's `tokenize_str`: a text not opening with `{` is one item; `{a,b,{c,d}}` is the
/// items `a`, `b` and `{c,d}` (commas inside nested braces stay in their item).
pub fn tokenize(data: &str) -> Vec<String> {
    let data = data.trim();
    if data.is_empty() {
        return Vec::new();
    }
    if !data.starts_with('{') {
        return vec![data.to_string()];
    }
    let (mut items, mut start, mut nested) = (Vec::new(), 1, 0);
    for (i, ch) in data.char_indices().skip(1) {
        match ch {
            '{' => nested += 1,
            '}' if nested > 0 => nested -= 1,
            ',' | '}' if nested == 0 => {
                if i > start {
                    items.push(data[start..i].trim().to_string());
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    items
}

/// The items of a pattern's or process's argument text, refusing a bare comma list: BookSim
/// reads `tornado(4,3)` as the one item `4,3` and takes its first number alone, so the list
/// must be braced, `tornado({4,3})`.
pub fn arg_items(value: &str, a: &str) -> Result<Vec<String>> {
    let a = a.trim();
    if !a.starts_with('{') && a.contains(',') {
        return spec_err!(
            "{value}: BookSim reads '{a}' as one argument and keeps its first number; brace \
             the list: ({{{a}}})"
        );
    }
    Ok(tokenize(a))
}

fn plain(args: Option<&str>, name: &str, p: Pattern) -> Result<Pattern> {
    match args {
        None => Ok(p),
        Some(a) => spec_err!("traffic = {name}({a}): {name} takes no arguments"),
    }
}

/// Integers of one argument (`5` or `{0,5}`), for `traffic = {value}`.
fn ints(value: &str, what: &str, item: &str, mend: &str) -> Result<Vec<i64>> {
    tokenize(item)
        .iter()
        .map(|t| {
            t.parse::<i64>().map_err(|_| {
                crate::error::Error::Spec(format!(
                    "traffic = {value}: {what} '{t}' is not a whole number; {mend}"
                ))
            })
        })
        .collect()
}

/// Up to `most` whole-number arguments (k, n, xr), the rest from the config.
fn digits(args: Option<&str>, name: &str, most: usize) -> Result<DigitArgs> {
    let Some(a) = args else {
        return Ok(DigitArgs::default());
    };
    let form = if most == 3 {
        format!("{name}({{k,n,xr}})")
    } else {
        format!("{name}({{k,n}})")
    };
    let items = arg_items(&format!("traffic = {name}({a})"), a)?;
    if items.len() > most {
        return spec_err!("traffic = {name}({a}): {name} takes at most {most} arguments: {form}");
    }
    let mut got = [None; 3];
    for (slot, t) in got.iter_mut().zip(&items) {
        match t.parse::<usize>() {
            Ok(x) if x > 0 => *slot = Some(x),
            _ => {
                return spec_err!(
                    "traffic = {name}({a}): '{t}' is not a positive whole number; write {form}"
                )
            }
        }
    }
    Ok(DigitArgs {
        k: got[0],
        n: got[1],
        xr: got[2],
    })
}

fn randperm(args: Option<&str>) -> Result<Pattern> {
    match args.map(str::trim) {
        None | Some("") => Ok(Pattern::Randperm(None)),
        Some(a) => match a.parse::<i64>() {
            Ok(seed) => Ok(Pattern::Randperm(Some(seed))),
            Err(_) => spec_err!(
                "traffic = randperm({a}): the argument is the permutation's seed, a whole \
                 number (or leave it out and set perm_seed)"
            ),
        },
    }
}

fn background(args: Option<&str>) -> Result<Pattern> {
    let a = args.unwrap_or("");
    let value = format!("background({a})");
    let mend = "write background({{n1,n2,...}}) with the nodes to leave out";
    let items = tokenize(a);
    let nodes = match items.as_slice() {
        [first] => ints(&value, "node", first, mend)?,
        _ => return spec_err!("traffic = {value}: BookSim reads one item, the list; {mend}"),
    };
    match nodes.iter().find(|&&x| x < 0) {
        Some(bad) => spec_err!("traffic = {value}: node {bad} is negative; {mend}"),
        None => Ok(Pattern::Background(
            nodes.iter().map(|&x| x as usize).collect(),
        )),
    }
}

/// `hotspot`, `hotspot(5)`, `hotspot({0,63})`, `hotspot({{0,63},{1,3}})`: BookSim reads the
/// first item as the hot spots and the second as their weights, so `hotspot({0,5})` is
/// node 0 with weight 5 (BookSim's reading), and nodes {0,5} are `hotspot({{0,5}})`.
fn hotspot(args: Option<&str>) -> Result<Pattern> {
    let a = args.unwrap_or("");
    let value = format!("hotspot({a})");
    let mend = "write hotspot({{n1,n2,...},{w1,w2,...}}) (nodes, then weights)";
    let items = tokenize(a);
    if items.len() > 2 {
        return spec_err!(
            "traffic = {value}: {} items where BookSim reads two, the nodes and the weights; \
             {mend}",
            items.len()
        );
    }
    let nodes = match items.first() {
        Some(first) => ints(&value, "node", first, mend)?,
        None => vec![-1],
    };
    if nodes.is_empty() {
        return spec_err!("traffic = {value}: no hot-spot node; {mend}");
    }
    let mut rates = match items.get(1) {
        Some(second) => ints(&value, "weight", second, mend)?,
        None => Vec::new(),
    };
    if let Some(bad) = rates.iter().find(|&&w| w <= 0 || w > u32::MAX as i64) {
        return spec_err!("traffic = {value}: weight {bad} must be from 1 to 2^32 - 1; {mend}");
    }
    // Missing weights repeat the last (1 when none is given), as BookSim's.
    let last = rates.last().copied().unwrap_or(1);
    rates.resize(nodes.len(), last);
    Ok(Pattern::Hotspot {
        nodes,
        rates: rates.iter().map(|&w| w as u32).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenize_as_booksim() {
        assert_eq!(tokenize("{{0,63},{1,1}}"), ["{0,63}", "{1,1}"]);
        assert_eq!(tokenize("{0,5}"), ["0", "5"]);
        assert_eq!(tokenize("7"), ["7"]);
        assert!(tokenize("").is_empty());
    }

    #[test]
    fn hotspot_reads_nodes_then_weights() {
        let hs = |v: &str| parse_pattern(v).unwrap();
        assert_eq!(
            hs("hotspot({{0,63},{1,3}})"),
            Pattern::Hotspot {
                nodes: vec![0, 63],
                rates: vec![1, 3]
            }
        );
        // BookSim's reading of a flat list: node 0, weight 5.
        assert_eq!(
            hs("hotspot({0,5})"),
            Pattern::Hotspot {
                nodes: vec![0],
                rates: vec![5]
            }
        );
        assert_eq!(
            hs("hotspot({{1,2,3},{4}})"),
            Pattern::Hotspot {
                nodes: vec![1, 2, 3],
                rates: vec![4, 4, 4]
            }
        );
        assert_eq!(
            hs("hotspot"),
            Pattern::Hotspot {
                nodes: vec![-1],
                rates: vec![1]
            }
        );
        for (bad, says) in [
            ("hotspot({{0,x},{1,1}})", "node 'x' is not a whole number"),
            ("hotspot({{0,1},{1,0}})", "weight 0 must be from 1"),
            ("hotspot({{0},{1},{2}})", "3 items where BookSim reads two"),
        ] {
            let e = parse_pattern(bad).unwrap_err().to_string();
            assert!(e.contains(says) && e.contains("hotspot({{n1"), "{e}");
        }
    }

    #[test]
    fn arguments_of_the_other_patterns() {
        assert_eq!(
            parse_pattern("tornado({4,3})").unwrap(),
            Pattern::Tornado(DigitArgs {
                k: Some(4),
                n: Some(3),
                xr: None
            })
        );
        assert_eq!(
            parse_pattern("randperm(9)").unwrap(),
            Pattern::Randperm(Some(9))
        );
        assert_eq!(
            parse_pattern("background({{1,2}})").unwrap(),
            Pattern::Background(vec![1, 2])
        );
        assert!(parse_pattern("tornado({4,0})").is_err());
        assert!(parse_pattern("bad_dragon({1,2,3})").is_err());
        // BookSim would keep 4 and drop 3, and exclude node 1 alone: refused with the mend.
        let e = parse_pattern("tornado(4,3)").unwrap_err().to_string();
        assert!(e.contains("({4,3})"), "{e}");
        let e = parse_pattern("background({1,2})").unwrap_err().to_string();
        assert!(e.contains("background({{n1"), "{e}");
        let e = parse_pattern("tornadoo").unwrap_err().to_string();
        assert!(e.contains("did you mean tornado?"), "{e}");
        let e = parse_pattern("bitrevv").unwrap_err().to_string();
        assert!(e.contains("did you mean bitrev?"), "{e}");
    }
}
