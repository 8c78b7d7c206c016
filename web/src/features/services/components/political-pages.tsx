// The political-union pages made of the desks' shared pages (spec 002 "Political": contato,
// informacoes, noticias, noticias/detalhe and the two video playlists); its landing and
// themes are the political feature's own. routes.tsx shows them only where the station
// offers the desk.
import { ServiceContactsPage, ServiceTextPage, ServiceVideosPage } from "@/features/services/components/service-content";
import { ServiceNewsPage } from "@/features/services/components/service-news-page";

export const PoliticalContactsPage = () => <ServiceContactsPage desk="political" />;
export const PoliticalInformationPage = () => (
  <ServiceTextPage desk="political" field="informacoes" title="Informações" />
);
export const PoliticalNewsPage = () => <ServiceNewsPage desk="political" />;
export const CoffeeWithPoliticsPage = () => (
  <ServiceVideosPage desk="political" slug="cafe-com-politica" title="Café com Política" />
);
export const TransformaPage = () => <ServiceVideosPage desk="political" slug="transforma" title="Transforma" />;
