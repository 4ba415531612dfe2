use std::fmt;

fn good() -> u32 { helper() }

fn broken(a: u32 -> u32 { a + }

impl Survivor {
    fn run(&mut self) { self.count = compute(); }
}
