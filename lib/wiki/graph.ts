/**
 * Graph algorithms over index edges: strongly connected components (the cycles of
 * the import and call graphs). Iterative, so a long call chain in a big repository
 * cannot overflow the stack. Pure.
 */

/** Strongly connected components with more than one node, each sorted, largest first. */
export function findCycles(nodes: string[], edges: { from: string; to: string }[]): string[][] {
  const adjacency = new Map<string, string[]>();
  for (const n of nodes) adjacency.set(n, []);
  for (const e of edges) {
    if (e.from === e.to) continue;
    if (!adjacency.has(e.from)) adjacency.set(e.from, []);
    if (!adjacency.has(e.to)) adjacency.set(e.to, []);
    adjacency.get(e.from)?.push(e.to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  for (const start of adjacency.keys()) {
    if (index.has(start)) continue;
    // Each frame: a node and how many of its successors have been looked at.
    const frames: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (frames.length) {
      const frame = frames[frames.length - 1] as { node: string; next: number };
      const successors = adjacency.get(frame.node) ?? [];
      if (frame.next < successors.length) {
        const w = successors[frame.next++] as string;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          frames.push({ node: w, next: 0 });
        } else if (onStack.has(w)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(w) as number));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent)
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        for (;;) {
          const w = stack.pop() as string;
          onStack.delete(w);
          component.push(w);
          if (w === frame.node) break;
        }
        if (component.length > 1) out.push(component.sort());
      }
    }
  }
  return out.sort((a, b) => b.length - a.length || (a[0] ?? "").localeCompare(b[0] ?? ""));
}

/**
 * One concrete loop through a component, in edge order, starting at its first node:
 * what a reader follows to see the cycle (a component lists members, not a path).
 */
export function cyclePath(component: string[], edges: { from: string; to: string }[]): string[] {
  const members = new Set(component);
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (!members.has(e.from) || !members.has(e.to) || e.from === e.to) continue;
    next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  }
  const start = component[0];
  if (!start) return [];
  // Breadth-first search for the shortest way back to the start.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift() as string;
    for (const w of next.get(node) ?? []) {
      if (w === start) {
        const path = [node];
        for (let p = previous.get(node); p !== undefined; p = previous.get(p)) path.unshift(p);
        return path;
      }
      if (!previous.has(w) && w !== start) {
        previous.set(w, node);
        queue.push(w);
      }
    }
  }
  return component;
}
