import { z } from "zod";

/** The longest program the tool accepts, in characters. */
export const MAX_CODE_LENGTH = 20_000;

/** What the model sends: a Python program. The language is fixed by the server. */
export const executeCodeInputSchema = z.object({
  code: z
    .string()
    .min(1, "The program is empty.")
    .max(
      MAX_CODE_LENGTH,
      `The program is longer than ${MAX_CODE_LENGTH.toLocaleString("en")} characters.`,
    )
    .describe("The complete Python 3 program to run. Print what you want to see."),
});

export type ExecuteCodeInput = z.infer<typeof executeCodeInputSchema>;
