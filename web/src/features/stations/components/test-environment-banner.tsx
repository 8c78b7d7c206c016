import "./test-environment-banner.css";

export const TEST_ENVIRONMENT_TITLE = "Ambiente de testes";
export const TEST_ENVIRONMENT_TEXT = "Os pagamentos são simulados e nada é cobrado de verdade.";

/**
 * Says on every page that nothing paid here is real (GET /api/config's `test_environment`).
 * It sits in the page's flow above everything else, so it covers nothing, and it is a
 * labelled landmark rendered once for the whole app: screen readers meet it first and do not
 * hear it again on each navigation (it is not a live region).
 */
export function TestEnvironmentBanner() {
  return (
    <aside className="test-environment-banner" aria-labelledby="test-environment-title">
      <p>
        <strong id="test-environment-title">{TEST_ENVIRONMENT_TITLE}</strong> {TEST_ENVIRONMENT_TEXT}
      </p>
    </aside>
  );
}
