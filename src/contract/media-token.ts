/**
 * A signed media token folder, `{expiry}.{hmac}` (src/media/segment-token.ts): the expiry in Unix seconds (group 1),
 * then 22 characters of HMAC (group 2). Shared by the server's check, its request log and the player, as a
 * RegExp source to anchor where each needs it. No imports: the player's chunk takes it.
 */
export const TOKEN_FOLDER_SOURCE = '(\\d{1,12})\\.([A-Za-z0-9_-]{22})';
