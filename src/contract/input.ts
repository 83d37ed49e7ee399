import * as z from "zod/mini";

/** The longest program the tool accepts, in characters. */
export const MAX_CODE_LENGTH = 20_000;

/** The longest title the tool accepts, in characters; the card shows at most 80 of it. */
export const MAX_TITLE_LENGTH = 200;

/** What the model sends: a Python program. The language is fixed by the server. */
export const executeCodeInputSchema = z.object({
  // First, so that a model writes it (and the card shows it) before the program.
  title: z.optional(
    z
      .string()
      .check(
        z.maxLength(MAX_TITLE_LENGTH, `The title is longer than ${MAX_TITLE_LENGTH} characters.`),
        z.describe(
          "A few words on what the program does, shown to the student as its title (e.g. 'Mean score per group').",
        ),
      ),
  ),
  code: z
    .string()
    .check(
      z.minLength(1, "The program is empty."),
      z.maxLength(MAX_CODE_LENGTH, `The program is longer than ${MAX_CODE_LENGTH.toLocaleString("en")} characters.`),
      z.describe("The complete Python 3 program to run. Print what you want to see."),
    ),
  restart: z.optional(
    z
      .boolean()
      .check(
        z.describe(
          "Where the chat's runs share one Python session: true starts this program in a fresh one, without the variables and imports of earlier runs.",
        ),
      ),
  ),
});

export type ExecuteCodeInput = z.infer<typeof executeCodeInputSchema>;
