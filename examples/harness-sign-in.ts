import { startHarness, type HarnessOptions } from "execute-code-ui/harness";
import { mySession } from "./your-app"; // yours: your sign-in

export const startSignedInHarness = (options: HarnessOptions = {}) =>
  startHarness({
    ...options,
    // From your session or auth proxy; null answers 401. No cookie is set.
    getParticipantId: async (req) => (await mySession(req))?.userId ?? null,
  });
