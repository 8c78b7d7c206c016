import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PIX_STEPS, PixPanel } from "@/features/commerce/components/pix-panel";

const NOW = new Date("2026-11-24T12:00:00.000Z");
const CODE =
  "00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a995204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304EEAB";

async function elapse(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function renderPanel(props: Partial<Parameters<typeof PixPanel>[0]> = {}) {
  const onExpire = vi.fn();
  const onVerify = vi.fn();
  render(
    <PixPanel
      amountCents={123456}
      qrImageSrc="/api/commerce/orders/12/pix-qr.png"
      code={CODE}
      expiresAt={new Date(NOW.getTime() + 30 * 60 * 1000).toISOString()}
      onExpire={onExpire}
      onVerify={onVerify}
      {...props}
    />,
  );
  return { onExpire, onVerify };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  Object.defineProperty(window.navigator, "clipboard", { value: undefined, configurable: true });
});

describe("PixPanel", () => {
  it("shows the amount, the QR code, the code and five steps", () => {
    renderPanel();

    const panel = screen.getByRole("region", { name: "Pagamento com PIX" });
    expect(within(panel).getByText("R$ 1.234,56")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "QR Code do pagamento PIX" })).toHaveAttribute(
      "src",
      "/api/commerce/orders/12/pix-qr.png",
    );
    expect(screen.getByRole("textbox", { name: "Código PIX copia e cola" })).toHaveValue(CODE);
    expect(screen.getByRole("textbox", { name: "Código PIX copia e cola" })).toHaveAttribute("readonly");

    const steps = within(screen.getByRole("list", { name: "Como pagar" })).getAllByRole("listitem");
    expect(steps.map((step) => step.textContent)).toEqual([...PIX_STEPS]);
    expect(steps).toHaveLength(5);
    expect(steps[4]).toHaveTextContent("'Verificar pagamento'");
  });

  it("draws the QR code of the BR Code itself when the server sends no image", () => {
    renderPanel({ qrImageSrc: null });

    const qr = screen.getByRole("img", { name: "QR Code do pagamento PIX" });
    expect(qr.tagName.toLowerCase()).toBe("svg");
    expect(qr).toHaveAttribute("data-qr-value", CODE);
  });

  it("copies the code, and the button reads 'Copiado'", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(window.navigator, "clipboard", { value: { writeText }, configurable: true });
    renderPanel();

    fireEvent.click(screen.getByRole("button", { name: "Copiar código" }));
    await elapse(0);

    expect(writeText).toHaveBeenCalledWith(CODE);
    expect(screen.getByRole("button", { name: "Copiado" })).toBeInTheDocument();
  });

  it("asks for a check on 'Verificar pagamento'", () => {
    const { onVerify } = renderPanel();
    fireEvent.click(screen.getByRole("button", { name: "Verificar pagamento" }));
    expect(onVerify).toHaveBeenCalledTimes(1);
  });

  it("keeps the focus on 'Verificar pagamento' and ignores clicks while checking", () => {
    const { onVerify } = renderPanel({ verifying: true });
    const verify = screen.getByRole("button", { name: "Verificar pagamento" });

    expect(verify).toHaveAttribute("aria-busy", "true");
    expect(verify).toHaveAttribute("aria-disabled", "true");
    fireEvent.click(verify);
    expect(onVerify).not.toHaveBeenCalled();
  });

  it("counts down to the charge's expiry and tells once when it is up", async () => {
    const { onExpire } = renderPanel({ expiresAt: new Date(NOW.getTime() + 90 * 1000).toISOString() });
    const timer = screen.getByRole("timer", { name: "O código expira em" });
    expect(timer).toHaveTextContent("01:30");

    await elapse(1000);
    expect(timer).toHaveTextContent("01:29");
    await elapse(89_000);
    expect(timer).toHaveTextContent("00:00");
    expect(onExpire).toHaveBeenCalledTimes(1);
    await elapse(5000);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it("shows the caller's extra actions", () => {
    renderPanel({
      children: (
        <button type="button" className="button button--secondary">
          Simular pagamento
        </button>
      ),
    });
    expect(screen.getByRole("button", { name: "Simular pagamento" })).toBeInTheDocument();
  });
});
