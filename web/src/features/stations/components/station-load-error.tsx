import { MessagePage } from "@/components/message-page";

export function StationLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <MessagePage title="Não foi possível carregar esta página.">
      <p>Verifique a sua conexão com a internet e tente novamente em alguns instantes.</p>
      <button type="button" className="button button--primary" onClick={onRetry}>
        Tentar novamente
      </button>
    </MessagePage>
  );
}
