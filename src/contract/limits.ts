/** How much of each stream a result keeps, wherever the code ran: the model reads it, and so does the chat's store. */
export const DEFAULT_MAX_STDOUT_CHARS = 8_000;
export const DEFAULT_MAX_STDERR_CHARS = 4_000;
/** How long a program may run before it is stopped. */
export const DEFAULT_TIMEOUT_MS = 60_000;
