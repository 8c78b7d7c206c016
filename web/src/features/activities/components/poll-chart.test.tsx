import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { NO_CHART_DATA_TEXT, PollResultsChart } from "@/features/activities/components/poll-chart";
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

  it("says there is nothing to see when no one has answered", () => {
    render(<PollResultsChart results={buildPollResults({ respondents: 0 })} />);

    const chart = screen.getByRole("region", { name: "Resultado da enquete" });
    expect(within(chart).getByText(NO_CHART_DATA_TEXT)).toBeInTheDocument();
    expect(NO_CHART_DATA_TEXT).toBe("Não há dados para visualização");
    expect(within(chart).queryByRole("list")).not.toBeInTheDocument();
  });

  it("says so for a question without options, beside the others' bars", () => {
    render(
      <PollResultsChart
        results={buildPollResults({
          respondents: 2,
          questions: [
            { id: 1, question: "Tema?", options: [] },
            { id: 2, question: "Dia?", options: [{ id: 21, label: "Sábado", count: 2 }] },
          ],
        })}
      />,
    );

    expect(screen.getByText("Não há dados para visualização")).toBeInTheDocument();
    expect(screen.getByRole("list", { name: "Dia?" })).toBeInTheDocument();
  });
});
