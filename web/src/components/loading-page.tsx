import "./loading-page.css";

export function LoadingPage() {
  return (
    <main className="loading-page" role="status" aria-live="polite">
      <span className="loading-page__spinner" aria-hidden="true" />
      <p>Aguarde um momento...</p>
    </main>
  );
}
