import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { keepStoredUser } from "@/features/accounts/signup/api/update-participant";
import type { ImagePayload, ProfileUpdated } from "@/types/api";

export function updateProfileImage(userId: number, image: ImagePayload) {
  return api.put<ProfileUpdated>(`/update-user-profile-image/${userId}`, image);
}

export function useUpdateProfileImage(userId: number) {
  return useMutation({
    mutationFn: (image: ImagePayload) => updateProfileImage(userId, image),
    onSuccess: ({ user }) => keepStoredUser(user),
  });
}
