// jsdom has no IntersectionObserver: this stand-in records what is observed and lets a test
// bring it into view, as scrolling would.
import { act } from "@testing-library/react";
import { vi } from "vitest";

export function stubIntersectionObserver() {
  const observers = new Set<FakeIntersectionObserver>();

  class FakeIntersectionObserver {
    readonly targets = new Set<Element>();
    constructor(private readonly callback: IntersectionObserverCallback) {
      observers.add(this);
    }
    observe(target: Element) {
      this.targets.add(target);
    }
    unobserve(target: Element) {
      this.targets.delete(target);
    }
    disconnect() {
      this.targets.clear();
      observers.delete(this);
    }
    takeRecords(): IntersectionObserverEntry[] {
      return [];
    }
    report(isIntersecting: boolean) {
      const entries = [...this.targets].map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry);
      if (entries.length > 0) this.callback(entries, this as unknown as IntersectionObserver);
    }
  }

  vi.stubGlobal("IntersectionObserver", FakeIntersectionObserver);
  return {
    /** How many elements are observed now. */
    observedCount: () => [...observers].reduce((count, observer) => count + observer.targets.size, 0),
    /** Every observed element comes into view. */
    scrollIntoView: () =>
      act(async () => {
        [...observers].forEach((observer) => observer.report(true));
        await Promise.resolve();
      }),
  };
}
