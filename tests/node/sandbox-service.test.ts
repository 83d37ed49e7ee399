import { SignJWT } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { createScriptedExecutor } from "../../src/sandbox";
import type { RunOutcome } from "../../src/sandbox/executor";
import { explainFailure } from "../../src/contract/explain-failure";
import type { ExecuteCodeFailure } from "../../src/contract/failure";
import { resultFromAnswer } from "../../src/server/codeapi/sandbox-client";
import { AUDIENCE, ISSUER, startSandbox } from "./sandbox-fixture";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function sandbox(options = {}) {
  const s = await startSandbox(
    createScriptedExecutor(() => ({ stdout: "ran\n" })),
    options,
  );
  cleanups.push(s.close);
  const post = (headers: Record<string, string>, body: unknown = { lang: "py", code: "print(1)" }) =>
    fetch(`${s.url}/v1/exec`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const sign = (claims: Record<string, unknown>, set: (jwt: SignJWT) => SignJWT = (jwt) => jwt) => {
    const now = Math.floor(Date.now() / 1000);
    return set(
      new SignJWT({ tenant_id: "t", ...claims })
        .setProtectedHeader({ alg: "EdDSA" })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject("student")
        .setJti(crypto.randomUUID())
        .setIssuedAt(now)
        .setExpirationTime(now + 60),
    ).sign(s.privateKey);
  };
  return { ...s, post, sign };
}

describe("sandbox: the /v1/exec contract", () => {
  it("runs a program for a valid token and answers with the flat response", async () => {
    const s = await sandbox();
    const token = await s.minter.mint({ participantId: "student", tenantId: "t" });
    const response = await s.post({ authorization: `Bearer ${token}` });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ stdout: "ran\n", stderr: "", code: 0, signal: null, files: [] });
  });

  it("says why a program failed beside its streams, and only facts in the kit's shape, only for a failure", async () => {
    const failure = {
      type: "ZeroDivisionError",
      message: "division by zero",
      line: 2,
      values: [{ name: "n", value: "0", type: "int" }],
    };
    const answers: Record<string, Partial<RunOutcome>> = {
      raised: { exitCode: 1, failure },
      malformed: { exitCode: 1, failure: { type: "ZeroDivisionError", values: "n = 0" } },
      finished: { exitCode: 0, failure },
    };
    const s = await startSandbox(createScriptedExecutor((code) => answers[code]!));
    cleanups.push(s.close);
    const answer = async (code: string) => {
      const token = await s.minter.mint({ participantId: "student", tenantId: "t" });
      const response = await fetch(`${s.url}/v1/exec`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ lang: "py", code }),
      });
      return (await response.json()) as Record<string, unknown>;
    };
    const raised = await answer("raised");
    expect(raised).toMatchObject({ code: 1, failure });
    // What a codeapi client of the kit makes of it: the same facts in the run's result.
    const limits = { stdout: 8000, stderr: 4000 };
    expect(resultFromAnswer(raised, JSON.stringify(raised), limits)).toMatchObject({ ok: true, result: { failure } });
    expect(await answer("malformed")).not.toHaveProperty("failure");
    expect(await answer("finished")).not.toHaveProperty("failure");
  });

  it.each([
    ["a missing token", async () => ({}), "missing_token"],
    [
      "an expired token",
      async (s: Awaited<ReturnType<typeof sandbox>>) => ({
        authorization: `Bearer ${await s.sign({}, (jwt) => jwt.setIssuedAt(Math.floor(Date.now() / 1000) - 120).setExpirationTime(Math.floor(Date.now() / 1000) - 60))}`,
      }),
      "token_expired",
    ],
    [
      "a token for another audience",
      async (s: Awaited<ReturnType<typeof sandbox>>) => ({
        authorization: `Bearer ${await s.sign({}, (jwt) => jwt.setAudience("someone-else"))}`,
      }),
      "invalid_claim_aud",
    ],
    [
      "a token that lives too long",
      async (s: Awaited<ReturnType<typeof sandbox>>) => ({
        authorization: `Bearer ${await s.sign({}, (jwt) => jwt.setExpirationTime(Math.floor(Date.now() / 1000) + 3600))}`,
      }),
      "token_lifetime_too_long",
    ],
    [
      "an over-long token",
      async (s: Awaited<ReturnType<typeof sandbox>>) => ({
        authorization: `Bearer ${await s.sign({ padding: "x".repeat(5000) })}`,
      }),
      "token_too_long",
    ],
    [
      "a token without a tenant",
      async (s: Awaited<ReturnType<typeof sandbox>>) => ({
        authorization: `Bearer ${await s.sign({ tenant_id: undefined })}`,
      }),
      "invalid_claim_tenant_id",
    ],
  ])("answers 401 for %s", async (_name, headers, error) => {
    const s = await sandbox();
    const response = await s.post(await headers(s));
    expect(response.status).toBe(401);
    expect((await response.json()).error).toBe(error);
  });

  it("refuses a token whose iat lies in the future, beyond 30 s of clock skew", async () => {
    const s = await sandbox();
    const now = Math.floor(Date.now() / 1000);
    const future = await s.sign({}, (jwt) => jwt.setIssuedAt(now + 3 * 3600).setExpirationTime(now + 3 * 3600 + 60));
    const refused = await s.post({ authorization: `Bearer ${future}` });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "invalid_claim_iat" });
    // A signer whose clock runs a little ahead is fine.
    const skewed = await s.sign({}, (jwt) => jwt.setIssuedAt(now + 20).setExpirationTime(now + 80));
    expect((await s.post({ authorization: `Bearer ${skewed}` })).status).toBe(200);
  });

  it("runs a token once: a replayed jti gets 401 with a body that says so", async () => {
    const s = await sandbox();
    const token = await s.minter.mint({ participantId: "student", tenantId: "t" });
    expect((await s.post({ authorization: `Bearer ${token}` })).status).toBe(200);
    const replay = await s.post({ authorization: `Bearer ${token}` });
    expect(replay.status).toBe(401);
    expect(replay.headers.get("content-type")).toBe("application/json");
    expect(await replay.json()).toEqual({
      error: "token_replayed",
      message: "This token was already used; each execution needs a new token.",
    });
    // A different token with the same jti is a replay too.
    const decoded = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { jti: string };
    const sameJti = await s.sign({}, (jwt) => jwt.setJti(decoded.jti));
    expect((await (await s.post({ authorization: `Bearer ${sameJti}` })).json()).error).toBe("token_replayed");
  });

  it("mints a fresh jti for every call", async () => {
    const s = await sandbox();
    const jtis = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const token = await s.minter.mint({ participantId: "student", tenantId: "t" });
      jtis.add((JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { jti: string }).jti);
    }
    expect(jtis.size).toBe(50);
  });

  it("reports output the executor cut, and answers a health check without a token", async () => {
    const s = await startSandbox(
      createScriptedExecutor(() => ({ stdout: "x".repeat(10), truncated: { stdout: 990, stderr: 0 } })),
    );
    cleanups.push(s.close);
    const token = await s.minter.mint({ participantId: "student", tenantId: "t" });
    const response = await fetch(`${s.url}/v1/exec`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ lang: "py", code: "print(1)" }),
    });
    expect(await response.json()).toMatchObject({ stdout: "x".repeat(10), stdout_truncated: 990, stderr_truncated: 0 });
    const health = await fetch(`${s.url}/v1/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: "ok",
      schedule: { running: 0, queued: 0, maxRunning: 4, perParticipant: 2, maxQueuedPerParticipant: 8, maxQueued: 64 },
    });
  });

  it("with an operator token, shows the counts to the operator alone; anyone else reads that it is up", async () => {
    const executor = { ...createScriptedExecutor(() => ({})), health: () => ({ executor: "cpython", pool: 2 }) };
    const s = await startSandbox(executor, { operatorToken: "op-secret" });
    cleanups.push(s.close);
    const read = async (authorization?: string) =>
      (await fetch(`${s.url}/v1/health`, { headers: authorization ? { authorization } : {} })).json();
    expect(await read()).toEqual({ status: "ok", executor: "cpython" });
    expect(await read("Bearer op-secre")).toEqual({ status: "ok", executor: "cpython" });
    expect(await read("Bearer op-secret")).toMatchObject({
      status: "ok",
      executor: "cpython",
      pool: 2,
      schedule: { running: 0 },
    });
    // An empty token lets nobody read them.
    const closed = await startSandbox(executor, { operatorToken: "" });
    cleanups.push(closed.close);
    const bare = await (await fetch(`${closed.url}/v1/health`, { headers: { authorization: "Bearer " } })).json();
    expect(bare).toEqual({ status: "ok", executor: "cpython" });
  });

  it("limits each (tenant, user) and answers 429 with Retry-After and retry_after_seconds", async () => {
    const s = await sandbox({ rateLimit: { max: 2, windowMs: 30_000 } });
    const mint = async (participantId: string) => ({
      authorization: `Bearer ${await s.minter.mint({ participantId, tenantId: "t" })}`,
    });
    expect((await s.post(await mint("a"))).status).toBe(200);
    expect((await s.post(await mint("a"))).status).toBe(200);
    const limited = await s.post(await mint("a"));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(29);
    expect((await limited.json()).retry_after_seconds).toBe(Number(limited.headers.get("retry-after")));
    expect((await s.post(await mint("b"))).status).toBe(200);
  });

  it("gives a freed slot to the clients a token names in turn, however many users one client has", async () => {
    // Each program runs until the test lets it go, so the order they start in is the order of their turns.
    const started: string[] = [];
    const letGo: Array<() => void> = [];
    const s = await startSandbox(
      createScriptedExecutor(async (code) => {
        started.push(code);
        await new Promise<void>((resolve) => letGo.push(resolve));
        return { stdout: "" };
      }),
      { schedule: { maxRunning: 1 } },
    );
    cleanups.push(s.close);
    const run = async (participantId: string, clientId: string) =>
      fetch(`${s.url}/v1/exec`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${await s.minter.mint({ participantId, tenantId: "t", clientId })}`,
        },
        body: JSON.stringify({ lang: "py", code: participantId }),
      });
    const waitingAtLeast = async (n: number) => {
      while (
        ((await (await fetch(`${s.url}/v1/health`)).json()) as { schedule: { queued: number } }).schedule.queued < n
      )
        await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const answers = [run("cookie-1", "address-1")];
    while (!started.length) await new Promise((resolve) => setTimeout(resolve, 20));
    answers.push(run("cookie-2", "address-1"));
    await waitingAtLeast(1);
    answers.push(run("cookie-3", "address-1"));
    await waitingAtLeast(2);
    answers.push(run("student", "address-2"));
    await waitingAtLeast(3);
    for (let ended = 0; ended < 4; ended++) {
      while (letGo.length <= ended) await new Promise((resolve) => setTimeout(resolve, 20));
      letGo[ended]!();
    }
    await Promise.all(answers);
    // address-2 had not run a program yet: its turn comes first; address-1's cookies then take theirs in order.
    expect(started).toEqual(["cookie-1", "student", "cookie-2", "cookie-3"]);
  });

  it("stops a program of one who has used the slots far more, after a second, for a student kept waiting", async () => {
    const s = await startSandbox(
      createScriptedExecutor((code) =>
        // The hog's program sleeps until stopped, and then reads as killed, as a real engine's does.
        code === "hog" ? { delayMs: 30_000, exitCode: null, signal: "SIGKILL" } : { stdout: "ran\n" },
      ),
      { schedule: { maxRunning: 1, stopForUseMs: 500 } },
    );
    cleanups.push(s.close);
    const run = async (participantId: string) => {
      const response = await fetch(`${s.url}/v1/exec`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${await s.minter.mint({ participantId, tenantId: "t" })}`,
        },
        body: JSON.stringify({ lang: "py", code: participantId }),
      });
      return (await response.json()) as {
        stdout: string;
        stderr: string;
        signal: string | null;
        failure?: ExecuteCodeFailure;
      };
    };
    const hog = run("hog");
    while (
      ((await (await fetch(`${s.url}/v1/health`)).json()) as { schedule: { running: number } }).schedule.running < 1
    )
      await new Promise((resolve) => setTimeout(resolve, 20));
    const student = await run("student");
    expect(student.stdout).toBe("ran\n");
    // Stopped, not run to its 30 s: the test would time out first.
    const stopped = await hog;
    expect(stopped.signal).toBe("SIGKILL");
    // The card leads with it in plain words, wrapped, rather than a long line of the error output.
    expect(explainFailure(stopped.failure!)).toEqual([
      "The sandbox was full, so this program was stopped to let others' programs run: you had used it much more than they had of late. Run it again in a moment.",
    ]);
    expect(stopped.stderr).toMatch(
      /^The sandbox was full: this program was stopped after \d+ s to let others' programs run/,
    );
  });

  it("refuses other languages, empty programs, programs over 20,000 characters and other methods", async () => {
    const s = await sandbox();
    // A fresh token each time: a token runs once.
    const auth = async () => ({
      authorization: `Bearer ${await s.minter.mint({ participantId: "p", tenantId: "t" })}`,
    });
    expect((await s.post(await auth(), { lang: "js", code: "1" })).status).toBe(400);
    expect((await s.post(await auth(), { lang: "py", code: "" })).status).toBe(400);
    const long = await s.post(await auth(), { lang: "py", code: "x".repeat(20_001) });
    expect(long.status).toBe(400);
    expect((await long.json()).error).toBe("program_too_long");
    expect((await fetch(`${s.url}/v1/exec`)).status).toBe(405);
  });
});
