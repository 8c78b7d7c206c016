import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";
import "./modal.css";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE));
}

/**
 * Keeps Tab and Shift+Tab cycling inside the dialog, also from the dialog itself (which
 * holds the focus when nothing in it can, or after a click on its text).
 */
function trapFocus(event: KeyboardEvent<HTMLElement>, container: HTMLElement): void {
  const focusable = focusableIn(container);
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const index = focusable.indexOf(document.activeElement as HTMLElement);
  if (event.shiftKey && index <= 0) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (index === -1 || index === focusable.length - 1)) {
    event.preventDefault();
    first.focus();
  }
}

interface ModalProps {
  title: string;
  children: ReactNode;
  /** Called on Escape or a click outside; a modal without it cannot be dismissed. */
  onDismiss?: () => void;
}

/** A dialog that slides up over the page and keeps the keyboard inside it. */
export function Modal({ title, children, onDismiss }: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog) (focusableIn(dialog)[0] ?? dialog).focus();
    document.body.classList.add("has-modal");
    return () => {
      document.body.classList.remove("has-modal");
      previouslyFocused?.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape" && onDismiss) {
      // Only this dialog closes, not a page behind it that listens for Escape too.
      event.stopPropagation();
      onDismiss();
    }
    if (event.key === "Tab" && dialogRef.current) trapFocus(event, dialogRef.current);
  };

  return createPortal(
    <div
      className="modal-backdrop"
      onClick={(event) => {
        if (event.target === event.currentTarget) onDismiss?.();
      }}
    >
      <div
        ref={dialogRef}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        {children}
      </div>
    </div>,
    document.body,
  );
}
