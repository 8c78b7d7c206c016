// The member services' public surface for other features: the gate that shows a desk's
// pages only where the station offers the desk (the health and political pages use it too).
export { DeskGate } from "./components/desk-gate";
