import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { appRoutes } from "@/app/app-routes";
import { AppProvider } from "@/app/provider";

const router = createBrowserRouter(appRoutes);

export function App() {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
