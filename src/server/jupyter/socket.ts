// The WebSocket a kernel's messages come through, with bounds on what a
// program can make this server take in: a kernel's messages are read and
// parsed on the event loop every student shares.
import type WebSocketType from "ws";

/** The largest message a kernel may send: one file a run wrote (10 MiB) as base64, with room. */
export const MAX_KERNEL_MESSAGE_BYTES = 16 * 1024 * 1024;
/** What a kernel may send in any window of `KERNEL_WINDOW_MS`: a run's files and figures at its end, with room. */
export const MAX_KERNEL_WINDOW_BYTES = 64 * 1024 * 1024;
const KERNEL_WINDOW_MS = 10_000;

/**
 * `ws`'s WebSocket as `@jupyterlab/services` constructs it, refusing a
 * message past `MAX_KERNEL_MESSAGE_BYTES` while it arrives (the connection
 * closes with 1009) and ending a connection whose messages pass
 * `MAX_KERNEL_WINDOW_BYTES` in ten seconds before the next is handed on.
 * Either way the kernel is lost to its run, which ends, and to no one else.
 * (Jupyter's own output rate limit leaves out some kinds of message.)
 */
export function cappedWebSocket(WebSocket: typeof WebSocketType): typeof WebSocketType {
  return class CappedWebSocket extends WebSocket {
    private windowStart = Date.now();
    private windowBytes = 0;

    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { maxPayload: MAX_KERNEL_MESSAGE_BYTES });
    }

    override emit(event: string | symbol, ...args: unknown[]): boolean {
      if (event === "message") {
        const now = Date.now();
        if (now - this.windowStart > KERNEL_WINDOW_MS) {
          this.windowStart = now;
          this.windowBytes = 0;
        }
        const data = args[0] as { byteLength?: number; length?: number } | undefined;
        this.windowBytes += data?.byteLength ?? data?.length ?? 0;
        if (this.windowBytes > MAX_KERNEL_WINDOW_BYTES) {
          this.terminate();
          return false;
        }
      }
      return super.emit(event, ...args);
    }
  } as unknown as typeof WebSocketType;
}
