/**
 * Literal values a question quotes as examples — a URL, a host name, a route such as
 * `/articles/{id}` — name the user's data, not the code: their words ("https", "api",
 * "articles") would otherwise take a query's term slots and match unrelated names
 * (`Options.https`, an example router). A file path with an extension (`src/router.go`,
 * `/app/models.py:12`) names code and stays.
 */
const URL_LITERAL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s`'"<>)]+/gi;
const HOST_LITERAL =
  /\b(?:[a-z0-9-]+\.)+(?:com|org|net|example|test|localhost|local)\b(?::\d+)?(?:\/[^\s`'"<>)]*)?/gi;
const ROUTE_LITERAL = /(?<=^|[\s`'"(])(?:\/[\w{}:*.-]+)+\/?(?=$|[\s`'",;?)])/g;
const FILE_PATH = /\.[A-Za-z]\w{0,4}(?::\d+)*$/;

/** The text without the literal values it quotes as examples (URLs, hosts, routes); the text itself when nothing else is left. */
export function withoutLiterals(text: string): string {
  const out = text
    .replace(URL_LITERAL, " ")
    .replace(HOST_LITERAL, " ")
    .replace(ROUTE_LITERAL, (route) => (FILE_PATH.test(route) && !/[{}*]/.test(route) ? route : " "));
  return /[A-Za-z]{3}/.test(out) ? out : text;
}
