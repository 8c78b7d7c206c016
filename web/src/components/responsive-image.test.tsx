import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { IMAGE_SIZES, ResponsiveImage } from "@/components/responsive-image";

const SRCSET = "/api/media/a.480w.jpg 480w, /api/media/a.960w.jpg 960w, /api/media/a.png 1200w";

describe("ResponsiveImage", () => {
  it("offers every width with the layout's sizes, decoded async and lazy by default", () => {
    render(<ResponsiveImage src="/api/media/a.png" srcSet={SRCSET} sizes={IMAGE_SIZES.cards} alt="Capa" />);
    const image = screen.getByRole("img", { name: "Capa" });
    expect(image).toHaveAttribute("src", "/api/media/a.png");
    expect(image).toHaveAttribute("srcset", SRCSET);
    expect(image).toHaveAttribute("sizes", IMAGE_SIZES.cards);
    expect(image).toHaveAttribute("loading", "lazy");
    expect(image).toHaveAttribute("decoding", "async");
  });

  it("is the original alone until the copies exist, and eager above the fold", () => {
    const { container } = render(
      <ResponsiveImage src="/api/media/a.png" srcSet={null} sizes={IMAGE_SIZES.fullWidth} lazy={false} />,
    );
    const image = container.querySelector("img");
    expect(image).not.toHaveAttribute("srcset");
    expect(image).not.toHaveAttribute("sizes");
    expect(image).toHaveAttribute("loading", "eager");
    expect(image).toHaveAttribute("alt", "");
  });
});
