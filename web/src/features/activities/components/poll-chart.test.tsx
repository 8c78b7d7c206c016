import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PollResultsChart } from "@/features/activities/components/poll-chart";
import { buildPollResults } from "@/features/activities/testing/research-fixtures";

describe("poll results chart", () => {
  it("reads each option's count and share of the respondents, with a bar as wide", () => {
    const { container } = render(<PollResultsChart results={buildPollResults()} />);

    const chart = screen.getByRole("region", { name: "Resultado da enquete" });
    expect(within(chart).getByText("12 respostas")).toBeInTheDocument();
    const rows = within(screen.getByRole("list", { name: "Qual tema você prefere?" })).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual(["Educação financeira5 (42%)", "Saúde7 (58%)"]);
    const widths = [...container.querySelectorAll<HTMLElement>(".poll-chart__bar")].map((bar) => bar.style.width);
    expect(widths).toEqual([`${(5 / 12) * 100}%`, `${(7 / 12) * 100}%`]);
  });

  it("shows empty bars before anyone has answered", () => {
    render(
      <PollResultsChart
        results={buildPollResults({ respondents: 1, questions: [{ id: 1, question: "Tema?", options: [{ id: 11, label: "A", count: 0 }] }] })}
      />,
    );
    expect(screen.getByText("1 resposta")).toBeInTheDocument();
    expect(screen.getByText("0 (0%)")).toBeInTheDocument();
  });
});
