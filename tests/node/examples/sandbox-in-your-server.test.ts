// The README's sandbox inside a Node http server of your own: examples/sandbox-in-your-server.ts.
import { exportPKCS8, exportSPKI, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createExecuteCodeTool } from "../../../src/server";
import { listen } from "../sandbox-fixture";
import { finalOutput } from "../tool-runs";

let example: typeof import("../../../examples/sandbox-in-your-server");
let url: string;
let signingKey: string;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair("EdDSA", { extractable: true });
  signingKey = await exportPKCS8(privateKey);
  // As the example reads it, when it is loaded.
  vi.stubEnv("SANDBOX_PUBLIC_KEY", await exportSPKI(publicKey));
  example = await import("../../../examples/sandbox-in-your-server");
  url = await listen(example.server);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  example?.server.closeAllConnections();
  await new Promise((resolve) => example?.server.close(resolve));
  await example?.sandbox.close();
});

const toolSignedWith = (privateKey: string) =>
  createExecuteCodeTool({
    sandboxUrl: url,
    signing: { privateKey, algorithm: "EdDSA", issuer: "my-tutor", audience: "sandbox" },
    participantId: "student-42",
    tenantId: "course-7",
  });

describe("the sandbox in your own Node http server (examples/sandbox-in-your-server.ts)", () => {
  it("runs a program that the server tool sends, signed with the matching private key", async () => {
    const result = await finalOutput(toolSignedWith(signingKey), 'print("hello from your server")');
    expect(result).toMatchObject({ status: "completed", stdout: "hello from your server\n", exitCode: 0 });
  });

  it("refuses a program signed with another key", async () => {
    const other = await exportPKCS8((await generateKeyPair("EdDSA", { extractable: true })).privateKey);
    const result = await finalOutput(toolSignedWith(other), "print(1)");
    expect(result).toMatchObject({ status: "error" });
  });

  it("leaves every other request to your app", async () => {
    const response = await fetch(`${url}/courses/python-101`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("Your app\n");
  });
});
