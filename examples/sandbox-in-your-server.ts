import { createPublicKey } from "node:crypto";
import { createServer } from "node:http";
import { createSandbox, createPyodideExecutor } from "execute-code-ui/sandbox";
import { myApp } from "./your-app"; // yours: the rest of your routes

// In your Node http server: the sandbox answers POST /v1/exec, you the rest.
export const sandbox = createSandbox({
  // Verifies what createExecuteCodeTool signs with the private key; SPKI PEM here.
  publicKey: createPublicKey(process.env.SANDBOX_PUBLIC_KEY!),
  algorithms: ["EdDSA"],
  issuer: "my-tutor",
  audience: "sandbox",
  executor: createPyodideExecutor(),
});
export const server = createServer((req, res) => sandbox.handle(req, res) || myApp(req, res));
// server.listen(3000); to stop: server.close() and await sandbox.close()
