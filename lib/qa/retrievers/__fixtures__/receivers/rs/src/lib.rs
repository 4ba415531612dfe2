//! Filter specs such as `info,db=trace`, parsed into directives a builder keeps.
mod builder;
mod spec;

pub use builder::Builder;
pub use spec::{parse_spec, Directive};
