/**
 * The walk's order along a flow's main line: the head of a chained call the question writes
 * (`Tokens.builder()`) and what comes before the call it says the flow starts from are no
 * steps; a step's call it returns through goes before a guarded side branch named like the
 * question; and a call named through an interface runs in its one implementation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources, retrieversOwnOrder } from "../../../test-support/qa-env.ts";
import { PartLog } from "../../../test-support/qa-model.ts";
import { askQuestion } from "../ask.ts";
import { chainPrelude } from "./exploratory-steps.ts";

describe("chainPrelude", () => {
  it("leaves out a chain's factory head and what comes before the call the flow starts from", () => {
    expect(
      [
        ...chainPrelude(
          "Walk me through Jwts.parser().verifyWith(key).build().parseSignedClaims(token): what happens from parseSignedClaims until I get the Claims back?",
        ),
      ].sort(),
    ).toEqual(["Jwts", "build", "parser", "verifyWith"]);
    expect(
      [
        ...chainPrelude('What happens when I call Jwts.builder().subject("joe").signWith(key).compact()?'),
      ].sort(),
    ).toEqual(["Jwts", "builder"]);
  });

  it("leaves out the constructor building what a chain runs on", () => {
    expect(
      [...chainPrelude('Walk me through the first call to next() on WalkDir::new("src").into_iter()')].sort(),
    ).toEqual(["WalkDir", "new"]);
  });

  it("keeps a chain whose head is given arguments, and a single call", () => {
    expect(chainPrelude("How does dayjs('2020-01-31').add(1, 'month').format() compute the date?").size).toBe(
      0,
    );

    expect(chainPrelude("What does r.Get(pattern, handler) do?").size).toBe(0);
  });
});

const MUX = `package router

type Handler func(string)

type Mux struct {
	handler  Handler
	tree     *node
	handlers []Handler
}

func (mx *Mux) Get(pattern string, h Handler) {
	mx.handle("GET", pattern, h)
}

func (mx *Mux) handle(method string, pattern string, h Handler) *node {
	if mx.handler == nil {
		mx.buildRouteHandler()
	}
	return mx.tree.InsertRoute(method, pattern, h)
}

func (mx *Mux) buildRouteHandler() {
	mx.handler = wrapHandlers(mx.handlers)
}

func wrapHandlers(hs []Handler) Handler {
	return combine(hs, 0)
}

func combine(hs []Handler, i int) Handler {
	return hs[i]
}
`;

const TREE = `package router

type node struct {
	endpoints map[string]Handler
	children  []*node
}

func (n *node) InsertRoute(method string, pattern string, h Handler) *node {
	child := n.findChild(pattern)
	child.setEndpoint(method, h)
	return child
}

func (n *node) findChild(pattern string) *node {
	for _, c := range n.children {
		if c != nil {
			return c
		}
	}
	return n
}

func (n *node) setEndpoint(method string, h Handler) {
	n.endpoints[method] = h
}
`;

const PARSERS = `package jwt;

public final class Parsers {
    public static ParserBuilder parser() {
        return Registry.lookup("parser-builder");
    }
}
`;

const REGISTRY = `package jwt;

public final class Registry {
    public static ParserBuilder lookup(String id) {
        return Registry.load(id);
    }

    static ParserBuilder load(String id) {
        return new ParserBuilder(id.trim());
    }
}
`;

const PARSER = `package jwt;

public interface Parser {
    Claims parseSignedClaims(String jws);
}
`;

const DEFAULT_PARSER = `package jwt;

public class DefaultParser implements Parser {
    public Claims parseSignedClaims(String jws) {
        return parse(jws);
    }

    private Claims parse(String jws) {
        String[] parts = Tokenizer.tokenize(jws);
        verifySignature(parts);
        return new Claims(parts[1]);
    }

    private void verifySignature(String[] parts) {
        if (parts.length != 3) throw new IllegalStateException("unsigned");
    }
}
`;

const TOKENIZER = `package jwt;

public final class Tokenizer {
    public static String[] tokenize(String jws) {
        return jws.split("\\.");
    }
}
`;

let repo: Awaited<ReturnType<typeof indexSources>>;

beforeAll(async () => {
  repo = await indexSources("mainline", {
    "router/mux.go": MUX,
    "router/tree.go": TREE,
    "jwt/Parsers.java": PARSERS,
    "jwt/Registry.java": REGISTRY,
    "jwt/Parser.java": PARSER,
    "jwt/DefaultParser.java": DEFAULT_PARSER,
    "jwt/Tokenizer.java": TOKENIZER,
  });
});
afterAll(() => repo.close());

// These tests check the walk's and the retrievers' own order, not the learned ranker's.
retrieversOwnOrder();

describe("the walk's main line", () => {
  it("follows the call a step returns through before a guarded side branch named like the question", async () => {
    const result = await askQuestion(
      {
        repository: repo.repositoryId,
        question: "What does mx.Get(pattern, h) do, step by step, to put my route handler into the tree?",
        overrides: { mode: "exploratory" },
      },
      new PartLog(),
      { model: null, ephemeral: true },
    );
    // The side branch (`buildRouteHandler` → `wrapHandlers` → `combine`) is named more like the
    // question, but the flow goes on where `handle` returns.
    expect(result.loop.retrieval.rankedSymbols.slice(0, 3)).toEqual([
      "router/mux.go::Mux.Get",
      "router/mux.go::Mux.handle",
      "router/tree.go::node.InsertRoute",
    ]);
  });

  it("starts a chained call where the question says, in the implementation of the interface it names", async () => {
    const result = await askQuestion(
      {
        repository: repo.repositoryId,
        question:
          "Walk me through Parsers.parser().verifyWith(key).build().parseSignedClaims(token): what happens from parseSignedClaims until I get the claims back?",
        overrides: { mode: "exploratory" },
      },
      new PartLog(),
      { model: null, ephemeral: true },
    );
    const ranked = result.loop.retrieval.rankedSymbols;
    expect(ranked[0]).toBe("jwt/DefaultParser.java::DefaultParser.parseSignedClaims");
    expect(ranked.slice(0, 4)).toContain("jwt/Tokenizer.java::Tokenizer.tokenize");
    // The factory at the chain's head is no step, nor are its registry lookups.
    const flow = result.loop.retrieval.items.find((i) => i.kind === "flow")?.text ?? "";
    expect(flow).not.toMatch(/Parsers\.parser|Registry\./);
  });
});
