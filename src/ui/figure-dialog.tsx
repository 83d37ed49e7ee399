"use client";

import { Dialog } from "radix-ui";
import { type ReactNode, useCallback, useState } from "react";
import { slotName } from "../view/slots.js";
import { VisibleText } from "./visible-text.js";

export interface FigureDialogProps {
  /** The scheme of the card it enlarges a figure of. */
  scheme: "light" | "dark";
  title: string;
  image: ReactNode;
  download: ReactNode;
  closeLabel: string;
  /** Said where the figure is wider than the screen: that it pans. */
  panLabel?: string;
  onClose: () => void;
  /** Takes the focus back once the dialog has gone: the figure's button. */
  onClosed: () => void;
}

const PAN_FIGURE = "Drag to see the whole figure; pinch to zoom.";

/** A figure wider than the screen (on a phone, at its own size) opens at its middle, with room to pan either way. */
function centre(body: HTMLDivElement) {
  // Right to left, scrollLeft counts from the right edge, in negatives.
  const sign = getComputedStyle(body).direction === "rtl" ? -1 : 1;
  body.scrollLeft = (sign * (body.scrollWidth - body.clientWidth)) / 2;
}

/** A figure at the size of the screen, over the page: mounted open, closed by Escape, the overlay or Close. */
export default function FigureDialog({
  scheme,
  title,
  image,
  download,
  closeLabel,
  panLabel = PAN_FIGURE,
  onClose,
  onClosed,
}: FigureDialogProps) {
  // Whether the figure is wider than its room: its sides are out of sight, and a phone shows no scrollbar.
  const [pans, setPans] = useState(false);
  const measure = useCallback((body: HTMLDivElement | null) => {
    if (!body) return;
    centre(body);
    setPans(body.scrollWidth > body.clientWidth + 1);
  }, []);
  return (
    <Dialog.Root open onOpenChange={(open) => open || onClose()}>
      <Dialog.Portal>
        {/* The card's tokens and scheme, outside the card: the dialog sits above the page, not in the thread. */}
        <div className="ecu-card ecu-figure-layer" data-theme={scheme}>
          <Dialog.Overlay className="ecu-figure-overlay" />
          <Dialog.Content
            data-slot={slotName("figure-dialog")}
            className="ecu-figure-dialog"
            aria-describedby={undefined}
            // There is no Dialog.Trigger to return the focus to: the figure's button takes it.
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              onClosed();
            }}
          >
            <Dialog.Title className="ecu-figure-dialog-title">
              <VisibleText text={title} />
            </Dialog.Title>
            <div ref={measure} className="ecu-figure-dialog-body">
              {image}
            </div>
            <div className="ecu-figure-dialog-actions">
              {pans && (
                <p className="ecu-figure-dialog-hint">
                  <VisibleText text={panLabel} />
                </p>
              )}
              {download}
              <Dialog.Close className="ecu-button">{closeLabel}</Dialog.Close>
            </div>
          </Dialog.Content>
        </div>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
