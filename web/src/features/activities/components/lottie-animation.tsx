// A feedback animation. The player (lottie-web's light build: SVG, no expressions, so no
// eval under the Content-Security-Policy) is fetched only when an animation is shown, in its
// own chunk (vite.config.ts keeps it out of the vendor chunk of the first load).
import { useEffect, useRef } from "react";
import { useLottieAnimation } from "@/features/activities/api/get-activity";

export function LottieAnimation({ id }: { id: number }) {
  const animation = useLottieAnimation(id);
  const containerRef = useRef<HTMLDivElement>(null);
  const data = animation.data;

  useEffect(() => {
    const container = containerRef.current;
    if (!container || !data) return;
    let destroy: (() => void) | undefined;
    let cancelled = false;
    const reducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
    void import("lottie-web/build/player/lottie_light").then(({ default: lottie }) => {
      if (cancelled) return;
      const player = lottie.loadAnimation({
        container,
        renderer: "svg",
        loop: false,
        autoplay: !reducedMotion,
        animationData: data,
      });
      destroy = () => player.destroy();
    });
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [data]);

  if (!data) return null;
  return <div ref={containerRef} className="feedback-dialog__animation" aria-hidden="true" data-testid="lottie-animation" />;
}
