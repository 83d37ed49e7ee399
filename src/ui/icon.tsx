import type { IconNode } from "lucide";
import { createElement, type SVGProps } from "react";

export type { IconNode };

/**
 * A Lucide icon, drawn from the `lucide` package's data with the attributes
 * Lucide's React components give it. (perf) Lucide's React package brings a
 * runtime of its own (context, prop merging) worth more gzipped bytes than
 * the card's fifteen icons.
 */
export function Icon({ node, ...props }: { node: IconNode } & SVGProps<SVGSVGElement>) {
  return (
    <svg
      aria-hidden="true"
      xmlns="http://www.w3.org/2000/svg"
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      {...props}
    >
      {node.map(([tag, attributes], i) => createElement(tag, { key: i, ...attributes }))}
    </svg>
  );
}
