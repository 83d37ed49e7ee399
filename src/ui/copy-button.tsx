"use client";

import { Check, Copy } from "lucide";
import { useEffect, useState } from "react";
import { cn } from "./cn.js";
import { Icon } from "./icon.js";
import { slotName } from "../view/slots.js";

export interface CopyButtonProps {
  /** The text copied; a function so large output is only joined when clicked. */
  text: string | (() => string);
  label: string;
  copiedLabel: string;
  className?: string;
}

export function CopyButton({ text, label, copiedLabel, className }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <button
      type="button"
      data-slot={slotName("copy")}
      aria-label={copied ? copiedLabel : label}
      title={label}
      className={cn("ecu-icon-button", className)}
      onClick={() => {
        const value = typeof text === "function" ? text() : text;
        navigator.clipboard?.writeText(value).then(
          () => setCopied(true),
          () => undefined,
        );
      }}
    >
      <Icon node={copied ? Check : Copy} aria-hidden className="ecu:size-3.5" />
    </button>
  );
}
