import {
  convertToModelMessages,
  JsonToSseTransformStream,
  stepCountIs,
  streamText,
  UI_MESSAGE_STREAM_HEADERS,
  type LanguageModel,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { toldExpired } from "../tool/approval-expiry.js";
import { pendingApprovals, pendingCalls, settleStoppedCalls } from "./calls.js";
import type { ChatLogEvent, ModelBudget } from "./options.js";
import type { RunStreams } from "./run-streams.js";
import type { ChatEvent } from "./status.js";
import { attachmentsInWords } from "./attachments.js";
import type { ChatRecord, ChatStore } from "./store.js";

/** The id a run of a chat is kept under: one per run, the same on every server reading the chat. */
export const runIdOf = (chat: Pick<ChatRecord, "owner" | "id" | "version">) =>
  `run:${encodeURIComponent(chat.owner)}:${encodeURIComponent(chat.id)}:${chat.version}`;

/** A run's SSE stream as the AI SDK reads it. */
export const streamResponse = (live: ReadableStream<string>) =>
  new Response(live.pipeThrough(new TextEncoderStream()), {
    headers: { ...UI_MESSAGE_STREAM_HEADERS, "cache-control": "no-store" },
  });

/** How often a running chat is marked as still being run. */
export const HEARTBEAT_MS = 5_000;

/** A run started: its live SSE stream, and when its end is stored. */
export interface ModelRun {
  live: ReadableStream<string>;
  settled: Promise<void>;
  chatId: string;
  owner: string;
}

export interface ModelRunsOptions {
  model: LanguageModel;
  instructions?: string;
  maxSteps: number;
  store: ChatStore;
  streams: RunStreams;
  /** The tools of one run of the chat. */
  /** The tools of one run; `client` is its request's (`ChatCaller.client`). */
  toolSet: (chat: ChatRecord, client?: string) => ToolSet;
  /** Moves the stored chat (a conditional write); null when another write came first. */
  move: (
    chat: ChatRecord,
    event: ChatEvent,
    change?: Partial<Pick<ChatRecord, "messages" | "approvals" | "error">>,
  ) => Promise<ChatRecord | null>;
  describeError: (error: unknown) => string;
  log: (event: ChatLogEvent) => void;
  now: () => number;
  /** Called once a run's end is stored. */
  onEnd: (chat: ChatRecord) => void;
  /** Told what each call of the model used, as it ends. */
  spent?: ModelBudget["spent"];
}

/** The model loop of a chat, run on the server and kept in `streams` while it runs. */
export function createModelRuns(deps: ModelRunsOptions) {
  // Signs approval requests so that an answer only approves the exact call that was shown; kept in the store so it outlives a restart.
  let approvalSecret: Promise<Uint8Array> | undefined;
  // The runs of this process, so that a server that shuts down stores how each ended.
  const running = new Set<{ stop: () => void; settled: Promise<void> }>();
  // The chats this process runs now, so that a request on one can be answered before the store is read.
  const runningChats = new Map<string, number>();
  const chatKey = (owner: string, chatId: string) => `${owner}\u0000${chatId}`;

  /**
   * One run of the model loop for a chat the caller has moved to `running`.
   * It belongs to the chat, not to the request: it goes on when the client
   * goes away, until it ends or someone stops it. When it ends, the chat is
   * stored with what it awaits, if anything.
   */
  async function start(chat: ChatRecord, expiredCallIds: ReadonlySet<string>, client?: string): Promise<ModelRun> {
    const stopping = new AbortController();
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    let stream: ReadableStream<UIMessageChunk>;
    let finishChunk: UIMessageChunk | undefined;
    try {
      approvalSecret ??= deps.store.secret("approval");
      const tools = deps.toolSet(chat, client);
      const result = streamText({
        model: deps.model,
        instructions: deps.instructions,
        messages: await convertToModelMessages(attachmentsInWords(chat.messages), {
          tools,
          ignoreIncompleteToolCalls: true,
        }),
        tools,
        stopWhen: stepCountIs(deps.maxSteps),
        // Stopped through `POST /api/chats/:id/stop`; the chat keeps what was done.
        abortSignal: stopping.signal,
        experimental_toolApprovalSecret: await approvalSecret,
        // A failure is stored with the chat (and logged as chat_failed), not printed.
        onError: () => undefined,
        // Each call of the model, as it ends: a run stopped later has still cost its calls. A budget that fails
        // to count must not fail the run.
        onStepEnd: ({ usage }) =>
          void Promise.resolve()
            .then(() => deps.spent?.({ participantId: chat.owner, chatId: chat.id, usage }))
            .catch(() => undefined),
      });
      stream = result
        .toUIMessageStream({
          originalMessages: chat.messages,
          generateMessageId: () => `msg_${crypto.randomUUID()}`,
          onError: deps.describeError,
          onEnd: async ({ messages, outcome }) => {
            try {
              // A stop can leave calls without results; the chat must stay readable to the model.
              const ended = stopping.signal.aborted
                ? settleStoppedCalls(messages, new Set(chat.tools.map((spec) => spec.name)))
                : messages;
              await finish(chat, ended, outcome.status === "failed" ? deps.describeError(outcome.error) : null);
            } finally {
              settle();
            }
          },
        })
        .pipeThrough(
          new TransformStream<UIMessageChunk, UIMessageChunk>({
            transform(chunk, controller) {
              // The run's end is told once it is stored (onEnd runs before this stream flushes).
              if (chunk.type === "finish") {
                finishChunk = chunk;
                return;
              }
              controller.enqueue(toldExpired(chunk, expiredCallIds));
            },
            flush(controller) {
              if (finishChunk) controller.enqueue(finishChunk);
            },
          }),
        );
    } catch (error) {
      await finish(chat, chat.messages, deps.describeError(error));
      throw error;
    }
    const sse = stream.pipeThrough(new JsonToSseTransformStream());
    let live: ReadableStream<string>;
    try {
      live = await deps.streams.keep(runIdOf(chat), sse, () => stopping.abort());
    } catch (error) {
      // Nowhere to keep it (the pub/sub is down): the run stops, and its end is stored.
      stopping.abort();
      void sse.pipeTo(new WritableStream()).catch(() => undefined);
      throw error;
    }
    // The heartbeat: while the run goes on, the stored chat says so.
    const beat = setInterval(() => void deps.store.touch?.(chat, deps.now()).catch(() => undefined), HEARTBEAT_MS);
    beat.unref?.();
    void settled.finally(() => clearInterval(beat));
    const entry = { stop: () => stopping.abort(), settled };
    running.add(entry);
    const key = chatKey(chat.owner, chat.id);
    runningChats.set(key, (runningChats.get(key) ?? 0) + 1);
    void settled.finally(() => {
      running.delete(entry);
      const left = runningChats.get(key)! - 1;
      if (left) runningChats.set(key, left);
      else runningChats.delete(key);
    });
    return { live, settled, chatId: chat.id, owner: chat.owner };
  }

  /** Stores the end of a run: awaiting the client, done, or failed. */
  async function finish(chat: ChatRecord, messages: UIMessage[], failure: string | null) {
    const ended = { ...chat, messages };
    const awaited = { calls: pendingCalls(ended), approvals: pendingApprovals(ended) };
    let moved: ChatRecord | null;
    if (failure !== null) {
      moved = await deps.move(chat, "fail", { messages, error: failure });
      deps.log({ type: "chat_failed", chatId: chat.id, message: failure });
    } else if (awaited.calls.length || awaited.approvals.length) {
      const time = deps.now();
      moved = await deps.move(chat, "wait", {
        messages,
        approvals: Object.fromEntries(
          awaited.approvals.map((request) => [request.approvalId, chat.approvals[request.approvalId] ?? time]),
        ),
      });
    } else {
      moved = await deps.move(chat, "finish", { messages });
    }
    if (!moved)
      deps.log({
        type: "chat_failed",
        chatId: chat.id,
        message: "The chat was changed elsewhere while it ran; this run's end was not stored.",
      });
    deps.onEnd(chat);
  }

  /** Stops every run of this process and waits (at most `waitMs`) until their ends are stored. */
  async function stopAll(waitMs: number): Promise<void> {
    const ends = [...running].map((run) => {
      run.stop();
      return run.settled;
    });
    await Promise.race([Promise.all(ends), new Promise((resolve) => setTimeout(resolve, waitMs))]);
  }

  /** Whether this process runs the chat now. */
  const isRunning = (owner: string, chatId: string) => runningChats.has(chatKey(owner, chatId));

  return { start, stopAll, isRunning };
}
