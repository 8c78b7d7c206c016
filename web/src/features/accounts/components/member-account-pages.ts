// The profile and the member card load together, as one chunk: each chunk of its own would
// add its name to what every first page load carries.
export { MemberCardPage } from "./member-card-page";
export { ProfilePage } from "./profile-page";
