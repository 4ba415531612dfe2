use crate::spec::{parse_spec, Directive};

/// Collects directives from specs, later ones first.
#[derive(Default)]
pub struct Builder {
    directives: Vec<Directive>,
}

impl Builder {
    /// Adds the directives of a spec.
    pub fn parse(&mut self, spec: &str) -> &mut Self {
        for directive in parse_spec(spec) {
            self.directives.insert(0, directive);
        }
        self
    }

    /// How many directives the builder holds.
    pub fn len(&self) -> usize {
        self.directives.len()
    }
}
