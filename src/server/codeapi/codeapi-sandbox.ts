import { isSandboxStream, postToSandbox, readSandboxResponse } from "./sandbox-client.js";
import type { Sandbox } from "../sandbox.js";
import { readSandboxStream } from "./sandbox-stream.js";
import { toTokenMinter, type TokenMinter, type TokenMinterOptions } from "../token.js";

export interface CodeapiSandboxOptions {
  /** Base URL of the service; programs go to `POST /v1/exec` under it. */
  url: string;
  /** How to sign each run's token: key options, or a minter of your own. */
  signing: TokenMinterOptions | TokenMinter;
  fetch?: typeof fetch;
}

/** A codeapi service: a signed `POST /v1/exec` per run, its output streamed back where the service streams. */
export function codeapiSandbox(options: CodeapiSandboxOptions): Sandbox {
  const minter = toTokenMinter(options.signing);
  return {
    kind: "codeapi",
    // codeapi's, and the kit's sandbox's: the path LibreChat's tool and ChatGPT's code interpreter tell models.
    workDir: "/mnt/data",
    async *run(request) {
      const token = await minter.mint({
        participantId: request.participantId,
        tenantId: request.tenantId,
        ...(request.clientId ? { clientId: request.clientId } : {}),
      });
      const response = await postToSandbox({
        url: options.url,
        token,
        code: request.code,
        signal: request.signal,
        fetch: options.fetch,
        ...(request.files.length ? { files: request.files } : {}),
      });
      if (isSandboxStream(response)) yield* readSandboxStream(response, request.limits);
      else yield { kind: "done", outcome: await readSandboxResponse(response, request.limits) };
    },
  };
}
