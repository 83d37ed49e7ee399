// A share of the model per student and day, counted in tokens.
import type { ModelBudget } from "execute-code-ui/server";

const TOKENS_PER_DAY = 200_000;
const used = new Map<string, number>(); // yours: a table, so that it outlives a restart and serves every server
const key = (participantId: string) => `${new Date().toISOString().slice(0, 10)} ${participantId}`;

export const dailyShare: ModelBudget = {
  admit: (participantId) =>
    (used.get(key(participantId)) ?? 0) >= TOKENS_PER_DAY
      ? "You have used today's share of the tutor. It is yours again tomorrow."
      : null,
  spent: ({ participantId, usage }) => {
    used.set(key(participantId), (used.get(key(participantId)) ?? 0) + (usage.totalTokens ?? 0));
  },
};

// createChatEndpoints({ …, modelBudget: dailyShare })
