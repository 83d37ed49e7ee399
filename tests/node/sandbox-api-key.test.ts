// codeapi's own credentials: a trusted client (a self-hosted LibreChat) sends
// `X-API-Key` instead of a token and names its user itself. Runs and uploads
// are that user's; downloads, listings and deletions reach the key's users;
// nobody with a token, or another key, reaches them.
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { Executor } from "../../src/sandbox";
import { startSandbox } from "./sandbox-fixture";

const KEY = "course-key-0123456789abcdef";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Prints the files it was given, name and text, and writes one of its own. */
const echoFiles: Executor = {
  async run({ files, onStart }) {
    onStart?.();
    const given = (files ?? []).map((file) => `${file.name}=${Buffer.from(file.bytes).toString()}`);
    return {
      stdout: `${given.join(",")}\n`,
      stderr: "",
      exitCode: 0,
      signal: null,
      wallTimeMs: 1,
      timedOut: false,
      files: [{ name: "out.txt", mediaType: "text/plain", bytes: Buffer.from("made") }],
    };
  },
  async close() {},
};

async function service() {
  const s = await startSandbox(echoFiles, { apiKeys: ["another-key-of-this-service", KEY] });
  cleanups.push(s.close);
  const call = (path: string, init: RequestInit & { key?: string } = {}) =>
    fetch(`${s.url}${path}`, { ...init, headers: { "x-api-key": init.key ?? KEY, ...init.headers } });
  const exec = async (body: Record<string, unknown>, key?: string) => {
    const response = await call("/v1/exec", {
      method: "POST",
      key,
      headers: { "content-type": "application/json", "user-agent": "LibreChat/1.0" },
      body: JSON.stringify({ lang: "py", code: "print(1)", ...body }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const upload = async (user: string, name: string, text: string) => {
    const form = new FormData();
    form.append("entity_id", "");
    form.append("file", new Blob([text]), name);
    const response = await call("/v1/upload", { method: "POST", headers: { "user-id": user }, body: form });
    return (await response.json()) as { session_id: string; files: Array<{ fileId: string; filename: string }> };
  };
  return { ...s, call, exec, upload };
}

describe("the sandbox with an API key (codeapi's X-API-Key)", () => {
  it("runs a program for the user the body names, with that user's upload, in codeapi's ids", async () => {
    const s = await service();
    const uploaded = await s.upload("ada", "scores.csv", "a,b\n");
    const refs = uploaded.files.map((file) => ({
      id: file.fileId,
      session_id: uploaded.session_id,
      name: file.filename,
    }));
    const ran = await s.exec({ user_id: "ada", files: refs });
    expect(ran.status).toBe(200);
    expect(ran.body.stdout).toBe("scores.csv=a,b\n\n");
    expect(ran.body.session_id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(ran.body.files.map((file: { name: string }) => file.name)).toEqual(["out.txt"]);

    // Another user of the same key gets none of ada's files: they are missing, as an expired one is.
    const other = await s.exec({ user_id: "bob", files: refs });
    expect(other.body.stdout).toBe("\n");
    expect(other.body.files_missing).toHaveLength(1);
  });

  it("takes newer clients' file refs, which name the session storage_session_id", async () => {
    const s = await service();
    const uploaded = await s.upload("ada", "notes.txt", "hello");
    const ran = await s.exec({
      user_id: "ada",
      files: [
        { id: uploaded.files[0]!.fileId, storage_session_id: uploaded.session_id, name: "notes.txt", kind: "user" },
      ],
    });
    expect(ran.body.stdout).toBe("notes.txt=hello\n");
  });

  it("lists a session's files as codeapi does, downloads them, and deletes one for good", async () => {
    const s = await service();
    const ran = await s.exec({ user_id: "ada" });
    const session = ran.body.session_id as string;
    const file = ran.body.files[0] as { id: string };

    const listed = await s.call(`/v1/files/${session}`);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([
      {
        id: file.id,
        name: `${session}/${file.id}`,
        session_id: session,
        storage_session_id: session,
        size: 4,
        content_type: "text/plain",
        metadata: { "original-filename": "out.txt", "content-type": "text/plain" },
      },
    ]);
    // LibreChat downloads with the key alone: it names no user.
    const download = await s.call(`/v1/download/${session}/${file.id}`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe("made");

    const deleted = await s.call(`/v1/files/${session}/${file.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect((await s.call(`/v1/download/${session}/${file.id}`)).status).toBe(404);
    expect((await s.call(`/v1/files/${session}`)).status).toBe(404);
  });

  it("refuses a wrong key, a request with neither key nor token, and a user name that is not an id", async () => {
    const s = await service();
    const wrong = await s.exec({ user_id: "ada" }, "not-the-key");
    expect(wrong).toMatchObject({ status: 401, body: { error: "invalid_api_key" } });
    const none = await fetch(`${s.url}/v1/exec`, { method: "POST", body: "{}" });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: "missing_credentials" });
    const odd = await s.exec({ user_id: "ada/../bob" });
    expect(odd).toMatchObject({ status: 400, body: { error: "invalid_user_id" } });
  });

  it("keeps a key's files from a token's participant and from another key", async () => {
    const s = await service();
    const ran = await s.exec({ user_id: "ada" });
    const path = `/v1/files/${ran.body.session_id}`;
    expect((await s.call(path, { key: "another-key-of-this-service" })).status).toBe(404);
    const token = await s.minter.mint({ participantId: "ada", tenantId: "t" });
    const byToken = await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(byToken.status).toBe(404);
    // And a token's files from the key.
    const tokenRun = await fetch(`${s.url}/v1/exec`, {
      method: "POST",
      headers: { authorization: `Bearer ${await s.minter.mint({ participantId: "ada", tenantId: "t" })}` },
      body: JSON.stringify({ lang: "py", code: "print(1)" }),
    });
    const own = (await tokenRun.json()) as { session_id: string };
    expect((await s.call(`/v1/files/${own.session_id}`)).status).toBe(404);
  });

  it("gives no token a name that reads as a key's user, nor one token another's by how it splits", async () => {
    const s = await service();
    const ran = await s.exec({ user_id: "u1" });
    const path = `/v1/download/${ran.body.session_id}/${ran.body.files[0].id}`;
    const digest = createHash("sha256").update(KEY).digest().subarray(0, 8).toString("hex");
    for (const [tenantId, participantId] of [
      [`key:${digest}`, "u1"],
      ["key", `${digest}:u1`],
    ]) {
      const token = await s.minter.mint({ participantId: participantId!, tenantId: tenantId! });
      expect((await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    }
    // Tenant "a" with user "b:c", and tenant "a:b" with user "c", are two participants.
    const asA = await s.minter.mint({ participantId: "b:c", tenantId: "a" });
    const theirs = (await (
      await fetch(`${s.url}/v1/exec`, {
        method: "POST",
        headers: { authorization: `Bearer ${asA}` },
        body: JSON.stringify({ lang: "py", code: "print(1)" }),
      })
    ).json()) as { session_id: string; files: Array<{ id: string }> };
    const asB = await s.minter.mint({ participantId: "c", tenantId: "a:b" });
    const other = await fetch(`${s.url}/v1/download/${theirs.session_id}/${theirs.files[0]!.id}`, {
      headers: { authorization: `Bearer ${asB}` },
    });
    expect(other.status).toBe(404);
  });
});
