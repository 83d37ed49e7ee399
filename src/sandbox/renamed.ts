// The sandbox's entries under the names they had while it was called a mock
// sandbox, for code written against 0.2: the same functions and types.
import { createSandbox, type SandboxOptions } from "./service.js";
import { startSandbox, type StartedSandbox, type StartSandboxOptions } from "./start-sandbox.js";

/** @deprecated Renamed `createSandbox`: it is the sandbox a course deploys, not a mock. */
export const createMockSandbox = createSandbox;
/** @deprecated Renamed `SandboxOptions`. */
export type MockSandboxOptions = SandboxOptions;
/** @deprecated Renamed `startSandbox`. */
export const startMockSandbox = startSandbox;
/** @deprecated Renamed `StartSandboxOptions`. */
export type StartMockSandboxOptions = StartSandboxOptions;
/** @deprecated Renamed `StartedSandbox`. */
export type StartedMockSandbox = StartedSandbox;
