// The member services' pages, children of /homepage loaded when first opened (spec 002
// section 2: legal and accounting consultancy). Each shows only where the station offers
// its desk; elsewhere the address is not found.
import type { ComponentType } from "react";
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";
import type { Desk } from "@/features/services/desks";
import { DeskGate } from "@/features/services/components/desk-gate";

type Load = () => Promise<ComponentType>;

function deskRoute(desk: Desk, path: string, load: Load): RouteObject {
  return { path, element: <DeskGate desk={desk}>{lazyScreen(load)}</DeskGate> };
}

const legal = () => import("@/features/services/components/legal-pages");
const accounting = () => import("@/features/services/components/accounting-pages");
const political = () => import("@/features/services/components/political-pages");
const newsDetail = async () => (await import("@/features/services/components/service-news-detail-page")).ServiceNewsDetailPage;

export const serviceMemberRoutes: RouteObject[] = [
  deskRoute("legal", "consultoria-juridica", async () => (await legal()).LegalLandingPage),
  deskRoute("legal", "consultoria-juridica/processos", async () => (await legal()).LegalProcessesPage),
  deskRoute("legal", "consultoria-juridica/agendamentos", async () => (await legal()).LegalAppointmentsPage),
  deskRoute("legal", "consultoria-juridica/orientacoes", async () => (await legal()).LegalGuidancePage),
  deskRoute("legal", "consultoria-juridica/contato", async () => (await legal()).LegalContactsPage),
  deskRoute("legal", "consultoria-juridica/informacoes", async () => (await legal()).LegalInformationPage),
  deskRoute("legal", "consultoria-juridica/videos", async () => (await legal()).LegalVideosPage),
  deskRoute("legal", "consultoria-juridica/noticias", async () => (await legal()).LegalNewsPage),
  deskRoute("legal", "consultoria-juridica/noticias/detalhe", newsDetail),
  deskRoute("legal", "consultoria-juridica/eventos", async () => (await legal()).LegalEventsPage),
  deskRoute("accounting", "consultoria-contabil", async () => (await accounting()).AccountingLandingPage),
  deskRoute("accounting", "consultoria-contabil/processos", async () => (await accounting()).AccountingProcessesPage),
  deskRoute("accounting", "consultoria-contabil/orientacoes", async () => (await accounting()).AccountingGuidancePage),
  deskRoute("accounting", "consultoria-contabil/contato", async () => (await accounting()).AccountingContactsPage),
  deskRoute("accounting", "consultoria-contabil/noticias", async () => (await accounting()).AccountingNewsPage),
  deskRoute("accounting", "consultoria-contabil/noticias/detalhe", newsDetail),
  deskRoute("accounting", "consultoria-contabil/informacoes", async () => (await accounting()).AccountingInformationPage),
  deskRoute("accounting", "consultoria-contabil/eventos", async () => (await accounting()).AccountingEventsPage),
  deskRoute("accounting", "consultoria-contabil/agendamentos", async () => (await accounting()).AccountingAppointmentsPage),
  // The political desk's shared pages; its landing and themes are the political feature's.
  deskRoute("political", "politico-sindical/contato", async () => (await political()).PoliticalContactsPage),
  deskRoute("political", "politico-sindical/informacoes", async () => (await political()).PoliticalInformationPage),
  deskRoute("political", "politico-sindical/noticias", async () => (await political()).PoliticalNewsPage),
  deskRoute("political", "politico-sindical/noticias/detalhe", newsDetail),
  deskRoute("political", "politico-sindical/cafe-com-politica", async () => (await political()).CoffeeWithPoliticsPage),
  deskRoute("political", "politico-sindical/transforma", async () => (await political()).TransformaPage),
];
