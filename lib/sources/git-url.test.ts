import { describe, expect, it } from "vitest";
import { assertBranchName, looksLikeGitRemote, parseGitRemote, redactCredentials } from "./git-url.ts";

describe("parseGitRemote", () => {
  it("takes https, ssh, git, file URLs, scp-like addresses and absolute paths", () => {
    expect(parseGitRemote("https://github.com/pydata/xarray.git")).toEqual({
      url: "https://github.com/pydata/xarray.git",
      localPath: null,
      credentialsRemoved: false,
    });
    expect(parseGitRemote("ssh://git@gitlab.example.com:2222/team/app.git").url).toBe(
      "ssh://git@gitlab.example.com:2222/team/app.git",
    );
    expect(parseGitRemote("git@github.com:org/repo.git").url).toBe("git@github.com:org/repo.git");
    expect(parseGitRemote("git://example.com/repo.git").url).toBe("git://example.com/repo.git");
    expect(parseGitRemote("file:///srv/git/app.git")).toMatchObject({
      url: "file:///srv/git/app.git",
      localPath: "/srv/git/app.git",
    });
    expect(parseGitRemote("  /srv/git/app.git/ ")).toMatchObject({ localPath: "/srv/git/app.git" });
  });

  it("removes credentials: the password everywhere, the whole user part of http(s)", () => {
    const https = parseGitRemote("https://x-access-token:ghp_secret123@github.com/org/private.git");
    expect(https).toEqual({
      url: "https://github.com/org/private.git",
      localPath: null,
      credentialsRemoved: true,
    });
    expect(parseGitRemote("https://glpat-token@gitlab.com/org/p.git").url).toBe(
      "https://gitlab.com/org/p.git",
    );
    const ssh = parseGitRemote("ssh://deploy:hunter2@host.example/repo.git");
    expect(ssh.url).toBe("ssh://deploy@host.example/repo.git");
    expect(ssh.credentialsRemoved).toBe(true);
    expect(parseGitRemote("deploy:hunter2@host.example:repo.git").url).toBe("deploy@host.example:repo.git");
  });

  it("refuses what could run a program or be read as an option", () => {
    expect(() => parseGitRemote("ext::sh -c touch% /tmp/pwned")).toThrow(/spaces|Remote-helper/);
    expect(() => parseGitRemote("ext::ssh")).toThrow(/Remote-helper/);
    expect(() => parseGitRemote("fd::3")).toThrow(/Remote-helper/);
    expect(() => parseGitRemote("--upload-pack=touch")).toThrow(/dash/);
    expect(() => parseGitRemote("ftp://example.com/repo.git")).toThrow(/ftp:\/\/ are not accepted/);
    expect(() => parseGitRemote("file://otherhost/srv/repo.git")).toThrow(/this machine/);
    expect(() => parseGitRemote("relative/folder")).toThrow(/https, ssh/);
    expect(() => parseGitRemote("")).toThrow(/required/);
    expect(() => parseGitRemote("https://github.com/")).toThrow(/names no repository/);
  });
});

describe("redactCredentials", () => {
  it("strips user info from every URL in a message", () => {
    expect(
      redactCredentials(
        "fatal: unable to access 'https://user:tok3n@host.example/r.git/': 403 and ssh://a:b@h/x",
      ),
    ).toBe("fatal: unable to access 'https://host.example/r.git/': 403 and ssh://h/x");
  });
});

describe("branches and targets", () => {
  it("accepts branch names git accepts and refuses the rest", () => {
    for (const ok of ["main", "release/2.x", "feature_x-1", "v1.2.3"]) expect(assertBranchName(ok)).toBe(ok);
    for (const bad of ["-x", "a..b", "a//b", "x.lock", "end/", "a b", "@{-1}", "x@{u}"]) {
      expect(() => assertBranchName(bad), bad).toThrow(/not a valid branch name/);
    }
  });

  it("tells a Git remote from a folder on the command line", () => {
    expect(looksLikeGitRemote("https://github.com/a/b")).toBe(true);
    expect(looksLikeGitRemote("git@github.com:a/b.git")).toBe(true);
    expect(looksLikeGitRemote("file:///srv/a.git")).toBe(true);
    expect(looksLikeGitRemote("/home/me/project")).toBe(false);
    expect(looksLikeGitRemote("./project")).toBe(false);
    expect(looksLikeGitRemote("project")).toBe(false);
  });
});
