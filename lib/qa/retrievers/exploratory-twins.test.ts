/**
 * A call to the synchronous twin a source generator writes from an asynchronous method (C#'s
 * `[CreateSyncVersion]`, Python's unasync) goes on in the asynchronous method the source holds:
 * the index knows no method of the twin's name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources } from "../../../test-support/qa-env.ts";
import { exploratoryFlow } from "../../../test-support/qa-flow.ts";
import { syncName } from "./exploratory-unresolved.ts";

const VALIDATOR = `using System.Threading;
using System.Threading.Tasks;

namespace Checks;

public abstract class Validator<T> {
	public ValidationResult Validate(T instance) {
		var context = new ValidationContext<T>(instance);
		return ValidateInternal(context);
	}

	[CreateSyncVersion]
	private async ValueTask<ValidationResult> ValidateInternalAsync(ValidationContext<T> context, CancellationToken cancellation) {
		var result = new ValidationResult();
		foreach (var rule in context.Rules) {
			await RunRuleAsync(rule, result, cancellation);
		}
		return result;
	}

	private async ValueTask RunRuleAsync(Rule<T> rule, ValidationResult result, CancellationToken cancellation) {
		var failure = await rule.CheckAsync(cancellation);
		if (failure != null) result.Add(failure);
	}
}
`;

const CLIENT = `class Client:
    def get(self, url):
        request = build_request(url)
        return self.send(request)

    async def send_async(self, request):
        conn = await open_connection(request.host)
        return await conn.write_and_read(request)


def build_request(url):
    return Request(url)
`;

let repo: Awaited<ReturnType<typeof indexSources>>;

beforeAll(async () => {
  repo = await indexSources("twins", {
    "src/Checks/Validator.cs": VALIDATOR,
    "client/client.py": CLIENT,
  });
});
afterAll(() => repo.close());

describe("syncName", () => {
  it("drops an asynchronous suffix, and leaves other names alone", () => {
    expect(syncName("ValidateInternalAsync")).toBe("ValidateInternal");
    expect(syncName("send_async")).toBe("send");
    expect(syncName("Async")).toBe("Async");
    expect(syncName("validate")).toBe("validate");
  });
});

describe("the exploratory walk through a generated synchronous twin", () => {
  it("goes from a C# call to the generated twin into the asynchronous method it is made from", async () => {
    const { flow } = await exploratoryFlow(repo.repositoryId, "Walk me through Validator.Validate(instance)");
    expect(flow).toMatch(
      /Validator\.Validate\(\)[\s\S]*Validator\.ValidateInternalAsync\(\)[\s\S]*RunRuleAsync\(\)/,
    );
  });

  it("goes from a Python call to the generated twin into the asynchronous method", async () => {
    const { flow } = await exploratoryFlow(repo.repositoryId, "Walk me through Client.get(url)");
    expect(flow).toMatch(/Client\.get\(\)[\s\S]*Client\.send_async\(\)/);
  });
});
