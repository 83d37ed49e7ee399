// The demo's chats on the server: create, open, restore, through the harness's /api.
import type { UIMessage } from "ai";
import { executeCodeClientTool } from "../../client-executor/index.js";

export type RunWhere = "server" | "browser";

const CHAT_KEY = "demo-chat";
export const MID_RUN = new Set(["running", "pending"]);
export const ASK_KEY = "demo-ask-before-running";

// Read when a browser-run call arrives: the same switch gates both kinds of chat.
export const askBeforeRunning = { current: localStorage.getItem(ASK_KEY) === "true" };

export interface DemoChat {
  id: string;
  runWhere: RunWhere;
  messages: UIMessage[];
  /** A run of it is going on (started before this page loaded): the page follows it. */
  midRun: boolean;
}

/** What the server said in a refusal's JSON body (`{ error, message }`), if anything. */
export function refusalMessage(body: unknown): string | null {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === "string" ? message : null;
}

export async function api<T>(path: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const response = await fetch(path, {
    ...init,
    headers: { "content-type": "application/json", ...init?.headers },
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as T };
}

/** A new chat on the server: in browser mode, with execute_code as a tool this page runs. */
export async function createChat(runWhere: RunWhere): Promise<DemoChat> {
  const { status, body } = await api<{ id: string }>("/api/chats", {
    method: "POST",
    body: JSON.stringify({
      tools: runWhere === "browser" ? [executeCodeClientTool] : [],
      confirmCodeExecution: askBeforeRunning.current,
    }),
  });
  if (status !== 201) {
    const said = refusalMessage(body);
    throw new Error(`The chat could not be created (${status}${said === null ? "" : `: ${said}`}).`);
  }
  return { id: body.id, runWhere, messages: [], midRun: false };
}

/** The chat a reload reopens: the one on screen, written once the page shows it. */
export function rememberChat({ id, runWhere }: DemoChat): void {
  localStorage.setItem(CHAT_KEY, JSON.stringify({ id, runWhere }));
}

/**
 * A stored chat as the server keeps it (null when there is none), run in
 * this browser when the page runs its execute_code; a server that cannot
 * answer now (busy, failing) is an error, not a chat that is gone.
 */
export async function openChat(id: string): Promise<DemoChat | null> {
  const { status, body } = await api<{ status: string; messages: UIMessage[]; tools: Array<{ name: string }> }>(
    `/api/chats/${encodeURIComponent(id)}`,
  );
  if (status === 404) return null;
  if (status !== 200) {
    const said = refusalMessage(body);
    throw new Error(`The chat could not be opened (${status}${said === null ? "" : `: ${said}`}).`);
  }
  const runWhere: RunWhere = body.tools.some((tool) => tool.name === "execute_code") ? "browser" : "server";
  return { id, runWhere, messages: body.messages, midRun: MID_RUN.has(body.status) };
}

/** The chat this browser had, as the server keeps it; a new one when there is none. */
export async function restoreChat(): Promise<DemoChat> {
  try {
    const saved = JSON.parse(localStorage.getItem(CHAT_KEY) ?? "null") as { id?: string } | null;
    const chat = saved?.id ? await openChat(saved.id) : null;
    if (chat) return chat;
  } catch {
    // Start afresh.
  }
  const created = await createChat("server");
  rememberChat(created);
  return created;
}
