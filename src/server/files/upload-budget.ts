// The uploads' share of memory: a body budget in the words of files.
import { createBodyBudget, DEFAULT_BODY_RATE, type BodyBudgetOptions, type BodyRefusals } from "../http/body-budget.js";
import { HttpRefusal } from "../http/http.js";

/** The shared parts of a budget as the upload route and the harness's sandbox use them. */
export const DEFAULT_UPLOAD_BUDGET = {
  maxBytesInFlight: 128 * 1024 * 1024,
  ...DEFAULT_BODY_RATE,
} as const;

const UPLOAD_REFUSALS: BodyRefusals = {
  busy: () =>
    new HttpRefusal(
      503,
      "server_busy",
      "The server is taking many files at once; try again in a moment.",
      {},
      { "retry-after": "5" },
    ),
  clientBusy: () =>
    new HttpRefusal(
      429,
      "uploads_in_progress",
      "Many files from your network are on their way already; try again in a moment.",
      {},
      { "retry-after": "5" },
    ),
  participantBusy: () =>
    new HttpRefusal(
      429,
      "uploads_in_progress",
      "Your other files on their way are as much as one student may send at once; wait for them.",
      {},
      { "retry-after": "2" },
    ),
  tooSlow: () =>
    new HttpRefusal(
      408,
      "upload_too_slow",
      "The file arrived too slowly and was not kept; check the connection and try again.",
    ),
};

export const createUploadBudget = (options: BodyBudgetOptions) => createBodyBudget(options, UPLOAD_REFUSALS);
