import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// A lazy chunk or the highlighter takes a few milliseconds on a quiet machine and seconds on a
// busy one: `findBy…` and `waitFor` wait for it that long, and a check that holds passes at once.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => cleanup());
