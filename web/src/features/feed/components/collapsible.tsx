import { useEffect, useState, type ReactNode } from "react";

/** The spec's comment panel animation. */
export const PANEL_ANIMATION_MS = 200;

interface CollapsibleProps {
  open: boolean;
  id: string;
  label: string;
  children: ReactNode;
}

/**
 * A panel that slides open and closed in 200 ms. Its content mounts when it opens (so its
 * reads are made afresh each time) and unmounts once it has closed.
 */
export function Collapsible({ open, id, label, children }: CollapsibleProps) {
  const [mounted, setMounted] = useState(open);
  // Opening shows the content at once; closing leaves it in place while it slides away.
  if (open && !mounted) setMounted(true);

  useEffect(() => {
    if (open || !mounted) return;
    const timer = window.setTimeout(() => setMounted(false), PANEL_ANIMATION_MS);
    return () => window.clearTimeout(timer);
  }, [open, mounted]);

  if (!mounted) return null;
  return (
    <div
      id={id}
      role="region"
      aria-label={label}
      className={open ? "feed-panel" : "feed-panel feed-panel--closing"}
      inert={!open}
    >
      {children}
    </div>
  );
}
