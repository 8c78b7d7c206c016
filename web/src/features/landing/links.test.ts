import { describe, expect, it } from "vitest";
import { linkTarget } from "@/features/landing/links";

describe("a landing link by its link_type", () => {
  it("leads to the spec's places", () => {
    expect(linkTarget({ link_type: "nolink" })).toBeNull();
    expect(linkTarget({ link_type: "login" })).toEqual({ href: "/login", external: false, label: "Entrar" });
    expect(linkTarget({ link_type: "signup" })).toEqual({ href: "/cadastrar", external: false, label: "Cadastre-se" });
    expect(linkTarget({ link_type: "additional", about_page_id: 4, button_label: "Conheça" })).toEqual({
      href: "/sobre/4",
      external: false,
      label: "Conheça",
    });
    expect(linkTarget({ link_type: "external", external_link: "https://www.gov.br" })).toEqual({
      href: "https://www.gov.br",
      external: true,
      label: "Saiba mais",
    });
  });

  it("shows no button for a link that leads nowhere safe", () => {
    expect(linkTarget({ link_type: "additional", about_page_id: null })).toBeNull();
    expect(linkTarget({ link_type: "external", external_link: "javascript:alert(1)" })).toBeNull();
    expect(linkTarget({ link_type: "external", external_link: null })).toBeNull();
  });
});
