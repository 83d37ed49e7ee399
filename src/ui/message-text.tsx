"use client";

import { useMemo } from "react";
import { messageSegments } from "../view/message-segments.js";
import { revealInvisible } from "./visible-text.js";

const IN_CODE = { code: true };

/**
 * A chat message's text as its writer typed it: every space and line break
 * kept (assistant-ui's default text collapses a pasted program's
 * indentation), and each fenced block as code without its fences, marking
 * the invisible characters the card's code pane marks. Give it to
 * `MessagePrimitive.Parts` as `components={{ Text: ExecuteCodeMessageText }}`.
 */
export function MessageText({ text }: { text: string }) {
  const segments = useMemo(() => messageSegments(text), [text]);
  return (
    <div className="ecu-message-text">
      {segments.map((segment, index) =>
        segment.kind === "text" ? (
          <p key={index} className="ecu-message-prose">
            {segment.text}
          </p>
        ) : (
          <pre key={index} className="ecu-card ecu-message-code" data-language={segment.language || undefined}>
            <code>{revealInvisible(segment.code, IN_CODE)}</code>
          </pre>
        ),
      )}
    </div>
  );
}
