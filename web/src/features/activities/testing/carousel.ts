// The featured carousel's timing, as the members' home and the visitors' landing both show it.
import { act, screen, within } from "@testing-library/react";
import { expect, vi } from "vitest";

const visibleSlide = (count: number) => screen.getByRole("group", { name: new RegExp(` de ${count}$`) });

/**
 * With fake timers on, the carousel of "Atividade 1" to "Atividade {count}" (count >= 2)
 * shows the first, moves on after 5 s (not before), then every 5 s, and wraps to the first.
 */
export async function expectCarouselAdvancesEvery5sAndWraps(count: number): Promise<void> {
  expect(visibleSlide(count)).toHaveAccessibleName(`1 de ${count}`);
  expect(within(visibleSlide(count)).getByText("Atividade 1")).toBeInTheDocument();

  await act(() => vi.advanceTimersByTimeAsync(4_000));
  expect(visibleSlide(count)).toHaveAccessibleName(`1 de ${count}`);
  await act(() => vi.advanceTimersByTimeAsync(1_000));
  expect(visibleSlide(count)).toHaveAccessibleName(`2 de ${count}`);
  expect(within(visibleSlide(count)).getByText("Atividade 2")).toBeInTheDocument();

  for (let shown = 3; shown <= count; shown += 1) {
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(visibleSlide(count)).toHaveAccessibleName(`${shown} de ${count}`);
  }
  await act(() => vi.advanceTimersByTimeAsync(5_000));
  expect(visibleSlide(count)).toHaveAccessibleName(`1 de ${count}`);
}
