// How this server talks to a Jupyter server: @jupyterlab/services, loaded when first needed, and one kernel's settings.
import type { Services } from "./run.js";
import { cappedWebSocket } from "./socket.js";

/** What stands in for a message the library would refuse: valid, answering nothing, ignored. */
const IGNORED_MESSAGE = {
  header: { msg_id: "", msg_type: "execute-code-ui-ignored", session: "", username: "", version: "5.3", date: "" },
  parent_header: {},
  metadata: {},
  content: {},
  channel: "iopub",
  buffers: [],
};

export interface JupyterClient {
  api: Services;
  validateMessage(message: unknown): void;
  /** The WebSocket kernels' messages come through, bounded (socket.ts). */
  WebSocket: typeof globalThis.WebSocket;
}

let client: Promise<JupyterClient> | undefined;

/** The optional peer `@jupyterlab/services`, loaded once, by Node as it is (bundlers leave it alone). */
export const loadJupyterClient = (): Promise<JupyterClient> =>
  (client ??= Promise.all([
    import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "@jupyterlab/services"),
    import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "@jupyterlab/services/lib/kernel/validate.js"),
    import("ws"),
  ]).then(([api, validate, ws]) => ({
    api,
    validateMessage: (validate as { validateMessage: (message: unknown) => void }).validateMessage,
    WebSocket: cappedWebSocket(ws.WebSocket) as unknown as typeof globalThis.WebSocket,
  })));

/**
 * The server's settings for one kernel. A message the library would refuse
 * (a program can send any) throws where no one catches it, on the event
 * loop every student shares: here it ends that kernel instead.
 */
export function kernelSettings(
  { api, validateMessage, WebSocket }: JupyterClient,
  server: { url: URL; token: string },
  onMalformed: () => void,
) {
  const settings = api.ServerConnection.makeSettings({
    baseUrl: server.url.href,
    wsUrl: server.url.href.replace(/^http/, "ws"),
    token: server.token,
    // A WebSocket carries no header: the token goes in its URL, as browsers send it.
    appendToken: true,
    fetch: globalThis.fetch,
    Request: globalThis.Request,
    Headers: globalThis.Headers,
    WebSocket,
  });
  const { serialize, deserialize } = settings.serializer;
  return {
    ...settings,
    serializer: {
      serialize,
      deserialize(data: ArrayBuffer, protocol?: string) {
        try {
          const message = deserialize(data, protocol);
          validateMessage(message);
          return message;
        } catch {
          onMalformed();
          return IGNORED_MESSAGE;
        }
      },
    },
  } as typeof settings;
}
