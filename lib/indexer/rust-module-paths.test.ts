/**
 * Calls on Rust module paths: real sources go through extraction and the resolver, and
 * each test pins the function a call on a `mod` path lands on.
 */
import { describe, expect, it } from "vitest";
import { callEdges } from "../../test-support/call-edges.ts";

describe("Rust module paths", () => {
  it("resolves a call on a `mod` path or a `crate::` path to the module's file, not a library's", async () => {
    const edges = await callEdges({
      "src/lib.rs": `mod util;
use std::io;
pub struct IntoIter { oldest: usize }
impl IntoIter {
    fn push(&mut self) {
        let dev = util::device_num(self.oldest as u64);
        let other = crate::util::same_device(dev);
        let input = io::stdin();
    }
}`,
      "src/util.rs": `pub fn device_num(p: u64) -> u64 { p }
pub fn same_device(d: u64) -> bool { true }`,
      "src/io.rs": `pub fn stdin() {}`,
      "src/walk/mod.rs": `mod dent;
pub fn walk() { dent::open(); super::util::device_num(0); }`,
      "src/walk/dent.rs": `pub fn open() {}`,
      "src/other.rs": `pub fn open() {}
pub fn device_num(p: u64) -> u64 { p }`,
    });
    expect(edges).toContain("IntoIter.push -> device_num@0.9");
    expect(edges).toContain("IntoIter.push -> same_device@0.9");
    expect(edges).toContain("walk -> open@0.9");
    expect(edges.filter((e) => e.startsWith("walk -> device_num"))).toEqual(["walk -> device_num@0.9"]);
    // `io` is the standard library's (`use std::io`), not the crate's own `io.rs`.
    expect(edges.filter((e) => e.includes("stdin"))).toEqual([]);
  });
});
