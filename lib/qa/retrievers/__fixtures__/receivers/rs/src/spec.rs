/// One `name=level` part of a spec.
#[derive(Debug, PartialEq)]
pub struct Directive {
    pub name: Option<String>,
    pub level: String,
}

/// Splits a spec on commas into directives; a part without `=` is a global level.
pub fn parse_spec(spec: &str) -> Vec<Directive> {
    let mut out = Vec::new();
    for part in spec.split(',').map(|p| p.trim()).filter(|p| !p.is_empty()) {
        match part.split_once('=') {
            Some((name, level)) => out.push(Directive {
                name: Some(name.to_owned()),
                level: level.to_owned(),
            }),
            None => out.push(Directive {
                name: None,
                level: part.to_owned(),
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_global_level() {
        assert_eq!(parse_spec("info")[0].name, None);
    }

    #[test]
    fn parses_a_named_level() {
        assert_eq!(parse_spec("db=trace")[0].level, "trace");
    }

    #[test]
    fn skips_empty_parts() {
        assert_eq!(parse_spec("info,,db=warn").len(), 2);
    }
}
