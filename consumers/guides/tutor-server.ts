// tutor-server.ts: the whole server side of the tutor chat, as one Web handler.
import { readFile } from "node:fs/promises";
import type { StartedSandbox } from "execute-code-ui/sandbox";
import {
  createChatEndpoints,
  createChatRoutes,
  createExecuteCodeTool,
  createPostgresChatStore,
  createRunFileRoute,
  createSandboxFiles,
  createSqliteChatStore,
  createUploadRoute,
  EXECUTE_CODE_SYSTEM_PROMPT,
  type ChatRouteHandler,
  type ModelBudget,
  type TokenMinterOptions,
} from "execute-code-ui/server";

// The harness's scripted model stands in for a real model until the environment names one, so this runs with
// no key. Programs run in the sandbox you deployed (`execute-code-ui-sandbox serve`, docs/sandbox.md) where
// SANDBOX_URL names it, else in one started here. Node loads these as they are (the sandbox starts Python from files inside the package).
const harness = () => import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "execute-code-ui/harness");
const sandboxModule = () => import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "execute-code-ui/sandbox");
let sandbox: Promise<StartedSandbox> | undefined;

async function sandboxService(): Promise<{ url: string; signing: TokenMinterOptions }> {
  const deployed = process.env.SANDBOX_URL;
  if (deployed) {
    // Signed with the private key `execute-code-ui-sandbox keygen` wrote.
    const keys = process.env.SANDBOX_KEYS_DIR ?? "sandbox-keys";
    const file = `${keys}/token-private.pem`;
    const privateKey = await readFile(/* turbopackIgnore: true */ file, "utf8");
    console.info(`Programs run in the sandbox at ${deployed}.`);
    return {
      url: deployed,
      signing: { privateKey, algorithm: "EdDSA", issuer: "execute-code-ui-sandbox", audience: "sandbox" },
    };
  }
  const { startSandbox } = await sandboxModule();
  const { url, signing, engine } = await (sandbox ??= startSandbox());
  console.info(`The sandbox runs Python in ${engine === "cpython" ? "CPython" : "Pyodide"} at ${url}.`);
  return { url, signing };
}

// What the course asks of its tutor, after the kit's words on running code: yours, in your course's words.
const COURSE_PROMPT = [
  "You tutor the students of an introductory course in Python and data analysis.",
  "Run code to compute, check and plot rather than guess, and say what its output shows.",
  "When a student's program fails, explain the error in plain words and point to its line; let them fix it.",
].join(" ");

// A real model where the environment names one (OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL and OPENAI_MODEL
// for any OpenAI-compatible server), else the harness's scripted model, which needs no key.
async function tutorModel() {
  const { createScriptedModel, modelFromEnv } = await harness();
  const real = await modelFromEnv();
  console.info(
    real ? `The tutor is ${real.name}.` : "The tutor is the scripted model: no OPENAI_API_KEY or OPENAI_BASE_URL.",
  );
  return real?.model ?? createScriptedModel();
}

// PostgreSQL where DATABASE_URL names it (for more than one server), else SQLite in data/.
const chatStore = () => {
  const url = process.env.DATABASE_URL;
  console.info(url ? "Chats are kept in PostgreSQL." : "Chats are kept in SQLite, in data/.");
  return url ? createPostgresChatStore({ connectionString: url }) : createSqliteChatStore({ dataDir: "data" });
};

// What the model may cost: each student's share of tokens a day (TOKENS_PER_STUDENT_PER_DAY), and six runs of it
// a minute at most. Counted in this server's memory: with more than one server, keep the counts in a table.
const TOKENS_PER_DAY = Number(process.env.TOKENS_PER_STUDENT_PER_DAY ?? 200_000);
let day = "";
const tokens = new Map<string, number>(); // today's, per student
const runs = new Map<string, number[]>(); // when each student's runs of the last minute started
const modelBudget: ModelBudget = {
  admit: (student) => {
    const now = Date.now();
    const date = new Date(now).toISOString().slice(0, 10);
    if (date !== day) {
      day = date;
      tokens.clear();
    }
    if ((tokens.get(student) ?? 0) >= TOKENS_PER_DAY)
      return "You have used today's share of the tutor. It is yours again tomorrow.";
    const recent = (runs.get(student) ?? []).filter((started) => now - started < 60_000);
    if (recent.length >= 6) return "That is six messages this minute: wait a moment, then send it again.";
    runs.set(student, [...recent, now]);
    return null;
  },
  spent: ({ participantId, usage }) =>
    void tokens.set(participantId, (tokens.get(participantId) ?? 0) + (usage.totalTokens ?? 0)),
};

/** Who is asking: the signed-in student's stable id, or null (answered 401). */
export type Student = (request: Request) => string | null | Promise<string | null>;

async function openRoutes(student: Student): Promise<ChatRouteHandler> {
  const { url, signing } = await sandboxService();
  const ctx = { sandboxUrl: url, signing, tenantId: "course-7" };
  const sandboxFiles = createSandboxFiles(ctx);
  const endpoints = createChatEndpoints({
    store: await chatStore(),
    model: await tutorModel(),
    instructions: `${EXECUTE_CODE_SYSTEM_PROMPT}\n\n${COURSE_PROMPT}`,
    modelBudget,
    // A question, or a program to run: a student's message needs no more (the kit's default is 100,000).
    limits: { maxMessageChars: 20_000 },
    attachments: sandboxFiles,
    tools: ({ participantId, files }) => ({ execute_code: createExecuteCodeTool({ ...ctx, participantId, files }) }),
  });
  return createChatRoutes({
    endpoints,
    files: createRunFileRoute(ctx),
    uploads: createUploadRoute({ ...ctx, sandboxFiles }),
    participantId: student,
  }).handle;
}

/** The chat's API for the students `student` names; opened with the first request, so a build opens no database. */
export function createTutorApi(student: Student): (request: Request) => Promise<Response> {
  let routes: Promise<ChatRouteHandler> | undefined;
  return async (request) => {
    // A failed start is tried again with the next request.
    routes ??= openRoutes(student).catch((error: unknown) => {
      routes = undefined;
      throw error;
    });
    return (await routes)(request);
  };
}

// Every visitor is the same student until the app has a sign-in (docs/pilot.md takes the student from one).
export const tutorApi = createTutorApi(() => "student-42");
