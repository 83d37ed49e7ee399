import { createResumableStreamContext, type Publisher, type Subscriber } from "resumable-stream/generic";

export type { Publisher, Subscriber };

export interface RunStreamsOptions {
  /**
   * A Redis publisher and a subscriber shared by every chat server (two
   * clients of the `redis` package, connected), so that a page can follow a
   * run through any of them.
   * @default this process only
   */
  publisher?: Publisher;
  subscriber?: Subscriber;
  /**
   * Prefix of the Redis keys and channels.
   * @default "execute-code-ui"
   */
  keyPrefix?: string;
  /**
   * Clients that may follow one run through this server at once (tabs of its owner); past it `follow` throws `TooManyFollowers`.
   * @default 8
   */
  maxFollowers?: number;
}

/** A run already has as many followers on this server as it may. */
export class TooManyFollowers extends Error {}

/**
 * The live streams of runs, by run id: a run's stream is read to its end by
 * the server running it whatever its clients do, and any client (a page that
 * reloaded, a second tab, through any server sharing the pub/sub) can follow
 * it from its first chunk.
 */
export interface RunStreams {
  /** Reads a run's SSE stream to its end; `stop` is called when anyone asks to stop the run. Resolves with the stream for the client that started it. */
  keep(runId: string, stream: ReadableStream<string>, stop: () => void): Promise<ReadableStream<string>>;
  /** The stream of a run in progress from its first chunk, following it live; null when no run by that id is live. */
  follow(runId: string): Promise<ReadableStream<string> | null>;
  /** Asks the server running `runId` to stop it. */
  stop(runId: string): Promise<void>;
  /** Whether some server keeps the run's stream now (a run whose server went away is not live). */
  isLive(runId: string): Promise<boolean>;
}

/** Runs' live streams, through `resumable-stream`: in this process by default, through Redis when given its clients. */
export function createRunStreams(options: RunStreamsOptions = {}): RunStreams {
  const local = options.publisher && options.subscriber ? null : inProcessPubSub();
  const publisher = options.publisher ?? local!.publisher;
  const subscriber = options.subscriber ?? local!.subscriber;
  const keyPrefix = options.keyPrefix ?? "execute-code-ui";
  const context = createResumableStreamContext({ waitUntil: null, keyPrefix, publisher, subscriber });
  const stopChannel = (runId: string) => `${keyPrefix}:stop:${runId}`;
  const maxFollowers = options.maxFollowers ?? 8;
  // Followers of each run through this server: each costs a copy of the stream so far and a subscription.
  const followers = new Map<string, number>();
  const counted = (runId: string, stream: ReadableStream<string>) => {
    followers.set(runId, (followers.get(runId) ?? 0) + 1);
    return readToEnd(stream, () => {
      const left = (followers.get(runId) ?? 1) - 1;
      if (left > 0) followers.set(runId, left);
      else followers.delete(runId);
    });
  };

  return {
    async keep(runId, stream, stop) {
      const channel = stopChannel(runId);
      await subscriber.subscribe(channel, () => stop());
      const started = await context.createNewResumableStream(runId, () =>
        readToEnd(stream, () => void subscriber.unsubscribe(channel)),
      );
      if (!started) throw new Error(`The run ${runId} was kept already.`);
      return started;
    },
    async follow(runId) {
      if ((followers.get(runId) ?? 0) >= maxFollowers)
        throw new TooManyFollowers(`This run is followed ${maxFollowers} times already.`);
      let live: ReadableStream<string> | null | undefined;
      try {
        live = await context.resumeExistingStream(runId);
      } catch {
        // Its server went away without saying so.
        return null;
      }
      return live ? counted(runId, live) : null;
    },
    async stop(runId) {
      await publisher.publish(stopChannel(runId), "stop");
    },
    async isLive(runId) {
      // In this process the marker is enough; through Redis only the keeping server's answer is.
      if (local) return (await context.hasExistingStream(runId)) === true;
      const live = await context.resumeExistingStream(runId).catch(() => null);
      await live?.cancel();
      return !!live;
    },
  };
}

/** `stream`, ended (never errored) when it ends, fails or its reader goes away, calling `onEnd` once. */
function readToEnd(stream: ReadableStream<string>, onEnd: () => void): ReadableStream<string> {
  const reader = stream.getReader();
  let ended = false;
  const endOnce = () => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
      } catch {
        // Ended below, as a stream that ends.
      }
      endOnce();
      controller.close();
    },
    cancel(reason) {
      endOnce();
      return reader.cancel(reason);
    },
  });
}

/** A pub/sub and key store in this process's memory, with Redis's meaning for what `resumable-stream` uses. */
export function inProcessPubSub(): { publisher: Publisher; subscriber: Subscriber } {
  const listeners = new Map<string, Set<(message: string) => void>>();
  const values = new Map<string, { value: string; expiresAt: number }>();
  const read = (key: string) => {
    const entry = values.get(key);
    if (entry && entry.expiresAt <= Date.now()) values.delete(key);
    return values.get(key)?.value ?? null;
  };
  const sweep = () => {
    for (const key of values.keys()) read(key);
  };
  let writes = 0;
  const write = (key: string, value: string, ttlSeconds?: number) => {
    values.set(key, { value, expiresAt: ttlSeconds === undefined ? Infinity : Date.now() + ttlSeconds * 1000 });
    if (++writes % 1000 === 0) sweep();
  };
  const publisher: Publisher = {
    connect: async () => undefined,
    async publish(channel, message) {
      const heard = [...(listeners.get(channel) ?? [])];
      // Delivered later, as a pub/sub server would, in the order published.
      queueMicrotask(() => {
        for (const listener of heard) listener(message);
      });
      return heard.length;
    },
    async set(key, value, setOptions) {
      write(key, value, setOptions?.EX);
      return "OK";
    },
    get: async (key) => read(key),
    async incr(key) {
      const now = read(key) ?? "0";
      if (!/^-?\d+$/.test(now)) throw new Error("ERR value is not an integer or out of range");
      const next = Number(now) + 1;
      const expiresAt = values.get(key)?.expiresAt ?? Infinity;
      values.set(key, { value: String(next), expiresAt });
      return next;
    },
  };
  const subscriber: Subscriber = {
    connect: async () => undefined,
    async subscribe(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
    },
    async unsubscribe(channel) {
      listeners.delete(channel);
    },
  };
  return { publisher, subscriber };
}
