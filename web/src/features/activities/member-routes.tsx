// The member's activity screens, children of /homepage (the home is the member area's
// index), each loaded when first opened. Apart from routes.tsx so that only the member
// area's chunk carries this table, not the entry (the member area imports it through
// the feature's index).
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

const activityPage = async () => (await import("@/features/activities/components/activity-page")).ActivityPage;

export const activitiesMemberRoutes: RouteObject[] = [
  {
    index: true,
    element: lazyScreen(async () => (await import("@/features/activities/components/home-page")).HomePage),
  },
  {
    path: "categoria/:id",
    element: lazyScreen(async () => (await import("@/features/activities/components/category-page")).CategoryPage),
  },
  {
    path: "atividades",
    element: lazyScreen(async () => (await import("@/features/activities/components/activities-page")).ActivitiesPage),
  },
  { path: "atividades/:id", element: lazyScreen(activityPage) },
  { path: "atividade/:id", element: lazyScreen(activityPage) },
  {
    path: "quizzes",
    element: lazyScreen(async () => (await import("@/features/activities/components/quiz-list-page")).QuizListPage),
  },
  {
    path: "quizzes/quiz",
    element: lazyScreen(async () => (await import("@/features/activities/components/quiz-runner-page")).QuizRunnerPage),
  },
  {
    path: "survey/:surveyId/:actionId",
    element: lazyScreen(async () => (await import("@/features/activities/components/survey-page")).SurveyPage),
  },
  {
    path: "search/:term",
    element: lazyScreen(async () => (await import("@/features/activities/components/search-page")).SearchPage),
  },
];
