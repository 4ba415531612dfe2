/**
 * A commit as people read it: the first 12 hex digits, the whole SHA on hover and for
 * copying. Shown wherever an index generation is named (cards, chat, share pages).
 */
export function CommitRef({ sha, testId }: { sha: string | null | undefined; testId?: string }) {
  if (!sha) return null;
  return (
    <code className="commit-ref" title={sha} data-testid={testId} data-sha={sha}>
      {sha.slice(0, 12)}
    </code>
  );
}
