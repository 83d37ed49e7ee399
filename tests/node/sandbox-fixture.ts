import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPair } from "jose";
import { createSandbox, type SandboxOptions } from "../../src/sandbox";
import type { Executor } from "../../src/sandbox";
import { createTokenMinter } from "../../src/server";

export const ISSUER = "test-issuer";
export const AUDIENCE = "sandbox";

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A sandbox on a loopback port with its own key pair. */
export async function startSandbox(executor: Executor, options: Partial<SandboxOptions> = {}) {
  const { privateKey, publicKey } = await generateKeyPair("EdDSA", { extractable: true });
  const sandbox = createSandbox({
    publicKey,
    algorithms: ["EdDSA"],
    issuer: ISSUER,
    audience: AUDIENCE,
    executor,
    ...options,
  });
  const server = createServer((req, res) => {
    if (!sandbox.handle(req, res)) res.writeHead(404).end();
  });
  const url = await listen(server);
  const signing = { privateKey, algorithm: "EdDSA" as const, issuer: ISSUER, audience: AUDIENCE };
  return {
    url,
    privateKey,
    publicKey,
    signing,
    minter: createTokenMinter(signing),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await sandbox.close();
    },
  };
}
