// Renders its children only once their place comes near the viewport (400 px ahead), so a
// section's code, calls and media load when the visitor scrolls towards it, not with the
// page. Without IntersectionObserver (old browsers) it renders at once.
import { useEffect, useRef, useState, type ReactNode } from "react";

interface NearViewportProps {
  children: ReactNode;
  /** Holds the place meanwhile, so the page does not jump (a min-height in CSS). */
  className?: string;
}

export function NearViewport({ children, className = "landing-placeholder" }: NearViewportProps) {
  const [near, setNear] = useState(() => typeof IntersectionObserver === "undefined");
  const place = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = place.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: "400px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);

  if (near) return <>{children}</>;
  return <div ref={place} className={className} aria-hidden="true" />;
}
