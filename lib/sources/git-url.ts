/**
 * Git remote addresses as users type them: https, ssh (URL or scp-like `user@host:path`),
 * git://, file:// and a local path to a repository (bare or not). Only these forms are
 * taken: remote-helper forms (`ext::`, `fd::`, `<transport>::<address>`) run programs
 * and are refused, as is anything git could read as an option.
 *
 * Credentials never travel with the URL Wayfinder keeps: the password, and for http(s)
 * the whole user part (a token in the user name is the usual way of pasting one), are
 * removed before the URL is stored or printed. Access comes from the environment or
 * git's own credential helpers and SSH keys instead.
 */
import path from "node:path";
import { WayfinderError } from "../errors.ts";

export interface GitRemote {
  /** the URL to store, show and pass to git: no password, no http(s) user */
  url: string;
  /** a path on this machine (file:// or a plain path), checked like a local folder */
  localPath: string | null;
  /** true when credentials were removed from what was given */
  credentialsRemoved: boolean;
}

const SCHEMES = new Set(["https", "http", "ssh", "git", "git+ssh", "ssh+git", "file"]);
const SCHEME_URL = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
const REMOTE_HELPER = /^[A-Za-z][A-Za-z0-9+.-]*::/;
// user@host:path, host:path (not a Windows drive letter, not a scheme URL)
const SCP_LIKE = /^(?:([^@/\s]+)@)?([A-Za-z0-9.-]{2,}|\[[0-9A-Fa-f:.]+\]):(?!\/\/)(.+)$/;

const invalid = (message: string) => new WayfinderError("bad_request:git_url", message);

/** Parses and cleans a Git remote address; clear errors for anything git should not be given. */
export function parseGitRemote(input: string): GitRemote {
  const raw = input.trim();
  if (!raw) throw invalid("A Git URL is required.");
  if (raw.length > 2048) throw invalid("That Git URL is too long.");
  if (/[\s\0]/.test(raw)) throw invalid("A Git URL cannot contain spaces or control characters.");
  if (raw.startsWith("-")) throw invalid("A Git URL cannot start with a dash.");
  if (REMOTE_HELPER.test(raw)) {
    throw invalid(
      "Remote-helper addresses (transport::address) are not accepted; give an https, ssh or file URL.",
    );
  }
  const scheme = SCHEME_URL.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== undefined) return parseSchemeUrl(raw, scheme);
  if (raw.startsWith("/")) {
    return { url: path.resolve(raw), localPath: path.resolve(raw), credentialsRemoved: false };
  }
  const scp = SCP_LIKE.exec(raw);
  if (scp) {
    const [, user, host, repoPath] = scp;
    const name = user?.split(":")[0];
    return {
      url: `${name ? `${name}@` : ""}${host}:${repoPath}`,
      localPath: null,
      credentialsRemoved: Boolean(user?.includes(":")),
    };
  }
  throw invalid(
    "Give an https, ssh (user@host:path) or file:// URL, or the absolute path of a repository on the server.",
  );
}

function parseSchemeUrl(raw: string, scheme: string): GitRemote {
  if (!SCHEMES.has(scheme)) {
    throw invalid(`Git URLs with ${scheme}:// are not accepted; use https, ssh, git or file.`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid("That is not a valid URL.");
  }
  if (scheme === "file") {
    if (url.host && url.host !== "localhost") throw invalid("file:// URLs must point at this machine.");
    const local = path.resolve(decodeURIComponent(url.pathname));
    return { url: `file://${local}`, localPath: local, credentialsRemoved: false };
  }
  if (!url.hostname) throw invalid("The Git URL has no host.");
  if (!url.pathname || url.pathname === "/") throw invalid("The Git URL names no repository.");
  const http = scheme === "http" || scheme === "https";
  const hadCredentials = url.password !== "" || (http && url.username !== "");
  url.password = "";
  if (http) url.username = "";
  return { url: url.toString(), localPath: null, credentialsRemoved: hadCredentials };
}

/**
 * Removes credentials from every URL in a text (git's own messages echo the URL it was
 * given, and a credential helper's URL may carry a user): for logs and stored errors.
 */
export function redactCredentials(text: string): string {
  return text.replace(/\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/@\s'"]+@/g, "$1");
}

/** A branch name git accepts (`git check-ref-format --branch` rules, kept simple and strict). */
export const BRANCH_PATTERN = /^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*@\{)(?!.*\.lock$)[A-Za-z0-9._/+-]+(?<![/.])$/;

export function assertBranchName(branch: string): string {
  const name = branch.trim();
  if (!BRANCH_PATTERN.test(name) || name.length > 200) {
    throw new WayfinderError("bad_request:git_branch", `"${branch}" is not a valid branch name.`);
  }
  return name;
}

/** Whether a command-line argument names a Git remote rather than a folder to index. */
export function looksLikeGitRemote(target: string): boolean {
  return (
    SCHEME_URL.test(target) || (!target.startsWith("/") && !target.startsWith(".") && SCP_LIKE.test(target))
  );
}
