// Catches what a part of the page throws while rendering (a chunk that failed to load after a
// deploy, a bug), so the rest of the page stays: a decorative part shows nothing, the app as a
// whole shows a page to reload from.
import { Component, type ErrorInfo, type ReactNode } from "react";
import { MessagePage } from "@/components/message-page";

interface ErrorBoundaryProps {
  children: ReactNode;
  /** What shows instead of the failed part. */
  fallback: ReactNode;
}

interface ErrorBoundaryState {
  failed: boolean;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  state: ErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { failed: true };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error("A part of the page failed to render", error, info.componentStack);
  }

  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** The app's last resort: the spec's text for an unreadable failure, and a way back. */
export function AppCrashPage() {
  return (
    <MessagePage title="Erro">
      <p>Erro interno no servidor</p>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        Recarregar a página
      </button>
    </MessagePage>
  );
}
